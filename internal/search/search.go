package search

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"sync/atomic"
	"time"

	"birch/internal/model"
	"birch/internal/source"
)

// Model is what a search needs of a compiled model.
type Model interface {
	// Initial appends the initial state to dst; a failure creating it is
	// returned as a Step with Outcome Error or Limit.
	Initial(dst []byte) ([]byte, *model.Step)
	// Next calls yield for each outcome of state and returns their number
	// and whether every thread has terminated.
	Next(state []byte, yield func(*model.Step)) (n int, allDone bool)
}

// Strategy is the order of exploration.
type Strategy int

// Strategies.
const (
	DFS    Strategy = iota // depth-first (default)
	BFS                    // breadth-first: shortest trails
	Random                 // depth-first with successors in random order
)

func (s Strategy) String() string {
	return [...]string{"dfs", "bfs", "random"}[s]
}

// Config configures a search; its zero value is a complete DFS with
// deadlock detection and no resource limits.
type Config struct {
	Strategy   Strategy
	Seed       uint64
	MaxDepth   int   // 0: unbounded; else paths of more steps are cut
	MaxStates  int   // 0: unbounded
	MaxMemory  int64 // bytes held by the store and stack or queue; 0: unbounded
	TimeLimit  time.Duration
	ChooseFree bool // skip steps that execute internChoose, forall or reachable (model.Step.Intern)
	NoDeadlock bool // do not report deadlocks
	LimitError bool // a LimitState is a violation (--on-limit=error)
	// Stop, when set by another goroutine, ends the search (Ctrl-C).
	Stop *atomic.Bool
	// StopReason, if set, says why Stop was set, for the result's Reason
	// ("interrupted" otherwise); it is called once Stop is true.
	StopReason func() string
	// Progress, if set, is called about once every ProgressEvery (a
	// second when ProgressEvery is 0).
	Progress      func(Stats)
	ProgressEvery time.Duration
	// Visit, if set, is called for each state the search stores, when it
	// stores it (the initial state first), with its depth: the number of
	// steps of the path by which the search reached it (breadth-first: the
	// shortest trail; depth-first: the search's path then). The call that
	// gives a state is the search's first generation of it, since a state
	// generated again is found stored. state is valid only during the call.
	// The experiment of bench/amcs observes its injected errors with it.
	Visit func(state []byte, depth int)

	// storeIDBits, when not 0, is the store's initial number of id bits
	// in place of stateInitIDBits: tests raise it to leave few hash bits
	// in a slot, so that depth-first search's deferred successors are
	// often new (see dfs).
	storeIDBits uint
	// stopAtLasso, in tests, stops the product search as if by Stop when
	// it starts building a counterexample.
	stopAtLasso bool
	// deferAll, in tests, makes depth-first search defer every successor
	// to verify, as if each matched a stored state's hash bits: then every
	// new state is a late one.
	deferAll bool
}

// Verdict is the outcome of a search.
type Verdict int

// Verdicts.
const (
	Pass Verdict = iota
	Fail
	Inconclusive
)

func (v Verdict) String() string { return [...]string{"pass", "fail", "inconclusive"}[v] }

// Stats are the counters of a search.
type Stats struct {
	States      int     // states stored
	Transitions int64   // successor edges generated, including those to stored states
	MaxDepth    int     // deepest state reached
	Seconds     float64 // wall time
	Memory      int64   // bytes held by the state store and the search's stack or queue
}

// StatesPerSecond is States / Seconds.
func (s Stats) StatesPerSecond() float64 {
	if s.Seconds <= 0 {
		return 0
	}
	return float64(s.States) / s.Seconds
}

// BytesPerState is Memory / States.
func (s Stats) BytesPerState() float64 {
	if s.States == 0 {
		return 0
	}
	return float64(s.Memory) / float64(s.States)
}

// Violation is a property violation found by a search.
type Violation struct {
	Kind   model.ErrorKind
	Msg    string
	Thread int // index of the thread that failed (-1 for a deadlock)
	Pos    source.Pos
	Groups []int32 // the transformations of the failing step
}

// LimitHit counts the paths cut by one bound.
type LimitHit struct {
	Msg   string
	Pos   source.Pos
	Count int
}

