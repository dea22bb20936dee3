package types

import (
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/token"
)

// exprString renders an expression compactly for diagnostics.
func exprString(x ast.Expr) string {
	var b strings.Builder
	writeExpr(&b, x, 0)
	return b.String()
}

func writeExpr(b *strings.Builder, x ast.Expr, depth int) {
	if depth > 20 {
		b.WriteString("…")
		return
	}
	switch x := x.(type) {
	case *ast.Ident:
		b.WriteString(x.Name)
	case *ast.BasicLit:
		b.WriteString(x.Value)
	case *ast.ParenExpr:
		b.WriteByte('(')
		writeExpr(b, x.X, depth+1)
		b.WriteByte(')')
	case *ast.UnaryExpr:
		b.WriteString(x.Op.String())
		if x.Op == token.ALWAYS || x.Op == token.EVENTUAL || x.Op == token.NEXT {
			b.WriteByte(' ')
		}
		writeExpr(b, x.X, depth+1)
	case *ast.BinaryExpr:
		writeExpr(b, x.X, depth+1)
		b.WriteString(" " + x.Op.String() + " ")
		writeExpr(b, x.Y, depth+1)
	case *ast.ConvExpr:
		b.WriteString(x.Type.Name + "(")
		writeExpr(b, x.X, depth+1)
		b.WriteByte(')')
	case *ast.SelectorExpr:
		writeExpr(b, x.X, depth+1)
		b.WriteString("." + x.Sel.Name)
	case *ast.LengthExpr:
		writeExpr(b, x.X, depth+1)
		b.WriteString(".length")
	case *ast.IndexExpr:
		writeExpr(b, x.X, depth+1)
		b.WriteByte('[')
		writeExpr(b, x.Index, depth+1)
		b.WriteByte(']')
	case *ast.InstanceofExpr:
		writeExpr(b, x.X, depth+1)
		b.WriteString(" instanceof " + x.Type.Name)
	case *ast.BuiltinExpr:
		b.WriteString(x.Op.String() + "(")
		writeExpr(b, x.X, depth+1)
		b.WriteByte(')')
	case *ast.LocationTest:
		b.WriteString(x.Thread.Name)
		if x.Instance != nil {
			b.WriteByte('[')
			writeExpr(b, x.Instance, depth+1)
			b.WriteByte(']')
		}
		b.WriteString(" @ " + x.Loc.Name)
	case *ast.RemoteRef:
		b.WriteString(x.Thread.Name)
		if x.Instance != nil {
			b.WriteByte('[')
			writeExpr(b, x.Instance, depth+1)
			b.WriteByte(']')
		}
		b.WriteString(" : ")
		writeExpr(b, x.X, depth+1)
	default:
		b.WriteString("?")
	}
}
