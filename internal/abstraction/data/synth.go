package data

import (
	"fmt"
	"math/big"
	"strconv"

	"birch/internal/smt"
)

// synth computes abstract operators and tests by the elimination method of
// Bandera (after Bensalem, Lakhnech and Owre): a table entry starts with
// every token, and token c is removed from the entry for (a, b) only when
// the solver proves
//
//	∀x, y. a?(x) ∧ b?(y) ⇒ ¬c?(x op y)
//
// by finding a?(x) ∧ b?(y) ∧ c?(x op y) unsatisfiable. Anything else — a
// model, an unknown, a failure — keeps the token. Two things make this cheap
// and precise:
//
//   - Witnesses first: small candidate integers (around 0, the constants of
//     the conditions and the tokens' bounds) are combined concretely; every
//     token they reach is kept with its witness, without a query.
//   - Nonlinear queries are avoided where that is exact and relaxed where it
//     is not. When a token stands for few integers (Token.Values), x*y and
//     x/y become a case split over them, which is linear; when a factor is
//     bounded, its binary expansion makes the product linear (product).
//     When both arguments stand for infinitely many, linear relaxations of
//     the product are asked first: sign rules, |x·y| ≥ |x|, the McCormick
//     bounds of the tokens' intervals and the congruences modulo every
//     divisor of the conditions. A relaxation contains every real product,
//     so that unsat for it proves the token impossible. Then the exact
//     (nonlinear) query: z3 may decide it, the embedded solver's product
//     lemmas may; anything else keeps the token, as undecided unless a
//     model is a real witness.
type synth struct {
	c     *compiler
	congs map[[3]*smt.Term][]*smt.Term   // mulCongruences, by arguments
	wide  [NumOps]map[[3]int][2]*big.Int // wideWitness's outcomes: (a, b, r) → (x, y)
}

func (s *synth) tm() *smt.TermManager { return s.c.pr.tm }

// iteOver builds ite(t = v0, f(v0), ite(t = v1, f(v1), … f(vn))) over the
// values vals (at least one), for t known to be one of them.
func (s *synth) iteOver(t *smt.Term, vals []*big.Int, f func(v *smt.Term) *smt.Term) *smt.Term {
	tm := s.tm()
	z := f(tm.BigInt(vals[len(vals)-1]))
	for i := len(vals) - 2; i >= 0; i-- {
		v := tm.BigInt(vals[i])
		z = tm.Ite(tm.Eq(t, v), f(v), z)
	}
	return z
}

// exact returns a term for x op y under a?(x) ∧ b?(y), side conditions
// (y ≠ 0 for / and %) and whether the term is linear. z is nil when no
// concrete operation is defined (a divisor token standing only for 0).
func (s *synth) exact(op Op, a, b int) (z *smt.Term, side []*smt.Term, linear bool) {
	pr, tm := s.c.pr, s.tm()
	x, y := pr.v("x"), pr.v("y")
	ta, tb := &s.c.a.Tokens[a], &s.c.a.Tokens[b]
	switch op {
	case Add:
		return tm.Add(x, y), nil, true
	case Sub:
		return tm.Sub(x, y), nil, true
	case Mul:
		switch {
		case ta.Values != nil:
			return s.iteOver(x, ta.Values, func(v *smt.Term) *smt.Term { return tm.Mul(v, y) }), nil, true
		case tb.Values != nil:
			return s.iteOver(y, tb.Values, func(v *smt.Term) *smt.Term { return tm.Mul(x, v) }), nil, true
		}
		if w, fs, ok := s.product(x, y, ta.Lo, ta.Hi, "xbit"); ok {
			return w, fs, true
		}
		if w, fs, ok := s.product(y, x, tb.Lo, tb.Hi, "ybit"); ok {
			return w, fs, true
		}
		return tm.Mul(x, y), nil, false
	}
	side = []*smt.Term{tm.Not(tm.Eq(y, tm.Int(0)))}
	div := tm.TDiv
	if op == Rem {
		div = tm.TRem
	}
	if tb.Values != nil {
		var nonzero []*big.Int
		for _, v := range tb.Values {
			if v.Sign() != 0 {
				nonzero = append(nonzero, v)
			}
		}
		if len(nonzero) == 0 {
			return nil, nil, true
		}
		return s.iteOver(y, nonzero, func(v *smt.Term) *smt.Term { return div(x, v) }), side, true
	}
	// Truncating division as x = q·y + r with |r| < |y| and r of the sign
	// of x, which is linear once the product q·y is: when y is bounded,
	// or when x is, since then |q| ≤ |x| is.
	q, r := s.c.pr.v("q"), s.c.pr.v("r")
	qy, fs, ok := s.product(y, q, tb.Lo, tb.Hi, "ybit")
	if !ok && ta.Lo != nil && ta.Hi != nil {
		m := new(big.Int).Abs(ta.Lo)
		if h := new(big.Int).Abs(ta.Hi); h.Cmp(m) > 0 {
			m = h
		}
		qy, fs, ok = s.product(q, y, new(big.Int).Neg(m), m, "qbit")
	}
	if !ok {
		return div(x, y), side, false
	}
	side = append(append(side, fs...), s.truncDiv(x, y, qy, r)...)
	if op == Div {
		return q, side, true
	}
	return r, side, true
}

