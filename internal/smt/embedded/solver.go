package embedded

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"time"

	"birch/internal/smt"
	"birch/internal/smt/lia"
	"birch/internal/smt/sat"
	"birch/internal/source"
)

// Solver is the embedded implementation of smt.Solver.
type Solver struct {
	tm  *smt.TermManager
	sat *sat.Solver
	th  *arith

	tru sat.Lit // a literal fixed true

	litOf   []int32 // by term ID: 1 + the literal of an encoded Bool term, or 0
	linOf   []*lin  // by term ID: an Int term in linear form, or nil
	ivars   map[*smt.Symbol]lia.Var
	bvars   map[*smt.Symbol]sat.Var
	slack   map[uint64]lia.Var  // hash of a normalized sum (open addressing: h, h+1, …) -> slack variable
	boundOf []int32             // by simplex variable: 1 + its first entry in bounds, or 0
	bounds  []boundAtom         // the atoms x <= k with k an int64, listed per x
	atoms   map[atomKey]sat.Lit // the atoms whose bound does not fit an int64

	scopes []sat.Var     // activation variable of each open scope, 0 until it has a clause
	roots  [][]sat.Lit   // per scope (0: base), the literals asserted in it
	units  [][]sat.Lit   // per scope (0: unused), its unit assertions, assumed in checks
	terms  [][]*smt.Term // per scope, the formulas asserted in it

	// Relevance: the search decides only the variables in the cone of the
	// active assertions and assumptions; definitions of other subformulas
	// (kept for reuse) are satisfiable whatever those variables are.
	kids     [][]sat.Var // the variables a defined variable's definition mentions
	freshDef []freshDef  // by simplex variable: the definition of a fresh integer
	relMark  []uint32
	relGen   uint32
	relevant []sat.Var // the decision variables of the last check
	relNext  []sat.Var
	relLia   []uint32 // relevance marks of the simplex's variables

	appOf    map[*smt.Term]int32 // applications, by term
	appList  []*app
	appOfLia []int32    // by simplex variable: 1 + the application it stands for, or 0
	appOfSat []int32    // by SAT variable: 1 + the (Bool) application, or 0
	appMark  []uint32   // by application: relGen when relevant
	actApps  []*app     // the relevant applications of the last check
	ufVals   []lia.Q    // scratch of congruenceLemmas
	ufOffs   []int32    // scratch of congruenceLemmas
	ufRooted []lemmaKey // the congruence lemmas of the current check
	ar       arrayState
	nl       nonlinear
	stack    []sat.Var
	assumps  []sat.Lit  // scratch
	acc      []lia.Term // scratch of accum
	accLeft  int        // the nodes accum may still expand without memo; see accStart
	norm     []lia.Term // scratch of leqTS
	tvars    []lia.Var  // by term ID: 1 + the variable of a declared constant
	ands     map[[2]sat.Lit]sat.Lit
	clause   []sat.Lit // scratch
	keep     []lia.Var // scratch
	gate     sat.Lit   // assumed in every check; see arith.gate
	gateOK   bool

	unsupported string   // why the last term failed to encode
	unsup       []string // per scope (0: base), why an assertion is outside the fragment
	err         error    // a failure to report at the next check

	limit    smt.Limit
	ctx      context.Context // nil, or what stops the queries (NewContext)
	rebuilds int

	// the last answer
	status smt.Result
	model  *smt.Model
	core   []*smt.Term
}

type atomKey struct {
	x   lia.Var
	big string // the bound
}

// A boundAtom is the atom x <= k of a small bound k; next is 1 + the
// next entry of x, or 0.
type boundAtom struct {
	k    int64
	lit  sat.Lit
	next int32
}

// lin is a linear form Σcᵢxᵢ + c with integer coefficients, terms sorted by
// variable, no zero coefficient.
type lin struct {
	ts []lia.Term
	c  lia.Q
}

// NewContext is New for a solver that ctx can stop: once ctx is done, the
// query under way, and every later one, answers Unknown (as at a limit).
func NewContext(ctx context.Context, tm *smt.TermManager) *Solver {
	s := New(tm)
	s.ctx = ctx
	return s
}

// New returns an empty solver over tm's terms.
func New(tm *smt.TermManager) *Solver {
	s := &Solver{
		tm:     tm,
		sat:    sat.New(),
		unsup:  []string{""},
		roots:  [][]sat.Lit{nil},
		units:  [][]sat.Lit{nil},
		terms:  [][]*smt.Term{nil},
		relGen: 1, // relMark 0 must not read as "relevant in the last check"
		ivars:  map[*smt.Symbol]lia.Var{},
		bvars:  map[*smt.Symbol]sat.Var{},
		slack:  map[uint64]lia.Var{},
		atoms:  map[atomKey]sat.Lit{},
		ands:   map[[2]sat.Lit]sat.Lit{},
	}
	s.th = &arith{sat: s.sat, conflictAt: -1}
	s.th.lp.Stop = s.th.stop
	s.sat.SetTheory(s.th)
	s.tru = s.newVar()
	s.sat.AddClause(s.tru)
	return s
}

var _ smt.Solver = (*Solver)(nil)

// TermManager returns the manager whose terms s accepts.
func (s *Solver) TermManager() *smt.TermManager { return s.tm }

// SetLimit bounds each later query.
func (s *Solver) SetLimit(l smt.Limit) { s.limit = l }

// Close does nothing: the solver holds no resources besides memory.
func (s *Solver) Close() error { return nil }

func (s *Solver) invalidate() {
	s.status = smt.Unknown
	s.model = nil
	s.core = nil
}

// Push opens a scope.
func (s *Solver) Push() {
	s.invalidate()
	// The activation variable is made when the scope gets its first
	// clause: unit assertions, the most common kind, are assumed instead.
	s.scopes = append(s.scopes, 0)
	s.unsup = append(s.unsup, "")
	s.roots = pushScope(s.roots)
	s.units = pushScope(s.units)
	s.terms = pushScope(s.terms)
}

