package c

import (
	"fmt"
	"math/big"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"modernc.org/cc/v4"
	"modernc.org/token"

	"birch/internal/source"
)

// lowerer lowers one translation unit.
type lowerer struct {
	cfg          Config
	ast          *cc.AST
	filename     string
	errs         source.ErrorList // unsupported constructs
	property     []source.Position
	propertyWhat []string
	messages     []Message // the C terms of the assertions (messages.go)
	errorFns     map[string]bool
	errorLabels  map[string]bool

	fileVars  map[string]*fileVar               // C file-scope variables by name
	funcDefs  map[string]*cc.FunctionDefinition // C functions with a body
	reserved  map[string]bool                   // names locals must avoid (globals)
	globals   []*globalVar                      // emitted, in order of first use
	globalBy  map[any]*globalVar                // by C name, or *cc.Declarator for a static local
	funcs     map[string]*function              // lowered or queued, by C name
	queue     []*function
	funcNames map[string]bool // BIR names of functions and threads
	mem       *memState       // C's memory (mem.go); nil while unused
}

// fileVar is a C variable of file scope: its declarations, one of which
// may define it with an initializer.
type fileVar struct {
	decls   []*cc.Declarator
	init    *cc.Initializer
	defined bool // a declaration is a definition (not extern, or initialised)
}

// globalVar is a BIR global.
type globalVar struct {
	name   string
	t      intType
	init   string // constant initial value, "" for the default 0
	pos    source.Position
	extern bool // declared extern only: defined elsewhere, any value
}

// function is a C function with a body, lowered to a BIR function.
type function struct {
	cname, name string
	def         *cc.FunctionDefinition
	text        string
}

// variable is an integer variable of the model: a global, a parameter,
// a named local or a temporary.
type variable struct {
	name   string
	t      intType
	global bool
	cell   bool   // a cell of memory, name its BIR lvalue (mem.go): stores convert explicitly
	bt     string // the BIR type when it is not t's (a local's value array, mem.go)
	cname  string // a cell's C name or expression, for messages ("" if unknown)
}

// posNode is a position standing for a node in reports.
type posNode token.Position

func (p posNode) Position() token.Position { return token.Position(p) }

// nameOf is where a declarator's name is.
func nameOf(dr *cc.Declarator) cc.Node {
	t := dr.NameTok()
	return posNode(t.Position())
}

func pos(p token.Position) source.Position {
	return source.Position{Filename: p.Filename, Line: p.Line, Column: p.Column}
}

// unsupported records a construct the lowering does not handle.
func (l *lowerer) unsupported(n cc.Node, format string, args ...any) {
	var p source.Position
	if n != nil {
		p = pos(n.Position())
	}
	if !p.IsValid() {
		p = source.Position{Filename: l.filename, Line: 1, Column: 1}
	}
	l.errs.Add(p, fmt.Sprintf(format, args...))
}

// lower lowers the program whose entry is main.
func lower(filename string, ast *cc.AST, cfg Config) (*Output, error) {
	l := &lowerer{
		cfg: cfg, ast: ast, filename: filename,
		errorFns: map[string]bool{}, errorLabels: map[string]bool{},
		fileVars: map[string]*fileVar{}, funcDefs: map[string]*cc.FunctionDefinition{},
		reserved: map[string]bool{}, globalBy: map[any]*globalVar{},
		funcs: map[string]*function{}, funcNames: map[string]bool{},
	}
	fns := cfg.ErrorFunctions
	if fns == nil {
		fns = DefaultErrorFunctions
	}
	for _, f := range fns {
		l.errorFns[f] = true
	}
	labels := cfg.ErrorLabels
	if labels == nil {
		labels = DefaultErrorLabels
	}
	for _, s := range labels {
		l.errorLabels[s] = true
	}
	l.scanFileScope()
	l.memScan()
	mainDef := l.funcDefs["main"]
	if mainDef == nil {
		return nil, source.ErrorList{{Pos: source.Position{Filename: filename, Line: 1, Column: 1}, Msg: "the C program has no function main"}}
	}
	l.funcNames["$main"] = true
	mainFn := l.function("main")
	for len(l.queue) > 0 {
		f := l.queue[0]
		l.queue = l.queue[1:]
		l.lowerFunction(f)
	}
	text := l.print(mainFn)
	l.unrepresentable(string(text))
	if len(l.errs) > 0 {
		l.errs.Sort()
		l.errs.RemoveMultiples()
		return nil, &UnsupportedError{List: l.errs}
	}
	return &Output{BIR: text, Property: l.property, PropertyWhat: l.propertyWhat, Messages: l.messages}, nil
}