// Result is what a search found.
type Result struct {
	Verdict   Verdict
	Complete  bool   // every reachable state was explored
	Reason    string // why the verdict is what it is
	Violation *Violation
	// Trail leads from the initial state to the violation: the ordinal of
	// each step (see model.Step.Ordinal). For an error, the last ordinal is
	// the failing step itself; for a deadlock, the trail ends in the
	// deadlocked state.
	Trail     []int
	Stats     Stats
	LimitsHit []LimitHit
	// Stopped says why a limit (--max-states, --max-memory, the time
	// limit, Ctrl-C) stopped the search early, or is "".
	Stopped string
	// DepthCut: paths deeper than MaxDepth were cut.
	DepthCut bool
	// Executed has bit g set (word g/64, bit g%64) when a step of the
	// search executed transformation g, an index into the model's Groups
	// (model.Model.Groups), whether the step led to a new state, a stored
	// one, an error or a bound. After a complete search the transformations
	// whose bit is clear are code no execution reaches (SPIN's "unreached
	// in proctype"). Nil when the model does not list its transformations.
	Executed []uint64

	// for tests: depth-first search's deferred successors found new, and
	// generations taken back because of them (see dfs)
	lateStates, undone int
}

// FormatBytes formats a byte count with a binary unit.
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// searcher holds one search's state.
type searcher struct {
	m     Model
	cfg   Config
	store *StateStore
	res   Result
	start time.Time

	stopped string // why the search stopped early ("" while running)
	cut     bool   // some path was cut by --max-depth
	limits  map[limitKey]*LimitHit

	// the state being expanded
	atBound bool // the state being expanded is at --max-depth
	// successors of the state being expanded, waiting for flush
	batch     []byte
	batchOff  []int32
	batchAux  []uint64 // breadth-first: each successor's parent link (packAux)
	batchHash []uint64
	sink      uint64 // keeps TouchSlots' reads
	curID     StateID
	curDepth  int // the depth of the state being expanded (curID)
	found     bool
	failOrd   int
	// executed: see Result.Executed
	executed []uint64
	// new successors of the state being expanded
	succ    []StateID
	visitFn func(*model.Step)
	// depth-first search: the successors of the state last expanded that
	// classify could not yet tell from stored states (see dfs), and the
	// ones of them verify found new
	deferred     []byte
	deferredOff  []int32
	deferredHash []uint64
	late         []StateID
	// the limit hits of the state being generated, which undoGenerate
	// takes back
	genLimits []*LimitHit

	// the state check of a model from WithStateCheck, which the search
	// applies to each state it stores (checkNew) to the unwrapped model's
	// successors; then batchOrd holds the ordinal of each successor in the
	// batch (and deferredOrd of each deferred one, all successors of
	// deferredFrom), and failFrom is the state the failing step leaves
	chk          StateCheck
	checked      Model // the wrapper, whose Next describes a violation
	chkStep      model.Step
	batchOrd     []int32
	deferredOrd  []int32
	deferredFrom StateID
	failFrom     StateID
	// deferredDepth is the depth of the deferred successors (for Visit)
	deferredDepth int

	nextCheck int
	// checkedArena is the store's arena size at the last look at the
	// limits: large states (a model near types.MaxSlots) fill memory
	// before 1024 of them are expanded, so 16 MiB more also makes check look.
	checkedArena int64
	lastProg     time.Time
	rng          *rand.Rand
	stackMem     int64
	// stackGrowth: the memory the stack (or queue) may take before the
	// next check of the limits, beyond stackMem
	stackGrowth int64
}

type limitKey struct {
	msg string
	pos source.Pos
}

