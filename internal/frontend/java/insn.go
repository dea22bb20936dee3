package java

import (
	"fmt"
	"strings"

	"birch/internal/frontend/java/classfile"
	"birch/internal/source"
)

// hooks are the lowering's seams to the files of the other lanes of
// issue 23 (heap.go, array.go, dispatch.go, jlang.go, thread.go,
// monitor.go, exc.go), set by their init functions; ISSUE23.md's lane
// notes describe them. A nil hook means the construct is unsupported.
var hooks = struct {
	// insn lowers the opcodes this file leaves to others (new,
	// getfield, arrays, checkcast, monitors, athrow, ...).
	insn map[classfile.Opcode]func(m *method, in *classfile.Insn)
	// call is tried, in order, on each call site that is none of the
	// lowering's own (Verify, Verifier, System.out, static methods of the
	// program); one that lowers the call returns true.
	call []func(m *method, c *callSite) bool
	// refType is the BIR type of a reference type (heap.go).
	refType func(l *lowerer, t classfile.Type) (string, bool)
	// thisType is the BIR type of this in an instance method (heap.go).
	thisType func(m *method) string
	// enter emits the prologue of a method (a synchronized method's
	// lock), before its first instruction.
	enter []func(m *method)
	// beforeReturn emits what a return does first (unlock); its actions
	// must not write the method's locals or temporaries, which the
	// returned expression may read.
	beforeReturn []func(m *method)
	// throwNew lowers an exception the lowering raises (class, an
	// internal name, with the detail message of the JVM's): by default
	// it is uncaught (uncaught).
	throwNew func(m *method, class, detail string)
	// mainArgs is the BIR type of main's String[] args and the
	// expression that allocates the empty array main_ passes it (heap
	// arrays); while unset, main has no parameter and a read of args is
	// unsupported.
	mainArgs func(l *lowerer) (typ, alloc string, ok bool)
	// begin runs once the classes are indexed, before the lowering
	// takes the names of the program's classes (l.classNames): the
	// model's own classes (java.lang's) take theirs here, in
	// l.globalNames
	begin []func(l *lowerer)
	// params declares parameters after a method's own (exc.go's
	// pending exception), in signature.
	params []func(m *method)
	// callArgs gives the arguments of a call of f (adding those params
	// declared).
	callArgs []func(m *method, f *function, args []string) []string
	// afterCall emits what follows a call of f (a test of a pending
	// exception), once the call's step is closed.
	afterCall []func(m *method, f *function)
	// keepResult tells whether a call of f keeps its result in its
	// temporary while the afterCall hooks run (the call may throw, and a
	// local the Java code stores the result in keeps its old value then)
	keepResult func(m *method, f *function) bool
	// divisor sees the divisor of an idiv, irem, ldiv or lrem that is no
	// constant before the division (a handler may catch
	// ArithmeticException).
	divisor func(m *method, divisor value)
	// runtimeError is the Java message of a violation of the model that
	// is no assertion of the lowering (a BIR runtime error), for
	// Output.Describe: "" when it has none.
	runtimeError func(msg string) string
	// finish runs once every method is lowered, before the model is
	// printed (declarations of records, collections, threads); it may
	// queue more functions.
	finish []func(l *lowerer)
}{
	insn:     map[classfile.Opcode]func(*method, *classfile.Insn){},
	thisType: func(m *method) string { return "" },
}

// callSite is a call being lowered: the method it names and its
// arguments, popped (the receiver first for an instance call).
type callSite struct {
	op                classfile.Opcode
	class, name, desc string // the method reference (internal class name)
	params            []classfile.Type
	ret               classfile.Type
	args              []value
}

// Special values (value.special) of the lowering.
type (
	sysOut   struct{ name string }  // System.out or System.err
	strConst struct{ s string }     // a string constant
	concat   struct{ parts []part } // a string concatenation
	classLit struct{ name string }  // a Class constant (ldc Foo.class)
	// assertionError is an AssertionError being built (new, dup,
	// <init>): thrown, it is the failure of a Java assert
	assertionError struct {
		msg    string
		hasMsg bool
	}
	// cmpResult is lcmp's result, which a branch compares with 0
	cmpResult struct{ a, b value }
)

// part is a piece of a printed string: a literal, or a value printed as
// its Java type prints.
type part struct {
	lit  string
	v    value
	java byte // 0 for a literal; 'I', 'J', 'Z', 'C'
}

