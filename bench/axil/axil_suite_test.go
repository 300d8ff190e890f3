package axil_test

import (
	"io"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/compile"
)

func TestAxil(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "bench/axil")
}

// build compiles one testdata design for a spec.
func build(file, top string, params ...string) *compile.Program {
	b := compile.NewBuilder().Files("testdata/" + file).Top(top).Output(io.Discard)
	for i := 0; i+1 < len(params); i += 2 {
		b = b.Param(params[i], params[i+1])
	}
	p, err := b.Build()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(p.Close)
	return p
}

// failures collects what a bench reports instead of failing the spec:
// the mutation checks expect the components to catch a broken design.
type failures struct{ msgs []string }

func (f *failures) fail(m string, _ ...int) { f.msgs = append(f.msgs, m) }
