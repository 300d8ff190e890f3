// Package opt is SIR's optimizer: one pass table, run in order on every
// unit (kernels and lane tasks alike), in the manner of Go's SSA compile.go.
// Each pass lives in its own file; every pass leaves a unit that passes
// sir.Check (Options.Check verifies that after each pass, and the tests
// always set it). Reuse (gvn.go and dse.go: values reused and stores
// removed across blocks) lies outside the table: the native backend
// applies it once it knows which code it loops over instances.
//
// Passes treat registers per SIR's rules: a register may be assigned more
// than once, so facts about a register (its constant value, the register it
// copies) are used globally only for single-assignment registers — whose
// definition dominates every read, by definite assignment — and otherwise
// only within the block that established them.
package opt

import (
	"fmt"
	"io"

	"github.com/weft-hdl/weft/sir"
)

// Options configure Run.
type Options struct {
	// Dump, when set, is called with the pass name and the unit after every
	// pass (and with "start" before the first), e.g. to print it.
	Dump func(pass string, u *sir.Unit)
	// Check runs sir.Check after every pass and stops at the first failure.
	Check bool
	// Skip names passes not to run.
	Skip map[string]bool
}

type pass struct {
	name string
	fn   func(u *sir.Unit)
}

// passes is the pipeline, in order. cse runs before deadcode and
// coalesce: its copies are propagated, the recomputations it replaced die,
// and with the reloads between two stores to the same bytes gone coalesce
// sees the first store overwritten.
var passes = [...]pass{
	{"cfg", cleanupCFG},        // thread jumps, merge straight-line blocks, drop unreachable ones
	{"fold", fold},             // constant folding and algebraic simplification (sir.Eval semantics)
	{"copyprop", copyprop},     // reads of copies read the source
	{"late fold", fold},        // constants exposed by copy propagation
	{"cse", cse},               // recomputed values and reloaded bytes reuse the register holding them
	{"cse copyprop", copyprop}, // reads of cse's copies read the holder
	{"bitmove", bitmove},       // loads of stored bits read the register; runs of storebits packed into one store
	{"deadcode", deadcode},     // unused pure instructions, unreachable blocks
	{"ifconvert", ifconvert},   // short ifs that only compute and store become muxed stores
	{"coalesce", coalesce},     // adjacent constant/extract stores merged, overwritten stores removed
	{"late deadcode", deadcode},
	{"late cfg", cleanupCFG}, // folded branches leave empty blocks behind
	{"final rounds", nil},    // finalRounds, which honours Options.Skip
	// xor trees of single bits (in the merged blocks) become masked words
	// and a popcount; when some did, finalRounds again: the trees' inner
	// xors and leaves die.
	{"parity", nil},
}

// composite runs the passes the table lists without a function.
func composite(name string, u *sir.Unit, skip map[string]bool) {
	switch name {
	case "final rounds":
		finalRounds(u, skip)
	case "parity":
		if parity(u) {
			finalRounds(u, skip)
		}
	}
}

// maxFinalRounds bounds finalRounds.
const maxFinalRounds = 4

// finalRounds repeats cfg, fold, copyprop, cse, deadcode and coalesce
// while the unit shrinks: blocks merged by cfg expose constants to fold (a
// variable built from constants in one block and read in the next) and
// repeated loads to cse, folded branches leave blocks for cfg to merge, and
// bit moves fold rewrote become fields coalesce can merge.
// Each round's passes are skipped under the names the pipeline gives them
// (Options.Skip "cse" turns cse off everywhere).
func finalRounds(u *sir.Unit, skip map[string]bool) {
	round := []pass{{"cfg", cleanupCFG}, {"fold", fold}, {"copyprop", copyprop}, {"cse", cse},
		{"copyprop", copyprop}, {"deadcode", deadcode}, {"coalesce", coalesce}, {"deadcode", deadcode}}
	size := func() int { return u.NumInsts() + len(u.Blocks) }
	for range maxFinalRounds {
		before := size()
		for _, p := range round {
			if !skip[p.name] {
				p.fn(u)
			}
		}
		if size() >= before {
			return
		}
	}
}

// Passes lists the pass names in order.
func Passes() []string {
	names := make([]string, len(passes))
	for i, p := range passes {
		names[i] = p.name
	}
	return names
}

// Run optimizes u in place.
func Run(u *sir.Unit, o Options) error {
	if o.Dump != nil {
		o.Dump("start", u)
	}
	for _, p := range passes {
		if o.Skip[p.name] {
			continue
		}
		if p.fn == nil {
			composite(p.name, u, o.Skip)
		} else {
			p.fn(u)
		}
		if o.Dump != nil {
			o.Dump(p.name, u)
		}
		if o.Check {
			if err := sir.Check(u); err != nil {
				return fmt.Errorf("opt: after pass %s: %w", p.name, err)
			}
		}
	}
	return nil
}

// RunPass runs the named pass alone (for tests and tools).
func RunPass(u *sir.Unit, name string) error {
	for _, p := range passes {
		if p.name == name {
			if p.fn == nil {
				composite(p.name, u, nil)
			} else {
				p.fn(u)
			}
			return nil
		}
	}
	return fmt.Errorf("opt: no pass %q", name)
}

// DumpTo returns an Options.Dump that prints the unit after every pass to
// w, each under a "## <unit> after <pass>" line (what `weft plan --dump`
// shows).
func DumpTo(w io.Writer) func(pass string, u *sir.Unit) {
	return func(pass string, u *sir.Unit) {
		fmt.Fprintf(w, "## %s after %s\n", u.Name, pass)
		sir.Fprint(w, u)
	}
}
