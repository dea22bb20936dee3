package types

import (
	"strconv"

	"birch/internal/source"

	"birch/internal/bir/ast"
	"birch/internal/bir/token"
)

// exprCtx says where an expression occurs.
type exprCtx struct {
	scope     *Scope
	proc      *Proc // the enclosing thread or function, or nil
	invisible bool  // inside an invisible transformation: locals only
	props     bool  // inside a predicate or property
	ltl       bool  // inside an ltl formula
	constOnly bool  // a constant expression is required
	wrap      bool  // inside a conversion's operand: + - * compute modulo 2^64
}

type opMode int

const (
	invalid  opMode = iota
	value           // a computed value
	variable        // an assignable location
	constant        // a constant with a known value
	formula         // a temporal formula (ltl only)
)

type operand struct {
	mode opMode
	typ  Type
	val  ConstValue
}

var invalidOp = operand{mode: invalid, typ: Typ[Invalid]}

func (c *checker) record(x ast.Expr, op operand) operand {
	if op.typ == nil {
		op.typ = Typ[Invalid]
	}
	tv := TypeAndValue{Type: op.typ}
	if op.mode == constant {
		tv.Value = op.val
	}
	c.info.Types[x] = tv
	return op
}

// constExpr checks x as a constant expression and returns its value and
// type. A non-constant x is reported here and yields NoConst with type
// Invalid.
func (c *checker) constExpr(x ast.Expr, scope *Scope) (ConstValue, Type) {
	op := c.expr(x, &exprCtx{scope: scope, constOnly: true})
	if op.mode == invalid {
		return ConstValue{}, Typ[Invalid]
	}
	if op.mode != constant {
		c.errorf(x.Pos(), "%s is not a constant expression", exprString(x))
		return ConstValue{}, Typ[Invalid]
	}
	return op.val, op.typ
}

// boolExpr checks a guard, assertion or condition.
func (c *checker) boolExpr(x ast.Expr, ctx *exprCtx, what string) {
	op := c.expr(x, ctx)
	if op.mode == invalid {
		return
	}
	if op.mode == formula && !ctx.ltl {
		c.errorf(x.Pos(), "temporal operators are allowed only in ltl formulas")
		return
	}
	if !IsBoolean(op.typ) {
		c.errorf(x.Pos(), "%s must be boolean, not %s", what, op.typ)
	}
}

func (c *checker) expr(x ast.Expr, ctx *exprCtx) operand {
	if ctx.wrap && !WrapsInConversion(x) {
		nc := *ctx
		nc.wrap = false
		ctx = &nc
	}
	op := c.record(x, c.expr0(x, ctx))
	if ctx.wrap && op.mode != invalid {
		if _, paren := x.(*ast.ParenExpr); !paren {
			tv := c.info.Types[x]
			tv.Wraps = true
			c.info.Types[x] = tv
		}
	}
	return op
}

// WrapsInConversion reports whether x, met in the operand of a conversion,
// keeps that operand's modulo-2^64 arithmetic for its own operands: a
// binary + - *, a unary - or +, or parentheses.
func WrapsInConversion(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.BinaryExpr:
		return x.Op == token.ADD || x.Op == token.SUB || x.Op == token.MUL
	case *ast.UnaryExpr:
		return x.Op == token.SUB || x.Op == token.ADD
	case *ast.ParenExpr:
		return true
	}
	return false
}

