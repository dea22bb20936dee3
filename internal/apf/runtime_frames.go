package apf

import (
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/types"
	"birch/internal/smt"
)

// frameEffects gives the frames a step created or returned to their
// abstracted values: a callee's or a started thread's parameters get the
// arguments' terms, a caller's left-hand side the result's, and the dead
// variables of the frames that arrived at a location their defaults.
func (r *Runtime) frameEffects(s *step, g int) bool {
	tr := r.groups[g]
	thread := s.h.Thread()
	preFrames := s.pre.frames()
	postFrames := s.cur.frames()
	preDepth, nPre := -1, 0
	for _, f := range preFrames {
		if f.thread == thread && f.depth > preDepth {
			preDepth = f.depth
		}
		nPre = max(nPre, f.thread+1)
	}
	var top frame
	found := false
	for _, f := range postFrames {
		if f.thread == thread && (!found || f.depth > top.depth) {
			top, found = f, true
		}
	}
	exited := false
	var starts []*ast.StartAction
	var call *ast.CallAction
	for _, a := range tr.Actions {
		switch a := a.(type) {
		case *ast.ExitAction:
			exited = true
		case *ast.StartAction:
			starts = append(starts, a)
		case *ast.CallAction:
			call = a
		}
	}
	if call != nil && found && top.depth == preDepth+1 {
		if !r.bindParams(s, top, call.Args) {
			return false
		}
	}
	k := 0
	var started []frame
	for _, f := range postFrames {
		if f.thread >= nPre && f.depth == 0 && k < len(starts) {
			if !r.bindParams(s, f, starts[k].Args) {
				return false
			}
			started = append(started, f)
			k++
		}
	}
	if tr.Return && found && !r.storeResult(s, g, top) {
		return false
	}
	if found && !exited {
		r.resetDead(top)
	}
	for _, f := range started {
		r.resetDead(f)
	}
	return !r.stopped()
}

// eachAbstracted calls fn for every slot of a value of type t that holds
// abstracted data, with its offset and type.
func eachAbstracted(t types.Type, off int64, fn func(off int64, t types.Type)) {
	if a, ok := t.Underlying().(*types.Array); ok {
		es := types.Slots(a.Elem)
		for k := int64(0); k < a.Len; k++ {
			eachAbstracted(a.Elem, off+k*es, fn)
		}
		return
	}
	if abstracted(t) {
		fn(off, t)
	}
}

// bindParams gives the abstracted parameters of the new frame f the terms
// of the arguments (stashed by value); an argument the model computed
// itself is read from the slot, which gets its default back.
func (r *Runtime) bindParams(s *step, f frame, args []ast.Expr) bool {
	e := &env{sn: s.cur, mode: modeRun, thread: f.thread, depth: f.depth, s: s, check: true}
	slots := s.cur.st.Slots()
	for i, p := range f.proc.Params {
		ok := true
		eachAbstracted(p.Type(), 0, func(off int64, t types.Type) {
			if !ok {
				return
			}
			pl, found := r.varPlace(e, p)
			if !found || i >= len(args) {
				ok = false
				return
			}
			pl = sub(pl, off, t)
			var v *smt.Term
			if off == 0 && abstracted(p.Type()) {
				v = r.stash[args[i]]
			}
			if v == nil {
				if _, isArr := p.Type().Underlying().(*types.Array); isArr {
					r.limit(e, args[i].Pos(), "a value array of abstracted data passed to %s", p.Name())
					ok = false
					return
				}
				v = r.tm.Int(slots[pl.slot])
				slots[pl.slot] = defaultValue(t)
			}
			ok = r.write(e, pl, v, args[i].Pos(), "parameter "+p.Name())
		})
		if !ok {
			if !r.stopped() {
				r.limit(e, f.proc.Pos(), "the parameters of %s", f.proc.Name())
			}
			return false
		}
	}
	return true
}

// storeResult stores the result of a returning function into the caller's
// left-hand side, when the model left that to the runtime.
func (r *Runtime) storeResult(s *step, g int, caller frame) bool {
	tr := r.groups[g]
	callee := r.procOf[g]
	e := &env{sn: s.cur, mode: modeRun, thread: caller.thread, depth: caller.depth, s: s, check: true}
	if callee.Result == nil || tr.Result == nil {
		return true
	}
	// the call site: the transformation whose call pushed the callee's
	// frame, in the state before the return
	site := s.pre.st.Site(caller.thread, caller.depth+1)
	if site < 0 || site >= len(r.groups) || len(r.groups[site].Actions) == 0 {
		r.limit(e, tr.Result.Pos(), "no call of %s", callee.Name())
		return false
	}
	c, ok := r.groups[site].Actions[len(r.groups[site].Actions)-1].(*ast.CallAction)
	if !ok {
		r.limit(e, tr.Result.Pos(), "no call of %s", callee.Name())
		return false
	}
	lhs := c.Lhs
	if lhs == nil {
		return true
	}
	v := r.stash[tr.Result]
	if v == nil {
		if !abstracted(callee.Result) && !abstracted(r.info.TypeOf(lhs)) {
			return true // the model stored it
		}
		tv := r.info.Types[tr.Result]
		if tv.Value.Kind != types.IntConst {
			r.limit(e, tr.Result.Pos(), "the result of %s was not handed to the runtime", callee.Name())
			return false
		}
		v = r.tm.Int(tv.Value.Int)
	}
	return r.storeTo(e, lhs, v, format.Expr(lhs))
}

// resetDead gives the dead abstracted variables of frame f, which arrived
// at its location, their defaults (as the model resets their slots).
func (r *Runtime) resetDead(f frame) {
	if f.loc == nil {
		return
	}
	for _, v := range f.loc.Dead() {
		eachAbstracted(v.Type(), 0, func(off int64, t types.Type) {
			k := locKey{kind: kLocal, thread: int32(f.thread), depth: int32(f.depth), v: v, off: off}
			r.overlay[k] = r.tm.Int(defaultValue(t))
		})
	}
}
