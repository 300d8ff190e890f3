package ffsplit

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sort"

	"github.com/weft-hdl/weft/sir"
)

// Proc is one always_ff process of a trigger group, as lowered for evaluation.
type Proc struct {
	Group int // trigger group (index into slt Schedule.FF)
	Cost  int // cost units of its evaluate + apply (>= 1; 0 counts as 1)
	// Writes are the object-relative bytes its evaluate/apply may store
	// (staging copies, NBA slots, blocking targets, homes it publishes):
	// same Home and intersecting [Lo,Hi) = overlap. Empty ranges are
	// ignored.
	Writes []sir.Range
	// Accesses are the object-relative bytes of design state it reads or
	// writes (for lane affinity).
	Accesses []sir.Range
	Lane0    bool // stores the shared system block ($random's seed): lane 0
	// Inst is the instance (index into Input.InstParent) the process
	// belongs to, -1 when unknown. It is ignored when Input.InstParent is
	// empty, so callers without an instance tree leave it zero.
	Inst int
}

// InstCost is comb logic of one instance and its cost (Input.LaneInst).
type InstCost struct {
	Inst int // index into Input.InstParent
	Cost int // >= 0
}

// Input describes the sequential update to split.
type Input struct {
	Procs []Proc // in sequential order: by group, then the group's Evaluate order
	Lanes int    // >= 1
	// LaneAccess[l] are the object-relative bytes lane l accesses in the
	// partitioned comb settle (nil entries allowed; whole field may be nil;
	// at most Lanes entries, missing ones count as nil).
	LaneAccess [][]sir.Range
	// InstParent describes the instance tree (instances or scopes, as the
	// caller sees fit): InstParent[i] is the parent of instance i, -1 for
	// a root. A parent's index is lower than its children's, which rules
	// out cycles. Empty: no instance information.
	InstParent []int
	// LaneInst[l] lists, per lane, the instances whose comb logic that
	// lane holds in the partitioned settle, with its cost (repeats add
	// up; at most Lanes entries, missing ones count as empty).
	LaneInst [][]InstCost
}

// Options tune Split. The zero value is the default.
type Options struct {
	// PartsPerLane is how many parts per lane the splitter aims for when a
	// group is large (0: 2).
	PartsPerLane int
	// Balance is how far above total/Lanes a lane's load may grow when a
	// cluster follows its instance or byte affinity (0: 1.1).
	Balance float64
	// CutSlack is how far, in fractions of an ideal part's cost, a cut of
	// a large group may move from its ideal prefix cost to reach a place
	// where the instance subtree changes (0: 0.5).
	CutSlack float64
}

// Part is a contiguous run of one group's processes.
type Part struct {
	Group int
	Procs []int // indexes into Input.Procs, contiguous, ascending
	Cost  int
	Lane0 bool
}

// Plan is the result of Split.
type Plan struct {
	Parts []Part // in sequential order
	// Clusters are the parts grouped because they write overlapping bytes
	// (each cluster placed as a unit), ordered by first part; each
	// cluster's parts ascending.
	Clusters [][]int
	Cluster  []int   // Cluster[p] = index in Clusters of part p
	Lane     []int   // Lane[p] = lane of part p
	Lanes    [][]int // per lane, its part indexes ascending
	Loads    []int   // per lane, summed cost
	// Makespan is the max load.
	Makespan int
	// SingleCost is the total cost (the load of one lane running
	// everything).
	SingleCost int
}

// MaxLanes is the largest Input.Lanes Split accepts (the plan holds
// per-lane slices).
const MaxLanes = 1 << 16

const (
	defaultPartsPerLane = 2
	defaultBalance      = 1.1
	defaultCutSlack     = 0.5
)

// Split cuts the trigger groups of in into parts, clusters parts that
// write overlapping bytes and places the clusters on in.Lanes lanes (see
// the package documentation for the rules). It returns an error for
// invalid input or options and never panics.
func Split(in Input, opts Options) (*Plan, error) {
	ppl, balance, slack, err := checkOptions(opts)
	if err != nil {
		return nil, err
	}
	costs, total, err := checkInput(in)
	if err != nil {
		return nil, err
	}
	t := newInsts(in)
	p := &Plan{SingleCost: total}
	p.Parts = cut(in.Procs, costs, total, in.Lanes, ppl, t, slack)
	p.Clusters, p.Cluster = cluster(in.Procs, p.Parts)
	place(p, in, balance, t)
	return p, nil
}

