package verify

import (
	"strings"
	"testing"

	"birch/internal/model"
	"birch/internal/search"
)

// savedTrail is the trail a check's violation would save (--trail).
func savedTrail(c *Check) *SavedTrail {
	v := c.Violation
	tr := &SavedTrail{Ordinals: v.Ordinals, Recorded: v.Trail, Violation: v.Kind, Message: v.Message}
	if v.Lasso != nil {
		cs := v.Lasso.CycleStart
		tr.CycleStart, tr.Stutter = &cs, v.Lasso.Stutter
	}
	return tr
}

// TestReplayTrail: the trail of each kind of violation a check finds
// replays on the model to the violation it records, step by step as the
// check described it.
func TestReplayTrail(t *testing.T) {
	for _, tc := range []struct {
		path string
		sel  Selection
		end  ReplayEnd
	}{
		{examples + "/peterson-broken.bir", Selection{}, ReplayStep},
		{examples + "/philosophers-deadlock.bir", Selection{}, ReplayDeadlock},
		{"testdata/invariants-unsafe.bir", Selection{Names: []string{"inv2"}}, ReplayInvariant},
		{"testdata/ltl-unsafe.bir", Selection{Names: []string{"recurs"}}, ReplayStutter},
		{examples + "/peterson.bir", Selection{LTL: "[] <> p0cs"}, ReplayLasso},
		// a runtime error in evaluating an invariant, or a proposition of
		// an ltl property, in the last state (these trails did not replay:
		// "it records a violation (division-by-zero), but its steps end
		// without one")
		{"testdata/property-error.bir", Selection{Names: []string{"frac"}}, ReplayInvariant},
		{"testdata/property-error.bir", Selection{Names: []string{"lfrac"}}, ReplayProposition},
		// println prints an argument that fails as its message: the
		// search never evaluates it
		{"testdata/println-error.bir", Selection{}, ReplayStep},
	} {
		res := run(t, tc.path, Task{Select: tc.sel, Search: search.Config{Strategy: search.DFS}})
		c := res.Deciding()
		if c.Violation == nil {
			t.Fatalf("%s: no violation", tc.path)
		}
		in := c.Properties[0].inputOf(t, tc.path)
		m := compile(t, in, model.Options{ExposeInvisible: c.Violation.ExposeInvisible})
		r := ReplayTrail(in, m, savedTrail(c))
		if r.End != tc.end || r.Verdict() != Fail || r.Mismatch != "" {
			t.Errorf("%s: end %d (%s), want %d", tc.path, r.End, r.Mismatch, tc.end)
			continue
		}
		if len(r.Steps) != len(c.Violation.Trail) || r.Initial == nil {
			t.Errorf("%s: %d steps replayed, the trail has %d", tc.path, len(r.Steps), len(c.Violation.Trail))
			continue
		}
		for i, s := range r.Steps {
			if w := c.Violation.Trail[i]; s.Thread != w.Thread || s.From != w.From || s.To != w.To || s.Pos != w.Pos || s.N != i+1 {
				t.Errorf("%s: step %d: %+v, the check described %+v", tc.path, i+1, s.Step, w)
			}
			if (s.State == nil) != (s.Outcome != model.OK) {
				t.Errorf("%s: step %d: outcome %v with state %v", tc.path, i+1, s.Outcome, s.State)
			}
		}
		if tc.end == ReplayStep && r.Violation.Kind != c.Violation.Kind {
			t.Errorf("%s: replayed %s, the check found %s", tc.path, r.Violation.Kind, c.Violation.Kind)
		}
		if tc.end == ReplayDeadlock && len(r.Violation.Threads) == 0 {
			t.Errorf("%s: no threads at the deadlock", tc.path)
		}
	}
}

// inputOf is the input a property's check ran on: a formula of the
// command line is in the model parsed again; the others in the file.
func (p *Property) inputOf(t *testing.T, path string) *Input {
	in := load(t, path)
	if p.Name == "--ltl" {
		lp, err := commandLineLTL(in, Selection{LTL: p.Source})
		if err != nil {
			t.Fatal(err)
		}
		return lp.in
	}
	return in
}

