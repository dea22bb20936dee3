package model

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"birch/internal/bir/ast"
)

// TestEvaluatorMatchesLabels checks the Evaluator against EvalLabel on
// every reachable state of the examples with predicates, evaluating each
// predicate's definition as a condition. The Evaluator decodes only the
// fixed part of the state for conditions that read no thread, so this
// also checks that choice.
func TestEvaluatorMatchesLabels(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing
	files, err := filepath.Glob("../../examples/*.bir")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		m := load(t, f)
		if len(m.Labels()) == 0 {
			continue
		}
		n++
		_, ev := labelEvaluator(t, m)
		if _, fail := m.Initial(nil); fail != nil {
			continue
		}
		for _, s := range benchStates(m, 20000) {
			mask, _, cerr := ev.Mask(s)
			for i := range m.Labels() {
				want, lerr := m.EvalLabel(s, i)
				if (lerr != nil) != (cerr != nil) {
					t.Fatalf("%s: label %s: error %v, evaluator error %v", f, m.Labels()[i].Name, lerr, cerr)
				}
				if lerr == nil && want != (mask&(1<<uint(i)) != 0) {
					t.Fatalf("%s: label %s = %v, the evaluator says %v", f, m.Labels()[i].Name, want, !want)
				}
			}
		}
	}
	if n < 3 {
		t.Fatalf("only %d examples have predicates", n)
	}
}

// The Evaluator allocates nothing per state.
func TestEvaluatorAllocs(t *testing.T) {
	m := load(t, "../../examples/peterson.bir")
	m.checkEncoding = false
	_, ev := labelEvaluator(t, m)
	s0, _ := m.Initial(nil)
	states := [][]byte{s0}
	m.Next(s0, func(st *Step) { states = append(states, append([]byte(nil), st.State...)) })
	allocs := testing.AllocsPerRun(100, func() {
		for _, s := range states {
			ev.Mask(s)
		}
	})
	if allocs != 0 {
		t.Errorf("Mask allocates %.1f times per run", allocs)
	}
}

// TestLoadStep checks that conditions evaluated on a successor through
// LoadStep (its slots as Next has them) agree with the same conditions on
// the decoded state, for the predicates of every example with predicates,
// and that a copy of a step falls back to decoding.
func TestLoadStep(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing
	files, err := filepath.Glob("../../examples/*.bir")
	if err != nil {
		t.Fatal(err)
	}
	n, hits := 0, 0
	for _, f := range files {
		for _, mode := range []CacheMode{CacheOn, CacheOff} {
			// (with the transition cache on, a successor of a cached outcome
			// is loaded from the source's fixed slots and the outcome's
			// changes)
			m := loadOpts(t, f, Options{TransitionCache: mode})
			if len(m.Labels()) == 0 {
				continue
			}
			conds, byStep := labelEvaluator(t, m)
			_, byState := labelEvaluator(t, m)
			s0, fail := m.Initial(nil)
			if fail != nil {
				continue
			}
			exploreSteps(m, s0, capStates(20000), nil, func(st *Step) {
				copied := *st
				byState.Load(st.State)
				for i := range conds {
					byStep.LoadStep(st)
					a, errA := byStep.Eval(i)
					b, errB := byState.Eval(i)
					byStep.LoadStep(&copied)
					c, errC := byStep.Eval(i)
					if a != b || a != c || (errA == nil) != (errB == nil) || (errA == nil) != (errC == nil) {
						t.Fatalf("%s: condition %d: LoadStep %v %v, copy %v %v, decoded %v %v", f, i, a, errA, c, errC, b, errB)
					}
					n++
				}
			})
			hits += m.tc.hits
		}
	}
	if n == 0 || hits == 0 {
		t.Fatalf("%d conditions evaluated, %d cache hits", n, hits)
	}
}

// labelEvaluator compiles the model's predicates (its labels) into an
// Evaluator.
func labelEvaluator(t *testing.T, m *Model) ([]ast.Expr, *Evaluator) {
	t.Helper()
	var conds []ast.Expr
	for _, l := range m.Labels() {
		conds = append(conds, l.Pred.Decl.Expr)
	}
	ev, err := m.NewEvaluator(conds)
	if err != nil {
		t.Fatal(err)
	}
	return conds, ev
}

