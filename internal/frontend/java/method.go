package java

import (
	"container/heap"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"birch/internal/frontend/java/classfile"
)

// kind is the JVM's computational type of a stack value (JVM 2.11.1).
type kind uint8

const (
	kInt  kind = iota // int, short, byte, char, boolean
	kLong             // long
	kRef              // a reference (or a special value, value.special)
)

// value is an entry of the symbolic operand stack: a BIR expression
// without side effects over the method's parameters, locals and stack
// temporaries. It never reads a global or the heap: a read of shared
// state is stored in a temporary by a step of its own, so that the
// expression means the same wherever it is used.
type value struct {
	e     string   // the BIR expression ("" for a special value)
	k     kind     //
	t     string   // its BIR type: int32 for every int value, int64, a reference type
	reads []string // the parameters, locals and temporaries e reads
	depth int      // nesting of e: deeper ones are stored in a temporary
	// isConst: an int or long constant c (folded at once, as javac's
	// constant expressions are; the lowering's branches on constants
	// are jumps)
	isConst bool
	c       int64
	// special is a value the model has no variable for (System.out, a
	// string constant, a string concatenation, an AssertionError being
	// built, ...; other files add theirs): such a value is never stored
	// in a BIR variable, and a use the lowering does not know is
	// unsupported
	special any
}

// maxDepth is the nesting beyond which an expression is stored in a
// temporary (BIR allows 1000 levels), maxLen the length (dup doubles an
// expression).
const (
	maxDepth = 64
	maxLen   = 2000
)

func intValue(c int64) value {
	return value{e: intLit(c), k: kInt, t: "int32", isConst: true, c: int64(int32(c))}
}

func longValue(c int64) value {
	return value{e: intLit(c), k: kLong, t: "int64", isConst: true, c: c}
}

// intLit writes an integer constant in BIR (a negative one in
// parentheses, the least int64 as a difference).
func intLit(c int64) string {
	switch {
	case c == -1<<63:
		return "(-9223372036854775807 - 1)"
	case c < 0:
		return "(-" + strconv.FormatInt(-c, 10) + ")"
	}
	return strconv.FormatInt(c, 10)
}

// named is the value of a variable.
func named(name string, k kind, t string) value {
	return value{e: name, k: k, t: t, reads: []string{name}}
}

func (v value) readsName(n string) bool {
	for _, r := range v.reads {
		if r == n {
			return true
		}
	}
	return false
}

// derived is a value computed from operands: it reads what they read.
func derived(e string, k kind, t string, ops ...value) value {
	v := value{e: e, k: k, t: t}
	for _, o := range ops {
		v.reads = append(v.reads, o.reads...)
		if o.depth+1 > v.depth {
			v.depth = o.depth + 1
		}
	}
	return v
}

// method lowers one Java method to one BIR function.
type method struct {
	l      *lowerer
	fn     *function
	cls    *classfile.Class
	code   *classfile.Code
	file   string
	static bool
	insn   *classfile.Insn // the instruction being lowered
	b      *builder
	stack  []value

	names     map[string]bool // the function's name space (parameters, locals, temporaries)
	params    []*variable
	locals    map[localKey]*variable
	localList []*variable
	temps     map[string]*variable
	tempList  []*variable
	tempNames map[string]string // (prefix, depth, type) -> name
	lvtBySlot map[int][]*classfile.LocalVar
	refParent map[refNode]refNode
	refTypes  map[refNode]string // at the classes' roots
	refNodes  map[refNode]bool

	blocks   map[int]*block
	leaders  []int // block starts, sorted
	work     blockQueue
	ended    bool // the block's control has left it (jump, return, throw)
	skipNext bool // the next instruction is done (result)
	keepTemp bool // result keeps the value in a temporary
	dead     bool // an unsupported construct: the block is abandoned
}

// localKey is a variable of a local slot: the LocalVariableTable entry
// of the access (name and descriptor), or none ("": javac's hidden
// locals and code without -g), with the kind of its values.
type localKey struct {
	slot       int
	k          kind
	name, desc string
}

// variable is a parameter, local or temporary of the function.
type variable struct {
	name, typ string
	k         kind
	slot      int // the local slot; -1 for a variable of no slot (always live)
}

// block is a basic block of the method's code.
type block struct {
	pc     int
	label  string
	entry  []value // the stack on entry (its temporaries); nil until known
	known  bool
	queued bool
	loc    *location
	// refTypes are the types of the reference entries as the block was
	// lowered (a later join must not widen them)
	refTypes map[int]string
}

// blockQueue is the blocks to lower, the least pc first.
type blockQueue []*block

func (q blockQueue) Len() int           { return len(q) }
func (q blockQueue) Less(i, j int) bool { return q[i].pc < q[j].pc }
func (q blockQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *blockQueue) Push(x any)        { *q = append(*q, x.(*block)) }
func (q *blockQueue) Pop() any {
	old := *q
	b := old[len(old)-1]
	*q = old[:len(old)-1]
	return b
}

