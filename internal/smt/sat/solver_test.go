package sat

import (
	"math/rand/v2"
	"testing"
)

// cnf is a formula for tests: clauses of DIMACS-style literals.
type cnf struct {
	n       int
	clauses [][]Lit
}

func random3SAT(r *rand.Rand, n, m int) cnf {
	f := cnf{n: n}
	for range m {
		var c []Lit
		for len(c) < 3 {
			v := Var(r.IntN(n))
			dup := false
			for _, l := range c {
				if l.Var() == v {
					dup = true
				}
			}
			if !dup {
				c = append(c, MkLit(v, r.IntN(2) == 0))
			}
		}
		f.clauses = append(f.clauses, c)
	}
	return f
}

// bruteSat reports whether f is satisfiable with the assumptions, by
// enumeration (n <= 24).
func bruteSat(f cnf, assumptions []Lit) bool {
	type mask struct{ pos, neg uint32 }
	ms := make([]mask, 0, len(f.clauses)+len(assumptions))
	add := func(c []Lit) {
		var m mask
		for _, l := range c {
			if l.IsNeg() {
				m.neg |= 1 << l.Var()
			} else {
				m.pos |= 1 << l.Var()
			}
		}
		ms = append(ms, m)
	}
	for _, c := range f.clauses {
		add(c)
	}
	for _, a := range assumptions {
		add([]Lit{a})
	}
	for a := uint32(0); a < 1<<f.n; a++ {
		ok := true
		for _, m := range ms {
			if a&m.pos == 0 && ^a&m.neg == 0 {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func load(f cnf) *Solver {
	s := New()
	for range f.n {
		s.NewVar()
	}
	for _, c := range f.clauses {
		s.AddClause(c...)
	}
	return s
}

func checkModel(t *testing.T, s *Solver, f cnf, assumptions []Lit) {
	t.Helper()
	for _, c := range f.clauses {
		ok := false
		for _, l := range c {
			if s.ModelLit(l) {
				ok = true
			}
		}
		if !ok {
			t.Fatalf("model falsifies clause %v", c)
		}
	}
	for _, a := range assumptions {
		if !s.ModelLit(a) {
			t.Fatalf("model falsifies assumption %v", a)
		}
	}
}

func TestRandom3SAT(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	counts := [3]int{}
	for i := range 600 {
		n := 3 + r.IntN(10)
		if i%100 == 0 {
			n = 20
		}
		m := int(float64(n)*4.26 + 0.5)
		f := random3SAT(r, n, m)
		s := load(f)
		got := s.Solve(nil)
		want := bruteSat(f, nil)
		counts[got]++
		switch {
		case got == Sat && !want, got == Unsat && want, got == Unknown:
			t.Fatalf("instance %d: got %v, brute force says sat=%v", i, got, want)
		case got == Sat:
			checkModel(t, s, f, nil)
		}
	}
	if counts[Sat] == 0 || counts[Unsat] == 0 {
		t.Errorf("unbalanced instances: %v", counts)
	}
}

func TestRandom3SATLarger(t *testing.T) {
	// Larger instances: models are checked; unsat answers are only counted.
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		n := 150
		f := random3SAT(r, n, int(float64(n)*4.2))
		s := load(f)
		if s.Solve(nil) == Sat {
			checkModel(t, s, f, nil)
		}
	}
}

func pigeonhole(holes int) cnf {
	pigeons := holes + 1
	f := cnf{n: pigeons * holes}
	x := func(p, h int) Var { return Var(p*holes + h) }
	for p := range pigeons {
		var c []Lit
		for h := range holes {
			c = append(c, Pos(x(p, h)))
		}
		f.clauses = append(f.clauses, c)
	}
	for h := range holes {
		for p := range pigeons {
			for q := p + 1; q < pigeons; q++ {
				f.clauses = append(f.clauses, []Lit{Neg(x(p, h)), Neg(x(q, h))})
			}
		}
	}
	return f
}

func TestPigeonhole(t *testing.T) {
	for holes := 1; holes <= 7; holes++ {
		s := load(pigeonhole(holes))
		if got := s.Solve(nil); got != Unsat {
			t.Errorf("PHP(%d): got %v, want unsat", holes, got)
		}
		if len(s.Core()) != 0 {
			t.Errorf("PHP(%d): core %v without assumptions", holes, s.Core())
		}
		// Once unsat, always unsat.
		if got := s.Solve(nil); got != Unsat {
			t.Errorf("PHP(%d) again: got %v", holes, got)
		}
	}
}

func TestConflictBudget(t *testing.T) {
	s := load(pigeonhole(9))
	s.SetConflictBudget(50)
	if got := s.Solve(nil); got != Unknown {
		t.Fatalf("with a budget of 50 conflicts PHP(9) answered %v", got)
	}
	if c := s.Stats().Conflicts; c > 200 {
		t.Errorf("budget of 50 overrun: %d conflicts", c)
	}
}

func TestAssumptionsAndCores(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 400 {
		n := 6 + r.IntN(8)
		f := random3SAT(r, n, int(float64(n)*3.0))
		s := load(f)
		// Several calls on one solver with different assumptions, and
		// clauses added in between.
		for round := range 5 {
			var as []Lit
			for range 1 + r.IntN(5) {
				as = append(as, MkLit(Var(r.IntN(n)), r.IntN(2) == 0))
			}
			got := s.Solve(as)
			want := bruteSat(f, as)
			if got == Unknown || (got == Sat) != want {
				t.Fatalf("instance %d round %d: got %v, want sat=%v", i, round, got, want)
			}
			if got == Sat {
				checkModel(t, s, f, as)
			} else {
				core := s.Core()
				for _, c := range core {
					found := false
					for _, a := range as {
						if a == c {
							found = true
						}
					}
					if !found {
						t.Fatalf("core literal %v not among assumptions %v", c, as)
					}
				}
				if bruteSat(f, core) {
					t.Fatalf("core %v of assumptions %v is satisfiable", core, as)
				}
			}
			c := random3SAT(r, n, 1).clauses[0]
			s.AddClause(c...)
			f.clauses = append(f.clauses, c)
		}
	}
}

func TestCoreIsSmall(t *testing.T) {
	// x0 -> x1 -> x2; assume x0, ¬x2 and unrelated x5, x6.
	s := New()
	for range 8 {
		s.NewVar()
	}
	s.AddClause(Neg(0), Pos(1))
	s.AddClause(Neg(1), Pos(2))
	as := []Lit{Pos(5), Pos(0), Neg(6), Neg(2)}
	if got := s.Solve(as); got != Unsat {
		t.Fatalf("got %v", got)
	}
	if core := s.Core(); len(core) != 2 {
		t.Errorf("core %v, want {1, -3}", core)
	}
	if got := s.Solve(as[:3]); got != Sat {
		t.Errorf("without ¬x2: %v", got)
	}
}

func TestEmptyAndUnits(t *testing.T) {
	s := New()
	if s.Solve(nil) != Sat {
		t.Fatal("empty formula")
	}
	v := s.NewVar()
	s.AddClause(Pos(v))
	if s.Solve(nil) != Sat || !s.ModelValue(v) {
		t.Fatal("unit")
	}
	if s.Solve([]Lit{Neg(v)}) != Unsat || len(s.Core()) != 1 {
		t.Fatalf("assume contradicting unit: core %v", s.Core())
	}
	if s.AddClause(Neg(v)) {
		t.Fatal("contradicting units accepted")
	}
	if s.Solve(nil) != Unsat {
		t.Fatal("contradicting units")
	}
	s2 := New()
	if s2.AddClause() {
		t.Fatal("empty clause accepted")
	}
}

func BenchmarkRandom3SAT(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	var fs []cnf
	for range 16 {
		fs = append(fs, random3SAT(r, 200, 852))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := load(fs[i%len(fs)])
		s.Solve(nil)
	}
}

func BenchmarkPigeonhole8(b *testing.B) {
	f := pigeonhole(8)
	for i := 0; i < b.N; i++ {
		load(f).Solve(nil)
	}
}

func BenchmarkSmallIncremental(b *testing.B) {
	// Many small queries on one solver, as the embedded SMT solver makes.
	r := rand.New(rand.NewPCG(9, 10))
	f := random3SAT(r, 30, 90)
	s := load(f)
	as := make([]Lit, 3)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range as {
			as[k] = MkLit(Var(r.IntN(30)), r.IntN(2) == 0)
		}
		s.Solve(as)
	}
}
