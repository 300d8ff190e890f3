package elab

import (
	"math/big"
	"testing"

	"github.com/weft-hdl/weft/design"
)

// Wildcards inside concatenated and replicated case labels keep their
// positions: the decoder idiom {funct7, funct3, OPCODE} with ? fields.
func TestCaseLabelWildcardsThroughConcat(t *testing.T) {
	d := mustElab(t, `
module m(input logic [16:0] x, output logic [1:0] y);
  localparam logic [6:0] OP = 7'b0110111;
  always_comb
    casez (x)
      {7'b???????, 3'b0?1, OP}: y = 2'd1;
      {{2{4'b1??0}}, 9'd5}:     y = 2'd2;
      default:                  y = 2'd0;
    endcase
endmodule`)
	var c *design.Case
	design.WalkStmt(d.Comb[0].Body, func(s design.Stmt) bool {
		if cs, ok := s.(*design.Case); ok {
			c = cs
		}
		return true
	})
	if c == nil {
		t.Fatal("no case statement")
	}
	masks := []*big.Int{
		// funct7 (bits 16:10) and the middle bit of funct3 (bit 8) are wild.
		mask17(0x1ffff &^ (0x1fc00 | 0x100)),
		// 4'b1??0 twice above a 9-bit field: bits 15,14 and 11,10 are wild.
		mask17(0x1ffff &^ (1<<15 | 1<<14 | 1<<11 | 1<<10)),
	}
	for i, m := range masks {
		got := c.Items[i].Labels[0].Mask
		if got == nil || got.Cmp(m) != 0 {
			t.Errorf("label %d mask = %v, want %b", i, got, m)
		}
	}
}

func mask17(v uint64) *big.Int { return new(big.Int).SetUint64(v & 0x1ffff) }
