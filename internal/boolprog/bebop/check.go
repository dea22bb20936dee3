package bebop

import (
	"context"
	"errors"
	"fmt"

	"birch/internal/bdd"
	"birch/internal/boolprog"
	"birch/internal/source"
)

// Config configures Check; its zero value works.
type Config struct {
	// MaxNodes bounds the BDD nodes of the check (zero: bdd.DefaultMaxNodes).
	// A check that needs more stops, inconclusive.
	MaxNodes int
	// Context stops the check, inconclusive, when it is done (nil: never).
	Context context.Context
}

// Outcome is what a check decided.
type Outcome int

const (
	// Safe: no assertion can fail in any execution from main.
	Safe Outcome = iota
	// Unsafe: an assertion fails; Result.Trail shows how.
	Unsafe
	// Inconclusive: the check stopped (Result.Reason says why).
	Inconclusive
)

func (o Outcome) String() string {
	switch o {
	case Safe:
		return "safe"
	case Unsafe:
		return "unsafe"
	}
	return "inconclusive"
}

// Result is the outcome of Check.
type Result struct {
	Outcome Outcome
	Reason  string               // why the check is inconclusive
	Assert  *boolprog.AssertStmt // the assertion that fails (Unsafe)
	Proc    string               // its procedure
	// Trail is an execution from main's first statement to the failing
	// assertion (Unsafe): each step a statement about to run, with the
	// values of the globals and of its procedure's variables. It is nil
	// when the check stopped while rebuilding it (NoTrail says why).
	Trail   []Step
	NoTrail string
	// TrailCut reports that the trail was longer than MaxTrailSteps: its
	// first steps are left out (and Depth counts from the first kept
	// step's procedure).
	TrailCut bool
	Stats    Stats
}

// MaxTrailSteps bounds the length of a trail (an execution through nested
// calls can be exponentially longer than the program), as the explicit
// checker's.
const MaxTrailSteps = boolprog.MaxTrailSteps

// Step is one statement of a trail.
type Step struct {
	Proc   string
	Depth  int // call depth: 0 in main as first entered
	Pos    source.Pos
	Label  string // the statement's label, or ""
	Stmt   string // the statement's first line (boolprog.StmtHeader), or "end"
	Values []Value
}

// Value is a variable's value in a trail step.
type Value struct {
	Name   string
	Global bool
	Value  bool
}

// Stats counts the work of a check.
type Stats struct {
	Nodes      int // control-flow nodes
	Steps      int // worklist steps
	PathEdges  int // additions of new path edges
	Summaries  int // additions of new summary edges
	BDDNodes   int // nodes of the BDD manager at the end
	BDDVars    int
	TrailSteps int
}

// Check decides whether an assertion of prog can fail in an execution that
// starts in main, by Bebop's interprocedural reachability: path edges
// (the states at each statement, related to the state at the procedure's
// entry) and summary edges (each procedure's effect, entry to exit) as
// BDDs, computed to a fixpoint. It is exact, recursion included: there is
// no bound on the call depth. info is boolprog.Resolve's result.
//
// Semantics, as the explicit checker's: every variable starts with any
// value (globals and main's variables at the start, a procedure's locals
// on each call); a `*` or undecided schoose takes either value, each
// occurrence independently; an assertion fails when its condition can be
// false; reaching a procedure's end returns any values; `enforce e` keeps
// only the states of the procedure that satisfy e.
func Check(info *boolprog.Info, cfg Config) *Result {
	c := newChecker(info, cfg)
	res := c.run()
	res.Stats.Nodes = len(c.nodes)
	res.Stats.BDDNodes = c.m.NodeCount()
	res.Stats.BDDVars = c.m.NumVars()
	return res
}

// BDD variable copies: entry (E), current (C), next (N) and extra (X, the
// formals at a call).
const (
	copyE = iota
	copyC
	copyN
	copyX
	copies
)

// event records an addition: at time t, the set grew to all.
type event struct {
	t   int
	all bdd.Node
}

