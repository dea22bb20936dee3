package verify

import (
	"slices"
	"strings"
	"testing"

	"birch/internal/model"
	"birch/internal/search"
)

// A test per value of "rests on", each reached from a real model
// (abstracted is the check with data abstraction's, tested with it).

// TestRestsOnComplete: every check of a pass of examples/peterson.bir
// (its two invariants with safety in one search, its three ltl
// properties in one search each) rests on a complete search.
func TestRestsOnComplete(t *testing.T) {
	res := run(t, examples+"/peterson.bir", Task{})
	if v := res.Verdict(); v != Pass {
		t.Fatalf("verdict %s, want pass", v)
	}
	if len(res.Checks) != 4 {
		t.Fatalf("%d checks, want 4 (safety with 2 invariants, 3 ltl properties)", len(res.Checks))
	}
	for _, c := range res.Checks {
		if len(c.RestsOn) != 0 || c.RestsOn.Bases()[0].Kind != Complete || !c.Explored {
			t.Errorf("%v: rests on %s (explored %v), want a complete search", titles(c.Properties), c.RestsOn, c.Explored)
		}
		if !strings.HasPrefix(c.RestsOn.String(), "complete") {
			t.Errorf("%v: rests on %q", titles(c.Properties), c.RestsOn)
		}
	}
}

// TestRestsOnExactCounts: the safety search of testdata/counter-safe.bir
// counts the states of the model. By hand: Main at m0 with x = 0, 1, 2,
// 3, then at m1 with x = 3: 5 states; each but the last has one
// successor: 4 transitions; the last is 4 steps from the initial state.
func TestRestsOnExactCounts(t *testing.T) {
	res := run(t, "testdata/counter-safe.bir", Task{})
	if v := res.Verdict(); v != Pass {
		t.Fatalf("verdict %s, want pass", v)
	}
	st := res.Checks[0].Stats
	if st.States != 5 || st.Transitions != 4 || st.MaxDepth != 4 {
		t.Errorf("stats %d states, %d transitions, depth %d; want 5, 4, 4", st.States, st.Transitions, st.MaxDepth)
	}
}

// TestRestsOnMaxDepth: --max-depth bounds a check only when it cuts a
// path. testdata/counter-safe.bir's deepest state (Main at m1) is 4
// steps deep and has no successor, so --max-depth=4 cuts nothing (a
// complete search, a pass), while --max-depth=3 cuts the step from the
// state at depth 3 (x = 3) to it: 4 states explored, and every check,
// safety and ltl, is bounded and inconclusive.
func TestRestsOnMaxDepth(t *testing.T) {
	res := run(t, "testdata/counter-safe.bir", Task{Search: search.Config{MaxDepth: 4}})
	if v := res.Verdict(); v != Pass {
		t.Fatalf("--max-depth=4: verdict %s, want pass (no path is cut)", v)
	}
	for _, c := range res.Checks {
		if len(c.RestsOn) != 0 {
			t.Errorf("--max-depth=4: %v rests on %s, want complete", titles(c.Properties), c.RestsOn)
		}
	}
	res = run(t, "testdata/counter-safe.bir", Task{Search: search.Config{MaxDepth: 3}})
	if v := res.Verdict(); v != Inconclusive {
		t.Fatalf("--max-depth=3: verdict %s, want inconclusive", v)
	}
	if len(res.Checks) != 2 {
		t.Fatalf("%d checks, want 2", len(res.Checks))
	}
	for _, c := range res.Checks {
		want := RestsOn{{Bounded, "--max-depth=3 cut paths"}}
		if !slices.Equal(c.RestsOn, want) || c.Verdict() != Inconclusive {
			t.Errorf("--max-depth=3: %v: %s resting on %s, want inconclusive resting on %s", titles(c.Properties), c.Verdict(), c.RestsOn, want)
		}
		for _, p := range c.Properties {
			if v, _ := c.PropertyVerdict(p); v != Inconclusive {
				t.Errorf("--max-depth=3: %s: %s, want inconclusive", p.Title, v)
			}
		}
	}
	if st := res.Checks[0].Stats; st.States != 4 {
		t.Errorf("--max-depth=3: %d states, want 4 (x = 0..3 at m0)", st.States)
	}
}

// TestRestsOnModelBound: a bound of the model that cuts paths bounds the
// check: examples/collection-limit.bir's third `new` finds its
// collection full; examples/dynamic-threads.bir with at most 2 threads
// cannot start its workers.
func TestRestsOnModelBound(t *testing.T) {
	for _, tc := range []struct {
		path string
		mo   model.Options
		what string
	}{
		{examples + "/collection-limit.bir", model.Options{}, "a bound of the model cut paths: collection Nodes is full (2 objects)"},
		{examples + "/dynamic-threads.bir", model.Options{MaxThreads: 2}, "a bound of the model cut paths: too many threads (the bound is 2)"},
	} {
		res := run(t, tc.path, Task{Model: tc.mo})
		if v := res.Verdict(); v != Inconclusive {
			t.Errorf("%s: verdict %s, want inconclusive", tc.path, v)
		}
		for _, c := range res.Checks {
			want := RestsOn{{Bounded, tc.what}}
			if !slices.Equal(c.RestsOn, want) || c.Verdict() != Inconclusive || len(c.LimitsHit) == 0 {
				t.Errorf("%s: %v: %s resting on %s (limits %v), want inconclusive resting on %s",
					tc.path, titles(c.Properties), c.Verdict(), c.RestsOn, c.LimitsHit, want)
			}
		}
	}
}