// Run searches the state space of m.
func Run(m Model, cfg Config) *Result {
	s := &searcher{m: m, cfg: cfg, start: time.Now(), limits: map[limitKey]*LimitHit{}}
	s.lastProg = s.start
	s.rng = rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	aux := 0
	if cfg.Strategy == BFS {
		aux = 1
	}
	if cm, ok := m.(*checkedModel); ok {
		// a search checks each state once, when it stores it (checkNew),
		// rather than on every step into it as Next of the wrapper does;
		// the initial state is checked by the wrapper's Initial below
		s.m, s.chk, s.checked = cm.Model, cm.c, cm
	}
	s.executed = newExecuted(s.m)
	s.store = NewStateStore(aux)
	if cfg.storeIDBits != 0 {
		s.store = newStateStore(aux, stateChunkShift, stateFirstChunk, cfg.storeIDBits)
	}
	s.visitFn = s.visit
	init, fail := m.Initial(nil)
	if fail != nil {
		if fail.Outcome == model.Limit && !cfg.LimitError {
			s.visit(fail)
			s.res.Stats.Transitions = 0
		} else {
			s.violation(fail, -1)
		}
		return s.finish()
	}
	id, _ := s.store.Insert(init, packAux(NoState, 0))
	if cfg.Visit != nil {
		cfg.Visit(init, 0)
	}
	switch cfg.Strategy {
	case BFS:
		s.bfs(id)
	default:
		s.dfs(id)
	}
	r := s.finish()
	s.store.Release()
	return r
}

// packAux packs a BFS parent link: the parent's id (arena offsets stay
// below 2^40) and the ordinal of the step from it.
func packAux(parent StateID, ord int) uint64 {
	if ord >= 1<<24 {
		ord = 1<<24 - 1 // trails through such a step do not replay; see bfsTrail
	}
	return (uint64(parent)+1)<<24 | uint64(ord)
}

func unpackAux(a uint64) (StateID, int) {
	return StateID(a>>24) - 1, int(a & (1<<24 - 1))
}

// visit handles one outcome of the state being expanded.
func (s *searcher) visit(st *model.Step) {
	if s.found {
		return
	}
	if s.cfg.ChooseFree && st.Intern {
		return
	}
	s.res.Stats.Transitions++
	s.markExecuted(st.Groups)
	if s.atBound {
		// a step from a state at --max-depth would make the path longer
		// than the bound: only a successor already stored is not a cut
		if st.Outcome != model.OK {
			s.cut = true
		} else if _, ok := s.store.Lookup(st.State); !ok {
			s.cut = true
		}
		return
	}
	switch st.Outcome {
	case model.OK:
		// batched: inserted by flush once the state is expanded
		s.batchOff = append(s.batchOff, int32(len(s.batch)))
		s.batch = append(s.batch, st.State...)
		// hashed now, and its table slot fetched while the model
		// generates the next successors
		h := s.store.Hash(st.State)
		s.batchHash = append(s.batchHash, h)
		s.store.Prefetch(h)
		if s.chk != nil {
			s.batchOrd = append(s.batchOrd, int32(st.Ordinal))
		}
		if s.cfg.Strategy == BFS {
			s.batchAux = append(s.batchAux, packAux(s.curID, st.Ordinal))
		}
	case model.Error:
		s.violation(st, st.Ordinal)
	case model.Limit:
		k := limitKey{st.Msg, st.Pos}
		h := s.limits[k]
		if h == nil {
			h = &LimitHit{Msg: st.Msg, Pos: st.Pos}
			s.limits[k] = h
		}
		h.Count++
		s.genLimits = append(s.genLimits, h)
		if s.cfg.LimitError {
			s.violation(st, st.Ordinal)
		}
	}
}

// generate generates the successors of state id, found at depth d. It
// returns true when it found a violation (an error step, whose ordinal is
// s.failOrd, or a deadlock of state id, with s.failOrd -1). The successors
// wait in the batch for their insertion (flush, or classify in depth-first
// search), so that a breadth-first search can insert the successors of
// several states at once. A state at the depth bound is expanded, so that
// its violations count, but steps to states not stored yet are cut.
func (s *searcher) generate(id StateID, d int) bool {
	if d > s.res.Stats.MaxDepth {
		s.res.Stats.MaxDepth = d
	}
	s.atBound = s.cfg.MaxDepth > 0 && d >= s.cfg.MaxDepth
	s.curID, s.curDepth = id, d
	s.genLimits = s.genLimits[:0]
	n, allDone := s.m.Next(s.store.State(id), s.visitFn)
	if s.found {
		return true
	}
	if n == 0 && !allDone && !s.cfg.NoDeadlock {
		s.violation(&model.Step{Kind: model.Deadlock, Msg: "no thread can move", Thread: -1}, -1)
		return true
	}
	return false
}

