package search

import (
	"fmt"
	"math/rand/v2"
	"time"

	"birch/internal/ltl"
	"birch/internal/model"
)

// Labeler evaluates the propositions of an automaton on a model state: bit
// i of the mask is proposition i. model.Evaluator is one.
type Labeler interface {
	Mask(state []byte) (mask uint64, failed int, err *model.CondError)
}

// Property is what the product search checks: an automaton for the
// negation of an LTL formula, whose accepted runs are the violations.
type Property struct {
	// Automaton accepts the executions that violate the formula: the
	// translation of its negation.
	Automaton *ltl.Automaton
	// Labels evaluates the automaton's propositions.
	Labels Labeler
	// Fair keeps only executions that are weakly fair to every thread: a
	// thread that is enabled in every state from some point on moves
	// infinitely often.
	Fair bool
	// Msg is the message of a violation (for instance "ltl property p
	// violated: [] (req -> <> ack)").
	Msg string
}

// LTLResult is the result of a product search. For an LTL violation the
// Trail is a lasso: its first CycleStart ordinals lead from the initial
// state to a state s, and the rest, the cycle, lead from s back to s; the
// execution repeats the cycle forever. When Stutter is set the cycle has no
// steps: the execution ends in the state the trail leads to (every thread
// has terminated, or no thread can move) and repeats that state forever.
// For a runtime error found during the search the Trail is a finite trail
// as in Result and CycleStart is -1.
type LTLResult struct {
	Result
	CycleStart int
	Stutter    bool
	// AutomatonStates is the number of states of the automaton.
	AutomatonStates int
}

// Prefix and Cycle split a lasso trail.
func (r *LTLResult) Prefix() []int {
	if r.CycleStart < 0 {
		return r.Trail
	}
	return r.Trail[:r.CycleStart]
}

// Cycle returns the cycle of a lasso trail (nil for a finite trail or a
// stutter cycle).
func (r *LTLResult) Cycle() []int {
	if r.CycleStart < 0 {
		return nil
	}
	return r.Trail[r.CycleStart:]
}

// marks are the acceptance marks of a product edge: the automaton's sets
// and, for weak fairness, one bit per thread that the edge satisfies (the
// thread moves on the edge, or cannot move in the edge's source state).
type marks struct{ a, t uint64 }

func (x marks) or(y marks) marks      { return marks{x.a | y.a, x.t | y.t} }
func (x marks) covers(all marks) bool { return x.a&all.a == all.a && x.t&all.t == all.t }
func (x marks) minus(y marks) marks   { return marks{x.a &^ y.a, x.t &^ y.t} }
func (x marks) meets(y marks) bool    { return x.a&y.a != 0 || x.t&y.t != 0 }
func (x marks) empty() bool           { return x.a == 0 && x.t == 0 }
func (x marks) and(y marks) marks     { return marks{x.a & y.a, x.t & y.t} }
func allMarks(numAcc int) (all marks) { return marks{a: allBits(numAcc), t: ^uint64(0)} }
func allBits(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}
func threadMarks(enabled uint64) uint64 { return ^enabled }

// pedge is a product edge waiting on the DFS stack.
type pedge struct {
	id     StateID
	m      marks
	ord    int32 // the model step's ordinal; -1 for a stutter step
	thread int32 // the thread that moved; -1 for a stutter step
}

// pframe is a product state on the DFS stack with its edges succ[start:end]
// (next is the one to follow next).
type pframe struct {
	id              StateID
	start, next, to int
}

// root is an entry of the root stack of Couvreur's algorithm: the DFS number
// of the first state of a (so far) strongly connected component, the marks
// of the edges inside it, and the marks of the edge that entered it.
type root struct {
	num uint64
	acc marks
	in  marks
}

const deadState = ^uint64(0) // aux of a state whose component is complete

