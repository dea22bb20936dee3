package apf

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"birch/internal/abstraction/smtops"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/smt"
	"birch/internal/source"
)

// mode says how an evaluation reads abstracted locations.
type mode uint8

const (
	// modeRun: in the state a step is building: the step's overlay, else
	// the pre-state symbol of a location that existed before the step,
	// else (a new frame or object) the value its slot holds
	modeRun mode = iota
	// modePre: in the state before a step: the pre-state symbols
	modePre
	// modeSlots: the values the slots hold (the initial state)
	modeSlots
)

// env is where an expression is evaluated: a state, a frame, a receiver.
type env struct {
	sn            *snapshot
	mode          mode
	thread, depth int        // the frame whose locals are read (-1: none)
	thisVar       *types.Var // a [record T] predicate's this, bound to this
	this          int64
	// s is the step whose overlay modeRun reads; check says that runtime
	// errors are the step's (reported, or taken as path facts); without
	// check an error makes the value undefined (nil)
	s     *step
	check bool
	guard bool // a guard: no choice points
	// conds are the conditions under which the subexpression being
	// evaluated is evaluated (the left operands of && || ->)
	conds []*smt.Term
	// deps, when not nil, collects what the evaluation reads
	deps *deps
	// dead: an error certain where conds hold was taken not to happen
	// (the run goes on where they do not); the innermost && || -> then
	// gives the value its left operand decides
	dead bool
}

// deps is what a predicate instance's formula was read from: the slots
// of concrete values (references, indices and other concrete data on its
// access paths) and the abstracted locations. Where a step changed none
// of them, the formula is the same after the step (a heap array's length
// and an object's type never change).
type deps struct {
	slots []int
	keys  []locKey
}

// locKind tells the locations of abstracted data apart.
type locKind uint8

const (
	kGlobal locKind = iota
	kLocal
	kField
	kElem
)

// locKey names one slot of abstracted data at run time: a global (at an
// offset inside it, for a value array), a local of one frame, a field of
// one object (by its index, depth: a subtype's record has its own Var for
// an inherited field, at the same index), an element of one heap array.
type locKey struct {
	kind          locKind
	thread, depth int32
	v             *types.Var
	ref           int64
	off           int64
}

func (k locKey) String() string {
	var s string
	switch k.kind {
	case kGlobal:
		s = k.v.Name()
	case kLocal:
		s = fmt.Sprintf("%s@%d.%d", k.v.Name(), k.thread, k.depth)
	case kField:
		s = fmt.Sprintf("o%d.%d", k.ref, k.depth)
	case kElem:
		return fmt.Sprintf("o%d[%d]", k.ref, k.off)
	}
	if k.off != 0 {
		s += "+" + strconv.FormatInt(k.off, 10)
	}
	return s
}

// place is a location an expression denotes: one slot, or one of several
// that abstracted data choose (elems, elems[k] when conds[k] holds; the
// conditions exclude each other): an element at an abstracted index, a
// field or an element through a reference read at one.
type place struct {
	key   locKey
	slot  int
	typ   types.Type
	elems []place
	conds []*smt.Term
}

// abstracted reports whether a slot of type t holds abstracted data: an
// int or a range of more than 256 values (AbstractType of a scalar).
func abstracted(t types.Type) bool {
	if _, isArr := t.Underlying().(*types.Array); isArr {
		return false
	}
	return AbstractType(t)
}

// stopped reports whether the step has failed, blocked or hit a limit.
func (r *Runtime) stopped() bool { return r.status != resOK }

// fail reports a runtime error of a step, certain where the evaluation
// gets (under the left operands of && || -> it is evaluated under, the
// failure and going on where they do not hold are a choice: mayFail). In
// a predicate's evaluation it only makes the value undefined.
func (r *Runtime) fail(e *env, k model.ErrorKind, pos source.Pos, format string, args ...any) {
	if !e.check || r.stopped() {
		return
	}
	if len(e.conds) > 0 {
		if r.mayFail(e, r.tm.True(), k, pos, format, args...) {
			e.dead = true
		}
		return
	}
	r.failNow(e, k, pos, fmt.Sprintf(format, args...))
}

