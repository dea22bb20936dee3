package types

import (
	"fmt"
	"math"
	"strconv"

	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/source"
)

// varDecl resolves a global or local variable's type and initial value.
func (c *checker) varDecl(v *Var, scope *Scope) {
	d := v.Decl
	if v.typ != nil {
		return
	}
	t, ok := c.info.TypeExprs[d.Type]
	if !ok {
		t = c.typExpr(d.Type, false)
		c.checkValueType(d.Type, t, "variable "+v.name)
	}
	v.typ = t
	if d.Init == nil {
		return
	}
	// `a, b : T := v;` shares one initial value: check it once.
	if val, done := c.inits[d]; done {
		v.Init = val
		return
	}
	var val ConstValue
	if containsLock(t) {
		c.errorf(d.Init.Pos(), "a lock cannot have an initial value")
	} else if cv, vt := c.constExpr(d.Init, scope); cv.Kind != NoConst {
		if c.assignable(operand{mode: constant, typ: vt, val: cv}, t, d.Init, "variable "+v.name) {
			val = cv
			if r, ok := underlying(t).(*Range); ok && r.Wrap {
				val.Int, _ = r.WrapValue(cv.Int) // a store wraps
			}
		}
	}
	c.inits[d] = val
	v.Init = val
}

// signature declares a proc's parameters and result.
func (c *checker) signature(p *Proc) {
	b := p.Body()
	p.scope = newScope(c.global)
	p.locs = map[string]*Location{}
	for _, d := range b.Params {
		t := c.typExpr(d.Type, false)
		c.checkValueType(d.Type, t, "parameter")
		if containsLock(t) {
			c.errorf(d.Type.Pos(), "a parameter cannot be a lock")
		}
		for _, id := range d.Names {
			v := &Var{object: object{name: id.Name, pos: id.Pos(), typ: t}, Kind: ParamVar, Owner: p, Index: len(p.Params), Decl: d}
			c.declare(p.scope, id, v)
			p.Params = append(p.Params, v)
		}
	}
	if p.Main && len(p.Params) > 0 {
		c.errorf(b.Params[0].Pos(), "main thread %s cannot have parameters: nothing supplies them", p.name)
	}
	if fd := p.FunctionDecl; fd != nil && fd.Result != nil {
		p.Result = c.typExpr(fd.Result, false)
		c.checkValueType(fd.Result, p.Result, "function result")
		if containsLock(p.Result) {
			c.errorf(fd.Result.Pos(), "a function cannot return a lock")
		}
	}
	for _, d := range b.Locals {
		t := c.typExpr(d.Type, false)
		c.checkValueType(d.Type, t, "local")
		for _, id := range d.Names {
			v := &Var{object: object{name: id.Name, pos: id.Pos()}, Kind: LocalVar, Owner: p, Index: len(p.Locals), Decl: d}
			c.declare(p.scope, id, v)
			p.Locals = append(p.Locals, v)
		}
	}
	for _, v := range p.Locals {
		c.varDecl(v, p.scope)
	}
	kind := "thread"
	if !p.Thread {
		kind = "function"
	}
	if b.EndName != nil && b.EndName.Name != "_" && b.EndName.Name != p.name {
		c.errorf(b.EndName.Pos(), "end %s does not match %s %s", b.EndName.Name, kind, p.name)
	}
	for _, l := range b.Locations {
		loc := &Location{object: object{name: l.Name.Name, pos: l.Name.Pos()}, Proc: p, Index: len(p.Locations), Decl: l}
		if l.Name.Name == "_" {
			continue
		}
		if prev := p.locs[l.Name.Name]; prev != nil {
			c.errorf(l.Name.Pos(), "location %s redeclared in %s %s (previous declaration at %s)", l.Name.Name, kind, p.name, c.posString(prev.pos))
			continue
		}
		p.locs[l.Name.Name] = loc
		c.info.Defs[l.Name] = loc
		p.Locations = append(p.Locations, loc)
	}
	if len(b.Locations) == 0 {
		c.errorf(p.pos, "%s %s has no locations", kind, p.name)
	}
}

