package types

import (
	"fmt"

	"birch/internal/bir/ast"
	"birch/internal/source"
)

// Config configures the checker; its zero value works.
type Config struct {
	// Error, if set, is called for every error found. Checking continues
	// after each one.
	Error func(err *source.Error)
}

// TypeAndValue is what the checker records for an expression: its type and,
// for a constant expression, its value.
type TypeAndValue struct {
	Type  Type
	Value ConstValue // Kind NoConst unless the expression is constant
	// Wraps is set on a binary + - * or a unary - or + inside the operand
	// of a conversion (down to the first operand that is none of them):
	// it computes modulo 2^64 instead of failing on 64-bit overflow.
	Wraps bool
}

// Info holds the checker's results, keyed by syntax nodes.
type Info struct {
	// Types maps every checked expression to its type (and value).
	Types map[ast.Expr]TypeAndValue
	// Defs maps each declaring identifier to the object it declares.
	Defs map[*ast.Ident]Object
	// Uses maps each identifier that refers to an object to that object.
	Uses map[*ast.Ident]Object
	// TypeExprs maps every type expression to the type it denotes.
	TypeExprs map[ast.TypeExpr]Type
}

// TypeOf returns the type of x, or nil if unknown.
func (info *Info) TypeOf(x ast.Expr) Type { return info.Types[x].Type }

// ObjectOf returns the object id defines or uses, or nil.
func (info *Info) ObjectOf(id *ast.Ident) Object {
	if o := info.Defs[id]; o != nil {
		return o
	}
	return info.Uses[id]
}

// Program is a type-checked BIR system.
type Program struct {
	Fset *source.FileSet
	File *ast.File
	Info *Info
	Name string

	Consts      []*Const
	Types       []*TypeName
	Collections []*Collection
	Globals     []*Var
	Threads     []*Proc
	Functions   []*Proc
	Predicates  []*Predicate
	Properties  []*Property
	Scope       *Scope // the system's global scope
	// Procs is the name space of threads and functions, separate from the
	// global scope so that, as in the paper's Figure 7, a thread may share
	// its name with the record type of its data.
	Procs *Scope
	// Object is the predeclared empty record type.
	Object *TypeName
}

// Lookup returns the global object named name, or nil.
func (p *Program) Lookup(name string) Object { return p.Scope.LookupLocal(name) }

// Check type-checks the system in f. It returns the program (never nil) and
// a sorted source.ErrorList of every error, or nil.
func Check(fset *source.FileSet, f *ast.File, conf *Config) (*Program, error) {
	if conf == nil {
		conf = &Config{}
	}
	c := &checker{
		conf: conf,
		fset: fset,
		info: &Info{
			Types:     map[ast.Expr]TypeAndValue{},
			Defs:      map[*ast.Ident]Object{},
			Uses:      map[*ast.Ident]Object{},
			TypeExprs: map[ast.TypeExpr]Type{},
		},
	}
	c.inits = map[*ast.VarDecl]ConstValue{}
	c.prog = &Program{Fset: fset, File: f, Info: c.info}
	c.checkSystem(f)
	c.errors.Sort()
	return c.prog, c.errors.Err()
}

type checker struct {
	conf   *Config
	fset   *source.FileSet
	info   *Info
	prog   *Program
	errors source.ErrorList
	global *Scope
	procs  *Scope // threads and functions: a name space of their own
	later  []func()
	inits  map[*ast.VarDecl]ConstValue // checked initial values
	// typesResolved is set once every type, subtype and collection
	// declaration is resolved.
	typesResolved bool
}

func (c *checker) errorf(pos source.Pos, format string, args ...any) {
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = source.Excerpt(s) // a name may be a megabyte long
		}
	}
	e := &source.Error{Pos: c.fset.Position(pos), Msg: fmt.Sprintf(format, args...)}
	c.errors = append(c.errors, e)
	if c.conf.Error != nil {
		c.conf.Error(e)
	}
}

func (c *checker) posString(p source.Pos) string {
	pos := c.fset.Position(p)
	if !pos.IsValid() {
		return "predeclared"
	}
	return fmt.Sprintf("%d:%d", pos.Line, pos.Column)
}

