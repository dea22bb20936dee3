package apf

import (
	"fmt"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// classify computes Abstracted, AbstractArrays, Replaced and Unsupported.
func (p *Program) classify() {
	prog := p.Prog
	for _, v := range prog.Globals {
		p.mark(v)
	}
	procs := append(append([]*types.Proc(nil), prog.Threads...), prog.Functions...)
	for _, pr := range procs {
		for _, v := range pr.Vars() {
			p.mark(v)
		}
	}
	for _, tn := range prog.Types {
		n := tn.Named()
		if n == nil {
			continue
		}
		switch u := n.Underlying().(type) {
		case *types.Record:
			for _, f := range u.Fields {
				p.mark(f)
			}
		case *types.Array:
			if AbstractType(u.Elem) {
				p.AbstractArrays[n] = true
			}
		}
	}
	c := &classifier{p: p, info: prog.Info, results: map[*types.Proc]bool{}}
	type ret struct {
		proc *types.Proc
		t    *ast.Transformation
	}
	var returns []ret
	for _, pr := range procs {
		for _, l := range pr.Body().Locations {
			for _, t := range l.Transformations {
				c.transformation(t)
				if t.Result != nil {
					returns = append(returns, ret{pr, t})
				}
			}
		}
	}
	// after the calls: a call whose Lhs the runtime stores needs the
	// results of its callee
	for _, r := range returns {
		c.result(r.proc, r.t.Result)
	}
	if len(c.errs) > 0 {
		c.errs.Sort()
		c.errs = dedupe(c.errs)
		p.Unsupported = &UnsupportedError{List: c.errs}
	}
}

func (p *Program) mark(v *types.Var) {
	if AbstractType(v.Type()) {
		p.Abstracted[v] = true
	}
}

// Reads reports whether evaluating x reads abstracted data: an abstracted
// variable, parameter or field, or an element of an array whose elements
// are abstracted. The verify lane uses it for invariants and the model's
// predicates, which the runtime does not evaluate.
func (p *Program) Reads(x ast.Expr) bool {
	c := &classifier{p: p, info: p.Prog.Info}
	return c.reads(x)
}

type classifier struct {
	p    *Program
	info *types.Info
	errs source.ErrorList
	// results holds the functions some call of which has a replaced Lhs:
	// the runtime, not the model, stores their results
	results map[*types.Proc]bool
	// preds holds whether each model predicate reads has followed
	// reads abstracted data
	preds map[*types.Predicate]bool
}

func (c *classifier) unsupported(pos source.Pos, format string, args ...any) {
	c.errs.Add(c.p.Prog.Fset.Position(pos), fmt.Sprintf(format, args...))
}

// reads reports whether x reads abstracted data.
func (c *classifier) reads(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident:
			switch obj := c.info.Uses[n].(type) {
			case *types.Var:
				found = c.p.Abstracted[obj]
			case *types.Predicate:
				// a model predicate named in a property or another
				// predicate reads what its definition reads (the checker
				// rejects cycles; preds guards against them anyway)
				if c.preds == nil {
					c.preds = map[*types.Predicate]bool{}
				}
				r, done := c.preds[obj]
				if !done && obj.Decl != nil {
					c.preds[obj] = false
					r = c.reads(obj.Decl.Expr)
					c.preds[obj] = r
				}
				found = r
			}
		case *ast.SelectorExpr:
			if v, ok := c.info.Uses[n.Sel].(*types.Var); ok && c.p.Abstracted[v] {
				found = true
			}
		case *ast.IndexExpr:
			if AbstractType(c.info.TypeOf(n)) {
				found = true
			}
		}
		return !found
	})
	return found
}