// failNow reports a runtime error: the step fails.
func (r *Runtime) failNow(e *env, k model.ErrorKind, pos source.Pos, msg string) {
	e.s.h.Fail(k, pos, msg)
	r.status = resFailed
}

// limit stops a step at something the runtime cannot do soundly.
func (r *Runtime) limit(e *env, pos source.Pos, format string, args ...any) {
	if !e.check || r.stopped() {
		return
	}
	r.stats.Limits++
	e.s.h.Limit(pos, "on-the-fly predicate abstraction: "+fmt.Sprintf(format, args...))
	r.status = resFailed
}

// lit returns the value of an Int literal.
func lit(t *smt.Term) (int64, bool) {
	if t == nil {
		return 0, false
	}
	return t.Int64()
}

// under is f under the conditions of e (the left operands the evaluation
// is inside of).
func (r *Runtime) under(e *env, f *smt.Term) *smt.Term {
	if len(e.conds) == 0 {
		return f
	}
	return r.tm.Implies(r.tm.And(e.conds...), f)
}

// mayFail handles a runtime error that happens when cond holds: none when
// the path and the predicates exclude it, a failure when they imply it,
// and otherwise a choice between the failure and going on with ¬cond as a
// path fact (in a guard's Value, which cannot choose, the guard is taken
// and Begin chooses). It reports whether the step goes on.
func (r *Runtime) mayFail(e *env, cond *smt.Term, k model.ErrorKind, pos source.Pos, format string, args ...any) bool {
	tm := r.tm
	if !e.check || cond == tm.False() || r.stopped() {
		return !r.stopped()
	}
	c := tm.And(append(append([]*smt.Term(nil), e.conds...), cond)...)
	hyp := r.cone(r.stepFacts(e.s), c)
	if r.valid(hyp, tm.Not(c)) {
		return true
	}
	msg := fmt.Sprintf(format, args...)
	if !r.valid(hyp, c) {
		if e.guard {
			// a guard's Value cannot choose: the guard is taken, and
			// Begin evaluates it again, choosing there
			r.guardDeferred = true
			return true
		}
		r.stats.Branches++
		// the failure and going on each hold in some of the states only
		e.s.h.Unsure()
		if e.s.h.Choose(2) == 0 {
			r.path = append(r.path, tm.Not(c))
			return true
		}
		msg = "possibly " + msg
	}
	r.failNow(e, k, pos, msg)
	return false
}

// sym returns the pre-state symbol of a location and records its domain.
// Its name is the location's and a number of its own: two locations may
// print alike (same-named locals of two procs at one depth, a global named
// like a fresh choice value), and one solver constant would make them one
// value with one domain.
func (r *Runtime) sym(k locKey, t types.Type) *smt.Term {
	if s, ok := r.syms[k]; ok {
		return s
	}
	s := r.tm.Const("apf!"+k.String()+"#"+strconv.Itoa(len(r.syms)), smt.IntSort)
	r.syms[k] = s
	r.dom[s] = r.domain(s, t)
	return s
}

// domain is the fact every value of an abstracted type satisfies.
func (r *Runtime) domain(v *smt.Term, t types.Type) *smt.Term {
	tm := r.tm
	if u, ok := t.Underlying().(*types.Range); ok {
		return tm.And(tm.Le(tm.Int(u.Lo), v), tm.Le(v, tm.Int(u.Hi)))
	}
	return intDomain(tm, v)
}

// existed reports whether the location k existed in the state before the
// step (a new frame's locals and a new object's fields did not).
func (r *Runtime) existed(s *step, k locKey) bool {
	switch k.kind {
	case kGlobal:
		return true
	case kLocal:
		return s.pre.st.Local(int(k.thread), int(k.depth), k.v) >= 0
	}
	if r.preAlloc == nil {
		r.preAlloc = map[int64]bool{}
		for _, o := range s.pre.objects() {
			r.preAlloc[o.ref] = true
		}
	}
	return r.preAlloc[k.ref]
}

