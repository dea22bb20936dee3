package refine

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"birch/internal/abstraction/smtops"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/smt"
	"birch/internal/smt/lia"
)

// lin is a linear form Σ c·x + k over the path's integer terms: SSA
// constants, and the subterms it cannot read linearly (a product of two
// variables, a truncating division), each as one unknown.
type lin struct {
	c map[*smt.Term]lia.Q
	k lia.Q
}

var oneQ = lia.Int(1)

func newLin() lin { return lin{c: map[*smt.Term]lia.Q{}} }

func (l lin) add(o lin, f lia.Q) {
	for t, c := range o.c {
		n := l.c[t].Add(c.Mul(f))
		if n.IsZero() {
			delete(l.c, t)
		} else {
			l.c[t] = n
		}
	}
}

func (l *lin) addAll(o lin, f lia.Q) {
	l.add(o, f)
	l.k = l.k.Add(o.k.Mul(f))
}

// vars returns the unknowns of l in a fixed order (by term id).
func (l lin) vars() []*smt.Term {
	out := make([]*smt.Term, 0, len(l.c))
	for t := range l.c {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID() < out[j].ID() })
	return out
}

// linearize reads an Int term as a linear form.
func linearize(t *smt.Term) lin {
	l := newLin()
	linInto(&l, t, lia.Int(1))
	return l
}

func linInto(l *lin, t *smt.Term, f lia.Q) {
	switch t.Op() {
	case smt.OpInt:
		l.k = l.k.Add(lia.FromBigInt(t.BigInt()).Mul(f))
		return
	case smt.OpAdd:
		for _, a := range t.Args() {
			linInto(l, a, f)
		}
		return
	case smt.OpSub:
		for i, a := range t.Args() {
			if i == 0 {
				linInto(l, a, f)
			} else {
				linInto(l, a, f.Neg())
			}
		}
		return
	case smt.OpNeg:
		linInto(l, t.Arg(0), f.Neg())
		return
	case smt.OpIte:
		// a boolean read as 0 or 1 (interpolation's unknowns)
		if b := t.Arg(0); b.Op() == smt.OpVar && t.Arg(1).Op() == smt.OpInt && t.Arg(2).Op() == smt.OpInt {
			if one, ok := t.Arg(1).Int64(); ok && one == 1 {
				if zero, ok := t.Arg(2).Int64(); ok && zero == 0 {
					l.add(lin{c: map[*smt.Term]lia.Q{b: oneQ}}, f)
					return
				}
			}
		}
	case smt.OpMul:
		var other *smt.Term
		coef := lia.Int(1)
		linear := true
		for _, a := range t.Args() {
			if a.Op() == smt.OpInt {
				coef = coef.Mul(lia.FromBigInt(a.BigInt()))
			} else if other == nil {
				other = a
			} else {
				linear = false
			}
		}
		if linear {
			if other == nil {
				l.k = l.k.Add(coef.Mul(f))
			} else {
				linInto(l, other, coef.Mul(f))
			}
			return
		}
	}
	l.add(lin{c: map[*smt.Term]lia.Q{t: lia.Int(1)}}, f)
}

// atom is a normalized linear constraint: l <= 0, or l == 0 when eq.
type atom struct {
	l  lin
	eq bool
}

// atomOf reads a comparison of Int terms (positive: the comparison holds)
// as an atom; ok is false for another term. A disequality is not an atom:
// it is the negation of an equality.
func atomOf(t *smt.Term, positive bool) (atom, bool) {
	switch t.Op() {
	case smt.OpLt, smt.OpLe, smt.OpGt, smt.OpGe:
	case smt.OpEq:
		if !t.Arg(0).IsInt() || !positive {
			return atom{}, false
		}
	default:
		return atom{}, false
	}
	a, b := t.Arg(0), t.Arg(1)
	op := t.Op()
	if op == smt.OpGt || op == smt.OpGe {
		a, b = b, a
		op = map[smt.Op]smt.Op{smt.OpGt: smt.OpLt, smt.OpGe: smt.OpLe}[op]
	}
	// a op b
	if !positive {
		// !(a < b) is b <= a; !(a <= b) is b < a
		a, b = b, a
		op = map[smt.Op]smt.Op{smt.OpLt: smt.OpLe, smt.OpLe: smt.OpLt}[op]
	}
	l := linearize(a)
	l.addAll(linearize(b), lia.Int(-1))
	if op == smt.OpLt {
		l.k = l.k.Add(lia.Int(1)) // integers: a < b is a - b + 1 <= 0
	}
	return normalize(atom{l, op == smt.OpEq}), true
}

