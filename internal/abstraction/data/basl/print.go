package basl

import (
	"strings"
)

// precedence of binary operators, higher binds tighter (Java's).
func precedence(k Kind) int {
	switch k {
	case OR:
		return 1
	case AND:
		return 2
	case EQL, NEQ:
		return 3
	case LSS, LEQ, GTR, GEQ:
		return 4
	case ADD, SUB:
		return 5
	case MUL, QUO, REM:
		return 6
	}
	return 0
}

// ExprString prints an expression in BASL syntax, with the parentheses the
// source had and no others.
func ExprString(x Expr) string {
	var b strings.Builder
	printExpr(&b, x)
	return b.String()
}

func printExpr(b *strings.Builder, x Expr) {
	switch x := x.(type) {
	case *Name:
		b.WriteString(x.Name)
	case *IntLit:
		b.WriteString(x.Lit)
	case *BoolLit:
		if x.Value {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case *Unary:
		b.WriteString(x.Op.String())
		printExpr(b, x.X)
	case *Binary:
		printExpr(b, x.X)
		b.WriteString(" " + x.Op.String() + " ")
		printExpr(b, x.Y)
	case *Paren:
		b.WriteString("(")
		printExpr(b, x.X)
		b.WriteString(")")
	case *Bad:
		b.WriteString("BAD")
	}
}
