package model

import (
	"bytes"
	"io"
	"slices"

	"birch/internal/source"
)

// level holds the buffers of one depth of an invisible run: level 0 is the
// state being expanded.
type level struct {
	s, work      []int64
	off, workOff []int
	choices      []int32
	counts       []int32
	intern       bool
	// work holds a copy of s except for the slots below fixedEnd and those
	// in dirtyLo..dirtyHi (when clean is true); otherwise it must be copied
	// in full.
	clean            bool
	dirtyLo, dirtyHi int
}

// prepareWork makes L.work a copy of L.s, copying only what the last run
// on it may have changed.
func (m *Model) prepareWork(L *level) {
	if !L.clean || len(L.work) != len(L.s) || len(L.workOff) != len(L.off) {
		L.work = append(L.work[:0], L.s...)
		L.workOff = append(L.workOff[:0], L.off...)
		return
	}
	n := m.poolOff + 1
	copy(L.work[:n], L.s[:n])
	copy(L.work[L.dirtyLo:L.dirtyHi], L.s[L.dirtyLo:L.dirtyHi])
	if m.checkEncoding && !slicesEqual(L.work, L.s) {
		panic("model: a run changed slots outside its thread's record")
	}
}

// noteWork records which slots of L.work a run of thread t may have
// changed: the fixed part and t's record when the layout did not change.
func (m *Model) noteWork(L *level, t int) {
	L.clean = false
	if len(L.work) != len(L.s) || len(L.workOff) != len(L.off) || L.workOff[t] != L.off[t] {
		return
	}
	lo := L.off[t]
	hi := len(L.s)
	if t+1 < len(L.off) {
		hi = L.off[t+1]
	}
	if m.threadEnd(L.work, lo) != hi {
		return
	}
	L.clean, L.dirtyLo, L.dirtyHi = true, lo, hi
}

func (m *Model) level(i int) *level {
	for len(m.levels) <= i {
		m.levels = append(m.levels, &level{})
	}
	return m.levels[i]
}

// Initial appends the encoding of the initial state to dst. A limit or an
// error while creating the main threads is reported as a Step (with
// Outcome Error or Limit) and ok false.
func (m *Model) Initial(dst []byte) (state []byte, fail *Step) {
	x := &m.x
	x.clearError()
	x.s = append(x.s[:0], m.init...)
	x.off = x.off[:0]
	x.t = -1
	for _, pi := range m.procs {
		if !pi.proc.Main {
			continue
		}
		fa := &frameArgs{pi: pi}
		x.args = x.args[:0]
		if x.spawn(fa, pi.proc.Pos()) < 0 {
			st := &Step{Outcome: x.outcome, Thread: len(x.off), Kind: x.kind, Msg: x.msg, Pos: x.pos}
			return dst, st
		}
	}
	if nat := m.opts.Native; nat != nil {
		c := x.native()
		c.pre, c.preOff, c.group, c.pos, c.noChoose = nil, nil, -1, source.NoPos, true
		r := nat.Initial(c)
		c.noChoose = false
		if x.nativeResult(r, source.NoPos) != rOK {
			if !x.failed {
				x.limit(source.NoPos, "native code blocked the initial state")
			}
			return dst, &Step{Outcome: x.outcome, Kind: x.kind, Msg: x.msg, Pos: x.pos}
		}
	}
	return m.appendState(dst, x.s), nil
}

// Next calls yield once for every outcome of every transformation enabled
// in state (an invisible run counts as one). It returns the number of
// outcomes and whether every thread has terminated. The Step passed to
// yield is reused; yield must not keep it.
func (m *Model) Next(state []byte, yield func(*Step)) (n int, allDone bool) {
	tc := &m.tc
	if !tc.allowed || m.x.print != nil || m.given != nil {
		return m.nextPlain(state, yield)
	}
	if tc.on {
		n, allDone = m.nextCached(state, yield)
	} else {
		n, allDone = m.nextPlain(state, yield)
	}
	tc.tick(n)
	return n, allDone
}

