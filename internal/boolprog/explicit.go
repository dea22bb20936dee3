package boolprog

import (
	"context"
	"fmt"

	"birch/internal/source"
)

// Verdict is the answer of a check.
type Verdict int

const (
	Pass         Verdict = iota // no assertion can fail
	Fail                        // an assertion fails; the Result has a trail
	Inconclusive                // a resource bound stopped the search; Reason says which
)

func (v Verdict) String() string {
	switch v {
	case Pass:
		return "pass"
	case Fail:
		return "fail"
	}
	return "inconclusive"
}

// DefaultMaxStates is the default bound on stored states (path edges,
// calling contexts and summaries together).
const DefaultMaxStates = 1 << 20

// MaxVarsExplicit is how many globals, and how many parameters and locals
// per procedure, the explicit checker can represent.
const MaxVarsExplicit = 64

// MaxTrailSteps bounds the steps a trail keeps; longer trails keep their
// last MaxTrailSteps steps.
const MaxTrailSteps = 100000

// Limits bounds a check. The zero value uses the defaults.
type Limits struct {
	MaxStates int // stored states; DefaultMaxStates when <= 0
	// MaxWork bounds the successor computations (including those that give
	// a state already stored); 16 * MaxStates when <= 0.
	MaxWork int
	// Context stops the check, inconclusive, when it is done (nil: never).
	Context context.Context
}

// Result is the outcome of CheckExplicit.
type Result struct {
	Verdict Verdict
	Reason  string // why the check is inconclusive
	// Assert is the failing assertion (Fail only) and AssertPos its position.
	Assert    *AssertStmt
	AssertPos source.Position
	// Trail is an execution from main to the failing assertion (Fail only):
	// each step is a state in which a statement is about to run, the last
	// one the assertion, with values for which it fails.
	Trail []Step
	// TrailCut reports that the trail was longer than MaxTrailSteps: its
	// first steps are left out.
	TrailCut  bool
	States    int // path edges stored: (calling context, statement, valuation)
	Contexts  int // calling contexts: (procedure, globals and parameters at entry)
	Summaries int // procedure summaries: (context, globals and results at exit)
}

// Step is one state of a trail: where the execution is and the values of the
// variables in scope there.
type Step struct {
	Proc   string
	Pos    source.Position // the statement about to run (the procedure's end for its exit)
	Label  string          // the statement's label, if any
	Stmt   string          // the statement's first line, "end" for the procedure's end
	Values []Value         // globals, then the procedure's parameters and locals
}

// Value is one variable's value in a trail step.
type Value struct {
	Name  string `json:"name"`
	Value bool   `json:"value"`
}

// CheckExplicit decides whether an assertion of the resolved program can
// fail in an execution that starts in main with all variables unconstrained.
// info must come from a Resolve that reported no error.
//
// It is the tabulation algorithm of Reps, Horwitz and Sagiv, as in Bebop,
// over explicit valuations: a path edge is a procedure's calling context (its
// globals and parameters at entry) and a state (statement, globals, locals)
// reachable from it; a summary is a context and a (globals, results) pair at
// the procedure's return. A call whose context has been seen reuses its
// summaries, so recursion needs no depth bound and the result is exact. The
// search stops with Inconclusive when it would store more than
// Limits.MaxStates states or do more than Limits.MaxWork steps, or when a
// scope has more than MaxVarsExplicit variables; never with a guess.
func CheckExplicit(fset *source.FileSet, info *Info, lim Limits) *Result {
	if info.Main == nil {
		return &Result{Verdict: Inconclusive, Reason: "the program has no procedure main"}
	}
	if len(info.Globals) > MaxVarsExplicit {
		return &Result{Verdict: Inconclusive, Reason: fmt.Sprintf("%d global variables: the explicit checker handles at most %d", len(info.Globals), MaxVarsExplicit)}
	}
	for _, pi := range info.Procs {
		if len(pi.Vars) > MaxVarsExplicit {
			return &Result{Verdict: Inconclusive, Reason: fmt.Sprintf("procedure %s has %d parameters and locals: the explicit checker handles at most %d", pi.Proc.Name.Name, len(pi.Vars), MaxVarsExplicit)}
		}
	}
	if lim.MaxStates <= 0 {
		lim.MaxStates = DefaultMaxStates
	}
	if lim.MaxWork <= 0 {
		lim.MaxWork = 16 * lim.MaxStates
	}
	t := &tabulation{
		fset:    fset,
		info:    info,
		graphs:  buildGraphs(info),
		lim:     lim,
		edgeIdx: map[edgeKey]int32{},
		ctxIdx:  map[ctxKey]int32{},
		sumIdx:  map[sumKey]int32{},
		failure: -1,
	}
	res := t.run()
	res.States, res.Contexts, res.Summaries = len(t.edges), len(t.ctxs), len(t.sums)
	return res
}

type edgeKey struct {
	ctx, node int32
	g, l      uint64
}

type ctxKey struct {
	proc int32
	g, p uint64
}

