package model

import (
	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// Evaluator evaluates state conditions — invariants and the atomic
// propositions of ltl formulas — on encoded states. The conditions are
// expressions of the model's program (a property's formula, a predicate's
// definition, or a part of one), type-checked with the program, so that they
// may use everything predicates may: globals, constants, predicate names,
// thread location tests and remote references.
//
// Load names the state; Eval decodes what a condition needs (only the
// globals and the heap for a condition that reads no thread, the whole
// state otherwise), once per state, and evaluates it. Neither allocates,
// except to format the message of a runtime error. An Evaluator is
// independent of the Model's successor generation (it may be used inside a
// callback of Next) but, like the Model, is not safe for concurrent use.
type Evaluator struct {
	m       *Model
	conds   []evalFn
	threads []bool // condition i reads the thread pool
	x       exec
	state   []byte
	decoded int     // of state: 0 nothing, 1 the fixed part, 2 everything
	s       []int64 // the loaded state's slots: buf, or a successor's slots (LoadStep)
	off     []int
	buf     []int64 // decoded slots
	offBuf  []int
	segs    []int

	// a cached outcome of Next loaded by LoadStep (nil otherwise), and
	// the Next call it belongs to
	hit    *tcOut
	serial uint64
	// per condition that reads no thread: its value on the source state
	// of the hit steps of Next call serial, and the fixed slots that
	// evaluation traced (pairs of first slot and count): a successor whose
	// changes avoid them has the same value
	src []condMemo

	// holds: every state whose cached steps LoadStep loads satisfies
	// every condition without error (SourcesHold). reads[i]: the fixed
	// slots condition i may read in any state (pairs of first slot and
	// count), when they do not depend on the state (staticReads); nil
	// otherwise.
	holds     bool
	reads     [][]int32
	shortcuts int // conditions found true that way (for tests)
}

type condMemo struct {
	serial uint64
	v      bool
	err    *CondError
	reads  []int32
}

// CondError is a runtime error while evaluating a condition, for instance a
// null dereference in a remote reference's selection.
type CondError struct {
	Kind ErrorKind
	Msg  string
	Pos  source.Pos
}

func (e *CondError) Error() string { return e.Kind.String() + ": " + e.Msg }

// NewEvaluator compiles conds, which must belong to m's program (their types
// are read from its type information). It fails, with a positioned error,
// on an expression the engine cannot compile, such as one with a temporal
// operator.
func (m *Model) NewEvaluator(conds []ast.Expr) (ev *Evaluator, err error) {
	ev = &Evaluator{m: m}
	defer func() {
		if r := recover(); r != nil {
			ev, err = nil, m.compilePanic(r)
		}
	}()
	for _, c := range conds {
		ev.conds = append(ev.conds, m.expr(c, scope{}))
		ev.threads = append(ev.threads, m.readsThreads(c, map[*types.Predicate]bool{}))
		r, ok := m.staticReads(c, []int32{}, map[*types.Predicate]bool{})
		if !ok {
			r = nil
		}
		ev.reads = append(ev.reads, r)
	}
	ev.x.m = m
	return ev, nil
}

// SourcesHold declares that every state Next expands while ev evaluates its
// successors satisfies every condition of ev without a runtime error, as
// for invariants checked on every generated state (a state that violates
// one is never expanded: search.WithStateCheck makes it an error outcome).
// A condition whose slots are known statically (staticReads) is then true,
// without evaluation, on each cached step that changes none of them.
func (ev *Evaluator) SourcesHold() { ev.holds = true }

// staticReads appends to dst the fixed slots e may read, as pairs of first
// slot and count, when they are the same in every state: e reads only
// constants and global variables (a whole variable when it is indexed),
// directly or through predicates. ok is false for anything else (the heap,
// threads, locks' builtins): its reads are traced per state instead.
func (m *Model) staticReads(e ast.Expr, dst []int32, seen map[*types.Predicate]bool) ([]int32, bool) {
	if tv, ok := m.info.Types[e]; ok && tv.Value.Kind != types.NoConst {
		return dst, true
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		return dst, true
	case *ast.ParenExpr:
		return m.staticReads(e.X, dst, seen)
	case *ast.UnaryExpr:
		return m.staticReads(e.X, dst, seen)
	case *ast.ConvExpr:
		return m.staticReads(e.X, dst, seen)
	case *ast.BinaryExpr:
		dst, ok := m.staticReads(e.X, dst, seen)
		if !ok {
			return dst, false
		}
		return m.staticReads(e.Y, dst, seen)
	case *ast.IndexExpr:
		dst, ok := m.staticReads(e.X, dst, seen)
		if !ok {
			return dst, false
		}
		return m.staticReads(e.Index, dst, seen)
	case *ast.Ident:
		switch obj := m.info.Uses[e].(type) {
		case *types.Predicate:
			if seen[obj] || obj.Decl == nil || obj.Decl.Expr == nil {
				return dst, false
			}
			seen[obj] = true
			return m.staticReads(obj.Decl.Expr, dst, seen)
		case *types.Var:
			if obj.Kind == types.GlobalVar {
				if _, isLock := obj.Type().Underlying().(*types.Lock); !isLock {
					return append(dst, int32(m.globalOff[obj.Index]), int32(slotSize(obj.Type()))), true
				}
			}
		}
	}
	return dst, false
}

// readsThreads reports whether e reads the thread pool: a location test, a
// remote reference or threadTerminated, directly or through a predicate.
func (m *Model) readsThreads(e ast.Expr, seen map[*types.Predicate]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.LocationTest, *ast.RemoteRef:
			found = true
		case *ast.BuiltinExpr:
			if n.Op == token.THREADTERMINATED {
				found = true
			}
		case *ast.Ident:
			if p, ok := m.info.Uses[n].(*types.Predicate); ok && !seen[p] && p.Decl != nil && p.Decl.Expr != nil {
				seen[p] = true
				found = m.readsThreads(p.Decl.Expr, seen)
			}
		}
		return !found
	})
	return found
}