// specialKey identifies a special value that may stay on the operand
// stack across a branch (every path into the block must bring the same);
// false for one that may not.
func specialKey(s any) (string, bool) {
	switch s := s.(type) {
	case sysOut:
		return "out:" + s.name, true
	case strConst:
		return "string:" + s.s, true
	case classLit:
		return "class:" + s.name, true
	case *assertionError:
		return fmt.Sprintf("assertion:%p", s), true
	}
	return "", false
}

// describeSpecial says what a special value is, for messages.
func describeSpecial(s any) string {
	switch s := s.(type) {
	case sysOut:
		return "System." + s.name
	case strConst, concat:
		return "a string"
	case classLit:
		return "the class literal " + binaryName(s.name) + ".class"
	case *assertionError:
		return "an AssertionError"
	case cmpResult:
		return "the result of lcmp"
	}
	return fmt.Sprintf("%T", s)
}

// lowerInsn lowers one instruction.
func (m *method) lowerInsn(in *classfile.Insn) {
	op := in.Op
	switch {
	case op == classfile.Nop:
	case op == classfile.AconstNull:
		m.push(value{e: "null", k: kRef, t: "null"})
	case op >= classfile.Iconst_m1 && op <= classfile.Iconst_5, op == classfile.Bipush, op == classfile.Sipush:
		m.push(intValue(in.Value))
	case op == classfile.Lconst_0 || op == classfile.Lconst_1:
		m.push(longValue(in.Value))
	case op == classfile.Ldc || op == classfile.LdcW || op == classfile.Ldc2W:
		m.ldc(in)
	case op == classfile.Iload || op >= classfile.Iload_0 && op <= classfile.Iload_3:
		v := m.local(in.Index, kInt, "int32")
		m.push(named(v.name, kInt, v.typ))
	case op == classfile.Lload || op >= classfile.Lload_0 && op <= classfile.Lload_3:
		v := m.local(in.Index, kLong, "int64")
		m.push(named(v.name, kLong, v.typ))
	case op == classfile.Aload || op >= classfile.Aload_0 && op <= classfile.Aload_3:
		m.aload(in.Index)
	case op == classfile.Istore || op >= classfile.Istore_0 && op <= classfile.Istore_3:
		v := m.pop()
		if !m.plain(v) {
			return
		}
		m.assign(m.local(in.Index, kInt, "int32").name, v)
	case op == classfile.Lstore || op >= classfile.Lstore_0 && op <= classfile.Lstore_3:
		v := m.pop()
		m.assign(m.local(in.Index, kLong, "int64").name, v)
	case op == classfile.Astore || op >= classfile.Astore_0 && op <= classfile.Astore_3:
		v := m.pop()
		if !m.plain(v) {
			return
		}
		lv := m.local(in.Index, kRef, v.t)
		v, ok := m.asRef(v, lv.typ)
		if !ok {
			return
		}
		m.assign(lv.name, v)
	case op == classfile.Iinc:
		x := m.local(in.Index, kInt, "int32")
		m.assign(x.name, m.arith(classfile.Iadd, named(x.name, kInt, x.typ), intValue(in.Value)))
	case op >= classfile.Pop && op <= classfile.Swap:
		m.stackOp(op)
	case op >= classfile.Iadd && op <= classfile.Lxor:
		if isFloatOp(op) {
			m.unsupported("floating-point arithmetic (%s)", op)
			return
		}
		if op == classfile.Ineg || op == classfile.Lneg {
			m.push(m.neg(m.pop()))
			return
		}
		b := m.pop()
		a := m.pop()
		if !m.plain(a) || !m.plain(b) {
			return
		}
		m.binary(op, a, b)
	case op >= classfile.I2l && op <= classfile.I2s:
		m.convert(op)
	case op == classfile.Lcmp:
		b := m.pop()
		a := m.pop()
		if a.isConst && b.isConst {
			m.push(intValue(int64(cmp64(a.c, b.c))))
			return
		}
		// (unless a or b reads a temporary of the stack below, which the
		// branch's moves into the stack's temporaries may change)
		if next := m.code.InsnAt(m.insn.PC) + 1; !m.readsBelow(a, len(m.stack)) && !m.readsBelow(b, len(m.stack)) &&
			next < len(m.code.Insns) && !m.isLeader(m.code.Insns[next].PC) &&
			m.code.Insns[next].Op >= classfile.Ifeq && m.code.Insns[next].Op <= classfile.Ifle {
			// the branch that follows compares a and b directly
			m.push(value{k: kInt, t: "int32", special: cmpResult{a, b}})
			return
		}
		m.lcmp(a, b)
	case op >= classfile.Fcmpl && op <= classfile.Dcmpg:
		m.unsupported("floating-point comparison (%s)", op)
	case op >= classfile.Ifeq && op <= classfile.IfAcmpne || op == classfile.Ifnull || op == classfile.Ifnonnull:
		m.ifBranch(in)
	case op == classfile.Goto || op == classfile.GotoW:
		m.goTo(in.Target)
	case op == classfile.Tableswitch || op == classfile.Lookupswitch:
		m.switchBranch(in)
	case op >= classfile.Ireturn && op <= classfile.Return:
		m.returnInsn(op)
	case op == classfile.Getstatic:
		m.getstatic(in)
	case op == classfile.Putstatic:
		m.putstatic(in)
	case op >= classfile.Invokevirtual && op <= classfile.Invokeinterface:
		m.invoke(in)
	case op == classfile.Invokedynamic:
		m.invokedynamic(in)
	case op == classfile.New && m.cls.ClassAt(in.Index) == "java/lang/AssertionError":
		// javac's assert: new, dup, <init>, athrow (failedAssert)
		m.push(value{k: kRef, special: &assertionError{}})
	case op == classfile.Athrow && hooks.insn[op] == nil:
		if !m.failedAssert(m.pop()) {
			m.unsupported("throw (exceptions other than a failed assert)")
		}
	case op == classfile.Jsr || op == classfile.JsrW || op == classfile.Ret:
		m.unsupported("the subroutine instruction %s (class files older than Java 7)", op)
	default:
		if h := hooks.insn[op]; h != nil {
			h(m, in)
			return
		}
		m.unsupported("the instruction %s (%s)", op, unsupportedWhat(op))
	}
}