// Pop discards the n innermost scopes.
func (s *Solver) Pop(n int) {
	s.invalidate()
	if n > len(s.scopes) {
		if s.err == nil {
			s.err = fmt.Errorf("embedded: pop %d with %d scopes open", n, len(s.scopes))
		}
		n = len(s.scopes)
	}
	for range n {
		a := s.scopes[len(s.scopes)-1]
		s.scopes = s.scopes[:len(s.scopes)-1]
		if a != 0 {
			s.sat.AddClause(sat.Neg(a))
		}
	}
	s.unsup = s.unsup[:len(s.scopes)+1]
	s.roots = s.roots[:len(s.scopes)+1]
	s.units = s.units[:len(s.scopes)+1]
	s.terms = s.terms[:len(s.scopes)+1]
}

// pushScope appends an empty list for a new scope to xs, reusing the
// memory of a popped one.
func pushScope[T any](xs [][]T) [][]T {
	if n := len(xs); n < cap(xs) {
		xs = xs[:n+1]
		xs[n] = xs[n][:0]
		return xs
	}
	return append(xs, nil)
}

// Assert adds the formula t to the current scope.
func (s *Solver) Assert(t *smt.Term) {
	s.invalidate()
	if !t.IsBool() {
		s.fail(fmt.Errorf("embedded: assert of a non-Bool term %s", quote(t)))
		return
	}
	s.terms[len(s.scopes)] = append(s.terms[len(s.scopes)], t)
	if !s.assertTop(t, true) {
		if d := len(s.scopes); s.unsup[d] == "" {
			s.unsup[d] = s.unsupported
		}
	}
}

// assertTop asserts t (or ¬t when pos is false) in the current scope,
// taking its top-level Boolean structure apart: a conjunction is asserted
// conjunct by conjunct and a disjunction becomes one clause, so that they
// need no Tseitin variable; an integer equality is asserted as its two
// bounds. It returns false when t is outside the fragment (what was
// asserted of it then does no harm: the check answers unknown).
func (s *Solver) assertTop(t *smt.Term, pos bool) bool {
	switch op := t.Op(); {
	case op == smt.OpNot:
		return s.assertTop(t.Arg(0), !pos)
	case op == smt.OpAnd && pos || op == smt.OpOr && !pos:
		for _, a := range t.Args() {
			if !s.assertTop(a, pos) {
				return false
			}
		}
		return true
	case op == smt.OpImplies && !pos: // a₁ ∧ … ∧ ¬aₙ
		n := t.NumArgs()
		for i, a := range t.Args() {
			if !s.assertTop(a, i < n-1) {
				return false
			}
		}
		return true
	case op == smt.OpOr && pos || op == smt.OpAnd && !pos || op == smt.OpImplies && pos:
		c := s.clause[:0]
		n := t.NumArgs()
		for i, a := range t.Args() {
			l, ok := s.encode(a)
			if !ok {
				return false
			}
			// or: aᵢ; ¬and: ¬aᵢ; implies: ¬a₁ … ¬aₙ₋₁ aₙ
			if op == smt.OpAnd || op == smt.OpImplies && i < n-1 {
				l = l.Not()
			}
			c = append(c, l)
		}
		s.clause = c
		s.addRoot(c)
		return true
	case op == smt.OpEq && t.NumArgs() == 2 && t.Arg(0).IsInt():
		lo, hi, ok := s.eqAtoms(t.Arg(0), t.Arg(1))
		if !ok {
			return false
		}
		if pos {
			s.addRoot1(lo)
			s.addRoot1(hi)
		} else {
			s.clause = append(s.clause[:0], lo.Not(), hi.Not())
			s.addRoot(s.clause)
		}
		return true
	}
	l, ok := s.encode(t)
	if !ok {
		return false
	}
	if !pos {
		l = l.Not()
	}
	s.addRoot1(l)
	return true
}

func (s *Solver) addRoot1(l sat.Lit) {
	s.clause = append(s.clause[:0], l)
	s.addRoot(s.clause)
}

// addRoot adds the clause c (which it may modify) to the current scope.
func (s *Solver) addRoot(c []sat.Lit) {
	d := len(s.scopes)
	for _, l := range c {
		if l == s.tru {
			return
		}
	}
	s.roots[d] = append(s.roots[d], c...)
	if d > 0 {
		if len(c) == 1 {
			s.units[d] = append(s.units[d], c[0])
			return
		}
		a := s.scopes[d-1]
		if a == 0 {
			a = s.newVar().Var()
			s.scopes[d-1] = a
		}
		c = append(c, sat.Neg(a))
		s.clause = c
	}
	s.sat.AddClause(c...)
}

func (s *Solver) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// Check decides the conjunction of the assertions.
func (s *Solver) Check() (smt.Result, error) { return s.CheckAssumptions(nil) }

