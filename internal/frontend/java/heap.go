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
	"unicode/utf8"

	"birch/internal/bir/token"
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
	subs         []*jclass // direct subclasses and, for an interface, direct subinterfaces and implementing classes
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
	if c == d {
		return true
	}
	if d.name == objectClass {
		return true
	}
	if c.super != nil && c.super.isSubclassOf(d) {
		return true
	}
	for _, i := range c.ifaces {
		if i.isSubclassOf(d) {
			return true
		}
	}
	return false
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
	method *jmethod
	pc     int
	n      int    // the site number, from 1
	coll   string // the collection's BIR name
	elem   string // the collection's element type: a record or an array type
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
	names          *birNames
	maxObjects     int
	maxArrayLength int
	// monitors: the program uses monitors (synchronized, wait, notify),
	// so every object has the field $mon.
	monitors bool
	errs     source.ErrorList
	// pos gives the Java position of an instruction (pc -1: the method;
	// m nil: the class). Set by the lowering; classPos by default.
	pos func(c *jclass, m *jmethod, pc int) source.Position

	sites     map[siteKey]*allocSite
	siteList  []*allocSite
	arrays    map[string]*arrayType // by the element's BIR type
	arrayList []*arrayType
	booleans  bool // jboolean is used by a field or an array
	tooLong   bool // an array allocation may be longer than MaxArrayLength

	rta *rta
}

type siteKey struct {
	m   *jmethod
	pc  int
	dim int // multianewarray: the dimension (0 is the outermost array)
}

// DefaultMaxObjects and DefaultMaxArrayLength are the bounds of the heap
// when Config leaves them 0.
const (
	DefaultMaxObjects     = 4
	DefaultMaxArrayLength = 8
)

// newClassTable builds the table of the given program classes and the
// java.lang model. Problems (an unknown superclass, floating-point fields,
// a class defined twice) are collected in t.errs.
func newClassTable(classes []*classfile.Class, maxObjects, maxArrayLength int) *classTable {
	if maxObjects <= 0 {
		maxObjects = DefaultMaxObjects
	}
	if maxArrayLength <= 0 {
		maxArrayLength = DefaultMaxArrayLength
	}
	t := &classTable{
		classes:        map[string]*jclass{},
		names:          newBIRNames(),
		maxObjects:     maxObjects,
		maxArrayLength: maxArrayLength,
		sites:          map[siteKey]*allocSite{},
		arrays:         map[string]*arrayType{},
	}
	t.pos = t.defaultPos
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
	t.name()
	t.layoutAll()
	return t
}

// class returns the class of an internal name, nil if neither the
// program nor the model has it.
func (t *classTable) class(name string) *jclass { return t.classes[name] }

