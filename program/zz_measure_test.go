package program_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/program"
)

func best(n int, f func()) time.Duration {
	b := time.Duration(1 << 62)
	for range n {
		t0 := time.Now()
		f()
		b = min(b, time.Since(t0))
	}
	return b
}

func TestZZMeasure(t *testing.T) {
	root, _ := filepath.Abs("..")
	type des struct {
		name, dir, top string
		files          []string
		threads        int
	}
	var ds []des
	corpus, _ := filepath.Glob(filepath.Join(root, "sim/testdata/corpus/*.sv"))
	sort.Strings(corpus)
	for _, f := range corpus {
		ds = append(ds, des{name: filepath.Base(f), dir: filepath.Join(root, "sim"), top: "t", files: []string{f}})
	}
	soc, _ := filepath.Glob(filepath.Join(root, "examples/soc/rtl/*.sv"))
	socV, _ := filepath.Glob(filepath.Join(root, "examples/soc/rtl/*.v"))
	uart, _ := filepath.Glob(filepath.Join(root, "examples/uart/rtl/*.sv"))
	uartFiles := []string{}
	for _, f := range []string{"uart_pkg.sv", "uart_fifo.sv", "uart_tx.sv", "uart_rx.sv", "uart_top.sv"} {
		uartFiles = append(uartFiles, filepath.Join(root, "examples/uart/rtl", f))
	}
	_ = uart
	ds = append(ds,
		des{"soc", root, "soc_top", append(soc, socV...), 1},
		des{"soc -threads 4", root, "soc_top", append(soc, socV...), 4},
		des{"cores", root, "cores", []string{filepath.Join(root, "examples/cores/rtl/cores.sv")}, 1},
		des{"cores -threads 4", root, "cores", []string{filepath.Join(root, "examples/cores/rtl/cores.sv")}, 4},
		des{"uart", root, "uart_top", uartFiles, 1},
		des{"uart -threads 4", root, "uart_top", uartFiles, 4},
	)
	var tc, te, td, tn, tl, tf time.Duration
	var tb int
	for _, d := range ds {
		t.Chdir(d.dir)
		var cp *compile.Program
		var err error
		b := compile.NewBuilder().Files(d.files...).Top(d.top).Output(io.Discard)
		if d.threads > 1 {
			b = b.Threads(d.threads)
		}
		var front, simT time.Duration
		compileT := time.Duration(1 << 62)
		for range 5 {
			if cp != nil {
				cp.Close()
			}
			cp, err = b.Build()
			if err != nil {
				t.Fatalf("%s: %v", d.name, err)
			}
			if cp.CompileTime < compileT {
				compileT = cp.CompileTime
				front, simT = 0, 0
				for _, ph := range cp.Phases {
					if ph.Name == "sim" {
						simT = ph.Time
					} else {
						front += ph.Time
					}
				}
			}
		}
		p := cp.Program
		var img []byte
		n := 10
		enc := best(n, func() { img, err = program.Encode(p, program.Meta{}) })
		if err != nil {
			t.Fatal(err)
		}
		dec := best(n, func() {
			if _, _, err := program.Decode(img); err != nil {
				t.Fatal(err)
			}
		})
		q, _, _ := program.Decode(img)
		link := best(n, func() { q.Link() })
		insts := 0
		for _, u := range append(p.Units(), p.TaskUnits()...) {
			insts += u.NumInsts()
		}
		fmt.Fprintf(os.Stderr, "| %s | %d | %d | %.2f | %.2f | %.2f | %.3f | %.3f | %.3f | %d |\n", d.name, len(p.Signals), insts,
			ms(compileT), ms(front), ms(simT), ms(enc), ms(dec), ms(link), len(img))
		tl += link
		tf += front
		tc += compileT
		te += enc
		td += dec
		tn += simT
		tb += len(img)
		cp.Close()
	}
	fmt.Fprintf(os.Stderr, "total compile %.1fms front %.1fms sim %.1fms encode %.1fms decode %.1fms link %.1fms bytes %d\n", ms(tc), ms(tf), ms(tn), ms(te), ms(td), ms(tl), tb)
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
