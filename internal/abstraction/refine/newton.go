package refine

import (
	"sort"
	"strconv"
	"strings"

	"birch/internal/bir/types"
	"birch/internal/smt"
	"birch/internal/smt/lia"
)

// Method says which method found a predicate.
type Method int

// The methods.
const (
	Newton        Method = iota // weakest preconditions along the path (SLAM's Newton)
	Interpolation               // Craig interpolants of the path formula (McMillan)
	Model                       // a comparison the model's text makes (Seed)
)

func (m Method) String() string { return [...]string{"newton", "interpolation", "model"}[m] }

// Predicate is a new predicate, in the form of a line of a predicate file
// (docs/predicates.md).
type Predicate struct {
	// Proc is the thread or function whose locals the predicate reads, or
	// nil for a predicate over globals only.
	Proc *types.Proc
	// Text is the BIR expression.
	Text string
	// Method found it, at Point: the state after that step of the path
	// (1-based), where the path needs it.
	Method Method
	Point  int
}

// String prints the predicate as a line of a predicate file.
func (p Predicate) String() string {
	switch {
	case p.Proc == nil:
	case p.Proc.Thread:
		return "[thread " + p.Proc.Name() + "] " + p.Text
	default:
		return "[function " + p.Proc.Name() + "] " + p.Text
	}
	return p.Text
}

// FileText prints predicates as a predicate file, one a line, each with a
// comment that says where it comes from; predicate.ParseFile reads it.
func FileText(preds []Predicate) string {
	var b strings.Builder
	for _, p := range preds {
		b.WriteString(p.String())
		b.WriteString("  # ")
		if p.Method == Model {
			b.WriteString("from the model\n")
			continue
		}
		b.WriteString(p.Method.String())
		b.WriteString(", after step ")
		b.WriteString(itoa(p.Point))
		b.WriteString("\n")
	}
	return b.String()
}

func itoa(n int) string { return strconv.Itoa(n) }

// predSet collects predicates, each (scope, text) once.
type predSet struct {
	list    []Predicate
	seen    map[string]bool
	dropped []string
}

func (s *predSet) add(p Predicate) {
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if k := p.String(); !s.seen[k] {
		s.seen[k] = true
		s.list = append(s.list, p)
	}
}

// stater names the SSA constants current at one point of the path and
// records which thread instances a predicate reads.
type stater struct {
	p       *Path
	point   int
	threads map[[2]int]*types.Proc // the activations whose locals it reads
	bad     string
}

func (p *Path) stater(point int) *stater {
	return &stater{p: p, point: point, threads: map[[2]int]*types.Proc{}}
}

func (st *stater) name(t *smt.Term) (string, bool) {
	sv := st.p.vars[t]
	if sv == nil {
		st.bad = "it reads " + t.String() + ", which is no variable"
		return "", false
	}
	if st.p.points[st.point][key{sv.v, sv.thread, sv.frame}] != t {
		st.bad = "it reads a value of " + sv.v.Name() + " that is not current after step " + itoa(st.point)
		return "", false
	}
	if sv.thread >= 0 {
		st.threads[[2]int{sv.thread, sv.frame}] = sv.v.Owner
	}
	return sv.v.Name(), true
}