// read is the value of a place of one slot.
func (r *Runtime) read(e *env, p place) *smt.Term {
	tm := r.tm
	if p.elems != nil {
		n := len(p.elems)
		if n == 0 {
			return nil
		}
		acc := r.read(e, p.elems[n-1])
		for k := n - 2; k >= 0 && acc != nil; k-- {
			v := r.read(e, p.elems[k])
			if v == nil {
				return nil
			}
			acc = tm.Ite(p.conds[k], v, acc)
		}
		return acc
	}
	if p.slot < 0 {
		return nil
	}
	val := e.sn.st.Slots()[p.slot]
	if !abstracted(p.typ) {
		if e.deps != nil {
			e.deps.slots = append(e.deps.slots, p.slot)
		}
		if types.IsBoolean(p.typ) {
			return tm.Bool(val != 0)
		}
		return tm.Int(val)
	}
	if e.deps != nil {
		e.deps.keys = append(e.deps.keys, p.key)
	}
	switch e.mode {
	case modePre:
		return r.sym(p.key, p.typ)
	case modeRun:
		if t, ok := r.overlay[p.key]; ok {
			return t
		}
		if r.existed(e.s, p.key) {
			return r.sym(p.key, p.typ)
		}
	}
	return tm.Int(val)
}

// varPlace is the place of a variable in e's frame (or a global).
func (r *Runtime) varPlace(e *env, v *types.Var) (place, bool) {
	switch v.Kind {
	case types.GlobalVar:
		return place{key: locKey{kind: kGlobal, v: v}, slot: e.sn.st.Global(v), typ: v.Type()}, true
	case types.LocalVar, types.ParamVar:
		if e.thread < 0 {
			return place{}, false
		}
		slot := e.sn.st.Local(e.thread, e.depth, v)
		if slot < 0 {
			return place{}, false
		}
		return place{key: locKey{kind: kLocal, thread: int32(e.thread), depth: int32(e.depth), v: v}, slot: slot, typ: v.Type()}, true
	}
	return place{}, false
}

// sub is the part of p at slot offset off, of type t.
func sub(p place, off int64, t types.Type) place {
	q := p
	q.key.off += off
	q.slot += int(off)
	q.typ = t
	return q
}

// ref evaluates a reference that must be concrete (dereferenced).
func (r *Runtime) ref(e *env, x ast.Expr) (int64, bool) {
	t := r.expr(e, x)
	if t == nil {
		return 0, false
	}
	if v, ok := lit(t); ok {
		return v, true
	}
	// a reference read at a symbolic index: choose it
	if !e.check || e.guard || len(e.conds) > 0 {
		r.limit(e, x.Pos(), "a reference chosen by abstracted data (%s) is dereferenced here", source.Excerpt(format.Expr(x)))
		return 0, false
	}
	v, ok := r.choose(e, t, nil, r.info.TypeOf(x), x.Pos(), format.Expr(x))
	return v, ok
}

// fieldPlace is the place of field f of the object the reference x
// refers to; a reference that abstracted data choose among several
// objects (cs[i] with i abstracted) gives a place of several candidates.
func (r *Runtime) fieldPlace(e *env, x *ast.SelectorExpr, f *types.Var) (place, bool) {
	objs, ok := r.objects(e, x.X, x.Sel.Pos())
	if !ok {
		return place{}, false
	}
	p := place{typ: f.Type()}
	for _, o := range objs {
		slot := e.sn.st.Field(o.ref, f)
		if slot < 0 {
			r.limit(e, x.Sel.Pos(), "no field %s in object %d", f.Name(), o.ref)
			return place{}, false
		}
		q := place{key: locKey{kind: kField, ref: o.ref, depth: int32(f.Index)}, slot: slot, typ: f.Type()}
		if o.cond == nil {
			return q, true
		}
		p.elems, p.conds = append(p.elems, q), append(p.conds, o.cond)
	}
	return p, true
}

// candidate is an object a reference may refer to, when cond holds (nil:
// the reference is concrete).
type candidate struct {
	ref  int64
	cond *smt.Term
}