// scanFileScope indexes the file-scope variables and function definitions.
func (l *lowerer) scanFileScope() {
	for tu := l.ast.TranslationUnit; tu != nil; tu = tu.TranslationUnit {
		ed := tu.ExternalDeclaration
		if ed == nil {
			continue
		}
		switch ed.Case {
		case cc.ExternalDeclarationFuncDef:
			fd := ed.FunctionDefinition
			l.funcDefs[fd.Declarator.Name()] = fd
		case cc.ExternalDeclarationDecl:
			d := ed.Declaration
			if d == nil || d.Case != cc.DeclarationDecl {
				continue
			}
			for idl := d.InitDeclaratorList; idl != nil; idl = idl.InitDeclaratorList {
				id := idl.InitDeclarator
				if id == nil || id.Declarator == nil {
					continue
				}
				dr := id.Declarator
				if dr.IsTypename() || dr.Type() == nil || dr.Type().Kind() == cc.Function {
					continue
				}
				name := dr.Name()
				fv := l.fileVars[name]
				if fv == nil {
					fv = &fileVar{}
					l.fileVars[name] = fv
					l.reserved[name] = true
				}
				fv.decls = append(fv.decls, dr)
				if id.Initializer != nil {
					fv.init = id.Initializer
				}
				if !dr.IsExtern() || id.Initializer != nil {
					fv.defined = true
				}
			}
		}
	}
}

// function returns the BIR function of a defined C function, queueing it
// for lowering on first use.
func (l *lowerer) function(cname string) *function {
	if f := l.funcs[cname]; f != nil {
		return f
	}
	f := &function{cname: cname, name: uniqueName(cname, l.funcNames), def: l.funcDefs[cname]}
	l.funcs[cname] = f
	l.queue = append(l.queue, f)
	return f
}

// global returns the BIR global of a C file-scope variable, declaring it
// on first use; nil if it is not an integer variable (reported).
func (l *lowerer) global(name string, at cc.Node) *variable {
	if fv := l.fileVars[name]; fv != nil {
		// at each use (a dry run drops what it reports; the list keeps
		// one error per position)
		for _, d := range fv.decls {
			if l.atomicObject(d) {
				break
			}
		}
	}
	if g := l.globalBy[name]; g != nil {
		return &variable{name: g.name, t: g.t, global: true}
	}
	fv := l.fileVars[name]
	if fv == nil {
		l.unsupported(at, "%s is not a variable of the program", name)
		return nil
	}
	dr := fv.decls[0]
	if v, ok := l.memGlobal(name, fv, at); ok {
		return v
	}
	class, t := l.classify(dr.Type())
	if class != classInt {
		l.typeUnsupported(nameOf(dr), dr.Type(), class, "the global "+name)
		return nil
	}
	g := &globalVar{name: uniqueName(name, l.globalNames()), t: t, pos: pos(nameOf(dr).Position())}
	if fv.init != nil {
		g.init = l.constInit(fv.init, t)
	}
	g.extern = !fv.defined
	l.globalBy[name] = g
	l.globals = append(l.globals, g)
	return &variable{name: g.name, t: g.t, global: true}
}

// atomicObject reports a variable declared _Atomic (or of a typedef that
// is) as unsupported and says whether it is one: C makes its compound
// assignments and increments single atomic operations, which the lowering
// splits into a read and a write that other threads may come between (a
// wrong false on a task whose threads increment an _Atomic counter).
func (l *lowerer) atomicObject(dr *cc.Declarator) bool {
	atomic := dr.IsAtomic()
	if td := dr.Type().Typedef(); td != nil && td.IsAtomic() {
		atomic = true
	}
	if atomic {
		l.unsupported(nameOf(dr), "the _Atomic variable %s (its atomic read-modify-write operations are not lowered)", dr.Name())
	}
	return atomic
}

