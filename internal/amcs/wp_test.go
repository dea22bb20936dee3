package amcs

import (
	"slices"
	"strings"
	"testing"

	"birch/internal/abstraction/predicate"
	"birch/internal/model"
	"birch/internal/search"
)

// newRefiner compiles src and builds variant v's refiner from the
// predicate file preds.
func newRefiner(t *testing.T, src string, v Variant, preds string) (*model.Model, *wpRefiner) {
	t.Helper()
	m := compile(t, src)
	var ps []*predicate.Predicate
	if preds != "" {
		f, err := predicate.ParseFile(m.Program(), "test.pred", []byte(preds))
		if err != nil {
			t.Fatal(err)
		}
		ps = f.Predicates
	}
	ref, err := newWPRefiner(m, &Config{Variant: v, Predicates: ps})
	if err != nil {
		t.Fatal(err)
	}
	r := ref.(*wpRefiner)
	t.Cleanup(r.close)
	return m, r
}

// walk returns the state reached from the initial state by taking, at
// each step, the first OK outcome of the given thread.
func walk(t *testing.T, m *model.Model, threads ...int) []byte {
	t.Helper()
	s, fail := m.Initial(nil)
	if fail != nil {
		t.Fatal(fail.Msg)
	}
	for _, th := range threads {
		var next []byte
		m.Next(s, func(st *model.Step) {
			if next == nil && st.Outcome == model.OK && st.Thread == th {
				next = append([]byte(nil), st.State...)
			}
		})
		if next == nil {
			t.Fatalf("thread %d cannot move", th)
		}
		s = next
	}
	return s
}

// transition has r look at the first OK step of thread th from src, as
// the search does (expand, then step), and returns what r proposes for
// the next round and whether it found the step imprecise.
func transition(t *testing.T, m *model.Model, r *wpRefiner, src []byte, th int) (added []string, imprecise bool) {
	t.Helper()
	r.expand(src)
	done := false
	m.Next(src, func(st *model.Step) {
		if !done && st.Outcome == model.OK && st.Thread == th {
			done = true
			r.step(src, st)
		}
	})
	if !done {
		t.Fatalf("thread %d cannot move", th)
	}
	if r.nUnchecked > 0 {
		t.Fatalf("step not checked: %s", r.why)
	}
	for _, p := range r.next {
		added = append(added, p.text)
	}
	return added, r.nImprecise > 0
}

const countSrc = `system C()
  x : int;
  main thread M()
    n : int;
    loc l0: when true do { x := x + 1; n := n + 2; } goto l0;
  end M;
end C;
`

// The precision check: x > 0 is preserved by x := x + 1 (precise, nothing
// added); x < 5 is not decided by x < 5 at x = 4 (imprecise: its weakest
// precondition x + 1 < 5 is added); a local's predicate goes through the
// step too.
func TestPrecisionCheck(t *testing.T) {
	m, r := newRefiner(t, countSrc, AMCS, "x > 0\n")
	s := walk(t, m, 0)
	added, imprecise := transition(t, m, r, s, 0)
	if imprecise || len(added) != 0 || r.queries == 0 {
		t.Errorf("x > 0 through x := x + 1: imprecise %v, added %q, %d queries", imprecise, added, r.queries)
	}

	m, r = newRefiner(t, countSrc, AMCS, "x < 5\n[thread M] n < 8\n")
	s = walk(t, m, 0, 0, 0, 0) // x = 4, n = 8
	added, imprecise = transition(t, m, r, s, 0)
	want := []string{"x + 1 < 5", "[thread M] n + 2 < 8"}
	if !imprecise || !slices.Equal(added, want) {
		t.Errorf("x < 5 at x = 4: imprecise %v, added %q, want %q", imprecise, added, want)
	}
	res, err := r.refine(1)
	if err != nil || !slices.Equal(res, want) || len(r.predicates()) != 4 {
		t.Errorf("refine: %q, %v; predicates %q", res, err, r.predicates())
	}
}

const guardSrc = `system G()
  x : int;
  b : boolean;
  main thread M()
    loc l0: when x > 3 do { x := x - 1; } goto l0;
            when x <= 3 do { x := x + 5; } goto l0;
            when b do { } goto l0;
  end M;
end G;
`

