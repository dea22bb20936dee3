package java

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/frontend/java/classfile"
	"birch/internal/source"
)

// poolBuilder builds the constant pool of a hand-made class.
type poolBuilder struct {
	pool []classfile.Constant
	utf8 map[string]int
}

func (p *poolBuilder) add(c classfile.Constant) int {
	if len(p.pool) == 0 {
		p.pool = []classfile.Constant{nil}
	}
	p.pool = append(p.pool, c)
	return len(p.pool) - 1
}

func (p *poolBuilder) str(s string) int {
	if p.utf8 == nil {
		p.utf8 = map[string]int{}
	}
	if i, ok := p.utf8[s]; ok {
		return i
	}
	i := p.add(classfile.Utf8{Value: s})
	p.utf8[s] = i
	return i
}

func (p *poolBuilder) class(name string) int {
	return p.add(classfile.ClassRef{NameIndex: p.str(name)})
}

func (p *poolBuilder) member(kind uint8, cls, name, desc string) int {
	nt := p.add(classfile.NameAndType{NameIndex: p.str(name), DescriptorIndex: p.str(desc)})
	return p.add(classfile.MemberRef{Kind: kind, ClassIndex: p.class(cls), NameAndTypeIndex: nt})
}

// hclass is a hand-made class: "name : super, iface..." with fields
// "name:desc" ("static name:desc" for a static one) and methods.
type hclass struct {
	cf *classfile.Class
	pb *poolBuilder
}

func newClass(name, super string, access uint16, ifaces ...string) *hclass {
	h := &hclass{pb: &poolBuilder{}}
	h.cf = &classfile.Class{Name: name, Super: super, Access: access | classfile.AccSuper, Interfaces: ifaces, SourceFile: simpleName(name) + ".java"}
	return h
}

func (h *hclass) field(spec string) *hclass {
	var access uint16
	if s, ok := strings.CutPrefix(spec, "static "); ok {
		access, spec = classfile.AccStatic, s
	}
	name, desc, _ := strings.Cut(spec, ":")
	h.cf.Fields = append(h.cf.Fields, &classfile.Field{Access: access, Name: name, Descriptor: desc})
	return h
}

// method adds a method "name(desc)ret" with the given access and code;
// each instruction is "new C", "invokevirtual C.m(desc)" etc.
func (h *hclass) method(sig string, access uint16, code ...string) *hclass {
	name, desc := splitSig(sig)
	m := &classfile.Method{Access: access, Name: name, Descriptor: desc}
	if access&classfile.AccAbstract == 0 {
		m.Code = &classfile.Code{Lines: []classfile.LineEntry{{PC: 0, Line: 10 + len(h.cf.Methods)}}}
		for pc, c := range code {
			op, arg, _ := strings.Cut(c, " ")
			in := classfile.Insn{PC: pc}
			switch op {
			case "new":
				in.Op, in.Index = classfile.New, h.pb.class(arg)
			case "getstatic", "putstatic", "getfield", "putfield":
				in.Op = map[string]classfile.Opcode{"getstatic": classfile.Getstatic, "putstatic": classfile.Putstatic,
					"getfield": classfile.Getfield, "putfield": classfile.Putfield}[op]
				cls, rest, _ := strings.Cut(arg, ".")
				n, d, _ := strings.Cut(rest, ":")
				in.Index = h.pb.member(classfile.TagFieldref, cls, n, d)
			case "invokevirtual", "invokespecial", "invokestatic", "invokeinterface":
				in.Op = map[string]classfile.Opcode{"invokevirtual": classfile.Invokevirtual, "invokespecial": classfile.Invokespecial,
					"invokestatic": classfile.Invokestatic, "invokeinterface": classfile.Invokeinterface}[op]
				cls, rest, _ := strings.Cut(arg, ".")
				n, d := splitSig(rest)
				kind := uint8(classfile.TagMethodref)
				if op == "invokeinterface" {
					kind = classfile.TagInterfaceMethodref
				}
				in.Index = h.pb.member(kind, cls, n, d)
			case "monitorenter":
				in.Op = classfile.Monitorenter
			case "return":
				in.Op = classfile.Return
			default:
				panic("hclass: unknown instruction " + c)
			}
			m.Code.Insns = append(m.Code.Insns, in)
		}
	}
	h.cf.Methods = append(h.cf.Methods, m)
	return h
}

