package apf

import (
	"fmt"

	"birch/internal/bir/ast"
	"birch/internal/model"
	"birch/internal/source"
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

// contain turns a panic of the runtime during a hook call into a limit of
// the step (a bug of the runtime makes the check inconclusive; it never
// crosses into the model), and sets *res to NativeFailed.
func (r *Runtime) contain(c *model.NativeContext, pos ast.Node, res *model.NativeResult) {
	if x := recover(); x != nil {
		r.status = resFailed
		var at source.Pos
		if pos != nil {
			at = pos.Pos()
		}
		c.Limit(at, fmt.Sprintf("on-the-fly predicate abstraction: internal error: %v", x))
		if res != nil {
			*res = model.NativeFailed
		}
	}
}

// group returns transformation g's syntax, or nil (with a limit) for an
// index the runtime does not know.
func (r *Runtime) group(c *model.NativeContext, g int) *ast.Transformation {
	if g < 0 || g >= len(r.groups) {
		r.status = resFailed
		c.Limit(source.NoPos, fmt.Sprintf("on-the-fly predicate abstraction: internal error: no transformation %d", g))
		return nil
	}
	return r.groups[g]
}

// Value computes a guard (0 or 1: an unknown guard is taken, with the
// guard as a fact of the run), an argument or a result (an abstracted
// one's term is kept for End, the value is the type's default), or any
// other expression (a choice among the values abstracted data allow).
func (r *Runtime) Value(c *model.NativeContext, e ast.Expr) int64 {
	defer r.contain(c, e, nil)
	return r.value(r.stepOf(c), e)
}

// Action runs an action that reads or writes abstracted data.
func (r *Runtime) Action(c *model.NativeContext, a ast.Action) (res model.NativeResult) {
	defer r.contain(c, a, &res)
	return nativeResult(r.action(r.stepOf(c), a))
}

// Begin starts a run of transformation g: an empty overlay and path, and
// the guard, when the runtime computes it, decided again (a fact of the
// run when undecided).
func (r *Runtime) Begin(c *model.NativeContext, g int) {
	defer r.contain(c, nil, nil)
	if r.group(c, g) != nil {
		r.begin(r.stepOf(c), g)
	}
}

// End decides the predicate instances the run may have changed.
func (r *Runtime) End(c *model.NativeContext, g int) (res model.NativeResult) {
	t := r.group(c, g)
	if t == nil {
		return model.NativeFailed
	}
	defer r.contain(c, t, &res)
	return nativeResult(r.end(r.stepOf(c), g))
}

// Initial decides every predicate instance of the initial state.
func (r *Runtime) Initial(c *model.NativeContext) (res model.NativeResult) {
	defer r.contain(c, nil, &res)
	return nativeResult(r.initial(r.stepOf(c)))
}