type checker struct {
	info  *boolprog.Info
	cfg   Config
	m     *bdd.Manager
	g, s  int // globals, local slots
	nodes []*cnode
	procs []*proc
	byPI  map[*boolprog.ProcInfo]*proc

	pe, delta []bdd.Node
	hist      [][]event // per node: the path edges added, by time
	sum       []bdd.Node
	sumHist   [][]event // per procedure
	work      []int
	inWork    []bool
	time      int

	cube   [copies]bdd.Node // globals and local slots of a copy
	cubeG  [copies]bdd.Node // globals of a copy
	cubeL  [copies]bdd.Node // local slots of a copy
	cubeCh bdd.Node         // the choice variables

	nToC, xToC, exitRen, gnToC *bdd.Renaming

	predCache  [][]int
	trailSteps int  // steps made while rebuilding the trail
	cut        bool // the trail reached MaxTrailSteps

	stats Stats
	fail  *cnode
	bad   bdd.Node
}

func (c *checker) gvar(i, cp int) int { return copies*i + cp }
func (c *checker) lvar(j, cp int) int { return copies*(c.g+j) + cp }
func (c *checker) chvar(k int) int    { return copies*(c.g+c.s) + k }

// vvar is the BDD variable of v's copy cp.
func (c *checker) vvar(v *boolprog.Var, cp int) int {
	if v.Global() {
		return c.gvar(v.Index, cp)
	}
	return c.lvar(v.Index, cp)
}

func newChecker(info *boolprog.Info, cfg Config) *checker {
	c := &checker{info: info, cfg: cfg, byPI: map[*boolprog.ProcInfo]*proc{}}
	b := &builder{info: info}
	for _, pi := range info.Procs {
		p := &proc{info: pi}
		c.procs = append(c.procs, p)
		c.byPI[pi] = p
		if n := len(pi.Vars); n > c.s {
			c.s = n
		}
		if n := pi.Proc.Returns; n > c.s {
			c.s = n
		}
	}
	for _, p := range c.procs {
		b.buildProc(p)
	}
	c.nodes = b.nodes
	nch := 0
	for _, n := range c.nodes {
		if n.kind == kCall {
			if s, ok := n.stmt.(*boolprog.CallStmt); ok {
				if pi := info.Callees[s]; pi != nil {
					n.callee = c.byPI[pi]
					n.callee.callers = append(n.callee.callers, n.id)
				}
			}
		}
		nch = max(nch, n.choices())
	}
	for _, p := range c.procs {
		if p.info.Proc.Enforce != nil {
			nch = max(nch, choices(p.info.Proc.Enforce))
		}
	}
	c.g = len(info.Globals)
	c.m = bdd.New(copies*(c.g+c.s)+nch, bdd.Config{MaxNodes: cfg.MaxNodes})
	c.prepare(nch)
	return c
}

// lit is the literal "variable v has value b".
func (c *checker) lit(v int, b bool) bdd.Node {
	if b {
		return c.m.Var(v)
	}
	return c.m.NVar(v)
}

// expr encodes e, read in copy cp of proc's variables; each `*` and
// schoose takes the next choice variable from *ch.
func (c *checker) expr(e boolprog.Expr, cp int, ch *int) bdd.Node {
	m := c.m
	switch e := e.(type) {
	case *boolprog.Ident:
		if v := c.info.Uses[e]; v != nil {
			return m.Var(c.vvar(v, cp))
		}
		return bdd.False
	case *boolprog.Const:
		return bdd.Const(e.Value)
	case *boolprog.Nondet:
		*ch++
		return m.Var(c.chvar(*ch - 1))
	case *boolprog.Choose:
		*ch++
		k := c.chvar(*ch - 1)
		t := c.expr(e.True, cp, ch)
		f := c.expr(e.False, cp, ch)
		return m.Ite(t, bdd.True, m.Ite(f, bdd.False, m.Var(k)))
	case *boolprog.Unary:
		return m.Not(c.expr(e.X, cp, ch))
	case *boolprog.Binary:
		x, y := c.expr(e.X, cp, ch), c.expr(e.Y, cp, ch)
		switch e.Op {
		case boolprog.Implies:
			return m.Imp(x, y)
		case boolprog.Or:
			return m.Or(x, y)
		case boolprog.Xor, boolprog.Neq:
			return m.Xor(x, y)
		case boolprog.And:
			return m.And(x, y)
		case boolprog.Eq:
			return m.Equiv(x, y)
		}
	}
	return bdd.False
}

