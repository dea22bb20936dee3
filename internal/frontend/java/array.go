package java

// The lowering of arrays: newarray, anewarray and multianewarray
// allocate heap arrays from a collection per site (BIR array type of
// Config.MaxArrayLength elements: a longer array is a limit), arraylength,
// and the loads and stores of elements. BIR's own errors are Java's
// exceptions: an index outside the array is ArrayIndexOutOfBoundsException
// and an access through null NullPointerException; a negative length is
// NegativeArraySizeException, checked before the allocation.

import (
	"fmt"

	"birch/internal/frontend/java/classfile"
)

func init() {
	hooks.insn[classfile.Newarray] = (*method).newarray
	hooks.insn[classfile.Anewarray] = (*method).newarray
	hooks.insn[classfile.Multianewarray] = (*method).multianewarray
	hooks.insn[classfile.Arraylength] = (*method).arraylength
	for op := classfile.Iaload; op <= classfile.Saload; op++ {
		hooks.insn[op] = (*method).arrayLoad
	}
	for op := classfile.Iastore; op <= classfile.Sastore; op++ {
		hooks.insn[op] = (*method).arrayStore
	}
}

// newarrayTypes are the element types of newarray's atype operand.
var newarrayTypes = map[int64]byte{
	classfile.TBoolean: 'Z', classfile.TChar: 'C', classfile.TFloat: 'F', classfile.TDouble: 'D',
	classfile.TByte: 'B', classfile.TShort: 'S', classfile.TInt: 'I', classfile.TLong: 'J',
}

// newarray lowers newarray and anewarray.
func (m *method) newarray(in *classfile.Insn) {
	var elem classfile.Type
	if in.Op == classfile.Newarray {
		elem.Kind = newarrayTypes[in.Value]
	} else {
		name := m.cls.ClassAt(in.Index)
		if len(name) > 0 && name[0] == '[' {
			var err error
			if elem, err = classfile.ParseFieldType(name); err != nil {
				m.unsupported("anewarray of the malformed type %q", name)
				return
			}
		} else {
			elem = classfile.Type{Kind: 'L', Class: name}
		}
	}
	n := m.pop()
	if !m.plain(n) {
		return
	}
	a, err := heapOf(m.l).arrayOf(elem)
	if err != nil {
		m.unsupported("an array of %s: %v", elem, err)
		return
	}
	if !m.lengthChecks([]value{n}) {
		heapOf(m.l).useType(a.ref)
		m.push(value{e: "null", k: kRef, t: a.ref}) // no path gets here
		return
	}
	if m.dead {
		return
	}
	s := heapOf(m.l).arraySite(m.fn.method, in.PC, 0, a)
	m.result(kRef, a.ref, func(tmp string) {
		m.b.act(true, tmp, "%s := new %s[%s];", tmp, s.coll, n.e)
	})
}

// lengthChecks checks the lengths of a new array's dimensions: a negative
// one throws NegativeArraySizeException (the JVM checks every dimension
// before it allocates), one beyond Config.MaxArrayLength is a limit. It
// reports whether the allocation may follow: false where a constant
// length ends every path (BIR rejects a constant length outside the
// array type's bounds, even where no path gets).
func (m *method) lengthChecks(ns []value) bool {
	t := heapOf(m.l)
	for _, n := range ns {
		if n.isConst && (n.c < 0 || n.c > int64(t.maxArrayLength)) {
			m.lengthChecksOf(ns)
			return false
		}
	}
	m.lengthChecksOf(ns)
	return true
}

// lengthChecksOf emits lengthChecks' checks.
func (m *method) lengthChecksOf(ns []value) {
	t := heapOf(m.l)
	var neg, long []string
	var reads []string
	for _, n := range ns {
		switch {
		case n.isConst && n.c >= 0 && n.c <= int64(t.maxArrayLength):
			continue
		case n.isConst && n.c > int64(t.maxArrayLength):
			long = append(long, "true")
			continue
		}
		neg = append(neg, paren(n.e)+" >= 0")
		if !n.isConst {
			long = append(long, fmt.Sprintf("%s > %d", paren(n.e), t.maxArrayLength))
		}
		reads = append(reads, n.reads...)
	}
	if len(neg) > 0 {
		m.check(joinConds(neg, " && "), reads, "java/lang/NegativeArraySizeException")
	}
	if len(long) == 0 || m.dead {
		return
	}
	// beyond the bound: a second new of a collection of one object is
	// BIR's limit "collection full" (inconclusive)
	coll := t.tooLong()
	cond := joinConds(long, " || ")
	ok, over := m.b.label(m.b.base()), m.b.label(m.b.base())
	m.b.branch([]string{negate(cond), cond}, []string{ok, over}, reads, false)
	if cond != "false" {
		m.b.place(over)
		m.b.act(true, "", "%s := new %s; %s := new %s;", tooLongName, coll, tooLongName, coll)
		m.b.jump(ok)
	}
	m.b.place(ok)
}

