package search

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/ltl"
	"birch/internal/model"
)

// propPool collects boolean expressions of a model to use as propositions:
// its predicates, its invariants and the propositions of its ltl
// properties.
func propPool(t testing.TB, m *model.Model) []ast.Expr {
	t.Helper()
	var pool []ast.Expr
	seen := map[string]bool{}
	add := func(s *ltl.Spec) {
		for _, p := range s.Props {
			if !seen[p.Text] {
				seen[p.Text] = true
				pool = append(pool, p.Expr)
			}
		}
	}
	prog := m.Program()
	for _, p := range prog.Predicates {
		if p.Decl != nil && !seen[p.Name()] {
			seen[p.Name()] = true
			pool = append(pool, p.Decl.Expr)
		}
	}
	for _, p := range prog.Properties {
		s, err := ltl.FromExpr(prog.Fset, p.Decl.Expr)
		if err != nil {
			t.Fatal(err)
		}
		add(s)
	}
	return pool
}

// ltlCheck runs the product search for formula f over the propositions
// pool (f's proposition i is pool[i]).
func ltlCheck(t testing.TB, m *model.Model, pool []ast.Expr, f *ltl.Formula, fair bool) (*LTLResult, *model.Evaluator) {
	t.Helper()
	ev, err := m.NewEvaluator(pool)
	if err != nil {
		t.Fatal(err)
	}
	aut, err := ltl.Translate(ltl.Un(ltl.Not, f), nil)
	if err != nil {
		t.Fatal(err)
	}
	return RunLTL(m, Property{Automaton: aut, Labels: ev, Fair: fair, Msg: f.String()}, Config{}), ev
}

// oracle is the explicit state graph of a model, built independently of
// the search engines, for checking the product search.
type oracle struct {
	init    int
	states  [][]byte
	succ    [][]oedge
	label   []uint64
	enabled []uint64
}

type oedge struct{ to, thread int } // thread -1: a stutter step

func buildOracle(t testing.TB, m *model.Model, ev *model.Evaluator) *oracle {
	t.Helper()
	o := &oracle{}
	index := map[string]int{}
	add := func(s []byte) int {
		if i, ok := index[string(s)]; ok {
			return i
		}
		index[string(s)] = len(o.states)
		o.states = append(o.states, append([]byte(nil), s...))
		return len(o.states) - 1
	}
	init, fail := m.Initial(nil)
	if fail != nil {
		t.Fatalf("initial state: %s", fail.Msg)
	}
	o.init = add(init)
	for i := 0; i < len(o.states); i++ {
		var es []oedge
		var en uint64
		n, _ := m.Next(o.states[i], func(st *model.Step) {
			if st.Outcome != model.OK {
				t.Fatalf("the oracle needs a model without errors and bounds: %s", st.Msg)
			}
			en |= 1 << uint(st.Thread)
			es = append(es, oedge{add(st.State), st.Thread})
		})
		if n == 0 {
			es = append(es, oedge{i, -1})
		}
		o.succ = append(o.succ, es)
		o.enabled = append(o.enabled, en)
		mask, _, err := ev.Mask(o.states[i])
		if err != nil {
			t.Fatalf("label: %v", err)
		}
		o.label = append(o.label, mask)
	}
	return o
}

// violated decides by Tarjan's algorithm on the explicit product whether
// some (fair) execution is accepted by aut.
func (o *oracle) violated(aut *ltl.Automaton, fair bool) bool {
	nq := len(aut.States)
	type pe struct {
		to   int
		a, t uint64
	}
	edges := func(v int) []pe {
		s, q := v/nq, v%nq
		var out []pe
		for _, e := range aut.States[q].Edges {
			if !e.Enabled(o.label[s]) {
				continue
			}
			for _, me := range o.succ[s] {
				tm := ^uint64(0)
				if me.thread >= 0 {
					tm = ^o.enabled[s] | 1<<uint(me.thread)
				}
				out = append(out, pe{me.to*nq + e.To, e.Acc, tm})
			}
		}
		return out
	}
	n := len(o.states) * nq
	index, low := make([]int, n), make([]int, n)
	for i := range index {
		index[i] = -1
	}
	onStack := make([]bool, n)
	var stack []int
	counter := 0
	allA := aut.AllAcc()
	allT := uint64(0)
	if fair {
		allT = ^uint64(0)
	}
	found := false
	var strong func(v int)
	strong = func(v int) {
		index[v], low[v] = counter, counter
		counter++
		stack = append(stack, v)
		onStack[v] = true
		for _, e := range edges(v) {
			if index[e.to] < 0 {
				strong(e.to)
				low[v] = min(low[v], low[e.to])
			} else if onStack[e.to] {
				low[v] = min(low[v], index[e.to])
			}
		}
		if low[v] == index[v] {
			var comp []int
			in := map[int]bool{}
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				in[w] = true
				if w == v {
					break
				}
			}
			var a, tm uint64
			cyclic := false
			for _, w := range comp {
				for _, e := range edges(w) {
					if in[e.to] {
						cyclic = true
						a |= e.a
						tm |= e.t
					}
				}
			}
			if cyclic && a&allA == allA && tm&allT == allT {
				found = true
			}
		}
	}
	strong(o.init*nq + aut.Init)
	return found
}