func build(t *testing.T, hs ...*hclass) *classTable {
	t.Helper()
	var cfs []*classfile.Class
	for _, h := range hs {
		h.cf.Pool = h.pb.pool
		cfs = append(cfs, h.cf)
	}
	tab := newClassTable(cfs, 0, 0, map[string]bool{})
	tab.nameProgram(nil)
	return tab
}

// checkDecls type-checks the table's declarations in a system of their own.
func checkDecls(t *testing.T, tab *classTable) string {
	t.Helper()
	decls := tab.decls()
	src := "system S ()\n" + decls + "main thread M ()\n  loc s0:\nend M;\nend S;\n"
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, "decls.bir", []byte(src), 0)
	if err == nil {
		_, err = types.Check(fset, f, nil)
	}
	if err != nil {
		t.Fatalf("the declarations do not check: %v\n%s", err, src)
	}
	return decls
}

func TestLayoutPrefixAndHiding(t *testing.T) {
	tab := build(t,
		newClass("A", objectClass, 0).field("x:I").field("next:LA;").field("static count:I"),
		newClass("B", "A", 0).field("y:Z").field("x:J").field("length:C").field("end:[I"),
	)
	tab.use(tab.class("B"))
	if len(tab.errs) > 0 {
		t.Fatal(tab.errs)
	}
	decls := checkDecls(t, tab)
	for _, want := range []string{
		"JObject = record { };\nJObject extends Object;\nJObject_ref = ref JObject;\n",
		"A = record { x : int32; next : A_ref; };\nA extends JObject;\nA_ref = ref A;\n",
		"B = record { x : int32; next : A_ref; y : jboolean; x_2 : int64; length_ : uint16; end_ : int32_arr_ref; };\nB extends A;\n",
		"int32_arr = array [8] of int32;\n",
		"jboolean = range 0..1;\n",
	} {
		if !strings.Contains(decls, want) {
			t.Errorf("declarations lack %q:\n%s", want, decls)
		}
	}
	// Model classes nobody uses are not declared.
	if strings.Contains(decls, "Thread") || strings.Contains(decls, "Integer") {
		t.Errorf("unused model classes declared:\n%s", decls)
	}
	b := tab.class("B")
	if f := tab.resolveField(b, "x", "I"); f == nil || f.class.name != "A" || f.bir != "x" {
		t.Errorf("B.x:I resolves to %+v, want A's x", f)
	}
	if f := tab.resolveField(b, "x", "J"); f == nil || f.class.name != "B" || f.bir != "x_2" {
		t.Errorf("B.x:J resolves to %+v, want B's x_2", f)
	}
	if f := tab.resolveField(b, "count", "I"); f == nil || f.class.name != "A" || !f.isStatic() {
		t.Errorf("B.count resolves to %+v, want A's static count", f)
	}
}

func TestNamesCollide(t *testing.T) {
	tab := build(t,
		newClass("p/Node", objectClass, 0),
		newClass("q/Node", objectClass, 0),
		newClass("loc", objectClass, 0),
		newClass("Thread", objectClass, 0).field("static x:I"),
		newClass("Main", objectClass, 0).field("t:Ljava/lang/Thread;").field("u:LThread;"),
		newClass("Out$In", objectClass, 0),
		newClass("Caf\u00e9", objectClass, 0),
		newClass("JObject", objectClass, 0),
		newClass("A_ref", objectClass, 0),
		newClass("A", objectClass, 0),
	)
	want := map[string]string{
		"p/Node": "p_Node", "q/Node": "q_Node", "loc": "loc_", "Thread": "Thread",
		"java/lang/Thread": "java_lang_Thread", "Out$In": "Out$In", "Caf\u00e9": "Caf_",
		"JObject": "JObject_2", "java/lang/Object": "JObject", "A_ref": "A_ref", "A": "A",
	}
	for n, w := range want {
		if got := tab.class(n).bir; got != w {
			t.Errorf("record of %s: %s, want %s", n, got, w)
		}
	}
	if got := tab.class("A").ref; got != "A_ref_2" {
		t.Errorf("A's reference type is %s, want A_ref_2", got)
	}
	tab.use(tab.class("Main"))
	decls := checkDecls(t, tab)
	if !strings.Contains(decls, "Main = record { t : java_lang_Thread_ref; u : Thread_ref; };") {
		t.Errorf("Main's record:\n%s", decls)
	}
	if !strings.Contains(decls, "java_lang_Thread = record { $tid : tid; target : JObject_ref; };") {
		t.Errorf("java.lang.Thread's record:\n%s", decls)
	}
}

