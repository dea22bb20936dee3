package search

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/bir/types"
	"birch/internal/model"
)

// invariantsOf returns the invariants of m's properties section.
func invariantsOf(m *model.Model) []*types.Property {
	var ps []*types.Property
	for _, p := range m.Program().Properties {
		if !p.LTL {
			ps = append(ps, p)
		}
	}
	return ps
}

func checkedModelOf(t testing.TB, m *model.Model) (Model, *Invariants) {
	t.Helper()
	inv, err := NewInvariants(m, invariantsOf(m))
	if err != nil {
		t.Fatal(err)
	}
	if inv == nil {
		return m, nil
	}
	return WithStateCheck(m, inv), inv
}

// shortestInvariantViolation explores m breadth first on its own (without
// the search package's engines) and returns the length of the shortest path
// to a state where some invariant is false, or -1.
func shortestInvariantViolation(t *testing.T, m *model.Model, inv *Invariants) int {
	t.Helper()
	init, fail := m.Initial(nil)
	if fail != nil {
		t.Fatalf("initial state: %s", fail.Msg)
	}
	var v model.Step
	if !inv.Check(init, &v) {
		return 0
	}
	seen := map[string]bool{string(init): true}
	level := [][]byte{init}
	for d := 1; len(level) > 0; d++ {
		var next [][]byte
		found := false
		for _, s := range level {
			m.Next(s, func(st *model.Step) {
				if st.Outcome != model.OK || seen[string(st.State)] {
					return
				}
				c := string(st.State)
				seen[c] = true
				next = append(next, []byte(c))
				if !inv.Check([]byte(c), &v) {
					found = true
				}
			})
		}
		if found {
			return d
		}
		level = next
	}
	return -1
}

func TestInvariantViolations(t *testing.T) {
	for _, c := range []struct {
		file string
		name string // the invariant that fails
		kind model.ErrorKind
	}{
		{"testdata/props/invariant-unsafe.bir", "small", model.InvariantViolated},
		{"testdata/props/invariant-remote.bir", "onlyInCrit", model.InvariantViolated},
		{"testdata/props/invariant-initial.bir", "zero", model.InvariantViolated},
	} {
		t.Run(c.file, func(t *testing.T) {
			m := loadModel(t, c.file)
			cm, inv := checkedModelOf(t, m)
			shortest := shortestInvariantViolation(t, m, inv)
			if shortest < 0 {
				t.Fatal("the reference exploration finds no violation")
			}
			for _, st := range strategies {
				res := Run(cm, st.config())
				if res.Verdict != Fail || res.Violation == nil {
					t.Errorf("%s: %v (%s), want fail", st.name, res.Verdict, res.Reason)
					continue
				}
				v := res.Violation
				if v.Kind != c.kind || !strings.Contains(v.Msg, "invariant "+c.name+" ") {
					t.Errorf("%s: violation %v %q, want %v of %s", st.name, v.Kind, v.Msg, c.kind, c.name)
				}
				if st.strategy == BFS && len(res.Trail) != shortest {
					t.Errorf("bfs: trail %v, the shortest is %d steps", res.Trail, shortest)
				}
				if len(res.Trail) < shortest {
					t.Errorf("%s: trail %v shorter than the shortest (%d)", st.name, res.Trail, shortest)
				}
				checkInvariantTrail(t, st.name, m, inv, res)
			}
		})
	}
}

// checkInvariantTrail checks that the trail of res, a violation of inv,
// replays on the plain model m to a state that violates inv, through states
// that do not, and that the violation names the last step's thread.
func checkInvariantTrail(t *testing.T, what string, m *model.Model, inv StateCheck, res *Result) {
	t.Helper()
	init, steps, err := Replay(m, res.Trail)
	if err != nil {
		t.Errorf("%s: replay: %v", what, err)
		return
	}
	var vs model.Step
	if inv.Check(init, &vs) != (len(steps) > 0) {
		t.Errorf("%s: the initial state does not fit the trail", what)
	}
	for i, s := range steps {
		if s.Step.Outcome != model.OK {
			t.Errorf("%s: step %d is not a successor", what, i+1)
			return
		}
		if ok := inv.Check(s.After, &vs); ok != (i < len(steps)-1) {
			t.Errorf("%s: after step %d of %d the invariants hold: %v", what, i+1, len(steps), ok)
		}
	}
	if v := res.Violation; len(steps) > 0 && v.Thread != steps[len(steps)-1].Step.Thread {
		t.Errorf("%s: violation names thread %d, the last step is thread %d's", what, v.Thread, steps[len(steps)-1].Step.Thread)
	}
}

// countingCheck is a StateCheck that counts how often it checks each state.
type countingCheck struct {
	c    StateCheck
	seen map[string]int
}

func (cc *countingCheck) Check(state []byte, v *model.Step) bool {
	cc.seen[string(state)]++
	return cc.c.Check(state, v)
}

