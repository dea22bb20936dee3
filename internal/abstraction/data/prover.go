package data

import (
	"context"
	"errors"
	"math/big"

	"birch/internal/smt"
	"birch/internal/smt/solvers"
)

// DefaultSteps bounds the solver's work on one query of the synthesis (the
// embedded solver's conflicts plus pivots, z3's rlimit). A step limit, unlike
// a time limit, keeps the tables reproducible.
const DefaultSteps = 2_000_000

// prover asks one solver the questions of compilation and synthesis about
// one abstraction. Every query runs in its own scope.
type prover struct {
	tm      *smt.TermManager
	s       smt.Solver
	a       *Abstraction
	moduli  []int64 // the divisors whose residues splitCheck considers
	vars    map[string]*smt.Term
	failed  error // the first solver failure, reported as a warning
	queries int   // how many checks were asked

	resCache map[int][]int64 // residues, by token
}

func newProver(a *Abstraction, cfg Config) (*prover, error) {
	tm := smt.NewTermManager()
	name := cfg.Solver
	if name == "" {
		name = solvers.Default
	}
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	s, err := solvers.NewContext(ctx, name, tm)
	if err != nil {
		return nil, err
	}
	steps := cfg.Steps
	if steps == 0 {
		steps = DefaultSteps
	}
	limit := smt.Limit{Steps: steps}
	if name != "embedded" {
		limit.Timeout = cfg.QueryTimeout
		if limit.Timeout == 0 {
			limit.Timeout = DefaultQueryTimeout
		}
	}
	s.SetLimit(limit)
	return &prover{tm: tm, s: s, a: a, moduli: a.moduli, vars: map[string]*smt.Term{}}, nil
}

func (pr *prover) close() { pr.s.Close() }

// v returns the integer constant called name.
func (pr *prover) v(name string) *smt.Term {
	t, ok := pr.vars[name]
	if !ok {
		t = pr.tm.Const(name, smt.IntSort)
		pr.vars[name] = t
	}
	return t
}

// check decides the conjunction of fs; on Sat it returns the values of
// the named variables in the model.
func (pr *prover) check(names []string, fs ...*smt.Term) (smt.Result, []*big.Int) {
	pr.queries++
	pr.s.Push()
	defer pr.s.Pop(1)
	for _, f := range fs {
		pr.s.Assert(f)
	}
	r, err := pr.s.Check()
	if err != nil {
		if pr.failed == nil {
			pr.failed = err
		}
		return smt.Unknown, nil
	}
	if r != smt.Sat {
		return r, nil
	}
	m, err := pr.s.Model()
	if err != nil {
		return r, nil
	}
	vals := make([]*big.Int, len(names))
	for i, n := range names {
		v, err := m.Eval(pr.v(n))
		if err != nil {
			return r, nil
		}
		vals[i] = v.BigInt()
	}
	return r, vals
}

// rule is the condition of rule i over t.
func (pr *prover) rule(i int, t *smt.Term) *smt.Term {
	return pr.a.Rules[i].cond.term(pr.tm, t, nil)
}

// ruleRes is rule with t's residue known (res may be nil).
func (pr *prover) ruleRes(i int, t *smt.Term, res *residue) *smt.Term {
	return pr.a.Rules[i].cond.term(pr.tm, t, res)
}

// phi is the predicate of token k over t: the disjunction of the
// conditions of its rules. (Rules of different tokens do not overlap once
// the abstraction function is checked.)
func (pr *prover) phi(k int, t *smt.Term) *smt.Term { return pr.phiRes(k, t, nil) }

// phiRes is phi with t's residue known (res may be nil).
func (pr *prover) phiRes(k int, t *smt.Term, res *residue) *smt.Term {
	return phiOf(pr.tm, pr.a, k, t, res)
}

// phiOf is the predicate of token k of a over t, whose residue res may be
// known.
func phiOf(tm *smt.TermManager, a *Abstraction, k int, t *smt.Term, res *residue) *smt.Term {
	var ds []*smt.Term
	for i := range a.Rules {
		if a.Rules[i].Token == k {
			ds = append(ds, a.Rules[i].cond.term(tm, t, res))
		}
	}
	return tm.Or(ds...)
}

// phiSet is the disjunction of the predicates of the tokens of s.
func (pr *prover) phiSet(s Set, t *smt.Term, res *residue) *smt.Term {
	var ds []*smt.Term
	for k := range pr.a.Tokens {
		if s.Has(k) {
			ds = append(ds, pr.phiRes(k, t, res))
		}
	}
	return pr.tm.Or(ds...)
}

// modulus returns the least common multiple of the divisors of the
// conditions when it is at most 64, and 0 otherwise (or without divisors).
func (pr *prover) modulus() int64 {
	l := int64(1)
	for _, m := range pr.moduli {
		g, b := l, m
		for b != 0 {
			g, b = b, g%b
		}
		l = l / g * m
		if l > 64 {
			return 0
		}
	}
	if l == 1 {
		return 0
	}
	return l
}

// residues returns the residues modulo L = pr.modulus() that integers of
// token k may have: those for which k's predicate does not simplify to
// false once the residue is known. All of them for k < 0.
func (pr *prover) residues(k int) []int64 {
	L := pr.modulus()
	if pr.resCache == nil {
		pr.resCache = map[int][]int64{}
	}
	if rs, ok := pr.resCache[k]; ok {
		return rs
	}
	var rs []int64
	n := pr.v("n")
	for i := range L {
		if k < 0 || pr.tm.Simplify(pr.phiRes(k, n, &residue{L, i})) != pr.tm.False() {
			rs = append(rs, i)
		}
	}
	pr.resCache[k] = rs
	return rs
}

