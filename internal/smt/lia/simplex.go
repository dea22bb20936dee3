package lia

import "slices"

// Var is a variable of a Simplex: a problem variable made by NewVar or a
// slack variable made by AddRow.
type Var int32

// Result is the answer of Check and CheckInt.
type Result int8

const (
	Unknown Result = iota // CheckInt ran out of budget
	Sat
	Unsat
)

func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Term is a coefficient times a variable.
type Term struct {
	V Var
	C Q
}

// branchID marks the bounds that branch and bound asserts, boxID those of
// its boxes; they never appear in explanations.
const (
	branchID int32 = -1
	boxID    int32 = -2
	cutID    int32 = -3 // a cut of CheckInt; its derivation is in acc
)

type bound struct {
	val Q
	id  int32
	set bool
}

// An entry of a row: coefficient c of v; the row is col[v][ci] in v's
// column list.
type entry struct {
	v  Var
	c  Q
	ci int32
}

// A colEnt lists a row in which a variable occurs, and where: the entry is
// rows[r].es[ei].
type colEnt struct {
	r, ei int32
}

// A row defines its basic variable as a combination of nonbasic ones.
type row struct {
	basic Var
	es    []entry
}

type undo struct {
	v     Var
	upper bool
	old   bound
}

// Simplex decides conjunctions of bounds on linear combinations of
// variables, over the rationals (Check) or the integers (CheckInt). Its
// zero value is an empty problem.
type Simplex struct {
	val    []Q
	lo, hi []bound
	isInt  []bool
	def    [][]Term   // the defining sum of a slack variable, nil for a problem variable
	rowOf  []int32    // the row of a basic variable, -1 for a nonbasic one
	col    [][]colEnt // rows in which a nonbasic variable occurs
	pos    []int32    // scratch: position of a variable in the row being merged
	rows   []row
	spare  [][]entry // entry slices of dropped rows, for reuse
	inTab  []uint32  // slack variables in the tableau have inTab == tabGen
	tabGen uint32    // 0 until the first Restrict
	undo   []undo

	// Every basic variable that may violate a bound is in dirty; the
	// others are within their bounds.
	dirty   []Var
	inDirty []bool

	conflict []int32
	farkas   []Farkas // the proof of the last conflict of Check or an assert
	acc      []int32  // explanations gathered by branch and bound
	boxVars  []Var    // scratch of CheckInt
	boxMark  []bool
	boxUsed  bool   // a conflict involved a box bound
	defSlab  []Term // memory for the definitions of slack variables
	cutRows  []Var  // slack variables of the cuts of the running CheckInt
	cutTerms []Term
	cutIDs   []int32

	// Stop, when set, is consulted now and then by CheckInt, which answers
	// Unknown once it returns true (a deadline passed, say).
	Stop func() bool

	// Proofs, when set, makes Check and the asserts record the Farkas
	// proof of each conflict (FarkasProof); off, conflicts cost nothing
	// more.
	Proofs bool

	// Pivots, Branches and Cuts count work over the Simplex's lifetime.
	Pivots, Branches, Cuts int64
}

// NumVars returns the number of variables, slack ones included.
func (s *Simplex) NumVars() int { return len(s.val) }

// NewVar adds a variable, unbounded, of value 0; isInt makes CheckInt
// require an integer value.
func (s *Simplex) NewVar(isInt bool) Var {
	v := Var(len(s.val))
	s.val = append(s.val, Q{})
	s.lo = append(s.lo, bound{})
	s.hi = append(s.hi, bound{})
	s.isInt = append(s.isInt, isInt)
	s.def = append(s.def, nil)
	s.rowOf = append(s.rowOf, -1)
	s.col = append(s.col, nil)
	s.pos = append(s.pos, -1)
	s.inDirty = append(s.inDirty, false)
	s.inTab = append(s.inTab, s.tabGen)
	return v
}

// Reserve makes room for n variables in all, so that adding them up to
// there does not grow the Simplex's tables step by step.
func (s *Simplex) Reserve(n int) {
	k := n - len(s.val)
	if k <= 0 {
		return
	}
	s.val = slices.Grow(s.val, k)
	s.lo = slices.Grow(s.lo, k)
	s.hi = slices.Grow(s.hi, k)
	s.isInt = slices.Grow(s.isInt, k)
	s.def = slices.Grow(s.def, k)
	s.rowOf = slices.Grow(s.rowOf, k)
	s.col = slices.Grow(s.col, k)
	s.pos = slices.Grow(s.pos, k)
	s.inDirty = slices.Grow(s.inDirty, k)
	s.inTab = slices.Grow(s.inTab, k)
}

