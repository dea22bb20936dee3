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
// undecided assumption, and a choice from a range that may be empty.
func TestRuntimeInvisibleRestOnUnknownGuard(t *testing.T) {
	for name, step := range map[string]string{
		"guard":  "when x > 0 do invisible { } goto a2;",
		"assume": "when true do invisible { assume(x > 0); } goto a2;",
		"range":  "when true do invisible { y := internChoose(1 .. x); } goto a2;",
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
