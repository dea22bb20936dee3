package java

// The class table: the classes and interfaces of the program and of
// birch's model of java.lang (jlang.go), their BIR records, field and
// method resolution (JVM SE 17 §5.4.3.2–§5.4.3.4), method selection
// (§5.4.6), and the BIR declarations of the heap: records with their
// superclass's fields as a prefix (docs/bir.md §6), reference types, one
// collection per allocation site and static fields as globals.

import (
	"fmt"
	"sort"
	"strings"

	"birch/internal/frontend/java/classfile"
	"birch/internal/source"
)

// Internal names of the classes the table treats specially.
const (
	objectClass = "java/lang/Object"
	// rootRecord is the BIR record of java.lang.Object.
	rootRecord = "JObject"
	// monField is the monitor of every object when the program uses
	// monitors.
	monField = "$mon"
)

// A jclass is a class or interface of the program or of birch's model of
// java.lang.
type jclass struct {
	name   string           // internal name, "pkg/Foo"
	cf     *classfile.Class // nil for a class of the java.lang model
	access uint16
	super  *jclass   // nil only for java.lang.Object
	ifaces []*jclass // direct superinterfaces
	// bir is the BIR record's name (for an interface, the prefix of its
	// static fields' globals; interfaces have no record).
	bir string
	// ref is the BIR type of a reference to the class: bir_ref, or
	// JObject_ref for an interface.
	ref     string
	fields  []*jfield  // declared fields, instance and static, in order
	layout  []*jfield  // the record's fields: the superclass's layout, then this class's
	methods []*jmethod // declared methods, in order
	depth   int        // java.lang.Object is 0, its subclasses 1, ...
	// used: the declarations of a model class are emitted (every
	// program class is emitted).
	used bool
	// instantiated: an object of the class may exist (a reachable new,
	// or an object the JVM or the model creates).
	instantiated bool
	subs         []*jclass        // direct subclasses and, for an interface, direct subinterfaces and implementing classes
	supers       map[*jclass]bool // supertypes' memo
	// problems are the class's unsupported constructs (an unknown
	// superclass, ...), reported once the lowering uses the class
	problems []string
}

func (c *jclass) isInterface() bool { return c.access&classfile.AccInterface != 0 }
func (c *jclass) isAbstract() bool  { return c.access&classfile.AccAbstract != 0 }

// javaName is the binary name, "pkg.Foo".
func (c *jclass) javaName() string { return strings.ReplaceAll(c.name, "/", ".") }

// pkg is the class's runtime package (internal form, "" for the unnamed
// package).
func (c *jclass) pkg() string {
	if i := strings.LastIndexByte(c.name, '/'); i >= 0 {
		return c.name[:i]
	}
	return ""
}

// isSubclassOf reports whether c is d or a subtype of d (classes and
// interfaces).
func (c *jclass) isSubclassOf(d *jclass) bool {
	return d.name == objectClass || c.supertypes()[d]
}

// supertypes is the set of c and all its superclasses and
// superinterfaces, computed once (the hierarchy is acyclic once link has
// cut its cycles; a lattice of interfaces costs no more than its edges).
func (c *jclass) supertypes() map[*jclass]bool {
	if c.supers == nil {
		c.supers = map[*jclass]bool{c: true}
		var up []*jclass
		if c.super != nil {
			up = append(up, c.super)
		}
		for _, s := range append(up, c.ifaces...) {
			for k := range s.supertypes() {
				c.supers[k] = true
			}
		}
	}
	return c.supers
}

// A jfield is a field of a class.
type jfield struct {
	class  *jclass
	name   string // the Java name
	desc   string // the descriptor; "" for a model field with a BIR type of its own
	access uint16
	cf     *classfile.Field // nil for a model field
	// bir is the record field's name (instance) or the global's (static).
	bir string
	// typ is the BIR type of the field's values.
	typ string
	// unsupported says why the field's type is not lowered ("" if it
	// is); its record holds an int64 in its place, and an access is
	// reported.
	unsupported string
}

func (f *jfield) isStatic() bool { return f.access&classfile.AccStatic != 0 }

// A jmethod is a method of a class.
type jmethod struct {
	class  *jclass
	name   string
	desc   string
	access uint16
	cf     *classfile.Method // nil for a method of the java.lang model
}

func (m *jmethod) isStatic() bool   { return m.access&classfile.AccStatic != 0 }
func (m *jmethod) isPrivate() bool  { return m.access&classfile.AccPrivate != 0 }
func (m *jmethod) isAbstract() bool { return m.access&classfile.AccAbstract != 0 }

// isModel reports whether the method belongs to birch's model of
// java.lang (its lowering is jlang.go's or another lane's, not a BIR
// function).
func (m *jmethod) isModel() bool { return m.class.cf == nil }

// String is the Java form, "bank.Account.deposit(int)".
func (m *jmethod) String() string {
	params, _, err := classfile.ParseMethodType(m.desc)
	var ps []string
	if err == nil {
		for _, p := range params {
			ps = append(ps, p.String())
		}
	}
	return m.class.javaName() + "." + m.name + "(" + strings.Join(ps, ", ") + ")"
}

