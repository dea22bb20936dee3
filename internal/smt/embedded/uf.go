package embedded

import (
	"cmp"
	"slices"

	"birch/internal/smt"
	"birch/internal/smt/lia"
	"birch/internal/smt/sat"
)

// An application of an uninterpreted function, replaced by a fresh
// variable (Ackermann's reduction): a SAT variable for a Bool result, an
// integer for an Int (or uninterpreted) one.
type app struct {
	t   *smt.Term
	id  int32
	lit sat.Lit
	x   lia.Var
}

// encodeApp introduces the fresh variable of the application t. The
// congruence clauses (a₁ = b₁ ∧ … ∧ aₙ = bₙ) → f(a) = f(b) between it and
// the other applications of its function are added before a check in
// which both are active (see instantiate); they are valid, so they are
// kept for the solver's lifetime like the Tseitin definitions.
func (s *Solver) encodeApp(t *smt.Term) (*app, bool) {
	if i, ok := s.appOf[t]; ok {
		return s.appList[i], true
	}
	sym := t.Symbol()
	for _, p := range sym.Params() {
		if !p.IsBool() && !intLike(p) {
			s.unsupportedTerm(t, "uninterpreted function over sort "+p.String())
			return nil, false
		}
	}
	if !t.IsBool() && !intLike(t.Sort()) {
		s.unsupportedTerm(t, "uninterpreted function of sort "+t.Sort().String())
		return nil, false
	}
	for _, a := range t.Args() {
		var ok bool
		if a.IsBool() {
			_, ok = s.encode(a)
		} else {
			_, ok = s.linear(a)
		}
		if !ok {
			return nil, false
		}
	}
	a := &app{t: t, id: int32(len(s.appList))}
	if t.IsBool() {
		a.lit = s.newVar()
	} else {
		a.x = s.th.lp.NewVar(true)
	}
	if s.appOf == nil {
		s.appOf = map[*smt.Term]int32{}
	}
	s.appOf[t] = a.id
	s.appList = append(s.appList, a)
	return a, true
}

// congruence adds the congruence lemmas among the active applications
// (those of one function are adjacent once sorted).
func (s *Solver) congruence() {
	as := &s.ar
	apps := as.actApps
	if len(apps) < 2 {
		return
	}
	slices.SortFunc(apps, func(a, b *app) int {
		if c := cmp.Compare(a.t.Symbol().ID(), b.t.Symbol().ID()); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	for i, a := range apps {
		for _, b := range apps[i+1:] {
			if b.t.Symbol() != a.t.Symbol() {
				break
			}
			s.lemma(lemmaKey{lemUF, a.id, b.id, 0}, func() [][]sat.Lit {
				// a₁ ≠ b₁ ∨ … ∨ aₙ ≠ bₙ ∨ f(a) = f(b), with an integer
				// a ≠ b as a - b > 0 ∨ a - b < 0 and an integer result
				// equality as two clauses
				var clause []sat.Lit
				for k, x := range a.t.Args() {
					y := b.t.Arg(k)
					if !intLike(x.Sort()) {
						eq, _ := s.equal(a.t, x, y)
						clause = append(clause, eq.Not())
						continue
					}
					lo, hi, _ := s.eqAtoms(x, y)
					if lo == s.tru.Not() || hi == s.tru.Not() {
						return nil // the arguments differ: no lemma
					}
					clause = append(clause, lo.Not(), hi.Not())
				}
				if a.t.IsBool() {
					return [][]sat.Lit{append(clause, s.iff(a.lit, b.lit))}
				}
				d := &lin{ts: []lia.Term{{V: a.x, C: lia.Int(1)}, {V: b.x, C: lia.Int(-1)}}}
				if b.x < a.x {
					d.ts[0], d.ts[1] = d.ts[1], d.ts[0]
				}
				lo, hi := s.leq(d, lia.Int(0)), s.leq(d, lia.Int(-1)).Not()
				return [][]sat.Lit{
					append(slices.Clone(clause), lo),
					append(clause, hi),
				}
			})
		}
	}
}