// maxDirectCases is how many residue cases splitCheck tries without first
// asking the whole question.
const maxDirectCases = 16

// splitCheck decides a formula over the variables names (integers, of
// tokens toks; -1 for none) by cases on their residues modulo
// L = pr.modulus(): build returns the formula's conjuncts given each
// variable's residue (nil: unknown). Each case adds xᵢ = L·x'ᵢ + rᵢ, which
// turns the remainders of the conditions into constants and leaves the
// solver linear problems without them, which branch and bound decides
// where it could not decide the remainders. Without divisors, or with many
// cases, the whole formula is asked first. Unsat means every case is
// unsat; Sat returns the model's values of names.
//
// consistent, when not nil, rules out combinations of residues (indexed as
// names) without a query.
func (pr *prover) splitCheck(names []string, toks []int, build func(res []*residue) []*smt.Term) (smt.Result, []*big.Int) {
	return pr.splitCheckFiltered(names, toks, nil, build)
}

func (pr *prover) splitCheckFiltered(names []string, toks []int, consistent func(res []int64) bool, build func(res []*residue) []*smt.Term) (smt.Result, []*big.Int) {
	tm := pr.tm
	L := pr.modulus()
	cases := 1
	var lists [][]int64
	if L > 0 {
		for _, k := range toks {
			rs := pr.residues(k)
			lists = append(lists, rs)
			cases *= len(rs)
		}
		if cases == 0 {
			return smt.Unsat, nil
		}
	}
	if L == 0 || cases > maxDirectCases {
		r, vals := pr.check(names, build(make([]*residue, len(names)))...)
		if r != smt.Unknown || L == 0 {
			return r, vals
		}
	}
	res := make([]*residue, len(names))
	idx := make([]int, len(names))
	cur := make([]int64, len(names))
	result := smt.Unsat
	for {
		for i := range names {
			res[i] = &residue{L: L, I: lists[i][idx[i]]}
			cur[i] = res[i].I
		}
		var fs []*smt.Term
		trivial := consistent != nil && !consistent(cur)
		if !trivial {
			fs = build(res)
		}
		for _, f := range fs {
			if trivial {
				break
			}
			trivial = tm.Simplify(f) == tm.False()
		}
		if !trivial {
			for i, n := range names {
				fs = append(fs, tm.Eq(pr.v(n), tm.Add(tm.Scale(L, pr.v(n+"'")), tm.Int(res[i].I))))
			}
			switch r, vals := pr.check(names, fs...); r {
			case smt.Sat:
				return r, vals
			case smt.Unknown:
				result = smt.Unknown
			}
		}
		// Next case.
		i := 0
		for ; i < len(idx); i++ {
			idx[i]++
			if idx[i] < len(lists[i]) {
				break
			}
			idx[i] = 0
		}
		if i == len(idx) {
			return result, nil
		}
	}
}

// bound finds the least (lower) or greatest (!lower) integer of token k,
// given one integer v of it; errNoBound when there is none within ±2⁶² or
// the solver cannot tell.
func (pr *prover) bound(k int, v *big.Int, lower bool) (*big.Int, error) {
	if lower {
		return pr.least(func(t *smt.Term) *smt.Term { return pr.phi(k, t) }, v)
	}
	// The greatest integer of φ is minus the least of λm. φ(-m).
	b, err := pr.least(func(t *smt.Term) *smt.Term { return pr.phi(k, pr.tm.Neg(t)) }, new(big.Int).Neg(v))
	if err != nil {
		return nil, err
	}
	return b.Neg(b), nil
}

// least finds the least integer satisfying pred, given one that does.
func (pr *prover) least(pred func(*smt.Term) *smt.Term, v *big.Int) (*big.Int, error) {
	tm := pr.tm
	n := pr.v("n")
	phi := pred(n)
	far := new(big.Int).Neg(pow62)
	if r, _ := pr.check(nil, phi, tm.Lt(n, tm.BigInt(far))); r != smt.Unsat {
		return nil, errNoBound
	}
	// Invariant: no integer below far satisfies pred, best does, far ≤ best.
	// Walk from model to model first (simplex tends to answer with a
	// vertex, so this usually ends at once), then bisect.
	best := new(big.Int).Set(v)
	for range 16 {
		r, vals := pr.check([]string{"n"}, phi, tm.Lt(n, tm.BigInt(best)))
		switch {
		case r == smt.Unsat:
			return best, nil
		case r == smt.Sat && vals != nil && vals[0].Cmp(best) < 0:
			best = vals[0]
			continue
		}
		return nil, errNoBound
	}
	two := big.NewInt(2)
	for far.Cmp(best) < 0 {
		// mid = ⌊(far+best)/2⌋, far ≤ mid < best.
		mid := new(big.Int).Add(far, best)
		mid.Div(mid, two) // Euclidean: floor for a positive divisor
		r, vals := pr.check([]string{"n"}, phi, tm.Le(n, tm.BigInt(mid)))
		switch {
		case r == smt.Unsat:
			far = mid.Add(mid, big.NewInt(1))
		case r == smt.Sat && vals != nil && vals[0].Cmp(mid) <= 0:
			best = vals[0]
		default:
			return nil, errNoBound
		}
	}
	return best, nil
}

// pow62 bounds the search for token bounds: a token with integers beyond
// ±2⁶² is treated as unbounded on that side.
var pow62 = new(big.Int).Lsh(big.NewInt(1), 62)

var errNoBound = errors.New("no bound")