// product holds one product search's state.
type product struct {
	s    *searcher
	prop Property
	aut  *ltl.Automaton
	all  marks
	qw   int // bytes of the automaton state at the end of a product key
	key  []byte
	// the edges of the states on the DFS stack (each frame's
	// succ[start:to]), the stack, Couvreur's root stack and the live
	// states: in chunks, so that their memory is known and grows without
	// copies (see chunkStack)
	succ chunkStack[pedge]
	// product edges whose target is inserted by flush: the keys, their
	// hashes (the table slots are prefetched as they come) and the edges
	bkeys []byte
	boff  []int32
	bhash []uint64
	bedge []pedge
	stack chunkStack[pframe]
	roots chunkStack[root]
	live  chunkStack[StateID]
	count uint64
	// the most edges one expansion added (see account)
	maxEdges int

	// the state being expanded
	enabled  uint64
	edges    []ltl.Edge // automaton edges enabled by the state's label
	base     int        // len(succ) when the expansion started
	lookup   bool       // look successors up instead of inserting them
	visitFn  func(*model.Step)
	hasOK    bool
	failStep *model.Step

	res *LTLResult
}

// RunLTL searches the product of m and p.Automaton for an accepting run:
// an execution of m that violates the formula. It uses the on-the-fly
// emptiness check of Couvreur ("On-the-fly verification of linear temporal
// logic", FM 1999): a depth-first search that maintains the strongly
// connected components of the product and the acceptance marks of their
// edges, and stops as soon as a component holds every mark; the marks
// include, with p.Fair, one per thread for weak fairness. Each product
// state is expanded once; each expansion evaluates the propositions on the
// model state once and generates the model's successors once.
//
// Finite executions are extended by repeating their last state: a state
// with no outcome at all (every thread has terminated, or a deadlock) has a
// stutter step to itself. A state whose outcomes are all cut (bounds of the
// model, --choose-free) has no successor in the product, and the search
// reports the cut as for a safety search. Runtime errors found on the way
// are violations, as in Run; deadlocks are not (they stutter).
//
// cfg.Strategy is ignored (the search is depth first); cfg.MaxDepth bounds
// the depth-first stack; cfg.NoDeadlock is irrelevant.
func RunLTL(m Model, p Property, cfg Config) *LTLResult {
	s := &searcher{m: m, cfg: cfg, start: time.Now(), limits: map[limitKey]*LimitHit{}}
	s.lastProg = s.start
	s.rng = rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	s.store = NewStateStore(1)
	pr := &product{s: s, prop: p, aut: p.Automaton, res: &LTLResult{CycleStart: -1, AutomatonStates: len(p.Automaton.States)}}
	pr.all = allMarks(pr.aut.NumAcc)
	if !p.Fair {
		pr.all.t = 0
	}
	switch n := len(pr.aut.States); {
	case n <= 1<<8:
		pr.qw = 1
	case n <= 1<<16:
		pr.qw = 2
	default:
		pr.qw = 4
	}
	pr.visitFn = pr.visit
	init, fail := m.Initial(nil)
	if fail != nil {
		if fail.Outcome == model.Limit && !cfg.LimitError {
			s.visit(fail)
			s.res.Stats.Transitions = 0
		} else {
			s.violation(fail, -1)
		}
		return pr.finish()
	}
	id, _ := s.store.Insert(pr.productKey(init, pr.aut.Init), 0)
	pr.search(id)
	r := pr.finish()
	s.store.Release()
	return r
}

func (pr *product) finish() *LTLResult {
	r := pr.s.finish()
	if r.Verdict == Pass {
		r.Reason = "no violation: every reachable state of the product with the property's automaton was explored"
	}
	pr.res.Result = *r
	return pr.res
}

// productKey is the model state followed by the automaton state.
func (pr *product) productKey(state []byte, q int) []byte {
	pr.key = append(pr.key[:0], state...)
	for i := 0; i < pr.qw; i++ {
		pr.key = append(pr.key, byte(q>>(8*i)))
	}
	return pr.key
}

// split returns the model state and the automaton state of a product key.
func (pr *product) split(key []byte) ([]byte, int) {
	n := len(key) - pr.qw
	q := 0
	for i := 0; i < pr.qw; i++ {
		q |= int(key[n+i]) << (8 * i)
	}
	return key[:n], q
}

