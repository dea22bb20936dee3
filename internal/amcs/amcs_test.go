package amcs

import (
	"os"
	"path/filepath"
	"testing"

	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/testenv"
)

// compile compiles BIR source.
func compile(t testing.TB, src string) *model.Model {
	t.Helper()
	prog := testenv.CheckBIR([]byte(src))
	if prog == nil {
		t.Fatalf("the model does not check:\n%s", src)
	}
	m, err := model.New(prog, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func compileFile(t testing.TB, path string) *model.Model {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return compile(t, string(src))
}

var splitting = []Variant{MaxOverlap, MinSet, MinOnly}

// checkTrail replays res.Trail on sm and checks that it ends in res's
// violation: an Error (or Limit) step of its kind, or a deadlocked state.
func checkTrail(t *testing.T, sm search.Model, res *Result) {
	t.Helper()
	init, steps, err := search.Replay(sm, res.Trail)
	if err != nil {
		t.Fatalf("trail %v does not replay: %v", res.Trail, err)
	}
	if res.Violation.Kind == model.Deadlock {
		final := search.Final(init, steps)
		n, allDone := sm.Next(final, func(*model.Step) {})
		if n != 0 || allDone {
			t.Fatalf("trail ends in a state with %d outcomes (all done %v), not a deadlock", n, allDone)
		}
		return
	}
	if len(steps) == 0 {
		t.Fatalf("empty trail for %v", res.Violation.Kind)
	}
	last := steps[len(steps)-1].Step
	if last.Outcome == model.OK {
		t.Fatalf("trail ends in an OK step, not the violation %v", res.Violation.Kind)
	}
	kind := last.Kind
	if last.Outcome == model.Limit {
		kind = model.LimitReached
	}
	if kind != res.Violation.Kind || last.Msg != res.Violation.Msg {
		t.Fatalf("trail ends in %v %q, violation is %v %q", kind, last.Msg, res.Violation.Kind, res.Violation.Msg)
	}
}

// bfsStates is the number of states a complete breadth-first search
// stores.
func bfsStates(t *testing.T, sm search.Model) int {
	t.Helper()
	return bfsStats(t, sm).States
}

// bfsStats are the statistics of a complete breadth-first search.
func bfsStats(t *testing.T, sm search.Model) search.Stats {
	t.Helper()
	r := search.Run(sm, search.Config{Strategy: search.BFS})
	if !r.Complete || r.Verdict != search.Pass {
		t.Fatalf("BFS: %v complete=%v %s", r.Verdict, r.Complete, r.Reason)
	}
	return r.Stats
}

// An error-free model: each GeneralSplitting heuristic ends with an exact
// round, whose abstract states are the concrete states, as many as a
// complete search stores.
func TestSplittingExactOnSmallModels(t *testing.T) {
	for _, name := range []string{"counters.bir", "updown.bir", "buffer.bir", "filter.bir"} {
		m := compileFile(t, filepath.Join("../../bench/models/small", name))
		bfs := bfsStats(t, m)
		want := bfs.States
		for _, v := range splitting {
			res := Run(m, m, Config{Variant: v, Seed: 3})
			if res.Verdict != search.Pass || !res.Exact {
				t.Errorf("%s %v: %v exact=%v: %s", name, v, res.Verdict, res.Exact, res.Reason)
				continue
			}
			last := res.Rounds[len(res.Rounds)-1]
			if last.AbstractStates != want || !last.Exact || last.Eligible != 0 {
				t.Errorf("%s %v: last round %+v, want %d exact abstract states", name, v, last, want)
			}
			// every state expanded once: the outcomes are the explicit
			// search's transitions, and each was a generated state
			if last.Transitions != bfs.Transitions || last.Generated != bfs.Transitions+1 {
				t.Errorf("%s %v: last round %d transitions, %d generated; BFS %d transitions", name, v, last.Transitions, last.Generated, bfs.Transitions)
			}
			for _, r := range res.Rounds[:len(res.Rounds)-1] {
				if r.Exact || r.Eligible == 0 || len(r.Added) == 0 {
					t.Errorf("%s %v: round %+v before the last", name, v, r)
				}
			}
			t.Logf("%s %v: %d rounds, %d predicates, %d states", name, v, len(res.Rounds), len(res.Predicates), last.AbstractStates)
		}
	}
}

// MinOnly keeps a minimum and a unique flag per datum, no maximum: the
// thesis's point is that it stores less than MaxOverlap and MinSet.
func TestMinOnlyStoresLess(t *testing.T) {
	m := compileFile(t, "../../bench/models/small/counters.bir")
	r := &runner{m: m, sm: m, preds: &datumPreds{}}
	only := newRoundSearch(r, r.preds, nil, statMin, nil)
	only.run()
	both := newRoundSearch(r, r.preds, nil, statMinMax, nil)
	both.run()
	if len(only.states) != len(both.states) || len(only.lo) == 0 || len(only.lo) != len(both.lo) {
		t.Fatalf("rounds differ: %d/%d states, %d/%d minima", len(only.states), len(both.states), len(only.lo), len(both.lo))
	}
	if len(only.hi) != 0 || len(only.uniq) != len(only.lo) || len(both.hi) != len(both.lo) || len(both.uniq) != 0 {
		t.Errorf("MinOnly keeps %d maxima, %d flags; MinMax %d maxima, %d flags", len(only.hi), len(only.uniq), len(both.hi), len(both.uniq))
	}
	if only.memory() >= both.memory() {
		t.Errorf("MinOnly's round holds %d bytes, MinMax's %d", only.memory(), both.memory())
	}
}

// Until the refining variants are built, a run of one is inconclusive and
// says so; an unknown variant too.
func TestVariantNotBuilt(t *testing.T) {
	m := compileFile(t, "../../bench/models/small/updown.bir")
	for _, v := range []Variant{AMCS, AddAll, NoTP, Variant(42)} {
		if v <= NoTP && refiners[v] != nil {
			continue
		}
		res := Run(m, m, Config{Variant: v})
		if res.Verdict != search.Inconclusive || res.Reason == "" || len(res.Rounds) != 0 {
			t.Errorf("%v: %v %q, rounds %d", v, res.Verdict, res.Reason, len(res.Rounds))
		}
	}
}

func TestParseVariant(t *testing.T) {
	for v := AMCS; v <= MinOnly; v++ {
		got, ok := ParseVariant(v.String())
		if !ok || got != v {
			t.Errorf("ParseVariant(%q) = %v, %v", v.String(), got, ok)
		}
	}
	if _, ok := ParseVariant("bogus"); ok {
		t.Error("ParseVariant accepted bogus")
	}
}