func checkOptions(opts Options) (ppl int, balance, slack float64, err error) {
	ppl = opts.PartsPerLane
	switch {
	case ppl == 0:
		ppl = defaultPartsPerLane
	case ppl < 0:
		return 0, 0, 0, fmt.Errorf("ffsplit: PartsPerLane %d < 0", ppl)
	}
	if balance, err = factor("Balance", opts.Balance, defaultBalance); err != nil {
		return 0, 0, 0, err
	}
	if slack, err = factor("CutSlack", opts.CutSlack, defaultCutSlack); err != nil {
		return 0, 0, 0, err
	}
	return ppl, balance, slack, nil
}

// checkInput validates in and returns the effective cost of every process
// and their total.
func checkInput(in Input) ([]int, int, error) {
	if in.Lanes < 1 {
		return nil, 0, fmt.Errorf("ffsplit: Lanes %d < 1", in.Lanes)
	}
	if in.Lanes > MaxLanes {
		return nil, 0, fmt.Errorf("ffsplit: Lanes %d > %d", in.Lanes, MaxLanes)
	}
	if len(in.LaneAccess) > in.Lanes {
		return nil, 0, fmt.Errorf("ffsplit: %d LaneAccess entries for %d lanes", len(in.LaneAccess), in.Lanes)
	}
	for i, par := range in.InstParent {
		if par < -1 || par >= i {
			return nil, 0, fmt.Errorf("ffsplit: instance %d: parent %d (want -1 or a lower index)", i, par)
		}
	}
	if len(in.LaneInst) > in.Lanes {
		return nil, 0, fmt.Errorf("ffsplit: %d LaneInst entries for %d lanes", len(in.LaneInst), in.Lanes)
	}
	for l, ics := range in.LaneInst {
		for _, ic := range ics {
			if ic.Inst < 0 || ic.Inst >= len(in.InstParent) {
				return nil, 0, fmt.Errorf("ffsplit: lane %d: instance %d of %d", l, ic.Inst, len(in.InstParent))
			}
			if ic.Cost < 0 {
				return nil, 0, fmt.Errorf("ffsplit: lane %d: instance %d: negative cost %d", l, ic.Inst, ic.Cost)
			}
		}
	}
	costs := make([]int, len(in.Procs))
	total := 0
	for i, pr := range in.Procs {
		if pr.Group < 0 {
			return nil, 0, fmt.Errorf("ffsplit: proc %d: negative group %d", i, pr.Group)
		}
		if i > 0 && pr.Group < in.Procs[i-1].Group {
			return nil, 0, fmt.Errorf("ffsplit: proc %d: group %d after group %d (procs must be ordered by group)", i, pr.Group, in.Procs[i-1].Group)
		}
		if len(in.InstParent) > 0 && (pr.Inst < -1 || pr.Inst >= len(in.InstParent)) {
			return nil, 0, fmt.Errorf("ffsplit: proc %d: instance %d of %d", i, pr.Inst, len(in.InstParent))
		}
		c := pr.Cost
		switch {
		case c < 0:
			return nil, 0, fmt.Errorf("ffsplit: proc %d: negative cost %d", i, c)
		case c == 0:
			c = 1
		}
		if total > math.MaxInt-c {
			return nil, 0, errors.New("ffsplit: total cost overflows")
		}
		costs[i] = c
		total += c
	}
	return costs, total, nil
}