// expand generates the product edges of state id onto pr.succ. It returns
// false when the search must stop (a violation).
func (pr *product) expand(id StateID, depth int) bool {
	s := pr.s
	state, q := pr.split(s.store.State(id))
	pr.base = pr.succ.len()
	if depth > s.res.Stats.MaxDepth {
		s.res.Stats.MaxDepth = depth
	}
	s.atBound = s.cfg.MaxDepth > 0 && depth >= s.cfg.MaxDepth
	label, failed, err := pr.prop.Labels.Mask(state)
	if err != nil {
		name := fmt.Sprint(failed)
		if failed < len(pr.aut.Props) {
			name = pr.aut.Props[failed]
		}
		s.violation(&model.Step{Kind: err.Kind, Msg: "in proposition " + name + ": " + err.Msg, Pos: err.Pos, Thread: -1}, -1)
		return false
	}
	pr.edges = pr.edges[:0]
	for _, e := range pr.aut.States[q].Edges {
		if e.Enabled(label) {
			pr.edges = append(pr.edges, e)
		}
	}
	if len(pr.edges) == 0 {
		return true
	}
	pr.enabled, pr.hasOK = 0, false
	s.genLimits = s.genLimits[:0] // (only depth-first search takes a generation back)
	n, _ := s.m.Next(state, pr.visitFn)
	if s.found {
		// (the edges before the violation are stored, as when they
		// were inserted one by one)
		pr.flush()
		return false
	}
	if n == 0 {
		// a finite execution: it repeats its last state forever
		for _, e := range pr.edges {
			pr.add(pr.productKey(state, e.To), marks{e.Acc, ^uint64(0)}, -1, -1)
		}
		pr.flush()
		return true
	}
	pr.flush()
	t := threadMarks(pr.enabled)
	for i := pr.base; i < pr.succ.len(); i++ {
		e := pr.succ.at(i)
		e.m.t = t | 1<<uint(e.thread)
	}
	return true
}

// visit handles one outcome of the model state being expanded.
func (pr *product) visit(st *model.Step) {
	s := pr.s
	if s.found || s.cfg.ChooseFree && st.Intern {
		return
	}
	switch st.Outcome {
	case model.OK:
		pr.enabled |= 1 << uint(st.Thread)
		for _, e := range pr.edges {
			pr.add(pr.productKey(st.State, e.To), marks{a: e.Acc}, int32(st.Ordinal), int32(st.Thread))
		}
	default:
		if !pr.lookup { // (a state expanded again has counted its outcomes)
			s.visit(st) // counts it; errors are violations, limits are counted
		}
	}
}

// add records a product edge to the state with the given key.
func (pr *product) add(key []byte, m marks, ord, thread int32) {
	s := pr.s
	s.res.Stats.Transitions++
	var id StateID
	if pr.lookup || s.atBound {
		var ok bool
		id, ok = s.store.Lookup(key)
		if !ok {
			if !pr.lookup {
				s.cut = true
			}
			return
		}
	} else {
		// batched: flush inserts it, after the state's other edges
		h := s.store.Hash(key)
		s.store.Prefetch(h)
		pr.boff = append(pr.boff, int32(len(pr.bkeys)))
		pr.bkeys = append(pr.bkeys, key...)
		pr.bhash = append(pr.bhash, h)
		pr.bedge = append(pr.bedge, pedge{m: m, ord: ord, thread: thread})
		return
	}
	pr.succ.push(pedge{id: id, m: m, ord: ord, thread: thread})
}

// flush inserts the targets of the batched edges (add) and appends the
// edges to pr.succ, in the order they were added.
func (pr *product) flush() {
	n := len(pr.bedge)
	if n == 0 {
		return
	}
	s := pr.s
	pr.boff = append(pr.boff, int32(len(pr.bkeys)))
	s.sink += s.store.TouchSlots(pr.bhash)
	for k := range n {
		e := pr.bedge[k]
		e.id, _ = s.store.InsertHash(pr.bkeys[pr.boff[k]:pr.boff[k+1]], pr.bhash[k], 0)
		pr.succ.push(e)
	}
	pr.bkeys, pr.boff, pr.bhash, pr.bedge = pr.bkeys[:0], pr.boff[:0], pr.bhash[:0], pr.bedge[:0]
}

// push starts the DFS of a product state entered by an edge with marks in.
func (pr *product) push(id StateID, in marks) bool {
	s := pr.s
	pr.count++
	s.store.SetAux(id, pr.count)
	pr.roots.push(root{num: pr.count, in: in})
	pr.live.push(id)
	start := pr.succ.len()
	ok := pr.expand(id, pr.stack.len())
	pr.stack.push(pframe{id: id, start: start, next: start, to: pr.succ.len()})
	pr.account()
	return ok
}