// unsupportedWhat says what an opcode the lowering leaves to other files
// does, for the message when none lowers it.
func unsupportedWhat(op classfile.Opcode) string {
	switch {
	case op == classfile.New || op == classfile.Getfield || op == classfile.Putfield:
		return "objects"
	case op >= classfile.Iaload && op <= classfile.Saload, op >= classfile.Iastore && op <= classfile.Sastore,
		op == classfile.Newarray || op == classfile.Anewarray || op == classfile.Arraylength || op == classfile.Multianewarray:
		return "arrays"
	case op == classfile.Monitorenter || op == classfile.Monitorexit:
		return "synchronized blocks"
	case op == classfile.Athrow:
		return "exceptions"
	case op == classfile.Checkcast || op == classfile.Instanceof:
		return "reference types"
	}
	return "not lowered"
}

func isFloatOp(op classfile.Opcode) bool {
	if op < classfile.Iadd || op > classfile.Dneg {
		return false
	}
	return (op-classfile.Iadd)%4 >= 2
}

// plain reports whether v is an ordinary value (not a special one the
// instruction cannot take), reporting it otherwise.
func (m *method) plain(v value) bool {
	if v.special == nil {
		return true
	}
	m.unsupported("%s used as a value (%s)", describeSpecial(v.special), m.insn.Op)
	return false
}

// ldc pushes a constant of the pool.
func (m *method) ldc(in *classfile.Insn) {
	switch k := m.cls.Pool[in.Index].(type) {
	case classfile.Integer:
		m.push(intValue(int64(k.Value)))
	case classfile.Long:
		m.push(longValue(k.Value))
	case classfile.String:
		s, _ := m.cls.StringAt(in.Index)
		m.push(value{k: kRef, special: strConst{s}})
	case classfile.ClassRef:
		m.push(value{k: kRef, special: classLit{m.cls.ClassAt(in.Index)}})
	case classfile.Float, classfile.Double:
		m.unsupported("a floating-point constant")
	default:
		m.unsupported("the constant %T", k)
	}
}

// aload pushes a reference local.
func (m *method) aload(slot int) {
	v := m.local(slot, kRef, "")
	if v.typ == "" || v.typ == "null" {
		if m.isMain() && slot == 0 {
			m.unsupported("main's String[] args (the model has no command-line arguments)")
			return
		}
		m.unsupported("a reference local without a type (compile with javac -g)")
		return
	}
	m.push(named(v.name, kRef, v.typ))
}