// TestStateCheckOnce checks that a search checks each state it stores once
// (not on every step into it), in every search order, also when depth-first
// search defers successors to verify (few hash bits in the store, or every
// successor deferred): on models whose invariants hold, every stored state
// is checked exactly once and nothing else is, with the counts of the plain
// search; on models that violate one, the verdict, the invariant named and
// a trail that replays to the first violating state.
func TestStateCheckOnce(t *testing.T) {
	files := []string{
		"testdata/props/invariant-unsafe.bir",
		"testdata/props/invariant-remote.bir",
		"testdata/props/invariant-violated-deep.bir",
	}
	for _, ex := range examples(t) {
		if ex.expect.verdict != Fail {
			files = append(files, ex.path)
		}
	}
	variants := []struct {
		name string
		set  func(*Config)
	}{
		{"", func(*Config) {}},
		{" few-hash-bits", func(c *Config) { c.storeIDBits = fewHashBits }},
		{" defer-all", func(c *Config) { c.deferAll = true }},
	}
	n := 0
	for _, f := range files {
		m := loadModel(t, f)
		inv, err := NewInvariants(m, invariantsOf(m))
		if err != nil {
			t.Fatal(err)
		}
		if inv == nil {
			continue
		}
		n++
		for _, st := range strategies {
			plain := Run(m, st.config())
			for _, v := range variants {
				what := fmt.Sprintf("%s %s%s", filepath.Base(f), st.name, v.name)
				cfg := st.config()
				v.set(&cfg)
				cc := &countingCheck{c: inv, seen: map[string]int{}}
				res := Run(WithStateCheck(m, cc), cfg)
				if res.Verdict == Fail {
					if res.Violation.Kind != model.InvariantViolated {
						t.Errorf("%s: violation %v (%s)", what, res.Violation.Kind, res.Violation.Msg)
						continue
					}
					checkInvariantTrail(t, what, m, inv, res)
					continue
				}
				if res.Verdict != plain.Verdict || res.Stats.States != plain.Stats.States || res.Stats.Transitions != plain.Stats.Transitions {
					t.Errorf("%s: %v %d states %d transitions, plain search %v %d %d", what, res.Verdict,
						res.Stats.States, res.Stats.Transitions, plain.Verdict, plain.Stats.States, plain.Stats.Transitions)
				}
				if len(cc.seen) != res.Stats.States {
					t.Errorf("%s: %d states checked, %d stored", what, len(cc.seen), res.Stats.States)
				}
				for s, k := range cc.seen {
					if k != 1 {
						t.Errorf("%s: a state checked %d times: %x", what, k, s)
						break
					}
				}
			}
		}
	}
	if n < 6 {
		t.Errorf("only %d models with invariants", n)
	}
}

// A runtime error while evaluating an invariant is a violation of that
// error's kind.
func TestInvariantRuntimeError(t *testing.T) {
	m := loadModel(t, "testdata/props/invariant-initial.bir")
	var deref []*types.Property
	for _, p := range invariantsOf(m) {
		if p.Name() == "deref" {
			deref = append(deref, p)
		}
	}
	inv, err := NewInvariants(m, deref)
	if err != nil {
		t.Fatal(err)
	}
	res := Run(WithStateCheck(m, inv), Config{})
	if res.Violation == nil || res.Violation.Kind != model.NullDereference || !strings.HasPrefix(res.Violation.Msg, "in invariant deref: ") || len(res.Trail) != 0 {
		t.Fatalf("got %v %+v, want a null dereference in deref in the initial state", res.Verdict, res.Violation)
	}
}

// Invariants that hold change nothing: same verdict, states and
// transitions as the plain search.
func TestInvariantsHold(t *testing.T) {
	n := 0
	for _, ex := range examples(t) {
		m := loadModel(t, ex.path)
		if len(invariantsOf(m)) == 0 {
			continue
		}
		n++
		cm, _ := checkedModelOf(t, m)
		for _, st := range strategies[:2] {
			plain := Run(m, st.config())
			got := Run(cm, st.config())
			if got.Verdict != plain.Verdict || got.Stats.States != plain.Stats.States || got.Stats.Transitions != plain.Stats.Transitions {
				t.Errorf("%s %s: with invariants %v %d states %d transitions (%s), without %v %d %d",
					ex.name, st.name, got.Verdict, got.Stats.States, got.Stats.Transitions, got.Reason,
					plain.Verdict, plain.Stats.States, plain.Stats.Transitions)
			}
		}
	}
	if n < 2 {
		t.Fatalf("only %d examples have invariants", n)
	}
}

// Checking the invariants of a state allocates nothing.
func TestInvariantCheckAllocs(t *testing.T) {
	m := loadModel(t, "../../examples/peterson.bir")
	_, inv := checkedModelOf(t, m)
	var states [][]byte
	init, _ := m.Initial(nil)
	m.Next(init, func(st *model.Step) { states = append(states, append([]byte(nil), st.State...)) })
	states = append(states, init)
	var v model.Step
	allocs := testing.AllocsPerRun(100, func() {
		for _, s := range states {
			inv.Check(s, &v)
		}
	})
	if allocs != 0 {
		t.Errorf("Check allocates %.1f times per run", allocs)
	}
}

// BenchmarkInvariants compares the plain search with the search that checks
// the model's invariants on every state.
func BenchmarkInvariants(b *testing.B) {
	for _, c := range []struct{ name, path string }{
		{"mutex", "../../bench/models/mutex.bir"},
		{"philosophers", "../../bench/models/philosophers.bir"},
	} {
		m := benchModel(b, c.path)
		cm, _ := checkedModelOf(b, m)
		for _, v := range []struct {
			name string
			m    Model
		}{{"plain", m}, {"invariants", cm}} {
			b.Run(c.name+"/"+v.name, func(b *testing.B) {
				var r *Result
				for b.Loop() {
					r = Run(v.m, Config{})
				}
				b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/float64(r.Stats.States)*1e9, "ns/state")
			})
		}
	}
}
