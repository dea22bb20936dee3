package java

// birch's model of java.lang (and java.util.Objects): the classes a program may use without
// their class files, with the fields their BIR records hold and the
// methods a call may resolve to. A call of a method of the library that is
// not listed here is reported unsupported with its position.

import (
	"fmt"
	"strconv"

	"birch/internal/frontend/java/classfile"
)

// A modelClass is a class of the java.lang model.
type modelClass struct {
	name    string // internal name
	super   string // "" is java.lang.Object (none for Object itself)
	ifaces  []string
	access  uint16 // AccInterface, AccAbstract, AccFinal (AccPublic is implied)
	fields  []modelField
	methods []modelMethod
}

// A modelField is a field of a model class's record: a Java field (desc
// set) or one of the model's own (bir, its BIR type).
type modelField struct {
	name, desc, bir string
	access          uint16
}

// A modelMethod is a method of a model class.
type modelMethod struct {
	sig    string // name and descriptor, "equals(Ljava/lang/Object;)Z"
	access uint16 // AccStatic, AccAbstract (AccPublic is implied)
	// instantiates lists the classes whose objects the method creates.
	instantiates []string
	// calls lists the methods, "pkg/C.name(desc)", the model invokes
	// virtually on objects of the program (Thread.start runs run()).
	calls []string
}

// throwableMethods are the constructors and methods of every exception
// class of the model.
var throwableCtors = []modelMethod{{sig: "<init>()V"}, {sig: "<init>(Ljava/lang/String;)V"}}

// exception is a model exception class.
func exception(name, super string) modelClass {
	return modelClass{name: "java/lang/" + name, super: "java/lang/" + super, methods: throwableCtors}
}