// An allocSite is a new, newarray, anewarray or multianewarray
// instruction: its objects come from a collection of their own.
type allocSite struct {
	pc   int
	n    int    // the site number, from 1
	coll string // the collection's BIR name
	elem string // the collection's element type: a record or an array type
	// bound is the collection's bound.
	bound int
}

// An arrayType is the BIR array type of one Java array type.
type arrayType struct {
	name string // "int32_arr"
	ref  string // "int32_arr_ref"
	elem string // the BIR type of its elements
	used bool
}

// classTable holds every class of the program and of the model.
type classTable struct {
	classes map[string]*jclass
	// program is the program's classes sorted by name; model the model's
	// in jlang.go's order.
	program, model []*jclass
	// names is BIR's global name space (the lowering's): constants,
	// types, collections and globals
	names          map[string]bool
	maxObjects     int
	maxArrayLength int
	// monitors: the program uses monitors (synchronized, wait, notify),
	// so every object has the field $mon.
	monitors bool
	errs     source.ErrorList // (report's default)
	// pos gives the Java position of an instruction (pc -1: the method;
	// m nil: the class). Set by the lowering; classPos by default.
	pos func(c *jclass, m *jmethod, pc int) source.Position

	sites     map[siteKey]*allocSite
	siteList  []*allocSite
	nsites    int                   // the numbers given to sites
	arrays    map[string]*arrayType // by the element's BIR type
	arrayList []*arrayType
	// emit adds a top-level declaration once per key (the lowering's
	// decl; by default out)
	emit func(key, text string)
	out  []string
	seen map[string]bool
	// report records an unsupported construct (the lowering's errors;
	// by default errs)
	report func(pos source.Position, msg string)

	rta *rta
	// strings are the globals of the interned string constants, by text
	strings map[string]string
	// programNamed: nameProgram has run (heapOf)
	programNamed bool

	byRef   map[string]*jclass    // classes by their reference type (not interfaces)
	arrRefs map[string]*arrayType // array types by their reference type
}

type siteKey struct {
	m   *classfile.Method
	pc  int
	dim int // multianewarray: the dimension (0 is the outermost array)
}

// newClassTable builds the table of the given program classes and the
// java.lang model, and names the model's records; nameProgram names the
// program's. Problems (an unknown superclass, floating-point fields, a
// class defined twice) are reported (report) where the lowering first
// uses the class.
func newClassTable(classes []*classfile.Class, maxObjects, maxArrayLength int, names map[string]bool) *classTable {
	if maxObjects <= 0 {
		maxObjects = DefaultMaxObjects
	}
	if maxArrayLength <= 0 {
		maxArrayLength = DefaultMaxArrayLength
	}
	t := &classTable{
		classes:        map[string]*jclass{},
		names:          names,
		maxObjects:     maxObjects,
		maxArrayLength: maxArrayLength,
		sites:          map[siteKey]*allocSite{},
		arrays:         map[string]*arrayType{},
		strings:        map[string]string{},
		byRef:          map[string]*jclass{},
		arrRefs:        map[string]*arrayType{},
	}
	t.pos = t.defaultPos
	t.seen = map[string]bool{}
	t.emit = func(key, text string) {
		if !t.seen[key] {
			t.seen[key] = true
			t.out = append(t.out, text)
		}
	}
	t.report = func(pos source.Position, msg string) { t.errs.Add(pos, msg) }
	for _, cf := range classes {
		if cf == nil || cf.Name == "module-info" {
			continue
		}
		if prev := t.classes[cf.Name]; prev != nil {
			t.errorf(nil, nil, -1, "class %s is defined twice", strings.ReplaceAll(cf.Name, "/", "."))
			continue
		}
		c := &jclass{name: cf.Name, cf: cf, access: cf.Access}
		t.classes[cf.Name] = c
		t.program = append(t.program, c)
	}
	sort.Slice(t.program, func(i, j int) bool { return t.program[i].name < t.program[j].name })
	for _, mc := range javaLang {
		if t.classes[mc.name] != nil {
			// The program brings its own java.lang class: not supported
			// (javac refuses to compile into java.lang anyway).
			t.errorf(t.classes[mc.name], nil, -1, "class %s is part of birch's model of java.lang and cannot be redefined", strings.ReplaceAll(mc.name, "/", "."))
			continue
		}
		c := &jclass{name: mc.name, access: mc.access | classfile.AccPublic}
		t.classes[mc.name] = c
		t.model = append(t.model, c)
	}
	t.monitors = usesMonitors(t.program)
	t.link()
	t.nameModel()
	return t
}

// class returns the class of an internal name, nil if neither the
// program nor the model has it.
func (t *classTable) class(name string) *jclass { return t.classes[name] }

// errorf records an unsupported construct at the position of pc in m of c.
func (t *classTable) errorf(c *jclass, m *jmethod, pc int, format string, args ...any) {
	t.report(t.pos(c, m, pc), fmt.Sprintf(format, args...))
}

