package amcs

import (
	"errors"
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/ast"
	"birch/internal/bir/parser"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/smt"
	"birch/internal/smt/solvers"
)

// The AMCS variants of Pasareanu, Pelanek and Visser (Algorithms 1 and 2
// of Kudra's thesis): the search matches states on the values of
// expression predicates, and a round adds predicates for the next one.
//
//   - AMCS: a transition s -i-> s' is precise when α(s) ⇒ WP(α(s'), i)
//     is valid (the solver decides it; Algorithm 2, line 10). An
//     imprecise transition adds the weakest preconditions of the
//     predicates of α(s') (line 11: the predicates of α(s')[e_i(x)/x]).
//     A transition whose guard α(s) does not decide adds the guard's
//     conjuncts that read integer data (the rest, locks and location
//     tests, is the control part, concrete in α(s); pin.go).
//     The thesis prints lines 6 and 18 as "if α(s) ⇒ (guard of i)" and
//     "if α(s) ⇒ (complement of guard of i)" then add g_i; adding a
//     guard that α(s) already implies would refine nothing, so we read
//     them, with Pasareanu et al., negated: a guard is added when α(s)
//     implies neither it nor its complement, whether s enables the
//     transition (line 6) or not (line 18).
//   - AddAll: as AMCS, but an imprecise transition adds the predicates
//     that describe its source's concrete data, d == c for each integer
//     datum d of the globals and of the threads' frames (heap data have no
//     BIR name and add nothing).
//   - NoTP: no solver: every transition is imprecise (its weakest
//     preconditions are added) and no guard is decided (every guard
//     conjunct that reads data is added).
//
// The search stops when Φ stops changing; that is not a proof (the
// thesis's "unreachable"): the verdict is pass only after an exact round,
// which control.go decides.
//
// Frames. A predicate of a thread's or function's scope has one instance
// per frame of its proc. In the formulas of a transition of thread t the
// instances of t's top frame (the frame the step executes) read the
// proc's variables as they are; the instances of every other frame read
// copies of the variables, one per frame, so that WP does not confuse
// the same-named locals of two threads (or of two frames of one
// function), and the solver sees them as different constants.
//
// A step that calls or starts a thread adds a frame: the instances of the
// new frame are left out of the check (their locals start from the
// arguments and the defaults). A step that returns removes one: its WP is
// not computed, and the transition counts as not checked (nothing is
// added for it). So does a step whose WP this package cannot write (a
// range choice, a predicate over the callee's variables at a call:
// predicate.UnsupportedError). The model resets dead locals on arrival at
// a location, which WP does not see: a predicate over a dead local may be
// found imprecise or precise wrongly, which only changes what a round
// adds (verdicts rest on the concrete search).

// wpQueryLimit bounds one solver query; an undecided query is an
// implication not proved (the transition is imprecise).
const wpQueryLimit = 2 * time.Second

func init() {
	refiners[AMCS] = newWPRefiner
	refiners[AddAll] = newWPRefiner
	refiners[NoTP] = newWPRefiner
	exprPredicates = newEvalOnly
}

// wpRefiner is the refiner of the AMCS, AddAll and NoTP variants.
type wpRefiner struct {
	variant Variant
	m       *model.Model
	prog    *types.Program
	phi     *exprSet
	// Φ_new: the predicates the round adds, by text
	next    []*exprPred
	nextIDs map[string]bool
	groups  []model.Group
	// per transformation: the conjuncts of its guard that are predicates
	guardConj map[int][]ast.Expr
	byLoc     map[*types.Location][]int

	tm      *smt.TermManager
	enc     *predicate.Encoder
	pins    *pins // nil without a solver
	solver  smt.Solver
	wp      *predicate.WP
	queries int
	answers map[[2]*smt.Term]bool
	err     error // the first solver failure

	// copies of locals per frame tag, and back
	copies map[copyKey]*types.Var
	orig   map[*types.Var]*types.Var
	// WP of an instance through a step, by wpKey
	wps map[wpKey]*wpResult
	// the formula of an instance, by instance tag
	terms map[instKey]*instTerm
	// transitions and guards checked this round (abstract source, step,
	// abstract target), by a 128-bit hash of their key: a collision
	// skips a check, which only changes what the round adds
	checked     map[[2]uint64]bool
	seed, seed2 maphash.Seed

	// the source state of the current expand/step calls
	src       []byte
	srcKey    []byte
	srcFrames []model.Frame
	srcLits   []literal
	srcIndex  map[[3]int]int // a source literal by predicate, thread and depth
	isNew     []bool         // per target frame: not a frame of the source
	dst       *exprSet       // evaluates targets: the same predicates as phi
	dstState  []byte         // the state dst was last evaluated on
	dstValid  bool
	dstKey    []byte
	ctrl      []byte
	data      []model.Datum

	// the run's stop flag and time limit (stopping)
	stop     *atomic.Bool
	deadline time.Time

	// per round: transitions checked, imprecise, not checkable
	nChecked, nImprecise, nUnchecked int
	nLarge                           int    // predicates left out: too large
	why                              string // why the first unchecked one was
}