// checkLasso replays a lasso trail and checks that it is an execution of
// the model that violates f (by the formula's semantics, not the
// automaton) and, with fair, that it is weakly fair.
func checkLasso(t *testing.T, what string, m *model.Model, ev *model.Evaluator, f *ltl.Formula, res *LTLResult, fair bool) {
	t.Helper()
	if res.Violation == nil || res.Violation.Kind != model.LTLViolated || res.CycleStart < 0 {
		t.Fatalf("%s: not an ltl violation: %+v", what, res.Violation)
	}
	init, steps, err := Replay(m, res.Trail)
	if err != nil {
		t.Fatalf("%s: the lasso %v does not replay: %v", what, res.Trail, err)
	}
	states := [][]byte{init}
	for i, s := range steps {
		if s.Step.Outcome != model.OK {
			t.Fatalf("%s: step %d is not a successor", what, i+1)
		}
		states = append(states, s.After)
	}
	k := res.CycleStart
	letter := func(s []byte) uint64 {
		mask, _, err := ev.Mask(s)
		if err != nil {
			t.Fatal(err)
		}
		return mask
	}
	var prefix, cycle []uint64
	for _, s := range states[:k] {
		prefix = append(prefix, letter(s))
	}
	if res.Stutter {
		if len(steps) != k {
			t.Fatalf("%s: a stutter lasso with a cycle of %d steps", what, len(steps)-k)
		}
		if n, _ := m.Next(states[k], func(*model.Step) {}); n != 0 {
			t.Fatalf("%s: the stutter state has %d outcomes", what, n)
		}
		cycle = []uint64{letter(states[k])}
	} else {
		if len(steps) == k {
			t.Fatalf("%s: an empty cycle", what)
		}
		if !bytes.Equal(states[k], states[len(states)-1]) {
			t.Fatalf("%s: the cycle does not return to its first state", what)
		}
		for _, s := range states[k : len(states)-1] {
			cycle = append(cycle, letter(s))
		}
		if fair {
			moved := uint64(0)
			always := ^uint64(0)
			for i, s := range steps[k:] {
				moved |= 1 << uint(s.Step.Thread)
				var en uint64
				m.Next(states[k+i], func(st *model.Step) {
					if st.Outcome == model.OK {
						en |= 1 << uint(st.Thread)
					}
				})
				always &= en
			}
			if always&^moved != 0 {
				t.Fatalf("%s: the cycle is not fair: threads %b are always enabled and never move", what, always&^moved)
			}
		}
	}
	if ltl.Holds(f, prefix, cycle) {
		t.Fatalf("%s: the lasso %v (cycle from %d) satisfies the formula %v", what, res.Trail, k, f)
	}
}

func randLTL(r *rand.Rand, nprops, size int) *ltl.Formula {
	if size <= 0 {
		if r.IntN(12) == 0 {
			return ltl.T()
		}
		return ltl.Prop(r.IntN(nprops))
	}
	unary := []ltl.Op{ltl.Not, ltl.Next, ltl.Always, ltl.Eventually}
	binary := []ltl.Op{ltl.And, ltl.Or, ltl.Implies, ltl.Until, ltl.Release, ltl.WeakUntil}
	if r.IntN(2) == 0 {
		return ltl.Un(unary[r.IntN(len(unary))], randLTL(r, nprops, size-1))
	}
	k := r.IntN(size)
	return ltl.Bin(binary[r.IntN(len(binary))], randLTL(r, nprops, k), randLTL(r, nprops, size-1-k))
}

// ltlModels are models without runtime errors or bounds, with
// propositions to build formulas from.
var ltlModels = []string{
	"../../examples/peterson.bir",
	"../../examples/dynamic-threads.bir",
	"../../examples/invisible.bir",
	"../../examples/philosophers-ordered.bir",
	"../../examples/philosophers-deadlock.bir",
	"../../examples/bounded-buffer-notifyall.bir",
	"testdata/props/fairness.bir",
	"testdata/props/terminate.bir",
}