// objects evaluates the reference x that is dereferenced at pos: the
// object it refers to, or the objects abstracted data choose among (a
// reference read at an abstracted index), each with its condition. A
// null reference is a null dereference (possible or certain).
func (r *Runtime) objects(e *env, x ast.Expr, pos source.Pos) ([]candidate, bool) {
	tm := r.tm
	t := r.expr(e, x)
	if t == nil {
		return nil, false
	}
	if o, ok := lit(t); ok {
		if o <= 0 {
			r.fail(e, model.NullDereference, pos, "null dereference: %s is null", format.Expr(x))
			return nil, false
		}
		return []candidate{{ref: o}}, true
	}
	refs := leaves(t)
	if refs == nil {
		r.limit(e, pos, "a reference computed from abstracted data (%s) is dereferenced here", source.Excerpt(format.Expr(x)))
		return nil, false
	}
	if refs[0] == 0 {
		if len(refs) == 1 {
			// null wherever it is read: the error is certain where the
			// evaluation gets (fail), and no object is left where it does not
			r.fail(e, model.NullDereference, pos, "null dereference: %s is null", format.Expr(x))
			return nil, false
		}
		if !r.mayFail(e, tm.Eq(t, tm.Int(0)), model.NullDereference, pos, "null dereference: %s is null", format.Expr(x)) {
			return nil, false
		}
		refs = refs[1:]
	}
	if len(refs) == 0 {
		return nil, false
	}
	out := make([]candidate, len(refs))
	for k, o := range refs {
		out[k] = candidate{ref: o, cond: tm.Eq(t, tm.Int(o))}
	}
	return out, true
}

// and is a ∧ b, where nil stands for true.
func (r *Runtime) and(a, b *smt.Term) *smt.Term {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return r.tm.And(a, b)
}

// indexPlace is the place of element idx of one of the arrays cands (each
// of n[i] elements, element k at at(i, k)): one element when the index and
// the array are concrete, the candidates and their conditions otherwise.
// An index out of bounds is a runtime error (possible or certain).
func (r *Runtime) indexPlace(e *env, x *ast.IndexExpr, idx *smt.Term, conds []*smt.Term, n []int64, elem types.Type, at func(i int, k int64) (place, bool)) (place, bool) {
	tm := r.tm
	k, known := lit(idx)
	if known && len(conds) == 1 && conds[0] == nil {
		if k < 0 || k >= n[0] {
			r.fail(e, model.IndexOutOfBounds, x.Lbrack, "index %d out of bounds [0, %d)", k, n[0])
			return place{}, false
		}
		return at(0, k)
	}
	var oobs []*smt.Term
	for i, c := range conds {
		var out *smt.Term
		switch {
		case known && (k < 0 || k >= n[i]):
			out = c
			if out == nil {
				out = tm.True()
			}
		case known:
			continue
		default:
			out = r.and(c, tm.Or(tm.Lt(idx, tm.Int(0)), tm.Ge(idx, tm.Int(n[i]))))
		}
		oobs = append(oobs, out)
	}
	if len(oobs) > 0 && !r.mayFail(e, tm.Or(oobs...), model.IndexOutOfBounds, x.Lbrack, "index %s out of bounds", format.Expr(x.Index)) {
		return place{}, false
	}
	p := place{typ: elem}
	for i, c := range conds {
		for j := int64(0); j < n[i]; j++ {
			if known && j != k {
				continue
			}
			q, ok := at(i, j)
			if !ok {
				return place{}, false
			}
			cond := c
			if !known {
				cond = r.and(c, tm.Eq(idx, tm.Int(j)))
			}
			p.elems, p.conds = append(p.elems, q), append(p.conds, cond)
		}
	}
	if len(p.elems) == 0 {
		return place{}, false
	}
	return p, true
}