type sumKey struct {
	ctx     int32
	g, rets uint64
}

// How a path edge was first reached.
const (
	viaEntry  uint8 = iota // a context's entry state
	viaStep                // from edge `from` in the same context
	viaReturn              // from call edge `from`, through summary `sum`
)

type pathEdge struct {
	ctx, node int32
	g, l      uint64
	how       uint8
	from      int32
	sum       int32
}

type callContext struct {
	proc    int32
	g, p    uint64
	creator int32   // the call edge that first reached the context; -1 for main
	callers []int32 // call edges waiting for the context's summaries
	sums    []int32
}

type summary struct {
	ctx     int32
	g, rets uint64
	exit    int32 // the path edge at the return that produced it
}

type tabulation struct {
	fset    *source.FileSet
	info    *Info
	graphs  []*procGraph
	lim     Limits
	edges   []pathEdge
	edgeIdx map[edgeKey]int32
	ctxs    []callContext
	ctxIdx  map[ctxKey]int32
	sums    []summary
	sumIdx  map[sumKey]int32
	queue   []int32
	work    int
	over    string // set when a bound is exceeded
	failure int32  // the path edge at a failing assertion, or -1
}

func (t *tabulation) stored() int { return len(t.edges) + len(t.ctxs) + len(t.sums) }

func (t *tabulation) full() bool {
	if t.over != "" {
		return true
	}
	if t.stored() >= t.lim.MaxStates {
		t.over = fmt.Sprintf("the state bound was reached (%d states, contexts and summaries stored); raise it with --max-states", t.stored())
	} else if t.work >= t.lim.MaxWork {
		t.over = fmt.Sprintf("the work bound was reached (%d successor computations)", t.work)
	} else if ctx := t.lim.Context; ctx != nil && t.work%1024 == 0 && ctx.Err() != nil {
		t.over = fmt.Sprintf("stopped: %v", context.Cause(ctx))
	}
	return t.over != ""
}

func (t *tabulation) stop() bool { return t.over != "" || t.failure >= 0 }

func (t *tabulation) run() *Result {
	main := t.graphs[t.info.Main.Index]
	ng := len(t.info.Globals)
	// Every initial valuation of the globals and of main's parameters is a
	// context of its own; they are explored one after the other so that a
	// violation from the first ones is found without enumerating all.
	for g := uint64(0); ; g++ {
		for p := uint64(0); ; p++ {
			t.context(int32(main.info.Index), g, p, -1)
			t.drain()
			if t.stop() || p == lastValue(main.nparams) {
				break
			}
		}
		if t.stop() || g == lastValue(ng) {
			break
		}
	}
	switch {
	case t.failure >= 0:
		return t.failed()
	case t.over != "":
		return &Result{Verdict: Inconclusive, Reason: t.over}
	}
	return &Result{Verdict: Pass}
}

// lastValue is the largest valuation of n bits.
func lastValue(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<n - 1
}

func (t *tabulation) drain() {
	for len(t.queue) > 0 && !t.stop() {
		e := t.queue[0]
		t.queue = t.queue[1:]
		t.process(e)
	}
	if len(t.queue) == 0 {
		t.queue = nil // let the backing array go
	}
}

// context returns the calling context of proc entered with globals g and
// parameters p, creating it and its entry states when new.
func (t *tabulation) context(proc int32, g, p uint64, creator int32) int32 {
	key := ctxKey{proc, g, p}
	if id, ok := t.ctxIdx[key]; ok {
		return id
	}
	if t.full() {
		return -1
	}
	id := int32(len(t.ctxs))
	t.ctxs = append(t.ctxs, callContext{proc: proc, g: g, p: p, creator: creator})
	t.ctxIdx[key] = id
	pg := t.graphs[proc]
	// Locals start unconstrained: one entry state per valuation of them.
	nlocals := pg.nvars - pg.nparams
	for x := uint64(0); ; x++ {
		l := p
		if pg.nparams < 64 {
			l |= x << pg.nparams
		}
		t.add(id, pg.entry, g, l, viaEntry, -1, -1)
		if t.stop() || x == lastValue(nlocals) {
			break
		}
	}
	return id
}

// add stores a path edge unless it is known or violates the procedure's
// enforce invariant.
func (t *tabulation) add(ctx, n int32, g, l uint64, how uint8, from, sum int32) {
	t.work++
	if t.work >= t.lim.MaxWork && t.full() {
		return
	}
	pg := t.graphs[t.ctxs[ctx].proc]
	if pg.enforce != nil && pg.enforce.eval(g, l)&canTrue == 0 {
		return
	}
	key := edgeKey{ctx, n, g, l}
	if _, ok := t.edgeIdx[key]; ok {
		return
	}
	if t.full() {
		return
	}
	id := int32(len(t.edges))
	t.edges = append(t.edges, pathEdge{ctx: ctx, node: n, g: g, l: l, how: how, from: from, sum: sum})
	t.edgeIdx[key] = id
	t.queue = append(t.queue, id)
}