// errorf records an unsupported construct at the position of pc in m of c.
func (t *classTable) errorf(c *jclass, m *jmethod, pc int, format string, args ...any) {
	t.errs.Add(t.pos(c, m, pc), fmt.Sprintf(format, args...))
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
			t.errorf(c, nil, -1, "class %s has no superclass", c.javaName())
		} else if s := t.classes[cf.Super]; s == nil {
			t.errorf(c, nil, -1, "class %s extends %s, which is outside birch's model of the Java library", c.javaName(), strings.ReplaceAll(cf.Super, "/", "."))
		} else if s.isInterface() {
			t.errorf(c, nil, -1, "class %s extends the interface %s", c.javaName(), s.javaName())
		} else {
			c.super = s
		}
		for _, in := range cf.Interfaces {
			if i := t.classes[in]; i == nil {
				t.errorf(c, nil, -1, "class %s implements %s, which is outside birch's model of the Java library", c.javaName(), strings.ReplaceAll(in, "/", "."))
			} else {
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

// name gives every class its BIR record and reference names and every
// static field its global's name: the simple name, with the package
// (dots as _) where two program classes share a simple name; then _2,
// _3, ... on any other collision.
func (t *classTable) name() {
	if o := t.classes[objectClass]; o != nil {
		o.bir = t.names.take(rootRecord)
	}
	simple := map[string]int{}
	for _, c := range t.program {
		simple[simpleName(c.name)]++
	}
	for _, c := range t.all() {
		if c.bir != "" {
			continue
		}
		base := simpleName(c.name)
		if simple[base] > 1 || c.cf == nil && simple[base] > 0 {
			base = c.name
		}
		c.bir = t.names.take(birIdent(base))
	}
	for _, c := range t.all() {
		if c.isInterface() {
			c.ref = ""
			continue
		}
		c.ref = t.names.take(c.bir + "_ref")
	}
	for _, c := range t.all() {
		if c.isInterface() {
			c.ref = t.classes[objectClass].ref
		}
		for _, f := range c.fields {
			if f.isStatic() {
				f.bir = t.names.take(c.bir + "_" + birIdent(f.name))
			}
		}
	}
}

// simpleName is the part of an internal name after its package.
func simpleName(internal string) string {
	if i := strings.LastIndexByte(internal, '/'); i >= 0 {
		return internal[i+1:]
	}
	return internal
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
					t.errorf(c, nil, -1, "field %s.%s: %v", c.javaName(), f.name, err)
					typ = "int32"
				}
				f.typ = typ
			}
			if f.isStatic() {
				continue
			}
			if c.isInterface() {
				continue // javac never gives an interface instance fields
			}
			base := birIdent(f.name)
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
// Floating point is an error.
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
		t.booleans = true
		return "jboolean", nil
	case 'F', 'D':
		return "", fmt.Errorf("floating point (%s) is not supported", ty)
	case 'L':
		c := t.classes[ty.Class]
		if c == nil {
			return t.refType(t.classes[objectClass]), nil
		}
		return t.refType(c), nil
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
// interface, JObject_ref), and marks the class's declarations used.
func (t *classTable) refType(c *jclass) string {
	t.use(c)
	return c.ref
}

// use marks the declarations of c and its superclasses as needed.
func (t *classTable) use(c *jclass) {
	for ; c != nil && !c.used; c = c.super {
		c.used = true
	}
	t.use0()
}

// use0 marks java.lang.Object used: it is the root of every record.
func (t *classTable) use0() {
	if o := t.classes[objectClass]; o != nil {
		o.used = true
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
		et = t.refType(t.classes[objectClass])
	default:
		var err error
		if et, err = t.valueType(elem); err != nil {
			return nil, err
		}
	}
	if a := t.arrays[et]; a != nil {
		a.used = true
		return a, nil
	}
	base := strings.TrimSuffix(et, "_ref") + "_arr"
	a := &arrayType{name: t.names.take(base), elem: et, used: true}
	a.ref = t.names.take(a.name + "_ref")
	t.arrays[et] = a
	t.arrayList = append(t.arrayList, a)
	return a, nil
}

// site is the allocation site of the new, newarray, anewarray or
// multianewarray instruction at pc of m (dim: the dimension of a
// multianewarray, 0 otherwise), with its collection, numbered in the
// order sites are first asked for. elem is the collection's element type
// (a record or an array type).
func (t *classTable) site(m *jmethod, pc, dim int, elem string) *allocSite {
	k := siteKey{m, pc, dim}
	if s := t.sites[k]; s != nil {
		return s
	}
	n := len(t.siteList) + 1
	s := &allocSite{method: m, pc: pc, n: n, elem: elem, bound: t.maxObjects}
	if dim > 0 {
		// the inner arrays of one multianewarray: up to MaxArrayLength per
		// outer array
		s.bound = t.maxObjects * t.maxArrayLength
	}
	suffix := fmt.Sprintf("_c%d", n)
	if dim > 0 {
		suffix = fmt.Sprintf("_c%d_%d", n, dim)
	}
	s.coll = t.names.take(elem + suffix)
	t.sites[k] = s
	t.siteList = append(t.siteList, s)
	return s
}

// newSite is the collection of the objects of class c allocated at pc of
// m.
func (t *classTable) newSite(m *jmethod, pc int, c *jclass) *allocSite {
	t.use(c)
	return t.site(m, pc, 0, c.bir)
}

// arraySite is the collection of the arrays of type a allocated at pc
// (dimension dim of a multianewarray) of m.
func (t *classTable) arraySite(m *jmethod, pc, dim int, a *arrayType) *allocSite {
	a.used = true
	return t.site(m, pc, dim, a.name)
}

// decls writes the BIR declarations of the heap: jboolean, the records
// with their extends and reference types, array types, collections,
// static fields as globals.
func (t *classTable) decls() string {
	var w strings.Builder
	if t.booleans {
		w.WriteString("jboolean = range 0..1;\n")
	}
	t.use0()
	for _, c := range t.all() {
		if c.cf != nil {
			t.use(c)
		}
	}
	for _, c := range t.all() {
		if !c.used || c.isInterface() {
			continue
		}
		fmt.Fprintf(&w, "%s = record {", c.bir)
		for _, f := range c.layout {
			fmt.Fprintf(&w, " %s : %s;", f.bir, f.typ)
		}
		w.WriteString(" };\n")
		super := "Object"
		if c.super != nil {
			super = c.super.bir
		}
		fmt.Fprintf(&w, "%s extends %s;\n%s = ref %s;\n", c.bir, super, c.ref, c.bir)
	}
	for _, a := range t.arrayList {
		if a.used {
			fmt.Fprintf(&w, "%s = array [%d] of %s;\n%s = ref %s;\n", a.name, t.maxArrayLength, a.elem, a.ref, a.name)
		}
	}
	for _, s := range t.siteList {
		fmt.Fprintf(&w, "%s : collection [%d] of %s;\n", s.coll, s.bound, s.elem)
	}
	if t.tooLong {
		w.WriteString("$ArrayTooLong = record { };\n$ArrayTooLong_c : collection [1] of $ArrayTooLong; // a second new: an array longer than the bound is a limit\n$arrayTooLong : ref $ArrayTooLong;\n")
	}
	for _, c := range t.all() {
		if !c.used && c.cf == nil {
			continue
		}
		for _, f := range c.fields {
			if !f.isStatic() {
				continue
			}
			fmt.Fprintf(&w, "%s : %s", f.bir, f.typ)
			if v := constantValue(f); v != "" {
				fmt.Fprintf(&w, " := %s", v)
			}
			w.WriteString(";\n")
		}
	}
	return w.String()
}

// constantValue is the BIR constant of a static field's ConstantValue
// attribute ("" for none, or one that is not an integer).
func constantValue(f *jfield) string {
	if f.cf == nil || f.cf.ConstantValue == nil {
		return ""
	}
	switch v := f.cf.ConstantValue.(type) {
	case classfile.Integer:
		if f.desc == "Z" {
			return fmt.Sprint(v.Value & 1)
		}
		return intLit(int64(v.Value))
	case *classfile.Integer:
		return intLit(int64(v.Value))
	case classfile.Long:
		return intLit(v.Value)
	case *classfile.Long:
		return intLit(v.Value)
	}
	return ""
}

// intLit is a BIR expression for v: negative values are written as a
// unary minus, the smallest int64 as -9223372036854775808 (which BIR
// accepts after a minus).
func intLit(v int64) string {
	if v < 0 {
		return fmt.Sprintf("-%d", uint64(-v))
	}
	return fmt.Sprint(v)
}

// birNames is BIR's global name space (constants, types, collections,
// globals): each name is taken once; a keyword or a predeclared name gets
// a trailing _, a name already taken _2, _3, ...
type birNames struct{ used map[string]bool }

func newBIRNames() *birNames {
	n := &birNames{used: map[string]bool{}}
	for _, p := range []string{"Object", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "jboolean"} {
		n.used[p] = true
	}
	return n
}

// take returns base, or the nearest free variant of it, and marks it used.
func (n *birNames) take(base string) string {
	if token.Lookup(base) != token.IDENT || base == "Object" || isFixedWidth(base) || base == "jboolean" {
		base += "_"
	}
	name := base
	for i := 2; n.used[name]; i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	n.used[name] = true
	return name
}

func isFixedWidth(s string) bool {
	switch s {
	case "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64":
		return true
	}
	return false
}

// birIdent makes a Java name (an identifier, or an internal name with /)
// a BIR identifier: ASCII letters, digits, _ and $ stay, / and . become _,
// any other character _uXXXX.
func birIdent(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			b.WriteString("_")
		case r == '/' || r == '.':
			b.WriteByte('_')
		case r == '_' || r == '$' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z':
			b.WriteRune(r)
		case '0' <= r && r <= '9':
			if i == 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "_u%04x", r)
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}