// state turns a formula's atom into a predicate at a point, or says why
// it cannot be one.
func (p *Path) state(t *smt.Term, a *atom, point int, m Method, set *predSet) {
	st := p.stater(point)
	var text string
	ok := false
	switch {
	case a != nil:
		if a.trivial() {
			return
		}
		if vs := a.l.vars(); a.eq && len(vs) == 1 && a.l.c[vs[0]].Equal(oneQ) && vs[0].Op() == smt.OpVar {
			if sv := p.vars[vs[0]]; sv != nil {
				if _, isEnum := sv.v.Type().Underlying().(*types.Enum); isEnum {
					if _, ok = st.name(vs[0]); ok {
						text, ok = enumText(sv.v, a.l.k.Neg())
					}
					break
				}
			}
		}
		if b, isBool := boolAtom(a); isBool {
			if b == nil {
				return // decided, or a boolean mixed with numbers
			}
			text, ok = st.name(b)
			break
		}
		if isRefAtom, txt, good := p.refAtom(a, st); isRefAtom {
			text, ok = txt, good
			break
		}
		if p.readsEnum(a) || p.decidedByDomain(a) {
			return // enums are compared with == only; a decided atom tells nothing
		}
		if a.eq && !a.l.k.IsInt() {
			return // Σ c·x == k/2 with integer coefficients: false
		}
		if !a.fits() {
			set.dropped = append(set.dropped, "after step "+itoa(point)+": an atom with a constant beyond 64 bits")
			return
		}
		text, ok = p.atomText(*a, st.name)
	case t.Op() == smt.OpVar:
		text, ok = st.name(t)
	case t.Op() == smt.OpEq:
		l, ok1 := p.boolText(t.Arg(0), st)
		r, ok2 := p.boolText(t.Arg(1), st)
		text, ok = l+" == "+r, ok1 && ok2
	}
	if !ok {
		why := st.bad
		if why == "" {
			why = "it has no BIR form"
			if t != nil {
				why = t.String() + " has no BIR form"
			}
		}
		set.dropped = append(set.dropped, "after step "+itoa(point)+": "+why)
		return
	}
	var proc *types.Proc
	if len(st.threads) > 1 {
		set.dropped = append(set.dropped, "after step "+itoa(point)+": "+text+" reads the locals of several threads or calls")
		return
	}
	for _, owner := range st.threads {
		proc = owner
	}
	set.add(Predicate{Proc: proc, Text: text, Method: m, Point: point})
}

// typeOf is the BIR type of an unknown of a linear form: a variable's,
// or a field's for a field read; nil when unknown.
func (p *Path) typeOf(t *smt.Term) types.Type {
	switch t.Op() {
	case smt.OpVar:
		if sv := p.vars[t]; sv != nil {
			return sv.v.Type()
		}
	case smt.OpSelect:
		if sv := p.vars[t.Arg(0)]; sv != nil {
			if a, ok := sv.v.Type().Underlying().(*types.Array); ok {
				return a.Elem
			}
			return sv.v.Type()
		}
	}
	return nil
}

// refAtom prints an atom over references: x == null or x == y; any other
// atom over a reference is not a predicate (ok false).
func (p *Path) refAtom(a *atom, st *stater) (reads bool, text string, ok bool) {
	vs := a.l.vars()
	for _, v := range vs {
		if t := p.typeOf(v); t != nil && isRef(t) {
			reads = true
		}
	}
	if !reads || !a.eq || !a.l.k.IsZero() || len(vs) > 2 {
		return reads, "", false
	}
	var parts []string
	for _, v := range vs {
		if c := a.l.c[v]; !c.Equal(oneQ) && !c.Equal(oneQ.Neg()) {
			return true, "", false
		}
		s, ok := p.termText(v, st.name)
		if !ok {
			return true, "", false
		}
		parts = append(parts, s)
	}
	if len(parts) == 1 {
		return true, parts[0] + " == null", true
	}
	if a.l.c[vs[0]].Equal(a.l.c[vs[1]]) {
		return true, "", false // x + y == 0
	}
	return true, parts[0] + " == " + parts[1], true
}

// boolAtom reads an atom over boolean unknowns (0 or 1, as interpolation
// weighs them): ok when it reads one, b the boolean it says something of
// (nil when the atom holds for both values or for neither). An atom that
// mixes a boolean with other unknowns is no BIR expression: ok, b nil.
func boolAtom(a *atom) (b *smt.Term, ok bool) {
	vs := a.l.vars()
	for _, v := range vs {
		if v.IsBool() {
			ok = true
		}
	}
	if !ok || len(vs) != 1 {
		return nil, ok
	}
	c, k := a.l.c[vs[0]], a.l.k
	holds := func(x lia.Q) bool {
		v := c.Mul(x).Add(k)
		if a.eq {
			return v.IsZero()
		}
		return v.Sign() <= 0
	}
	if holds(lia.Int(0)) == holds(lia.Int(1)) {
		return nil, true
	}
	return vs[0], true
}