// instKey identifies an instance of an expression: its frame (thread
// and depth), or -1 for the executing frame and for the globals.
type instKey struct {
	x             ast.Expr
	thread, depth int
}

func newInstKey(x ast.Expr, at, exec model.Frame) instKey {
	if !otherFrame(at, exec) {
		return instKey{x, -1, -1}
	}
	return instKey{x, at.Thread, at.Depth}
}

// wpKey identifies the weakest precondition of an instance through the
// first n actions of a step of the executing frame (thread, depth).
type wpKey struct {
	inst          instKey
	thread, depth int
	groups        string
	n             int
}

type copyKey struct {
	v             *types.Var
	thread, depth int
}

// instTerm is the formula of an instance and its domain facts (nil when
// it cannot be encoded).
type instTerm struct {
	t, dom *smt.Term
}

// wpResult is the weakest precondition of an instance through a step.
type wpResult struct {
	x       ast.Expr // nil when unsupported
	err     error
	t, dom  *smt.Term // its formula (nil when it cannot be encoded)
	encErr  error
	changed bool // x is not the instance itself
	// the predicate it proposes (nil: none), once computed
	prop     *exprPred
	propDone bool
}

func newWPRefiner(m *model.Model, cfg *Config) (refiner, error) {
	r := &wpRefiner{
		variant:   cfg.Variant,
		m:         m,
		prog:      m.Program(),
		nextIDs:   map[string]bool{},
		groups:    m.Groups(),
		byLoc:     map[*types.Location][]int{},
		copies:    map[copyKey]*types.Var{},
		orig:      map[*types.Var]*types.Var{},
		wps:       map[wpKey]*wpResult{},
		terms:     map[instKey]*instTerm{},
		checked:   map[[2]uint64]bool{},
		answers:   map[[2]*smt.Term]bool{},
		srcIndex:  map[[3]int]int{},
		guardConj: map[int][]ast.Expr{},
		seed:      maphash.MakeSeed(),
		seed2:     maphash.MakeSeed(),
		stop:      cfg.Stop,
	}
	if cfg.TimeLimit > 0 {
		r.deadline = time.Now().Add(cfg.TimeLimit)
	}
	for i, g := range r.groups {
		r.byLoc[g.From] = append(r.byLoc[g.From], i)
	}
	phi, err := initialSet(m, cfg.Predicates)
	if err != nil {
		return nil, err
	}
	r.phi = phi
	r.dst = &exprSet{m: m, list: phi.list, fe: phi.fe}
	r.wp = predicate.NewWP(r.prog)
	if cfg.Variant != NoTP {
		r.tm = smt.NewTermManager()
		r.enc = predicate.NewEncoder(r.tm, r.prog)
		s, err := solvers.New(cfg.Solver, r.tm)
		if err != nil {
			return nil, fmt.Errorf("the %s variant needs a solver: %v", cfg.Variant, err)
		}
		s.SetLimit(smt.Limit{Timeout: wpQueryLimit})
		r.solver = s
		if err := r.newPins(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// initialSet is Φ of the first round: the given predicates, compiled.
func initialSet(m *model.Model, preds []*predicate.Predicate) (*exprSet, error) {
	es := newExprSet(m)
	for _, p := range preds {
		es.add(&exprPred{expr: p.Expr, proc: p.Proc, text: p.String()})
	}
	if err := es.compile(); err != nil {
		return nil, err
	}
	return es, nil
}

// stopping reports whether the run's limits ended it (Ctrl-C, the time
// limit, the memory watch): the refiner then does no more work and adds
// nothing, so that the search stops at its next check. The search looks
// at the limits between expansions only, and one expansion with
// thousands of predicates makes thousands of solver queries (--amcs with
// --time-limit 8s ran 17 s).
func (r *wpRefiner) stopping() bool {
	return r.stop != nil && r.stop.Load() || !r.deadline.IsZero() && time.Now().After(r.deadline)
}

func (r *wpRefiner) close() {
	if r.solver != nil {
		r.solver.Close()
		r.solver = nil
	}
}

func (r *wpRefiner) appendKey(key, state []byte) []byte {
	r.evalDst(state)
	return r.dst.appendKey(key)
}

// evalDst evaluates the predicates on state into r.dst, unless they were
// last evaluated there (step, then appendKey, look at one successor).
func (r *wpRefiner) evalDst(state []byte) {
	if r.dstValid && string(r.dstState) == string(state) {
		return
	}
	r.dst.eval(state)
	r.dstState = append(r.dstState[:0], state...)
	r.dstValid = true
}

func (r *wpRefiner) predicates() []string { return r.phi.texts() }

func (r *wpRefiner) solverQueries() int {
	n := r.queries
	r.queries = 0
	return n
}

// load makes state the source of the following checks.
func (r *wpRefiner) load(state []byte) {
	if r.src != nil && string(r.src) == string(state) {
		return
	}
	r.src = append(r.src[:0], state...)
	r.phi.eval(state)
	r.srcFrames = append(r.srcFrames[:0], r.phi.frames...)
	r.srcLits = append(r.srcLits[:0], r.phi.lits...)
	clear(r.srcIndex)
	for i, l := range r.srcLits {
		k := [3]int{l.pred, -1, -1}
		if l.frame >= 0 {
			k[1], k[2] = r.srcFrames[l.frame].Thread, r.srcFrames[l.frame].Depth
		}
		r.srcIndex[k] = i
	}
	r.srcKey = r.abstractKey(r.srcKey[:0], state, r.phi)
	if r.pins != nil {
		r.pins.fe.Load(state)
	}
}

// abstractKey is the abstract state of state under Φ: its control part
// and the values of es's predicates (es evaluated on state).
func (r *wpRefiner) abstractKey(dst, state []byte, es *exprSet) []byte {
	r.ctrl, r.data = r.m.SplitData(state, r.ctrl[:0], r.data[:0])
	dst = append(dst, r.ctrl...)
	dst = append(dst, 0xff)
	return es.appendKey(dst)
}

// seen reports whether key was seen this round, and marks it seen.
func (r *wpRefiner) seen(key string) bool {
	h := [2]uint64{maphash.String(r.seed, key), maphash.String(r.seed2, key)}
	if r.checked[h] {
		return true
	}
	if len(r.checked) >= maxCached {
		clear(r.checked) // checked again: more queries, the same answers
	}
	r.checked[h] = true
	return false
}

// propose adds p to Φ_new unless Φ or Φ_new has it, or it is a constant,
// or the model's evaluator cannot compile it.
//
// A predicate of more than maxPredNodes nodes is not added: weakest
// preconditions compose, and No-TP's grow with every round (stack.bir had
// thousands of predicates in ten rounds); a predicate that large splits
// nothing a smaller one does not, and every state evaluates it.
func (r *wpRefiner) propose(p *exprPred) {
	if r.stopping() || r.phi.has(p) || r.nextIDs[p.text] || !readsVar(r.prog.Info, p.expr) {
		return
	}
	if n := nodes(p.expr, maxPredNodes+1); n > maxPredNodes {
		r.nextIDs[p.text] = true
		r.nLarge++
		return
	}
	if r.constant(p) {
		r.nextIDs[p.text] = true
		return
	}
	r.nextIDs[p.text] = true // also when it does not compile: try once
	if r.phi.compiles(p) != nil {
		return
	}
	r.next = append(r.next, p)
}

// constant reports whether the solver proves p true in every state or in
// none (k > k, a weakest precondition of g := k for k > g): it would
// split nothing. Without a solver (No-TP) it says no.
func (r *wpRefiner) constant(p *exprPred) bool {
	if r.solver == nil {
		return false
	}
	t, dom, err := r.enc.FormulaDomain(p.expr)
	if err != nil {
		return false
	}
	return r.valid(dom, t) || r.valid(dom, r.tm.Not(t))
}

// maxPredNodes bounds the size of a predicate a round adds.
const maxPredNodes = 200

// nodes counts the nodes of x, up to max.
func nodes(x ast.Expr, max int) int {
	n := 0
	ast.Inspect(x, func(ast.Node) bool {
		n++
		return n < max
	})
	return n
}

// pred is the predicate x of scope proc; one that reads none of proc's
// variables is a predicate of the globals (a guard y >= 0 of a thread
// reading a global).
func (r *wpRefiner) pred(x ast.Expr, proc *types.Proc) *exprPred {
	if proc != nil && !readsLocalsOf(r.prog.Info, x, proc, nil) {
		proc = nil
	}
	return newExprPred(x, proc)
}

// expand looks at every transformation leaving a top frame of state
// (Algorithm 2, lines 5-7 and 17-20): a guard α(s) does not decide is
// added.
func (r *wpRefiner) expand(state []byte) {
	if r.stopping() {
		return
	}
	if r.variant == NoTP {
		r.phi.eval(state)
		for _, f := range r.phi.frames {
			r.guards(f, func(int, *exprPred) bool { return true })
		}
		return
	}
	r.load(state)
	for k, f := range r.srcFrames {
		r.guards(f, func(gi int, p *exprPred) bool {
			if r.seen("g" + strconv.Itoa(gi) + "." + strconv.Itoa(f.Thread) + "." + string(r.srcKey)) {
				return false
			}
			return !r.decides(k, p)
		})
	}
}

// guards proposes the guard of each transformation leaving frame f (the
// top frame of a running thread) that reads integer data, when undecided
// says so.
func (r *wpRefiner) guards(f model.Frame, undecided func(gi int, p *exprPred) bool) {
	if !f.Top || f.Done {
		return
	}
	for _, gi := range r.byLoc[f.Loc] {
		g := r.groups[gi]
		if g.Proc != f.Proc || g.Decl == nil || g.Decl.Guard == nil {
			continue
		}
		for _, c := range r.guardParts(gi) {
			p := r.pred(c, g.Proc)
			if r.phi.has(p) || r.nextIDs[p.text] {
				continue
			}
			if undecided(gi, p) {
				r.propose(p)
			}
		}
	}
}

// guardParts is dataConjuncts of the guard of transformation gi.
func (r *wpRefiner) guardParts(gi int) []ast.Expr {
	if parts, ok := r.guardConj[gi]; ok {
		return parts
	}
	parts := dataConjuncts(r.prog.Info, r.groups[gi].Decl.Guard, nil)
	r.guardConj[gi] = parts
	return parts
}

// dataConjuncts appends to dst the conjuncts of x (its operands of &&)
// that read integer data and nothing of the control (a lock's builtin, a
// location test, a remote reference): a guard i == n && lockAvailable(m)
// is the predicate i == n; the rest is the control part's, concrete in an
// abstract state.
func dataConjuncts(info *types.Info, x ast.Expr, dst []ast.Expr) []ast.Expr {
	x = ast.Unparen(x)
	if b, ok := x.(*ast.BinaryExpr); ok && b.Op == token.LAND {
		return dataConjuncts(info, b.Y, dataConjuncts(info, b.X, dst))
	}
	control := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.BuiltinExpr, *ast.LocationTest, *ast.RemoteRef:
			control = true
		}
		return !control
	})
	if control || !readsData(info, x) {
		return dst
	}
	return append(dst, x)
}

