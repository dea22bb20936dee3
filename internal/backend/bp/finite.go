package bp

import (
	"math/bits"
	"sort"
	"strconv"

	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/boolprog"
	"birch/internal/model"
	"birch/internal/source"
)

// Variables of small finite types, ranges and enums of at most MaxValues
// values, are held in the boolean program as bits: the index of the value
// among the type's values (a range's from its low bound, an enum's by
// ordinal), least significant bit first, one boolean `{x.0}`, `{x.1}`, …
// each. Integer expressions over them are translated by cases: the list of
// values an expression can take, each with the condition (a formula over
// the bits) under which it takes it; an operation combines the cases of
// its operands, a comparison is the disjunction of the pairs it holds for,
// and storing a value writes each bit as the disjunction of the cases
// whose index has the bit set. BIR's runtime errors on these values (a
// value out of a range, a zero divisor, an overflow) become assertions
// before the action, under the condition of the cases that raise them.

// MaxValues bounds the values of a range or enum the translation holds in
// bits; MaxCases the cases of one expression; MaxFormula the operators
// and operands of one statement of the boolean program as printed (the
// formulas of cases share their parts, which printing repeats: a chain of
// additions has formulas exponentially longer than itself).
const (
	MaxValues  = 256
	MaxCases   = 4096
	MaxFormula = 1 << 16
)

// treeSize is the size of e as printed (its parts counted as often as
// they occur), at most MaxFormula+1; memo holds the sizes of shared parts.
func treeSize(e boolprog.Expr, memo map[boolprog.Expr]int) int {
	if n, ok := memo[e]; ok {
		return n
	}
	n := 1
	switch e := e.(type) {
	case *boolprog.Unary:
		n += treeSize(e.X, memo)
	case *boolprog.Binary:
		n += treeSize(e.X, memo) + treeSize(e.Y, memo)
	case *boolprog.Choose:
		n += treeSize(e.True, memo) + treeSize(e.False, memo)
	}
	n = min(n, MaxFormula+1)
	memo[e] = n
	return n
}

// stmtSize is the size of the formulas of s as printed (at most about
// MaxFormula+1 each).
func stmtSize(s boolprog.Stmt, memo map[boolprog.Expr]int) int {
	var es []boolprog.Expr
	switch s := s.(type) {
	case *boolprog.AssignStmt:
		es = s.Rhs
	case *boolprog.CallStmt:
		es = s.Args
	case *boolprog.AssumeStmt:
		es = []boolprog.Expr{s.Cond}
	case *boolprog.AssertStmt:
		es = []boolprog.Expr{s.Cond}
	case *boolprog.ReturnStmt:
		es = s.Results
	}
	n := 0
	for _, e := range es {
		n += treeSize(e, memo)
	}
	return n
}

// domain is the set of values of a variable's type: nil for boolean.
type domain struct {
	vals []int64 // the values in index order: a range's in order, an enum's ordinals sorted
	bits int
	enum *types.Enum // or nil for a range
}

// domainOf returns the domain of t (nil for boolean); ok is false for a
// type the translation does not hold.
func domainOf(t types.Type) (d *domain, ok bool) {
	if t == nil {
		return nil, false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return nil, u.Kind == types.Bool
	case *types.Range:
		if u.Hi < u.Lo || u.Span() >= MaxValues {
			return nil, false
		}
		d = &domain{}
		for k := uint64(0); k <= u.Span(); k++ {
			d.vals = append(d.vals, u.Lo+int64(k))
		}
	case *types.Enum:
		if len(u.Consts) > MaxValues || len(u.Consts) == 0 {
			return nil, false
		}
		d = &domain{enum: u}
		for _, c := range u.Consts {
			d.vals = append(d.vals, c.Ordinal)
		}
		sort.Slice(d.vals, func(i, j int) bool { return d.vals[i] < d.vals[j] })
	default:
		return nil, false
	}
	d.bits = bits.Len(uint(len(d.vals) - 1))
	return d, true
}

// index returns the index of v in d, or -1.
func (d *domain) index(v int64) int {
	i := sort.Search(len(d.vals), func(i int) bool { return d.vals[i] >= v })
	if i < len(d.vals) && d.vals[i] == v {
		return i
	}
	return -1
}

// same reports whether two domains hold the same values the same way.
func (d *domain) same(e *domain) bool {
	if d == nil || e == nil {
		return d == e
	}
	if len(d.vals) != len(e.vals) || (d.enum == nil) != (e.enum == nil) {
		return false
	}
	for i := range d.vals {
		if d.vals[i] != e.vals[i] {
			return false
		}
	}
	return true
}

