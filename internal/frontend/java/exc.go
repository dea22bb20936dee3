package java

// Java's exceptions: throw, catch, finally and the JVM's own exceptions
// (NullPointerException, ArithmeticException,
// ArrayIndexOutOfBoundsException, ClassCastException,
// NegativeArraySizeException, IllegalMonitorStateException, ...).
//
// An exception that no handler of the program can catch is a violation
// where it is thrown, by the cheapest lowering: BIR's own runtime error
// (a null dereference, an index out of bounds, a division by zero, a
// cast; Describe names the Java exception) or assert(false) whose
// Message names the class. A handler may catch an exception of class X
// thrown at pc of method M when it covers pc and its catch type is any
// (finally) or related to X by subtyping; javac's handler of a
// synchronized block, which only releases the monitor and rethrows
// (astore; aload; monitorexit; aload; athrow), catches nothing itself,
// its rethrow is looked at in turn; a catch type outside the program and
// the model (java.io.IOException) catches nothing the model throws.
// Failing those, X may be caught when M is no root (main, a static
// initializer, a thread's run()) and one of its call sites may catch it:
// the least fixpoint over the methods the class table's analysis reaches
// from main, with a call graph that takes every such method of a virtual
// call's name and descriptor.
//
// Where a handler may catch it, the exception is an object (for the
// JVM's own, allocated from a collection of the throw site's) and
// dispatched along M's exception table in order: an instanceof guard per
// typed entry whose class is narrower than what is thrown, and the
// handler starts with the stack holding just the exception. What no
// entry takes leaves M through the thread's pending exception: the
// record $Pending { exc }, passed to every function that may let a
// catchable exception escape (or that calls one) as its last parameter
// $t; a root allocates its own. The exceptional return stores the
// exception in $t.exc, runs what a return does first (a synchronized
// method's unlock) and returns; the caller takes $t.exc after each call
// of such a function and dispatches at the call's pc. At a root what no
// handler takes is uncaught: a violation per possible class, whose
// Message names it (with the message of throw new X("msg") of a model
// exception X, a string constant). A failed Java assert is never caught
// (insn.go).

import (
	"fmt"
	"regexp"
	"sort"

	"birch/internal/frontend/java/classfile"
	"birch/internal/source"
)

func init() {
	hooks.insn[classfile.Athrow] = (*method).athrow
	hooks.throwNew = (*method).excThrow
	hooks.params = append(hooks.params, excParams)
	hooks.enter = append(hooks.enter, excEnter)
	hooks.callArgs = append(hooks.callArgs, excCallArgs)
	hooks.afterCall = append(hooks.afterCall, excAfterCall)
	hooks.keepResult = func(m *method, f *function) bool { return excOf(m.l).needsT[f.method] }
	hooks.runtimeError = runtimeErrorText
	hooks.divisor = func(m *method, b value) {
		if mayCatch(m, arithClass) {
			m.check(paren(b.e)+" != 0", b.reads, arithClass)
		}
	}
	// the model's exceptions built with a message: a string constant is
	// kept for the Message of an uncaught throw (the constructor does
	// nothing else; jlang.go's default is left alone for the others)
	for _, mc := range javaLang {
		if !isThrowableModel(mc.name) {
			continue
		}
		for _, mm := range mc.methods {
			if mm.sig == "<init>(Ljava/lang/String;)V" {
				modelLowering[mc.name+"."+mm.sig] = (*method).exceptionMessage
			}
		}
	}
	mayCatch = func(m *method, class string) bool {
		return excOf(m.l).catchable(m.fn.method, m.insn.PC, class)
	}
}

const (
	arithClass     = "java/lang/ArithmeticException"
	throwableClass = "java/lang/Throwable"
	// pendingRecord is the record of a thread's pending exception.
	pendingRecord = "$Pending"
	// pendingVar is the parameter (or a root's local) that refers to it.
	pendingVar = "$t"
)

// excKey keys the exceptions' state in the lowering's lane state.
type excKey struct{}

