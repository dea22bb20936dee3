package java

// Java monitors (ISSUE 23 §3, docs/bir.md §15). When a program
// synchronizes, waits or notifies anywhere, every object is a monitor:
// the record JObject has the field $mon : lock wait reentrant (heap.go
// decides), and each class whose static synchronized methods or
// synchronized (C.class) blocks use its monitor has the global
// C_class$mon.
//
//	synchronized method   $sync := this; lock($sync.$mon) (lock(C_class$mon)
//	                      for a static one) in a prologue step before the
//	                      first instruction; unlock before every return
//	                      and before an exception leaves the method
//	                      (exc.go calls the beforeReturn hooks there)
//	monitorenter o        lock(o.$mon) (null: NullPointerException)
//	monitorexit o         unlock(o.$mon)
//	o.wait()              wait(o.$mon), then a step of its own,
//	                      when lockAvailable(o.$mon) && wasNotified(o.$mon)
//	                      do { unwait(o.$mon); }: the thread takes the
//	                      monitor back, with its count, once notified
//	o.notify()            notify(o.$mon)
//	o.notifyAll()         notifyAll(o.$mon)
//
// wait, notify and notifyAll by a thread that does not hold the monitor
// throw IllegalMonitorStateException (a check of hasLock in the same
// step). As in Java PathFinder, a waiting thread wakes up only when
// notified: spurious wakeups, which the JVM allows, are not modelled, so
// a program that waits with if where it needs while fails only when a
// notification lets the condition be false again (BoundedBufferIf).
// Timed waits (wait(long)) are unsupported. Nothing interrupts a thread,
// so wait never throws InterruptedException.
//
// volatile fields need nothing extra: every access to a field or static
// is already a visible, sequentially consistent step of its own (the
// lowering has no thread-local caches or reordering), which is at least
// what volatile promises; a program whose correctness rests on the
// weaker guarantees of ordinary fields is checked under sequential
// consistency (data races that the Java memory model would let go wrong
// in other ways are not found).

import (
	"fmt"

	"birch/internal/frontend/java/classfile"
)

// imseClass is thrown by wait and notify without the monitor.
const imseClass = "java/lang/IllegalMonitorStateException"

// imseDetail is the JVM's message of IllegalMonitorStateException.
const imseDetail = "current thread is not owner"

func init() {
	hooks.enter = append(hooks.enter, (*method).syncEnter)
	hooks.beforeReturn = append(hooks.beforeReturn, (*method).syncExit)
	hooks.insn[classfile.Monitorenter] = (*method).monitorEnter
	hooks.insn[classfile.Monitorexit] = (*method).monitorExit
	modelLowering[objectClass+".wait()V"] = (*method).objectWait
	modelLowering[objectClass+".notify()V"] = func(m *method, mt *jmethod, args []value) { m.objectNotify(args, "notify") }
	modelLowering[objectClass+".notifyAll()V"] = func(m *method, mt *jmethod, args []value) { m.objectNotify(args, "notifyAll") }
	modelLowering[objectClass+".wait(J)V"] = func(m *method, mt *jmethod, args []value) {
		m.unsupported("Object.wait(long) (timed waits are not modelled)")
	}
}

// monitorKey keys the class monitors' globals (laneState).
type monitorKey struct{}

// classMonitor is the global lock of a class's monitor (static
// synchronized methods, synchronized (C.class)), declared on first use.
func (m *method) classMonitor(class string) string {
	mons := m.l.laneState(monitorKey{}, func() any { return map[string]string{} }).(map[string]string)
	if g := mons[class]; g != "" {
		return g
	}
	base := m.l.classNameOf(class)
	if base == "" {
		base = birName(simpleName(class))
	}
	g := uniqueName(base+"_class"+monField, m.l.globalNames)
	mons[class] = g
	m.l.globals = append(m.l.globals, &global{name: g, typ: "lock wait reentrant", file: m.file, line: m.line()})
	m.l.names.Globals[g] = binaryName(class) + ".class"
	return g
}

// syncKey keys the variables of the synchronized methods' receivers, by
// method (laneState).
type syncKey struct{}

// syncVar is the local of a synchronized instance method that holds its
// receiver, declared on first use.
func (m *method) syncVar() *variable {
	vars := m.l.laneState(syncKey{}, func() any { return map[*method]*variable{} }).(map[*method]*variable)
	v := vars[m]
	if v == nil {
		v = &variable{name: uniqueName("$sync", m.names), typ: m.params[0].typ, slot: -1}
		m.localList = append(m.localList, v)
		vars[m] = v
	}
	return v
}

