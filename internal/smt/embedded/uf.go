package embedded

import (
	"slices"

	"birch/internal/smt"
	"birch/internal/smt/lia"
	"birch/internal/smt/sat"
)

// An application of an uninterpreted function, replaced by a fresh
// variable (Ackermann's reduction): a SAT variable for a Bool result, an
// integer for an Int one.
type app struct {
	t   *smt.Term
	lit sat.Lit
	x   lia.Var
}

// encodeApp introduces the fresh variable of the application t and the
// congruence clauses with every earlier application of its function:
// (a₁ = b₁ ∧ … ∧ aₙ = bₙ) → f(a) = f(b). They are valid, so they are kept
// for the solver's lifetime like the Tseitin definitions.
func (s *Solver) encodeApp(t *smt.Term) (app, bool) {
	sym := t.Symbol()
	for _, p := range sym.Params() {
		if !p.IsBool() && !p.IsInt() {
			s.unsupportedTerm(t, "uninterpreted function over sort "+p.String())
			return app{}, false
		}
	}
	if !t.IsBool() && !t.IsInt() {
		s.unsupportedTerm(t, "uninterpreted function of sort "+t.Sort().String())
		return app{}, false
	}
	for _, a := range t.Args() {
		var ok bool
		if a.IsBool() {
			_, ok = s.encode(a)
		} else {
			_, ok = s.linear(a)
		}
		if !ok {
			return app{}, false
		}
	}
	a := app{t: t}
	if t.IsBool() {
		a.lit = s.newVar()
	} else {
		a.x = s.th.lp.NewVar(true)
	}
	for i, b := range s.apps[sym] {
		var clause []sat.Lit
		for k := range t.Args() {
			eq, _ := s.equal(t, t.Arg(k), b.t.Arg(k))
			clause = append(clause, eq.Not())
		}
		var res sat.Lit
		if t.IsBool() {
			res = s.iff(a.lit, b.lit)
		} else {
			d := &lin{ts: []lia.Term{{V: a.x, C: lia.Int(1)}, {V: b.x, C: lia.Int(-1)}}}
			if b.x < a.x {
				d.ts[0], d.ts[1] = d.ts[1], d.ts[0]
			}
			res = s.eqZero(d)
		}
		clause = append(clause, res)
		s.sat.AddClause(clause...)
		s.addDeps(a, clause)
		s.addDeps(b, clause)
		s.apps[sym][i] = b
	}
	s.apps[sym] = append(s.apps[sym], a)
	s.appList = append(s.appList, a)
	return a, true
}

// addDeps makes the literals of a congruence clause relevant whenever the
// application is.
func (s *Solver) addDeps(a app, clause []sat.Lit) {
	for _, l := range clause {
		if a.t.IsBool() {
			s.kids[a.lit.Var()] = append(s.kids[a.lit.Var()], l.Var())
		} else {
			s.intDeps[a.x] = append(s.intDeps[a.x], l.Var())
		}
	}
}

// funcModels gives each function a table built from its relevant
// applications, innermost first so that arguments evaluate with the tables
// built so far.
func (s *Solver) funcModels(m *smt.Model) error {
	apps := slices.Clone(s.appList)
	slices.SortFunc(apps, func(a, b app) int { return int(a.t.ID()) - int(b.t.ID()) })
	tables := map[*smt.Symbol]*smt.FuncValue{}
	for _, a := range apps {
		var res *smt.Term
		if a.t.IsBool() {
			if s.relMark[a.lit.Var()] != s.relGen {
				continue
			}
			res = s.tm.Bool(s.sat.ModelValue(a.lit.Var()) != a.lit.IsNeg())
		} else {
			if int(a.x) >= len(s.relLia) || s.relLia[a.x] != s.relGen {
				continue
			}
			res = s.tm.BigInt(s.th.lp.Value(a.x).Num())
		}
		args := make([]*smt.Term, a.t.NumArgs())
		for i, x := range a.t.Args() {
			v, err := m.Eval(x)
			if err != nil {
				return err
			}
			args[i] = v
		}
		sym := a.t.Symbol()
		fv := tables[sym]
		if fv == nil {
			fv = &smt.FuncValue{}
			tables[sym] = fv
			m.SetFunc(sym, fv)
		}
		if !slices.ContainsFunc(fv.Entries, func(e smt.FuncEntry) bool { return slices.Equal(e.Args, args) }) {
			fv.Entries = append(fv.Entries, smt.FuncEntry{Args: args, Value: res})
		}
	}
	return nil
}