// javaLang is the model, superclasses before subclasses.
var javaLang = []modelClass{
	{name: objectClass, methods: []modelMethod{
		{sig: "<init>()V"},
		{sig: "equals(Ljava/lang/Object;)Z"},
		{sig: "hashCode()I"},
		{sig: "wait()V"}, {sig: "wait(J)V"}, {sig: "notify()V"}, {sig: "notifyAll()V"},
	}},
	{name: "java/lang/Runnable", access: classfile.AccInterface | classfile.AccAbstract,
		methods: []modelMethod{{sig: "run()V", access: classfile.AccAbstract}}},
	{name: "java/lang/Thread", ifaces: []string{"java/lang/Runnable"},
		fields: []modelField{{name: "$tid", bir: "tid"}, {name: "target", desc: "Ljava/lang/Runnable;"}},
		methods: []modelMethod{
			{sig: "<init>()V"}, {sig: "<init>(Ljava/lang/Runnable;)V"},
			{sig: "<init>(Ljava/lang/Runnable;Ljava/lang/String;)V"}, {sig: "<init>(Ljava/lang/String;)V"},
			{sig: "start()V", calls: []string{"java/lang/Thread.run()V", "java/lang/Runnable.run()V"}},
			{sig: "run()V", calls: []string{"java/lang/Runnable.run()V"}},
			{sig: "join()V"}, {sig: "isAlive()Z"}, {sig: "setName(Ljava/lang/String;)V"},
			{sig: "sleep(J)V", access: classfile.AccStatic}, {sig: "yield()V", access: classfile.AccStatic},
		}},
	{name: "java/lang/Number", access: classfile.AccAbstract, methods: []modelMethod{
		{sig: "<init>()V"}, {sig: "intValue()I", access: classfile.AccAbstract},
	}},
	{name: "java/lang/Integer", super: "java/lang/Number", access: classfile.AccFinal,
		fields: []modelField{{name: "value", desc: "I", access: classfile.AccFinal}},
		methods: []modelMethod{
			{sig: "<init>(I)V"},
			{sig: "valueOf(I)Ljava/lang/Integer;", access: classfile.AccStatic, instantiates: []string{"java/lang/Integer"}},
			{sig: "intValue()I"},
			{sig: "equals(Ljava/lang/Object;)Z"},
			{sig: "parseInt(Ljava/lang/String;)I", access: classfile.AccStatic},
		}},
	{name: "java/lang/Math", access: classfile.AccFinal, methods: []modelMethod{
		{sig: "abs(I)I", access: classfile.AccStatic}, {sig: "abs(J)J", access: classfile.AccStatic},
		{sig: "min(II)I", access: classfile.AccStatic}, {sig: "min(JJ)J", access: classfile.AccStatic},
		{sig: "max(II)I", access: classfile.AccStatic}, {sig: "max(JJ)J", access: classfile.AccStatic},
	}},
	{name: "java/lang/Throwable", methods: append([]modelMethod{{sig: "getMessage()Ljava/lang/String;"}}, throwableCtors...)},
	exception("Exception", "Throwable"),
	exception("Error", "Throwable"),
	exception("RuntimeException", "Exception"),
	exception("InterruptedException", "Exception"),
	{name: "java/lang/AssertionError", super: "java/lang/Error", methods: []modelMethod{
		{sig: "<init>()V"}, {sig: "<init>(Ljava/lang/Object;)V"}, {sig: "<init>(Z)V"}, {sig: "<init>(C)V"},
		{sig: "<init>(I)V"}, {sig: "<init>(J)V"}, {sig: "<init>(Ljava/lang/String;Ljava/lang/Throwable;)V"},
	}},
	exception("ArithmeticException", "RuntimeException"),
	exception("ArrayStoreException", "RuntimeException"),
	exception("ClassCastException", "RuntimeException"),
	exception("IllegalArgumentException", "RuntimeException"),
	exception("IllegalThreadStateException", "IllegalArgumentException"),
	exception("NumberFormatException", "IllegalArgumentException"),
	exception("IllegalMonitorStateException", "RuntimeException"),
	exception("IllegalStateException", "RuntimeException"),
	exception("IndexOutOfBoundsException", "RuntimeException"),
	exception("ArrayIndexOutOfBoundsException", "IndexOutOfBoundsException"),
	exception("NegativeArraySizeException", "RuntimeException"),
	exception("NullPointerException", "RuntimeException"),
	exception("UnsupportedOperationException", "RuntimeException"),
	// String objects: what a string constant or concatenation becomes
	// where it is stored or passed (stringObject); equals is listed only
	// so that it is not Object's identity (a concatenation's value would
	// differ): a call is unsupported
	{name: "java/lang/String", access: classfile.AccFinal, methods: []modelMethod{
		{sig: "equals(Ljava/lang/Object;)Z"},
	}},
	// java.util.Random's numbers are any values (JPF's
	// cg.enumerate_random): the model explores every value a seed could
	// give
	{name: "java/util/Random", methods: []modelMethod{
		{sig: "<init>()V"}, {sig: "<init>(J)V"},
		{sig: "nextInt(I)I"}, {sig: "nextInt()I"}, {sig: "nextBoolean()Z"},
	}},
	// javac calls it for outer.new Inner() and other null checks
	{name: "java/util/Objects", access: classfile.AccFinal, methods: []modelMethod{
		{sig: "requireNonNull(Ljava/lang/Object;)Ljava/lang/Object;", access: classfile.AccStatic},
	}},
}

// modelMethodOf is the model's entry of a model method (nil or empty for
// a program method).
func modelMethodOf(m *jmethod) []modelMethod {
	for _, mc := range javaLang {
		if mc.name != m.class.name {
			continue
		}
		for _, mm := range mc.methods {
			if name, desc := splitSig(mm.sig); name == m.name && desc == m.desc {
				return []modelMethod{mm}
			}
		}
	}
	return nil
}