// category is a value's size in stack words (JVM 2.11.1).
func category(v value) int {
	if v.k == kLong {
		return 2
	}
	return 1
}

// stackOp lowers pop, dup and swap in their forms.
func (m *method) stackOp(op classfile.Opcode) {
	push := func(vs ...value) {
		for _, v := range vs {
			m.stack = append(m.stack, v)
		}
	}
	switch op {
	case classfile.Pop:
		m.pop()
	case classfile.Pop2:
		if v := m.pop(); category(v) == 1 {
			m.pop()
		}
	case classfile.Dup:
		v := m.pop()
		push(v, v)
	case classfile.DupX1:
		v1, v2 := m.pop(), m.pop()
		push(v1, v2, v1)
	case classfile.DupX2:
		v1, v2 := m.pop(), m.pop()
		if category(v2) == 2 {
			push(v1, v2, v1)
		} else {
			v3 := m.pop()
			push(v1, v3, v2, v1)
		}
	case classfile.Dup2:
		v1 := m.pop()
		if category(v1) == 2 {
			push(v1, v1)
		} else {
			v2 := m.pop()
			push(v2, v1, v2, v1)
		}
	case classfile.Dup2X1:
		v1 := m.pop()
		if category(v1) == 2 {
			v2 := m.pop()
			push(v1, v2, v1)
		} else {
			v2, v3 := m.pop(), m.pop()
			push(v2, v1, v3, v2, v1)
		}
	case classfile.Dup2X2:
		v1 := m.pop()
		if category(v1) == 2 {
			v2 := m.pop()
			if category(v2) == 2 {
				push(v1, v2, v1)
			} else {
				v3 := m.pop()
				push(v1, v3, v2, v1)
			}
		} else {
			v2, v3 := m.pop(), m.pop()
			if category(v3) == 2 {
				push(v2, v1, v3, v2, v1)
			} else {
				v4 := m.pop()
				push(v2, v1, v4, v3, v2, v1)
			}
		}
	case classfile.Swap:
		v1, v2 := m.pop(), m.pop()
		push(v1, v2)
	}
}

// uncaught ends the path with the failure of an uncaught exception or
// a failed assert: assert(false), whose Message says text.
func (m *method) uncaught(text string) {
	m.b.act(false, "", "assert(false);")
	m.l.messages = append(m.l.messages, Message{
		Pos:  source.Position{Filename: m.file, Line: max(m.line(), 1), Column: 1},
		Cond: "false", Text: text})
	m.returnDefault()
}

// returnDefault ends the block with a return of the default value (after
// an action that always fails).
func (m *method) returnDefault() {
	switch m.fn.ret {
	case "":
		m.b.ret("")
	case "int8", "int16", "int32", "int64", "uint16", "jboolean":
		m.b.ret("0")
	default:
		m.b.ret("null")
	}
	m.ended = true
}

// throwNew raises an exception of the JVM's (ArithmeticException, ...).
func (m *method) throwNew(class, detail string) {
	if hooks.throwNew != nil {
		hooks.throwNew(m, class, detail)
		return
	}
	text := "uncaught " + binaryName(class)
	if detail != "" {
		text += ": " + detail
	}
	m.uncaught(text)
}

// failedAssert lowers the throw of v if it is the AssertionError of a
// Java assert (javac's new, dup, <init>, athrow), which nothing catches:
// assert(false) with the assert's message. It reports whether v was one.
func (m *method) failedAssert(v value) bool {
	ae, ok := v.special.(*assertionError)
	if ok {
		m.uncaught(ae.text())
	}
	return ok
}

// text is the message of a failed assert.
func (ae *assertionError) text() string {
	if ae.hasMsg {
		return "assert failed: " + ae.msg
	}
	return "assert failed"
}

// returnInsn lowers the return instructions.
func (m *method) returnInsn(op classfile.Opcode) {
	val := ""
	if op != classfile.Return {
		v := m.pop()
		if !m.plain(v) {
			return
		}
		if op == classfile.Areturn {
			var ok bool
			if v, ok = m.asRef(v, m.fn.ret); !ok {
				return
			}
		}
		val = v.e
	}
	for _, h := range hooks.beforeReturn {
		h(m)
	}
	m.b.ret(val)
	m.ended = true
}

