package apf

import (
	"strings"
	"testing"
)

// An invisible run rests where its thread cannot move, and that state is
// stored: other threads interleave there, and an invariant (over thread
// locations, say) is checked there. When the guard of an invisible
// transformation is unknown on the fly, the run must still rest there for
// the concrete states where the guard is false. The same holds for an
// undecided assumption, a choice from a range that may be empty, and any
// choice whose alternatives each hold in some of the states only (the
// values of a concrete variable, a possible failure).
func TestRuntimeInvisibleRestOnUnknownGuard(t *testing.T) {
	for name, step := range map[string]string{
		"guard":  "when x > 0 do invisible { } goto a2;",
		"assume": "when true do invisible { assume(x > 0); } goto a2;",
		"range":  "when true do invisible { y := internChoose(1 .. x); } goto a2;",
		// a choice between values of a concrete local, each alternative
		// holding in some of the states only
		"choice": "when true do invisible { b := x > 0; assume(b); } goto a2;",
		// a possible overflow: the failure holds in some of the states
		// only, and the run blocks in the others
		"overflow": "when true do invisible { y := x + 1; assume(y < x); } goto a2;",
	} {
		t.Run(name, func(t *testing.T) {
			src := strings.Replace(restSrc, "STEP", step, 1)
			run := runE2E(t, e2eCase{name: "rest", src: src, preds: "[thread B] g\n"})
			if len(run.apf.at("A@a1")) == 0 {
				t.Errorf("no on-the-fly state has A resting at a1")
			}
		})
	}
}

const restSrc = `system R ()
g : boolean;
main thread A ()
  x, y : int;
  b : boolean;
  loc a0:
    when true do invisible { x := externChoose(0, 1); } goto a1;
  loc a1:
    STEP
  loc a2:
end A;
main thread B ()
  loc b0:
    when true do { g := true; } goto b1;
  loc b1:
end B;
end R;
`
