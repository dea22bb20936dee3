package apf

import (
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/source"
)

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

// snapshot is a state with its objects and frames, read when first
// asked for. The runtime keeps one for the current state and one for the
// state before the step, and refills them at every hook call.
type snapshot struct {
	st         model.NativeState
	objs       []object
	frs        []frame
	rawObjs    []model.NativeObject
	rawFrames  []model.Frame
	haveObjs   bool
	haveFrames bool
}

// reset makes sn the snapshot of ns.
func (sn *snapshot) reset(ns model.NativeState) {
	sn.st, sn.haveObjs, sn.haveFrames = ns, false, false
}

// objects returns the allocated objects.
func (sn *snapshot) objects() []object {
	if !sn.haveObjs {
		sn.rawObjs = sn.st.Objects(sn.rawObjs[:0])
		sn.objs = sn.objs[:0]
		for _, o := range sn.rawObjs {
			n, _ := o.Type.(*types.Named)
			sn.objs = append(sn.objs, object{ref: o.Ref, typ: n, coll: o.Coll})
		}
		sn.haveObjs = true
	}
	return sn.objs
}

// frames returns the frames, thread by thread, each from the bottom.
func (sn *snapshot) frames() []frame {
	if !sn.haveFrames {
		sn.rawFrames = sn.st.Frames(sn.rawFrames[:0])
		sn.frs = sn.frs[:0]
		for _, f := range sn.rawFrames {
			sn.frs = append(sn.frs, frame{thread: f.Thread, depth: f.Depth, proc: f.Proc, loc: f.Loc, done: f.Done})
		}
		sn.haveFrames = true
	}
	return sn.frs
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
	Block()
}

// step is the runtime's view of one hook call.
type step struct {
	h        hook
	cur, pre *snapshot
}

// result is a hook's outcome (model.NativeOK, NativeBlocked, NativeFailed).
type result int

const (
	resOK result = iota
	resBlocked
	resFailed
)