// TestSourcesHold checks the evaluation that SourcesHold allows: on the
// models with invariants, with the transition cache on, every invariant
// evaluated on each successor (LoadStep, SourcesHold) of a state that
// satisfies them all agrees with its evaluation on the decoded successor,
// and the shortcut (no evaluation for a step that leaves the invariant's
// slots unchanged) is taken. Models whose invariants read the heap or the
// threads keep the traced evaluation.
func TestSourcesHold(t *testing.T) {
	var files []string
	for _, pat := range []string{"../../examples/*.bir", "../../bench/models/small/*.bir", "../search/testdata/props/*.bir", "testdata/sources-hold.bir"} {
		fs, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	n, shortcuts, falses := 0, 0, 0
	for _, f := range files {
		m := loadOpts(t, f, Options{TransitionCache: CacheOn})
		var conds []ast.Expr
		for _, p := range m.prog.Properties {
			if !p.LTL {
				conds = append(conds, p.Decl.Expr)
			}
		}
		if len(conds) == 0 {
			continue
		}
		byStep, err := m.NewEvaluator(conds)
		if err != nil {
			t.Fatal(err)
		}
		byStep.SourcesHold()
		byState, err := m.NewEvaluator(conds)
		if err != nil {
			t.Fatal(err)
		}
		holds := func(s []byte) bool {
			mask, failed, _ := byState.Mask(s)
			return failed < 0 && mask == 1<<len(conds)-1
		}
		s0, fail := m.Initial(nil)
		if fail != nil || !holds(s0) {
			continue
		}
		// only states that satisfy the invariants are expanded
		exploreSteps(m, s0, 20000, holds, func(st *Step) {
			byStep.LoadStep(st)
			byState.Load(st.State)
			for i := range conds {
				before := byStep.shortcuts
				a, errA := byStep.Eval(i)
				b, errB := byState.Eval(i)
				if a != b || (errA == nil) != (errB == nil) {
					t.Fatalf("%s: invariant %d: on the step %v %v, decoded %v %v", f, i, a, errA, b, errB)
				}
				shortcuts += byStep.shortcuts - before
				n++
				if !b || errB != nil {
					falses++
				}
			}
		})
	}
	// some successors violate an invariant, some through a cache hit
	// (sources-hold.bir), so a shortcut taken where it must not be shows
	if n == 0 || shortcuts == 0 || shortcuts == n || falses == 0 {
		t.Fatalf("%d invariants evaluated on steps, %d by the shortcut, %d false", n, shortcuts, falses)
	}
	t.Logf("%d invariants evaluated on steps, %d by the shortcut, %d false", n, shortcuts, falses)
}

// TestStaticReads checks which conditions have a read set known statically.
func TestStaticReads(t *testing.T) {
	src := `system S ()
N = record { v : range 0..3; };
C : collection [2] of N;
a : array [3] of range 0..3;
x, y : range 0..3;
r : ref N;
main thread M ()
  loc m0:
    when true do { x := 1; } goto m0;
end M;
predicates
  small = x < 2;
  atM0 = M @ m0;
properties
  invariant i0: x <= y;
  invariant i1: a[x] == 0 || small;
  invariant i2: 1 < 2;
  invariant i3: r.v == 0;
  invariant i4: r != null || x == 0;
  invariant i5: atM0;
end S;
`
	path := filepath.Join(t.TempDir(), "s.bir")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m := load(t, path)
	var conds []ast.Expr
	for _, p := range m.prog.Properties {
		conds = append(conds, p.Decl.Expr)
	}
	ev, err := m.NewEvaluator(conds)
	if err != nil {
		t.Fatal(err)
	}
	a, x, y, r := int32(m.globalOff[0]), int32(m.globalOff[1]), int32(m.globalOff[2]), int32(m.globalOff[3])
	want := [][]int32{{x, 1, y, 1}, {a, 3, x, 1, x, 1}, {}, nil, {r, 1, x, 1}, nil}
	for i, w := range want {
		if got := ev.reads[i]; !slices.Equal(got, w) || (got == nil) != (w == nil) {
			t.Errorf("invariant i%d: static reads %v, want %v", i, got, w)
		}
	}
}

// exploreSteps explores m breadth-first from s0 until it has seen limit
// states, calling step on each OK outcome as Next delivers it; a new
// successor is expanded when keep (nil: always) accepts its state.
func exploreSteps(m *Model, s0 []byte, limit int, keep func([]byte) bool, step func(*Step)) {
	seen := map[string]bool{string(s0): true}
	queue := [][]byte{s0}
	for len(queue) > 0 && len(seen) < limit {
		s := queue[0]
		queue = queue[1:]
		m.Next(s, func(st *Step) {
			if st.Outcome != OK {
				return
			}
			step(st)
			if !seen[string(st.State)] && (keep == nil || keep(st.State)) {
				seen[string(st.State)] = true
				queue = append(queue, append([]byte(nil), st.State...))
			}
		})
	}
}
