package apf

import (
	"birch/internal/bir/ast"
	"birch/internal/model"
)

// The Runtime is the model's native code (model.Options.Native).
var _ model.Native = (*Runtime)(nil)

func (r *Runtime) stepOf(c *model.NativeContext) *step {
	r.curSnap.reset(c.Cur())
	r.preSnap.reset(c.Pre())
	r.hookStep = step{h: c, cur: &r.curSnap, pre: &r.preSnap}
	return &r.hookStep
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
