package predicate

import (
	"fmt"
	"math"

	"birch/internal/abstraction/smtops"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/smt"
)

// Encoder translates type-checked BIR boolean expressions over one state
// (predicates, weakest preconditions) into solver terms of one
// TermManager, for the cube queries of F and G. Each variable is one
// constant (a local is named after its proc: "Main.x"); booleans are Bool,
// integers, ranges and enum values (by ordinal) are Int, references are
// Int with null as 0. An array variable is an array from Int; a field read
// through a reference, p.f, selects in one array per record field indexed
// by the reference, and a[i] selects in a's array (elements of boolean type
// are stored as 0 or 1). The encoding asserts no domain (a range variable
// may take any integer): the solver then proves fewer implications, never
// more, so F stays an under-approximation.
//
// It handles the forms WP produces from the data a predicate may read:
// literals, variables, enum constants, ! - + && || -> <->, comparisons,
// + - * / % (BIR's truncating division), indexing and field selection,
// conversions T(e) to a fixed-width type (e reduced modulo 2^N with the
// solver's mod by a constant: exact, + - * inside e computing modulo 2^64
// as BIR does there), ~, and the bitwise operators in the forms that are
// linear with mod and div by a constant (smtops.Bitwise: a shift by a
// constant, a mask of low or high bits). Anything else (x.length,
// instanceof, a record or array compared whole, x & y of two variables)
// is an error, and the abstraction treats the formula as unknown.
type Encoder struct {
	tm   *smt.TermManager
	info *types.Info
	vars map[*types.Var]*smt.Term
	flds map[string]*smt.Term
	// facts holds the domain fact of each read encoded so far (a
	// variable, a field or an element); domain collects those of the
	// expression being encoded, for FormulaDomain
	facts  map[*smt.Term]*smt.Term
	domain []*smt.Term
}

// NewEncoder returns an encoder for the expressions that prog has
// type-checked (its own, and those of CheckExpr).
func NewEncoder(tm *smt.TermManager, prog *types.Program) *Encoder {
	return &Encoder{tm: tm, info: prog.Info, vars: map[*types.Var]*smt.Term{}, flds: map[string]*smt.Term{}, facts: map[*smt.Term]*smt.Term{}}
}

// NameVar makes the encoder encode v as the constant name rather than as
// "Proc.x": one instance of a local among several (a copy of the variable
// standing for its value in one frame of a state, when a formula reads
// the same-named locals of two threads or of two frames of one function).
// It must be called before v is first encoded; it fails for a variable
// of a type the encoder does not know.
func (e *Encoder) NameVar(v *types.Var, name string) (err error) {
	defer catchEncode(&err)
	e.vars[v] = e.tm.Const(name, e.sortOf(&ast.Ident{Name: v.Name()}, v.Type()))
	return nil
}

// Var returns the constant that stands for v (created on first use); it
// fails for a variable of a type the encoder does not know.
func (e *Encoder) Var(v *types.Var) (t *smt.Term, err error) {
	defer catchEncode(&err)
	return e.varTerm(&ast.Ident{Name: v.Name()}, v), nil
}

// varTerm is the constant of v, read at x.
func (e *Encoder) varTerm(x ast.Expr, v *types.Var) *smt.Term {
	if t, ok := e.vars[v]; ok {
		return t
	}
	name := v.Name()
	if v.Owner != nil {
		name = v.Owner.Name() + "." + name
	}
	t := e.tm.Const(name, e.sortOf(x, v.Type()))
	e.vars[v] = t
	return t
}

// FormulaDomain encodes a boolean expression as Formula does, and returns
// with it its domain: the conjunction of the facts that hold in every
// state of the model about the values the expression reads (a variable,
// field or element of type int lies in [-2^63, 2^63-1], one of a range
// type in its bounds, an enum value is one of its ordinals, a reference
// is not negative, a boolean element is 0 or 1). A cube query under the
// domain proves what BIR's arithmetic guarantees, as that x < n implies
// that x + 1 does not overflow.
func (e *Encoder) FormulaDomain(x ast.Expr) (t, dom *smt.Term, err error) {
	e.domain = nil
	t, err = e.Formula(x)
	if err != nil {
		return nil, nil, err
	}
	return t, e.tm.And(e.domain...), nil
}