func (c *checker) declare(s *Scope, id *ast.Ident, o Object) {
	if id.Name == "_" || id.Name == "" {
		return // a placeholder left by the parser after an error
	}
	if s == c.global && s.parent.LookupLocal(id.Name) != nil {
		c.errorf(id.Pos(), "%s redeclared (it is predeclared)", id.Name)
		return
	}
	if prev := s.insert(o); prev != nil {
		if prev.Pos().IsValid() {
			c.errorf(id.Pos(), "%s redeclared (previous declaration at %s)", id.Name, c.posString(prev.Pos()))
		} else {
			c.errorf(id.Pos(), "%s redeclared (it is predeclared)", id.Name)
		}
		return
	}
	c.info.Defs[id] = o
}

func (c *checker) checkSystem(f *ast.File) {
	sys := f.System
	if sys == nil {
		return
	}
	c.prog.Name = sys.Name.Name
	universe := newScope(nil)
	objTN := &TypeName{object: object{name: "Object"}, state: resolved}
	objTN.typ = &Named{obj: objTN, underlying: &Record{}}
	universe.insert(objTN)
	for _, t := range FixedTypes {
		universe.insert(t.obj)
	}
	c.prog.Object = objTN
	c.global = newScope(universe)
	c.prog.Scope = c.global
	c.procs = newScope(nil)
	c.prog.Procs = c.procs

	if sys.EndName != nil && sys.EndName.Name != "_" && sys.EndName.Name != sys.Name.Name {
		c.errorf(sys.EndName.Pos(), "end %s does not match system %s", sys.EndName.Name, sys.Name.Name)
	}

	// Pass 1: declare every global name, so that everything may refer
	// forward.
	c.collect(sys)
	// Pass 2: resolve types, constants, subtyping and collections.
	for _, t := range c.prog.Types {
		c.resolveTypeName(t)
	}
	for _, k := range c.prog.Consts {
		c.resolveConst(k)
	}
	for _, d := range sys.Decls {
		if d, ok := d.(*ast.ExtendsDecl); ok {
			c.extendsDecl(d)
		}
	}
	for _, col := range c.prog.Collections {
		c.collectionDecl(col)
	}
	c.runLater()
	c.typesResolved = true
	c.checkHierarchy(sys)
	hasMain := false
	for _, p := range c.prog.Threads {
		hasMain = hasMain || p.Main
	}
	if !hasMain && sys.Name.Name != "_" {
		c.errorf(sys.Name.Pos(), "system %s has no main thread: nothing runs in its initial state", sys.Name.Name)
	}
	// Pass 3: globals, proc signatures, bodies.
	for _, g := range c.prog.Globals {
		c.varDecl(g, c.global)
	}
	c.checkStateSize(sys)
	for _, p := range c.prog.Threads {
		c.signature(p)
		c.checkFrameSize(p)
	}
	for _, p := range c.prog.Functions {
		c.signature(p)
		c.checkFrameSize(p)
	}
	for _, p := range c.prog.Threads {
		c.body(p)
	}
	for _, p := range c.prog.Functions {
		c.body(p)
	}
	c.runLater()
	// Pass 4: predicates and properties.
	for _, p := range c.prog.Predicates {
		c.resolvePredicate(p)
	}
	c.properties(sys)
}

// whenTypesResolved runs f once every type, subtype and collection
// declaration is resolved: now, if that is already so.
func (c *checker) whenTypesResolved(f func()) {
	if c.typesResolved {
		f()
		return
	}
	c.later = append(c.later, f)
}

func (c *checker) runLater() {
	for len(c.later) > 0 {
		l := c.later
		c.later = nil
		for _, f := range l {
			f()
		}
	}
}

