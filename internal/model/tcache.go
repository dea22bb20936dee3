package model

import (
	"encoding/binary"
	"slices"
	"time"

	"birch/internal/cputime"
)

// The transition cache memoizes what one thread's steps do. A step of
// thread t reads and writes only the fixed part of the state (globals,
// heap, thread count) and t's own record, unless it reads another thread
// (threadTerminated, a location test or a remote reference) or starts one;
// such a step is never cached (exec.nonlocal), and neither is one with an
// Error or Limit outcome.
//
// While the cache records a thread's expansion, the run traces the slots
// of the fixed part it reads or writes (exec.note: global variables, the
// elements of global arrays it indexes, only the fields of a lock that a
// lock operation uses, the whole heap when it touches any object). The run is deterministic, so its trace and outcomes are a
// function of t, t's segment bytes and the values of the traced slots: in
// another state with the same values there, the same reads return the
// same values, so the run takes the same path, reads the same slots and
// writes the same values (each outcome keeps the traced slots it changed,
// and its new segment for t). The cache has two levels:
//
//	(t, segment)                  -> up to tcMaxSets traced slot sets R
//	(t, segment, R, values at R)  -> the outcomes
//
// A lookup tries each set R known for (t, segment). On a hit the
// successors are built from the state's bytes by patching the changed
// slots and replacing t's segment, without decoding the state or running
// a transformation. On a miss the thread is expanded as usual and traced.
// When the fixed part has a field of variable width (an int), the slot
// set is always the whole fixed part and its bytes are the values.
//
// LTSmin's cache of short transition vectors is the same idea with read
// sets from a static dependency matrix; here they are traced per run, so
// that a[i] with i local reads one element.
//
// The cache is bounded (tcMaxBytes; when full it starts over).

const (
	tcMaxBytes = 4 << 20 // memory of the cache before it is cleared (tcache.maxBytes)
	tcMaxSets  = 8       // slot sets per (t, segment)
	tcPhase    = 1 << 16 // outcomes per phase
	tcCycle    = 32      // phases per cycle, at first
	tcMaxCycle = 512     // phases per cycle at most
)

// Whether the cache pays depends on the model: on hits it saves executing
// and encoding a step, on misses it costs lookups, tracing and a copy, and
// a state one of whose threads misses must still be decoded. So the search
// runs in phases of tcPhase outcomes, in cycles of tcCycle phases: the
// first phase of a cycle warms the cache, the next four measure the time
// per outcome with, without, without and with it (the least of the two
// measurements of each way counts, so that one slow phase, say one in
// which the state store doubled its table, does not decide), and the rest
// use the faster way; the way of the cycle before stays unless the other
// measured at least a tenth cheaper, so that noise does not flip it. The
// time is the process's CPU time where the system gives it, so that
// waiting for a core does not count. Either way
// gives the same outcomes in the same order; only the speed differs.
//
// Measuring costs: two phases of each cycle run the slower way. So a cycle
// whose measuring phases find one way at least a quarter cheaper than the
// other lasts twice as long as the cycle before (up to tcMaxCycle phases,
// some 3*10^7 outcomes), and one that finds the two closer lasts tcCycle
// phases.
type tcache struct {
	allowed bool // the model may use the cache
	on      bool // this phase uses it
	useOn   bool // the way the cycle's phases after the measuring ones use
	forced  bool // always on (CacheOn)
	whole   bool // the slot set is always the whole fixed part

	phase    int // index in the cycle
	cycle    int // phases in this cycle: tcCycle to tcMaxCycle
	phaseOut int // outcomes so far in this phase
	phaseT0  time.Duration
	clock    func() time.Duration // the clock (tests replace it)
	maxBytes int                  // tcMaxBytes (tests lower it)
	phaseLen int                  // tcPhase (tests lower it)
	resets   int                  // times the cache was cleared
	costOn   float64              // ns per outcome in the last measuring phases
	costOff  float64

	table1 []uint32 // 1 + index into l1s; 0 is empty
	l1s    []tcL1
	ents   []tcEntry // the second level, open addressing (no index table:
	nents  int       // one dependent load fewer per probe)
	outs   []tcOut
	data   []byte  // keys and segments
	grps   []int32 // the Groups of the outcomes
	fixes  []tcFix // the changed fixed slots of the outcomes
	sets   []tcSet
	setIDs map[string]int32 // a set's ranges, as bytes -> its index in sets

	key  []byte // a long first-level key being looked up
	vals []byte // long values being looked up

	// the fixed slots of the state nextCached expands, once decoded
	srcFixed   []int64
	srcFixedOK bool
	decodedSrc bool // level 0 holds the decoded state being expanded

	running []bool   // whether each thread is running (scanSegs)
	hits    int      // lookups that found their key (tests)
	memo    []tcMemo // per thread, its last hit (lookup)
	gen     uint32   // changes when entries move or go (memo validity)
	serial  uint64   // counts the calls of nextCached

	// recording the outcomes of a miss
	rec                        bool
	recBad                     bool
	recOuts                    int // len(outs) when recording began, and of the others
	recData, recGrps, recFixes int
	recSegs                    []int
	mark                       []bool // scratch: traced slots
}

