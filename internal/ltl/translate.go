package ltl

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// MaxNodes bounds the construction: a translation that builds more than
// this many states and transitions (counted together, with the
// intermediate terms of the expansion) stops with an error wrapping
// ErrTooLarge instead of exhausting memory.
const MaxNodes = 1_000_000

// ErrTooLarge is wrapped by the error of a translation that exceeded
// MaxNodes (or the bound given to a Translator).
var ErrTooLarge = errors.New("the automaton is too large")

// Translate builds a transition-based generalized Büchi automaton that
// accepts exactly the words satisfying f, whose propositions are named by
// props (for printing). The formula is put in negation normal form and
// simplified, then translated by expansion into next-state form, as in
// Couvreur's construction ("On-the-fly verification of linear temporal
// logic", FM 1999): a state of the automaton is a set of formulas (their
// conjunction); the conjunction is rewritten as a disjunction of terms
// `label ∧ X next`, each term an edge to the state `next`; an edge that
// postpones an eventuality a U b (it takes a ∧ X(a U b) rather than b)
// carries a promise of it, and the acceptance set of a U b holds the edges
// without that promise. States are simplified by syntactic implication
// (a conjunct implied by another is dropped, so [] <> p ∧ <> p is the state
// [] <> p), and terms dominated by another (weaker label, fewer promises,
// weaker next state) are dropped. The result is reduced by
// Automaton.Simplify.
//
// It fails when the formula has more than 64 U subformulas or the
// construction exceeds MaxNodes.
func Translate(f *Formula, props []string) (*Automaton, error) {
	return TranslateContext(context.Background(), f, props)
}

// TranslateContext is Translate under a context: the construction polls ctx
// and, once it is done, stops with an error wrapping ctx.Err(). It also
// stops with an error wrapping ErrTooLarge when the construction exceeds
// MaxNodes.
func TranslateContext(ctx context.Context, f *Formula, props []string) (*Automaton, error) {
	return Translator{}.Translate(ctx, f, props)
}

// TranslateRaw is Translate without the final simplification of the
// automaton (the formula is still simplified); tests compare the two.
func TranslateRaw(f *Formula, props []string) (*Automaton, error) {
	return Translator{Raw: true}.Translate(context.Background(), f, props)
}

// Translator holds the limits of a translation; its zero value uses
// MaxNodes.
type Translator struct {
	MaxNodes int  // bound on the construction's size; 0 means MaxNodes
	Raw      bool // skip the final simplification of the automaton
}

