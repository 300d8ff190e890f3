//go:build race

package hdl

// allocSlack is how much more the race detector makes the front end
// allocate: its instrumentation keeps values on the heap that escape
// analysis would leave on the stack.
const allocSlack = 2
