package java

import "birch/internal/frontend/java/classfile"

// A false Verifier.assume (or Verify.ignoreIf) ends its thread (call.go),
// where JPF prunes the whole execution. The two agree while no other
// thread runs: in main before anything that could start one. An
// assumption elsewhere, in a program that starts threads, could let the
// other threads go on to a violation on a path Java discards: it is
// unsupported.

type assumeKey struct{}

// assumes are the positions of the assumptions that other threads may
// outlive.
type assumes struct{ pos []assumePos }

type assumePos struct {
	file string
	line int
}

// noteAssume records the assumption being lowered unless it lies in main
// where no call that could start a thread precedes it.
func (m *method) noteAssume() {
	if m.isMain() && !m.mayFollowStart(m.insn.PC) {
		return
	}
	st := m.l.laneState(assumeKey{}, func() any { return &assumes{} }).(*assumes)
	st.pos = append(st.pos, assumePos{m.file, m.line()})
}

// checkAssumes reports the recorded assumptions if the program starts a
// thread.
func (l *lowerer) checkAssumes() {
	st := l.laneState(assumeKey{}, func() any { return &assumes{} }).(*assumes)
	if threadsOf(l).template == "" {
		return
	}
	for _, p := range st.pos {
		l.unsupportedAt(p.file, p.line, "an assumption (Verifier.assume, Verify.ignoreIf) where another thread may run: a false one ends only its own thread in the model, the whole execution in JPF (put assumptions in main before the threads start)")
	}
}

// quietClasses are the classes whose methods start no thread.
var quietClasses = map[string]bool{
	"gov/nasa/jpf/vm/Verify": true, "org/sosy_lab/sv_benchmarks/Verifier": true,
	"java/io/PrintStream": true, "java/lang/Math": true, "java/lang/Integer": true,
	"java/lang/Object": true, "java/lang/AssertionError": true, "java/lang/Class": true,
	"java/lang/String": true, "java/lang/StringBuilder": true, "java/util/Objects": true,
}

// mayFollowStart reports whether the instruction at pc can be reached from a
// call of a method that might start a thread.
func (m *method) mayFollowStart(pc int) bool {
	insns := m.code.Insns
	seen := map[int]bool{}
	var work []int
	add := func(p int) {
		if !seen[p] && m.code.InsnAt(p) >= 0 {
			seen[p] = true
			work = append(work, p)
		}
	}
	succ := func(i int) {
		in := &insns[i]
		switch {
		case in.Op == classfile.Tableswitch || in.Op == classfile.Lookupswitch:
			add(in.Default)
			for _, t := range in.Targets {
				add(t)
			}
			return
		case isBranch(in.Op):
			add(in.Target)
		}
		if !endsBlock(in.Op) && i+1 < len(insns) {
			add(insns[i+1].PC)
		}
		for _, h := range m.code.Handlers {
			if h.Start <= in.PC && in.PC < h.End {
				add(h.PC)
			}
		}
	}
	for i := range insns {
		switch insns[i].Op {
		case classfile.Invokevirtual, classfile.Invokespecial, classfile.Invokestatic, classfile.Invokeinterface:
			if class, _, _, _, _ := m.cls.MemberAt(insns[i].Index); !quietClasses[class] {
				succ(i)
			}
		}
	}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		if p == pc {
			return true
		}
		succ(m.code.InsnAt(p))
	}
	return false
}