func (s *Simplex) touch(b Var) {
	if !s.inDirty[b] {
		s.inDirty[b] = true
		s.dirty = append(s.dirty, b)
	}
}

// IsInt reports whether v must be an integer.
func (s *Simplex) IsInt(v Var) bool { return s.isInt[v] }

// AddRow adds a slack variable equal to the sum of terms and returns it.
// The slack variable is integer if every term has an integer variable and
// an integer coefficient. Rows stay for the Simplex's lifetime; only
// bounds are retracted by Backtrack.
func (s *Simplex) AddRow(terms []Term) Var {
	allInt := true
	for _, t := range terms {
		if !s.isInt[t.V] || !t.C.IsInt() {
			allInt = false
		}
	}
	x := s.NewVar(allInt)
	s.def[x] = s.allocDef(terms)
	r := int32(len(s.rows))
	s.rows = append(s.rows, row{basic: x})
	s.rowOf[x] = r
	for _, t := range terms {
		if t.C.IsZero() {
			continue
		}
		if br := s.rowOf[t.V]; br >= 0 {
			s.addScaled(r, t.C, s.rows[br].es, -1)
		} else if s.def[t.V] != nil && s.inTab[t.V] != s.tabGen {
			s.expand(r, t.V, t.C) // a slack variable Restrict left out
		} else {
			s.addScaled(r, t.C, []entry{{v: t.V, c: Q{n: 1, d: 1}}}, -1)
		}
	}
	var v Q
	for _, e := range s.rows[r].es {
		v = v.Add(e.c.Mul(s.val[e.v]))
	}
	s.val[x] = v
	return x
}

// AddDef adds a slack variable equal to the sum of terms, like AddRow, but
// leaves it out of the tableau until a Restrict keeps it: for a caller
// that restricts the tableau before every check, defining a variable then
// costs no pivoting work. Until then its value is meaningless and its
// bounds are recorded but not enforced.
func (s *Simplex) AddDef(terms []Term) Var {
	allInt := true
	for _, t := range terms {
		if !s.isInt[t.V] || !t.C.IsInt() {
			allInt = false
		}
	}
	x := s.NewVar(allInt)
	s.def[x] = s.allocDef(terms)
	s.inTab[x] = s.tabGen - 1
	return x
}

// allocDef returns a copy of terms (not nil, even empty), carved from a
// slab so that defining a variable does not allocate each time.
func (s *Simplex) allocDef(terms []Term) []Term {
	n := len(terms)
	if cap(s.defSlab)-len(s.defSlab) < n || s.defSlab == nil {
		s.defSlab = make([]Term, 0, max(256, n))
	}
	k := len(s.defSlab)
	s.defSlab = append(s.defSlab, terms...)
	return s.defSlab[k : k+n : k+n]
}

// addScaled adds c times the entries src (but the one of skip) to row r,
// keeping the column lists exact.
func (s *Simplex) addScaled(r int32, c Q, src []entry, skip Var) {
	es := s.rows[r].es
	for i, e := range es {
		s.pos[e.v] = int32(i)
	}
	zeros := false
	for _, e := range src {
		if e.v == skip {
			continue
		}
		if p := s.pos[e.v]; p >= 0 {
			es[p].c = es[p].c.Add(c.Mul(e.c))
			if es[p].c.IsZero() {
				zeros = true
			}
			continue
		}
		p := int32(len(es))
		s.pos[e.v] = p
		es = append(es, entry{e.v, c.Mul(e.c), int32(len(s.col[e.v]))})
		s.col[e.v] = append(s.col[e.v], colEnt{r, p})
	}
	if !zeros {
		for _, e := range es {
			s.pos[e.v] = -1
		}
		s.rows[r].es = es
		return
	}
	j := int32(0)
	for i, e := range es {
		s.pos[e.v] = -1
		if e.c.IsZero() {
			s.dropCol(e.v, e.ci)
			continue
		}
		if int32(i) != j {
			es[j] = e
			s.col[e.v][e.ci].ei = j
		}
		j++
	}
	s.rows[r].es = es[:j]
}