// TestProductRandom checks the product search against the explicit oracle
// on random formulas over the models' propositions, with and without
// fairness, and checks every counterexample against the formula's
// semantics.
func TestProductRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n := 40
	if testing.Short() {
		n = 10
	}
	for _, path := range ltlModels {
		m := loadModel(t, path)
		pool := propPool(t, m)
		if len(pool) == 0 {
			t.Fatalf("%s: no propositions", path)
		}
		ev, err := m.NewEvaluator(pool)
		if err != nil {
			t.Fatal(err)
		}
		o := buildOracle(t, m, ev)
		fails := 0
		for i := 0; i < n; i++ {
			f := randLTL(r, len(pool), 1+r.IntN(5))
			for _, fair := range []bool{false, true} {
				what := fmt.Sprintf("%s: %v (fair %v)", path, f, fair)
				res, ev := ltlCheck(t, m, pool, f, fair)
				aut, _ := ltl.Translate(ltl.Un(ltl.Not, f), nil)
				want := o.violated(aut, fair)
				if (res.Verdict == Fail) != want || res.Verdict == Inconclusive {
					t.Fatalf("%s: %v (%s), the oracle says violated=%v", what, res.Verdict, res.Reason, want)
				}
				if res.Verdict == Fail {
					fails++
					checkLasso(t, what, m, ev, f, res, fair)
				}
			}
		}
		t.Logf("%s: %d states, %d of %d checks failed", path, len(o.states), fails, 2*n)
	}
}

// TestProductExamples checks the ltl properties of the examples and of
// the test models with their known verdicts.
func TestProductExamples(t *testing.T) {
	for _, c := range []struct {
		path, prop string
		fair       bool
		fail       bool
		stutter    bool
	}{
		{"../../examples/peterson.bir", "safety", false, false, false},
		{"../../examples/peterson.bir", "mirrors", false, false, false},
		{"../../examples/peterson.bir", "flagged", false, false, false},
		{"../../examples/dynamic-threads.bir", "finishes", false, false, false},
		{"../../examples/dynamic-threads.bir", "staysDone", false, false, false},
		{"../../examples/dynamic-threads.bir", "untilDone", false, false, false},
		{"../../examples/dynamic-threads.bir", "releases", false, false, false},
		{"../../examples/dynamic-threads.bir", "weak", false, false, false},
		{"../../examples/invisible.bir", "eventually", false, false, false},
		{"../../examples/invisible.bir", "notBefore", false, false, false},
		{"../../examples/msgqueue.bir", "sendEnters", false, false, false},
		{"../../examples/msgqueue.bir", "recvWakes", true, false, false},
		{"testdata/props/fairness.bir", "eventuallyFlag", false, true, false},
		{"testdata/props/fairness.bir", "eventuallyFlag", true, false, false},
		{"testdata/props/fairness.bir", "spins", false, false, false},
		{"testdata/props/fairness.bir", "flagStays", false, false, false},
		{"testdata/props/terminate.bir", "settles", false, false, false},
		{"testdata/props/terminate.bir", "recurs", false, true, true},
		{"testdata/props/terminate.bir", "ends", false, false, false},
		{"testdata/props/terminate.bir", "monotone", false, false, false},
	} {
		what := fmt.Sprintf("%s %s (fair %v)", c.path, c.prop, c.fair)
		m := loadModel(t, c.path)
		var spec *ltl.Spec
		for _, p := range m.Program().Properties {
			if p.Name() == c.prop {
				s, err := ltl.FromExpr(m.Program().Fset, p.Decl.Expr)
				if err != nil {
					t.Fatal(err)
				}
				spec = s
			}
		}
		if spec == nil {
			t.Fatalf("%s: no such property", what)
		}
		var pool []ast.Expr
		for _, p := range spec.Props {
			pool = append(pool, p.Expr)
		}
		res, ev := ltlCheck(t, m, pool, spec.Formula, c.fair)
		if got := res.Verdict == Fail; got != c.fail || res.Verdict == Inconclusive {
			t.Errorf("%s: %v (%s)", what, res.Verdict, res.Reason)
			continue
		}
		if c.fail {
			checkLasso(t, what, m, ev, spec.Formula, res, c.fair)
			if res.Stutter != c.stutter {
				t.Errorf("%s: stutter %v, want %v", what, res.Stutter, c.stutter)
			}
		}
	}
}

