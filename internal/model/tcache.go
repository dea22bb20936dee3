package model

import (
	"encoding/binary"
	"slices"
	"time"
)

// The transition cache memoizes what one thread's steps do. A step of
// thread t reads and writes only the fixed part of the state (globals,
// heap, thread count) and t's own record, unless it reads another thread
// (threadTerminated, a location test or a remote reference) or starts one.
// Its outcomes are therefore a function of
//
//	t, the fixed part's bytes, t's segment bytes
//
// and each outcome is a new fixed part and a new segment for t. Next looks
// this key up for every thread of the state it expands; on a hit it builds
// each successor by splicing the cached parts into the state's bytes,
// without decoding the state or executing a transformation. On a miss it
// expands the thread as usual and records the outcomes, unless the
// expansion read or created another thread or had an Error or Limit
// outcome (those are never cached).
//
// The same idea appears in LTSmin's cache of short transition vectors;
// here the projection is per thread rather than per read set.
//
// The cache is bounded (tcMaxBytes; when full it starts over) and turns
// itself off for the model when hits are rare, since a miss costs a
// lookup and a copy on top of the expansion.

const (
	tcMaxBytes = 2 << 20 // memory of the cache before it is cleared
	tcPhase    = 1 << 15 // outcomes per phase
	tcCycle    = 32      // phases per cycle
)

// Whether the cache pays depends on the model: on hits it saves executing
// and encoding a step, on misses it costs a lookup and a copy, and a state
// one of whose threads misses must still be decoded. So the search runs in
// phases of tcPhase outcomes, in cycles of tcCycle phases: the first phase
// of a cycle warms the cache, the second measures the time per outcome
// with it and the third without, and the rest use the faster way. Either
// way gives the same outcomes in the same order; only the speed differs.
type tcache struct {
	allowed bool // the model may use the cache
	on      bool // this phase uses it
	forced  bool // always on (CacheOn)

	phase    int // index in the cycle
	phaseOut int // outcomes so far in this phase
	phaseT0  time.Time
	costOn   float64 // ns per outcome in the last measuring phases
	costOff  float64

	table []uint32 // 1 + index into ents; 0 is empty
	ents  []tcEntry
	outs  []tcOut
	data  []byte  // keys and successor parts
	grps  []int32 // the Groups of the outcomes
	fixes []tcFix // the changed fixed slots of the outcomes

	// the fixed slots of the state nextCached expands, once decoded
	srcFixed   []int64
	srcFixedOK bool
	decodedSrc bool // level 0 holds the decoded state being expanded

	hits int // lookups that found their key (tests)

	// recording the outcomes of a miss
	rec     bool
	recBad  bool
	recOuts int // len(outs) when recording began
	recSegs []int
}

// init sets the mode; possible is false for a model whose steps the cache
// cannot describe (one with the invisible runs exposed).
func (tc *tcache) init(mode CacheMode, possible bool) {
	tc.allowed = possible && mode != CacheOff
	tc.on = tc.allowed
	tc.forced = mode == CacheOn
}

// tick counts n outcomes of the current phase and moves to the next phase
// when it is complete.
func (tc *tcache) tick(n int) {
	tc.phaseOut += n + 1 // (+1: a state without outcomes costs too)
	if tc.phaseOut < tcPhase || tc.forced {
		return
	}
	now := time.Now()
	cost := float64(now.Sub(tc.phaseT0)) / float64(tc.phaseOut)
	switch tc.phase {
	case 1:
		tc.costOn = cost
	case 2:
		tc.costOff = cost
	}
	tc.phase = (tc.phase + 1) % tcCycle
	switch tc.phase {
	case 0, 1:
		tc.on = true
	case 2:
		tc.on = false
	default:
		tc.on = tc.costOn <= tc.costOff
	}
	tc.phaseOut, tc.phaseT0 = 0, time.Now()
}

type tcEntry struct {
	h          uint64
	key, klen  uint32 // key bytes in data: 2 bytes of t, the fixed part, the segment
	out, nout  uint32 // outcomes in outs
	fixed, seg uint32 // lengths of the key's fixed part and segment
}

type tcOut struct {
	data       uint32 // the new fixed part, then the new segment, in data
	flen, slen uint32
	grp, glen  uint32 // Groups in grps
	fix, nfix  uint32 // the changed fixed slots in fixes
	intern     bool
}

