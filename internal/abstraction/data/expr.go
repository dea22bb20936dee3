package data

import (
	"fmt"
	"math"
	"math/big"

	"birch/internal/abstraction/data/basl"
	"birch/internal/smt"
	"birch/internal/source"
)

// cond is a compiled condition of an abstraction function: a linear
// formula over the parameter with literal divisors, which can be evaluated
// on a concrete integer and turned into a solver term over any integer term.
type cond struct {
	kind condKind
	val  *big.Int // condConst
	b    bool     // condBool
	args []*cond
}

type condKind uint8

const (
	condParam condKind = iota
	condConst          // integer literal (val)
	condBool           // true/false (b)
	condNeg
	condAdd
	condSub
	condMul // one argument is constant
	condDiv // truncating, by a non-zero constant
	condRem // truncating, by a non-zero constant
	condEq
	condNe
	condLt
	condLe
	condGt
	condGe
	condAnd
	condOr
	condNot
)

// condCompiler checks and compiles the conditions of one abstraction
// function, collecting errors.
type condCompiler struct {
	fset    *source.FileSet
	param   string
	errs    *source.ErrorList
	moduli  map[int64]bool // literal divisors seen, |k| ≥ 2
	consts  map[string]*big.Int
	hasErrs bool
}

func (c *condCompiler) errorf(pos source.Pos, format string, args ...any) {
	c.hasErrs = true
	c.errs.Addf(c.fset.Position(pos), format, args...)
}

// compileBool compiles a condition, which must be boolean.
func (c *condCompiler) compileBool(x basl.Expr) *cond {
	e, isBool := c.compile(x)
	if e == nil {
		return nil
	}
	if !isBool {
		c.errorf(x.Position(), "condition %s is an integer, not a boolean", basl.ExprString(x))
		return nil
	}
	return e
}

// compile returns the compiled expression and whether it is boolean; nil
// after an error.
func (c *condCompiler) compile(x basl.Expr) (*cond, bool) {
	switch x := x.(type) {
	case *basl.Name:
		if x.Name != c.param {
			c.errorf(x.Pos, "undefined: %s (the abstraction function's parameter is %s)", x.Name, c.param)
			return nil, false
		}
		return &cond{kind: condParam}, false
	case *basl.IntLit:
		v, ok := new(big.Int).SetString(x.Lit, 10)
		if !ok {
			c.errorf(x.Pos, "malformed number %s", x.Lit)
			return nil, false
		}
		c.consts[v.String()] = v
		return &cond{kind: condConst, val: v}, false
	case *basl.BoolLit:
		return &cond{kind: condBool, b: x.Value}, true
	case *basl.Paren:
		return c.compile(x.X)
	case *basl.Bad:
		return nil, false
	case *basl.Unary:
		e, isBool := c.compile(x.X)
		if e == nil {
			return nil, false
		}
		if x.Op == basl.NOT {
			if !isBool {
				c.errorf(x.Pos, "operator ! applied to an integer")
				return nil, false
			}
			return &cond{kind: condNot, args: []*cond{e}}, true
		}
		if isBool {
			c.errorf(x.Pos, "operator - applied to a boolean")
			return nil, false
		}
		if e.kind == condConst {
			v := new(big.Int).Neg(e.val)
			c.consts[v.String()] = v
			return &cond{kind: condConst, val: v}, false
		}
		return &cond{kind: condNeg, args: []*cond{e}}, false
	case *basl.Binary:
		l, lb := c.compile(x.X)
		r, rb := c.compile(x.Y)
		if l == nil || r == nil {
			return nil, false
		}
		switch x.Op {
		case basl.AND, basl.OR:
			if !lb || !rb {
				c.errorf(x.OpPos, "operator %s needs booleans", x.Op)
				return nil, false
			}
			k := condAnd
			if x.Op == basl.OR {
				k = condOr
			}
			return &cond{kind: k, args: []*cond{l, r}}, true
		case basl.EQL, basl.NEQ:
			if lb != rb {
				c.errorf(x.OpPos, "operator %s compares a boolean with an integer", x.Op)
				return nil, false
			}
			k := condEq
			if x.Op == basl.NEQ {
				k = condNe
			}
			return &cond{kind: k, args: []*cond{l, r}}, true
		}
		if lb || rb {
			c.errorf(x.OpPos, "operator %s needs integers", x.Op)
			return nil, false
		}
		switch x.Op {
		case basl.LSS, basl.LEQ, basl.GTR, basl.GEQ:
			k := map[basl.Kind]condKind{basl.LSS: condLt, basl.LEQ: condLe, basl.GTR: condGt, basl.GEQ: condGe}[x.Op]
			return &cond{kind: k, args: []*cond{l, r}}, true
		case basl.ADD, basl.SUB:
			k := condAdd
			if x.Op == basl.SUB {
				k = condSub
			}
			return fold(&cond{kind: k, args: []*cond{l, r}}), false
		case basl.MUL:
			if l.kind != condConst && r.kind != condConst {
				c.errorf(x.OpPos, "nonlinear condition: one factor of * must be a constant")
				return nil, false
			}
			return fold(&cond{kind: condMul, args: []*cond{l, r}}), false
		case basl.QUO, basl.REM:
			if r.kind != condConst {
				c.errorf(x.OpPos, "the divisor of %s must be a constant", x.Op)
				return nil, false
			}
			if r.val.Sign() == 0 {
				c.errorf(x.OpPos, "division by zero")
				return nil, false
			}
			if a := new(big.Int).Abs(r.val); a.IsInt64() && a.Int64() >= 2 {
				c.moduli[a.Int64()] = true
			}
			k := condDiv
			if x.Op == basl.REM {
				k = condRem
			}
			return fold(&cond{kind: k, args: []*cond{l, r}}), false
		}
	}
	c.errorf(x.Position(), "unexpected expression %s", basl.ExprString(x))
	return nil, false
}