// The lowering of the model's methods. Another lane's file may set an
// entry of modelLowering in its init; these are the defaults.
func init() {
	defaults := map[string]func(m *method, mt *jmethod, args []value){
		"java/lang/Object.<init>()V":                      func(m *method, mt *jmethod, args []value) {},
		"java/lang/Object.equals(Ljava/lang/Object;)Z":    (*method).objectEquals,
		"java/lang/Number.<init>()V":                      func(m *method, mt *jmethod, args []value) {},
		"java/lang/Integer.<init>(I)V":                    (*method).integerInit,
		"java/lang/Integer.valueOf(I)Ljava/lang/Integer;": (*method).integerValueOf,
		"java/lang/Integer.intValue()I":                   (*method).integerIntValue,
		"java/lang/Integer.equals(Ljava/lang/Object;)Z":   (*method).integerEquals,
		"java/lang/Integer.parseInt(Ljava/lang/String;)I": (*method).integerParseInt,
		// a thread's name changes nothing the model checks
		"java/lang/Thread.setName(Ljava/lang/String;)V": func(m *method, mt *jmethod, args []value) {},
		"java/util/Random.<init>()V":                    func(m *method, mt *jmethod, args []value) {},
		"java/util/Random.<init>(J)V":                   func(m *method, mt *jmethod, args []value) {},
		"java/util/Random.nextInt(I)I":                  (*method).randomNextInt,
		"java/util/Random.nextInt()I": func(m *method, mt *jmethod, args []value) {
			m.choose(kInt, "int32", "int32")
		},
		"java/util/Random.nextBoolean()Z": func(m *method, mt *jmethod, args []value) {
			m.choose(kInt, "int32", "0, 1")
		},
		"java/util/Objects.requireNonNull(Ljava/lang/Object;)Ljava/lang/Object;": (*method).requireNonNull,
		"java/lang/Math.abs(I)I":  mathOp,
		"java/lang/Math.abs(J)J":  mathOp,
		"java/lang/Math.min(II)I": mathOp,
		"java/lang/Math.max(II)I": mathOp,
		"java/lang/Math.min(JJ)J": mathOp,
		"java/lang/Math.max(JJ)J": mathOp,
	}
	// the exceptions' constructors: nothing to do (the model keeps no
	// message)
	for _, mc := range javaLang {
		for _, mm := range mc.methods {
			if mm.sig == "<init>()V" || mm.sig == "<init>(Ljava/lang/String;)V" {
				if _, ok := defaults[mc.name+"."+mm.sig]; !ok && mc.name != "java/lang/Thread" {
					defaults[mc.name+"."+mm.sig] = func(m *method, mt *jmethod, args []value) {}
				}
			}
		}
	}
	for k, f := range defaults {
		if modelLowering[k] == nil {
			modelLowering[k] = f
		}
	}
}

// stringObject makes a string of the lowering (a constant or a
// concatenation: special values that println prints) a reference to a
// String object, where one is stored or passed to the program's method
// (depth names its temporary): a constant's interned object, a global
// allocated in the step of its first use (the same object at every use,
// as Java interns literals), a concatenation's new object from a
// collection of its site's. Its text is not kept: the model's String
// objects have identity only (their methods are unsupported).
func (m *method) stringObject(v value, depth int) (value, bool) {
	t := heapOf(m.l)
	sc := t.class("java/lang/String")
	ref := t.refType(sc)
	tmp := m.tempNamed("$str", depth, ref)
	m.protect(tmp, -1, map[int]bool{})
	switch s := v.special.(type) {
	case strConst:
		g, coll := t.internString(s.s)
		m.b.alternatives([]alt{
			{guard: g + " == null", acts: []string{fmt.Sprintf("%s := new %s;", g, coll), fmt.Sprintf("%s := %s;", tmp, g)}, shared: true},
			{guard: g + " != null", acts: []string{fmt.Sprintf("%s := %s;", tmp, g)}, shared: true},
		}, nil)
	case concat:
		site := t.site(m.fn.method, m.insn.PC, 0, sc.bir)
		m.b.act(true, tmp, "%s := new %s;", tmp, site.coll)
	default:
		return v, m.plain(v)
	}
	return named(tmp, kRef, ref), true
}

// isString reports whether v is a string of the lowering (stringObject
// makes it an object).
func isString(v value) bool {
	switch v.special.(type) {
	case strConst, concat:
		return true
	}
	return false
}