func (c *checker) expr0(x ast.Expr, ctx *exprCtx) operand {
	switch x := x.(type) {
	case *ast.BadExpr:
		return invalidOp
	case *ast.Ident:
		return c.ident(x, ctx)
	case *ast.BasicLit:
		switch x.Kind {
		case token.INT:
			v, err := strconv.ParseInt(x.Value, 10, 64)
			if err != nil {
				c.errorf(x.Pos(), "integer literal %s does not fit in 64 bits", x.Value)
				return invalidOp
			}
			return operand{mode: constant, typ: Typ[Int], val: ConstValue{Kind: IntConst, Int: v}}
		case token.TRUE, token.FALSE:
			return operand{mode: constant, typ: Typ[Bool], val: ConstValue{Kind: BoolConst, Bool: x.Kind == token.TRUE}}
		case token.NULL:
			return operand{mode: constant, typ: Typ[UntypedNull], val: ConstValue{Kind: NullConst}}
		case token.STRING:
			c.errorf(x.Pos(), "string literals are allowed only as arguments of println")
			return invalidOp
		}
		return invalidOp
	case *ast.ParenExpr:
		op := c.expr(x.X, ctx)
		if op.mode == variable {
			op.mode = value
		}
		return op
	case *ast.UnaryExpr:
		return c.unary(x, ctx)
	case *ast.BinaryExpr:
		return c.binary(x, ctx)
	case *ast.ConvExpr:
		return c.conversion(x, ctx)
	case *ast.SelectorExpr:
		return c.selector(x, ctx)
	case *ast.LengthExpr:
		op := c.expr(x.X, ctx)
		if op.mode == invalid {
			return invalidOp
		}
		if c.notConst(x, ctx) {
			return invalidOp
		}
		if r, ok := op.typ.Underlying().(*Ref); ok && isInvalid(r.Target) {
			return invalidOp
		}
		switch u := op.typ.Underlying().(type) {
		case *Array:
			return operand{mode: value, typ: Typ[Int]}
		case *Ref:
			if _, ok := u.Target.Underlying().(*Array); ok {
				c.noDeref(x, ctx)
				return operand{mode: value, typ: Typ[Int]}
			}
		}
		c.errorf(x.LengthPos, "%s has no length: it is of type %s, not an array", exprString(x.X), op.typ)
		return invalidOp
	case *ast.IndexExpr:
		return c.index(x, ctx)
	case *ast.InstanceofExpr:
		return c.instanceof(x, ctx)
	case *ast.BuiltinExpr:
		return c.builtin(x, ctx)
	case *ast.LocationTest:
		return c.locationTest(x, ctx)
	case *ast.RemoteRef:
		return c.remoteRef(x, ctx)
	}
	return invalidOp
}

func (c *checker) notConst(x ast.Expr, ctx *exprCtx) bool {
	if ctx.constOnly {
		c.errorf(x.Pos(), "%s is not a constant expression", exprString(x))
		return true
	}
	return false
}

func (c *checker) noDeref(x ast.Expr, ctx *exprCtx) {
	if ctx.invisible {
		c.errorf(x.Pos(), "invisible transformation dereferences %s: it may touch only its thread's locals (make the transformation visible)", exprString(x))
	}
}