// A guard that α(s) does not decide is added (whether s enables it or
// not: the reading of Algorithm 2's lines 6 and 18); one it decides is
// not; a guard that reads no integer data is not.
func TestGuardPredicates(t *testing.T) {
	m, r := newRefiner(t, guardSrc, AMCS, "")
	s := walk(t, m)
	r.expand(s)
	var got []string
	for _, p := range r.next {
		got = append(got, p.text)
	}
	if want := []string{"x > 3", "x <= 3"}; !slices.Equal(got, want) {
		t.Errorf("no predicates: added %q, want %q", got, want)
	}
	// x > 4 false at x = 0: x <= 4 decides neither guard; at x = 5,
	// x > 4 decides both
	m, r = newRefiner(t, guardSrc, AMCS, "x > 4\n")
	r.expand(walk(t, m))
	if len(r.next) != 2 {
		t.Errorf("x = 0 under x > 4: %d guards added, want 2", len(r.next))
	}
	m, r = newRefiner(t, guardSrc, AMCS, "x > 4\n")
	s = walk(t, m, 0) // x = 0 + 5
	r.expand(s)
	if len(r.next) != 0 || r.queries == 0 {
		t.Errorf("x = 5 under x > 4: added %d guards, %d queries", len(r.next), r.queries)
	}
}

// Add-All: an imprecise transition adds its source's data, one
// predicate d == c per integer datum (globals, then each frame's locals
// in its proc's scope).
func TestAddAll(t *testing.T) {
	m, r := newRefiner(t, countSrc, AddAll, "x < 5\n")
	s := walk(t, m, 0, 0, 0, 0)
	added, imprecise := transition(t, m, r, s, 0)
	want := []string{"x == 4", "[thread M] n == 8"}
	if !imprecise || !slices.Equal(added, want) {
		t.Errorf("added %q (imprecise %v), want %q", added, imprecise, want)
	}
	// a precise transition adds nothing
	m, r = newRefiner(t, countSrc, AddAll, "x > 0\n")
	if added, imprecise := transition(t, m, r, walk(t, m, 0), 0); imprecise || len(added) != 0 {
		t.Errorf("precise transition: added %q", added)
	}
}

// No-TP: every transition is imprecise, its weakest preconditions are
// added, and no solver is asked.
func TestNoTP(t *testing.T) {
	m, r := newRefiner(t, countSrc, NoTP, "x > 0\n")
	added, _ := transition(t, m, r, walk(t, m, 0), 0)
	if want := []string{"x + 1 > 0"}; !slices.Equal(added, want) || r.queries != 0 || r.solver != nil {
		t.Errorf("added %q, want %q; %d queries", added, want, r.queries)
	}
}

const twoSrc = `system Two()
  main thread M()
    loc m0: when true do { start W(1); start W(0); } goto m1;
    loc m1:
  end M;
  thread W(k : int)
    n : int;
    loc w0: when true do { n := k; } goto w1;
    loc w1: when true do { n := n - 1; } goto w1;
  end W;
end Two;
`

// The same-named locals of two threads are two values: at W[2].n = 1,
// W[3].n = 0, the step n := n - 1 of W[2] is imprecise for [thread W]
// n > 0 (n > 0 does not imply n - 1 > 0), whereas taking W[3]'s n for
// W[2]'s would make α(s) contradictory and the step precise.
func TestFramesOfTwoThreads(t *testing.T) {
	m, r := newRefiner(t, twoSrc, AMCS, "[thread W] n > 0\n")
	s := walk(t, m, 0, 1, 2)
	added, imprecise := transition(t, m, r, s, 1)
	if !imprecise || !slices.Equal(added, []string{"[thread W] n - 1 > 0"}) {
		t.Errorf("imprecise %v, added %q", imprecise, added)
	}
}

// Figure 2.1 as written (x = 0) is finite: each variant's first round
// is exact, a pass. With x = 1 (y unbounded), AMCS keeps adding
// predicates a·x + y >= 0 and stops only at the round bound:
// inconclusive, never a pass.
func TestFigure21AMCS(t *testing.T) {
	lit := compile(t, fig21(0, "int"))
	for _, v := range []Variant{AMCS, AddAll, NoTP} {
		res := Run(lit, lit, Config{Variant: v})
		if res.Verdict != search.Pass || !res.Exact {
			t.Errorf("%v, x = 0: %v %s", v, res.Verdict, res.Reason)
		}
	}
	m := compile(t, fig21(1, "int"))
	for _, v := range []Variant{AMCS, AddAll, NoTP} {
		res := Run(m, m, Config{Variant: v, MaxRounds: 5})
		t.Logf("%v: %s %q", v, res.Reason, res.Predicates)
		if res.Verdict != search.Inconclusive {
			t.Fatalf("%v, x = 1: %v after %d rounds: %s", v, res.Verdict, len(res.Rounds), res.Reason)
		}
		// Add-All's predicates y == c describe the first values exactly
		// and the rest (y > c) precisely: the WP check finds every
		// transition precise, and Φ stops changing
		if v != AddAll {
			if len(res.Rounds) != 5 || !strings.Contains(res.Reason, "round bound") {
				t.Errorf("%v: %d rounds: %s", v, len(res.Rounds), res.Reason)
			}
			for _, want := range []string{"x + y >= 0", "x + (x + y) >= 0", "x + (x + (x + y)) >= 0"} {
				if !slices.ContainsFunc(res.Predicates, func(p string) bool { return strings.HasSuffix(p, want) }) {
					t.Errorf("%v: no predicate %s among %q", v, want, res.Predicates)
				}
			}
		}
	}
}