// fold evaluates an arithmetic node whose arguments are constants.
func fold(e *cond) *cond {
	for _, a := range e.args {
		if a.kind != condConst {
			return e
		}
	}
	v, _ := e.evalInt(nil)
	return &cond{kind: condConst, val: v}
}

// holds evaluates a boolean condition at n.
func (e *cond) holds(n *big.Int) bool {
	if n.IsInt64() {
		if b, ok := e.holds64(n.Int64()); ok {
			return b
		}
	}
	return e.holdsBig(n)
}

// holds64 is holds in int64 arithmetic; ok is false when a value
// overflows (or a divisor is zero).
func (e *cond) holds64(n int64) (b, ok bool) {
	switch e.kind {
	case condBool:
		return e.b, true
	case condNot:
		b, ok := e.args[0].holds64(n)
		return !b, ok
	case condAnd, condOr:
		l, ok := e.args[0].holds64(n)
		if !ok {
			return false, false
		}
		if l == (e.kind == condOr) {
			return l, true
		}
		return e.args[1].holds64(n)
	case condEq, condNe:
		if isBoolCond(e.args[0]) {
			l, ok1 := e.args[0].holds64(n)
			r, ok2 := e.args[1].holds64(n)
			return (l == r) == (e.kind == condEq), ok1 && ok2
		}
	}
	l, ok1 := e.args[0].eval64(n)
	r, ok2 := e.args[1].eval64(n)
	if !ok1 || !ok2 {
		return false, false
	}
	switch e.kind {
	case condEq:
		return l == r, true
	case condNe:
		return l != r, true
	case condLt:
		return l < r, true
	case condLe:
		return l <= r, true
	case condGt:
		return l > r, true
	case condGe:
		return l >= r, true
	}
	return false, false
}

// eval64 is evalInt in int64 arithmetic, with ok false on overflow.
func (e *cond) eval64(n int64) (int64, bool) {
	switch e.kind {
	case condParam:
		return n, true
	case condConst:
		return e.val.Int64(), e.val.IsInt64()
	case condNeg:
		v, ok := e.args[0].eval64(n)
		return -v, ok && v != math.MinInt64
	}
	a, ok1 := e.args[0].eval64(n)
	b, ok2 := e.args[1].eval64(n)
	if !ok1 || !ok2 {
		return 0, false
	}
	switch e.kind {
	case condAdd:
		s := a + b
		return s, (s > a) == (b > 0)
	case condSub:
		s := a - b
		return s, (s < a) == (b > 0)
	case condMul:
		if a == 0 || b == 0 {
			return 0, true
		}
		p := a * b
		return p, p/b == a && !(a == -1 && b == math.MinInt64) && !(b == -1 && a == math.MinInt64)
	case condDiv:
		if b == 0 || a == math.MinInt64 && b == -1 {
			return 0, false
		}
		return a / b, true // Go truncates, as BIR
	case condRem:
		if b == 0 || a == math.MinInt64 && b == -1 {
			return 0, false
		}
		return a % b, true
	}
	return 0, false
}

