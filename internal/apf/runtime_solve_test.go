package apf

import (
	"testing"

	"birch/internal/smt"
)

// Figure 3 of the paper: before `if (a < 0)` both a < 0 and a < 1 are
// unknown; in the then-branch (the guard a < 0 a fact) both become true,
// in the else-branch a < 0 becomes false and a < 1 stays unknown.
func TestRefineFigure3(t *testing.T) {
	r, err := newSolving(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tm := r.tm
	a := tm.Const("a", smt.IntSort)
	lt0, lt1 := tm.Lt(a, tm.Int(0)), tm.Lt(a, tm.Int(1))
	for _, c := range []struct {
		name      string
		fact      *smt.Term
		want0, w1 tri
	}{
		{"then", lt0, isTrue, isTrue},
		{"else", tm.Not(lt0), isFalse, unknown},
	} {
		ps := []predValue{{lt0, unknown}, {lt1, unknown}}
		r.refine(ps, []*smt.Term{c.fact})
		if ps[0].val != c.want0 || ps[1].val != c.w1 {
			t.Errorf("%s: a < 0 is %d, a < 1 is %d; want %d, %d", c.name, ps[0].val, ps[1].val, c.want0, c.w1)
		}
	}
	// the same from the predicates' values alone: a known a < 0 refines a < 1
	ps := []predValue{{lt0, isTrue}, {lt1, unknown}}
	r.refine(ps, nil)
	if ps[1].val != isTrue {
		t.Errorf("a < 0 true: a < 1 is %d, want true", ps[1].val)
	}
	ps = []predValue{{lt0, unknown}, {lt1, isFalse}}
	r.refine(ps, nil)
	if ps[0].val != isFalse {
		t.Errorf("a < 1 false: a < 0 is %d, want false", ps[0].val)
	}
	// a chain reaches its fixpoint: a < 0 true makes b < 0 true through a == b
	b := tm.Const("b", smt.IntSort)
	c := tm.Const("c", smt.IntSort)
	ps = []predValue{{lt0, isTrue}, {tm.Eq(a, b), isTrue}, {tm.Lt(b, tm.Int(0)), unknown}, {tm.Eq(b, c), isTrue}, {tm.Lt(c, tm.Int(5)), unknown}}
	r.refine(ps, nil)
	if ps[2].val != isTrue || ps[4].val != isTrue {
		t.Errorf("chain: b < 0 is %d, c < 5 is %d; want true, true", ps[2].val, ps[4].val)
	}
	// an unrelated predicate is never asked about
	q := r.stats.Queries + r.stats.CacheHits
	ps = []predValue{{lt0, isTrue}, {tm.Lt(c, tm.Int(0)), unknown}}
	r.refine(ps, nil)
	if ps[1].val != unknown || r.stats.Queries+r.stats.CacheHits != q {
		t.Errorf("unrelated: c < 0 is %d after %d questions, want unknown after none", ps[1].val, r.stats.Queries+r.stats.CacheHits-q)
	}
}

// The query cache answers a question asked again, whatever the order its
// facts were collected in.
func TestQueryCache(t *testing.T) {
	r, err := newSolving(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tm := r.tm
	x := tm.Const("x", smt.IntSort)
	y := tm.Const("y", smt.IntSort)
	f1, f2 := tm.Lt(x, y), tm.Lt(y, tm.Int(3))
	goal := tm.Lt(x, tm.Int(2))
	if v := r.decide(r.cone([]*smt.Term{f1, f2}, goal), goal); v != isTrue {
		t.Fatalf("x < y && y < 3 => x < 2: %d, want true", v)
	}
	q := r.stats.Queries
	if v := r.decide(r.cone([]*smt.Term{f2, f1}, goal), goal); v != isTrue {
		t.Fatalf("again: %d, want true", v)
	}
	if r.stats.Queries != q || r.stats.CacheHits == 0 {
		t.Errorf("the same question asked again: %d queries more, %d hits", r.stats.Queries-q, r.stats.CacheHits)
	}
	// the cone leaves out facts that share nothing with the goal
	z := tm.Const("z", smt.IntSort)
	h := r.cone([]*smt.Term{tm.Lt(z, tm.Int(0)), f1}, tm.Lt(y, tm.Int(0)))
	for _, v := range r.vars(h) {
		if v == z {
			t.Errorf("the cone of y < 0 reads z: %s", h)
		}
	}
	// an undecidable question is unknown, not true or false
	nl := tm.Eq(tm.Mul(x, y), tm.Int(7))
	if v := r.decide(tm.True(), nl); v != unknown {
		t.Errorf("x * y == 7 decided %d", v)
	}
}

// panicking is a solver whose next Check panics.
type panicking struct{ smt.Solver }

func (p panicking) Check() (smt.Result, error) { panic("solver bug") }

// A solver that panics leaves the question undecided (not proved) and is
// replaced by a fresh one for the next questions.
func TestSolverPanicUndecided(t *testing.T) {
	r, err := newSolving(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tm := r.tm
	x := tm.Const("x", smt.IntSort)
	r.solver = panicking{r.solver}
	r.cache = smt.NewCache(r.solver)
	goal := tm.Lt(x, tm.Int(1))
	if r.valid(tm.Lt(x, tm.Int(0)), goal) {
		t.Fatal("a panicking solver proved x < 0 => x < 1")
	}
	if r.Err() == nil || r.stats.Unknowns != 1 {
		t.Errorf("err %v, unknowns %d", r.Err(), r.stats.Unknowns)
	}
	if !r.valid(tm.Lt(x, tm.Int(-1)), goal) {
		t.Error("the fresh solver did not prove x < -1 => x < 1")
	}
}
