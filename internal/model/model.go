package model

import (
	"fmt"

	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// Options bound the model. The zero value gives BIR.md's defaults.
type Options struct {
	MaxThreads     int // threads in the pool (default 16, at most 64)
	MaxCallDepth   int // frames per thread (default 64)
	MaxReentrancy  int // count of a reentrant lock (default 255)
	MaxInvisible   int // transformations in one invisible run (default 10000)
	MaxStateSlots  int // slots of the fixed part of a state and of a frame (default types.MaxSlots)
	MaxChoiceRange int // alternatives of one range choice (default 1<<20)
	// ChoiceValues, when not nil, lets New compile a model with unbounded
	// choices (UnboundedChoices): such a choice takes only the values
	// listed here that its type holds, in increasing order, and is a limit
	// of the model where it holds none. The model is then an
	// under-approximation whose executions are executions of the model as
	// written: the confirmation of a predicate abstraction's trail and
	// birch replay of its trail use it, with the input values a solver
	// found (docs/predicates.md).
	ChoiceValues []int64
	// ExposeInvisible turns the coarsening of invisible runs off: each
	// transformation of a run is a step of its own and the states inside
	// the run are states of the model, but the run is still not interleaved
	// with other threads (its thread keeps control while it can move; a
	// slot of the fixed part records which thread holds it). For properties
	// with X, which count steps.
	ExposeInvisible bool
	// TransitionCache controls the memo of the outcomes of one thread's
	// steps per (thread, fixed part, thread record) (see tcache.go). The
	// states, transitions and their order are the same in every mode.
	TransitionCache CacheMode
	// Native, when not nil, is code outside BIR that takes part in the
	// steps (see Native): the guards, actions and expressions it replaces,
	// and its hooks around every run of a transformation. The transition
	// cache is then off.
	Native Native
}

// CacheMode says when Next uses the transition cache.
type CacheMode int

const (
	CacheAuto CacheMode = iota // when it measures faster (the default)
	CacheOn                    // always
	CacheOff                   // never
)

// ParseCacheMode parses "auto", "on" or "off".
func ParseCacheMode(s string) (CacheMode, bool) {
	switch s {
	case "auto":
		return CacheAuto, true
	case "on":
		return CacheOn, true
	case "off":
		return CacheOff, true
	}
	return CacheAuto, false
}

func (o Options) withDefaults() Options {
	if o.MaxThreads <= 0 {
		o.MaxThreads = 16
	}
	if o.MaxThreads > 64 {
		o.MaxThreads = 64
	}
	if o.MaxCallDepth <= 0 {
		o.MaxCallDepth = 64
	}
	if o.MaxReentrancy <= 0 {
		o.MaxReentrancy = 255
	}
	if o.MaxInvisible <= 0 {
		o.MaxInvisible = 10000
	}
	if o.MaxStateSlots <= 0 {
		o.MaxStateSlots = types.MaxSlots
	}
	if o.MaxChoiceRange <= 0 {
		o.MaxChoiceRange = 1 << 20
	}
	return o
}

// Group describes one transformation, the unit of the model's transitions.
type Group struct {
	Index     int
	Proc      *types.Proc
	From      *types.Location
	To        *types.Location // nil for return
	Invisible bool
	Decl      *ast.Transformation
	// Access is a conservative summary of what the transformation reads and
	// writes, for partial-order reduction.
	Access Access
}

// Access summarizes the shared data a transformation may touch. Globals are
// listed by index in Program.Globals; the heap, locks and the thread pool
// are summarized by flags.
type Access struct {
	ReadGlobals, WriteGlobals []int
	ReadsHeap, WritesHeap     bool
	Locks                     bool // lock actions or lock tests
	Threads                   bool // start, exit, threadTerminated
}

// group is a compiled transformation.
type group struct {
	Group
	proc    *procInfo
	guard   evalFn
	actions []actFn
	target  int    // target location index (goto)
	ret     bool   // return
	result  evalFn // return value (one slot), or nil
	resultN int    // slots of a multi-slot result (0: one slot or none)
	resultA addrFn // address of a multi-slot result
	// for a transformation ending in a call: where the result goes in the
	// caller (nil: discarded)
	callStore storeFn
	callN     int
	callAddr  addrFn
}

// Model is a compiled BIR program. A Model is not safe for concurrent use;
// parallel searches use one Clone per goroutine.
type Model struct {
	prog *types.Program
	info *types.Info
	fset *source.FileSet
	opts Options

	globalOff []int // slot offset per global
	colls     []*collection
	objBase   []int // first slot of every object
	objColl   []int // collection of every object
	poolOff   int   // slot holding the number of threads
	heapOff   int   // the collections' counts and objects: slots heapOff..heapEnd-1
	heapEnd   int
	exclOff   int // slot of the thread inside an invisible run (ExposeInvisible), or -1
	procs     []*procInfo
	funcs     []*procInfo
	allProcs  []*procInfo // threads then functions (indexed by proc number)
	groups    []*group
	pub       []Group
	init      []int64 // the fixed part of the initial state

	labels        []Label
	src           []byte // the state Next expands
	segs          []int  // byte offsets of its threads' segments
	encoding      encoding
	checkEncoding bool // verify every encoded state (tests)
	verifyBuf     []int64

	x       exec
	levels  []*level
	first   firstSucc // the first successor of the last Next
	tc      tcache
	segMemo segMemo // scanSegs's last layout
	step    Step
	path    []int32
	enc     []byte
	yield   func(*Step)
	emitted int

	printOrd int         // the outcome whose output Print shows
	pbuf     printBuffer // println output of the current path
	// given, while GivenChoices runs, holds the values the unbounded
	// choices of the current path took (nil otherwise)
	given *[]GivenChoice

	data     *dataLayout // which slots are data (SplitData), once computed
	dataBuf  []int64     // SplitData's decoded slots
	dataSegs []int       // and their thread segments
}

// firstSucc is the first successor emitted by the last call of Next: its
// encoding, slot vector and thread segment offsets, valid when ok.
type firstSucc struct {
	enc  []byte
	s    []int64
	segs []int
	ok   bool
}

// New compiles prog. It fails on a program the engine cannot represent
// (for example one whose state would exceed the bounds).
func New(prog *types.Program, opts Options) (m *Model, err error) {
	m = &Model{prog: prog, info: prog.Info, fset: prog.Fset, opts: opts.withDefaults()}
	if cs := unboundedChoices(prog, m.opts.MaxChoiceRange, opts.Native); cs != nil && opts.ChoiceValues == nil {
		// explicit search would enumerate more values than it can (native
		// code choosing for a choice it replaces need not)
		return nil, &UnboundedChoiceError{Choices: cs, Max: m.opts.MaxChoiceRange}
	}
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, m.compilePanic(r)
		}
	}()
	m.layout()
	m.compile()
	m.compileLabels()
	m.buildEncoding()
	m.x.m = m
	m.tc.init(m.cacheMode(), m.exclOff < 0, m.encoding.fixedOff == nil)
	return m, nil
}