// CheckAssumptions decides the assertions together with the formulas lits.
func (s *Solver) CheckAssumptions(lits []*smt.Term) (smt.Result, error) {
	s.invalidate()
	if s.err != nil {
		return smt.Unknown, s.err
	}
	if s.ctx != nil && s.ctx.Err() != nil {
		return smt.Unknown, nil // stopped: as at a limit
	}
	if s.sat.NumVars() > rebuildFactor*len(s.relevant)+rebuildSlack ||
		s.th.lp.NumVars() > rebuildFactor*len(s.relevant)+rebuildSlack/4 {
		s.rebuild()
	}
	s.assumps = s.assumps[:0]
	for _, a := range s.scopes {
		if a != 0 {
			s.assumps = append(s.assumps, sat.Pos(a))
		}
	}
	for _, us := range s.units {
		s.assumps = append(s.assumps, us...)
	}
	alits := make([]sat.Lit, len(lits))
	for i, t := range lits {
		if !t.IsBool() {
			return smt.Unknown, fmt.Errorf("embedded: assumption %s is not a formula", quote(t))
		}
		l, ok := s.encode(t)
		if !ok {
			if s.err != nil {
				return smt.Unknown, s.err
			}
			return smt.Unknown, nil
		}
		alits[i] = l
		s.assumps = append(s.assumps, l)
	}
	for _, why := range s.unsup {
		if why != "" {
			return smt.Unknown, nil
		}
	}
	s.instantiate(lits)
	if !s.gateOK {
		s.gate, s.gateOK = s.newVar(), true
	}
	s.assumps = append(s.assumps, s.gate)

	th := s.th
	th.deadline = time.Time{}
	if s.limit.Timeout > 0 {
		th.deadline = time.Now().Add(s.limit.Timeout)
	}
	th.steps = s.limit.Steps
	th.ctx = s.ctx
	th.stepBase = th.work()
	th.bbBudget = branchBudget
	th.outOfTime, th.bbUnknown, th.rephase = false, false, false
	th.gate, th.blocked = s.gate, 0
	s.sat.SetConflictBudget(s.limit.Steps)

	s.ufRooted = s.ufRooted[:0]
	s.nl.rooted, s.nl.rounds, s.nl.gaveUp = s.nl.rooted[:0], 0, ""
	nassumps := len(s.assumps)
	th.abortOnBlock, th.blockAbort = len(s.ar.actArrs) > 0, false
	res := s.solveRelevant()
	// Congruence and array lemmas are instantiated lazily: a Sat answer
	// whose values break some gets the lemmas it breaks, and the search
	// goes on. An integer problem left open makes the array lemmas eager.
	for {
		if res == sat.Unknown && th.blockAbort {
			th.abortOnBlock, th.blockAbort = false, false
			s.arrayLemmasEager()
		} else if res == sat.Unknown && th.rephase {
			// an assignment was blocked: search again from fresh phases
		} else if res == sat.Sat {
			added, stuck := s.congruenceLemmas()
			a2, stuck2 := s.arrayLemmasViolated()
			a3, stuck3 := s.productLemmas()
			added, stuck = added+a2+a3, stuck || stuck2 || stuck3
			if stuck {
				res = sat.Unknown
				break
			}
			if added == 0 {
				break
			}
		} else {
			break
		}
		s.assumps = s.assumps[:nassumps]
		res = s.solveRelevant()
	}
	if th.blocked > 0 {
		// retire the blocking clauses; without the assignments they
		// blocked, unsat proves nothing
		s.sat.AddClause(s.gate.Not())
		s.gateOK = false
		if res == sat.Unsat {
			res = sat.Unknown
		}
	}
	switch res {
	case sat.Sat:
		s.status = smt.Sat
	case sat.Unsat:
		s.status = smt.Unsat
		core := s.sat.Core()
		for i, l := range alits {
			if slices.Contains(core, l) {
				s.core = append(s.core, lits[i])
			}
		}
		if s.core == nil {
			s.core = []*smt.Term{}
		}
	default:
		return smt.Unknown, nil
	}
	return s.status, nil
}

// solveRelevant marks the relevant variables, restricts the simplex to
// their rows and runs the SAT search.
func (s *Solver) solveRelevant() sat.Status {
	th := s.th
	s.markRelevant()
	// the simplex pivots over the rows of the relevant atoms only
	s.keep = s.keep[:0]
	for _, v := range s.relevant {
		if x := th.atoms[v].x; x >= 0 && th.lp.IsSlack(x) {
			s.keep = append(s.keep, x)
		}
	}
	th.lp.Restrict(s.keep)
	if th.rephase {
		// after a blocked assignment, saved phases would lead the search
		// back to its neighbours, whose integer problems tend to share
		// the part branch and bound could not settle: start afresh
		th.rephase = false
		for _, v := range s.relevant {
			s.sat.SetPhase(v, false)
		}
	}
	return s.sat.Solve(s.assumps)
}

// The encoding of every formula ever asserted is kept for reuse, but what
// popped scopes leave behind slows the search (the tableau keeps their rows).
// When the variables outnumber those of the last query by far, the solver
// starts afresh from the assertions of the open scopes.
const (
	rebuildFactor = 8
	rebuildSlack  = 1024
)

func (s *Solver) rebuild() {
	n := New(s.tm)
	n.limit, n.ctx = s.limit, s.ctx
	n.err = s.err
	n.rebuilds = s.rebuilds + 1
	n.ar.walkMark, n.ar.walkGen = s.ar.walkMark, s.ar.walkGen
	// the tables by term ID start empty but keep their memory
	clear(s.litOf)
	clear(s.linOf)
	clear(s.tvars)
	n.litOf, n.linOf, n.tvars = s.litOf, s.linOf, s.tvars
	// the new solver will grow about as large as this one: make room at
	// once rather than growing every table step by step
	nv := s.sat.NumVars()
	n.sat.Reserve(nv)
	n.kids = slices.Grow(n.kids, nv)
	n.th.atoms = slices.Grow(n.th.atoms, nv)
	n.relMark = slices.Grow(n.relMark, nv)
	n.th.lp.Reserve(s.th.lp.NumVars())
	n.bounds = slices.Grow(n.bounds, len(s.bounds))
	n.boundOf = slices.Grow(n.boundOf, len(s.boundOf))
	for d, ts := range s.terms {
		if d > 0 {
			n.Push()
		}
		for _, t := range ts {
			n.Assert(t)
		}
	}
	*s = *n
}

// UnsatCore returns a subset of the assumptions after Unsat.
func (s *Solver) UnsatCore() ([]*smt.Term, error) {
	if s.status != smt.Unsat || s.core == nil {
		return nil, errors.New("embedded: no unsat core: the last check did not answer unsat")
	}
	return s.core, nil
}

// --- encoding

func (s *Solver) unsupportedTerm(t *smt.Term, why string) {
	// Sprint, not String: a term sharing its subterms (x1 = x0 + x0, …)
	// printed as a tree is exponentially long.
	s.unsupported = why + ": " + quote(t)
}