// place is the location x denotes.
func (r *Runtime) place(e *env, x ast.Expr) (place, bool) {
	switch x := x.(type) {
	case *ast.ParenExpr:
		return r.place(e, x.X)
	case *ast.Ident:
		v, ok := r.info.Uses[x].(*types.Var)
		if !ok || v == e.thisVar {
			break
		}
		p, ok := r.varPlace(e, v)
		if !ok {
			r.limit(e, x.Pos(), "%s is not in the current frame", x.Name)
		}
		return p, ok
	case *ast.SelectorExpr:
		f, _ := r.info.Uses[x.Sel].(*types.Var)
		if f == nil {
			break
		}
		return r.fieldPlace(e, x, f)
	case *ast.IndexExpr:
		// the array first, then the index, as the model does (its null
		// dereference is the error reported when both fail)
		switch u := r.info.TypeOf(x.X).Underlying().(type) {
		case *types.Array:
			base, ok := r.place(e, x.X)
			if !ok {
				return place{}, false
			}
			if base.elems != nil {
				r.limit(e, x.Pos(), "an element of a value array chosen by abstracted data")
				return place{}, false
			}
			idx := r.expr(e, x.Index)
			if idx == nil {
				return place{}, false
			}
			es := types.Slots(u.Elem)
			return r.indexPlace(e, x, idx, []*smt.Term{nil}, []int64{u.Len}, u.Elem, func(_ int, k int64) (place, bool) {
				return sub(base, k*es, u.Elem), true
			})
		case *types.Ref:
			arr, _ := u.Target.Underlying().(*types.Array)
			if arr == nil {
				break
			}
			objs, ok := r.objects(e, x.X, x.Lbrack)
			if !ok {
				return place{}, false
			}
			idx := r.expr(e, x.Index)
			if idx == nil {
				return place{}, false
			}
			conds := make([]*smt.Term, len(objs))
			n := make([]int64, len(objs))
			for i, o := range objs {
				conds[i], n[i] = o.cond, e.sn.st.Length(o.ref)
				if n[i] < 0 {
					r.limit(e, x.Lbrack, "object %d is not an array", o.ref)
					return place{}, false
				}
			}
			es := types.Slots(arr.Elem)
			return r.indexPlace(e, x, idx, conds, n, arr.Elem, func(i int, k int64) (place, bool) {
				o := objs[i].ref
				slot := e.sn.st.Elem(o, k)
				return place{key: locKey{kind: kElem, ref: o, off: k * es}, slot: slot, typ: arr.Elem}, slot >= 0
			})
		}
	}
	r.limit(e, x.Pos(), "%s is not a place", format.Expr(x))
	return place{}, false
}