// normalize divides an atom by the gcd of its coefficients (rounding the
// constant of an inequality, which is exact over the integers) and makes
// the first coefficient of an equation positive.
func normalize(a atom) atom {
	vs := a.l.vars()
	if len(vs) == 0 {
		return a
	}
	// scale by the lcm of the denominators: integer coefficients
	// (a Farkas sum has rational ones)
	den := big.NewInt(1)
	for _, v := range vs {
		d := a.l.c[v].Den()
		g := new(big.Int).GCD(nil, nil, den, d)
		den.Mul(den, d).Div(den, g)
	}
	scale := lia.FromBigInt(den)
	g := new(big.Int)
	for _, v := range vs {
		g.GCD(nil, nil, g, new(big.Int).Abs(a.l.c[v].Mul(scale).Num()))
	}
	div := lia.FromBigInt(g).Div(scale)
	if a.eq && a.l.c[vs[0]].Sign() < 0 {
		div = div.Neg()
	}
	out := newLin()
	for _, v := range vs {
		out.c[v] = a.l.c[v].Div(div)
	}
	k := a.l.k.Div(div)
	if !a.eq {
		k = k.Ceil() // Σ c·x + k <= 0 with integer Σ: Σ <= -k, so Σ <= floor(-k)
	}
	out.k = k
	return atom{out, a.eq}
}

// fits reports whether the coefficients and the constant of a are 64-bit
// ints (BIR can write them).
func (a atom) fits() bool {
	if _, ok := a.l.k.Int64(); !ok {
		return false
	}
	for _, c := range a.l.c {
		if _, ok := c.Int64(); !ok {
			return false
		}
	}
	return true
}

// trivial reports whether a has no unknowns (it is true or false).
func (a atom) trivial() bool { return len(a.l.c) == 0 }

// namer prints the SSA constants of a term as BIR variables.
type namer func(*smt.Term) (string, bool)

// text prints the atom as a BIR comparison: positive terms on the left,
// the others and the constant on the right.
func (p *Path) atomText(a atom, name namer) (string, bool) {
	var left, right []string
	k0 := a.l.k
	for _, v := range a.l.vars() {
		c := a.l.c[v]
		// a signed conversion's term is T(x) + 2^(N-1): the offset goes
		// to the constant, so that the comparison reads T(x) <= 9
		s, off, ok := p.convText(v, name)
		if ok {
			k0 = k0.Add(c.Mul(lia.Int(off)))
		} else if s, ok = p.termText(v, name); !ok {
			return "", false
		}
		if c.Sign() > 0 {
			left = append(left, scaled(c, s))
		} else {
			right = append(right, scaled(c.Neg(), s))
		}
	}
	k := k0.Neg() // Σ c·x <= -k
	op := "<="
	if a.eq {
		op = "=="
	}
	if len(left) == 0 {
		// Σ -c·x <= k: the right terms are >= -k
		left, right, k = right, nil, k.Neg()
		if op == "<=" {
			op = ">="
		}
	}
	if op == "<=" && len(right) > 0 && k.Equal(lia.Int(-1)) {
		op, k = "<", lia.Int(0)
	}
	if op == ">=" && len(right) == 0 && k.Equal(lia.Int(1)) {
		op, k = ">", lia.Int(0)
	}
	rhs := strings.Join(right, " + ")
	switch {
	case rhs == "":
		rhs = k.String()
	case k.Sign() > 0:
		rhs += " + " + k.String()
	case k.Sign() < 0:
		rhs += " - " + k.Neg().String()
	}
	return strings.Join(left, " + ") + " " + op + " " + rhs, true
}

func scaled(c lia.Q, s string) string {
	if c.Equal(lia.Int(1)) {
		return s
	}
	return c.String() + " * " + s
}