// account sets the memory the search's stacks hold and the memory their
// growth may take before the next check of the limits. A stack that took
// a new chunk makes the next check look at the memory, so that the
// growth to allow for is that of one expansion: a chunk of each stack,
// and of the edge stack as many as the largest expansion so far needs.
func (pr *product) account() {
	s := pr.s
	held := pr.succ.bytes() + pr.stack.bytes() + pr.roots.bytes() + pr.live.bytes()
	if held != s.stackMem {
		s.nextCheck = 0
	}
	s.stackMem = held
	edges := pr.succ.len() - pr.stack.top().start
	pr.maxEdges = max(pr.maxEdges, edges)
	s.stackGrowth = int64(pr.maxEdges>>chunkShift)*pr.succ.growth() + pr.succ.growth() +
		pr.stack.growth() + pr.roots.growth() + pr.live.growth()
}

// search is Couvreur's algorithm, iteratively.
func (pr *product) search(init StateID) {
	s := pr.s
	if !pr.push(init, marks{}) {
		pr.errorTrail()
		return
	}
	for pr.stack.len() > 0 {
		if !s.check() {
			return
		}
		f := pr.stack.top()
		if f.next < f.to {
			e := *pr.succ.at(f.next)
			f.next++
			aux := s.store.Aux(e.id)
			switch {
			case aux == 0:
				if !pr.push(e.id, e.m) {
					pr.errorTrail()
					return
				}
			case aux == deadState:
			default:
				acc := e.m
				for aux < pr.roots.top().num {
					r := pr.roots.pop()
					acc = acc.or(r.acc).or(r.in)
				}
				top := pr.roots.top()
				top.acc = top.acc.or(acc)
				if top.acc.covers(pr.all) {
					pr.lasso(top.num)
					return
				}
			}
			continue
		}
		// all edges followed: leave the state
		id := f.id
		pr.succ.truncate(f.start)
		pr.stack.pop()
		if r := pr.roots.top(); r.num == s.store.Aux(id) {
			pr.roots.pop()
			for {
				v := pr.live.pop()
				s.store.SetAux(v, deadState)
				if v == id {
					break
				}
			}
		}
	}
}

// stackOrdinals returns the model ordinals of the steps along the DFS stack
// from frame 0's state to frame k's (stutter steps have none).
func (pr *product) stackOrdinals(k int) []int {
	var ords []int
	for i := 0; i < k; i++ {
		if o := pr.succ.at(pr.stack.at(i).next - 1).ord; o >= 0 {
			ords = append(ords, int(o))
		}
	}
	return ords
}

// errorTrail sets the trail of a runtime error (or a failing proposition)
// found while expanding the state on top of the stack.
func (pr *product) errorTrail() {
	s := pr.s
	tr := pr.stackOrdinals(pr.stack.len() - 1)
	if s.failOrd >= 0 {
		tr = append(tr, s.failOrd)
	}
	s.res.Trail = tr
}

// lasso builds the counterexample for the accepting component whose root
// has DFS number num: the stack up to the root, then a cycle through the
// component that takes edges of every acceptance set (and, with Fair, of
// every thread's fairness set).
func (pr *product) lasso(num uint64) {
	s := pr.s
	if !pr.lassoRoom(0) {
		return
	}
	k := 0
	for i := range pr.stack.len() {
		if s.store.Aux(pr.stack.at(i).id) == num {
			k = i
			break
		}
	}
	prefix := pr.stackOrdinals(k)
	rootID := pr.stack.at(k).id
	inSCC := func(id StateID) bool {
		a := s.store.Aux(id)
		return a != 0 && a != deadState && a >= num
	}
	// walk from the root, each time to the nearest edge that carries a
	// mark still needed, then back to the root
	var cycle []pedge
	need := pr.all
	cur := rootID
	for !need.empty() || len(cycle) == 0 {
		path := pr.bfs(cur, inSCC, func(from StateID, e pedge) bool {
			if need.empty() {
				return e.id == rootID
			}
			return e.m.meets(need)
		})
		if pr.lassoStopped() {
			return
		}
		if path == nil {
			panic("search: no accepting cycle in an accepting component")
		}
		for _, e := range path {
			need = need.minus(e.m.and(pr.all))
			cycle = append(cycle, e)
		}
		cur = path[len(path)-1].id
		if need.empty() && cur == rootID {
			break
		}
	}
	if cur != rootID {
		path := pr.bfs(cur, inSCC, func(from StateID, e pedge) bool { return e.id == rootID })
		if pr.lassoStopped() {
			return
		}
		cycle = append(cycle, path...)
	}
	var cyc []int
	stutter := false
	for _, e := range cycle {
		if e.ord < 0 {
			stutter = true
			continue
		}
		cyc = append(cyc, int(e.ord))
	}
	if stutter && len(cyc) > 0 {
		panic("search: a cycle mixes stutter and model steps")
	}
	s.found = true
	s.res.Violation = &Violation{Kind: model.LTLViolated, Msg: pr.prop.Msg, Thread: -1}
	s.res.Trail = append(prefix, cyc...)
	pr.res.CycleStart = len(prefix)
	pr.res.Stutter = stutter
}

