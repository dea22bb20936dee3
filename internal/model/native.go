package model

import (
	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// Native is code outside BIR that takes part in the steps of a model (like
// the native peers of Java PathFinder): the model leaves some guards,
// actions and expressions to it, and calls it around every run of a
// transformation. On-the-fly predicate abstraction (internal/apf) is one:
// it keeps abstracted data out of the slots and the predicates over them
// in hidden variables.
//
// The model calls a Native from one goroutine at a time per Model (Clone
// shares it: a search that runs clones in parallel needs a Native safe for
// concurrent use).
type Native interface {
	// Replaces reports whether the model leaves n to the native code. The
	// model asks it, while it compiles, about every transformation's guard
	// expression (not an absent guard), every action except call, start
	// and exit (the model runs those; it asks about their parts), the
	// result expression of a `return e`, every argument expression of a
	// call or a start, and the Lhs of a CallAction; it asks only about
	// expressions of one slot (not of array or record type). A replaced
	// expression is computed by Value; a replaced action by Action; a
	// replaced call Lhs means the result is not stored by the model (End
	// stores what it needs).
	Replaces(n ast.Node) bool
	// Value computes a replaced expression in the current state (a guard:
	// 0 or 1; the value must be a valid value of the expression's type: a
	// result or an argument is still checked against the type it is
	// stored into). It may call Fail or Limit; Value of a guard may not
	// Choose. A guard's Value is called before Begin, once per expansion
	// of the state (not per alternative of the run's choices), with Pre
	// the state Cur returns.
	Value(c *NativeContext, e ast.Expr) int64
	// Action runs a replaced action.
	Action(c *NativeContext, a ast.Action) NativeResult
	// Begin is called before the actions of each run of a transformation
	// (once per alternative of its choices), after its guard held (an
	// error or limit Begin records fails the run before its actions, and
	// NativeContext.Block drops it before them); End
	// after the run completed normally (its actions, the move to the
	// target, a call's push or a return's pop and the caller's store of
	// the result), in the state after the step and before the step is
	// emitted or an invisible run goes on. End is not called after a run
	// that blocked or failed. End may write any slot (of any thread),
	// Choose, Fail, Limit or block (NativeBlocked: the run has no
	// outcome). g is the transformation's index in Groups; Group.Access
	// does not include what the native code reads or writes.
	Begin(c *NativeContext, g int)
	End(c *NativeContext, g int) NativeResult
	// Initial is called on the initial state (the main threads started)
	// before Initial returns it; it may write slots, Fail or Limit, not
	// Choose. NativeBlocked makes the initial state a limit.
	Initial(c *NativeContext) NativeResult
}

// NativeResult is the outcome of a native action or hook.
type NativeResult int

// Native results.
const (
	NativeOK      NativeResult = iota // go on
	NativeBlocked                     // the run is disabled on this path
	NativeFailed                      // an error or a limit, recorded by Fail or Limit
)

// NativeContext is the model's execution state during a call of a Native
// method. It is valid only during the call.
type NativeContext struct {
	x        *exec
	pre      []int64 // the state before the step
	preOff   []int
	group    int        // the transformation running, -1 in Initial
	pos      source.Pos // its position (for a limit of Choose)
	noChoose bool       // Choose is not allowed (a guard, Initial)
}

// native returns x's context for a call of the Native.
func (x *exec) native() *NativeContext {
	c := &x.nc
	c.x = x
	return c
}

// Thread returns the index of the current thread (its tid minus one), -1
// in Initial.
func (c *NativeContext) Thread() int { return c.x.t }

// Group returns the index in Groups of the transformation whose guard,
// action or hook runs, -1 in Initial.
func (c *NativeContext) Group() int { return c.group }

// Depth returns the depth of the current thread's top frame in the state
// being built (0 the bottom frame; after a call, the callee's), -1 in
// Initial.
func (c *NativeContext) Depth() int {
	x := c.x
	if x.t < 0 || x.t >= len(x.off) {
		return -1
	}
	return int(x.s[x.off[x.t]+thDepth]) - 1
}

// Cur returns the state being built. Its slots may be written (a write
// must keep the layout: only variable, field and element slots); they are
// valid until the model changes the state (the next action or hook).
func (c *NativeContext) Cur() NativeState { return NativeState{c.x.m, c.x.s, c.x.off} }

// Pre returns the state before the step (before the current
// transformation of an invisible run), which must not be written. In
// Initial and in the Value of a guard it is the state Cur returns.
func (c *NativeContext) Pre() NativeState {
	if c.pre == nil {
		return c.Cur()
	}
	return NativeState{c.x.m, c.pre, c.preOff}
}

// Choose returns the alternative to take at a choice point of n
// alternatives (n >= 1): the model runs the transformation once per
// alternative, as for a choose action. In a guard's Value or in Initial,
// and for n < 1, it records a limit and returns 0.
func (c *NativeContext) Choose(n int) int {
	x := c.x
	switch {
	case c.noChoose:
		x.limit(c.pos, "native code chose in a guard or in the initial state")
		return 0
	case n < 1:
		x.limit(c.pos, "native choice among %d alternatives", n)
		return 0
	}
	k := x.choose(n)
	if x.tooManyChoices(c.pos) {
		return 0
	}
	return k
}

// Unsure records that the current guard or run goes on for only some of
// the concrete states the current state stands for: native code took a
// guard or an assumption it could not decide, or chose an alternative (a
// value, a possible failure) that holds in some of them only. Where such
// guards and runs are the only ways for the thread to move inside an
// invisible run, the model also emits the state the run reached (where
// the concrete run may rest, and other threads move), and with
// ExposeInvisible lets the other threads move too: taking an undecided
// guard must not take away the outcomes of the guard being false.
func (c *NativeContext) Unsure() { c.x.unsure = true }

// Block, called in Begin, says the run has no outcome on this path (the
// native code found it infeasible): the model runs none of its actions.
// Elsewhere an Action or End returns NativeBlocked instead.
func (c *NativeContext) Block() { c.x.nblocked = true }

// Fail records a runtime error of kind k at pos: the step fails (the
// first error or limit of a step is the one reported).
func (c *NativeContext) Fail(k ErrorKind, pos source.Pos, msg string) {
	c.x.fail(k, pos, "%s", msg)
}

// Limit records that a bound was hit at pos: the step is a limit.
func (c *NativeContext) Limit(pos source.Pos, msg string) { c.x.limit(pos, "%s", msg) }

// Failed reports whether an error or a limit has been recorded in the
// current step.
func (c *NativeContext) Failed() bool { return c.x.failed }

// NativeState addresses the slots of a decoded state vector. Its methods
// return -1 where the place does not exist.
type NativeState struct {
	m   *Model
	s   []int64
	off []int
}

// NativeState decodes state into a new vector, for reading the slots of a
// state outside the hooks (it must be a state of m).
func (m *Model) NativeState(state []byte) NativeState {
	s, off := m.mustDecode(state)
	return NativeState{m, s, off}
}

// Slots returns the vector (written only through NativeContext.Cur).
func (s NativeState) Slots() []int64 { return s.s }

// Global returns the first slot of global v (-1: not a global of the
// model's program).
func (s NativeState) Global(v *types.Var) int {
	m := s.m
	if v == nil || v.Kind != types.GlobalVar || v.Index >= len(m.prog.Globals) || m.prog.Globals[v.Index] != v {
		return -1
	}
	return m.globalOff[v.Index]
}

// Threads returns the number of threads in the state.
func (s NativeState) Threads() int { return len(s.off) }

// frame returns the first slot of frame depth of thread, or -1.
func (s NativeState) frame(thread, depth int) int {
	if thread < 0 || thread >= len(s.off) || depth < 0 {
		return -1
	}
	th := s.off[thread]
	if depth >= int(s.s[th+thDepth]) {
		return -1
	}
	p := th + thHeader
	for ; depth > 0; depth-- {
		p += frHeader + s.m.allProcs[s.s[p+frProc]].varSize
	}
	return p
}

// Depth returns the number of frames of thread (-1: no such thread).
func (s NativeState) Depth(thread int) int {
	if thread < 0 || thread >= len(s.off) {
		return -1
	}
	return int(s.s[s.off[thread]+thDepth])
}

// Local returns the first slot of the local or parameter v in frame depth
// (0 the bottom frame) of thread; -1 when there is no such frame or the
// frame does not run v's proc.
func (s NativeState) Local(thread, depth int, v *types.Var) int {
	p := s.frame(thread, depth)
	if p < 0 || v == nil {
		return -1
	}
	pi := s.m.allProcs[s.s[p+frProc]]
	if pi.proc != v.Owner {
		return -1
	}
	i, ok := pi.varIndex[v]
	if !ok {
		return -1
	}
	return p + frHeader + pi.varOff[i]
}

// Field returns the first slot of field f of the object ref refers to; -1
// when ref is null or not an object, or f is not a field of the object's
// record type or of one of its supertypes.
func (s NativeState) Field(ref int64, f *types.Var) int {
	m := s.m
	if ref <= 0 || ref > int64(len(m.objBase)) || f == nil || f.Kind != types.FieldVar {
		return -1
	}
	c := m.colls[m.objColl[ref-1]]
	if c.array {
		return -1
	}
	for n := c.obj.Elem; n != nil; n = n.Super {
		rec, _ := n.Underlying().(*types.Record)
		if rec == nil {
			return -1
		}
		if f.Index < len(rec.Fields) && rec.Fields[f.Index] == f {
			return m.objBase[ref-1] + fieldOffset(rec, f)
		}
	}
	return -1
}

// Elem returns the first slot of element k of the heap array ref refers
// to; -1 when ref is null or not an array, or k is out of its bounds.
func (s NativeState) Elem(ref int64, k int64) int {
	m := s.m
	if ref <= 0 || ref > int64(len(m.objBase)) {
		return -1
	}
	c := m.colls[m.objColl[ref-1]]
	base := m.objBase[ref-1]
	if !c.array || k < 0 || k >= s.s[base] {
		return -1
	}
	return base + 1 + int(k)*c.elemSz
}

// Length returns the length of the heap array ref refers to (-1: null or
// not an array).
func (s NativeState) Length(ref int64) int64 {
	m := s.m
	if ref <= 0 || ref > int64(len(m.objBase)) || !m.colls[m.objColl[ref-1]].array {
		return -1
	}
	return s.s[m.objBase[ref-1]]
}

// NativeObject is an allocated object of a state.
type NativeObject struct {
	Ref  int64 // the reference to it (1 + its number among all objects)
	Coll *types.Collection
	Type types.Type // the collection's element type (a *types.Named): a record or an array
}

// Objects appends the allocated objects to dst, collection by collection
// in allocation order.
func (s NativeState) Objects(dst []NativeObject) []NativeObject {
	for _, c := range s.m.colls {
		n := int(s.s[c.off])
		for i := 0; i < n; i++ {
			dst = append(dst, NativeObject{Ref: int64(c.first + i + 1), Coll: c.obj, Type: c.obj.Elem})
		}
	}
	return dst
}

// Site returns the index in Groups of the transformation whose call
// pushed frame depth of thread, or -1 for a thread's bottom frame and for
// no such frame.
func (s NativeState) Site(thread, depth int) int {
	p := s.frame(thread, depth)
	if p < 0 {
		return -1
	}
	return int(s.s[p+frSite]) - 1
}

// Frames appends the frames of the state to dst, as Model.Frames does.
func (s NativeState) Frames(dst []Frame) []Frame { return s.m.appendFrames(dst, s.s, s.off) }

// nativeGuard compiles the guard of g left to the native code.
func nativeGuard(nat Native, g *group) evalFn {
	e, gi, pos := g.Decl.Guard, g.Index, g.Decl.Pos()
	return func(x *exec) int64 {
		c := x.native()
		c.pre, c.preOff, c.group, c.pos, c.noChoose = nil, nil, gi, pos, true
		v := nat.Value(c, e)
		c.noChoose = false
		return v
	}
}

// nativeExpr compiles an expression left to the native code.
func nativeExpr(nat Native, e ast.Expr) evalFn {
	return func(x *exec) int64 { return nat.Value(x.native(), e) }
}

// nativeAction compiles an action left to the native code.
func nativeAction(nat Native, a ast.Action) actFn {
	return func(x *exec) int {
		return x.nativeResult(nat.Action(x.native(), a), a.Pos())
	}
}

// nativeResult turns r into the result of an action: an error or a limit
// recorded during the call fails the run whatever r says.
func (x *exec) nativeResult(r NativeResult, pos source.Pos) int {
	switch {
	case x.failed:
		return rFail
	case r == NativeOK:
		return rOK
	case r == NativeBlocked:
		if x.explain {
			x.block = "native code blocked"
		}
		return rBlocked
	}
	x.limit(pos, "native code failed without saying why")
	return rFail
}

// replaces reports whether the native code computes the one-slot
// expression e.
func (m *Model) replaces(e ast.Expr) bool {
	nat := m.opts.Native
	return nat != nil && e != nil && nat.Replaces(e)
}

// nativeBegin calls Begin before a run of g on the state pre.
func (x *exec) nativeBegin(g *group, pre []int64, preOff []int) {
	c := x.native()
	c.pre, c.preOff, c.group, c.pos, c.noChoose = pre, preOff, g.Index, g.Decl.Pos(), false
	x.nblocked = false
	x.m.opts.Native.Begin(c, g.Index)
}

// nativeEnd calls End after a run of g that completed normally, and
// returns the run's result.
func (m *Model) nativeEnd(g *group) int {
	x := &m.x
	c := x.native()
	return x.nativeResult(m.opts.Native.End(c, g.Index), g.Decl.Pos())
}