func TestMonitorField(t *testing.T) {
	tab := build(t, newClass("A", objectClass, 0).field("x:I").method("m()V", classfile.AccSynchronized, "return"))
	tab.use(tab.class("A"))
	decls := checkDecls(t, tab)
	if !strings.Contains(decls, "JObject = record { $mon : lock wait reentrant; };") ||
		!strings.Contains(decls, "A = record { $mon : lock wait reentrant; x : int32; };") {
		t.Errorf("no monitor field:\n%s", decls)
	}
	tab = build(t, newClass("A", objectClass, 0).method("m()V", 0, "monitorenter", "return"))
	if !tab.monitors {
		t.Error("monitorenter: no monitors")
	}
	tab = build(t, newClass("A", objectClass, 0).method("m()V", 0, "invokevirtual java/lang/Object.notifyAll()V", "return"))
	if !tab.monitors {
		t.Error("notifyAll: no monitors")
	}
	tab = build(t, newClass("A", objectClass, 0).method("m()V", 0, "invokevirtual java/lang/Object.hashCode()I", "return"))
	if tab.monitors {
		t.Error("hashCode: monitors")
	}
}

func TestUnsupportedDeclarations(t *testing.T) {
	tab := build(t,
		newClass("A", "java/util/ArrayList", 0),
		newClass("B", objectClass, 0, "java/util/List"),
		newClass("C", objectClass, 0).field("d:D").method("m()V", 0, "return"),
	)
	if len(tab.errs) > 0 {
		t.Errorf("problems reported before the classes are used: %v", tab.errs)
	}
	for _, c := range []string{"A", "B", "C"} {
		tab.use(tab.class(c))
	}
	if f := tab.class("C").fields[0]; f.unsupported != "" {
		tab.errorf(f.class, nil, -1, "%s", f.unsupported)
	}
	var msgs []string
	for _, e := range tab.errs {
		msgs = append(msgs, e.Error())
	}
	got := strings.Join(msgs, "\n")
	for _, want := range []string{
		"A.java:1:1: class A extends java.util.ArrayList, which is outside birch's model of the Java library",
		"B.java:1:1: class B implements java.util.List, which is outside birch's model of the Java library",
		"C.java:10:1: the field C.d: floating point (double) is not supported",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("errors lack %q:\n%s", want, got)
		}
	}
}

// hierarchy: Shape (abstract area), Square extends Shape, Cube extends
// Square (no override), Circle extends Shape; interface Named with a
// default name(), implemented by Square, overridden by Circle.
func hierarchy(mainCode ...string) []*hclass {
	return []*hclass{
		newClass("Shape", objectClass, classfile.AccAbstract).method("area()I", classfile.AccAbstract).method("id()I", 0, "return"),
		newClass("Square", "Shape", 0, "Named").method("area()I", 0, "return"),
		newClass("Cube", "Square", 0).method("<init>()V", 0, "return"),
		newClass("Circle", "Shape", 0, "Named").method("area()I", 0, "return").method("name()I", 0, "return"),
		newClass("Named", objectClass, classfile.AccInterface|classfile.AccAbstract).method("name()I", 0, "return"),
		newClass("Main", objectClass, 0).method("main([Ljava/lang/String;)V", classfile.AccStatic, mainCode...).
			method("unused()V", classfile.AccStatic, "new Circle", "return"),
	}
}