// readsData reports whether x reads a variable, field or element of an
// integer type.
func readsData(info *types.Info, x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr:
		default:
			return !found
		}
		e := n.(ast.Expr)
		tv := info.Types[e]
		if tv.Value.Kind != types.NoConst {
			return false
		}
		if id, ok := e.(*ast.Ident); ok {
			if _, isVar := info.Uses[id].(*types.Var); !isVar {
				return false
			}
		}
		if tv.Type != nil && types.IsInteger(tv.Type) {
			found = true
		}
		return !found
	})
	return found
}

// decides reports whether α(s) (the loaded source) implies the guard p of
// frame k or its complement; an undecided or failed query says no.
func (r *wpRefiner) decides(k int, p *exprPred) bool {
	f := r.srcFrames[k]
	g, err := r.instance(p.expr, p.proc, f, f)
	if err != nil {
		return true // not a formula: leave it to the control part
	}
	hyp := r.alpha(f)
	if hyp == nil {
		return true
	}
	tm := r.tm
	hyp = tm.And(hyp, g.dom, r.pin(f, hyp, g.t))
	return r.valid(hyp, g.t) || r.valid(hyp, tm.Not(g.t))
}

// valid reports whether hyp implies goal, by one solver query unless the
// question was answered before (terms are hash-consed: one formula, one
// term).
func (r *wpRefiner) valid(hyp, goal *smt.Term) bool {
	k := [2]*smt.Term{hyp, goal}
	if v, ok := r.answers[k]; ok {
		return v
	}
	if r.stopping() {
		return false // not proved, not remembered
	}
	r.queries++
	ok, err := smt.Implies(r.solver, hyp, goal)
	if err != nil && !errors.Is(err, smt.ErrUnknown) && r.err == nil {
		r.err = err
	}
	if len(r.answers) >= maxAnswers {
		clear(r.answers)
	}
	r.answers[k] = ok
	return ok
}