// quote returns the beginning of t for a message: Sprint, not String,
// since a term sharing its subterms (x1 = x0 + x0, …) printed as a tree
// is exponentially long.
func quote(t *smt.Term) string { return source.ExcerptN(smt.Sprint(t), 200) }

// Unsupported returns why the last Check answered Unknown because of a term
// outside the fragment the solver decides or a nonlinear product it gave up
// on, or "".
func (s *Solver) Unsupported() string {
	for _, why := range s.unsup {
		if why != "" {
			return why
		}
	}
	return s.nl.gaveUp
}

// newVar returns a new variable, not a decision variable until relevant.
func (s *Solver) newVar() sat.Lit {
	v := s.sat.NewVar()
	s.sat.SetDecisionVar(v, false)
	s.kids = append(s.kids, nil)
	s.th.atoms = append(s.th.atoms, atom{x: -1})
	s.relMark = append(s.relMark, 0)
	return sat.Pos(v)
}

// define records that v's definition mentions the variables of ls.
func (s *Solver) define(v sat.Lit, ls ...sat.Lit) {
	k := make([]sat.Var, len(ls))
	for i, l := range ls {
		k[i] = l.Var()
	}
	s.kids[v.Var()] = k
}

// markRelevant makes the cone of the roots and assumptions the decision
// variables.
func (s *Solver) markRelevant() {
	s.relGen++
	gen := s.relGen
	st := s.stack[:0]
	for _, rs := range s.roots {
		for _, l := range rs {
			st = append(st, l.Var())
		}
	}
	for _, l := range s.assumps {
		st = append(st, l.Var())
	}
	st = append(st, s.ar.roots...)
	s.actApps = s.actApps[:0]
	s.nl.act, s.nl.actDivs = s.nl.act[:0], s.nl.actDivs[:0]
	if len(s.ar.actArrs) > 0 {
		st = s.arrayRelevant(gen, st)
	}
	next := s.relNext[:0]
	for len(st) > 0 {
		v := st[len(st)-1]
		st = st[:len(st)-1]
		if s.relMark[v] == gen {
			continue
		}
		if s.relMark[v] != gen-1 {
			s.sat.SetDecisionVar(v, true)
		}
		s.relMark[v] = gen
		next = append(next, v)
		st = append(st, s.kids[v]...)
		if int(v) < len(s.appOfSat) && s.appOfSat[v] > 0 {
			st = s.activateApp(s.appList[s.appOfSat[v]-1], gen, st)
		}
		if x := s.th.atoms[v].x; x >= 0 {
			// the variables of the sum (their fresh integers have
			// definitions)
			if d := s.th.lp.Def(x); d != nil {
				for _, t := range d {
					st = s.markLia(t.V, gen, st)
				}
			} else {
				st = s.markLia(x, gen, st)
			}
		}
	}
	s.stack = st
	for _, v := range s.relevant {
		if s.relMark[v] != gen {
			s.sat.SetDecisionVar(v, false)
		}
	}
	s.relevant, s.relNext = next, s.relevant
}

// markLia marks the integer variable x relevant in generation gen: the
// definition of a fresh integer joins the check (its guard is assumed,
// its literals pushed on st).
func (s *Solver) markLia(x lia.Var, gen uint32, st []sat.Var) []sat.Var {
	for int(x) >= len(s.relLia) {
		s.relLia = append(s.relLia, 0)
	}
	if s.relLia[x] != gen {
		s.relLia[x] = gen
		if int(x) < len(s.freshDef) {
			d := &s.freshDef[x]
			st = append(st, d.deps...)
			if d.guarded {
				s.assumps = append(s.assumps, d.guard)
			}
		}
		if int(x) < len(s.appOfLia) && s.appOfLia[x] > 0 {
			st = s.activateApp(s.appList[s.appOfLia[x]-1], gen, st)
		}
		if int(x) < len(s.nl.divOfLia) && s.nl.divOfLia[x] != nil {
			s.nl.actDivs = append(s.nl.actDivs, s.nl.divOfLia[x])
		}
		if int(x) < len(s.nl.ofLia) && s.nl.ofLia[x] > 0 {
			st = s.activateProduct(s.nl.list[s.nl.ofLia[x]-1], gen, st)
		}
	}
	return st
}

// activateApp records that the application a takes part in the check of
// generation gen. Its arguments are relevant too: the lazy congruence
// check compares their values, which must be those the model gives them.
func (s *Solver) activateApp(a *app, gen uint32, st []sat.Var) []sat.Var {
	if s.appMark[a.id] == gen {
		return st
	}
	s.appMark[a.id] = gen
	s.actApps = append(s.actApps, a)
	for _, x := range a.t.Args() {
		if x.IsBool() {
			st = append(st, s.cachedLit(x).Var())
			continue
		}
		for _, t := range s.cachedLin(x).ts {
			st = s.markLia(t.V, gen, st)
		}
	}
	return st
}

// encode returns the literal equivalent to the Bool term t, adding the
// defining clauses; false if t is outside the fragment.
func (s *Solver) encode(t *smt.Term) (sat.Lit, bool) {
	id := int(t.ID())
	if id < len(s.litOf) && s.litOf[id] != 0 {
		return sat.Lit(s.litOf[id] - 1), true
	}
	l, ok := s.encode1(t)
	if ok {
		if id >= len(s.litOf) {
			s.litOf = growByID(s.litOf, id, s.tm.NumTerms())
		}
		s.litOf[id] = int32(l) + 1
	}
	return l, ok
}

// growByID returns a copy of the table xs, indexed by term ID, large
// enough for id (and for the n terms of the manager), doubled so that a
// growing term manager costs amortized O(1) per term.
func growByID[T any](xs []T, id, n int) []T {
	m := make([]T, max(id+1, n, 2*len(xs)))
	copy(m, xs)
	return m
}

// cachedLit returns the literal of the Bool term t, encoded before.
func (s *Solver) cachedLit(t *smt.Term) sat.Lit { return sat.Lit(s.litOf[t.ID()] - 1) }

