package refine

import (
	"errors"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
)

// Fresh returns the predicates of found that are not among existing (the
// same scope and the same expression as birch fmt prints it, x == y and
// y == x alike), each once.
func Fresh(prog *types.Program, existing []*predicate.Predicate, found []Predicate) ([]Predicate, error) {
	f, err := predicate.ParseFile(prog, "refinement.pred", []byte(FileText(found)))
	if err != nil {
		return nil, err
	}
	keyOf := func(p *predicate.Predicate) string {
		// x == y and y == x are one predicate
		if b, ok := p.Expr.(*ast.BinaryExpr); ok && b.Op == token.EQL {
			l, r := format.Expr(b.X), format.Expr(b.Y)
			if r < l {
				l, r = r, l
			}
			return p.Scope() + "|" + l + " == " + r
		}
		return p.Scope() + "|" + format.Expr(p.Expr)
	}
	seen := map[string]bool{}
	for _, p := range existing {
		seen[keyOf(p)] = true
	}
	var out []Predicate
	for i, p := range f.Predicates {
		if k := keyOf(p); !seen[k] {
			seen[k] = true
			out = append(out, found[i])
		}
	}
	return out, nil
}

// Choose picks the new predicates for the next abstraction: the fresh
// predicates of interpolation when, with the existing ones, they make
// the path infeasible to a predicate abstraction (Path.Refutes), else the
// fresh predicates of both methods. refuted says whether the existing and
// the chosen predicates rule the path out (known to: a query the solver
// does not decide counts as not ruling it out). Preferring interpolation
// keeps Newton's iteration-bound predicates (n == i + 3) out of the
// abstraction when the invariant (i <= n) suffices. The path came from an
// abstraction with the existing predicates, which may be coarser than
// Refutes' (C2bp's cubes are bounded, its calls forget): so even when the
// existing predicates rule the path out there, Newton's fresh ones are
// offered. Nothing chosen means that no method found a fresh predicate.
func (r *Result) Choose(prog *types.Program, existing []*predicate.Predicate, cfg Config) (chosen []Predicate, refuted bool, err error) {
	if r.Status != Infeasible {
		return nil, false, nil
	}
	for _, cands := range [][]Predicate{r.Interpolation, r.Predicates()} {
		fresh, err := Fresh(prog, existing, cands)
		if err != nil {
			return nil, false, err
		}
		all, err := predicate.ParseFile(prog, "refinement.pred", []byte(FileText(fresh)))
		if err != nil {
			return nil, false, err
		}
		ok, err := r.Path.Refutes(append(append([]*predicate.Predicate(nil), existing...), all.Predicates...), r.Step, cfg)
		if err != nil && !errors.Is(err, ErrUndecided) {
			return nil, false, err // an undecided query: not known to refute
		}
		chosen, refuted = fresh, ok
		if ok && len(fresh) > 0 {
			return fresh, true, nil
		}
	}
	return chosen, refuted, nil
}
