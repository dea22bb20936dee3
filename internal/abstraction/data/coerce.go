package data

import (
	"fmt"
	"math/big"
	"sort"

	"birch/internal/smt"
)

// Coercion converts the tokens of one abstraction into those of another:
// Map[a] is the set of tokens of To that share an integer with token a of
// From. Bandera's type inference inserts coercions where a value of one
// abstraction meets a context of another; the coercion from the concrete
// integers is the abstraction function itself, and every abstraction
// coerces to point.
type Coercion struct {
	From, To *Abstraction
	Map      []Set
	// Undecided[a] holds the tokens of Map[a] kept only because the solver
	// could not decide whether they share an integer with a.
	Undecided []Set
}

// Coerce computes the coercion from one abstraction to another by the
// elimination method: token c of to is removed from the image of token a of
// from only when the solver proves that no integer is abstracted by both.
// Neither may be the concrete abstraction (concrete values are coerced by
// the abstraction function; abstract values cannot be made concrete).
func Coerce(from, to *Abstraction, cfg Config) (*Coercion, error) {
	if from.Identity {
		return nil, fmt.Errorf("no coercion from %s: concrete values are abstracted by %s's abstraction function", from.Name, to.Name)
	}
	if to.Identity {
		return nil, fmt.Errorf("no coercion from %s to %s: abstract values cannot be made concrete", from.Name, to.Name)
	}
	pr, err := newProver(from, cfg)
	if err != nil {
		return nil, err
	}
	defer pr.close()
	seen := map[int64]bool{}
	for _, m := range append(append([]int64(nil), from.moduli...), to.moduli...) {
		if !seen[m] {
			seen[m] = true
			pr.moduli = append(pr.moduli, m)
		}
	}
	sort.Slice(pr.moduli, func(i, j int) bool { return pr.moduli[i] < pr.moduli[j] })

	co := &Coercion{From: from, To: to, Map: make([]Set, len(from.Tokens)), Undecided: make([]Set, len(from.Tokens))}
	// Witnesses: a window around zero and the bounds and values of both
	// abstractions' tokens.
	try := func(v *big.Int) {
		if a := from.Abstract(v); a >= 0 {
			co.Map[a] = co.Map[a].With(to.Abstract(v))
		}
	}
	for v := int64(-256); v <= 256; v++ {
		try(big.NewInt(v))
	}
	for _, ab := range []*Abstraction{from, to} {
		for _, t := range ab.Tokens {
			for _, b := range []*big.Int{t.Lo, t.Hi} {
				if b != nil {
					for d := int64(-1); d <= 1; d++ {
						try(new(big.Int).Add(b, big.NewInt(d)))
					}
				}
			}
			for _, v := range t.Values {
				try(v)
			}
		}
	}
	tm, n := pr.tm, pr.v("n")
	for a := range from.Tokens {
		for c := range to.Tokens {
			if co.Map[a].Has(c) {
				continue
			}
			r, _ := pr.splitCheck([]string{"n"}, []int{-1}, func(rs []*residue) []*smt.Term {
				return []*smt.Term{phiOf(tm, from, a, n, rs[0]), phiOf(tm, to, c, n, rs[0])}
			})
			switch r {
			case smt.Unsat:
				continue
			case smt.Unknown:
				co.Undecided[a] = co.Undecided[a].With(c)
			}
			co.Map[a] = co.Map[a].With(c)
		}
	}
	return co, nil
}
