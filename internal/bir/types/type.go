package types

import (
	"fmt"
	"strings"
)

// Type is a BIR type.
type Type interface {
	// Underlying returns the type a Named type stands for; other types
	// return themselves.
	Underlying() Type
	String() string
}

// BasicKind enumerates the basic types.
type BasicKind int

// The basic kinds.
const (
	Invalid     BasicKind = iota // a type that could not be determined (after an error)
	Bool                         // boolean
	Int                          // int: 64-bit signed integers
	Tid                          // tid: thread identifiers
	UntypedNull                  // the type of null
	String                       // the type of string literals in println
)

// Basic is a predeclared type.
type Basic struct {
	Kind BasicKind
	name string
}

// Predeclared basic types.
var (
	Typ = [...]*Basic{
		Invalid:     {Invalid, "invalid type"},
		Bool:        {Bool, "boolean"},
		Int:         {Int, "int"},
		Tid:         {Tid, "tid"},
		UntypedNull: {UntypedNull, "null"},
		String:      {String, "string"},
	}
)

func (b *Basic) Underlying() Type { return b }
func (b *Basic) String() string   { return b.name }

// Range is `range Lo..Hi`.
type Range struct {
	Lo, Hi int64
}

func (r *Range) Underlying() Type { return r }
func (r *Range) String() string   { return fmt.Sprintf("range %d..%d", r.Lo, r.Hi) }

// Enum is an enumeration; its constants are in declaration order.
type Enum struct {
	Consts []*EnumConst
}

func (e *Enum) Underlying() Type { return e }
func (e *Enum) String() string {
	var b strings.Builder
	b.WriteString("enum {")
	for i, c := range e.Consts {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s = %d", c.name, c.Ordinal)
	}
	b.WriteString("}")
	return b.String()
}

// Record is a record type; Fields are in declaration order (for a subtype,
// the supertype's fields come first).
type Record struct {
	Fields []*Var
}

func (r *Record) Underlying() Type { return r }
func (r *Record) String() string {
	var b strings.Builder
	b.WriteString("record {")
	for _, f := range r.Fields {
		fmt.Fprintf(&b, " %s : %s;", f.name, f.typ)
	}
	b.WriteString(" }")
	return b.String()
}

// Field returns the field named name, or nil.
func (r *Record) Field(name string) *Var {
	for _, f := range r.Fields {
		if f.name == name {
			return f
		}
	}
	return nil
}

// Array is `array [Len] of Elem`. In a variable it holds exactly Len
// elements; as a collection's element type Len is the maximum length.
type Array struct {
	Len  int64
	Elem Type
}

func (a *Array) Underlying() Type { return a }
func (a *Array) String() string   { return fmt.Sprintf("array [%d] of %s", a.Len, a.Elem) }

// Lock is `lock [wait] [reentrant]`.
type Lock struct {
	Wait, Reentrant bool
}

func (l *Lock) Underlying() Type { return l }
func (l *Lock) String() string {
	s := "lock"
	if l.Wait {
		s += " wait"
	}
	if l.Reentrant {
		s += " reentrant"
	}
	return s
}

// Ref is `ref Target {Collections}`: null or a reference to an object of
// Target or one of its subtypes held in one of Collections. For `ref T`
// without a list (All), Collections holds every collection of T and its
// subtypes.
type Ref struct {
	Target      *Named
	Collections []*Collection
	All         bool
}

func (r *Ref) Underlying() Type { return r }
func (r *Ref) String() string {
	if r.Target == nil {
		return "ref ?"
	}
	if r.All {
		return "ref " + r.Target.obj.name
	}
	var names []string
	for _, c := range r.Collections {
		names = append(names, c.name)
	}
	return "ref " + r.Target.obj.name + " {" + strings.Join(names, ", ") + "}"
}

// Holds reports whether c is among r's collections.
func (r *Ref) Holds(c *Collection) bool {
	for _, x := range r.Collections {
		if x == c {
			return true
		}
	}
	return false
}

// Named is a type declared with a name (`Msg = record {…};`). Records and
// enums are compared by name.
type Named struct {
	obj        *TypeName
	underlying Type
	// Super is the supertype named by `Name extends Super;`, or nil.
	Super *Named
}

// Obj returns the type's declaring object.
func (n *Named) Obj() *TypeName { return n.obj }

func (n *Named) Underlying() Type {
	if n.underlying == nil {
		return Typ[Invalid]
	}
	return n.underlying
}
func (n *Named) String() string { return n.obj.name }

// IsSubtype reports whether s is t or a (transitive) subtype of t.
func IsSubtype(s, t *Named) bool {
	seen := 0
	for x := s; x != nil && seen < 1000; x = x.Super {
		if x == t {
			return true
		}
		seen++
	}
	return false
}

// Related reports whether s and t are on one line of the subtype hierarchy.
func Related(s, t *Named) bool { return IsSubtype(s, t) || IsSubtype(t, s) }

// IsInteger reports whether t is int or a range type.
func IsInteger(t Type) bool {
	switch u := t.Underlying().(type) {
	case *Basic:
		return u.Kind == Int
	case *Range:
		return true
	}
	return false
}

// IsBoolean reports whether t is boolean.
func IsBoolean(t Type) bool {
	b, ok := t.Underlying().(*Basic)
	return ok && b.Kind == Bool
}

func isKind(t Type, k BasicKind) bool {
	b, ok := t.Underlying().(*Basic)
	return ok && b.Kind == k
}

func isInvalid(t Type) bool { return t == nil || isKind(t, Invalid) }

// Identical reports whether x and y are the same type.
func Identical(x, y Type) bool {
	if x == y {
		return true
	}
	switch x := x.(type) {
	case *Named:
		return false // named types are identical only to themselves
	case *Basic:
		y, ok := y.(*Basic)
		return ok && x.Kind == y.Kind
	case *Range:
		y, ok := y.(*Range)
		return ok && x.Lo == y.Lo && x.Hi == y.Hi
	case *Array:
		y, ok := y.(*Array)
		return ok && x.Len == y.Len && Identical(x.Elem, y.Elem)
	case *Lock:
		y, ok := y.(*Lock)
		return ok && *x == *y
	case *Ref:
		y, ok := y.(*Ref)
		if !ok || x.Target != y.Target || len(x.Collections) != len(y.Collections) {
			return false
		}
		for _, c := range x.Collections {
			if !y.Holds(c) {
				return false
			}
		}
		return true
	}
	return false
}

// containsLock reports whether values of t contain a lock.
func containsLock(t Type) bool {
	switch u := t.Underlying().(type) {
	case *Lock:
		return true
	case *Array:
		return containsLock(u.Elem)
	}
	return false
}

// underlying is t.Underlying(), or nil for a nil t.
func underlying(t Type) Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}
