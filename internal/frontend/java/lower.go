package java

import (
	"fmt"
	"path/filepath"
	"strings"

	"birch/internal/frontend/java/classfile"
	"birch/internal/source"
)

// lowerer lowers one program: the functions reachable from the main
// class's main method and its classes' static initializers.
type lowerer struct {
	cfg      Config
	classes  map[string]*classfile.Class // by internal name
	order    []*classfile.Class          // as given
	mainCls  *classfile.Class
	errs     source.ErrorList // unsupported constructs
	messages []Message
	names    Names

	// the global name space: types, collections, globals (BIR shares
	// one among them); names are reserved up front for every class and
	// static field so that a later declaration never clashes
	globalNames map[string]bool
	fnNames     map[string]bool   // threads and functions
	classNames  map[string]string // BIR record names of the program's classes, by internal name

	decls    []string        // type, record and collection declarations, in order
	declared map[string]bool // keys of decls
	globals  []*global
	globalBy map[string]*global // by "class.field"
	funcs    map[string]*function
	funcList []*function
	queue    []*function
	tail     []string // threads and other text after the functions (thread.go)

	used    []string // classes in the order of their first use (static initializers)
	usedSet map[string]bool

	// lanes keeps the program-wide state of the other files of the
	// lowering (heap.go, thread.go, exc.go), each under a key of its own
	// (laneState)
	lanes map[any]any
}

// global is a BIR global: a static field.
type global struct {
	name, typ string
	init      string // constant initial value, "" for the default
	line      int
	file      string
}

// function is a Java method lowered to a BIR function.
type function struct {
	class  *classfile.Class
	method *classfile.Method
	name   string // its BIR name
	text   string
	ret    string // its BIR result type, "" for void (or refused)
	hasRet bool   // the method returns a value
	params []string
}

// laneState returns the program-wide state a lane's file keeps under
// key, made by mk on first use.
func (l *lowerer) laneState(key any, mk func() any) any {
	if s, ok := l.lanes[key]; ok {
		return s
	}
	s := mk()
	l.lanes[key] = s
	return s
}

// decl adds a top-level declaration (a type, a record, a subtype
// relation, a collection) once: a second call with the same key does
// nothing. Declarations print in the order first declared.
func (l *lowerer) decl(key, text string) {
	if l.declared[key] {
		return
	}
	l.declared[key] = true
	l.decls = append(l.decls, text)
}

// unsupportedAt records a construct the lowering does not handle.
func (l *lowerer) unsupportedAt(file string, line int, format string, args ...any) {
	if line <= 0 {
		line = 1
	}
	l.errs.Add(source.Position{Filename: file, Line: line, Column: 1}, fmt.Sprintf(format, args...))
}

// lower lowers the program.
func lower(classes []*classfile.Class, cfg Config) (*Output, error) {
	l := &lowerer{
		cfg: cfg, classes: map[string]*classfile.Class{},
		globalNames: map[string]bool{}, fnNames: map[string]bool{},
		declared: map[string]bool{}, globalBy: map[string]*global{},
		funcs: map[string]*function{}, usedSet: map[string]bool{}, lanes: map[any]any{},
		names: Names{Types: map[string]string{}, Functions: map[string]string{},
			Globals: map[string]string{}, Threads: map[string]string{}},
	}
	for _, c := range classes {
		if c == nil {
			continue
		}
		if l.classes[c.Name] == nil {
			l.order = append(l.order, c)
		}
		l.classes[c.Name] = c
	}
	if err := l.findMain(); err != nil {
		return nil, err
	}
	for _, h := range hooks.begin {
		h(l)
	}
	l.reserveNames()
	l.fnNames["main_"] = true
	mainFn := l.function(l.mainCls, findMethod(l.mainCls, "main", "([Ljava/lang/String;)V"))
	l.use(l.mainCls.Name)
	l.drain()
	for _, h := range hooks.finish {
		h(l)
		l.drain()
	}
	text := l.print(mainFn)
	if len(l.errs) > 0 {
		l.errs.Sort()
		l.errs.RemoveMultiples()
		return nil, &UnsupportedError{List: l.errs}
	}
	return &Output{BIR: text, Messages: l.messages, Names: l.names}, nil
}