// maxAnswers bounds the answers valid remembers, and maxCached the
// entries of the other caches (the checked transitions, the formulas and
// weakest preconditions of instances): a full cache is emptied, which
// costs work again, not answers.
const (
	maxAnswers = 1 << 20
	maxCached  = 1 << 18
)

// alpha is the formula of α(s) for the loaded source, with exec the
// executing frame (the zero Frame with Proc nil for none): the conjunction
// of its literals and their domains. Literals that cannot be encoded are
// left out (a weaker hypothesis proves less). It is nil when the solver
// failed.
func (r *wpRefiner) alpha(exec model.Frame) *smt.Term {
	tm := r.tm
	var parts []*smt.Term
	for _, l := range r.srcLits {
		if l.val == valUndef {
			continue
		}
		p := r.phi.list[l.pred]
		var at model.Frame
		if l.frame >= 0 {
			at = r.srcFrames[l.frame]
		}
		it, err := r.instance(p.expr, p.proc, at, exec)
		if err != nil {
			continue
		}
		t := it.t
		if l.val == valFalse {
			t = tm.Not(t)
		}
		parts = append(parts, t, it.dom)
	}
	return tm.And(parts...)
}

// frameTag names frame f relative to the executing frame exec: "" for
// exec itself (and for the globals), "@thread.depth" otherwise.
func frameTag(f, exec model.Frame) string {
	if !otherFrame(f, exec) {
		return ""
	}
	return "@" + strconv.Itoa(f.Thread) + "." + strconv.Itoa(f.Depth)
}