// nextPlain is Next without the transition cache.
func (m *Model) nextPlain(state []byte, yield func(*Step)) (n int, allDone bool) {
	l0 := m.level(0)
	if m.first.ok && string(state) == string(m.first.enc) {
		// the first successor of the last call: its slots are at hand
		l0.s, m.first.s = m.first.s, l0.s
		m.segs, m.first.segs = m.first.segs, m.segs
		if m.checkEncoding {
			d, segs, ok := m.decodeSegs(nil, nil, state)
			if !ok || !slicesEqual(d, l0.s) || !slices.Equal(segs, m.segs) {
				panic("model: the kept first successor differs from its decoding")
			}
		}
	} else {
		var ok bool
		l0.s, m.segs, ok = m.decodeSegs(l0.s, m.segs, state)
		if !ok {
			panic("model: Next on a state that is not the model's")
		}
	}
	m.first.ok = false
	m.src = state
	l0.off = m.threadOffsets(l0.s, l0.off)
	l0.intern = false
	l0.clean = false
	m.yield = yield
	m.emitted = 0
	allDone = true
	owner := -1
	if m.exclOff >= 0 {
		// a thread inside an invisible run keeps control while it can move
		if o := int(l0.s[m.exclOff]) - 1; o >= 0 && o < len(l0.off) && l0.s[l0.off[o]+thStatus] == 0 {
			owner = o
			allDone = false
			m.path = m.path[:0]
			if n, sure := m.expand(0, o); n > 0 && sure {
				m.yield, m.src = nil, nil
				return m.emitted, false
			}
		}
	}
	for t := range l0.off {
		if l0.s[l0.off[t]+thStatus] != 0 {
			continue
		}
		allDone = false
		if t == owner {
			continue
		}
		m.path = m.path[:0]
		m.expand(0, t)
	}
	m.yield = nil
	m.src = nil
	return m.emitted, allDone
}

// expand delivers the outcomes of thread t's enabled transformations in
// level lv's state, following invisible runs. It returns how many it
// delivered, and whether one of them came from a run that native code
// did not call unsure (NativeContext.Unsure): without one, the thread
// may be unable to move in some of the concrete states the state stands
// for.
func (m *Model) expand(lv, t int) (produced int, sure bool) {
	L := m.level(lv)
	x := &m.x
	th := L.off[t]
	fb := m.topFrame(L.s, th)
	pi := m.allProcs[L.s[fb+frProc]]
	li := pi.locs[L.s[fb+frLoc]]
	for _, gi := range li.groups {
		g := m.groups[gi]
		x.s, x.off, x.t, x.fb = L.s, L.off, t, fb
		x.clearError()
		x.unsure = false
		if g.guard(x) == 0 && !x.failed {
			continue
		}
		guardUnsure := x.unsure
		m.path = append(m.path, int32(gi))
		if x.failed {
			m.emitFail(t, L.intern)
			produced++
			sure = sure || !guardUnsure
			m.path = m.path[:len(m.path)-1]
			continue
		}
		x.choices, x.counts = L.choices[:0], L.counts[:0]
		mark, gmark := m.pbuf.Len(), m.givenLen()
		for {
			m.pbuf.Truncate(mark)
			m.givenTruncate(gmark)
			m.prepareWork(L)
			x.s, x.off, x.t, x.fb = L.work, L.workOff, t, fb
			x.clearError()
			x.cp = 0
			x.intern = false
			x.unsure = guardUnsure
			var r int
			if m.opts.Native == nil {
				r = m.run(g)
				L.work, L.workOff = x.s, x.off
				m.noteWork(L, t)
			} else {
				r = m.runNative(g, L)
			}
			intern := L.intern || x.intern
			runSure := !x.unsure
			switch r {
			case rFail:
				m.emitFail(t, intern)
				produced++
			case rOK:
				if m.exclOff >= 0 {
					// an invisible transformation is a step of its own, after
					// which its thread keeps control
					L.work[m.exclOff] = 0
					if g.Invisible && L.work[L.workOff[t]+thStatus] == 0 {
						// (a thread that terminated holds nothing)
						L.work[m.exclOff] = int64(t + 1)
					}
					m.emitOK(t, intern, L.work, L.workOff)
					produced++
					break
				}
				if !g.Invisible {
					m.emitOK(t, intern, L.work, L.workOff)
					produced++
					break
				}
				if lv+1 > m.opts.MaxInvisible {
					x.clearError()
					x.limit(g.Decl.Pos(), "invisible run of more than %d transformations", m.opts.MaxInvisible)
					m.emitFail(t, intern)
					produced++
					break
				}
				N := m.level(lv + 1)
				N.s, L.work = L.work, N.s
				N.off, L.workOff = L.workOff, N.off
				L.clean, N.clean = false, false
				N.intern = intern
				// the choice vector of this level survives the recursion
				saveC, saveN, saveCp := x.choices, x.counts, x.cp
				x.choices, x.counts = N.choices[:0], N.counts[:0]
				k, kSure := m.expand(lv+1, t)
				N.choices, N.counts = x.choices, x.counts
				x.choices, x.counts, x.cp = saveC, saveN, saveCp
				if k == 0 || !kSure {
					// the run rests here (in some of the states N.s
					// stands for, when every way on is unsure)
					m.emitOK(t, intern, N.s, N.off)
					produced++
				}
				produced += k
			}
			if r != rBlocked {
				sure = sure || runSure
			}
			if !x.nextChoice() {
				break
			}
		}
		L.choices, L.counts = x.choices, x.counts
		m.pbuf.Truncate(mark)
		m.givenTruncate(gmark)
		m.path = m.path[:len(m.path)-1]
	}
	return produced, sure
}