// cachedLin returns the linear form of the Int term t, computed before.
func (s *Solver) cachedLin(t *smt.Term) *lin { return s.linOf[t.ID()] }

func (s *Solver) encodeArgs(t *smt.Term) ([]sat.Lit, bool) {
	ls := make([]sat.Lit, len(t.Args()))
	for i, a := range t.Args() {
		l, ok := s.encode(a)
		if !ok {
			return nil, false
		}
		ls[i] = l
	}
	return ls, true
}

// and returns a literal equivalent to the conjunction of ls.
func (s *Solver) and(ls []sat.Lit) sat.Lit {
	switch len(ls) {
	case 0:
		return s.tru
	case 1:
		return ls[0]
	}
	v := s.newVar()
	s.define(v, ls...)
	long := make([]sat.Lit, 0, len(ls)+1)
	for _, l := range ls {
		s.sat.AddClause(v.Not(), l)
		long = append(long, l.Not())
	}
	s.sat.AddClause(append(long, v)...)
	return v
}

func (s *Solver) or(ls []sat.Lit) sat.Lit {
	neg := make([]sat.Lit, len(ls))
	for i, l := range ls {
		neg[i] = l.Not()
	}
	return s.and(neg).Not()
}

func (s *Solver) iff(a, b sat.Lit) sat.Lit {
	switch {
	case a == b:
		return s.tru
	case a == b.Not():
		return s.tru.Not()
	}
	v := s.newVar()
	s.define(v, a, b)
	s.sat.AddClause(v.Not(), a.Not(), b)
	s.sat.AddClause(v.Not(), a, b.Not())
	s.sat.AddClause(v, a, b)
	s.sat.AddClause(v, a.Not(), b.Not())
	return v
}

func (s *Solver) ite(c, a, b sat.Lit) sat.Lit {
	v := s.newVar()
	s.define(v, c, a, b)
	s.sat.AddClause(c.Not(), v.Not(), a)
	s.sat.AddClause(c.Not(), v, a.Not())
	s.sat.AddClause(c, v.Not(), b)
	s.sat.AddClause(c, v, b.Not())
	return v
}

func (s *Solver) encode1(t *smt.Term) (sat.Lit, bool) {
	switch t.Op() {
	case smt.OpTrue:
		return s.tru, true
	case smt.OpFalse:
		return s.tru.Not(), true
	case smt.OpVar:
		l := s.newVar()
		s.bvars[t.Symbol()] = l.Var()
		return l, true
	case smt.OpApp:
		a, ok := s.encodeApp(t)
		return a.lit, ok
	case smt.OpSelect:
		e, ok := s.sel(t)
		return e.lit, ok
	case smt.OpNot:
		l, ok := s.encode(t.Arg(0))
		return l.Not(), ok
	case smt.OpAnd, smt.OpOr, smt.OpImplies, smt.OpXor:
		ls, ok := s.encodeArgs(t)
		if !ok {
			return 0, false
		}
		switch t.Op() {
		case smt.OpAnd:
			return s.and(ls), true
		case smt.OpOr:
			return s.or(ls), true
		case smt.OpImplies: // right associative: a → (b → c) = ¬a ∨ ¬b ∨ c
			for i := range ls[:len(ls)-1] {
				ls[i] = ls[i].Not()
			}
			return s.or(ls), true
		}
		x := ls[0]
		for _, l := range ls[1:] {
			x = s.iff(x, l).Not()
		}
		return x, true
	case smt.OpIte:
		if !t.IsBool() {
			break
		}
		ls, ok := s.encodeArgs(t)
		if !ok {
			return 0, false
		}
		return s.ite(ls[0], ls[1], ls[2]), true
	case smt.OpEq, smt.OpDistinct:
		args := t.Args()
		var pairs []sat.Lit
		for i := range args {
			for j := i + 1; j < len(args); j++ {
				if t.Op() == smt.OpEq && j > i+1 {
					break
				}
				l, ok := s.equal(t, args[i], args[j])
				if !ok {
					return 0, false
				}
				if t.Op() == smt.OpDistinct {
					l = l.Not()
				}
				pairs = append(pairs, l)
			}
		}
		return s.and(pairs), true
	case smt.OpLt, smt.OpLe, smt.OpGt, smt.OpGe:
		// d = a - b; over the integers d < 0 is d <= -1, d > 0 is ¬(d <= 0)
		base := s.accStart()
		var c lia.Q
		ok := s.accum(t.Arg(0), lia.Int(1), base, &c) && s.accum(t.Arg(1), lia.Int(-1), base, &c)
		var l sat.Lit
		if ok {
			ts := s.accFinish(base)
			switch t.Op() {
			case smt.OpLt:
				l = s.leqTS(ts, c, lia.Int(-1))
			case smt.OpLe:
				l = s.leqTS(ts, c, lia.Int(0))
			case smt.OpGt:
				l = s.leqTS(ts, c, lia.Int(0)).Not()
			default:
				l = s.leqTS(ts, c, lia.Int(-1)).Not()
			}
		}
		s.acc = s.acc[:base]
		return l, ok
	}
	s.unsupportedTerm(t, "unsupported term")
	return 0, false
}

// equal encodes a = b for two arguments of the equality or distinct term t.
func (s *Solver) equal(t, a, b *smt.Term) (sat.Lit, bool) {
	switch {
	case a.IsBool():
		la, ok1 := s.encode(a)
		lb, ok2 := s.encode(b)
		if !ok1 || !ok2 {
			return 0, false
		}
		return s.iff(la, lb), true
	case a.IsArray():
		return s.arrayEq(a, b)
	case intLike(a.Sort()):
		lo, hi, ok := s.eqAtoms(a, b)
		if !ok {
			return 0, false
		}
		return s.and2(lo, hi), true
	}
	s.unsupportedTerm(t, "unsupported sort "+a.Sort().String())
	return 0, false
}