func (c *checker) ident(x *ast.Ident, ctx *exprCtx) operand {
	if x.Name == "_" {
		return invalidOp // placeholder after a syntax error
	}
	obj := ctx.scope.Lookup(x.Name)
	if obj == nil {
		obj = c.procs.Lookup(x.Name)
	}
	if obj == nil {
		c.errorf(x.Pos(), "undefined: %s", x.Name)
		return invalidOp
	}
	c.info.Uses[x] = obj
	switch obj := obj.(type) {
	case *Const:
		if obj.state == resolving {
			c.errorf(x.Pos(), "constant %s is defined in terms of itself", x.Name)
			obj.typ = Typ[Invalid]
			obj.state = resolved
			return invalidOp
		}
		c.resolveConst(obj)
		if isInvalid(obj.typ) {
			return invalidOp
		}
		return operand{mode: constant, typ: obj.typ, val: obj.Value}
	case *EnumConst:
		if tn := obj.Enum.obj; tn.Decl != nil {
			if tn.state == resolving {
				// inside the enum's own definition: its constants'
				// ordinals are known one by one
				if !obj.known {
					c.errorf(x.Pos(), "enum constant %s is used before its ordinal is known", x.Name)
					return invalidOp
				}
			} else {
				c.resolveTypeName(tn)
			}
		}
		return operand{mode: constant, typ: obj.Enum, val: ConstValue{Kind: IntConst, Int: obj.Ordinal}}
	case *Var:
		if ctx.constOnly {
			c.errorf(x.Pos(), "%s is a variable, not a constant", x.Name)
			return invalidOp
		}
		if ctx.invisible && obj.Kind == GlobalVar {
			c.errorf(x.Pos(), "invisible transformation uses global %s: it may touch only its thread's locals (make the transformation visible)", x.Name)
		}
		if isInvalid(obj.typ) {
			return invalidOp // its type was reported
		}
		return operand{mode: variable, typ: obj.typ}
	case *Predicate:
		if !ctx.props {
			c.errorf(x.Pos(), "predicate %s may be used only in predicates and properties", x.Name)
			return invalidOp
		}
		if obj.state == resolving {
			c.errorf(x.Pos(), "predicate %s is defined in terms of itself", x.Name)
			return invalidOp
		}
		c.resolvePredicate(obj)
		return operand{mode: value, typ: Typ[Bool]}
	case *TypeName:
		c.errorf(x.Pos(), "%s is a type, not a value", x.Name)
	case *Collection:
		c.errorf(x.Pos(), "%s is a collection, not a value", x.Name)
	case *Proc:
		if obj.Thread {
			c.errorf(x.Pos(), "%s is a thread, not a value", x.Name)
		} else {
			c.errorf(x.Pos(), "%s is a function, not a value (call it with call)", x.Name)
		}
	default:
		c.errorf(x.Pos(), "%s is not a value", x.Name)
	}
	return invalidOp
}

// minInt64Lit is the literal that is a valid constant only when negated.
const minInt64Lit = "9223372036854775808"

func (c *checker) unary(x *ast.UnaryExpr, ctx *exprCtx) operand {
	if lit, ok := x.X.(*ast.BasicLit); ok && x.Op == token.SUB && lit.Kind == token.INT && lit.Value == minInt64Lit {
		// -9223372036854775808, the smallest int, as in Java.
		c.record(lit, operand{mode: value, typ: Typ[Int]})
		return operand{mode: constant, typ: Typ[Int], val: ConstValue{Kind: IntConst, Int: -1 << 63}}
	}
	op := c.expr(x.X, ctx)
	if op.mode == invalid {
		return invalidOp
	}
	switch x.Op {
	case token.NOT:
		if !IsBoolean(op.typ) {
			c.errorf(x.OpPos, "operator ! needs a boolean operand, not %s", op.typ)
			return invalidOp
		}
		if op.mode == constant {
			return operand{mode: constant, typ: Typ[Bool], val: ConstValue{Kind: BoolConst, Bool: !op.val.Bool}}
		}
		if op.mode == formula {
			return op
		}
		return operand{mode: value, typ: Typ[Bool]}
	case token.SUB, token.ADD:
		if op.mode == formula || !IsInteger(op.typ) {
			c.errorf(x.OpPos, "operator %s needs an integer operand, not %s", x.Op, op.typ)
			return invalidOp
		}
		if op.mode == constant {
			v := op.val.Int
			if x.Op == token.SUB {
				if v == -1<<63 && !ctx.wrap {
					c.errorf(x.OpPos, "constant overflow: -(%d) does not fit in 64 bits", v)
					return invalidOp
				}
				v = -v
			}
			return operand{mode: constant, typ: Typ[Int], val: ConstValue{Kind: IntConst, Int: v}}
		}
		return operand{mode: value, typ: Typ[Int]}
	case token.TILDE:
		if op.mode == formula || !IsInteger(op.typ) {
			c.errorf(x.OpPos, "operator ~ needs an integer operand, not %s", op.typ)
			return invalidOp
		}
		if op.mode == constant {
			return operand{mode: constant, typ: Typ[Int], val: ConstValue{Kind: IntConst, Int: ^op.val.Int}}
		}
		return operand{mode: value, typ: Typ[Int]}
	case token.ALWAYS, token.EVENTUAL, token.NEXT:
		if !ctx.ltl {
			c.errorf(x.OpPos, "temporal operator %s is allowed only in ltl formulas", x.Op)
			return invalidOp
		}
		if !IsBoolean(op.typ) {
			c.errorf(x.OpPos, "temporal operator %s needs a boolean operand, not %s", x.Op, op.typ)
			return invalidOp
		}
		return operand{mode: formula, typ: Typ[Bool]}
	}
	c.errorf(x.OpPos, "unknown unary operator %s", x.Op)
	return invalidOp
}

