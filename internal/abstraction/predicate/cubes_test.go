package predicate

import (
	"reflect"
	"testing"

	"birch/internal/smt"
	"birch/internal/smt/embedded"
)

// cubeWorld is a few integer predicates over x and y, and formulas to
// bound with them.
type cubeWorld struct {
	tm    *smt.TermManager
	x, y  *smt.Term
	preds []*smt.Term
	phis  map[string]*smt.Term
}

func newCubeWorld() *cubeWorld {
	tm := smt.NewTermManager()
	x, y := tm.Const("x", smt.IntSort), tm.Const("y", smt.IntSort)
	w := &cubeWorld{tm: tm, x: x, y: y}
	w.preds = []*smt.Term{
		tm.Lt(x, tm.Int(5)), // x < 5
		tm.Eq(x, y),         // x == y
		tm.Gt(y, tm.Int(0)), // y > 0
		tm.Lt(x, tm.Int(3)), // x < 3
	}
	w.phis = map[string]*smt.Term{
		"x<7":            tm.Lt(x, tm.Int(7)),
		"x<3":            tm.Lt(x, tm.Int(3)),
		"x+y>0":          tm.Gt(tm.Add(x, y), tm.Int(0)),
		"y>=x":           tm.Ge(y, x),
		"x>0":            tm.Gt(x, tm.Int(0)),
		"x==y+1":         tm.Eq(x, tm.Add(y, tm.Int(1))),
		"x<5||y>0":       tm.Or(tm.Lt(x, tm.Int(5)), tm.Gt(y, tm.Int(0))),
		"true":           tm.True(),
		"false":          tm.False(),
		"x!=y&&x<3":      tm.And(tm.Not(tm.Eq(x, y)), tm.Lt(x, tm.Int(3))),
		"wp(x:=x+1,x<5)": tm.Lt(tm.Add(x, tm.Int(1)), tm.Int(5)),
	}
	return w
}

// allCubes lists every non-empty cube over n predicates (3^n - 1).
func allCubes(n int) []Cube {
	var out []Cube
	var rec func(p int, c Cube)
	rec = func(p int, c Cube) {
		if p == n {
			if len(c) > 0 {
				out = append(out, append(Cube(nil), c...))
			}
			return
		}
		rec(p+1, c)
		rec(p+1, append(c, Literal{p, false}))
		rec(p+1, append(c, Literal{p, true}))
	}
	rec(0, nil)
	return out
}

func valid(t *testing.T, tm *smt.TermManager, f *smt.Term) bool {
	t.Helper()
	ok, err := smt.Valid(embedded.New(tm), f)
	if err != nil {
		t.Fatalf("checking %s: %v", smt.Sprint(f), err)
	}
	return ok
}

// TestFSoundAndMaximal: F(φ) implies φ and G(φ) is implied by it (checked
// by the solver and by evaluation over a grid of values), and with the
// bound at the number of predicates every satisfiable cube that implies φ
// implies F(φ).
func TestFSoundAndMaximal(t *testing.T) {
	w := newCubeWorld()
	tm := w.tm
	cs := NewCubes(embedded.New(tm), w.preds)
	cs.MaxLen = len(w.preds)
	for name, phi := range w.phis {
		f := cs.F(phi).Term(tm, w.preds)
		g := cs.G(phi).Term(tm, w.preds)
		if !valid(t, tm, tm.Implies(f, phi)) {
			t.Errorf("%s: F = %s does not imply it", name, smt.Sprint(f))
		}
		if !valid(t, tm, tm.Implies(phi, g)) {
			t.Errorf("%s: G = %s is not implied by it", name, smt.Sprint(g))
		}
		// evaluation, independent of the solver
		for xv := int64(-8); xv <= 8; xv++ {
			for yv := int64(-8); yv <= 8; yv++ {
				m := smt.NewModel(tm)
				_ = m.SetConst(w.x.Symbol(), tm.Int(xv))
				_ = m.SetConst(w.y.Symbol(), tm.Int(yv))
				fv, err1 := m.Holds(f)
				pv, err2 := m.Holds(phi)
				gv, err3 := m.Holds(g)
				if err1 != nil || err2 != nil || err3 != nil {
					t.Fatal(err1, err2, err3)
				}
				if fv && !pv || pv && !gv {
					t.Errorf("%s at x=%d y=%d: F %v, φ %v, G %v", name, xv, yv, fv, pv, gv)
				}
			}
		}
		for _, c := range allCubes(len(w.preds)) {
			ct := cubeTerm(tm, w.preds, c)
			if valid(t, tm, tm.Not(ct)) || !valid(t, tm, tm.Implies(ct, phi)) {
				continue
			}
			if !valid(t, tm, tm.Implies(ct, f)) {
				t.Errorf("%s: cube %s implies it but not F = %s", name, c, smt.Sprint(f))
			}
		}
	}
	if cs.Err() != nil {
		t.Fatal(cs.Err())
	}
}

