package java

// Java threads (ISSUE 23 §3): java.lang.Thread and Runnable.
//
// Every Java thread but main is an instance of one BIR thread template,
//
//	thread JThread (this : Thread_ref)
//
// whose this is the Thread object: it runs the object's run() by the
// class-hierarchy dispatch (a subclass's run(), or Thread.run(), which
// runs target.run() when a Runnable was given to the constructor).
// Thread.run() is the BIR function Thread_run. The Thread record holds
// $tid, the identifier of the thread instance (null until started), and
// target:
//
//	t.start()    when t.$tid == null do { t.$tid := start JThread(t); }
//	             (atomically: a second start of the same thread, also of
//	             one that has ended, is IllegalThreadStateException)
//	t.join()     when t.$tid == null || threadTerminated(t.$tid) do { }
//	             (a thread never started is not alive: join returns at once)
//	t.isAlive()  t.$tid != null && !threadTerminated(t.$tid)
//
// Thread.sleep(ms) and Thread.yield() do nothing: every interleaving of
// the threads' shared accesses is explored anyway, and no thread is ever
// interrupted (the model has no interrupts), so the InterruptedException
// that sleep, join and wait declare is never thrown and its handlers are
// dead code. A thread's name (Thread(r, name), Thread(name)) is ignored:
// trails name the threads main, Thread-0, Thread-1, ... in the order
// they are started (Java numbers them in the order they are constructed,
// the same for a program that starts its threads in the order it makes
// them). Thread.currentThread(), getName, setName, setDaemon, interrupt
// and the other methods of Thread are outside the model (unsupported).

import (
	"fmt"
	"strings"

	"birch/internal/source"
)

// Internal names of the classes of the model this file lowers.
const (
	threadClass   = "java/lang/Thread"
	runnableClass = "java/lang/Runnable"
	itseClass     = "java/lang/IllegalThreadStateException"
	tidField      = "$tid"
	// threadSource is the position of the steps of Thread.run() (which
	// has no Java source: trails show java.lang.Thread.run(Thread.java:1))
	threadSource = "java/lang/Thread.java"
	targetField  = "target"
)

func init() {
	nothing := func(m *method, mt *jmethod, args []value) {}
	for _, sig := range []string{"<init>()V", "<init>(Ljava/lang/String;)V", "sleep(J)V", "yield()V"} {
		modelLowering[threadClass+"."+sig] = nothing
	}
	modelLowering[threadClass+".<init>(Ljava/lang/Runnable;)V"] = (*method).threadInit
	modelLowering[threadClass+".<init>(Ljava/lang/Runnable;Ljava/lang/String;)V"] = (*method).threadInit
	modelLowering[threadClass+".start()V"] = (*method).threadStart
	modelLowering[threadClass+".run()V"] = (*method).threadRun
	modelLowering[threadClass+".join()V"] = (*method).threadJoin
	modelLowering[threadClass+".isAlive()Z"] = (*method).threadIsAlive
}

// threadKey keys the threads' program-wide state (laneState).
type threadKey struct{}

// threads is the program-wide state of the lowering of threads.
type threads struct {
	template string // the BIR thread that runs a started Thread ("" until needed)
	run      string // the BIR function of Thread.run() ("" until needed)
}

func threadsOf(l *lowerer) *threads {
	return l.laneState(threadKey{}, func() any { return &threads{} }).(*threads)
}

// threadField is the BIR name of a field of the Thread record.
func threadField(t *classTable, name string) string {
	for _, f := range t.class(threadClass).layout {
		if f.name == name {
			return f.bir
		}
	}
	panic("the Thread record has no field " + name)
}

// threadRef makes the receiver v a reference whose type has Thread's
// fields; ok false after reporting why it cannot be.
func (m *method) threadRef(v value) (value, bool) {
	if !m.plain(v) {
		return v, false
	}
	return m.narrow(v, heapOf(m.l).class(threadClass))
}

// threadInit lowers the constructors Thread(Runnable) and
// Thread(Runnable, String): the object's target is the Runnable (the
// name is ignored).
func (m *method) threadInit(mt *jmethod, args []value) {
	th, ok := m.threadRef(args[0])
	if !ok || !m.plain(args[1]) {
		return
	}
	t := heapOf(m.l)
	r, ok := m.asRef(args[1], t.refType(t.class(objectClass)))
	if !ok {
		return
	}
	m.b.act(true, "", "%s.%s := %s;", paren(th.e), threadField(t, targetField), r.e)
}

