package embedded

import (
	"cmp"
	"slices"

	"birch/internal/smt"
	"birch/internal/smt/lia"
	"birch/internal/smt/sat"
)

// Arrays are decided by reduction to the other theories. Every array term
// A and index term j the active assertions mention get an element A[j]: a
// fresh integer (or, for (Array Int Bool), a fresh SAT variable), and a
// select is its element. For the array terms, index terms and array
// equalities of the active assertions (and assumptions), the lemmas below
// over the index set I make the reduction exact:
//
//   - base arrays (declared constants) are functions: j = k → A[j] = A[k]
//     for j, k in I (Ackermann);
//   - S = store(A, i, v): i = j → S[j] = v and i ≠ j → S[j] = A[j] for
//     every j in I (read over write);
//   - T = ite(c, A, B): c → T[j] = A[j] and ¬c → T[j] = B[j];
//   - a constant array K(v) needs no lemma: K[j] is v;
//   - an equality e of arrays A = B: e → A[j] = B[j] for every j in I, and
//     ¬e → A[w] ≠ B[w] for a fresh witness index w of that equality, which
//     belongs to I (extensionality);
//   - when a constant array is active, a fresh index ω above every other
//     index of I (ω - j >= 1) stands for all the indices I does not name.
//
// This is complete: from a model of the reduced problem, each base array
// maps the value of each j in I to A[j] and every other index to A[ω]
// (or to the default of its element sort when no constant array is
// active, as nothing then constrains those indices); every store,
// ite, constant array and equality then holds everywhere. The lemmas are
// valid and the witnesses and ω are fresh, so they are kept for the
// solver's lifetime; only those of the active terms are relevant to a
// check, which keeps what earlier queries left behind out of the search.
//
// The instances are instantiated lazily, but for the ω ones: a check
// starts with none, and each Sat answer is compared, instance by instance,
// with the values its assignment gives the indices and elements (which
// are relevant, so that these are the values of the model). The instances
// it breaks are added and the search goes on; when it breaks none, every
// instance holds in the model, which is all the completeness argument
// needs. Most checks need few instances. When the integer problem of a
// candidate assignment is left open (see arith), the solver adds all the
// instances at once and searches again, because the missing ones may rule
// out what made that problem hard.
//
// Uninterpreted sorts are mapped to the integers (any model maps its
// finitely many named elements into them injectively, and the integers are
// a domain), and models map integers back to abstract values.

type arrKind uint8

const (
	arrBase arrKind = iota
	arrStore
	arrConst
	arrIte
)

type arrTerm struct {
	t        *smt.Term
	id       int32
	kind     arrKind
	a, b     *arrTerm // store: the array stored into (a); ite: the branches
	i        *idxTerm // store: the index
	v        elemVal  // store: the value; constant array: the value everywhere
	c        sat.Lit  // ite: the condition
	boolElem bool

	// for the last check
	rd        []*idxTerm // the indices at which the elements are constrained
	om        *idxTerm   // ω of the component, or nil
	compFlags uint8
}

// An index term of the index set; t is nil for witnesses and ω.
type idxTerm struct {
	t    *smt.Term
	sort *smt.Sort
	id   int32
	l    *lin
}

// An equality of two arrays: its literal and witness.
type arrEq struct {
	id   int32
	a, b *arrTerm
	lit  sat.Lit
	w    *idxTerm
}

// elemVal is an element of an array: a linear form for Int and
// uninterpreted elements, a literal for Bool ones.
type elemVal struct {
	l   *lin
	lit sat.Lit
}

// A read is a select of an array at an index.
type read struct {
	a *arrTerm
	j *idxTerm
}

// arrUse lists the array terms, index terms and array equalities of an
// asserted formula.
type arrUse struct {
	reads []read
	arrs  []*arrTerm
	idxs  []*idxTerm
	eqs   []*arrEq
}

type lemmaKey struct {
	kind    uint8
	a, j, k int32
}

const (
	lemCong uint8 = iota
	lemStore
	lemIte
	lemEq
	lemWitness
	lemOmega
	lemUF
)

