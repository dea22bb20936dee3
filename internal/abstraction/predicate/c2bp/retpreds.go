package c2bp

import (
	"fmt"
	"slices"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// retSlot is a return predicate: a caller's predicate φ over the variable x
// that a call `x := call f(…)` assigns and over caller locals y_i passed as
// the whole argument of a parameter p_i that f never changes (formal[y_i]).
// Every return of f writes φ[y_i := p_i][x := e] (e the returned
// expression), decided over f's state, into the global boolean name; the
// step added at the call's return target reads it into φ's boolean and
// resets it.
type retSlot struct {
	p      *pred
	x      *types.Var
	formal map[*types.Var]*types.Var
	name   string
}

// retSlots finds the return predicates of a model of one thread instance:
// per call transformation, the predicates it passes back (by the
// predicate), and per function, all of its slots (each return writes
// them all). In a model of several threads another thread could run
// between the return and the read, so there are none.
func (a *abstractor) retSlots() {
	a.slotsAt = map[*ast.Transformation]map[*pred]*retSlot{}
	a.slotsOf = map[*types.Proc][]*retSlot{}
	if !a.oneThread {
		return
	}
	info := a.q.prog.Info
	n := 0
	for _, proc := range slices.Concat(a.q.prog.Threads, a.q.prog.Functions) {
		for _, l := range proc.Locations {
			for _, qt := range l.Decl.Transformations {
				k := len(qt.Actions)
				if k == 0 || qt.Return {
					continue
				}
				c, ok := qt.Actions[k-1].(*ast.CallAction)
				if !ok || c.Lhs == nil {
					continue
				}
				callee, _ := a.q.prog.Procs.LookupLocal(c.Func.Name).(*types.Proc)
				id, isID := ast.Unparen(c.Lhs).(*ast.Ident)
				if callee == nil || callee.Thread || callee.Result == nil || !abstractType(callee.Result) || !isID {
					continue
				}
				x, _ := info.Uses[id].(*types.Var)
				if x == nil || !a.isAbs(x) {
					continue
				}
				if target := proc.Location(qt.Target.Name); target == nil || slices.Contains(target.Dead(), x) {
					continue // reset on arrival: not the result
				}
				formal := a.formals(proc, qt, c, callee, x)
			preds:
				for _, p := range a.preds {
					if !p.vars[x] || !a.visible(p, proc) {
						continue
					}
					for v := range p.vars {
						if vv, ok := v.(*types.Var); !ok || vv != x && formal[vv] == nil {
							continue preds
						}
					}
					n++
					s := &retSlot{p: p, x: x, formal: formal, name: fmt.Sprintf("%sret_%s_%d", a.prefix, callee.Name(), n)}
					if a.slotsAt[qt] == nil {
						a.slotsAt[qt] = map[*pred]*retSlot{}
					}
					a.slotsAt[qt][p] = s
					a.slotsOf[callee] = append(a.slotsOf[callee], s)
				}
			}
		}
	}
}

// retValues writes, in a returning step of f, each return predicate of f
// decided over the state before the step: φ with the result for x, after
// the step's actions (prefix), under its guard.
func (a *abstractor) retValues(t *absTrans, proc *types.Proc, w *predicate.WP, prefix []ast.Action,
	temp func(string) string, choice func() string) {
	for _, s := range a.slotsOf[proc] {
		if t.qt.Result == nil {
			t.post = append(t.post, step{text: s.name + " := " + choice() + ";"})
			continue
		}
		{
			id := a.identOf(s.x, t.qt.Result.Pos())
			acts := append(append([]ast.Action(nil), prefix...), &ast.AssignAction{Lhs: id, Rhs: a.resultValue(proc, t.qt.Result)})
			// the caller's y_i are f's p_i: applied to φ before x := e
			// (the weakest preconditions go from the last action), so
			// that e's variables are not renamed
			for y, p := range s.formal {
				if y != p && s.p.vars[y] {
					acts = append(acts, &ast.AssignAction{Lhs: a.identOf(y, t.qt.Result.Pos()), Rhs: a.identOf(p, t.qt.Result.Pos())})
				}
			}
			lt, lf := "false", "false"
			if y, err := a.pre(w, acts, s.p.q.Expr, false); err == nil {
				lt = a.low(a.ifGuard(t, y), proc)
			}
			if y, err := a.pre(w, acts, a.mkNot(s.p.q.Expr), false); err == nil {
				lf = a.low(a.ifGuard(t, y), proc)
			}
			t.post = append(t.post, step{text: s.name + " := " + temp(choose(lt, lf, choice)) + ";"})
		}
	}
}

// resultValue is the value f's return of e gives the caller: e, or its
// conversion to f's result type when that is a fixed-width type (the
// return wraps it).
func (a *abstractor) resultValue(f *types.Proc, e ast.Expr) ast.Expr {
	r, ok := f.Result.Underlying().(*types.Range)
	if !ok || !r.Wrap {
		return e
	}
	conv := &ast.ConvExpr{Type: &ast.Ident{NamePos: e.Pos(), Name: r.String()}, Lparen: e.Pos(), X: e, Rparen: e.End()}
	a.q.prog.Info.Types[conv] = types.TypeAndValue{Type: f.Result}
	return conv
}

// identOf is an identifier of the query program naming v.
func (a *abstractor) identOf(v *types.Var, pos source.Pos) *ast.Ident {
	id := &ast.Ident{NamePos: pos, Name: v.Name()}
	a.q.prog.Info.Uses[id] = v
	a.q.prog.Info.Types[id] = types.TypeAndValue{Type: v.Type()}
	return id
}

// formals maps the caller's locals y that a call qt (c, of callee,
// assigning x) passes as the whole argument of a parameter p of the callee
// to p, where the value of y after the return is that of p when the callee
// returns: y is not x, is a local or parameter of the caller, live at the
// call's target (the frame of the caller keeps it), and the callee never
// changes p (no action of it writes p, and every location of it keeps p
// live). A map to p from two y, or a p that is another mapped y (a
// recursive call that permutes its parameters), is left out, so that the
// renamings are one simultaneous substitution.
func (a *abstractor) formals(proc *types.Proc, qt *ast.Transformation, c *ast.CallAction, callee *types.Proc, x *types.Var) map[*types.Var]*types.Var {
	info := a.q.prog.Info
	changed := map[*types.Var]bool{}
	for _, l := range callee.Locations {
		for _, v := range l.Dead() {
			changed[v] = true
		}
		for _, t := range l.Decl.Transformations {
			for _, act := range t.Actions {
				var lhs ast.Expr
				switch x := act.(type) {
				case *ast.AssignAction:
					lhs = x.Lhs
				case *ast.ChooseAction:
					lhs = x.Lhs
				case *ast.NewAction:
					lhs = x.Lhs
				case *ast.ForallAction:
					lhs = x.Lhs
				case *ast.ReachableAction:
					lhs = x.Lhs
				case *ast.CallAction:
					lhs = x.Lhs
				}
				if lhs == nil {
					continue
				}
				ast.Inspect(lhs, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						if v, ok := info.Uses[id].(*types.Var); ok {
							changed[v] = true
						}
					}
					return true
				})
			}
		}
	}
	var dead []*types.Var
	if target := proc.Location(qt.Target.Name); target != nil {
		dead = target.Dead()
	}
	formal := map[*types.Var]*types.Var{}
	used := map[*types.Var]int{}
	for i, arg := range c.Args {
		if i >= len(callee.Params) {
			break
		}
		p := callee.Params[i]
		id, ok := ast.Unparen(arg).(*ast.Ident)
		if !ok || changed[p] {
			continue
		}
		y, _ := info.Uses[id].(*types.Var)
		if y == nil || y == x || y.Kind == types.GlobalVar || slices.Contains(dead, y) || !types.Identical(y.Type(), p.Type()) {
			continue
		}
		if _, twice := formal[y]; twice {
			formal[y] = nil
			continue
		}
		formal[y] = p
		used[p]++
	}
	for y, p := range formal {
		if p == nil || used[p] > 1 {
			delete(formal, y)
		}
	}
	for y, p := range formal {
		if _, clash := formal[p]; clash && p != y {
			return map[*types.Var]*types.Var{}
		}
	}
	return formal
}