// excState is the program-wide analysis of which exceptions may be
// caught.
type excState struct {
	l *lowerer
	// handlers: some method of the program has an exception handler
	handlers bool
	// t is the class table
	t       *classTable
	owner   map[*classfile.Method]*classfile.Class
	callers map[*classfile.Method][]callSiteRef // the call sites that may call a method
	callees map[*classfile.Method][]*classfile.Method
	// escapes[X][M]: an exception of class X leaving M may be caught by
	// a caller (the least fixpoint, per class, on demand)
	escapes map[string]map[*classfile.Method]bool
	// needsT: the method's function takes the pending exception $t
	needsT map[*classfile.Method]bool
	// throws: an exception may leave the method (it has a throw point,
	// or calls a method that throws)
	throws map[*classfile.Method]bool
	// pendingDecl: $Pending is declared
	pendingDecl bool
}

// callSiteRef is an invoke instruction of a method.
type callSiteRef struct {
	caller *classfile.Method
	pc     int
}

// excOf is the program's exception analysis, made on first use.
func excOf(l *lowerer) *excState {
	return l.laneState(excKey{}, func() any {
		s := &excState{l: l, owner: map[*classfile.Method]*classfile.Class{},
			callers: map[*classfile.Method][]callSiteRef{}, callees: map[*classfile.Method][]*classfile.Method{},
			escapes: map[string]map[*classfile.Method]bool{}, needsT: map[*classfile.Method]bool{},
			throws: map[*classfile.Method]bool{}}
		// the methods the program may run (the class table's rapid
		// type analysis from main)
		var reached []*jmethod
		if r := s.table().rta; r != nil {
			reached = r.order
		}
		for _, jm := range reached {
			if jm.cf != nil && jm.cf.Code != nil {
				s.owner[jm.cf] = jm.class.cf
				s.handlers = s.handlers || len(jm.cf.Code.Handlers) > 0
			}
		}
		if s.handlers {
			// a program without handlers catches nothing: no analysis
			s.callGraph()
			s.decideT()
		}
		return s
	}).(*excState)
}

// callGraph finds the possible callees of every invoke of the program:
// the resolved method of a static or special call, every program method
// of the name and descriptor for a virtual or interface call.
func (s *excState) callGraph() {
	byName := map[string][]*classfile.Method{}
	for mt := range s.owner {
		if mt.Access&classfile.AccStatic == 0 {
			byName[mt.Name+mt.Descriptor] = append(byName[mt.Name+mt.Descriptor], mt)
		}
	}
	for mt, c := range s.owner {
		for _, in := range mt.Code.Insns {
			if in.Op < classfile.Invokevirtual || in.Op > classfile.Invokeinterface {
				continue
			}
			class, name, desc, _, ok := c.MemberAt(in.Index)
			if !ok {
				continue
			}
			var targets []*classfile.Method
			if in.Op == classfile.Invokestatic || in.Op == classfile.Invokespecial {
				if _, tm := s.l.resolveMethod(class, name, desc); tm != nil && s.owner[tm] != nil {
					targets = append(targets, tm)
				}
			} else {
				targets = byName[name+desc]
			}
			for _, tm := range targets {
				s.callers[tm] = append(s.callers[tm], callSiteRef{mt, in.PC})
				s.callees[mt] = append(s.callees[mt], tm)
			}
		}
	}
}

// isRoot reports whether a method is where a thread starts: main, a
// static initializer, or the run() of a Thread or Runnable; an exception
// leaving it is uncaught.
func (s *excState) isRoot(mt *classfile.Method) bool {
	c := s.owner[mt]
	switch {
	case mt.Name == "<clinit>":
		return true
	case c == s.l.mainCls && mt.Name == "main" && mt.Descriptor == "([Ljava/lang/String;)V":
		return true
	case mt.Name == "run" && mt.Descriptor == "()V" && c != nil:
		jc := s.t.class(c.Name)
		for _, r := range []string{"java/lang/Thread", "java/lang/Runnable"} {
			if rc := s.t.class(r); jc != nil && rc != nil && jc.isSubclassOf(rc) {
				return true
			}
		}
	}
	return false
}