// edgeKey identifies the pair (from, to) of a transformation; to is ""
// for return.
type edgeKey struct {
	from *Location
	to   string
}

type edgeInfo struct {
	visible, invisible *ast.Transformation
	choose, plain      *ast.Transformation
}

func (c *checker) body(p *Proc) {
	kind := "thread"
	if !p.Thread {
		kind = "function"
	}
	for _, l := range p.Body().Locations {
		loc := p.locs[l.Name.Name]
		if loc == nil || loc.Decl != l {
			loc = &Location{object: object{name: l.Name.Name, pos: l.Name.Pos()}, Proc: p, Decl: l}
		}
		if l.Live != nil {
			loc.HasLive = true
			seen := map[*Var]bool{}
			for _, id := range l.Live.Names {
				v, _ := p.scope.LookupLocal(id.Name).(*Var)
				if v == nil {
					if c.global.Lookup(id.Name) != nil {
						c.errorf(id.Pos(), "live set may name only locals and parameters of %s %s, and %s is not one", kind, p.name, id.Name)
					} else {
						c.errorf(id.Pos(), "undefined: %s (a live set names locals and parameters of %s %s)", id.Name, kind, p.name)
					}
					continue
				}
				c.info.Uses[id] = v
				if seen[v] {
					c.errorf(id.Pos(), "%s listed twice in live set", id.Name)
					continue
				}
				seen[v] = true
				loc.Live = append(loc.Live, v)
			}
		}
		edges := map[edgeKey]*edgeInfo{}
		for _, t := range l.Transformations {
			c.transformation(p, loc, t, edges)
		}
	}
}

func (c *checker) transformation(p *Proc, loc *Location, t *ast.Transformation, edges map[edgeKey]*edgeInfo) {
	ctx := &exprCtx{scope: p.scope, proc: p, invisible: t.Invisible}
	c.boolExpr(t.Guard, ctx, "guard")
	hasChoose := false
	for i, a := range t.Actions {
		last := i == len(t.Actions)-1
		if c.action(p, a, ctx, last, t) {
			hasChoose = true
		}
	}
	// target
	key := edgeKey{from: loc}
	if t.Return {
		key.to = ""
		if p.Thread {
			c.errorf(t.GotoPos, "return outside a function: thread %s must end each transformation with goto", p.name)
		} else if t.Result != nil {
			op := c.expr(t.Result, ctx)
			if p.Result == nil {
				c.errorf(t.Result.Pos(), "function %s has no result type, so return takes no value", p.name)
			} else {
				c.assignable(op, p.Result, t.Result, "result of "+p.name)
			}
		} else if p.Result != nil {
			c.errorf(t.GotoPos, "function %s must return a value of type %s", p.name, p.Result)
		}
	} else if t.Target != nil && t.Target.Name != "_" {
		key.to = t.Target.Name
		target := p.locs[t.Target.Name]
		if target == nil {
			c.errorf(t.Target.Pos(), "undefined location %s in %s", t.Target.Name, p.name)
		} else {
			c.info.Uses[t.Target] = target
			if t.Invisible && target == loc {
				c.errorf(t.Target.Pos(), "invisible transformation from %s to itself", loc.name)
			}
		}
	} else {
		return
	}
	e := edges[key]
	if e == nil {
		e = &edgeInfo{}
		edges[key] = e
	}
	to := key.to
	if to == "" {
		to = "return"
	}
	if t.Invisible {
		if e.visible != nil {
			c.errorf(t.WhenPos, "visible and invisible transformations from %s to %s (the visible one at %s)", loc.name, to, c.posString(e.visible.WhenPos))
		}
		if e.invisible == nil {
			e.invisible = t
		}
	} else {
		if e.invisible != nil {
			c.errorf(t.WhenPos, "visible and invisible transformations from %s to %s (the invisible one at %s)", loc.name, to, c.posString(e.invisible.WhenPos))
		}
		if e.visible == nil {
			e.visible = t
		}
	}
	if hasChoose {
		if e.plain != nil {
			c.errorf(t.WhenPos, "transformations from %s to %s where only one makes a choice (the other at %s)", loc.name, to, c.posString(e.plain.WhenPos))
		}
		if e.choose == nil {
			e.choose = t
		}
	} else {
		if e.choose != nil {
			c.errorf(t.WhenPos, "transformations from %s to %s where only one makes a choice (the other at %s)", loc.name, to, c.posString(e.choose.WhenPos))
		}
		if e.plain == nil {
			e.plain = t
		}
	}
}