func caseString(cs []dispatchCase) string {
	var s []string
	for _, c := range cs {
		s = append(s, c.guard.name+":"+c.method.class.name+"."+c.method.name)
	}
	return strings.Join(s, " ")
}

func TestDispatchMostDerivedFirst(t *testing.T) {
	tab := build(t, hierarchy("new Square", "new Cube", "new Circle", "invokevirtual Shape.area()I", "return")...)
	tab.analyze(tab.class("Main").declared("main", "([Ljava/lang/String;)V"))
	shape := tab.class("Shape")
	mr := tab.resolveMethod(shape, "area", "()I")
	cases, bad := tab.dispatch(shape, mr)
	if got, want := caseString(cases), "Circle:Circle.area Square:Square.area"; got != want || len(bad) > 0 {
		t.Errorf("Shape.area: %s (bad %v), want %s", got, bad, want)
	}
	// id() is declared in Shape only: one case.
	cases, _ = tab.dispatch(shape, tab.resolveMethod(shape, "id", "()I"))
	if got := caseString(cases); got != "Shape:Shape.id" {
		t.Errorf("Shape.id: %s", got)
	}
	// the default method: Cube and Square select Named.name (guarded each),
	// Circle its own, most derived first.
	named := tab.class("Named")
	cases, _ = tab.dispatch(named, tab.resolveMethod(named, "name", "()I"))
	if got, want := caseString(cases), "Cube:Named.name Circle:Circle.name Square:Named.name"; got != want {
		t.Errorf("Named.name: %s, want %s", got, want)
	}
	// Object.equals on a Square: the model's.
	sq := tab.class("Square")
	cases, _ = tab.dispatch(sq, tab.resolveMethod(sq, "equals", "(Ljava/lang/Object;)Z"))
	if got := caseString(cases); got != "java/lang/Object:java/lang/Object.equals" {
		t.Errorf("Square.equals: %s", got)
	}
	for _, n := range []string{"Square", "Circle"} {
		if !tab.reachable(tab.class(n).declared("area", "()I")) {
			t.Errorf("%s.area not reachable", n)
		}
	}
	if tab.reachable(tab.class("Circle").declared("name", "()I")) {
		t.Error("Circle.name reachable without a call")
	}
}

func TestRTAOnlyReachableNews(t *testing.T) {
	// Circle's only new is in an unreachable method: Shape.area has one
	// target, Square's.
	tab := build(t, hierarchy("new Square", "invokevirtual Shape.area()I", "return")...)
	tab.analyze(tab.class("Main").declared("main", "([Ljava/lang/String;)V"))
	shape := tab.class("Shape")
	cases, _ := tab.dispatch(shape, tab.resolveMethod(shape, "area", "()I"))
	if got := caseString(cases); got != "Square:Square.area" {
		t.Errorf("Shape.area: %s", got)
	}
	if tab.class("Circle").instantiated || tab.reachable(tab.class("Circle").declared("area", "()I")) {
		t.Error("Circle instantiated or Circle.area reached")
	}
	if tab.reachable(tab.class("Main").declared("unused", "()V")) {
		t.Error("unused reached")
	}
	// A virtual call seen before the new: the target still joins.
	tab = build(t, hierarchy("invokevirtual Shape.area()I", "invokestatic Main.unused()V", "return")...)
	tab.analyze(tab.class("Main").declared("main", "([Ljava/lang/String;)V"))
	if !tab.reachable(tab.class("Circle").declared("area", "()I")) {
		t.Error("Circle.area not reached after a later new")
	}
	// Implicit exceptions: a virtual call may throw NullPointerException.
	if !tab.class("java/lang/NullPointerException").instantiated {
		t.Error("NullPointerException not instantiated")
	}
}