// run executes the actions of g and moves the thread on. The guard has
// been evaluated.
func (m *Model) run(g *group) int {
	x := &m.x
	switch r := runActions(x, g); {
	case r == rStop:
		return rOK
	case r != rOK:
		return r
	}
	if g.ret {
		return m.ret(g)
	}
	x.s[x.fb+frLoc] = int64(g.target)
	x.arriveAt(x.off[x.t], x.fb, g.proc, g.proc.locs[g.target])
	return rOK
}

// runNative is run with the native code's Begin and End around it, for
// the state of level L.
func (m *Model) runNative(g *group, L *level) int {
	x := &m.x
	x.nativeBegin(g, L.s, L.off)
	var r int
	switch {
	case x.failed:
		// (an error Begin records, in the guard, comes before the
		// actions: their blocking must not take it away)
		r = rFail
	case x.nblocked:
		// (nor may their failure be an outcome of a blocked run)
		r = rBlocked
	default:
		r = m.run(g)
	}
	if r == rOK {
		r = m.nativeEnd(g)
	}
	L.work, L.workOff = x.s, x.off
	// End may have written any thread's record: prepareWork copies all
	L.clean = false
	return r
}

// ret returns from the function frame on top of the current thread.
func (m *Model) ret(g *group) int {
	x := &m.x
	var v int64
	if g.result != nil {
		v = g.result(x)
	} else if g.resultN > 0 {
		if p := g.resultA(x); p >= 0 {
			x.tmp = append(x.tmp[:0], x.s[p:p+g.resultN]...)
		}
	}
	if x.failed {
		return rFail
	}
	th := x.off[x.t]
	site := m.groups[x.s[x.fb+frSite]-1]
	x.remove(x.fb, frHeader+g.proc.varSize, x.t)
	x.s[th+thDepth]--
	x.fb = m.topFrame(x.s, th)
	switch {
	case site.callStore != nil:
		site.callStore(x, v)
	case site.callAddr != nil:
		if p := site.callAddr(x); p >= 0 {
			copy(x.s[p:p+site.callN], x.tmp)
		}
	}
	if x.failed {
		return rFail
	}
	x.s[x.fb+frLoc] = int64(site.target)
	x.arrive(x.t)
	return rOK
}

// Print runs Next on state but writes the println output of the outcome
// with the given ordinal to w, and returns that outcome (nil if there is
// none). The Step is valid until the next call on m.
func (m *Model) Print(state []byte, ordinal int, w io.Writer) *Step {
	var got *Step
	m.printOrd = ordinal
	m.x.print = &m.pbuf
	m.pbuf.Reset()
	m.Next(state, func(st *Step) {
		if st.Ordinal == ordinal {
			w.Write(m.pbuf.Bytes())
			got = keptStep(st)
		}
	})
	m.x.print = nil
	m.printOrd = -1
	m.pbuf.Reset()
	return got
}

// GivenChoice is the value an unbounded choice took in a step of a model
// compiled with Options.ChoiceValues.
type GivenChoice struct {
	Pos   source.Pos // the choice action (its keyword)
	Value int64
}

