package soc_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/weft-hdl/weft/examples/soc"
)

// peer is another simulator running smp/tb_smp.sv: run builds and runs it
// for n harts, firmware fw and FW_ARG arg in dir and returns the design's
// output.
type peer struct {
	name string
	run  func(dir string, n int, fw string, arg int) (string, error)
}

// installedPeers lists Icarus Verilog and Verilator, where installed.
func installedPeers() []peer {
	var ps []peer
	if _, err := exec.LookPath("iverilog"); err == nil {
		ps = append(ps, peer{"icarus", icarus})
	}
	if _, err := exec.LookPath("verilator"); err == nil {
		ps = append(ps, peer{"verilator", verilator})
	}
	return ps
}

func peerFiles() []string { return append(append([]string{}, soc.Files...), "smp/tb_smp.sv") }

func icarus(dir string, n int, fw string, arg int) (string, error) {
	vvp := filepath.Join(dir, "soc.vvp")
	args := append([]string{"-g2012", "-I", soc.IncludeDir, "-s", "tb_smp", "-o", vvp,
		fmt.Sprintf("-Ptb_smp.NCORES=%d", n), fmt.Sprintf(`-Ptb_smp.FIRMWARE="%s"`, fw), fmt.Sprintf("-Ptb_smp.FW_ARG=%d", arg)}, peerFiles()...)
	if out, err := exec.Command("iverilog", args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("iverilog: %v\n%s", err, out)
	}
	out, err := exec.Command("vvp", "-n", vvp).Output()
	if err != nil {
		return "", fmt.Errorf("vvp: %v\n%s", err, out)
	}
	return designLines(string(out)), nil
}

func verilator(dir string, n int, fw string, arg int) (string, error) {
	args := append([]string{"--binary", "-O3", "-Wno-fatal", "-I" + soc.IncludeDir, "--top-module", "tb_smp", "--Mdir", dir,
		fmt.Sprintf("-GNCORES=%d", n), fmt.Sprintf(`-GFIRMWARE="%s"`, fw), fmt.Sprintf("-GFW_ARG=%d", arg)}, peerFiles()...)
	if out, err := exec.Command("verilator", args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("verilator: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(dir, "Vtb_smp")).Output()
	if err != nil {
		return "", fmt.Errorf("Vtb_smp: %v\n%s", err, out)
	}
	return designLines(string(out)), nil
}

// designLines drops what a simulator says of its own ($readmemh warnings,
// Verilator's $finish note) from out.
func designLines(out string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(out, "\n") {
		if strings.HasPrefix(l, "WARNING: ") || strings.HasPrefix(l, "- ") && strings.Contains(l, "$finish") || l == "" {
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}