// staticLocal returns the BIR global holding a static local variable.
func (l *lowerer) staticLocal(dr *cc.Declarator, init *cc.Initializer, t intType) *variable {
	if g := l.globalBy[dr]; g != nil {
		return &variable{name: g.name, t: g.t, global: true}
	}
	g := &globalVar{name: uniqueName(dr.Name(), l.globalNames()), t: t, pos: pos(nameOf(dr).Position())}
	if init != nil {
		g.init = l.constInit(init, t)
	}
	l.globalBy[dr] = g
	l.globals = append(l.globals, g)
	return &variable{name: g.name, t: g.t, global: true}
}

func (l *lowerer) globalNames() map[string]bool {
	used := map[string]bool{}
	for _, g := range l.globals {
		used[g.name] = true
	}
	return used
}

// constInit is the initial value of a variable of static duration: a
// constant expression converted to the variable's type.
func (l *lowerer) constInit(init *cc.Initializer, t intType) string {
	if init.Case != cc.InitializerExpr {
		l.unsupported(init, "an initializer list for an integer variable")
		return ""
	}
	v, ok := constValue(init.AssignmentExpression)
	if !ok {
		l.unsupported(init, "an initializer that is not an integer constant")
		return ""
	}
	if t.isBool {
		if v.Sign() != 0 {
			v = big.NewInt(1)
		}
	} else {
		v = wrapTo(v, t)
	}
	if v.Sign() == 0 {
		return ""
	}
	return literal(v, t)
}

// constValue is the value of an integer constant expression.
func constValue(e cc.ExpressionNode) (*big.Int, bool) {
	if e == nil || !cc.IsIntegerType(e.Type()) {
		return nil, false
	}
	switch v := e.Value().(type) {
	case cc.Int64Value:
		return big.NewInt(int64(v)), true
	case cc.UInt64Value:
		return new(big.Int).SetUint64(uint64(v)), true
	}
	return nil, false
}

// wrapTo reduces v modulo 2^bits into t's range.
func wrapTo(v *big.Int, t intType) *big.Int {
	m := new(big.Int).Lsh(big.NewInt(1), uint(t.bits))
	r := new(big.Int).Mod(v, m)
	if t.signed && r.Cmp(t.max()) > 0 {
		r.Sub(r, m)
	}
	return r
}

// literal writes a constant of type t in BIR.
func literal(v *big.Int, t intType) string {
	if v.Cmp(maxInt64) > 0 {
		// a uint64 value from 2^63 on, which BIR does not hold: marked,
		// and reported where it lands (unrepresentable)
		return unrepMark + v.String() + ")"
	}
	return v.String()
}

// unrepMark marks a constant that BIR cannot hold in the generated text.
const unrepMark = "$unrepresentable("

// unrepresentable reports each constant of the generated text that BIR
// cannot hold, at the C position of its line's directive.
func (l *lowerer) unrepresentable(text string) {
	var at source.Position
	for _, line := range strings.Split(text, "\n") {
		if p, ok := parseDirective(line); ok {
			at = p
			continue
		}
		for i := strings.Index(line, unrepMark); i >= 0; i = strings.Index(line, unrepMark) {
			rest := line[i+len(unrepMark):]
			j := strings.IndexByte(rest, ')')
			if !at.IsValid() {
				at = source.Position{Filename: l.filename, Line: 1, Column: 1}
			}
			l.errs.Add(at, fmt.Sprintf("the unsigned 64-bit value %s: birch holds uint64 values below 2^63 only", rest[:j]))
			line = rest[j:]
		}
	}
}

