package model

import (
	"encoding/binary"
	"math/bits"

	"birch/internal/bir/types"
)

// A stored state is the slot vector bit-packed: every slot takes the bits
// its type needs (a range l..u takes bits(u-l), a boolean one bit, a
// reference bits(number of objects)), slots whose value follows from others
// take none (the count of a non-reentrant lock, the wait sets of a lock
// without wait), an int takes 8 bits when it is small and 65 otherwise, and a
// thread in its common shape (running or terminated, not waiting, no
// function frames) takes two bits of header. The layout of the thread pool
// is read from the bits themselves, so the encoding is canonical: equal slot
// vectors give equal bytes.

// fieldKind says how one slot is encoded.
type fieldKind uint8

const (
	fWidth   fieldKind = iota // value - base in width bits
	fInt                      // zig-zag: 0+7 bits, or 1+64 bits
	fDerived                  // not stored: the count of a non-reentrant lock (owner != 0)
	fZero                     // not stored: always 0
)

type field struct {
	kind  fieldKind
	width uint8
	base  int64
}

// fieldsOf appends the encodings of the slots of a value of type t.
func (m *Model) fieldsOf(dst []field, t types.Type) []field {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch u.Kind {
		case types.Bool:
			return append(dst, field{kind: fWidth, width: 1})
		case types.Tid:
			return append(dst, field{kind: fWidth, width: bitsFor(uint64(m.opts.MaxThreads))})
		}
		return append(dst, field{kind: fInt})
	case *types.Range:
		if u.Wrap && u.Bits >= 64 {
			// int64 and uint64 as int: small values take a byte
			return append(dst, field{kind: fInt})
		}
		return append(dst, field{kind: fWidth, width: bitsFor(uint64(u.Hi - u.Lo)), base: u.Lo})
	case *types.Enum:
		lo, hi := int64(0), int64(0)
		for i, c := range u.Consts {
			if i == 0 || c.Ordinal < lo {
				lo = c.Ordinal
			}
			if i == 0 || c.Ordinal > hi {
				hi = c.Ordinal
			}
		}
		return append(dst, field{kind: fWidth, width: bitsFor(uint64(hi - lo)), base: lo})
	case *types.Ref:
		return append(dst, field{kind: fWidth, width: bitsFor(uint64(len(m.objBase)))})
	case *types.Lock:
		owner := field{kind: fWidth, width: bitsFor(uint64(m.opts.MaxThreads))}
		count := field{kind: fDerived}
		if u.Reentrant {
			count = field{kind: fWidth, width: bitsFor(uint64(m.opts.MaxReentrancy))}
		}
		set := field{kind: fZero}
		if u.Wait {
			set = field{kind: fWidth, width: uint8(m.opts.MaxThreads)}
		}
		return append(dst, owner, count, set, set)
	case *types.Array:
		for i := int64(0); i < u.Len; i++ {
			dst = m.fieldsOf(dst, u.Elem)
		}
		return dst
	case *types.Record:
		for _, f := range u.Fields {
			dst = m.fieldsOf(dst, f.Type())
		}
		return dst
	}
	return append(dst, field{kind: fInt})
}

// bitsFor is the number of bits that hold 0..n.
func bitsFor(n uint64) uint8 { return uint8(bits.Len64(n)) }

// encoding holds the tables of the encoder.
type encoding struct {
	fixed []field // globals and heap (with collection counts)
	// fixedOff[i] is the bit offset of fixed slot i, and fixedOff[len(fixed)]
	// that of the thread count, when every fixed field has a static width
	// (no fInt); fixedOff is nil otherwise.
	fixedOff   []uint32
	poolBits   uint8 // thread count
	threadBits uint8 // thread (index among threads)
	procBits   uint8 // proc number of a function frame
	siteBits   uint8 // call site
	statusBits uint8
	waitBits   uint8
	depthBits  uint8
	// segBytes[p] is the simpleBytes and generalBytes of thread proc p
	// (m.procs), for scanSegs.
	segBytes [][2]int32
}

// procEncoding: per proc, the bits of a location and the fields of the
// variables.
type procEncoding struct {
	locBits uint8
	vars    []field
	// varOff[i] is the bit offset of variable slot i from the first
	// variable bit, when no variable is an fInt; nil otherwise.
	varOff []uint32
	// simpleBytes is the length of a thread segment of this proc in the
	// common shape (running or terminated, one frame), and generalBytes
	// that of one in the general shape with one frame (a thread waiting
	// for a lock it held), or 0 when a variable has no static width.
	simpleBytes, generalBytes int
}