func TestThreadStartReachesRun(t *testing.T) {
	tab := build(t,
		newClass("W", "java/lang/Thread", 0).method("run()V", 0, "return"),
		newClass("R", objectClass, 0, "java/lang/Runnable").method("run()V", 0, "return"),
		newClass("Main", objectClass, 0).method("main([Ljava/lang/String;)V", classfile.AccStatic,
			"new W", "new R", "new java/lang/Thread", "invokevirtual java/lang/Thread.start()V", "return"),
	)
	tab.analyze(tab.class("Main").declared("main", "([Ljava/lang/String;)V"))
	for _, c := range []string{"W", "R"} {
		if !tab.reachable(tab.class(c).declared("run", "()V")) {
			t.Errorf("%s.run not reached from Thread.start", c)
		}
	}
	th := tab.class("java/lang/Thread")
	cases, _ := tab.dispatch(th, tab.resolveMethod(th, "run", "()V"))
	if got := caseString(cases); got != "W:W.run java/lang/Thread:java/lang/Thread.run" {
		t.Errorf("Thread.run: %s", got)
	}
	checkDecls(t, tab)
}

func TestPackagePrivateOverride(t *testing.T) {
	// q.B declares m() like p.A's package-private m(): no override (§5.4.5).
	tab := build(t,
		newClass("p/A", objectClass, 0).method("m()V", 0, "return"),
		newClass("q/B", "p/A", 0).method("m()V", classfile.AccPublic, "return"),
		newClass("p/C", "q/B", 0).method("m()V", classfile.AccPublic, "return"),
	)
	a, b, c := tab.class("p/A"), tab.class("q/B"), tab.class("p/C")
	mr := tab.resolveMethod(a, "m", "()V")
	if got := selectMethod(b, mr); got.class != a {
		t.Errorf("B selects %s.m, want p.A's", got.class.name)
	}
	if got := selectMethod(c, mr); got.class != c {
		t.Errorf("C selects %s.m, want p.C's", got.class.name)
	}
}

func TestResolveSpecialSuper(t *testing.T) {
	tab := build(t,
		newClass("A", objectClass, 0).method("m()V", 0, "return"),
		newClass("B", "A", 0),
		newClass("C", "B", 0).method("m()V", 0, "invokespecial B.m()V", "return"),
	)
	m := tab.resolveSpecial(tab.class("C"), tab.class("B"), "m", "()V")
	if m == nil || m.class.name != "A" {
		t.Errorf("super.m() from C runs %v, want A.m", m)
	}
	if m := tab.resolveSpecial(tab.class("C"), tab.class("A"), "<init>", "()V"); m == nil || m.class.name != objectClass {
		t.Errorf("A.<init> resolves to %v, want Object's", m)
	}
}

func TestArraysAndSites(t *testing.T) {
	tab := build(t, newClass("A", objectClass, 0).field("b:[Z").field("c:[[C").field("o:[LA;").method("m()V", 0, "return"))
	tab.use(tab.class("A"))
	m := tab.class("A").methods[0].cf
	s1 := tab.newSite(m, 0, tab.class("A"))
	a, _ := tab.arrayOf(classfile.Type{Kind: 'I'})
	s2 := tab.arraySite(m, 3, 0, a)
	s3 := tab.arraySite(m, 7, 1, a)
	if s1.coll != "A_c1" || s2.coll != "int32_arr_c2" || s3.coll != "int32_arr_c3_1" || tab.newSite(m, 0, tab.class("A")) != s1 {
		t.Errorf("sites %s %s %s", s1.coll, s2.coll, s3.coll)
	}
	decls := checkDecls(t, tab)
	for _, want := range []string{
		"A = record { b : int8_arr_ref; c : uint16_arr_arr_ref; o : JObject_arr_ref; };",
		"uint16_arr_arr = array [8] of uint16_arr_ref;",
		"JObject_arr = array [8] of JObject_ref;",
		"A_c1 : collection [4] of A;", "int32_arr_c2 : collection [4] of int32_arr;",
		"int32_arr_c3_1 : collection [32] of int32_arr;",
	} {
		if !strings.Contains(decls, want) {
			t.Errorf("declarations lack %q:\n%s", want, decls)
		}
	}
}

