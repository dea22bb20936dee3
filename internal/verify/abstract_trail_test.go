package verify

import (
	"testing"

	"birch/internal/model"
)

// TestAbstractInvariantTrailIsTheModels: the confirmed trail of an
// invariant violation found with abstraction is the concrete model's:
// its last step leads into the state where the invariant is false (with
// its changes), and the trail replays (birch replay) on the model. It was
// replayed on the model with the invariants' check, so its last step read
// 'm0 -> error' and birch replay rejected the saved trail ("step 3: the
// trail has Main[1] m0 -> error, the model gives Main[1] m0 -> m0").
func TestAbstractInvariantTrailIsTheModels(t *testing.T) {
	file := "testdata/abstract-invariant-unsafe.bir"
	c := oneCheck(t, checkAbstract(t, file, Task{}, DataAbstraction{Bindings: []string{"x=range(0,3)"}}))
	v := c.Violation
	if c.Verdict() != Fail || v == nil || v.Kind != model.InvariantViolated.String() {
		t.Fatalf("%s: %s, violation %+v; want a confirmed violation of small", file, c.Verdict(), v)
	}
	if p := c.Violated(); p == nil || p.Name != "small" {
		t.Errorf("violated %+v, want invariant small", p)
	}
	// by hand: three increments, the last to x = 3
	if len(v.Trail) != 3 {
		t.Fatalf("trail of %d steps, want 3", len(v.Trail))
	}
	last := v.Trail[2]
	if last.To != "m0" || len(last.Changes) != 1 || last.Changes[0].Value != "3" {
		t.Errorf("last step %s -> %s with changes %+v, want m0 -> m0 with x = 3", last.From, last.To, last.Changes)
	}
	in := load(t, file)
	r := ReplayTrail(in, compile(t, in, model.Options{ExposeInvisible: v.ExposeInvisible}),
		&SavedTrail{Ordinals: v.Ordinals, Recorded: v.Trail, Violation: v.Kind})
	if r.End != ReplayInvariant {
		t.Errorf("the trail replays to %v (%s), want a false invariant", r.End, r.Mismatch)
	}
}