// tcL1 is a first-level entry: the slot sets known for (t, segment).
type tcL1 struct {
	h         uint64
	k         uint64 // the key packed in a word when it is short (key1), else 0
	key, klen uint32 // the key, t (2 bytes) and the segment, in data
	sets      [tcMaxSets]int32
	nsets     int32
}

// tcEntry is a second-level entry: the outcomes of the first-level entry
// l1 when the slots of its set are the values v (packed in a word when
// they fit, else the bytes data[vkey:vkey+vlen]).
type tcEntry struct {
	h          uint64
	v          uint64
	l1p, set   int32 // l1p: 1 + l1; 0 marks an empty slot of ents
	vkey, vlen uint32
	out, nout  uint32
}

type tcOut struct {
	seg, slen uint32 // the new segment, in data
	fixed     uint32 // the new fixed part, in data (whole mode only)
	flen      uint32
	grp, glen uint32 // Groups in grps
	fix, nfix uint32 // the changed fixed slots in fixes
	intern    bool
}

// tcFix is one fixed slot an outcome changes, and its new value.
type tcFix struct {
	slot int
	v    int64
}

// tcSet is a traced slot set, as the bit ranges of its fields in the
// encoding (at most 56 bits each), in slot order.
type tcSet struct {
	slots  []int32
	ranges []tcRange
	short  bool // the ranges' widths add up to at most 64 bits
}

type tcRange struct {
	off   uint32
	width uint8
}

// init sets the mode; possible is false for a model whose steps the cache
// cannot describe (one with the invisible runs exposed).
func (tc *tcache) init(mode CacheMode, possible bool, whole bool) {
	tc.allowed = possible && mode != CacheOff
	tc.on = tc.allowed
	tc.useOn = true
	tc.forced = mode == CacheOn
	tc.whole = whole
	tc.clock = cpuClock
	tc.maxBytes = tcMaxBytes
	tc.phaseLen = tcPhase
	tc.cycle = tcCycle
}

// tick counts n outcomes of the current phase and moves to the next phase
// when it is complete.
func (tc *tcache) tick(n int) {
	tc.phaseOut += n + 1 // (+1: a state without outcomes costs too)
	if tc.phaseOut < tc.phaseLen || tc.forced {
		return
	}
	now := tc.clock()
	cost := float64(now-tc.phaseT0) / float64(tc.phaseOut)
	switch tc.phase {
	case 1:
		tc.costOn = cost
	case 2:
		tc.costOff = cost
	case 3:
		tc.costOff = min(tc.costOff, cost)
	case 4:
		tc.costOn = min(tc.costOn, cost)
	}
	tc.phase = (tc.phase + 1) % tc.cycle
	switch tc.phase {
	case 0, 1, 4:
		tc.on = true
	case 2, 3:
		tc.on = false
	case 5:
		// the way of the last cycle stays unless the other measured at
		// least a tenth cheaper: a phase is some 20 ms, and on a shared
		// machine one way can measure cheaper by chance
		if tc.useOn && 10*tc.costOff < 9*tc.costOn {
			tc.useOn = false
		} else if !tc.useOn && 10*tc.costOn < 9*tc.costOff {
			tc.useOn = true
		}
		tc.on = tc.useOn
		if lo, hi := min(tc.costOn, tc.costOff), max(tc.costOn, tc.costOff); 4*lo <= 3*hi {
			tc.cycle = min(2*tc.cycle, tcMaxCycle)
		} else {
			tc.cycle = tcCycle
		}
	}
	tc.phaseOut, tc.phaseT0 = 0, now
}