// decidedByDomain reports whether an inequality over one variable holds,
// or fails, for every value of the variable's type (x <= 2^63 for an int
// x, as the overflow checks say).
func (p *Path) decidedByDomain(a *atom) bool {
	vs := a.l.vars()
	if a.eq || len(vs) != 1 || p.vars[vs[0]] == nil {
		return false
	}
	lo, hi, ok := integerBounds(p.vars[vs[0]].v.Type())
	if !ok {
		return false
	}
	// c·x + k <= 0 at both ends of the domain
	c, k := a.l.c[vs[0]], a.l.k
	at := func(x int64) bool { return c.Mul(lia.Int(x)).Add(k).Sign() <= 0 }
	return at(lo) == at(hi)
}

func (p *Path) readsEnum(a *atom) bool {
	for _, v := range a.l.vars() {
		if sv := p.vars[v]; sv != nil {
			if _, ok := sv.v.Type().Underlying().(*types.Enum); ok {
				return true
			}
		}
	}
	return false
}

func (p *Path) boolText(t *smt.Term, st *stater) (string, bool) {
	switch t.Op() {
	case smt.OpTrue:
		return "true", true
	case smt.OpFalse:
		return "false", true
	case smt.OpVar:
		return st.name(t)
	}
	return "", false
}

// atoms calls f for each atom of a formula: comparisons of integers (as
// atoms) and boolean variables and equivalences (as terms).
func atoms(t *smt.Term, f func(t *smt.Term, a *atom)) {
	switch t.Op() {
	case smt.OpNot, smt.OpAnd, smt.OpOr, smt.OpImplies, smt.OpXor, smt.OpIte:
		for _, x := range t.Args() {
			if x.IsBool() {
				atoms(x, f)
			}
		}
	case smt.OpEq:
		if t.Arg(0).IsBool() {
			if t.Arg(0).Op() == smt.OpVar && (t.Arg(1).Op() == smt.OpVar || t.Arg(1).Op() == smt.OpTrue || t.Arg(1).Op() == smt.OpFalse) {
				f(t, nil)
				return
			}
			atoms(t.Arg(0), f)
			atoms(t.Arg(1), f)
			return
		}
		if a, ok := atomOf(t, true); ok {
			f(t, &a)
		}
	case smt.OpLt, smt.OpLe, smt.OpGt, smt.OpGe:
		if a, ok := atomOf(t, true); ok {
			f(t, &a)
		}
	case smt.OpVar:
		f(t, nil)
	}
}

// newton computes the predicates of Newton: the weakest precondition of
// the infeasible prefix's core, carried backwards step by step by
// substituting each step's definitions; its atoms at each point are the
// predicates, where they can be stated there.
func (p *Path) newton(d *Decision, cfg Config) *predSet {
	set := &predSet{}
	var f []*smt.Term
	init := p.stepSubst(0)
	for j := d.Step; j >= 1; j-- {
		if cfg.Context != nil && cfg.Context.Err() != nil {
			set.dropped = append(set.dropped, "stopped before step "+itoa(j)+": "+cfg.Context.Err().Error())
			break
		}
		for _, c := range d.Core {
			if c.Step == j {
				f = append(f, c.Term)
			}
		}
		sub := p.stepSubst(j)
		for i, t := range f {
			f[i] = p.tm.Substitute(t, sub)
		}
		for _, t := range f {
			t = p.liftIte(p.readOverWrite(t), 0)
			atoms(t, func(t *smt.Term, a *atom) { p.state(t, a, j-1, Newton, set) })
			// and with the variables that still hold their initial
			// values replaced by them (x == 2 * a - 1 with x still 0 is
			// 2 * a == 1, which says more than x == 2 * a - 1 alone)
			if u := p.tm.Substitute(t, init); u != t {
				atoms(u, func(t *smt.Term, a *atom) { p.state(t, a, j-1, Newton, set) })
				// and the initial values themselves: x == 0
				for c, v := range init {
					if mentions(t, c) && c.IsInt() {
						a := normalize(atom{l: eqLin(c, v), eq: true})
						p.state(nil, &a, j-1, Newton, set)
					}
				}
			}
		}
	}
	sort.SliceStable(set.list, func(i, j int) bool { return set.list[i].Point < set.list[j].Point })
	return set
}