func (c *checker) binary(x *ast.BinaryExpr, ctx *exprCtx) operand {
	l := c.expr(x.X, ctx)
	r := c.expr(x.Y, ctx)
	if l.mode == invalid || r.mode == invalid {
		return invalidOp
	}
	isFormula := l.mode == formula || r.mode == formula
	switch x.Op {
	case token.LAND, token.LOR, token.ARROW, token.IFF:
		if !IsBoolean(l.typ) || !IsBoolean(r.typ) {
			c.errorf(x.OpPos, "operator %s needs boolean operands, not %s and %s", x.Op, l.typ, r.typ)
			return invalidOp
		}
		if (x.Op == token.ARROW || x.Op == token.IFF) && !ctx.props {
			c.errorf(x.OpPos, "operator %s is allowed only in predicates and properties", x.Op)
			return invalidOp
		}
		if isFormula {
			return operand{mode: formula, typ: Typ[Bool]}
		}
		if l.mode == constant && r.mode == constant {
			a, b := l.val.Bool, r.val.Bool
			var v bool
			switch x.Op {
			case token.LAND:
				v = a && b
			case token.LOR:
				v = a || b
			case token.ARROW:
				v = !a || b
			case token.IFF:
				v = a == b
			}
			return operand{mode: constant, typ: Typ[Bool], val: ConstValue{Kind: BoolConst, Bool: v}}
		}
		return operand{mode: value, typ: Typ[Bool]}
	case token.UNTIL, token.RELEASE, token.WEAKUNTIL:
		if !ctx.ltl {
			c.errorf(x.OpPos, "temporal operator %s is allowed only in ltl formulas", x.Op)
			return invalidOp
		}
		if !IsBoolean(l.typ) || !IsBoolean(r.typ) {
			c.errorf(x.OpPos, "temporal operator %s needs boolean operands, not %s and %s", x.Op, l.typ, r.typ)
			return invalidOp
		}
		return operand{mode: formula, typ: Typ[Bool]}
	}
	if isFormula {
		c.errorf(x.OpPos, "operator %s cannot take a temporal formula as operand", x.Op)
		return invalidOp
	}
	switch x.Op {
	case token.EQL, token.NEQ:
		if !c.comparable(l.typ, r.typ) {
			c.errorf(x.OpPos, "cannot compare %s and %s with %s", l.typ, r.typ, x.Op)
			return invalidOp
		}
		if l.mode == constant && r.mode == constant {
			eq := l.val == r.val
			if x.Op == token.NEQ {
				eq = !eq
			}
			return operand{mode: constant, typ: Typ[Bool], val: ConstValue{Kind: BoolConst, Bool: eq}}
		}
		return operand{mode: value, typ: Typ[Bool]}
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		ok := IsInteger(l.typ) && IsInteger(r.typ)
		if !ok {
			le, lok := l.typ.Underlying().(*Enum)
			re, rok := r.typ.Underlying().(*Enum)
			ok = lok && rok && le == re
		}
		if !ok {
			c.errorf(x.OpPos, "operator %s needs two integers or two values of one enum type, not %s and %s", x.Op, l.typ, r.typ)
			return invalidOp
		}
		if l.mode == constant && r.mode == constant {
			a, b := l.val.Int, r.val.Int
			var v bool
			switch x.Op {
			case token.LSS:
				v = a < b
			case token.LEQ:
				v = a <= b
			case token.GTR:
				v = a > b
			case token.GEQ:
				v = a >= b
			}
			return operand{mode: constant, typ: Typ[Bool], val: ConstValue{Kind: BoolConst, Bool: v}}
		}
		return operand{mode: value, typ: Typ[Bool]}
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM:
		if !IsInteger(l.typ) || !IsInteger(r.typ) {
			c.errorf(x.OpPos, "operator %s needs integer operands, not %s and %s", x.Op, l.typ, r.typ)
			return invalidOp
		}
		if r.mode == constant && r.val.Int == 0 && (x.Op == token.QUO || x.Op == token.REM) {
			c.errorf(x.OpPos, "division by zero")
			return invalidOp
		}
		if l.mode == constant && r.mode == constant {
			v, ok := arith(x.Op, l.val.Int, r.val.Int)
			if ctx.wrap {
				v, ok = WrapArith(x.Op, l.val.Int, r.val.Int), true
			}
			if !ok {
				c.errorf(x.OpPos, "constant overflow: %d %s %d does not fit in 64 bits", l.val.Int, x.Op, r.val.Int)
				return invalidOp
			}
			return operand{mode: constant, typ: Typ[Int], val: ConstValue{Kind: IntConst, Int: v}}
		}
		return operand{mode: value, typ: Typ[Int]}
	case token.AND, token.OR, token.XOR, token.SHL, token.SHR:
		if !IsInteger(l.typ) || !IsInteger(r.typ) {
			c.errorf(x.OpPos, "operator %s needs integer operands, not %s and %s", x.Op, l.typ, r.typ)
			return invalidOp
		}
		if (x.Op == token.SHL || x.Op == token.SHR) && r.mode == constant && (r.val.Int < 0 || r.val.Int > 63) {
			c.errorf(x.OpPos, "shift count %d out of range 0..63", r.val.Int)
			return invalidOp
		}
		if l.mode == constant && r.mode == constant {
			v, _ := Bitwise(x.Op, l.val.Int, r.val.Int)
			return operand{mode: constant, typ: Typ[Int], val: ConstValue{Kind: IntConst, Int: v}}
		}
		return operand{mode: value, typ: Typ[Int]}
	}
	c.errorf(x.OpPos, "unknown binary operator %s", x.Op)
	return invalidOp
}