// termText prints an unknown of a linear form: an SSA constant, or a
// subterm read as one unknown.
func (p *Path) termText(t *smt.Term, name namer) (string, bool) {
	if t.Op() == smt.OpVar {
		return name(t)
	}
	if t.Op() == smt.OpSelect {
		// p.f: the field's array as it is at the point, read through a
		// reference
		arr, ref := t.Arg(0), t.Arg(1)
		sv := p.vars[arr]
		if sv == nil || arr.Op() != smt.OpVar {
			return "", false
		}
		if _, ok := name(arr); !ok {
			return "", false
		}
		if sv.v.Kind != types.FieldVar {
			// a[i]: the array variable as it is at the point; a literal
			// index out of bounds is no BIR expression
			if at, ok := sv.v.Type().Underlying().(*types.Array); ok {
				if l := linearize(ref); len(l.c) == 0 {
					if k, ok := l.k.Int64(); !ok || k < 0 || k >= at.Len {
						return "", false
					}
				}
			}
			a, _ := name(arr)
			i, ok := p.exprText(ref, name)
			if !ok {
				return "", false
			}
			return a + "[" + strings.TrimSuffix(strings.TrimPrefix(i, "("), ")") + "]", true
		}
		r, ok := p.termText(ref, name)
		if !ok {
			return "", false
		}
		return r + "." + sv.v.Name(), true
	}
	if op, ok := p.opaque[t]; ok && op.conv != nil {
		s, off, ok := p.convText(t, name)
		if ok && off != 0 {
			s = "(" + s + " + " + strconv.FormatInt(off, 10) + ")"
		}
		return s, ok
	}
	if op, ok := p.opaque[t]; ok {
		x, ok1 := p.exprText(op.x, name)
		y, ok2 := p.exprText(op.y, name)
		if !ok1 || !ok2 {
			return "", false
		}
		sym := "/"
		if op.op == token.REM {
			sym = "%"
		}
		return "(" + x + " " + sym + " " + y + ")", true
	}
	if t.Op() == smt.OpMul {
		var parts []string
		for _, a := range t.Args() {
			s, ok := p.exprText(a, name)
			if !ok {
				return "", false
			}
			parts = append(parts, s)
		}
		return "(" + strings.Join(parts, " * ") + ")", true
	}
	return "", false
}

// convText prints the mod term t of a conversion (smtops.Wrap) as T(x):
// t is T(x) + off, off 2^(N-1) for a signed type, 0 for an unsigned one;
// ok is false for any other term.
func (p *Path) convText(t *smt.Term, name namer) (s string, off int64, ok bool) {
	op, isOp := p.opaque[t]
	if !isOp || op.conv == nil {
		return "", 0, false
	}
	bits, signed, _ := smtops.Width(op.conv)
	if signed && bits == 64 {
		return "", 0, false // 2^63 is no BIR literal
	}
	x, ok := p.exprText(op.x, name)
	if !ok {
		return "", 0, false
	}
	if signed {
		off = 1 << (bits - 1)
	}
	return op.conv.Underlying().String() + "(" + unparen(x) + ")", off, true
}

// unparen drops the parentheses around all of s, if any.
func unparen(s string) string {
	if len(s) < 2 || s[0] != '(' {
		return s
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i < len(s)-1 {
				return s // (a) + (b)
			}
		}
	}
	return s[1 : len(s)-1]
}

// exprText prints an Int term as a BIR expression.
func (p *Path) exprText(t *smt.Term, name namer) (string, bool) {
	l := linearize(t)
	var parts []string
	for _, v := range l.vars() {
		s, ok := p.termText(v, name)
		if !ok {
			return "", false
		}
		c := l.c[v]
		if c.Sign() < 0 {
			parts = append(parts, "- "+scaled(c.Neg(), s))
		} else {
			parts = append(parts, "+ "+scaled(c, s))
		}
	}
	if !l.k.IsZero() || len(parts) == 0 {
		if l.k.Sign() < 0 {
			parts = append(parts, "- "+l.k.Neg().String())
		} else {
			parts = append(parts, "+ "+l.k.String())
		}
	}
	s := strings.Join(parts, " ")
	s = strings.TrimPrefix(s, "+ ")
	if strings.HasPrefix(s, "- ") {
		s = "-" + s[2:]
	}
	if len(parts) > 1 {
		s = "(" + s + ")"
	}
	return s, true
}

// enumText prints an equation x == k of an enum variable with the name of
// the constant.
func enumText(v *types.Var, k lia.Q) (string, bool) {
	e, ok := v.Type().Underlying().(*types.Enum)
	if !ok {
		return "", false
	}
	n, ok := k.Int64()
	if !ok {
		return "", false
	}
	for _, c := range e.Consts {
		if c.Ordinal == n {
			return fmt.Sprintf("%s == %s", v.Name(), c.Name()), true
		}
	}
	return "", false
}
