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

// A struct parameter is passed by value as the values of its cells, one
// BIR parameter each (name$0, name$1, …); the callee copies them into
// the parameter's object (direct, or of the heap when its address
// matters) at its start.
type structParam struct {
	dr     *cc.Declarator
	name   string
	params []string
	t      cc.Type
}

// structParam declares the BIR parameters of a struct parameter.
func (fl *fnLowerer) structParam(p *cc.Parameter, name string) {
	n, ok := fl.l.cellsOf(p, p.Type())
	if !ok || p.Declarator == nil {
		return
	}
	sp := structParam{dr: p.Declarator, name: uniqueName(name, fl.names), t: p.Type()}
	for i := 0; i < n; i++ {
		v := &variable{name: uniqueName(fmt.Sprintf("%s$%d", name, i), fl.names), t: tPtr}
		fl.params = append(fl.params, v)
		sp.params = append(sp.params, v.name)
	}
	m := fl.memState()
	m.structParams = append(m.structParams, sp)
}

// structParamsIn copies the struct parameters into their objects.
func (fl *fnLowerer) structParamsIn() {
	if fl.mem == nil {
		return
	}
	for _, sp := range fl.mem.structParams {
		n := len(sp.params)
		if fl.isDirect(sp.dr) {
			v := &variable{name: sp.name, t: tPtr, bt: fmt.Sprintf("array [%d] of int64", n)}
			fl.locals = append(fl.locals, v)
			fl.mem.direct[sp.dr] = v.name
			for i, p := range sp.params {
				fl.b.act("%s[%d] := %s;", v.name, i, p)
			}
			continue
		}
		id := fl.localObject(sp.dr, sp.name, n)
		fl.alloc(id.name, fmt.Sprint(n), sp.t, false)
		for i, p := range sp.params {
			fl.b.act("$mem[%s][%d] := %s;", id.name, i, p)
		}
	}
}

// structArg is the values of the cells of a struct argument, as they are
// (an indeterminate cell is copied, not read).
func (fl *fnLowerer) structArg(a cc.ExpressionNode, t cc.Type) []string {
	n, ok := fl.l.cellsOf(a, t)
	if !ok {
		return nil
	}
	loc, ok := fl.memLoc(a)
	if !ok {
		return nil
	}
	loc = fl.stableLoc(loc)
	var cells []string
	for i := 0; i < n; i++ {
		c := loc
		c.k += int64(i)
		v := fl.temp(tPtr)
		if c.arr == "" {
			fl.shared()
		}
		fl.b.act("%s := %s;", v.name, c.cell())
		cells = append(cells, v.name)
	}
	return cells
}
