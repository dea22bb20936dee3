package absgen

import (
	"sort"

	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// A Wrap is a place of the concrete model where an abstracted value may
// wrap around a fixed-width type (docs/bir.md §5.12): a conversion T(e) of
// an abstracted e, or a store of an abstracted value that may lie outside
// the fixed-width type of its abstracted destination. The abstract model
// takes the value there as the mathematical integer (abstract operators
// work on the mathematical integers), so it covers only the concrete
// executions in which no such place actually wraps.
type Wrap struct {
	Pos  source.Pos // in the concrete model
	What string     // "conversion int32(…)", "store into int32"
}

// wraps lists the places where abstracted values may wrap, in source order.
func (g *gen) wraps() []Wrap {
	seen := map[source.Pos]bool{}
	var out []Wrap
	add := func(pos source.Pos, what string) {
		if !seen[pos] {
			seen[pos] = true
			out = append(out, Wrap{pos, what})
		}
	}
	// store records a store of x into a destination of type dst that is
	// abstracted (abstract).
	store := func(x ast.Expr, dst types.Type, abstract bool) {
		if !abstract || x == nil || dst == nil {
			return
		}
		r, ok := dst.Underlying().(*types.Range)
		if !ok || !r.Wrap {
			return
		}
		if c, ok := g.constInt(x); ok {
			if w, ok := r.WrapValue(c); ok && w == c {
				return // a constant of the type
			}
		} else if s, ok := g.info.TypeOf(x).Underlying().(*types.Range); ok && s.Lo >= r.Lo && s.Hi <= r.Hi {
			return // every value of x's type is one of dst's
		}
		add(x.Pos(), "store into "+dst.String())
	}
	lhsAbstract := func(x ast.Expr) bool { return g.absOf(x) != nil }
	param := func(callee *ast.Ident, args []ast.Expr) {
		p, _ := g.info.Uses[callee].(*types.Proc)
		for i, x := range args {
			if p != nil && i < len(p.Params) {
				store(x, p.Params[i].Type(), g.varAbs(p.Params[i]) != nil)
			}
		}
	}
	ast.Inspect(g.prog.File, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ConvExpr:
			if g.absOf(n) != nil {
				add(n.Pos(), "conversion "+n.Type.Name+"(…)")
			}
		case *ast.AssignAction:
			store(n.Rhs, g.info.TypeOf(n.Lhs), lhsAbstract(n.Lhs))
		case *ast.ChooseAction:
			for _, v := range n.Values {
				store(v, g.info.TypeOf(n.Lhs), lhsAbstract(n.Lhs))
			}
			for _, v := range []ast.Expr{n.Lo, n.Hi} {
				if v != nil {
					store(v, g.info.TypeOf(n.Lhs), lhsAbstract(n.Lhs))
				}
			}
		case *ast.CallAction:
			param(n.Func, n.Args)
			if p, ok := g.info.Uses[n.Func].(*types.Proc); ok && n.Lhs != nil && p.Result != nil && g.absOf(n.Lhs) != nil {
				if s, ok := p.Result.Underlying().(*types.Range); ok {
					if r, ok := g.info.TypeOf(n.Lhs).Underlying().(*types.Range); ok && r.Wrap && (s.Lo < r.Lo || s.Hi > r.Hi) {
						add(n.Lhs.Pos(), "store into "+g.info.TypeOf(n.Lhs).String())
					}
				} else if r, ok := g.info.TypeOf(n.Lhs).Underlying().(*types.Range); ok && r.Wrap {
					add(n.Lhs.Pos(), "store into "+g.info.TypeOf(n.Lhs).String())
				}
			}
		case *ast.StartAction:
			param(n.Thread, n.Args)
		case *ast.VarDecl:
			for _, id := range n.Names {
				if v, ok := g.info.Defs[id].(*types.Var); ok && n.Init != nil {
					store(n.Init, v.Type(), g.varAbs(v) != nil)
				}
			}
		}
		return true
	})
	for _, p := range g.prog.Functions {
		body := p.Body()
		if body == nil || p.Result == nil {
			continue
		}
		fa := g.res.Funcs[p]
		for _, l := range body.Locations {
			for _, t := range l.Transformations {
				if t.Return && t.Result != nil {
					store(t.Result, p.Result, fa != nil && !fa.Identity)
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	return out
}
