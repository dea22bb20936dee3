package c

import (
	"fmt"
	"math/big"
	"strings"

	"modernc.org/cc/v4"
)

// operand is a lowered C value of an integer type: a BIR expression that
// is free of side effects (the effects are already emitted).
//
// An integer operand's e is congruent to the C value modulo 2^t.bits and
// lies within lo..hi; when lo..hi is within t's range, e is the C value
// itself (the operand is exact). An inexact operand comes from + - * and
// unary - whose result may leave t's range: it is reduced into the range by
// a conversion t(e) (or a store into a variable of t, which wraps) only
// where the exact value matters, since these operators commute with the
// reduction.
type operand struct {
	e      string
	isBool bool // e is a BIR boolean, standing for the C int 1 or 0
	void   bool // no value
	t      intType
	lo, hi *big.Int
}

func (o operand) exact() bool { return o.isBool || o.void || o.t.contains(o.lo, o.hi) }

func (o operand) isConst() bool { return !o.isBool && !o.void && o.lo.Cmp(o.hi) == 0 }

func varOp(v *variable) operand { return operand{e: v.name, t: v.t, lo: v.t.min(), hi: v.t.max()} }

func constOp(v *big.Int, t intType) operand { return operand{e: literal(v, t), t: t, lo: v, hi: v} }

func boolOp(e string, t intType) operand {
	return operand{e: e, isBool: true, t: t, lo: big.NewInt(0), hi: big.NewInt(1)}
}

var voidOp = operand{void: true, t: tInt, lo: big.NewInt(0), hi: big.NewInt(0)}

// intOf is the integer type of a C expression's type; ok is false (and the
// construct reported) for any other type.
func (fl *fnLowerer) intOf(n cc.Node, t cc.Type) (intType, bool) {
	class, it := fl.l.classify(t)
	if class == classInt {
		return it, true
	}
	fl.l.typeUnsupported(n, t, class, "arithmetic")
	return tInt, false
}

// rval lowers an expression for its value.
func (fl *fnLowerer) rval(n cc.ExpressionNode) operand {
	if n == nil {
		return voidOp
	}
	if v, ok := constValue(n); ok && (n.Pure() || isSizeof(n)) && !fl.mayOverflowConst(n) {
		if class, t := fl.l.classify(n.Type()); class == classInt {
			if t.isBool {
				return boolOp(map[bool]string{true: "true", false: "false"}[v.Sign() != 0], t)
			}
			return constOp(wrapTo(v, t), t)
		}
	}
	switch class, _ := fl.l.classify(n.Type()); class {
	case classFloat:
		fl.l.unsupported(n, "floating-point value (type %s)", n.Type())
		return constOp(big.NewInt(0), tInt)
	case classMemory:
		return fl.memRval(n)
	}
	if a, ok := n.(*cc.AdditiveExpression); ok && a.Case == cc.AdditiveExpressionSub && isPtrOrArray(a.AdditiveExpression.Type()) {
		return fl.memRval(n) // the difference of two pointers
	}
	switch n := n.(type) {
	case *cc.ExpressionList:
		for l := n; l != nil; l = l.ExpressionList {
			if l.ExpressionList == nil {
				return fl.rval(l.AssignmentExpression)
			}
			fl.effect(l.AssignmentExpression)
		}
	case *cc.ConstantExpression:
		return fl.rval(n.ConditionalExpression)
	case *cc.PrimaryExpression:
		return fl.primary(n)
	case *cc.PostfixExpression:
		switch n.Case {
		case cc.PostfixExpressionPrimary:
			return fl.rval(n.PrimaryExpression)
		case cc.PostfixExpressionCall:
			return fl.call(n, true)
		case cc.PostfixExpressionInc:
			return fl.incDec(n.PostfixExpression, "+", true, true)
		case cc.PostfixExpressionDec:
			return fl.incDec(n.PostfixExpression, "-", true, true)
		}
		return fl.memRval(n)
	case *cc.UnaryExpression:
		return fl.unary(n)
	case *cc.CastExpression:
		if n.Case == cc.CastExpressionUnary {
			return fl.rval(n.UnaryExpression)
		}
		return fl.cast(n)
	case *cc.MultiplicativeExpression:
		ops := map[cc.MultiplicativeExpressionCase]string{cc.MultiplicativeExpressionMul: "*", cc.MultiplicativeExpressionDiv: "/", cc.MultiplicativeExpressionMod: "%"}
		if op, ok := ops[n.Case]; ok {
			return fl.arith(n, op, n.MultiplicativeExpression, n.CastExpression)
		}
		return fl.rval(n.CastExpression)
	case *cc.AdditiveExpression:
		ops := map[cc.AdditiveExpressionCase]string{cc.AdditiveExpressionAdd: "+", cc.AdditiveExpressionSub: "-"}
		if op, ok := ops[n.Case]; ok {
			return fl.arith(n, op, n.AdditiveExpression, n.MultiplicativeExpression)
		}
		return fl.rval(n.MultiplicativeExpression)
	case *cc.ShiftExpression:
		ops := map[cc.ShiftExpressionCase]string{cc.ShiftExpressionLsh: "<<", cc.ShiftExpressionRsh: ">>"}
		if op, ok := ops[n.Case]; ok {
			return fl.shift(n, op, n.ShiftExpression, n.AdditiveExpression)
		}
		return fl.rval(n.AdditiveExpression)
	case *cc.RelationalExpression:
		ops := map[cc.RelationalExpressionCase]string{cc.RelationalExpressionLt: "<", cc.RelationalExpressionGt: ">", cc.RelationalExpressionLeq: "<=", cc.RelationalExpressionGeq: ">="}
		if op, ok := ops[n.Case]; ok {
			return fl.compare(n, op, n.RelationalExpression, n.ShiftExpression)
		}
		return fl.rval(n.ShiftExpression)
	case *cc.EqualityExpression:
		ops := map[cc.EqualityExpressionCase]string{cc.EqualityExpressionEq: "==", cc.EqualityExpressionNeq: "!="}
		if op, ok := ops[n.Case]; ok {
			return fl.compare(n, op, n.EqualityExpression, n.RelationalExpression)
		}
		return fl.rval(n.RelationalExpression)
	case *cc.AndExpression:
		if n.Case == cc.AndExpressionAnd {
			return fl.bitwise(n, "&", n.AndExpression, n.EqualityExpression)
		}
		return fl.rval(n.EqualityExpression)
	case *cc.ExclusiveOrExpression:
		if n.Case == cc.ExclusiveOrExpressionXor {
			return fl.bitwise(n, "^", n.ExclusiveOrExpression, n.AndExpression)
		}
		return fl.rval(n.AndExpression)
	case *cc.InclusiveOrExpression:
		if n.Case == cc.InclusiveOrExpressionOr {
			return fl.bitwise(n, "|", n.InclusiveOrExpression, n.ExclusiveOrExpression)
		}
		return fl.rval(n.ExclusiveOrExpression)
	case *cc.LogicalAndExpression:
		if n.Case == cc.LogicalAndExpressionLAnd {
			return fl.logical(n, "&&", n.LogicalAndExpression, n.InclusiveOrExpression)
		}
		return fl.rval(n.InclusiveOrExpression)
	case *cc.LogicalOrExpression:
		if n.Case == cc.LogicalOrExpressionLOr {
			return fl.logical(n, "||", n.LogicalOrExpression, n.LogicalAndExpression)
		}
		return fl.rval(n.LogicalAndExpression)
	case *cc.ConditionalExpression:
		if n.Case == cc.ConditionalExpressionCond {
			return fl.conditional(n, true)
		}
		return fl.rval(n.LogicalOrExpression)
	case *cc.AssignmentExpression:
		if n.Case == cc.AssignmentExpressionCond {
			return fl.rval(n.ConditionalExpression)
		}
		return fl.assign(n, true)
	}
	fl.l.unsupported(n, "the expression %s", exprText(n))
	return constOp(big.NewInt(0), tInt)
}

