package c

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"modernc.org/cc/v4"
)

// POSIX threads: pthread_create starts a BIR thread that calls the C
// function with its argument ($tids[k] holds the k-th thread's
// identifier, which is the pthread_t value), pthread_join waits for
// threadTerminated, and a mutex is the BIR lock $locks[i] of its object
// i. SV-COMP's __VERIFIER_atomic_* functions and __VERIFIER_atomic_begin
// and _end hold the reentrant lock $atomic, and every step of every thread
// is guarded by lockAvailable($atomic): no other thread moves meanwhile.

const atomicPrefix = "__VERIFIER_atomic_"

// memScan finds whether the program starts threads or uses atomic
// sections, before anything is lowered: a program with threads makes
// each access to shared memory a step of its own.
func (l *lowerer) memScan() {
	walk(l.ast.TranslationUnit, func(n cc.Node) {
		p, ok := n.(*cc.PrimaryExpression)
		if !ok || p.Case != cc.PrimaryExpressionIdent {
			return
		}
		name := p.Token.SrcStr()
		switch {
		case name == "pthread_create":
			l.memInit()
			l.mem.threaded = true
		case strings.HasPrefix(name, atomicPrefix):
			l.memInit()
			l.mem.atomic = true
		}
	})
}

// guardPrefix is the conjunct every guard gets in a program with atomic
// sections.
func (l *lowerer) guardPrefix() string {
	if l.mem != nil && l.mem.atomic {
		return "lockAvailable($atomic)"
	}
	return ""
}

// threadCall lowers the pthread and atomic functions.
func (fl *fnLowerer) threadCall(n *cc.PostfixExpression, name string, args []cc.ExpressionNode, want bool) (operand, bool) {
	zero := constOp(big.NewInt(0), tInt)
	switch name {
	case "pthread_create":
		if len(args) != 4 {
			return zero, false
		}
		if !isNullConst(args[1]) {
			fl.l.unsupported(args[1], "thread attributes (pthread_create's second argument must be NULL)")
			return zero, true
		}
		fname := ""
		fn := unwrap(args[2])
		if u, ok := fn.(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
			fn = unwrap(u.CastExpression)
		}
		if p, ok := fn.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
			fname = p.Token.SrcStr()
		}
		def := fl.l.funcDefs[fname]
		if def == nil {
			fl.l.unsupported(args[2], "a thread function that is not a function the program defines")
			return zero, true
		}
		tp, ok := fl.pointer(args[0])
		if !ok {
			return zero, true
		}
		arg := fl.ptrValue(args[3], fl.l.ast.PVoid)
		if !isAtom(arg.e) {
			arg = fl.stable(arg)
		}
		thr := fl.l.threadOf(fname)
		fl.shared()
		fl.b.act("$nthr := $nthr + 1;")
		fl.b.act("$tids[$nthr] := start %s(%s);", thr, arg.e)
		loc := memLoc{base: tp}
		fl.b.act("%s := $nthr;", loc.cell())
		fl.b.split()
		return zero, true
	case "pthread_join":
		if len(args) != 2 {
			return zero, false
		}
		if !isNullConst(args[1]) {
			fl.l.unsupported(args[1], "a thread's result (pthread_join's second argument must be NULL)")
			return zero, true
		}
		t := fl.exact(fl.rval(args[0]))
		if !isAtom(t.e) {
			t = fl.stable(t)
		}
		fl.l.memInit()
		fl.l.mem.threaded = true
		fl.l.mem.used = true
		fl.b.flush()
		fl.b.ensure()
		next := fl.b.newLabel()
		fl.b.cur.trans = append(fl.b.cur.trans, &transformation{pos: fl.b.pos, guard: fmt.Sprintf("threadTerminated($tids[%s])", t.e), target: next})
		fl.b.cur = nil
		fl.b.place(next, false)
		return zero, true
	case "pthread_mutex_init", "pthread_mutex_destroy", "pthread_mutex_lock", "pthread_mutex_unlock":
		want := 1
		if name == "pthread_mutex_init" {
			want = 2
		}
		if len(args) != want {
			return zero, false
		}
		if name == "pthread_mutex_init" && !isNullConst(args[1]) {
			fl.l.unsupported(args[1], "mutex attributes (pthread_mutex_init's second argument must be NULL)")
			return zero, true
		}
		if e := elemOf(args[0].Type()); e == nil || !isMutexType(e) {
			fl.l.unsupported(args[0], "%s of something other than a pthread_mutex_t", name)
			return zero, true
		}
		p, ok := fl.pointer(args[0])
		if !ok {
			return zero, true
		}
		fl.l.memInit()
		fl.l.mem.locks = true
		fl.l.mem.used = true
		switch name {
		case "pthread_mutex_lock":
			fl.shared()
			fl.b.act("lock($locks[%s / %d]);", p, ptrScale)
			fl.b.split()
		case "pthread_mutex_unlock":
			fl.shared()
			fl.b.act("unlock($locks[%s / %d]);", p, ptrScale)
			fl.b.split()
		default:
			// the mutex must exist; its lock is free (init and destroy of a
			// held mutex are undefined and not detected)
			fl.check("a mutex operation on an object that is not a mutex", fmt.Sprintf("$mem[%s / %d].length == 1", p, ptrScale))
		}
		return zero, true
	case "pthread_exit":
		// ends the calling thread only; its result is not kept (a
		// pthread_join that asks for it is unsupported)
		if len(args) != 1 {
			return zero, false
		}
		fl.effect(args[0])
		fl.b.act("exit;")
		fl.b.split()
		return voidOp, true
	case "__VERIFIER_atomic_begin", "__VERIFIER_atomic_end":
		if len(args) != 0 {
			return zero, false
		}
		fl.l.memInit()
		fl.l.mem.atomic = true
		fl.b.flush()
		if name == "__VERIFIER_atomic_begin" {
			fl.b.act("lock($atomic);")
		} else {
			fl.b.act("unlock($atomic);")
		}
		fl.b.split()
		return voidOp, true
	}
	return zero, false
}

