package amd64

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// objdumpMem writes m as objdump's Intel syntax does.
func objdumpMem(m Mem) string {
	s := "[" + m.Base.String()
	if m.Scale != 0 {
		s += fmt.Sprintf("+%s*%d", m.Index, m.Scale)
	}
	switch {
	case m.Disp > 0 || m.Disp == 0 && m.Base.low() == 5:
		s += fmt.Sprintf("+0x%x", m.Disp)
	case m.Disp < 0:
		s += fmt.Sprintf("-0x%x", -int64(m.Disp))
	}
	return s + "]"
}

// TestEncodeAVX2 assembles every AVX2 form lowering uses, over every
// register and the memory operands of the other tests, and checks
// objdump's reading of them (skipped where objdump is not installed:
// x86asm does not decode VEX).
func TestEncodeAVX2(t *testing.T) {
	objdump, err := exec.LookPath("objdump")
	if err != nil {
		t.Skip("objdump not installed")
	}
	a := New()
	var want []string
	y := func(x XReg) string { return fmt.Sprintf("ymm%d", x) }
	mems := []Mem{M(RBX, 0), M(R15, 0x10), M(R14, -8), M(R13, 0), M(R12, 0x12345), MI(RBX, RCX, 4, 8), MI(R15, R9, 8, -0x100)}
	ops := []struct {
		op   PackedOp
		lane Lane
		name string
	}{{PAdd, 1, "vpaddb"}, {PAdd, 2, "vpaddw"}, {PAdd, 4, "vpaddd"}, {PAdd, 8, "vpaddq"},
		{PSub, 4, "vpsubd"}, {PSub, 8, "vpsubq"}, {PAnd, 4, "vpand"}, {PAndN, 4, "vpandn"},
		{POr, 4, "vpor"}, {PXor, 4, "vpxor"}, {PCmpEq, 4, "vpcmpeqd"}}
	for x := X0; x <= X15; x++ {
		p, q := (x+5)%16, 15-x
		for _, o := range ops {
			a.VPacked(o.op, o.lane, x, p, q)
			want = append(want, fmt.Sprintf("%s %s,%s,%s", o.name, y(x), y(p), y(q)))
		}
		a.VMovdqa(x, q)
		want = append(want, fmt.Sprintf("vmovdqa %s,%s", y(x), y(q)))
		a.VMovqXR(x, Reg(q))
		want = append(want, fmt.Sprintf("vmovq %s,%s", x, Reg(q)))
		a.VPunpcklqdq(x, p, q)
		want = append(want, fmt.Sprintf("vpunpcklqdq %s,%s,%s", x, p, q))
		a.VInserti128High(x, p, q)
		want = append(want, fmt.Sprintf("vinserti128 %s,%s,%s,0x1", y(x), y(p), q))
		a.VPbroadcastq(x, q)
		want = append(want, fmt.Sprintf("vpbroadcastq %s,%s", y(x), q))
		for _, m := range mems {
			a.VMovdquLoad(x, m)
			want = append(want, fmt.Sprintf("vmovdqu %s,YMMWORD PTR %s", y(x), objdumpMem(m)))
			a.VMovdquStore(m, x)
			want = append(want, fmt.Sprintf("vmovdqu YMMWORD PTR %s,%s", objdumpMem(m), y(x)))
		}
	}
	a.Vzeroupper()
	want = append(want, "vzeroupper")
	code, err := a.Finish()
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "code.bin")
	if err := os.WriteFile(f, code, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(objdump, "-D", "-b", "binary", "-m", "i386:x86-64", "-M", "intel", f).Output()
	if err != nil {
		t.Fatalf("objdump: %v", err)
	}
	var got []string
	for _, l := range strings.Split(string(out), "\n") {
		parts := strings.Split(l, "\t")
		if len(parts) < 3 || !strings.HasSuffix(strings.TrimSpace(parts[0]), ":") {
			continue
		}
		got = append(got, strings.Join(strings.Fields(parts[2]), " "))
	}
	if len(got) != len(want) {
		t.Fatalf("objdump read %d instructions, want %d", len(got), len(want))
	}
	bad := 0
	for i := range want {
		if got[i] != want[i] && bad < 10 {
			t.Errorf("instruction %d: objdump reads %q, want %q", i, got[i], want[i])
			bad++
		}
	}
}