// staticOffsets returns the bit offsets of fs (and the end), or nil when a
// field's width depends on its value.
func staticOffsets(fs []field) []uint32 {
	off := make([]uint32, 0, len(fs)+1)
	o := uint32(0)
	for _, f := range fs {
		off = append(off, o)
		switch f.kind {
		case fWidth:
			o += uint32(f.width)
		case fInt:
			return nil
		}
	}
	return append(off, o)
}

func (m *Model) buildEncoding() {
	e := &m.encoding
	for _, g := range m.prog.Globals {
		e.fixed = m.fieldsOf(e.fixed, g.Type())
	}
	for _, c := range m.colls {
		e.fixed = append(e.fixed, field{kind: fWidth, width: bitsFor(uint64(c.obj.Size))})
		for i := int64(0); i < c.obj.Size; i++ {
			if c.array {
				e.fixed = append(e.fixed, field{kind: fWidth, width: bitsFor(uint64(c.maxLen))})
				arr := c.elem.Underlying().(*types.Array)
				for k := 0; k < c.maxLen; k++ {
					e.fixed = m.fieldsOf(e.fixed, arr.Elem)
				}
			} else {
				e.fixed = m.fieldsOf(e.fixed, c.elem)
			}
		}
	}
	if m.exclOff >= 0 {
		e.fixed = append(e.fixed, field{kind: fWidth, width: bitsFor(uint64(m.opts.MaxThreads))})
	}
	if len(e.fixed) != m.poolOff {
		panic("model: encoding does not match the layout")
	}
	e.poolBits = bitsFor(uint64(m.opts.MaxThreads))
	e.fixedOff = staticOffsets(e.fixed)
	e.threadBits = bitsFor(uint64(max(len(m.procs)-1, 0)))
	e.procBits = bitsFor(uint64(max(len(m.allProcs)-1, 0)))
	e.siteBits = bitsFor(uint64(len(m.groups)))
	e.waitBits = bitsFor(uint64(m.opts.MaxReentrancy))
	e.depthBits = bitsFor(uint64(m.opts.MaxCallDepth))
	for _, pi := range m.allProcs {
		pe := &pi.enc
		pe.locBits = bitsFor(uint64(max(len(pi.locs)-1, 0)))
		for _, v := range pi.proc.Vars() {
			pe.vars = m.fieldsOf(pe.vars, v.Type())
		}
		pe.varOff = staticOffsets(pe.vars)
		if pe.varOff != nil {
			pe.simpleBytes = int(uint(e.threadBits)+2+uint(pe.locBits)+uint(pe.varOff[len(pe.vars)])+7) / 8
			pe.generalBytes = int(uint(e.threadBits)+2+1+uint(e.waitBits)+uint(e.depthBits)+uint(pe.locBits)+uint(pe.varOff[len(pe.vars)])+7) / 8
		}
	}
	e.segBytes = make([][2]int32, len(m.procs))
	for i, pi := range m.procs {
		e.segBytes[i] = [2]int32{int32(pi.enc.simpleBytes), int32(pi.enc.generalBytes)}
	}
}

// bitWriter appends bits to a byte slice, least significant first.
type bitWriter struct {
	buf  []byte
	acc  uint64
	nacc uint
}

// put appends the low n bits of v (n <= 32, v < 1<<n).
func (w *bitWriter) put(v uint64, n uint) {
	w.acc |= v << w.nacc
	w.nacc += n
	if w.nacc >= 32 {
		w.buf = append(w.buf, byte(w.acc), byte(w.acc>>8), byte(w.acc>>16), byte(w.acc>>24))
		w.acc >>= 32
		w.nacc -= 32
	}
}

// align pads to a byte boundary and writes out the accumulator.
func (w *bitWriter) align() {
	switch (w.nacc + 7) >> 3 {
	case 1:
		w.buf = append(w.buf, byte(w.acc))
	case 2:
		w.buf = append(w.buf, byte(w.acc), byte(w.acc>>8))
	case 3:
		w.buf = append(w.buf, byte(w.acc), byte(w.acc>>8), byte(w.acc>>16))
	case 4:
		w.buf = append(w.buf, byte(w.acc), byte(w.acc>>8), byte(w.acc>>16), byte(w.acc>>24))
	}
	w.acc, w.nacc = 0, 0
}