// lowerMethod lowers f's method and stores its BIR text in f.text.
func lowerMethod(l *lowerer, f *function) {
	m := &method{l: l, fn: f, cls: f.class, code: f.method.Code, file: sourcePath(f.class, l.cfg.SourceDirs),
		static: f.method.Access&classfile.AccStatic != 0, names: map[string]bool{},
		locals: map[localKey]*variable{}, temps: map[string]*variable{}, blocks: map[int]*block{},
		tempNames: map[string]string{}, refParent: map[refNode]refNode{}, refTypes: map[refNode]string{},
		refNodes: map[refNode]bool{}}
	m.b = newBuilder(m.file)
	nerrs := len(l.errs)
	defer func() {
		if r := recover(); r != nil {
			if bad, ok := r.(badCodeError); ok {
				l.unsupportedAt(m.file, m.line(), "malformed bytecode in %s (the JVM's verifier rejects it): %s", l.names.Functions[f.name], string(bad))
			} else if len(l.errs) == nerrs {
				l.unsupportedAt(m.file, m.line(), "%s in %s: %v", internalErrorMsg, l.names.Functions[f.name], r)
			}
			f.text = ""
		}
	}()
	if m.code == nil {
		l.unsupportedAt(m.file, 1, "the method %s has no code (native or abstract)", l.names.Functions[f.name])
		return
	}
	if !m.signature() {
		return
	}
	if hooks.throwNew == nil {
		// without exc.go an exception is never caught: a handler would
		// be a lie (a caught ArithmeticException a wrong violation); but
		// javac's handler of a synchronized block only releases the
		// monitor and throws the exception on, which stays uncaught
		for _, h := range m.code.Handlers {
			if !m.syncRethrow(h) {
				m.insn = &m.code.Insns[m.code.InsnAt(h.Start)]
				m.unsupported("an exception handler (try/catch/finally)")
				return
			}
		}
	}
	m.findBlocks()
	b0 := m.blockAt(0)
	if len(hooks.enter) > 0 {
		// the prologue: a location of its own before the first block,
		// which a loop may jump back to
		m.b.block = -1
		for _, h := range hooks.enter {
			h(m)
		}
		if m.b.cur != nil {
			m.b.jump(b0.label)
		}
	}
	b0.known, b0.entry = true, []value{}
	m.enqueue(b0)
	for len(m.work) > 0 {
		// in pc order: every forward path into a block is lowered
		// before it (its entry's reference types are joined), and a
		// local's stores mostly before its loads
		blk := heap.Pop(&m.work).(*block)
		m.lowerBlock(blk)
	}
	f.text = m.print()
}

// syncRethrow reports whether h is javac's handler of a synchronized
// block: any exception; astore e; aload lock; monitorexit; aload e;
// athrow.
func (m *method) syncRethrow(h classfile.Handler) bool {
	i := m.code.InsnAt(h.PC)
	if h.CatchType != "" || i < 0 || i+5 > len(m.code.Insns) {
		return false
	}
	in := m.code.Insns[i : i+5]
	e, _, ok1 := localAccess(&in[0])
	_, _, ok2 := localAccess(&in[1])
	e2, _, ok3 := localAccess(&in[3])
	return ok1 && isStore(in[0].Op) && ok2 && !isStore(in[1].Op) && in[2].Op == classfile.Monitorexit &&
		ok3 && !isStore(in[3].Op) && e2 == e && in[4].Op == classfile.Athrow
}

// badCodeError is a panic of the lowering on code the JVM's verifier
// rejects (a stack underflow, stacks that differ where paths meet): the
// method is reported as malformed, not as a bug of the lowering.
type badCodeError string

func badCode(format string, args ...any) { panic(badCodeError(fmt.Sprintf(format, args...))) }

// line is the Java line of the instruction being lowered.
func (m *method) line() int {
	if m.code == nil || m.insn == nil {
		if m.code != nil {
			return m.code.LineAt(0)
		}
		return 1
	}
	return m.code.LineAt(m.insn.PC)
}

// unsupported records a construct the lowering does not handle at the
// instruction being lowered, and abandons the block.
func (m *method) unsupported(format string, args ...any) {
	m.l.unsupportedAt(m.file, m.line(), format, args...)
	m.dead = true
}

// signature declares the parameters and the result.
func (m *method) signature() bool {
	params, ret, err := classfile.ParseMethodType(m.fn.method.Descriptor)
	if err != nil {
		m.unsupported("the method %s has the malformed descriptor %q", m.fn.method.Name, m.fn.method.Descriptor)
		return false
	}
	slot := 0
	if !m.static {
		t := hooks.thisType(m)
		if t == "" {
			m.unsupported("the instance method %s (objects are not lowered)", m.l.names.Functions[m.fn.name])
			return false
		}
		m.param(slot, "this", kRef, t)
		slot++
	}
	for i, p := range params {
		if m.isMain() {
			// main's args: an empty array where the heap's arrays give
			// one (hooks.mainArgs), else no parameter of the model, and
			// a use of the slot is unsupported (doc.go)
			if hooks.mainArgs != nil {
				if typ, _, ok := hooks.mainArgs(m.l); ok {
					name := "args"
					if lv := m.code.LocalAt(slot, 0); lv != nil {
						name = lv.Name
					}
					m.param(slot, name, kRef, typ)
				}
			}
			slot++
			continue
		}
		k, t, ok := m.kindOf(p, fmt.Sprintf("parameter %d of %s", i+1, m.l.names.Functions[m.fn.name]))
		if !ok {
			return false
		}
		name := fmt.Sprintf("p%d", i+1)
		if lv := m.code.LocalAt(slot, 0); lv != nil {
			name = lv.Name
		}
		m.param(slot, name, k, t)
		slot++
		if k == kLong {
			slot++
		}
	}
	for _, h := range hooks.params {
		h(m)
	}
	m.fn.params = nil
	for _, p := range m.params {
		m.fn.params = append(m.fn.params, p.typ)
	}
	if ret.Kind != 'V' {
		t, ok := m.birType(ret, "the result of "+m.l.names.Functions[m.fn.name])
		if !ok {
			return false
		}
		m.fn.ret = t
	}
	return true
}