// randomNextInt is Random.nextInt(n): any of 0 .. n-1 (a choice of the
// environment's, as JPF's cg.enumerate_random), IllegalArgumentException
// for n <= 0.
func (m *method) randomNextInt(mt *jmethod, args []value) {
	n := args[1]
	if !m.plain(n) {
		return
	}
	m.check(paren(n.e)+" > 0", n.reads, "java/lang/IllegalArgumentException")
	if m.dead {
		return
	}
	if n.isConst && n.c <= 0 {
		m.push(intValue(0)) // no path gets here
		return
	}
	m.choose(kInt, "int32", "0 .. "+paren(n.e)+" - 1")
}

// requireNonNull is Objects.requireNonNull(o): NullPointerException
// where o is null, else o.
func (m *method) requireNonNull(mt *jmethod, args []value) {
	v := args[0]
	if !m.plain(v) {
		return
	}
	m.check(paren(v.e)+" != null", v.reads, npeClass)
	m.push(v)
}

// objectEquals is Object.equals: identity.
func (m *method) objectEquals(mt *jmethod, args []value) {
	a, b := args[0], args[1]
	if !m.plain(b) {
		return
	}
	b, ok := m.asRef(b, a.t)
	if !ok {
		return
	}
	m.pushCond(paren(a.e)+" == "+paren(b.e), append(append([]string(nil), a.reads...), b.reads...))
}

// integerClass is the model's java.lang.Integer.
func (m *method) integerClass() *jclass { return heapOf(m.l).class("java/lang/Integer") }

// integerInit is new Integer(v): the field value.
func (m *method) integerInit(mt *jmethod, args []value) {
	recv, ok := m.narrow(args[0], m.integerClass())
	if !ok || !m.plain(args[1]) {
		return
	}
	m.b.act(true, "", "%s.value := %s;", paren(recv.e), args[1].e)
}

// integerValueOf is Integer.valueOf(v) (boxing): a new Integer of a
// collection of the call site's. Java's cache of the Integers -128..127
// is not modelled: two boxings of one small value are two objects here.
func (m *method) integerValueOf(mt *jmethod, args []value) {
	v := args[0]
	if !m.plain(v) {
		return
	}
	t := heapOf(m.l)
	c := m.integerClass()
	s := t.newSite(m.fn.method, m.insn.PC, c)
	m.result(kRef, c.ref, func(tmp string) {
		m.b.act(true, tmp, "%s := new %s; %s.value := %s;", tmp, s.coll, tmp, v.e)
	})
}

// integerIntValue is intValue() (unboxing): the field value.
func (m *method) integerIntValue(mt *jmethod, args []value) {
	recv, ok := m.narrow(args[0], m.integerClass())
	if !ok {
		return
	}
	m.result(kInt, "int32", func(tmp string) {
		m.b.act(true, tmp, "%s := %s.value;", tmp, paren(recv.e))
	})
}

// integerEquals is Integer.equals(o): o is an Integer of the same value.
func (m *method) integerEquals(mt *jmethod, args []value) {
	ic := m.integerClass()
	a, ok := m.narrow(args[0], ic)
	b := args[1]
	if !ok || !m.plain(b) {
		return
	}
	cond := m.instCond(b, ic)
	if cond == "false" {
		m.push(intValue(0))
		return
	}
	res := m.temp(len(m.stack), "int32")
	m.protect(res, -1, map[int]bool{})
	yes, no, join := m.b.label(m.b.base()), m.b.label(m.b.base()), m.b.label(m.b.base())
	m.b.branch([]string{cond, negate(cond)}, []string{yes, no}, append(append([]string(nil), a.reads...), b.reads...), false)
	m.b.place(no)
	m.b.act(false, res, "%s := 0;", res)
	m.b.jump(join)
	m.b.place(yes)
	nb, ok := m.narrow(b, ic)
	if !ok {
		return
	}
	va := m.heapTemp(fmt.Sprintf("$v%d", len(m.stack)), "int32")
	m.b.act(true, va, "%s := %s.value;", va, paren(a.e))
	// 1 where the values are equal, else 0: the sign of (d | -d) says d != 0
	vb := paren(nb.e) + ".value"
	m.b.act(true, res, "%s := 1 + (((%s - %s) | (%s - %s)) >> 63);", res, va, vb, vb, va)
	m.b.jump(join)
	m.b.place(join)
	m.stack = append(m.stack, named(res, kInt, "int32"))
}