// tcFix is one fixed slot an outcome changes, and its new value.
type tcFix struct {
	slot int
	v    int64
}

// bytes is the memory the cache holds.
func (tc *tcache) bytes() int {
	return cap(tc.table)*4 + cap(tc.ents)*48 + cap(tc.outs)*32 + cap(tc.data) + cap(tc.grps)*4 + cap(tc.fixes)*16
}

// used is the memory the cache's contents take.
func (tc *tcache) used() int {
	return len(tc.table)*4 + len(tc.ents)*48 + len(tc.outs)*32 + len(tc.data) + len(tc.grps)*4 + len(tc.fixes)*16
}

// reset empties the cache; free also gives its memory back.
func (tc *tcache) reset(free bool) {
	if free {
		tc.table, tc.ents, tc.outs, tc.data, tc.grps, tc.fixes = nil, nil, nil, nil, nil, nil
		return
	}
	clear(tc.table)
	tc.ents, tc.outs, tc.data, tc.grps, tc.fixes = tc.ents[:0], tc.outs[:0], tc.data[:0], tc.grps[:0], tc.fixes[:0]
}

func tcHash(t int, fixed, seg []byte) uint64 {
	h := uint64(t+1) * 0x9e3779b97f4a7c15
	h = mixBytes(h, fixed)
	h = mixBytes(h, seg)
	h ^= h >> 31
	return h
}

func mixBytes(h uint64, b []byte) uint64 {
	for len(b) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(b)) * 0xff51afd7ed558ccd
		h ^= h >> 32
		b = b[8:]
	}
	var w uint64
	for i := len(b) - 1; i >= 0; i-- {
		w = w<<8 | uint64(b[i])
	}
	h = (h ^ w ^ uint64(len(b))<<59) * 0xc4ceb9fe1a85ec53
	h ^= h >> 29
	return h
}