// arith computes a op b with 64-bit overflow detection; / and % truncate
// toward zero. b is non-zero for / and %.
func arith(op token.Kind, a, b int64) (int64, bool) {
	switch op {
	case token.ADD:
		s := a + b
		return s, (s > a) == (b > 0)
	case token.SUB:
		s := a - b
		return s, (s < a) == (b > 0)
	case token.MUL:
		if a == 0 || b == 0 {
			return 0, true
		}
		p := a * b
		if p/b != a || (a == -1 && b == -1<<63) || (b == -1 && a == -1<<63) {
			return 0, false
		}
		return p, true
	case token.QUO:
		if a == -1<<63 && b == -1 {
			return 0, false
		}
		return a / b, true
	case token.REM:
		if b == -1 {
			return 0, true
		}
		return a % b, true
	}
	return 0, false
}

// WrapArith computes a op b for op + - or * modulo 2^64 (two's
// complement), as inside the operand of a conversion.
func WrapArith(op token.Kind, a, b int64) int64 {
	switch op {
	case token.ADD:
		return int64(uint64(a) + uint64(b))
	case token.SUB:
		return int64(uint64(a) - uint64(b))
	case token.MUL:
		return int64(uint64(a) * uint64(b))
	}
	return 0
}

// Bitwise computes a op b for op & | ^ << >> on 64-bit two's complement
// values: << drops the bits shifted out, >> is arithmetic. ok is false for
// a shift count outside 0..63 (a runtime error).
func Bitwise(op token.Kind, a, b int64) (v int64, ok bool) {
	switch op {
	case token.AND:
		return a & b, true
	case token.OR:
		return a | b, true
	case token.XOR:
		return a ^ b, true
	case token.SHL, token.SHR:
		if b < 0 || b > 63 {
			return 0, false
		}
		if op == token.SHL {
			return int64(uint64(a) << uint(b)), true
		}
		return a >> uint(b), true
	}
	return 0, false
}

