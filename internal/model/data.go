package model

import (
	"encoding/binary"
	"strconv"

	"birch/internal/bir/types"
)

// Datum is one integer value of a state: a slot of a global, of an
// allocated object or of a live thread frame whose type is an integer type
// (int, a range, a fixed-width type). Searches that match states on an
// abstraction of their data (abstract matching, internal/amcs) split a
// state into its data and its control part (everything else: booleans,
// enums, references, locks, collection counts, array lengths, thread
// headers, procs and locations), which they keep concrete.
type Datum struct {
	// ID names the place across states: a slot of the fixed part (globals
	// and the heap) is its slot number; a slot of a thread frame is
	// ThreadDatum(thread, depth, offset). Two states with the same control
	// part have the same IDs in the same order.
	ID    uint64
	Value int64
}

// Data IDs of thread frames: bit 63 set, the thread's index (bits 44-62),
// the frame's depth (bits 32-43, 0 the bottom frame) and the slot's offset
// among the frame's variables (bits 0-31).
const (
	threadDatum     = 1 << 63
	datumThreadBits = 19
	datumDepthBits  = 12
)

// ThreadDatum returns the ID of the slot at offset off among the variables
// of frame depth (0 the bottom frame) of thread index thread, and false
// when the numbers do not fit an ID.
func ThreadDatum(thread, depth, off int) (uint64, bool) {
	if thread < 0 || thread >= 1<<datumThreadBits || depth < 0 || depth >= 1<<datumDepthBits || off < 0 || int64(off) >= 1<<32 {
		return 0, false
	}
	return threadDatum | uint64(thread)<<44 | uint64(depth)<<32 | uint64(off), true
}

// isIntSlots appends, per slot of a value of type t, whether it holds an
// integer.
func isIntSlots(dst []bool, t types.Type) []bool {
	switch u := t.Underlying().(type) {
	case *types.Array:
		for i := int64(0); i < u.Len; i++ {
			dst = isIntSlots(dst, u.Elem)
		}
		return dst
	case *types.Record:
		for _, f := range u.Fields {
			dst = isIntSlots(dst, f.Type())
		}
		return dst
	case *types.Lock:
		return append(dst, false, false, false, false)
	}
	return append(dst, types.IsInteger(t))
}

// dataLayout is computed once, on the first SplitData.
type dataLayout struct {
	global []bool   // per slot of the globals: an integer
	obj    [][]bool // per collection: per slot of an object (after an array's length)
	frame  [][]bool // per proc number: per slot of the frame's variables
}

func (m *Model) dataLayout() *dataLayout {
	if m.data != nil {
		return m.data
	}
	d := &dataLayout{}
	for _, g := range m.prog.Globals {
		d.global = isIntSlots(d.global, g.Type())
	}
	for _, c := range m.colls {
		if c.array {
			d.obj = append(d.obj, isIntSlots(nil, c.elem.Underlying().(*types.Array)))
		} else {
			d.obj = append(d.obj, isIntSlots(nil, c.elem))
		}
	}
	for _, pi := range m.allProcs {
		var fs []bool
		for _, v := range pi.proc.Vars() {
			fs = isIntSlots(fs, v.Type())
		}
		d.frame = append(d.frame, fs)
	}
	m.data = d
	return d
}

// SplitData decodes state and appends its control part to ctrl (a
// canonical encoding: two states have equal control parts exactly when
// they agree on every slot that is not a datum, and have the same data
// IDs) and its data to data, in a fixed order: globals, allocated objects,
// then threads and their frames from the bottom. Objects that are not
// allocated and the elements of an array object beyond its length hold
// defaults and are part of the control. It panics if state is not a state
// of m.
func (m *Model) SplitData(state []byte, ctrl []byte, data []Datum) ([]byte, []Datum) {
	d := m.dataLayout()
	s, segs, ok := m.decodeSegs(m.dataBuf[:0], m.dataSegs[:0], state)
	if !ok {
		panic("model: not a state of this model")
	}
	m.dataBuf, m.dataSegs = s, segs
	put := func(v int64) { ctrl = binary.AppendVarint(ctrl, v) }
	slot := func(id uint64, v int64, isInt bool) {
		if isInt {
			data = append(data, Datum{id, v})
			put(0)
			return
		}
		put(v)
	}
	for i := 0; i < m.heapOff; i++ {
		slot(uint64(i), s[i], d.global[i])
	}
	for ci, c := range m.colls {
		n := int(s[c.off])
		put(int64(n))
		for k := 0; k < n; k++ {
			base := m.objBase[c.first+k]
			ints := d.obj[ci]
			if c.array {
				l := int(s[base])
				put(int64(l))
				for e := 0; e < l*c.elemSz && e < len(ints); e++ {
					slot(uint64(base+1+e), s[base+1+e], ints[e])
				}
				continue
			}
			for e := range ints {
				slot(uint64(base+e), s[base+e], ints[e])
			}
		}
	}
	for p := m.heapEnd; p < m.poolOff; p++ {
		put(s[p])
	}
	n := int(s[m.poolOff])
	put(int64(n))
	p := m.poolOff + 1
	for j := 0; j < n; j++ {
		for h := 0; h < thHeader; h++ {
			put(s[p+h])
		}
		depth := int(s[p+thDepth])
		p += thHeader
		for dd := 0; dd < depth; dd++ {
			pi := m.allProcs[s[p+frProc]]
			for h := 0; h < frHeader; h++ {
				put(s[p+h])
			}
			ints := d.frame[pi.num]
			for k := 0; k < pi.varSize; k++ {
				id, ok := ThreadDatum(j, dd, k)
				slot(id, s[p+frHeader+k], ok && ints[k])
			}
			p += frHeader + pi.varSize
		}
	}
	return ctrl, data
}