// truncDiv returns the facts that make q and r the truncating quotient and
// remainder of x / y, given qy = q·y: x = q·y + r, |r| < |y|, and r has
// the sign of x (or is 0).
func (s *synth) truncDiv(x, y, qy, r *smt.Term) []*smt.Term {
	tm := s.tm()
	zero := tm.Int(0)
	return []*smt.Term{
		tm.Eq(x, tm.Add(qy, r)),
		tm.Lt(tm.Abs(r), tm.Abs(y)),
		tm.Implies(tm.Gt(x, zero), tm.Ge(r, zero)),
		tm.Implies(tm.Lt(x, zero), tm.Le(r, zero)),
	}
}

// exactIn is exact for the question whether x op y may be of token r, for
// a nonlinear op whose arguments' tokens are both unbounded, when r is
// bounded: then the factor x of a product x·y = p ≠ 0 is bounded by
// |x| ≤ |p|, and a quotient is, which makes the product linear (see
// product). ok is false when it does not apply.
func (s *synth) exactIn(op Op, r int) (z *smt.Term, side []*smt.Term, ok bool) {
	tr := &s.c.a.Tokens[r]
	if tr.Lo == nil || tr.Hi == nil {
		return nil, nil, false
	}
	pr, tm := s.c.pr, s.tm()
	x, y, zero := pr.v("x"), pr.v("y"), tm.Int(0)
	switch op {
	case Mul:
		m := new(big.Int).Abs(tr.Lo)
		if h := new(big.Int).Abs(tr.Hi); h.Cmp(m) > 0 {
			m = h
		}
		xy, fs, ok := s.product(x, y, new(big.Int).Neg(m), m, "xbit")
		if !ok {
			return nil, nil, false
		}
		// y = 0 makes p = 0 whatever x is; otherwise |x| ≤ |p| ≤ m.
		p, nz := pr.v("p"), tm.Not(tm.Eq(y, zero))
		return p, []*smt.Term{
			tm.Implies(tm.Eq(y, zero), tm.Eq(p, zero)),
			tm.Implies(nz, tm.And(fs...)),
			tm.Implies(nz, tm.Eq(p, xy)),
		}, true
	case Div:
		q, rem := pr.v("q"), pr.v("r")
		qy, fs, ok := s.product(q, y, tr.Lo, tr.Hi, "qbit")
		if !ok {
			return nil, nil, false
		}
		side = append([]*smt.Term{tm.Not(tm.Eq(y, zero))}, fs...)
		return q, append(side, s.truncDiv(x, y, qy, rem)...), true
	}
	return nil, nil, false
}

// maxProductBits bounds the width of the factor that product expands in
// binary.
const maxProductBits = 16

