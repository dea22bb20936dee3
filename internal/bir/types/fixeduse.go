package types

import (
	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/source"
)

// FixedWidthUse returns the first place, in source order, where prog uses
// what BIR added for C (docs/bir.md §5.12, §14): a fixed-width integer
// type (in any type written, directly or as an element), a conversion or
// a bitwise operator, with a description ("fixed-width type int8",
// "conversion int32(…)", "bitwise operator &"). It returns NoPos and ""
// when there is none. A translation that does not implement their
// semantics (wrapping stores, modulo-2^64 arithmetic) refuses prog with it.
func FixedWidthUse(prog *Program) (source.Pos, string) {
	if prog == nil || prog.File == nil {
		return source.NoPos, ""
	}
	pos, what := source.NoPos, ""
	found := func(p source.Pos, w string) {
		if !pos.IsValid() || p < pos {
			pos, what = p, w
		}
	}
	ast.Inspect(prog.File, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ConvExpr:
			found(n.Pos(), "conversion "+n.Type.Name+"(…)")
		case *ast.UnaryExpr:
			if n.Op == token.TILDE {
				found(n.OpPos, "bitwise operator ~")
			}
		case *ast.BinaryExpr:
			switch n.Op {
			case token.AND, token.OR, token.XOR, token.SHL, token.SHR:
				found(n.OpPos, "bitwise operator "+n.Op.String())
			}
		}
		if te, ok := n.(ast.TypeExpr); ok {
			if t, ok := prog.Info.TypeExprs[te]; ok {
				if f := fixedIn(t, 0); f != nil {
					found(te.Pos(), "fixed-width type "+f.String())
				}
			}
		}
		return true
	})
	return pos, what
}

// fixedIn returns the fixed-width type t is or holds (as an array element
// or a record field), or nil.
func fixedIn(t Type, depth int) *Range {
	if t == nil || depth > 100 {
		return nil
	}
	switch u := t.Underlying().(type) {
	case *Range:
		if u.Wrap {
			return u
		}
	case *Array:
		return fixedIn(u.Elem, depth+1)
	case *Record:
		for _, f := range u.Fields {
			if r := fixedIn(f.Type(), depth+1); r != nil {
				return r
			}
		}
	}
	return nil
}
