package java

import (
	"strings"

	"birch/internal/frontend/java/classfile"
)

// Static initializers. The JVM runs a class's <clinit> lazily, at the
// first new, static field access or static call of the class (JVM 5.5);
// the model runs them all in the main thread before main. The two agree
// when running an initializer earlier cannot be observed: a *self-contained*
// initializer reads and writes only its own class's static fields, the
// objects and arrays it allocates (with constructors that touch nothing
// else) and its locals, so nothing but its own class sees what it does,
// and the class's first use runs it in Java too. Those run first. The
// main class's (and its superclasses') initializers run before main in
// Java as well, in that order: they may do anything and run next. Any
// other initializer that reads or writes another class's statics, calls a
// method, throws, locks, ... could be seen to run early (it could read a
// static main has not written yet, or write one main reads first), so it
// is unsupported: a verdict the JVM's lazy order could contradict is never
// given.

// clinitOrder returns the used classes whose initializers the main thread
// runs, in the order it runs them, and reports the initializers that may
// not run early.
func (l *lowerer) clinitOrder() []string {
	early := map[string]bool{} // the main class and its superclasses
	for c := l.mainCls; c != nil; c = l.classes[c.Super] {
		early[c.Name] = true
	}
	var first, last []string
	for _, cn := range l.used {
		c := l.classes[cn]
		m := findMethod(c, "<clinit>", "()V")
		if m == nil || m.Code == nil {
			continue
		}
		if early[cn] {
			last = append(last, cn)
			continue
		}
		if in, why := l.selfContained(c, m, false, 0); in != nil {
			l.unsupportedAt(l.sourceOf(c), m.Code.LineAt(in.PC),
				"the static initializer of %s %s: birch runs static initializers before main, the JVM at the class's first use, which this one could tell apart",
				binaryName(c.Name), why)
			continue
		}
		first = append(first, cn)
	}
	return append(first, last...)
}

// selfContained checks that m, the <clinit> of c (ctor false) or a
// constructor of c (ctor true), reads and writes nothing but its locals,
// c's static fields (initializer only), the objects it is given or
// allocates and their fields; it returns the first instruction that does
// more, and what it does, or nil.
func (l *lowerer) selfContained(c *classfile.Class, m *classfile.Method, ctor bool, depth int) (*classfile.Insn, string) {
	if depth > 8 {
		return &m.Code.Insns[0], "allocates objects whose constructors nest too deep to check"
	}
	for i := range m.Code.Insns {
		in := &m.Code.Insns[i]
		switch in.Op {
		case classfile.Getstatic, classfile.Putstatic:
			class, name, _, _, _ := c.MemberAt(in.Index)
			if !ctor && class == "java/lang/System" && (name == "out" || name == "err") {
				continue // printing: no state
			}
			if dc, _ := l.resolveField(class, name); ctor || dc == nil || dc.Name != c.Name {
				return in, "accesses the static field " + binaryName(class) + "." + name
			}
		case classfile.Invokevirtual, classfile.Invokestatic, classfile.Invokespecial, classfile.Invokeinterface:
			class, name, desc, _, _ := c.MemberAt(in.Index)
			switch {
			case class == "java/io/PrintStream" && (name == "println" || name == "print"),
				class == "java/lang/Class" && name == "desiredAssertionStatus",
				class == "gov/nasa/jpf/vm/Verify" && (name == "getInt" || name == "getBoolean"),
				class == "org/sosy_lab/sv_benchmarks/Verifier" && strings.HasPrefix(name, "nondet"):
				continue
			case in.Op == classfile.Invokespecial && name == "<init>":
				if class == "java/lang/Object" {
					continue
				}
				if k := l.classes[class]; k != nil {
					if km := findMethod(k, name, desc); km != nil && km.Code != nil {
						if bad, _ := l.selfContained(k, km, true, depth+1); bad == nil {
							continue
						}
					}
				}
				return in, "constructs a " + binaryName(class) + " whose constructor does more than set the new object's fields"
			}
			return in, "calls " + binaryName(class) + "." + name
		case classfile.Invokedynamic:
			continue // string concatenation for printing (anything else is unsupported anyway)
		case classfile.Athrow, classfile.Monitorenter, classfile.Monitorexit, classfile.Jsr, classfile.JsrW, classfile.Ret:
			return in, "executes " + in.Op.String()
		}
		if !ctor && mayThrow(m.Code.Insns, i) {
			return in, "may throw (" + in.Op.String() + ")"
		}
	}
	return nil, ""
}

// mayThrow reports whether the instruction insns[i] of an initializer may
// throw one of the JVM's own exceptions: run before main, a failure there
// would end every path, where the JVM fails at the class's first use, one
// a path may not take or may catch. Safe are the forms of javac's array
// initializers (`static int[] a = {1, 2};`): an array of a constant
// length, stored into at a constant index right after its dup, with a
// constant; and a division by a nonzero constant.
func mayThrow(insns []classfile.Insn, i int) bool {
	in := insns[i]
	switch in.Op {
	case classfile.Newarray, classfile.Anewarray:
		v, ok := constPush(insns, i-1)
		return !ok || v < 0
	case classfile.Idiv, classfile.Irem, classfile.Ldiv, classfile.Lrem:
		v, ok := constPush(insns, i-1)
		return !ok || v == 0
	case classfile.Iastore, classfile.Lastore, classfile.Fastore, classfile.Dastore,
		classfile.Aastore, classfile.Bastore, classfile.Castore, classfile.Sastore:
		if i < 3 || insns[i-3].Op != classfile.Dup {
			return true
		}
		if _, ok := constPush(insns, i-2); !ok {
			return true
		}
		_, ok := constPush(insns, i-1)
		return !ok && !isConstant(insns[i-1].Op)
	case classfile.Iaload, classfile.Laload, classfile.Faload, classfile.Daload,
		classfile.Aaload, classfile.Baload, classfile.Caload, classfile.Saload,
		classfile.Arraylength, classfile.Multianewarray, classfile.Checkcast,
		classfile.Getfield, classfile.Putfield:
		return true
	}
	return false
}

// constPush is the value insns[i] pushes when it pushes an int or long
// constant (iconst_*, lconst_*, bipush, sipush).
func constPush(insns []classfile.Insn, i int) (int64, bool) {
	if i < 0 {
		return 0, false
	}
	switch in := insns[i]; in.Op {
	case classfile.Iconst_m1, classfile.Iconst_0, classfile.Iconst_1, classfile.Iconst_2, classfile.Iconst_3,
		classfile.Iconst_4, classfile.Iconst_5, classfile.Lconst_0, classfile.Lconst_1, classfile.Bipush, classfile.Sipush:
		return in.Value, true
	}
	return 0, false
}

// isConstant reports whether op pushes a constant of the pool or null
// (ldc*, aconst_null, fconst_*, dconst_*): an element value that cannot fail.
func isConstant(op classfile.Opcode) bool {
	switch op {
	case classfile.Ldc, classfile.LdcW, classfile.Ldc2W, classfile.AconstNull,
		classfile.Fconst_0, classfile.Fconst_1, classfile.Fconst_2, classfile.Dconst_0, classfile.Dconst_1:
		return true
	}
	return false
}
