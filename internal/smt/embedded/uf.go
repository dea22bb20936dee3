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
// the other applications of its function are added when a candidate model
// breaks them (see congruenceLemmas); they are valid, so they are kept for
// the solver's lifetime like the Tseitin definitions.
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
		v := int(a.lit.Var())
		for v >= len(s.appOfSat) {
			s.appOfSat = append(s.appOfSat, 0)
		}
		s.appOfSat[v] = a.id + 1
	} else {
		a.x = s.th.lp.NewVar(true)
		for int(a.x) >= len(s.appOfLia) {
			s.appOfLia = append(s.appOfLia, 0)
		}
		s.appOfLia[a.x] = a.id + 1
	}
	s.appMark = append(s.appMark, 0)
	if s.appOf == nil {
		s.appOf = map[*smt.Term]int32{}
	}
	s.appOf[t] = a.id
	s.appList = append(s.appList, a)
	return a, true
}

// congruenceLemmas checks the active applications against the assignment
// of the last Sat answer, the values the model would give them, and adds
// the congruence lemma (a₁ = b₁ ∧ … ∧ aₙ = bₙ) → f(a) = f(b) of every pair
// of applications of one function whose arguments have equal values and
// whose results do not (model-based, lazy Ackermannization: most queries
// never need a lemma, and those that do need few). It returns the number
// of lemmas made part of the check; stuck is set when a violated pair
// already had its lemma in the check, which the values of a correct
// assignment rule out (the caller answers unknown rather than loop).
func (s *Solver) congruenceLemmas() (added int, stuck bool) {
	apps := s.actApps
	if len(apps) < 2 {
		return 0, false
	}
	slices.SortFunc(apps, func(a, b *app) int {
		if c := cmp.Compare(a.t.Symbol().ID(), b.t.Symbol().ID()); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	vals := s.ufVals[:0]
	offs := s.ufOffs[:0]
	for _, a := range apps {
		offs = append(offs, int32(len(vals)))
		if a.t.IsBool() {
			vals = append(vals, boolQ(s.sat.ModelLit(a.lit)))
		} else {
			vals = append(vals, s.th.lp.Value(a.x).Floor())
		}
		for _, x := range a.t.Args() {
			if x.IsBool() {
				vals = append(vals, boolQ(s.sat.ModelLit(s.cachedLit(x))))
			} else {
				vals = append(vals, s.linValueFloor(s.cachedLin(x)))
			}
		}
	}
	offs = append(offs, int32(len(vals)))
	s.ufVals, s.ufOffs = vals, offs
	for i, a := range apps {
		va := vals[offs[i]:offs[i+1]]
		if len(va) == 0 {
			continue
		}
		for k := i + 1; k < len(apps); k++ {
			b := apps[k]
			if b.t.Symbol() != a.t.Symbol() {
				break
			}
			vb := vals[offs[k]:offs[k+1]]
			if len(vb) == 0 || va[0].Equal(vb[0]) || !qsEqual(va[1:], vb[1:]) {
				continue
			}
			key := lemmaKey{lemUF, a.id, b.id, 0}
			if slices.Contains(s.ufRooted, key) {
				return added, true
			}
			s.ufRooted = append(s.ufRooted, key)
			s.congruenceLemma(key, a, b)
			added++
		}
	}
	return added, false
}

func boolQ(b bool) lia.Q {
	if b {
		return lia.Int(1)
	}
	return lia.Int(0)
}

func qsEqual(a, b []lia.Q) bool {
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// linValueFloor is the value of l with each variable's value floored, as
// the model gives it (a variable in no bound may keep a fractional value).
func (s *Solver) linValueFloor(l *lin) lia.Q {
	v := l.c
	for _, t := range l.ts {
		v = v.Add(t.C.Mul(s.th.lp.Value(t.V).Floor()))
	}
	return v
}

// congruenceLemma adds the congruence lemma of the applications a and b
// (a.id < b.id) under key, or makes the existing one part of the check.
func (s *Solver) congruenceLemma(key lemmaKey, a, b *app) {
	s.lemma(key, func() [][]sat.Lit {
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