// threadStart lowers t.start(): a visible step that, if t has not been
// started, starts an instance of the thread template with t and stores
// its identifier in t; if it has, IllegalThreadStateException.
func (m *method) threadStart(mt *jmethod, args []value) {
	th, ok := m.threadRef(args[0])
	if !ok {
		return
	}
	tmpl := m.threadTemplate()
	tid := paren(th.e) + "." + threadField(heapOf(m.l), tidField)
	m.checkedStep(tid+" == null", fmt.Sprintf("%s := start %s(%s);", tid, tmpl, th.e), th.reads, itseClass, "")
}

// checkedStep ends the pending step with a visible step that does act
// where cond holds and throws the JVM's exception class where it does
// not. Where no handler may catch the exception, the step asserts cond
// before act, and the assertion's Message names the exception (its own
// condition tells it from other failures of the same line).
func (m *method) checkedStep(cond, act string, reads []string, class, detail string) {
	if mayCatch(m, class) {
		ok, bad := m.b.label(m.b.base()), m.b.label(m.b.base())
		m.guardedStep([]guardedCase{{guard: cond, acts: []string{act}, target: ok}, {guard: negate(cond), target: bad}}, reads)
		m.throwAt(bad, ok, class, detail)
		return
	}
	m.b.act(true, "", "assert(%s); %s", cond, act)
	text := "uncaught " + binaryName(class)
	if detail != "" {
		text += ": " + detail
	}
	m.l.messages = append(m.l.messages, Message{
		Pos:  source.Position{Filename: m.file, Line: max(m.line(), 1), Column: 1},
		Cond: cond, Text: text})
}

// throwAt lowers the throw of a JVM exception at the location bad, and
// goes on at ok.
func (m *method) throwAt(bad, ok, class, detail string) {
	m.b.place(bad)
	m.throwNew(class, detail)
	m.ended = false
	if !m.dead {
		m.b.place(ok)
	}
}

// threadJoin lowers t.join(): enabled once t has terminated or if it was
// never started.
func (m *method) threadJoin(mt *jmethod, args []value) {
	th, ok := m.threadRef(args[0])
	if !ok {
		return
	}
	tid := paren(th.e) + "." + threadField(heapOf(m.l), tidField)
	next := m.b.label(m.b.base())
	m.guardedStep([]guardedCase{{guard: fmt.Sprintf("%s == null || threadTerminated(%s)", tid, tid), target: next}}, th.reads)
	m.b.place(next)
}

// threadIsAlive lowers t.isAlive(): 1 when t was started and has not
// terminated, else 0.
func (m *method) threadIsAlive(mt *jmethod, args []value) {
	th, ok := m.threadRef(args[0])
	if !ok {
		return
	}
	tid := paren(th.e) + "." + threadField(heapOf(m.l), tidField)
	alive := fmt.Sprintf("%s != null && !threadTerminated(%s)", tid, tid)
	m.result(kInt, "int32", func(tmp string) {
		join := m.b.label(m.b.base())
		m.guardedStep([]guardedCase{
			{guard: alive, acts: []string{tmp + " := 1;"}, target: join},
			{guard: negate(alive), acts: []string{tmp + " := 0;"}, target: join},
		}, th.reads)
		m.b.place(join)
	})
}

// threadRun lowers a call of Thread.run() (t.run() on a Thread that does
// not override it, or super.run()): the function Thread_run.
func (m *method) threadRun(mt *jmethod, args []value) {
	th, ok := m.threadRef(args[0])
	if !ok {
		return
	}
	m.b.act(false, "", "call %s(%s);", m.threadRunFn(), th.e)
	m.b.split()
}

// A guardedCase is one transformation of guardedStep.
type guardedCase struct {
	guard  string
	acts   []string
	target string // a label of the builder
}

// guardedStep ends the pending step with one visible transformation per
// case: its guard (which may read shared state: a lock, a thread, the
// heap), the pending actions and its own, to its target. The guards
// must exclude each other; where none holds, the thread waits. reads are
// the locals and temporaries the guards read.
func (m *method) guardedStep(cases []guardedCase, reads []string) {
	b := m.b
	b.ensure()
	if b.pendingShared || b.writesAny(reads) {
		b.split()
	}
	line := b.line
	if len(b.pending) > 0 {
		line = b.pending[0].line
	}
	for _, c := range cases {
		acts := append([]action(nil), b.pending...)
		for _, a := range c.acts {
			acts = append(acts, action{text: a, line: b.line})
		}
		b.cur.trans = append(b.cur.trans, &transformation{line: line, guard: c.guard, acts: acts, target: c.target, shared: true})
	}
	b.pending, b.pendingShared, b.cur = nil, false, nil
}