// drain lowers the queued functions.
func (l *lowerer) drain() {
	for len(l.queue) > 0 {
		f := l.queue[0]
		l.queue = l.queue[1:]
		lowerMethod(l, f)
	}
}

// findMain finds the main class: Config.Main, or the one class with
// public static void main(String[]).
func (l *lowerer) findMain() error {
	pos := source.Position{Filename: firstSource(l.order, l.cfg), Line: 1, Column: 1}
	if l.cfg.Main != "" {
		c := l.classes[strings.ReplaceAll(l.cfg.Main, ".", "/")]
		if c == nil {
			return source.ErrorList{{Pos: pos, Msg: fmt.Sprintf("the main class %s is not among the program's classes", l.cfg.Main)}}
		}
		if !hasMain(c) {
			return source.ErrorList{{Pos: source.Position{Filename: sourcePath(c, l.cfg.SourceDirs), Line: 1, Column: 1},
				Msg: fmt.Sprintf("the class %s has no method public static void main(String[])", l.cfg.Main)}}
		}
		l.mainCls = c
		return nil
	}
	var found []string
	for _, c := range l.order {
		if hasMain(c) {
			found = append(found, binaryName(c.Name))
			if l.mainCls == nil {
				l.mainCls = c
			}
		}
	}
	switch {
	case len(found) == 0:
		return source.ErrorList{{Pos: pos, Msg: "no class of the program has a method public static void main(String[])"}}
	case len(found) > 1:
		return source.ErrorList{{Pos: pos, Msg: fmt.Sprintf("several classes have a main method (%s): name the main class", strings.Join(found, ", "))}}
	}
	return nil
}

func hasMain(c *classfile.Class) bool {
	m := findMethod(c, "main", "([Ljava/lang/String;)V")
	return m != nil && m.Access&classfile.AccStatic != 0 && m.Access&classfile.AccPublic != 0 && m.Code != nil
}

// findMethod is the method of c (not its superclasses) with name and
// descriptor, or nil.
func findMethod(c *classfile.Class, name, desc string) *classfile.Method {
	for _, m := range c.Methods {
		if m.Name == name && m.Descriptor == desc {
			return m
		}
	}
	return nil
}

// resolveMethod finds the method a call names: in class or, going up,
// its superclasses (JVM 5.4.3.3, without interfaces' default methods).
func (l *lowerer) resolveMethod(class, name, desc string) (*classfile.Class, *classfile.Method) {
	for c := l.classes[class]; c != nil; c = l.classes[c.Super] {
		if m := findMethod(c, name, desc); m != nil {
			return c, m
		}
	}
	return nil, nil
}

// resolveField finds the class that declares a field a reference names
// (JVM 5.4.3.2): class, its superinterfaces, then its superclass and so
// on.
func (l *lowerer) resolveField(class, name string) (*classfile.Class, *classfile.Field) {
	c := l.classes[class]
	if c == nil {
		return nil, nil
	}
	for _, f := range c.Fields {
		if f.Name == name {
			return c, f
		}
	}
	for _, i := range c.Interfaces {
		if ic, f := l.resolveField(i, name); f != nil {
			return ic, f
		}
	}
	if c.Super != "" {
		return l.resolveField(c.Super, name)
	}
	return nil, nil
}

// reserveNames takes the global names of every class's record up front
// (ISSUE 23 §3: the simple name, a nested class's $ kept; the package
// prefix, with _, only where two classes share a simple name), so that
// the names do not depend on the order things are used in and locals
// can avoid them.
func (l *lowerer) reserveNames() {
	for _, k := range []string{"JObject", "jboolean"} {
		l.globalNames[k] = true
	}
	count := map[string]int{}
	for _, c := range l.order {
		count[birName(simpleName(c.Name))]++
	}
	l.classNames = map[string]string{}
	for _, c := range l.order {
		n := birName(simpleName(c.Name))
		if count[n] > 1 || l.globalNames[n] {
			n = birName(strings.ReplaceAll(c.Name, "/", "_"))
		}
		n = uniqueName(n, l.globalNames)
		l.classNames[c.Name] = n
		l.names.Types[n] = binaryName(c.Name)
	}
}