// fact records the domain fact of the read v of type t.
func (e *Encoder) fact(v *smt.Term, t types.Type) {
	f, ok := e.facts[v]
	if !ok {
		f = domainFact(e.tm, v, t)
		e.facts[v] = f
	}
	if f != nil {
		e.domain = append(e.domain, f)
	}
}

// domainFact is the fact about a value v of type t, or nil.
func domainFact(tm *smt.TermManager, v *smt.Term, t types.Type) *smt.Term {
	if !v.IsInt() || t == nil {
		return nil
	}
	between := func(lo, hi int64) *smt.Term { return tm.And(tm.Le(tm.Int(lo), v), tm.Le(v, tm.Int(hi))) }
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch u.Kind {
		case types.Int:
			return between(math.MinInt64, math.MaxInt64)
		case types.Bool:
			return between(0, 1) // an element or field stored as 0 or 1
		}
	case *types.Range:
		// a fixed-width variable too: every store wraps into its bounds
		return between(u.Lo, u.Hi)
	case *types.Enum:
		var ds []*smt.Term
		for _, c := range u.Consts {
			ds = append(ds, tm.Eq(v, tm.Int(c.Ordinal)))
		}
		return tm.Or(ds...)
	case *types.Ref:
		return tm.Le(tm.Int(0), v)
	}
	return nil
}

type encodeError struct{ msg string }

// Formula encodes a boolean expression.
func (e *Encoder) Formula(x ast.Expr) (t *smt.Term, err error) {
	defer catchEncode(&err)
	return e.boolean(x), nil
}

// catchEncode, deferred, turns a panic of fail into *err; it panics again
// with anything else.
func catchEncode(err *error) {
	if r := recover(); r != nil {
		ee, ok := r.(encodeError)
		if !ok {
			panic(r)
		}
		*err = fmt.Errorf("%s", ee.msg)
	}
}

func (e *Encoder) fail(x ast.Expr, what string) {
	panic(encodeError{fmt.Sprintf("cannot encode %s (%s)", format.Expr(x), what)})
}

// sortOf is the sort of a scalar BIR type, and whether it is boolean.
func (e *Encoder) sortOf(x ast.Expr, t types.Type) *smt.Sort {
	if t == nil {
		e.fail(x, "no type")
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch u.Kind {
		case types.Bool:
			return smt.BoolSort
		case types.Int, types.UntypedNull:
			return smt.IntSort
		}
	case *types.Range, *types.Enum, *types.Ref:
		return smt.IntSort
	case *types.Array:
		el := e.sortOf(x, u.Elem)
		if el.IsBool() {
			el = smt.IntSort
		}
		return e.tm.ArraySort(smt.IntSort, el)
	}
	e.fail(x, "a value of type "+t.String())
	return nil
}

func (e *Encoder) isBool(x ast.Expr) bool {
	t := e.info.TypeOf(x)
	return t != nil && types.IsBoolean(t)
}

// boolean encodes a boolean expression as a formula.
func (e *Encoder) boolean(x ast.Expr) *smt.Term {
	tm := e.tm
	if tv := e.info.Types[x]; tv.Value.Kind == types.BoolConst {
		return tm.Bool(tv.Value.Bool)
	}
	switch x := x.(type) {
	case *ast.ParenExpr:
		return e.boolean(x.X)
	case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr:
		v := e.value(x)
		if v.IsBool() {
			return v
		}
		return tm.Eq(v, tm.Int(1)) // a boolean element of an array
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return tm.Not(e.boolean(x.X))
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND:
			return tm.And(e.boolean(x.X), e.boolean(x.Y))
		case token.LOR:
			return tm.Or(e.boolean(x.X), e.boolean(x.Y))
		case token.ARROW:
			return tm.Implies(e.boolean(x.X), e.boolean(x.Y))
		case token.IFF:
			return tm.Eq(e.boolean(x.X), e.boolean(x.Y))
		case token.EQL, token.NEQ:
			if e.isBool(x.X) {
				eq := tm.Eq(e.boolean(x.X), e.boolean(x.Y))
				if x.Op == token.NEQ {
					eq = tm.Not(eq)
				}
				return eq
			}
		}
		if c := smtops.Compare(tm, x.Op, e.scalar(x.X), e.scalar(x.Y)); c != nil {
			return c
		}
	}
	e.fail(x, "not a boolean form the encoder knows")
	return nil
}

