package model

import (
	"birch/internal/bir/types"
)

// Lock slot offsets.
const (
	lockOwner    = 0 // tid of the owner, 0 when free
	lockCount    = 1 // reentrancy count
	lockWaiting  = 2 // bit i: thread i is in the wait set
	lockNotified = 3 // bit i: thread i is in the notified set
	lockSlots    = types.LockSlots
)

// Thread header slot offsets (relative to the thread's record).
const (
	thProc      = 0 // index of the thread among Program.Threads
	thStatus    = 1 // 0 running, 1 terminated
	thWaitCount = 2 // lock count remembered by wait, 0 when not waiting
	thDepth     = 3 // number of frames
	thHeader    = 4
)

// Frame slot offsets (relative to the frame).
const (
	frProc   = 0 // proc number: threads first, then functions
	frLoc    = 1 // location index
	frSite   = 2 // 1 + the group that called this function; 0 for a thread's frame
	frHeader = 3
)

// slotSize is the number of slots a value of type t occupies in place, at
// most types.MaxSlots+1 (the checker rejects a type larger than
// types.MaxSlots).
func slotSize(t types.Type) int { return int(types.Slots(t)) }

// defaultSlots appends the default value of t.
func defaultSlots(dst []int64, t types.Type) []int64 {
	switch u := t.Underlying().(type) {
	case *types.Range:
		if u.Lo <= 0 && 0 <= u.Hi {
			return append(dst, 0)
		}
		return append(dst, u.Lo)
	case *types.Enum:
		if len(u.Consts) > 0 {
			return append(dst, u.Consts[0].Ordinal)
		}
		return append(dst, 0)
	case *types.Lock:
		return append(dst, 0, 0, 0, 0)
	case *types.Array:
		for i := int64(0); i < u.Len; i++ {
			dst = defaultSlots(dst, u.Elem)
		}
		return dst
	case *types.Record:
		for _, f := range u.Fields {
			dst = defaultSlots(dst, f.Type())
		}
		return dst
	}
	return append(dst, 0)
}

// initialSlots appends the initial value of a variable.
func initialSlots(dst []int64, v *types.Var) []int64 {
	switch v.Init.Kind {
	case types.IntConst:
		return append(dst, v.Init.Int)
	case types.BoolConst:
		if v.Init.Bool {
			return append(dst, 1)
		}
		return append(dst, 0)
	case types.NullConst:
		return append(dst, 0)
	}
	return defaultSlots(dst, v.Type())
}

// fieldOffset is the slot offset of field f in its record.
func fieldOffset(r *types.Record, f *types.Var) int {
	off := 0
	for _, g := range r.Fields {
		if g == f {
			return off
		}
		off += slotSize(g.Type())
	}
	return -1
}

// refSlots appends the offsets (relative to a value of type t) of the slots
// that hold references.
func refSlots(dst []int, t types.Type, base int) []int {
	switch u := t.Underlying().(type) {
	case *types.Ref:
		return append(dst, base)
	case *types.Array:
		es := slotSize(u.Elem)
		for i := 0; i < int(u.Len); i++ {
			dst = refSlots(dst, u.Elem, base+i*es)
		}
	case *types.Record:
		off := base
		for _, f := range u.Fields {
			dst = refSlots(dst, f.Type(), off)
			off += slotSize(f.Type())
		}
	}
	return dst
}

// collection is the layout of one collection in the heap.
type collection struct {
	obj     *types.Collection
	off     int  // slot of the count; objects follow
	objSize int  // slots per object
	array   bool // a collection of arrays: slot 0 of an object is its length
	maxLen  int  // for arrays
	elem    types.Type
	elemSz  int   // array element size
	first   int   // number of its first object among all objects
	refs    []int // reference slots of a record object, relative to the object
}

// procInfo is the compiled form of a thread or a function.
type procInfo struct {
	proc     *types.Proc
	num      int // proc number
	varOff   []int
	varSlots []int
	varSize  int
	init     []int64 // initial values of the frame's variables (parameters default)
	defaults []int64 // default values of the frame's variables
	locs     []*locInfo
	varIndex map[*types.Var]int
	enc      procEncoding
}

// locInfo is a location's compiled form.
type locInfo struct {
	loc    *types.Location
	groups []int // transformations leaving it
	// dead lists the variables reset on arrival.
	dead []int
	// final: a thread frame here has terminated (no transformations).
	final bool
}