// TestRestsOnLimitError: with --on-limit=error a bound of the model hit
// is a violation, not a cut: the failure rests on a complete search (it
// read "bounded (a bound of the model cut paths: ...)").
func TestRestsOnLimitError(t *testing.T) {
	res := run(t, examples+"/collection-limit.bir", Task{Search: search.Config{LimitError: true}})
	c := res.Checks[0]
	if c.Verdict() != Fail || c.Violation == nil || c.Violation.Kind != "limit" || len(c.RestsOn) != 0 {
		t.Errorf("--on-limit=error: %s (%s) resting on %s, want a failure at the bound resting on a complete search", c.Verdict(), c.Reason, c.RestsOn)
	}
}

// TestRestsOnResourceLimit: a resource limit that stops a search bounds
// the check (--max-states=2 on testdata/counter-safe.bir, which has 5
// states), and so does a limit that stops a phase outside the search
// (Ctrl-C during the LTL translation, through the OnPhase hook): that
// check is stopped, names the phase, and has no violation.
func TestRestsOnResourceLimit(t *testing.T) {
	res := run(t, "testdata/counter-safe.bir", Task{Search: search.Config{MaxStates: 2}})
	if v := res.Verdict(); v != Inconclusive {
		t.Fatalf("--max-states=2: verdict %s, want inconclusive", v)
	}
	for _, c := range res.Checks {
		want := RestsOn{{Bounded, "state limit reached (--max-states=2)"}}
		if !slices.Equal(c.RestsOn, want) || c.Verdict() != Inconclusive {
			t.Errorf("--max-states=2: %v: %s resting on %s, want inconclusive resting on %s", titles(c.Properties), c.Verdict(), c.RestsOn, want)
		}
	}

	task := Task{Input: load(t, "testdata/counter-safe.bir")}
	task.limits().OnPhase = func(phase string, l *Limits) {
		if phase == PhaseTranslation {
			l.End("interrupted")
		}
	}
	res, err := Run(&task)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Checks) != 2 {
		t.Fatalf("%d checks, want 2", len(res.Checks))
	}
	if c := res.Checks[0]; c.Verdict() != Pass {
		// the safety search ran before the translation
		t.Errorf("safety: %s (%s), want pass", c.Verdict(), c.Reason)
	}
	c := res.Checks[1]
	if c.Stopped == nil || c.Stopped.Phase != PhaseTranslation || c.Verdict() != Inconclusive ||
		!c.RestsOn.Has(Bounded) || c.Reason != "interrupted during the LTL translation" {
		t.Errorf("ltl: %s, stopped %+v, reason %q, rests on %s; want inconclusive, stopped during the LTL translation",
			c.Verdict(), c.Stopped, c.Reason, c.RestsOn)
	}
	if v := res.Verdict(); v != Inconclusive {
		t.Errorf("verdict %s, want inconclusive", v)
	}
}

// TestRestsOnChooseFree: a choose-free search under-approximates. On
// testdata/choice-unsafe.bir, whose one violation lies behind an
// internChoose, it finds nothing and must not pass (the full search
// fails); on examples/peterson-broken.bir it finds the violation, which
// is conclusive.
func TestRestsOnChooseFree(t *testing.T) {
	if v := run(t, "testdata/choice-unsafe.bir", Task{}).Verdict(); v != Fail {
		t.Fatalf("full search: verdict %s, want fail", v)
	}
	under := RestsOn{{UnderApproximated, "--choose-free: only the steps that execute no internChoose, forall or reachable"}}
	res := run(t, "testdata/choice-unsafe.bir", Task{Search: search.Config{ChooseFree: true}})
	c := res.Checks[0]
	if res.Verdict() != Inconclusive || !slices.Equal(c.RestsOn, under) || c.Stats.States != 1 {
		t.Errorf("choose-free: %s resting on %s after %d states, want inconclusive resting on %s after 1 state (the initial one)",
			res.Verdict(), c.RestsOn, c.Stats.States, under)
	}
	res = run(t, examples+"/peterson-broken.bir", Task{Search: search.Config{ChooseFree: true}})
	c = res.Checks[0]
	if res.Verdict() != Fail || c.Violation == nil || !slices.Equal(c.RestsOn, under) {
		t.Errorf("peterson-broken, choose-free: %s resting on %s, want fail resting on %s", res.Verdict(), c.RestsOn, under)
	}
}