// holdsBig evaluates a boolean condition at n in big arithmetic.
func (e *cond) holdsBig(n *big.Int) bool {
	switch e.kind {
	case condBool:
		return e.b
	case condNot:
		return !e.args[0].holdsBig(n)
	case condAnd:
		return e.args[0].holdsBig(n) && e.args[1].holdsBig(n)
	case condOr:
		return e.args[0].holdsBig(n) || e.args[1].holdsBig(n)
	case condEq, condNe:
		var eq bool
		if isBoolCond(e.args[0]) {
			eq = e.args[0].holdsBig(n) == e.args[1].holdsBig(n)
		} else {
			a, _ := e.args[0].evalInt(n)
			b, _ := e.args[1].evalInt(n)
			eq = a.Cmp(b) == 0
		}
		return eq == (e.kind == condEq)
	}
	a, _ := e.args[0].evalInt(n)
	b, _ := e.args[1].evalInt(n)
	c := a.Cmp(b)
	switch e.kind {
	case condLt:
		return c < 0
	case condLe:
		return c <= 0
	case condGt:
		return c > 0
	case condGe:
		return c >= 0
	}
	panic(fmt.Sprintf("data: holds on %d", e.kind))
}

func isBoolCond(e *cond) bool {
	switch e.kind {
	case condBool, condNot, condAnd, condOr, condEq, condNe, condLt, condLe, condGt, condGe:
		return true
	}
	return false
}

// evalInt evaluates an integer expression at n; ok is false on division
// by zero (which compile rules out).
func (e *cond) evalInt(n *big.Int) (*big.Int, bool) {
	switch e.kind {
	case condParam:
		return n, true
	case condConst:
		return e.val, true
	case condNeg:
		a, ok := e.args[0].evalInt(n)
		return new(big.Int).Neg(a), ok
	}
	a, ok1 := e.args[0].evalInt(n)
	b, ok2 := e.args[1].evalInt(n)
	if !ok1 || !ok2 {
		return new(big.Int), false
	}
	switch e.kind {
	case condAdd:
		return new(big.Int).Add(a, b), true
	case condSub:
		return new(big.Int).Sub(a, b), true
	case condMul:
		return new(big.Int).Mul(a, b), true
	case condDiv, condRem:
		if b.Sign() == 0 {
			return new(big.Int), false
		}
		if e.kind == condDiv {
			return new(big.Int).Quo(a, b), true // truncates, as BIR's /
		}
		return new(big.Int).Rem(a, b), true // sign of a, as BIR's %
	}
	panic(fmt.Sprintf("data: evalInt on %d", e.kind))
}

// residue is what is known of an integer's residue: it is ≡ I modulo L.
type residue struct{ L, I int64 }

// term builds the condition as a solver term with n standing for the
// parameter; res, when not nil, is n's residue, which turns remainders of
// affine terms by divisors of res.L into constants.
func (e *cond) term(tm *smt.TermManager, n *smt.Term, res *residue) *smt.Term {
	switch e.kind {
	case condParam:
		return n
	case condConst:
		return tm.BigInt(e.val)
	case condBool:
		return tm.Bool(e.b)
	case condNeg:
		return tm.Neg(e.args[0].term(tm, n, res))
	case condNot:
		return tm.Not(e.args[0].term(tm, n, res))
	}
	if e.kind == condEq || e.kind == condNe {
		if t := e.remTerm(tm, n, res); t != nil {
			if e.kind == condNe {
				return tm.Not(t)
			}
			return t
		}
	}
	a, b := e.args[0].term(tm, n, res), e.args[1].term(tm, n, res)
	switch e.kind {
	case condAnd:
		return tm.And(a, b)
	case condOr:
		return tm.Or(a, b)
	case condEq:
		return tm.Eq(a, b)
	case condNe:
		return tm.Not(tm.Eq(a, b))
	case condLt:
		return tm.Lt(a, b)
	case condLe:
		return tm.Le(a, b)
	case condGt:
		return tm.Gt(a, b)
	case condGe:
		return tm.Ge(a, b)
	case condAdd:
		return tm.Add(a, b)
	case condSub:
		return tm.Sub(a, b)
	case condMul:
		return tm.Mul(a, b)
	case condDiv:
		return tm.TDiv(a, b)
	case condRem:
		if rho, ok := e.knownRem(res); ok {
			// a % m is rho for a ≥ 0 and rho - m (or 0) for a < 0.
			m := new(big.Int).Abs(e.args[1].val).Int64()
			return tm.Ite(tm.Ge(a, tm.Int(0)), tm.Int(rho), tm.Int(-((m - rho) % m)))
		}
		return tm.TRem(a, b)
	}
	panic(fmt.Sprintf("data: term on %d", e.kind))
}

