package sim_test

import (
	"fmt"
	"github.com/weft-hdl/weft/internal/tier"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weft-hdl/weft/internal/verilator"
)

// verilatorQuirk is a known departure of Verilator from the golden, up to
// and including Verilator version through ("5.006"): newer versions are
// held to the golden, and the entry's through is raised when one still
// has the quirk.
type verilatorQuirk struct {
	through string
	reason  string
	// norm, when set, maps harmless formatting differences away in both
	// the golden and Verilator's output; without it the design is skipped
	// (after it has run: a design that matches the golden fails the
	// subtest, so that the entry is removed).
	norm func(string) string
}

// verilatorCorpusQuirks lists the corpus designs on which Verilator
// departs from the standard (the golden is right) or lacks a construct,
// and those whose output it formats differently.
var verilatorCorpusQuirks = map[string]verilatorQuirk{
	"20_case": {through: "5.006",
		reason: "Verilator sign-extends a signed case expression compared with unsigned labels (4-bit s = -1 matches 8'hff; IEEE 1800 12.5.1 compares unsigned at 8 bits: 15)"},
	"29_const_func": {through: "5.006",
		reason: "Verilator lacks recursive constant functions (Unsupported: Recursive function or task call)"},
	"44_format_specs": {through: "5.006", norm: normFieldPadding,
		reason: "Verilator pads %10b with zeros where Icarus pads the automatic width with spaces"},
	"55_static_func": {through: "5.006",
		reason: "Verilator gives the locals of a static function or task a fresh value on every call (IEEE 1800 6.21: static lifetime, kept from call to call)"},
	"60_static_init": {through: "5.006",
		reason: "Verilator lacks initialized static variables in functions (Unsupported: 'static' function/task variables)"},
	"61_div_zero": {through: "5.006", norm: normFoldedX,
		reason: "Verilator folds the constant 8'd7 / 8'd0 to x and prints x although its model is 2-state (weft and the 2-state rule: 0)"},
	"62_out_of_range": {through: "5.006",
		reason: "Verilator wraps the out-of-range index of a power-of-two unpacked array (mem[4] of mem[0:3] reads and writes mem[0]) and reads bits past the end of a vector (v[8], v[8+:4] of an 8-bit v are not 0)"},
	"63_display_width": {through: "5.006", norm: normFieldPadding,
		reason: "Verilator pads %6h, %10b and %4o with zeros where Icarus pads the automatic width with spaces, and puts %05d's zeros before the sign (00-21)"},
	"74_generate_case_sign": {through: "5.006",
		reason: "Verilator compares each label of a generate case at its own size and signedness (IEEE 1800 27.5, 12.5.1: one context for the subject and every label, so y is 0)"},
	"75_immediate_assertions": {through: "5.006",
		reason: "Verilator lacks the restrict statement (a syntax error) and does not run the pass action of an immediate cover"},
	"82_array_args_more": {through: "5.006",
		reason: "Verilator lacks recursive constant functions (Unsupported: Recursive function or task call), here with an array argument, and the design's other array-argument forms"},
	"98_sformatf_in_tasks": {through: "5.006",
		reason: "Verilator prints $error and $warning in its own form (%Error: FILE:LINE: Assertion failed in TOP...) and stops at the first $error"},
	"95_xz_constants": {through: "5.006",
		reason: "Verilator refuses a z in a constant casez subject (Unsupported tristate construct: CASE) and, without those lines, folds x constants 2-state: case (1'bx) 1'bx and case (2'b1x) 2'b10 take the wrong arms, 2'b1x == 2'b10 and 4'b1x10 ==? 4'b1010 are not x, and 1'bx ? 4'b1100 : 4'b1010 is not 4'b1xx0"},
	"86_interface_generic": {through: "5.006",
		reason: "Verilator lacks generic interface ports (Unsupported: generic interfaces)"},
	"91_interface_port_arrays": {through: "5.006",
		reason: "Verilator cannot index an array of interface ports with a loop variable (Expecting expression to be constant)"},
}

// metaComment is a comment that Verilator would read as one of its
// directives (a comment whose first word is verilator, in any case), as in
// a corpus header saying what Verilator prints.
var metaComment = regexp.MustCompile(`(?i)(//|/\*)([ \t]*)(verilator)`)

// fieldPadding is a bracketed field of digits after padding; signPadding
// is a negative decimal field zero-padded before its sign.
var (
	fieldPadding = regexp.MustCompile(`\[[ 0]*([0-9a-fA-F]*)\]`)
	signPadding  = regexp.MustCompile(`\[[ 0]*-0*([0-9]*)\]`)
)

// normFieldPadding drops the padding of bracketed fields: spaces and
// leading zeros before a number, and before or after a minus sign.
func normFieldPadding(s string) string {
	return signPadding.ReplaceAllString(fieldPadding.ReplaceAllString(s, "[$1]"), "[-$1]")
}

// foldedX is an x printed for a decimal value.
var foldedX = regexp.MustCompile(`=x\b`)

