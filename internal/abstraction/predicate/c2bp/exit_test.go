package c2bp

import (
	"strings"
	"testing"
)

// TestExitLast: a step that exits updates the predicates its actions
// before the exit change, and ignores the actions after it, which do not
// run. The abstract step exited where the concrete one does, before the
// predicates' updates that the abstraction places at the end of the step,
// so W's assertion saw x > 5 still true after Main set x to 0: a wrong
// pass.
func TestExitLast(t *testing.T) {
	src := `system S ()
x : int := 10;
go : boolean;
thread W ()
  loc w0:
    when go do { assert(x > 5); } goto w1;
  loc w1:
end W;
main thread M ()
  loc s0:
    when true do { start W(); ACTIONS } goto s1;
  loc s1:
end M;
end S;
`
	for _, c := range []struct {
		actions string
		fail    bool
	}{
		{"x := 0; go := true; exit;", true},
		{"x := 7; go := true; exit;", false},
		// an action after the exit does not run
		{"go := true; exit; x := 7;", false},
		{"x := 0; go := true; exit; x := 7;", true},
	} {
		t.Run(c.actions, func(t *testing.T) {
			out, err := abstractSource(t, strings.Replace(src, "ACTIONS", c.actions, 1), "x > 5\n")
			if err != nil {
				t.Fatal(err)
			}
			wantAssertion(t, out, c.fail)
		})
	}
}