// exprText is a short excerpt of an expression's C text.
func exprText(n cc.Node) string {
	s := strings.Join(strings.Fields(cc.NodeSource(n)), " ")
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

func isSizeof(n cc.ExpressionNode) bool {
	u, ok := n.(*cc.UnaryExpression)
	return ok && (u.Case == cc.UnaryExpressionSizeofExpr || u.Case == cc.UnaryExpressionSizeofType ||
		u.Case == cc.UnaryExpressionAlignofExpr || u.Case == cc.UnaryExpressionAlignofType)
}

func (fl *fnLowerer) primary(n *cc.PrimaryExpression) operand {
	switch n.Case {
	case cc.PrimaryExpressionIdent:
		if v := fl.ident(n); v != nil {
			return fl.readVar(v)
		}
	case cc.PrimaryExpressionExpr:
		return fl.rval(n.ExpressionList)
	case cc.PrimaryExpressionStmt:
		return fl.stmtExpr(n.CompoundStatement, true)
	case cc.PrimaryExpressionFloat:
		fl.l.unsupported(n, "floating-point constant %s", n.Token.SrcStr())
	case cc.PrimaryExpressionString, cc.PrimaryExpressionLString:
		fl.l.unsupported(n, "a string literal")
	default:
		fl.l.unsupported(n, "the expression %s", exprText(n))
	}
	return constOp(big.NewInt(0), tInt)
}

// ident is the integer variable an identifier names (nil, reported, if it
// names something else).
func (fl *fnLowerer) ident(n *cc.PrimaryExpression) *variable {
	name := n.Token.SrcStr()
	dr, _ := n.ResolvedTo().(*cc.Declarator)
	if dr != nil {
		if v := fl.vars[dr]; v != nil {
			return v
		}
		if dr.Type() != nil && dr.Type().Kind() == cc.Function {
			fl.l.unsupported(n, "the function %s used as a value (function pointers)", name)
			return nil
		}
	}
	if fl.l.fileVars[name] != nil && (dr == nil || dr.IsExtern() || isFileScope(fl.l, dr)) {
		v := fl.l.global(name, n)
		if v != nil {
			fl.globalName[v.name] = true
		}
		return v
	}
	if dr != nil {
		if class, _ := fl.l.classify(dr.Type()); class != classInt {
			fl.l.typeUnsupported(n, dr.Type(), class, "the variable "+name)
			return nil
		}
	}
	fl.l.unsupported(n, "the identifier %s", name)
	return nil
}

func isFileScope(l *lowerer, dr *cc.Declarator) bool {
	fv := l.fileVars[dr.Name()]
	if fv == nil {
		return false
	}
	for _, d := range fv.decls {
		if d == dr {
			return true
		}
	}
	return false
}

// toInt makes an int of a boolean operand (1 or 0, chosen by a branch).
func (fl *fnLowerer) toInt(o operand) operand {
	if !o.isBool {
		return o
	}
	switch o.e {
	case "true":
		return constOp(big.NewInt(1), o.t)
	case "false":
		return constOp(big.NewInt(0), o.t)
	}
	t := fl.temp(o.t)
	next := fl.b.newLabel()
	fl.b.branchActs(o.e, []string{t.name + " := 1;"}, []string{t.name + " := 0;"}, next)
	fl.b.place(next, false)
	r := varOp(t)
	r.lo, r.hi = big.NewInt(0), big.NewInt(1)
	return r
}

// toBool is the BIR condition of a C scalar: its value is not 0.
func (fl *fnLowerer) toBool(o operand) string {
	if o.isBool {
		return o.e
	}
	if o.void {
		return "false"
	}
	o = fl.exact(o)
	if o.isConst() {
		return map[bool]string{true: "true", false: "false"}[o.lo.Sign() != 0]
	}
	return paren(o.e) + " != 0"
}

// exact reduces an operand into its type's range.
func (fl *fnLowerer) exact(o operand) operand {
	if o.exact() {
		return o
	}
	if o.isConst() {
		return constOp(wrapTo(o.lo, o.t), o.t)
	}
	return operand{e: fmt.Sprintf("%s(%s)", o.t.bir(), o.e), t: o.t, lo: o.t.min(), hi: o.t.max()}
}

// convert is C's conversion of an integer operand to the type t.
func (fl *fnLowerer) convert(o operand, t intType) operand {
	if o.void {
		return o
	}
	if t.isBool {
		if o.isBool {
			o.t = t
			return o
		}
		return boolOp(fl.toBool(o), t)
	}
	if o.isBool {
		o.t = t
		return o
	}
	if !o.exact() && t.bits > o.t.bits {
		o = fl.exact(o)
	}
	o.t = t
	if o.isConst() && !o.exact() {
		return constOp(wrapTo(o.lo, t), t)
	}
	return o
}

// value lowers an expression and converts it to t, as an int.
func (fl *fnLowerer) value(n cc.ExpressionNode, t intType) operand {
	return fl.convert(fl.toInt(fl.rval(n)), t)
}

// promote is the integer promotion of an operand.
func (fl *fnLowerer) promote(o operand) operand {
	o = fl.toInt(o)
	if o.t.bits < 32 {
		return fl.convert(o, tInt)
	}
	return o
}

// stable keeps an operand's value in a temporary when evaluating what
// follows may change the variables it reads.
func (fl *fnLowerer) stable(o operand) operand {
	if o.void || o.isConst() || !fl.readsGlobal(o.e) {
		return o
	}
	if o.isBool {
		o = fl.toInt(o)
		if !fl.readsGlobal(o.e) {
			return o
		}
	}
	o = fl.exact(o)
	t := fl.temp(o.t)
	fl.b.act("%s := %s;", t.name, o.e)
	r := varOp(t)
	r.lo, r.hi = o.lo, o.hi
	return r
}

// dropTemp forgets the temporary made last, now unused, if no other
// code has used it (a temporary taken from the free ones has been).
func (fl *fnLowerer) dropTemp(name string) {
	n, b := len(fl.temps), len(fl.busyTmp)
	if n > 0 && fl.temps[n-1].name == name && fl.temps[n-1] == fl.freshTmp && b > 0 && fl.busyTmp[b-1].name == name {
		fl.temps = fl.temps[:n-1]
		fl.busyTmp = fl.busyTmp[:b-1]
		delete(fl.names, name)
		fl.freshTmp = nil
	}
}

// readsGlobal tells whether a BIR expression reads a global, which a call
// may change (a local cannot be changed by another function).
func (fl *fnLowerer) readsGlobal(e string) bool {
	for _, w := range strings.FieldsFunc(e, func(r rune) bool {
		return !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		if fl.globalName[w] {
			return true
		}
	}
	return false
}

// storable is the BIR expression to store into a variable of type t (which
// wraps the value into its range) for an operand converted to t.
func (fl *fnLowerer) storable(o operand, t intType) string {
	o = fl.toInt(o)
	if o.exact() || fits64(o.lo, o.hi) {
		return o.e
	}
	return fl.exact(o).e
}

// store assigns an operand to a variable, converted to its type.
func (fl *fnLowerer) store(v *variable, o operand) {
	if o.void {
		return
	}
	o = fl.convert(o, v.t)
	if o.isBool {
		switch o.e {
		case "true":
			fl.b.act("%s := 1;", v.name)
		case "false":
			fl.b.act("%s := 0;", v.name)
		default:
			next := fl.b.newLabel()
			fl.b.branchActs(o.e, []string{v.name + " := 1;"}, []string{v.name + " := 0;"}, next)
			fl.b.place(next, false)
		}
		return
	}
	if v.global {
		fl.shared()
	}
	if k := len(fl.b.pending) - 1; k >= 0 && fl.b.cur != nil && !fl.threaded() && strings.HasPrefix(fl.b.pending[k], o.e+" := externChoose(") && fl.nondetTemp[o.e] == v.t {
		// choose into the variable itself
		fl.b.pending[k] = v.name + fl.b.pending[k][len(o.e):]
		fl.dropTemp(o.e)
		return
	}
	if v.cell {
		fl.b.act("%s := %s;", v.name, fl.exact(fl.toInt(o)).e)
		return
	}
	fl.b.act("%s := %s;", v.name, fl.storable(o, v.t))
}

// arith lowers + - * / %.
func (fl *fnLowerer) arith(n cc.ExpressionNode, op string, l, r cc.ExpressionNode) operand {
	t, ok := fl.intOf(n, n.Type())
	if !ok {
		return constOp(big.NewInt(0), tInt)
	}
	a := fl.value(l, t)
	if !r.Pure() {
		a = fl.stable(a)
	}
	b := fl.value(r, t)
	fl.opText = exprText(n)
	defer func() { fl.opText = "" }()
	return fl.binop(op, a, b, t)
}

// binop combines two operands of type t.
func (fl *fnLowerer) binop(op string, a, b operand, t intType) operand {
	if op == "/" || op == "%" || fl.l.cfg.OverflowError && t.signed {
		a, b = fl.exact(a), fl.exact(b)
	}
	e := paren(a.e) + " " + op + " " + paren(b.e)
	var lo, hi *big.Int
	switch op {
	case "+":
		lo, hi = new(big.Int).Add(a.lo, b.lo), new(big.Int).Add(a.hi, b.hi)
	case "-":
		lo, hi = new(big.Int).Sub(a.lo, b.hi), new(big.Int).Sub(a.hi, b.lo)
	case "*":
		c := []*big.Int{new(big.Int).Mul(a.lo, b.lo), new(big.Int).Mul(a.lo, b.hi), new(big.Int).Mul(a.hi, b.lo), new(big.Int).Mul(a.hi, b.hi)}
		lo, hi = c[0], c[0]
		for _, x := range c[1:] {
			if x.Cmp(lo) < 0 {
				lo = x
			}
			if x.Cmp(hi) > 0 {
				hi = x
			}
		}
	case "/":
		m := maxAbs(a.lo, a.hi)
		lo, hi = new(big.Int).Neg(m), m
		switch d := b.lo; {
		case b.isConst() && d.Sign() > 0:
			lo, hi = new(big.Int).Quo(a.lo, d), new(big.Int).Quo(a.hi, d)
		case b.isConst() && d.Sign() < 0:
			lo, hi = new(big.Int).Quo(a.hi, d), new(big.Int).Quo(a.lo, d)
		case a.lo.Sign() >= 0 && b.lo.Sign() >= 0:
			lo = big.NewInt(0)
		}
	case "%":
		lo, hi = minBig(a.lo, big.NewInt(0)), maxBig(a.hi, big.NewInt(0))
	}
	if op == "%" && fl.l.cfg.OverflowError && t.signed && a.lo.Cmp(t.min()) <= 0 && b.lo.Sign() < 0 && b.hi.Sign() >= 0 {
		// INT_MIN % -1: the quotient is not representable, so C11
		// 6.5.5p6 leaves the remainder undefined as well
		text := "signed overflow"
		if fl.opText != "" {
			text += " in " + fl.opText
		}
		fl.check(text, fmt.Sprintf("%s != %s || %s != -1", paren(a.e), paren(literal(t.min(), t)), paren(b.e)))
	}
	if a.isConst() && b.isConst() {
		if v, ok := constFold(op, a.lo, b.lo); ok {
			fl.constOverflow(v, t)
			return constOp(wrapTo(v, t), t)
		}
	}
	res := operand{e: e, t: t, lo: lo, hi: hi}
	if fl.l.cfg.OverflowError && t.signed && !res.exact() && op != "%" {
		fl.overflowCheck(res)
		res.lo, res.hi = t.min(), t.max()
	}
	return res
}

// overflowCheck asserts that a signed result lies within its type (with
// Config.OverflowError). Beyond 64 bits BIR's own overflow error stops the
// step first.
func (fl *fnLowerer) overflowCheck(o operand) {
	if o.t.bits >= 64 {
		return
	}
	text := "signed overflow"
	if fl.opText != "" {
		text += " in " + fl.opText
		fl.opText = ""
	}
	fl.check(text, fmt.Sprintf("%s <= %s && %s <= %s", paren(o.t.min().String()), paren(o.e), paren(o.e), o.t.max().String()))
}

// mayOverflowConst reports whether n is a constant expression whose
// signed arithmetic must be lowered operator by operator, so that
// Config.OverflowError sees an overflow in it (cc folds 1073741824 * 2 to
// its wrapped value: slicingabstractions/Multiplication-1 was a wrong true).
func (fl *fnLowerer) mayOverflowConst(n cc.ExpressionNode) bool {
	if !fl.l.cfg.OverflowError {
		return false
	}
	switch n := n.(type) {
	case *cc.AdditiveExpression, *cc.MultiplicativeExpression:
		return true
	case *cc.UnaryExpression:
		return n.Case == cc.UnaryExpressionMinus
	case *cc.PrimaryExpression:
		return n.Case == cc.PrimaryExpressionExpr
	}
	return false
}

// constOverflow asserts false (a signed overflow, with
// Config.OverflowError) when the exact value v of a folded signed
// operation lies outside t.
func (fl *fnLowerer) constOverflow(v *big.Int, t intType) {
	if !fl.l.cfg.OverflowError || !t.signed || v.Cmp(t.min()) >= 0 && v.Cmp(t.max()) <= 0 {
		fl.opText = ""
		return
	}
	text := "signed overflow"
	if fl.opText != "" {
		text += " in " + fl.opText
		fl.opText = ""
	}
	fl.check(text, "false")
}

func constFold(op string, a, b *big.Int) (*big.Int, bool) {
	switch op {
	case "+":
		return new(big.Int).Add(a, b), true
	case "-":
		return new(big.Int).Sub(a, b), true
	case "*":
		return new(big.Int).Mul(a, b), true
	case "/":
		if b.Sign() == 0 {
			return nil, false
		}
		return new(big.Int).Quo(a, b), true
	case "%":
		if b.Sign() == 0 {
			return nil, false
		}
		return new(big.Int).Rem(a, b), true
	}
	return nil, false
}

func maxAbs(a, b *big.Int) *big.Int {
	x, y := new(big.Int).Abs(a), new(big.Int).Abs(b)
	return maxBig(x, y)
}

func minBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) < 0 {
		return a
	}
	return b
}

func maxBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) > 0 {
		return a
	}
	return b
}

// shift lowers << and >>: the result has the promoted type of the left
// operand; BIR shifts 64-bit two's complement values, so << is reduced
// into the type afterwards.
func (fl *fnLowerer) shift(n cc.ExpressionNode, op string, l, r cc.ExpressionNode) operand {
	t, ok := fl.intOf(n, n.Type())
	if !ok {
		return constOp(big.NewInt(0), tInt)
	}
	a := fl.exact(fl.value(l, t))
	if !r.Pure() {
		a = fl.stable(a)
	}
	b := fl.exact(fl.promote(fl.rval(r)))
	fl.shiftCheck(b, t, exprText(n))
	e := paren(a.e) + " " + op + " " + paren(b.e)
	if op == ">>" {
		return operand{e: e, t: t, lo: minBig(a.lo, big.NewInt(0)), hi: maxBig(a.hi, big.NewInt(0))}
	}
	return operand{e: e, t: t, lo: minInt64, hi: maxInt64}
}

// shiftCheck asserts that a shift count b lies in 0..width-1 of the
// promoted left operand's type t: C11 6.5.7p3 leaves any other count
// undefined (x86 masks it, BIR would shift on 64 bits), so it is a
// violation, as a count BIR itself cannot shift by is.
func (fl *fnLowerer) shiftCheck(b operand, t intType, expr string) {
	if b.lo.Sign() >= 0 && b.hi.Cmp(big.NewInt(int64(t.bits))) < 0 {
		return
	}
	fl.check("shift count out of range in "+expr, fmt.Sprintf("0 <= %s && %s < %d", paren(b.e), paren(b.e), t.bits))
}