// cacheMode is the transition cache's mode: off with native code, whose
// steps the cache cannot replay.
func (m *Model) cacheMode() CacheMode {
	if m.opts.Native != nil {
		return CacheOff
	}
	return m.opts.TransitionCache
}

// Program returns the program m was compiled from.
func (m *Model) Program() *types.Program { return m.prog }

// Options returns the bounds in effect.
func (m *Model) Options() Options { return m.opts }

// Groups describes the transformations; Step.Groups index it.
func (m *Model) Groups() []Group { return m.pub }

// Clone returns an independent copy of m for use by another goroutine.
func (m *Model) Clone() *Model {
	c := *m
	c.x = exec{m: &c}
	c.levels = nil
	c.path = nil
	c.enc = nil
	c.yield = nil
	c.pbuf = printBuffer{}
	c.given = nil
	c.segs = nil
	c.first = firstSucc{}
	c.src = nil
	c.verifyBuf = nil
	c.dataBuf = nil
	c.dataSegs = nil
	c.tc = tcache{}
	c.tc.init(c.cacheMode(), c.exclOff < 0, c.encoding.fixedOff == nil)
	return &c
}

func (m *Model) layout() {
	p := m.prog
	off := 0
	// Every size is checked against MaxStateSlots before the slots are
	// allocated, and each is at most types.MaxSlots+1, so that no sum or
	// product below overflows.
	for _, g := range p.Globals {
		n := slotSize(g.Type())
		if n > m.opts.MaxStateSlots-off {
			m.failf(g.Pos(), "the globals need more than %d slots", m.opts.MaxStateSlots)
		}
		m.globalOff = append(m.globalOff, off)
		off += n
		m.init = initialSlots(m.init, g)
		if len(m.init) != off {
			// an initial value of a multi-slot variable (not allowed by the checker)
			m.failf(g.Pos(), "cannot initialize %s", g.Name())
		}
	}
	m.heapOff = off
	for _, c := range p.Collections {
		col := &collection{obj: c, off: off, first: len(m.objBase), elem: c.Elem}
		m.init = append(m.init, 0)
		off++
		if size := types.CollectionSlots(c); c.Size < 0 || size > int64(m.opts.MaxStateSlots-off+1) {
			m.failf(c.Pos(), "collection %s needs more than %d slots", c.Name(), m.opts.MaxStateSlots)
		}
		var tmpl []int64
		switch u := c.Elem.Underlying().(type) {
		case *types.Array:
			col.array = true
			col.maxLen = int(u.Len)
			col.elemSz = slotSize(u.Elem)
			col.objSize = 1 + col.maxLen*col.elemSz
			tmpl = append(tmpl, 0)
			tmpl = defaultSlots(tmpl, u)
			col.refs = refSlots(nil, u.Elem, 0)
		default:
			col.objSize = slotSize(c.Elem)
			tmpl = defaultSlots(tmpl, c.Elem)
			col.refs = refSlots(nil, c.Elem, 0)
		}
		for i := int64(0); i < c.Size; i++ {
			m.objBase = append(m.objBase, off)
			m.objColl = append(m.objColl, len(m.colls))
			m.init = append(m.init, tmpl...)
			off += col.objSize
		}
		m.colls = append(m.colls, col)
	}
	m.heapEnd = off
	m.exclOff = -1
	if m.opts.ExposeInvisible {
		// 1 + the thread inside an invisible run, 0 when none is
		m.exclOff = off
		m.init = append(m.init, 0)
		off++
	}
	m.poolOff = off
	m.init = append(m.init, 0)

	num := 0
	mk := func(pr *types.Proc) *procInfo {
		pi := &procInfo{proc: pr, num: num, varIndex: map[*types.Var]int{}}
		num++
		for i, v := range pr.Vars() {
			n := slotSize(v.Type())
			if n > m.opts.MaxStateSlots-pi.varSize {
				m.failf(pr.Pos(), "%s needs more than %d slots", pr.Name(), m.opts.MaxStateSlots)
			}
			pi.varIndex[v] = i
			pi.varOff = append(pi.varOff, pi.varSize)
			pi.varSlots = append(pi.varSlots, n)
			pi.varSize += n
			pi.defaults = defaultSlots(pi.defaults, v.Type())
			if v.Kind == types.ParamVar {
				pi.init = defaultSlots(pi.init, v.Type())
			} else {
				pi.init = initialSlots(pi.init, v)
			}
		}
		return pi
	}
	for _, t := range p.Threads {
		m.procs = append(m.procs, mk(t))
	}
	for _, f := range p.Functions {
		m.funcs = append(m.funcs, mk(f))
	}
	m.allProcs = append(append([]*procInfo(nil), m.procs...), m.funcs...)
	if len(m.objBase) > 1<<40 {
		m.failf(source.NoPos, "too many objects")
	}
}

