package sim_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestRuntimeBoundary: the simulator depends on the program and the
// runtime packages only, never on the compiler, so that a program decoded
// from an image needs nothing the compiler owns.
func TestRuntimeBoundary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/weft-hdl/weft/sim").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	allowed := map[string]bool{"sim": true, "program": true, "sir": true, "sir/interp": true, "sir/internal/regset": true,
		"ordering": true, "lanepool": true, "selector": true, "plan": true, "internal/fileread": true, "internal/par": true, "internal/natsort": true}
	for _, line := range strings.Fields(string(out)) {
		rest, ok := strings.CutPrefix(line, "github.com/weft-hdl/weft/")
		if ok && !allowed[rest] {
			t.Errorf("sim depends on %s, which is not part of the runtime", line)
		}
	}
}