// threadOf is the BIR thread that runs the C function fname.
func (l *lowerer) threadOf(fname string) string {
	l.memInit()
	if t, ok := l.mem.threads[fname]; ok {
		return t
	}
	t := uniqueName(fname+"$thread", l.funcNames)
	l.mem.threads[fname] = t
	l.mem.threadQ = append(l.mem.threadQ, fname)
	l.function(fname)
	l.mem.used = true
	return t
}

// printThreads writes the threads that run the C thread functions.
func (l *lowerer) printThreads(w *strings.Builder) {
	if l.mem == nil {
		return
	}
	names := append([]string(nil), l.mem.threadQ...)
	sort.Strings(names)
	g := l.guardPrefix()
	guard := "true"
	if g != "" {
		guard = g
	}
	for _, fname := range names {
		f := l.funcs[fname]
		thr := l.mem.threads[fname]
		def := f.def
		args := ""
		if ft, ok := def.Declarator.Type().(*cc.FunctionType); ok {
			np := 0
			for _, p := range ft.Parameters() {
				if p.Type().Kind() != cc.Void {
					np++
				}
			}
			if np == 1 {
				args = "$arg"
			} else if np > 1 {
				l.unsupported(def.Declarator, "the thread function %s has %d parameters", fname, np)
			}
		}
		fmt.Fprintf(w, "\nthread %s ($arg : int64)\n  loc run:\n", thr)
		w.WriteString(directive(pos(def.Declarator.Position())))
		fmt.Fprintf(w, "    when %s do { call %s(%s); } goto done;\n  loc done:\nend %s;\n", guard, f.name, args, thr)
	}
}

// callAtomic is the action that enters an atomic function's section.
func (fl *fnLowerer) callAtomic(name string) {
	if strings.HasPrefix(name, atomicPrefix) {
		fl.l.memInit()
		fl.l.mem.atomic = true
		fl.b.act("lock($atomic);")
	}
}
