package predicate

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"birch/internal/smt"
)

// DefaultCubeLength is the longest cube F considers unless told otherwise
// (C2bp's bound: the paper reports that 3 gives the precision needed in
// practice).
const DefaultCubeLength = 3

// A Literal is a predicate (by its index in the Cubes' list) or its
// negation.
type Literal struct {
	Pred int
	Neg  bool
}

// A Cube is a conjunction of literals over distinct predicates, sorted by
// predicate index (its canonical form). The empty cube is true.
type Cube []Literal

// String writes the cube canonically, as "0 & !2": the cache's key.
func (c Cube) String() string {
	var b strings.Builder
	for i, l := range c {
		if i > 0 {
			b.WriteString(" & ")
		}
		if l.Neg {
			b.WriteByte('!')
		}
		b.WriteString(strconv.Itoa(l.Pred))
	}
	return b.String()
}

// Bound is the result of F or G: a disjunction of cubes over the
// predicates, negated for G (G(φ) = ¬F(¬φ)). An empty disjunction is false,
// so F with no cube is false and G with no cube is true.
type Bound struct {
	Cubes   []Cube
	Negated bool
}

// Term is the bound as a formula over the predicates' terms.
func (b Bound) Term(tm *smt.TermManager, preds []*smt.Term) *smt.Term {
	ds := make([]*smt.Term, len(b.Cubes))
	for i, c := range b.Cubes {
		ds[i] = cubeTerm(tm, preds, c)
	}
	t := tm.Or(ds...)
	if b.Negated {
		t = tm.Not(t)
	}
	return t
}

func cubeTerm(tm *smt.TermManager, preds []*smt.Term, c Cube) *smt.Term {
	cs := make([]*smt.Term, len(c))
	for i, l := range c {
		cs[i] = preds[l.Pred]
		if l.Neg {
			cs[i] = tm.Not(cs[i])
		}
	}
	return tm.And(cs...)
}

// CubeStats counts the implication queries of a Cubes.
type CubeStats struct {
	Queries    int           // implication checks asked (cache hits included)
	Hits       int           // answered by the cache
	Unknown    int           // the solver could not decide (never cached)
	SolverTime time.Duration // wall-clock time spent in the solver
}

// Cubes computes F and G over a fixed list of predicates, given as solver
// terms of one TermManager, with one solver and a cache of its answers.
// Its zero value does not work: make one with NewCubes. A Cubes is not
// safe for concurrent use.
type Cubes struct {
	s     smt.Solver
	tm    *smt.TermManager
	preds []*smt.Term

	// MaxLen bounds the length of the cubes F considers; 0 means
	// DefaultCubeLength. A shorter bound makes F weaker (fewer cubes),
	// never unsound.
	MaxLen int
	// NoPrune turns off the pruning of cubes that extend an implicant or
	// an unsatisfiable cube (for measurements; F is the same formula).
	NoPrune bool
	// Stop, when set and true, makes F return the cubes found so far (a
	// weaker F, never an unsound one): a cancelled abstraction stops
	// asking.
	Stop func() bool

	// Shared, when not nil, holds answers across Cubes (the rounds of a
	// refinement loop abstract the same model with more predicates): it
	// is keyed by the text of the whole query, which decides it whatever
	// Cubes asks it.
	Shared *QueryCache

	cache map[string]bool
	stats CubeStats
	err   error
}

// QueryCache holds the decided answers of implication queries by the
// SMT-LIB text of hypothesis and conclusion, for several Cubes. The
// solvers of the Cubes that share one must have no assertions (or the
// same ones). Its zero value does not work: make one with NewQueryCache.
type QueryCache struct{ m map[string]bool }

// NewQueryCache returns an empty QueryCache.
func NewQueryCache() *QueryCache { return &QueryCache{m: map[string]bool{}} }

// Len is the number of answers the cache holds.
func (qc *QueryCache) Len() int { return len(qc.m) }

// NewCubes returns a Cubes over preds (formulas of s's TermManager). s's
// assertions should be none (or invariants that hold in every state): every
// query is asked under them.
func NewCubes(s smt.Solver, preds []*smt.Term) *Cubes {
	return &Cubes{s: s, tm: s.TermManager(), preds: preds, cache: map[string]bool{}}
}

// Stats returns the counts so far.
func (cs *Cubes) Stats() CubeStats { return cs.stats }

// Err returns the first failure of the solver (not an undecided answer),
// or nil. A failed query counts as not implying.
func (cs *Cubes) Err() error { return cs.err }