// isMain reports whether the method is the program's main(String[]).
func (m *method) isMain() bool {
	return m.fn.method.Name == "main" && m.static && m.fn.method.Descriptor == "([Ljava/lang/String;)V" && m.cls == m.l.mainCls
}

// param declares a parameter: the variable of its slot's accesses that
// its LocalVariableTable entry (the one live at pc 0) covers, or that no
// entry covers.
func (m *method) param(slot int, name string, k kind, t string) {
	v := &variable{name: m.localName(name), typ: t, k: k, slot: slot}
	m.params = append(m.params, v)
	key := localKey{slot: slot, k: k}
	if lv := m.entryOf(&classfile.Insn{PC: 0, Op: classfile.Nop}, slot, k); lv != nil {
		if ty, err := classfile.ParseFieldType(lv.Descriptor); err == nil {
			if typ, _ := m.l.typeOf(ty); typ != "" {
				key.name, key.desc = lv.Name, lv.Descriptor
			}
		}
	}
	m.locals[key] = v
}

// descKind is the stack kind of a field descriptor's values (99 for
// floating point and malformed ones).
func descKind(desc string) kind {
	if desc == "" {
		return 99
	}
	switch desc[0] {
	case 'J':
		return kLong
	case 'L', '[':
		return kRef
	case 'F', 'D':
		return 99
	}
	return kInt
}

// localName takes a name in the function's name space; it avoids the
// program's global names, which a local would hide.
func (m *method) localName(name string) string {
	n := birName(name)
	if strings.HasPrefix(n, "$") {
		n = "j" + n
	}
	for k := 2; m.l.globalNames[n]; k++ {
		n = fmt.Sprintf("%s_%d", birName(name), k)
	}
	return uniqueName(n, m.names)
}

// kindOf is the stack kind and BIR type of a descriptor type.
func (m *method) kindOf(t classfile.Type, what string) (kind, string, bool) {
	typ, ok := m.birType(t, what)
	switch t.Kind {
	case 'J':
		return kLong, typ, ok
	case 'L', '[':
		return kRef, typ, ok
	}
	return kInt, typ, ok
}

// birType is the BIR type of a Java type (ISSUE 23 §3); a type the
// lowering does not handle is reported (what names its use).
func (m *method) birType(t classfile.Type, what string) (string, bool) {
	typ, why := m.l.typeOf(t)
	if typ == "" {
		m.unsupported("%s has %s", what, why)
		return "", false
	}
	return typ, true
}

// local is the variable the current instruction loads or stores, of
// kind k (t is the BIR type of a value stored, for a variable the
// LocalVariableTable does not type).
func (m *method) local(slot int, k kind, t string) *variable { return m.localOf(m.insn, slot, k, t) }

// localOf is the variable of slot that instruction in accesses: the one
// of the LocalVariableTable entry that covers the access (for a store,
// the entry whose range starts after it, as javac's do), so that a slot
// javac reuses for variables of other names or types in other scopes is
// several BIR variables, each with its Java name and type; else
// l<slot> (with a kind suffix where the slot has values of several
// kinds), typed by the values stored (references: their join).
func (m *method) localOf(in *classfile.Insn, slot int, k kind, t string) *variable {
	key := localKey{slot: slot, k: k}
	var typ string
	if lv := m.entryOf(in, slot, k); lv != nil {
		if ty, err := classfile.ParseFieldType(lv.Descriptor); err == nil {
			if typ, _ = m.l.typeOf(ty); typ != "" {
				key.name, key.desc = lv.Name, lv.Descriptor
			}
		}
	}
	if v := m.locals[key]; v != nil {
		if key.name == "" && k == kRef && t != "" && t != v.typ {
			m.widen(v, t)
		}
		return v
	}
	name := key.name
	if name == "" {
		name = fmt.Sprintf("l%d", slot)
		for kk := kInt; kk <= kRef; kk++ {
			if kk != k && m.slotUsedAs(slot, kk) {
				name += [...]string{"_I", "_J", "_A"}[k]
				break
			}
		}
		typ = t
		if k == kInt {
			// the JVM's int slot holds booleans, bytes, shorts, chars
			// and ints alike (javac reuses a slot of a boolean without
			// a LocalVariableTable entry for a short -1: l2 was typed
			// 0..1 by its first store, bad input)
			typ = "int32"
		}
	}
	v := &variable{name: m.localName(name), typ: typ, k: k, slot: slot}
	m.locals[key] = v
	m.localList = append(m.localList, v)
	return v
}