// threadMonitor says why a Thread's monitor is not modelled: Java's
// join() waits on it (releasing it while the thread runs) and a thread's
// end notifies it, where the model's join waits for the end alone, so a
// program that locks or waits on a Thread could deadlock in the model and
// not in Java.
const threadMonitor = "the monitor of a Thread object (synchronized on it, wait or notify on it: join() and a thread's end use it in Java, not in birch's model)"

// syncMonitor is the lock a synchronized method holds while it runs ("",
// for a method that is not synchronized): its class's monitor for a
// static method; for an instance method the monitor of the receiver,
// which the prologue keeps in a local of its own, $sync, live throughout
// (this may be dead where the method returns, and bytecode may store
// into its slot).
func (m *method) syncMonitor() string {
	if m.fn.method.Access&classfile.AccSynchronized == 0 {
		return ""
	}
	if m.static {
		return m.classMonitor(m.cls.Name)
	}
	return m.syncVar().name + "." + monField
}

// syncEnter locks a synchronized method's monitor before its first
// instruction.
func (m *method) syncEnter() {
	if !m.static && m.syncMonitor() != "" && extends(heapOf(m.l).class(m.cls.Name), heapOf(m.l).class(threadClass)) {
		m.unsupported(threadMonitor)
		return
	}
	if mon := m.syncMonitor(); mon != "" {
		m.b.line = max(m.line(), 1)
		if !m.static {
			v := m.syncVar()
			m.b.act(false, v.name, "%s := %s;", v.name, m.params[0].name)
		}
		m.b.act(true, "", "lock(%s);", mon)
	}
}

// syncExit unlocks a synchronized method's monitor where the method
// returns (or an exception leaves it).
func (m *method) syncExit() {
	if mon := m.syncMonitor(); mon != "" {
		m.b.act(true, "", "unlock(%s);", mon)
	}
}

// monitorOf is the lock of the monitor of a reference on the stack (a
// class literal: the class's monitor); "" after reporting why it has
// none or throwing NullPointerException for null.
func (m *method) monitorOf(v value) string {
	if c, ok := v.special.(classLit); ok {
		return m.classMonitor(c.name)
	}
	if !m.plain(v) {
		return ""
	}
	t := heapOf(m.l)
	switch {
	case v.t == "null":
		m.throwNew(npeClass, "")
		return ""
	case t.arrRefs[v.t] != nil:
		m.unsupported("synchronized on an array (birch's arrays are not monitors)")
		return ""
	case t.classOf(v.t) == nil:
		m.unsupported("synchronized on a value of type %s", t.typeName(v.t))
		return ""
	case extends(t.classOf(v.t), t.class(threadClass)):
		m.unsupported(threadMonitor)
		return ""
	}
	m.nullCheck(v)
	if m.dead || m.ended {
		return ""
	}
	return paren(v.e) + "." + monField
}

// monitorEnter lowers monitorenter: lock the object's monitor, a
// visible step that waits while another thread holds it.
func (m *method) monitorEnter(in *classfile.Insn) {
	if mon := m.monitorOf(m.pop()); mon != "" {
		m.b.act(true, "", "lock(%s);", mon)
	}
}

// monitorExit lowers monitorexit: unlock the object's monitor (javac's
// code always holds it there).
func (m *method) monitorExit(in *classfile.Insn) {
	if mon := m.monitorOf(m.pop()); mon != "" {
		m.b.act(true, "", "unlock(%s);", mon)
	}
}

// ownerCheck ends the pending step with act (an action on the monitor
// mon) where the thread holds mon, and IllegalMonitorStateException
// where it does not.
func (m *method) ownerCheck(mon, act string, reads []string) {
	m.checkedStep(fmt.Sprintf("hasLock(%s)", mon), act, reads, imseClass, imseDetail)
}

// objectWait lowers o.wait(): wait(o.$mon) (IllegalMonitorStateException
// without the monitor), then, once notified and the monitor is free,
// unwait(o.$mon).
func (m *method) objectWait(mt *jmethod, args []value) {
	o := args[0]
	mon := m.monitorOf(o)
	if mon == "" {
		return
	}
	m.ownerCheck(mon, fmt.Sprintf("wait(%s);", mon), o.reads)
	if m.dead {
		return
	}
	next := m.b.label(m.b.base())
	m.guardedStep([]guardedCase{{guard: fmt.Sprintf("lockAvailable(%s) && wasNotified(%s)", mon, mon),
		acts: []string{fmt.Sprintf("unwait(%s);", mon)}, target: next}}, nil)
	m.b.place(next)
}

// objectNotify lowers o.notify() and o.notifyAll() (op).
func (m *method) objectNotify(args []value, op string) {
	o := args[0]
	if mon := m.monitorOf(o); mon != "" {
		m.ownerCheck(mon, fmt.Sprintf("%s(%s);", op, mon), o.reads)
	}
}