// product returns a linear term w equal to u·v when lo ≤ u ≤ hi, with the
// facts that make it so: u = lo + Σ 2ⁱ·bᵢ over fresh Booleans bᵢ (named
// bits0, bits1, …) and w = lo·v + Σ 2ⁱ·ite(bᵢ, v, 0). This is exact, not a
// relaxation: every u in [lo, hi] has its bits, and the facts confine u to
// [lo, hi], so the caller must know that it lies there (a token's bounds,
// or |q| ≤ |x| for a quotient). ok is false when u is unbounded or its
// range is wider than maxProductBits bits.
func (s *synth) product(u, v *smt.Term, lo, hi *big.Int, bits string) (w *smt.Term, facts []*smt.Term, ok bool) {
	if lo == nil || hi == nil {
		return nil, nil, false
	}
	d := new(big.Int).Sub(hi, lo)
	if d.Sign() < 0 || d.BitLen() > maxProductBits {
		return nil, nil, false
	}
	tm := s.tm()
	us := []*smt.Term{tm.BigInt(lo)}
	ws := []*smt.Term{tm.Mul(tm.BigInt(lo), v)}
	zero := tm.Int(0)
	for i := range d.BitLen() {
		b := tm.Const(bits+strconv.Itoa(i), smt.BoolSort)
		c := tm.BigInt(new(big.Int).Lsh(big.NewInt(1), uint(i)))
		us = append(us, tm.Ite(b, c, zero))
		ws = append(ws, tm.Ite(b, tm.Mul(c, v), zero))
	}
	return tm.Add(ws...), []*smt.Term{tm.Eq(u, tm.Add(us...)), tm.Le(u, tm.BigInt(hi))}, true
}

// relaxation is a term with linear side conditions that over-approximates
// x op y.
type relaxation struct {
	z    *smt.Term // a variable
	name string    // its name
	side []*smt.Term
}

// relaxed returns over-approximations of x op y for a nonlinear op (*, /
// or %) under a?(x) ∧ b?(y) ∧ c?(x op y) (c < 0: no token known): one by
// signs and magnitudes,
// one by congruences (when the conditions have divisors). Each is tried on
// its own: small formulas keep branch and bound within its budget.
func (s *synth) relaxed(op Op, a, b, c int) []relaxation {
	pr, tm := s.c.pr, s.tm()
	x, y := pr.v("x"), pr.v("y")
	ta, tb := &s.c.a.Tokens[a], &s.c.a.Tokens[b]
	var out []relaxation
	if op == Mul {
		p := pr.v("p")
		out = append(out, relaxation{p, "p", s.mulSigns(x, y, p, ta, tb)})
		if cong := s.mulCongruences(x, y, p); cong != nil {
			out = append(out, relaxation{p, "p", cong})
		}
		return out
	}
	// Truncating division: x = p + r with p = q·y, |r| < |y|, r has the
	// sign of x.
	q, r, p := pr.v("q"), pr.v("r"), pr.v("p")
	zero := tm.Int(0)
	ax, ay := tm.Abs(x), tm.Abs(y)
	pos := func(t *smt.Term) *smt.Term { return tm.Gt(t, zero) }
	neg := func(t *smt.Term) *smt.Term { return tm.Lt(t, zero) }
	nonzero, split := tm.Not(tm.Eq(y, zero)), tm.Eq(x, tm.Add(p, r))
	signs := []*smt.Term{
		nonzero, split,
		tm.Lt(tm.Abs(r), ay),
		tm.Implies(tm.Ge(x, zero), tm.Ge(r, zero)),
		tm.Implies(tm.Le(x, zero), tm.Le(r, zero)),
		tm.Le(tm.Abs(p), ax),
		tm.Eq(tm.Lt(ax, ay), tm.Eq(q, zero)),
		tm.Implies(pos(q), tm.Or(tm.And(pos(x), pos(y)), tm.And(neg(x), neg(y)))),
		tm.Implies(neg(q), tm.Or(tm.And(pos(x), neg(y)), tm.And(neg(x), pos(y)))),
	}
	var tq *Token // the quotient's token, whose bounds tighten p = q·y
	if op == Div && c >= 0 {
		tq = &s.c.a.Tokens[c]
	}
	signs = append(signs, s.mulSigns(q, y, p, tq, tb)...)
	z, name := q, "q"
	if op == Rem {
		z, name = r, "r"
	}
	out = append(out, relaxation{z, name, signs})
	if cong := s.mulCongruences(q, y, p); cong != nil {
		out = append(out, relaxation{z, name, append([]*smt.Term{nonzero, split}, cong...)})
	}
	return out
}