// bitwise lowers & ^ |: on values within the type, the result is too.
func (fl *fnLowerer) bitwise(n cc.ExpressionNode, op string, l, r cc.ExpressionNode) operand {
	t, ok := fl.intOf(n, n.Type())
	if !ok {
		return constOp(big.NewInt(0), tInt)
	}
	a := fl.exact(fl.value(l, t))
	if !r.Pure() {
		a = fl.stable(a)
	}
	b := fl.exact(fl.value(r, t))
	lo, hi := t.min(), t.max()
	return operand{e: paren(a.e) + " " + op + " " + paren(b.e), t: t, lo: lo, hi: hi}
}

// compare lowers < <= > >= == != after the usual arithmetic conversions.
func (fl *fnLowerer) compare(n cc.ExpressionNode, op string, l, r cc.ExpressionNode) operand {
	lc, _ := fl.l.classify(l.Type())
	rc, _ := fl.l.classify(r.Type())
	if lc == classMemory || rc == classMemory {
		return fl.memCompare(n, op, l, r)
	}
	t, ok := fl.intOf(n, cc.UsualArithmeticConversions(l.Type(), r.Type()))
	if !ok {
		return boolOp("false", tInt)
	}
	a := fl.exact(fl.value(l, t))
	if !r.Pure() {
		a = fl.stable(a)
	}
	b := fl.exact(fl.value(r, t))
	return boolOp(paren(a.e)+" "+op+" "+paren(b.e), tInt)
}

