package promela

import (
	"fmt"
	"math/big"

	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// Fixed-width types (docs/bir.md §5.12), conversions and the bitwise
// operators. birch computes on 64-bit integers; a store into a
// fixed-width type, and a conversion, reduce the value modulo 2^N; inside a
// conversion's operand + - * compute modulo 2^64. A Promela int is a C int
// of pan, 32 bits, so the translation supports the types of at most 32
// bits whose values a C int holds (int8, int16, int32, uint8, uint16) and
// refuses int64, uint32 and uint64 with a positioned error.
//
// It is exact because 2^N divides 2^32 and 2^64: the value reduced into a
// type of N <= 32 bits depends only on the value modulo 2^32, which pan
// computes with C's int arithmetic when it wraps (gcc -fwrapv, which
// RunSpin passes for a translation that carries wrapvMarker). So an
// expression whose value is only stored into a fixed-width type or
// converted is translated in modular form (modExpr): its text's C value
// equals birch's modulo 2^32, the reduction (wrapText) is explicit, and
// every value stored is the one birch stores. birch's overflow errors are
// kept: an operation outside a conversion's operand is modular only when
// no 64-bit overflow is possible (interval, where a Promela int holds 32
// bits), otherwise it is translated as before, with the 32-bit overflow
// check of BIR's int (docs/promela.md, Known differences).

// wrapvMarker is the line of the translation's header that says pan must
// be compiled with -fwrapv (RunSpin looks for it).
const wrapvMarker = "   Fixed-width arithmetic wraps: compile pan with gcc -fwrapv (birch spin does)."

// fixedOf returns t's fixed-width range, or nil.
func fixedOf(t types.Type) *types.Range {
	if t == nil {
		return nil
	}
	if r, ok := t.Underlying().(*types.Range); ok && r.Wrap {
		return r
	}
	return nil
}

// fixedSupported reports whether a fixed-width type's values all fit a
// Promela int.
func fixedSupported(r *types.Range) bool { return r.Bits < 32 || (r.Bits == 32 && !r.Unsigned()) }

// wideFixedUse returns the first use of a fixed-width type whose values a
// Promela int cannot hold (int64, uint32, uint64): in a type expression or
// as a conversion's target.
func wideFixedUse(prog *types.Program) (source.Pos, string) {
	pos, what := source.NoPos, ""
	found := func(p source.Pos, w string) {
		if !pos.IsValid() || p < pos {
			pos, what = p, w
		}
	}
	ast.Inspect(prog.File, func(n ast.Node) bool {
		if c, ok := n.(*ast.ConvExpr); ok {
			if r := fixedOf(prog.Info.TypeOf(c)); r != nil && !fixedSupported(r) {
				found(c.Pos(), "conversion "+c.Type.Name+"(…)")
			}
		}
		if te, ok := n.(ast.TypeExpr); ok {
			if t, ok := prog.Info.TypeExprs[te]; ok {
				if r := wideFixedIn(t, 0); r != nil {
					found(te.Pos(), "fixed-width type "+r.String())
				}
			}
		}
		return true
	})
	return pos, what
}

// wideFixedIn returns the unsupported fixed-width type t is or holds (as an
// array element or a record field), or nil.
func wideFixedIn(t types.Type, depth int) *types.Range {
	if t == nil || depth > 100 {
		return nil
	}
	switch u := t.Underlying().(type) {
	case *types.Range:
		if u.Wrap && !fixedSupported(u) {
			return u
		}
	case *types.Array:
		return wideFixedIn(u.Elem, depth+1)
	case *types.Record:
		for _, f := range u.Fields {
			if r := wideFixedIn(f.Type(), depth+1); r != nil {
				return r
			}
		}
	}
	return nil
}

// usesFixed reports whether the program has a fixed-width type, a
// conversion or a bitwise operator (its pan needs -fwrapv).
func usesFixed(prog *types.Program) bool {
	pos, _ := types.FixedWidthUse(prog)
	return pos.IsValid()
}

// wrapText reduces v, a C int equal to a value modulo 2^32, into r (of at
// most 32 bits), without overflowing.
func wrapText(v string, r *types.Range) string {
	if c, ok := constInt(stripParens(v)); ok {
		w, _ := r.WrapValue(c)
		return lit32(w)
	}
	if r.Bits >= 32 {
		return v
	}
	mask := int64(1)<<r.Bits - 1
	if r.Unsigned() {
		return fmt.Sprintf("%s & %d", paren(v), mask)
	}
	half := int64(1) << (r.Bits - 1)
	return fmt.Sprintf("((%s & %d) ^ %d) - %d", paren(v), mask, half, half)
}

// wrapStored is the value v, of type src, as stored into dst: reduced when
// dst is a fixed-width type that does not hold every value of src.
func wrapStored(v string, src, dst types.Type) string {
	r := fixedOf(dst)
	if r == nil {
		return v
	}
	if s, ok := src.Underlying().(*types.Range); ok && s.Lo >= r.Lo && s.Hi <= r.Hi {
		return v
	}
	return wrapText(v, r)
}

// collectStores records the expressions stored into a place of a
// fixed-width type (g.storeDst): assigned and chosen values, arguments of
// calls and starts, and results. expr translates each in modular form and
// reduces it, wherever it is translated (in the step and hoisted).
func (g *gen) collectStores() {
	g.storeDst = map[ast.Expr]*types.Range{}
	add := func(e ast.Expr, dst types.Type) {
		if r := fixedOf(dst); r != nil && e != nil {
			g.storeDst[e] = r
		}
	}
	params := func(p *types.Proc, args []ast.Expr) {
		for i, a := range args {
			if p != nil && i < len(p.Params) {
				add(a, p.Params[i].Type())
			}
		}
	}
	for _, p := range append(append([]*types.Proc(nil), g.prog.Threads...), g.prog.Functions...) {
		for _, loc := range p.Locations {
			for _, tr := range loc.Decl.Transformations {
				if tr.Result != nil && p.Result != nil {
					add(tr.Result, p.Result)
				}
				for _, a := range tr.Actions {
					switch a := a.(type) {
					case *ast.AssignAction:
						add(a.Rhs, g.typeOf(a.Lhs))
					case *ast.ChooseAction:
						for _, v := range a.Values {
							add(v, g.typeOf(a.Lhs))
						}
					case *ast.CallAction:
						f, _ := g.info.Uses[a.Func].(*types.Proc)
						params(f, a.Args)
					case *ast.StartAction:
						t, _ := g.info.Uses[a.Thread].(*types.Proc)
						params(t, a.Args)
					}
				}
			}
		}
	}
}

// storedExpr translates e, stored into a place of fixed-width type r.
func (g *gen) storedExpr(e ast.Expr, r *types.Range, en *env) (string, []check, error) {
	tv := g.info.Types[e]
	if tv.Value.Kind == types.IntConst {
		w, _ := r.WrapValue(tv.Value.Int)
		return lit32(w), nil, nil
	}
	if tv.Type == nil {
		return "", nil, g.errorf(e.Pos(), "cannot translate %s", "an expression without a type")
	}
	if s, ok := tv.Type.Underlying().(*types.Range); ok && s.Lo >= r.Lo && s.Hi <= r.Hi {
		return g.expr0(e, en) // every value fits
	}
	v, cs, err := g.modExpr(e, en)
	if err != nil {
		return "", nil, err
	}
	return wrapText(v, r), cs, nil
}

// convExpr translates a conversion T(e) to a type of at most 32 bits.
func (g *gen) convExpr(e *ast.ConvExpr, en *env) (string, []check, error) {
	r := fixedOf(g.typeOf(e))
	if r == nil || !fixedSupported(r) {
		return "", nil, g.errorf(e.Pos(), "conversion %s(…) is not supported by the Promela translation", e.Type.Name)
	}
	v, cs, err := g.modExpr(e.X, en)
	if err != nil {
		return "", nil, err
	}
	return wrapText(v, r), cs, nil
}

// modExpr translates e in modular form: its text's C int value (computed
// with wrapping arithmetic) equals e's value modulo 2^32, with the checks
// of birch's runtime errors. + - * and unary - are modular inside a
// conversion's operand (Wraps) and where no 64-bit overflow is possible;
// & | ^ ~ and << are modular in their operands (their low 32 bits depend
// only on their operands' low 32 bits); / is exact in its operands, its
// one result beyond 32 bits (MIN / -1) wrapped. Anything else is exact.
func (g *gen) modExpr(e ast.Expr, en *env) (string, []check, error) {
	tv := g.info.Types[e]
	if tv.Value.Kind == types.IntConst {
		return lit32(int64(int32(tv.Value.Int))), nil, nil
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return g.modExpr(e.X, en)
	case *ast.UnaryExpr:
		switch e.Op {
		case token.SUB, token.ADD:
			if !tv.Wraps && !g.fits64(e) {
				break
			}
			x, cs, err := g.modExpr(e.X, en)
			if err != nil || e.Op == token.ADD {
				return x, cs, err
			}
			return "-" + paren(x), cs, nil
		case token.TILDE:
			x, cs, err := g.modExpr(e.X, en)
			return "~" + paren(x), cs, err
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.ADD, token.SUB, token.MUL:
			if !tv.Wraps && !g.fits64(e) {
				break
			}
			fallthrough
		case token.AND, token.OR, token.XOR:
			x, xc, err := g.modExpr(e.X, en)
			if err != nil {
				return "", nil, err
			}
			y, yc, err := g.modExpr(e.Y, en)
			if err != nil {
				return "", nil, err
			}
			return paren(x) + " " + e.Op.String() + " " + paren(y), append(xc, yc...), nil
		case token.SHL, token.SHR:
			return g.shift(e, en, true)
		case token.QUO:
			if !g.fits64(e) {
				break
			}
			x, xc, err := g.expr0(e.X, en)
			if err != nil {
				return "", nil, err
			}
			y, yc, err := g.expr0(e.Y, en)
			if err != nil {
				return "", nil, err
			}
			cs := append(xc, yc...)
			px, py := paren(x), paren(y)
			v := px + " / " + py
			if c, ok := constInt(stripParens(y)); ok {
				if c == 0 {
					return "0", append(cs, check{"false", "division-by-zero"}), nil
				}
				if c == -1 {
					v = "-" + px // birch's MIN / -1 is 2^31, -MIN wrapped (C's traps)
				}
				return v, cs, nil
			}
			cs = append(cs, check{py + " != 0", "division-by-zero"})
			ylo, yhi, _ := g.interval(e.Y)
			if ylo <= -1 && -1 <= yhi {
				v = fmt.Sprintf("(%s == -1 -> -%s : %s)", py, px, v)
			}
			if ylo <= 0 && 0 <= yhi {
				v = fmt.Sprintf("(%s != 0 -> %s : 0)", py, v)
			}
			return v, cs, nil
		}
	}
	return g.expr0(e, en)
}

// shift translates x << n and x >> n: a count outside 0..63 is birch's
// shift error, and C's shifts are used with counts 0..31 only. With mod,
// x << n is modular (0 for a count of 32 or more); otherwise it is exact,
// with the 32-bit overflow check of BIR's int where its value may leave
// 32 bits. x >> n is arithmetic and exact in x.
func (g *gen) shift(e *ast.BinaryExpr, en *env, mod bool) (string, []check, error) {
	if inner, mask, ok := g.u32Operand(e); ok {
		return g.shiftU32(e, inner, mask, en, mod)
	}
	var x string
	var cs []check
	var err error
	if mod && e.Op == token.SHL {
		x, cs, err = g.modExpr(e.X, en)
	} else {
		x, cs, err = g.expr0(e.X, en)
	}
	if err != nil {
		return "", nil, err
	}
	pn, nlo, nhi, nc, err := g.shiftCount(e, en)
	if err != nil {
		return "", nil, err
	}
	cs = append(cs, nc...)
	px := paren(x)
	small, sel := countIn(pn, nlo, nhi, 0, 31) // C's shift is defined
	if e.Op == token.SHR {
		return sel(px+" >> "+pn, fmt.Sprintf("(%s < 0 -> -1 : 0)", px)), cs, nil
	}
	v := sel(px+" << "+pn, "0")
	if mod {
		return v, cs, nil
	}
	if lo, hi, _ := g.interval(e); lo < -1<<31 || hi > 1<<31-1 {
		// the value may leave 32 bits: BIR's int in Promela
		fit := fmt.Sprintf("%s == 0 || (%s && ((%s << %s) >> %s) == %s)", px, orTrue(small), px, pn, pn, px)
		cs = append(cs, check{fit, "overflow"})
	}
	return v, cs, nil
}

// shiftCount translates the count of a shift, with the check of birch's
// shift error, and returns the interval of its values.
func (g *gen) shiftCount(e *ast.BinaryExpr, en *env) (pn string, nlo, nhi int64, cs []check, err error) {
	n, cs, err := g.expr0(e.Y, en)
	if err != nil {
		return "", 0, 0, nil, err
	}
	pn = paren(n)
	nlo, nhi, _ = g.interval(e.Y)
	if nlo < 0 || nhi > 63 {
		cs = append(cs, check{fmt.Sprintf("%s >= 0 && %s <= 63", pn, pn), "shift"})
	}
	return pn, nlo, nhi, cs, nil
}

// countIn returns the condition that the count pn (within nlo..nhi) lies
// in lo..hi ("" always, "false" never) and the selection of a value by it.
func countIn(pn string, nlo, nhi, lo, hi int64) (string, func(in, out string) string) {
	cond := fmt.Sprintf("%s >= %d && %s <= %d", pn, lo, pn, hi)
	if lo == hi {
		cond = fmt.Sprintf("%s == %d", pn, lo)
	}
	if nlo >= lo && nhi <= hi {
		cond = ""
	} else if nlo > hi || nhi < lo {
		cond = "false"
	}
	return cond, func(in, out string) string {
		switch cond {
		case "":
			return in
		case "false":
			return out
		}
		return fmt.Sprintf("(%s -> %s : %s)", cond, in, out)
	}
}

// u32Operand recognizes x >> n whose x is e' & c with a constant c of 32
// bits whose bit 31 is set, such as 4294967295: the value of x is the
// unsigned reading of 32 bits (Java's >>> on int is lowered so), beyond a
// Promela int, but its bits are the low 32 bits of e', masked.
func (g *gen) u32Operand(e *ast.BinaryExpr) (inner ast.Expr, mask int64, ok bool) {
	if e.Op != token.SHR {
		return nil, 0, false
	}
	b, isBin := ast.Unparen(e.X).(*ast.BinaryExpr)
	if !isBin || b.Op != token.AND {
		return nil, 0, false
	}
	for _, p := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		if c := g.info.Types[p[1]].Value; c.Kind == types.IntConst && c.Int >= 1<<31 && c.Int < 1<<32 {
			return p[0], c.Int, true
		}
	}
	return nil, 0, false
}