// GivenChoices runs Next on state and returns the values the unbounded
// choices (Options.ChoiceValues) took in the outcome with the given
// ordinal, in the order they ran, and that outcome (nil if there is
// none). The Step is valid until the next call on m.
func (m *Model) GivenChoices(state []byte, ordinal int) ([]GivenChoice, *Step) {
	var rec, out []GivenChoice
	var got *Step
	m.given = &rec
	m.Next(state, func(st *Step) {
		if st.Ordinal == ordinal {
			out = append([]GivenChoice(nil), rec...)
			got = keptStep(st)
		}
	})
	m.given = nil
	return out, got
}

// keptStep is a copy of the outcome st that stays valid after the yield.
func keptStep(st *Step) *Step {
	c := *st
	c.slots, c.off, c.hit = nil, nil, nil
	c.Groups = append([]int32(nil), st.Groups...)
	c.State = append([]byte(nil), st.State...)
	return &c
}

func (m *Model) givenLen() int {
	if m.given == nil {
		return 0
	}
	return len(*m.given)
}

func (m *Model) givenTruncate(n int) {
	if m.given != nil {
		*m.given = (*m.given)[:n]
	}
}

func (m *Model) emitOK(t int, intern bool, s []int64, off []int) {
	tc := &m.tc
	switch {
	case m.opts.Native != nil:
		m.encodeNative(s)
	case m.emitted == 0:
		// keep the first successor's slots: a depth-first search expands
		// it next when it is new, and Next need not decode it
		f := &m.first
		f.segs = f.segs[:0]
		m.enc = m.appendSucc(m.enc[:0], s, off, m.src, m.levels[0].s, m.segs, t, &f.segs)
		f.s = append(f.s[:0], s...)
		f.enc = append(f.enc[:0], m.enc...)
		f.ok = true
		if tc.rec {
			tc.record(m.enc, f.segs, t, len(m.segs)-1, m.path, intern, s, m.levels[0].s, m.poolOff+1)
		}
	case tc.rec:
		tc.recSegs = tc.recSegs[:0]
		m.enc = m.appendSucc(m.enc[:0], s, off, m.src, m.levels[0].s, m.segs, t, &tc.recSegs)
		tc.record(m.enc, tc.recSegs, t, len(m.segs)-1, m.path, intern, s, m.levels[0].s, m.poolOff+1)
	default:
		m.enc = m.appendSucc(m.enc[:0], s, off, m.src, m.levels[0].s, m.segs, t, nil)
	}
	if m.checkEncoding {
		m.verifyEncoding(s)
	}
	st := &m.step
	if st.Outcome != OK || st.Kind != NoError {
		*st = Step{}
	}
	st.Ordinal, st.Thread, st.Groups, st.Intern, st.State = m.emitted, t, m.path, intern, m.enc
	st.slots, st.off, st.hit = s, off, nil
	m.emitted++
	m.yield(&m.step)
}

// encodeNative encodes the successor s into m.enc in full (End may have
// written any thread's record), keeping the first successor's slots.
func (m *Model) encodeNative(s []int64) {
	if m.emitted > 0 {
		m.enc = m.appendState(m.enc[:0], s)
		return
	}
	f := &m.first
	m.enc = m.appendStateSegs(m.enc[:0], s, &f.segs)
	f.s = append(f.s[:0], s...)
	f.enc = append(f.enc[:0], m.enc...)
	f.ok = true
}

func (m *Model) emitFail(t int, intern bool) {
	x := &m.x
	m.tc.recBad = true
	m.step = Step{Outcome: x.outcome, Ordinal: m.emitted, Thread: t, Groups: m.path, Intern: intern, Kind: x.kind, Msg: x.msg, Pos: x.pos}
	m.emitted++
	m.yield(&m.step)
}

var _ = source.NoPos

// printBuffer collects println output per outcome while Print runs.
type printBuffer = bytes.Buffer

// verifyEncoding panics unless m.enc decodes to s (tests turn it on).
func (m *Model) verifyEncoding(s []int64) {
	if full := m.appendState(nil, s); string(full) != string(m.enc) {
		panic("model: incremental encoding differs from the full encoding")
	}
	d, ok := m.decodeState(m.verifyBuf[:0], m.enc)
	m.verifyBuf = d
	if !ok || len(d) != len(s) {
		panic("model: encoding does not round-trip")
	}
	for i := range d {
		if d[i] != s[i] {
			panic("model: encoding does not round-trip")
		}
	}
}