// threadTemplate is the BIR thread that runs a started Java thread,
// declared on first use (at the start() being lowered).
func (m *method) threadTemplate() string {
	st := threadsOf(m.l)
	if st.template != "" {
		return st.template
	}
	l := m.l
	st.template = uniqueName("JThread", l.fnNames)
	l.names.Threads[st.template] = "java.lang.Thread.run()"
	t := heapOf(l)
	thread := t.class(threadClass)
	run := t.resolveMethod(thread, "run", "()V")
	var w strings.Builder
	fmt.Fprintf(&w, "//line %s:%d:1\nthread %s (this : %s)\n  loc t0:\n", m.file, max(m.line(), 1), st.template, t.refType(thread))
	m.runCases(&w, thread, run, "this", "t1", true)
	fmt.Fprintf(&w, "  loc t1:\nend %s;\n", st.template)
	l.tail = append(l.tail, w.String())
	return st.template
}

// threadRunFn is the BIR function of Thread.run(), declared on first use:
// the target's run() when the Thread has a target.
func (m *method) threadRunFn() string {
	st := threadsOf(m.l)
	if st.run != "" {
		return st.run
	}
	l := m.l
	t := heapOf(l)
	st.run = uniqueName("Thread_run", l.fnNames)
	l.names.Functions[st.run] = "java.lang.Thread.run()"
	thread, runnable := t.class(threadClass), t.class(runnableClass)
	run := t.resolveMethod(runnable, "run", "()V")
	obj := t.refType(t.class(objectClass))
	pos := fmt.Sprintf("//line %s:1:1\n", threadSource)
	var w strings.Builder
	fmt.Fprintf(&w, "%sfunction %s (this : %s)\n  target : %s;\n  loc r0:\n", pos, st.run, t.refType(thread), obj)
	fmt.Fprintf(&w, "%s    when true do { target := this.%s; } goto r1;\n  loc r1:\n", pos, threadField(t, targetField))
	fmt.Fprintf(&w, "%s    when target == null do { } return;\n", pos)
	m.runCases(&w, runnable, run, "target", "r2", false)
	fmt.Fprintf(&w, "  loc r2:\n%s    when true do { } return;\nend %s;\n", pos, st.run)
	l.tail = append(l.tail, w.String())
	return st.run
}

// runCases writes the transformations that call run() on recv (a
// parameter or local) by the dispatch of the resolved method mr on a
// receiver of static class static, each to target; the most derived
// classes first, the last case taking every other receiver (nonNull:
// recv is never null, else the last case's guard says it is not).
func (m *method) runCases(w *strings.Builder, static *jclass, mr *jmethod, recv, target string, nonNull bool) {
	t := heapOf(m.l)
	cases, bad := t.dispatch(static, mr)
	if len(bad) > 0 {
		m.unsupported("a thread of class %s, which has no run() (AbstractMethodError)", bad[0].javaName())
		return
	}
	var earlier []string
	for i, dc := range cases {
		var conds []string
		if i < len(cases)-1 {
			t.use(dc.guard)
			inst := recv + " instanceof " + dc.guard.bir
			conds = append(conds, inst)
		} else if !nonNull {
			conds = append(conds, recv+" != null")
		}
		conds = append(conds, earlier...)
		guard := "true"
		if len(conds) > 0 {
			guard = strings.Join(conds, " && ")
		}
		fn, file, line := m.runTarget(dc.method)
		if fn == "" {
			return
		}
		fmt.Fprintf(w, "//line %s:%d:1\n    when %s do { call %s(%s); } goto %s;\n", file, line, guard, fn, recv, target)
		if i < len(cases)-1 {
			earlier = append(earlier, negate(recv+" instanceof "+dc.guard.bir))
		}
	}
}

// runTarget is the BIR function a dispatch case of run() calls, with the
// position of the method's first line ("" after reporting a method that
// has none).
func (m *method) runTarget(mt *jmethod) (fn, file string, line int) {
	switch {
	case mt.isModel() && mt.class.name == threadClass && mt.name == "run":
		return m.threadRunFn(), threadSource, 1
	case mt.isModel() || mt.cf.Code == nil:
		m.unsupported("a thread that runs %s, which has no code", mt)
		return "", "", 0
	}
	f := m.l.function(mt.class.cf, mt.cf)
	return f.name, sourcePath(mt.class.cf, m.l.cfg.SourceDirs), max(mt.cf.Code.LineAt(0), 1)
}