// otherFrame reports whether f is a frame other than exec (false for the
// globals' zero Frame).
func otherFrame(f, exec model.Frame) bool {
	return f.Proc != nil && (f.Thread != exec.Thread || f.Depth != exec.Depth || exec.Proc == nil)
}

// instExpr is x (of scope proc) as an instance in frame at, relative to
// exec: itself, or with its locals replaced by at's copies.
func (r *wpRefiner) instExpr(x ast.Expr, proc *types.Proc, at, exec model.Frame) (ast.Expr, error) {
	if proc == nil || !otherFrame(at, exec) {
		return x, nil
	}
	info := r.prog.Info
	return mapIdents(info, x, func(id *ast.Ident) *ast.Ident {
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.Owner != proc || (v.Kind != types.LocalVar && v.Kind != types.ParamVar) {
			return id
		}
		c := r.copyOf(v, at)
		nid := &ast.Ident{NamePos: id.NamePos, Name: id.Name + frameTag(at, model.Frame{})}
		info.Uses[nid] = c
		info.Types[nid] = info.Types[id]
		return nid
	})
}

// copyOf is the copy of local v standing for its value in frame at.
func (r *wpRefiner) copyOf(v *types.Var, at model.Frame) *types.Var {
	k := copyKey{v, at.Thread, at.Depth}
	if c, ok := r.copies[k]; ok {
		return c
	}
	c := new(types.Var)
	*c = *v
	r.copies[k] = c
	r.orig[c] = v
	if r.enc != nil {
		name := v.Owner.Name() + "." + v.Name() + frameTag(at, model.Frame{})
		if err := r.enc.NameVar(c, name); err != nil && r.err == nil {
			r.err = err
		}
		r.pinCopy(c, v, at)
	}
	return c
}

// instance is the formula of predicate x of scope proc in frame at,
// relative to the executing frame exec.
func (r *wpRefiner) instance(x ast.Expr, proc *types.Proc, at, exec model.Frame) (*instTerm, error) {
	key := newInstKey(x, at, exec)
	if it, ok := r.terms[key]; ok {
		if it.t == nil {
			return nil, errors.New("not encoded")
		}
		return it, nil
	}
	it := &instTerm{}
	if len(r.terms) >= maxCached {
		clear(r.terms)
	}
	r.terms[key] = it
	y, err := r.instExpr(x, proc, at, exec)
	if err != nil {
		return nil, err
	}
	t, dom, err := r.enc.FormulaDomain(y)
	if err != nil {
		return nil, err
	}
	it.t, it.dom = t, dom
	return it, nil
}

// stepActions lists the actions a step executed that change data, as one
// sequence, and its conditions: the guards of the second and later
// transformations of an invisible run and the conditions of assume and
// assert, each with the number of actions before it. The step happened,
// so they held; a state of α(s) follows the same run only where they
// hold (the first guard is the guard predicates' business). It fails for
// a return.
func (r *wpRefiner) stepActions(groups []int32) ([]ast.Action, []stepCond, error) {
	var out []ast.Action
	var conds []stepCond
	for i, gi := range groups {
		g := r.groups[gi]
		if g.Decl == nil {
			return nil, nil, errors.New("a transformation without declaration")
		}
		if g.To == nil || g.Decl.Return {
			return nil, nil, errors.New("a return")
		}
		if i > 0 && g.Decl.Guard != nil {
			for _, c := range dataConjuncts(r.prog.Info, g.Decl.Guard, nil) {
				conds = append(conds, stepCond{c, len(out)})
			}
		}
		for _, a := range g.Decl.Actions {
			var c ast.Expr
			switch a := a.(type) {
			case *ast.AssumeAction:
				c = a.Cond
			case *ast.AssertAction:
				c = a.Cond
			default:
				out = append(out, a)
				continue
			}
			for _, c := range dataConjuncts(r.prog.Info, c, nil) {
				conds = append(conds, stepCond{c, len(out)})
			}
		}
	}
	return out, conds, nil
}

// stepCond is a condition that held after the first after actions of a
// step.
type stepCond struct {
	x     ast.Expr
	after int
}

// newFrames says, per frame of b, whether a lacks it (a call's or a
// thread start's frame); ok is false when b lacks a frame of a (a return)
// or runs another proc in one.
func newFrames(a, b []model.Frame, dst []bool) (isNew []bool, ok bool) {
	type at struct{ thread, depth int }
	old := make(map[at]*types.Proc, len(a))
	for _, f := range a {
		old[at{f.Thread, f.Depth}] = f.Proc
	}
	n := 0
	for _, f := range b {
		p, was := old[at{f.Thread, f.Depth}]
		if was && p != f.Proc {
			return nil, false
		}
		if was {
			n++
		}
		dst = append(dst, !was)
	}
	return dst, n == len(a)
}

