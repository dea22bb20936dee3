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
	}
	return nil, ""
}
