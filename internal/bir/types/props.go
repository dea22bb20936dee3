package types

import (
	"birch/internal/bir/ast"
	"birch/internal/bir/token"
)

func (c *checker) resolvePredicate(p *Predicate) {
	switch p.state {
	case resolved:
		return
	case resolving:
		return // reported where the cycle closes (see ident)
	}
	p.state = resolving
	c.boolExpr(p.Decl.Expr, &exprCtx{scope: c.global, props: true}, "predicate "+p.name)
	p.state = resolved
}

func (c *checker) properties(sys *ast.System) {
	if sys.Properties == nil {
		return
	}
	names := newScope(nil)
	for _, d := range sys.Properties.Properties {
		p := &Property{object: object{name: d.Name.Name, pos: d.Name.Pos(), typ: Typ[Bool]}, LTL: d.Kind == token.LTL, Decl: d}
		c.declare(names, d.Name, p)
		c.prog.Properties = append(c.prog.Properties, p)
		ctx := &exprCtx{scope: c.global, props: true, ltl: p.LTL}
		what := "invariant " + p.name
		if p.LTL {
			what = "ltl formula " + p.name
		}
		c.boolExpr(d.Expr, ctx, what)
	}
}

// threadInstance resolves the thread and instance of a location test or a
// remote reference.
func (c *checker) threadInstance(thread *ast.Ident, inst ast.Expr, ctx *exprCtx, form string) *Proc {
	if !ctx.props {
		c.errorf(thread.Pos(), "%s may be used only in predicates and properties", form)
		return nil
	}
	obj := c.procs.Lookup(thread.Name)
	if obj == nil {
		if c.global.Lookup(thread.Name) != nil {
			c.errorf(thread.Pos(), "%s is not a thread", thread.Name)
		} else {
			c.errorf(thread.Pos(), "undefined thread %s", thread.Name)
		}
		return nil
	}
	c.info.Uses[thread] = obj
	p, ok := obj.(*Proc)
	if !ok || !p.Thread {
		c.errorf(thread.Pos(), "%s is not a thread", thread.Name)
		return nil
	}
	if inst != nil {
		op := c.expr(inst, &exprCtx{scope: c.global, props: true})
		if op.mode != invalid && !isKind(op.typ, Tid) && !isKind(op.typ, UntypedNull) {
			c.errorf(inst.Pos(), "thread instance must be a tid or null, not %s", op.typ)
		}
	} else if !p.Main || p.Started {
		why := "it is not a main thread"
		if p.Main {
			why = "it is started by a start action"
		}
		c.errorf(thread.Pos(), "%s has no single instance (%s): name the instance, as in %s[t]", thread.Name, why, thread.Name)
	}
	return p
}

func (c *checker) locationTest(x *ast.LocationTest, ctx *exprCtx) operand {
	p := c.threadInstance(x.Thread, x.Instance, ctx, "a thread location test")
	if p == nil {
		return invalidOp
	}
	loc := p.Location(x.Loc.Name)
	if loc == nil {
		c.errorf(x.Loc.Pos(), "thread %s has no location %s", p.name, x.Loc.Name)
		return invalidOp
	}
	c.info.Uses[x.Loc] = loc
	return operand{mode: value, typ: Typ[Bool]}
}

func (c *checker) remoteRef(x *ast.RemoteRef, ctx *exprCtx) operand {
	p := c.threadInstance(x.Thread, x.Instance, ctx, "a remote reference")
	if p == nil {
		return invalidOp
	}
	if x.Instance != nil && c.info.Types[x.Instance].Value.Kind == NullConst {
		// T[null] @ loc asks whether some instance is at loc; a local
		// of "some instance" has no single value.
		c.errorf(x.Instance.Pos(), "a remote reference needs one thread instance: null is allowed only in location tests, as in %s[null] @ loc", p.name)
		return invalidOp
	}
	op := c.expr(x.X, &exprCtx{scope: p.scope, proc: p, props: true})
	if op.mode == invalid {
		return invalidOp
	}
	return operand{mode: value, typ: op.typ}
}