// TestReplayMismatch: a trail that does not fit the model is reported
// with the first place where it does not, and the steps replayed so far.
func TestReplayMismatch(t *testing.T) {
	in := load(t, "testdata/counter-safe.bir")
	m := compile(t, in, model.Options{})
	// counter-safe.bir: from each state of Main at m0 with x < 3 one step
	// (ordinal 0) increments x; at x = 3 one step goes to m1
	zero, four := 0, 4
	for _, tc := range []struct {
		tr    SavedTrail
		steps int
		msg   string
	}{
		{SavedTrail{Ordinals: []int{0, 0, 0, 0}}, 4, ""},
		{SavedTrail{Ordinals: []int{0, 1}}, 1, "step 2: the state has no outcome number 1"},
		{SavedTrail{Ordinals: []int{0, 0}, Recorded: []Step{{}}}, 0, "it has 2 ordinals but 1 recorded steps"},
		{SavedTrail{Ordinals: []int{0}, Recorded: []Step{{Thread: "Main[1]", From: "m0", To: "m1"}}}, 0,
			"step 1: the trail has Main[1] m0 -> m1, the model gives Main[1] m0 -> m0"},
		{SavedTrail{Ordinals: []int{0, 0}, Violation: "assertion"}, 2, "it records a violation (assertion), but its steps end without one"},
		{SavedTrail{Ordinals: []int{0, 0}, Violation: "deadlock"}, 2, "it records a deadlock, but its last state has successors"},
		{SavedTrail{Ordinals: []int{0, 0, 0, 0}, Violation: "deadlock"}, 4, "it records a deadlock, but its last state has successors"},
		{SavedTrail{Ordinals: []int{0}, Violation: "invariant"}, 1, "it records a false invariant, but every invariant holds in its last state"},
		{SavedTrail{Ordinals: []int{0}, Violation: "ltl", CycleStart: &zero}, 1, "its cycle (from step 1) does not return to the state it starts from"},
		{SavedTrail{Ordinals: []int{0, 0, 0}, Violation: "ltl", CycleStart: &four}, 3, "its cycle starts at step 4 of 3"},
		{SavedTrail{Ordinals: []int{0}, Violation: "ltl", CycleStart: &zero, Stutter: true}, 1,
			"it ends by repeating its last state, but that state has successors"},
	} {
		r := ReplayTrail(in, m, &tc.tr)
		if len(r.Steps) != tc.steps {
			t.Errorf("%+v: %d steps replayed, want %d", tc.tr, len(r.Steps), tc.steps)
		}
		if tc.msg == "" {
			if r.End != ReplayNoViolation || r.Verdict() != Pass || r.Mismatch != "" {
				t.Errorf("%+v: end %d (%s), want no violation", tc.tr, r.End, r.Mismatch)
			}
			continue
		}
		if r.End != ReplayMismatch || r.Mismatch != "the trail does not fit the model: "+tc.msg {
			t.Errorf("%+v: end %d, %q; want the mismatch %q", tc.tr, r.End, r.Mismatch, tc.msg)
		}
	}
	// the four steps that end in a terminated thread: a stutter lasso
	r := ReplayTrail(in, m, &SavedTrail{Ordinals: []int{0, 0, 0, 0}, Violation: "ltl", CycleStart: &four, Stutter: true})
	if r.End != ReplayStutter || r.Steps[3].To != "m1 (terminated)" {
		t.Errorf("stutter: end %d (%s)", r.End, r.Mismatch)
	}
}

// TestSimulate: a random execution, the same for the same seed, ends as
// the model does: testdata/counter-safe.bir terminates after its 4 steps
// (one step is enabled in each state, by hand), or stops at --steps;
// testdata/choice-unsafe.bir fails its assertion in its one step when the
// choice is 2 and terminates otherwise.
func TestSimulate(t *testing.T) {
	in := load(t, "testdata/counter-safe.bir")
	m := compile(t, in, model.Options{})
	var out []string
	sim := Simulate(in, m, SimulationConfig{Seed: 1, MaxSteps: 100, Describe: true, Each: func(st *Step, output string) {
		out = append(out, st.From+" -> "+st.To)
	}})
	if sim.End != SimulationTerminated || sim.Steps != 4 || sim.Verdict() != Pass {
		t.Errorf("counter: end %d after %d steps, want terminated after 4", sim.End, sim.Steps)
	}
	if got := strings.Join(out, ", "); got != "m0 -> m0, m0 -> m0, m0 -> m0, m0 -> m1 (terminated)" {
		t.Errorf("counter: steps %s", got)
	}
	if sim := Simulate(in, m, SimulationConfig{Seed: 1, MaxSteps: 2}); sim.End != SimulationStepLimit || sim.Steps != 2 {
		t.Errorf("counter, 2 steps: end %d after %d steps", sim.End, sim.Steps)
	}

	in = load(t, "testdata/choice-unsafe.bir")
	m = compile(t, in, model.Options{})
	ends := map[SimulationEnd]bool{}
	for seed := uint64(1); seed <= 40; seed++ {
		sim := Simulate(in, m, SimulationConfig{Seed: seed, MaxSteps: 10})
		again := Simulate(in, m, SimulationConfig{Seed: seed, MaxSteps: 10})
		if sim.End != again.End || sim.Steps != again.Steps {
			t.Errorf("seed %d: two runs differ", seed)
		}
		ends[sim.End] = true
		switch sim.End {
		case SimulationError:
			if sim.Steps != 1 || sim.Verdict() != Fail || sim.Violation.Kind != "assertion" || sim.Violation.Pos != "choice-unsafe.bir:9:48" {
				t.Errorf("seed %d: %+v", seed, sim.Violation)
			}
		case SimulationTerminated:
			if sim.Steps != 1 {
				t.Errorf("seed %d: terminated after %d steps", seed, sim.Steps)
			}
		default:
			t.Errorf("seed %d: end %d", seed, sim.End)
		}
	}
	if !ends[SimulationError] || !ends[SimulationTerminated] {
		t.Errorf("40 seeds end only in %v", ends)
	}
}

// TestInitialViolationTrailSaved: a violation in the initial state has a
// trail of no steps, which birch replay replays: it can be saved (its
// Ordinals are not nil). It was reported as "no trail saved: the
// violation has no trail that birch can replay" (2e151c3 saved it).
func TestInitialViolationTrailSaved(t *testing.T) {
	file := "testdata/invariant-initial.bir"
	c := run(t, file, Task{}).Deciding()
	v := c.Violation
	if c.Verdict() != Fail || v == nil || c.Violated() == nil || c.Violated().Name != "zero" {
		t.Fatalf("%s: %s, violation %+v; want zero violated in the initial state", file, c.Verdict(), v)
	}
	if v.Ordinals == nil || len(v.Ordinals) != 0 || v.Trail == nil || len(v.Trail) != 0 {
		t.Fatalf("ordinals %v, trail %v, want an empty trail that can be saved and printed", v.Ordinals, v.Trail)
	}
	in := load(t, file)
	if r := ReplayTrail(in, compile(t, in, model.Options{}), savedTrail(c)); r.End != ReplayInvariant {
		t.Errorf("the trail replays to %v (%s), want a false invariant", r.End, r.Mismatch)
	}
}