// A deadlock is a finite execution: it repeats its last state, and is not
// reported as a deadlock by the product search.
func TestProductDeadlockStutters(t *testing.T) {
	m := loadModel(t, "../../examples/philosophers-deadlock.bir")
	pool := propPool(t, m) // someoneEats
	f := ltl.Un(ltl.Always, ltl.Un(ltl.Eventually, ltl.Prop(0)))
	res, ev := ltlCheck(t, m, pool, f, true)
	if res.Verdict != Fail || !res.Stutter {
		t.Fatalf("%v %s, stutter %v: want a stutter lasso into the deadlock", res.Verdict, res.Reason, res.Stutter)
	}
	checkLasso(t, "philosophers-deadlock", m, ev, f, res, true)
	_, steps, _ := Replay(m, res.Trail)
	final := steps[len(steps)-1].After
	if n, done := m.Next(final, func(*model.Step) {}); n != 0 || done {
		t.Fatalf("the lasso ends in a state with %d outcomes (all done %v), not the deadlock", n, done)
	}
}

// Runtime errors are violations of the product search too, with a finite
// trail that replays to the error.
func TestProductReportsErrors(t *testing.T) {
	m := loadModel(t, "../../examples/peterson-broken.bir")
	var pool []ast.Expr
	for _, text := range []string{"turn == 0", "turn == 1"} {
		e, err := ltlExprOf(m, text)
		if err != nil {
			t.Fatal(err)
		}
		pool = append(pool, e)
	}
	// [] (turn == 0 || turn == 1) holds, but the automaton of its negation
	// does not know it, so the search explores every state
	f := ltl.Un(ltl.Always, ltl.Bin(ltl.Or, ltl.Prop(0), ltl.Prop(1)))
	res, _ := ltlCheck(t, m, pool, f, false)
	if res.Verdict != Fail || res.Violation.Kind != model.Assertion || res.CycleStart != -1 {
		t.Fatalf("%v %+v, want an assertion violation", res.Verdict, res.Violation)
	}
	checkReplay(t, "peterson-broken ltl", m, &res.Result)
}

// ltlExprOf finds an expression with the given text among the guards of m
// (tests use it to get a type-checked expression).
func ltlExprOf(m *model.Model, text string) (ast.Expr, error) {
	var found ast.Expr
	for _, g := range m.Groups() {
		if g.Decl.Guard != nil {
			ast.Inspect(g.Decl.Guard, func(n ast.Node) bool {
				if e, ok := n.(ast.Expr); ok && found == nil && format.Expr(e) == text {
					found = e
				}
				return found == nil
			})
		}
	}
	if found == nil {
		return nil, fmt.Errorf("no expression %q in the guards", text)
	}
	return found, nil
}

// BenchmarkProduct compares the time per state of the product search with
// that of the plain safety search (depth first) on benchmark models. The
// formulas are over the models' invariants (p): with [] p every product
// state pairs a model state with the automaton's one waiting state, so the
// product has as many states as the model; [] <> p and <> [] p double or
// so the states through the automaton.
func BenchmarkProduct(b *testing.B) {
	for _, c := range []struct{ name, path string }{
		{"mutex", "../../bench/models/mutex.bir"},
		{"philosophers", "../../bench/models/philosophers.bir"},
		{"buffer", "../../bench/models/buffer.bir"},
	} {
		m := benchModel(b, c.path)
		pool := invariantsPool(m)
		p := ltl.Prop(0)
		report := func(b *testing.B, states int) {
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/float64(states)*1e9, "ns/state")
			b.ReportMetric(float64(states), "states")
		}
		b.Run(c.name+"/plain", func(b *testing.B) {
			var r *Result
			for b.Loop() {
				r = Run(m, Config{})
			}
			report(b, r.Stats.States)
		})
		for _, f := range []struct {
			name string
			f    *ltl.Formula
		}{
			{"always", ltl.Un(ltl.Always, p)},
			{"always-eventually", ltl.Un(ltl.Always, ltl.Un(ltl.Eventually, p))},
			{"fair-always-eventually", ltl.Un(ltl.Always, ltl.Un(ltl.Eventually, p))},
		} {
			b.Run(c.name+"/"+f.name, func(b *testing.B) {
				var r *LTLResult
				for b.Loop() {
					r, _ = ltlCheck(b, m, pool, f.f, strings.HasPrefix(f.name, "fair"))
				}
				if r.Verdict != Pass {
					b.Fatalf("%v: %s", r.Verdict, r.Reason)
				}
				report(b, r.Stats.States)
			})
		}
	}
}

// invariantsPool returns the expressions of m's invariants.
func invariantsPool(m *model.Model) []ast.Expr {
	var pool []ast.Expr
	for _, p := range invariantsOf(m) {
		pool = append(pool, p.Decl.Expr)
	}
	return pool
}