// expr evaluates x to a term: Bool for booleans, Int for the others
// (enums by ordinal, references and thread identifiers as their slots
// hold them). nil after an error (reported when e.check) or when the
// value is undefined.
func (r *Runtime) expr(e *env, x ast.Expr) *smt.Term {
	if r.stopped() {
		return nil
	}
	tm := r.tm
	if tv, ok := r.info.Types[x]; ok {
		switch tv.Value.Kind {
		case types.IntConst:
			return tm.Int(tv.Value.Int)
		case types.BoolConst:
			return tm.Bool(tv.Value.Bool)
		case types.NullConst:
			return tm.Int(0)
		}
	}
	switch x := x.(type) {
	case *ast.ParenExpr:
		return r.expr(e, x.X)
	case *ast.BasicLit:
		switch x.Kind {
		case token.TRUE:
			return tm.True()
		case token.FALSE:
			return tm.False()
		case token.NULL:
			return tm.Int(0)
		case token.INT:
			if v, err := strconv.ParseInt(x.Value, 10, 64); err == nil {
				return tm.Int(v)
			}
		}
	case *ast.Ident:
		switch o := r.info.Uses[x].(type) {
		case *types.EnumConst:
			return tm.Int(o.Ordinal)
		case *types.Var:
			if o == e.thisVar {
				return tm.Int(e.this)
			}
			p, ok := r.place(e, x)
			if !ok {
				return nil
			}
			return r.read(e, p)
		}
	case *ast.SelectorExpr, *ast.IndexExpr:
		p, ok := r.place(e, x)
		if !ok {
			return nil
		}
		return r.read(e, p)
	case *ast.LengthExpr:
		switch u := r.info.TypeOf(x.X).Underlying().(type) {
		case *types.Array:
			return tm.Int(u.Len)
		case *types.Ref:
			objs, ok := r.objects(e, x.X, x.LengthPos)
			if !ok {
				return nil
			}
			var acc *smt.Term
			for i := len(objs) - 1; i >= 0; i-- {
				n := e.sn.st.Length(objs[i].ref)
				if n < 0 {
					r.limit(e, x.LengthPos, "object %d is not an array", objs[i].ref)
					return nil
				}
				if acc == nil {
					acc = tm.Int(n)
				} else {
					acc = tm.Ite(objs[i].cond, tm.Int(n), acc)
				}
			}
			return acc
		}
	case *ast.UnaryExpr:
		return r.unary(e, x)
	case *ast.BinaryExpr:
		return r.binary(e, x)
	case *ast.ConvExpr:
		v := r.expr(e, x.X)
		if v == nil {
			return nil
		}
		rt, ok := r.info.TypeOf(x).Underlying().(*types.Range)
		if !ok || !rt.Wrap {
			return v
		}
		if c, ok := lit(v); ok {
			w, ok := rt.WrapValue(c)
			if !ok {
				r.limit(e, x.Pos(), "value %d of %s is not representable", c, format.Expr(x))
				return nil
			}
			return tm.Int(w)
		}
		if rt.Unsigned() && rt.Bits >= 64 {
			r.limit(e, x.Pos(), "a uint64 conversion of abstracted data")
			return nil
		}
		return smtops.WrapTo(tm, v, rt)
	case *ast.InstanceofExpr:
		tn, _ := r.info.Uses[x.Type].(*types.TypeName)
		t := r.expr(e, x.X)
		if t == nil || tn == nil {
			return nil
		}
		// null is no instance; a reference abstracted data choose is
		// one when it is one of the objects of the type
		refs := leaves(t)
		if refs == nil {
			r.limit(e, x.Pos(), "a reference computed from abstracted data (%s) is tested here", source.Excerpt(format.Expr(x.X)))
			return nil
		}
		var is []*smt.Term
		for _, ob := range e.sn.objects() {
			if slices.Contains(refs, ob.ref) && types.IsSubtype(ob.typ, tn.Named()) {
				is = append(is, tm.Eq(t, tm.Int(ob.ref)))
			}
		}
		if _, concrete := lit(t); concrete {
			return tm.Bool(len(is) > 0)
		}
		return tm.Or(is...)
	case *ast.BuiltinExpr:
		return r.builtin(e, x)
	}
	r.limit(e, x.Pos(), "cannot evaluate %s", source.Excerpt(format.Expr(x)))
	return nil
}

// builtin evaluates lockAvailable, hasLock, wasNotified and
// threadTerminated (docs/bir.md §15; a lock's slots are its owner, its
// count, its wait set and its notified set).
func (r *Runtime) builtin(e *env, x *ast.BuiltinExpr) *smt.Term {
	tm := r.tm
	if x.Op == token.THREADTERMINATED {
		t, ok := r.ref(e, x.X)
		if !ok {
			return nil
		}
		if t <= 0 {
			r.fail(e, model.NullDereference, x.OpPos, "threadTerminated(null)")
			return nil
		}
		for _, f := range e.sn.frames() {
			if f.thread == int(t-1) {
				return tm.Bool(f.done)
			}
		}
		r.fail(e, model.NullDereference, x.OpPos, "threadTerminated(null)")
		return nil
	}
	p, ok := r.place(e, x.X)
	if !ok || p.elems != nil || p.slot < 0 {
		if ok {
			r.limit(e, x.Pos(), "a lock chosen by abstracted data")
		}
		return nil
	}
	s := e.sn.st.Slots()
	me := int64(e.s.h.Thread() + 1)
	switch x.Op {
	case token.LOCKAVAILABLE:
		return tm.Bool(s[p.slot] == 0 || s[p.slot] == me)
	case token.HASLOCK:
		return tm.Bool(s[p.slot] == me)
	case token.WASNOTIFIED:
		return tm.Bool(s[p.slot+3]&(1<<uint(me-1)) != 0)
	}
	return nil
}