// related reports whether an exception of class x may be an instance of
// the catch type c or the other way round. A catch type outside the
// program and the model (java.io.IOException) catches nothing the model
// throws (a program class extending it is unsupported); an unknown x may
// be anything.
func (s *excState) related(c, x string) bool {
	jc, jx := s.t.class(c), s.t.class(x)
	switch {
	case jc == nil:
		return false
	case jx == nil:
		return true
	}
	return jc.isSubclassOf(jx) || jx.isSubclassOf(jc)
}

// rethrowOnly is the pc of the athrow of javac's handler of a
// synchronized block (astore x; aload y; monitorexit; aload x; athrow),
// or -1 when h is another handler.
func rethrowOnly(code *classfile.Code, h classfile.Handler) int {
	if h.CatchType != "" {
		return -1
	}
	i := code.InsnAt(h.PC)
	if i < 0 || i+4 >= len(code.Insns) {
		return -1
	}
	in := code.Insns[i : i+5]
	slot, k, ok := localAccess(&in[0])
	if !ok || !isStore(in[0].Op) || k != kRef {
		return -1
	}
	if _, k1, ok := localAccess(&in[1]); !ok || k1 != kRef || isStore(in[1].Op) {
		return -1
	}
	if in[2].Op != classfile.Monitorexit {
		return -1
	}
	if s3, k3, ok := localAccess(&in[3]); !ok || k3 != kRef || isStore(in[3].Op) || s3 != slot {
		return -1
	}
	if in[4].Op != classfile.Athrow {
		return -1
	}
	return in[4].PC
}

// handlerCatches reports whether a handler of mt covering pc may catch
// an exception of class x (through synchronized blocks' rethrows).
func (s *excState) handlerCatches(mt *classfile.Method, pc int, x string, depth int) bool {
	for _, h := range mt.Code.Handlers {
		if pc < h.Start || pc >= h.End {
			continue
		}
		if rt := rethrowOnly(mt.Code, h); rt >= 0 {
			if rt != pc && depth < 16 && s.handlerCatches(mt, rt, x, depth+1) {
				return true
			}
			continue
		}
		if h.CatchType == "" || s.related(h.CatchType, x) {
			return true
		}
	}
	return false
}

// catchable reports whether an exception of class x thrown at pc of mt
// may be caught: by a handler of mt, or by a caller's.
func (s *excState) catchable(mt *classfile.Method, pc int, x string) bool {
	if mt == nil || mt.Code == nil {
		return false
	}
	if !s.handlers && len(mt.Code.Handlers) == 0 {
		// no handler among the methods main reaches (a method the
		// analysis did not reach, were there one, has its own looked at)
		return false
	}
	return s.handlerCatches(mt, pc, x, 0) || s.escaping(x)[mt]
}

// escaping is the set of the methods from which an exception of class x
// may escape into a handler of a caller (the least fixpoint).
func (s *excState) escaping(x string) map[*classfile.Method]bool {
	if e := s.escapes[x]; e != nil {
		return e
	}
	e := map[*classfile.Method]bool{}
	s.escapes[x] = e
	for changed := true; changed; {
		changed = false
		for mt, sites := range s.callers {
			if e[mt] || s.isRoot(mt) {
				continue
			}
			for _, cs := range sites {
				if e[cs.caller] || s.handlerCatches(cs.caller, cs.pc, x, 0) {
					e[mt] = true
					changed = true
					break
				}
			}
		}
	}
	return e
}

// table is the class table.
func (s *excState) table() *classTable {
	if s.t == nil {
		s.t = heapOf(s.l)
	}
	return s.t
}

// throwables are the exception classes of the program and the model.
func (s *excState) throwables() []*jclass {
	thr := s.table().class(throwableClass)
	var out []*jclass
	for _, c := range s.t.all() {
		if thr != nil && c.isSubclassOf(thr) {
			out = append(out, c)
		}
	}
	return out
}