// classProblem records an unsupported construct of class c, reported at
// the class (its first line) when the lowering uses c.
func (t *classTable) classProblem(c *jclass, format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// defaultPos is the position of pc in m (its line), of m (its first
// line) or of c (its first method's first line), in the class's source
// file.
func (t *classTable) defaultPos(c *jclass, m *jmethod, pc int) source.Position {
	p := source.Position{Filename: "?", Line: 1, Column: 1}
	if c == nil && m != nil {
		c = m.class
	}
	if c == nil {
		return p
	}
	if c.cf != nil && c.cf.SourceFile != "" {
		p.Filename = c.cf.SourceFile
		if pk := c.pkg(); pk != "" {
			p.Filename = pk + "/" + c.cf.SourceFile
		}
	} else {
		p.Filename = c.javaName()
	}
	line := 0
	if m != nil && m.cf != nil && m.cf.Code != nil {
		if pc >= 0 {
			line = m.cf.Code.LineAt(pc)
		} else if len(m.cf.Code.Lines) > 0 {
			line = m.cf.Code.Lines[0].Line
		}
	}
	if line == 0 && m == nil && c.cf != nil {
		for _, cm := range c.cf.Methods {
			if cm.Code != nil && len(cm.Code.Lines) > 0 {
				if l := cm.Code.Lines[0].Line; line == 0 || l < line {
					line = l
				}
			}
		}
	}
	if line > 0 {
		p.Line = line
	}
	return p
}

// link connects every class to its superclass and interfaces and
// declares its fields and methods.
func (t *classTable) link() {
	for _, mc := range javaLang {
		c := t.classes[mc.name]
		if c == nil || c.cf != nil {
			continue
		}
		if mc.super != "" {
			c.super = t.classes[mc.super]
		} else if mc.name != objectClass {
			c.super = t.classes[objectClass]
		}
		for _, i := range mc.ifaces {
			c.ifaces = append(c.ifaces, t.classes[i])
		}
		for _, f := range mc.fields {
			c.fields = append(c.fields, &jfield{class: c, name: f.name, desc: f.desc, access: f.access | classfile.AccPublic, typ: f.bir})
		}
		for _, m := range mc.methods {
			name, desc, _ := strings.Cut(m.sig, "(")
			c.methods = append(c.methods, &jmethod{class: c, name: name, desc: "(" + desc, access: m.access | classfile.AccPublic})
		}
	}
	for _, c := range t.program {
		cf := c.cf
		if cf.Super == "" {
			t.classProblem(c, "class %s has no superclass", c.javaName())
		} else if s := t.classes[cf.Super]; s == nil {
			t.classProblem(c, "class %s extends %s, which is outside birch's model of the Java library", c.javaName(), strings.ReplaceAll(cf.Super, "/", "."))
		} else if s.isInterface() {
			t.classProblem(c, "class %s extends the interface %s", c.javaName(), s.javaName())
		} else if c.isInterface() && s.name != objectClass {
			// JVM 4.1: an interface's superclass is Object (so that no
			// cycle runs through interfaces and classes)
			t.classProblem(c, "the interface %s has the superclass %s", c.javaName(), s.javaName())
			c.super = t.classes[objectClass]
		} else {
			c.super = s
		}
		for _, in := range cf.Interfaces {
			switch i := t.classes[in]; {
			case i == nil:
				t.classProblem(c, "class %s implements %s, which is outside birch's model of the Java library", c.javaName(), strings.ReplaceAll(in, "/", "."))
			case !i.isInterface():
				t.classProblem(c, "class %s implements the class %s", c.javaName(), i.javaName())
			default:
				c.ifaces = append(c.ifaces, i)
			}
		}
		for _, f := range cf.Fields {
			c.fields = append(c.fields, &jfield{class: c, name: f.Name, desc: f.Descriptor, access: f.Access, cf: f})
		}
		for _, m := range cf.Methods {
			c.methods = append(c.methods, &jmethod{class: c, name: m.Name, desc: m.Descriptor, access: m.Access, cf: m})
		}
	}
	// Cycles (impossible from javac, possible in hand-made class files)
	// are cut where they close.
	for _, c := range t.all() {
		seen := map[*jclass]bool{c: true}
		for s := c.super; s != nil; s = s.super {
			if seen[s] {
				t.errorf(c, nil, -1, "the superclasses of %s form a cycle", c.javaName())
				c.super = nil
				break
			}
			seen[s] = true
		}
		c.ifaces = t.acyclicIfaces(c)
	}
	for _, c := range t.all() {
		if c.super != nil {
			c.super.subs = append(c.super.subs, c)
		}
		for _, i := range c.ifaces {
			i.subs = append(i.subs, c)
		}
		for s := c.super; s != nil; s = s.super {
			c.depth++
		}
	}
}

// acyclicIfaces is c's interfaces without those that lead back to c.
func (t *classTable) acyclicIfaces(c *jclass) []*jclass {
	var keep []*jclass
	for _, i := range c.ifaces {
		if reaches(i, c, map[*jclass]bool{}) {
			t.errorf(c, nil, -1, "the superinterfaces of %s form a cycle", c.javaName())
			continue
		}
		keep = append(keep, i)
	}
	return keep
}

func reaches(from, to *jclass, seen map[*jclass]bool) bool {
	if from == to {
		return true
	}
	if seen[from] {
		return false
	}
	seen[from] = true
	for _, i := range from.ifaces {
		if reaches(i, to, seen) {
			return true
		}
	}
	return false
}

// all lists the program's classes, then the model's.
func (t *classTable) all() []*jclass {
	out := make([]*jclass, 0, len(t.program)+len(t.model))
	return append(append(out, t.program...), t.model...)
}

// usesMonitors reports whether a program synchronizes, waits or
// notifies anywhere.
func usesMonitors(program []*jclass) bool {
	for _, c := range program {
		for _, m := range c.cf.Methods {
			if m.Access&classfile.AccSynchronized != 0 {
				return true
			}
			if m.Code == nil {
				continue
			}
			for _, in := range m.Code.Insns {
				switch in.Op {
				case classfile.Monitorenter, classfile.Monitorexit:
					return true
				case classfile.Invokevirtual, classfile.Invokeinterface, classfile.Invokespecial:
					if _, name, desc, _, ok := c.cf.MemberAt(in.Index); ok && isMonitorMethod(name, desc) {
						return true
					}
				}
			}
		}
	}
	return false
}

// isMonitorMethod reports whether name and desc are one of
// java.lang.Object's wait and notify methods.
func isMonitorMethod(name, desc string) bool {
	switch name + desc {
	case "wait()V", "wait(J)V", "wait(JI)V", "notify()V", "notifyAll()V":
		return true
	}
	return false
}

// nameModel names the model's records (before the lowering names the
// program's classes, so that java.lang.Object's is JObject): the simple
// name, or the package-prefixed one where a program class has the simple
// name.
func (t *classTable) nameModel() {
	simple := map[string]bool{}
	for _, c := range t.program {
		simple[simpleName(c.name)] = true
	}
	for _, c := range t.model {
		base := simpleName(c.name)
		switch {
		case c.name == objectClass:
			base = rootRecord
		case simple[base]:
			base = c.name
		}
		c.bir = t.take(birName(base))
	}
}

// nameProgram names the program's records: progName's names (the
// lowering's), or the simple name, package-prefixed where two classes
// share it or it is taken; then every class's reference type, and lays
// out the records.
func (t *classTable) nameProgram(progName func(internal string) string) {
	simple := map[string]int{}
	for _, c := range t.program {
		simple[birName(simpleName(c.name))]++
	}
	for _, c := range t.program {
		if progName != nil {
			if c.bir = progName(c.name); c.bir != "" {
				continue
			}
		}
		base := birName(simpleName(c.name))
		if simple[base] > 1 || t.names[base] {
			base = birName(c.name)
		}
		c.bir = t.take(base)
	}
	for _, c := range t.all() {
		if !c.isInterface() {
			c.ref = t.take(c.bir + "_ref")
			t.byRef[c.ref] = c
		}
	}
	for _, c := range t.all() {
		if c.isInterface() {
			c.ref = t.classes[objectClass].ref
		}
	}
	t.layoutAll()
}

// layoutAll lays out every class's record, superclasses first, and gives
// every field its BIR type.
func (t *classTable) layoutAll() {
	done := map[*jclass]bool{}
	var lay func(c *jclass)
	lay = func(c *jclass) {
		if done[c] {
			return
		}
		done[c] = true
		if c.super != nil {
			lay(c.super)
			c.layout = append(c.layout, c.super.layout...)
		}
		taken := map[string]bool{"length": true, "end": true}
		for _, f := range c.layout {
			taken[f.bir] = true
		}
		if c.name == objectClass && t.monitors {
			c.layout = append(c.layout, &jfield{class: c, name: monField, bir: monField, typ: "lock wait reentrant"})
			taken[monField] = true
		}
		for _, f := range c.fields {
			if f.typ == "" {
				typ, err := t.fieldType(f.desc)
				if err != nil {
					f.unsupported = fmt.Sprintf("the field %s.%s: %v", c.javaName(), f.name, err)
					typ = "int64"
				}
				f.typ = typ
			}
			if f.isStatic() {
				continue
			}
			if c.isInterface() {
				continue // javac never gives an interface instance fields
			}
			base := birName(f.name)
			if base == "length" || base == "end" {
				base += "_"
			}
			name := base
			for i := 2; taken[name]; i++ {
				name = fmt.Sprintf("%s_%d", base, i)
			}
			taken[name] = true
			f.bir = name
			c.layout = append(c.layout, f)
		}
	}
	for _, c := range t.all() {
		lay(c)
	}
}

// fieldType is the BIR type of a field or array element of the given
// descriptor.
func (t *classTable) fieldType(desc string) (string, error) {
	ty, err := classfile.ParseFieldType(desc)
	if err != nil {
		return "", err
	}
	return t.valueType(ty)
}

// valueType is the BIR type of a Java value of type ty: int -> int32,
// long -> int64, short -> int16, byte -> int8, char -> uint16, boolean ->
// jboolean; a class -> its reference type (an interface or a class outside
// the model -> JObject_ref); an array -> its array's reference type.
// Floating point is an error. The type's declarations are not emitted
// (useType does).
func (t *classTable) valueType(ty classfile.Type) (string, error) {
	switch ty.Kind {
	case 'I':
		return "int32", nil
	case 'J':
		return "int64", nil
	case 'S':
		return "int16", nil
	case 'B':
		return "int8", nil
	case 'C':
		return "uint16", nil
	case 'Z':
		return "jboolean", nil
	case 'F', 'D':
		return "", fmt.Errorf("floating point (%s) is not supported", ty)
	case 'L':
		if c := t.classes[ty.Class]; c != nil {
			return c.ref, nil
		}
		return t.classes[objectClass].ref, nil
	case '[':
		if ty.Elem == nil {
			return "", fmt.Errorf("an array type without element type")
		}
		a, err := t.arrayOf(*ty.Elem)
		if err != nil {
			return "", err
		}
		return a.ref, nil
	}
	return "", fmt.Errorf("unexpected type %q", string(ty.Kind))
}

// refType is the BIR type of a reference to an object of class c (for an
// interface, JObject_ref), its declarations emitted.
func (t *classTable) refType(c *jclass) string {
	t.use(c)
	return c.ref
}

// use emits the declarations of c's record (with its superclasses' and
// those of the types its fields name) once, and reports the class's
// problems.
func (t *classTable) use(c *jclass) {
	if c == nil || c.used {
		return
	}
	c.used = true
	for _, p := range c.problems {
		t.report(t.pos(c, nil, -1), p)
	}
	if c.isInterface() {
		t.use(t.classes[objectClass])
		return
	}
	t.use(c.super)
	var w strings.Builder
	fmt.Fprintf(&w, "%s = record {", c.bir)
	for _, f := range c.layout {
		fmt.Fprintf(&w, " %s : %s;", f.bir, f.typ)
	}
	super := "Object"
	if c.super != nil {
		super = c.super.bir
	}
	fmt.Fprintf(&w, " };\n%s extends %s;\n%s = ref %s;", c.bir, super, c.ref, c.bir)
	t.emit("record "+c.name, w.String())
	for _, f := range c.layout {
		t.useType(f.typ)
	}
}

// useType emits the declarations a BIR type of the table names.
func (t *classTable) useType(typ string) {
	switch {
	case typ == "jboolean":
		t.emit("jboolean", "jboolean = range 0..1;")
	case t.byRef[typ] != nil:
		t.use(t.byRef[typ])
	case t.arrRefs[typ] != nil:
		a := t.arrRefs[typ]
		if !a.used {
			a.used = true
			t.emit("array "+a.name, fmt.Sprintf("%s = array [%d] of %s;\n%s = ref %s;", a.name, t.maxArrayLength, a.elem, a.ref, a.name))
			t.useType(a.elem)
		}
	}
}

// arrayOf is the BIR array type whose elements are Java values of type
// elem. Arrays of booleans and bytes share int8 elements (baload and
// bastore serve both); arrays of objects of any class hold JObject_ref
// (Java's arrays are covariant; a read is narrowed where it is used).
func (t *classTable) arrayOf(elem classfile.Type) (*arrayType, error) {
	var et string
	switch elem.Kind {
	case 'Z', 'B':
		et = "int8"
	case 'L':
		et = t.classes[objectClass].ref
	default:
		var err error
		if et, err = t.valueType(elem); err != nil {
			return nil, err
		}
	}
	if a := t.arrays[et]; a != nil {
		return a, nil
	}
	base := strings.TrimSuffix(et, "_ref") + "_arr"
	a := &arrayType{name: t.take(base), elem: et}
	a.ref = t.take(a.name + "_ref")
	t.arrays[et] = a
	t.arrRefs[a.ref] = a
	return a, nil
}

// site is the allocation site of the new, newarray, anewarray or
// multianewarray instruction at pc of m (dim: the dimension of a
// multianewarray, 0 otherwise), with its collection, numbered in the
// order sites are first asked for; elem is the collection's element type
// (a record or an array type), already declared.
func (t *classTable) site(m *classfile.Method, pc, dim int, elem string) *allocSite {
	k := siteKey{m, pc, dim}
	if s := t.sites[k]; s != nil {
		return s
	}
	var n int
	if outer := t.sites[siteKey{m, pc, 0}]; dim > 0 && outer != nil {
		n = outer.n // the levels of one multianewarray share its number
	} else {
		t.nsites++
		n = t.nsites
	}
	s := &allocSite{pc: pc, n: n, elem: elem, bound: t.maxObjects}
	suffix := fmt.Sprintf("_c%d", n)
	if m == nil {
		s.bound = 1 // main's args
	}
	if dim > 0 {
		// the arrays of level dim of one multianewarray: up to
		// MaxArrayLength per array of the level above (a program that
		// allocates more reaches the collection's limit)
		for k := 0; k < dim && s.bound < maxLevelArrays; k++ {
			s.bound *= t.maxArrayLength
		}
		s.bound = min(s.bound, maxLevelArrays)
		suffix = fmt.Sprintf("_c%d_%d", n, dim)
	}
	s.coll = t.take(elem + suffix)
	t.sites[k] = s
	t.siteList = append(t.siteList, s)
	t.emit("collection "+s.coll, fmt.Sprintf("%s : collection [%d] of %s;", s.coll, s.bound, s.elem))
	return s
}

// maxLevelArrays bounds the collection of one level of a multianewarray.
const maxLevelArrays = 1024

// newSite is the collection of the objects of class c allocated at pc of
// m.
func (t *classTable) newSite(m *classfile.Method, pc int, c *jclass) *allocSite {
	t.use(c)
	return t.site(m, pc, 0, c.bir)
}

// arraySite is the collection of the arrays of type a allocated at pc
// (dimension dim of a multianewarray) of m.
func (t *classTable) arraySite(m *classfile.Method, pc, dim int, a *arrayType) *allocSite {
	t.useType(a.ref)
	return t.site(m, pc, dim, a.name)
}

// tooLongName is the global whose second allocation ends a path that
// allocates an array longer than the bound: a limit, not an error.
const tooLongName = "$arrayTooLong"

// tooLong declares what allocating an array beyond the bound takes.
func (t *classTable) tooLong() string {
	t.emit("tooLong", "$ArrayTooLong = record { };\n$ArrayTooLong_c : collection [1] of $ArrayTooLong; // a second new: an array longer than the bound is a limit\n"+tooLongName+" : ref $ArrayTooLong;")
	return "$ArrayTooLong_c"
}

// internString is the global that holds the interned String object of a
// string constant (null until its first use) and its collection of one.
func (t *classTable) internString(s string) (global, coll string) {
	if g, ok := t.strings[s]; ok {
		return g, g + "_c"
	}
	sc := t.class("java/lang/String")
	t.use(sc)
	g := t.take(fmt.Sprintf("$str%d", len(t.strings)+1))
	t.strings[s] = g
	t.emit("string "+g, fmt.Sprintf("%s_c : collection [1] of %s;\n%s : %s;", g, sc.bir, g, sc.ref))
	return g, g + "_c"
}

// decls is the declarations emitted so far (the table's own list, when
// no lowering takes them: tests).
func (t *classTable) decls() string {
	var w strings.Builder
	for _, d := range t.out {
		w.WriteString(d)
		w.WriteString("\n")
	}
	return w.String()
}

// take takes a name of BIR's global name space: base, or base_2, ...
// (a keyword gets a _ first).
func (t *classTable) take(base string) string { return uniqueName(base, t.names) }

// The lowering of objects: the class table of a program, the hooks of
// the lowering it serves (types, new, getfield, putfield), and the
// static fields' globals.

// heapKey keys the class table in the lowering's lane state.
type heapKey struct{}

func init() {
	hooks.begin = append(hooks.begin, func(l *lowerer) { heapOf(l) })
	hooks.refType = func(l *lowerer, ty classfile.Type) (string, bool) {
		t := heapOf(l)
		typ, err := t.valueType(ty)
		if err != nil {
			return "", false
		}
		t.useType(typ)
		return typ, true
	}
	hooks.thisType = func(m *method) string {
		t := heapOf(m.l)
		if c := t.class(m.cls.Name); c != nil {
			return t.refType(c)
		}
		return t.refType(t.class(objectClass))
	}
	hooks.mainArgs = func(l *lowerer) (string, string, bool) {
		if !readsArgs(l.mainCls) {
			// no array, no heap: a model without objects stays one that
			// boolean programs and path formulas encode
			return "", "", false
		}
		t := heapOf(l)
		a, err := t.arrayOf(classfile.Type{Kind: 'L', Class: "java/lang/String"})
		if err != nil {
			return "", "", false
		}
		s := t.arraySite(nil, -1, 0, a)
		return a.ref, "new " + s.coll + "[0]", true
	}
	hooks.insn[classfile.New] = (*method).newInsn
	hooks.insn[classfile.Getfield] = (*method).getfield
	hooks.insn[classfile.Putfield] = (*method).putfield
}

// readsArgs reports whether the main method of class c reads its
// parameter args (local slot 0).
func readsArgs(c *classfile.Class) bool {
	if c == nil {
		return false
	}
	for _, m := range c.Methods {
		if m.Name != "main" || m.Descriptor != "([Ljava/lang/String;)V" || m.Code == nil {
			continue
		}
		for _, in := range m.Code.Insns {
			if (in.Op == classfile.Aload || in.Op == classfile.Aload_0) && in.Index == 0 {
				return true
			}
		}
	}
	return false
}

// heapOf is the program's class table: built (the model's records named)
// when the lowering begins, the program's records named as the lowering
// names them and the program analysed from main at the first use after
// that.
func heapOf(l *lowerer) *classTable {
	t := l.laneState(heapKey{}, func() any {
		t := newClassTable(l.order, l.cfg.MaxObjects, l.cfg.MaxArrayLength, l.globalNames)
		t.pos = func(c *jclass, jm *jmethod, pc int) source.Position {
			p := t.defaultPos(c, jm, pc)
			if c == nil && jm != nil {
				c = jm.class
			}
			if c != nil && c.cf != nil {
				p.Filename = sourcePath(c.cf, l.cfg.SourceDirs)
			}
			return p
		}
		for _, e := range t.errs {
			l.errs.Add(e.Pos, e.Msg)
		}
		t.report = func(pos source.Position, msg string) { l.errs.Add(pos, msg) }
		t.emit = l.decl
		return t
	}).(*classTable)
	if !t.programNamed && l.classNames != nil {
		t.programNamed = true
		t.nameProgram(l.classNameOf)
		for _, c := range t.model {
			l.names.Types[c.bir] = c.javaName()
		}
		if l.mainCls != nil {
			if mc := t.class(l.mainCls.Name); mc != nil {
				t.analyze(mc.declared("main", "([Ljava/lang/String;)V"))
			}
		}
	}
	return t
}

// classOf is the class whose references a BIR type holds (java.lang.Object
// for JObject_ref), nil for an array or another type.
func (t *classTable) classOf(typ string) *jclass { return t.byRef[typ] }

// joinRef is the BIR type of a variable that holds references of types a
// and b (a join of the operand stack): their least common superclass's
// reference type; "" when one is an array and the other not, or both are
// arrays of different types.
func (t *classTable) joinRef(a, b string) string {
	switch {
	case a == b || b == "null":
		return a
	case a == "null":
		return b
	}
	ca, cb := t.classOf(a), t.classOf(b)
	if ca == nil || cb == nil {
		return ""
	}
	for c := ca; c != nil; c = c.super {
		if extends(cb, c) {
			return t.refType(c)
		}
	}
	return t.refType(t.class(objectClass))
}

// extends reports whether c is d or one of d's subclasses along the
// superclass chain (BIR's extends: interfaces have no records).
func extends(c, d *jclass) bool {
	for ; c != nil; c = c.super {
		if c == d {
			return true
		}
	}
	return false
}

// typeName is what a BIR type holds, in Java terms, for messages.
func (t *classTable) typeName(typ string) string {
	if c := t.byRef[typ]; c != nil {
		return c.javaName()
	}
	if a := t.arrRefs[typ]; a != nil {
		return "an array of " + t.typeName(a.elem)
	}
	return typ
}

// asRef makes v a value of a reference type from which BIR can assign or
// pass to a variable of type target: unchanged when the types are equal or
// related by extends (a checked conversion where it narrows), else through
// a temporary of type JObject_ref. An array where a record reference is
// needed (or the other way round) is unsupported (ok false).
func (m *method) asRef(v value, target string) (value, bool) {
	if !m.plain(v) {
		return v, false
	}
	t := heapOf(m.l)
	if v.t == target || v.t == "null" || v.k != kRef {
		return v, true
	}
	from, to := t.classOf(v.t), t.classOf(target)
	switch {
	case from != nil && to != nil:
		if extends(from, to) || extends(to, from) {
			return v, true
		}
		return m.convertRef(v, t.refType(t.class(objectClass))), true
	case t.arrRefs[v.t] != nil && t.arrRefs[target] != nil:
		m.unsupported("an array of %s used as an array of %s", t.typeName(t.arrRefs[v.t].elem), t.typeName(t.arrRefs[target].elem))
	case t.arrRefs[v.t] != nil:
		m.unsupported("an array held in a reference of type %s (birch keeps arrays and objects apart)", t.typeName(target))
	default:
		m.unsupported("a reference of type %s used as %s", t.typeName(v.t), t.typeName(target))
	}
	return v, false
}

// narrow makes v a reference whose type has the fields of class c: v
// itself when its class extends c, else a temporary of type c's reference
// (a checked conversion, which verified bytecode never fails).
func (m *method) narrow(v value, c *jclass) (value, bool) {
	t := heapOf(m.l)
	target := t.refType(c)
	if from := t.classOf(v.t); from != nil && extends(from, c) || v.t == "null" {
		return v, true
	}
	v, ok := m.asRef(v, target)
	if !ok {
		return v, false
	}
	if v.t == target {
		return v, true
	}
	return m.convertRef(v, target), true
}

// convertRef assigns v to a fresh temporary of reference type target (a
// checked conversion when it narrows).
func (m *method) convertRef(v value, target string) value {
	tmp := m.temp(len(m.stack), target)
	m.protect(tmp, -1, map[int]bool{})
	m.b.act(false, tmp, "%s := %s;", tmp, v.e)
	return named(tmp, kRef, target)
}

// check makes sure cond holds before an instruction that, if it does not,
// throws the JVM exception class. Where no handler may catch it
// (mayCatch), it is assert(cond) in the pending step, whose Message says
// "uncaught java.lang.X" (its own condition tells it from the line's
// other assertions in Describe); else a branch to the throw (m.throwNew:
// exc.go's handlers) and on.
func (m *method) check(cond string, reads []string, class string) {
	if cond == "true" || m.dead {
		return
	}
	// a condition that reads the heap (a.length) makes the step visible
	shared := strings.Contains(cond, ".")
	if hooks.throwNew == nil || !mayCatch(m, class) {
		m.b.act(shared, "", "assert(%s);", cond)
		m.l.messages = append(m.l.messages, Message{
			Pos:  source.Position{Filename: m.file, Line: max(m.line(), 1), Column: 1},
			Cond: cond, Text: "uncaught " + binaryName(class)})
		return
	}
	ok, bad := m.b.label(m.b.base()), m.b.label(m.b.base())
	m.b.branch([]string{cond, negate(cond)}, []string{ok, bad}, reads, shared)
	m.b.place(bad)
	stack := append([]value(nil), m.stack...)
	m.throwNew(class, "")
	m.ended = false
	m.stack = stack
	if !m.dead {
		m.b.place(ok)
	}
}

// nullCheck throws NullPointerException where v is null and a handler
// may catch it; an uncaught one is BIR's null dereference, which the
// access itself raises (jcli says it is a NullPointerException).
func (m *method) nullCheck(v value) {
	if mayCatch(m, npeClass) {
		m.check(paren(v.e)+" != null", v.reads, npeClass)
	}
}

const npeClass = "java/lang/NullPointerException"

// mayCatch reports whether a handler of the method (or of a caller) may
// catch an exception of class thrown where the lowering is: exc.go sets
// it; by default nothing is caught.
var mayCatch = func(m *method, class string) bool { return false }

// jfieldAt resolves the field an instruction names, reporting why there
// is none.
func (m *method) jfieldAt(in *classfile.Insn, static bool) *jfield {
	class, name, desc, _, ok := m.cls.MemberAt(in.Index)
	if !ok {
		m.unsupported("a field access through the malformed constant %d", in.Index)
		return nil
	}
	t := heapOf(m.l)
	c := t.class(class)
	if c == nil {
		m.unsupported("the field %s.%s of a class outside the program and birch's model of java.lang", binaryName(class), name)
		return nil
	}
	f := t.resolveField(c, name, desc)
	switch {
	case f == nil || f.desc == "":
		m.unsupported("the field %s.%s, which birch's model of %s does not have", binaryName(class), name, c.javaName())
		return nil
	case f.isStatic() != static:
		m.unsupported("the field %s.%s (IncompatibleClassChangeError)", binaryName(class), name)
		return nil
	case f.unsupported != "":
		m.unsupported("%s", f.unsupported)
		return nil
	}
	return f
}

// fieldKind is the stack kind of a field's values.
func fieldKind(f *jfield) kind {
	switch f.desc[0] {
	case 'J':
		return kLong
	case 'L', '[':
		return kRef
	}
	return kInt
}

// newInsn lowers new: an object of the site's collection (its fields
// hold their defaults), a visible step; the class is initialized first.
// javac's new AssertionError of a failed assert is the lowering's.
func (m *method) newInsn(in *classfile.Insn) {
	name := m.cls.ClassAt(in.Index)
	if name == "java/lang/AssertionError" {
		m.push(value{k: kRef, special: &assertionError{}})
		return
	}
	t := heapOf(m.l)
	c := t.class(name)
	switch {
	case c == nil:
		m.unsupported("new %s (a class outside the program and birch's model of java.lang)", binaryName(name))
		return
	case c.isInterface() || c.isAbstract():
		m.unsupported("new of the abstract class %s (InstantiationError)", c.javaName())
		return
	}
	m.l.use(c.name)
	s := t.newSite(m.fn.method, in.PC, c)
	m.result(kRef, c.ref, func(tmp string) {
		m.b.act(true, tmp, "%s := new %s;", tmp, s.coll)
	})
}

// getfield reads a field of an object: a visible step into a temporary.
func (m *method) getfield(in *classfile.Insn) {
	f := m.jfieldAt(in, false)
	obj := m.pop()
	if f == nil || !m.plain(obj) {
		return
	}
	obj, ok := m.narrow(obj, f.class)
	if !ok {
		return
	}
	m.nullCheck(obj)
	heapOf(m.l).useType(f.typ)
	t := f.typ
	if k := fieldKind(f); k != kRef {
		t = stackType(value{k: k})
	}
	m.result(fieldKind(f), t, func(tmp string) {
		m.b.act(true, tmp, "%s := %s.%s;", tmp, paren(obj.e), f.bir)
	})
}

// putfield writes a field of an object: a visible step. A value stored
// in a narrower field wraps (byte, short, char) as the JVM's does.
func (m *method) putfield(in *classfile.Insn) {
	f := m.jfieldAt(in, false)
	v := m.pop()
	obj := m.pop()
	if f == nil || !isString(v) && !m.plain(v) || !m.plain(obj) {
		return
	}
	obj, ok := m.narrow(obj, f.class)
	if !ok {
		return
	}
	if fieldKind(f) == kRef {
		if isString(v) {
			v, _ = m.stringObject(v, len(m.stack))
		}
		if v, ok = m.asRef(v, f.typ); !ok {
			return
		}
	}
	m.nullCheck(obj)
	heapOf(m.l).useType(f.typ)
	m.b.act(true, "", "%s.%s := %s;", paren(obj.e), f.bir, v.e)
}