func (r *Runtime) unary(e *env, x *ast.UnaryExpr) *smt.Term {
	tm := r.tm
	v := r.expr(e, x.X)
	if v == nil {
		return nil
	}
	c, isLit := lit(v)
	switch x.Op {
	case token.NOT:
		switch v {
		case tm.True():
			return tm.False()
		case tm.False():
			return tm.True()
		}
		return tm.Not(v)
	case token.ADD:
		return v
	case token.TILDE:
		if isLit {
			return tm.Int(^c)
		}
		return smtops.Complement(tm, v)
	case token.SUB:
		if r.info.Types[x].Wraps {
			if isLit {
				return tm.Int(int64(-uint64(c)))
			}
			return smtops.Wrap(tm, tm.Neg(v), 64, true)
		}
		if isLit {
			if c == math.MinInt64 {
				r.fail(e, model.Overflow, x.OpPos, "integer overflow: -(%d)", c)
				return nil
			}
			return tm.Int(-c)
		}
		if !r.mayFail(e, tm.Eq(v, tm.Int(math.MinInt64)), model.Overflow, x.OpPos, "integer overflow: -(%s)", format.Expr(x.X)) {
			return nil
		}
		return tm.Neg(v)
	}
	r.limit(e, x.OpPos, "operator %s", x.Op)
	return nil
}

// logic evaluates && || -> with BIR's short circuit: the right operand is
// evaluated only when the left one does not decide, and its runtime
// errors count only under that condition.
func (r *Runtime) logic(e *env, x *ast.BinaryExpr) *smt.Term {
	tm := r.tm
	a := r.expr(e, x.X)
	if a == nil {
		return nil
	}
	var decides *smt.Term // the left value that decides alone
	switch x.Op {
	case token.LAND:
		decides = tm.False()
	case token.LOR:
		decides = tm.True()
	case token.ARROW:
		decides = tm.False()
	}
	if a == decides {
		if x.Op == token.ARROW {
			return tm.True()
		}
		return a
	}
	cond := a
	if x.Op == token.LOR {
		cond = tm.Not(a)
	}
	var b *smt.Term
	if a == tm.True() || a == tm.False() {
		b = r.expr(e, x.Y)
	} else {
		e.conds = append(e.conds, cond)
		b = r.expr(e, x.Y)
		e.conds = e.conds[:len(e.conds)-1]
		if b == nil && e.dead && !r.stopped() {
			// the right operand fails wherever it is evaluated; where the
			// run goes on, the left operand decides
			e.dead = false
			if x.Op == token.LAND {
				return tm.False()
			}
			return tm.True()
		}
	}
	if b == nil {
		return nil
	}
	switch {
	case a == tm.True() && x.Op != token.LOR:
		return b
	case a == tm.False() && x.Op == token.LOR:
		return b
	}
	switch x.Op {
	case token.LAND:
		return tm.And(a, b)
	case token.LOR:
		return tm.Or(a, b)
	}
	return tm.Implies(a, b)
}