// mulSigns returns linear facts about signs and magnitudes that hold when
// w = u·v, using the bounds of the tokens tu and tv of u and v (either may
// be nil: no bounds).
func (s *synth) mulSigns(u, v, w *smt.Term, tu, tv *Token) []*smt.Term {
	tm := s.tm()
	zero, one, minus := tm.Int(0), tm.Int(1), tm.Int(-1)
	eq0 := func(t *smt.Term) *smt.Term { return tm.Eq(t, zero) }
	pos := func(t *smt.Term) *smt.Term { return tm.Gt(t, zero) }
	neg := func(t *smt.Term) *smt.Term { return tm.Lt(t, zero) }
	au, av, aw := tm.Abs(u), tm.Abs(v), tm.Abs(w)
	fs := []*smt.Term{
		tm.Eq(tm.Or(eq0(u), eq0(v)), eq0(w)),
		tm.Implies(tm.And(pos(u), pos(v)), pos(w)),
		tm.Implies(tm.And(neg(u), neg(v)), pos(w)),
		tm.Implies(tm.And(pos(u), neg(v)), neg(w)),
		tm.Implies(tm.And(neg(u), pos(v)), neg(w)),
		tm.Implies(tm.Not(eq0(v)), tm.Ge(aw, au)),
		tm.Implies(tm.Not(eq0(u)), tm.Ge(aw, av)),
		tm.Implies(tm.Eq(u, one), tm.Eq(w, v)),
		tm.Implies(tm.Eq(u, minus), tm.Eq(w, tm.Neg(v))),
		tm.Implies(tm.Eq(v, one), tm.Eq(w, u)),
		tm.Implies(tm.Eq(v, minus), tm.Eq(w, tm.Neg(u))),
		tm.Implies(tm.And(tm.Ge(au, tm.Int(2)), tm.Ge(av, tm.Int(2))), tm.Ge(aw, tm.Add(au, av))),
	}
	// McCormick: (u - lu)(v - lv) ≥ 0 and its three siblings.
	var lu, hu, lv, hv *big.Int
	if tu != nil {
		lu, hu = tu.Lo, tu.Hi
	}
	if tv != nil {
		lv, hv = tv.Lo, tv.Hi
	}
	lin := func(cu, cv, k *big.Int) *smt.Term { // cu·u + cv·v - k
		return tm.Sub(tm.Add(tm.Mul(tm.BigInt(cu), u), tm.Mul(tm.BigInt(cv), v)), tm.BigInt(k))
	}
	mul := func(a, b *big.Int) *big.Int { return new(big.Int).Mul(a, b) }
	if lu != nil && lv != nil {
		fs = append(fs, tm.Ge(w, lin(lv, lu, mul(lu, lv))))
	}
	if hu != nil && hv != nil {
		fs = append(fs, tm.Ge(w, lin(hv, hu, mul(hu, hv))))
	}
	if lu != nil && hv != nil {
		fs = append(fs, tm.Le(w, lin(hv, lu, mul(lu, hv))))
	}
	if hu != nil && lv != nil {
		fs = append(fs, tm.Le(w, lin(lv, hu, mul(hu, lv))))
	}
	return fs
}

