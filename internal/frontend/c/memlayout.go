package c

import (
	"fmt"
	"sort"
	"strings"

	"modernc.org/cc/v4"
)

// The memory model (docs/c.md, "Memory"): every C object whose address
// matters (an array, a struct, a variable whose address is taken, a
// malloc'd block) is a BIR heap array of int64 cells, $mem[id], where id
// numbers the objects from 1 in allocation order ($mem[0] is null). A
// scalar (an integer or a pointer) takes one cell, an array n times its
// element's cells, a struct the sum of its fields'. A pointer is the
// int64 id*ptrScale + offset (in cells), so null is 0 and a dereference
// of null or of a freed object (whose $mem entry is null again) is BIR's
// null-dereference error, and one outside its object BIR's
// index-out-of-bounds error.

// ptrScale separates a pointer's object number from its cell offset.
const ptrScale = 1000000

// poison marks a cell whose value is indeterminate (malloc'd memory, a
// local array or struct without initializer): reading it is an error of
// the model (the check is then inconclusive, never a guess). It is no
// value of a C type birch holds in a cell other than (unlikely) a 64-bit
// integer, where a read of that value is a false alarm, never a wrong
// pass.
const poison = "-4611686018427387903"

// memLayout is the cell layout of a C object type.
type memLayout struct {
	cells int
}

// cellsOf is the number of cells of an object of type t; ok is false
// (the construct reported at at) if the memory model does not hold it.
func (l *lowerer) cellsOf(at cc.Node, t cc.Type) (int, bool) {
	if isMutexType(t) {
		return 1, true
	}
	switch t.Kind() {
	case cc.Ptr:
		return 1, true
	case cc.Array:
		at2 := t.(*cc.ArrayType)
		if at2.IsVLA() || at2.IsIncomplete() || at2.Len() < 0 {
			l.unsupported(at, "an array of variable or unknown length (type %s)", t)
			return 0, false
		}
		if isMutexType(at2.Elem()) {
			l.unsupported(at, "an array of mutexes")
			return 0, false
		}
		n, ok := l.cellsOf(at, at2.Elem())
		if !ok {
			return 0, false
		}
		total := int64(n) * at2.Len()
		if total > maxObjectCells {
			l.unsupported(at, "an object of %d cells (type %s): birch holds objects of at most %d scalars", total, t, maxObjectCells)
			return 0, false
		}
		return int(total), true
	case cc.Struct:
		st := t.(*cc.StructType)
		if st.IsIncomplete() || st.HasFlexibleArrayMember() {
			l.unsupported(at, "a struct of incomplete type or with a flexible array member (%s)", t)
			return 0, false
		}
		sum := 0
		for i := 0; i < st.NumFields(); i++ {
			f := st.FieldByIndex(i)
			if f.IsBitfield() {
				l.unsupported(at, "a struct with a bit-field (%s)", t)
				return 0, false
			}
			if isMutexType(f.Type()) {
				l.unsupported(at, "a mutex inside a struct (%s)", t)
				return 0, false
			}
			n, ok := l.cellsOf(at, f.Type())
			if !ok {
				return 0, false
			}
			sum += n
		}
		return sum, true
	case cc.Union:
		l.unsupported(at, "a union (type %s): its members share storage, which birch's cells do not", t)
		return 0, false
	}
	switch class, _ := l.classify(t); class {
	case classInt:
		return 1, true
	case classFloat:
		l.unsupported(at, "a floating-point object (type %s)", t)
	default:
		l.unsupported(at, "an object of type %s", t)
	}
	return 0, false
}

// maxObjectCells bounds one object's cells (BIR's state holds at most
// 2^20 slots).
const maxObjectCells = 1 << 14

// fieldCell is the cell offset of field f within its struct.
func (l *lowerer) fieldCell(at cc.Node, st *cc.StructType, name string) (int, cc.Type, bool) {
	off := 0
	for i := 0; i < st.NumFields(); i++ {
		f := st.FieldByIndex(i)
		if f.Name() == name {
			return off, f.Type(), true
		}
		n, ok := l.cellsOf(at, f.Type())
		if !ok {
			return 0, nil, false
		}
		off += n
	}
	l.unsupported(at, "the field %s of %s (an anonymous member?)", name, st)
	return 0, nil, false
}

// cellOfByte is the cell holding the scalar at byte offset b of an
// object of type t (for initializers, whose offsets cc gives in bytes).
func (l *lowerer) cellOfByte(at cc.Node, t cc.Type, b int64) (int, bool) {
	switch t.Kind() {
	case cc.Array:
		at2 := t.(*cc.ArrayType)
		es := at2.Elem().Size()
		if es <= 0 {
			return 0, false
		}
		n, ok := l.cellsOf(at, at2.Elem())
		if !ok {
			return 0, false
		}
		k, ok := l.cellOfByte(at, at2.Elem(), b%es)
		return int(b/es)*n + k, ok
	case cc.Struct:
		st := t.(*cc.StructType)
		off := 0
		for i := 0; i < st.NumFields(); i++ {
			f := st.FieldByIndex(i)
			if b >= f.Offset() && b < f.Offset()+f.Type().Size() {
				k, ok := l.cellOfByte(at, f.Type(), b-f.Offset())
				return off + k, ok
			}
			n, ok := l.cellsOf(at, f.Type())
			if !ok {
				return 0, false
			}
			off += n
		}
		return 0, false
	}
	return 0, b == 0
}

