package c

import (
	"fmt"

	"modernc.org/cc/v4"
)

// A direct object is a local array or struct that the function uses only
// through its elements and fields (every use of its name is the base of a
// chain of [] and . that ends in a scalar not under &, or is under
// sizeof): nothing can point into it, so it needs no object of the heap
// and is held by a local value array of its cells, `a : array [n] of
// int64`, made anew at each call without filling the heap.

func (v *variable) birType() string {
	if v.bt != "" {
		return v.bt
	}
	return v.t.bir()
}

// isDirect tells whether a local object is direct.
func (fl *fnLowerer) isDirect(dr *cc.Declarator) bool {
	t := dr.Type()
	if dr.IsStatic() || dr.AddressTaken() || isMutexType(t) || t.Kind() != cc.Array && t.Kind() != cc.Struct {
		return false
	}
	m := fl.memState()
	if m.parent == nil {
		m.parent = map[cc.Node]cc.Node{}
		var visit func(n cc.Node)
		visit = func(n cc.Node) {
			walkUntil(n, func(c cc.Node) bool {
				if c == n {
					return true
				}
				m.parent[c] = n
				visit(c)
				return false
			})
		}
		visit(fl.fn.def.CompoundStatement)
	}
	direct := true
	walk(fl.fn.def.CompoundStatement, func(n cc.Node) {
		if p, ok := n.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent && p.ResolvedTo() == dr {
			direct = direct && fl.directUse(p)
		}
	})
	return direct
}

// directUse tells whether a use of a local object's name reaches a scalar
// through [] and . only, or is under sizeof.
func (fl *fnLowerer) directUse(id *cc.PrimaryExpression) bool {
	parent := fl.mem.parent
	var cur cc.Node = id
	for {
		x, ok := parent[cur].(*cc.PostfixExpression)
		if !ok {
			break
		}
		if x.Case == cc.PostfixExpressionPrimary ||
			(x.Case == cc.PostfixExpressionIndex || x.Case == cc.PostfixExpressionSelect) && cc.Node(x.PostfixExpression) == cur {
			cur = x
			continue
		}
		break
	}
	e, ok := cur.(cc.ExpressionNode)
	if !ok {
		return false
	}
	scalar := false
	if t := exprType(e); t != nil {
		_, scalar = fl.l.scalarOf(t)
		scalar = scalar && t.Kind() != cc.Array
	}
	// the operators around the chain: & takes its address, sizeof only
	// its size
	for up := parent[cur]; up != nil; up = parent[up] {
		switch x := up.(type) {
		case *cc.UnaryExpression:
			switch x.Case {
			case cc.UnaryExpressionPostfix:
				continue
			case cc.UnaryExpressionSizeofExpr, cc.UnaryExpressionAlignofExpr:
				return true
			case cc.UnaryExpressionAddrof:
				return false
			}
		case *cc.CastExpression:
			if x.Case == cc.CastExpressionUnary {
				continue
			}
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionExpr {
				continue
			}
		case *cc.ExpressionList:
			continue
		}
		break
	}
	return scalar
}

// declareDirect declares a direct object of n cells and initialises it.
func (fl *fnLowerer) declareDirect(dr *cc.Declarator, init *cc.Initializer, n int) {
	t := dr.Type()
	v := &variable{name: uniqueName(dr.Name(), fl.names), t: tPtr, bt: fmt.Sprintf("array [%d] of int64", n)}
	fl.locals = append(fl.locals, v)
	fl.memState().direct[dr] = v.name
	fl.stmtStart(dr)
	loc := memLoc{arr: v.name, t: t, whole: true}
	switch {
	case init == nil:
		for i := 0; i < n; i++ {
			fl.b.act("%s[%d] := %s;", v.name, i, poison)
		}
	case init.Case == cc.InitializerExpr && t.Kind() == cc.Struct:
		fl.copyObject(loc, init.AssignmentExpression, n)
	default:
		for i := 0; i < n; i++ {
			fl.b.act("%s[%d] := 0;", v.name, i)
		}
		fl.l.initLeaves(init, t, init.Offset(), func(at cc.Node, cell int, lt cc.Type, e cc.ExpressionNode) {
			c := loc
			c.k = int64(cell)
			fl.writeScalar(c, lt, e)
		})
	}
}