// className is the BIR name of a class of the program (its record).
func (l *lowerer) className(c *classfile.Class) string { return l.classNameOf(c.Name) }

// classNameOf is the BIR name of a class of the program by its internal
// name ("" for a class outside the program).
func (l *lowerer) classNameOf(internal string) string { return l.classNames[internal] }

// typeOf is the BIR type of a Java type (ISSUE 23 §3), or "" and what
// makes it unsupported.
func (l *lowerer) typeOf(t classfile.Type) (string, string) {
	switch t.Kind {
	case 'Z':
		l.decl("jboolean", "jboolean = range 0..1;")
		return "jboolean", ""
	case 'B':
		return "int8", ""
	case 'S':
		return "int16", ""
	case 'C':
		return "uint16", ""
	case 'I':
		return "int32", ""
	case 'J':
		return "int64", ""
	case 'F', 'D':
		return "", "the floating-point type " + t.String()
	case 'L', '[':
		if hooks.refType != nil {
			if s, ok := hooks.refType(l, t); ok {
				return s, ""
			}
		}
		return "", "the reference type " + t.String()
	}
	return "", "the type " + t.String()
}

// function returns the BIR function of a method, queueing it for lowering
// on first use.
func (l *lowerer) function(c *classfile.Class, m *classfile.Method) *function {
	key := c.Name + "." + m.Name + m.Descriptor
	if f := l.funcs[key]; f != nil {
		return f
	}
	base := l.className(c) + "_" + strings.Trim(m.Name, "<>")
	switch m.Name {
	case "<init>":
		base = l.className(c) + "_init"
	case "<clinit>":
		base = l.className(c) + "_clinit"
	}
	f := &function{class: c, method: m, name: uniqueName(base, l.fnNames)}
	if _, ret, err := classfile.ParseMethodType(m.Descriptor); err == nil && ret.Kind != 'V' {
		// "" for a type the lowering refuses, reported where the
		// method is lowered
		f.ret, _ = l.typeOf(ret)
		f.hasRet = true
	}
	l.funcs[key] = f
	l.funcList = append(l.funcList, f)
	l.queue = append(l.queue, f)
	l.names.Functions[f.name] = methodDisplay(c.Name, m.Name, m.Descriptor)
	return f
}

// use notes that the program uses a class (a static field, a static
// method, an instance): its static initializer runs before main (its
// superclasses' first).
func (l *lowerer) use(class string) {
	if l.usedSet[class] {
		return
	}
	c := l.classes[class]
	if c == nil {
		return
	}
	l.usedSet[class] = true
	if c.Super != "" {
		l.use(c.Super)
	}
	l.used = append(l.used, class)
	if m := findMethod(c, "<clinit>", "()V"); m != nil && m.Code != nil {
		l.function(c, m)
	}
}

// staticField returns the BIR global of a static field, declaring it on
// first use.
func (l *lowerer) staticField(m *method, class, name, desc string) (*global, bool) {
	c, f := l.resolveField(class, name)
	if c == nil || f.Access&classfile.AccStatic == 0 {
		m.unsupported("the static field %s.%s, outside the program", binaryName(class), name)
		return nil, false
	}
	key := c.Name + "." + f.Name
	if g := l.globalBy[key]; g != nil {
		return g, true
	}
	t, err := classfile.ParseFieldType(f.Descriptor)
	if err != nil {
		m.unsupported("the field %s.%s has the malformed descriptor %q", binaryName(c.Name), f.Name, f.Descriptor)
		return nil, false
	}
	typ, ok := m.birType(t, "the static field "+binaryName(c.Name)+"."+f.Name)
	if !ok {
		return nil, false
	}
	g := &global{name: uniqueName(l.className(c)+"_"+f.Name, l.globalNames), typ: typ,
		file: sourcePath(c, l.cfg.SourceDirs), line: m.line()}
	if f.Access&classfile.AccFinal != 0 {
		g.init = constantValue(c, f.ConstantValue)
	}
	l.globalBy[key] = g
	l.globals = append(l.globals, g)
	l.names.Globals[g.name] = binaryName(c.Name) + "." + f.Name
	l.use(c.Name)
	return g, true
}