// mulCongruences returns, for every divisor m of the conditions, the facts
// that w mod m is determined by u mod m and v mod m when w = u·v; nil when
// there are no divisors.
func (s *synth) mulCongruences(u, v, w *smt.Term) []*smt.Term {
	key := [3]*smt.Term{u, v, w}
	if fs, ok := s.congs[key]; ok {
		return fs
	}
	if s.congs == nil {
		s.congs = map[[3]*smt.Term][]*smt.Term{}
	}
	tm := s.tm()
	var fs []*smt.Term
	defer func() { s.congs[key] = fs }()
	for _, m := range s.c.a.moduli {
		mt := tm.Int(m)
		mu, mv, mw := tm.Mod(u, mt), tm.Mod(v, mt), tm.Mod(w, mt)
		for i := range m {
			for j := range m {
				fs = append(fs, tm.Implies(tm.And(tm.Eq(mu, tm.Int(i)), tm.Eq(mv, tm.Int(j))), tm.Eq(mw, tm.Int(i*j%m))))
			}
		}
	}
	return fs
}

// residueFilter returns the consistency of residues (x, y, x op y) modulo
// some L: z ≡ x op y for + - *, z ≡ x modulo gcd(y, L) for %.
func residueFilter(op Op, L int64) func(res []int64) bool {
	return func(res []int64) bool {
		i, j, k := res[0], res[1], res[2]
		switch op {
		case Add:
			return (i+j)%L == k
		case Sub:
			return ((i-j)%L+L)%L == k
		case Mul:
			return i*j%L == k
		case Rem:
			// x - x % y = q·y is a multiple of gcd(y, L) modulo L.
			g := gcd(j, L)
			return ((i-k)%g+g)%g == 0
		}
		return true
	}
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a < 0 {
		return -a
	}
	return a
}

// resultResidue is the residue of x op y given those of x and y (rs[0],
// rs[1]), when they determine it: for +, - and *.
func resultResidue(op Op, rs []*residue) *residue {
	if rs[0] == nil || rs[1] == nil {
		return nil
	}
	L, i, j := rs[0].L, rs[0].I, rs[1].I
	switch op {
	case Add:
		return &residue{L, (i + j) % L}
	case Sub:
		return &residue{L, ((i-j)%L + L) % L}
	case Mul:
		return &residue{L, i * j % L}
	case Rem:
		// x % y = x - q·y ≡ x modulo gcd(y, L).
		if g := gcd(L, j); g > 1 {
			return &residue{g, i % g}
		}
	}
	return nil
}

// witness reports whether x op y is defined and abstracted by token c.
func (s *synth) witness(op Op, x, y *big.Int, c int) bool {
	v, ok := op.Apply(x, y)
	return ok && s.c.a.Abstract(v) == c
}

// wideWindow is how far wideWitness looks: each argument in
// [-wideWindow, wideWindow] against the candidates for the other.
const wideWindow = 1024

// wideWitness looks for a witness of token r in a op b in a wider window
// than the candidates. The window's outcomes are computed once per operator,
// on first need: only nonlinear operators with tokens the candidates do not
// reach, and tokens the solver could not decide, need it.
func (s *synth) wideWitness(op Op, a, b, r int) ([2]*big.Int, bool) {
	if s.wide[op] == nil {
		c := s.c
		w := map[[3]int][2]*big.Int{}
		s.wide[op] = w
		var win []*big.Int
		var winTok []int
		for i := int64(0); i <= 2*wideWindow; i++ {
			v := (i + 1) / 2
			if i%2 == 0 {
				v = -v
			}
			x := big.NewInt(v)
			win = append(win, x)
			winTok = append(winTok, c.a.Abstract(x))
		}
		record := func(x, y *big.Int, tx, ty int) {
			if v, ok := op.Apply(x, y); ok {
				key := [3]int{tx, ty, c.a.Abstract(v)}
				if _, seen := w[key]; !seen {
					w[key] = [2]*big.Int{x, y}
				}
			}
		}
		for i, x := range win {
			for j, y := range c.cands {
				record(x, y, winTok[i], c.tokOf[j])
				record(y, x, c.tokOf[j], winTok[i])
			}
		}
	}
	wit, ok := s.wide[op][[3]int{a, b, r}]
	return wit, ok
}