// arrayState is the reduction's memory; it lives in the Solver.
type arrayState struct {
	arrs    map[*smt.Term]*arrTerm
	arrList []*arrTerm
	idxs    map[*smt.Term]*idxTerm
	idxList []*idxTerm
	eqs     map[[2]int32]*arrEq
	eqList  []*arrEq
	elems   map[[2]int32]elemVal
	idxEqs  map[[2]int32]sat.Lit
	lemmas  map[lemmaKey][]sat.Var
	uses    map[*smt.Term]*arrUse
	omega   map[*smt.Sort]*idxTerm // per index sort

	// the active sets of the last check
	gen              uint32
	arrMark, idxMark []uint32
	eqMark           []uint32
	walkMark         []uint32 // terms seen by use, by term ID
	walkGen          uint32
	actReads         []read
	uf               []int32 // union-find of the arrays, by id
	actArrs          []*arrTerm
	actIdxs          []*idxTerm
	actEqs           []*arrEq
	roots            []sat.Var           // lemma variables to make relevant
	rooted           map[lemmaKey]uint32 // gen when the lemma joined the check
	omegas           []*idxTerm          // the active ω
}

func intLike(s *smt.Sort) bool { return s.IsInt() || s.Kind() == smt.KindUninterpreted }

// arrayTerm registers the array term t (and its subterms).
func (s *Solver) arrayTerm(t *smt.Term) (*arrTerm, bool) {
	as := &s.ar
	if a, ok := as.arrs[t]; ok {
		return a, true
	}
	srt := t.Sort()
	if !intLike(srt.Index()) || !(intLike(srt.Elem()) || srt.Elem().IsBool()) {
		s.unsupportedTerm(t, "unsupported array sort "+srt.String())
		return nil, false
	}
	a := &arrTerm{t: t, boolElem: srt.Elem().IsBool()}
	var ok bool
	switch t.Op() {
	case smt.OpVar:
		a.kind = arrBase
	case smt.OpStore:
		a.kind = arrStore
		if a.a, ok = s.arrayTerm(t.Arg(0)); !ok {
			return nil, false
		}
		if a.i, ok = s.indexTerm(t.Arg(1)); !ok {
			return nil, false
		}
		if a.v, ok = s.elemOf(t.Arg(2)); !ok {
			return nil, false
		}
	case smt.OpConstArray:
		a.kind = arrConst
		if a.v, ok = s.elemOf(t.Arg(0)); !ok {
			return nil, false
		}
	case smt.OpIte:
		a.kind = arrIte
		if a.c, ok = s.encode(t.Arg(0)); !ok {
			return nil, false
		}
		if a.a, ok = s.arrayTerm(t.Arg(1)); !ok {
			return nil, false
		}
		if a.b, ok = s.arrayTerm(t.Arg(2)); !ok {
			return nil, false
		}
	default:
		s.unsupportedTerm(t, "unsupported array term")
		return nil, false
	}
	if as.arrs == nil {
		as.arrs = map[*smt.Term]*arrTerm{}
		as.idxs = map[*smt.Term]*idxTerm{}
		as.eqs = map[[2]int32]*arrEq{}
		as.elems = map[[2]int32]elemVal{}
		as.idxEqs = map[[2]int32]sat.Lit{}
	}
	a.id = int32(len(as.arrList))
	as.arrList = append(as.arrList, a)
	as.arrs[t] = a
	return a, true
}

// elemOf encodes a value stored in an array.
func (s *Solver) elemOf(t *smt.Term) (elemVal, bool) {
	if t.IsBool() {
		l, ok := s.encode(t)
		return elemVal{lit: l}, ok
	}
	l, ok := s.linear(t)
	return elemVal{l: l}, ok
}

func (s *Solver) indexTerm(t *smt.Term) (*idxTerm, bool) {
	as := &s.ar
	if j, ok := as.idxs[t]; ok {
		return j, true
	}
	l, ok := s.linear(t)
	if !ok {
		return nil, false
	}
	j := s.newIndex(t, t.Sort(), l)
	as.idxs[t] = j
	return j, true
}

func (s *Solver) newIndex(t *smt.Term, srt *smt.Sort, l *lin) *idxTerm {
	as := &s.ar
	j := &idxTerm{t: t, sort: srt, id: int32(len(as.idxList)), l: l}
	as.idxList = append(as.idxList, j)
	return j
}