// Translate translates f as TranslateContext does, within tr's limits.
func (tr Translator) Translate(ctx context.Context, f *Formula, props []string) (*Automaton, error) {
	limit := tr.MaxNodes
	if limit <= 0 {
		limit = MaxNodes
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("LTL translation stopped: %w", err)
	}
	b := &builder{
		ctx: ctx, limit: limit,
		index: map[fnode]int32{}, accOf: map[int32]int{},
		exp: map[int32][]term{}, imp: map[[2]int32]bool{},
	}
	b.tru = b.node(fnode{op: True, l: -1, r: -1})
	b.fls = b.node(fnode{op: False, l: -1, r: -1})
	root := b.intern(Simplify(NNF(f)))
	a := b.build(root, props)
	if b.err != nil {
		return nil, b.err
	}
	if !tr.Raw {
		if err := a.simplify(ctx); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// fnode is a formula in negation normal form, hash-consed: operands are
// numbers of other fnodes (-1 when absent).
type fnode struct {
	op   Op
	atom int32
	l, r int32
}

// term is one disjunct of a formula's next-state form: the cube Pos ∧ ¬Neg
// now, the conjunction of next from the next letter on, and the promises
// (acceptance set numbers of the eventualities postponed).
type term struct {
	pos, neg uint64
	prom     uint64
	next     []int32 // sorted, no duplicates, no conjunct implied by another
}

type builder struct {
	nodes    []fnode
	index    map[fnode]int32
	tru, fls int32
	accOf    map[int32]int // a U subformula -> its acceptance set
	exp      map[int32][]term
	imp      map[[2]int32]bool

	ctx   context.Context
	limit int
	work  int
	steps int
	err   error
}

func (b *builder) node(n fnode) int32 {
	if i, ok := b.index[n]; ok {
		return i
	}
	i := int32(len(b.nodes))
	b.nodes = append(b.nodes, n)
	b.index[n] = i
	return i
}

func (b *builder) intern(f *Formula) int32 {
	n := fnode{op: f.Op, l: -1, r: -1}
	switch f.Op {
	case Atom:
		n.atom = int32(f.Atom)
	case Not: // of a proposition
		n.atom = int32(f.L.Atom)
	case And, Or, Until, Release:
		n.l, n.r = b.intern(f.L), b.intern(f.R)
	case Next:
		n.l = b.intern(f.L)
	case True, False:
	default:
		panic("ltl: the translation needs negation normal form, found " + f.Op.String())
	}
	return b.node(n)
}

// charge counts n units of work against the limit and polls the context;
// it reports whether the construction must stop (the reason is in b.err).
func (b *builder) charge(n int) bool {
	if b.err != nil {
		return true
	}
	b.work += n
	b.steps++
	if b.steps&255 == 0 {
		if err := b.ctx.Err(); err != nil {
			b.err = fmt.Errorf("LTL translation stopped: %w", err)
			return true
		}
	}
	if b.work > b.limit {
		b.err = fmt.Errorf("LTL translation stopped: %w (more than %d states, edges and intermediate terms)", ErrTooLarge, b.limit)
		return true
	}
	return false
}

// build explores the states reachable from the root formula.
func (b *builder) build(root int32, props []string) *Automaton {
	type edge struct {
		to       int
		pos, neg uint64
		prom     uint64
	}
	var states [][]int32
	var edges [][]edge
	ids := map[string]int{}
	get := func(set []int32) int {
		k := setKey(set)
		if id, ok := ids[k]; ok {
			return id
		}
		ids[k] = len(states)
		states = append(states, set)
		edges = append(edges, nil)
		return len(states) - 1
	}
	get(b.conjuncts(nil, root))
	for q := 0; q < len(states); q++ {
		ts := b.expandSet(states[q])
		if b.charge(1 + len(ts)) {
			return nil
		}
		for _, t := range ts {
			to := get(t.next)
			edges[q] = append(edges[q], edge{to, t.pos, t.neg, t.prom})
		}
	}
	if len(b.accOf) > 64 {
		b.err = fmt.Errorf("the formula needs %d acceptance sets (U subformulas); at most 64 are supported", len(b.accOf))
		return nil
	}
	a := &Automaton{Props: props, NumAcc: len(b.accOf), States: make([]State, len(states))}
	all := a.AllAcc()
	for q, es := range edges {
		for _, e := range es {
			a.States[q].Edges = append(a.States[q].Edges, Edge{To: e.to, Pos: e.pos, Neg: e.neg, Acc: all &^ e.prom})
		}
	}
	return a
}

// setKey is a set of formulas as a map key.
func setKey(set []int32) string {
	b := make([]byte, 0, 4*len(set))
	for _, x := range set {
		b = binary.LittleEndian.AppendUint32(b, uint32(x))
	}
	return string(b)
}

// conjuncts adds the conjuncts of formula i to the set (sorted, without
// true), and returns the set reduced by implication.
func (b *builder) conjuncts(set []int32, i int32) []int32 {
	var add func(int32)
	add = func(i int32) {
		n := b.nodes[i]
		switch {
		case n.op == And:
			add(n.l)
			add(n.r)
		case n.op == True:
		default:
			if k, found := slices.BinarySearch(set, i); !found {
				set = slices.Insert(set, k, i)
			}
		}
	}
	add(i)
	return b.reduce(set)
}

// reduce drops from a sorted set of conjuncts those implied by another one
// that stays. A set holding false becomes {false}.
//
// A conjunct with an eventuality (a U subformula) is dropped only when the
// other one carries it, not merely implies it: its acceptance set then
// keeps watching the same U subformula, which the carrier expands at each
// step until it is fulfilled. Implication is not enough: in
// ((<> X && p1) R ((<> X && p1) || <> p0)) with X = (!p1 || p0) R p0, the
// R implies both <> p0 and <> X, and a run that postponed them in turn,
// each dropped at once, met both acceptance sets on p1 p1 p1 … without
// ever seeing p0.
func (b *builder) reduce(set []int32) []int32 {
	if len(set) < 2 {
		return set
	}
	if slices.Contains(set, b.fls) {
		return []int32{b.fls}
	}
	keep := make([]bool, len(set))
	for i := range keep {
		keep[i] = true
	}
	out := set[:0:0]
	for i, c := range set {
		eventual := b.eventual(c)
		for j, d := range set {
			if j != i && keep[j] && b.implies(d, c) && (!eventual || b.carries(d, c)) {
				keep[i] = false
				break
			}
		}
	}
	for i, c := range set {
		if keep[i] {
			out = append(out, c)
		}
	}
	return out
}

// eventual reports whether formula i has a U subformula.
func (b *builder) eventual(i int32) bool {
	if i < 0 {
		return false
	}
	n := b.nodes[i]
	return n.op == Until || b.eventual(n.l) || b.eventual(n.r)
}

// carries reports whether the expansion of formula d expands formula c
// itself in every term, now and at each step until d is released: c is d,
// a conjunct of d, or carried by the right side of a release.
func (b *builder) carries(d, c int32) bool {
	if d == c {
		return true
	}
	n := b.nodes[d]
	switch n.op {
	case And:
		return b.carries(n.l, c) || b.carries(n.r, c)
	case Release:
		return b.carries(n.r, c)
	}
	return false
}

// implies reports whether formula d implies formula c by syntactic rules
// (Somenzi and Bloem's, extended to R): sound, not complete.
func (b *builder) implies(d, c int32) bool {
	if d == c || c == b.tru || d == b.fls {
		return true
	}
	k := [2]int32{d, c}
	if r, ok := b.imp[k]; ok {
		return r
	}
	D, C := b.nodes[d], b.nodes[c]
	var r bool
	switch {
	case C.op == And:
		r = b.implies(d, C.l) && b.implies(d, C.r)
	case D.op == Or:
		r = b.implies(D.l, c) && b.implies(D.r, c)
	default:
		r = D.op == And && (b.implies(D.l, c) || b.implies(D.r, c)) ||
			C.op == Or && (b.implies(d, C.l) || b.implies(d, C.r)) ||
			// b ⇒ a U b; x U y ⇒ a U b when x ⇒ a and y ⇒ b
			C.op == Until && (b.implies(d, C.r) || D.op == Until && b.implies(D.l, C.l) && b.implies(D.r, C.r)) ||
			// x R y ⇒ y; x R y ⇒ a R b when x ⇒ a and y ⇒ b
			D.op == Release && (b.implies(D.r, c) || C.op == Release && b.implies(D.l, C.l) && b.implies(D.r, C.r)) ||
			// a ∧ b ⇒ a R b
			C.op == Release && b.implies(d, C.l) && b.implies(d, C.r) ||
			// x U y ⇒ x ∨ y
			D.op == Until && b.implies(D.l, c) && b.implies(D.r, c) ||
			D.op == Next && C.op == Next && b.implies(D.l, C.l) ||
			D.op == Atom && C.op == Atom && D.atom == C.atom ||
			D.op == Not && C.op == Not && D.atom == C.atom
	}
	b.imp[k] = r
	return r
}

// expandSet is the next-state form of the conjunction of a set.
func (b *builder) expandSet(set []int32) []term {
	ts := []term{{}}
	for _, i := range set {
		ts = b.product(ts, b.expand(i))
		if b.err != nil {
			return nil
		}
	}
	return ts
}

// expand is the next-state form of formula i, memoized.
func (b *builder) expand(i int32) []term {
	if ts, ok := b.exp[i]; ok {
		return ts
	}
	n := b.nodes[i]
	var ts []term
	switch n.op {
	case True:
		ts = []term{{}}
	case False:
	case Atom:
		ts = []term{{pos: 1 << uint(n.atom)}}
	case Not:
		ts = []term{{neg: 1 << uint(n.atom)}}
	case And:
		ts = b.product(b.expand(n.l), b.expand(n.r))
	case Or:
		ts = b.union(b.expand(n.l), b.expand(n.r))
	case Next:
		next := b.conjuncts(nil, n.l)
		if !slices.Equal(next, []int32{b.fls}) {
			ts = []term{{next: next}}
		}
	case Until: // b, or a ∧ X(a U b) with a promise
		acc, ok := b.accOf[i]
		if !ok {
			acc = len(b.accOf)
			b.accOf[i] = acc
		}
		var prom uint64
		if acc < 64 {
			prom = 1 << uint(acc)
		}
		ts = b.union(b.expand(n.r), b.product(b.expand(n.l), []term{{next: []int32{i}, prom: prom}}))
	case Release: // a ∧ b, or b ∧ X(a R b)
		var now []term
		if n.l != b.fls {
			now = b.product(b.expand(n.l), b.expand(n.r))
		}
		// X(a R b) first, conjunct by conjunct of b, so that the next
		// states drop at once what a R b implies (in [] (<> p ∧ <> q),
		// the <> p and <> q postponed) and the terms stay few
		later := []term{{next: []int32{i}}}
		var each func(c int32)
		each = func(c int32) {
			if m := b.nodes[c]; m.op == And {
				each(m.l)
				each(m.r)
				return
			}
			later = b.product(later, b.expand(c))
		}
		each(n.r)
		ts = b.union(now, later)
	}
	if b.err != nil {
		return nil
	}
	b.exp[i] = ts
	return ts
}

// product is the next-state form of the conjunction of two.
func (b *builder) product(xs, ys []term) []term {
	if b.charge(len(xs) * len(ys)) {
		return nil
	}
	var out []term
	for _, x := range xs {
		for _, y := range ys {
			pos, neg := x.pos|y.pos, x.neg|y.neg
			if pos&neg != 0 {
				continue
			}
			next := x.next
			if len(y.next) > 0 {
				next = b.reduce(mergeSets(x.next, y.next))
			}
			if slices.Equal(next, []int32{b.fls}) {
				continue
			}
			out = append(out, term{pos: pos, neg: neg, prom: x.prom | y.prom, next: next})
		}
	}
	return b.prune(out)
}

// union is the next-state form of the disjunction of two.
func (b *builder) union(xs, ys []term) []term {
	if b.charge(len(xs) + len(ys)) {
		return nil
	}
	return b.prune(append(slices.Clip(xs), ys...))
}

// prune drops terms dominated by another: one with a weaker label, a subset
// of the promises and a subset of the next state's conjuncts (so a weaker
// next state) accepts at least what they accept. It also drops a term
// covered by others with its next state and weaker labels whose promises
// have in common only promises it makes too: a run can take those in turn
// instead and miss no acceptance set (Automaton.Simplify's rule for
// parallel edges). Pruning is an
// optimization: on long lists, where comparing every pair costs too much,
// only terms with the same next state are compared.
func (b *builder) prune(ts []term) []term {
	if len(ts) < 2 {
		return ts
	}
	if len(ts) <= 64 {
		return b.pruneAll(ts)
	}
	groups := map[string][]term{}
	var keys []string
	for _, t := range ts {
		k := setKey(t.next)
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], t)
	}
	if len(keys) == 1 {
		return b.pruneAll(ts)
	}
	out := ts[:0:0]
	for _, k := range keys {
		out = append(out, b.pruneAll(groups[k])...)
	}
	return out
}