// getstatic reads a static field: a visible step of its own into a
// temporary.
func (m *method) getstatic(in *classfile.Insn) {
	class, name, desc, _, _ := m.cls.MemberAt(in.Index)
	switch {
	case class == "java/lang/System" && (name == "out" || name == "err"):
		m.push(value{k: kRef, special: sysOut{name}})
		return
	case name == "$assertionsDisabled" && desc == "Z":
		// assertions are enabled (java -ea)
		m.push(intValue(0))
		return
	}
	g, ok := m.l.staticField(m, class, name, desc)
	if !ok {
		return
	}
	t, _ := classfile.ParseFieldType(desc)
	k, _, _ := m.kindOf(t, "")
	m.result(k, g.typ, func(tmp string) {
		m.b.act(true, tmp, "%s := %s;", tmp, g.name)
	})
}

// putstatic writes a static field: a visible step.
func (m *method) putstatic(in *classfile.Insn) {
	class, name, desc, _, _ := m.cls.MemberAt(in.Index)
	v := m.pop()
	if name == "$assertionsDisabled" && desc == "Z" {
		return // the constant false (getstatic)
	}
	if !m.plain(v) {
		return
	}
	g, ok := m.l.staticField(m, class, name, desc)
	if !ok {
		return
	}
	if v, ok = m.asRef(v, g.typ); !ok {
		return
	}
	m.b.act(true, "", "%s := %s;", g.name, v.e)
}

// ifBranch lowers the conditional branches.
func (m *method) ifBranch(in *classfile.Insn) {
	op := in.Op
	var cond string
	var reads []string
	unary := op >= classfile.Ifeq && op <= classfile.Ifle || op == classfile.Ifnull || op == classfile.Ifnonnull
	if unary {
		m.prepareCond(1)
	} else {
		m.prepareCond(2)
	}
	if m.dead {
		return
	}
	rel := func(a, b value, r string) {
		cond, reads = relation(a, b, r)
	}
	switch {
	case op >= classfile.Ifeq && op <= classfile.Ifle:
		r := [...]string{"==", "!=", "<", ">=", ">", "<="}[op-classfile.Ifeq]
		v := m.pop()
		if c, ok := v.special.(cmpResult); ok {
			rel(c.a, c.b, r)
			break
		}
		if !m.plain(v) {
			return
		}
		rel(v, intValue(0), r)
	case op >= classfile.IfIcmpeq && op <= classfile.IfIcmple:
		r := [...]string{"==", "!=", "<", ">=", ">", "<="}[op-classfile.IfIcmpeq]
		b, a := m.pop(), m.pop()
		if !m.plain(a) || !m.plain(b) {
			return
		}
		rel(a, b, r)
	case op == classfile.IfAcmpeq || op == classfile.IfAcmpne:
		b, a := m.pop(), m.pop()
		if !m.plain(a) || !m.plain(b) {
			return
		}
		if a.t != "null" && b.t != "null" {
			// Java's Integer.valueOf gives one object per value of
			// -128..127, the model a new one at each boxing: == on two
			// Integers would differ from the JVM's
			if ic := heapOf(m.l).class("java/lang/Integer"); ic != nil && (a.t == ic.ref || b.t == ic.ref) {
				m.unsupported("== on java.lang.Integer objects (the cache of Integer.valueOf for -128..127 is not modelled)")
				return
			}
			// the same through Object, Number or an interface (all but
			// Integer's own ref are JObject_ref or Number_ref), when the
			// program boxes at all
			if mayBeInteger(m.l, a.t) && mayBeInteger(m.l, b.t) {
				m.unsupported("== on references that may both be java.lang.Integer objects (the cache of Integer.valueOf for -128..127 is not modelled)")
				return
			}
			var ok bool
			if b, ok = m.asRef(b, a.t); !ok {
				return
			}
		}
		rel(a, b, map[classfile.Opcode]string{classfile.IfAcmpeq: "==", classfile.IfAcmpne: "!="}[op])
	default: // ifnull, ifnonnull
		v := m.pop()
		if !m.plain(v) {
			return
		}
		r := "=="
		if op == classfile.Ifnonnull {
			r = "!="
		}
		cond, reads = paren(v.e)+" "+r+" null", v.reads
	}
	next := m.nextPC()
	m.branchTo([]string{cond, negate(cond)}, []int{in.Target, next}, reads)
}