// step checks the transition src -> st.State (Algorithm 2, lines 9-12).
func (r *wpRefiner) step(src []byte, st *model.Step) {
	if r.stopping() {
		return
	}
	if r.variant != NoTP {
		r.load(src)
	} else {
		r.srcFrames = r.m.Frames(src, r.srcFrames[:0])
	}
	r.evalDst(st.State)
	var ok bool
	if r.isNew, ok = newFrames(r.srcFrames, r.dst.frames, r.isNew[:0]); !ok {
		r.unchecked("a step that returns")
		return
	}
	exec := r.execFrame(st.Thread)
	if r.variant != NoTP {
		r.dstKey = r.abstractKey(r.dstKey[:0], st.State, r.dst)
		if r.seen("t" + groupsKey(st.Groups) + "." + strconv.Itoa(st.Thread) + "." + string(r.srcKey) + "|" + string(r.dstKey)) {
			return
		}
	} else if r.seen("n" + groupsKey(st.Groups) + "." + strconv.Itoa(st.Thread) + "." + framesKey(r.srcFrames) + "|" + framesKey(r.dst.frames)) {
		// what No-TP adds depends on the step and the frames only
		return
	}
	actions, conds, err := r.stepActions(st.Groups)
	if err != nil {
		r.unchecked(err.Error())
		return
	}
	gk := groupsKey(st.Groups)
	var wps []*wpResult
	for _, l := range r.dst.lits {
		p := r.phi.list[l.pred]
		var at model.Frame
		if l.frame >= 0 {
			at = r.dst.frames[l.frame]
			if r.isNew[l.frame] {
				// a new frame's locals start from the arguments and the
				// defaults: not a function of s's data this check reads
				wps = append(wps, nil)
				continue
			}
		}
		w := r.wpOf(p.expr, p.proc, at, exec, gk, actions)
		if w.err != nil {
			r.unchecked(w.err.Error())
			return
		}
		wps = append(wps, w)
	}
	var cws []*wpResult
	for _, c := range conds {
		w := r.wpOf(c.x, exec.Proc, exec, exec, gk, actions[:c.after])
		if w.err != nil {
			r.unchecked(w.err.Error())
			return
		}
		cws = append(cws, w)
	}
	if r.variant == NoTP {
		r.addWPs(wps, cws, exec)
		return
	}
	r.nChecked++
	if r.precise(wps, cws, exec) {
		return
	}
	r.nImprecise++
	switch r.variant {
	case AMCS:
		r.addWPs(wps, cws, exec)
	case AddAll:
		r.addData()
	}
}

// srcValue is the value in the loaded source of the instance of target
// literal l (of r.dst), valUndef when the source has no such instance.
func (r *wpRefiner) srcValue(l literal) uint8 {
	k := [3]int{l.pred, -1, -1}
	if l.frame >= 0 {
		f := r.dst.frames[l.frame]
		k[1], k[2] = f.Thread, f.Depth
	}
	if i, ok := r.srcIndex[k]; ok {
		return r.srcLits[i].val
	}
	return valUndef
}

// precise decides α(s) ⇒ WP(α(s'), i) for the loaded source and the
// target's literals (r.dst), whose weakest preconditions are wps, and the
// step's conditions, whose weakest preconditions are cws. A literal whose
// predicate the step does not change and whose instance has its value in
// the source (the frames are the same: literals align) holds without a
// query.
func (r *wpRefiner) precise(wps, cws []*wpResult, exec model.Frame) bool {
	tm := r.tm
	var goal []*smt.Term
	var dom []*smt.Term
	for i, l := range r.dst.lits {
		w := wps[i]
		if w == nil || l.val == valUndef || !w.changed && r.srcValue(l) == l.val {
			continue
		}
		if w.encErr != nil {
			return false
		}
		t := w.t
		if l.val == valFalse {
			t = tm.Not(t)
		}
		goal = append(goal, t)
		dom = append(dom, w.dom)
	}
	for _, w := range cws {
		if w.encErr != nil {
			return false
		}
		goal = append(goal, w.t)
		dom = append(dom, w.dom)
	}
	if len(goal) == 0 {
		return true
	}
	hyp := r.alpha(exec)
	if hyp == nil {
		return false
	}
	g := tm.And(goal...)
	return r.valid(tm.And(hyp, tm.And(dom...), r.pin(exec, hyp, g)), g)
}

// framesKey identifies the frames of a state (thread, depth, proc).
func framesKey(frames []model.Frame) string {
	var b strings.Builder
	for _, f := range frames {
		fmt.Fprintf(&b, "%d.%d.%p,", f.Thread, f.Depth, f.Proc)
	}
	return b.String()
}

func groupsKey(groups []int32) string {
	var b strings.Builder
	for _, g := range groups {
		b.WriteString(strconv.Itoa(int(g)))
		b.WriteByte(',')
	}
	return b.String()
}

// execFrame is the top frame of thread t in the loaded source.
func (r *wpRefiner) execFrame(t int) model.Frame {
	for _, f := range r.srcFrames {
		if f.Thread == t && f.Top {
			return f
		}
	}
	return model.Frame{}
}

func (r *wpRefiner) unchecked(why string) {
	if r.nUnchecked == 0 {
		r.why = why
	}
	r.nUnchecked++
}

