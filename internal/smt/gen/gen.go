// Package gen generates random quantifier-free formulas, seeded and
// reproducible, in every fragment birch's solvers decide: linear integer
// arithmetic with small coefficients, disequalities and div/mod by
// constants (QF_LIA); uninterpreted functions over an uninterpreted sort
// and over Int (QF_UF, QF_UFLIA); arrays from Int to Int and to Bool with
// select and store (QF_ALIA, QF_AX); and their mixtures. It exists for
// differential testing (one solver against another, every sat model
// checked by evaluation) and for benchmarks, which also use PredAbs:
// queries shaped like predicate abstraction's (does a cube imply a
// weakest precondition?).
//
// The formulas are small on purpose: most random instances of a few atoms
// over a few variables are decided in microseconds, and a mix of sat and
// unsat comes from the atoms sharing few variables and small constants.
package gen

import (
	"math/rand/v2"
	"strconv"

	"birch/internal/smt"
)

// Fragment is a set of theories, as bit flags.
type Fragment uint8

const (
	LIA    Fragment = 1 << iota // integer variables, + and * by constants, < <= = distinct, div/mod by constants
	UF                          // an uninterpreted sort with functions and a predicate; with LIA, functions over Int too
	Arrays                      // (Array Int Int) and (Array Int Bool), select, store, array equality; implies integer indices
	Bool                        // propositional variables

	All = LIA | UF | Arrays | Bool
)

// Fragments lists the fragments a differential test should cover, by name.
var Fragments = []struct {
	Name string
	F    Fragment
}{
	{"lia", LIA | Bool},
	{"uf", UF | Bool},
	{"uflia", UF | LIA},
	{"arrays", Arrays},
	{"alia", Arrays | LIA},
	{"all", All},
}

// Logic returns the SMT-LIB2 logic name of a fragment.
func (f Fragment) Logic() string {
	switch {
	case f&Arrays != 0 && f&UF != 0:
		return "QF_AUFLIA"
	case f&Arrays != 0:
		return "QF_ALIA"
	case f&UF != 0 && f&LIA != 0:
		return "QF_UFLIA"
	case f&UF != 0:
		return "QF_UF"
	case f&LIA != 0:
		return "QF_LIA"
	}
	return "QF_UF"
}

// Config shapes the formulas. Zero fields take the defaults in brackets.
type Config struct {
	Fragment Fragment // theories used [All]
	Vars     int      // integer variables [4]
	Atoms    int      // atoms per formula, about [6]
	Depth    int      // nesting of and/or/not/ite/=> above the atoms [3]
	Coef     int      // coefficients within ±Coef [3]
	Const    int      // constants within ±Const [10]
}

func (c Config) withDefaults() Config {
	if c.Fragment == 0 {
		c.Fragment = All
	}
	if c.Vars == 0 {
		c.Vars = 4
	}
	if c.Atoms == 0 {
		c.Atoms = 6
	}
	if c.Depth == 0 {
		c.Depth = 3
	}
	if c.Coef == 0 {
		c.Coef = 3
	}
	if c.Const == 0 {
		c.Const = 10
	}
	return c
}

// Generator produces formulas over its own declared symbols: integers x0,
// x1, …; Booleans p0, p1, p2; elements e0, e1, e2 of sort U with f: U→U,
// g: U×U→U, P: U→Bool; h: Int→Int and k: Int×Int→Int; arrays A, B of
// (Array Int Int) and C of (Array Int Bool).
type Generator struct {
	tm    *smt.TermManager
	r     *rand.Rand
	cfg   Config
	ints  []*smt.Term
	bools []*smt.Term
	elems []*smt.Term
	arrs  []*smt.Term // Int -> Int
	barr  *smt.Term   // Int -> Bool
	f, g  *smt.Symbol
	p     *smt.Symbol
	h, k  *smt.Symbol
	atoms int
}