// joinConds joins conditions, each parenthesized where needed.
func joinConds(cs []string, op string) string {
	if len(cs) == 1 {
		return cs[0]
	}
	out := ""
	for i, c := range cs {
		if i > 0 {
			out += op
		}
		out += paren(c)
	}
	return out
}

// multianewarray lowers new T[n0][n1]...: the outer array, then loops
// that fill each level with the arrays of the next, down to the last
// dimension given (the deeper elements stay null, as in Java).
func (m *method) multianewarray(in *classfile.Insn) {
	name := m.cls.ClassAt(in.Index)
	ty, err := classfile.ParseFieldType(name)
	dims := int(in.Value)
	if err != nil || dims < 1 {
		m.unsupported("multianewarray of the malformed type %q", name)
		return
	}
	// levels[k] is the array type of the arrays of level k
	t := heapOf(m.l)
	var levels []*arrayType
	for k, e := 0, &ty; k < dims; k++ {
		if e.Kind != '[' || e.Elem == nil {
			m.unsupported("multianewarray of %d dimensions of the type %q", dims, name)
			return
		}
		a, err := t.arrayOf(*e.Elem)
		if err != nil {
			m.unsupported("an array of %s: %v", e.Elem, err)
			return
		}
		levels = append(levels, a)
		e = e.Elem
	}
	ns := m.popN(dims)
	for _, n := range ns {
		if !m.plain(n) {
			return
		}
	}
	if !m.lengthChecks(ns) {
		t.useType(levels[0].ref)
		m.push(value{e: "null", k: kRef, t: levels[0].ref}) // no path gets here
		return
	}
	if m.dead {
		return
	}
	so := t.arraySite(m.fn.method, in.PC, 0, levels[0])
	if dims == 1 {
		m.result(kRef, levels[0].ref, func(tmp string) {
			m.b.act(true, tmp, "%s := new %s[%s];", tmp, so.coll, ns[0].e)
		})
		return
	}
	// the lengths in temporaries of their own (the loops must not read
	// what the allocations change)
	d := len(m.stack)
	lens := make([]string, dims)
	for k, n := range ns {
		lens[k] = m.heapTemp(fmt.Sprintf("$n%d_%d", d, k), "int32")
		m.b.act(false, lens[k], "%s := %s;", lens[k], n.e)
	}
	outer := m.result(kRef, levels[0].ref, func(tmp string) {
		m.b.act(true, tmp, "%s := new %s[%s];", tmp, so.coll, lens[0])
	})
	var fill func(k int, parent string)
	fill = func(k int, parent string) {
		site := t.arraySite(m.fn.method, in.PC, k, levels[k])
		i := m.heapTemp(fmt.Sprintf("$i%d_%d", d, k), "int32")
		m.b.act(false, i, "%s := 0;", i)
		loop, body, done := m.b.label(m.b.base()), m.b.label(m.b.base()), m.b.label(m.b.base())
		m.b.jump(loop)
		m.b.place(loop)
		m.b.branch([]string{i + " < " + lens[k-1], i + " >= " + lens[k-1]}, []string{body, done}, []string{i, lens[k-1]}, false)
		m.b.place(body)
		if k == dims-1 {
			m.b.act(true, "", "%s[%s] := new %s[%s]; %s := %s + 1;", parent, i, site.coll, lens[k], i, i)
		} else {
			// the new array is the parent's element and the next level's
			// parent; it is no other thread's yet: one step
			child := m.heapTemp(fmt.Sprintf("$a%d_%d", d, k), levels[k].ref)
			m.b.act(true, child, "%s := new %s[%s]; %s[%s] := %s;", child, site.coll, lens[k], parent, i, child)
			fill(k+1, child)
			m.b.act(false, i, "%s := %s + 1;", i, i)
		}
		m.b.jump(loop)
		m.b.place(done)
	}
	fill(1, outer)
}