// CheckJavacHierarchy tests the class table of testdata/heap/Shapes.java
// (its classes compiled by javac, package heaptest): the external test
// TestJavacHierarchy calls it with the classes of the package's one javac
// run.
func CheckJavacHierarchy(t *testing.T, cfs []*classfile.Class) {
	tab := newClassTable(cfs, 0, 0, map[string]bool{})
	tab.nameProgram(nil)
	if len(tab.errs) > 0 {
		t.Fatal(tab.errs)
	}
	tab.analyze(tab.class("heaptest/Shapes").declared("main", "([Ljava/lang/String;)V"))
	shape, named := tab.class("heaptest/Shape"), tab.class("heaptest/Named")
	cases, bad := tab.dispatch(shape, tab.resolveMethod(shape, "area", "()I"))
	if got, want := caseString(cases), "heaptest/Circle:heaptest/Circle.area heaptest/Square:heaptest/Square.area"; got != want || bad != nil {
		t.Errorf("Shape.area: %s, want %s", got, want)
	}
	cases, _ = tab.dispatch(named, tab.resolveMethod(named, "name", "()I"))
	if got, want := caseString(cases), "heaptest/Cube:heaptest/Named.name heaptest/Circle:heaptest/Circle.name heaptest/Square:heaptest/Named.name"; got != want {
		t.Errorf("Named.name: %s, want %s", got, want)
	}
	if tab.class("heaptest/Unused").instantiated {
		t.Error("Unused instantiated")
	}
	if !tab.reachable(tab.class("heaptest/Cube").declared("<init>", "()V")) {
		t.Error("Cube.<init> not reached")
	}
	tab.use(tab.class("heaptest/Cube"))
	decls := checkDecls(t, tab)
	if f := tab.resolveField(tab.class("heaptest/Cube"), "made", "I"); f == nil || f.class.name != "heaptest/Cube" || f.typ != "int32" {
		t.Errorf("Cube.made resolves to %+v", f)
	}
	for _, want := range []string{
		"Cube = record { id : int32; side : int32; depth : int32; };\nCube extends Square;\n",
	} {
		if !strings.Contains(decls, want) {
			t.Errorf("declarations lack %q:\n%s", want, decls)
		}
	}
}