// cut splits every group's run of processes into parts: a large group into
// runs of about equal cost with boundaries moved to instance changes
// (boundaries), then every run where the preferred lane of its processes'
// instances changes (so that placement can follow the comb logic of each).
func cut(procs []Proc, costs []int, total, lanes, ppl int, t *insts, slack float64) []Part {
	// m = Lanes × PartsPerLane, saturating.
	hi, lo := bits.Mul64(uint64(lanes), uint64(ppl))
	m := lo
	if hi != 0 || m > math.MaxInt64 {
		m = math.MaxInt64
	}
	var parts []Part
	for start := 0; start < len(procs); {
		end := start + 1
		for end < len(procs) && procs[end].Group == procs[start].Group {
			end++
		}
		g := 0
		for _, c := range costs[start:end] {
			g += c
		}
		n := end - start
		k := partsFor(uint64(g), uint64(total), m)
		if k > uint64(n) {
			k = uint64(n)
		}
		var keys, pref []int
		if t != nil {
			// keys[i] is the subtree, one level below the group's common
			// ancestor, that process i lies in: where it changes, a cut
			// does not split an instance (in a group of all cores, a core).
			anc := -1
			for i := start; i < end; i++ {
				anc = t.lca(anc, t.of(procs[i]))
			}
			keys = make([]int, n)
			pref = make([]int, n)
			for i := start; i < end; i++ {
				keys[i-start] = t.childOf(t.of(procs[i]), t.depthOf(anc))
				pref[i-start] = t.prefLane(t.of(procs[i]))
			}
		}
		bounds := boundaries(costs[start:end], g, int(k), keys, slack)
		emit := func(a, b int) {
			pt := Part{Group: procs[start].Group, Procs: make([]int, 0, b-a)}
			for i := a; i < b; i++ {
				pt.Procs = append(pt.Procs, i)
				pt.Cost += costs[i]
				pt.Lane0 = pt.Lane0 || procs[i].Lane0
			}
			parts = append(parts, pt)
		}
		for j := 0; j+1 < len(bounds); j++ {
			a, b := start+bounds[j], start+bounds[j+1]
			// Affinity cuts: a new part where a process prefers another
			// lane than the last process of the run that prefers one.
			// Parts of one lane run as one task, so these cost no waits.
			last := -1
			for i := a; i < b; i++ {
				lp := -1
				if pref != nil {
					lp = pref[i-start]
				}
				if lp < 0 {
					continue
				}
				if last >= 0 && lp != last {
					emit(a, i)
					a = i
				}
				last = lp
			}
			emit(a, b)
		}
		start = end
	}
	return parts
}

// partsFor is how many parts a group of cost g gets: 1 unless
// g > total/m, else ceil(g×m/total). g <= total, so the quotient fits.
func partsFor(g, total, m uint64) uint64 {
	if total == 0 || m == 0 {
		return 1
	}
	hi, lo := bits.Mul64(g, m)
	// g×m > total ⇔ g > total/m.
	if hi == 0 && lo <= total {
		return 1
	}
	q, r := bits.Div64(hi, lo, total) // hi < total because g <= total
	if r != 0 {
		q++
	}
	return q
}

// boundaries returns k+1 cut positions 0 = b0 < b1 < … < bk = len(costs):
// bj is the position whose prefix cost is nearest to j×g/k (the lower on
// ties), leaving at least one process for every later part. With keys
// (one per process, nil for none), bj then moves to the nearest position
// i with keys[i-1] != keys[i] (the lower on ties) whose prefix cost is
// within slack×g/k of j×g/k, if there is one.
func boundaries(costs []int, g, k int, keys []int, slack float64) []int {
	n := len(costs)
	if k <= 1 {
		return []int{0, n}
	}
	prefix := make([]int, n+1)
	for i, c := range costs {
		prefix[i+1] = prefix[i] + c
	}
	b := make([]int, 0, k+1)
	b = append(b, 0)
	prev := 0
	for j := 1; j < k; j++ {
		// Compare k×prefix with j×g to stay in integers; both are at most
		// about k×total, k <= n, far from overflow for realistic costs and
		// wrapping (not panicking) otherwise.
		lo, hi := prev+1, n-(k-j)
		// First i in [lo,hi] with k×prefix[i] >= j×g.
		i := lo + sort.Search(hi-lo+1, func(x int) bool { return k*prefix[lo+x] >= j*g })
		best := i
		if best > hi {
			best = hi
		} else if best > lo && j*g-k*prefix[best-1] <= k*prefix[best]-j*g {
			best--
		}
		if keys != nil {
			best = snap(prefix, keys, best, lo, hi, j*g, k, slack*float64(g))
		}
		b = append(b, best)
		prev = best
	}
	return append(b, n)
}

// snap moves boundary i in [lo,hi] to the nearest position p in [lo,hi]
// where keys[p-1] != keys[p] and |k×prefix[p] − target| <= tol (lower p on
// ties), or leaves it. Costs are at least 1, so the distance grows
// monotonically away from i and each scan stops at the first position out
// of tolerance.
func snap(prefix, keys []int, i, lo, hi, target, k int, tol float64) int {
	dist := func(p int) float64 { return math.Abs(float64(k*prefix[p]) - float64(target)) }
	change := func(p int) bool { return p > 0 && keys[p-1] != keys[p] }
	best, bestD := -1, 0.0
	for p := i; p >= lo; p-- {
		d := dist(p)
		if d > tol {
			break
		}
		if change(p) {
			best, bestD = p, d
			break
		}
	}
	for p := i + 1; p <= hi; p++ {
		d := dist(p)
		if d > tol || (best >= 0 && d >= bestD) {
			break
		}
		if change(p) {
			best = p
			break
		}
	}
	if best < 0 {
		return i
	}
	return best
}