// DataName names the datum id of state as Describe names values ("x",
// "a[2]", "Node[0].val", "Main[1].n", "Main[1].f#1.k"), or "" when state
// has no such datum.
func (m *Model) DataName(state []byte, id uint64) string {
	s, off := m.mustDecode(state)
	if id&threadDatum == 0 {
		slot := int(id)
		for i, g := range m.prog.Globals {
			if name, ok := slotName(g.Name(), g.Type(), slot-m.globalOff[i]); ok {
				return name
			}
		}
		for _, c := range m.colls {
			n := int(s[c.off])
			for k := 0; k < n; k++ {
				base := m.objBase[c.first+k]
				name := c.obj.Name() + "[" + strconv.Itoa(k) + "]"
				if c.array {
					if got, ok := slotName(name, c.elem, slot-base-1); ok {
						return got
					}
					continue
				}
				if got, ok := slotName(name, c.elem, slot-base); ok {
					return got
				}
			}
		}
		return ""
	}
	j := int(id >> 44 & (1<<datumThreadBits - 1))
	dd := int(id >> 32 & (1<<datumDepthBits - 1))
	k := int(uint32(id))
	if j >= len(off) || dd >= int(s[off[j]+thDepth]) {
		return ""
	}
	p := off[j] + thHeader
	for i := 0; i < dd; i++ {
		p += frHeader + m.allProcs[s[p+frProc]].varSize
	}
	pi := m.allProcs[s[p+frProc]]
	prefix := m.threadName(s, j) + "."
	if dd > 0 {
		prefix += pi.proc.Name() + "#" + strconv.Itoa(dd) + "."
	}
	for i, v := range pi.proc.Vars() {
		if name, ok := slotName(prefix+v.Name(), v.Type(), k-pi.varOff[i]); ok {
			return name
		}
	}
	return ""
}

// slotName names slot k of a value of type t named name, if t has it.
func slotName(name string, t types.Type, k int) (string, bool) {
	if k < 0 || k >= slotSize(t) {
		return "", false
	}
	switch u := t.Underlying().(type) {
	case *types.Array:
		es := slotSize(u.Elem)
		return slotName(name+"["+strconv.Itoa(k/es)+"]", u.Elem, k%es)
	case *types.Record:
		for _, f := range u.Fields {
			n := slotSize(f.Type())
			if k < n {
				return slotName(name+"."+f.Name(), f.Type(), k)
			}
			k -= n
		}
	}
	return name, true
}

// GlobalDatum returns the ID of slot k of global v (0 for a variable of one
// slot; k counts the slots of an array's elements), and false when that
// slot is not an integer.
func (m *Model) GlobalDatum(v *types.Var, k int) (uint64, bool) {
	for i, g := range m.prog.Globals {
		if g != v {
			continue
		}
		if k < 0 || k >= slotSize(g.Type()) {
			return 0, false
		}
		slot := m.globalOff[i] + k
		return uint64(slot), m.dataLayout().global[slot]
	}
	return 0, false
}

// LocalDatum returns the ID of slot k of variable v of proc p in frame
// depth (0 the bottom frame) of thread index thread, and false when that
// slot is not an integer. Whether the frame runs p is a question about a
// state: the caller checks it (Threads, or the control part).
func (m *Model) LocalDatum(thread, depth int, p *types.Proc, v *types.Var, k int) (uint64, bool) {
	pi := m.procOf(p)
	i, ok := pi.varIndex[v]
	if !ok || k < 0 || k >= pi.varSlots[i] {
		return 0, false
	}
	off := pi.varOff[i] + k
	if !m.dataLayout().frame[pi.num][off] {
		return 0, false
	}
	return ThreadDatum(thread, depth, off)
}
