package smt

import (
	"math/big"
	"sort"
)

// Simplify returns a term equivalent to t (in every model) in a normal form
// that makes equal-looking queries equal terms, which is what the query
// cache keys on. It
//
//   - folds constants (integer arithmetic is exact; div and mod by zero are
//     left alone, as SMT-LIB leaves them unspecified);
//   - flattens and, or and + and sorts the arguments of commutative
//     operators by term ID; removes duplicates and units; detects x ∧ ¬x;
//   - rewrites =>, xor, boolean ite with literal branches, and two-argument
//     distinct into and/or/not/=;
//   - writes integer sums as linear combinations (+ (* c1 x1) … k) with the
//     terms in ID order and the constant last, and comparisons as
//     (<= sum k) or (= sum k) with the gcd of the coefficients divided out
//     (rounding k down in <=, which is exact over the integers);
//     > >= < become <= and ¬(<= s k) stays a negation;
//   - resolves select over store and over const arrays when the indices are
//     literals (or the same term), and store over store at the same index.
//
// Results are memoized in the manager, so simplifying a term twice is cheap.
func (tm *TermManager) Simplify(t *Term) *Term {
	if tm.simp == nil {
		tm.simp = make(map[*Term]*Term)
	}
	return tm.simplify(t)
}

func (tm *TermManager) simplify(t *Term) *Term {
	if len(t.args) == 0 {
		return t
	}
	if r, ok := tm.simp[t]; ok {
		return r
	}
	args := make([]*Term, len(t.args))
	for i, a := range t.args {
		args[i] = tm.simplify(a)
	}
	r := tm.simplify1(t, args)
	tm.simp[t] = r
	return r
}

// simplify1 rewrites t whose arguments are already simplified to args.
func (tm *TermManager) simplify1(t *Term, args []*Term) *Term {
	switch t.op {
	case OpApp:
		return tm.Apply(t.sym, args...)
	case OpConstArray:
		return tm.ConstArray(t.sort, args[0])
	case OpNot:
		return tm.simpNot(args[0])
	case OpAnd:
		return tm.simpAndOr(OpAnd, args)
	case OpOr:
		return tm.simpAndOr(OpOr, args)
	case OpImplies:
		return tm.simpAndOr(OpOr, []*Term{tm.simpNot(args[0]), args[1]})
	case OpXor:
		return tm.simpNot(tm.simpEq(args[0], args[1]))
	case OpEq:
		return tm.simpEq(args[0], args[1])
	case OpDistinct:
		return tm.simpDistinct(args)
	case OpIte:
		return tm.simpIte(args[0], args[1], args[2])
	case OpNeg, OpAdd, OpSub, OpMul:
		return tm.linTerm(tm.linear(tm.mk(t.op, t.sort, nil, 0, nil, args...)))
	case OpDiv, OpMod:
		return tm.simpDivMod(t.op, args[0], args[1])
	case OpAbs:
		if args[0].op == OpInt {
			return tm.BigInt(new(big.Int).Abs(bigOf(args[0])))
		}
		return tm.Abs(args[0])
	case OpLt, OpLe, OpGt, OpGe:
		return tm.simpCmp(t.op, args[0], args[1])
	case OpSelect:
		return tm.simpSelect(args[0], args[1])
	case OpStore:
		a, i, v := args[0], args[1], args[2]
		if a.op == OpStore && a.args[1] == i {
			return tm.Store(a.args[0], i, v)
		}
		if a.op == OpConstArray && a.args[0] == v {
			return a
		}
		return tm.Store(a, i, v)
	}
	return tm.rebuild(t, args)
}

func (tm *TermManager) simpNot(a *Term) *Term {
	switch a.op {
	case OpTrue:
		return tm.fls
	case OpFalse:
		return tm.tru
	case OpNot:
		return a.args[0]
	}
	return tm.Not(a)
}

func (tm *TermManager) simpAndOr(op Op, args []*Term) *Term {
	unit, zero := tm.tru, tm.fls
	if op == OpOr {
		unit, zero = tm.fls, tm.tru
	}
	var flat []*Term
	var add func(a *Term) bool
	add = func(a *Term) bool {
		switch {
		case a == zero:
			return false
		case a == unit:
			return true
		case a.op == op:
			for _, b := range a.args {
				if !add(b) {
					return false
				}
			}
			return true
		}
		flat = append(flat, a)
		return true
	}
	for _, a := range args {
		if !add(a) {
			return zero
		}
	}
	sort.Slice(flat, func(i, j int) bool { return flat[i].id < flat[j].id })
	out := flat[:0]
	present := make(map[*Term]bool, len(flat))
	for i, a := range flat {
		if i > 0 && flat[i-1] == a {
			continue
		}
		out = append(out, a)
		present[a] = true
	}
	for _, a := range out {
		if a.op == OpNot && present[a.args[0]] {
			return zero
		}
	}
	if op == OpAnd {
		return tm.And(out...)
	}
	return tm.Or(out...)
}