// sel encodes (select a i).
func (s *Solver) sel(t *smt.Term) (elemVal, bool) {
	a, ok := s.arrayTerm(t.Arg(0))
	if !ok {
		return elemVal{}, false
	}
	j, ok := s.indexTerm(t.Arg(1))
	if !ok {
		return elemVal{}, false
	}
	return s.elem(a, j), true
}

// arrayEq returns the literal of the array equality a = b.
func (s *Solver) arrayEq(a, b *smt.Term) (sat.Lit, bool) {
	x, ok := s.arrayTerm(a)
	if !ok {
		return 0, false
	}
	y, ok := s.arrayTerm(b)
	if !ok {
		return 0, false
	}
	if x == y {
		return s.tru, true
	}
	if y.id < x.id {
		x, y = y, x
	}
	as := &s.ar
	key := [2]int32{x.id, y.id}
	if e, ok := as.eqs[key]; ok {
		return e.lit, true
	}
	w := s.newIndex(nil, a.Sort().Index(), s.freshInt())
	e := &arrEq{id: int32(len(as.eqList)), a: x, b: y, lit: s.newVar(), w: w}
	as.eqs[key] = e
	as.eqList = append(as.eqList, e)
	return e.lit, true
}

// elem returns the element a[j], creating it when new.
func (s *Solver) elem(a *arrTerm, j *idxTerm) elemVal {
	key := [2]int32{a.id, j.id}
	if e, ok := s.ar.elems[key]; ok {
		return e
	}
	var e elemVal
	same := 0 // store: 1 when a writes at index j, -1 when it cannot
	if a.kind == arrStore {
		same = sameIndex(a.i, j)
	}
	switch {
	case a.kind == arrConst:
		e = a.v
	case same > 0: // the index written: the value stored
		e = a.v
	case same < 0: // another index (constants apart): read through
		e = s.elem(a.a, j)
	case a.boolElem:
		e.lit = s.newVar()
	default:
		e.l = s.freshInt()
	}
	s.ar.elems[key] = e
	return e
}

// sameIndex tells whether the indices j and k are equal whatever the
// variables are (1), different whatever they are (-1), or may be either
// (0): they are, when their linear forms differ by a constant.
func sameIndex(j, k *idxTerm) int {
	if j == k {
		return 1
	}
	a, b := j.l.ts, k.l.ts
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if a[i].V != b[i].V || !a[i].C.Equal(b[i].C) {
			return 0
		}
	}
	if j.l.c.Equal(k.l.c) {
		return 1
	}
	return -1
}

func (s *Solver) elemEq(a *arrTerm, x, y elemVal) sat.Lit {
	if a.boolElem {
		return s.iff(x.lit, y.lit)
	}
	return s.eqZero(addLin(x.l, y.l, lia.Int(-1)))
}

// idxEq returns the literal of j = k.
func (s *Solver) idxEq(j, k *idxTerm) sat.Lit {
	if j == k {
		return s.tru
	}
	if k.id < j.id {
		j, k = k, j
	}
	key := [2]int32{j.id, k.id}
	if l, ok := s.ar.idxEqs[key]; ok {
		return l
	}
	l := s.eqZero(addLin(j.l, k.l, lia.Int(-1)))
	s.ar.idxEqs[key] = l
	return l
}