// entryOf is the LocalVariableTable entry of kind k that covers in's
// access of slot, or nil.
func (m *method) entryOf(in *classfile.Insn, slot int, k kind) *classfile.LocalVar {
	pcs := []int{in.PC}
	if isStore(in.Op) {
		if i := m.code.InsnAt(in.PC) + 1; i < len(m.code.Insns) {
			pcs = []int{m.code.Insns[i].PC, in.PC}
		}
	}
	if m.lvtBySlot == nil {
		m.lvtBySlot = map[int][]*classfile.LocalVar{}
		for i := range m.code.Locals {
			lv := &m.code.Locals[i]
			m.lvtBySlot[lv.Index] = append(m.lvtBySlot[lv.Index], lv)
		}
		for slot, lvs := range m.lvtBySlot {
			// entries of one slot whose ranges overlap (no javac writes
			// them) say nothing certain: the slot is l<slot> throughout
			for i, a := range lvs {
				for _, b := range lvs[i+1:] {
					if a.Start < b.Start+b.Length && b.Start < a.Start+a.Length &&
						(a.Name != b.Name || a.Descriptor != b.Descriptor) {
						m.lvtBySlot[slot] = nil
					}
				}
			}
		}
	}
	for _, pc := range pcs {
		for _, lv := range m.lvtBySlot[slot] {
			if lv.Start <= pc && pc < lv.Start+lv.Length && descKind(lv.Descriptor) == k {
				return lv
			}
		}
	}
	return nil
}

// widen makes a reference variable of no LocalVariableTable entry hold
// values of type t too: the join of the types stored in it.
func (m *method) widen(v *variable, t string) {
	if t == "null" {
		return
	}
	if v.typ == "null" || v.typ == "" {
		v.typ = t
		return
	}
	j := heapOf(m.l).joinRef(v.typ, t)
	if j == "" {
		m.unsupported("the local slot %d holds references of unrelated types (%s, %s)", v.slot, v.typ, t)
		return
	}
	v.typ = j
}

// newLocal declares a local of the function that no slot holds (another
// file's bookkeeping): it is live everywhere.
func (m *method) newLocal(name, typ string) *variable {
	v := &variable{name: m.localName(name), typ: typ, slot: -1}
	m.localList = append(m.localList, v)
	return v
}

// slotUsedAs reports whether an instruction loads or stores slot as kind k.
func (m *method) slotUsedAs(slot int, k kind) bool {
	for i := range m.code.Insns {
		in := &m.code.Insns[i]
		if s, kk, ok := localAccess(in); ok && s == slot && kk == k {
			return true
		}
	}
	return false
}

// localAccess is the slot and kind an instruction loads or stores.
func localAccess(in *classfile.Insn) (int, kind, bool) {
	op := in.Op
	switch {
	case op == classfile.Iload || op == classfile.Istore || op == classfile.Iinc ||
		op >= classfile.Iload_0 && op <= classfile.Iload_3 || op >= classfile.Istore_0 && op <= classfile.Istore_3:
		return in.Index, kInt, true
	case op == classfile.Lload || op == classfile.Lstore ||
		op >= classfile.Lload_0 && op <= classfile.Lload_3 || op >= classfile.Lstore_0 && op <= classfile.Lstore_3:
		return in.Index, kLong, true
	case op == classfile.Aload || op == classfile.Astore ||
		op >= classfile.Aload_0 && op <= classfile.Aload_3 || op >= classfile.Astore_0 && op <= classfile.Astore_3:
		return in.Index, kRef, true
	}
	return 0, 0, false
}

// temp is the stack temporary of depth d for values of BIR type t:
// $s<d> for int32, $s<d>_J for int64, $t<d>_<Type> for references (the
// references on the stack where blocks meet are $s<d>_<Type>, named
// when the method is lowered: boundaryTemp).
func (m *method) temp(d int, t string) string {
	if t != "int32" && t != "int64" {
		return m.tempNamed("$t", d, t)
	}
	return m.tempNamed("$s", d, t)
}

// tempNamed is temp with another prefix.
func (m *method) tempNamed(prefix string, d int, t string) string {
	key := fmt.Sprintf("%s%d:%s", prefix, d, t)
	if name, ok := m.tempNames[key]; ok {
		return name
	}
	name := fmt.Sprintf("%s%d", prefix, d)
	switch t {
	case "int32":
	case "int64":
		name += "_J"
	default:
		name += "_" + strings.TrimSuffix(t, "_ref")
	}
	for m.temps[name] != nil {
		name += "_" // a record named J, say: $s0_J is the long's
	}
	v := &variable{name: name, typ: t, slot: -1}
	m.temps[name] = v
	m.tempList = append(m.tempList, v)
	m.names[name] = true
	m.tempNames[key] = name
	return name
}

// A refNode is the reference entry at depth d of the stack where the
// block at pc starts. The nodes that one move of canonical feeds share a
// temporary (a union-find), whose type is the join of the types of every
// value that flows into them, known once the method is lowered: until
// then the temporary is written as the token $s<d>@<pc>.
type refNode struct{ pc, d int }

func (n refNode) token() string { return fmt.Sprintf("$s%d@%d", n.d, n.pc) }

func (m *method) findRef(n refNode) refNode {
	for {
		p, ok := m.refParent[n]
		if !ok || p == n {
			return n
		}
		n = p
	}
}

// joinRef adds the type t to n's class ("" where the types are
// unrelated: reported).
func (m *method) joinRefType(n refNode, t string) {
	r := m.findRef(n)
	old, ok := m.refTypes[r]
	if !ok {
		m.refTypes[r] = t
		return
	}
	j := heapOf(m.l).joinRef(old, t)
	if j == "" {
		m.unsupported("references of unrelated types (%s, %s) meet on the operand stack", old, t)
		return
	}
	m.refTypes[r] = j
}

