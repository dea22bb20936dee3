package apf

import (
	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/model"
)

// The Runtime is the model's native code (model.Options.Native).
var _ model.Native = (*Runtime)(nil)

// nativeState adapts a model.NativeState to the runtime's view of a state.
type nativeState struct {
	model.NativeState
}

// snap is the snapshot of a model state; its objects and frames are read
// when first asked for.
func snap(ns model.NativeState) snapshot {
	var objs []object
	var frames []frame
	var haveObjs, haveFrames bool
	return snapshot{
		st: nativeState{ns},
		objects: func() []object {
			if !haveObjs {
				for _, o := range ns.Objects(nil) {
					n, _ := o.Type.(*types.Named)
					objs = append(objs, object{ref: o.Ref, typ: n, coll: o.Coll})
				}
				haveObjs = true
			}
			return objs
		},
		frames: func() []frame {
			if !haveFrames {
				for _, f := range ns.Frames(nil) {
					frames = append(frames, frame{thread: f.Thread, depth: f.Depth, proc: f.Proc, loc: f.Loc, done: f.Done})
				}
				haveFrames = true
			}
			return frames
		},
	}
}

func (r *Runtime) stepOf(c *model.NativeContext) *step {
	return &step{h: c, cur: snap(c.Cur()), pre: snap(c.Pre())}
}

func nativeResult(res result) model.NativeResult {
	switch res {
	case resBlocked:
		return model.NativeBlocked
	case resFailed:
		return model.NativeFailed
	}
	return model.NativeOK
}

// Replaces reports whether n reads or writes abstracted data
// (Program.Replaced).
func (r *Runtime) Replaces(n ast.Node) bool { return r.replaced[n] }

// Value computes a guard (0 or 1: an unknown guard is taken, with the
// guard as a fact of the run), an argument or a result (an abstracted
// one's term is kept for End, the value is the type's default), or any
// other expression (a choice among the values abstracted data allow).
func (r *Runtime) Value(c *model.NativeContext, e ast.Expr) int64 {
	return r.value(r.stepOf(c), e)
}

// Action runs an action that reads or writes abstracted data.
func (r *Runtime) Action(c *model.NativeContext, a ast.Action) model.NativeResult {
	return nativeResult(r.action(r.stepOf(c), a))
}

// Begin starts a run of transformation g: an empty overlay, and the guard
// as the path's first fact when its value was unknown.
func (r *Runtime) Begin(c *model.NativeContext, g int) { r.begin(r.stepOf(c), g) }

// End decides the predicate instances the run may have changed.
func (r *Runtime) End(c *model.NativeContext, g int) model.NativeResult {
	return nativeResult(r.end(r.stepOf(c), g))
}

// Initial decides every predicate instance of the initial state.
func (r *Runtime) Initial(c *model.NativeContext) model.NativeResult {
	return nativeResult(r.initial(r.stepOf(c)))
}