// nextPC is the pc of the instruction after the current one.
func (m *method) nextPC() int {
	i := m.code.InsnAt(m.insn.PC) + 1
	if i >= len(m.code.Insns) {
		m.unsupported("the code falls off the end of the method")
		return m.insn.PC
	}
	return m.code.Insns[i].PC
}

// relation is the condition a r b, folded when both are constants.
func relation(a, b value, r string) (string, []string) {
	if a.isConst && b.isConst {
		var ok bool
		switch r {
		case "==":
			ok = a.c == b.c
		case "!=":
			ok = a.c != b.c
		case "<":
			ok = a.c < b.c
		case ">=":
			ok = a.c >= b.c
		case ">":
			ok = a.c > b.c
		case "<=":
			ok = a.c <= b.c
		}
		if ok {
			return "true", nil
		}
		return "false", nil
	}
	return paren(a.e) + " " + r + " " + paren(b.e), append(append([]string(nil), a.reads...), b.reads...)
}

func cmp64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// switchBranch lowers tableswitch and lookupswitch: one guarded jump per
// target, the default's guard the negation of the others'.
func (m *method) switchBranch(in *classfile.Insn) {
	m.prepareCond(1)
	v := m.pop()
	if !m.plain(v) {
		return
	}
	if v.isConst {
		target := in.Default
		for i, k := range in.Keys {
			if int64(k) == v.c {
				target = in.Targets[i]
			}
		}
		m.goTo(target)
		return
	}
	if len(in.Keys) > maxSwitchKeys {
		// the default's guard would nest beyond BIR's 1000 levels
		m.unsupported("a switch of %d cases (at most %d are lowered)", len(in.Keys), maxSwitchKeys)
		return
	}
	var order []int
	keys := map[int][]int32{}
	for i, k := range in.Keys {
		t := in.Targets[i]
		if t == in.Default {
			continue
		}
		if _, ok := keys[t]; !ok {
			order = append(order, t)
		}
		keys[t] = append(keys[t], k)
	}
	var conds, all []string
	pcs := append([]int(nil), order...)
	x := paren(v.e)
	for _, t := range order {
		c := keyCond(x, keys[t])
		conds = append(conds, c)
		all = append(all, paren(c))
	}
	if len(all) == 0 {
		m.goTo(in.Default)
		return
	}
	conds = append(conds, negate(strings.Join(all, " || ")))
	pcs = append(pcs, in.Default)
	m.branchTo(conds, pcs, v.reads)
}

// maxSwitchKeys bounds the cases of a switch the lowering writes as
// guards.
const maxSwitchKeys = 400

// keyCond is the condition that x is one of keys (sorted ascending, as
// both switches have them): runs of consecutive keys as ranges.
func keyCond(x string, keys []int32) string {
	var parts []string
	for i := 0; i < len(keys); {
		j := i
		for j+1 < len(keys) && int64(keys[j+1]) == int64(keys[j])+1 {
			j++
		}
		if j-i >= 2 {
			parts = append(parts, fmt.Sprintf("%s >= %s && %s <= %s", x, intLit(int64(keys[i])), x, intLit(int64(keys[j]))))
		} else {
			for k := i; k <= j; k++ {
				parts = append(parts, fmt.Sprintf("%s == %s", x, intLit(int64(keys[k]))))
			}
		}
		i = j + 1
	}
	if len(parts) == 1 {
		return parts[0]
	}
	for i, p := range parts {
		if strings.Contains(p, "&&") {
			parts[i] = "(" + p + ")"
		}
	}
	return strings.Join(parts, " || ")
}

// mayBeInteger reports whether a reference of BIR type t may hold a boxed
// java.lang.Integer of the program: t is the ref of Integer, Number or
// Object (interfaces too are JObject_ref), and an Integer may be
// allocated.
func mayBeInteger(l *lowerer, t string) bool {
	h := heapOf(l)
	ic := h.class("java/lang/Integer")
	if ic == nil || !ic.instantiated {
		return false
	}
	for _, n := range []string{"java/lang/Integer", "java/lang/Number", "java/lang/Object"} {
		if c := h.class(n); c != nil && t == c.ref {
			return true
		}
	}
	return false
}