// Each variant finds a planted assertion violation (a trail that
// replays), never a pass.
func TestWPVariantsFindErrors(t *testing.T) {
	for _, ab := range [][2]int{{3, 5}, {7, 0}, {0, 6}} {
		m := compile(t, errSrc(ab[0], ab[1]))
		for _, v := range []Variant{AMCS, AddAll, NoTP} {
			res := Run(m, m, Config{Variant: v, MaxRounds: 40})
			if res.Verdict != search.Fail || res.Violation.Kind != model.Assertion {
				t.Fatalf("a=%d b=%d %v: %v %s", ab[0], ab[1], v, res.Verdict, res.Reason)
			}
			checkTrail(t, m, res)
		}
	}
}

const stableSrc = `system S()
  x : int;
  main thread M()
    loc l0: when true do { x := internChoose(1, 2, 3); } goto l1;
    loc l1: when true do { } goto l1;
  end M;
end S;
`

// Predicates that stop changing are no proof: l1 holds three concrete
// states in one abstract state, every transition is precise, and the run
// is inconclusive, saying so.
func TestStableNotPass(t *testing.T) {
	m := compile(t, stableSrc)
	res := Run(m, m, Config{Variant: AMCS})
	if res.Verdict != search.Inconclusive || !strings.Contains(res.Reason, "explored transitions it checked precise") {
		t.Errorf("%v: %s", res.Verdict, res.Reason)
	}
}

// examples/index-error.bir writes buf[3] in a loop whose guard compares
// with a constant (i <= LEN) and whose increment is an invisible
// transformation (a run of two). Each variant adds the guards and their
// weakest preconditions through the run (i + 1 <= LEN, ...; the guard of
// the run's second transformation is a condition of the step, not a
// disjunct of its predicates) and finds the error.
func TestIndexErrorExample(t *testing.T) {
	m := compileFile(t, "../../examples/index-error.bir")
	for _, v := range []Variant{AMCS, AddAll, NoTP} {
		res := Run(m, m, Config{Variant: v, MaxRounds: 10})
		if res.Verdict != search.Fail || res.Violation.Kind != model.IndexOutOfBounds {
			t.Fatalf("%v: %v %s %q", v, res.Verdict, res.Reason, res.Predicates)
		}
		checkTrail(t, m, res)
		for _, p := range res.Predicates {
			if strings.Contains(p, "||") {
				t.Errorf("%v: predicate %s", v, p)
			}
		}
	}
}

const pinSrc = `system P()
  x : int;
  b : boolean;
  main thread M()
    loc l0: when b || x > 3 do { x := x - 1; } goto l0;
            when !b do { b := true; x := 0; } goto l0;
  end M;
end P;
`

// The control part is concrete in an abstract state: with b true in s,
// α(s) decides b || x > 3 (true), whatever x; with b false it does not.
func TestGuardControlPinned(t *testing.T) {
	m, r := newRefiner(t, pinSrc, AMCS, "")
	r.expand(walk(t, m))
	if len(r.next) != 1 || r.next[0].text != "b || x > 3" {
		t.Errorf("b false: added %d", len(r.next))
	}
	m, r = newRefiner(t, pinSrc, AMCS, "")
	r.expand(walk(t, m, 0))
	if len(r.next) != 0 {
		t.Errorf("b true: added %q", r.next[0].text)
	}
}

const startSrc = `system St()
  x : int;
  main thread M()
    loc m0: when true do { x := x + 1; start W(); } goto m1;
    loc m1:
  end M;
  thread W()
    n : int;
    loc w0: when true do { n := n + 1; } goto w0;
  end W;
end St;
`