func (c *checker) renaming(from, to []int) *bdd.Renaming {
	r, err := c.m.NewRenaming(from, to)
	if err != nil {
		panic("bebop: " + err.Error()) // the variables are in range by construction
	}
	return r
}

// prepare builds the cubes, renamings and per-node relations.
func (c *checker) prepare(nch int) {
	m := c.m
	var vs [copies][]int
	var gs, ls [copies][]int
	for cp := 0; cp < copies; cp++ {
		for i := 0; i < c.g; i++ {
			gs[cp] = append(gs[cp], c.gvar(i, cp))
		}
		for j := 0; j < c.s; j++ {
			ls[cp] = append(ls[cp], c.lvar(j, cp))
		}
		vs[cp] = append(append([]int(nil), gs[cp]...), ls[cp]...)
		c.cube[cp] = m.Cube(vs[cp]...)
		c.cubeG[cp] = m.Cube(gs[cp]...)
		c.cubeL[cp] = m.Cube(ls[cp]...)
	}
	var chs []int
	for k := 0; k < nch; k++ {
		chs = append(chs, c.chvar(k))
	}
	c.cubeCh = m.Cube(chs...)
	c.nToC = c.renaming(vs[copyN], vs[copyC])
	c.xToC = c.renaming(ls[copyX], ls[copyC])
	c.gnToC = c.renaming(gs[copyN], gs[copyC])
	c.exitRen = c.renaming(
		append(append(append([]int(nil), gs[copyC]...), gs[copyE]...), ls[copyE]...),
		append(append(append([]int(nil), gs[copyN]...), gs[copyC]...), ls[copyX]...))

	for _, p := range c.procs {
		p.enforce = bdd.True
		if e := p.info.Proc.Enforce; e != nil {
			ch := 0
			p.enforce = m.Exists(c.expr(e, copyC, &ch), c.cubeCh)
		}
		var eqs []bdd.Node
		for i := 0; i < c.g; i++ {
			eqs = append(eqs, m.Equiv(m.Var(c.gvar(i, copyE)), m.Var(c.gvar(i, copyC))))
		}
		for j := range p.info.Proc.Params {
			eqs = append(eqs, m.Equiv(m.Var(c.lvar(j, copyE)), m.Var(c.lvar(j, copyC))))
		}
		p.entryEq = m.AndAll(eqs)
		if len(p.callers) == 0 {
			// Never called (main, usually): no summary is needed, so its
			// path edges are plain sets of states, without the entry copy
			// (which, related to the current one, can be exponentially
			// larger: a rotation of the globals is).
			p.entryEq = bdd.True
		}
	}
	for _, n := range c.nodes {
		ch := 0
		switch n.kind {
		case kAssign:
			var tn, tc []int
			for _, v := range n.lhs {
				tn, tc = append(tn, c.vvar(v, copyN)), append(tc, c.vvar(v, copyC))
			}
			n.rel = c.equations(tn, n.exprs, &ch)
			n.targets = m.Cube(tc...)
			n.qcube = m.And(n.targets, c.cubeCh)
		case kCall:
			n.rel = c.equations(c.slots(len(n.exprs), copyX), n.exprs, &ch)
			var tc []int
			var eqs []bdd.Node
			for i, v := range n.lhs {
				tc = append(tc, c.vvar(v, copyC))
				eqs = append(eqs, m.Equiv(m.Var(c.vvar(v, copyC)), m.Var(c.lvar(i, copyN))))
			}
			n.retEq = m.AndAll(eqs)
			n.targets = m.Cube(tc...)
		case kReturn:
			n.rel = c.equations(c.slots(len(n.exprs), copyN), n.exprs, &ch)
			n.qcube = m.And(c.cubeL[copyC], c.cubeCh)
		case kAssume, kAssert, kBranch:
			e := c.expr(n.cond, copyC, &ch)
			n.condT = m.Exists(e, c.cubeCh)
			n.condF = m.Exists(m.Not(e), c.cubeCh)
		}
	}
}