func (w *bitWriter) field(f field, v int64) {
	switch f.kind {
	case fWidth:
		u := uint64(v - f.base)
		if f.width <= 32 {
			w.put(u, uint(f.width))
		} else {
			w.put(u&0xffffffff, 32)
			w.put(u>>32, uint(f.width)-32)
		}
	case fInt:
		u := uint64(v<<1) ^ uint64(v>>63)
		if u < 128 {
			w.put(u<<1, 8)
		} else {
			w.put(1|(u&0x7fffffff)<<1, 32)
			w.put(u>>31&0xffffffff, 32)
			w.put(u>>63, 1)
		}
	}
}

// bitReader reads what bitWriter wrote.
type bitReader struct {
	buf  []byte
	i    int
	acc  uint64
	nacc uint
	bad  bool
}

func (r *bitReader) read(n uint) uint64 {
	if n == 0 {
		return 0
	}
	if n > 32 {
		lo := r.read(32)
		return lo | r.read(n-32)<<32
	}
	if r.nacc < n && r.i+8 <= len(r.buf) {
		// refill whole bytes at once; the bits above nacc+8k are those of
		// the next bytes, which a later refill ORs in again unchanged
		r.acc |= binary.LittleEndian.Uint64(r.buf[r.i:]) << r.nacc
		k := (63 - r.nacc) >> 3
		r.i += int(k)
		r.nacc += k << 3
	}
	for r.nacc < n {
		if r.i >= len(r.buf) {
			r.bad = true
			return 0
		}
		r.acc |= uint64(r.buf[r.i]) << r.nacc
		r.i++
		r.nacc += 8
	}
	v := r.acc & (1<<n - 1)
	r.acc >>= n
	r.nacc -= n
	return v
}

func (r *bitReader) field(f field, prev int64) int64 {
	switch f.kind {
	case fWidth:
		return int64(r.read(uint(f.width))) + f.base
	case fInt:
		var u uint64
		if r.read(1) == 0 {
			u = r.read(7)
		} else {
			u = r.read(64)
		}
		return int64(u>>1) ^ -int64(u&1)
	case fDerived:
		if prev != 0 {
			return 1
		}
		return 0
	}
	return 0
}

// Thread header modes.
const (
	modeRunning    = 0 // status 0, not waiting, one frame
	modeTerminated = 1 // status 1, not waiting, one frame
	modeGeneral    = 2 // followed by status, wait count and depth
)

// appendState encodes the slot vector s. The fixed part with the thread
// count, and then each thread's record, start on a byte boundary, so that a
// successor can copy the bytes of the threads a step did not change
// (appendSucc).
func (m *Model) appendState(dst []byte, s []int64) []byte {
	return m.appendStateSegs(dst, s, nil)
}

// appendStateSegs is appendState; when segs is not nil, *segs is set to
// the byte offsets of the encoding's thread segments and its end, relative
// to dst's end (as appendSucc records them).
func (m *Model) appendStateSegs(dst []byte, s []int64, segs *[]int) []byte {
	base := len(dst)
	w := bitWriter{buf: dst}
	m.encodeFixed(&w, s)
	if segs != nil {
		*segs = (*segs)[:0]
	}
	p := m.poolOff + 1
	for t := int(s[m.poolOff]); t > 0; t-- {
		if segs != nil {
			*segs = append(*segs, len(w.buf)-base)
		}
		p = m.encodeThread(&w, s, p)
	}
	if segs != nil {
		*segs = append(*segs, len(w.buf)-base)
	}
	return w.buf
}