// use returns the array terms, indices and array equalities in the formula
// t, or nil when it has none.
func (s *Solver) use(t *smt.Term) *arrUse {
	as := &s.ar
	if u, ok := as.uses[t]; ok {
		return u
	}
	u := &arrUse{}
	if n := s.tm.NumTerms(); len(as.walkMark) < n {
		// double, so that a growing term manager costs amortized O(1)
		m := make([]uint32, max(n, 2*len(as.walkMark)))
		copy(m, as.walkMark)
		as.walkMark = m
	}
	as.walkGen++
	gen := as.walkGen
	var walk func(t *smt.Term)
	walk = func(t *smt.Term) {
		if as.walkMark[t.ID()] == gen {
			return
		}
		as.walkMark[t.ID()] = gen
		switch t.Op() {
		case smt.OpSelect, smt.OpStore:
			if j := as.idxs[t.Arg(1)]; j != nil {
				u.idxs = append(u.idxs, j)
				if a := as.arrs[t.Arg(0)]; a != nil && t.Op() == smt.OpSelect {
					u.reads = append(u.reads, read{a, j})
				}
			}
		case smt.OpEq, smt.OpDistinct:
			if t.Arg(0).IsArray() {
				args := t.Args()
				for i := range args {
					for k := i + 1; k < len(args); k++ {
						x, y := as.arrs[args[i]], as.arrs[args[k]]
						if x == nil || y == nil {
							continue
						}
						if y.id < x.id {
							x, y = y, x
						}
						if e := as.eqs[[2]int32{x.id, y.id}]; e != nil {
							u.eqs = append(u.eqs, e)
						}
					}
				}
			}
		}
		if t.IsArray() {
			if a := as.arrs[t]; a != nil {
				u.arrs = append(u.arrs, a)
			}
		}
		for _, a := range t.Args() {
			walk(a)
		}
	}
	walk(t)
	if len(u.arrs) == 0 {
		u = nil
	}
	if as.uses == nil {
		as.uses = map[*smt.Term]*arrUse{}
	}
	as.uses[t] = u
	return u
}

// instantiate gathers the array terms, indices and equalities of the
// active assertions and of the assumption terms, and makes sure the
// lemmas among them exist; their variables go to as.roots for the
// relevance marking.
func (s *Solver) instantiate(lits []*smt.Term) {
	as := &s.ar
	as.roots = as.roots[:0]
	as.actArrs, as.actIdxs, as.actEqs = as.actArrs[:0], as.actIdxs[:0], as.actEqs[:0]
	as.actReads = as.actReads[:0]
	as.omegas = as.omegas[:0]
	if len(as.arrList) == 0 {
		return
	}
	as.gen++
	gen := as.gen
	for len(as.arrMark) < len(as.arrList) {
		as.arrMark = append(as.arrMark, 0)
	}
	for len(as.eqMark) < len(as.eqList) {
		as.eqMark = append(as.eqMark, 0)
	}
	add := func(u *arrUse) {
		if u == nil {
			return
		}
		for _, a := range u.arrs {
			if as.arrMark[a.id] != gen {
				as.arrMark[a.id] = gen
				as.actArrs = append(as.actArrs, a)
			}
		}
		for _, j := range u.idxs {
			s.activateIdx(j)
		}
		as.actReads = append(as.actReads, u.reads...)
		for _, e := range u.eqs {
			if as.eqMark[e.id] != gen {
				as.eqMark[e.id] = gen
				as.actEqs = append(as.actEqs, e)
				s.activateIdx(e.w)
			}
		}
	}
	for _, ts := range s.terms[:len(s.scopes)+1] {
		for _, t := range ts {
			add(s.use(t))
		}
	}
	for _, t := range lits {
		add(s.use(t))
	}
	if len(as.actArrs) == 0 {
		return
	}
	s.arrayLemmasAll()
}

func (s *Solver) activateIdx(j *idxTerm) {
	as := &s.ar
	for int(j.id) >= len(as.idxMark) {
		as.idxMark = append(as.idxMark, 0)
	}
	if as.idxMark[j.id] != as.gen {
		as.idxMark[j.id] = as.gen
		as.actIdxs = append(as.actIdxs, j)
	}
}

