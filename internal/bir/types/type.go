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

// Range is `range Lo..Hi`, or, with Wrap set, the underlying type of a
// fixed-width integer type (int8 … uint64; see FixedTypes).
type Range struct {
	Lo, Hi int64
	// Wrap says that a store into a location of this type reduces the
	// value modulo 2^Bits into Lo..Hi (WrapValue) instead of failing as a
	// range error.
	Wrap bool
	// Bits is the width of a fixed-width type (8, 16, 32 or 64); 0 when
	// Wrap is false.
	Bits int
}

func (r *Range) Underlying() Type { return r }
func (r *Range) String() string {
	if r.Wrap {
		return fixedName(r.Bits, r.Unsigned())
	}
	return fmt.Sprintf("range %d..%d", r.Lo, r.Hi)
}

// Span is Hi-Lo, the number of r's values less one, computed without the
// int64 overflow of Hi-Lo for a range of more than 2^63 values (int64,
// range -9223372036854775808..0). Enumerate r's values as Lo+k for k in
// 0..Span: a loop `for v := Lo; v <= Hi; v++` never ends when Hi is
// 9223372036854775807.
func (r *Range) Span() uint64 { return uint64(r.Hi) - uint64(r.Lo) }

// Unsigned reports whether r is a fixed-width unsigned type (uint8 …
// uint64).
func (r *Range) Unsigned() bool { return r.Wrap && r.Lo == 0 }

// WrapValue returns v, a 64-bit two's complement value, reduced modulo
// 2^r.Bits into r's range, as a store into a fixed-width location does.
// ok is false when the result is not representable: for uint64, whose
// values from 2^63 on birch does not hold (docs/bir.md §5), when v is
// negative. For a range without Wrap it returns v, and ok says whether v
// lies in Lo..Hi.
func (r *Range) WrapValue(v int64) (w int64, ok bool) {
	if !r.Wrap {
		return v, r.Lo <= v && v <= r.Hi
	}
	if r.Bits >= 64 {
		if r.Unsigned() {
			return v, v >= 0
		}
		return v, true
	}
	shift := uint(64 - r.Bits)
	if r.Unsigned() {
		return int64(uint64(v) << shift >> shift), true
	}
	return v << shift >> shift, true
}

// FixedTypes are the predeclared fixed-width integer types, in the order
// int8 int16 int32 int64 uint8 uint16 uint32 uint64. Each is a *Named whose
// underlying type is a *Range with Wrap set, Bits its width and Lo..Hi its
// two's complement or unsigned range, except that uint64's Hi is 2^63-1:
// birch holds 64-bit values, and a uint64 value from 2^63 on is a limit of
// the check (docs/bir.md §5). They are shared by every program, so
// Identical compares them by identity like any named type.
var FixedTypes = func() []*Named {
	var out []*Named
	for _, unsigned := range []bool{false, true} {
		for _, bits := range []int{8, 16, 32, 64} {
			r := &Range{Wrap: true, Bits: bits}
			switch {
			case unsigned && bits == 64:
				r.Lo, r.Hi = 0, 1<<63-1
			case unsigned:
				r.Lo, r.Hi = 0, 1<<bits-1
			default:
				r.Lo, r.Hi = -1<<(bits-1), 1<<(bits-1)-1
			}
			tn := &TypeName{object: object{name: fixedName(bits, unsigned)}, state: resolved}
			tn.typ = &Named{obj: tn, underlying: r}
			out = append(out, tn.Named())
		}
	}
	return out
}()

func fixedName(bits int, unsigned bool) string {
	s := fmt.Sprintf("int%d", bits)
	if unsigned {
		s = "u" + s
	}
	return s
}

// IsFixed reports whether t is a fixed-width integer type.
func IsFixed(t Type) bool {
	r, ok := underlying(t).(*Range)
	return ok && r.Wrap
}

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

// IsInteger reports whether t is int or a range type (fixed-width types
// included).
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
		return ok && *x == *y
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
