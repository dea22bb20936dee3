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
	c := &checker{
		conf:          &Config{},
		fset:          fset,
		info:          p.Info,
		prog:          p,
		global:        p.Scope,
		procs:         p.Procs,
		inits:         map[*ast.VarDecl]ConstValue{},
		typesResolved: true,
	}
	ctx := &exprCtx{scope: p.Scope, props: props}
	if proc != nil && proc.scope != nil {
		ctx.scope, ctx.proc = proc.scope, proc
	}
	op := c.expr(x, ctx)
	c.errors.Sort()
	if err := c.errors.Err(); err != nil || op.mode == invalid {
		return nil, err
	}
	return op.typ, nil
}