// dropCol removes entry ci of v's column list (the row it names is
// losing v).
func (s *Simplex) dropCol(v Var, ci int32) {
	c := s.col[v]
	last := c[len(c)-1]
	c[ci] = last
	s.col[v] = c[:len(c)-1]
	if int(ci) < len(c)-1 {
		s.rows[last.r].es[last.ei].ci = ci
	}
}

// coef returns the coefficient of v in row r.
func (s *Simplex) coef(r int32, v Var) Q {
	for _, e := range s.rows[r].es {
		if e.v == v {
			return e.c
		}
	}
	return Q{}
}

// Value returns the current value of v: after Check or CheckInt answered
// Sat, a solution.
func (s *Simplex) Value(v Var) Q { return s.val[v] }

// Lower and Upper return v's current bounds (ok false when unbounded).
func (s *Simplex) Lower(v Var) (Q, bool) { return s.lo[v].val, s.lo[v].set }

// Upper returns v's current upper bound.
func (s *Simplex) Upper(v Var) (Q, bool) { return s.hi[v].val, s.hi[v].set }

// Conflict returns, after an assert returned false or a check answered
// Unsat, the ids of asserted bounds that are infeasible together. The
// slice is owned by the Simplex until its next call.
func (s *Simplex) Conflict() []int32 { return s.conflict }

// recordProof records the Farkas proof of the infeasible row r, whose
// basic variable bv must increase (inc) or decrease and cannot.
func (s *Simplex) recordProof(r int32, bv Var, inc bool) {
	if inc {
		s.farkas = append(s.farkas, Farkas{V: bv, ID: s.lo[bv].id, C: Int(1), Bound: s.lo[bv].val})
	} else {
		s.farkas = append(s.farkas, Farkas{V: bv, Upper: true, ID: s.hi[bv].id, C: Int(1), Bound: s.hi[bv].val})
	}
	for _, e := range s.rows[r].es {
		c := e.c
		if c.Sign() < 0 {
			c = c.Neg()
		}
		if (e.c.Sign() > 0) == inc {
			s.farkas = append(s.farkas, Farkas{V: e.v, Upper: true, ID: s.hi[e.v].id, C: c, Bound: s.hi[e.v].val})
		} else {
			s.farkas = append(s.farkas, Farkas{V: e.v, ID: s.lo[e.v].id, C: c, Bound: s.lo[e.v].val})
		}
	}
}

// Farkas is one bound of a proof of infeasibility: C (> 0) times the bound
// V <= Bound (Upper) or V >= Bound, asserted with explanation ID (the
// bound as the Simplex holds it: rounded for an integer variable).
type Farkas struct {
	V     Var
	Upper bool
	ID    int32
	C     Q
	Bound Q
}

// FarkasProof returns, after Check answered Unsat or an assert returned
// false with Proofs set, the Farkas coefficients of the conflict: written as
// C·V <= C·Bound for an upper bound and -C·V <= -C·Bound for a lower one,
// with each slack variable replaced by its definition, the bounds sum to
// 0 <= k with k < 0 — McMillan's interpolation (package
// abstraction/refine) splits that sum. The proof is over the rationals:
// it is not set by a conflict CheckInt finds by branching or cuts (nil
// then), and the slice is owned by the Simplex until its next call.
func (s *Simplex) FarkasProof() []Farkas { return s.farkas }

// Mark returns a point to Backtrack to.
func (s *Simplex) Mark() int { return len(s.undo) }

// Backtrack retracts the bounds asserted since Mark returned m. Values are
// kept: they satisfy the rows, and the weaker bounds of nonbasic variables.
func (s *Simplex) Backtrack(m int) {
	for len(s.undo) > m {
		u := s.undo[len(s.undo)-1]
		s.undo = s.undo[:len(s.undo)-1]
		if u.upper {
			s.hi[u.v] = u.old
		} else {
			s.lo[u.v] = u.old
		}
	}
}

func (s *Simplex) setConflict(ids ...int32) {
	s.conflict = s.conflict[:0]
	s.farkas = s.farkas[:0]
	for _, id := range ids {
		if id == boxID {
			s.boxUsed = true
		}
		if id >= 0 && !slices.Contains(s.conflict, id) {
			s.conflict = append(s.conflict, id)
		}
	}
}

