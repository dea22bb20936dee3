package c2bp

import (
	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
)

// maxConcreteRange is the largest number of values of a range type whose
// variables stay concrete.
const maxConcreteRange = 256

// abstractType reports whether data of type t are abstracted by their
// type: int, a range of more than 256 values, and a value array of them.
func abstractType(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind == types.Int
	case *types.Range:
		return u.Span() >= maxConcreteRange
	case *types.Array:
		return abstractType(u.Elem)
	}
	return false
}

// heapAbstract reports whether t is a reference to heap arrays whose
// elements are abstracted: the reference is abstracted with them.
func heapAbstract(t types.Type) bool {
	r, ok := t.Underlying().(*types.Ref)
	return ok && r.Target != nil && abstractType(r.Target)
}

// isRefOrArray reports whether a variable of type t is a reference or a
// value array: the kinds the closure abstracts when they are assigned
// abstracted data.
func isRefOrArray(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Ref, *types.Array:
		return true
	}
	return false
}

// classify computes the abstracted data: variables of abstracted types,
// the fresh variables of choices, the references and fields the predicates
// mention, and the closure: a reference or array variable (or field)
// assigned an expression that reads abstracted data, and a field read or
// written through an abstracted reference.
func (a *abstractor) classify() {
	q := a.q.prog
	mark := func(v *types.Var) bool {
		if v == nil || a.absVar[v] {
			return false
		}
		if v.Kind == types.FieldVar {
			if a.absField[v.Name()] {
				return false
			}
			a.absField[v.Name()] = true
			return true
		}
		a.absVar[v] = true
		return true
	}
	for _, v := range q.Globals {
		if abstractType(v.Type()) || heapAbstract(v.Type()) {
			mark(v)
		}
	}
	for _, id := range a.q.fresh {
		mark(q.Info.Uses[id].(*types.Var))
	}
	for _, p := range append(append([]*types.Proc(nil), q.Threads...), q.Functions...) {
		for _, v := range p.Vars() {
			if abstractType(v.Type()) || heapAbstract(v.Type()) {
				mark(v)
			}
		}
	}
	for _, tn := range q.Types {
		if n := tn.Named(); n != nil {
			if r, ok := n.Underlying().(*types.Record); ok {
				for _, f := range r.Fields {
					if abstractType(f.Type()) || heapAbstract(f.Type()) {
						mark(f)
					}
				}
			}
		}
	}
	for _, p := range a.preds {
		if p.q == nil {
			continue
		}
		ast.Inspect(p.q.Expr, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if v, ok := q.Info.Uses[n].(*types.Var); ok && v.Kind != types.FieldVar && isRefOrArray(v.Type()) {
					mark(v)
				}
			case *ast.SelectorExpr:
				if v, ok := q.Info.Uses[n.Sel].(*types.Var); ok && isRefOrArray(v.Type()) {
					mark(v)
				}
			}
			return true
		})
	}
	// the closure, to a fixed point
	for changed := true; changed; {
		changed = false
		assign := func(lhs ast.Expr, reads bool) {
			if !reads {
				return
			}
			switch l := ast.Unparen(lhs).(type) {
			case *ast.Ident:
				if v, ok := q.Info.Uses[l].(*types.Var); ok && isRefOrArray(v.Type()) && mark(v) {
					changed = true
				}
			case *ast.SelectorExpr:
				if v, ok := q.Info.Uses[l.Sel].(*types.Var); ok && isRefOrArray(v.Type()) && mark(v) {
					changed = true
				}
			}
		}
		ast.Inspect(q.File.System, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if a.readsAbs(n.X) {
					if v, ok := q.Info.Uses[n.Sel].(*types.Var); ok && mark(v) {
						changed = true
					}
				}
			case *ast.AssignAction:
				assign(n.Lhs, a.readsAbs(n.Rhs))
			case *ast.ChooseAction:
				reads := false
				for _, v := range n.Values {
					reads = reads || a.readsAbs(v)
				}
				assign(n.Lhs, reads)
			case *ast.StartAction:
				a.argsFlow(n.Thread, n.Args, &changed, mark)
			case *ast.CallAction:
				a.argsFlow(n.Func, n.Args, &changed, mark)
			}
			return true
		})
	}
}

// argsFlow abstracts the reference and array parameters that receive
// abstracted data.
func (a *abstractor) argsFlow(callee *ast.Ident, args []ast.Expr, changed *bool, mark func(*types.Var) bool) {
	p, _ := a.q.prog.Procs.LookupLocal(callee.Name).(*types.Proc)
	if p == nil {
		return
	}
	for i, x := range args {
		if i < len(p.Params) && isRefOrArray(p.Params[i].Type()) && a.readsAbs(x) && mark(p.Params[i]) {
			*changed = true
		}
	}
}

// isAbs reports whether a variable (or a field, by name) is abstracted.
func (a *abstractor) isAbs(v *types.Var) bool {
	if v.Kind == types.FieldVar {
		return a.absField[v.Name()]
	}
	return a.absVar[v]
}

// readsAbs reports whether x reads abstracted data.
func (a *abstractor) readsAbs(x ast.Expr) bool {
	if x == nil {
		return false
	}
	info := a.q.prog.Info
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident:
			if v, ok := info.Uses[n].(*types.Var); ok && a.isAbs(v) {
				found = true
			}
		case *ast.SelectorExpr:
			if v, ok := info.Uses[n.Sel].(*types.Var); ok && a.isAbs(v) {
				found = true
			}
		case *ast.Transformation:
			return false
		}
		return !found
	})
	return found
}

// isConst reports whether x is a constant expression.
func (a *abstractor) isConst(x ast.Expr) bool {
	return a.q.prog.Info.Types[x].Value.Kind != types.NoConst
}

// risky reports whether evaluating x may raise a runtime error or needs
// arithmetic: such concrete parts are not copied into the formulas the
// abstract model evaluates early (they go to the solver, and their errors
// become abstract assertions).
func (a *abstractor) risky(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if found {
			return false
		}
		if e, ok := n.(ast.Expr); ok && a.isConst(e) {
			return false
		}
		switch n := n.(type) {
		case *ast.BinaryExpr:
			switch n.Op {
			case token.ADD, token.SUB, token.MUL, token.QUO, token.REM,
				token.AND, token.OR, token.XOR, token.SHL, token.SHR:
				found = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.SUB || n.Op == token.TILDE {
				found = true
			}
		case *ast.ConvExpr:
			found = true
		case *ast.IndexExpr, *ast.SelectorExpr, *ast.LengthExpr:
			found = true
		}
		return !found
	})
	return found
}

// needsSolver reports whether a boolean expression goes to the cube
// queries (it reads abstracted data or may fail) rather than into the
// abstract model as written.
func (a *abstractor) needsSolver(x ast.Expr) bool {
	return a.readsAbs(x) || a.risky(x)
}