// wpOf is the weakest precondition of the instance in frame at of x (of
// scope proc) through actions executed by frame exec.
func (r *wpRefiner) wpOf(x ast.Expr, proc *types.Proc, at, exec model.Frame, gk string, actions []ast.Action) *wpResult {
	key := wpKey{newInstKey(x, at, exec), exec.Thread, exec.Depth, gk, len(actions)}
	if w, ok := r.wps[key]; ok {
		return w
	}
	w := &wpResult{}
	if len(r.wps) >= maxCached {
		clear(r.wps)
	}
	r.wps[key] = w
	x, err := r.instExpr(x, proc, at, exec)
	if err != nil {
		w.err = err
		return w
	}
	y, err := r.weakest(actions, x)
	if err != nil {
		w.err = err
		return w
	}
	r.wp.Record(y)
	w.x, w.changed = y, y != x
	if r.enc != nil {
		w.t, w.dom, w.encErr = r.enc.FormulaDomain(y)
	}
	return w
}

// weakest is WP(actions, x); a panic of WP (a form it does not expect)
// is an error: the transition is not checked, and the reason says why.
func (r *wpRefiner) weakest(actions []ast.Action, x ast.Expr) (y ast.Expr, err error) {
	defer func() {
		if p := recover(); p != nil {
			y, err = nil, fmt.Errorf("internal error computing a weakest precondition: %v", p)
		}
	}()
	return r.wp.Actions(actions, x)
}

// addWPs proposes the weakest preconditions that changed, each as a
// predicate of one scope (an instance of another frame than the
// executing one whose weakest precondition also reads the executing
// frame's locals has none, and adds nothing), and the step's conditions
// through the actions before them.
func (r *wpRefiner) addWPs(wps, cws []*wpResult, exec model.Frame) {
	for i, w := range wps {
		if w == nil || !w.changed {
			continue
		}
		if !w.propDone {
			l := r.dst.lits[i]
			other := l.frame >= 0 && otherFrame(r.dst.frames[l.frame], exec)
			w.prop, w.propDone = r.wpPred(w.x, r.phi.list[l.pred].proc, other, exec), true
		}
		if w.prop != nil {
			r.propose(w.prop)
		}
	}
	for _, w := range cws {
		if !w.propDone {
			if readsData(r.prog.Info, w.x) {
				w.prop = r.pred(w.x, exec.Proc)
			}
			w.propDone = true
		}
		if w.prop != nil {
			r.propose(w.prop)
		}
	}
}

// wpPred is the predicate a weakest precondition x of an instance of a
// predicate of scope proc stands for, or nil: other says the instance is
// of another frame than the executing one.
func (r *wpRefiner) wpPred(x ast.Expr, proc *types.Proc, other bool, exec model.Frame) *exprPred {
	switch {
	case other:
		if readsLocalsOf(r.prog.Info, x, exec.Proc, r.orig) {
			return nil
		}
		var err error
		if x, err = r.original(x); err != nil {
			return nil
		}
	case proc == nil:
		proc = exec.Proc
	}
	return r.pred(x, proc)
}

// readsVar reports whether x reads a variable (otherwise it is a
// constant).
func readsVar(info *types.Info, x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if _, isVar := info.Uses[id].(*types.Var); isVar {
				found = true
			}
		}
		return !found
	})
	return found
}

// readsLocalsOf reports whether x reads a local or parameter of proc
// itself (not a copy).
func readsLocalsOf(info *types.Info, x ast.Expr, proc *types.Proc, copies map[*types.Var]*types.Var) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && copies[v] == nil && v.Owner == proc && proc != nil && (v.Kind == types.LocalVar || v.Kind == types.ParamVar) {
				found = true
			}
		}
		return !found
	})
	return found
}

// original replaces the copies of locals in x by the locals.
func (r *wpRefiner) original(x ast.Expr) (ast.Expr, error) {
	info := r.prog.Info
	return mapIdents(info, x, func(id *ast.Ident) *ast.Ident {
		v, ok := info.Uses[id].(*types.Var)
		if !ok || r.orig[v] == nil {
			return id
		}
		o := r.orig[v]
		nid := &ast.Ident{NamePos: id.NamePos, Name: o.Name()}
		info.Uses[nid] = o
		info.Types[nid] = info.Types[id]
		return nid
	})
}

// addData proposes d == c for each integer datum d of the loaded source
// that has a BIR name (globals, and the locals of each frame in their
// proc's scope) and its value c (Add-All AMCS).
func (r *wpRefiner) addData() {
	r.ctrl, r.data = r.m.SplitData(r.src, r.ctrl[:0], r.data[:0])
	val := make(map[uint64]int64, len(r.data))
	for _, d := range r.data {
		val[d.ID] = d.Value
	}
	for _, g := range r.prog.Globals {
		for k := 0; k < int(types.Slots(g.Type())); k++ {
			if id, ok := r.m.GlobalDatum(g, k); ok {
				r.proposeEq(slotPath(g.Name(), g.Type(), k), val[id], nil)
			}
		}
	}
	for _, f := range r.srcFrames {
		for _, v := range f.Proc.Vars() {
			for k := 0; k < int(types.Slots(v.Type())); k++ {
				if id, ok := r.m.LocalDatum(f.Thread, f.Depth, f.Proc, v, k); ok {
					if c, ok := val[id]; ok {
						r.proposeEq(slotPath(v.Name(), v.Type(), k), c, f.Proc)
					}
				}
			}
		}
	}
}