// shiftU32 translates (inner & mask) >> n (u32Operand): the 32 bits p of
// inner & mask shifted right logically, 0 for a count of 32 or more. With
// a count of 0 the value is p read unsigned: exact when p is not negative,
// modulo 2^32 (mod) in any case; otherwise the value beyond 32 bits is
// BIR's int in Promela, an overflow.
func (g *gen) shiftU32(e *ast.BinaryExpr, inner ast.Expr, mask int64, en *env, mod bool) (string, []check, error) {
	v, cs, err := g.modExpr(inner, en)
	if err != nil {
		return "", nil, err
	}
	p := paren(v)
	if m := int64(int32(mask)); m != -1 {
		p = "(" + p + " & " + lit32(m) + ")"
	}
	pn, nlo, nhi, nc, err := g.shiftCount(e, en)
	if err != nil {
		return "", nil, err
	}
	cs = append(cs, nc...)
	var shifted string
	if c, ok := constInt(stripParens(pn)); ok && c >= 1 && c <= 31 {
		shifted = fmt.Sprintf("(%s >> %d) & %d", p, c, int64(1)<<(32-c)-1)
	} else {
		shifted = fmt.Sprintf("(%s >> %s) & ~(-1 << (32 - %s))", p, pn, pn)
	}
	zero, selZero := countIn(pn, nlo, nhi, 0, 0)
	mlo := nlo // the count is not 0 where selMid is used
	if mlo == 0 {
		mlo = 1
	}
	_, selMid := countIn(pn, mlo, nhi, 1, 31)
	switch {
	case mod || zero == "false":
	case zero == "":
		cs = append(cs, check{p + " >= 0", "overflow"})
	default:
		cs = append(cs, check{fmt.Sprintf("!%s || %s >= 0", paren(zero), p), "overflow"})
	}
	return selZero(p, selMid("("+shifted+")", "0")), cs, nil
}