// lhs checks an assignment target and returns its type (nil after an
// error).
func (c *checker) lhs(x ast.Expr, ctx *exprCtx) Type {
	op := c.expr(x, ctx)
	if op.mode == invalid {
		return nil
	}
	if op.mode != variable {
		c.errorf(x.Pos(), "cannot assign to %s: it is not a variable, field or element", exprString(x))
		return nil
	}
	if containsLock(op.typ) {
		if _, isLock := op.typ.Underlying().(*Lock); isLock {
			c.errorf(x.Pos(), "cannot assign to %s: locks cannot be assigned", exprString(x))
		} else {
			c.errorf(x.Pos(), "cannot assign to %s: arrays of locks cannot be assigned", exprString(x))
		}
		return nil
	}
	return op.typ
}

// action checks one action and reports whether it is a choice action.
func (c *checker) action(p *Proc, a ast.Action, ctx *exprCtx, last bool, t *ast.Transformation) (choose bool) {
	invisibleForbids := func(pos ast.Node, what string) {
		if ctx.invisible {
			c.errorf(pos.Pos(), "invisible transformation performs %s: it may touch only its thread's locals (make the transformation visible)", what)
		}
	}
	switch a := a.(type) {
	case *ast.BadAction:
	case *ast.AssignAction:
		dst := c.lhs(a.Lhs, ctx)
		op := c.expr(a.Rhs, ctx)
		if dst != nil {
			c.assignable(op, dst, a.Rhs, exprString(a.Lhs))
		}
	case *ast.NewAction:
		invisibleForbids(a, "new")
		dst := c.lhs(a.Lhs, ctx)
		obj := c.global.Lookup(a.Collection.Name)
		if obj == nil {
			c.errorf(a.Collection.Pos(), "undefined collection %s", a.Collection.Name)
			return
		}
		c.info.Uses[a.Collection] = obj
		col, ok := obj.(*Collection)
		if !ok {
			c.errorf(a.Collection.Pos(), "%s is not a collection", a.Collection.Name)
			return
		}
		if col.Elem == nil {
			return
		}
		if arr, isArr := col.Elem.Underlying().(*Array); isArr {
			if a.Len == nil {
				c.errorf(a.Collection.End(), "collection %s holds arrays: give the length, as in new %s[n]", col.name, col.name)
			} else {
				op := c.expr(a.Len, ctx)
				if op.mode != invalid && !IsInteger(op.typ) {
					c.errorf(a.Len.Pos(), "array length must be an integer, not %s", op.typ)
				} else if op.mode == constant && (op.val.Int < 0 || op.val.Int > arr.Len) {
					c.errorf(a.Len.Pos(), "array length %d out of bounds 0..%d of %s", op.val.Int, arr.Len, col.Elem)
				}
			}
		} else if a.Len != nil {
			c.errorf(a.Lbrack, "collection %s holds records: new takes no length", col.name)
		}
		if dst != nil && !isInvalid(dst) {
			r, isRef := dst.Underlying().(*Ref)
			switch {
			case !isRef || !IsSubtype(col.Elem, r.Target):
				why := ""
				if isRef {
					why = fmt.Sprintf(": %s is not %s or a subtype of it", col.Elem, r.Target)
				}
				c.errorf(a.Collection.Pos(), "new %s (of type ref %s) cannot be stored in %s of type %s%s", col.name, col.Elem, exprString(a.Lhs), dst, why)
			case !r.Holds(col):
				c.errorf(a.Collection.Pos(), "%s cannot hold objects of collection %s: it is not in %s", exprString(a.Lhs), col.name, dst)
			}
		}
	case *ast.ChooseAction:
		choose = true
		dst := c.lhs(a.Lhs, ctx)
		if len(a.Values) == 1 {
			// a lone name that names a type is the type form
			if id, ok := a.Values[0].(*ast.Ident); ok {
				if _, isType := ctx.scope.Lookup(id.Name).(*TypeName); isType {
					a.Type, a.Values = id, nil
				}
			}
		}
		if a.Type != nil {
			c.chooseType(a, dst)
		} else if a.Values != nil {
			for _, v := range a.Values {
				op := c.expr(v, ctx)
				if dst != nil {
					c.assignable(op, dst, v, exprString(a.Lhs))
				}
			}
		} else {
			lo := c.expr(a.Lo, ctx)
			hi := c.expr(a.Hi, ctx)
			for _, x := range []struct {
				op operand
				e  ast.Expr
			}{{lo, a.Lo}, {hi, a.Hi}} {
				if x.op.mode != invalid && !IsInteger(x.op.typ) {
					c.errorf(x.e.Pos(), "choice bound must be an integer, not %s", x.op.typ)
				}
			}
			if lo.mode == constant && hi.mode == constant && lo.val.Int > hi.val.Int {
				c.errorf(a.Lo.Pos(), "empty choice range %d .. %d", lo.val.Int, hi.val.Int)
			}
			if dst != nil && !isInvalid(dst) && !IsInteger(dst) {
				c.errorf(a.Lhs.Pos(), "a range choice needs an integer target, not %s", dst)
			} else if r, ok := underlying(dst).(*Range); ok && !r.Wrap && lo.mode == constant && hi.mode == constant && lo.val.Int <= hi.val.Int &&
				(lo.val.Int < r.Lo || hi.val.Int > r.Hi) {
				c.errorf(a.Lo.Pos(), "choice range %d .. %d exceeds range %d..%d of %s", lo.val.Int, hi.val.Int, r.Lo, r.Hi, exprString(a.Lhs))
			}
		}
	case *ast.ForallAction:
		choose = true
		invisibleForbids(a, "forall")
		dst := c.lhs(a.Lhs, ctx)
		c.heapChoice(dst, a.Lhs, a.Type, "forall")
	case *ast.ReachableAction:
		choose = true
		invisibleForbids(a, "reachable")
		dst := c.lhs(a.Lhs, ctx)
		op := c.expr(a.From, ctx)
		if op.mode != invalid {
			if _, ok := op.typ.Underlying().(*Ref); !ok {
				c.errorf(a.From.Pos(), "reachable needs a reference to start from, not %s", op.typ)
			}
		}
		c.heapChoice(dst, a.Lhs, a.Type, "reachable")
	case *ast.LockAction:
		invisibleForbids(a, a.Op.String())
		op := c.expr(a.Lock, ctx)
		if op.mode != invalid {
			l, ok := op.typ.Underlying().(*Lock)
			if !ok {
				c.errorf(a.Lock.Pos(), "%s needs a lock, not %s", a.Op, op.typ)
			} else {
				switch a.Op {
				case token.WAIT, token.UNWAIT, token.NOTIFY, token.NOTIFYALL:
					if !l.Wait {
						c.errorf(a.Lock.Pos(), "%s needs a lock declared with wait, not %s", a.Op, op.typ)
					}
				}
			}
		}
		if a.Op == token.WAIT && !last {
			c.errorf(a.OpPos, "wait must be the last action of its transformation")
		}
	case *ast.StartAction:
		invisibleForbids(a, "start")
		var dst Type
		if a.Lhs != nil {
			dst = c.lhs(a.Lhs, ctx)
		}
		obj := c.procs.Lookup(a.Thread.Name)
		var th *Proc
		if obj == nil {
			c.errorf(a.Thread.Pos(), "undefined thread %s", a.Thread.Name)
		} else if pr, ok := obj.(*Proc); !ok || !pr.Thread {
			c.errorf(a.Thread.Pos(), "%s is a function, not a thread (use call %s(…))", a.Thread.Name, a.Thread.Name)
		} else {
			th = pr
			c.info.Uses[a.Thread] = pr
			pr.Started = true
		}
		c.args(th, a.Args, ctx, a.Rparen, "start")
		if dst != nil && !isKind(dst, Tid) {
			c.errorf(a.Lhs.Pos(), "start yields a tid, but %s is of type %s", exprString(a.Lhs), dst)
		}
	case *ast.CallAction:
		var dst Type
		if a.Lhs != nil {
			dst = c.lhs(a.Lhs, ctx)
		}
		obj := c.procs.Lookup(a.Func.Name)
		var fn *Proc
		if obj == nil {
			c.errorf(a.Func.Pos(), "undefined function %s", a.Func.Name)
		} else if pr, ok := obj.(*Proc); !ok || pr.Thread {
			c.errorf(a.Func.Pos(), "%s is a thread, not a function (use start %s(…))", a.Func.Name, a.Func.Name)
		} else {
			fn = pr
			c.info.Uses[a.Func] = pr
		}
		c.args(fn, a.Args, ctx, a.Rparen, "call")
		if fn != nil && a.Lhs != nil {
			if fn.Result == nil {
				c.errorf(a.Lhs.Pos(), "function %s returns no value", fn.name)
			} else if dst != nil {
				c.assignableFrom(operand{mode: value, typ: fn.Result}, dst, a.Func.Pos(), "the result of "+fn.name, exprString(a.Lhs))
			}
		}
		if !last {
			c.errorf(a.CallPos, "call must be the last action of its transformation")
		}
		if t.Return {
			c.errorf(t.GotoPos, "a transformation that calls must end with goto, not return")
		}
	case *ast.ExitAction:
		invisibleForbids(a, "exit")
	case *ast.PrintAction:
		for _, x := range a.Args {
			if lit, ok := x.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				c.record(x, operand{mode: constant, typ: Typ[String]})
				continue
			}
			op := c.expr(x, ctx)
			if op.mode != invalid {
				if containsLock(op.typ) {
					c.errorf(x.Pos(), "cannot print %s: it is or holds a lock", exprString(x))
				}
			}
		}
	case *ast.AssertAction:
		c.boolExpr(a.Cond, ctx, "assert condition")
	case *ast.AssumeAction:
		c.boolExpr(a.Cond, ctx, "assume condition")
	}
	return choose
}