// conversion checks `T(x)`: T must name a fixed-width integer type and x be
// an integer, whose + - * compute modulo 2^64.
func (c *checker) conversion(x *ast.ConvExpr, ctx *exprCtx) operand {
	inner := *ctx
	inner.wrap = true
	op := c.expr(x.X, &inner)
	obj := ctx.scope.Lookup(x.Type.Name)
	if obj == nil {
		if p := c.procs.Lookup(x.Type.Name); p != nil {
			c.errorf(x.Type.Pos(), "%s is a %s, not a type: call a function with call, as in v := call %s(…)", x.Type.Name, procKind(p.(*Proc)), x.Type.Name)
			return invalidOp
		}
		c.errorf(x.Type.Pos(), "undefined: %s", x.Type.Name)
		return invalidOp
	}
	c.info.Uses[x.Type] = obj
	tn, ok := obj.(*TypeName)
	if !ok || !IsFixed(tn.typ) {
		if ok && isInvalid(tn.Named().Underlying()) {
			return invalidOp
		}
		c.errorf(x.Type.Pos(), "cannot convert to %s: conversions are to the fixed-width integer types int8 … uint64 only", x.Type.Name)
		return invalidOp
	}
	if op.mode == invalid {
		return invalidOp
	}
	if op.mode == formula || !IsInteger(op.typ) {
		c.errorf(x.X.Pos(), "cannot convert %s (of type %s) to %s: it is not an integer", exprString(x.X), op.typ, x.Type.Name)
		return invalidOp
	}
	t := tn.typ
	if op.mode == constant {
		v, ok := t.Underlying().(*Range).WrapValue(op.val.Int)
		if !ok {
			c.errorf(x.Pos(), "%s(%d) is not representable: birch holds uint64 values below 2^63 only", x.Type.Name, op.val.Int)
			return invalidOp
		}
		return operand{mode: constant, typ: t, val: ConstValue{Kind: IntConst, Int: v}}
	}
	return operand{mode: value, typ: t}
}

// comparable reports whether values of x and y may be compared with == and
// !=.
func (c *checker) comparable(x, y Type) bool {
	if IsInteger(x) && IsInteger(y) || IsBoolean(x) && IsBoolean(y) {
		return true
	}
	xn, yn := isKind(x, UntypedNull), isKind(y, UntypedNull)
	if xn && yn {
		return true
	}
	switch xu := x.Underlying().(type) {
	case *Enum:
		return Identical(x, y) || x.Underlying() == y.Underlying()
	case *Ref:
		if yn {
			return true
		}
		if yr, ok := y.Underlying().(*Ref); ok {
			return xu.Target != nil && yr.Target != nil && Related(xu.Target, yr.Target)
		}
	case *Basic:
		if xu.Kind == Tid {
			return yn || isKind(y, Tid)
		}
		if xn {
			switch yu := y.Underlying().(type) {
			case *Ref:
				return true
			case *Basic:
				return yu.Kind == Tid
			}
		}
	}
	return false
}

func (c *checker) selector(x *ast.SelectorExpr, ctx *exprCtx) operand {
	op := c.expr(x.X, ctx)
	if op.mode == invalid {
		return invalidOp
	}
	if c.notConst(x, ctx) {
		return invalidOp
	}
	r, ok := op.typ.Underlying().(*Ref)
	if ok && isInvalid(r.Target) {
		return invalidOp // the target type was reported
	}
	if !ok || r.Target == nil {
		c.errorf(x.Sel.Pos(), "%s.%s: %s is of type %s, not a reference to a record", exprString(x.X), x.Sel.Name, exprString(x.X), op.typ)
		return invalidOp
	}
	rec, ok := r.Target.Underlying().(*Record)
	if !ok {
		c.errorf(x.Sel.Pos(), "%s.%s: %s refers to %s, which is not a record", exprString(x.X), x.Sel.Name, exprString(x.X), r.Target)
		return invalidOp
	}
	f := rec.Field(x.Sel.Name)
	if f == nil {
		c.errorf(x.Sel.Pos(), "%s has no field %s", r.Target, x.Sel.Name)
		return invalidOp
	}
	c.info.Uses[x.Sel] = f
	c.noDeref(x, ctx)
	if isInvalid(f.typ) {
		return invalidOp
	}
	return operand{mode: variable, typ: f.typ}
}