func (tm *TermManager) simpEq(a, b *Term) *Term {
	if a == b {
		return tm.tru
	}
	if a.IsConst() && b.IsConst() {
		return tm.fls // distinct literals of the same sort
	}
	if a.sort == BoolSort {
		switch {
		case a == tm.tru:
			return b
		case b == tm.tru:
			return a
		case a == tm.fls:
			return tm.simpNot(b)
		case b == tm.fls:
			return tm.simpNot(a)
		case a.op == OpNot && a.args[0] == b, b.op == OpNot && b.args[0] == a:
			return tm.fls
		}
	}
	if a.sort == IntSort {
		l := tm.linear(tm.Sub(a, b))
		return tm.linAtom(OpEq, l)
	}
	if isArrayValue(a) && isArrayValue(b) {
		return tm.fls // canonical array values differ
	}
	if b.id < a.id {
		a, b = b, a
	}
	return tm.Eq(a, b)
}

func isArrayValue(t *Term) bool {
	for t.op == OpStore {
		if !t.args[1].IsConst() || !t.args[2].IsConst() {
			return false
		}
		t = t.args[0]
	}
	return t.op == OpConstArray && t.args[0].IsConst()
}

func (tm *TermManager) simpDistinct(args []*Term) *Term {
	if len(args) == 2 {
		return tm.simpNot(tm.simpEq(args[0], args[1]))
	}
	seen := map[*Term]bool{}
	allConst := true
	for _, a := range args {
		if seen[a] {
			return tm.fls
		}
		seen[a] = true
		allConst = allConst && a.IsConst()
	}
	if allConst {
		return tm.tru
	}
	return tm.Distinct(args...)
}

func (tm *TermManager) simpIte(c, a, b *Term) *Term {
	switch {
	case c == tm.tru:
		return a
	case c == tm.fls:
		return b
	case a == b:
		return a
	case c.op == OpNot:
		return tm.simpIte(c.args[0], b, a)
	}
	if a.sort == BoolSort {
		switch {
		case a == tm.tru:
			return tm.simpAndOr(OpOr, []*Term{c, b})
		case a == tm.fls:
			return tm.simpAndOr(OpAnd, []*Term{tm.simpNot(c), b})
		case b == tm.tru:
			return tm.simpAndOr(OpOr, []*Term{tm.simpNot(c), a})
		case b == tm.fls:
			return tm.simpAndOr(OpAnd, []*Term{c, a})
		}
	}
	return tm.Ite(c, a, b)
}

func (tm *TermManager) simpDivMod(op Op, a, b *Term) *Term {
	if b.op == OpInt {
		d := bigOf(b)
		switch {
		case d.Sign() == 0:
			// unspecified: leave as is
		case a.op == OpInt:
			q, r := new(big.Int).DivMod(bigOf(a), d, new(big.Int))
			if op == OpDiv {
				return tm.BigInt(q)
			}
			return tm.BigInt(r)
		case d.CmpAbs(big.NewInt(1)) == 0:
			if op == OpMod {
				return tm.zero
			}
			if d.Sign() > 0 {
				return a
			}
			return tm.linTerm(tm.linear(tm.Neg(a)))
		}
	}
	if op == OpDiv {
		return tm.Div(a, b)
	}
	return tm.Mod(a, b)
}

func (tm *TermManager) simpCmp(op Op, a, b *Term) *Term {
	// a op b  ⇔  a - b op' 0, all as (<= sum k).
	switch op {
	case OpGe:
		a, b, op = b, a, OpLe
	case OpGt:
		a, b, op = b, a, OpLt
	}
	l := tm.linear(tm.Sub(a, b))
	if op == OpLt { // a - b < 0  ⇔  a - b + 1 <= 0
		l.k.Add(l.k, big.NewInt(1))
	}
	return tm.linAtom(OpLe, l)
}

func (tm *TermManager) simpSelect(a, i *Term) *Term {
	for {
		switch a.op {
		case OpConstArray:
			return a.args[0]
		case OpStore:
			j := a.args[1]
			if j == i {
				return a.args[2]
			}
			if j.IsConst() && i.IsConst() {
				a = a.args[0]
				continue
			}
		}
		return tm.Select(a, i)
	}
}

// lin is a linear combination Σ coef[i]·atoms[i] + k with atoms in ID order
// and non-zero coefficients.
type lin struct {
	atoms []*Term
	coefs []*big.Int
	k     *big.Int
}

