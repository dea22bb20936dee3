package verify

import (
	"testing"

	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
)

// The explicit steps composed without Run: Load, model.New, then
// SearchSafety or SearchLTL.

// TestSearchSafetyStep: the safety step on a compiled model decides the
// assertions, runtime errors, deadlocks and the invariants it is given,
// and its trail replays in user terms.
func TestSearchSafetyStep(t *testing.T) {
	in := load(t, "testdata/invariants-unsafe.bir")
	m := compile(t, in, model.Options{})
	var invs []*types.Property
	for _, p := range in.Prog.Properties {
		if !p.LTL && p.Name() != "inv2" {
			invs = append(invs, p)
		}
	}
	c, err := SearchSafety(&Task{Input: in}, in, m, invs)
	if err != nil {
		t.Fatal(err)
	}
	// without inv2 every property holds; by hand: 5 states (m0 with x =
	// 0..3, m1), 4 transitions
	if c.Verdict() != Pass || c.Stats.States != 5 || c.Stats.Transitions != 4 {
		t.Errorf("without inv2: %s after %d states, %d transitions; want pass after 5, 4", c.Verdict(), c.Stats.States, c.Stats.Transitions)
	}
	if got := titles(c.Properties); len(got) != 3 || got[1] != "invariant inv" || got[2] != "invariant high" {
		t.Errorf("properties %q", got)
	}
	if c.Unreached == nil || len(c.Unreached) != 0 {
		t.Errorf("unreached %v, want none (every transformation runs)", c.Unreached)
	}

	c, err = SearchSafety(&Task{Input: in, Search: search.Config{Strategy: search.BFS}}, in, m, in.Prog.Properties[:2])
	if err != nil {
		t.Fatal(err)
	}
	v := c.Violation
	if c.Verdict() != Fail || v == nil || c.Violated().Name != "inv2" || !v.Confirmation.Confirmed {
		t.Fatalf("with inv2: %s, violated %v", c.Verdict(), c.Violated())
	}
	// the shortest trail to x = 3: three increments
	if len(v.Trail) != 3 || len(v.Ordinals) != 3 {
		t.Errorf("trail %+v, want 3 steps", v.Trail)
	}
	if c.Unreached != nil {
		t.Errorf("unreached %v after a violation, want nil", c.Unreached)
	}
}

// TestSearchLTLStep: the LTL product step on a compiled model.
func TestSearchLTLStep(t *testing.T) {
	in := load(t, "testdata/ltl-unsafe.bir")
	m := compile(t, in, model.Options{})
	task := &Task{Input: in}
	for _, tc := range []struct {
		prop string
		want Verdict
	}{{"settles", Pass}, {"recurs", Fail}} {
		var p *ltlProperty
		for _, tp := range in.Prog.Properties {
			if tp.Name() == tc.prop {
				var err error
				if p, err = modelLTL(in, tp, false); err != nil {
					t.Fatal(err)
				}
			}
		}
		c, err := SearchLTL(task, p, m)
		if err != nil {
			t.Fatal(err)
		}
		if c.Verdict() != tc.want || len(c.RestsOn) != 0 {
			t.Errorf("%s: %s resting on %s, want %s resting on a complete search", tc.prop, c.Verdict(), c.RestsOn, tc.want)
		}
		if p.AutomatonStates == 0 {
			t.Errorf("%s: no automaton states recorded", tc.prop)
		}
		if tc.want != Fail {
			continue
		}
		// recurs ([] <> (x == 0)) fails on the run that counts to 2 and
		// stops: three steps, then the last state repeats forever
		v := c.Violation
		if c.Violated() != p.Property || v.Lasso == nil || !v.Lasso.Stutter || v.Lasso.End != "terminated" || v.Lasso.CycleStart != 3 || len(v.Trail) != 3 {
			t.Errorf("recurs: violated %v, lasso %+v, %d steps", c.Violated(), v.Lasso, len(v.Trail))
		}
	}
}

