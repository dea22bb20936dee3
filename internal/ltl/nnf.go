package ltl

import "sort"

// NNF returns f in negation normal form: negations only in front of
// propositions, and only the operators &&, ||, X, U and R (with true and
// false). [] g becomes false R g, <> g becomes true U g, a W b becomes
// b R (a || b), and -> and <-> are expanded. The result is equivalent to f.
func NNF(f *Formula) *Formula { return nnf(f, false) }

func nnf(f *Formula, neg bool) *Formula {
	switch f.Op {
	case True, False:
		if (f.Op == True) != neg {
			return T()
		}
		return F()
	case Atom:
		if neg {
			return Un(Not, f)
		}
		return f
	case Not:
		return nnf(f.L, !neg)
	case And, Or:
		op := f.Op
		if neg {
			op = And + Or - op
		}
		return Bin(op, nnf(f.L, neg), nnf(f.R, neg))
	case Implies:
		// a -> b is !a || b; its negation a && !b
		if neg {
			return Bin(And, nnf(f.L, false), nnf(f.R, true))
		}
		return Bin(Or, nnf(f.L, true), nnf(f.R, false))
	case Iff:
		// (a && b) || (!a && !b); negated (a && !b) || (!a && b)
		return Bin(Or,
			Bin(And, nnf(f.L, false), nnf(f.R, neg)),
			Bin(And, nnf(f.L, true), nnf(f.R, !neg)))
	case Next:
		return Un(Next, nnf(f.L, neg))
	case Always:
		if neg { // <> !g
			return Bin(Until, T(), nnf(f.L, true))
		}
		return Bin(Release, F(), nnf(f.L, false))
	case Eventually:
		if neg { // [] !g
			return Bin(Release, F(), nnf(f.L, true))
		}
		return Bin(Until, T(), nnf(f.L, false))
	case Until:
		if neg { // !a R !b
			return Bin(Release, nnf(f.L, true), nnf(f.R, true))
		}
		return Bin(Until, nnf(f.L, false), nnf(f.R, false))
	case Release:
		if neg { // !a U !b
			return Bin(Until, nnf(f.L, true), nnf(f.R, true))
		}
		return Bin(Release, nnf(f.L, false), nnf(f.R, false))
	case WeakUntil:
		// a W b = b R (a || b); negated !b U (!a && !b)
		if neg {
			return Bin(Until, nnf(f.R, true), Bin(And, nnf(f.L, true), nnf(f.R, true)))
		}
		return Bin(Release, nnf(f.R, false), Bin(Or, nnf(f.L, false), nnf(f.R, false)))
	}
	panic("ltl: unknown operator " + f.Op.String())
}

// isLiteral reports whether f is a proposition or its negation.
func isLiteral(f *Formula) bool {
	return f.Op == Atom || f.Op == Not && f.L.Op == Atom
}

// complement reports whether literals f and g are p and !p.
func complement(f, g *Formula) bool {
	if f.Op == Not && g.Op == Atom {
		return f.L.Atom == g.Atom
	}
	if g.Op == Not && f.Op == Atom {
		return g.L.Atom == f.Atom
	}
	return false
}

// isG reports whether f is [] g (false R g); isF whether it is <> g.
func isG(f *Formula) bool { return f.Op == Release && f.L.Op == False }
func isF(f *Formula) bool { return f.Op == Until && f.L.Op == True }

// Simplify rewrites a formula in negation normal form into a smaller
// equivalent one, also in negation normal form. The rules are the usual
// ones of LTL-to-automata translators (Etessami and Holzmann; Somenzi and
// Bloem): constants are propagated, conjunctions and disjunctions are
// flattened, sorted and freed of duplicates and of complementary literals,
// and temporal operators are merged:
//
//	X a && X b = X (a && b)         X a || X b = X (a || b)
//	a U false = false               a U true = true
//	a R true = true                 a R false = false ... (false R b = [] b)
//	<> <> a = <> a                  [] [] a = [] a
//	[] a && [] b = [] (a && b)      <> a || <> b = <> (a || b)
//	(a U b) || (a U c) = a U (b || c)   (a R b) && (a R c) = a R (b && c)
//	(a U c) && (b U c) = (a && b) U c   (a R c) || (b R c) = (a || b) R c
//	a U (a U b) = a U b             <> [] <> a = [] <> a
//	X true = true   X false = false   <> X a = X <> a   [] X a = X [] a
//	[] <> a || [] <> b = [] <> (a || b)   <> [] a && <> [] b = <> [] (a && b)
//
// The result depends only on f's structure, so equal inputs give equal
// outputs.
func Simplify(f *Formula) *Formula {
	for i := 0; i < 8; i++ {
		g := simplify(f)
		if Equal(g, f) {
			return g
		}
		f = g
	}
	return f
}