// unionRef puts a and b in one class.
func (m *method) unionRef(a, b refNode) {
	ra, rb := m.findRef(a), m.findRef(b)
	if ra == rb {
		return
	}
	if _, ok := m.refParent[ra]; !ok {
		m.refParent[ra] = ra
	}
	m.refParent[rb] = ra
	if t, ok := m.refTypes[rb]; ok {
		delete(m.refTypes, rb)
		m.joinRefType(ra, t)
	}
}

// tokenNode is the node of a token ($s<d>@<pc>), if name is one.
func tokenNode(name string) (refNode, bool) {
	var n refNode
	if _, err := fmt.Sscanf(name, "$s%d@%d", &n.d, &n.pc); err != nil || n.token() != name {
		return n, false
	}
	return n, true
}

// resolveRefs names the reference temporaries where blocks meet by the
// join of their types, and checks that no block was lowered with a
// narrower type than the join (a loop's back edge bringing a wider one).
func (m *method) resolveRefs() *strings.Replacer {
	var pairs []string
	for n := range m.refParent {
		m.refNodes[n] = true
	}
	var nodes []refNode
	for n := range m.refNodes {
		nodes = append(nodes, n)
	}
	sort.Slice(nodes, func(i, j int) bool {
		a, b := nodes[i], nodes[j]
		if la, lb := len(a.token()), len(b.token()); la != lb {
			return la > lb
		}
		if a.pc != b.pc {
			return a.pc < b.pc // the temporaries' order of declaration stays the same
		}
		return a.d < b.d
	})
	for _, n := range nodes {
		t := m.refTypes[m.findRef(n)]
		if t == "" || t == "null" {
			t = heapOf(m.l).refType(heapOf(m.l).class(objectClass))
		}
		if b := m.blocks[n.pc]; b != nil && b.loc != nil {
			if lt := b.refTypes[n.d]; lt != "" && lt != "null" && lt != t {
				m.insn = &m.code.Insns[m.code.InsnAt(n.pc)]
				m.unsupported("references of the types %s and %s meet on the operand stack at a loop's head", lt, t)
			}
		}
		pairs = append(pairs, n.token(), m.tempNamed("$s", n.d, t))
	}
	return strings.NewReplacer(pairs...)
}

// stackType is the BIR type of a stack temporary holding v.
func stackType(v value) string {
	switch v.k {
	case kInt:
		return "int32"
	case kLong:
		return "int64"
	}
	return v.t
}

// push pushes a value, storing a too deep expression in a temporary.
func (m *method) push(v value) {
	m.stack = append(m.stack, v)
	if (v.depth > maxDepth || len(v.e) > maxLen) && v.special == nil {
		m.materialize(len(m.stack) - 1)
	}
}

// pop pops a value.
func (m *method) pop() value {
	n := len(m.stack)
	if n == 0 {
		badCode("operand stack underflow at pc %d", m.insn.PC)
	}
	v := m.stack[n-1]
	m.stack = m.stack[:n-1]
	return v
}

// popN pops n values, returned in push order.
func (m *method) popN(n int) []value {
	vs := make([]value, n)
	for i := n - 1; i >= 0; i-- {
		vs[i] = m.pop()
	}
	return vs
}

// materialize stores the stack entry at depth d in its temporary (a
// read of it then means the value at this point whatever happens to the
// variables it read).
func (m *method) materialize(d int) {
	m.materializeSeen(d, map[int]bool{})
}

func (m *method) materializeSeen(d int, seen map[int]bool) {
	v := m.stack[d]
	if v.special != nil && len(v.reads) > 0 {
		m.unsupported("%s made of a variable that changes before its use", describeSpecial(v.special))
		return
	}
	if v.special != nil || v.isConst {
		return
	}
	t := m.temp(d, stackType(v))
	if v.e == t {
		return
	}
	if seen[d] {
		panic("a cycle of stack temporaries")
	}
	seen[d] = true
	m.protect(t, d, seen)
	m.b.act(false, t, "%s := %s;", t, v.e)
	m.stack[d] = named(t, v.k, v.t)
}

// protect materializes the stack entries other than skip that read
// name, before name is written.
func (m *method) protect(name string, skip int, seen map[int]bool) {
	for i := range m.stack {
		if i != skip && m.stack[i].readsName(name) {
			m.materializeSeen(i, seen)
		}
	}
}

// assign writes a variable of the function (a local or a temporary)
// with an expression, after storing the stack entries that read it.
func (m *method) assign(name string, v value) {
	m.protect(name, -1, map[int]bool{})
	if v.e == name {
		return
	}
	m.b.act(false, name, "%s := %s;", name, v.e)
}

// result pushes the value an action leaves in a new temporary at the top
// of the stack: act receives the temporary's name and emits the action
// (a call, a choice, a read of shared state). It returns the temporary.
//
// When the next instruction stores the value in a local (int x =
// Verify.getInt(0, 3);), the action assigns the local itself and that
// store is skipped: one step and one variable fewer.
func (m *method) result(k kind, t string, act func(tmp string)) string {
	if x := m.storedNext(k, t); x != nil && !m.keepTemp && (k != kRef || x.typ == t) {
		m.protect(x.name, -1, map[int]bool{})
		act(x.name)
		m.skipNext = true
		return x.name
	}
	d := len(m.stack)
	v := value{k: k, t: t}
	tmp := m.temp(d, stackType(v))
	m.protect(tmp, -1, map[int]bool{})
	act(tmp)
	m.stack = append(m.stack, named(tmp, k, t))
	return tmp
}