// logical lowers && and || for their value: one BIR condition when the
// right operand has no effects, else branches.
func (fl *fnLowerer) logical(n cc.ExpressionNode, op string, l, r cc.ExpressionNode) operand {
	if fl.isPure(r) {
		a := fl.toBool(fl.rval(l))
		b := fl.toBool(fl.rval(r))
		return boolOp(paren(a)+" "+op+" "+paren(b), tInt)
	}
	t := fl.temp(tInt)
	tl, fl2, end := fl.b.newLabel(), fl.b.newLabel(), fl.b.newLabel()
	fl.condSplit(n, tl, fl2)
	fl.b.place(tl, false)
	fl.b.act("%s := 1;", t.name)
	fl.b.jump(end)
	fl.b.place(fl2, false)
	fl.b.act("%s := 0;", t.name)
	fl.b.place(end, false)
	r0 := varOp(t)
	r0.lo, r0.hi = big.NewInt(0), big.NewInt(1)
	return r0
}

// isPure tells whether lowering an expression emits no action or branch
// (a dry run, whose results are discarded). The answer is kept: nested
// dry runs would otherwise take time exponential in the nesting of && and
// || whose right operands nest them.
func (fl *fnLowerer) isPure(n cc.ExpressionNode) bool {
	if p, ok := fl.pure[n]; ok {
		return p
	}
	p := fl.dryRun(n)
	fl.pure[n] = p
	return p
}