// lassoStateBytes is about what the breadth-first searches of lasso hold
// for each state they visit (the maps of visited states and of their
// predecessors, and the queue).
const lassoStateBytes = 128

// lassoRoom reports whether building the counterexample may go on with
// visited states in its breadth-first search: Ctrl-C (cfg.Stop), the time
// limit and the memory limit, which counts the search's memory and
// lassoStateBytes a visited state, stop it. It records why in s.stopped.
func (pr *product) lassoRoom(visited int) bool {
	s := pr.s
	why := ""
	switch {
	case s.cfg.Stop != nil && s.cfg.Stop.Load() || s.cfg.stopAtLasso:
		why = "interrupted"
		if s.cfg.StopReason != nil && !s.cfg.stopAtLasso {
			why = s.cfg.StopReason()
		}
	case s.cfg.MaxMemory > 0 && s.memory()+s.cacheBytes()+int64(visited)*lassoStateBytes+4<<20 >= s.cfg.MaxMemory:
		why = fmt.Sprintf("memory limit reached (--max-memory=%s)", FormatBytes(s.cfg.MaxMemory))
	case s.cfg.TimeLimit > 0 && time.Since(s.start) >= s.cfg.TimeLimit:
		why = fmt.Sprintf("time limit reached (--time-limit=%s)", s.cfg.TimeLimit)
	default:
		return true
	}
	s.stopped = "the product has an accepting cycle (the property is violated), but building the counterexample was stopped: " + why
	return false
}

// lassoStopped reports whether lassoRoom stopped the counterexample.
func (pr *product) lassoStopped() bool { return pr.s.stopped != "" }

// bfs finds a shortest path of product edges from `from`, inside the
// states that ok accepts, whose last edge satisfies goal. It regenerates
// successors (looking states up, never adding them).
func (pr *product) bfs(from StateID, ok func(StateID) bool, goal func(StateID, pedge) bool) []pedge {
	type link struct {
		parent StateID
		e      pedge
	}
	pred := map[StateID]link{}
	queue := []StateID{from}
	seen := map[StateID]bool{from: true}
	saveLookup, saveBound, saveTrans := pr.lookup, pr.s.atBound, pr.s.res.Stats.Transitions
	pr.lookup = true
	defer func() {
		pr.lookup, pr.s.atBound, pr.s.res.Stats.Transitions = saveLookup, saveBound, saveTrans
	}()
	for len(queue) > 0 {
		if len(seen)&1023 == 0 && !pr.lassoRoom(len(seen)) {
			return nil
		}
		u := queue[0]
		queue = queue[1:]
		base := pr.succ.len()
		pr.expandAgain(u)
		var edges []pedge
		for i := base; i < pr.succ.len(); i++ {
			edges = append(edges, *pr.succ.at(i))
		}
		pr.succ.truncate(base)
		for _, e := range edges {
			if !ok(e.id) {
				continue
			}
			if goal(u, e) {
				path := []pedge{e}
				for v := u; v != from; {
					l := pred[v]
					path = append(path, l.e)
					v = l.parent
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			}
			if !seen[e.id] {
				seen[e.id] = true
				pred[e.id] = link{u, e}
				queue = append(queue, e.id)
			}
		}
	}
	return nil
}

// expandAgain regenerates the product edges of a state already expanded.
func (pr *product) expandAgain(id StateID) {
	s := pr.s
	found, stopped := s.found, s.stopped
	pr.expand(id, 0)
	s.found, s.stopped = found, stopped
	s.atBound = false
}