// proposeEq proposes path == c in the scope of proc.
func (r *wpRefiner) proposeEq(path string, c int64, proc *types.Proc) {
	text := path + " == " + strconv.FormatInt(c, 10)
	probe := &exprPred{proc: proc, text: (&predicate.Predicate{Proc: proc, Text: text}).String()}
	if r.phi.has(probe) || r.nextIDs[probe.text] {
		return
	}
	x, err := parseExpr(r.prog, text, proc)
	if err != nil {
		r.nextIDs[probe.text] = true
		return
	}
	probe.expr = x
	r.propose(probe)
}

// slotPath is the BIR expression naming slot k of a value of type t
// named name ("a[2]", "r.f").
func slotPath(name string, t types.Type, k int) string {
	switch u := t.Underlying().(type) {
	case *types.Array:
		es := int(types.Slots(u.Elem))
		return slotPath(name+"["+strconv.Itoa(k/es)+"]", u.Elem, k%es)
	case *types.Record:
		for _, f := range u.Fields {
			n := int(types.Slots(f.Type()))
			if k < n {
				return slotPath(name+"."+f.Name(), f.Type(), k)
			}
			k -= n
		}
	}
	return name
}

// refine makes Φ_new current (Algorithm 1, line 7: none added ends the
// run).
func (r *wpRefiner) refine(round int) ([]string, error) {
	if r.err != nil {
		return nil, fmt.Errorf("the solver failed: %v", r.err)
	}
	checked, imprecise, unchecked, why, large := r.nChecked, r.nImprecise, r.nUnchecked, r.why, r.nLarge
	r.nChecked, r.nImprecise, r.nUnchecked, r.why, r.nLarge = 0, 0, 0, "", 0
	clear(r.checked)
	r.src, r.dstValid = nil, false
	if len(r.next) == 0 {
		msg := "the predicates stopped changing"
		switch r.variant {
		case NoTP:
			if large > 0 {
				msg += fmt.Sprintf(" (every weakest precondition of an explored transition is a predicate already, but %d of more than %d nodes were left out)", large, maxPredNodes)
			} else {
				msg += " (every weakest precondition of an explored transition is a predicate already)"
			}
		default:
			if imprecise == 0 {
				msg += fmt.Sprintf("; the WP check found the %d explored transitions it checked precise (a guard it cannot write is taken as decided, and a new frame's literals are not checked)", checked)
			} else {
				msg += fmt.Sprintf("; the WP check found %d of %d explored transitions imprecise, whose predicates are all there already (or too large, or of two frames)", imprecise, checked)
			}
		}
		if unchecked > 0 {
			msg += fmt.Sprintf(", but %d transitions could not be checked (%s)", unchecked, why)
		}
		return nil, errors.New(msg)
	}
	var added []string
	for _, p := range r.next {
		if r.phi.add(p) {
			added = append(added, p.text)
		}
	}
	r.next = r.next[:0]
	clear(r.nextIDs)
	if err := r.phi.compile(); err != nil {
		return nil, err
	}
	r.dst.list, r.dst.fe = r.phi.list, r.phi.fe
	return added, nil
}

// parseExpr parses and checks text as a boolean expression in the scope
// of proc (nil: the globals).
func parseExpr(prog *types.Program, text string, proc *types.Proc) (ast.Expr, error) {
	x, err := parser.ParseExpr(text)
	if err != nil {
		return nil, err
	}
	t, err := prog.CheckExpr(prog.Fset, x, proc, true)
	if err != nil {
		return nil, err
	}
	if t == nil || !types.IsBoolean(t) {
		return nil, fmt.Errorf("%s is not boolean", text)
	}
	return x, nil
}

// evalOnly is the refiner of a GeneralSplitting run with initial
// expression predicates: it evaluates them and adds none.
type evalOnly struct{ phi *exprSet }

func newEvalOnly(m *model.Model, cfg *Config) (refiner, error) {
	phi, err := initialSet(m, cfg.Predicates)
	if err != nil {
		return nil, err
	}
	return &evalOnly{phi}, nil
}

func (e *evalOnly) appendKey(key, state []byte) []byte {
	e.phi.eval(state)
	return e.phi.appendKey(key)
}
func (e *evalOnly) expand([]byte)                {}
func (e *evalOnly) step([]byte, *model.Step)     {}
func (e *evalOnly) refine(int) ([]string, error) { return nil, nil }
func (e *evalOnly) predicates() []string         { return e.phi.texts() }
func (e *evalOnly) solverQueries() int           { return 0 }
