package gen

import (
	"fmt"
	"math/rand/v2"

	"birch/internal/smt"
)

// A Query asks whether Cube implies WP: the question predicate abstraction
// asks of a decision procedure for every abstract transition (does this
// cube of predicates imply the weakest precondition of that predicate
// under the statement?).
type Query struct {
	Cube, WP *smt.Term
}

// PredAbsConfig shapes predicate abstraction queries.
type PredAbsConfig struct {
	// UF makes about a quarter of the integer leaves applications of the
	// uninterpreted functions h: Int→Int and k: Int×Int→Int (a program's
	// calls or heap reads, abstracted; the same symbols as New declares).
	UF bool
	// Programs > 0 draws the queries as predicate abstraction would ask them: per
	// program, 2–6 variables, a pool of 10 predicates and 3 assignments,
	// and Programs·PerProgram queries whose cubes and preconditions come
	// from the pool, so that predicates recur. Programs == 0 draws every
	// query afresh (little reuse).
	Programs, PerProgram int
}

// PredAbs returns n queries (or Programs·PerProgram) shaped like predicate
// abstraction's: a cube of 2–8 atoms (some negated) over 2–6 integer
// variables, and the weakest precondition of an atom under an assignment
// x := e, which is the atom with e substituted for x. The symbols are
// declared in tm: v0…v5 (or p<k>_v<i> per program), and h, k when UF is
// set. The same seed gives the same queries.
func PredAbs(tm *smt.TermManager, seed uint64, n int, cfg PredAbsConfig) []Query {
	r := rand.New(rand.NewPCG(seed, 0x5bd1e995))
	var f, g *smt.Symbol
	if cfg.UF {
		var err error
		if f, err = tm.Declare("h", []*smt.Sort{smt.IntSort}, smt.IntSort); err != nil {
			panic("gen: " + err.Error())
		}
		if g, err = tm.Declare("k", []*smt.Sort{smt.IntSort, smt.IntSort}, smt.IntSort); err != nil {
			panic("gen: " + err.Error())
		}
	}
	p := &predAbs{tm: tm, r: r, f: f, g: g}
	var qs []Query
	if cfg.Programs == 0 {
		var vars []*smt.Term
		for i := range 6 {
			vars = append(vars, tm.Const(fmt.Sprintf("v%d", i), smt.IntSort))
		}
		for range n {
			p.vs = vars[:2+r.IntN(5)]
			var cube []*smt.Term
			for range 2 + r.IntN(7) {
				a := p.atom(true)
				if r.IntN(3) == 0 {
					a = tm.Not(a)
				}
				cube = append(cube, a)
			}
			post := p.atom(true)
			wp := tm.Substitute(post, map[*smt.Term]*smt.Term{p.pick(): p.lin()})
			qs = append(qs, Query{tm.And(cube...), wp})
		}
		return qs
	}
	for k := range cfg.Programs {
		p.vs = nil
		for i := range 2 + r.IntN(5) {
			p.vs = append(p.vs, tm.Const(fmt.Sprintf("p%d_v%d", k, i), smt.IntSort))
		}
		var pool []*smt.Term
		for range 10 {
			pool = append(pool, p.atom(false))
		}
		var assigns []map[*smt.Term]*smt.Term
		for range 3 {
			assigns = append(assigns, map[*smt.Term]*smt.Term{p.pick(): p.lin()})
		}
		for range cfg.PerProgram {
			var cube []*smt.Term
			for _, i := range r.Perm(len(pool))[:2+r.IntN(7)] {
				a := pool[i]
				if r.IntN(2) == 0 {
					a = tm.Not(a)
				}
				cube = append(cube, a)
			}
			wp := tm.Substitute(pool[r.IntN(len(pool))], assigns[r.IntN(len(assigns))])
			qs = append(qs, Query{tm.And(cube...), wp})
		}
	}
	return qs
}

type predAbs struct {
	tm   *smt.TermManager
	r    *rand.Rand
	vs   []*smt.Term
	f, g *smt.Symbol
}

func (p *predAbs) pick() *smt.Term { return p.vs[p.r.IntN(len(p.vs))] }

// leaf is a variable or, with UF, now and then a function application.
func (p *predAbs) leaf() *smt.Term {
	if p.f != nil && p.r.IntN(4) == 0 {
		if p.r.IntN(2) == 0 {
			return p.tm.Apply(p.f, p.pick())
		}
		return p.tm.Apply(p.g, p.pick(), p.pick())
	}
	return p.pick()
}

func (p *predAbs) lin() *smt.Term {
	tm, r := p.tm, p.r
	switch r.IntN(4) {
	case 0:
		return p.leaf()
	case 1:
		return tm.Add(p.leaf(), tm.Int(r.Int64N(5)-2))
	case 2:
		return tm.Add(p.leaf(), p.leaf())
	}
	return tm.Sub(tm.Scale(r.Int64N(3)+1, p.leaf()), p.leaf())
}

// atom is a comparison of a linear term with a constant or a variable;
// disequalities only when diseq is set.
func (p *predAbs) atom(diseq bool) *smt.Term {
	tm, r := p.tm, p.r
	a, b := p.lin(), tm.Int(r.Int64N(11)-5)
	if r.IntN(2) == 0 {
		b = p.leaf()
	}
	k := 4
	if diseq {
		k = 5
	}
	switch r.IntN(k) {
	case 0:
		return tm.Lt(a, b)
	case 1:
		return tm.Le(a, b)
	case 2:
		return tm.Eq(a, b)
	case 4:
		return tm.Not(tm.Eq(a, b))
	}
	return tm.Ge(a, b)
}