// dryRun lowers an expression into a scratch builder and tells whether
// that emitted nothing; every other effect of the lowering is undone.
func (fl *fnLowerer) dryRun(n cc.ExpressionNode) bool {
	real := fl.b
	dummy := &location{}
	fl.b = &builder{cur: dummy, used: map[string]bool{}, pos: real.pos}
	nTemps, nLocals := len(fl.temps), len(fl.locals)
	busy := append([]*variable(nil), fl.busyTmp...)
	free := map[intType][]*variable{}
	for k, v := range fl.freeTmp {
		free[k] = append([]*variable(nil), v...)
	}
	nProp, nMsg := len(fl.l.property), len(fl.l.messages)
	fl.rval(n)
	pure := len(fl.b.locs) == 0 && len(dummy.trans) == 0 && len(fl.b.pending) == 0
	for _, v := range fl.temps[nTemps:] {
		delete(fl.names, v.name)
	}
	fl.b, fl.temps, fl.locals, fl.busyTmp, fl.freeTmp = real, fl.temps[:nTemps], fl.locals[:nLocals], busy, free
	// what it reported stays: the lowerer keeps what the run created
	// (a global's object and its initial values, a function queued), and
	// its errors would not be reported again (a string literal that
	// initialises a global read first in a condition was lost: the
	// global's cells stayed 0, a wrong verdict); the real lowering of n
	// reports the others again, at the same positions
	fl.l.property, fl.l.messages = fl.l.property[:nProp], fl.l.messages[:nMsg]
	return pure
}

// cond lowers a controlling expression as branches to t and f.
func (fl *fnLowerer) cond(n cc.ExpressionNode, t, f string) {
	n = stripParens(n)
	if fl.isPure(n) {
		fl.b.branch(fl.toBool(fl.rval(n)), t, f)
		return
	}
	fl.condSplit(n, t, f)
}

// condSplit is cond for an expression with effects: && || ! become
// branches, so that the effects happen only where C evaluates them.
func (fl *fnLowerer) condSplit(n cc.ExpressionNode, t, f string) {
	n = stripParens(n)
	switch x := n.(type) {
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionLAnd {
			mid := fl.b.newLabel()
			fl.cond(x.LogicalAndExpression, mid, f)
			fl.b.place(mid, false)
			fl.cond(x.InclusiveOrExpression, t, f)
			return
		}
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLOr {
			mid := fl.b.newLabel()
			fl.cond(x.LogicalOrExpression, t, mid)
			fl.b.place(mid, false)
			fl.cond(x.LogicalAndExpression, t, f)
			return
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionNot {
			fl.cond(x.CastExpression, f, t)
			return
		}
	}
	fl.b.branch(fl.toBool(fl.rval(n)), t, f)
}

func stripParens(n cc.ExpressionNode) cc.ExpressionNode {
	for {
		switch x := n.(type) {
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionExpr {
				if el, ok := x.ExpressionList.(*cc.ExpressionList); ok && el.ExpressionList == nil {
					n = el.AssignmentExpression
					continue
				}
				if _, ok := x.ExpressionList.(*cc.ExpressionList); !ok && x.ExpressionList != nil {
					n = x.ExpressionList
					continue
				}
			}
		case *cc.ExpressionList:
			if x.ExpressionList == nil {
				n = x.AssignmentExpression
				continue
			}
		}
		return n
	}
}

// conditional lowers c ? a : b (and GNU's c ?: b).
func (fl *fnLowerer) conditional(n *cc.ConditionalExpression, want bool) operand {
	class, t := fl.l.classify(n.Type())
	if class == classMemory {
		return fl.memRval(n)
	}
	tl, fl2, end := fl.b.newLabel(), fl.b.newLabel(), fl.b.newLabel()
	if class == classVoid || !want {
		fl.cond(n.LogicalOrExpression, tl, fl2)
		fl.b.place(tl, false)
		if n.ExpressionList != nil {
			fl.effect(n.ExpressionList)
		}
		fl.b.jump(end)
		fl.b.place(fl2, false)
		fl.effect(n.ConditionalExpression)
		fl.b.place(end, false)
		return voidOp
	}
	if class != classInt {
		fl.intOf(n, n.Type())
		return constOp(big.NewInt(0), tInt)
	}
	v := fl.temp(t)
	if n.ExpressionList == nil {
		fl.store(v, fl.value(n.LogicalOrExpression, t))
		fl.b.branch(v.name+" != 0", end, fl2)
	} else {
		fl.cond(n.LogicalOrExpression, tl, fl2)
		fl.b.place(tl, false)
		fl.store(v, fl.value(n.ExpressionList, t))
		fl.b.jump(end)
	}
	fl.b.place(fl2, false)
	fl.store(v, fl.value(n.ConditionalExpression, t))
	fl.b.place(end, false)
	return varOp(v)
}

// lvar is the variable an lvalue names; nil for other lvalues (memory).
func (fl *fnLowerer) lvar(n cc.ExpressionNode) *variable {
	n = stripParens(n)
	if p, ok := n.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		return fl.ident(p)
	}
	return fl.memLvalue(n)
}