// AssertUpper asserts v <= c, explained by id (>= 0). For an integer
// variable c is rounded down. It returns false, with Conflict set, if the
// bound contradicts v's lower bound; the bound is then not recorded.
func (s *Simplex) AssertUpper(v Var, c Q, id int32) bool {
	if s.isInt[v] {
		c = c.Floor()
	}
	if h := s.hi[v]; h.set && c.Cmp(h.val) >= 0 {
		return true
	}
	if l := s.lo[v]; l.set && c.Cmp(l.val) < 0 {
		s.setConflict(id, l.id)
		if s.Proofs {
			s.farkas = append(s.farkas, Farkas{V: v, Upper: true, ID: id, C: Int(1), Bound: c}, Farkas{V: v, ID: l.id, C: Int(1), Bound: l.val})
		}
		return false
	}
	s.undo = append(s.undo, undo{v, true, s.hi[v]})
	s.hi[v] = bound{c, id, true}
	if s.rowOf[v] >= 0 {
		s.touch(v)
	} else if s.val[v].Cmp(c) > 0 {
		s.update(v, c)
	}
	return true
}

// AssertLower asserts v >= c, explained by id (>= 0). For an integer
// variable c is rounded up.
func (s *Simplex) AssertLower(v Var, c Q, id int32) bool {
	if s.isInt[v] {
		c = c.Ceil()
	}
	if l := s.lo[v]; l.set && c.Cmp(l.val) <= 0 {
		return true
	}
	if h := s.hi[v]; h.set && c.Cmp(h.val) > 0 {
		s.setConflict(id, h.id)
		if s.Proofs {
			s.farkas = append(s.farkas, Farkas{V: v, ID: id, C: Int(1), Bound: c}, Farkas{V: v, Upper: true, ID: h.id, C: Int(1), Bound: h.val})
		}
		return false
	}
	s.undo = append(s.undo, undo{v, false, s.lo[v]})
	s.lo[v] = bound{c, id, true}
	if s.rowOf[v] >= 0 {
		s.touch(v)
	} else if s.val[v].Cmp(c) < 0 {
		s.update(v, c)
	}
	return true
}

// update sets nonbasic v to x and adjusts the basic variables.
func (s *Simplex) update(v Var, x Q) {
	d := x.Sub(s.val[v])
	for _, ce := range s.col[v] {
		rw := &s.rows[ce.r]
		b := rw.basic
		s.val[b] = s.val[b].Add(rw.es[ce.ei].c.Mul(d))
		if s.lo[b].set || s.hi[b].set {
			s.touch(b)
		}
	}
	s.val[v] = x
}

// pivotAndUpdate gives the basic variable of row r the value x by moving
// nonbasic v, then exchanges their roles.
func (s *Simplex) pivotAndUpdate(r int32, v Var, x Q) {
	b := s.rows[r].basic
	a := s.coef(r, v)
	theta := x.Sub(s.val[b]).Div(a)
	s.val[b] = x
	s.val[v] = s.val[v].Add(theta)
	for _, ce := range s.col[v] {
		if ce.r != r {
			rw := &s.rows[ce.r]
			b2 := rw.basic
			s.val[b2] = s.val[b2].Add(rw.es[ce.ei].c.Mul(theta))
			if s.lo[b2].set || s.hi[b2].set {
				s.touch(b2)
			}
		}
	}
	s.pivot(r, v)
	s.touch(v)
}

// pivot makes nonbasic v the basic variable of row r.
func (s *Simplex) pivot(r int32, v Var) {
	s.Pivots++
	old := s.rows[r]
	a := old.es[slices.IndexFunc(old.es, func(e entry) bool { return e.v == v })].c
	inv := a.Inv()
	ninv := inv.Neg()
	// v = inv*b - sum (a_k/a) x_k, rewritten in place
	es := old.es
	j := int32(0)
	for _, e := range es {
		if e.v == v {
			continue
		}
		e.c = e.c.Mul(ninv)
		es[j] = e
		s.col[e.v][e.ci].ei = j
		j++
	}
	es = append(es[:j], entry{old.basic, inv, int32(len(s.col[old.basic]))})
	s.col[old.basic] = append(s.col[old.basic], colEnt{r, j})
	s.rows[r] = row{basic: v, es: es}
	s.rowOf[v] = r
	s.rowOf[old.basic] = -1
	rows := s.col[v]
	for _, ce := range rows {
		r2 := ce.r
		if r2 == r {
			continue
		}
		// drop v from r2, then add c times v's new row
		es2 := s.rows[r2].es
		c := es2[ce.ei].c
		last := int32(len(es2) - 1)
		if ce.ei != last {
			moved := es2[last]
			es2[ce.ei] = moved
			s.col[moved.v][moved.ci].ei = ce.ei
		}
		s.rows[r2].es = es2[:last]
		s.addScaled(r2, c, es, -1)
	}
	s.col[v] = rows[:0] // v is basic: in no row
}

