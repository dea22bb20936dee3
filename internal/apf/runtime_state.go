package apf

import (
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/source"
)

// state is what the runtime reads and writes of one decoded state vector
// (model.NativeState implements it). A slot index of -1 means "no such
// place".
type state interface {
	Slots() []int64
	Global(v *types.Var) int
	Local(thread, depth int, v *types.Var) int
	Field(ref int64, f *types.Var) int
	Elem(ref int64, k int64) int
	Length(ref int64) int64
	// Site is the index of the transformation whose call pushed a frame,
	// -1 for a thread's bottom frame
	Site(thread, depth int) int
}

// object is an allocated object of a state.
type object struct {
	ref  int64
	typ  *types.Named // its record or array type
	coll *types.Collection
}

// frame is a frame of a state.
type frame struct {
	thread, depth int
	proc          *types.Proc
	loc           *types.Location
	done          bool // its thread has terminated
}

// snapshot is a state with its objects and frames.
type snapshot struct {
	st      state
	objects func() []object
	frames  func() []frame
}

// hook is the model's side of one hook call (model.NativeContext):
// the current thread and frame, the state being built and the one before
// the step, choice points and failures.
type hook interface {
	Thread() int
	Depth() int
	Choose(n int) int
	Fail(k model.ErrorKind, pos source.Pos, msg string)
	Limit(pos source.Pos, msg string)
	Unsure()
}

// step is the runtime's view of one hook call.
type step struct {
	h        hook
	cur, pre snapshot
}

// result is a hook's outcome (model.NativeOK, NativeBlocked, NativeFailed).
type result int

const (
	resOK result = iota
	resBlocked
	resFailed
)
