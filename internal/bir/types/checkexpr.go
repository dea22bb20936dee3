package types

import (
	"birch/internal/bir/ast"
	"birch/internal/source"
)

// CheckExpr type-checks x, an expression parsed after p was checked (a line
// of a predicate file, say), in the scope of proc — its parameters and
// locals, then the globals — or, when proc is nil, of the globals only. With
// props set, the forms of predicates and properties (->, <->, T @ loc,
// T : x) are allowed, as in the predicates section. fset resolves x's
// positions. The types and uses found are added to p.Info, as for the
// model's own expressions. It returns x's type (nil after an error) and a
// sorted source.ErrorList, or nil.
func (p *Program) CheckExpr(fset *source.FileSet, x ast.Expr, proc *Proc, props bool) (Type, error) {
	c := p.exprChecker(fset)
	ctx := &exprCtx{scope: p.Scope, props: props}
	if proc != nil && proc.scope != nil {
		ctx.scope, ctx.proc = proc.scope, proc
	}
	return c.checkExpr(x, ctx)
}

// NewThis returns a new variable `this` of kind ThisVar whose type is
// `ref t` (every collection of t and of its subtypes): the object a record
// context of a predicate file, `[record t]`, describes. t must be a named
// record type of p. The variable belongs to no scope of p: CheckExprThis
// checks an expression that may read it.
func (p *Program) NewThis(t *Named, pos source.Pos) *Var {
	ref := &Ref{Target: t, All: true}
	for _, col := range p.Collections {
		if col.Elem != nil && IsSubtype(col.Elem, t) {
			ref.Collections = append(ref.Collections, col)
		}
	}
	return &Var{object: object{name: "this", pos: pos, typ: ref}, Kind: ThisVar}
}

// CheckExprThis is CheckExpr in the scope of this (a variable NewThis
// made), then the globals: the scope of a `[record T]` predicate.
func (p *Program) CheckExprThis(fset *source.FileSet, x ast.Expr, this *Var, props bool) (Type, error) {
	c := p.exprChecker(fset)
	scope := newScope(p.Scope)
	scope.insert(this)
	return c.checkExpr(x, &exprCtx{scope: scope, props: props})
}

func (c *checker) checkExpr(x ast.Expr, ctx *exprCtx) (Type, error) {
	op := c.expr(x, ctx)
	c.errors.Sort()
	if err := c.errors.Err(); err != nil || op.mode == invalid {
		return nil, err
	}
	return op.typ, nil
}

// exprChecker returns a checker of expressions parsed after p was checked.
func (p *Program) exprChecker(fset *source.FileSet) *checker {
	return &checker{
		conf:          &Config{},
		fset:          fset,
		info:          p.Info,
		prog:          p,
		global:        p.Scope,
		procs:         p.Procs,
		inits:         map[*ast.VarDecl]ConstValue{},
		typesResolved: true,
	}
}