func (c *checker) index(x *ast.IndexExpr, ctx *exprCtx) operand {
	op := c.expr(x.X, ctx)
	idx := c.expr(x.Index, &exprCtx{scope: ctx.scope, proc: ctx.proc, invisible: ctx.invisible, props: ctx.props, constOnly: ctx.constOnly})
	if op.mode == invalid {
		return invalidOp
	}
	if c.notConst(x, ctx) {
		return invalidOp
	}
	if idx.mode != invalid && !IsInteger(idx.typ) {
		c.errorf(x.Index.Pos(), "array index must be an integer, not %s", idx.typ)
	}
	switch u := op.typ.Underlying().(type) {
	case *Array:
		if idx.mode == constant && (idx.val.Int < 0 || idx.val.Int >= u.Len) {
			c.errorf(x.Index.Pos(), "index %d out of bounds for %s of length %d", idx.val.Int, exprString(x.X), u.Len)
		}
		mode := variable
		if op.mode != variable {
			mode = value
		}
		return operand{mode: mode, typ: u.Elem}
	case *Ref:
		if isInvalid(u.Target) {
			return invalidOp // the target type was reported
		}
		if a, ok := u.Target.Underlying().(*Array); ok {
			c.noDeref(x, ctx)
			return operand{mode: variable, typ: a.Elem}
		}
	}
	c.errorf(x.Lbrack, "cannot index %s of type %s", exprString(x.X), op.typ)
	return invalidOp
}

func (c *checker) instanceof(x *ast.InstanceofExpr, ctx *exprCtx) operand {
	op := c.expr(x.X, ctx)
	if c.notConst(x, ctx) {
		return invalidOp
	}
	obj := c.global.Lookup(x.Type.Name)
	if obj == nil {
		c.errorf(x.Type.Pos(), "undefined type %s", x.Type.Name)
		return invalidOp
	}
	c.info.Uses[x.Type] = obj
	tn, ok := obj.(*TypeName)
	if !ok {
		c.errorf(x.Type.Pos(), "%s is not a type", x.Type.Name)
		return invalidOp
	}
	if op.mode == invalid {
		return invalidOp
	}
	r, ok := op.typ.Underlying().(*Ref)
	if !ok || r.Target == nil {
		c.errorf(x.InstanceofPos, "instanceof needs a reference, not %s", op.typ)
		return invalidOp
	}
	switch tn.Named().Underlying().(type) {
	case *Record, *Array:
	default:
		if isInvalid(tn.Named()) {
			return invalidOp
		}
		c.errorf(x.Type.Pos(), "instanceof needs a record or array type, not %s", tn.Named().Underlying())
		return invalidOp
	}
	if !Related(tn.Named(), r.Target) {
		c.errorf(x.Type.Pos(), "impossible instanceof: %s is not related to %s by subtyping", tn.name, r.Target)
		return invalidOp
	}
	// instanceof reads only the reference: an object's type never changes,
	// so it is allowed in invisible transformations (paper, Figure 6).
	return operand{mode: value, typ: Typ[Bool]}
}

