package c2bp

import (
	"testing"

	"birch/internal/model"
	"birch/internal/search"
)

// TestChoiceInTheMiddle: an action after a choice among values in the same
// step sees every value, for what may happen (an assertion, an error, an
// assume, a boolean's value) as for what must (a predicate's new value).
// Each of these models fails concretely; the abstraction once passed them
// (the conditions took the conjunction over the values where some value
// suffices), found by the soundness test of the predexamples helper.
func TestChoiceInTheMiddle(t *testing.T) {
	for _, c := range []struct {
		name, model, preds string
		kind               model.ErrorKind
	}{
		{"assert after the choice", `system S ()
x : int;
main thread M ()
  loc l0:
    when true do { x := externChoose(1, 3); assert(x <= 2); } goto l1;
  loc l1:
end M;
end S;
`, "x <= 2\n", model.Assertion},
		{"boolean from the chosen value", `system S ()
x : int;
flag : boolean;
main thread M ()
  loc l0:
    when true do { x := internChoose(0, 1); flag := x != 0; } goto l1;
  loc l1:
    when true do { assert(!flag); } goto l2;
  loc l2:
end M;
end S;
`, "x == 0\n", model.Assertion},
		{"range error of the chosen value", `system S ()
x : int;
small : range 0..3;
main thread M ()
  loc l0:
    when true do { x := externChoose(-1, 1); small := x; } goto l1;
  loc l1:
end M;
end S;
`, "x >= 0\n", model.RangeError},
		{"assume after the choice", `system S ()
x : int;
main thread M ()
  loc l0:
    when true do { x := internChoose(0, 1, 2); assume(x != 1); } goto l1;
  loc l1:
    when true do { assert(x != 2); } goto l2;
  loc l2:
end M;
end S;
`, "x == 2\n", model.Assertion},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := abstractSource(t, c.model, c.preds)
			if err != nil {
				t.Fatal(err)
			}
			res := explore(t, out.Program)
			if res.Verdict != search.Fail {
				t.Fatalf("%v (%s), want a failure\n%s", res.Verdict, res.Reason, out.Source)
			}
			if got := concreteKind(t, out, res); got != c.kind.String() {
				t.Errorf("fails as %s, want %s\n%s", got, c.kind, out.Source)
			}
		})
	}
}