// cluster joins parts whose processes write overlapping bytes.
func cluster(procs []Proc, parts []Part) ([][]int, []int) {
	parent := make([]int, len(parts))
	for i := range parent {
		parent[i] = i
	}
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	union := func(a, b int) {
		a, b = find(a), find(b)
		if a == b {
			return
		}
		if a > b {
			a, b = b, a
		}
		parent[b] = a // root = lowest part
	}

	type iv struct {
		home   sir.HomeID
		lo, hi int
		part   int
	}
	var ivs []iv
	for pi, pt := range parts {
		for _, i := range pt.Procs {
			for _, w := range procs[i].Writes {
				if w.Lo < w.Hi {
					ivs = append(ivs, iv{w.Home, w.Lo, w.Hi, pi})
				}
			}
		}
	}
	sort.Slice(ivs, func(a, b int) bool {
		x, y := ivs[a], ivs[b]
		if x.home != y.home {
			return x.home < y.home
		}
		if x.lo != y.lo {
			return x.lo < y.lo
		}
		if x.hi != y.hi {
			return x.hi < y.hi
		}
		return x.part < y.part
	})
	// Sweep per home: an interval starting before the furthest end seen so
	// far overlaps the interval owning that end.
	for s := 0; s < len(ivs); {
		reach, owner := ivs[s].hi, ivs[s].part
		e := s + 1
		for ; e < len(ivs) && ivs[e].home == ivs[s].home; e++ {
			x := ivs[e]
			if x.lo < reach {
				union(x.part, owner)
			}
			if x.hi > reach || x.lo >= reach {
				reach, owner = x.hi, x.part
			}
		}
		s = e
	}

	of := make([]int, len(parts))
	idx := make(map[int]int)
	var clusters [][]int
	for pi := range parts {
		r := find(pi)
		ci, ok := idx[r]
		if !ok {
			ci = len(clusters)
			idx[r] = ci
			clusters = append(clusters, nil)
		}
		clusters[ci] = append(clusters[ci], pi)
		of[pi] = ci
	}
	return clusters, of
}

// span is a byte range of one home.
type span struct {
	home   sir.HomeID
	lo, hi int
}

// normalize sorts ranges by home and Lo and merges overlapping or adjacent
// ones, dropping empty ranges.
func normalize(rs []sir.Range) []span {
	var out []span
	for _, r := range rs {
		if r.Lo < r.Hi {
			out = append(out, span{r.Home, r.Lo, r.Hi})
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].home != out[b].home {
			return out[a].home < out[b].home
		}
		return out[a].lo < out[b].lo
	})
	m := out[:0]
	for _, s := range out {
		if n := len(m); n > 0 && m[n-1].home == s.home && s.lo <= m[n-1].hi {
			if s.hi > m[n-1].hi {
				m[n-1].hi = s.hi
			}
			continue
		}
		m = append(m, s)
	}
	return m
}

// overlapBytes is the number of bytes two normalized span lists share.
func overlapBytes(a, b []span) int {
	n := 0
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		x, y := a[i], b[j]
		switch {
		case x.home < y.home:
			i++
			continue
		case x.home > y.home:
			j++
			continue
		}
		lo, hi := max(x.lo, y.lo), min(x.hi, y.hi)
		if lo < hi {
			d := hi - lo
			if d < 0 || n > math.MaxInt-d { // wrapped: saturate
				return math.MaxInt
			}
			n += d
		}
		if x.hi < y.hi {
			i++
		} else {
			j++
		}
	}
	return n
}