// heapChoice checks the type argument and target of forall and reachable.
func (c *checker) heapChoice(dst Type, lhs ast.Expr, id *ast.Ident, kw string) {
	obj := c.global.Lookup(id.Name)
	if obj == nil {
		c.errorf(id.Pos(), "undefined type %s", id.Name)
		return
	}
	c.info.Uses[id] = obj
	tn, ok := obj.(*TypeName)
	if !ok {
		c.errorf(id.Pos(), "%s is not a type", id.Name)
		return
	}
	switch tn.Named().Underlying().(type) {
	case *Record, *Array:
	default:
		if isInvalid(tn.Named()) {
			return
		}
		c.errorf(id.Pos(), "%s needs a record or array type, not %s", kw, tn.Named().Underlying())
		return
	}
	if dst == nil {
		return
	}
	r, ok := dst.Underlying().(*Ref)
	if !ok || r.Target == nil {
		c.errorf(lhs.Pos(), "%s yields a reference, but %s is of type %s", kw, exprString(lhs), dst)
		return
	}
	if !IsSubtype(tn.Named(), r.Target) {
		c.errorf(id.Pos(), "%s(%s) cannot be stored in %s of type %s: %s is not %s or a subtype of it", kw, id.Name, exprString(lhs), dst, id.Name, r.Target)
		return
	}
	for _, col := range c.collectionsOf(tn.Named()) {
		if !r.Holds(col) {
			c.errorf(id.Pos(), "%s(%s) may choose an object of collection %s, which %s of type %s cannot hold", kw, id.Name, col.name, exprString(lhs), dst)
			return
		}
	}
}