// assign lowers = and the compound assignments.
func (fl *fnLowerer) assign(n *cc.AssignmentExpression, want bool) operand {
	if class, _ := fl.l.classify(n.UnaryExpression.Type()); class == classMemory {
		return fl.memAssign(n)
	}
	v := fl.lvar(n.UnaryExpression)
	if v == nil {
		fl.rval(n.AssignmentExpression)
		return constOp(big.NewInt(0), tInt)
	}
	if n.Case == cc.AssignmentExpressionAssign {
		fl.store(v, fl.rval(n.AssignmentExpression))
		return varOp(v)
	}
	ops := map[cc.AssignmentExpressionCase]string{
		cc.AssignmentExpressionMul: "*", cc.AssignmentExpressionDiv: "/", cc.AssignmentExpressionMod: "%",
		cc.AssignmentExpressionAdd: "+", cc.AssignmentExpressionSub: "-", cc.AssignmentExpressionLsh: "<<",
		cc.AssignmentExpressionRsh: ">>", cc.AssignmentExpressionAnd: "&", cc.AssignmentExpressionXor: "^",
		cc.AssignmentExpressionOr: "|",
	}
	op := ops[n.Case]
	lt, rt := n.UnaryExpression.Type(), n.AssignmentExpression.Type()
	var res operand
	switch op {
	case "<<", ">>":
		t, ok := fl.intOf(n, cc.IntegerPromotion(lt))
		if !ok {
			return varOp(v)
		}
		b := fl.exact(fl.promote(fl.rval(n.AssignmentExpression)))
		a := fl.exact(fl.convert(fl.readVar(v), t))
		fl.shiftCheck(b, t, exprText(n))
		e := paren(a.e) + " " + op + " " + paren(b.e)
		res = operand{e: e, t: t, lo: minInt64, hi: maxInt64}
		if op == ">>" {
			res.lo, res.hi = minBig(a.lo, big.NewInt(0)), maxBig(a.hi, big.NewInt(0))
		}
	default:
		t, ok := fl.intOf(n, cc.UsualArithmeticConversions(lt, rt))
		if !ok {
			return varOp(v)
		}
		b := fl.value(n.AssignmentExpression, t)
		if !b.isConst() {
			b = fl.stable(b)
		}
		a := fl.convert(fl.readVar(v), t)
		switch op {
		case "&", "^", "|":
			a, b = fl.exact(a), fl.exact(b)
			res = operand{e: paren(a.e) + " " + op + " " + paren(b.e), t: t, lo: t.min(), hi: t.max()}
		default:
			fl.opText = exprText(n)
			res = fl.binop(op, a, b, t)
			fl.opText = ""
		}
	}
	fl.store(v, res)
	return varOp(v)
}

// incDec lowers ++ and -- (prefix or postfix).
func (fl *fnLowerer) incDec(n cc.ExpressionNode, op string, post, want bool) operand {
	if class, _ := fl.l.classify(n.Type()); class == classMemory {
		return fl.memIncDec(n, op, post, want)
	}
	v := fl.lvar(n)
	if v == nil {
		return constOp(big.NewInt(0), tInt)
	}
	var old operand
	cur := fl.readVar(v)
	if post && want {
		t := fl.temp(v.t)
		fl.b.act("%s := %s;", t.name, cur.e)
		old = varOp(t)
	}
	a := fl.promote(cur)
	fl.opText = exprText(n) + op + op
	if !post {
		fl.opText = op + op + exprText(n)
	}
	fl.store(v, fl.binop(op, a, constOp(big.NewInt(1), a.t), a.t))
	fl.opText = ""
	if post && want {
		return old
	}
	return varOp(v)
}

func (fl *fnLowerer) unary(n *cc.UnaryExpression) operand {
	switch n.Case {
	case cc.UnaryExpressionPostfix:
		return fl.rval(n.PostfixExpression)
	case cc.UnaryExpressionInc:
		return fl.incDec(n.UnaryExpression, "+", false, true)
	case cc.UnaryExpressionDec:
		return fl.incDec(n.UnaryExpression, "-", false, true)
	case cc.UnaryExpressionPlus:
		return fl.promote(fl.rval(n.CastExpression))
	case cc.UnaryExpressionMinus:
		a := fl.promote(fl.rval(n.CastExpression))
		if fl.l.cfg.OverflowError && a.t.signed {
			a = fl.exact(a)
		}
		if a.isConst() {
			v := new(big.Int).Neg(a.lo)
			fl.opText = exprText(n)
			fl.constOverflow(v, a.t)
			return constOp(wrapTo(v, a.t), a.t)
		}
		res := operand{e: "-" + paren(a.e), t: a.t, lo: new(big.Int).Neg(a.hi), hi: new(big.Int).Neg(a.lo)}
		if fl.l.cfg.OverflowError && a.t.signed && !res.exact() {
			fl.opText = exprText(n)
			fl.overflowCheck(res)
			res.lo, res.hi = a.t.min(), a.t.max()
		}
		return res
	case cc.UnaryExpressionCpl:
		a := fl.exact(fl.promote(fl.rval(n.CastExpression)))
		res := operand{e: "~" + paren(a.e), t: a.t, lo: a.t.min(), hi: a.t.max()}
		if !a.t.signed {
			res.lo, res.hi = new(big.Int).Neg(new(big.Int).Add(a.t.max(), big.NewInt(1))), big.NewInt(-1)
		}
		return res
	case cc.UnaryExpressionNot:
		c := fl.toBool(fl.rval(n.CastExpression))
		switch c {
		case "true":
			return boolOp("false", tInt)
		case "false":
			return boolOp("true", tInt)
		}
		return boolOp(negate(c), tInt)
	case cc.UnaryExpressionAddrof, cc.UnaryExpressionDeref:
		return fl.memRval(n)
	case cc.UnaryExpressionSizeofExpr, cc.UnaryExpressionSizeofType, cc.UnaryExpressionAlignofExpr, cc.UnaryExpressionAlignofType:
		fl.l.unsupported(n, "sizeof of a type whose size is not constant")
	case cc.UnaryExpressionImag, cc.UnaryExpressionReal:
		fl.l.unsupported(n, "complex numbers")
	default:
		fl.l.unsupported(n, "the expression %s", exprText(n))
	}
	return constOp(big.NewInt(0), tInt)
}