// scalar encodes an integer, range, enum or reference expression as Int.
func (e *Encoder) scalar(x ast.Expr) *smt.Term {
	tm := e.tm
	tv := e.info.Types[x]
	switch tv.Value.Kind {
	case types.IntConst:
		return tm.Int(tv.Value.Int)
	case types.BoolConst:
		e.fail(x, "a boolean where a number is needed")
	}
	if b, ok := tv.Type.(*types.Basic); ok && b.Kind == types.UntypedNull {
		return tm.Int(0)
	}
	switch x := x.(type) {
	case *ast.ParenExpr:
		return e.scalar(x.X)
	case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr:
		v := e.value(x)
		if !v.IsInt() {
			e.fail(x, "not a number")
		}
		return v
	case *ast.UnaryExpr:
		switch x.Op {
		case token.SUB:
			return tm.Neg(e.scalar(x.X))
		case token.ADD:
			return e.scalar(x.X)
		case token.TILDE:
			return smtops.Complement(tm, e.scalar(x.X))
		}
	case *ast.BinaryExpr:
		a, b := e.scalar(x.X), e.scalar(x.Y)
		if v := smtops.Arith(tm, x.Op, a, b); v != nil {
			return v
		}
		if v := smtops.Bitwise(tm, x.Op, a, b); v != nil {
			return v
		}
	case *ast.ConvExpr:
		// exact: + - * inside compute modulo 2^64, and 2^N divides 2^64
		if bits, signed, ok := smtops.Width(e.info.TypeOf(x)); ok {
			return smtops.Wrap(tm, e.scalar(x.X), bits, signed)
		}
	}
	e.fail(x, "not a number form the encoder knows")
	return nil
}

// value encodes a location read: a variable, an enum constant, a[i] or
// p.f. Booleans in arrays come out as Int 0/1.
func (e *Encoder) value(x ast.Expr) *smt.Term {
	tm := e.tm
	switch x := x.(type) {
	case *ast.ParenExpr:
		return e.value(x.X)
	case *ast.Ident:
		switch o := e.info.Uses[x].(type) {
		case *types.EnumConst:
			return tm.Int(o.Ordinal)
		case *types.Var:
			t := e.varTerm(x, o)
			e.fact(t, o.Type())
			return t
		}
		e.fail(x, "not a variable")
	case *ast.IndexExpr:
		a := e.value(x.X)
		if !a.IsArray() {
			e.fail(x, "indexing a non-array")
		}
		v := tm.Select(a, e.scalar(x.Index))
		e.fact(v, e.info.TypeOf(x))
		return v
	case *ast.SelectorExpr:
		rt := e.info.TypeOf(x.X)
		ref, ok := rt.Underlying().(*types.Ref)
		if !ok || ref.Target == nil {
			e.fail(x, "a field of a non-reference")
		}
		// one array per field name: fields of different names are
		// different storage, and a subtype's object is read alike
		// through a reference to its supertype
		key := x.Sel.Name
		f, ok := e.flds[key]
		if !ok {
			el := e.sortOf(x, e.info.TypeOf(x))
			if el.IsBool() {
				el = smt.IntSort
			}
			if el.IsArray() {
				e.fail(x, "an array field")
			}
			f = tm.Const("field!"+key, tm.ArraySort(smt.IntSort, el))
			e.flds[key] = f
		}
		v := tm.Select(f, e.scalar(x.X))
		e.fact(v, e.info.TypeOf(x))
		return v
	}
	e.fail(x, "not a location")
	return nil
}