// integerParseInt is Integer.parseInt(s): a string constant's value, or
// NumberFormatException. A string that is no constant is null in the
// model (it has no String objects: a constant or a concatenation is never
// stored, main's args has no elements), and parseInt(null) throws.
func (m *method) integerParseInt(mt *jmethod, args []value) {
	const nfe = "java/lang/NumberFormatException"
	v := args[0]
	if s, ok := v.special.(strConst); ok {
		if n, err := strconv.ParseInt(s.s, 10, 32); err == nil {
			m.push(intValue(n))
			return
		}
		m.check("false", nil, nfe)
		m.push(intValue(0))
		return
	}
	if !m.plain(v) {
		return
	}
	m.check("false", v.reads, nfe)
	m.push(intValue(0))
}

// mathOp is Math.abs, min and max of int and long. abs and the int min
// and max are expressions (abs(MIN_VALUE) is MIN_VALUE, as in Java); long
// min and max are a branch.
func mathOp(m *method, mt *jmethod, args []value) {
	for _, a := range args {
		if !m.plain(a) {
			return
		}
	}
	if c, ok := foldMath(mt.name+mt.desc, args); ok {
		// of constants, a constant: BIR rejects a division whose
		// divisor is a constant expression of value 0 (x / Math.abs(0)
		// was bad input, exit 2, where the JVM throws)
		if mt.desc[len(mt.desc)-1] == 'J' {
			m.push(longValue(c))
		} else {
			m.push(intValue(c))
		}
		return
	}
	x := paren(args[0].e)
	switch mt.name + mt.desc {
	case "abs(I)I":
		m.push(derived(fmt.Sprintf("int32((%s ^ (%s >> 31)) - (%s >> 31))", x, x, x), kInt, "int32", args[0]))
	case "abs(J)J":
		m.push(derived(fmt.Sprintf("int64((%s ^ (%s >> 63)) - (%s >> 63))", x, x, x), kLong, "int64", args[0]))
	case "min(II)I", "max(II)I":
		// a - b cannot overflow 64 bits; its sign bit masks the difference
		y := paren(args[1].e)
		d := fmt.Sprintf("((%s - %s) & ((%s - %s) >> 63))", x, y, x, y)
		e := y + " + " + d
		if mt.name == "max" {
			e = x + " - " + d
		}
		m.push(derived(e, kInt, "int32", args[0], args[1]))
	case "min(JJ)J", "max(JJ)J":
		y := paren(args[1].e)
		r := " <= "
		if mt.name == "max" {
			r = " >= "
		}
		reads := append(append([]string(nil), args[0].reads...), args[1].reads...)
		m.selectValue(kLong, "int64", x+r+y, args[0].e, args[1].e, reads)
	}
}

// foldMath is Math.abs, min or max (sig) of constants, as Java computes it
// (abs(MIN_VALUE) is MIN_VALUE); ok false when an argument is no constant.
func foldMath(sig string, args []value) (int64, bool) {
	for _, a := range args {
		if !a.isConst {
			return 0, false
		}
	}
	a := args[0].c
	switch sig {
	case "abs(I)I":
		if int32(a) < 0 {
			return int64(-int32(a)), true
		}
		return a, true
	case "abs(J)J":
		if a < 0 {
			return -a, true
		}
		return a, true
	case "min(II)I", "min(JJ)J":
		return min(a, args[1].c), true
	case "max(II)I", "max(JJ)J":
		return max(a, args[1].c), true
	}
	return 0, false
}