// args checks the arguments of start or call against p's parameters.
func (c *checker) args(p *Proc, args []ast.Expr, ctx *exprCtx, rparen source.Pos, kw string) {
	var ops []operand
	for _, x := range args {
		ops = append(ops, c.expr(x, ctx))
	}
	if p == nil {
		return
	}
	if len(args) != len(p.Params) {
		pos := rparen
		if len(args) > len(p.Params) {
			pos = args[len(p.Params)].Pos()
		}
		what := "not enough"
		if len(args) > len(p.Params) {
			what = "too many"
		}
		c.errorf(pos, "%s arguments in %s %s (%d given, %s %s takes %d)", what, kw, p.name, len(args), procKind(p), p.name, len(p.Params))
		return
	}
	for i, x := range args {
		c.assignable(ops[i], p.Params[i].typ, x, "parameter "+p.Params[i].name)
	}
}

func procKind(p *Proc) string {
	if p.Thread {
		return "thread"
	}
	return "function"
}

// chooseType checks the type form of a choice, `lhs := internChoose(T);`
// (or externChoose): T must be an integer type, and a range lhs must hold
// all its values. It sets a.Lo and a.Hi to constants of T's bounds
// (ast.ChooseAction).
func (c *checker) chooseType(a *ast.ChooseAction, dst Type) {
	kw := "internChoose"
	if a.Extern {
		kw = "externChoose"
	}
	a.Lo, a.Hi = nil, nil
	t := c.typExpr(a.Type, false)
	if isInvalid(t) {
		return
	}
	lo, hi, ok := IntegerBounds(t)
	if !ok {
		c.errorf(a.Type.Pos(), "%s(T) needs an integer type T (int, a range or a fixed-width type), not %s", kw, t)
		return
	}
	if r, ok := underlying(t).(*Range); ok && r.Wrap && r.Unsigned() && r.Bits >= 64 {
		c.errorf(a.Type.Pos(), "%s(%s) cannot choose among all values of %s: birch holds uint64 values below 2^63 only (docs/bir.md §5)", kw, t, t)
		return
	}
	if dst != nil && !isInvalid(dst) && !IsInteger(dst) {
		c.errorf(a.Lhs.Pos(), "a choice of type %s needs an integer target, not %s", t, dst)
	} else if r, ok := underlying(dst).(*Range); ok && !r.Wrap && (lo < r.Lo || hi > r.Hi) {
		what := t.String()
		if _, isRange := t.(*Range); !isRange {
			what += fmt.Sprintf(" (%d..%d)", lo, hi)
		}
		c.errorf(a.Type.Pos(), "choice type %s exceeds range %d..%d of %s", what, r.Lo, r.Hi, exprString(a.Lhs))
	}
	bound := func(v int64) ast.Expr {
		x := &ast.BasicLit{ValuePos: a.Type.Pos(), Kind: token.INT, Value: strconv.FormatInt(v, 10)}
		c.info.Types[x] = TypeAndValue{Type: t, Value: ConstValue{Kind: IntConst, Int: v}}
		return x
	}
	a.Lo, a.Hi = bound(lo), bound(hi)
}

// IntegerBounds returns the smallest and largest value of an integer type
// (int: the 64-bit range); ok is false for any other type.
func IntegerBounds(t Type) (lo, hi int64, ok bool) {
	switch u := underlying(t).(type) {
	case *Basic:
		if u.Kind == Int {
			return math.MinInt64, math.MaxInt64, true
		}
	case *Range:
		return u.Lo, u.Hi, true
	}
	return 0, 0, false
}
