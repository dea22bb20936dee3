package process

import (
	"errors"
	"strings"
	"testing"
	"time"

	"birch/internal/smt"
)

func kinds(t *testing.T) []Kind {
	var ks []Kind
	for _, k := range []Kind{Z3, CVC5} {
		if Available(k) {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		t.Skip("neither z3 nor cvc5 is on PATH")
	}
	return ks
}

func start(t *testing.T, tm *smt.TermManager, k Kind) *Solver {
	t.Helper()
	s, err := New(tm, k)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestMissingBinary(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := New(smt.NewTermManager(), Z3)
	if err == nil || err.Error() != "smt: z3 not found on PATH; install it with apt-get install z3" {
		t.Fatalf("err = %v", err)
	}
}

func TestBasics(t *testing.T) {
	for _, k := range kinds(t) {
		t.Run(string(k), func(t *testing.T) {
			tm := smt.NewTermManager()
			s := start(t, tm, k)
			x := tm.Const("x", smt.IntSort)
			y := tm.Const("y", smt.IntSort)
			s.Assert(tm.Lt(x, y))
			s.Assert(tm.Eq(tm.Mod(x, tm.Int(3)), tm.Int(2)))
			if r, err := s.Check(); r != smt.Sat || err != nil {
				t.Fatalf("Check = %v, %v", r, err)
			}
			m, err := s.Model()
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []*smt.Term{tm.Lt(x, y), tm.Eq(tm.Mod(x, tm.Int(3)), tm.Int(2))} {
				if ok, err := m.Holds(f); !ok || err != nil {
					t.Errorf("model %s does not satisfy %s (%v)", m, f, err)
				}
			}
			s.Push()
			s.Assert(tm.Gt(x, y))
			if r, err := s.Check(); r != smt.Unsat || err != nil {
				t.Fatalf("Check after push = %v, %v", r, err)
			}
			if _, err := s.Model(); err == nil {
				t.Errorf("Model after unsat succeeded")
			}
			s.Pop(1)
			if r, err := s.Check(); r != smt.Sat || err != nil {
				t.Fatalf("Check after pop = %v, %v", r, err)
			}
			// Valid and Implies leave the solver as it was.
			if ok, err := smt.Valid(s, tm.Le(x, tm.Sub(y, tm.Int(1)))); !ok || err != nil {
				t.Errorf("Valid(x <= y-1) = %v, %v", ok, err)
			}
			if ok, err := smt.Implies(s, tm.Gt(x, tm.Int(5)), tm.Gt(y, tm.Int(9))); ok || err != nil {
				t.Errorf("Implies(x>5, y>9) = %v, %v", ok, err)
			}
			if ok, err := smt.Implies(s, tm.Gt(x, tm.Int(5)), tm.Gt(y, tm.Int(8))); !ok || err != nil {
				t.Errorf("Implies(x>5, y>8) = %v, %v", ok, err)
			}
			s.Pop(3)
			if _, err := s.Check(); err == nil {
				t.Errorf("Pop beyond the open scopes was not reported")
			}
		})
	}
}

func TestTheories(t *testing.T) {
	for _, k := range kinds(t) {
		t.Run(string(k), func(t *testing.T) {
			tm := smt.NewTermManager()
			s := start(t, tm, k)
			u := tm.UninterpretedSort("U")
			f, _ := tm.Declare("f", []*smt.Sort{smt.IntSort, u}, smt.IntSort)
			e1, e2 := tm.Const("e1", u), tm.Const("e2", u)
			a := tm.Const("A", tm.ArraySort(smt.IntSort, smt.IntSort))
			b := tm.Const("B", tm.ArraySort(smt.IntSort, smt.BoolSort))
			x := tm.Const("x", smt.IntSort)
			fs := []*smt.Term{
				tm.Distinct(e1, e2),
				tm.Eq(tm.Apply(f, x, e1), tm.Int(3)),
				tm.Eq(tm.Apply(f, tm.Int(4), e2), tm.Int(-3)),
				tm.Eq(tm.Select(a, tm.Int(1)), tm.Int(9)),
				tm.Eq(tm.Select(tm.Store(a, x, tm.Int(5)), tm.Int(2)), tm.Int(7)),
				tm.Select(b, x),
				tm.Not(tm.Select(b, tm.Add(x, tm.Int(1)))),
			}
			for _, f := range fs {
				s.Assert(f)
			}
			if r, err := s.Check(); r != smt.Sat || err != nil {
				t.Fatalf("Check = %v, %v", r, err)
			}
			m, err := s.Model()
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fs {
				if ok, err := m.Holds(f); !ok || err != nil {
					t.Errorf("model\n%s\ndoes not satisfy %s (%v)", m, f, err)
				}
			}
		})
	}
}

func TestAssumptions(t *testing.T) {
	for _, k := range kinds(t) {
		t.Run(string(k), func(t *testing.T) {
			tm := smt.NewTermManager()
			s := start(t, tm, k)
			p, q := tm.Const("p", smt.BoolSort), tm.Const("q", smt.BoolSort)
			x := tm.Const("x", smt.IntSort)
			s.Assert(tm.Implies(p, tm.Gt(x, tm.Int(3))))
			s.Assert(tm.Implies(q, tm.Lt(x, tm.Int(2))))
			big := tm.Gt(x, tm.Int(10))
			lits := []*smt.Term{p, tm.Not(tm.Eq(x, tm.Int(7))), big, q}
			if r, err := s.CheckAssumptions(lits); r != smt.Unsat || err != nil {
				t.Fatalf("CheckAssumptions = %v, %v", r, err)
			}
			core, err := s.UnsatCore()
			if err != nil {
				t.Fatal(err)
			}
			has := map[*smt.Term]bool{}
			for _, c := range core {
				has[c] = true
			}
			if !has[q] || !(has[p] || has[big]) || has[lits[1]] && len(core) > 3 {
				t.Errorf("core = %v", core)
			}
			if r, err := s.CheckAssumptions([]*smt.Term{p, big}); r != smt.Sat || err != nil {
				t.Fatalf("CheckAssumptions = %v, %v", r, err)
			}
			if _, err := s.UnsatCore(); err == nil {
				t.Errorf("UnsatCore after sat succeeded")
			}
		})
	}
}

func TestLimitAndErrors(t *testing.T) {
	for _, k := range kinds(t) {
		t.Run(string(k), func(t *testing.T) {
			tm := smt.NewTermManager()
			s := start(t, tm, k)
			s.SetLimit(smt.Limit{Timeout: 2 * time.Second})
			x := tm.Const("x", smt.IntSort)
			s.Assert(tm.Lt(x, tm.Bound(0, smt.IntSort)))
			if r, err := s.Check(); r != smt.Unknown || err == nil || !strings.Contains(err.Error(), "parameters") {
				t.Errorf("Check with a parameter = %v, %v", r, err)
			}
			// The error was reported once; the solver goes on.
			s.Assert(tm.Lt(x, tm.Int(0)))
			if r, err := s.Check(); r != smt.Sat || err != nil {
				t.Errorf("Check = %v, %v", r, err)
			}
			if ok, err := smt.Valid(s, tm.Lt(x, tm.Int(-5))); ok || err != nil || errors.Is(err, smt.ErrUnknown) {
				t.Errorf("Valid = %v, %v", ok, err)
			}
		})
	}
}
