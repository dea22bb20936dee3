package smt_test

import (
	"math/rand/v2"
	"testing"

	"birch/internal/smt"
	"birch/internal/smt/gen"
)

// randomModel gives every symbol of tm a random small value.
func randomModel(tm *smt.TermManager, r *rand.Rand) *smt.Model {
	m := smt.NewModel(tm)
	var value func(s *smt.Sort) *smt.Term
	value = func(s *smt.Sort) *smt.Term {
		switch s.Kind() {
		case smt.KindBool:
			return tm.Bool(r.IntN(2) == 0)
		case smt.KindInt:
			return tm.Int(int64(r.IntN(13) - 6))
		case smt.KindUninterpreted:
			return tm.Value(s, r.IntN(3))
		}
		a := tm.ConstArray(s, value(s.Elem()))
		for i := r.IntN(4); i > 0; i-- {
			a = tm.Store(a, tm.Int(int64(r.IntN(7)-3)), value(s.Elem()))
		}
		return a
	}
	for _, sym := range tm.Symbols() {
		if sym.Arity() == 0 {
			if err := m.SetConst(sym, value(sym.Result())); err != nil {
				panic(err)
			}
			continue
		}
		f := &smt.FuncValue{Default: value(sym.Result())}
		for i := r.IntN(6); i > 0; i-- {
			args := make([]*smt.Term, sym.Arity())
			for j, p := range sym.Params() {
				args[j] = value(p)
			}
			f.Entries = append(f.Entries, smt.FuncEntry{Args: args, Value: value(sym.Result())})
		}
		m.SetFunc(sym, f)
	}
	return m
}

// TestSimplifySound checks Simplify and Substitute against evaluation on
// random formulas of every fragment under random models.
func TestSimplifySound(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	for fi, fr := range gen.Fragments {
		tm := smt.NewTermManager()
		g := gen.New(tm, uint64(fi), gen.Config{Fragment: fr.F})
		r := rand.New(rand.NewPCG(uint64(fi), 1))
		x0 := tm.Const("x0", smt.IntSort)
		for i := 0; i < n; i++ {
			f := g.Formula()
			m := randomModel(tm, r)
			want, err := m.Eval(f)
			if err != nil {
				t.Fatalf("%s: Eval %s: %v", fr.Name, f, err)
			}
			s := tm.Simplify(f)
			got, err := m.Eval(s)
			if err != nil || got != want {
				t.Fatalf("%s: Simplify changed the value of\n%s\n(%s) to\n%s\n(%v, %v) under\n%s", fr.Name, f, want, s, got, err, m)
			}
			if tm.Simplify(s) != s {
				t.Errorf("%s: Simplify not idempotent:\n%s\n%s", fr.Name, s, tm.Simplify(s))
			}
			// f[e/x0] under m equals f under m with x0 := m(e).
			e := tm.Add(x0, tm.Scale(2, tm.Const("x1", smt.IntSort)), tm.Int(1))
			sub := tm.Substitute(f, map[*smt.Term]*smt.Term{x0: e})
			got, err = m.Eval(sub)
			if err != nil {
				t.Fatal(err)
			}
			ev, _ := m.Eval(e)
			m.SetConst(x0.Symbol(), ev)
			want, err = m.Eval(f)
			if err != nil || got != want {
				t.Fatalf("%s: Substitute: %s[%s/x0] = %s, want %s", fr.Name, f, e, got, want)
			}
		}
	}
}