// constantValue is the BIR literal of a field's ConstantValue attribute
// ("" for none or one that is no integer).
func constantValue(c *classfile.Class, k classfile.Constant) string {
	switch v := k.(type) {
	case classfile.Integer:
		if v.Value != 0 {
			return intLit(int64(v.Value))
		}
	case classfile.Long:
		if v.Value != 0 {
			return intLit(v.Value)
		}
	}
	return ""
}

// systemName is the BIR system's name: the main class's simple name.
func (l *lowerer) systemName() string {
	return birName(simpleName(l.mainCls.Name))
}

// print writes the model.
func (l *lowerer) print(mainFn *function) []byte {
	var w strings.Builder
	name := l.systemName()
	fmt.Fprintf(&w, "// %s: lowered from Java bytecode by birch\nsystem %s ()\n", binaryName(l.mainCls.Name), name)
	for _, d := range l.decls {
		w.WriteString(d)
		if !strings.HasSuffix(d, "\n") {
			w.WriteString("\n")
		}
	}
	for _, g := range l.globals {
		fmt.Fprintf(&w, "//line %s:%d:1\n%s : %s", g.file, max(g.line, 1), g.name, g.typ)
		if g.init != "" {
			fmt.Fprintf(&w, " := %s", g.init)
		}
		w.WriteString(";\n")
	}
	for _, f := range l.funcList {
		w.WriteString("\n")
		w.WriteString(f.text)
	}
	for _, t := range l.tail {
		w.WriteString("\n")
		w.WriteString(t)
	}
	// the main thread: the static initializers of the classes used,
	// superclasses first, then main (args is null: see doc.go)
	l.names.Threads["main_"] = "main"
	file := sourcePath(l.mainCls, l.cfg.SourceDirs)
	w.WriteString("\nmain thread main_ ()\n")
	args, alloc := "", ""
	if len(mainFn.params) == 1 && hooks.mainArgs != nil {
		typ, a, _ := hooks.mainArgs(l)
		args, alloc = "args", a
		fmt.Fprintf(&w, "  args : %s;\n", typ)
	}
	step := 0
	loc := func() string { return fmt.Sprintf("m%d", step) }
	for _, cn := range l.clinitOrder() {
		c := l.classes[cn]
		m := findMethod(c, "<clinit>", "()V")
		f := l.funcs[c.Name+".<clinit>()V"]
		fmt.Fprintf(&w, "  loc %s:\n", loc())
		step++
		fmt.Fprintf(&w, "//line %s:%d:1\n    when true do { call %s(); } goto %s;\n", sourcePath(c, l.cfg.SourceDirs),
			max(m.Code.LineAt(0), 1), f.name, loc())
	}
	mainLine := max(mainFn.method.Code.LineAt(0), 1)
	if alloc != "" {
		fmt.Fprintf(&w, "  loc %s:\n", loc())
		step++
		fmt.Fprintf(&w, "//line %s:%d:1\n    when true do { args := %s; } goto %s;\n", file, mainLine, alloc, loc())
	}
	fmt.Fprintf(&w, "  loc %s:\n", loc())
	step++
	fmt.Fprintf(&w, "//line %s:%d:1\n    when true do { call %s(%s); } goto %s;\n", file,
		mainLine, mainFn.name, args, loc())
	fmt.Fprintf(&w, "  loc %s:\nend main_;\n\nend %s;\n", loc(), name)
	return []byte(w.String())
}

// sourceOf is the source path of a class for //line directives.
func (l *lowerer) sourceOf(c *classfile.Class) string {
	return filepath.ToSlash(sourcePath(c, l.cfg.SourceDirs))
}