// flush inserts the successors collected by visit. It first touches the
// memory each insertion will read, so that the processor overlaps the cache
// misses of the whole batch instead of taking them one after another.
func (s *searcher) flush() {
	n := len(s.batchOff)
	if n == 0 {
		return
	}
	s.batchOff = append(s.batchOff, int32(len(s.batch)))
	s.sink += s.store.TouchSlots(s.batchHash)
	for k := 0; k < n; k++ {
		aux := uint64(0)
		if s.batchAux != nil {
			aux = s.batchAux[k]
		}
		b := s.batch[s.batchOff[k]:s.batchOff[k+1]]
		id, isNew := s.store.InsertHash(b, s.batchHash[k], aux)
		if isNew {
			s.succ = append(s.succ, id)
			if s.cfg.Visit != nil {
				// a breadth-first batch holds successors of one level
				s.cfg.Visit(b, s.curDepth+1)
			}
			if s.chk != nil {
				parent, _ := unpackAux(aux)
				s.checkNew(b, parent, int(s.batchOrd[k]))
			}
		}
	}
	s.resetBatch()
	if s.batchAux != nil {
		s.batchAux = s.batchAux[:0]
	}
}

// resetBatch empties the batch.
func (s *searcher) resetBatch() {
	s.batch, s.batchOff, s.batchHash, s.batchOrd = s.batch[:0], s.batchOff[:0], s.batchHash[:0], s.batchOrd[:0]
}

// checkNew applies the state check to state, just stored, the successor of
// state from by the step with ordinal ord. A violation is recorded as the
// wrapper's Next describes it (an Error outcome of that step, see
// WithStateCheck), with failFrom set to from. Nothing is checked once a
// violation has been found. Each stored state is checked once: a state
// found again was checked when it was stored, and a violating state ends
// the search.
func (s *searcher) checkNew(state []byte, from StateID, ord int) {
	if s.found || s.chk.Check(state, &s.chkStep) {
		return
	}
	s.failFrom = from
	s.checked.Next(s.store.State(from), func(st *model.Step) {
		if !s.found && st.Ordinal == ord && st.Outcome == model.Error {
			s.violation(st, ord)
		}
	})
	if !s.found {
		// the wrapper checks the same state with the same check
		panic("search: a state violates the state check, but the step into it is not an error of the checked model")
	}
}

// violation records the first violation; ord is the failing step's ordinal
// (-1 for a deadlock or an initial-state failure).
func (s *searcher) violation(st *model.Step, ord int) {
	if s.found {
		return
	}
	s.found = true
	s.res.Violation = StepViolation(st)
	s.failOrd = ord
}

// StepViolation is the violation of a failing step (an Error outcome, or a
// Limit outcome under LimitError, whose kind is model.LimitReached).
func StepViolation(st *model.Step) *Violation {
	kind := st.Kind
	if st.Outcome == model.Limit {
		kind = model.LimitReached
	}
	return &Violation{Kind: kind, Msg: st.Msg, Thread: st.Thread, Pos: st.Pos, Groups: append([]int32(nil), st.Groups...)}
}

// check looks at the resource limits; it returns false when the search
// must stop.
func (s *searcher) check() bool {
	if s.cfg.Stop != nil && s.cfg.Stop.Load() {
		s.stopped = "interrupted"
		if s.cfg.StopReason != nil {
			s.stopped = s.cfg.StopReason()
		}
		return false
	}
	if s.cfg.MaxStates > 0 && s.store.Len() >= s.cfg.MaxStates {
		s.stopped = fmt.Sprintf("state limit reached (--max-states=%d)", s.cfg.MaxStates)
		return false
	}
	s.nextCheck--
	if s.nextCheck > 0 && s.store.arenaBytes < s.checkedArena+16<<20 {
		return true
	}
	s.nextCheck = 1024
	s.checkedArena = s.store.arenaBytes
	// leave room for the next doubling of the table and a new arena chunk,
	// so that the search never allocates past the limit
	if s.cfg.MaxMemory > 0 && s.memory()+s.stackGrowth+s.cacheBytes()+2*s.store.TableBytes()+4<<20 >= s.cfg.MaxMemory {
		s.stopped = fmt.Sprintf("memory limit reached (--max-memory=%s)", FormatBytes(s.cfg.MaxMemory))
		return false
	}
	now := time.Now()
	if s.cfg.TimeLimit > 0 && now.Sub(s.start) >= s.cfg.TimeLimit {
		s.stopped = fmt.Sprintf("time limit reached (--time-limit=%s)", s.cfg.TimeLimit)
		return false
	}
	if s.cfg.Progress != nil && now.Sub(s.lastProg) >= s.progressEvery() {
		s.lastProg = now
		s.cfg.Progress(s.stats())
	}
	return true
}