// pruneAll compares every pair of terms.
func (b *builder) pruneAll(ts []term) []term {
	drop := make([]bool, len(ts))
	n := 0
	for i, t := range ts {
		if b.charge(0) {
			return nil
		}
		// proms: the promises all terms with t's next and weaker labels share
		proms, weaker := ^uint64(0), false
		for j, u := range ts {
			if i == j || drop[j] || u.pos&t.pos != u.pos || u.neg&t.neg != u.neg {
				continue
			}
			if u.prom&t.prom == u.prom && subset(u.next, t.next) {
				drop[i] = true
				break
			}
			if slices.Equal(u.next, t.next) {
				proms &= u.prom
				weaker = true
			}
		}
		if !drop[i] && weaker && proms&t.prom == proms {
			// those terms can be taken in turn instead of t
			drop[i] = true
		}
		if drop[i] {
			n++
		}
	}
	if n == 0 {
		return ts
	}
	out := make([]term, 0, len(ts)-n)
	for i, t := range ts {
		if !drop[i] {
			out = append(out, t)
		}
	}
	return out
}

// mergeSets is the union of two sorted sets.
func mergeSets(x, y []int32) []int32 {
	out := make([]int32, 0, len(x)+len(y))
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		switch {
		case x[i] < y[j]:
			out = append(out, x[i])
			i++
		case x[i] > y[j]:
			out = append(out, y[j])
			j++
		default:
			out = append(out, x[i])
			i++
			j++
		}
	}
	out = append(out, x[i:]...)
	return append(out, y[j:]...)
}

// subset reports whether sorted set x is a subset of sorted set y.
func subset(x, y []int32) bool {
	j := 0
	for _, v := range x {
		for j < len(y) && y[j] < v {
			j++
		}
		if j == len(y) || y[j] != v {
			return false
		}
		j++
	}
	return true
}