// location reports, for an assigned location x, whether the location is
// abstracted (loc) and whether finding it reads abstracted data (path: an
// index, or a reference on the way).
func (c *classifier) location(x ast.Expr) (loc, path bool) {
	switch x := x.(type) {
	case *ast.ParenExpr:
		return c.location(x.X)
	case *ast.Ident:
		v, _ := c.info.Uses[x].(*types.Var)
		return v != nil && c.p.Abstracted[v], false
	case *ast.SelectorExpr:
		v, _ := c.info.Uses[x.Sel].(*types.Var)
		return v != nil && c.p.Abstracted[v], c.reads(x.X)
	case *ast.IndexExpr:
		loc = AbstractType(c.info.TypeOf(x))
		if isArray(c.info.TypeOf(x.X)) {
			_, path = c.location(x.X) // a value array: a location itself
		} else {
			path = c.reads(x.X) // a reference to a heap array
		}
		return loc, path || c.reads(x.Index)
	}
	return false, c.reads(x)
}

// transformation classifies the guard and the actions of t.
func (c *classifier) transformation(t *ast.Transformation) {
	p := c.p
	if t.Guard != nil && c.reads(t.Guard) {
		p.Replaced[t.Guard] = true
	}
	for _, a := range t.Actions {
		c.action(a)
	}
	c.forms(t)
}

// result classifies x, the result of a `return x` of function pr.
func (c *classifier) result(pr *types.Proc, x ast.Expr) {
	r := c.reads(x)
	if r || AbstractType(pr.Result) || c.results[pr] {
		c.p.Replaced[x] = true
		c.oneSlot(x, "returned")
	}
	if r && !AbstractType(pr.Result) && !choosable(pr.Result) {
		c.unsupported(x.Pos(), "abstracted data returned as %s, which can take them only as a boolean, an enum or a range of at most 256 values", pr.Result)
	}
}

// forms reports the expressions of t the runtime cannot evaluate: a lock
// or thread identifier of a builtin, or a value array, chosen by
// abstracted data.
func (c *classifier) forms(t *ast.Transformation) {
	ast.Inspect(t, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BuiltinExpr:
			if c.reads(n.X) {
				c.unsupported(n.X.Pos(), "%s of a lock or thread chosen by abstracted data", n.Op)
			}
		case *ast.IndexExpr:
			if isArray(c.info.TypeOf(n)) && c.reads(n.Index) {
				c.unsupported(n.Index.Pos(), "a value array chosen by abstracted data")
			}
		}
		return true
	})
}

// assigned classifies the store of a value into the location lhs: rhs
// says whether the value reads abstracted data. It reports whether the
// store involves abstracted data (the action is replaced).
func (c *classifier) assigned(lhs ast.Expr, rhs bool, what string) bool {
	loc, path := c.location(lhs)
	t := c.info.TypeOf(lhs)
	switch {
	case !loc && path:
		c.unsupported(lhs.Pos(), "%s to concrete data at a location chosen by abstracted data", what)
	case !loc && rhs && !choosable(t):
		c.unsupported(lhs.Pos(), "%s of abstracted data to %s of type %s, which can take them only as a boolean, an enum or a range of at most 256 values", what, source.Excerpt(format.Expr(lhs)), t)
	}
	return loc || path || rhs
}