// New returns a generator declaring its symbols in tm, seeded by seed.
func New(tm *smt.TermManager, seed uint64, cfg Config) *Generator {
	cfg = cfg.withDefaults()
	g := &Generator{tm: tm, r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), cfg: cfg}
	for i := 0; i < cfg.Vars; i++ {
		g.ints = append(g.ints, tm.Const("x"+strconv.Itoa(i), smt.IntSort))
	}
	for i := 0; i < 3; i++ {
		g.bools = append(g.bools, tm.Const("p"+strconv.Itoa(i), smt.BoolSort))
	}
	u := tm.UninterpretedSort("U")
	for i := 0; i < 3; i++ {
		g.elems = append(g.elems, tm.Const("e"+strconv.Itoa(i), u))
	}
	decl := func(name string, params []*smt.Sort, res *smt.Sort) *smt.Symbol {
		s, err := tm.Declare(name, params, res)
		if err != nil {
			panic("gen: " + err.Error()) // the caller's manager already uses the name
		}
		return s
	}
	g.f = decl("f", []*smt.Sort{u}, u)
	g.g = decl("g", []*smt.Sort{u, u}, u)
	g.p = decl("P", []*smt.Sort{u}, smt.BoolSort)
	g.h = decl("h", []*smt.Sort{smt.IntSort}, smt.IntSort)
	g.k = decl("k", []*smt.Sort{smt.IntSort, smt.IntSort}, smt.IntSort)
	ai := tm.ArraySort(smt.IntSort, smt.IntSort)
	g.arrs = []*smt.Term{tm.Const("A", ai), tm.Const("B", ai)}
	g.barr = tm.Const("C", tm.ArraySort(smt.IntSort, smt.BoolSort))
	return g
}

// Fragment returns the configured fragment.
func (g *Generator) Fragment() Fragment { return g.cfg.Fragment }

func (g *Generator) has(f Fragment) bool { return g.cfg.Fragment&f != 0 }

func (g *Generator) intn(n int) int { return g.r.IntN(n) }

func (g *Generator) small() *smt.Term {
	return g.tm.Int(int64(g.intn(2*g.cfg.Const+1) - g.cfg.Const))
}

// Formula returns one random formula.
func (g *Generator) Formula() *smt.Term {
	g.atoms = g.cfg.Atoms
	return g.boolean(g.cfg.Depth)
}

// Problem returns n clauses meant to be asserted together: each a
// disjunction of one to three literals drawn from a pool of about n/2
// atoms (so that clauses share atoms, as in random k-SAT), now and then a
// small nested formula instead. Over a few variables, such problems are
// sat or unsat in useful proportions.
func (g *Generator) Problem(n int) []*smt.Term {
	pool := make([]*smt.Term, n/2+2)
	for i := range pool {
		pool[i] = g.atom()
	}
	out := make([]*smt.Term, n)
	for i := range out {
		lits := make([]*smt.Term, 1+g.intn(3))
		for j := range lits {
			var l *smt.Term
			if g.intn(8) == 0 {
				g.atoms = 3
				l = g.boolean(2)
			} else {
				l = pool[g.intn(len(pool))]
			}
			if g.intn(2) == 0 {
				l = g.tm.Not(l)
			}
			lits[j] = l
		}
		out[i] = g.tm.Or(lits...)
	}
	return out
}

func (g *Generator) boolean(depth int) *smt.Term {
	tm := g.tm
	if depth == 0 || g.atoms <= 1 || g.intn(4) == 0 {
		g.atoms--
		return g.atom()
	}
	switch g.intn(8) {
	case 0:
		return tm.Not(g.boolean(depth - 1))
	case 1:
		return tm.Implies(g.boolean(depth-1), g.boolean(depth-1))
	case 2:
		return tm.Ite(g.boolean(depth-1), g.boolean(depth-1), g.boolean(depth-1))
	case 3:
		return tm.Or(g.boolean(depth-1), g.boolean(depth-1))
	case 4:
		return tm.Eq(g.boolean(depth-1), g.boolean(depth-1))
	default:
		n := 2 + g.intn(2)
		args := make([]*smt.Term, n)
		for i := range args {
			args[i] = g.boolean(depth - 1)
		}
		return tm.And(args...)
	}
}

// atom returns an atom of one of the configured theories.
func (g *Generator) atom() *smt.Term {
	var kinds []func() *smt.Term
	if g.has(LIA) {
		kinds = append(kinds, g.arithAtom, g.arithAtom, g.arithAtom)
	}
	if g.has(UF) {
		kinds = append(kinds, g.ufAtom, g.ufAtom)
	}
	if g.has(Arrays) {
		kinds = append(kinds, g.arrayAtom, g.arrayAtom)
	}
	if g.has(Bool) || len(kinds) == 0 {
		kinds = append(kinds, func() *smt.Term { return g.bools[g.intn(len(g.bools))] })
	}
	return kinds[g.intn(len(kinds))]()
}

func (g *Generator) arithAtom() *smt.Term {
	tm := g.tm
	a, b := g.intTerm(2), g.intTerm(2)
	switch g.intn(6) {
	case 0:
		return tm.Lt(a, b)
	case 1:
		return tm.Le(a, b)
	case 2:
		return tm.Eq(a, b)
	case 3:
		return tm.Distinct(a, b)
	case 4:
		return tm.Ge(a, b)
	}
	return tm.Gt(a, b)
}