// find returns the entry for the key, or nil.
func (tc *tcache) find(h uint64, t int, fixed, seg []byte) *tcEntry {
	if len(tc.table) == 0 {
		return nil
	}
	mask := uint64(len(tc.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		k := tc.table[i]
		if k == 0 {
			return nil
		}
		e := &tc.ents[k-1]
		if e.h != h || int(e.fixed) != len(fixed) || int(e.seg) != len(seg) {
			continue
		}
		key := tc.data[e.key : e.key+e.klen]
		if key[0] == byte(t) && key[1] == byte(t>>8) &&
			string(key[2:2+len(fixed)]) == string(fixed) && string(key[2+len(fixed):]) == string(seg) {
			tc.hits++
			return e
		}
	}
}

// begin starts recording the outcomes of a thread's expansion.
func (tc *tcache) begin(x *exec) {
	tc.rec, tc.recBad = true, false
	tc.recOuts = len(tc.outs)
	x.nonlocal = false
}

// record keeps one OK outcome: enc is the successor, whose segments start
// at segs (relative to enc), of a state with nthreads threads; s and src
// are the slots of the successor and of the source state.
func (tc *tcache) record(enc []byte, segs []int, t, nthreads int, path []int32, intern bool, s, src []int64, nfixed int) {
	if tc.recBad {
		return
	}
	if len(segs) != nthreads+1 {
		// the step started a thread
		tc.recBad = true
		return
	}
	fixed, seg := enc[:segs[0]], enc[segs[t]:segs[t+1]]
	o := tcOut{data: uint32(len(tc.data)), flen: uint32(len(fixed)), slen: uint32(len(seg)),
		grp: uint32(len(tc.grps)), glen: uint32(len(path)), fix: uint32(len(tc.fixes)), intern: intern}
	for i, v := range s[:nfixed] {
		if v != src[i] {
			tc.fixes = append(tc.fixes, tcFix{i, v})
		}
	}
	o.nfix = uint32(len(tc.fixes)) - o.fix
	tc.data = append(tc.data, fixed...)
	tc.data = append(tc.data, seg...)
	tc.grps = append(tc.grps, path...)
	tc.outs = append(tc.outs, o)
}

// end finishes recording: the outcomes become the entry of the key unless
// the expansion was not cacheable.
func (tc *tcache) end(x *exec, h uint64, t int, fixed, seg []byte) {
	tc.rec = false
	if tc.recBad || x.nonlocal || tc.used() > tcMaxBytes {
		tc.outs = tc.outs[:tc.recOuts]
		if tc.used() > tcMaxBytes {
			tc.reset(false)
		}
		return
	}
	e := tcEntry{h: h, key: uint32(len(tc.data)), klen: uint32(2 + len(fixed) + len(seg)),
		out: uint32(tc.recOuts), nout: uint32(len(tc.outs) - tc.recOuts),
		fixed: uint32(len(fixed)), seg: uint32(len(seg))}
	tc.data = append(tc.data, byte(t), byte(t>>8))
	tc.data = append(tc.data, fixed...)
	tc.data = append(tc.data, seg...)
	tc.ents = append(tc.ents, e)
	if 2*len(tc.ents) > len(tc.table) {
		tc.grow()
		return
	}
	tc.place(len(tc.ents) - 1)
}

func (tc *tcache) place(k int) {
	mask := uint64(len(tc.table) - 1)
	i := tc.ents[k].h & mask
	for tc.table[i] != 0 {
		i = (i + 1) & mask
	}
	tc.table[i] = uint32(k + 1)
}

func (tc *tcache) grow() {
	n := max(2*len(tc.table), 1024)
	tc.table = make([]uint32, n)
	for k := range tc.ents {
		tc.place(k)
	}
}

// scanSegs finds the byte offsets of the thread segments of state (and
// its end) without decoding it. It succeeds when the fixed part has static
// widths and every thread is in the common shape (running or terminated,
// one frame, variables of static widths), whose length follows from its
// proc.
func (m *Model) scanSegs(segs []int, state []byte) ([]int, bool) {
	e := &m.encoding
	segs = segs[:0]
	if e.fixedOff == nil {
		return segs, false
	}
	end := uint(e.fixedOff[len(e.fixed)])
	i := int((end + uint(e.poolBits) + 7) / 8)
	if i > len(state) {
		return segs, false
	}
	n := int(getBits(state, end, uint(e.poolBits)))
	hb := uint(e.threadBits) + 2
	hn := int(hb+7) / 8
	for t := 0; t < n; t++ {
		segs = append(segs, i)
		if hn > len(state)-i {
			return segs, false
		}
		h := getBits(state[i:], 0, hb)
		proc, mode := h&(1<<e.threadBits-1), h>>e.threadBits
		if proc >= uint64(len(m.procs)) || mode > modeTerminated {
			return segs, false
		}
		k := m.procs[proc].enc.simpleBytes
		if k == 0 {
			return segs, false
		}
		i += k
	}
	segs = append(segs, i)
	return segs, i == len(state)
}

// nextCached is Next with the transition cache.
func (m *Model) nextCached(state []byte, yield func(*Step)) (n int, allDone bool) {
	tc := &m.tc
	l0 := m.level(0)
	tc.decodedSrc = false
	if m.first.ok && string(state) == string(m.first.enc) {
		l0.s, m.first.s = m.first.s, l0.s
		m.segs, m.first.segs = m.first.segs, m.segs
		tc.decodedSrc = true
	} else if segs, ok := m.scanSegs(m.segs, state); ok {
		m.segs = segs
	} else {
		m.segs = segs
		m.decodeLevel0(state)
		tc.decodedSrc = true
	}
	if tc.decodedSrc {
		l0.off = m.threadOffsets(l0.s, l0.off)
	}
	m.first.ok = false
	m.src = state
	tc.srcFixedOK = false
	l0.intern, l0.clean = false, false
	m.yield = yield
	m.emitted = 0
	allDone = true
	e := &m.encoding
	nthreads := len(m.segs) - 1
	fixed := state[:m.segs[0]]
	for t := range nthreads {
		seg := state[m.segs[t]:m.segs[t+1]]
		if tc.decodedSrc {
			if l0.s[l0.off[t]+thStatus] != 0 {
				continue
			}
		} else if getBits(seg, uint(e.threadBits), 2) != modeRunning {
			continue
		}
		allDone = false
		h := tcHash(t, fixed, seg)
		if ent := tc.find(h, t, fixed, seg); ent != nil {
			if m.checkEncoding {
				if !tc.decodedSrc {
					m.decodeLevel0(state)
					l0.off = m.threadOffsets(l0.s, l0.off)
					tc.decodedSrc = true
				}
				m.verifyHit(ent, t)
			}
			m.emitCached(ent, t, state)
			continue
		}
		if !tc.decodedSrc {
			m.decodeLevel0(state)
			l0.off = m.threadOffsets(l0.s, l0.off)
			tc.decodedSrc = true
		}
		m.path = m.path[:0]
		tc.begin(&m.x)
		m.expand(0, t)
		tc.end(&m.x, h, t, fixed, seg)
	}
	m.yield = nil
	m.src = nil
	return m.emitted, allDone
}

// hitFixed appends the fixed slots (with the thread count) of the
// successor a cached outcome o of the state being expanded leads to.
func (m *Model) hitFixed(dst []int64, o *tcOut) []int64 {
	tc := &m.tc
	n := m.poolOff + 1
	if !tc.srcFixedOK {
		if l0 := m.level(0); len(m.segs) > 0 && tc.decodedSrc {
			tc.srcFixed = append(tc.srcFixed[:0], l0.s[:n]...)
		} else {
			e := &m.encoding
			tc.srcFixed = decodeStatic(tc.srcFixed[:0], m.src, 0, e.fixed, e.fixedOff)
			tc.srcFixed = append(tc.srcFixed, int64(getBits(m.src, uint(e.fixedOff[len(e.fixed)]), uint(e.poolBits))))
		}
		tc.srcFixedOK = true
	}
	dst = append(dst, tc.srcFixed[:n]...)
	for _, f := range tc.fixes[o.fix : o.fix+o.nfix] {
		dst[f.slot] = f.v
	}
	return dst
}

// decodeLevel0 decodes state into level 0 and m.segs.
func (m *Model) decodeLevel0(state []byte) {
	l0 := m.level(0)
	var ok bool
	l0.s, m.segs, ok = m.decodeSegs(l0.s, m.segs, state)
	if !ok {
		panic("model: Next on a state that is not the model's")
	}
}

// emitCached delivers the cached outcomes of thread t in state.
func (m *Model) emitCached(ent *tcEntry, t int, state []byte) {
	tc := &m.tc
	segs := m.segs
	before, after := state[segs[0]:segs[t]], state[segs[t+1]:]
	for k := range tc.outs[ent.out : ent.out+ent.nout] {
		o := &tc.outs[int(ent.out)+k]
		enc := append(m.enc[:0], tc.data[o.data:o.data+o.flen]...)
		enc = append(enc, before...)
		enc = append(enc, tc.data[o.data+o.flen:o.data+o.flen+o.slen]...)
		enc = append(enc, after...)
		m.enc = enc
		st := &m.step
		if st.Outcome != OK || st.Kind != NoError {
			*st = Step{}
		}
		st.Ordinal, st.Thread, st.Groups, st.Intern, st.State = m.emitted, t, tc.grps[o.grp:o.grp+o.glen:o.grp+o.glen], o.intern, enc
		st.slots, st.off, st.hit = nil, nil, o
		m.emitted++
		m.yield(st)
	}
}

// verifyHit panics unless expanding thread t of the decoded level-0 state
// gives the cached outcomes (tests turn it on with checkEncoding).
func (m *Model) verifyHit(ent *tcEntry, t int) {
	type out struct {
		state  string
		groups []int32
		intern bool
	}
	var got []out
	yield, emitted := m.yield, m.emitted
	m.yield = func(st *Step) {
		if st.Outcome != OK {
			panic("model: a cached thread has an Error or Limit outcome")
		}
		got = append(got, out{string(st.State), slices.Clone(st.Groups), st.Intern})
	}
	m.path = m.path[:0]
	m.expand(0, t)
	m.yield, m.emitted = yield, emitted
	var want []out
	m.yield = func(st *Step) {
		want = append(want, out{string(st.State), slices.Clone(st.Groups), st.Intern})
	}
	m.emitCached(ent, t, m.src)
	m.yield, m.emitted = yield, emitted
	if len(got) != len(want) {
		panic("model: the transition cache gives a different number of outcomes")
	}
	for i := range got {
		if got[i].state != want[i].state || !slices.Equal(got[i].groups, want[i].groups) || got[i].intern != want[i].intern {
			panic("model: the transition cache gives a different outcome")
		}
	}
}