// storedNext is the local the next instruction stores a value of kind k
// and BIR type t in, or nil.
func (m *method) storedNext(k kind, t string) *variable {
	i := m.code.InsnAt(m.insn.PC) + 1
	if i >= len(m.code.Insns) || m.isLeader(m.code.Insns[i].PC) {
		return nil
	}
	in := &m.code.Insns[i]
	slot, kk, ok := localAccess(in)
	if !ok || !isStore(in.Op) || kk != k || k == kRef && (t == "null" || t == "") {
		return nil
	}
	return m.localOf(in, slot, k, t)
}

// findBlocks finds the method's basic blocks: the first instruction, the
// targets of branches and switches, the instructions after them, and the
// exception handlers (which exc.go lowers).
func (m *method) findBlocks() {
	starts := map[int]bool{0: true}
	insns := m.code.Insns
	for i := range insns {
		in := &insns[i]
		next := -1
		if i+1 < len(insns) {
			next = insns[i+1].PC
		}
		switch {
		case isBranch(in.Op):
			starts[in.Target] = true
			if next >= 0 {
				starts[next] = true
			}
		case in.Op == classfile.Tableswitch || in.Op == classfile.Lookupswitch:
			starts[in.Default] = true
			for _, t := range in.Targets {
				starts[t] = true
			}
			if next >= 0 {
				starts[next] = true
			}
		case endsBlock(in.Op) && next >= 0:
			starts[next] = true
		}
	}
	for _, h := range m.code.Handlers {
		starts[h.PC] = true
	}
	for pc := range starts {
		if m.code.InsnAt(pc) >= 0 {
			m.leaders = append(m.leaders, pc)
		}
	}
	sort.Ints(m.leaders)
}

func isBranch(op classfile.Opcode) bool {
	return op >= classfile.Ifeq && op <= classfile.Jsr || op == classfile.Ifnull || op == classfile.Ifnonnull ||
		op == classfile.GotoW || op == classfile.JsrW
}

// endsBlock: the instruction never falls through to the next.
func endsBlock(op classfile.Opcode) bool {
	return op >= classfile.Ireturn && op <= classfile.Return || op == classfile.Athrow ||
		op == classfile.Goto || op == classfile.GotoW || op == classfile.Ret
}

func (m *method) isLeader(pc int) bool {
	i := sort.SearchInts(m.leaders, pc)
	return i < len(m.leaders) && m.leaders[i] == pc
}

// blockAt is the block starting at pc.
func (m *method) blockAt(pc int) *block {
	if b := m.blocks[pc]; b != nil {
		return b
	}
	b := &block{pc: pc, label: m.b.label(fmt.Sprintf("L%d", pc))}
	m.blocks[pc] = b
	return b
}

func (m *method) enqueue(b *block) {
	if !b.queued {
		b.queued = true
		heap.Push(&m.work, b)
	}
}

// lowerBlock lowers the instructions of a block.
func (m *method) lowerBlock(blk *block) {
	m.b.block = blk.pc
	m.b.cur = nil
	m.insn = &m.code.Insns[m.code.InsnAt(blk.pc)]
	m.b.line = m.line()
	blk.loc = m.b.place(blk.label)
	m.stack = append([]value(nil), blk.entry...)
	for d, v := range m.stack {
		if n, ok := tokenNode(v.e); ok && v.k == kRef {
			t := m.refTypes[m.findRef(n)]
			if blk.refTypes == nil {
				blk.refTypes = map[int]string{}
			}
			blk.refTypes[d] = t
			m.stack[d].t = t
		}
	}
	m.ended, m.dead = false, false
	for i := m.code.InsnAt(blk.pc); i < len(m.code.Insns); i++ {
		in := &m.code.Insns[i]
		if in.PC != blk.pc && m.isLeader(in.PC) {
			m.goTo(in.PC)
			return
		}
		m.insn = in
		m.b.line = m.line()
		m.lowerInsn(in)
		if m.skipNext {
			// result stored the value in the local the next instruction
			// stores it in
			m.skipNext = false
			i++
		}
		if m.dead {
			m.b.cur = nil
			m.b.pending = nil
			m.b.pendingShared = false
			return
		}
		if m.ended {
			return
		}
	}
	m.unsupported("the code falls off the end of the method")
}