// appendSucc encodes s, a successor of the state src (whose thread
// segments start at the byte offsets segs) reached by a step of thread t:
// only thread t and threads created by the step can differ from src, so
// the others' bytes are copied.
//
// When rec is not nil, the byte offsets of the new encoding's thread
// segments (and its end), relative to dst's end, are appended to *rec.
func (m *Model) appendSucc(dst []byte, s []int64, off []int, src []byte, srcSlots []int64, segs []int, t int, rec *[]int) []byte {
	base := len(dst)
	w := bitWriter{buf: dst}
	e := &m.encoding
	n := m.poolOff + 1
	switch {
	case e.fixedOff != nil:
		// fields of static width: copy and overwrite the changed ones
		start := len(w.buf)
		w.buf = append(w.buf, src[:segs[0]]...)
		b := w.buf[start:]
		fs := e.fixed[:m.poolOff]
		for i, v := range s[:len(fs)] {
			if v != srcSlots[i] && fs[i].kind == fWidth {
				patchBits(b, uint(e.fixedOff[i]), uint(fs[i].width), uint64(v-fs[i].base))
			}
		}
		if s[m.poolOff] != srcSlots[m.poolOff] {
			if !fitsBits(uint64(s[m.poolOff]), e.poolBits, len(b), e.fixedOff[len(e.fixed)]) {
				w.buf = w.buf[:start]
				m.encodeFixed(&w, s)
				break
			}
			patchBits(b, uint(e.fixedOff[len(e.fixed)]), uint(e.poolBits), uint64(s[m.poolOff]))
		}
	case slicesEqual(s[:n], srcSlots[:n]):
		// globals, heap and thread count unchanged: copy their bytes
		w.buf = append(w.buf, src[:segs[0]]...)
	default:
		m.encodeFixed(&w, s)
	}
	// the threads other than t are unchanged, except for those the step
	// created: copy the segments before and after t's in one piece each
	old := len(segs) - 1
	if rec != nil {
		d := len(w.buf) - base - segs[0]
		for _, o := range segs[:t+1] {
			*rec = append(*rec, o+d)
		}
	}
	w.buf = append(w.buf, src[segs[0]:segs[t]]...)
	if !m.patchThread(&w, s, off[t], src[segs[t]:segs[t+1]], srcSlots) {
		m.encodeThread(&w, s, off[t])
	}
	if rec != nil {
		d := len(w.buf) - base - segs[t+1]
		for _, o := range segs[t+1 : old] {
			*rec = append(*rec, o+d)
		}
	}
	w.buf = append(w.buf, src[segs[t+1]:segs[old]]...)
	for _, p := range off[old:] {
		if rec != nil {
			*rec = append(*rec, len(w.buf)-base)
		}
		m.encodeThread(&w, s, p)
	}
	if rec != nil {
		*rec = append(*rec, len(w.buf)-base)
	}
	return w.buf
}

// fitsBits reports whether the bits at off..off+width lie within n bytes
// (they always do for a well-formed encoding; this keeps patchBits in
// bounds).
func fitsBits(v uint64, width uint8, n int, off uint32) bool {
	return (uint64(off)+uint64(width)+7)/8 <= uint64(n) && (width >= 64 || v < 1<<width)
}

// patchThread appends the encoding of the thread record at p of s by
// copying seg, the encoding of the same thread in the source state (whose
// record is at the same slot offset of srcSlots), and overwriting the
// fields that changed. It handles the common case of a one-frame thread
// whose header mode did not change and whose variables have static
// widths, and returns false (appending nothing) otherwise.
func (m *Model) patchThread(w *bitWriter, s []int64, p int, seg []byte, srcSlots []int64) bool {
	e := &m.encoding
	if p+thHeader+frHeader > len(srcSlots) || s[p+thDepth] != 1 || srcSlots[p+thDepth] != 1 ||
		s[p+thWaitCount] != srcSlots[p+thWaitCount] || s[p+thStatus] != srcSlots[p+thStatus] ||
		s[p+thProc] != srcSlots[p+thProc] {
		return false
	}
	fp := p + thHeader
	if s[fp+frProc] != srcSlots[fp+frProc] {
		return false
	}
	pi := m.allProcs[s[fp+frProc]]
	pe := &pi.enc
	if pe.varOff == nil || fp+frHeader+pi.varSize > len(srcSlots) {
		return false
	}
	hdr := uint(e.threadBits) + 2
	if s[p+thWaitCount] != 0 || s[p+thStatus] > 1 {
		hdr += 1 + uint(e.waitBits) + uint(e.depthBits)
	}
	if (hdr+uint(pe.locBits)+uint(pe.varOff[len(pe.vars)])+7)/8 != uint(len(seg)) {
		return false
	}
	start := len(w.buf)
	w.buf = append(w.buf, seg...)
	b := w.buf[start:]
	if s[fp+frLoc] != srcSlots[fp+frLoc] {
		patchBits(b, hdr, uint(pe.locBits), uint64(s[fp+frLoc]))
	}
	vb := hdr + uint(pe.locBits)
	vs := fp + frHeader
	for i, f := range pe.vars {
		if s[vs+i] != srcSlots[vs+i] && f.kind == fWidth {
			patchBits(b, vb+uint(pe.varOff[i]), uint(f.width), uint64(s[vs+i]-f.base))
		}
	}
	return true
}