func simplify(f *Formula) *Formula {
	switch f.Op {
	case True, False, Atom:
		return f
	case Not:
		if f.L.Op == True {
			return F()
		}
		if f.L.Op == False {
			return T()
		}
		return f
	case And, Or:
		return simplifyJunction(f.Op, f)
	case Next:
		a := simplify(f.L)
		if a.Op == True || a.Op == False {
			return a
		}
		return Un(Next, a)
	case Until:
		a, b := simplify(f.L), simplify(f.R)
		switch {
		case b.Op == True || b.Op == False:
			return b // a U true = true, a U false = false
		case a.Op == False:
			return b // false U b = b
		case Equal(a, b):
			return b
		case b.Op == Until && Equal(a, b.L):
			return b // a U (a U b) = a U b
		case a.Op == True && isF(b):
			return b // <> <> b
		case a.Op == True && b.Op == Next:
			return Un(Next, simplify(Bin(Until, T(), b.L))) // <> X b = X <> b
		case a.Op == True && isG(b) && isF(b.R):
			return b // <> [] <> c = [] <> c
		}
		return Bin(Until, a, b)
	case Release:
		a, b := simplify(f.L), simplify(f.R)
		switch {
		case b.Op == True || b.Op == False:
			return b // a R true = true, a R false = false
		case a.Op == True:
			return b // true R b = b
		case Equal(a, b):
			return b
		case b.Op == Release && Equal(a, b.L):
			return b // a R (a R b) = a R b
		case a.Op == False && isG(b):
			return b // [] [] b
		case a.Op == False && b.Op == Next:
			return Un(Next, simplify(Bin(Release, F(), b.L))) // [] X b = X [] b
		case a.Op == False && isF(b) && isG(b.R):
			return b // [] <> [] c = <> [] c
		}
		return Bin(Release, a, b)
	}
	panic("ltl: Simplify needs a formula in negation normal form, found " + f.Op.String())
}

// simplifyJunction simplifies a conjunction (op And) or disjunction (Or).
func simplifyJunction(op Op, f *Formula) *Formula {
	unit, zero := True, False // and: true is neutral, false absorbs
	if op == Or {
		unit, zero = False, True
	}
	var ops []*Formula
	var flatten func(*Formula)
	flatten = func(g *Formula) {
		if g.Op == op {
			flatten(g.L)
			flatten(g.R)
			return
		}
		ops = append(ops, simplify(g))
	}
	flatten(f)
	// the simplified operands may be junctions of the same kind again
	var flat []*Formula
	var add func(*Formula)
	add = func(g *Formula) {
		if g.Op == op {
			add(g.L)
			add(g.R)
			return
		}
		flat = append(flat, g)
	}
	for _, g := range ops {
		add(g)
	}
	var out []*Formula
	for _, g := range flat {
		if g.Op == zero {
			return &Formula{Op: zero}
		}
		if g.Op == unit {
			continue
		}
		out = append(out, g)
	}
	// merge temporal operators
	merge := func(match func(*Formula) bool, combine func(a, b *Formula) *Formula) {
		for i := 0; i < len(out); i++ {
			if !match(out[i]) {
				continue
			}
			for j := i + 1; j < len(out); j++ {
				if !match(out[j]) {
					continue
				}
				if c := combine(out[i], out[j]); c != nil {
					out[i] = c
					out = append(out[:j], out[j+1:]...)
					j--
				}
			}
		}
	}
	isNext := func(g *Formula) bool { return g.Op == Next }
	merge(isNext, func(a, b *Formula) *Formula { return Un(Next, simplify(Bin(op, a.L, b.L))) })
	if op == And {
		// [] a && [] b = [] (a && b); (a R b) && (a R c) = a R (b && c)
		merge(func(g *Formula) bool { return g.Op == Release }, func(a, b *Formula) *Formula {
			if Equal(a.L, b.L) {
				return Bin(Release, a.L, simplify(Bin(And, a.R, b.R)))
			}
			return nil
		})
		// <> [] a && <> [] b = <> [] (a && b)
		merge(func(g *Formula) bool { return isF(g) && isG(g.R) }, func(a, b *Formula) *Formula {
			return Bin(Until, T(), Bin(Release, F(), simplify(Bin(And, a.R.R, b.R.R))))
		})
		// (a U b) && (c U b) = (a && c) U b
		merge(func(g *Formula) bool { return g.Op == Until }, func(a, b *Formula) *Formula {
			if Equal(a.R, b.R) {
				return Bin(Until, simplify(Bin(And, a.L, b.L)), a.R)
			}
			return nil
		})
	} else {
		// <> a || <> b = <> (a || b); (a U b) || (a U c) = a U (b || c)
		merge(func(g *Formula) bool { return g.Op == Until }, func(a, b *Formula) *Formula {
			if Equal(a.L, b.L) {
				return Bin(Until, a.L, simplify(Bin(Or, a.R, b.R)))
			}
			return nil
		})
		// (a R b) || (c R b) = (a || c) R b
		merge(func(g *Formula) bool { return g.Op == Release }, func(a, b *Formula) *Formula {
			if Equal(a.R, b.R) {
				return Bin(Release, simplify(Bin(Or, a.L, b.L)), a.R)
			}
			return nil
		})
		// [] <> a || [] <> b = [] <> (a || b)
		merge(func(g *Formula) bool { return isG(g) && isF(g.R) }, func(a, b *Formula) *Formula {
			return Bin(Release, F(), Bin(Until, T(), simplify(Bin(Or, a.R.R, b.R.R))))
		})
	}
	// sort, remove duplicates and detect complementary literals
	keys := make([]string, len(out))
	for i, g := range out {
		keys[i] = g.String()
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	var uniq []*Formula
	last := ""
	for n, i := range idx {
		if n > 0 && keys[i] == last {
			continue
		}
		last = keys[i]
		uniq = append(uniq, out[i])
	}
	for i, a := range uniq {
		if !isLiteral(a) {
			continue
		}
		for _, b := range uniq[i+1:] {
			if isLiteral(b) && complement(a, b) {
				return &Formula{Op: zero}
			}
		}
	}
	switch len(uniq) {
	case 0:
		return &Formula{Op: unit}
	case 1:
		return uniq[0]
	}
	r := uniq[len(uniq)-1]
	for i := len(uniq) - 2; i >= 0; i-- {
		r = Bin(op, uniq[i], r)
	}
	return r
}
