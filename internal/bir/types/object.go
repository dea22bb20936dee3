package types

import (
	"birch/internal/bir/ast"
	"birch/internal/source"
)

// Object is a named entity of a BIR program.
type Object interface {
	Name() string
	Pos() source.Pos // where it is declared (NoPos for predeclared objects)
	Type() Type      // its type, or nil for objects without one
	isObject()
}

type object struct {
	name string
	pos  source.Pos
	typ  Type
}

func (o *object) Name() string    { return o.name }
func (o *object) Pos() source.Pos { return o.pos }
func (o *object) Type() Type      { return o.typ }
func (o *object) isObject()       {}

// ConstValue is the value of a constant expression: an integer, a boolean,
// or null.
type ConstValue struct {
	Kind ConstKind
	Int  int64 // also the ordinal of an enum constant
	Bool bool
}

// ConstKind says what a ConstValue holds.
type ConstKind int

// Constant kinds.
const (
	NoConst ConstKind = iota
	IntConst
	BoolConst
	NullConst
)

func (v ConstValue) String() string {
	switch v.Kind {
	case IntConst:
		return itoa(v.Int)
	case BoolConst:
		if v.Bool {
			return "true"
		}
		return "false"
	case NullConst:
		return "null"
	}
	return "?"
}

// Const is `const N 3;`.
type Const struct {
	object
	Value ConstValue
	Decl  *ast.ConstDecl
	state resolveState
}

// TypeName is a declared type (`Name = …;`) or the predeclared Object.
type TypeName struct {
	object
	Decl  *ast.TypeDecl // nil for Object
	state resolveState
}

// Named returns the named type the TypeName declares.
func (t *TypeName) Named() *Named { n, _ := t.typ.(*Named); return n }

// Collection is `Name : collection [Size] of Elem;`.
type Collection struct {
	object
	Elem  *Named // a record or array type
	Size  int64
	Index int // position among the system's collections
	Decl  *ast.CollectionDecl
}

// VarKind says where a variable lives.
type VarKind int

// Variable kinds.
const (
	GlobalVar VarKind = iota
	LocalVar
	ParamVar
	FieldVar
	// ThisVar is `this` in a record context of a predicate file
	// (`[record T]`): the object the predicate describes (Program.NewThis).
	ThisVar
)

// Var is a global, a local, a parameter, a record field, or the `this` of
// a record context.
type Var struct {
	object
	Kind  VarKind
	Owner *Proc      // the thread or function of a local or parameter
	Index int        // position among its kind in its owner (or among globals, or fields)
	Init  ConstValue // initial value (Kind NoConst: the type's default)
	Decl  *ast.VarDecl
}

// EnumConst is a constant of an enum type.
type EnumConst struct {
	object
	Ordinal int64
	Enum    *Named
	Decl    *ast.EnumConst
	known   bool // Ordinal is computed
}

// Proc is a thread or a function.
type Proc struct {
	object
	Thread       bool // a thread; otherwise a function
	Main         bool // a main thread
	Params       []*Var
	Locals       []*Var
	Result       Type // a function's result type, or nil
	Locations    []*Location
	Started      bool // some start action names this thread
	Index        int  // position among threads or among functions
	scope        *Scope
	locs         map[string]*Location
	ThreadDecl   *ast.ThreadDecl   // or nil
	FunctionDecl *ast.FunctionDecl // or nil
}

// Location returns the location named name, or nil.
func (p *Proc) Location(name string) *Location { return p.locs[name] }

// Body returns the syntax of the proc's body.
func (p *Proc) Body() *ast.Body {
	if p.ThreadDecl != nil {
		return p.ThreadDecl.Body
	}
	return p.FunctionDecl.Body
}

// Vars returns the parameters followed by the locals.
func (p *Proc) Vars() []*Var {
	out := append([]*Var(nil), p.Params...)
	return append(out, p.Locals...)
}

// Location is `loc NAME:` inside a thread or function.
type Location struct {
	object
	Proc  *Proc
	Index int // position in Proc.Locations; 0 is the initial location
	// Live lists the live variables; nil when the location has no live set
	// (every variable is live).
	Live    []*Var
	HasLive bool
	Decl    *ast.Location
}

// Dead returns the variables of l's thread or function that are not live
// at l (those a model resets to their defaults on arriving there), or nil
// when l has no live set.
func (l *Location) Dead() []*Var {
	if !l.HasLive {
		return nil
	}
	live := map[*Var]bool{}
	for _, v := range l.Live {
		live[v] = true
	}
	var out []*Var
	for _, v := range l.Proc.Vars() {
		if !live[v] {
			out = append(out, v)
		}
	}
	return out
}

// Predicate is `name = EXPR;` in the predicates section.
type Predicate struct {
	object
	Decl  *ast.PredicateDecl
	state resolveState
}

// Property is `invariant NAME: EXPR;` or `ltl NAME: FORMULA;`.
type Property struct {
	object
	LTL  bool
	Decl *ast.PropertyDecl
}

type resolveState int

const (
	unresolved resolveState = iota
	resolving
	resolved
)

func itoa(v int64) string {
	if v == 0 {
		return "0"
	}
	neg := v < 0
	var buf [24]byte
	i := len(buf)
	u := uint64(v)
	if neg {
		u = uint64(-v)
	}
	for u > 0 {
		i--
		buf[i] = byte('0' + u%10)
		u /= 10
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}

// Scope maps names to objects, with a parent for lookup.
type Scope struct {
	parent *Scope
	names  map[string]Object
}

func newScope(parent *Scope) *Scope { return &Scope{parent: parent, names: map[string]Object{}} }

// Lookup finds name in s or its parents.
func (s *Scope) Lookup(name string) Object {
	for ; s != nil; s = s.parent {
		if o, ok := s.names[name]; ok {
			return o
		}
	}
	return nil
}

// LookupLocal finds name in s only.
func (s *Scope) LookupLocal(name string) Object { return s.names[name] }

// insert adds o, returning the object already there, if any.
func (s *Scope) insert(o Object) Object {
	if prev, ok := s.names[o.Name()]; ok {
		return prev
	}
	s.names[o.Name()] = o
	return nil
}