// patchBits overwrites the width bits of b at bit offset off (least
// significant first, as bitWriter writes) with v.
func patchBits(b []byte, off, width uint, v uint64) {
	for width > 0 {
		i, sh := off>>3, off&7
		k := min(8-sh, width)
		mask := byte((1<<k - 1) << sh)
		b[i] = b[i]&^mask | byte(v<<sh)&mask
		v >>= k
		off += k
		width -= k
	}
}

func (m *Model) encodeFixed(w *bitWriter, s []int64) {
	e := &m.encoding
	for i, f := range e.fixed {
		w.field(f, s[i])
	}
	w.put(uint64(s[m.poolOff]), uint(e.poolBits))
	w.align()
}

// encodeThread encodes the thread record at p and returns its end.
func (m *Model) encodeThread(w *bitWriter, s []int64, p int) int {
	e := &m.encoding
	status, wait, depth := s[p+thStatus], s[p+thWaitCount], s[p+thDepth]
	w.put(uint64(s[p+thProc]), uint(e.threadBits))
	switch {
	case wait == 0 && depth == 1 && status == 0:
		w.put(modeRunning, 2)
	case wait == 0 && depth == 1 && status == 1:
		w.put(modeTerminated, 2)
	default:
		w.put(modeGeneral, 2)
		w.put(uint64(status), 1)
		w.put(uint64(wait), uint(e.waitBits))
		w.put(uint64(depth), uint(e.depthBits))
	}
	p += thHeader
	for d := int64(0); d < depth; d++ {
		pi := m.allProcs[s[p+frProc]]
		if d > 0 {
			w.put(uint64(s[p+frProc]), uint(e.procBits))
			w.put(uint64(s[p+frSite]), uint(e.siteBits))
		}
		w.put(uint64(s[p+frLoc]), uint(pi.enc.locBits))
		p += frHeader
		for i, f := range pi.enc.vars {
			w.field(f, s[p+i])
		}
		p += pi.varSize
	}
	w.align()
	return p
}

// decodeState decodes an encoded state into dst. It returns false if src is
// not a well-formed state of m.
func (m *Model) decodeState(dst []int64, src []byte) ([]int64, bool) {
	dst, _, ok := m.decodeSegs(dst, nil, src)
	return dst, ok
}

// decodeSegs is decodeState that also returns the byte offset of each
// thread's segment, and the end.
func (m *Model) decodeSegs(dst []int64, segs []int, src []byte) ([]int64, []int, bool) {
	segs = segs[:0]
	e := &m.encoding
	r := bitReader{buf: src}
	dst = dst[:0]
	var prev int64
	var n int64
	if fb := e.fixedOff; fb != nil && (uint(fb[len(e.fixed)])+uint(e.poolBits)+7)/8 <= uint(len(src)) {
		// static widths: read each field where it is
		end := uint(fb[len(e.fixed)])
		dst = decodeStatic(dst, src, 0, e.fixed, fb)
		n = int64(getBits(src, end, uint(e.poolBits)))
		r.i = int((end + uint(e.poolBits) + 7) / 8)
	} else {
		for _, f := range e.fixed {
			v := r.field(f, prev)
			dst = append(dst, v)
			prev = v
		}
		n = int64(r.read(uint(e.poolBits)))
	}
	dst = append(dst, n)
	if n > int64(m.opts.MaxThreads) {
		return dst, segs, false
	}
	r.align()
	for t := int64(0); t < n; t++ {
		segs = append(segs, r.i)
		if d, k := m.decodeSimpleThread(dst, src, r.i); k > 0 {
			dst = d
			r.i += k
			continue
		}
		proc := int64(r.read(uint(e.threadBits)))
		if proc >= int64(len(m.procs)) {
			return dst, segs, false
		}
		var status, wait, depth int64
		switch r.read(2) {
		case modeRunning:
			depth = 1
		case modeTerminated:
			status, depth = 1, 1
		case modeGeneral:
			status = int64(r.read(1))
			wait = int64(r.read(uint(e.waitBits)))
			depth = int64(r.read(uint(e.depthBits)))
		default:
			return dst, segs, false
		}
		if depth < 1 || depth > int64(m.opts.MaxCallDepth) {
			return dst, segs, false
		}
		dst = append(dst, proc, status, wait, depth)
		for d := int64(0); d < depth; d++ {
			fp, site := proc, int64(0)
			if d > 0 {
				fp = int64(r.read(uint(e.procBits)))
				site = int64(r.read(uint(e.siteBits)))
				if fp >= int64(len(m.allProcs)) {
					return dst, segs, false
				}
			}
			pi := m.allProcs[fp]
			loc := int64(r.read(uint(pi.enc.locBits)))
			if loc >= int64(len(pi.locs)) {
				return dst, segs, false
			}
			dst = append(dst, fp, loc, site)
			prev = 0
			for _, f := range pi.enc.vars {
				v := r.field(f, prev)
				dst = append(dst, v)
				prev = v
			}
		}
		r.align()
	}
	segs = append(segs, r.i)
	if r.bad || r.i != len(src) {
		return dst, segs, false
	}
	return dst, segs, true
}