// TestFExamples pins a few answers that are easy to see by hand.
func TestFExamples(t *testing.T) {
	w := newCubeWorld()
	cs := NewCubes(embedded.New(w.tm), w.preds)
	cases := []struct {
		phi  string
		want []Cube
	}{
		// x < 5 and x < 3 each imply x < 7, and so does x == y && y <= 0
		{"x<7", []Cube{{{0, false}}, {{3, false}}, {{1, false}, {2, true}}}},
		// x < 5 does not imply x < 3
		{"x<3", []Cube{{{3, false}}, {{1, false}, {2, true}}}},
		// x >= 5 && x == y, x >= 5 && y > 0, x == y && y > 0,
		// x == y && x >= 3, y > 0 && x >= 3
		{"x+y>0", []Cube{
			{{0, true}, {1, false}}, {{0, true}, {2, false}}, {{1, false}, {2, false}},
			{{1, false}, {3, true}}, {{2, false}, {3, true}},
		}},
		{"x==y+1", nil},
		{"false", nil},
	}
	for _, c := range cases {
		got := cs.F(w.phis[c.phi]).Cubes
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("F(%s) = %v, want %v", c.phi, got, c.want)
		}
	}
}

// TestCubeBound: a shorter bound asks fewer questions and finds a weaker F;
// a cube longer than the bound is never in F.
func TestCubeBound(t *testing.T) {
	w := newCubeWorld()
	phi := w.phis["x+y>0"] // needs a cube of length 2
	var prev int
	for k := 1; k <= len(w.preds); k++ {
		cs := NewCubes(embedded.New(w.tm), w.preds)
		cs.MaxLen = k
		b := cs.F(phi)
		for _, c := range b.Cubes {
			if len(c) > k {
				t.Errorf("K=%d: cube %s is longer", k, c)
			}
		}
		if k == 1 && len(b.Cubes) != 0 {
			t.Errorf("K=1: F = %v, want false", b.Cubes)
		}
		if k >= 2 && len(b.Cubes) == 0 {
			t.Errorf("K=%d: F is false", k)
		}
		q := cs.Stats().Queries
		if q <= prev {
			t.Errorf("K=%d asked %d queries, K=%d asked %d", k, q, k-1, prev)
		}
		prev = q
	}
}