func (c *checker) collect(sys *ast.System) {
	for _, d := range sys.Decls {
		switch d := d.(type) {
		case *ast.ConstDecl:
			k := &Const{object: object{name: d.Name.Name, pos: d.Name.Pos()}, Decl: d}
			c.declare(c.global, d.Name, k)
			c.prog.Consts = append(c.prog.Consts, k)
		case *ast.TypeDecl:
			t := &TypeName{object: object{name: d.Name.Name, pos: d.Name.Pos()}, Decl: d}
			t.typ = &Named{obj: t}
			c.declare(c.global, d.Name, t)
			c.prog.Types = append(c.prog.Types, t)
			if e, ok := d.Type.(*ast.EnumType); ok {
				// Enum constants are global names: declare them now.
				for _, ec := range e.Consts {
					k := &EnumConst{object: object{name: ec.Name.Name, pos: ec.Name.Pos(), typ: t.typ}, Enum: t.Named(), Decl: ec}
					c.declare(c.global, ec.Name, k)
				}
			}
		case *ast.CollectionDecl:
			col := &Collection{object: object{name: d.Name.Name, pos: d.Name.Pos()}, Decl: d, Index: len(c.prog.Collections)}
			c.declare(c.global, d.Name, col)
			c.prog.Collections = append(c.prog.Collections, col)
		case *ast.VarDecl:
			for _, id := range d.Names {
				v := &Var{object: object{name: id.Name, pos: id.Pos()}, Kind: GlobalVar, Decl: d, Index: len(c.prog.Globals)}
				c.declare(c.global, id, v)
				c.prog.Globals = append(c.prog.Globals, v)
			}
		case *ast.ThreadDecl:
			p := &Proc{object: object{name: d.Name.Name, pos: d.Name.Pos()}, Thread: true, Main: d.Main, ThreadDecl: d, Index: len(c.prog.Threads)}
			c.declare(c.procs, d.Name, p)
			c.prog.Threads = append(c.prog.Threads, p)
		case *ast.FunctionDecl:
			p := &Proc{object: object{name: d.Name.Name, pos: d.Name.Pos()}, FunctionDecl: d, Index: len(c.prog.Functions)}
			c.declare(c.procs, d.Name, p)
			c.prog.Functions = append(c.prog.Functions, p)
		}
	}
	if sys.Predicates != nil {
		for _, d := range sys.Predicates.Predicates {
			p := &Predicate{object: object{name: d.Name.Name, pos: d.Name.Pos(), typ: Typ[Bool]}, Decl: d}
			c.declare(c.global, d.Name, p)
			c.prog.Predicates = append(c.prog.Predicates, p)
		}
	}
}

// ---------------------------------------------------------------------------
// Constants and types

func (c *checker) resolveConst(k *Const) {
	switch k.state {
	case resolved:
		return
	case resolving:
		return // reported where the cycle closes (see ident)
	}
	k.state = resolving
	v, t := c.constExpr(k.Decl.Value, c.global)
	if k.state == resolved { // a cycle was reported meanwhile
		return
	}
	k.Value = v
	k.typ = t
	if v.Kind == NoConst && !isInvalid(t) {
		c.errorf(k.Decl.Value.Pos(), "constant %s must have an integer or boolean value", k.name)
		k.typ = Typ[Invalid]
	}
	if v.Kind == NullConst {
		c.errorf(k.Decl.Value.Pos(), "constant %s must have an integer or boolean value, not null", k.name)
		k.typ = Typ[Invalid]
	}
	if _, isEnum := t.Underlying().(*Enum); isEnum {
		// an enum-valued constant is fine: it keeps its enum type
	} else if v.Kind == IntConst {
		k.typ = Typ[Int]
	}
	k.state = resolved
}

func (c *checker) resolveTypeName(t *TypeName) {
	switch t.state {
	case resolved:
		return
	case resolving:
		c.errorf(t.pos, "type %s is defined in terms of itself", t.name)
		t.Named().underlying = Typ[Invalid]
		t.state = resolved
		return
	}
	t.state = resolving
	n := t.Named()
	var u Type
	switch te := t.Decl.Type.(type) {
	case *ast.EnumType:
		u = c.enumType(te, n)
	case *ast.RecordType:
		u = c.recordType(te)
	case *ast.Ident:
		// `A = B;`: an alias is not part of BIR's grammar
		c.errorf(te.Pos(), "type %s must be defined by a type specification, not by the name %s", t.name, te.Name)
		u = Typ[Invalid]
	default:
		u = c.typExpr(te, true)
		if n2, ok := u.(*Named); ok {
			u = n2.Underlying()
		}
	}
	if t.state == resolved { // cycle reported
		return
	}
	n.underlying = u
	c.info.TypeExprs[t.Decl.Type] = n
	t.state = resolved
}