// cast lowers (T)e.
func (fl *fnLowerer) cast(n *cc.CastExpression) operand {
	class, t := fl.l.classify(n.Type())
	switch class {
	case classVoid:
		fl.effect(n.CastExpression)
		return voidOp
	case classInt:
		if oc, _ := fl.l.classify(n.CastExpression.Type()); oc == classMemory {
			return fl.memCast(n)
		}
		return fl.value(n.CastExpression, t)
	case classMemory:
		return fl.memCast(n)
	}
	fl.intOf(n, n.Type())
	return constOp(big.NewInt(0), tInt)
}

// effect lowers an expression for its side effects only.
func (fl *fnLowerer) effect(n cc.ExpressionNode) {
	switch x := n.(type) {
	case nil:
		return
	case *cc.ExpressionList:
		for l := x; l != nil; l = l.ExpressionList {
			fl.effect(l.AssignmentExpression)
		}
		return
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionExpr:
			fl.effect(x.ExpressionList)
			return
		case cc.PrimaryExpressionStmt:
			fl.stmtExpr(x.CompoundStatement, false)
			return
		}
	case *cc.AssignmentExpression:
		if x.Case != cc.AssignmentExpressionCond {
			fl.assign(x, false)
			return
		}
		fl.effect(x.ConditionalExpression)
		return
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionCall:
			fl.call(x, false)
			return
		case cc.PostfixExpressionInc:
			fl.incDec(x.PostfixExpression, "+", true, false)
			return
		case cc.PostfixExpressionDec:
			fl.incDec(x.PostfixExpression, "-", true, false)
			return
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast {
			if class, _ := fl.l.classify(x.Type()); class == classVoid {
				fl.effect(x.CastExpression)
				return
			}
		}
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionCond {
			fl.conditional(x, false)
			return
		}
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionLAnd && !fl.isPure(x.InclusiveOrExpression) {
			rhs, end := fl.b.newLabel(), fl.b.newLabel()
			fl.cond(x.LogicalAndExpression, rhs, end)
			fl.b.place(rhs, false)
			fl.effect(x.InclusiveOrExpression)
			fl.b.place(end, false)
			return
		}
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLOr && !fl.isPure(x.LogicalAndExpression) {
			rhs, end := fl.b.newLabel(), fl.b.newLabel()
			fl.cond(x.LogicalOrExpression, end, rhs)
			fl.b.place(rhs, false)
			fl.effect(x.LogicalAndExpression)
			fl.b.place(end, false)
			return
		}
	case *cc.UnaryExpression:
		if isSizeof(x) {
			return
		}
	}
	if class, _ := fl.l.classify(n.Type()); class == classVoid {
		fl.rval(n)
		return
	}
	o := fl.rval(n)
	if !o.void && !o.isBool && !o.exact() {
		o = fl.exact(o)
	}
	if !o.isConst() && !o.void && o.e != "" && !isAtom(o.e) {
		// evaluate it for its runtime errors (a division by zero), as C
		if o.isBool {
			next := fl.b.newLabel()
			fl.b.branch(o.e, next, next)
			fl.b.place(next, false)
			return
		}
		t := fl.temp(o.t)
		fl.b.act("%s := %s;", t.name, o.e)
	}
}

// stmtExpr lowers a GNU statement expression ({ ... }); its value is the
// last expression statement's.
func (fl *fnLowerer) stmtExpr(cs *cc.CompoundStatement, want bool) operand {
	fl.inExpr++
	defer func() { fl.inExpr-- }()
	var items []*cc.BlockItem
	for bl := cs.BlockItemList; bl != nil; bl = bl.BlockItemList {
		items = append(items, bl.BlockItem)
	}
	res := voidOp
	for i, it := range items {
		if i == len(items)-1 && want && it.Case == cc.BlockItemStmt && it.Statement.Case == cc.StatementExpr &&
			it.Statement.ExpressionStatement.ExpressionList != nil {
			return fl.rval(it.Statement.ExpressionStatement.ExpressionList)
		}
		switch it.Case {
		case cc.BlockItemDecl:
			fl.declaration(it.Declaration, items[i+1:])
		case cc.BlockItemStmt:
			fl.stmt(it.Statement)
		case cc.BlockItemLabel:
		default:
			fl.l.unsupported(it, "a nested function")
		}
	}
	return res
}