// equations returns ∧_i vars[i] ↔ exprs[i], the expressions read in the
// current copy.
func (c *checker) equations(vars []int, exprs []boolprog.Expr, ch *int) bdd.Node {
	eqs := make([]bdd.Node, len(exprs))
	for i, e := range exprs {
		eqs[i] = c.m.Equiv(c.m.Var(vars[i]), c.expr(e, copyC, ch))
	}
	return c.m.AndAll(eqs)
}

// stop returns why the check must stop now, or "".
func (c *checker) stop() string {
	if err := c.m.Err(); err != nil {
		var le *bdd.LimitError
		if errors.As(err, &le) {
			return fmt.Sprintf("the BDD node bound was reached (%d nodes); raise it with --max-nodes", le.MaxNodes)
		}
		return err.Error()
	}
	if ctx := c.cfg.Context; ctx != nil && ctx.Err() != nil {
		return fmt.Sprintf("stopped: %v", context.Cause(ctx))
	}
	return ""
}

func (c *checker) run() *Result {
	n := len(c.nodes)
	c.pe = make([]bdd.Node, n)
	c.delta = make([]bdd.Node, n)
	c.hist = make([][]event, n)
	c.inWork = make([]bool, n)
	c.sum = make([]bdd.Node, len(c.procs))
	c.sumHist = make([][]event, len(c.procs))
	if r := c.stop(); r != "" {
		return &Result{Outcome: Inconclusive, Reason: r, Stats: c.stats}
	}
	main := c.byPI[c.info.Main]
	if main == nil {
		return &Result{Outcome: Inconclusive, Reason: "no procedure main", Stats: c.stats}
	}
	c.add(main.entry, main.entryEq)
	for len(c.work) > 0 && c.fail == nil {
		if r := c.stop(); r != "" {
			return &Result{Outcome: Inconclusive, Reason: r, Stats: c.stats}
		}
		id := c.work[0]
		c.work = c.work[1:]
		c.inWork[id] = false
		d := c.delta[id]
		c.delta[id] = bdd.False
		c.stats.Steps++
		c.step(c.nodes[id], d)
	}
	if r := c.stop(); r != "" {
		return &Result{Outcome: Inconclusive, Reason: r, Stats: c.stats}
	}
	if c.fail == nil {
		return &Result{Outcome: Safe, Stats: c.stats}
	}
	res := &Result{Outcome: Unsafe, Proc: c.fail.proc.name(), Stats: c.stats}
	res.Assert, _ = c.fail.stmt.(*boolprog.AssertStmt)
	res.Trail = c.trail(c.fail, c.bad)
	if r := c.stop(); r != "" {
		// The violation is real (found before the stop); only its trail
		// is missing.
		res.Trail, res.NoTrail = nil, "the trail was not rebuilt: "+r
	} else if res.Trail == nil {
		res.NoTrail = "the trail could not be rebuilt" // a bug: checkTrail's tests say so
	}
	res.TrailCut = c.cut
	res.Stats = c.stats
	res.Stats.TrailSteps = len(res.Trail)
	return res
}

// add adds the path edges set at node id.
func (c *checker) add(id int, set bdd.Node) {
	nw := c.grow(&c.pe[id], &c.hist[id], c.m.And(set, c.nodes[id].proc.enforce))
	if nw == bdd.False {
		return
	}
	c.stats.PathEdges++
	c.delta[id] = c.m.Or(c.delta[id], nw)
	if !c.inWork[id] {
		c.inWork[id] = true
		c.work = append(c.work, id)
	}
}