// procOf returns the compiled proc of p.
func (m *Model) procOf(p *types.Proc) *procInfo {
	if p.Thread {
		return m.procs[p.Index]
	}
	return m.funcs[p.Index]
}

func (m *Model) compile() {
	// number the groups first: call sites refer to their own group
	for _, pi := range m.allProcs {
		for _, l := range pi.proc.Locations {
			li := &locInfo{loc: l}
			if l.HasLive {
				live := map[*types.Var]bool{}
				for _, v := range l.Live {
					live[v] = true
				}
				for i, v := range pi.proc.Vars() {
					if !live[v] {
						li.dead = append(li.dead, i)
					}
				}
			}
			li.final = len(l.Decl.Transformations) == 0
			pi.locs = append(pi.locs, li)
		}
	}
	for _, pi := range m.allProcs {
		for li, l := range pi.proc.Locations {
			for _, t := range l.Decl.Transformations {
				g := &group{proc: pi}
				g.Index = len(m.groups)
				g.Proc = pi.proc
				g.From = l
				g.Decl = t
				g.Invisible = t.Invisible
				g.ret = t.Return
				if !t.Return {
					to, _ := m.info.Uses[t.Target].(*types.Location)
					if to == nil {
						m.failf(t.Target.Pos(), "unknown location %s", t.Target.Name)
					}
					g.To = to
					g.target = to.Index
				}
				m.groups = append(m.groups, g)
				pi.locs[li].groups = append(pi.locs[li].groups, g.Index)
			}
		}
	}
	for _, g := range m.groups {
		m.compileGroup(g)
	}
	for _, g := range m.groups {
		m.pub = append(m.pub, g.Group)
	}
}

func (m *Model) compileGroup(g *group) {
	sc := scope{proc: g.proc}
	t := g.Decl
	switch {
	case m.replaces(t.Guard):
		g.guard = nativeGuard(m.opts.Native, g)
	case t.Guard != nil:
		g.guard = m.expr(t.Guard, sc)
	default:
		g.guard = func(*exec) int64 { return 1 }
	}
	for _, a := range t.Actions {
		g.actions = append(g.actions, m.action(a, g, sc))
	}
	if t.Return && t.Result != nil {
		rt := m.typeOf(t.Result)
		if n := slotSize(rt); n > 1 || isArray(rt) {
			g.resultN = n
			g.resultA = m.addr(t.Result, sc)
		} else {
			if m.replaces(t.Result) {
				g.result = nativeExpr(m.opts.Native, t.Result)
			} else {
				g.result = m.expr(t.Result, sc)
			}
			if p := sc.proc.proc; p.Result != nil {
				// the result is stored in the function's result type
				// (checked, or wrapped into a fixed-width type)
				if chk := m.checker(p.Result, t.Result.Pos(), "the result of "+p.Name()); chk != nil {
					r := g.result
					g.result = func(x *exec) int64 {
						v := r(x)
						if x.failed {
							return 0
						}
						v, _ = chk(x, v)
						return v
					}
				}
			}
		}
	}
	g.Access = m.access(t, sc)
}

func isArray(t types.Type) bool {
	_, ok := t.Underlying().(*types.Array)
	return ok
}

// errorf reports a compile failure with a formatted message.
var _ = fmt.Sprintf