func orTrue(c string) string {
	if c == "" {
		return "true"
	}
	return paren(c)
}

// fits64 reports whether birch's evaluation of the operation e never
// overflows 64 bits (its operands as Promela holds them, within 32 bits).
func (g *gen) fits64(e ast.Expr) bool {
	lo, hi := g.bigInterval(e)
	return lo.Cmp(minInt64) >= 0 && hi.Cmp(maxInt64) <= 0
}

// interval is bigInterval clamped to 64 bits.
func (g *gen) interval(e ast.Expr) (lo, hi int64, ok bool) {
	l, h := g.bigInterval(e)
	ok = l.Cmp(minInt64) >= 0 && h.Cmp(maxInt64) <= 0
	if l.Cmp(minInt64) < 0 {
		l = minInt64
	}
	if h.Cmp(maxInt64) > 0 {
		h = maxInt64
	}
	return l.Int64(), h.Int64(), ok
}

var (
	minInt64 = big.NewInt(-1 << 63)
	maxInt64 = big.NewInt(1<<63 - 1)
	min32Big = big.NewInt(-1 << 31)
	max32Big = big.NewInt(1<<31 - 1)
)

// bigInterval returns an interval holding the exact value of the integer
// expression e, as birch computes it when no error occurs, where every
// variable, field and element holds a value of 32 bits (what a Promela int
// holds: a value beyond them is an overflow where it arises, docs/promela.md).
func (g *gen) bigInterval(e ast.Expr) (lo, hi *big.Int) {
	if tv, ok := g.info.Types[e]; ok && tv.Value.Kind == types.IntConst {
		return big.NewInt(tv.Value.Int), big.NewInt(tv.Value.Int)
	}
	n := func(v int64) *big.Int { return big.NewInt(v) }
	switch e := e.(type) {
	case *ast.ParenExpr:
		return g.bigInterval(e.X)
	case *ast.UnaryExpr:
		l, h := g.bigInterval(e.X)
		switch e.Op {
		case token.NOT:
			return n(0), n(1)
		case token.SUB:
			return new(big.Int).Neg(h), new(big.Int).Neg(l)
		case token.TILDE: // ~x is -x - 1
			return new(big.Int).Sub(new(big.Int).Neg(h), n(1)), new(big.Int).Sub(new(big.Int).Neg(l), n(1))
		}
		return l, h
	case *ast.BinaryExpr:
		switch e.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM,
			token.AND, token.OR, token.XOR, token.SHL, token.SHR:
		default:
			return n(0), n(1) // comparisons and logic
		}
		xl, xh := g.bigInterval(e.X)
		yl, yh := g.bigInterval(e.Y)
		if g.info.Types[e].Wraps {
			// modulo 2^64 inside a conversion's operand
			return new(big.Int).Set(minInt64), new(big.Int).Set(maxInt64)
		}
		switch e.Op {
		case token.ADD:
			return new(big.Int).Add(xl, yl), new(big.Int).Add(xh, yh)
		case token.SUB:
			return new(big.Int).Sub(xl, yh), new(big.Int).Sub(xh, yl)
		case token.MUL:
			ps := []*big.Int{new(big.Int).Mul(xl, yl), new(big.Int).Mul(xl, yh), new(big.Int).Mul(xh, yl), new(big.Int).Mul(xh, yh)}
			l, h := ps[0], ps[0]
			for _, p := range ps[1:] {
				if p.Cmp(l) < 0 {
					l = p
				}
				if p.Cmp(h) > 0 {
					h = p
				}
			}
			return l, h
		case token.QUO:
			m := maxAbs(xl, xh)
			return new(big.Int).Neg(m), m
		case token.REM:
			m := maxAbs(yl, yh)
			if mx := maxAbs(xl, xh); mx.Cmp(m) < 0 {
				m = mx
			}
			return new(big.Int).Neg(m), m
		case token.AND, token.OR, token.XOR:
			if e.Op == token.AND && (xl.Sign() >= 0 || yl.Sign() >= 0) {
				// x & y is between 0 and a nonnegative operand
				h := xh
				if xl.Sign() < 0 || (yl.Sign() >= 0 && yh.Cmp(xh) < 0) {
					h = yh
				}
				return n(0), new(big.Int).Set(h)
			}
			// within the smallest two's complement width holding both
			k := max(bitsOf(xl), bitsOf(xh), bitsOf(yl), bitsOf(yh))
			top := new(big.Int).Lsh(n(1), uint(k))
			if xl.Sign() >= 0 && yl.Sign() >= 0 {
				return n(0), top.Sub(top, n(1))
			}
			return new(big.Int).Neg(top), top.Sub(top, n(1))
		case token.SHL:
			c := min(max(yh.Int64(), 0), 63)
			if !yh.IsInt64() {
				c = 63
			}
			l, h := new(big.Int).Lsh(xl, uint(c)), new(big.Int).Lsh(xh, uint(c))
			if xl.Sign() > 0 {
				l = new(big.Int).Set(xl)
			}
			if xh.Sign() < 0 {
				h = new(big.Int).Set(xh)
			}
			if l.Cmp(minInt64) < 0 || h.Cmp(maxInt64) > 0 {
				// bits shifted out at the top
				return new(big.Int).Set(minInt64), new(big.Int).Set(maxInt64)
			}
			return l, h
		case token.SHR:
			l, h := xl, xh
			if l.Sign() > 0 {
				l = n(0)
			}
			if h.Sign() < 0 {
				h = n(-1)
			}
			return l, h
		}
	}
	l, h, ok := g.bounds(e)
	if !ok {
		// a Promela int: 32 bits
		return new(big.Int).Set(min32Big), new(big.Int).Set(max32Big)
	}
	return n(max(l, -1<<31)), n(min(h, 1<<31-1))
}

func maxAbs(a, b *big.Int) *big.Int {
	x, y := new(big.Int).Abs(a), new(big.Int).Abs(b)
	if x.Cmp(y) < 0 {
		return y
	}
	return x
}

// bitsOf returns the number of bits k such that -2^k <= v < 2^k.
func bitsOf(v *big.Int) int {
	if v.Sign() >= 0 {
		return v.BitLen()
	}
	return new(big.Int).Not(v).BitLen() // -v - 1
}

// bitBounds is bounds for ~ and the bitwise binary operators.
func (g *gen) bitBounds(e ast.Expr) (lo, hi int64, ok bool) {
	const big = 1 << 40
	lo, hi, ok = g.interval(e)
	if !ok || lo < -big || hi > big {
		return 0, 0, false
	}
	return lo, hi, true
}