func (r *Runtime) binary(e *env, x *ast.BinaryExpr) *smt.Term {
	tm := r.tm
	switch x.Op {
	case token.LAND, token.LOR, token.ARROW:
		return r.logic(e, x)
	}
	a := r.expr(e, x.X)
	if a == nil {
		return nil
	}
	b := r.expr(e, x.Y)
	if b == nil {
		return nil
	}
	ca, la := lit(a)
	cb, lb := lit(b)
	both := la && lb
	switch x.Op {
	case token.IFF, token.EQL, token.NEQ:
		var eq *smt.Term
		switch {
		case a.IsBool() && (a == tm.True() || a == tm.False()) && (b == tm.True() || b == tm.False()):
			eq = tm.Bool(a == b)
		case both:
			eq = tm.Bool(ca == cb)
		default:
			eq = tm.Eq(a, b)
		}
		if x.Op == token.NEQ {
			return r.not(eq)
		}
		return eq
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		if both {
			switch x.Op {
			case token.LSS:
				return tm.Bool(ca < cb)
			case token.LEQ:
				return tm.Bool(ca <= cb)
			case token.GTR:
				return tm.Bool(ca > cb)
			}
			return tm.Bool(ca >= cb)
		}
		return smtops.Compare(tm, x.Op, a, b)
	case token.AND, token.OR, token.XOR, token.SHL, token.SHR:
		if both {
			v, ok := types.Bitwise(x.Op, ca, cb)
			if !ok {
				r.fail(e, model.ShiftCount, x.OpPos, "shift count %d out of range 0..63: %d %s %d", cb, ca, x.Op, cb)
				return nil
			}
			return tm.Int(v)
		}
		if v := smtops.Bitwise(tm, x.Op, a, b); v != nil {
			return v
		}
		r.limit(e, x.OpPos, "%s of abstracted data", x.Op)
		return nil
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM:
		return r.arith(e, x, a, b)
	}
	r.limit(e, x.OpPos, "operator %s", x.Op)
	return nil
}

func (r *Runtime) not(t *smt.Term) *smt.Term {
	tm := r.tm
	switch t {
	case tm.True():
		return tm.False()
	case tm.False():
		return tm.True()
	}
	return tm.Not(t)
}

// arith is a + - * / % b with BIR's int semantics: an overflow is a
// runtime error (in a conversion's operand + - * wrap modulo 2^64), / and
// % truncate, a zero divisor is an error.
func (r *Runtime) arith(e *env, x *ast.BinaryExpr, a, b *smt.Term) *smt.Term {
	tm := r.tm
	ca, la := lit(a)
	cb, lb := lit(b)
	wraps := r.info.Types[x].Wraps
	if la && lb {
		var v int64
		ok := true
		switch x.Op {
		case token.ADD:
			v = ca + cb
			ok = wraps || (v > ca) == (cb > 0)
		case token.SUB:
			v = ca - cb
			ok = wraps || (v < ca) == (cb > 0)
		case token.MUL:
			v = ca * cb
			ok = wraps || ca == 0 || cb == 0 || (v/cb == ca && !(ca == -1 && cb == math.MinInt64) && !(cb == -1 && ca == math.MinInt64))
		case token.QUO, token.REM:
			if cb == 0 {
				what := "division"
				if x.Op == token.REM {
					what = "remainder"
				}
				r.fail(e, model.DivisionByZero, x.OpPos, "%s by zero", what)
				return nil
			}
			switch {
			case cb == -1 && ca == math.MinInt64:
				if x.Op == token.REM {
					return tm.Int(0)
				}
				ok = false
			case x.Op == token.REM:
				v = ca % cb
			default:
				v = ca / cb
			}
		}
		if !ok {
			r.fail(e, model.Overflow, x.OpPos, "integer overflow: %d %s %d", ca, x.Op, cb)
			return nil
		}
		return tm.Int(v)
	}
	text := format.Expr(x)
	if x.Op == token.QUO || x.Op == token.REM {
		if !r.mayFail(e, tm.Eq(b, tm.Int(0)), model.DivisionByZero, x.OpPos, "division by zero in %s", text) {
			return nil
		}
	}
	v := smtops.Arith(tm, x.Op, a, b)
	if wraps {
		return smtops.Wrap(tm, v, 64, true)
	}
	var ovf *smt.Term
	if x.Op == token.QUO {
		ovf = tm.And(tm.Eq(a, tm.Int(math.MinInt64)), tm.Eq(b, tm.Int(-1)))
	} else if x.Op != token.REM {
		ovf = tm.Or(tm.Lt(v, tm.Int(math.MinInt64)), tm.Gt(v, tm.Int(math.MaxInt64)))
	}
	if ovf != nil && !r.mayFail(e, ovf, model.Overflow, x.OpPos, "integer overflow in %s", text) {
		return nil
	}
	return v
}