func (c *checker) enumType(e *ast.EnumType, n *Named) Type {
	en := &Enum{}
	next := int64(0)
	seen := map[int64]*EnumConst{}
	for _, ec := range e.Consts {
		obj, _ := c.info.Defs[ec.Name].(*EnumConst)
		if obj == nil { // redeclared name: make a stand-in
			obj = &EnumConst{object: object{name: ec.Name.Name, pos: ec.Name.Pos(), typ: n}, Enum: n, Decl: ec}
		}
		if ec.Value != nil {
			if v, ok := c.intConst(ec.Value, "enum ordinal of "+ec.Name.Name); ok {
				next = v
			}
		}
		obj.Ordinal = next
		obj.known = true
		if prev := seen[next]; prev != nil {
			c.errorf(ec.Name.Pos(), "enum constant %s has ordinal %d, as %s does", ec.Name.Name, next, prev.name)
		} else {
			seen[next] = obj
		}
		en.Consts = append(en.Consts, obj)
		if next == 1<<63-1 {
			next = 0 // an overflowing ordinal is reported when reached as a duplicate
		} else {
			next++
		}
	}
	if len(e.Consts) == 0 {
		c.errorf(e.Pos(), "enum type must have at least one constant")
	}
	return en
}

func (c *checker) recordType(r *ast.RecordType) Type {
	rec := &Record{}
	fields := newScope(nil)
	for _, d := range r.Fields {
		t := c.typExpr(d.Type, false)
		c.checkValueType(d.Type, t, "field")
		for _, id := range d.Names {
			v := &Var{object: object{name: id.Name, pos: id.Pos(), typ: t}, Kind: FieldVar, Index: len(rec.Fields), Decl: d}
			if prev := fields.insert(v); prev != nil {
				c.errorf(id.Pos(), "field %s redeclared (previous declaration at %s)", id.Name, c.posString(prev.Pos()))
				continue
			}
			c.info.Defs[id] = v
			rec.Fields = append(rec.Fields, v)
		}
	}
	if Slots(rec) > MaxSlots {
		c.errorf(r.Pos(), "the fields of this record take more than %d slots, the bound of a state (docs/bir.md §17)", MaxSlots)
	}
	return rec
}

// typExpr resolves a type expression. named says whether the expression is
// the right-hand side of a type definition (where records and enums may be
// written).
func (c *checker) typExpr(te ast.TypeExpr, named bool) Type {
	t := c.typExpr0(te, named)
	c.info.TypeExprs[te] = t
	return t
}

func (c *checker) typExpr0(te ast.TypeExpr, named bool) Type {
	switch te := te.(type) {
	case *ast.Ident:
		obj := c.global.Lookup(te.Name)
		if obj == nil {
			c.errorf(te.Pos(), "undefined type %s", te.Name)
			return Typ[Invalid]
		}
		c.info.Uses[te] = obj
		tn, ok := obj.(*TypeName)
		if !ok {
			c.errorf(te.Pos(), "%s is not a type", te.Name)
			return Typ[Invalid]
		}
		if tn.Decl != nil {
			// Resolve now, so that the caller sees the underlying type
			// (a record as an array element, say), and catch cycles such
			// as A = array [2] of A; at the name that closes them.
			if tn.state == resolving {
				c.errorf(te.Pos(), "type %s is defined in terms of itself", te.Name)
				tn.Named().underlying = Typ[Invalid]
				tn.state = resolved
				return Typ[Invalid]
			}
			c.resolveTypeName(tn)
		}
		return tn.typ
	case *ast.BasicType:
		switch te.Kind.String() {
		case "boolean":
			return Typ[Bool]
		case "int":
			return Typ[Int]
		case "tid":
			return Typ[Tid]
		}
		return Typ[Invalid]
	case *ast.RangeType:
		lo, lok := c.intConst(te.Lo, "range bound")
		hi, hok := c.intConst(te.Hi, "range bound")
		if !lok || !hok {
			return Typ[Invalid]
		}
		if lo > hi {
			c.errorf(te.Lo.Pos(), "empty range %d..%d: the lower bound exceeds the upper bound", lo, hi)
			return Typ[Invalid]
		}
		return &Range{Lo: lo, Hi: hi}
	case *ast.LockType:
		return &Lock{Wait: te.Wait, Reentrant: te.Reentrant}
	case *ast.ArrayType:
		n := c.sizeExpr(te.Len, "array length")
		elem := c.typExpr(te.Elem, false)
		c.checkValueType(te.Elem, elem, "array element")
		if n < 0 {
			return Typ[Invalid]
		}
		arr := &Array{Len: n, Elem: elem}
		if Slots(arr) > MaxSlots {
			c.errorf(te.Pos(), "array [%d] of %s takes more than %d slots, the bound of a state (docs/bir.md §17)", n, elem.String(), MaxSlots)
			return Typ[Invalid]
		}
		return arr
	case *ast.RefType:
		return c.refType(te)
	case *ast.EnumType:
		if !named {
			c.errorf(te.Pos(), "an enum type must be given a name (Name = enum {…};)")
		}
		return c.enumType(te, &Named{obj: &TypeName{object: object{name: "enum"}}})
	case *ast.RecordType:
		if !named {
			c.errorf(te.Pos(), "a record type must be given a name (Name = record {…};)")
		}
		c.recordType(te)
		return Typ[Invalid]
	case *ast.BadType:
		return Typ[Invalid]
	}
	return Typ[Invalid]
}