// isMutexType tells whether t is pthread_mutex_t (a BIR lock, one cell
// standing for it).
func isMutexType(t cc.Type) bool {
	return typedefName(t) == "pthread_mutex_t"
}

func typedefName(t cc.Type) string {
	if t == nil {
		return ""
	}
	if d := t.Typedef(); d != nil {
		return d.Name()
	}
	return ""
}

// typeCode numbers the element types of objects, for the check of a
// conversion from void * ($ty).
func (m *memState) typeCode(t cc.Type) int {
	key := t.String()
	if c, ok := m.codes[key]; ok {
		return c
	}
	c := len(m.codes) + 1
	m.codes[key] = c
	return c
}

// memState is the lowering's memory: the objects of static duration and
// the bounds of the heap.
type memState struct {
	used     bool               // the program uses memory: $mem is declared
	objects  []*staticObj       // objects of static duration, by id - 1
	objBy    map[any]*staticObj // by C name (a global) or *cc.Declarator (a static local)
	maxCells int                // the largest object's cells
	codes    map[string]int
	useTy    bool // $ty is read (a conversion from void *)
	locks    bool // pthread mutexes: $locks
	threads  map[string]string
	threadQ  []string // C functions started, in order
	threaded bool     // the program starts threads: shared accesses are steps of their own
	atomic   bool     // __VERIFIER_atomic_*: $atomic guards every step
	tooLarge bool
}

// staticObj is an object of static duration, allocated before main runs.
type staticObj struct {
	id    int
	name  string // C name, for the trail
	t     cc.Type
	cells int
	init  []string // actions filling it
	pos   cc.Node
}

// heapObjects is how many objects the heap holds beyond those of static
// duration: a program that allocates more reaches a limit (inconclusive).
const heapObjects = 16

// minCells is the least length of the heap's arrays, which bounds a
// malloc'd block whose length is computed.
const minCells = 16

func (l *lowerer) memInit() {
	if l.mem == nil {
		l.mem = &memState{objBy: map[any]*staticObj{}, codes: map[string]int{}, threads: map[string]string{}}
	}
}

// memDecls are the BIR declarations of the memory.
func (l *lowerer) memDecls() string {
	m := l.mem
	if m == nil || !m.used {
		return ""
	}
	cells := m.maxCells
	if cells < minCells {
		cells = minCells
	}
	k := heapObjects + len(m.objects)
	var w strings.Builder
	fmt.Fprintf(&w, "// C's memory: object i is $mem[i]; a pointer is i * %d + offset (docs/c.md)\n", ptrScale)
	fmt.Fprintf(&w, "const $CELLS %d;\n$Cells = array [$CELLS] of int64;\n$heap : collection [%d] of $Cells;\n$Obj = ref $Cells {$heap};\n", cells, k)
	fmt.Fprintf(&w, "$mem : array [%d] of $Obj;\n$nobj : int;\n", k+2)
	if m.useTy {
		fmt.Fprintf(&w, "$ty : array [%d] of int;\n", k+2)
	}
	if m.tooLarge {
		w.WriteString("$objectTooLarge : collection [1] of $Cells; // taken at the start: a block longer than $Cells is a limit\n$tooLarge : ref $Cells {$objectTooLarge};\n")
	}
	if m.locks {
		fmt.Fprintf(&w, "$locks : array [%d] of lock;\n", k+2)
	}
	if m.threaded {
		fmt.Fprintf(&w, "$tids : array [%d] of tid;\n$nthr : int;\n", maxThreads+2)
	}
	if m.atomic {
		w.WriteString("$atomic : lock reentrant;\n")
	}
	return w.String()
}

// maxThreads is BIR's bound on thread instances.
const maxThreads = 16

// memInitActs are the actions of the main thread's first steps: the
// objects of static duration with their initial values.
func (l *lowerer) memInitSteps(w *strings.Builder, next string) {
	m := l.mem
	if m == nil || !m.used {
		return
	}
	steps := []string{}
	if m.tooLarge {
		steps = append(steps, "$tooLarge := new $objectTooLarge[0];")
	}
	objs := append([]*staticObj(nil), m.objects...)
	sort.Slice(objs, func(i, j int) bool { return objs[i].id < objs[j].id })
	for _, o := range objs {
		acts := []string{fmt.Sprintf("$mem[%d] := new $heap[%d];", o.id, o.cells)}
		if m.useTy {
			acts = append(acts, fmt.Sprintf("$ty[%d] := %d;", o.id, -m.typeCode(o.t)))
		}
		acts = append(acts, o.init...)
		if o.id == len(objs) {
			acts = append(acts, fmt.Sprintf("$nobj := %d;", len(objs)))
		}
		steps = append(steps, directive(pos(o.pos.Position()))+"    when true do { "+strings.Join(acts, " ")+" } goto ")
	}
	for i, s := range steps {
		target := fmt.Sprintf("$init%d", i+1)
		if i == len(steps)-1 {
			target = next
		}
		if i > 0 {
			fmt.Fprintf(w, "  loc $init%d:\n", i)
		}
		if !strings.HasPrefix(s, "//line") && !strings.HasPrefix(s, "    ") {
			s = "    when true do { " + s + " } goto "
		}
		fmt.Fprintf(w, "%s%s;\n", s, target)
	}
	if len(steps) > 0 {
		fmt.Fprintf(w, "  loc %s:\n", next)
	}
}
