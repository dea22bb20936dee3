package model

import (
	"errors"

	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// Frame is one frame of a thread of a state, as Frames lists them.
type Frame struct {
	Thread int         // the thread's index in the pool (its tid minus one)
	Depth  int         // 0 the bottom frame
	Proc   *types.Proc // the thread or function the frame runs
	Loc    *types.Location
	Top    bool // the top frame of its thread
	Done   bool // the thread has terminated
}

// Frames appends to dst the frames of state, thread by thread, each
// thread's from the bottom: the order of SplitData's data.
func (m *Model) Frames(state []byte, dst []Frame) []Frame {
	s, off := m.mustDecode(state)
	return m.appendFrames(dst, s, off)
}

// appendFrames is Frames on the decoded state s with thread records off.
func (m *Model) appendFrames(dst []Frame, s []int64, off []int) []Frame {
	for j, th := range off {
		d := int(s[th+thDepth])
		p := th + thHeader
		for k := 0; k < d; k++ {
			pi := m.allProcs[s[p+frProc]]
			dst = append(dst, Frame{Thread: j, Depth: k, Proc: pi.proc, Loc: pi.locs[s[p+frLoc]].loc, Top: k == d-1, Done: s[th+thStatus] != 0})
			p += frHeader + pi.varSize
		}
	}
	return dst
}

// FrameEvaluator evaluates conditions in the scope of a thread or a
// function (guards, the predicates of a [thread T] or [function f] scope)
// on one frame of a state at a time, or conditions over the globals. Like
// Evaluator, it does not allocate per evaluation and is not safe for
// concurrent use.
type FrameEvaluator struct {
	m     *Model
	conds []evalFn
	procs []*procInfo // per condition: its scope, nil for the globals
	x     exec
	buf   []int64
	off   []int
	segs  []int
}

// NewFrameEvaluator compiles conds, condition i in the scope of procs[i]
// (nil: the globals only). They must belong to m's program. It fails, with
// a positioned error, on an expression the engine cannot compile.
func (m *Model) NewFrameEvaluator(conds []ast.Expr, procs []*types.Proc) (fe *FrameEvaluator, err error) {
	fe = &FrameEvaluator{m: m}
	defer func() {
		if r := recover(); r != nil {
			fe, err = nil, m.compilePanic(r)
		}
	}()
	for i, c := range conds {
		var pi *procInfo
		if procs[i] != nil {
			pi = m.procOf(procs[i])
		}
		fe.conds = append(fe.conds, m.expr(c, scope{proc: pi}))
		fe.procs = append(fe.procs, pi)
	}
	fe.x.m = m
	return fe, nil
}

// Load decodes state for the following calls of Eval.
func (fe *FrameEvaluator) Load(state []byte) {
	var ok bool
	fe.buf, fe.segs, ok = fe.m.decodeSegs(fe.buf[:0], fe.segs, state)
	if !ok {
		panic("model: FrameEvaluator on a state that is not the model's")
	}
	fe.off = fe.m.threadOffsets(fe.buf, fe.off[:0])
}

// Eval evaluates condition i on the loaded state: in frame depth of
// thread index thread for a condition of a scope (the frame must run the
// condition's proc: Frames says which does), on the globals otherwise
// (thread and depth are ignored).
func (fe *FrameEvaluator) Eval(i, thread, depth int) (bool, *CondError) {
	v, err := fe.Value(i, thread, depth)
	return v != 0, err
}

// Value is Eval for an expression of any scalar type: its value as a
// slot holds it (a boolean 0 or 1, an enum value its ordinal, a reference
// 0 for null).
func (fe *FrameEvaluator) Value(i, thread, depth int) (int64, *CondError) {
	x := &fe.x
	x.s, x.off, x.t, x.fb = fe.buf, fe.off, -1, 0
	if pi := fe.procs[i]; pi != nil {
		if thread < 0 || thread >= len(fe.off) {
			return 0, &CondError{Kind: TypeError, Msg: "no such thread"}
		}
		th := fe.off[thread]
		if depth < 0 || depth >= int(fe.buf[th+thDepth]) {
			return 0, &CondError{Kind: TypeError, Msg: "no such frame"}
		}
		p := th + thHeader
		for k := 0; k < depth; k++ {
			p += frHeader + fe.m.allProcs[fe.buf[p+frProc]].varSize
		}
		if fe.m.allProcs[fe.buf[p+frProc]] != pi {
			return 0, &CondError{Kind: TypeError, Msg: "the frame runs another proc"}
		}
		x.t, x.fb = thread, p
	}
	x.clearError()
	v := fe.conds[i](x)
	if x.failed {
		return 0, &CondError{Kind: x.kind, Msg: x.msg, Pos: x.pos}
	}
	return v, nil
}

// compilePanic turns a compileError recovered from the compiler into a
// positioned error; it panics again with anything else.
func (m *Model) compilePanic(r any) error {
	ce, ok := r.(compileError)
	if !ok {
		panic(r)
	}
	if m.fset != nil && ce.pos.IsValid() {
		return &source.Error{Pos: m.fset.Position(ce.pos), Msg: ce.msg}
	}
	return errors.New(ce.msg)
}