func normFoldedX(s string) string { return foldedX.ReplaceAllString(s, "=0") }

// TestCorpusVerilator is the Verilator half of the semantics corpus: every
// design, the hand-golden ones included (Verilator is 2-state like weft),
// runs in Verilator under the Icarus wrapper (corpusTB, the same clk
// toggling) and its output, with Verilator's own $finish line dropped and
// its %m prefix mapped to weft's, must be the golden.
//
// verilatorCorpusQuirks lists the designs where the installed Verilator is
// known to depart from the golden: up to the version an entry names, the
// design is skipped (and must still differ) or compared after normalising
// its formatting; a newer Verilator is held to the golden.
//
// The designs are built with one verilator.Kit (the C++ run-time library
// and a precompiled header compiled once), about half a second of CPU time
// each, as parallel subtests.
func TestCorpusVerilator(t *testing.T) {
	tier.LongOnly(t, "builds a Verilator model per corpus design")
	if err := verilator.Available(); err != nil {
		t.Skipf("%v: the Verilator half of the corpus is skipped", err)
	}
	designs, err := filepath.Glob(filepath.Join(corpusDir, "*.sv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(designs) < 60 {
		t.Fatalf("corpus has %d designs, want at least 60", len(designs))
	}
	version, err := verilator.Version()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	kit, err := verilator.NewKit(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Verilator kit built in %v", time.Since(start).Round(time.Millisecond))
	var mu sync.Mutex
	var builds time.Duration
	t.Run("group", func(t *testing.T) {
		for _, path := range designs {
			name := strings.TrimSuffix(filepath.Base(path), ".sv")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				gold, err := os.ReadFile(strings.TrimSuffix(path, ".sv") + ".out")
				if err != nil {
					t.Fatal(err)
				}
				got, build, err := runVerilatorCorpus(t, kit, path)
				mu.Lock()
				builds += build
				mu.Unlock()
				want := string(gold)
				q, ok := verilatorCorpusQuirks[name]
				if ok && !versionAtMost(version, q.through) {
					defer func() {
						if t.Failed() {
							t.Logf("verilatorCorpusQuirks lists %s through Verilator %s (%s): raise through if Verilator %s has the quirk too", name, q.through, q.reason, version)
						}
					}()
				} else if ok && q.norm == nil {
					if err == nil && got == want {
						t.Fatalf("Verilator %s now matches the golden: remove %s from verilatorCorpusQuirks (%s)", version, name, q.reason)
					}
					t.Skip(q.reason)
				} else if ok && err == nil {
					if got == want {
						t.Fatalf("Verilator %s now matches the golden without normalising: remove %s from verilatorCorpusQuirks (%s)", version, name, q.reason)
					}
					got, want = q.norm(got), q.norm(want)
				}
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("Verilator %s output differs from the golden:\n%s", version, lineDiff(want, got))
				}
			})
		}
	})
	t.Logf("%d designs in %v; builds took %v in all", len(designs), time.Since(start).Round(time.Millisecond), builds.Round(time.Millisecond))
}

// runVerilatorCorpus builds a copy of the design under the corpus wrapper
// with kit, runs it from the package directory (where weft's $readmemh
// paths start) and returns its normalised output and the build's time.
func runVerilatorCorpus(t *testing.T, kit *verilator.Kit, path string) (string, time.Duration, error) {
	dir := t.TempDir()
	tb := filepath.Join(dir, "corpus_tb.sv")
	if err := os.WriteFile(tb, fmt.Appendf(nil, corpusTB, 2*corpusMaxCycles+2), 0o644); err != nil {
		return "", 0, err
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return "", 0, err
	}
	// A copy with the metacomments defused, lines kept in place.
	design := filepath.Join(dir, filepath.Base(path))
	if err := os.WriteFile(design, metaComment.ReplaceAll(src, []byte("$1$2($3)")), 0o644); err != nil {
		return "", 0, err
	}
	t0 := time.Now()
	bin, err := kit.Compile(dir, "corpus_tb", design, tb)
	build := time.Since(t0)
	if err != nil {
		return "", build, err
	}
	stdout, err := verilator.RunWithin(bin, "", 30*time.Second)
	if err != nil {
		return "", build, err
	}
	out := verilator.FinishMessage.ReplaceAllString(string(stdout), "")
	if strings.Contains(out, "CORPUS TIMEOUT") {
		return "", build, fmt.Errorf("verilator: no $finish after %d cycles", corpusMaxCycles)
	}
	return strings.ReplaceAll(out, "TOP.corpus_tb.", ""), build, nil
}

// versionAtMost reports whether Verilator version v ("5.006") is at most
// limit.
func versionAtMost(v, limit string) bool {
	parse := func(s string) [2]int {
		var n [2]int
		major, minor, _ := strings.Cut(s, ".")
		n[0], _ = strconv.Atoi(major)
		n[1], _ = strconv.Atoi(minor)
		return n
	}
	a, b := parse(v), parse(limit)
	return a[0] < b[0] || a[0] == b[0] && a[1] <= b[1]
}