// readOverWrite rewrites a read of a written array, select(store(a, i,
// v), j), as v when j is i, as a read of a when both are different
// literals, and as ite(i == j, v, select(a, j)) otherwise: Morris' axiom,
// as package predicate's WP splits the cases of an aliased write.
func (p *Path) readOverWrite(t *smt.Term) *smt.Term {
	if t.NumArgs() == 0 {
		return t
	}
	if _, ok := p.opaque[t]; ok {
		return t
	}
	args := make([]*smt.Term, t.NumArgs())
	changed := false
	for i, a := range t.Args() {
		args[i] = p.readOverWrite(a)
		changed = changed || args[i] != a
	}
	if changed {
		t = p.tm.Make(t.Op(), args...)
	}
	if t.Op() != smt.OpSelect || t.Arg(0).Op() != smt.OpStore {
		return t
	}
	st, j := t.Arg(0), t.Arg(1)
	a, i, v := st.Arg(0), st.Arg(1), st.Arg(2)
	rest := p.readOverWrite(p.tm.Select(a, j))
	switch {
	case i == j:
		return v
	case i.Op() == smt.OpInt && j.Op() == smt.OpInt:
		return rest
	}
	return p.tm.Ite(p.tm.Eq(i, j), v, rest)
}

// maxLift bounds the case splits of liftIte in one formula.
const maxLift = 6

// liftIte moves the integer ites of comparisons to the formula's level:
// x < ite(c, a, b) is (c && x < a) || (!c && x < b), so that each case
// is an atom a predicate can state.
func (p *Path) liftIte(t *smt.Term, depth int) *smt.Term {
	tm := p.tm
	switch t.Op() {
	case smt.OpNot, smt.OpAnd, smt.OpOr, smt.OpImplies:
		args := make([]*smt.Term, t.NumArgs())
		for i, a := range t.Args() {
			args[i] = p.liftIte(a, depth)
		}
		return tm.Make(t.Op(), args...)
	case smt.OpEq, smt.OpLt, smt.OpLe, smt.OpGt, smt.OpGe:
		if depth >= maxLift {
			return t
		}
		ite := p.findIte(t)
		if ite == nil {
			return t
		}
		c := ite.Arg(0)
		yes := tm.Substitute(t, map[*smt.Term]*smt.Term{ite: ite.Arg(1)})
		no := tm.Substitute(t, map[*smt.Term]*smt.Term{ite: ite.Arg(2)})
		return tm.Or(tm.And(c, p.liftIte(yes, depth+1)), tm.And(tm.Not(c), p.liftIte(no, depth+1)))
	}
	return t
}

// findIte returns an integer ite inside a comparison (not inside a BIR
// division, whose term is read as a whole), or nil.
func (p *Path) findIte(t *smt.Term) *smt.Term {
	for _, a := range t.Args() {
		if _, ok := p.opaque[a]; ok {
			continue
		}
		if a.Op() == smt.OpIte && a.IsInt() {
			return a
		}
		if r := p.findIte(a); r != nil {
			return r
		}
	}
	return nil
}

// mentions reports whether t contains the term c.
func mentions(t, c *smt.Term) bool {
	if t == c {
		return true
	}
	for _, a := range t.Args() {
		if mentions(a, c) {
			return true
		}
	}
	return false
}

// eqLin is c - v as a linear form (the atom c == v).
func eqLin(c, v *smt.Term) lin {
	l := linearize(c)
	l.addAll(linearize(v), lia.Int(-1))
	return l
}

// stepSubst maps each SSA constant step j defines to its value over the
// state before the step.
func (p *Path) stepSubst(j int) map[*smt.Term]*smt.Term {
	sub := map[*smt.Term]*smt.Term{}
	for _, d := range p.defs {
		if d.step == j {
			sub[d.c] = p.tm.Substitute(d.v, sub)
		}
	}
	return sub
}