// intConst evaluates x as a constant expression of integer type; it reports
// anything else and returns false.
func (c *checker) intConst(x ast.Expr, what string) (int64, bool) {
	v, t := c.constExpr(x, c.global)
	if b, ok := t.(*Basic); ok && b.Kind == Invalid {
		return 0, false // already reported
	}
	// A named type still being resolved (an enum naming its own constant)
	// is not an integer either.
	if v.Kind != IntConst || !IsInteger(t) {
		c.errorf(x.Pos(), "%s must be an integer constant, not %s", what, typeString(t))
		return 0, false
	}
	return v.Int, true
}

// sizeExpr evaluates a positive constant size; it returns -1 after an error.
func (c *checker) sizeExpr(x ast.Expr, what string) int64 {
	n, ok := c.intConst(x, what)
	if !ok {
		return -1
	}
	if n <= 0 {
		c.errorf(x.Pos(), "%s must be positive, not %d", what, n)
		return -1
	}
	return n
}

// checkValueType reports types that cannot be stored in a variable, field or
// array element.
func (c *checker) checkValueType(te ast.TypeExpr, t Type, what string) {
	switch u := t.Underlying().(type) {
	case *Record:
		c.errorf(te.Pos(), "%s cannot have record type %s: records live only in collections (use a ref type)", what, t)
	case *Basic:
		if u.Kind == UntypedNull || u.Kind == String {
			c.errorf(te.Pos(), "%s cannot have type %s", what, t)
		}
	}
}

func (c *checker) refType(te *ast.RefType) Type {
	r := &Ref{All: !te.Lbrace.IsValid()}
	obj := c.global.Lookup(te.Target.Name)
	if obj == nil {
		c.errorf(te.Target.Pos(), "undefined type %s", te.Target.Name)
		return Typ[Invalid]
	}
	c.info.Uses[te.Target] = obj
	tn, ok := obj.(*TypeName)
	if !ok {
		c.errorf(te.Target.Pos(), "%s is not a type", te.Target.Name)
		return Typ[Invalid]
	}
	r.Target = tn.Named()
	for _, id := range te.Collections {
		o := c.global.Lookup(id.Name)
		if o == nil {
			c.errorf(id.Pos(), "undefined collection %s", id.Name)
			continue
		}
		c.info.Uses[id] = o
		col, ok := o.(*Collection)
		if !ok {
			c.errorf(id.Pos(), "%s is not a collection", id.Name)
			continue
		}
		if r.Holds(col) {
			c.errorf(id.Pos(), "collection %s listed twice", id.Name)
			continue
		}
		r.Collections = append(r.Collections, col)
	}
	if te.Lbrace.IsValid() && len(te.Collections) == 0 {
		c.errorf(te.Lbrace, "ref %s lists no collection: write ref %s for every collection of %s and its subtypes", te.Target.Name, te.Target.Name, te.Target.Name)
	}
	// The target's kind and the collections' element types are known only
	// once every type and subtype declaration is resolved.
	c.whenTypesResolved(func() {
		switch r.Target.Underlying().(type) {
		case *Record, *Array:
		default:
			if !isInvalid(r.Target.Underlying()) {
				c.errorf(te.Target.Pos(), "ref target %s must be a record or array type", r.Target)
			}
			return
		}
		if r.All {
			r.Collections = c.collectionsOf(r.Target)
			return
		}
		for i, col := range r.Collections {
			if col.Elem != nil && !IsSubtype(col.Elem, r.Target) {
				c.errorf(te.Collections[i].Pos(), "collection %s holds %s, which is not %s or a subtype of it", col.name, col.Elem, r.Target)
			}
		}
	})
	return r
}