// Len returns the number of conditions.
func (ev *Evaluator) Len() int { return len(ev.conds) }

// Load makes state the state the following calls of Eval read. It must be
// a state of the model; state must not change until the next Load.
func (ev *Evaluator) Load(state []byte) {
	ev.state = state
	ev.decoded = 0
	ev.hit = nil
}

// decode decodes the loaded state up to the given level.
func (ev *Evaluator) decode(level int) {
	if ev.decoded >= level {
		return
	}
	m := ev.m
	if level == 1 && ev.hit != nil {
		ev.buf = m.hitFixed(ev.buf[:0], ev.hit)
		ev.s, ev.off = ev.buf, ev.offBuf[:0]
		ev.decoded = 1
		if m.checkEncoding {
			d, _ := m.decodeState(nil, ev.state)
			if !slicesEqual(d[:len(ev.buf)], ev.buf) {
				panic("model: a cached step's fixed slots differ from its state")
			}
		}
		return
	}
	if level == 1 {
		e := &m.encoding
		s := ev.buf[:0]
		if fb := e.fixedOff; fb != nil && (uint(fb[len(e.fixed)])+7)/8 <= uint(len(ev.state)) {
			s = decodeStatic(s, ev.state, 0, e.fixed, fb)
		} else {
			r := bitReader{buf: ev.state}
			var prev int64
			for _, f := range e.fixed {
				v := r.field(f, prev)
				s = append(s, v)
				prev = v
			}
		}
		ev.buf, ev.s, ev.off = s, s, ev.offBuf[:0]
		ev.decoded = 1
		return
	}
	var ok bool
	// decodeSegs with our own buffer: decodeState would allocate one
	ev.buf, ev.segs, ok = m.decodeSegs(ev.buf[:0], ev.segs, ev.state)
	if !ok {
		panic("model: Evaluator on a state that is not the model's")
	}
	ev.offBuf = m.threadOffsets(ev.buf, ev.offBuf[:0])
	ev.s, ev.off = ev.buf, ev.offBuf
	ev.decoded = 2
}