// arrayLemmasAll instantiates the lemmas of the active array terms. The
// arrays fall into components, joined by stores (an array and the one it
// stores into), ites (with their branches) and equalities. A component
// without equalities needs its elements only at the indices read from it:
// the reads of a store or ite are read from the arrays below it too, and
// a model that gives the base arrays their elements at their reads (and
// anything elsewhere) satisfies every select. A component with
// equalities needs, for extensionality, every array at every index of the
// component (its reads and store indices, the witnesses of its
// equalities, and ω when it has a constant array).
func (s *Solver) arrayLemmasAll() {
	as := &s.ar
	gen := as.gen
	for len(as.uf) < len(as.arrList) {
		as.uf = append(as.uf, 0)
	}
	for _, a := range as.actArrs {
		as.uf[a.id] = a.id
		a.rd = a.rd[:0]
		a.om = nil
		a.compFlags = 0
	}
	find := func(x int32) int32 {
		for as.uf[x] != x {
			as.uf[x] = as.uf[as.uf[x]]
			x = as.uf[x]
		}
		return x
	}
	union := func(a, b *arrTerm) {
		x, y := find(a.id), find(b.id)
		if x != y {
			as.uf[x] = y
		}
	}
	for _, a := range as.actArrs {
		switch a.kind {
		case arrStore:
			union(a, a.a)
		case arrIte:
			union(a, a.a)
			union(a, a.b)
		}
	}
	for _, e := range as.actEqs {
		union(e.a, e.b)
	}
	const hasEq, hasConst = 1, 2
	root := func(a *arrTerm) *arrTerm { return as.arrList[find(a.id)] }
	for _, e := range as.actEqs {
		root(e.a).compFlags |= hasEq
	}
	for _, a := range as.actArrs {
		if a.kind == arrConst {
			root(a).compFlags |= hasConst
		}
	}
	for _, r := range as.actReads {
		r.a.addRead(r.j)
	}
	// components with equalities: one index set each
	var sets map[*arrTerm][]*idxTerm
	for _, a := range as.actArrs {
		r := root(a)
		if r.compFlags&hasEq == 0 {
			continue
		}
		if sets == nil {
			sets = map[*arrTerm][]*idxTerm{}
		}
		set := sets[r]
		for _, j := range a.rd {
			set = addIdx(set, j)
		}
		if a.kind == arrStore {
			set = addIdx(set, a.i)
		}
		sets[r] = set
	}
	for _, e := range as.actEqs {
		r := root(e.a)
		sets[r] = addIdx(sets[r], e.w)
	}
	for r, set := range sets {
		if r.compFlags&hasConst == 0 {
			continue
		}
		srt := r.t.Sort().Index()
		if as.omega == nil {
			as.omega = map[*smt.Sort]*idxTerm{}
		}
		om := as.omega[srt]
		if om == nil {
			om = s.newIndex(nil, srt, s.freshInt())
			as.omega[srt] = om
		}
		if !slices.Contains(as.omegas, om) {
			as.omegas = append(as.omegas, om)
			s.activateIdx(om)
		}
		for _, j := range set {
			s.lemma(lemmaKey{lemOmega, 0, j.id, 0}, func() [][]sat.Lit {
				// j - ω <= -1
				return [][]sat.Lit{{s.leq(addLin(j.l, om.l, lia.Int(-1)), lia.Int(-1))}}
			})
		}
		sets[r] = append(set, om)
		r.om = om
	}
	// components without: propagate the reads down, parents first (a
	// term's arguments are older than it)
	slices.SortFunc(as.actArrs, func(a, b *arrTerm) int { return cmp.Compare(b.t.ID(), a.t.ID()) })
	for _, a := range as.actArrs {
		r := root(a)
		if r.compFlags&hasEq != 0 {
			a.rd = append(a.rd[:0], sets[r]...)
			a.om = r.om
			continue
		}
		switch a.kind {
		case arrStore:
			for _, j := range a.rd {
				if j != a.i {
					a.a.addRead(j)
				}
			}
		case arrIte:
			for _, j := range a.rd {
				a.a.addRead(j)
				a.b.addRead(j)
			}
		}
	}
	_ = gen
	// The elements the lemmas and the model need; the lemmas themselves
	// are instantiated lazily, by arrayLemmasViolated after a Sat answer.
	for _, a := range as.actArrs {
		for _, j := range a.rd {
			s.elem(a, j)
			switch a.kind {
			case arrStore:
				s.elem(a.a, j)
			case arrIte:
				s.elem(a.a, j)
				s.elem(a.b, j)
			}
		}
	}
	for _, e := range as.actEqs {
		for _, j := range e.a.rd {
			s.elem(e.a, j)
			s.elem(e.b, j)
		}
		s.elem(e.a, e.w)
		s.elem(e.b, e.w)
	}
}

