package elab

import (
	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

// finestTimescale is the directive with the finest precision (the first of
// equals), nil when there is none: the precision a simulator of the whole
// design keeps time in.
func finestTimescale(list []hdl.Timescale) *design.Timescale {
	var best *design.Timescale
	for _, ts := range list {
		if best == nil || ts.Precision < best.Precision {
			best = &design.Timescale{Unit: ts.Unit, Precision: ts.Precision, Pos: dpos(ts.Pos)}
		}
	}
	return best
}