// eqAtoms returns the atoms a - b <= 0 and a - b >= 0.
func (s *Solver) eqAtoms(a, b *smt.Term) (lo, hi sat.Lit, ok bool) {
	base := s.accStart()
	var c lia.Q
	ok = s.accum(a, lia.Int(1), base, &c) && s.accum(b, lia.Int(-1), base, &c)
	if ok {
		ts := s.accFinish(base)
		lo = s.leqTS(ts, c, lia.Int(0))
		hi = s.leqTS(ts, c, lia.Int(-1)).Not()
	}
	s.acc = s.acc[:base]
	return lo, hi, ok
}

// and2 returns a literal for a ∧ b, one per pair.
func (s *Solver) and2(a, b sat.Lit) sat.Lit {
	switch f := s.tru.Not(); {
	case a == f || b == f || a == b.Not():
		return f
	case a == s.tru || a == b:
		return b
	case b == s.tru:
		return a
	}
	if b < a {
		a, b = b, a
	}
	key := [2]sat.Lit{a, b}
	if l, ok := s.ands[key]; ok {
		return l
	}
	l := s.and([]sat.Lit{a, b})
	s.ands[key] = l
	return l
}

// eqZero returns a literal for d = 0.
func (s *Solver) eqZero(d *lin) sat.Lit {
	return s.and2(s.leqTS(d.ts, d.c, lia.Int(0)), s.leqTS(d.ts, d.c, lia.Int(-1)).Not())
}

// leq returns a literal for d <= k, where d's coefficients are integers.
func (s *Solver) leq(d *lin, k lia.Q) sat.Lit { return s.leqTS(d.ts, d.c, k) }

// accBudget is how many arithmetic nodes accum expands as a tree before it
// takes the memoized linear forms of the subterms left: enough for the
// comparisons of everyday formulas, which then cost no allocation, and few
// enough that a DAG with shared sums (x1 = x0 + x0, x2 = x1 + x1, …) costs
// time linear in its size rather than in its tree's.
const accBudget = 64

// accStart begins a linear form in s.acc and returns its base.
func (s *Solver) accStart() int {
	s.accLeft = accBudget
	return len(s.acc)
}

// accum adds f·t to the linear form being built in s.acc[base:] (terms in
// any order, at most one per variable) and *c (the constant).
func (s *Solver) accum(t *smt.Term, f lia.Q, base int, c *lia.Q) bool {
	op := t.Op()
	if s.accLeft--; s.accLeft < 0 && t.NumArgs() > 0 {
		op = smt.OpInvalid // out of budget: the memoized linear form below
	}
	switch op {
	case smt.OpInt:
		if n, ok := t.Int64(); ok {
			*c = c.Add(f.Mul(lia.Int(n)))
		} else {
			*c = c.Add(f.Mul(lia.FromBigInt(t.BigInt())))
		}
		return true
	case smt.OpVar:
		if intLike(t.Sort()) {
			s.accVar(s.intVar(t), f, base)
			return true
		}
	case smt.OpNeg:
		return s.accum(t.Arg(0), f.Neg(), base, c)
	case smt.OpAdd:
		for _, a := range t.Args() {
			if !s.accum(a, f, base, c) {
				return false
			}
		}
		return true
	case smt.OpSub:
		for i, a := range t.Args() {
			g := f
			if i > 0 {
				g = f.Neg()
			}
			if !s.accum(a, g, base, c) {
				return false
			}
		}
		return true
	case smt.OpMul:
		g := f
		var nonLit *smt.Term
		simple := true
		for _, a := range t.Args() {
			if n, ok := a.Int64(); ok {
				g = g.Mul(lia.Int(n))
				continue
			}
			if nonLit != nil {
				simple = false // nonlinear, or a factor to fold: linear decides
				break
			}
			nonLit = a
		}
		if simple {
			if nonLit == nil {
				*c = c.Add(g)
				return true
			}
			return s.accum(nonLit, g, base, c)
		}
	}
	l, ok := s.linear(t)
	if !ok {
		return false
	}
	for _, x := range l.ts {
		s.accVar(x.V, f.Mul(x.C), base)
	}
	*c = c.Add(f.Mul(l.c))
	return true
}

func (s *Solver) accVar(x lia.Var, f lia.Q, base int) {
	for i := base; i < len(s.acc); i++ {
		if s.acc[i].V == x {
			s.acc[i].C = s.acc[i].C.Add(f)
			return
		}
	}
	s.acc = append(s.acc, lia.Term{V: x, C: f})
}

// accFinish drops the zero terms of s.acc[base:], sorts them by variable
// and returns them.
func (s *Solver) accFinish(base int) []lia.Term {
	ts := s.acc[base:]
	j := 0
	for _, t := range ts {
		if !t.C.IsZero() {
			ts[j] = t
			j++
		}
	}
	ts = ts[:j]
	for i := 1; i < len(ts); i++ {
		for k := i; k > 0 && ts[k].V < ts[k-1].V; k-- {
			ts[k], ts[k-1] = ts[k-1], ts[k]
		}
	}
	s.acc = s.acc[:base+j]
	return ts
}

// intVar returns the simplex variable of a declared Int (or uninterpreted)
// constant.
func (s *Solver) intVar(t *smt.Term) lia.Var {
	id := int(t.ID())
	if id < len(s.tvars) && s.tvars[id] != 0 {
		return s.tvars[id] - 1
	}
	x, ok := s.ivars[t.Symbol()]
	if !ok {
		x = s.th.lp.NewVar(true)
		s.ivars[t.Symbol()] = x
	}
	for id >= len(s.tvars) {
		s.tvars = append(s.tvars, 0)
	}
	s.tvars[id] = x + 1
	return x
}