// format writes v as model.Describe does.
func (d *domain) format(v int64) string {
	if d.enum != nil {
		for _, c := range d.enum.Consts {
			if c.Ordinal == v {
				return c.Name()
			}
		}
	}
	return strconv.FormatInt(v, 10)
}

// defaultValue is the value a variable of type t starts with when its
// declaration gives none (BIR §5), and dead variables are reset to.
func defaultValue(t types.Type) int64 {
	switch u := t.Underlying().(type) {
	case *types.Range:
		if u.Lo <= 0 && 0 <= u.Hi {
			return 0
		}
		return u.Lo
	case *types.Enum:
		return u.Consts[0].Ordinal
	}
	return 0
}

// initialValue is v's declared initial value, or its type's default.
func initialValue(v *types.Var) int64 {
	switch v.Init.Kind {
	case types.BoolConst:
		if v.Init.Bool {
			return 1
		}
		return 0
	case types.IntConst:
		return v.Init.Int
	}
	return defaultValue(v.Type())
}

// valueBits is the bits of value v of a variable of domain d (nil: a
// boolean, v 0 or 1) as constants.
func valueBits(d *domain, v int64) []boolprog.Expr {
	if d == nil {
		return []boolprog.Expr{konst(v != 0)}
	}
	i := d.index(v)
	out := make([]boolprog.Expr, d.bits)
	for j := range out {
		out[j] = konst(i>>j&1 != 0)
	}
	return out
}

// Formulas, simplified where a constant decides them.

func notE(x boolprog.Expr) boolprog.Expr {
	switch x := x.(type) {
	case *boolprog.Const:
		return konst(!x.Value)
	case *boolprog.Unary:
		return x.X
	}
	return &boolprog.Unary{X: x}
}

func andE(x, y boolprog.Expr) boolprog.Expr {
	if x == nil {
		return y
	}
	if c, ok := x.(*boolprog.Const); ok {
		if c.Value {
			return y
		}
		return x
	}
	if c, ok := y.(*boolprog.Const); ok {
		if c.Value {
			return x
		}
		return y
	}
	return &boolprog.Binary{X: x, Op: boolprog.And, Y: y}
}

func orE(x, y boolprog.Expr) boolprog.Expr {
	if x == nil {
		return y
	}
	if c, ok := x.(*boolprog.Const); ok {
		if c.Value {
			return x
		}
		return y
	}
	if c, ok := y.(*boolprog.Const); ok {
		if c.Value {
			return y
		}
		return x
	}
	return &boolprog.Binary{X: x, Op: boolprog.Or, Y: y}
}

// icase is one case of an integer (or enum) expression: it has value v
// when c holds.
type icase struct {
	v int64
	c boolprog.Expr
}

// cases is the cases of an expression, one per value, sorted by value.
type cases []icase

// add merges a case into cs.
func (cs cases) add(v int64, c boolprog.Expr) cases {
	i := sort.Search(len(cs), func(i int) bool { return cs[i].v >= v })
	if i < len(cs) && cs[i].v == v {
		cs[i].c = orE(cs[i].c, c)
		return cs
	}
	cs = append(cs, icase{})
	copy(cs[i+1:], cs[i:])
	cs[i] = icase{v, c}
	return cs
}

// rtErr is a runtime error an action may raise: of kind, when cond holds
// (in the state before the action).
type rtErr struct {
	kind model.ErrorKind
	pos  source.Pos
	cond boolprog.Expr
}

// varCases is the cases of a finite variable: one per value of its
// domain.
func (tr *translator) varCases(v *types.Var, d *domain) cases {
	names := tr.bitNames(v)
	var cs cases
	for i, val := range d.vals {
		var c boolprog.Expr = konst(true)
		for j, n := range names {
			lit := boolprog.Expr(ident(n))
			if i>>j&1 == 0 {
				lit = notE(lit)
			}
			c = andE(c, lit)
		}
		cs = append(cs, icase{val, c})
	}
	return cs
}

// raise records a runtime error under the current evaluation context.
func (tr *translator) raise(kind model.ErrorKind, pos source.Pos, cond boolprog.Expr) {
	cond = andE(tr.ctx, cond)
	if c, ok := cond.(*boolprog.Const); ok && !c.Value {
		return
	}
	tr.rt = append(tr.rt, rtErr{kind, pos, cond})
}