// mayThrow finds the methods an exception may leave: those with a
// throw point (athrow, an instruction the JVM may throw at), and their
// callers.
func (s *excState) mayThrow() {
	for mt := range s.owner {
		if mt.Code == nil {
			continue
		}
		for _, in := range mt.Code.Insns {
			if in.Op == classfile.Athrow || len(implicitExceptions(in.Op)) > 0 {
				s.throws[mt] = true
				break
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for mt, callees := range s.callees {
			if s.throws[mt] {
				continue
			}
			for _, c := range callees {
				if s.throws[c] {
					s.throws[mt] = true
					changed = true
					break
				}
			}
		}
	}
}

// decideT decides which functions take the pending exception $t: those
// of non-root methods from which a catchable exception may escape, and
// their callers up to the roots.
func (s *excState) decideT() {
	s.mayThrow()
	for _, c := range s.throwables() {
		for mt, ok := range s.escaping(c.name) {
			if ok && s.throws[mt] {
				s.needsT[mt] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for mt, callees := range s.callees {
			if s.needsT[mt] || s.isRoot(mt) {
				continue
			}
			for _, c := range callees {
				if s.needsT[c] {
					s.needsT[mt] = true
					changed = true
					break
				}
			}
		}
	}
}

// hasBox reports whether the method's function has $t: a parameter, or
// a root's own pending exception when it calls a function that takes it.
func (s *excState) hasBox(mt *classfile.Method) bool {
	if s.needsT[mt] {
		return true
	}
	if !s.isRoot(mt) {
		return false
	}
	for _, c := range s.callees[mt] {
		if s.needsT[c] {
			return true
		}
	}
	return false
}

// pendingType declares the record of the pending exception and returns
// its reference type.
func (s *excState) pendingType() string {
	thr := s.t.class(throwableClass)
	ref := s.t.refType(thr)
	name := pendingRecord + "_ref"
	if !s.pendingDecl {
		s.pendingDecl = true
		// a root allocates one per run: main and the static
		// initializers once, a thread's run() once per thread
		bound := 0
		for _, r := range s.roots() {
			switch {
			case !s.hasBox(r):
			case r.Name == "run":
				if s.l.cfg.MaxObjects > 0 {
					bound += s.l.cfg.MaxObjects
				} else {
					bound += DefaultMaxObjects
				}
			default:
				bound++
			}
		}
		s.l.decl(pendingRecord, fmt.Sprintf("%s = record { exc : %s; }; // a thread's pending exception\n%s = ref %s;\n%s_c : collection [%d] of %s;",
			pendingRecord, ref, name, pendingRecord, pendingRecord, bound, pendingRecord))
	}
	return name
}

// roots are the program's root methods.
func (s *excState) roots() []*classfile.Method {
	var out []*classfile.Method
	for mt := range s.owner {
		if mt.Code != nil && s.isRoot(mt) {
			out = append(out, mt)
		}
	}
	return out
}

// excParams gives a function that may let a catchable exception escape
// the parameter $t.
func excParams(m *method) {
	s := excOf(m.l)
	if !s.needsT[m.fn.method] {
		return
	}
	m.params = append(m.params, &variable{name: pendingVar, typ: s.pendingType(), k: kRef, slot: -1})
	m.names[pendingVar] = true
}

// excEnter allocates a root's pending exception when it calls a function
// that takes one.
func excEnter(m *method) {
	s := excOf(m.l)
	mt := m.fn.method
	if s.needsT[mt] || !s.hasBox(mt) {
		return
	}
	typ := s.pendingType()
	m.localList = append(m.localList, &variable{name: pendingVar, typ: typ, k: kRef, slot: -1})
	m.names[pendingVar] = true
	m.b.line = max(m.code.LineAt(0), 1)
	m.b.act(true, pendingVar, "%s := new %s_c;", pendingVar, pendingRecord)
}

// excCallArgs passes $t to a function that takes it.
func excCallArgs(m *method, f *function, args []string) []string {
	if excOf(m.l).needsT[f.method] {
		return append(args, pendingVar)
	}
	return args
}

// excAfterCall takes the pending exception a call of a function with $t
// may leave, and dispatches it at the call's pc.
func excAfterCall(m *method, f *function) {
	s := excOf(m.l)
	if s.handlers && s.isRoot(f.method) && f.method.Name != "<clinit>" && s.throws[f.method] && s.catchable(m.fn.method, m.insn.PC, throwableClass) {
		m.unsupported("a call of %s where a handler may catch what it throws (an exception leaving main or a thread's run() is taken as uncaught)",
			m.l.names.Functions[f.name])
		return
	}
	if !s.needsT[f.method] || m.dead {
		return
	}
	thr := s.t.class(throwableClass)
	ref := s.t.refType(thr)
	x := m.temp(len(m.stack), ref)
	m.protect(x, -1, map[int]bool{})
	m.b.act(true, x, "%s := %s.exc; %s.exc := null;", x, pendingVar, pendingVar)
	cont, exc := m.b.label(m.b.base()), m.b.label(m.b.base())
	m.b.branch([]string{x + " == null", x + " != null"}, []string{cont, exc}, []string{x}, false)
	m.b.place(exc)
	stack := m.stack
	m.dispatch(named(x, kRef, ref), thr)
	m.stack, m.ended = stack, false
	if !m.dead {
		m.b.place(cont)
	}
}

// athrow lowers throw: a failed Java assert (insn.go), throw null
// (NullPointerException), or the dispatch of an exception object.
func (m *method) athrow(in *classfile.Insn) {
	v := m.pop()
	if ae, ok := v.special.(*assertionError); ok && excOf(m.l).catchable(m.fn.method, in.PC, "java/lang/AssertionError") {
		// a handler may catch the failed assert's AssertionError (a
		// finally, catch Error or Throwable): an object, as in Java (it
		// was a violation at once, where Java runs the finally)
		m.excThrow("java/lang/AssertionError", ae.msg)
		return
	}
	if m.failedAssert(v) || !m.plain(v) {
		return
	}
	if v.t == "null" {
		m.throwNew(npeClass, "")
		return
	}
	s := excOf(m.l)
	t := s.table()
	x := t.classOf(v.t)
	if x == nil {
		x = t.class(throwableClass)
	}
	if !s.catchable(m.fn.method, in.PC, x.name) {
		fresh, msg := m.thrownNew(v)
		m.uncaughtValue(v, x, thrown{nullable: !fresh, exact: fresh, msg: msg})
		return
	}
	m.nullCheck(v)
	if m.dead {
		return
	}
	m.dispatch(v, x)
}

// thrown is what a throw is known to throw.
type thrown struct {
	nullable bool   // it may be null
	exact    bool   // it is of its static class exactly (throw new X())
	msg      string // the message it was built with ("" for none)
}

// isThrowableModel reports whether a class of the java.lang model is
// Throwable or one of its subclasses.
func isThrowableModel(name string) bool {
	for depth := 0; name != "" && depth < len(javaLang); depth++ {
		if name == throwableClass {
			return true
		}
		next := ""
		for _, mc := range javaLang {
			if mc.name == name {
				next = mc.super
			}
		}
		name = next
	}
	return false
}

// excMessage is the message a model exception was constructed with at
// the instruction at pc (the invokespecial of its constructor).
type excMessage struct {
	pc  int
	msg string
}

// excMessageKey keys the messages in the lane state, by method.
type excMessageKey struct{}

// exceptionMessage lowers new X(msg) of a model exception: it keeps a
// constant message for the throw that follows.
func (m *method) exceptionMessage(mt *jmethod, args []value) {
	msgs := m.l.laneState(excMessageKey{}, func() any { return map[*method]excMessage{} }).(map[*method]excMessage)
	if s, ok := constString(args[1]); ok {
		msgs[m] = excMessage{pc: m.insn.PC, msg: s}
	}
}

// thrownNew tells whether the value athrow throws was built by the
// instruction before it (javac's throw new X(...): new, dup, arguments,
// invokespecial <init>, athrow), so it is no null; and the message it was
// built with, if constant.
func (m *method) thrownNew(v value) (fresh bool, msg string) {
	i := m.code.InsnAt(m.insn.PC)
	if i < 1 || m.isLeader(m.insn.PC) {
		return false, ""
	}
	prev := &m.code.Insns[i-1]
	if prev.Op != classfile.Invokespecial {
		return false, ""
	}
	class, name, _, _, ok := m.cls.MemberAt(prev.Index)
	t := excOf(m.l).table()
	if c := t.class(class); !ok || name != "<init>" || c == nil || c.ref != v.t {
		return false, ""
	}
	msgs, _ := m.l.laneState(excMessageKey{}, func() any { return map[*method]excMessage{} }).(map[*method]excMessage)
	if e, ok := msgs[m]; ok && e.pc == prev.PC {
		msg = e.msg
	}
	return true, msg
}

// excThrow raises an exception of the JVM's at the instruction being
// lowered (hooks.throwNew): uncaught where no handler may catch it, else
// a new object of the class dispatched.
func (m *method) excThrow(class, detail string) {
	s := excOf(m.l)
	if !s.catchable(m.fn.method, m.insn.PC, class) || s.t.class(class) == nil {
		text := "uncaught " + binaryName(class)
		if detail != "" {
			text += ": " + detail
		}
		m.uncaught(text)
		return
	}
	c := s.t.class(class)
	// a collection per throw site and class: heap's sites are keyed by
	// pc, so the JVM's exceptions take keys below 0
	key := -1 - (m.insn.PC*64 + s.classIndex(c))
	site := s.t.newSite(m.fn.method, key, c)
	stack := m.stack
	x := m.temp(len(m.stack), c.ref)
	m.b.act(true, x, "%s := new %s;", x, site.coll)
	m.dispatch(named(x, kRef, c.ref), c)
	m.stack = stack
}

// classIndex is a small number of c among the throwable classes, for the
// keys of throw sites.
func (s *excState) classIndex(c *jclass) int {
	for i, t := range s.throwables() {
		if t == c {
			return i % 64
		}
	}
	return 63
}

// dispatch sends the exception e (not null, of class x or a subclass) to
// the first entry of the method's exception table that takes it; what
// none takes leaves the method (or, at a root, is uncaught). The block
// ends.
func (m *method) dispatch(e value, x *jclass) {
	s := excOf(m.l)
	pc := m.insn.PC
	stack := m.stack
	var conds, targets []string
	var handlers []classfile.Handler
	var earlier []string
	all := false
	for _, h := range m.code.Handlers {
		if pc < h.Start || pc >= h.End {
			continue
		}
		var guard string
		if h.CatchType == "" {
			guard = "true"
		} else {
			c := s.t.class(h.CatchType)
			switch {
			case c == nil:
				continue // see related
			case x.isSubclassOf(c):
				guard = "true"
			case c.isSubclassOf(x):
				s.t.use(c)
				guard = paren(e.e) + " instanceof " + c.bir
			default:
				continue
			}
		}
		if guard == "true" {
			conds = append(conds, allOf(earlier))
			all = true
		} else {
			conds = append(conds, allOf(append([]string{guard}, earlier...)))
			earlier = append(earlier, negate(guard))
		}
		targets = append(targets, m.b.label(m.b.base()))
		handlers = append(handlers, h)
		if all {
			break
		}
	}
	rest := ""
	if !all {
		rest = m.b.label(m.b.base())
		conds = append(conds, allOf(earlier))
		targets = append(targets, rest)
	}
	if len(conds) == 1 {
		m.b.jump(targets[0])
	} else {
		m.b.branch(conds, targets, e.reads, false)
	}
	for i, h := range handlers {
		m.b.place(targets[i])
		typ := s.t.refType(s.t.class(throwableClass))
		if h.CatchType != "" {
			typ = s.t.refType(s.t.class(h.CatchType))
		}
		m.stack = []value{{e: e.e, k: kRef, t: typ, reads: e.reads}}
		m.ended = false
		m.goTo(h.PC)
		if m.dead {
			return
		}
	}
	if rest != "" {
		m.b.place(rest)
		m.stack = stack
		m.leave(e, x)
	}
	m.stack = stack
	m.ended = true
}

// leave lets the exception e leave the method: into the pending
// exception, or uncaught at a root (or where no caller may catch it).
func (m *method) leave(e value, x *jclass) {
	s := excOf(m.l)
	if s.needsT[m.fn.method] && s.escaping(x.name)[m.fn.method] {
		m.b.act(true, "", "%s.exc := %s;", pendingVar, e.e)
		for _, h := range hooks.beforeReturn {
			h(m)
		}
		m.returnDefault()
		return
	}
	m.uncaughtValue(e, x, thrown{})
}

// uncaughtValue ends the path with the failure of the uncaught exception
// v of class x or a subclass: one alternative per class it may be (the
// most derived first), each failing with a Message naming its class, and
// NullPointerException for null where v may be null.
func (m *method) uncaughtValue(v value, x *jclass, how thrown) {
	s := excOf(m.l)
	nullable, msg := how.nullable, how.msg
	var classes []*jclass
	for _, c := range s.throwables() {
		if how.exact {
			break
		}
		// the classes the program may instantiate (the JVM's exceptions
		// at the instructions that throw them included); any other is
		// named as x by the last alternative
		if c.isSubclassOf(x) && c != x && c.instantiated {
			classes = append(classes, c)
		}
	}
	sort.SliceStable(classes, func(i, j int) bool { return classes[i].depth > classes[j].depth })
	classes = append(classes, x)
	var conds, fails, texts []string
	if nullable {
		conds = []string{paren(v.e) + " == null"}
		fails = []string{paren(v.e) + " != null"}
		texts = []string{"uncaught " + binaryName(npeClass)}
	}
	var earlier []string
	for i, c := range classes {
		inst := paren(v.e) + " instanceof " + c.bir
		if i == len(classes)-1 {
			last := earlier
			if nullable {
				last = append([]string{paren(v.e) + " != null"}, earlier...)
			}
			conds = append(conds, allOf(last))
			fails = append(fails, paren(v.e)+" == null")
		} else {
			s.t.use(c)
			conds = append(conds, allOf(append([]string{inst}, earlier...)))
			fails = append(fails, negate(inst))
			earlier = append(earlier, negate(inst))
		}
		text := "uncaught " + c.javaName()
		if c == x && msg != "" {
			text += ": " + msg
		}
		texts = append(texts, text)
	}
	var labels []string
	for range conds {
		labels = append(labels, m.b.label(m.b.base()))
	}
	if len(conds) == 1 {
		m.b.jump(labels[0])
	} else {
		m.b.branch(conds, labels, v.reads, false)
	}
	for i := range conds {
		m.b.place(labels[i])
		m.failWith(fails[i], texts[i])
	}
	m.ended = true
}

// failWith ends the path with assert(cond), which fails there, whose
// Message says text.
func (m *method) failWith(cond, text string) {
	m.b.act(false, "", "assert(%s);", cond)
	m.l.messages = append(m.l.messages, Message{
		Pos:  source.Position{Filename: m.file, Line: max(m.line(), 1), Column: 1},
		Cond: cond, Text: text})
	m.returnDefault()
}

// allOf is the conjunction of conditions (true for none).
func allOf(cs []string) string {
	if len(cs) == 0 {
		return "true"
	}
	return joinConds(cs, " && ")
}

// runtimeErrors map the messages of BIR's runtime errors to the Java
// exceptions they stand for in a lowered program.
var runtimeErrors = []struct {
	re   *regexp.Regexp
	text func(m []string) string
}{
	{regexp.MustCompile(`^null dereference`), func([]string) string { return "uncaught java.lang.NullPointerException" }},
	{regexp.MustCompile(`^(division|remainder) by zero`), func([]string) string { return "uncaught java.lang.ArithmeticException: / by zero" }},
	{regexp.MustCompile(`^index (-?\d+) out of bounds \[0, (\d+)\)`), func(m []string) string {
		return fmt.Sprintf("uncaught java.lang.ArrayIndexOutOfBoundsException: Index %s out of bounds for length %s", m[1], m[2])
	}},
	{regexp.MustCompile(`^array length (-\d+) not in`), func(m []string) string {
		return "uncaught java.lang.NegativeArraySizeException: " + m[1]
	}},
	{regexp.MustCompile(`^cast: `), func([]string) string { return "uncaught java.lang.ClassCastException" }},
	{regexp.MustCompile(`by a thread that does not hold the lock`), func([]string) string {
		return "uncaught java.lang.IllegalMonitorStateException"
	}},
}

// runtimeErrorText is the Java meaning of a BIR runtime error's message
// in a lowered program ("" for other messages).
func runtimeErrorText(msg string) string {
	for _, r := range runtimeErrors {
		if m := r.re.FindStringSubmatch(msg); m != nil {
			return r.text(m)
		}
	}
	return ""
}