// collectionsOf returns every collection holding t or a subtype of t.
func (c *checker) collectionsOf(t *Named) []*Collection {
	var out []*Collection
	for _, col := range c.prog.Collections {
		if col.Elem != nil && IsSubtype(col.Elem, t) {
			out = append(out, col)
		}
	}
	return out
}

func (c *checker) extendsDecl(d *ast.ExtendsDecl) {
	sub := c.recordName(d.Sub, "a subtype")
	super := c.recordName(d.Super, "a supertype")
	if sub == nil || super == nil {
		return
	}
	if sub == c.prog.Object.Named() {
		c.errorf(d.Sub.Pos(), "Object cannot extend another type")
		return
	}
	if sub.Super != nil {
		c.errorf(d.Sub.Pos(), "%s already extends %s", sub, sub.Super)
		return
	}
	if IsSubtype(super, sub) {
		c.errorf(d.Super.Pos(), "%s extends %s makes a cycle of subtypes", sub, super)
		return
	}
	sub.Super = super
}

func (c *checker) recordName(id *ast.Ident, role string) *Named {
	obj := c.global.Lookup(id.Name)
	if obj == nil {
		c.errorf(id.Pos(), "undefined type %s", id.Name)
		return nil
	}
	c.info.Uses[id] = obj
	tn, ok := obj.(*TypeName)
	if !ok {
		c.errorf(id.Pos(), "%s is not a type", id.Name)
		return nil
	}
	n := tn.Named()
	if _, ok := n.Underlying().(*Record); !ok {
		if !isInvalid(n.Underlying()) {
			c.errorf(id.Pos(), "%s must be a record type to be %s, not %s", id.Name, role, n.Underlying())
		}
		return nil
	}
	return n
}

// checkHierarchy enforces the prefix rule: a supertype's fields are the
// first fields of each subtype, with the same names and types.
func (c *checker) checkHierarchy(sys *ast.System) {
	for _, d := range sys.Decls {
		d, ok := d.(*ast.ExtendsDecl)
		if !ok {
			continue
		}
		sub, _ := c.info.Uses[d.Sub].(*TypeName)
		super, _ := c.info.Uses[d.Super].(*TypeName)
		if sub == nil || super == nil || sub.Named().Super != super.Named() {
			continue
		}
		sr, ok1 := sub.Named().Underlying().(*Record)
		tr, ok2 := super.Named().Underlying().(*Record)
		if !ok1 || !ok2 {
			continue
		}
		if len(tr.Fields) > len(sr.Fields) {
			c.errorf(d.Sub.Pos(), "%s extends %s but has fewer fields: the fields of %s must be a prefix of those of %s", sub.name, super.name, super.name, sub.name)
			continue
		}
		for i, f := range tr.Fields {
			g := sr.Fields[i]
			if f.name != g.name || !Identical(f.typ, g.typ) {
				c.errorf(d.Sub.Pos(), "%s extends %s but its field %d is %s : %s, not %s : %s (the fields of %s must be a prefix of those of %s)",
					sub.name, super.name, i+1, g.name, g.typ, f.name, f.typ, super.name, sub.name)
				break
			}
		}
	}
}

func (c *checker) collectionDecl(col *Collection) {
	d := col.Decl
	col.Size = 3
	if d.Size != nil {
		if n := c.sizeExpr(d.Size, "collection size"); n > 0 {
			col.Size = n
		}
	}
	obj := c.global.Lookup(d.Elem.Name)
	if obj == nil {
		c.errorf(d.Elem.Pos(), "undefined type %s", d.Elem.Name)
		return
	}
	c.info.Uses[d.Elem] = obj
	tn, ok := obj.(*TypeName)
	if !ok {
		c.errorf(d.Elem.Pos(), "%s is not a type", d.Elem.Name)
		return
	}
	n := tn.Named()
	switch n.Underlying().(type) {
	case *Record, *Array:
		col.Elem = n
		col.typ = n
	default:
		if !isInvalid(n.Underlying()) {
			c.errorf(d.Elem.Pos(), "collection elements must be of a record or array type, not %s", n.Underlying())
		}
	}
}