func (s *Simplex) below(v Var) bool { return s.lo[v].set && s.val[v].Cmp(s.lo[v].val) < 0 }
func (s *Simplex) above(v Var) bool { return s.hi[v].set && s.val[v].Cmp(s.hi[v].val) > 0 }
func (s *Simplex) canInc(v Var) bool {
	return !s.hi[v].set || s.val[v].Cmp(s.hi[v].val) < 0
}
func (s *Simplex) canDec(v Var) bool {
	return !s.lo[v].set || s.val[v].Cmp(s.lo[v].val) > 0
}

// blandAfter is the number of pivots of one Check after which it follows
// Bland's rule strictly.
const blandAfter = 1000

// Check decides the asserted bounds over the rationals: Sat with Value
// giving a solution, or Unsat with Conflict explaining why. It uses
// Bland's rule, so it terminates. It answers Unknown only when Stop is set
// and returns true (it is consulted every 64 pivots).
func (s *Simplex) Check() Result {
	for n := 1; ; n++ {
		if n&63 == 0 && s.Stop != nil && s.Stop() {
			return Unknown
		}
		best := int32(-1)
		var bv Var
		j := 0
		for _, b := range s.dirty {
			if s.rowOf[b] < 0 || !s.below(b) && !s.above(b) {
				s.inDirty[b] = false
				continue
			}
			s.dirty[j] = b
			j++
			if best < 0 || b < bv {
				best, bv = s.rowOf[b], b
			}
		}
		s.dirty = s.dirty[:j]
		if best < 0 {
			return Sat
		}
		inc := s.below(bv) // the basic variable must increase
		// The entering variable: the one in the fewest rows (least
		// fill-in) for the first pivots of a check, then the one of least
		// index (Bland's rule, which terminates).
		bland := n > blandAfter
		var pick Var = -1
		for _, e := range s.rows[best].es {
			pos := e.c.Sign() > 0
			ok := false
			if pos == inc {
				ok = s.canInc(e.v)
			} else {
				ok = s.canDec(e.v)
			}
			if !ok {
				continue
			}
			if pick < 0 || bland && e.v < pick ||
				!bland && (len(s.col[e.v]) < len(s.col[pick]) || len(s.col[e.v]) == len(s.col[pick]) && e.v < pick) {
				pick = e.v
			}
		}
		if pick < 0 {
			s.conflict = s.conflict[:0]
			s.farkas = s.farkas[:0]
			// bv = Σ c·v, and no v can move bv toward its bound: the
			// bound of bv and those of the v, each times |c|, sum to
			// 0 <= a negative constant (the Farkas proof)
			if inc {
				s.addID(s.lo[bv].id)
			} else {
				s.addID(s.hi[bv].id)
			}
			for _, e := range s.rows[best].es {
				if (e.c.Sign() > 0) == inc {
					s.addID(s.hi[e.v].id)
				} else {
					s.addID(s.lo[e.v].id)
				}
			}
			if s.Proofs {
				s.recordProof(best, bv, inc)
			}
			return Unsat
		}
		if inc {
			s.pivotAndUpdate(best, pick, s.lo[bv].val)
		} else {
			s.pivotAndUpdate(best, pick, s.hi[bv].val)
		}
	}
}

func (s *Simplex) addID(id int32) {
	if id == boxID {
		s.boxUsed = true
	}
	if id >= 0 && !slices.Contains(s.conflict, id) {
		s.conflict = append(s.conflict, id)
	}
}

// Def returns the sum a slack variable stands for (as given to AddRow),
// or nil for a problem variable. The slice belongs to the Simplex.
func (s *Simplex) Def(v Var) []Term { return s.def[v] }

// IsSlack reports whether v is a slack variable (made by AddRow).
func (s *Simplex) IsSlack(v Var) bool { return s.def[v] != nil }