// implies reports whether the cube implies φ (c ∧ ¬φ is unsat); key is φ's
// text. Only a proof gives true: unknown and failures give false.
func (cs *Cubes) implies(c Cube, phi *smt.Term, key string) bool {
	cs.stats.Queries++
	k := c.String() + "\x00" + key
	if v, ok := cs.cache[k]; ok {
		cs.stats.Hits++
		return v
	}
	hyp := cubeTerm(cs.tm, cs.preds, c)
	var shared string
	if cs.Shared != nil {
		shared = smt.Sprint(hyp) + "\x00" + key
		if v, ok := cs.Shared.m[shared]; ok {
			cs.stats.Hits++
			cs.cache[k] = v
			return v
		}
	}
	start := time.Now()
	v, err := smt.Implies(cs.s, hyp, phi)
	cs.stats.SolverTime += time.Since(start)
	if err != nil {
		cs.stats.Unknown++
		if !errors.Is(err, smt.ErrUnknown) && cs.err == nil {
			cs.err = err
		}
		return false
	}
	cs.cache[k] = v
	if cs.Shared != nil {
		cs.Shared.m[shared] = v
	}
	return v
}

// F is the largest disjunction of satisfiable cubes of at most MaxLen
// literals that each imply φ, as C2bp computes it: cubes by increasing
// length, a cube that extends an implicant or an unsatisfiable cube is not
// asked about, and a cube that implies φ is asked once more whether it is
// satisfiable (it implies false) and kept only when that is not proved.
// The cubes F returns are prime within the bound. F under-approximates φ
// whatever the solver answers: a cube is kept only when the solver proved
// that it implies φ.
func (cs *Cubes) F(phi *smt.Term) Bound {
	all := make([]int, len(cs.preds))
	for i := range all {
		all[i] = i
	}
	return cs.FOver(phi, all)
}

// FOver is F with the cubes made of the predicates of the list over only
// (indices into the Cubes' predicates, increasing): the cone of influence
// of C2bp, which asks only about the predicates that share a variable with
// φ. The result is weaker than F (fewer cubes), never unsound, and shares
// the cache with F.
func (cs *Cubes) FOver(phi *smt.Term, over []int) Bound {
	key := smt.Sprint(phi)
	falseKey := smt.Sprint(cs.tm.False())
	k := cs.MaxLen
	if k <= 0 {
		k = DefaultCubeLength
	}
	if k > len(over) {
		k = len(over)
	}
	var out Bound
	// done holds the cubes whose extensions need no question: implicants,
	// unsatisfiable cubes, and (by induction) the cubes that extend one.
	done := map[string]bool{}
	var c Cube
	var gen func(from, left int)
	gen = func(from, left int) {
		if cs.Stop != nil && cs.Stop() {
			return
		}
		if left == 0 {
			cs.visit(c, phi, key, falseKey, done, &out)
			return
		}
		for i := from; i <= len(over)-left; i++ {
			for _, neg := range []bool{false, true} {
				c = append(c, Literal{over[i], neg})
				gen(i+1, left-1)
				c = c[:len(c)-1]
			}
		}
	}
	for n := 1; n <= k; n++ {
		gen(0, n)
	}
	return out
}

func (cs *Cubes) visit(c Cube, phi *smt.Term, key, falseKey string, done map[string]bool, out *Bound) {
	name := c.String()
	ext := extendsDone(c, done)
	if ext {
		// an extension of an implicant or of an unsatisfiable cube adds
		// nothing to F; without pruning it is still asked about
		done[name] = true
		if cs.NoPrune {
			cs.implies(c, phi, key)
		}
		return
	}
	if !cs.implies(c, phi, key) {
		return
	}
	done[name] = true
	if cs.implies(c, cs.tm.False(), falseKey) {
		return // unsatisfiable: so are its extensions
	}
	out.Cubes = append(out.Cubes, append(Cube(nil), c...))
}

// extendsDone reports whether c less one of its literals is in done.
func extendsDone(c Cube, done map[string]bool) bool {
	if len(c) < 2 {
		return false
	}
	sub := make(Cube, len(c)-1)
	for i := range c {
		copy(sub, c[:i])
		copy(sub[i:], c[i+1:])
		if done[sub.String()] {
			return true
		}
	}
	return false
}

// G is the dual of F: the strongest formula over the predicates' cubes
// that φ implies, G(φ) = ¬F(¬φ). It over-approximates φ.
func (cs *Cubes) G(phi *smt.Term) Bound {
	b := cs.F(cs.tm.Not(phi))
	b.Negated = true
	return b
}

// GOver is G over the predicates of the list over: ¬FOver(¬φ, over).
func (cs *Cubes) GOver(phi *smt.Term, over []int) Bound {
	b := cs.FOver(cs.tm.Not(phi), over)
	b.Negated = true
	return b
}