// A step that starts a thread is checked: its new frame's instances are
// left out, the rest go through WP (x > 0 at x = 0 is not preserved by
// x := x + 1 in general: x + 1 > 0 is added).
func TestStartChecked(t *testing.T) {
	m, r := newRefiner(t, startSrc, AMCS, "x > 0\n[thread W] n > 0\n")
	added, imprecise := transition(t, m, r, walk(t, m), 0)
	if !imprecise || !slices.Equal(added, []string{"x + 1 > 0"}) {
		t.Errorf("imprecise %v, added %q", imprecise, added)
	}
}

const lockGuardSrc = `system L()
  m : lock;
  x : int;
  main thread M()
    i : int;
    loc l0: when i < 3 do { i := i + 1; } goto l0;
            when i == 3 && lockAvailable(m) do { lock(m); x := i; } goto l1;
    loc l1:
  end M;
end L;
`

// A guard's conjuncts that read the control (a lock's builtin) are not
// predicates: i == 3 && lockAvailable(m) adds i == 3, and No-TP goes on
// refining through the transformations that lock (it stopped in round 2:
// every step was unchecked, lockAvailable could not be renamed).
func TestGuardConjuncts(t *testing.T) {
	m, r := newRefiner(t, lockGuardSrc, AMCS, "")
	r.expand(walk(t, m))
	var got []string
	for _, p := range r.next {
		got = append(got, p.text)
	}
	if want := []string{"[thread M] i < 3", "[thread M] i == 3"}; !slices.Equal(got, want) {
		t.Errorf("added %q, want %q", got, want)
	}
	res := Run(m, m, Config{Variant: NoTP, MaxRounds: 10})
	if res.Verdict != search.Pass {
		t.Errorf("No-TP: %v %s %q", res.Verdict, res.Reason, res.Predicates)
	}
}

const undefSrc = `system U()
  a : array [3] of int;
  i : range 0..5;
  main thread M()
    loc l0: when i < 5 do { i := i + 1; } goto l0;
            when i == 5 do { assert(false); } goto l0;
  end M;
end U;
`

// A predicate whose evaluation fails on a state (a[i] with i out of
// bounds) has a third value there: the run goes on, finds the error, and
// the initial predicates serve a GeneralSplitting run too.
func TestPredicateUndefined(t *testing.T) {
	m := compile(t, undefSrc)
	f, err := predicate.ParseFile(m.Program(), "u.pred", []byte("a[i] == 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []Variant{AMCS, AddAll, NoTP, MinOnly} {
		res := Run(m, m, Config{Variant: v, Predicates: f.Predicates, MaxRounds: 20})
		if res.Verdict != search.Fail || res.Violation.Kind != model.Assertion {
			t.Fatalf("%v: %v %s", v, res.Verdict, res.Reason)
		}
		checkTrail(t, m, res)
		if !slices.Contains(res.Predicates, "a[i] == 0") {
			t.Errorf("%v: predicates %q", v, res.Predicates)
		}
	}
	es := newExprSet(m)
	es.add(&exprPred{expr: f.Predicates[0].Expr, text: "a[i] == 0"})
	if err := es.compile(); err != nil {
		t.Fatal(err)
	}
	es.eval(walk(t, m, 0, 0, 0, 0)) // i = 4
	if len(es.lits) != 1 || es.lits[0].val != valUndef {
		t.Errorf("a[4] == 0: %+v", es.lits)
	}
}

const mixedSrc = `system Mx()
  g : int;
  h : int;
  main thread M()
    loc m0: when true do { start W(1); start W(2); } goto m1;
    loc m1: when true do { h := (h + 1) % 4; } goto m1;
  end M;
  thread W(k : int)
    loc w0: when true do { g := k; } goto w0;
  end W;
end Mx;
`

// When Φ stops changing although a transition was imprecise (the weakest
// precondition of [thread W] k > g through W[2]'s g := k, for W[3]'s
// instance, reads both frames' k and is no predicate of one scope), the
// reason does not claim that every transition was precise. W[2]'s own
// instance's weakest precondition, k > k, is false in every state: the
// solver proves it and it is not added.
func TestStableImprecise(t *testing.T) {
	m := compile(t, mixedSrc)
	f, err := predicate.ParseFile(m.Program(), "m.pred", []byte("[thread W] k > g\n"))
	if err != nil {
		t.Fatal(err)
	}
	res := Run(m, m, Config{Variant: AMCS, Predicates: f.Predicates})
	if res.Verdict != search.Inconclusive || strings.Contains(res.Reason, "explored transitions it checked precise") || !strings.Contains(res.Reason, "imprecise") || len(res.Predicates) != 1 {
		t.Errorf("%v: %s %q", res.Verdict, res.Reason, res.Predicates)
	}
}