// assign gives each variable of lhs a value from the sets vals, in every
// combination, and calls emit with each resulting valuation.
func assign(lhs []varRef, vals []uint8, g, l uint64, emit func(g, l uint64) bool) {
	var rec func(i int, g, l uint64) bool
	rec = func(i int, g, l uint64) bool {
		if i == len(lhs) {
			return emit(g, l)
		}
		for b := uint8(0); b < 2; b++ {
			if vals[i]&(1<<b) == 0 {
				continue
			}
			g2, l2 := g, l
			w := &l2
			if lhs[i].global {
				w = &g2
			}
			*w = *w&^(1<<lhs[i].bit) | uint64(b)<<lhs[i].bit
			if !rec(i+1, g2, l2) {
				return false
			}
		}
		return true
	}
	rec(0, g, l)
}

// vector enumerates the bit vectors whose bit i is in vals[i].
func vector(vals []uint8, emit func(v uint64) bool) {
	var rec func(i int, v uint64) bool
	rec = func(i int, v uint64) bool {
		if i == len(vals) {
			return emit(v)
		}
		for b := uint64(0); b < 2; b++ {
			if vals[i]&(1<<b) != 0 && !rec(i+1, v|b<<i) {
				return false
			}
		}
		return true
	}
	rec(0, 0)
}

func evalAll(list []*cexpr, g, l uint64) []uint8 {
	out := make([]uint8, len(list))
	for i, e := range list {
		out[i] = e.eval(g, l)
	}
	return out
}

func (t *tabulation) process(id int32) {
	e := t.edges[id]
	pg := t.graphs[t.ctxs[e.ctx].proc]
	n := &pg.nodes[e.node]
	step := func(next int32, g, l uint64) bool {
		t.add(e.ctx, next, g, l, viaStep, id, -1)
		return !t.stop()
	}
	switch n.kind {
	case nSkip:
		step(n.next, e.g, e.l)
	case nAssign:
		assign(n.lhs, evalAll(n.rhs, e.g, e.l), e.g, e.l, func(g, l uint64) bool { return step(n.next, g, l) })
	case nAssume:
		if n.cond.eval(e.g, e.l)&canTrue != 0 {
			step(n.next, e.g, e.l)
		}
	case nAssert:
		v := n.cond.eval(e.g, e.l)
		if v&canFalse != 0 {
			t.failure = id
			return
		}
		step(n.next, e.g, e.l)
	case nGoto:
		for _, target := range n.targets {
			if !step(target, e.g, e.l) {
				return
			}
		}
	case nBranch:
		v := n.cond.eval(e.g, e.l)
		if v&canTrue != 0 && !step(n.next, e.g, e.l) {
			return
		}
		if v&canFalse != 0 {
			step(n.alt, e.g, e.l)
		}
	case nCall:
		vector(evalAll(n.rhs, e.g, e.l), func(p uint64) bool {
			c := t.context(n.callee, e.g, p, id)
			if c < 0 {
				return false
			}
			t.ctxs[c].callers = append(t.ctxs[c].callers, id)
			for i := 0; i < len(t.ctxs[c].sums) && !t.stop(); i++ {
				t.returnTo(id, t.ctxs[c].sums[i])
			}
			return !t.stop()
		})
	case nReturn, nExit:
		vals := evalAll(n.rhs, e.g, e.l)
		if n.kind == nExit {
			vals = make([]uint8, pg.info.Proc.Returns)
			for i := range vals {
				vals[i] = either
			}
		}
		vector(vals, func(r uint64) bool {
			t.summary(e.ctx, e.g, r, id)
			return !t.stop()
		})
	}
}

// summary records that context ctx can return with globals g and results
// rets, and passes it to every caller waiting for the context.
func (t *tabulation) summary(ctx int32, g, rets uint64, exit int32) {
	t.work++
	key := sumKey{ctx, g, rets}
	if _, ok := t.sumIdx[key]; ok || t.full() {
		return
	}
	id := int32(len(t.sums))
	t.sums = append(t.sums, summary{ctx: ctx, g: g, rets: rets, exit: exit})
	t.sumIdx[key] = id
	t.ctxs[ctx].sums = append(t.ctxs[ctx].sums, id)
	for i := 0; i < len(t.ctxs[ctx].callers) && !t.stop(); i++ {
		t.returnTo(t.ctxs[ctx].callers[i], id)
	}
}

// returnTo continues call edge call after its callee returned as summary sum.
func (t *tabulation) returnTo(call, sum int32) {
	ce := t.edges[call]
	s := t.sums[sum]
	n := &t.graphs[t.ctxs[ce.ctx].proc].nodes[ce.node]
	g, l := s.g, ce.l
	for i, ref := range n.lhs {
		b := s.rets >> i & 1
		if ref.global {
			g = g&^(1<<ref.bit) | b<<ref.bit
		} else {
			l = l&^(1<<ref.bit) | b<<ref.bit
		}
	}
	t.add(ce.ctx, n.next, g, l, viaReturn, call, sum)
}