// TestRuntimeErrorInLTLSearch (regression): the product search of an ltl
// property stops at a runtime error too. That is a violation of safety,
// not of the ltl property, which the search did not decide: the check
// fails, but its property is inconclusive (before the fix, `ltl settles`
// of testdata/assert-ltl-unsafe.bir was reported violated by an
// assertion, and a run named it among the properties violated).
func TestRuntimeErrorInLTLSearch(t *testing.T) {
	res := run(t, "testdata/assert-ltl-unsafe.bir", Task{Select: Selection{Names: []string{"settles"}}})
	if len(res.Checks) != 1 || res.Verdict() != Fail {
		t.Fatalf("%d checks, %s; want 1 check, fail", len(res.Checks), res.Verdict())
	}
	c := res.Checks[0]
	if c.Violation == nil || c.Violation.Kind != "assertion" {
		t.Fatalf("violation %+v, want the assertion", c.Violation)
	}
	if vp := c.Violated(); vp == nil || vp.Kind != "safety" || vp.Title != "safety (assertions, runtime errors)" {
		t.Errorf("violated %+v, want safety (assertions, runtime errors)", vp)
	}
	if v, why := c.PropertyVerdict(c.Properties[0]); v != Inconclusive || why != "not decided: the search stopped at the violation of safety (assertions, runtime errors)" {
		t.Errorf("settles: %s (%s), want inconclusive, not decided", v, why)
	}

	// by default the safety search finds it too, and is the one that
	// decides the run
	res = run(t, "testdata/assert-ltl-unsafe.bir", Task{})
	want := map[string]Verdict{"safety (assertions, runtime errors, deadlocks)": Fail}
	if got := verdicts(res.Checks[0]); len(res.Checks) != 2 || got["safety (assertions, runtime errors, deadlocks)"] != Fail {
		t.Fatalf("default: %d checks, %v, want %v first", len(res.Checks), got, want)
	}
	if v, _ := res.Checks[1].PropertyVerdict(res.Checks[1].Properties[0]); v != Inconclusive {
		t.Errorf("default: settles %s, want inconclusive", v)
	}
	if res.Deciding() != res.Checks[0] {
		t.Errorf("default: the deciding check is not the safety search")
	}
}

// TestInvariantTrailIsTheModels (regression): the trail of an invariant
// violation is described on the model as written: its last step leads
// into the state where the invariant is false (as birch replay
// re-executes it), with the changes it makes; the violation is the
// invariant's. Before the fix the trail was described on the model with
// the invariants checked, whose last step is an error at the invariant:
// `Main[1] m0 -> error` without the change x = 3, and a trail saved from
// it did not fit the model in birch replay.
func TestInvariantTrailIsTheModels(t *testing.T) {
	res := run(t, "testdata/invariants-unsafe.bir", Task{Select: Selection{Names: []string{"inv2"}}})
	c := res.Checks[0]
	v := c.Violation
	if v == nil || v.Kind != "invariant" || v.Message != "invariant inv2 violated: x <= 2" || v.Pos != "invariants-unsafe.bir:16:19" {
		t.Fatalf("violation %+v", v)
	}
	if v.Thread != "Main[1]" || v.Location != "m0" {
		t.Errorf("violation at %s %s, want Main[1] at m0", v.Thread, v.Location)
	}
	last := v.Trail[len(v.Trail)-1]
	if last.From != "m0" || last.To != "m0" || last.Outcome != model.OK || last.Pos != "invariants-unsafe.bir:9:5" ||
		len(last.Changes) != 1 || last.Changes[0] != (model.Var{Name: "x", Value: "3"}) {
		t.Errorf("last step %+v, want Main[1] m0 -> m0 at 9:5 with x = 3", last)
	}
	in := load(t, "testdata/invariants-unsafe.bir")
	r := ReplayTrail(in, compile(t, in, model.Options{}), savedTrail(c))
	if r.End != ReplayInvariant || r.Violation.Message != v.Message {
		t.Errorf("replay: end %d (%s), want the invariant", r.End, r.Mismatch)
	}
}