// LoadStep makes the successor state of st (an OK outcome, during the
// callback of Next that delivers it) the state conditions are evaluated
// on. It reads the successor's slots where Next has them, without decoding
// the state; they are valid only until the callback returns, and so is
// what LoadStep loaded. For another outcome, or a copy of a step, it is
// Load(st.State).
func (ev *Evaluator) LoadStep(st *Step) {
	ev.Load(st.State)
	if st == &ev.m.step && st.hit != nil {
		// a cached outcome: the source's fixed slots with the outcome's
		// changes, when a condition needs them (decode)
		ev.hit, ev.serial = st.hit, ev.m.tc.serial
		return
	}
	if st == &ev.m.step && st.slots != nil {
		// st is the step Next is delivering (not a copy)
		ev.s, ev.off = st.slots, st.off
		ev.decoded = 2
		if ev.m.checkEncoding {
			d, _ := ev.m.decodeState(nil, st.State)
			if !slicesEqual(d, st.slots) {
				panic("model: a step's slots differ from its state")
			}
		}
	}
}

// Eval evaluates condition i on the loaded state.
func (ev *Evaluator) Eval(i int) (bool, *CondError) {
	if ev.hit != nil && ev.holds && ev.reads[i] != nil && !ev.hitWrites(ev.reads[i]) {
		// true on the source, and none of the slots it reads changed
		if ev.m.checkEncoding {
			ev.decode(1)
			if w, werr := ev.eval(i); !w || werr != nil {
				panic("model: a condition declared to hold on the source is not true on an unchanged successor")
			}
		}
		ev.shortcuts++
		return true, nil
	}
	if ev.hit != nil && !ev.threads[i] {
		if v, err, ok := ev.evalUnchanged(i); ok {
			if ev.m.checkEncoding {
				ev.decode(1)
				if w, werr := ev.eval(i); w != v || (werr == nil) != (err == nil) {
					panic("model: a condition's value on a cached step differs from its source's")
				}
			}
			return v, err
		}
	}
	if ev.threads[i] {
		ev.decode(2)
	} else {
		ev.decode(1)
	}
	return ev.eval(i)
}

// eval evaluates condition i on the decoded slots.
func (ev *Evaluator) eval(i int) (bool, *CondError) {
	return ev.evalOn(i, ev.s, ev.off)
}

// evalOn evaluates condition i on slots s with thread records off.
func (ev *Evaluator) evalOn(i int, s []int64, off []int) (bool, *CondError) {
	x := &ev.x
	x.s, x.off, x.t, x.fb = s, off, -1, 0
	x.clearError()
	v := ev.conds[i](x)
	if x.failed {
		return false, &CondError{Kind: x.kind, Msg: x.msg, Pos: x.pos}
	}
	return v != 0, nil
}

// evalUnchanged returns the value of condition i (which reads no thread)
// on the loaded cached step when the step changes none of the fixed slots
// the condition read on the step's source state: the evaluation is then
// the same. ok is false when it cannot tell.
func (ev *Evaluator) evalUnchanged(i int) (v bool, err *CondError, ok bool) {
	m := ev.m
	if len(ev.src) != len(ev.conds) {
		ev.src = make([]condMemo, len(ev.conds))
	}
	c := &ev.src[i]
	if c.serial != ev.serial {
		// evaluate on the source, tracing the slots read
		x := &ev.x
		x.tracing, x.heapNoted, x.trace = true, false, x.trace[:0]
		c.v, c.err = ev.evalOn(i, m.srcFixedSlots(), nil)
		x.tracing = false
		c.reads = append(c.reads[:0], x.trace...)
		c.serial = ev.serial
	}
	if ev.hitWrites(c.reads) {
		return false, nil, false
	}
	return c.v, c.err, true
}

// hitWrites reports whether the loaded cached step changes a slot in reads
// (pairs of first slot and count).
func (ev *Evaluator) hitWrites(reads []int32) bool {
	tc := &ev.m.tc
	for _, f := range tc.fixes[ev.hit.fix : ev.hit.fix+ev.hit.nfix] {
		for k := 0; k < len(reads); k += 2 {
			if p := int(reads[k]); f.slot >= p && f.slot < p+int(reads[k+1]) {
				return true
			}
		}
	}
	return false
}

// Mask loads state and evaluates the first 64 conditions on it: bit i of
// the result is condition i. On a runtime error it returns the index of
// the failing condition and the error.
func (ev *Evaluator) Mask(state []byte) (mask uint64, failed int, err *CondError) {
	ev.Load(state)
	n := min(len(ev.conds), 64)
	for i := 0; i < n; i++ {
		v, err := ev.Eval(i)
		if err != nil {
			return 0, i, err
		}
		if v {
			mask |= 1 << uint(i)
		}
	}
	return mask, -1, nil
}