// decodeSimpleThread decodes the thread segment at byte i of src when it
// is in the common shape (running or terminated, one frame, variables of
// static widths) and returns the number of bytes it takes; it returns 0
// (and dst unchanged) otherwise, and the general decoder takes over.
func (m *Model) decodeSimpleThread(dst []int64, src []byte, i int) ([]int64, int) {
	e := &m.encoding
	hb := uint(e.threadBits) + 2
	if i < 0 || (hb+7)/8 > uint(len(src)-i) {
		return dst, 0
	}
	b := src[i:]
	h := getBits(b, 0, hb)
	proc, mode := h&(1<<e.threadBits-1), h>>e.threadBits
	if proc >= uint64(len(m.procs)) || mode > modeTerminated {
		return dst, 0
	}
	pi := m.allProcs[proc]
	pe := &pi.enc
	if pe.varOff == nil {
		return dst, 0
	}
	k := (hb + uint(pe.locBits) + uint(pe.varOff[len(pe.vars)]) + 7) / 8
	if k > uint(len(b)) {
		return dst, 0
	}
	loc := getBits(b, hb, uint(pe.locBits))
	if loc >= uint64(len(pi.locs)) {
		return dst, 0
	}
	dst = append(dst, int64(proc), int64(mode), 0, 1, int64(proc), int64(loc), 0)
	return decodeStatic(dst, b, hb+uint(pe.locBits), pe.vars, pe.varOff), int(k)
}

// decodeStatic appends the values of fields fs, which have static widths
// and lie at bit offsets base+offs[i] of b (within b).
func decodeStatic(dst []int64, b []byte, base uint, fs []field, offs []uint32) []int64 {
	var prev int64
	for i, f := range fs {
		var v int64
		switch f.kind {
		case fWidth:
			v = int64(getBits(b, base+uint(offs[i]), uint(f.width))) + f.base
		case fDerived:
			if prev != 0 {
				v = 1
			}
		}
		dst = append(dst, v)
		prev = v
	}
	return dst
}

// getBits returns the width bits at bit offset off of b, which must lie
// within b.
func getBits(b []byte, off, width uint) uint64 {
	if width == 0 {
		return 0
	}
	i := off >> 3
	if width <= 56 && i+8 <= uint(len(b)) {
		return binary.LittleEndian.Uint64(b[i:]) >> (off & 7) & (1<<width - 1)
	}
	var v uint64
	for k := uint(0); k < width; {
		i, sh := (off+k)>>3, (off+k)&7
		n := min(8-sh, width-k)
		v |= uint64(b[i]>>sh) & (1<<n - 1) << k
		k += n
	}
	return v
}

// align skips to the next byte boundary.
func (r *bitReader) align() {
	// give back the whole bytes a refill took ahead
	r.i -= int(r.nacc >> 3)
	r.acc, r.nacc = 0, 0
}

func slicesEqual(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i, v := range a {
		if b[i] != v {
			return false
		}
	}
	return true
}