// arrayRelevant marks, for the relevance of a check, what the lazy array
// lemmas compare: the indices, the elements, the values stored, the
// conditions of ites and the literals of equalities, so that their values
// are those the model gives.
func (s *Solver) arrayRelevant(gen uint32, st []sat.Var) []sat.Var {
	as := &s.ar
	markElem := func(a *arrTerm, e elemVal) {
		if a.boolElem {
			st = append(st, e.lit.Var())
			return
		}
		for _, t := range e.l.ts {
			st = s.markLia(t.V, gen, st)
		}
	}
	for _, j := range as.actIdxs {
		for _, t := range j.l.ts {
			st = s.markLia(t.V, gen, st)
		}
	}
	for _, a := range as.actArrs {
		switch a.kind {
		case arrStore, arrConst:
			markElem(a, a.v)
		case arrIte:
			st = append(st, a.c.Var())
		}
		for _, j := range a.rd {
			markElem(a, s.elem(a, j))
		}
	}
	for _, e := range as.actEqs {
		st = append(st, e.lit.Var())
		markElem(e.a, s.elem(e.a, e.w))
		markElem(e.b, s.elem(e.b, e.w))
		for _, j := range e.a.rd {
			markElem(e.b, s.elem(e.b, j))
		}
	}
	return st
}

// arrayLemmasViolated checks the lemma instances of the active arrays
// against the assignment of the last Sat answer (the values the model
// gives) and instantiates those it breaks, as congruenceLemmas does for
// functions; when none is broken the model the solver builds satisfies
// every instance, which is what completeness needs. stuck is set when a
// broken instance was part of the check already.
func (s *Solver) arrayLemmasViolated() (added int, stuck bool) {
	as := &s.ar
	if len(as.actArrs) == 0 {
		return 0, false
	}
	if as.rooted == nil {
		as.rooted = map[lemmaKey]uint32{}
	}
	idx := func(j *idxTerm) lia.Q { return s.linValueFloor(j.l) }
	val := func(a *arrTerm, e elemVal) lia.Q {
		if a.boolElem {
			return boolQ(s.sat.ModelLit(e.lit))
		}
		return s.linValueFloor(e.l)
	}
	el := func(a *arrTerm, j *idxTerm) lia.Q { return val(a, s.elem(a, j)) }
	add := func(key lemmaKey, mk func() [][]sat.Lit) {
		if as.rooted[key] == as.gen {
			stuck = true
			return
		}
		as.rooted[key] = as.gen
		s.lemma(key, mk)
		added++
	}
	for _, a := range as.actArrs {
		for i, j := range a.rd {
			switch a.kind {
			case arrBase:
				for _, k := range a.rd[:i] {
					if idx(j).Equal(idx(k)) && !el(a, j).Equal(el(a, k)) {
						x, y := j, k
						if y.id < x.id {
							x, y = y, x
						}
						add(lemmaKey{lemCong, a.id, x.id, y.id}, s.congLemma(a, j, k))
					}
				}
			case arrStore:
				want := el(a.a, j)
				if idx(a.i).Equal(idx(j)) {
					want = val(a, a.v)
				}
				if !el(a, j).Equal(want) {
					add(lemmaKey{lemStore, a.id, j.id, 0}, s.storeLemma(a, j))
				}
			case arrIte:
				b := a.b
				if s.sat.ModelLit(a.c) {
					b = a.a
				}
				if !el(a, j).Equal(el(b, j)) {
					add(lemmaKey{lemIte, a.id, j.id, 0}, s.iteLemma(a, j))
				}
			}
		}
	}
	for _, e := range as.actEqs {
		if s.sat.ModelLit(e.lit) {
			for _, j := range e.a.rd {
				if !el(e.a, j).Equal(el(e.b, j)) {
					add(lemmaKey{lemEq, e.id, j.id, 0}, func() [][]sat.Lit {
						return [][]sat.Lit{{e.lit.Not(), s.elemEq(e.a, s.elem(e.a, j), s.elem(e.b, j))}}
					})
				}
			}
		} else if el(e.a, e.w).Equal(el(e.b, e.w)) {
			add(lemmaKey{lemWitness, e.id, 0, 0}, func() [][]sat.Lit {
				return [][]sat.Lit{{e.lit, s.elemEq(e.a, s.elem(e.a, e.w), s.elem(e.b, e.w)).Not()}}
			})
		}
	}
	return added, stuck
}

func addIdx(set []*idxTerm, j *idxTerm) []*idxTerm {
	if slices.Contains(set, j) {
		return set
	}
	return append(set, j)
}

