package absgen

import (
	"strconv"
	"strings"

	"birch/internal/abstraction/data"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
)

// exactTest recognizes a comparison whose only abstract operand is one
// abstract variable, field or element (leaf), read any number of times,
// combined with integer constants by + - * / %: such a test is decided
// exactly, token by token, with the decision procedure (data.Decide), not
// by composing tables. It returns the leaf, its abstraction and the test
// as a condition over n.
func (g *gen) exactTest(x *ast.BinaryExpr) (leaf ast.Expr, a *data.Abstraction, cond string, ok bool) {
	return g.linearTest(x, false)
}

// linearTest is exactTest; with concreteOK the leaf may be a concrete
// variable (a is then nil).
func (g *gen) linearTest(x *ast.BinaryExpr, concreteOK bool) (leaf ast.Expr, a *data.Abstraction, cond string, ok bool) {
	if !isTest(x.Op) {
		return nil, nil, "", false
	}
	return g.linear(x, concreteOK)
}

// linear prints x as a condition or term over n, its one leaf.
func (g *gen) linear(x ast.Expr, concreteOK bool) (leaf ast.Expr, a *data.Abstraction, out string, ok bool) {
	var text string
	var walk func(e ast.Expr) (string, bool)
	walk = func(e ast.Expr) (string, bool) {
		if c, ok := g.constInt(e); ok {
			if c < 0 {
				return "(0 - " + strconv.FormatInt(-c, 10) + ")", c > -1<<62
			}
			return strconv.FormatInt(c, 10), true
		}
		switch y := e.(type) {
		case *ast.ParenExpr:
			s, ok := walk(y.X)
			return "(" + s + ")", ok
		case *ast.ConvExpr:
			if g.absOf(y) == nil {
				return "", false // a concrete conversion wraps: not linear
			}
			return walk(y.X) // the mathematical value (Output.Wraps)
		case *ast.UnaryExpr:
			s, ok := walk(y.X)
			switch y.Op {
			case token.SUB:
				return "(0 - " + s + ")", ok
			case token.ADD:
				return s, ok
			}
			return "", false
		case *ast.BinaryExpr:
			if !isArith(y.Op) && !isTest(y.Op) {
				return "", false
			}
			if y.Op == token.QUO || y.Op == token.REM {
				if c, ok := g.constInt(y.Y); !ok || c == 0 {
					return "", false // division by zero is not a condition
				}
			}
			l, ok1 := walk(y.X)
			r, ok2 := walk(y.Y)
			return "(" + l + " " + y.Op.String() + " " + r + ")", ok1 && ok2
		case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.RemoteRef:
			if r, ok := y.(*ast.RemoteRef); ok && r.Instance != nil {
				return "", false
			}
			if id, ok := y.(*ast.Ident); ok {
				if _, isVar := g.info.Uses[id].(*types.Var); !isVar {
					return "", false
				}
			}
			b := g.absOf(y)
			if !types.IsInteger(g.info.TypeOf(y)) || b == nil && !concreteOK {
				return "", false
			}
			t := format.Expr(y)
			if leaf == nil {
				leaf, a, text = y, b, t
			} else if t != text || b != a {
				return "", false
			}
			return "n", true
		}
		return "", false
	}
	s, ok := walk(x)
	if !ok || leaf == nil {
		return nil, nil, "", false
	}
	return leaf, a, s, true
}

// linearExpr recognizes an integer operation whose only abstract operand
// is one abstract variable, field or element, combined with constants by
// + - * and / and % by constants: its image is computed exactly with the
// decision procedure (x - 1 of POS is {ZERO, POS}, where the table of - on
// POS and the coerced constant gives all three signs).
func (g *gen) linearExpr(x ast.Expr) (leaf ast.Expr, a *data.Abstraction, text string, ok bool) {
	y, isBin := ast.Unparen(x).(*ast.BinaryExpr)
	u, isUn := ast.Unparen(x).(*ast.UnaryExpr)
	if !(isBin && isArith(y.Op) || isUn && u.Op == token.SUB) {
		return nil, nil, "", false
	}
	return g.linear(x, false)
}

// image returns the tokens of abstraction to that the expression text (over
// n) may have for the integers n of token k of from.
func (g *gen) image(from *data.Abstraction, text string, k int, to *data.Abstraction) data.Set {
	if len(to.Tokens) == 1 {
		return 1
	}
	var out data.Set
	for t := range to.Tokens {
		var conds []string
		ok := true
		for i, r := range to.Rules {
			if r.Token != t {
				continue
			}
			c := g.ruleCond(to, i)
			if c == nil {
				ok = false
				break
			}
			conds = append(conds, substitute(c, to.Param, "("+text+")"))
		}
		if !ok || len(conds) == 0 || g.decide(from, strings.Join(conds, " || "), k).Has(true) {
			out = out.With(t)
		}
	}
	return out
}

type decideKey struct {
	a    *data.Abstraction
	cond string
	k    int
}

// decide returns the outcomes of cond for token k of a; Both when the
// condition cannot be decided.
func (g *gen) decide(a *data.Abstraction, cond string, k int) data.Outcomes {
	key := decideKey{a, cond, k}
	if o, ok := g.decided[key]; ok {
		return o
	}
	o, err := a.Decide(k, cond, g.cfg.Data)
	if err != nil {
		o = data.Both
	}
	g.decided[key] = o
	return o
}