// leqTS returns a literal for Σts + c <= k, where ts are sorted by
// variable with non-zero integer coefficients; ts is not retained.
func (s *Solver) leqTS(ts []lia.Term, c, k lia.Q) sat.Lit {
	k = k.Sub(c)
	if len(ts) == 0 {
		if k.Sign() >= 0 {
			return s.tru
		}
		return s.tru.Not()
	}
	// divide by the gcd of the coefficients; make the first one positive
	gq := lia.Int(0)
	var g64 uint64
	small := true
	for _, t := range ts {
		n, ok := t.C.Int64()
		if !ok || n == math.MinInt64 {
			small = false
			break
		}
		if n < 0 {
			n = -n
		}
		g64 = gcd(g64, uint64(n))
	}
	if small {
		gq = lia.Int(int64(g64))
	} else {
		g := new(big.Int)
		for _, t := range ts {
			g.GCD(nil, nil, g, new(big.Int).Abs(t.C.Num()))
		}
		gq = lia.FromBigInt(g)
	}
	if ts[0].C.Sign() < 0 {
		gq = gq.Neg()
	}
	if !gq.Equal(lia.Int(1)) {
		norm := s.norm[:0]
		for _, t := range ts {
			norm = append(norm, lia.Term{V: t.V, C: t.C.Div(gq)})
		}
		s.norm = norm
		ts = norm
		k = k.Div(gq)
	}
	neg := gq.Sign() < 0 // divided by a negative number: the inequality flips
	var x lia.Var
	if len(ts) == 1 && ts[0].C.Equal(lia.Int(1)) {
		x = ts[0].V
	} else {
		x = s.slackVar(ts)
	}
	if !neg {
		return s.bound(x, k.Floor()) // x <= floor(k)
	}
	// x >= k, i.e. not x <= ceil(k) - 1
	return s.bound(x, k.Ceil().Sub(lia.Int(1))).Not()
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// slackVar returns the slack variable of the sum ts (sorted, normalized),
// defining it when new. Sums are found by hash, the keys h, h+1, … probed
// in turn until the sum or a free key turns up (nothing is ever removed).
func (s *Solver) slackVar(ts []lia.Term) lia.Var {
	h := uint64(14695981039346656037)
	mix := func(v uint64) {
		h ^= v
		h *= 1099511628211
	}
	for _, t := range ts {
		mix(uint64(t.V))
		if n, ok := t.C.Int64(); ok {
			mix(uint64(n))
		} else {
			for _, b := range []byte(t.C.String()) {
				mix(uint64(b))
			}
		}
	}
	for ; ; h++ {
		x, ok := s.slack[h]
		if !ok {
			x = s.th.lp.AddDef(ts)
			s.slack[h] = x
			return x
		}
		if d := s.th.lp.Def(x); len(d) == len(ts) && sameTerms(d, ts) {
			return x
		}
	}
}

func sameTerms(a, b []lia.Term) bool {
	for i := range a {
		if a[i].V != b[i].V || !a[i].C.Equal(b[i].C) {
			return false
		}
	}
	return true
}

// bound returns the atom x <= k, where x stands for the sum ts.
func (s *Solver) bound(x lia.Var, k lia.Q) sat.Lit {
	n, small := k.Int64()
	if small {
		if int(x) < len(s.boundOf) {
			for i := s.boundOf[x]; i != 0; i = s.bounds[i-1].next {
				if b := &s.bounds[i-1]; b.k == n {
					return b.lit
				}
			}
		}
	} else if l, ok := s.atoms[atomKey{x, k.String()}]; ok {
		return l
	}
	l := s.newVar()
	v := l.Var()
	s.sat.SetTheoryVar(v)
	s.th.atoms[v] = atom{x, k}
	if small {
		for int(x) >= len(s.boundOf) {
			s.boundOf = append(s.boundOf, 0)
		}
		s.bounds = append(s.bounds, boundAtom{n, l, s.boundOf[x]})
		s.boundOf[x] = int32(len(s.bounds))
	} else {
		s.atoms[atomKey{x, k.String()}] = l
	}
	return l
}

// --- linear forms

// varLin returns the linear form of the variable x, in one allocation.
func varLin(x lia.Var) *lin {
	v := &struct {
		l lin
		t [1]lia.Term
	}{}
	v.t[0] = lia.Term{V: x, C: lia.Int(1)}
	v.l.ts = v.t[:]
	return &v.l
}

func addLin(a, b *lin, f lia.Q) *lin {
	r := &lin{c: a.c.Add(b.c.Mul(f))}
	i, j := 0, 0
	for i < len(a.ts) || j < len(b.ts) {
		switch {
		case j == len(b.ts) || i < len(a.ts) && a.ts[i].V < b.ts[j].V:
			r.ts = append(r.ts, a.ts[i])
			i++
		case i == len(a.ts) || b.ts[j].V < a.ts[i].V:
			r.ts = append(r.ts, lia.Term{V: b.ts[j].V, C: b.ts[j].C.Mul(f)})
			j++
		default:
			c := a.ts[i].C.Add(b.ts[j].C.Mul(f))
			if !c.IsZero() {
				r.ts = append(r.ts, lia.Term{V: a.ts[i].V, C: c})
			}
			i++
			j++
		}
	}
	return r
}

func scaleLin(a *lin, f lia.Q) *lin {
	if f.IsZero() {
		return &lin{}
	}
	r := &lin{c: a.c.Mul(f), ts: make([]lia.Term, len(a.ts))}
	for i, t := range a.ts {
		r.ts[i] = lia.Term{V: t.V, C: t.C.Mul(f)}
	}
	return r
}

func (s *Solver) linear(t *smt.Term) (*lin, bool) {
	id := int(t.ID())
	if id < len(s.linOf) && s.linOf[id] != nil {
		return s.linOf[id], true
	}
	l, ok := s.linear1(t)
	if ok {
		if id >= len(s.linOf) {
			s.linOf = growByID(s.linOf, id, s.tm.NumTerms())
		}
		s.linOf[id] = l
	}
	return l, ok
}

// A freshDef is the definition of a fresh integer (of an ite, abs, div or
// mod): the variables of its defining literals, and the guard that
// switches it on.
type freshDef struct {
	deps    []sat.Var
	guard   sat.Lit
	guarded bool
}

// fresh returns the definition record of the fresh integer x.
func (s *Solver) fresh(x lia.Var) *freshDef {
	for int(x) >= len(s.freshDef) {
		s.freshDef = append(s.freshDef, freshDef{})
	}
	return &s.freshDef[x]
}

// guard returns the literal that switches on the definition of the fresh
// integer v: it is assumed in the queries where v is relevant, so that the
// definitions of terms no longer asserted do not weigh on the search.
func (s *Solver) guard(v *lin) sat.Lit {
	g := s.newVar()
	s.fresh(v.ts[0].V).guard, s.fresh(v.ts[0].V).guarded = g, true
	return g
}

func (s *Solver) freshInt() *lin {
	x := s.th.lp.NewVar(true)
	return varLin(x)
}

func (s *Solver) linear1(t *smt.Term) (*lin, bool) {
	switch t.Op() {
	case smt.OpInt:
		return &lin{c: lia.FromBigInt(t.BigInt())}, true
	case smt.OpVar:
		return varLin(s.intVar(t)), true
	case smt.OpNeg:
		a, ok := s.linear(t.Arg(0))
		if !ok {
			return nil, false
		}
		return scaleLin(a, lia.Int(-1)), true
	case smt.OpAdd, smt.OpSub:
		r := &lin{}
		for i, a := range t.Args() {
			la, ok := s.linear(a)
			if !ok {
				return nil, false
			}
			f := lia.Int(1)
			if t.Op() == smt.OpSub && i > 0 {
				f = lia.Int(-1)
			}
			r = addLin(r, la, f)
		}
		return r, true
	case smt.OpMul:
		r := &lin{c: lia.Int(1)}
		var nonConst *lin
		for _, a := range t.Args() {
			la, ok := s.linear(a)
			if !ok {
				return nil, false
			}
			if len(la.ts) == 0 {
				r.c = r.c.Mul(la.c)
				continue
			}
			if nonConst != nil {
				la = s.product(nonConst, la)
			}
			nonConst = la
		}
		if nonConst == nil {
			return r, true
		}
		return scaleLin(nonConst, r.c), true
	case smt.OpIte:
		c, ok := s.encode(t.Arg(0))
		if !ok {
			return nil, false
		}
		a, ok1 := s.linear(t.Arg(1))
		b, ok2 := s.linear(t.Arg(2))
		if !ok1 || !ok2 {
			return nil, false
		}
		v := s.freshInt()
		e1, e2 := s.eqZero(addLin(v, a, lia.Int(-1))), s.eqZero(addLin(v, b, lia.Int(-1)))
		g := s.guard(v)
		s.sat.AddClause(g.Not(), c.Not(), e1)
		s.sat.AddClause(g.Not(), c, e2)
		s.fresh(v.ts[0].V).deps = []sat.Var{c.Var(), e1.Var(), e2.Var()}
		return v, true
	case smt.OpAbs:
		a, ok := s.linear(t.Arg(0))
		if !ok {
			return nil, false
		}
		if len(a.ts) == 0 {
			if a.c.Sign() < 0 {
				return &lin{c: a.c.Neg()}, true
			}
			return a, true
		}
		v := s.freshInt()
		nonneg := s.leq(scaleLin(a, lia.Int(-1)), lia.Int(0)) // a >= 0
		e1, e2 := s.eqZero(addLin(v, a, lia.Int(-1))), s.eqZero(addLin(v, a, lia.Int(1)))
		g := s.guard(v)
		s.sat.AddClause(g.Not(), nonneg.Not(), e1)
		s.sat.AddClause(g.Not(), nonneg, e2)
		s.fresh(v.ts[0].V).deps = []sat.Var{nonneg.Var(), e1.Var(), e2.Var()}
		return v, true
	case smt.OpDiv, smt.OpMod:
		a, ok1 := s.linear(t.Arg(0))
		b, ok2 := s.linear(t.Arg(1))
		if !ok1 || !ok2 {
			return nil, false
		}
		if len(b.ts) != 0 {
			q, r := s.divide(a, b)
			if t.Op() == smt.OpDiv {
				return q, true
			}
			return r, true
		}
		if b.c.IsZero() {
			s.unsupportedTerm(t, "division by zero")
			return nil, false
		}
		k := b.c
		abs := k
		if k.Sign() < 0 {
			abs = k.Neg()
		}
		if len(a.ts) == 0 {
			// a constant: fold it (Euclidean: q = sign(k)·⌊a/|k|⌋), so
			// that what it takes part in stays visible to the GCD tests
			q := a.c.Div(abs).Floor()
			if k.Sign() < 0 {
				q = q.Neg()
			}
			if t.Op() == smt.OpDiv {
				return &lin{c: q}, true
			}
			return &lin{c: a.c.Sub(k.Mul(q))}, true
		}
		// a = k*q + r, 0 <= r <= |k|-1
		q, r := s.freshInt(), s.freshInt()
		def := addLin(addLin(a, scaleLin(q, k), lia.Int(-1)), r, lia.Int(-1))
		e, lo, hi := s.eqZero(def), s.leq(scaleLin(r, lia.Int(-1)), lia.Int(0)), s.leq(r, abs.Sub(lia.Int(1)))
		g := s.guard(q)
		s.fresh(r.ts[0].V).guard, s.fresh(r.ts[0].V).guarded = g, true
		s.sat.AddClause(g.Not(), e)
		s.sat.AddClause(g.Not(), lo)
		s.sat.AddClause(g.Not(), hi)
		deps := []sat.Var{e.Var(), lo.Var(), hi.Var()}
		s.fresh(q.ts[0].V).deps, s.fresh(r.ts[0].V).deps = deps, deps
		if t.Op() == smt.OpDiv {
			return q, true
		}
		return r, true
	}
	switch t.Op() {
	case smt.OpApp:
		a, ok := s.encodeApp(t)
		if !ok {
			return nil, false
		}
		return varLin(a.x), true
	case smt.OpSelect:
		e, ok := s.sel(t)
		return e.l, ok
	}
	s.unsupportedTerm(t, "unsupported term")
	return nil, false
}