// tryPairs calls f on the candidates of tokens a and b, and then, when both
// tokens stand for few integers, on every pair of them; it reports whether
// it did, which decides the entry without the solver.
func (s *synth) tryPairs(a, b int, f func(x, y *big.Int)) bool {
	c := s.c
	for i, x := range c.cands {
		if c.tokOf[i] != a {
			continue
		}
		for j, y := range c.cands {
			if c.tokOf[j] == b {
				f(x, y)
			}
		}
	}
	ta, tb := &c.a.Tokens[a], &c.a.Tokens[b]
	if ta.Values == nil || tb.Values == nil {
		return false
	}
	for _, x := range ta.Values {
		for _, y := range tb.Values {
			f(x, y)
		}
	}
	return true
}

// operator synthesizes the table of op.
func (s *synth) operator(op Op) *OpTable {
	k := len(s.c.a.Tokens)
	t := &OpTable{Op: op, Cells: make([]Cell, k*k)}
	for a := range k {
		for b := range k {
			t.Cells[a*k+b] = s.opCell(op, a, b)
		}
	}
	return t
}

func (s *synth) opCell(op Op, a, b int) Cell {
	c, pr := s.c, s.c.pr
	k := len(c.a.Tokens)
	cell := Cell{Witness: map[int][2]*big.Int{}}
	if (op == Div || op == Rem) && b == c.a.Abstract(new(big.Int)) {
		cell.Error = true
	}
	// record keeps the token of x op y with its witness; it reports
	// whether the token is new.
	record := func(x, y *big.Int) bool {
		v, ok := op.Apply(x, y)
		if !ok {
			return false
		}
		r := c.a.Abstract(v)
		if _, seen := cell.Witness[r]; seen {
			return false
		}
		cell.Witness[r] = [2]*big.Int{x, y}
		cell.Tokens = cell.Tokens.With(r)
		return true
	}
	if s.tryPairs(a, b, func(x, y *big.Int) { record(x, y) }) {
		return cell
	}
	x, y := pr.v("x"), pr.v("y")
	xy := []string{"x", "y"}
	// Ask for a result of the tokens not found so far, as long as the
	// models bring new ones: unsat settles the entry in one query where
	// eliminating the other tokens one by one would take one each. An
	// unknown leaves the rest to the elimination below.
	if z, side, linear := s.exact(op, a, b); z != nil && linear {
		for {
			rest := All(k) &^ cell.Tokens
			res, vals := pr.splitCheck(xy, []int{a, b}, func(rs []*residue) []*smt.Term {
				return append([]*smt.Term{pr.phiRes(a, x, rs[0]), pr.phiRes(b, y, rs[1]), pr.phiSet(rest, z, resultResidue(op, rs))}, side...)
			})
			if res == smt.Unsat {
				return cell
			}
			if res != smt.Sat || vals == nil || !record(vals[0], vals[1]) {
				break
			}
		}
	}
	for r := range k {
		if cell.Tokens.Has(r) {
			continue
		}
		z, side, linear := s.exact(op, a, b)
		if z == nil {
			continue
		}
		if !linear {
			if w, ok := s.wideWitness(op, a, b, r); ok {
				cell.Witness[r] = w
				cell.Tokens = cell.Tokens.With(r)
				continue
			}
			if zr, sr, ok := s.exactIn(op, r); ok {
				z, side, linear = zr, sr, true
			}
		}
		// A nonlinear question goes to the linear relaxations first: they
		// settle most tokens at once, where the exact question may take
		// the embedded solver many rounds of product lemmas.
		res, vals := smt.Unknown, []*big.Int(nil)
		if !linear {
			for _, rx := range s.relaxed(op, a, b, r) {
				res, vals = pr.splitCheckFiltered([]string{"x", "y", rx.name}, []int{a, b, r}, residueFilter(op, pr.modulus()), func(rs []*residue) []*smt.Term {
					return append([]*smt.Term{pr.phiRes(a, x, rs[0]), pr.phiRes(b, y, rs[1]), pr.phiRes(r, rx.z, rs[2])}, rx.side...)
				})
				if res == smt.Unsat {
					break
				}
			}
		}
		if res != smt.Unsat {
			r2, v2 := pr.splitCheck(xy, []int{a, b}, func(rs []*residue) []*smt.Term {
				return append([]*smt.Term{pr.phiRes(a, x, rs[0]), pr.phiRes(b, y, rs[1]), pr.phiRes(r, z, resultResidue(op, rs))}, side...)
			})
			if r2 != smt.Unknown || linear {
				res, vals = r2, v2
			}
		}
		switch {
		case res == smt.Unsat:
			continue
		case res == smt.Sat && vals != nil && s.witness(op, vals[0], vals[1], r):
			cell.Witness[r] = [2]*big.Int{vals[0], vals[1]}
		default:
			if w, ok := s.wideWitness(op, a, b, r); ok {
				cell.Witness[r] = w
			} else {
				cell.Undecided = cell.Undecided.With(r)
			}
		}
		cell.Tokens = cell.Tokens.With(r)
	}
	return cell
}

