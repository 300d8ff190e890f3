package jit

import (
	"fmt"
	"io"

	"golang.org/x/arch/x86/x86asm"

	"github.com/weft-hdl/weft/sir"
)

// Disassemble writes k's machine code to w, one instruction per line:
// offset from the kernel's entry, then the instruction in Intel syntax
// (branch targets as offsets), with a "bN:" line where the code of SIR
// block N starts (the names of --dump-sir and of the perf map). It is for
// people reading what a design compiles to (weft plan --dump-asm); a
// closed kernel has no code to show.
func (k *Kernel) Disassemble(w io.Writer) error {
	if k.code == nil || k.code.mem == nil {
		return fmt.Errorf("jit: kernel %q has no code (closed)", k.name)
	}
	code := k.code.mem[:k.code.size]
	labels := map[int][]sir.BlockID{}
	for _, bc := range k.blocks {
		if bc.hi > bc.lo {
			labels[bc.lo] = append(labels[bc.lo], bc.id)
		}
	}
	for off := 0; off < len(code); {
		for _, id := range labels[off] {
			if _, err := fmt.Fprintf(w, "%s:\n", id); err != nil {
				return err
			}
		}
		inst, err := x86asm.Decode(code[off:], 64)
		if err != nil || inst.Len == 0 {
			if _, err := fmt.Fprintf(w, "%6x  .byte %#02x\n", off, code[off]); err != nil {
				return err
			}
			off++
			continue
		}
		if _, err := fmt.Fprintf(w, "%6x  %s\n", off, x86asm.IntelSyntax(inst, uint64(off), nil)); err != nil {
			return err
		}
		off += inst.Len
	}
	return nil
}