// TestCubePruning: pruning the extensions of implicants and of
// unsatisfiable cubes gives the same F with fewer queries.
func TestCubePruning(t *testing.T) {
	w := newCubeWorld()
	for name, phi := range w.phis {
		pr := NewCubes(embedded.New(w.tm), w.preds)
		pr.MaxLen = len(w.preds)
		np := NewCubes(embedded.New(w.tm), w.preds)
		np.MaxLen = len(w.preds)
		np.NoPrune = true
		a, b := pr.F(phi), np.F(phi)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: pruned F %v, unpruned %v", name, a.Cubes, b.Cubes)
		}
		qa, qb := pr.Stats().Queries, np.Stats().Queries
		if qa > qb {
			t.Errorf("%s: pruning asked %d queries, no pruning %d", name, qa, qb)
		}
		// x < 5 or y > 0 is implied by the one-literal cubes x < 5, y > 0 and
		// x < 3, so all their extensions are pruned; and x < 5 && !(x < 3)
		// ... are satisfiable, but !(x < 5) && x < 3 is not
		if name == "x<5||y>0" && qa >= qb {
			t.Errorf("%s: pruning asked %d queries, no pruning %d", name, qa, qb)
		}
		if name == "false" && qa >= qb {
			t.Errorf("%s: the unsatisfiable cubes did not prune: %d vs %d", name, qa, qb)
		}
	}
}

// TestCubeCache: asking again hits the cache for every query; G(φ) after
// F(¬φ) too.
func TestCubeCache(t *testing.T) {
	w := newCubeWorld()
	cs := NewCubes(embedded.New(w.tm), w.preds)
	phi := w.phis["y>=x"]
	first := cs.F(phi)
	s1 := cs.Stats()
	if s1.Hits != 0 || s1.Queries == 0 {
		t.Fatalf("first call: %+v", s1)
	}
	second := cs.F(phi)
	s2 := cs.Stats()
	if !reflect.DeepEqual(first, second) {
		t.Errorf("second call: %v, first %v", second.Cubes, first.Cubes)
	}
	if s2.Queries-s1.Queries != s1.Queries || s2.Hits-s1.Hits != s1.Queries {
		t.Errorf("second call: %+v after %+v, want every query a hit", s2, s1)
	}
	// the satisfiability questions (a cube against false) are shared
	// between formulas: F(¬φ) finds some hits already
	cs.G(phi)
	s3 := cs.Stats()
	if s3.Hits-s2.Hits == 0 {
		t.Errorf("G after F: no hit (%+v after %+v)", s3, s2)
	}
}

// unknownSolver answers unknown to every other query (or every one).
type unknownSolver struct {
	smt.Solver
	n, every int
}

func (s *unknownSolver) Check() (smt.Result, error) {
	s.n++
	if s.n%s.every == 0 {
		return smt.Unknown, nil
	}
	return s.Solver.Check()
}

// TestCubeUnknown: an undecided query never makes a cube an implicant, and
// is not cached.
func TestCubeUnknown(t *testing.T) {
	w := newCubeWorld()
	tm := w.tm
	all := NewCubes(&unknownSolver{Solver: embedded.New(tm), every: 1}, w.preds)
	for name, phi := range w.phis {
		if b := all.F(phi); len(b.Cubes) != 0 {
			t.Errorf("%s: F = %v with a solver that knows nothing", name, b.Cubes)
		}
		if g := all.G(phi).Term(tm, w.preds); g != tm.True() && !valid(t, tm, g) {
			t.Errorf("%s: G = %s with a solver that knows nothing", name, smt.Sprint(g))
		}
	}
	if s := all.Stats(); s.Unknown != s.Queries || s.Hits != 0 {
		t.Errorf("stats %+v: want every query unknown and none cached", s)
	}
	for _, every := range []int{2, 3} {
		half := NewCubes(&unknownSolver{Solver: embedded.New(tm), every: every}, w.preds)
		half.MaxLen = len(w.preds)
		for name, phi := range w.phis {
			f := half.F(phi).Term(tm, w.preds)
			if !valid(t, tm, tm.Implies(f, phi)) {
				t.Errorf("%s: F = %s does not imply it", name, smt.Sprint(f))
			}
			g := half.G(phi).Term(tm, w.preds)
			if !valid(t, tm, tm.Implies(phi, g)) {
				t.Errorf("%s: G = %s is not implied by it", name, smt.Sprint(g))
			}
		}
		if half.Stats().Unknown == 0 {
			t.Errorf("every %d: no unknown answer", every)
		}
	}
}