// intExpr translates an integer or enum expression into its cases.
func (tr *translator) intExpr(x ast.Expr) cases {
	if tv, ok := tr.info.Types[x]; ok && tv.Value.Kind == types.IntConst {
		return cases{{tv.Value.Int, konst(true)}}
	}
	switch x := x.(type) {
	case *ast.ParenExpr:
		return tr.intExpr(x.X)
	case *ast.Ident:
		if v, ok := tr.info.Uses[x].(*types.Var); ok {
			if d, ok := domainOf(v.Type()); ok && d != nil {
				return tr.varCases(v, d)
			}
		}
	case *ast.UnaryExpr:
		switch x.Op {
		case token.ADD:
			return tr.intExpr(x.X)
		case token.SUB:
			var out cases
			for _, c := range tr.intExpr(x.X) {
				if c.v == -1<<63 {
					tr.raise(model.Overflow, x.Pos(), c.c)
					continue
				}
				out = out.add(-c.v, c.c)
			}
			return out
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM:
			a, b := tr.intExpr(x.X), tr.intExpr(x.Y)
			if len(a)*len(b) > MaxCases {
				tr.errorf(x.Pos(), "this expression has more than %d cases: too many to translate to a boolean program", MaxCases)
				return cases{{0, konst(true)}}
			}
			var out cases
			var zero, ovf boolprog.Expr
			for _, p := range a {
				for _, q := range b {
					v, err := arith(x.Op, p.v, q.v)
					switch err {
					case model.DivisionByZero:
						zero = orE(zero, andE(p.c, q.c))
					case model.Overflow:
						ovf = orE(ovf, andE(p.c, q.c))
					default:
						out = out.add(v, andE(p.c, q.c))
					}
				}
			}
			if zero != nil {
				tr.raise(model.DivisionByZero, x.OpPos, zero)
			}
			if ovf != nil {
				tr.raise(model.Overflow, x.OpPos, ovf)
			}
			return out
		}
	}
	tr.errorf(x.Pos(), "this expression is not translated to a boolean program (variables of ranges and enums of at most %d values, constants, + - * / %% are)", MaxValues)
	return cases{{0, konst(true)}}
}

// arith computes a op b as BIR does (64 bits, Java's division), or the
// error it raises.
func arith(op token.Kind, a, b int64) (int64, model.ErrorKind) {
	switch op {
	case token.ADD:
		s := a + b
		if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
			return 0, model.Overflow
		}
		return s, model.NoError
	case token.SUB:
		s := a - b
		if (a >= 0) != (b >= 0) && (s >= 0) != (a >= 0) {
			return 0, model.Overflow
		}
		return s, model.NoError
	case token.MUL:
		if a == 0 || b == 0 {
			return 0, model.NoError
		}
		p := a * b
		if p/b != a || (a == -1 && b == -1<<63) || (b == -1 && a == -1<<63) {
			return 0, model.Overflow
		}
		return p, model.NoError
	}
	if b == 0 {
		return 0, model.DivisionByZero
	}
	if a == -1<<63 && b == -1 {
		if op == token.REM {
			return 0, model.NoError
		}
		return 0, model.Overflow
	}
	if op == token.QUO {
		return a / b, model.NoError
	}
	return a % b, model.NoError
}

// compare is the formula under which `a op b` holds.
func compare(op token.Kind, a, b cases) boolprog.Expr {
	var out boolprog.Expr = konst(false)
	for _, p := range a {
		for _, q := range b {
			var holds bool
			switch op {
			case token.EQL:
				holds = p.v == q.v
			case token.NEQ:
				holds = p.v != q.v
			case token.LSS:
				holds = p.v < q.v
			case token.LEQ:
				holds = p.v <= q.v
			case token.GTR:
				holds = p.v > q.v
			case token.GEQ:
				holds = p.v >= q.v
			}
			if holds {
				out = orE(out, andE(p.c, q.c))
			}
		}
	}
	return out
}

// store is the bits of the cases cs stored into a variable of domain d:
// each bit the disjunction of the cases whose index sets it; a case
// outside d raises the range error at pos.
func (tr *translator) store(d *domain, cs cases, pos source.Pos) []boolprog.Expr {
	out := make([]boolprog.Expr, d.bits)
	for j := range out {
		out[j] = konst(false)
	}
	var outside boolprog.Expr
	for _, c := range cs {
		i := d.index(c.v)
		if i < 0 {
			outside = orE(outside, c.c)
			continue
		}
		for j := range out {
			if i>>j&1 != 0 {
				out[j] = orE(out[j], c.c)
			}
		}
	}
	if outside != nil {
		tr.raise(model.RangeError, pos, outside)
	}
	return out
}