func (c *classifier) action(a ast.Action) {
	p := c.p
	replace := func(on bool) {
		if on {
			p.Replaced[a] = true
		}
	}
	switch a := a.(type) {
	case *ast.AssignAction:
		replace(c.assigned(a.Lhs, c.reads(a.Rhs), "an assignment"))
	case *ast.ChooseAction:
		r := false
		for _, v := range a.Values {
			r = r || c.reads(v)
		}
		if a.Lo != nil {
			r = r || c.reads(a.Lo)
		}
		if a.Hi != nil {
			r = r || c.reads(a.Hi)
		}
		replace(c.assigned(a.Lhs, r, "a choice"))
	case *ast.NewAction:
		if _, path := c.location(a.Lhs); path {
			c.unsupported(a.Lhs.Pos(), "a new object stored at a location chosen by abstracted data")
		}
		if a.Len != nil && c.reads(a.Len) {
			c.unsupported(a.Len.Pos(), "the length of a new array read from abstracted data")
		}
	case *ast.ForallAction:
		if _, path := c.location(a.Lhs); path {
			c.unsupported(a.Lhs.Pos(), "forall stores at a location chosen by abstracted data")
		}
	case *ast.ReachableAction:
		if _, path := c.location(a.Lhs); path {
			c.unsupported(a.Lhs.Pos(), "reachable stores at a location chosen by abstracted data")
		}
		if c.reads(a.From) {
			c.unsupported(a.From.Pos(), "reachable from a reference read through abstracted data")
		}
	case *ast.LockAction:
		if c.reads(a.Lock) {
			c.unsupported(a.Lock.Pos(), "a lock reached through abstracted data")
		}
	case *ast.StartAction:
		if a.Lhs != nil {
			if _, path := c.location(a.Lhs); path {
				c.unsupported(a.Lhs.Pos(), "a thread identifier stored at a location chosen by abstracted data")
			}
		}
		t, _ := c.info.Uses[a.Thread].(*types.Proc)
		c.args(t, a.Args)
	case *ast.CallAction:
		f, _ := c.info.Uses[a.Func].(*types.Proc)
		c.args(f, a.Args)
		if a.Lhs != nil && f != nil {
			res := AbstractType(f.Result)
			loc, path := c.location(a.Lhs)
			switch {
			case !loc && path:
				c.unsupported(a.Lhs.Pos(), "the result of %s stored at a location chosen by abstracted data", f.Name())
			case res && !loc && !choosable(c.info.TypeOf(a.Lhs)):
				c.unsupported(a.Lhs.Pos(), "the abstracted result of %s stored in %s of type %s, which can take it only as a boolean, an enum or a range of at most 256 values", f.Name(), source.Excerpt(format.Expr(a.Lhs)), c.info.TypeOf(a.Lhs))
			}
			if res || loc || path {
				p.Replaced[a.Lhs] = true
				c.results[f] = true
				c.oneSlot(a.Lhs, "stored from a call")
			}
		}
	case *ast.PrintAction:
		r := false
		for _, x := range a.Args {
			r = r || c.reads(x)
		}
		if r {
			p.Replaced[a] = true // the runtime prints nothing
		}
	case *ast.AssertAction:
		replace(c.reads(a.Cond))
	case *ast.AssumeAction:
		replace(c.reads(a.Cond))
	}
}

// args classifies the arguments of a call or start of proc pr: an
// argument is replaced when it reads abstracted data or its parameter is
// abstracted.
func (c *classifier) args(pr *types.Proc, args []ast.Expr) {
	if pr == nil {
		return
	}
	for i, x := range args {
		if i >= len(pr.Params) {
			break
		}
		param := pr.Params[i]
		r := c.reads(x)
		if r || c.p.Abstracted[param] {
			c.p.Replaced[x] = true
			c.oneSlot(x, "passed to the parameter "+param.Name()+" of "+pr.Name())
		}
		if r && !c.p.Abstracted[param] && !choosable(param.Type()) {
			c.unsupported(x.Pos(), "abstracted data passed to the parameter %s of %s of type %s, which can take them only as a boolean, an enum or a range of at most 256 values", param.Name(), pr.Name(), param.Type())
		}
	}
}

// oneSlot reports x, a replaced result, argument or call Lhs, when it is
// a value array: the model leaves to native code only expressions of one
// slot (model.Native.Replaces), so the runtime could not hold its
// elements' values.
func (c *classifier) oneSlot(x ast.Expr, what string) {
	if t := c.info.TypeOf(x); t != nil && types.Slots(t) != 1 {
		c.unsupported(x.Pos(), "a value array of abstracted data %s (only values of one slot pass through calls and returns)", what)
	}
}

// dedupe drops the repeats of a sorted list (a construct reached twice).
func dedupe(l source.ErrorList) source.ErrorList {
	out := l[:0]
	for i, e := range l {
		if i == 0 || e.Pos != l[i-1].Pos || e.Msg != l[i-1].Msg {
			out = append(out, e)
		}
	}
	return out
}

// isArray reports whether t is a value array type (nil is not).
func isArray(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Array)
	return ok
}
