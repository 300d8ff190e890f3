package elab

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

// Constants with x and z bits. Elaboration folds them exactly, in IEEE
// 1800's four-state arithmetic (design.Fold*): operators, === and ==?,
// case matching, parameters that hold x. Run-time values are 2-state, so
// where such a constant becomes part of run-time logic or of a variable's
// initial value its x and z bits read as 0 (what Verilator's --x-assign 0
// does), and the XZCONST warning says so at the literal. Operators whose
// answer about a 2-state value is known anyway stay exact: a run-time
// value never === a constant with x bits, and the x and z bits of the
// right side of ==? and of casez/casex/inside labels are don't-care bits.

// xzReadsZero notes that c's x and z bits read as 0 at run time; the
// warnings are given at the end of elaboration (warnXZ).
func (e *elab) xzReadsZero(c *design.Const) {
	if e.xzSeen == nil {
		e.xzSeen = map[design.Pos]bool{}
	}
	if !e.xzSeen[c.U.At] {
		e.xzSeen[c.U.At] = true
		e.xzSites = append(e.xzSites, c.U.At)
	}
}

// warnRunTimeXZ notes every constant with x or z bits left in the
// processes and functions of the design, then warns once per source file,
// at its first such literal: a CPU that assigns 'bx as a don't-care in
// twenty places gets one warning, not twenty.
func (e *elab) warnRunTimeXZ(procs []*design.Process, fns []*design.Function) {
	visit := func(x design.Expr) {
		if c, ok := x.(*design.Const); ok && c.U != nil {
			e.xzReadsZero(c)
		}
	}
	for _, p := range procs {
		design.WalkStmtExprs(p.Body, visit)
	}
	for _, f := range fns {
		if f.Body != nil {
			design.WalkStmtExprs(f.Body, visit)
		}
	}
	byFile := map[string][]design.Pos{}
	var files []string
	for _, p := range e.xzSites {
		if byFile[p.File] == nil {
			files = append(files, p.File)
		}
		byFile[p.File] = append(byFile[p.File], p)
	}
	for _, f := range files {
		sites := byFile[f]
		slices.SortFunc(sites, func(a, b design.Pos) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
		})
		more := ""
		if n := len(sites) - 1; n > 0 {
			more = fmt.Sprintf(" (here and in %d more places in %s: %s)", n, filepath.Base(f), lineList(sites[1:]))
		}
		e.warnc(hpos(sites[0]), hdl.CodeXZConst, "x or z bits of a constant read as 0 at run time%s; weft is 2-state, as Verilator with --x-assign 0", more)
	}
}

// lineList names the lines of sites, the first few of them.
func lineList(sites []design.Pos) string {
	var b strings.Builder
	b.WriteString("line")
	if len(sites) > 1 {
		b.WriteString("s")
	}
	for i, p := range sites {
		if i == 6 {
			b.WriteString(", ...")
			break
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %d", p.Line)
	}
	return b.String()
}