func TestJoinRef(t *testing.T) {
	tab := build(t, hierarchy()...)
	a, _ := tab.arrayOf(classfile.Type{Kind: 'I'})
	for _, tc := range []struct{ a, b, want string }{
		{"Square_ref", "Circle_ref", "Shape_ref"},
		{"Cube_ref", "Square_ref", "Square_ref"},
		{"null", "Cube_ref", "Cube_ref"},
		{"Cube_ref", "JObject_ref", "JObject_ref"},
		{"Square_ref", a.ref, ""},
		{a.ref, a.ref, a.ref},
	} {
		if got := tab.joinRef(tc.a, tc.b); got != tc.want {
			t.Errorf("joinRef(%s, %s) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestClassTableRandom builds random hierarchies, malformed ones too
// (cycles, an interface as a superclass, unknown classes, a class
// defined twice, fields of every type), and asks the table every
// question the lowering asks: nothing panics or hangs, the declarations
// check, and every dispatch case of a call selects what the JVM's
// selection gives for an instantiated receiver.
func TestClassTableRandom(t *testing.T) {
	descs := []string{"I", "J", "Z", "B", "C", "S", "D", "[I", "[[J", "LC0;", "LC1;", "LI0;", "Ljava/lang/Object;", "Ljava/util/List;", "[LC2;"}
	compared, multi := 0, 0
	for seed := int64(0); seed < 500; seed++ {
		r := rand.New(rand.NewSource(seed))
		n := 2 + r.Intn(6)
		name := func(i int) string {
			if i%3 == 2 {
				return fmt.Sprintf("I%d", i)
			}
			return fmt.Sprintf("C%d", i)
		}
		pick := func() string {
			switch k := r.Intn(n + 3); {
			case k < n:
				return name(k)
			case k == n:
				return objectClass
			case k == n+1:
				return "java/lang/Thread"
			}
			return "java/util/Missing"
		}
		var hs []*hclass
		for i := 0; i < n; i++ {
			var access uint16
			if i%3 == 2 {
				access = classfile.AccInterface | classfile.AccAbstract
			}
			h := newClass(name(i), pick(), access)
			if r.Intn(3) == 0 {
				h.cf.Interfaces = append(h.cf.Interfaces, name(r.Intn(n)))
			}
			for f := r.Intn(3); f > 0; f-- {
				h.field(fmt.Sprintf("f%d:%s", r.Intn(3), descs[r.Intn(len(descs))]))
			}
			var code []string
			for c := r.Intn(4); c > 0; c-- {
				switch r.Intn(3) {
				case 0:
					code = append(code, "new "+pick())
				case 1:
					code = append(code, "invokevirtual "+pick()+".m()V")
				default:
					code = append(code, "invokeinterface "+pick()+".m()V")
				}
			}
			h.method("m()V", 0, append(code, "return")...)
			if i == 0 {
				h.method("main([Ljava/lang/String;)V", classfile.AccStatic, append(code, "new C1", "invokevirtual C1.m()V", "return")...)
			}
			hs = append(hs, h)
			if r.Intn(10) == 0 {
				hs = append(hs, newClass(name(i), objectClass, 0)) // defined twice
			}
		}
		tab := build(t, hs...)
		if mc := tab.class("C0"); mc != nil {
			tab.analyze(mc.declared("main", "([Ljava/lang/String;)V"))
		}
		for _, c := range tab.all() {
			tab.use(c)
		}
		checkDecls(t, tab)
		for _, c := range tab.all() {
			mr := tab.resolveMethod(c, "m", "()V")
			if mr == nil {
				continue
			}
			cases, bad := tab.dispatch(c, mr)
			for _, x := range tab.instantiatedClasses() {
				if !x.isSubclassOf(c) || slices.Contains(bad, x) {
					continue
				}
				// the first case whose guard x passes runs what the JVM
				// selects
				var got *jmethod
				for i, dc := range cases {
					if i == len(cases)-1 || x.isSubclassOf(dc.guard) {
						got = dc.method
						break
					}
				}
				compared++
				if len(cases) > 1 {
					multi++
				}
				if want := selectMethod(x, mr); got != want {
					t.Errorf("seed %d: %s.m on a %s runs %v, the JVM selects %v", seed, c.name, x.name, got, want)
				}
			}
		}
	}
	t.Logf("%d receivers compared, %d with several cases", compared, multi)
	if compared < 100 || multi < 20 {
		t.Errorf("only %d receivers compared, %d with several cases: the generator exercises too little", compared, multi)
	}
}

// TestInterfaceLattice: a lattice of interfaces, each extending the two
// before it (2^n paths from the last to the first), resolves and
// dispatches at once (every subtype test walked every path before).
func TestInterfaceLattice(t *testing.T) {
	const n = 60
	hs := []*hclass{newClass("J0", objectClass, classfile.AccInterface|classfile.AccAbstract).method("m()V", 0, "return")}
	for i := 1; i < n; i++ {
		supers := []string{fmt.Sprintf("J%d", i-1)}
		if i > 1 {
			supers = append(supers, fmt.Sprintf("J%d", i-2))
		}
		hs = append(hs, newClass(fmt.Sprintf("J%d", i), objectClass, classfile.AccInterface|classfile.AccAbstract, supers...))
	}
	hs = append(hs, newClass("C", objectClass, 0, fmt.Sprintf("J%d", n-1)).method("m()V", 0, "return"),
		newClass("Main", objectClass, 0).method("main([Ljava/lang/String;)V", classfile.AccStatic,
			"new C", "invokeinterface J0.m()V", "return"))
	tab := build(t, hs...)
	tab.analyze(tab.class("Main").declared("main", "([Ljava/lang/String;)V"))
	j0 := tab.class("J0")
	cases, _ := tab.dispatch(j0, tab.resolveMethod(j0, "m", "()V"))
	if got := caseString(cases); got != "C:C.m" {
		t.Errorf("J0.m: %s, want C:C.m", got)
	}
	c, last := tab.class("C"), tab.class(fmt.Sprintf("J%d", n-1))
	if !c.isSubclassOf(j0) || tab.class("J1").isSubclassOf(last) || last.isSubclassOf(c) {
		t.Error("the lattice's subtypes are wrong")
	}
	if f := tab.resolveField(c, "missing", "I"); f != nil {
		t.Errorf("C.missing resolves to %v", f)
	}
}