// progressEvery is the interval between two progress lines.
func (s *searcher) progressEvery() time.Duration {
	if s.cfg.ProgressEvery > 0 {
		return s.cfg.ProgressEvery
	}
	return time.Second
}

func (s *searcher) memory() int64 { return s.store.Bytes() + s.stackMem }

// cacheBytes is the memory the model holds for the search (model.Model's
// transition cache). --max-memory counts it; the statistics do not, since
// in the default mode it depends on timing (see docs/check.md).
func (s *searcher) cacheBytes() int64 {
	if c, ok := s.m.(cacheSizer); ok {
		return c.CacheBytes()
	}
	return 0
}

// cacheSizer is a Model that holds memory of its own for the search.
type cacheSizer interface {
	CacheBytes() int64
}

func (s *searcher) stats() Stats {
	st := s.res.Stats
	st.States = s.store.Len()
	st.Seconds = time.Since(s.start).Seconds()
	st.Memory = s.memory()
	return st
}

// groupLister is a Model that lists its transformations (model.Model).
type groupLister interface {
	Groups() []model.Group
}

// newExecuted is the bitset of Result.Executed for m, all clear, or nil.
func newExecuted(m Model) []uint64 {
	if gl, ok := m.(groupLister); ok {
		return make([]uint64, (len(gl.Groups())+63)/64)
	}
	return nil
}

// markExecuted records the transformations of a step in s.executed. It
// costs the search a load and a predictable branch per transformation of
// a step (docs/performance.md, "Unreached code").
func (s *searcher) markExecuted(groups []int32) {
	for _, g := range groups {
		if w := int(g >> 6); w < len(s.executed) && s.executed[w]&(1<<(uint(g)&63)) == 0 {
			s.executed[w] |= 1 << (uint(g) & 63)
		}
	}
}

func (s *searcher) finish() *Result {
	r := &s.res
	r.Stats = s.stats()
	r.Executed = s.executed
	r.Stopped, r.DepthCut = s.stopped, s.cut
	for _, h := range s.limits {
		r.LimitsHit = append(r.LimitsHit, *h)
	}
	sort.Slice(r.LimitsHit, func(i, j int) bool {
		a, b := r.LimitsHit[i], r.LimitsHit[j]
		if a.Pos != b.Pos {
			return a.Pos < b.Pos
		}
		return a.Msg < b.Msg
	})
	switch {
	case r.Violation != nil:
		r.Verdict = Fail
		r.Complete = false
		r.Reason = r.Violation.Kind.String() + ": " + r.Violation.Msg
	case s.stopped != "":
		r.Verdict = Inconclusive
		r.Reason = s.stopped
	case s.cut:
		r.Verdict = Inconclusive
		r.Reason = fmt.Sprintf("no violation found, but paths deeper than --max-depth=%d were cut", s.cfg.MaxDepth)
	case s.cfg.ChooseFree:
		r.Verdict = Inconclusive
		r.Reason = "no violation on the choose-free paths (--choose-free explores only part of the behaviours)"
		if len(r.LimitsHit) > 0 {
			r.Reason += "; bounds were hit too: " + r.LimitsHit[0].Msg
		}
	case len(r.LimitsHit) > 0:
		r.Verdict = Inconclusive
		r.Reason = "no violation within the bounds; paths were cut where a bound was hit: " + r.LimitsHit[0].Msg
		if len(r.LimitsHit) > 1 {
			r.Reason += fmt.Sprintf(" (and %d more)", len(r.LimitsHit)-1)
		}
		r.Complete = true
	default:
		r.Verdict = Pass
		r.Complete = true
		r.Reason = "no violation: every reachable state was explored"
	}
	return r
}
