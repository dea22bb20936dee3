package refine

import (
	"strings"
	"testing"

	"birch/internal/abstraction/data/feasible"
	"birch/internal/model"
)

// wrapPaths has paths that a store into a fixed-width variable decides:
// y + 1000 from y > 2147483000 wraps to a negative int32, so the guard y > 0
// after it is false (infeasible only because of the wrap: as unbounded
// arithmetic the path is feasible, and as a range check it ends in a range
// error); x + 1 from 255 wraps to 0 (feasible only because of it); and
// int64(a * 3 + b) computes modulo 2^64, so it never overflows.
const wrapPaths = `system Wrap ()
  y : int32;
  x : uint8;
  a, b, w : int;
  main thread M ()
    loc s0: when true do { y := externChoose(int32); x := externChoose(0 .. 255); a := externChoose(int); b := externChoose(int); } goto s1;
    loc s1: when y > 2147483000 do { y := y + 1000; } goto s2;
    loc s2: when y > 0 do { } goto s3;
            when true do { x := x + 1; } goto s4;
            when true do { w := int64(a * 3 + b); } goto s5;
    loc s3: when true do { assert(false); } goto s3;
    loc s4: when true do { assert(x != 0); } goto s5;
    loc s5:
  end M;
end Wrap;
`

// TestWrapPaths: the path formula encodes the wrapping stores and
// conversions exactly.
func TestWrapPaths(t *testing.T) {
	prog, m := compile(t, wrapPaths)
	s0, s1 := step{0, "M", "s0", 0}, step{0, "M", "s1", 0}

	// infeasible at the guard y > 0, by the wrap
	r, err := Refine(m, schedule(t, m, assertion, s0, s1, step{0, "M", "s2", 0}, step{0, "M", "s3", 0}), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Infeasible || r.Step != 3 {
		t.Fatalf("y + 1000 from y > 2147483000 then y > 0: %v at step %d (%s), want infeasible at step 3", r.Status, r.Step, r.Why)
	}
	// the predicates found, if any, parse back and refute the prefix; a
	// refinement that finds none on the mod terms stops, which the loop
	// reports as inconclusive
	if preds := r.Predicates(); len(preds) > 0 {
		if ok, err := r.Path.Refutes(parsePreds(t, prog, preds), r.Step, Config{}); err != nil || !ok {
			t.Errorf("%v do not refute the prefix (%v)", preds, err)
		}
		// an interpolant over the conversion is written as one
		conv := false
		for _, p := range preds {
			conv = conv || strings.Contains(p.String(), "int32(y + 1000)")
		}
		if !conv {
			t.Errorf("no predicate over int32(y + 1000) among %v", preds)
		}
		t.Logf("predicates: %v", preds)
	} else {
		t.Logf("no predicates: %s", r.NoInterpolant)
	}
	checkInterpolants(t, r)

	// feasible by the wrap: x is 255 before the increment
	r, err = Refine(m, schedule(t, m, assertion, s0, s1, step{0, "M", "s2", 1}, step{0, "M", "s4", 0}), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Feasible || len(r.Inputs) != 4 || r.Inputs[1].Value != 255 || r.Inputs[0].Value <= 2147483000 {
		t.Fatalf("x + 1 then x != 0: %v, inputs %+v (%s), want feasible with x = 255", r.Status, r.Inputs, r.Reason)
	}
	var vals []int64
	for _, in := range r.Inputs {
		vals = append(vals, in.Value)
	}
	trail, err := r.Path.Confirm(r.Decision, func(vals []int64) (*model.Model, error) {
		return model.New(prog, model.Options{ChoiceValues: vals})
	})
	if err != nil {
		t.Fatal(err)
	}
	cm, _ := model.New(prog, model.Options{ChoiceValues: vals})
	replayEndsIn(t, cm, trail, model.Assertion)

	// int64(a * 3 + b) does not overflow: a trail that ends in an overflow
	// there is infeasible at its last step
	overflow := feasible.End{Kind: feasible.EndError, Error: model.Overflow}
	r, err = Refine(m, schedule(t, m, overflow, s0, s1, step{0, "M", "s2", 2}), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Infeasible || r.Step != 3 {
		t.Fatalf("int64(a * 3 + b) overflowing: %v at step %d (%s), want infeasible at step 3", r.Status, r.Step, r.Why)
	}
}

// wrapResult returns a + 1 from a function whose result is a uint8: the
// return wraps it (256 is 0) before the caller's int r gets it.
const wrapResult = `system Res ()
  function inc (a : int) : uint8
    loc f0: when true do { } return a + 1;
  end inc;
  main thread M ()
    r : int;
    loc s0: when true do { r := call inc(255); } goto s1;
    loc s1: when true do { assert(r != 0); } goto s2;
    loc s2:
  end M;
end Res;
`

// TestWrapResult: the path formula wraps a function's fixed-width result
// at the return: the assertion fails (feasible), and the trail replays.
func TestWrapResult(t *testing.T) {
	_, m := compile(t, wrapResult)
	r, err := Refine(m, schedule(t, m, assertion, step{0, "M", "s0", 0}, step{0, "inc", "f0", 0}, step{0, "M", "s1", 0}), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Feasible {
		t.Fatalf("%v at step %d (%s), want feasible: inc(255) is 0", r.Status, r.Step, r.Why)
	}
	trail, err := r.Path.Confirm(r.Decision, func([]int64) (*model.Model, error) { return m, nil })
	if err != nil {
		t.Fatal(err)
	}
	replayEndsIn(t, m, trail, model.Assertion)
}