func (a *arrTerm) addRead(j *idxTerm) { a.rd = addIdx(a.rd, j) }

// arrayLemmasEager instantiates every lemma instance of the active
// arrays at once, as the lazy check would in the worst case. The solver
// falls back to it when the integer problem of a candidate assignment is
// left open: the instances the lazy check has not made yet may rule that
// assignment out (they constrain elements that are free without them),
// and with all of them the search meets easier integer problems.
func (s *Solver) arrayLemmasEager() {
	as := &s.ar
	if as.rooted == nil {
		as.rooted = map[lemmaKey]uint32{}
	}
	add := func(key lemmaKey, mk func() [][]sat.Lit) {
		if as.rooted[key] != as.gen {
			as.rooted[key] = as.gen
			s.lemma(key, mk)
		}
	}
	for _, a := range as.actArrs {
		for i, j := range a.rd {
			switch a.kind {
			case arrBase:
				for _, k := range a.rd[:i] {
					x, y := j, k
					if y.id < x.id {
						x, y = y, x
					}
					add(lemmaKey{lemCong, a.id, x.id, y.id}, s.congLemma(a, j, k))
				}
			case arrStore:
				if sameIndex(a.i, j) == 0 {
					add(lemmaKey{lemStore, a.id, j.id, 0}, s.storeLemma(a, j))
				}
			case arrIte:
				add(lemmaKey{lemIte, a.id, j.id, 0}, s.iteLemma(a, j))
			}
		}
	}
	for _, e := range as.actEqs {
		for _, j := range e.a.rd {
			add(lemmaKey{lemEq, e.id, j.id, 0}, func() [][]sat.Lit {
				return [][]sat.Lit{{e.lit.Not(), s.elemEq(e.a, s.elem(e.a, j), s.elem(e.b, j))}}
			})
		}
		add(lemmaKey{lemWitness, e.id, 0, 0}, func() [][]sat.Lit {
			return [][]sat.Lit{{e.lit, s.elemEq(e.a, s.elem(e.a, e.w), s.elem(e.b, e.w)).Not()}}
		})
	}
}

// congLemma makes the congruence lemma j = k → a[j] = a[k] of base array a.
func (s *Solver) congLemma(a *arrTerm, j, k *idxTerm) func() [][]sat.Lit {
	return func() [][]sat.Lit {
		return [][]sat.Lit{{s.idxEq(j, k).Not(), s.elemEq(a, s.elem(a, j), s.elem(a, k))}}
	}
}

// storeLemma makes the read-over-write lemmas of store a = store(b, i, v)
// at index j: i = j → a[j] = v, i ≠ j → a[j] = b[j].
func (s *Solver) storeLemma(a *arrTerm, j *idxTerm) func() [][]sat.Lit {
	return func() [][]sat.Lit {
		eq := s.idxEq(a.i, j)
		aj := s.elem(a, j)
		return [][]sat.Lit{
			{eq.Not(), s.elemEq(a, aj, a.v)},
			{eq, s.elemEq(a, aj, s.elem(a.a, j))},
		}
	}
}

// iteLemma makes the lemmas of a = ite(c, b1, b2) at index j.
func (s *Solver) iteLemma(a *arrTerm, j *idxTerm) func() [][]sat.Lit {
	return func() [][]sat.Lit {
		aj := s.elem(a, j)
		return [][]sat.Lit{
			{a.c.Not(), s.elemEq(a, aj, s.elem(a.a, j))},
			{a.c, s.elemEq(a, aj, s.elem(a.b, j))},
		}
	}
}

// lemma adds the clauses mk returns under key unless they exist, and adds
// their variables to the roots of the check.
func (s *Solver) lemma(key lemmaKey, mk func() [][]sat.Lit) {
	as := &s.ar
	vs, ok := as.lemmas[key]
	if !ok {
		if as.lemmas == nil {
			as.lemmas = map[lemmaKey][]sat.Var{}
		}
		for _, c := range mk() {
			s.sat.AddClause(c...)
			for _, l := range c {
				vs = append(vs, l.Var())
			}
		}
		as.lemmas[key] = vs
	}
	as.roots = append(as.roots, vs...)
}