// test synthesizes the table of t.
func (s *synth) test(t Test) *TestTable {
	k := len(s.c.a.Tokens)
	tt := &TestTable{Test: t, Cells: make([]TestCell, k*k)}
	for a := range k {
		for b := range k {
			tt.Cells[a*k+b] = s.testCell(t, a, b)
		}
	}
	return tt
}

// testTerm is x t y.
func (s *synth) testTerm(t Test, x, y *smt.Term) *smt.Term {
	tm := s.tm()
	switch t {
	case Eq:
		return tm.Eq(x, y)
	case Ne:
		return tm.Not(tm.Eq(x, y))
	case Lt:
		return tm.Lt(x, y)
	case Le:
		return tm.Le(x, y)
	case Gt:
		return tm.Gt(x, y)
	}
	return tm.Ge(x, y)
}

func (s *synth) testCell(t Test, a, b int) TestCell {
	pr, tm := s.c.pr, s.tm()
	var cell TestCell
	record := func(x, y *big.Int) {
		o := 0
		if !t.Holds(x, y) {
			o = 1
		}
		if cell.Witness[o][0] == nil {
			cell.Witness[o] = [2]*big.Int{x, y}
			cell.Outcomes |= Outcomes(1 << o)
		}
	}
	if s.tryPairs(a, b, func(x, y *big.Int) { record(x, y) }) {
		return cell
	}
	x, y := pr.v("x"), pr.v("y")
	for o := range 2 {
		if cell.Outcomes&Outcomes(1<<o) != 0 {
			continue
		}
		f := s.testTerm(t, x, y)
		if o == 1 {
			f = tm.Not(f)
		}
		res, vals := pr.splitCheck([]string{"x", "y"}, []int{a, b}, func(rs []*residue) []*smt.Term {
			return []*smt.Term{pr.phiRes(a, x, rs[0]), pr.phiRes(b, y, rs[1]), f}
		})
		switch {
		case res == smt.Unsat:
			continue
		case res == smt.Sat && vals != nil && t.Holds(vals[0], vals[1]) == (o == 0):
			cell.Witness[o] = [2]*big.Int{vals[0], vals[1]}
		default:
			cell.Undecided |= Outcomes(1 << o)
		}
		cell.Outcomes |= Outcomes(1 << o)
	}
	return cell
}