// remTerm writes a comparison x % k == c of a truncating remainder with a
// constant using Euclidean mod, without the case split of TRem, which
// branch and bound cannot refute parity constraints through:
//
//	x % k == 0  iff  (mod x |k|) = 0
//	x % k == c  iff  x > 0 ∧ (mod x |k|) = c         for 0 < c < |k|
//	x % k == c  iff  x < 0 ∧ (mod x |k|) = |k| + c   for -|k| < c < 0
//
// It returns nil when e is not such a comparison.
func (e *cond) remTerm(tm *smt.TermManager, n *smt.Term, res *residue) *smt.Term {
	rem, c := e.args[0], e.args[1]
	if rem.kind != condRem {
		rem, c = c, rem
	}
	if rem.kind != condRem || c.kind != condConst || rem.args[1].kind != condConst {
		return nil
	}
	m := new(big.Int).Abs(rem.args[1].val)
	x := rem.args[0].term(tm, n, res)
	mod := tm.Mod(x, tm.BigInt(m))
	if rho, ok := rem.knownRem(res); ok {
		mod = tm.Int(rho)
	}
	switch cv := c.val; {
	case cv.CmpAbs(m) >= 0:
		return tm.False()
	case cv.Sign() == 0:
		return tm.Eq(mod, tm.Int(0))
	case cv.Sign() > 0:
		return tm.And(tm.Gt(x, tm.Int(0)), tm.Eq(mod, tm.BigInt(cv)))
	default:
		return tm.And(tm.Lt(x, tm.Int(0)), tm.Eq(mod, tm.BigInt(new(big.Int).Add(m, cv))))
	}
}

// affine returns a, b with e = a·n + b when e is affine in the parameter.
func (e *cond) affine() (a, b *big.Int, ok bool) {
	switch e.kind {
	case condParam:
		return big.NewInt(1), new(big.Int), true
	case condConst:
		return new(big.Int), e.val, true
	case condNeg:
		a, b, ok := e.args[0].affine()
		if !ok {
			return nil, nil, false
		}
		return new(big.Int).Neg(a), new(big.Int).Neg(b), true
	case condAdd, condSub, condMul:
		a1, b1, ok1 := e.args[0].affine()
		a2, b2, ok2 := e.args[1].affine()
		if !ok1 || !ok2 {
			return nil, nil, false
		}
		switch e.kind {
		case condAdd:
			return new(big.Int).Add(a1, a2), new(big.Int).Add(b1, b2), true
		case condSub:
			return new(big.Int).Sub(a1, a2), new(big.Int).Sub(b1, b2), true
		}
		if a1.Sign() == 0 { // b1 · (a2·n + b2)
			return new(big.Int).Mul(b1, a2), new(big.Int).Mul(b1, b2), true
		}
		return new(big.Int).Mul(b2, a1), new(big.Int).Mul(b2, b1), true
	}
	return nil, nil, false
}

// knownRem returns the Euclidean residue of e's dividend modulo |divisor|
// (e is a condRem by a constant) when res determines it.
func (e *cond) knownRem(res *residue) (int64, bool) {
	if res == nil || e.args[1].kind != condConst {
		return 0, false
	}
	m := new(big.Int).Abs(e.args[1].val)
	if !m.IsInt64() || res.L%m.Int64() != 0 {
		return 0, false
	}
	a, b, ok := e.args[0].affine()
	if !ok {
		return 0, false
	}
	// a·n + b with n ≡ I (mod L) and m | L: ≡ a·I + b (mod m).
	v := new(big.Int).Mul(a, big.NewInt(res.I))
	v.Add(v, b)
	v.Mod(v, m) // Euclidean
	return v.Int64(), true
}