// place assigns every cluster a lane and fills the lane fields of p.
func place(p *Plan, in Input, balance float64, t *insts) {
	lanes := in.Lanes
	p.Lane = make([]int, len(p.Parts))
	p.Lanes = make([][]int, lanes)
	p.Loads = make([]int, lanes)

	type cl struct {
		idx   int
		cost  int
		lane0 bool
	}
	cls := make([]cl, len(p.Clusters))
	for ci, parts := range p.Clusters {
		c := cl{idx: ci}
		for _, pi := range parts {
			c.cost += p.Parts[pi].Cost
			c.lane0 = c.lane0 || p.Parts[pi].Lane0
		}
		cls[ci] = c
	}
	order := make([]cl, len(cls))
	copy(order, cls)
	sort.SliceStable(order, func(a, b int) bool {
		x, y := order[a], order[b]
		if x.lane0 != y.lane0 {
			return x.lane0
		}
		if x.lane0 {
			return x.idx < y.idx
		}
		if x.cost != y.cost {
			return x.cost > y.cost
		}
		return x.idx < y.idx
	})

	laneSpans := make([][]span, lanes)
	hasAffinity := false
	for l, rs := range in.LaneAccess {
		laneSpans[l] = normalize(rs)
		hasAffinity = hasAffinity || len(laneSpans[l]) > 0
	}
	bound := balance * float64(p.SingleCost) / float64(lanes)

	assign := func(c cl, l int) {
		for _, pi := range p.Clusters[c.idx] {
			p.Lane[pi] = l
		}
		p.Loads[l] += c.cost
	}
	for _, c := range order {
		if c.lane0 || lanes == 1 {
			assign(c, 0)
			continue
		}
		lane := -1
		// The lane holding the comb logic of the cluster's instance
		// subtree first: the settle after the edge then reads the
		// registers on the lane that wrote them, with no wait.
		if t != nil {
			anc := -1
			for _, pi := range p.Clusters[c.idx] {
				for _, i := range p.Parts[pi].Procs {
					anc = t.lca(anc, t.of(in.Procs[i]))
				}
			}
			if l := t.prefLane(anc); l >= 0 && float64(p.Loads[l])+float64(c.cost) <= bound {
				lane = l
			}
		}
		if lane < 0 && hasAffinity {
			var acc []sir.Range
			for _, pi := range p.Clusters[c.idx] {
				for _, i := range p.Parts[pi].Procs {
					acc = append(acc, in.Procs[i].Accesses...)
				}
			}
			mine := normalize(acc)
			best, bestAff := -1, 0
			for l := range lanes {
				if a := overlapBytes(mine, laneSpans[l]); a > bestAff {
					best, bestAff = l, a
				}
			}
			if best >= 0 && float64(p.Loads[best])+float64(c.cost) <= bound {
				lane = best
			}
		}
		if lane < 0 {
			lane = 0
			for l := 1; l < lanes; l++ {
				if p.Loads[l] < p.Loads[lane] {
					lane = l
				}
			}
		}
		assign(c, lane)
	}
	for pi, l := range p.Lane {
		p.Lanes[l] = append(p.Lanes[l], pi)
	}
	for _, ld := range p.Loads {
		p.Makespan = max(p.Makespan, ld)
	}
}