// Restrict rebuilds the tableau from the definitions of the slack
// variables keep alone, every problem variable nonbasic; the other slack
// variables leave the tableau (their bounds are kept but not enforced, and
// their values are meaningless) until a later Restrict keeps them. Bounds
// are kept; the problem variables of the rows take the value nearest 0
// within their bounds, so that a query's search does not depend on the
// values earlier queries left behind (when the rows are those the tableau
// holds, it is kept as it is, values included). It lets a long-lived
// Simplex, whose rows accumulate, pivot only over the rows a query uses.
func (s *Simplex) Restrict(keep []Var) {
	if s.tableauIs(keep) {
		return // the same rows: the current basis serves as well
	}
	for _, r := range s.rows {
		b := r.basic
		s.rowOf[b] = -1
		if s.def[b] == nil {
			// a problem variable leaves the basis: within its bounds
			if s.below(b) {
				s.val[b] = s.lo[b].val
			} else if s.above(b) {
				s.val[b] = s.hi[b].val
			}
		}
		for _, e := range r.es {
			s.col[e.v] = s.col[e.v][:0]
		}
		s.spare = append(s.spare, r.es[:0])
	}
	s.rows = s.rows[:0]
	for _, b := range s.dirty {
		s.inDirty[b] = false
	}
	s.dirty = s.dirty[:0]
	s.tabGen++
	for _, x := range keep {
		if s.rowOf[x] >= 0 || s.def[x] == nil {
			continue
		}
		s.inTab[x] = s.tabGen
		var es []entry
		if n := len(s.spare); n > 0 {
			es, s.spare = s.spare[n-1], s.spare[:n-1]
		}
		r := int32(len(s.rows))
		s.rows = append(s.rows, row{basic: x, es: es})
		s.rowOf[x] = r
		s.expand(r, x, Q{n: 1, d: 1})
	}
	// The values the variables of the rows were left with by earlier
	// queries (branch and bound's last leaf, say) would be the starting
	// point of this one's pivots and branches, making its search depend
	// on what was asked before: start from the values nearest 0 within
	// the bounds, as a fresh Simplex does. On a long-lived solver's QF_LIA
	// problems of 32 variables this took the time of 40 problems from
	// 16 s (one left unknown) to 3.7 s.
	for r := range s.rows {
		for _, e := range s.rows[r].es {
			s.resetVal(e.v)
		}
	}
	for r := range s.rows {
		rw := &s.rows[r]
		var v Q
		for _, e := range rw.es {
			v = v.Add(e.c.Mul(s.val[e.v]))
		}
		s.val[rw.basic] = v
		if s.lo[rw.basic].set || s.hi[rw.basic].set {
			s.touch(rw.basic)
		}
	}
}

// resetVal gives nonbasic problem variable v the value nearest 0 within
// its bounds.
func (s *Simplex) resetVal(v Var) {
	switch {
	case s.lo[v].set && s.lo[v].val.Sign() > 0:
		s.val[v] = s.lo[v].val
	case s.hi[v].set && s.hi[v].val.Sign() < 0:
		s.val[v] = s.hi[v].val
	default:
		s.val[v] = Q{}
	}
}

// tableauIs reports whether the tableau holds exactly the rows of the
// slack variables keep (which may repeat).
func (s *Simplex) tableauIs(keep []Var) bool {
	if s.tabGen == 0 || len(keep) < len(s.rows) {
		return false
	}
	// count the distinct variables of keep, marking them with tabGen+1
	n, ok := 0, true
	for _, x := range keep {
		switch {
		case s.def[x] == nil:
			ok = false
		case s.inTab[x] == s.tabGen:
			s.inTab[x] = s.tabGen + 1
			n++
		case s.inTab[x] != s.tabGen+1:
			ok = false // not in the tableau
		}
	}
	for _, x := range keep {
		if s.def[x] != nil && s.inTab[x] == s.tabGen+1 {
			s.inTab[x] = s.tabGen
		}
	}
	return ok && n == len(s.rows)
}

// expand adds c times the definition of slack x, in problem variables, to
// row r.
func (s *Simplex) expand(r int32, x Var, c Q) {
	for _, t := range s.def[x] {
		if s.def[t.V] != nil && s.rowOf[t.V] < 0 {
			s.expand(r, t.V, c.Mul(t.C))
			continue
		}
		if br := s.rowOf[t.V]; br >= 0 {
			s.addScaled(r, c.Mul(t.C), s.rows[br].es, -1)
			continue
		}
		s.addScaled(r, c.Mul(t.C), []entry{{v: t.V, c: Q{n: 1, d: 1}}}, -1)
	}
}