// parseDirective reads a //line directive.
func parseDirective(line string) (source.Position, bool) {
	rest, ok := strings.CutPrefix(line, "//line ")
	if !ok {
		return source.Position{}, false
	}
	c2 := strings.LastIndexByte(rest, ':')
	if c2 < 0 {
		return source.Position{}, false
	}
	c1 := strings.LastIndexByte(rest[:c2], ':')
	if c1 < 0 {
		return source.Position{}, false
	}
	ln, err1 := strconv.Atoi(rest[c1+1 : c2])
	col, err2 := strconv.Atoi(rest[c2+1:])
	if err1 != nil || err2 != nil {
		return source.Position{}, false
	}
	return source.Position{Filename: rest[:c1], Line: ln, Column: col}, true
}

// typeUnsupported reports a variable or value of a type the lowering does
// not handle.
func (l *lowerer) typeUnsupported(at cc.Node, t cc.Type, class typeClass, what string) {
	switch class {
	case classFloat:
		l.unsupported(at, "%s has the floating-point type %s", what, t)
	case classMemory:
		l.memUnsupported(at, t, what)
	default:
		l.unsupported(at, "%s has the type %s", what, t)
	}
}

// birKeywords are BIR's reserved words and predeclared names, which C
// names are not given unchanged.
var birKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`system process end const extends collection of record enum range int
		boolean tid lock wait reentrant ref array main thread function loc live when do invisible goto
		return new internChoose externChoose forall reachable unlock unwait notify notifyAll start exit
		println assert assume call lockAvailable hasLock wasNotified threadTerminated instanceof length
		true false null predicates properties invariant ltl Object int8 int16 int32 int64 uint8 uint16
		uint32 uint64 X U R W`) {
		birKeywords[k] = true
	}
}

// uniqueName gives name, or name_2, name_3, … if it is taken (a BIR
// keyword gets a _ appended first), and takes it.
func uniqueName(name string, used map[string]bool) string {
	if birKeywords[name] {
		name += "_"
	}
	n := name
	for k := 2; birKeywords[n] || used[n]; k++ {
		n = fmt.Sprintf("%s_%d", name, k)
	}
	used[n] = true
	return n
}

// systemName is the BIR system's name, from the file's.
func systemName(filename string) string {
	base := strings.TrimSuffix(filepath.Base(filename), filepath.Ext(filename))
	var b strings.Builder
	for i, r := range base {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" || birKeywords[s] {
		s = "C_" + s
	}
	return s
}

// print writes the model.
func (l *lowerer) print(mainFn *function) []byte {
	var w strings.Builder
	name := systemName(l.filename)
	fmt.Fprintf(&w, "// %s: lowered from C by birch (%s)\nsystem %s ()\n", filepath.Base(l.filename), l.cfg.DataModel, name)
	for _, g := range l.globals {
		w.WriteString(directive(g.pos))
		fmt.Fprintf(&w, "%s : %s", g.name, g.t.bir())
		if g.init != "" {
			fmt.Fprintf(&w, " := %s", g.init)
		}
		w.WriteString(";\n")
	}
	w.WriteString(l.memDecls())
	fns := make([]*function, 0, len(l.funcs))
	for _, f := range l.funcs {
		fns = append(fns, f)
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].name < fns[j].name })
	for _, f := range fns {
		w.WriteString("\n")
		w.WriteString(f.text)
	}
	l.printThreads(&w)
	fmt.Fprintf(&w, "\nmain thread $main ()\n")
	var externs []string
	for _, g := range l.globals {
		if g.extern {
			externs = append(externs, fmt.Sprintf("%s := externChoose(%s);", g.name, nondetRange(g.t)))
		}
	}
	if len(externs) > 0 {
		// the globals defined outside the program hold any value
		fmt.Fprintf(&w, "  loc extern:\n    when true do { %s } goto run;\n", strings.Join(externs, " "))
	}
	w.WriteString("  loc run:\n")
	l.memInitSteps(&w, "$start")
	guard := "true"
	if g := l.guardPrefix(); g != "" {
		guard = g
	}
	w.WriteString(directive(pos(mainFn.def.Declarator.Position())))
	fmt.Fprintf(&w, "    when %s do { call %s(); } goto done;\n  loc done:\nend $main;\n\nend %s;\n", guard, mainFn.name, name)
	return []byte(w.String())
}