// cpuClock reads the process's CPU time (the search is its one busy
// thread), or the wall clock where the system does not give it exactly.
func cpuClock() time.Duration {
	if d, ok := cputime.Process(); ok {
		return d
	}
	return time.Since(clockStart)
}

var clockStart = time.Now()

// CacheBytes returns the memory the transition cache holds (at most about
// tcMaxBytes plus its tables).
func (m *Model) CacheBytes() int64 {
	tc := &m.tc
	return int64(cap(tc.table1)*4 + cap(tc.l1s)*48 + cap(tc.ents)*40 + cap(tc.outs)*36 + cap(tc.data) +
		cap(tc.grps)*4 + cap(tc.fixes)*16 + cap(tc.sets)*64)
}

// used is the memory the cache's contents take.
func (tc *tcache) used() int {
	return len(tc.table1)*4 + len(tc.l1s)*48 + len(tc.ents)*40 + len(tc.outs)*36 +
		len(tc.data) + len(tc.grps)*4 + len(tc.fixes)*16 + len(tc.sets)*64
}

// reset empties the cache.
func (tc *tcache) reset() {
	if len(tc.ents)*40 > tc.maxBytes/4 {
		tc.ents = nil // (grown large: start small again)
	}
	if len(tc.table1)*4 > tc.maxBytes/4 {
		tc.table1 = nil
	}
	clear(tc.ents)
	clear(tc.table1)
	tc.nents = 0
	tc.gen++
	tc.l1s, tc.outs, tc.data, tc.grps, tc.fixes = tc.l1s[:0], tc.outs[:0], tc.data[:0], tc.grps[:0], tc.fixes[:0]
	tc.sets, tc.setIDs = tc.sets[:0], nil
	tc.resets++
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

// mix64 hashes one word with one multiplication: the high half is folded
// in first, and the product's high bits into the low ones that index the
// tables, so that every bit of x reaches the index.
func mix64(x uint64) uint64 {
	x ^= x >> 32
	x *= 0x9e3779b97f4a7c15
	return x ^ x>>29
}

// mix2 hashes two words.
func mix2(a, b uint64) uint64 {
	return mix64(a*0xc4ceb9fe1a85ec53 ^ b)
}

// key1 returns the first-level key of thread t with segment seg, packed
// in a word when it is short (t below 2^16, at most 5 bytes of segment;
// never 0), else 0 with the key's bytes in tc.key; and its hash.
func (tc *tcache) key1(t int, seg []byte) (k, h uint64) {
	if t < 1<<16 && len(seg) <= 5 {
		k = uint64(t) | uint64(len(seg))<<16
		if cap(seg) >= 8 {
			// one load of the segment's bytes and whatever follows
			// them in the state, masked to the segment
			w := binary.LittleEndian.Uint64(seg[:8])
			k |= (w & (1<<(8*len(seg)) - 1)) << 24
		} else {
			for i, b := range seg {
				k |= uint64(b) << (24 + 8*i)
			}
		}
		return k, mix64(k)
	}
	tc.key = append(tc.key[:0], byte(t), byte(t>>8))
	tc.key = append(tc.key, seg...)
	return 0, mixBytes(uint64(t+1)*0x9e3779b97f4a7c15, seg)
}

// find1 returns the index of the first-level entry with key k (tc.key
// when k is 0) and hash h, or -1.
func (tc *tcache) find1(k, h uint64) int32 {
	if len(tc.table1) == 0 {
		return -1
	}
	mask := uint64(len(tc.table1) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		j := tc.table1[i]
		if j == 0 {
			return -1
		}
		e := &tc.l1s[j-1]
		if e.h == h && e.k == k && (k != 0 || string(tc.data[e.key:e.key+e.klen]) == string(tc.key)) {
			return int32(j - 1)
		}
	}
}

// values returns the values of the slots of set k (-1: the whole fixed
// part) in state, packed in a word when they fit (short), else as bytes
// in tc.vals; and their hash, which also covers the first-level entry l1
// and the set.
func (tc *tcache) values(l1, k int32, state, fixed []byte) (v uint64, short bool, h uint64) {
	seed := uint64(uint32(l1))<<32 | uint64(uint32(k))
	if k >= 0 {
		set := &tc.sets[k]
		if set.short {
			sh := uint(0)
			for _, r := range set.ranges {
				v |= getBits(state, uint(r.off), uint(r.width)) << sh
				sh += uint(r.width)
			}
			return v, true, mix2(seed, v)
		}
		tc.vals = tc.vals[:0]
		for _, r := range set.ranges {
			tc.vals = binary.LittleEndian.AppendUint64(tc.vals, getBits(state, uint(r.off), uint(r.width)))
		}
		return 0, false, mixBytes(seed, tc.vals)
	}
	if len(fixed) <= 7 {
		for i, b := range fixed {
			v |= uint64(b) << (8 * i)
		}
		v |= uint64(len(fixed)) << 56
		return v, true, mix2(seed, v)
	}
	tc.vals = append(tc.vals[:0], fixed...)
	return 0, false, mixBytes(seed, tc.vals)
}

// find returns the index in ents of the second-level entry of
// first-level entry l1, set k and values v (tc.vals when not short) with
// hash h, or -1.
func (tc *tcache) find(l1, k int32, v uint64, short bool, h uint64) int {
	if len(tc.ents) == 0 {
		return -1
	}
	mask := uint64(len(tc.ents) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := &tc.ents[i]
		if e.l1p == 0 {
			return -1
		}
		if e.h == h && e.l1p == l1+1 && e.set == k && e.v == v &&
			(short && e.vlen == 0 || !short && e.vlen != 0 && string(tc.data[e.vkey:e.vkey+e.vlen]) == string(tc.vals)) {
			return int(i)
		}
	}
}

// lookup finds the outcomes of thread t with segment seg in state (whose
// fixed part is fixed), or returns nil. It returns the first-level key
// and hash for tcEnd.
//
// Thread t's last hit is remembered: in a depth-first search the next
// state differs from this one in one thread's record and a few fixed
// slots, so most threads find the same key again, which is then checked
// without hashing or probing. (At most one of the sets known for (t,
// segment) matches a state: the run from the state reads exactly the set
// of any entry whose values match. So the remembered entry is the one the
// probes would find.)
func (tc *tcache) lookup(t int, seg, state, fixed []byte) (e *tcEntry, k1, h1 uint64) {
	k1, h1 = tc.key1(t, seg)
	if t < len(tc.memo) {
		if mm := &tc.memo[t]; mm.gen == tc.gen && mm.k1 == k1 && k1 != 0 {
			if v, short := tc.valuesOnly(mm.set, state, fixed); short && v == mm.v {
				tc.hits++
				return &tc.ents[mm.idx], k1, h1
			}
		}
	}
	l1 := tc.find1(k1, h1)
	if l1 < 0 {
		return nil, k1, h1
	}
	e1 := &tc.l1s[l1]
	for _, k := range e1.sets[:e1.nsets] {
		v, short, h := tc.values(l1, k, state, fixed)
		if i := tc.find(l1, k, v, short, h); i >= 0 {
			tc.hits++
			if k1 != 0 && short {
				for len(tc.memo) <= t {
					tc.memo = append(tc.memo, tcMemo{})
				}
				tc.memo[t] = tcMemo{k1: k1, set: k, v: v, idx: int32(i), gen: tc.gen}
			}
			return &tc.ents[i], k1, h1
		}
	}
	return nil, k1, h1
}

// tcMemo is a thread's last hit: its first-level key, the set and values
// that matched, and the entry's index in ents (valid while gen is).
type tcMemo struct {
	k1  uint64
	v   uint64
	set int32
	idx int32
	gen uint32
}

// valuesOnly is values without the hash.
func (tc *tcache) valuesOnly(k int32, state, fixed []byte) (v uint64, short bool) {
	if k >= 0 {
		set := &tc.sets[k]
		if !set.short {
			return 0, false
		}
		sh := uint(0)
		for _, r := range set.ranges {
			v |= getBits(state, uint(r.off), uint(r.width)) << sh
			sh += uint(r.width)
		}
		return v, true
	}
	if len(fixed) > 7 {
		return 0, false
	}
	for i, b := range fixed {
		v |= uint64(b) << (8 * i)
	}
	return v | uint64(len(fixed))<<56, true
}

// begin starts recording the outcomes of a thread's expansion.
func (tc *tcache) begin(x *exec) {
	tc.rec, tc.recBad = true, false
	tc.recOuts, tc.recData, tc.recGrps, tc.recFixes = len(tc.outs), len(tc.data), len(tc.grps), len(tc.fixes)
	x.nonlocal = false
	x.tracing, x.heapNoted = true, false
	x.trace = x.trace[:0]
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
	seg := enc[segs[t]:segs[t+1]]
	o := tcOut{seg: uint32(len(tc.data)), slen: uint32(len(seg)),
		grp: uint32(len(tc.grps)), glen: uint32(len(path)), fix: uint32(len(tc.fixes)), intern: intern}
	tc.data = append(tc.data, seg...)
	if tc.whole {
		o.fixed, o.flen = uint32(len(tc.data)), uint32(segs[0])
		tc.data = append(tc.data, enc[:segs[0]]...)
	}
	tc.grps = append(tc.grps, path...)
	for i, v := range s[:nfixed] {
		if v != src[i] {
			tc.fixes = append(tc.fixes, tcFix{i, v})
		}
	}
	o.nfix = uint32(len(tc.fixes)) - o.fix
	tc.outs = append(tc.outs, o)
}

// tcEnd finishes recording: unless the expansion was not cacheable, its
// outcomes become the entry of the first-level key k1 (tc.key when 0; its
// hash h1, as lookup returned them) for the traced slots' values in state.
func (m *Model) tcEnd(k1, h1 uint64, state, fixed []byte) {
	tc, x := &m.tc, &m.x
	tc.rec, x.tracing = false, false
	if tc.recBad || x.nonlocal {
		tc.discard()
		return
	}
	if tc.used() > tc.maxBytes {
		tc.reset()
		return
	}
	k := int32(-1)
	if !tc.whole {
		k = m.traceSet()
		if m.checkEncoding {
			m.checkFixes(k)
		}
	}
	l1 := tc.find1(k1, h1)
	if l1 >= 0 {
		e1 := &tc.l1s[l1]
		known := slices.Contains(e1.sets[:e1.nsets], k)
		if !known && e1.nsets == tcMaxSets {
			tc.discard()
			return
		}
		if known {
			if v, short, h := tc.values(l1, k, state, fixed); tc.find(l1, k, v, short, h) >= 0 {
				// (cannot happen: lookup tried every set of (t,
				// segment); kept for safety)
				tc.discard()
				return
			}
		}
	} else {
		// a new first-level entry (its key in data, for long keys and
		// for tests)
		l1 = int32(len(tc.l1s))
		e1 := tcL1{h: h1, k: k1, key: uint32(len(tc.data))}
		if k1 != 0 {
			t := int(k1 & 0xffff)
			tc.data = append(tc.data, byte(t), byte(t>>8))
			for i := range int(k1 >> 16 & 0xff) {
				tc.data = append(tc.data, byte(k1>>(24+8*i)))
			}
		} else {
			tc.data = append(tc.data, tc.key...)
		}
		e1.klen = uint32(len(tc.data)) - e1.key
		tc.l1s = append(tc.l1s, e1)
		if 2*len(tc.l1s) > len(tc.table1) {
			tc.table1 = growTable(tc.table1, len(tc.l1s), func(i int) uint64 { return tc.l1s[i].h })
		} else {
			placeIn(tc.table1, len(tc.l1s)-1, h1)
		}
	}
	e1 := &tc.l1s[l1]
	if !slices.Contains(e1.sets[:e1.nsets], k) {
		e1.sets[e1.nsets] = k
		e1.nsets++
	}
	v, short, h := tc.values(l1, k, state, fixed)
	e := tcEntry{h: h, v: v, l1p: l1 + 1, set: k, out: uint32(tc.recOuts), nout: uint32(len(tc.outs) - tc.recOuts)}
	if !short {
		e.vkey, e.vlen = uint32(len(tc.data)), uint32(len(tc.vals))
		tc.data = append(tc.data, tc.vals...)
	}
	if 2*(tc.nents+1) > len(tc.ents) {
		tc.gen++ // (the entries move)
		old := tc.ents
		tc.ents = make([]tcEntry, max(2*len(old), 1024))
		for i := range old {
			if old[i].l1p != 0 {
				tc.placeEntry(old[i])
			}
		}
	}
	tc.placeEntry(e)
	tc.nents++
}

// placeEntry puts e into its slot of ents (linear probing).
func (tc *tcache) placeEntry(e tcEntry) {
	mask := uint64(len(tc.ents) - 1)
	i := e.h & mask
	for tc.ents[i].l1p != 0 {
		i = (i + 1) & mask
	}
	tc.ents[i] = e
}

// discard drops what record kept since begin.
func (tc *tcache) discard() {
	tc.outs, tc.data, tc.grps, tc.fixes = tc.outs[:tc.recOuts], tc.data[:tc.recData], tc.grps[:tc.recGrps], tc.fixes[:tc.recFixes]
}

// traceSet returns the index of the slot set the run traced (exec.trace),
// adding it to tc.sets if it is new.
func (m *Model) traceSet() int32 {
	tc, x := &m.tc, &m.x
	nf := m.poolOff + 1
	if len(tc.mark) < nf {
		tc.mark = make([]bool, nf)
	}
	mark := tc.mark[:nf]
	clear(mark)
	for i := 0; i < len(x.trace); i += 2 {
		p, n := int(x.trace[i]), int(x.trace[i+1])
		for j := p; j < p+n && j < nf; j++ {
			mark[j] = true
		}
	}
	var key []byte
	var slots []int32
	for j, ok := range mark {
		if ok {
			slots = append(slots, int32(j))
			key = binary.LittleEndian.AppendUint32(key, uint32(j))
		}
	}
	if k, ok := tc.setIDs[string(key)]; ok {
		return k
	}
	e := &m.encoding
	var rs []tcRange
	for _, j := range slots {
		f := e.fixed[j]
		if f.kind != fWidth || f.width == 0 {
			// (a derived or constant slot follows from the others)
			continue
		}
		off, w := e.fixedOff[j], uint32(f.width)
		if n := len(rs); n > 0 && rs[n-1].off+uint32(rs[n-1].width) == off && uint32(rs[n-1].width)+w <= 56 {
			rs[n-1].width += uint8(w)
			continue
		}
		for w > 56 {
			rs = append(rs, tcRange{off, 56})
			off, w = off+56, w-56
		}
		rs = append(rs, tcRange{off, uint8(w)})
	}
	if tc.setIDs == nil {
		tc.setIDs = map[string]int32{}
	}
	k := int32(len(tc.sets))
	bits := 0
	for _, r := range rs {
		bits += int(r.width)
	}
	tc.sets = append(tc.sets, tcSet{slots: slots, ranges: rs, short: bits <= 64})
	tc.setIDs[string(key)] = k
	return k
}

// checkFixes panics unless the slots the recorded outcomes change lie in
// slot set k (tests).
func (m *Model) checkFixes(k int32) {
	tc := &m.tc
	for _, o := range tc.outs[tc.recOuts:] {
		for _, f := range tc.fixes[o.fix : o.fix+o.nfix] {
			if _, ok := slices.BinarySearch(tc.sets[k].slots, int32(f.slot)); !ok {
				panic("model: a traced run changed a slot it did not trace")
			}
		}
	}
}

// placeIn puts entry i with hash h into table (linear probing).
func placeIn(table []uint32, i int, h uint64) {
	mask := uint64(len(table) - 1)
	j := h & mask
	for table[j] != 0 {
		j = (j + 1) & mask
	}
	table[j] = uint32(i + 1)
}

// growTable returns a table twice the size (at least 1024) holding
// entries 0..n-1, whose hashes hash gives.
func growTable(old []uint32, n int, hash func(int) uint64) []uint32 {
	t := make([]uint32, max(2*len(old), 1024))
	for i := range n {
		placeIn(t, i, hash(i))
	}
	return t
}

// scanSegs finds the byte offsets of the thread segments of state (and
// its end) without decoding it, and appends to run whether each thread is
// running (status 0). It succeeds when the fixed part has static widths
// and every thread has one frame and variables of static widths, so that
// its length follows from its proc and header.
func (m *Model) scanSegs(segs []int, run []bool, state []byte) ([]int, []bool, bool) {
	e := &m.encoding
	segs, run = segs[:0], run[:0]
	if e.fixedOff == nil {
		return segs, run, false
	}
	end := uint(e.fixedOff[len(e.fixed)])
	i := int((end + uint(e.poolBits) + 7) / 8)
	if i > len(state) {
		return segs, run, false
	}
	n := int(getBits(state, end, uint(e.poolBits)))
	hb := uint(e.threadBits) + 2
	gb := hb + 1 + uint(e.waitBits) + uint(e.depthBits)
	sb := e.segBytes
	mm := &m.segMemo
	if mm.ok && len(state) == mm.n && len(mm.hdr) == n {
		// the layout of the last state scanned, if every thread's header
		// (proc and mode) is the same: thread by thread, the first whose
		// header differs starts where it started there
		same := true
		for t, off := range mm.segs[:n] {
			if state[off]&(1<<hb-1) != mm.hdr[t] {
				same = false
				break
			}
		}
		if same {
			return append(segs, mm.segs...), append(run, mm.run...), true
		}
	}
	simple := hb <= 8
	for t := 0; t < n; t++ {
		segs = append(segs, i)
		if int(hb+7)/8 > len(state)-i {
			return segs, run, false
		}
		var h uint64
		if hb <= 8 {
			// (the common case: the header is in the segment's first byte)
			h = uint64(state[i]) & (1<<hb - 1)
		} else {
			h = getBits(state[i:], 0, hb)
		}
		proc, mode := h&(1<<e.threadBits-1), h>>e.threadBits
		if proc >= uint64(len(sb)) {
			return segs, run, false
		}
		k := int(sb[proc][0])
		running := mode == modeRunning
		switch mode {
		case modeRunning, modeTerminated:
		case modeGeneral:
			simple = false
			if int(gb+7)/8 > len(state)-i {
				return segs, run, false
			}
			b := state[i:]
			if getBits(b, hb+1+uint(e.waitBits), uint(e.depthBits)) != 1 {
				return segs, run, false
			}
			running = getBits(b, hb, 1) == 0
			k = int(sb[proc][1])
		default:
			return segs, run, false
		}
		if k == 0 {
			return segs, run, false
		}
		run = append(run, running)
		i += k
	}
	segs = append(segs, i)
	if i != len(state) {
		return segs, run, false
	}
	// remembered when every thread's length follows from its header
	mm.ok = simple
	if simple {
		mm.n = len(state)
		mm.segs = append(mm.segs[:0], segs...)
		mm.run = append(mm.run[:0], run...)
		mm.hdr = mm.hdr[:0]
		for _, off := range segs[:n] {
			mm.hdr = append(mm.hdr, state[off]&(1<<hb-1))
		}
	}
	return segs, run, true
}

// segMemo is the layout scanSegs found last, for a state whose threads
// are all running or terminated (so that each segment's length follows
// from its header): the state's length, the segments' offsets, whether
// each thread runs, and each thread's header byte.
type segMemo struct {
	ok   bool
	n    int
	segs []int
	run  []bool
	hdr  []uint8
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
	} else if segs, run, ok := m.scanSegs(m.segs, tc.running, state); ok {
		m.segs, tc.running = segs, run
	} else {
		m.segs, tc.running = segs, run
		m.decodeLevel0(state)
		tc.decodedSrc = true
	}
	if tc.decodedSrc {
		l0.off = m.threadOffsets(l0.s, l0.off)
	}
	m.first.ok = false
	m.src = state
	tc.srcFixedOK = false
	tc.serial++
	l0.intern, l0.clean = false, false
	m.yield = yield
	m.emitted = 0
	allDone = true
	nthreads := len(m.segs) - 1
	fixed := state[:m.segs[0]]
	for t := range nthreads {
		seg := state[m.segs[t]:m.segs[t+1]]
		if tc.decodedSrc {
			if l0.s[l0.off[t]+thStatus] != 0 {
				continue
			}
		} else if !tc.running[t] {
			continue
		}
		allDone = false
		ent, k1, h1 := tc.lookup(t, seg, state, fixed)
		if ent != nil {
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
		m.tcEnd(k1, h1, state, fixed)
	}
	m.yield = nil
	m.src = nil
	return m.emitted, allDone
}

// hitFixed appends the fixed slots (with the thread count) of the
// successor a cached outcome o of the state being expanded leads to.
func (m *Model) hitFixed(dst []int64, o *tcOut) []int64 {
	tc := &m.tc
	dst = append(dst, m.srcFixedSlots()...)
	for _, f := range tc.fixes[o.fix : o.fix+o.nfix] {
		dst[f.slot] = f.v
	}
	return dst
}

// srcFixedSlots returns the fixed slots (with the thread count) of the
// state nextCached is expanding, decoding them once per state.
func (m *Model) srcFixedSlots() []int64 {
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
	return tc.srcFixed[:n]
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
	e := &m.encoding
	segs := m.segs
	fixed, before, after := state[:segs[0]], state[segs[0]:segs[t]], state[segs[t+1]:]
	if tc.whole {
		// the outcome's fixed part replaces the state's
		fixed = nil
	}
	for k := range tc.outs[ent.out : ent.out+ent.nout] {
		o := &tc.outs[int(ent.out)+k]
		// the successor is the state with t's segment replaced and the
		// changed fixed slots patched
		seg := tc.data[o.seg : o.seg+o.slen]
		nf := len(fixed)
		if tc.whole {
			nf = int(o.flen)
		}
		n := nf + len(before) + len(seg) + len(after)
		if cap(m.enc) < n {
			m.enc = make([]byte, n, 2*n)
		}
		enc := m.enc[:n]
		switch {
		case tc.whole:
			copy(enc, tc.data[o.fixed:o.fixed+o.flen])
			copy(enc[nf:], before)
			copy(enc[nf+len(before):], seg)
			copy(enc[n-len(after):], after)
		case n == len(state):
			// (the common case: t's segment keeps its length) the
			// state, then the new segment over t's
			copy(enc, state)
			copy(enc[segs[t]:], seg)
		default:
			copy(enc, state[:segs[t]])
			copy(enc[segs[t]:], seg)
			copy(enc[n-len(after):], after)
		}
		if !tc.whole {
			for _, f := range tc.fixes[o.fix : o.fix+o.nfix] {
				if fd := e.fixed[f.slot]; fd.kind == fWidth {
					patchBits(enc, uint(e.fixedOff[f.slot]), uint(fd.width), uint64(f.v-fd.base))
				}
			}
		}
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