// flowTo records the stack as the entry of the block at pc and queues
// it; the stack must be canonical (canonical).
func (m *method) flowTo(pc int) string {
	if m.code.InsnAt(pc) < 0 {
		badCode("a branch to pc %d, where no instruction starts", pc)
	}
	b := m.blockAt(pc)
	if !b.known {
		b.known = true
		b.entry = append([]value(nil), m.stack...)
		for d, v := range b.entry {
			if v.k == kRef && v.special == nil {
				// the block's own token: canonical put it in one
				// class with the temporary the move wrote
				n := refNode{pc, d}
				m.refNodes[n] = true
				b.entry[d] = named(n.token(), kRef, "")
			}
		}
	} else if len(b.entry) != len(m.stack) {
		badCode("the stack heights at pc %d differ", pc)
	} else {
		for i := range b.entry {
			x, y := b.entry[i], m.stack[i]
			if x.special != nil || y.special != nil {
				kx, okx := specialKey(x.special)
				ky, oky := specialKey(y.special)
				if !okx || !oky || kx != ky {
					m.unsupported("%s and %s joined on the operand stack", describeSpecial(x.special), describeSpecial(y.special))
					return b.label
				}
				continue
			}
			if x.k == kRef || y.k == kRef {
				if x.k != y.k {
					badCode("the stacks at pc %d differ", pc)
				}
				continue // canonical joined them
			}
			if x.e != y.e {
				badCode("the stacks at pc %d differ", pc)
			}
		}
	}
	m.enqueue(b)
	return b.label
}

// canonical stores every stack entry in its temporary (at the end of a
// block, so that every path into a block leaves its values in the same
// variables); targets are the blocks the stack flows to.
func (m *method) canonical(targets []int) {
	type move struct {
		d   int
		tmp string
	}
	var moves []move
	for d, v := range m.stack {
		if v.special != nil {
			if _, ok := specialKey(v.special); !ok {
				m.unsupported("%s kept on the operand stack across a branch", describeSpecial(v.special))
				return
			}
			continue // the same value on every path (flowTo)
		}
		if v.k == kRef {
			first := refNode{targets[0], d}
			m.refNodes[first] = true
			for _, pc := range targets[1:] {
				m.unionRef(first, refNode{pc, d})
			}
			m.joinRefType(first, v.t)
			if n, ok := tokenNode(v.e); ok && m.findRef(n) == m.findRef(first) {
				continue // the same temporary
			}
			moves = append(moves, move{d, first.token()})
			continue
		}
		t := m.temp(d, stackType(v))
		if v.e != t {
			moves = append(moves, move{d, t})
		}
	}
	// a move whose temporary a later one reads needs the values set
	// aside first (tokens of one depth may become one temporary)
	conflict := false
	for i, x := range moves {
		for _, y := range moves[i+1:] {
			if m.stack[y.d].readsName(x.tmp) || readsDepthToken(m.stack[y.d], x.tmp) {
				conflict = true
			}
		}
	}
	if conflict {
		for _, x := range moves {
			v := m.stack[x.d]
			aside := m.tempNamed("$x", x.d, stackType(v))
			m.b.act(false, aside, "%s := %s;", aside, v.e)
			m.stack[x.d] = named(aside, v.k, v.t)
		}
	}
	for _, x := range moves {
		v := m.stack[x.d]
		m.b.act(false, x.tmp, "%s := %s;", x.tmp, v.e)
		m.stack[x.d] = named(x.tmp, v.k, v.t)
	}
}

// readsDepthToken reports whether v reads a token of the depth of the
// token tok.
func readsDepthToken(v value, tok string) bool {
	n, ok := tokenNode(tok)
	if !ok {
		return false
	}
	for _, r := range v.reads {
		if rn, ok := tokenNode(r); ok && rn.d == n.d {
			return true
		}
	}
	return false
}

// goTo ends the block with a jump to the block at pc.
func (m *method) goTo(pc int) {
	m.canonical([]int{pc})
	if m.dead {
		return
	}
	m.b.jump(m.flowTo(pc))
	m.ended = true
}

// readsBelow reports whether v reads a stack temporary of a depth below h.
func (m *method) readsBelow(v value, h int) bool {
	for _, r := range v.reads {
		digits, ok := strings.CutPrefix(r, "$s")
		if !ok {
			continue
		}
		d := 0
		for _, c := range digits {
			if c < '0' || c > '9' {
				break
			}
			d = d*10 + int(c-'0')
		}
		if d < h {
			return true
		}
	}
	return false
}

// prepareCond readies the top n stack entries, a condition's operands,
// for a branch that leaves other entries on the stack: the moves into
// the stack's temporaries at the block's end must not change what the
// condition reads, so operands that read the temporaries below them are
// stored in their own.
func (m *method) prepareCond(n int) {
	h := len(m.stack) - n
	if h <= 0 {
		return
	}
	for d := h; d < len(m.stack); d++ {
		if m.readsBelow(m.stack[d], h) {
			m.materialize(d)
		}
	}
}

// branchTo ends the block by guarded jumps to the blocks at pcs (the
// guards exclude each other and cover every case); reads are what the
// guards read (prepareCond readied them).
func (m *method) branchTo(conds []string, pcs []int, reads []string) {
	m.canonical(pcs)
	if m.dead {
		return
	}
	var cs, targets []string
	for i, pc := range pcs {
		switch conds[i] {
		case "false":
			continue
		case "true":
			cs, targets = nil, nil
		}
		cs, targets = append(cs, conds[i]), append(targets, m.flowTo(pc))
		if conds[i] == "true" {
			break
		}
	}
	m.b.branch(cs, targets, reads, false)
	m.ended = true
}

// slots is a set of local slots.
type slots []uint64