// heapTemp is a temporary of the function named name (outside the stack's
// $s temporaries).
func (m *method) heapTemp(name, typ string) string {
	if m.temps[name] == nil {
		v := &variable{name: name, typ: typ}
		m.temps[name] = v
		m.tempList = append(m.tempList, v)
		m.names[name] = true
	}
	return name
}

// arrayOperand is the array an instruction reads through, reporting
// what is no array of the model.
func (m *method) arrayOperand(a value) (*arrayType, bool) {
	if !m.plain(a) {
		return nil, false
	}
	t := heapOf(m.l)
	if at := t.arrRefs[a.t]; at != nil {
		return at, true
	}
	if a.t == "null" {
		return nil, true
	}
	m.unsupported("an array held in a reference of type %s (birch keeps arrays and objects apart)", t.typeName(a.t))
	return nil, false
}

// arraylength reads an array's length.
func (m *method) arraylength(in *classfile.Insn) {
	a := m.pop()
	if _, ok := m.arrayOperand(a); !ok {
		return
	}
	m.nullCheck(a)
	m.result(kInt, "int32", func(tmp string) {
		m.b.act(true, tmp, "%s := %s.length;", tmp, paren(a.e))
	})
}

// loadKinds are the stack kinds of the values xaload pushes.
func loadKind(op classfile.Opcode) (kind, bool) {
	switch op {
	case classfile.Iaload, classfile.Baload, classfile.Caload, classfile.Saload,
		classfile.Iastore, classfile.Bastore, classfile.Castore, classfile.Sastore:
		return kInt, true
	case classfile.Laload, classfile.Lastore:
		return kLong, true
	case classfile.Aaload, classfile.Aastore:
		return kRef, true
	}
	return 0, false // faload, daload, fastore, dastore
}

// arrayLoad lowers iaload ... saload: a visible step into a temporary.
func (m *method) arrayLoad(in *classfile.Insn) {
	k, at, a, i, ok := m.elementAccess(in.Op)
	if !ok {
		return
	}
	t := stackType(value{k: k})
	if k == kRef {
		t = at.elem
	}
	m.result(k, t, func(tmp string) {
		m.b.act(true, tmp, "%s := %s[%s];", tmp, paren(a.e), i.e)
	})
}

// elementAccess pops the index and the array of an element's load or
// store (whose value the caller popped) and throws what the access may
// throw; ok is false after an unsupported construct is reported.
func (m *method) elementAccess(op classfile.Opcode) (k kind, at *arrayType, a, i value, ok bool) {
	k, known := loadKind(op)
	i = m.pop()
	a = m.pop()
	if !known {
		m.unsupported("a floating-point array (%s)", op)
		return k, nil, a, i, false
	}
	if at, ok = m.arrayOperand(a); !ok || !m.plain(i) {
		return k, nil, a, i, false
	}
	if at == nil {
		m.unsupported("an element of null")
		return k, nil, a, i, false
	}
	m.indexChecks(a, i)
	return k, at, a, i, true
}

// indexChecks throws NullPointerException and
// ArrayIndexOutOfBoundsException where a handler may catch them (BIR's
// null dereference and index errors are the uncaught ones).
func (m *method) indexChecks(a, i value) {
	m.nullCheck(a)
	if mayCatch(m, "java/lang/ArrayIndexOutOfBoundsException") {
		reads := append(append([]string(nil), a.reads...), i.reads...)
		m.check(fmt.Sprintf("%s >= 0 && %s < %s.length", paren(i.e), paren(i.e), paren(a.e)), reads,
			"java/lang/ArrayIndexOutOfBoundsException")
	}
}

// arrayStore lowers iastore ... sastore: a visible step. A value stored in
// a narrower element wraps (bastore, castore, sastore) as the JVM's does.
func (m *method) arrayStore(in *classfile.Insn) {
	v := m.pop()
	k, at, a, i, ok := m.elementAccess(in.Op)
	if !ok || !isString(v) && !m.plain(v) {
		return
	}
	if k == kRef && isString(v) {
		v, _ = m.stringObject(v, len(m.stack))
	}
	if k == kRef {
		if v, ok = m.asRef(v, at.elem); !ok {
			return
		}
	}
	m.b.act(true, "", "%s[%s] := %s;", paren(a.e), i.e, v.e)
}