// checkOpCell checks that the given entry S for a op b is sound: that no
// concrete x op y escapes S. sound is false with a message naming a
// witness; a message with sound true says the solver could not decide.
func (s *synth) checkOpCell(op Op, a, b int, S Set) (msg string, sound bool) {
	c, pr, tm := s.c, s.c.pr, s.tm()
	entry := fmt.Sprintf("(%s, %s) -> %s", c.a.Tokens[a].Name, c.a.Tokens[b].Name, c.a.SetString(S))
	unsound := func(x, y *big.Int) (string, bool) {
		v, _ := op.Apply(x, y)
		return fmt.Sprintf("%s is unsound: %s %s %s = %s is %s", entry, x, op, paren(y), v, c.a.Tokens[c.a.Abstract(v)].Name), false
	}
	for i, x := range c.cands {
		if c.tokOf[i] != a {
			continue
		}
		for j, y := range c.cands {
			if c.tokOf[j] != b {
				continue
			}
			if v, ok := op.Apply(x, y); ok && !S.Has(c.a.Abstract(v)) {
				return unsound(x, y)
			}
		}
	}
	z, side, linear := s.exact(op, a, b)
	if z == nil {
		return "", true
	}
	x, y := pr.v("x"), pr.v("y")
	xy := []string{"x", "y"}
	res, vals := pr.splitCheck(xy, []int{a, b}, func(rs []*residue) []*smt.Term {
		return append([]*smt.Term{pr.phiRes(a, x, rs[0]), pr.phiRes(b, y, rs[1]), tm.Not(pr.phiSet(S, z, resultResidue(op, rs)))}, side...)
	})
	if res == smt.Unknown && !linear {
		for _, rx := range s.relaxed(op, a, b, -1) {
			r2, _ := pr.splitCheck(xy, []int{a, b}, func(rs []*residue) []*smt.Term {
				return append([]*smt.Term{pr.phiRes(a, x, rs[0]), pr.phiRes(b, y, rs[1]), tm.Not(pr.phiSet(S, rx.z, resultResidue(op, rs)))}, rx.side...)
			})
			if r2 == smt.Unsat {
				return "", true
			}
		}
	}
	switch {
	case res == smt.Unsat:
		return "", true
	case res == smt.Sat && vals != nil:
		if v, ok := op.Apply(vals[0], vals[1]); ok && !S.Has(c.a.Abstract(v)) {
			return unsound(vals[0], vals[1])
		}
	}
	return fmt.Sprintf("cannot prove %s sound (the solver answered unknown)", entry), true
}

// checkTestCell is checkOpCell for a test.
func (s *synth) checkTestCell(t Test, a, b int, O Outcomes) (msg string, sound bool) {
	c, pr, tm := s.c, s.c.pr, s.tm()
	entry := fmt.Sprintf("(%s, %s) -> %s", c.a.Tokens[a].Name, c.a.Tokens[b].Name, outcomesString(O))
	unsound := func(x, y *big.Int) (string, bool) {
		return fmt.Sprintf("%s is unsound: %s %s %s is %v", entry, x, t, paren(y), t.Holds(x, y)), false
	}
	for i, x := range c.cands {
		if c.tokOf[i] != a {
			continue
		}
		for j, y := range c.cands {
			if c.tokOf[j] == b && !O.Has(t.Holds(x, y)) {
				return unsound(x, y)
			}
		}
	}
	x, y := pr.v("x"), pr.v("y")
	for _, o := range []bool{true, false} {
		if O.Has(o) {
			continue
		}
		f := s.testTerm(t, x, y)
		if !o {
			f = tm.Not(f)
		}
		res, vals := pr.splitCheck([]string{"x", "y"}, []int{a, b}, func(rs []*residue) []*smt.Term {
			return []*smt.Term{pr.phiRes(a, x, rs[0]), pr.phiRes(b, y, rs[1]), f}
		})
		switch {
		case res == smt.Unsat:
			continue
		case res == smt.Sat && vals != nil:
			return unsound(vals[0], vals[1])
		default:
			return fmt.Sprintf("cannot prove %s sound (the solver answered unknown)", entry), true
		}
	}
	return "", true
}

// paren writes a negative operand in parentheses: 1 - (-2).
func paren(v *big.Int) string {
	if v.Sign() < 0 {
		return "(" + v.String() + ")"
	}
	return v.String()
}

func outcomesString(o Outcomes) string {
	switch o {
	case True:
		return "{TRUE}"
	case False:
		return "{FALSE}"
	case Both:
		return "{TRUE, FALSE}"
	}
	return "{}"
}