func newSlots(n int) slots     { return make(slots, (n+63)/64) }
func (s slots) has(i int) bool { return i/64 < len(s) && s[i/64]&(1<<(i%64)) != 0 }
func (s slots) add(i int)      { s[i/64] |= 1 << (i % 64) }
func (s slots) remove(i int)   { s[i/64] &^= 1 << (i % 64) }
func (s slots) union(t slots) bool { // s |= t; reports a change
	changed := false
	for i := range s {
		if n := s[i] | t[i]; n != s[i] {
			s[i], changed = n, true
		}
	}
	return changed
}

// liveness computes the local slots live where each block starts: read
// on some path from there before they are written (a backward data flow
// over the blocks). What a handler reads is live where each block of its
// try range starts, even if the block writes it: an exception may leave
// the block before its stores.
func (m *method) liveness() map[int]slots {
	n := m.code.MaxLocals + 2
	type info struct {
		use, def, in slots
		succ         []int
		handlers     []int // the handlers of try ranges the block overlaps
	}
	blocks := make(map[int]*info, len(m.leaders))
	for bi, pc := range m.leaders {
		end := len(m.code.Insns)
		if bi+1 < len(m.leaders) {
			end = m.code.InsnAt(m.leaders[bi+1])
		}
		b := &info{use: newSlots(n), def: newSlots(n), in: newSlots(n)}
		start := m.code.InsnAt(pc)
		for i := start; i < end; i++ {
			in := &m.code.Insns[i]
			if slot, _, ok := localAccess(in); ok && slot < n {
				load := !isStore(in.Op)
				if load && !b.def.has(slot) {
					b.use.add(slot)
				}
				if !load || in.Op == classfile.Iinc {
					b.def.add(slot)
				}
			}
		}
		last := &m.code.Insns[end-1]
		switch {
		case last.Op == classfile.Tableswitch || last.Op == classfile.Lookupswitch:
			b.succ = append(append(b.succ, last.Default), last.Targets...)
		case isBranch(last.Op):
			b.succ = append(b.succ, last.Target)
			if !endsBlock(last.Op) && end < len(m.code.Insns) {
				b.succ = append(b.succ, m.code.Insns[end].PC)
			}
		case !endsBlock(last.Op) && end < len(m.code.Insns):
			b.succ = append(b.succ, m.code.Insns[end].PC)
		}
		endPC := m.code.Insns[end-1].PC + 1
		for _, h := range m.code.Handlers {
			if h.Start < endPC && pc < h.End {
				b.handlers = append(b.handlers, h.PC)
			}
		}
		blocks[pc] = b
	}
	for changed := true; changed; {
		changed = false
		for i := len(m.leaders) - 1; i >= 0; i-- {
			b := blocks[m.leaders[i]]
			out := newSlots(n)
			for _, s := range b.succ {
				if sb := blocks[s]; sb != nil {
					out.union(sb.in)
				}
			}
			for j := range out {
				out[j] &^= b.def[j]
			}
			out.union(b.use)
			// an exception may reach a handler before the block's
			// stores: what the handler reads is live where the block
			// starts, whatever the block writes
			for _, h := range b.handlers {
				if hb := blocks[h]; hb != nil {
					out.union(hb.in)
				}
			}
			if b.in.union(out) {
				changed = true
			}
		}
	}
	live := make(map[int]slots, len(blocks))
	for pc, b := range blocks {
		live[pc] = b.in
	}
	return live
}

// isStore: the instruction stores a local (iinc both reads and writes).
func isStore(op classfile.Opcode) bool {
	return op >= classfile.Istore && op <= classfile.Astore_3
}

// print writes the function.
func (m *method) print() string {
	b := m.b
	refs := m.resolveRefs()
	for _, v := range m.localList {
		if v.k == kRef && (v.typ == "null" || v.typ == "") {
			// only null was stored
			v.typ = heapOf(m.l).refType(heapOf(m.l).class(objectClass))
		}
	}
	// live sets where a block starts: the parameters and locals whose
	// slot is live there, and the temporaries of the stack on entry
	live := m.liveness()
	for _, blk := range m.blocks {
		if blk.loc == nil {
			continue
		}
		var names []string
		in := live[blk.pc]
		for _, vs := range [][]*variable{m.params, m.localList} {
			for _, v := range vs {
				if v.slot < 0 || in.has(v.slot) {
					names = append(names, v.name)
				}
			}
		}
		for _, v := range blk.entry {
			if v.special == nil {
				names = append(names, v.e)
			}
		}
		blk.loc.live, blk.loc.hasLv = names, true
	}
	b.thread()
	b.order()
	var w strings.Builder
	fmt.Fprintf(&w, "//line %s:%d:1\nfunction %s (", m.file, max(m.code.LineAt(0), 1), m.fn.name)
	for i, p := range m.params {
		if i > 0 {
			w.WriteString(", ")
		}
		fmt.Fprintf(&w, "%s : %s", p.name, p.typ)
	}
	w.WriteString(")")
	if m.fn.ret != "" {
		fmt.Fprintf(&w, " : %s", m.fn.ret)
	}
	w.WriteString("\n")
	for _, v := range m.localList {
		fmt.Fprintf(&w, "  %s : %s;\n", v.name, v.typ)
	}
	for _, v := range m.tempList {
		fmt.Fprintf(&w, "  %s : %s;\n", v.name, v.typ)
	}
	b.print(&w)
	fmt.Fprintf(&w, "end %s;\n", m.fn.name)
	return refs.Replace(w.String())
}