// intTerm returns an integer term: linear in the variables, with div and
// mod by non-zero constants, uninterpreted functions over Int and array
// reads when those fragments are on.
func (g *Generator) intTerm(depth int) *smt.Term {
	tm := g.tm
	var leaves []*smt.Term
	leaves = append(leaves, g.small())
	if g.has(LIA) || g.has(Arrays) {
		leaves = append(leaves, g.ints...)
	}
	leaf := leaves[g.intn(len(leaves))]
	if depth == 0 {
		return leaf
	}
	choice := g.intn(10)
	switch {
	case choice < 3:
		return leaf
	case choice < 6 && g.has(LIA):
		n := 2 + g.intn(2)
		args := make([]*smt.Term, n)
		for i := range args {
			c := int64(1 + g.intn(g.cfg.Coef))
			if g.intn(2) == 0 {
				c = -c
			}
			t := g.intTerm(depth - 1)
			switch c {
			case 1:
				args[i] = t
			case -1:
				args[i] = tm.Neg(t)
			default:
				args[i] = tm.Mul(tm.Int(c), t)
			}
		}
		if g.intn(3) == 0 {
			return tm.Sub(args[0], args[1:]...)
		}
		return tm.Add(args...)
	case choice == 6 && g.has(LIA):
		d := int64(1 + g.intn(5))
		if g.intn(4) == 0 {
			d = -d
		}
		if g.intn(2) == 0 {
			return tm.Div(g.intTerm(depth-1), tm.Int(d))
		}
		return tm.Mod(g.intTerm(depth-1), tm.Int(d))
	case choice == 7 && g.has(LIA):
		return tm.Ite(g.arithAtomShallow(), g.intTerm(depth-1), g.intTerm(depth-1))
	case choice == 8 && g.has(UF) && g.has(LIA):
		if g.intn(2) == 0 {
			return tm.Apply(g.h, g.intTerm(depth-1))
		}
		return tm.Apply(g.k, g.intTerm(depth-1), g.intTerm(depth-1))
	case choice >= 8 && g.has(Arrays):
		return tm.Select(g.arrayTerm(depth-1), g.intTerm(depth-1))
	}
	return leaf
}

func (g *Generator) arithAtomShallow() *smt.Term {
	return g.tm.Le(g.intTerm(0), g.intTerm(1))
}

func (g *Generator) elemTerm(depth int) *smt.Term {
	tm := g.tm
	if depth == 0 || g.intn(3) == 0 {
		return g.elems[g.intn(len(g.elems))]
	}
	switch g.intn(3) {
	case 0, 1:
		return tm.Apply(g.f, g.elemTerm(depth-1))
	}
	return tm.Apply(g.g, g.elemTerm(depth-1), g.elemTerm(depth-1))
}

func (g *Generator) ufAtom() *smt.Term {
	tm := g.tm
	switch g.intn(5) {
	case 0:
		return tm.Apply(g.p, g.elemTerm(2))
	case 1:
		return tm.Distinct(g.elemTerm(2), g.elemTerm(2))
	case 2:
		if g.has(LIA) {
			return tm.Eq(tm.Apply(g.h, g.intTerm(1)), g.intTerm(1))
		}
	}
	return tm.Eq(g.elemTerm(2), g.elemTerm(2))
}

// arrayTerm returns an (Array Int Int) term: a variable under a few stores.
func (g *Generator) arrayTerm(depth int) *smt.Term {
	a := g.arrs[g.intn(len(g.arrs))]
	n := g.intn(depth + 2)
	for i := 0; i < n; i++ {
		a = g.tm.Store(a, g.index(), g.intTerm(0))
	}
	return a
}

// index returns an array index: a variable or a small constant, so that
// reads and writes often meet.
func (g *Generator) index() *smt.Term {
	if g.intn(2) == 0 {
		return g.tm.Int(int64(g.intn(4)))
	}
	return g.ints[g.intn(len(g.ints))]
}

func (g *Generator) arrayAtom() *smt.Term {
	tm := g.tm
	switch g.intn(5) {
	case 0:
		return tm.Eq(g.arrayTerm(1), g.arrayTerm(1))
	case 1:
		c := g.barr
		if g.intn(2) == 0 {
			c = tm.Store(c, g.index(), g.bools[g.intn(len(g.bools))])
			if !g.has(Bool) {
				c = tm.Store(g.barr, g.index(), tm.Bool(g.intn(2) == 0))
			}
		}
		return tm.Select(c, g.index())
	case 2:
		return tm.Le(tm.Select(g.arrayTerm(1), g.index()), g.intTerm(0))
	}
	return tm.Eq(tm.Select(g.arrayTerm(1), g.index()), g.intTerm(1))
}
