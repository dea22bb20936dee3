package data

import (
	"fmt"
	"math/big"
	"sort"

	"birch/internal/abstraction/data/basl"
	"birch/internal/smt"
	"birch/internal/source"
)

// Decide returns the outcomes a condition over one integer may have for
// the integers of token k: True when some integer of k satisfies it, False
// when some does not. The condition is written in BASL's condition syntax
// with the parameter n (linear, with / and % by non-zero constants), for
// example "n % 2 == 1". It is decided as tables are synthesized: small
// integers first, then the solver; an outcome the solver cannot exclude is
// kept, so the answer is sound. The generator of abstract models uses it
// to decide a test that reads one abstract value and constants exactly
// (result % 2 == 1 is true of ODD and false of EVEN, where composing the
// tables of % and == is imprecise).
func (a *Abstraction) Decide(k int, condition string, cfg Config) (Outcomes, error) {
	if a.Identity || k < 0 || k >= len(a.Tokens) {
		return Both, fmt.Errorf("no token %d", k)
	}
	x, err := basl.ParseExpr(condition)
	if err != nil {
		return Both, err
	}
	var errs source.ErrorList
	cc := &condCompiler{fset: source.NewFileSet(), param: "n", errs: &errs, moduli: map[int64]bool{}, consts: map[string]*big.Int{}}
	c := cc.compileBool(x)
	if c == nil || errs.Err() != nil {
		return Both, fmt.Errorf("%s: %v", condition, errs.Err())
	}
	var o Outcomes
	// Witnesses: the token's values, or integers around zero, the bounds and
	// the constants.
	try := func(v *big.Int) {
		if a.Abstract(v) == k {
			if c.holds(v) {
				o |= True
			} else {
				o |= False
			}
		}
	}
	t := &a.Tokens[k]
	if t.Values != nil {
		for _, v := range t.Values {
			try(v)
		}
		return o, nil // the values are all the token's integers
	}
	for v := int64(-64); v <= 64; v++ {
		try(big.NewInt(v))
	}
	for _, b := range []*big.Int{t.Lo, t.Hi} {
		if b != nil {
			for d := int64(-2); d <= 2; d++ {
				try(new(big.Int).Add(b, big.NewInt(d)))
			}
		}
	}
	if o == Both {
		return o, nil
	}
	pr, err := newProver(a, cfg)
	if err != nil {
		return Both, err
	}
	defer pr.close()
	seen := map[int64]bool{}
	for _, m := range pr.moduli {
		seen[m] = true
	}
	for m := range cc.moduli {
		if m <= 32 && !seen[m] {
			seen[m] = true
			pr.moduli = append(pr.moduli, m)
		}
	}
	sort.Slice(pr.moduli, func(i, j int) bool { return pr.moduli[i] < pr.moduli[j] })
	tm, n := pr.tm, pr.v("n")
	for _, want := range []bool{true, false} {
		if o.Has(want) {
			continue
		}
		r, _ := pr.splitCheck([]string{"n"}, []int{k}, func(rs []*residue) []*smt.Term {
			f := c.term(tm, n, rs[0])
			if !want {
				f = tm.Not(f)
			}
			return []*smt.Term{phiOf(tm, a, k, n, rs[0]), f}
		})
		if r != smt.Unsat {
			if want {
				o |= True
			} else {
				o |= False
			}
		}
	}
	return o, nil
}