func (c *checker) builtin(x *ast.BuiltinExpr, ctx *exprCtx) operand {
	if c.notConst(x, ctx) {
		return invalidOp
	}
	op := c.expr(x.X, ctx)
	if ctx.props && ctx.proc == nil && x.Op != token.THREADTERMINATED {
		// lockAvailable, hasLock and wasNotified are about the thread
		// that asks; a predicate has none unless it names one.
		c.errorf(x.OpPos, "%s depends on the asking thread: in a predicate or property, ask through a remote reference, as in T[t] : %s(…)", x.Op, x.Op)
		return invalidOp
	}
	if ctx.invisible {
		c.errorf(x.OpPos, "invisible transformation uses %s: it may touch only its thread's locals (make the transformation visible)", x.Op)
	}
	if op.mode == invalid {
		return invalidOp
	}
	if x.Op == token.THREADTERMINATED {
		if !isKind(op.typ, Tid) {
			c.errorf(x.X.Pos(), "threadTerminated needs a tid, not %s", op.typ)
			return invalidOp
		}
		return operand{mode: value, typ: Typ[Bool]}
	}
	l, ok := op.typ.Underlying().(*Lock)
	if !ok {
		c.errorf(x.X.Pos(), "%s needs a lock, not %s", x.Op, op.typ)
		return invalidOp
	}
	if x.Op == token.WASNOTIFIED && !l.Wait {
		c.errorf(x.X.Pos(), "wasNotified needs a lock declared with wait, not %s", op.typ)
		return invalidOp
	}
	return operand{mode: value, typ: Typ[Bool]}
}

// assignable reports (and explains) whether op may be stored in a location
// of type dst. what names the destination for messages.
func (c *checker) assignable(op operand, dst Type, x ast.Expr, what string) bool {
	return c.assignableFrom(op, dst, x.Pos(), exprString(x), what)
}

// assignableFrom is assignable for a value that is not an expression of
// the source (the result of a call, say): src describes it and pos is
// where to report.
func (c *checker) assignableFrom(op operand, dst Type, pos source.Pos, src string, what string) bool {
	if op.mode == invalid || isInvalid(dst) {
		return true // already reported
	}
	if op.mode == formula {
		c.errorf(pos, "a temporal formula cannot be assigned")
		return false
	}
	st := op.typ
	switch du := dst.Underlying().(type) {
	case *Basic:
		switch du.Kind {
		case Bool:
			if IsBoolean(st) {
				return true
			}
		case Int:
			if IsInteger(st) {
				return true
			}
		case Tid:
			if isKind(st, Tid) || isKind(st, UntypedNull) {
				return true
			}
		}
	case *Range:
		if IsInteger(st) && du.Wrap {
			if _, ok := du.WrapValue(op.val.Int); op.mode == constant && !ok {
				c.errorf(pos, "constant %d stored in %s of type %s is not representable: birch holds uint64 values below 2^63 only", op.val.Int, what, dst)
				return false
			}
			return true
		}
		if IsInteger(st) {
			if op.mode == constant && (op.val.Int < du.Lo || op.val.Int > du.Hi) {
				c.errorf(pos, "constant %d out of range %d..%d of %s", op.val.Int, du.Lo, du.Hi, what)
				return false
			}
			return true
		}
	case *Enum:
		if Identical(st, dst) {
			return true
		}
	case *Lock:
		c.errorf(pos, "cannot assign to %s: locks cannot be assigned", what)
		return false
	case *Array:
		if sa, ok := st.Underlying().(*Array); ok && Identical(sa, du) {
			if containsLock(du) {
				c.errorf(pos, "cannot assign to %s: arrays of locks cannot be assigned", what)
				return false
			}
			return true
		}
	case *Ref:
		if isKind(st, UntypedNull) {
			return true
		}
		if sr, ok := st.Underlying().(*Ref); ok && sr.Target != nil && du.Target != nil {
			if !Related(sr.Target, du.Target) {
				c.errorf(pos, "cannot use %s (of type %s) as %s of type %s: %s and %s are not related by subtyping", src, st, what, dst, sr.Target, du.Target)
				return false
			}
			if len(sr.Collections) > 0 && len(du.Collections) > 0 {
				shared := false
				for _, col := range sr.Collections {
					if du.Holds(col) {
						shared = true
						break
					}
				}
				if !shared {
					c.errorf(pos, "cannot use %s (of type %s) as %s of type %s: they share no collection", src, st, what, dst)
					return false
				}
			}
			return true
		}
	}
	c.errorf(pos, "cannot use %s (of type %s) as %s of type %s", src, st, what, dst)
	return false
}