// grow adds set to *all and returns the part that is new, recorded in
// *hist at a new time.
func (c *checker) grow(all *bdd.Node, hist *[]event, set bdd.Node) bdd.Node {
	nw := c.m.Diff(set, *all)
	if nw != bdd.False {
		c.time++
		*all = c.m.Or(*all, nw)
		*hist = append(*hist, event{c.time, *all})
	}
	return nw
}

// addSummary adds the summary edges set of procedure p and applies the new
// ones at every call of p.
func (c *checker) addSummary(p *proc, set bdd.Node) {
	i := p.info.Index
	nw := c.grow(&c.sum[i], &c.sumHist[i], set)
	if nw == bdd.False {
		return
	}
	c.stats.Summaries++
	for _, id := range p.callers {
		call := c.nodes[id]
		c.add(call.succ[0], c.afterCall(call, c.pe[id], nw))
	}
}

// actuals relates the states of set at call node n to the callee's formals
// in the X copy: set ∧ ∧_j X_j ↔ arg_j.
func (c *checker) actuals(n *cnode, set bdd.Node) bdd.Node {
	return c.m.AndExists(set, n.rel, c.cubeCh)
}

// afterCall returns the states after call n from the states set before it,
// with the callee's summary edges sum.
func (c *checker) afterCall(n *cnode, set, sum bdd.Node) bdd.Node {
	m := c.m
	a := c.actuals(n, set)
	// ∃ pre-call globals, formals. a ∧ sum: the post-call globals in N, the
	// results in the N copy of slots 0..k-1.
	post := m.AndExists(a, sum, m.And(c.cubeG[copyC], c.cubeL[copyX]))
	post = m.Replace(post, c.gnToC)
	if len(n.lhs) == 0 {
		return m.Exists(post, c.cubeL[copyN])
	}
	return m.AndExists(m.Exists(post, n.targets), n.retEq, c.cubeL[copyN])
}

// entryOf returns the path edges at the callee's entry from the states set
// before call n.
func (c *checker) entryOf(n *cnode, set bdd.Node) bdd.Node {
	m := c.m
	a := c.actuals(n, set)
	a = m.Exists(a, m.And(c.cube[copyE], c.cubeL[copyC]))
	a = m.Replace(a, c.xToC)
	return m.And(a, n.callee.entryEq)
}

// exitSummary returns the summary edges of the path edges set at the exit
// node n (a return or the end).
func (c *checker) exitSummary(n *cnode, set bdd.Node) bdd.Node {
	m := c.m
	var q bdd.Node
	if n.kind == kReturn {
		q = m.AndExists(set, n.rel, n.qcube)
	} else {
		q = m.Exists(set, c.cubeL[copyC])
	}
	return m.Replace(q, c.exitRen)
}

// image returns the states after assignment n from set.
func (c *checker) image(n *cnode, set bdd.Node) bdd.Node {
	return c.m.Replace(c.m.AndExists(set, n.rel, n.qcube), c.nToC)
}

func (c *checker) step(n *cnode, d bdd.Node) {
	m := c.m
	switch n.kind {
	case kSkip:
		for _, s := range n.succ {
			c.add(s, d)
		}
	case kAssign:
		c.add(n.succ[0], c.image(n, d))
	case kAssume:
		c.add(n.succ[0], m.And(d, n.condT))
	case kAssert:
		if bad := m.And(d, n.condF); bad != bdd.False {
			c.fail, c.bad = n, bad
			return
		}
		c.add(n.succ[0], m.And(d, n.condT))
	case kBranch:
		c.add(n.succ[0], m.And(d, n.condT))
		c.add(n.succ[1], m.And(d, n.condF))
	case kCall:
		if n.callee == nil {
			return
		}
		c.add(n.callee.entry, c.entryOf(n, d))
		c.add(n.succ[0], c.afterCall(n, d, c.sum[n.callee.info.Index]))
	case kReturn, kEnd:
		if len(n.proc.callers) > 0 {
			c.addSummary(n.proc, c.exitSummary(n, d))
		}
	}
}