// linear decomposes an integer term (with simplified arguments) into a
// linear combination. Products of several non-literal factors, div, mod,
// ite, select and applications are atoms.
func (tm *TermManager) linear(t *Term) *lin {
	acc := map[*Term]*big.Int{}
	k := new(big.Int)
	var walk func(t *Term, c *big.Int)
	walk = func(t *Term, c *big.Int) {
		switch t.op {
		case OpInt:
			k.Add(k, new(big.Int).Mul(c, bigOf(t)))
			return
		case OpNeg:
			walk(t.args[0], new(big.Int).Neg(c))
			return
		case OpAdd:
			for _, a := range t.args {
				walk(a, c)
			}
			return
		case OpSub:
			walk(t.args[0], c)
			nc := new(big.Int).Neg(c)
			for _, a := range t.args[1:] {
				walk(a, nc)
			}
			return
		case OpMul:
			coef := new(big.Int).Set(c)
			var rest []*Term
			for _, a := range t.args {
				if a.op == OpInt {
					coef.Mul(coef, bigOf(a))
				} else {
					rest = append(rest, a)
				}
			}
			switch len(rest) {
			case 0:
				k.Add(k, coef)
			case 1:
				walk(rest[0], coef)
			default:
				sort.Slice(rest, func(i, j int) bool { return rest[i].id < rest[j].id })
				addCoef(acc, tm.mk(OpMul, IntSort, nil, 0, nil, rest...), coef)
			}
			return
		}
		addCoef(acc, t, c)
	}
	walk(t, big.NewInt(1))
	l := &lin{k: k}
	for a, c := range acc {
		if c.Sign() != 0 {
			l.atoms = append(l.atoms, a)
		}
	}
	sort.Slice(l.atoms, func(i, j int) bool { return l.atoms[i].id < l.atoms[j].id })
	for _, a := range l.atoms {
		l.coefs = append(l.coefs, acc[a])
	}
	return l
}

func addCoef(acc map[*Term]*big.Int, t *Term, c *big.Int) {
	if x, ok := acc[t]; ok {
		x.Add(x, c)
	} else {
		acc[t] = new(big.Int).Set(c)
	}
}

// linSum builds Σ coef[i]·atoms[i] (without k).
func (tm *TermManager) linSum(l *lin) *Term {
	ts := make([]*Term, len(l.atoms))
	for i, a := range l.atoms {
		if l.coefs[i].IsInt64() && l.coefs[i].Int64() == 1 {
			ts[i] = a
		} else {
			ts[i] = tm.Mul(tm.BigInt(l.coefs[i]), a)
		}
	}
	return tm.Add(ts...)
}

// linTerm builds the term Σ coef·atom + k.
func (tm *TermManager) linTerm(l *lin) *Term {
	if len(l.atoms) == 0 {
		return tm.BigInt(l.k)
	}
	s := tm.linSum(l)
	if l.k.Sign() == 0 {
		return s
	}
	if s.op == OpAdd {
		return tm.Add(append(append([]*Term(nil), s.args...), tm.BigInt(l.k))...)
	}
	return tm.Add(s, tm.BigInt(l.k))
}

// linAtom builds (sum op 0) for op = or <= as (= sum' k') or (<= sum' k'),
// dividing by the gcd of the coefficients.
func (tm *TermManager) linAtom(op Op, l *lin) *Term {
	k := new(big.Int).Neg(l.k)
	if len(l.atoms) == 0 {
		c := k.Sign() // the atom is 0 op k
		if op == OpEq {
			return tm.Bool(c == 0)
		}
		return tm.Bool(c >= 0)
	}
	g := new(big.Int).Abs(l.coefs[0])
	for _, c := range l.coefs[1:] {
		g.GCD(nil, nil, g, new(big.Int).Abs(c))
	}
	if op == OpEq && l.coefs[0].Sign() < 0 {
		g.Neg(g) // make the first coefficient positive
	}
	if !(g.IsInt64() && g.Int64() == 1) {
		for i, c := range l.coefs {
			l.coefs[i] = new(big.Int).Quo(c, g)
		}
		q, r := new(big.Int).DivMod(k, new(big.Int).Abs(g), new(big.Int))
		if op == OpEq {
			if r.Sign() != 0 {
				return tm.fls
			}
			if g.Sign() < 0 {
				q.Neg(q)
			}
		}
		k = q // floor(k/g) for g > 0
	}
	s := tm.linSum(l)
	if op == OpEq {
		return tm.Eq(s, tm.BigInt(k))
	}
	return tm.Le(s, tm.BigInt(k))
}
