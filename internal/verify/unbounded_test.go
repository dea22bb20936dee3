package verify

import (
	"errors"
	"io"
	"strings"
	"testing"

	"birch/internal/backend/promela"
	"birch/internal/model"
)

// wantUnboundedChecks asserts that every check of res is inconclusive at
// once, in model construction, without a search, naming the first
// unbounded choice of unbounded-choice.bir and the options that can check
// it.
func wantUnboundedChecks(t *testing.T, res *Result, checks int) {
	t.Helper()
	if len(res.Checks) != checks {
		t.Fatalf("%d checks, want %d", len(res.Checks), checks)
	}
	if v := res.Verdict(); v != Inconclusive {
		t.Errorf("verdict %s, want inconclusive", v)
	}
	for _, c := range res.Checks {
		if v := c.Verdict(); v != Inconclusive {
			t.Errorf("check of %v: verdict %s (%s), want inconclusive", titles(c.Properties), v, c.Reason)
		}
		for _, want := range []string{"unbounded-choice.bir:9:27: x := externChoose(int) chooses among 2^64 values",
			"unbounded-choice.bir:11:27", "--predicates FILE", "birch check --cegar finds the predicates"} {
			if !strings.Contains(c.Reason, want) {
				t.Errorf("reason %q lacks %q", c.Reason, want)
			}
		}
		if c.Stopped == nil || c.Stopped.Phase != PhaseModel || c.Explored || c.Stats.States != 0 {
			t.Errorf("check of %v: stopped %+v, explored %v, %d states; want stopped in model construction before any search",
				titles(c.Properties), c.Stopped, c.Explored, c.Stats.States)
		}
		if !c.RestsOn.Has(Bounded) || c.RestsOn.allowsPass() {
			t.Errorf("rests on %s", c.RestsOn)
		}
	}
}

// TestUnboundedChoiceInconclusive: a model with x := externChoose(int)
// (2^64 values) and a choice among the 4000001 values of
// range -2000000..2000000 is inconclusive at once for every property
// (safety with the invariant, and the ltl property), with no search: no
// enumeration starts.
func TestUnboundedChoiceInconclusive(t *testing.T) {
	res := run(t, "testdata/unbounded-choice.bir", Task{})
	wantUnboundedChecks(t, res, 2)
	// the same with data abstraction of a variable neither choice is
	// into: the abstract model is never searched
	res = checkAbstract(t, "testdata/unbounded-choice.bir", Task{}, DataAbstraction{Bindings: []string{"z=signs"}})
	wantUnboundedChecks(t, res, 2)
}

// TestUnboundedChoiceAbstracted: with x abstracted, x := externChoose(int)
// is a choice among x's tokens in the abstract model (the Java front end's
// Verifier.nondetInt() with --abstract), so only y's choice, into a
// concrete variable, stops the check; with y abstracted too, nothing does
// (before, the check stopped at x's choice, abstracted or not).
func TestUnboundedChoiceAbstracted(t *testing.T) {
	res := checkAbstract(t, "testdata/unbounded-choice.bir", Task{}, DataAbstraction{Bindings: []string{"x=signs"}})
	for _, c := range res.Checks {
		if c.Verdict() != Inconclusive || c.Stopped == nil || !strings.Contains(c.Reason, "unbounded-choice.bir:11:27: y := internChoose(Big) chooses among 4000001 values") ||
			strings.Contains(c.Reason, ":9:27") || c.Stats.States != 0 {
			t.Errorf("x=signs: %s %q, stopped %+v, %d states", c.Verdict(), c.Reason, c.Stopped, c.Stats.States)
		}
	}
	res = checkAbstract(t, "testdata/unbounded-choice.bir", Task{}, DataAbstraction{Bindings: []string{"x=signs", "y=signs"}})
	if len(res.Checks) != 2 {
		t.Fatalf("%d checks", len(res.Checks))
	}
	for _, c := range res.Checks {
		if c.Stopped != nil || c.Stats.States == 0 {
			t.Errorf("x=signs, y=signs: %s %q, stopped %+v, %d states: want a search of the abstract model", c.Verdict(), c.Reason, c.Stopped, c.Stats.States)
		}
	}
}

// TestUnboundedChoiceSpin: birch spin stops as birch check does, before
// SPIN runs; the translation to Promela is refused with the same error.
func TestUnboundedChoiceSpin(t *testing.T) {
	in := load(t, "testdata/unbounded-choice.bir")
	_, _, err := PromelaProperties(in, Selection{})
	var ue *model.UnboundedChoiceError
	if !errors.As(err, &ue) || len(ue.Choices) != 2 || ue.Choices[0].Pos.Line != 9 || ue.Choices[1].Values != "4000001" {
		t.Errorf("PromelaProperties: %v, want an UnboundedChoiceError for both choices", err)
	}
	if err := promela.Translate(in.Prog, io.Discard, promela.Options{}); !errors.As(err, &ue) {
		t.Errorf("promela.Translate: %v, want an UnboundedChoiceError", err)
	}
	if promela.LookSpin() != nil {
		t.Skip("spin is not installed")
	}
	res, err := RunSpin(&Task{Input: in}, SpinOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantUnboundedChecks(t, res, 2)
}

// TestUnboundedAbstractedConfirmed: a violation of the abstract model
// through an abstracted unbounded choice is replayed on the concrete
// model, compiled without values for the choice: the symbolic replay
// solves for x and the trail is confirmed, with the value found for the
// trail file (ChoiceValues).
func TestUnboundedAbstractedConfirmed(t *testing.T) {
	res := checkAbstract(t, "testdata/unbounded-abstracted.bir", Task{}, DataAbstraction{Bindings: []string{"x=signs"}})
	c := res.Checks[0]
	v := c.Violation
	if c.Verdict() != Fail || v == nil || !v.Confirmation.Confirmed || c.Abstraction.Replay != "symbolic" || len(v.ChoiceValues) != 1 || v.ChoiceValues[0] <= 0 || v.ChoiceValues[0] >= 1000 {
		t.Fatalf("%s %q, violation %+v", c.Verdict(), c.Reason, v)
	}
}