// Check verifies the invariants of a plan Split returned for in: parts are
// contiguous runs of one group that cover every process once in order,
// parts writing overlapping bytes share a cluster, a cluster's parts share
// a lane, Lane0 parts are on lane 0, Lanes lists every part once
// ascending, and the loads, makespan and total cost add up.
func (p *Plan) Check(in Input) error {
	if p == nil {
		return errors.New("ffsplit: nil plan")
	}
	next := 0
	total := 0
	for pi, pt := range p.Parts {
		if len(pt.Procs) == 0 {
			return fmt.Errorf("part %d: no procs", pi)
		}
		cost, lane0 := 0, false
		for _, i := range pt.Procs {
			if i != next || i >= len(in.Procs) {
				return fmt.Errorf("part %d: proc %d, want %d", pi, i, next)
			}
			if in.Procs[i].Group != pt.Group {
				return fmt.Errorf("part %d: proc %d of group %d in group %d", pi, i, in.Procs[i].Group, pt.Group)
			}
			cost += max(in.Procs[i].Cost, 1)
			lane0 = lane0 || in.Procs[i].Lane0
			next++
		}
		if cost != pt.Cost || lane0 != pt.Lane0 {
			return fmt.Errorf("part %d: cost %d lane0 %v, want %d %v", pi, pt.Cost, pt.Lane0, cost, lane0)
		}
		total += cost
	}
	if next != len(in.Procs) {
		return fmt.Errorf("parts cover %d of %d procs", next, len(in.Procs))
	}
	if total != p.SingleCost {
		return fmt.Errorf("SingleCost %d, want %d", p.SingleCost, total)
	}
	if len(p.Lane) != len(p.Parts) || len(p.Cluster) != len(p.Parts) {
		return errors.New("Lane/Cluster length mismatch")
	}
	seen := make([]bool, len(p.Parts))
	for ci, parts := range p.Clusters {
		if len(parts) == 0 {
			return fmt.Errorf("cluster %d empty", ci)
		}
		if ci > 0 && parts[0] <= p.Clusters[ci-1][0] {
			return fmt.Errorf("cluster %d not ordered by first part", ci)
		}
		for k, pi := range parts {
			if pi < 0 || pi >= len(p.Parts) || seen[pi] {
				return fmt.Errorf("cluster %d: bad or repeated part %d", ci, pi)
			}
			if k > 0 && pi <= parts[k-1] {
				return fmt.Errorf("cluster %d: parts not ascending", ci)
			}
			seen[pi] = true
			if p.Cluster[pi] != ci {
				return fmt.Errorf("part %d: Cluster %d, want %d", pi, p.Cluster[pi], ci)
			}
			if p.Lane[pi] != p.Lane[parts[0]] {
				return fmt.Errorf("cluster %d split over lanes %d and %d", ci, p.Lane[parts[0]], p.Lane[pi])
			}
		}
	}
	for pi := range seen {
		if !seen[pi] {
			return fmt.Errorf("part %d in no cluster", pi)
		}
		if p.Parts[pi].Lane0 && p.Lane[pi] != 0 {
			return fmt.Errorf("Lane0 part %d on lane %d", pi, p.Lane[pi])
		}
	}
	// Overlapping writers share a cluster (quadratic; for tests and
	// debugging).
	for a := range p.Parts {
		for b := a + 1; b < len(p.Parts); b++ {
			if p.Cluster[a] != p.Cluster[b] && writesOverlap(in, p.Parts[a], p.Parts[b]) {
				return fmt.Errorf("parts %d and %d write overlapping bytes in clusters %d and %d", a, b, p.Cluster[a], p.Cluster[b])
			}
		}
	}
	if len(p.Lanes) != in.Lanes || len(p.Loads) != in.Lanes {
		return errors.New("Lanes/Loads length mismatch")
	}
	sum, mk, count := 0, 0, 0
	for l, parts := range p.Lanes {
		load := 0
		for k, pi := range parts {
			if pi < 0 || pi >= len(p.Parts) || p.Lane[pi] != l {
				return fmt.Errorf("lane %d: part %d not on it", l, pi)
			}
			if k > 0 && pi <= parts[k-1] {
				return fmt.Errorf("lane %d: parts not ascending", l)
			}
			load += p.Parts[pi].Cost
			count++
		}
		if load != p.Loads[l] {
			return fmt.Errorf("lane %d: load %d, want %d", l, p.Loads[l], load)
		}
		sum += load
		mk = max(mk, load)
	}
	if count != len(p.Parts) {
		return fmt.Errorf("lanes hold %d of %d parts", count, len(p.Parts))
	}
	if sum != total || mk != p.Makespan {
		return fmt.Errorf("loads sum %d makespan %d, want %d %d", sum, p.Makespan, total, mk)
	}
	return nil
}

func writesOverlap(in Input, a, b Part) bool {
	for _, i := range a.Procs {
		for _, j := range b.Procs {
			for _, x := range in.Procs[i].Writes {
				for _, y := range in.Procs[j].Writes {
					if x.Home == y.Home && x.Lo < x.Hi && y.Lo < y.Hi && x.Lo < y.Hi && y.Lo < x.Hi {
						return true
					}
				}
			}
		}
	}
	return false
}

// String summarizes the plan: per lane its load and parts.
func (p *Plan) String() string {
	s := fmt.Sprintf("%d parts, %d clusters, makespan %d of %d", len(p.Parts), len(p.Clusters), p.Makespan, p.SingleCost)
	for l, parts := range p.Lanes {
		s += fmt.Sprintf("\nlane %d load %d:", l, p.Loads[l])
		for _, pi := range parts {
			pt := p.Parts[pi]
			s += fmt.Sprintf(" g%d[%d:%d]", pt.Group, pt.Procs[0], pt.Procs[len(pt.Procs)-1]+1)
		}
	}
	return s
}

// factor checks the option name of value v: finite and not negative, 0
// meaning def.
func factor(name string, v, def float64) (float64, error) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0) || v < 0:
		return 0, fmt.Errorf("ffsplit: invalid %s %v", name, v)
	case v == 0:
		return def, nil
	}
	return v, nil
}
