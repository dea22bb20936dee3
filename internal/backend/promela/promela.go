// Package promela translates a type-checked BIR program into Promela, the
// input language of the SPIN model checker, so that SPIN can serve as an
// independent oracle for birch's own engine.
//
// The translation is designed so that the states SPIN stores correspond one
// to one with the states birch stores: every BIR transformation becomes one
// atomic Promela step whose first statement is the transformation's entry
// condition, dead variables are reset at the end of the step, a thread's
// location is its process's control point, and there are no extra variables
// that change independently of birch's state. docs/promela.md describes the
// scheme, what is supported and the measured agreement.
//
// Properties are translated too (props.go): the model's invariants are
// checked by a monitor process that SPIN runs only between the threads'
// atomic steps, and LTL formulas (Options.Formulas) become ltl blocks, or
// never claims built from birch's own automaton where SPIN's ltl syntax
// falls short; MapLasso and MapPrefix map pan's acceptance cycles and bad
// prefixes back to birch's model.
//
// Functions keep their frames in per-frame arrays of the process (an array
// variable of a function is a typedef wrapping one frame's array; array
// results travel through the hidden BIR_rva), and range choices whose
// bounds are not constant are expanded into one option per value when
// their types allow few values, or picked by a loop inside the atomic step.
//
// Disabling conditions (assume, lock, unwait, the bounds of a range choice)
// become the entry condition of the step, read in the state before it: an
// env that hoists expressions substitutes the values assigned to variables
// earlier in the step and applies the step's earlier writes to arrays, the
// heap and locks (a store of writes, each a conditional expression on the
// equality of indices and references). An array parameter of a started
// thread is one scalar process parameter per element. A bound hit inside an
// invisible run restores the thread's variables saved at the start of the
// run, so that no state is added.
//
// Choices made inside the step (forall, reachable, notify, range choices
// wider than 64 values) stay there unless a later disabling condition, or a
// check before a later disabling condition or bound, reads their value:
// then the transformation is expanded into one option per choice (expand.go),
// each entered when its object is allocated, its thread waits, its object is
// reachable (an unrolled condition over the simple paths of the bounded
// heap) or its value lies within the bounds. Where that is impossible (a
// range over int bounds, a constant range of more than 1024 values, a
// reachable whose unrolled condition would be too large, more than 1024
// options) the choices are symbols (symbolic.go): the entry condition is an
// existential over their values evaluated in SPIN's embedded C (c_expr
// calling C functions of the conditions converted from Promela, cexpr.go),
// and a walk at the start of the step picks each valid value by exactly one
// path, with Promela assignments that SPIN's simulator replays.
//
// Every construct of BIR translates (remote references to arrays and locks
// of a thread are embedded C too, props.go; sets of more than 31 threads
// are two ints, trans.go). A construct the translation could not express
// would make Translate return a positioned error (file:line:col: message)
// instead of wrong output.
package promela

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/source"
)

// Options configures the translation. The zero value uses birch's defaults.
type Options struct {
	// MaxReentrancy is the count bound of a reentrant lock (default 255).
	MaxReentrancy int
	// MaxThreads is the bound on the number of threads (birch's
	// --max-threads, default 16, at most 64); starting one more is a
	// limit. Sets of threads are bit masks in a Promela int, two beyond 31
	// threads.
	MaxThreads int
	// MaxCallDepth is the bound on a thread's frames, its own included
	// (birch's --max-call-depth, default 64): a call made with that many
	// frames is a limit.
	MaxCallDepth int
	// MaxChoiceRange bounds the values of one range choice (birch's
	// default 1<<20): a larger range is a limit.
	MaxChoiceRange int
	// ReportLimits makes pan print "BIR-limit N" the first time a path is
	// cut at bound N (Translation.Limits): embedded C code, for birch spin.
	ReportLimits bool
	// Invariants are the invariants checked in every state, by a monitor
	// process; nil means every invariant of the program.
	Invariants []*types.Property
	// NoInvariants leaves the invariants out.
	NoInvariants bool
	// Formulas are emitted as ltl blocks (pan -a -N NAME checks one).
	// A step that hits a bound of the model then sets BIR_cut, which
	// changes the state vector: state counts are those of a safety
	// translation only without formulas.
	Formulas []Formula
}

// Translation is a translation with what is needed to read SPIN's results
// in BIR terms.
type Translation struct {
	Promela string
	// Entries maps line numbers of the Promela text (from 1) to the
	// options that begin on them: a process that executes the first
	// statement on such a line takes that option.
	Entries map[int]Entry
	// Limits are the bounds pan reports with ReportLimits.
	Limits []Limit
	// MonitorPid is the pid of the invariants' monitor process, -1 when
	// there is none; Extra counts the processes that are no threads (the
	// monitor, the stutter process of LTL checks), from pid FirstExtra.
	MonitorPid        int
	FirstExtra, Extra int
	// Procs is the most processes the model can run: the threads that
	// can exist and the extra processes (not the never claim).
	Procs int
	// Claims are the names of the ltl blocks, one per Options.Formulas.
	Claims []string
}

// ThreadOfPid returns the thread index (tid - 1) of a process, or -1 for
// the monitor.
func (t *Translation) ThreadOfPid(pid int) int { return threadOfPid(pid, t.FirstExtra, t.Extra) }

// Entry is an option of the translation: one transformation (or a bound
// it hits).
type Entry struct {
	Trans *ast.Transformation // the transformation (nil for a bound)
	IL    bool                // inside an invisible run (the IL_ copy)
	Limit bool                // a bound is hit: the step returns to the same state
}

// Limit is a bound of the model as birch reports it.
type Limit struct {
	Msg string
	Pos source.Pos
}

func (o Options) withDefaults() Options {
	if o.MaxReentrancy <= 0 {
		o.MaxReentrancy = 255
	}
	if o.MaxThreads <= 0 {
		o.MaxThreads = 16
	}
	if o.MaxCallDepth <= 0 {
		o.MaxCallDepth = 64
	}
	if o.MaxChoiceRange <= 0 {
		o.MaxChoiceRange = 1 << 20
	}
	return o
}

// Error kinds, named as in birch's JSON output. Each is a hidden Promela
// variable that is always false, so that `assert(cond || BIR_kind)` makes
// pan's report ("assertion violated (...||BIR_kind)") name the kind.
var errorKinds = []string{
	"assertion", "null-dereference", "index-out-of-bounds", "division-by-zero",
	"range", "overflow", "illegal-monitor-state", "type", "invariant", "shift",
}

// KindVar returns the Promela variable naming an error kind.
func KindVar(kind string) string { return "BIR_" + strings.ReplaceAll(kind, "-", "_") }

// KindOfAssertion returns the error kind named in an assertion text printed
// by pan (e.g. "((d!=0)||BIR_division_by_zero)"), or "" if none is named.
func KindOfAssertion(text string) string {
	for _, k := range errorKinds {
		v := KindVar(k)
		i := strings.Index(text, v)
		if i < 0 {
			continue
		}
		end := i + len(v)
		if end < len(text) && isIdentChar(text[end]) {
			continue
		}
		return k
	}
	return ""
}

func isIdentChar(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// alwaysMark stands for the declaration of BIR_always until it is known
// whether it is needed.
const alwaysMark = "\x00always\x00"

// Translate writes the Promela translation of prog to w.
func Translate(prog *types.Program, w io.Writer, opts Options) error {
	t, err := TranslateFull(prog, opts)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(t.Promela)
	return bw.Flush()
}

// TranslateFull returns the Promela translation of prog with its map of
// options.
//
// A model with a choice among more values than birch enumerates
// (model.UnboundedChoices) is refused with a *model.UnboundedChoiceError:
// pan would enumerate them too.
func TranslateFull(prog *types.Program, opts Options) (*Translation, error) {
	if cs := model.UnboundedChoices(prog, opts.withDefaults().MaxChoiceRange); cs != nil {
		return nil, &model.UnboundedChoiceError{Choices: cs, Max: opts.withDefaults().MaxChoiceRange}
	}
	g := &gen{
		prog:     prog,
		info:     prog.Info,
		fset:     prog.Fset,
		opts:     opts.withDefaults(),
		names:    map[types.Object]string{},
		colOff:   map[*types.Collection]int{},
		paramArr: map[*types.Proc]map[string][]string{},
		entries:  map[int]Entry{},
	}
	if err := g.run(); err != nil {
		return nil, err
	}
	if g.opts.ReportLimits && len(g.limits) > 0 {
		g.p("/* the bounds hit so far, printed by pan as BIR-limit N */\n")
		g.p("c_decl { unsigned char BIR_hit[%d]; }\n", len(g.limits))
	}
	if err := g.emitC(); err != nil {
		return nil, err
	}
	always := ""
	if g.usesAlways {
		always = "hidden byte BIR_always = 1; /* true, for steps that loop back without a condition */"
	}
	if g.saveLen > 0 {
		always += fmt.Sprintf(" hidden int BIR_sv[%d]; hidden byte BIR_from, BIR_k; /* a thread's variables at the start of an invisible run, its location, a loop index */", g.saveLen)
	}
	pml := strings.Replace(g.out.String(), alwaysMark, always, 1)
	t := &Translation{Promela: pml, Entries: g.entries, Limits: g.limits, MonitorPid: -1}
	if g.monitor {
		t.MonitorPid = g.nThreads
	}
	t.FirstExtra, t.Extra = g.nThreads, g.extraProcs()
	t.Procs = g.maxTids + t.Extra
	for _, f := range g.opts.Formulas {
		t.Claims = append(t.Claims, ClaimName(f.Name))
	}
	return t, nil
}

// noInitialState writes the translation of a model with more main threads
// than the thread bound. birch creates the main threads in order and hits
// the bound ("too many threads") at the first one beyond it, before there is
// a state: it stores none and reports the bound hit (inconclusive). The
// translation is one process that reports that bound and stops, at a valid
// end state: pan stores its one state and reports the bound as well.
func (g *gen) noInitialState() {
	var pos source.Pos
	k := 0
	for _, t := range g.prog.Threads {
		if t.Main {
			if k == g.opts.MaxThreads {
				pos = t.Pos()
				break
			}
			k++
		}
	}
	g.limits = append(g.limits, Limit{Msg: fmt.Sprintf("too many threads (the bound is %d)", g.opts.MaxThreads), Pos: pos})
	g.p("/* %s: %d main threads exceed the thread bound %d: birch hits the bound while it creates\n", g.prog.File.System.Name.Name, g.nThreads, g.opts.MaxThreads)
	g.p("   the main threads, before there is a state, so this model only reports that bound. */\n")
	// (the report is a condition that prints and is false: the process
	// blocks at once, at a valid end state, and pan stores one state)
	report := "false"
	if g.opts.ReportLimits {
		report = `c_expr { (printf("BIR-limit 0\n"), 0) }`
	}
	g.p("active proctype BIR_no_initial_state() {\nend_bound:\n  %s\n}\n", report)
}

// gen holds the state of one translation.
type gen struct {
	prog *types.Program
	info *types.Info
	fset *source.FileSet
	opts Options
	out  strings.Builder
	line int // lines written so far

	entries map[int]Entry // by line
	limits  []Limit

	names      map[types.Object]string
	globalNS   map[string]bool
	colOff     map[*types.Collection]int // reference of C[i] is colOff[C] + i + 1
	totalObjs  int
	refType    string
	hasWait    bool // some lock is declared with wait
	usesTerm   bool // threadTerminated is used
	usesAlways bool // BIR_always is used
	nThreads   int  // main threads
	hasStart   bool // some thread is started with start
	maxTids    int  // the number of tids that can exist
	// wideSets: more than 31 tids, so a set of threads is two ints (setWords)
	wideSets bool

	// functions
	sites     []*site                       // call transformations, numbered from 1
	siteOf    map[*ast.Transformation]*site // by transformation
	transProc map[*ast.Transformation]*types.Proc
	fbase     map[*types.Var]string // the array holding a function variable, by frame
	siteStore map[*site][]string    // the caller's store of a call's result

	// per thread
	procs []*types.Proc // the thread and the functions it may call
	// scalarArr holds the element scalars of the array parameters of the
	// thread being translated, by the parameter's name (a proctype's
	// parameters are scalars)
	scalarArr map[string][]string
	// paramArr is scalarArr of each thread, kept for the remote
	// references of properties
	paramArr map[*types.Proc]map[string][]string
	// rows names the typedef of each row type of an array of arrays, by
	// the row type's String (declRows)
	rows       map[string]string
	proc       *types.Proc
	tmpUsed    int
	iLocs      map[*types.Location]bool // targets of invisible transformations
	locAlts    map[*types.Location][]*altCode
	exitLocs   map[*types.Location]bool
	saveLen    int // the largest save of an invisible run (BIR_sv)
	usesReach  bool
	usesChoice bool
	preds      [][]heapEdge // heapPreds, computed once

	// symbolic choices (symbolic.go): the most symbols of one step of the
	// thread, and the C functions of the existential conditions, emitted
	// in c_code blocks at the end
	symMax            int
	nCFn              int
	cfns              []cfn
	cGlobals, cHidden map[string]bool

	// properties
	thr      *types.Proc // the thread being emitted (nil: monitor, claims)
	monitor  bool        // a monitor process checks invariants
	procTab  bool        // BIR_proc records the proc of each started thread
	anyLimit bool        // some option hits a bound

	// storeDst is the fixed-width type of the place each stored
	// expression goes to (collectStores)
	storeDst map[ast.Expr]*types.Range

	// the initial state holds a value beyond 32 bits (findWideStart)
	wideStart bool
	wideFirst map[wideKey]bool
}

// site is a call: a transformation ending with call.
type site struct {
	id     int
	tr     *ast.Transformation
	call   *ast.CallAction
	from   *types.Location
	callee *types.Proc
	target *types.Location
}

// unsupported is a positioned error for a construct the translation does not
// handle.
func (g *gen) errorf(pos source.Pos, format string, args ...any) error {
	return &source.Error{Pos: g.fset.Position(pos), Msg: "promela: " + fmt.Sprintf(format, args...)}
}

func (g *gen) p(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	g.line += strings.Count(s, "\n")
	g.out.WriteString(s)
}

// mark records that the next line printed begins option e.
func (g *gen) mark(e Entry) { g.entries[g.line+1] = e }

// reserved holds Promela keywords, C keywords and names pan uses, which BIR
// names must not take.
var reserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`active assert atomic bit bool break byte chan d_step D_proctype do else
	empty enabled eval false fi full goto hidden if in init inline int len local mtype nempty never nfull
	od of pc_value printf printm priority proctype provided run short skip timeout true typedef unless
	unsigned xr xs c_code c_decl c_expr c_state c_track select for notrace trace np_ show get_priority
	set_priority ltl print accept end progress
	auto case char const continue default double enum extern float long register return signed sizeof
	static struct switch union void volatile while
	now Index this II tt ot uchar uint ulong max min trpt pan main Uerror`) {
		reserved[w] = true
	}
}

// ident makes a BIR identifier a safe Promela identifier.
func ident(name string) string {
	name = strings.ReplaceAll(name, "$", "_S")
	if reserved[name] || strings.HasPrefix(name, "_") || strings.HasPrefix(name, "BIR") {
		return "u_" + name
	}
	return name
}

func (g *gen) run() error {
	prog := g.prog
	if prog.File == nil || prog.File.System == nil {
		return fmt.Errorf("promela: no system to translate")
	}
	// Unsupported constructs are reported up front, in source order.
	if err := g.scanUnsupported(); err != nil {
		return err
	}
	g.globalNS = map[string]bool{}
	for _, v := range prog.Globals {
		g.names[v] = ident(v.Name())
		g.globalNS[g.names[v]] = true
	}
	off := 0
	for _, c := range prog.Collections {
		g.names[c] = ident(c.Name())
		g.globalNS[g.names[c]] = true
		g.colOff[c] = off
		off += int(c.Size)
	}
	g.totalObjs = off
	g.refType = "byte"
	if off >= 255 {
		g.refType = "short"
	}
	for _, t := range prog.Threads {
		if t.Main {
			g.nThreads++
		}
		g.hasStart = g.hasStart || t.Started
	}
	if g.nThreads > g.opts.MaxThreads {
		g.noInitialState()
		return nil
	}
	g.maxTids = g.nThreads
	if g.hasStart {
		g.maxTids = g.opts.MaxThreads
	}
	if g.maxTids > 64 {
		// birch's own bound (model.Options.MaxThreads)
		return fmt.Errorf("promela: at most 64 threads are supported, not %d", g.maxTids)
	}
	g.wideSets = g.maxTids > 31
	for _, t := range g.emittedThreads() {
		n := ident(t.Name())
		if g.globalNS[n] {
			n = "P_" + n
		}
		g.names[t] = n
		g.globalNS[n] = true
	}
	if err := g.collectSites(); err != nil {
		return err
	}
	g.findWideStart()
	if err := g.scanProps(); err != nil {
		return err
	}
	if g.monitor && g.hasStart && g.maxTids+1 > 255 {
		return fmt.Errorf("promela: too many processes")
	}

	g.p("/* Promela translation of the BIR system %s, generated by `birch translate --to promela`.\n", prog.Name)
	g.p("   Each BIR transformation is one atomic step; see docs/promela.md for the scheme.\n")
	g.p("   Check with: spin -a -o1 -o2 FILE && gcc -O2 -DSAFETY -DNOREDUCE -o pan pan.c && ./pan -m1000000\n")
	if usesFixed(prog) {
		g.p("   (-o1 -o2 keep SPIN from resetting or hiding variables on its own, so that states correspond)\n%s */\n\n", wrapvMarker)
	} else {
		g.p("   (-o1 -o2 keep SPIN from resetting or hiding variables on its own, so that states correspond) */\n\n")
	}
	g.p("/* error kinds: always false, named in pan's \"assertion violated\" reports */\n")
	for _, k := range errorKinds {
		g.p("hidden byte %s;\n", KindVar(k))
	}
	g.p("%s\n", alwaysMark) // replaced at the end, keeping the line numbers
	scalarRes, arrayRes := false, int64(0)
	for _, f := range g.prog.Functions {
		if f.Result == nil {
			continue
		}
		if isArray(f.Result) {
			arrayRes = max(arrayRes, arrayLeaves(f.Result))
		} else {
			scalarRes = true
		}
	}
	if scalarRes {
		g.p("hidden int BIR_rv; /* a function's result, from its return to the caller's store */\n")
	}
	if arrayRes > 0 {
		g.p("hidden int BIR_rva[%d]; /* an array result, copied from its return to the caller's target */\n", arrayRes)
	}
	if scalarRes || arrayRes > 0 {
		g.p("\n")
	}
	if err := g.declTypes(); err != nil {
		return err
	}
	if err := g.declGlobals(); err != nil {
		return err
	}
	for _, t := range g.emittedThreads() {
		if err := g.thread(t); err != nil {
			return err
		}
	}
	if err := g.emitMonitor(); err != nil {
		return err
	}
	return g.emitFormulas()
}

// findWideStart sets wideStart when the initial state holds a value beyond
// 32 bits (a global's or a main thread's local's initial value or
// default), which Promela's int cannot hold: the variable holds 0 and every
// step from the initial state reports an overflow. wideFirst holds the
// transformations birch's own model can take there (its guards read the
// true values), which are the steps pan takes (thread emits them).
func (g *gen) findWideStart() {
	for _, v := range g.prog.Globals {
		init := ""
		if v.Init.Kind != types.NoConst {
			init = constString(v.Init)
		}
		g.wideStart = g.wideStart || wideValue(v.Type(), init)
	}
	for _, t := range g.mainThreads() {
		for _, v := range t.Locals {
			g.wideStart = g.wideStart || (len(t.Locations) > 0 && g.localWide(v))
		}
	}
	if !g.wideStart {
		return
	}
	g.wideFirst = map[wideKey]bool{}
	m, err := model.New(g.prog, model.Options{MaxThreads: g.opts.MaxThreads, MaxCallDepth: g.opts.MaxCallDepth,
		MaxReentrancy: g.opts.MaxReentrancy, MaxChoiceRange: g.opts.MaxChoiceRange})
	if err != nil {
		return
	}
	init, fail := m.Initial(nil)
	if fail != nil {
		return
	}
	groups := m.Groups()
	m.Next(init, func(st *model.Step) {
		if len(st.Groups) > 0 {
			g.wideFirst[wideKey{st.Thread + 1, groups[st.Groups[0]].Decl}] = true
		}
	})
}

// wideKey is a transformation of the thread with a tid.
type wideKey struct {
	tid int
	tr  *ast.Transformation
}

// collectSites numbers the call sites and names the functions' variables.
func (g *gen) collectSites() error {
	g.siteOf = map[*ast.Transformation]*site{}
	g.transProc = map[*ast.Transformation]*types.Proc{}
	g.fbase = map[*types.Var]string{}
	g.siteStore = map[*site][]string{}
	all := append(append([]*types.Proc(nil), g.prog.Threads...), g.prog.Functions...)
	for _, p := range all {
		for _, loc := range p.Locations {
			for _, tr := range loc.Decl.Transformations {
				g.transProc[tr] = p
				c := callOf(tr)
				if c == nil {
					continue
				}
				f, _ := g.info.Uses[c.Func].(*types.Proc)
				tgt, _ := g.info.Uses[tr.Target].(*types.Location)
				if f == nil || f.Thread || len(f.Locations) == 0 || tgt == nil {
					return g.errorf(c.CallPos, "cannot translate this call")
				}
				s := &site{id: len(g.sites) + 1, tr: tr, call: c, from: loc, callee: f, target: tgt}
				g.sites = append(g.sites, s)
				g.siteOf[tr] = s
			}
		}
	}
	for _, f := range g.prog.Functions {
		for _, v := range f.Vars() {
			n := "F_" + ident(f.Name()) + "_" + ident(v.Name())
			for g.globalNS[n] || g.globalNS["T_"+n] {
				n += "_"
			}
			g.globalNS[n] = true
			g.globalNS["T_"+n] = true
			g.fbase[v] = n
			g.names[v] = g.frameSlot(v, "BIR_sp - 1")
		}
	}
	return nil
}

// frameSlot is the place of function variable v in frame idx: an entry
// of its per-frame array, whose elements wrap an array variable in a
// typedef (Promela has no arrays of arrays).
func (g *gen) frameSlot(v *types.Var, idx string) string {
	s := g.fbase[v] + "[" + idx + "]"
	if _, ok := v.Type().Underlying().(*types.Array); ok {
		s += ".e"
	}
	return s
}

// frameTypedef is the name of the typedef wrapping array variable v of a
// function in each frame.
func (g *gen) frameTypedef(v *types.Var) string { return "T_" + g.fbase[v] }

// emittedThreads returns the threads that can exist: main threads and
// threads named by start, in declaration order.
func (g *gen) emittedThreads() []*types.Proc {
	var out []*types.Proc
	for _, t := range g.prog.Threads {
		if t.Main || t.Started {
			out = append(out, t)
		}
	}
	return out
}

// scanUnsupported reports the first construct the translation does not
// handle.
func (g *gen) scanUnsupported() error {
	var first error
	firstPos := source.Pos(-1)
	report := func(pos source.Pos, format string, args ...any) {
		if first == nil || pos < firstPos {
			first = g.errorf(pos, format, args...)
			firstPos = pos
		}
	}
	for _, t := range append(append([]*types.Proc(nil), g.prog.Threads...), g.prog.Functions...) {
		for _, loc := range t.Locations {
			for _, tr := range loc.Decl.Transformations {
				for _, a := range tr.Actions {
					switch a := a.(type) {
					case *ast.BadAction:
						report(a.From, "bad action")
					}
				}
			}
		}
	}
	if pos, what := wideFixedUse(g.prog); pos.IsValid() {
		// Promela's int is 32 bits: int64, uint32 and uint64 values do
		// not fit (fixed.go)
		report(pos, "%s is not supported by the Promela translation", what)
	}
	g.collectStores()
	ast.Inspect(g.prog.File, func(n ast.Node) bool {
		if b, ok := n.(*ast.BuiltinExpr); ok && b.Op == token.THREADTERMINATED {
			g.usesTerm = true
		}
		return true
	})
	return first
}

// ---------------------------------------------------------------------------
// Types and declarations

// scalar returns the Promela type of a scalar BIR type, or "" for locks,
// arrays and records.
func (g *gen) scalar(t types.Type) string {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch u.Kind {
		case types.Bool:
			return "bool"
		case types.Int:
			return "int"
		case types.Tid:
			return "byte"
		}
	case *types.Range:
		return intType(u.Lo, u.Hi)
	case *types.Enum:
		lo, hi := int64(0), int64(0)
		for i, c := range u.Consts {
			if i == 0 || c.Ordinal < lo {
				lo = c.Ordinal
			}
			if i == 0 || c.Ordinal > hi {
				hi = c.Ordinal
			}
		}
		return intType(lo, hi)
	case *types.Ref:
		return g.refType
	}
	return ""
}

func intType(lo, hi int64) string {
	switch {
	case lo >= 0 && hi <= 255:
		return "byte"
	case lo >= -32768 && hi <= 32767:
		return "short"
	}
	return "int"
}

// defaultOf returns the Promela default value of a scalar BIR type.
func defaultOf(t types.Type) string {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Kind == types.Bool {
			return "false"
		}
		return "0"
	case *types.Range:
		if u.Lo <= 0 && 0 <= u.Hi {
			return "0"
		}
		return fmt.Sprint(u.Lo)
	case *types.Enum:
		if len(u.Consts) > 0 {
			return fmt.Sprint(u.Consts[0].Ordinal)
		}
	}
	return "0"
}

// wide reports whether s is an integer constant beyond 32 bits, which a
// Promela int cannot hold.
func wide(s string) bool {
	v, err := strconv.ParseInt(s, 10, 64)
	return err == nil && !fits32(v)
}

// wideValue reports whether a variable of type t with initial value init
// ("" for none) starts with a value beyond 32 bits: init, or the default
// of t or of its elements.
func wideValue(t types.Type, init string) bool {
	if init != "" {
		return wide(init)
	}
	if a, ok := t.Underlying().(*types.Array); ok {
		return wideValue(a.Elem, "")
	}
	switch t.Underlying().(type) {
	case *types.Range, *types.Enum:
		return wide(defaultOf(t))
	}
	return false
}

// wideFields reports whether a new object of collection element type el
// holds a value beyond 32 bits (a field's default).
func wideFields(el types.Type) bool {
	if r, ok := el.Underlying().(*types.Record); ok {
		for _, f := range r.Fields {
			if wideValue(f.Type(), "") {
				return true
			}
		}
		return false
	}
	return wideValue(el, "")
}

// wideStmts is the statement of a step that brings a value beyond 32 bits
// into the state: a (32-bit) overflow, as for a constant beyond 32 bits.
func wideStmts() []string { return assertStmts([]check{{"false", "overflow"}}) }

func constString(v types.ConstValue) string {
	switch v.Kind {
	case types.IntConst:
		return lit32(v.Int) // SPIN reads -2147483648 as -(2147483648), a C long in pan
	case types.BoolConst:
		if v.Bool {
			return "true"
		}
		return "false"
	}
	return "0"
}

// fieldDecl returns the declaration of a variable or field of type t named
// name with initial value init ("" for the default), e.g. "byte a[3] = 1".
func (g *gen) varDecl(t types.Type, name, init string, pos source.Pos) (string, error) {
	switch u := t.Underlying().(type) {
	case *types.Lock:
		return "BIR_Lock " + name, nil
	case *types.Array:
		if _, ok := u.Elem.Underlying().(*types.Lock); ok {
			return fmt.Sprintf("BIR_Lock %s[%d]", name, u.Len), nil
		}
		if _, ok := u.Elem.Underlying().(*types.Array); ok {
			// Promela has no arrays of arrays: each row is a typedef
			// wrapping the inner array, b[i][j] is b[i].e[j]
			row, ok := g.rows[u.Elem.String()]
			if !ok {
				return "", g.errorf(pos, "arrays of %s are not supported yet", u.Elem)
			}
			return fmt.Sprintf("%s %s[%d]", row, name, u.Len), nil
		}
		s := g.scalar(u.Elem)
		if s == "" {
			return "", g.errorf(pos, "arrays of %s are not supported yet", u.Elem)
		}
		d := defaultOf(u.Elem)
		if d != "0" && d != "false" && !wide(d) {
			return fmt.Sprintf("%s %s[%d] = %s", s, name, u.Len, d), nil
		}
		return fmt.Sprintf("%s %s[%d]", s, name, u.Len), nil
	}
	s := g.scalar(t)
	if s == "" {
		// a defensive guard: the type checker allows records only in
		// collections, and scalar covers every other value type
		return "", g.errorf(pos, "variables of type %s are not supported", t)
	}
	if init == "" {
		init = defaultOf(t)
	}
	if wide(init) {
		// Promela's int has 32 bits: the value is not stored (the
		// variable holds 0) and the step that brings it into the state
		// reports an overflow (wideStart, wideStmts)
		init = "0"
	}
	if init != "0" && init != "false" {
		return fmt.Sprintf("%s %s = %s", s, name, init), nil
	}
	return s + " " + name, nil
}

func (g *gen) declTypes() error {
	hasLock := false
	var visit func(t types.Type)
	visit = func(t types.Type) {
		switch u := t.Underlying().(type) {
		case *types.Lock:
			hasLock = true
			g.hasWait = g.hasWait || u.Wait
		case *types.Array:
			visit(u.Elem)
		case *types.Record:
			for _, f := range u.Fields {
				visit(f.Type())
			}
		}
	}
	for _, v := range g.prog.Globals {
		visit(v.Type())
	}
	for _, c := range g.prog.Collections {
		visit(c.Elem)
	}
	for _, t := range g.prog.Threads {
		for _, v := range t.Vars() {
			visit(v.Type())
		}
	}
	for _, f := range g.prog.Functions {
		for _, v := range f.Vars() {
			visit(v.Type())
		}
	}
	if hasLock {
		g.p("/* a lock: owner is the holder's tid (0 when free), count its reentrancy count")
		if g.hasWait {
			g.p(";\n   waiting and notified are sets of threads, bit tid-1 for thread tid")
			if !g.wideSets {
				g.p(" */\n")
			} else {
				g.p("\n")
			}
			if g.wideSets {
				g.p("   (tids 1..32 in waiting and notified, 33..64 in waiting2 and notified2) */\n")
				g.p("typedef BIR_Lock { byte owner; byte count; int waiting; int notified; int waiting2; int notified2 };\n\n")
			} else {
				g.p("typedef BIR_Lock { byte owner; byte count; int waiting; int notified };\n\n")
			}
		} else {
			g.p(" */\n")
			g.p("typedef BIR_Lock { byte owner; byte count };\n\n")
		}
	}
	if err := g.declRows(); err != nil {
		return err
	}
	// an array variable of a function has one array per frame: the
	// frames' arrays are an array of this typedef
	nfa := 0
	for _, f := range g.prog.Functions {
		for _, v := range f.Vars() {
			if _, ok := v.Type().Underlying().(*types.Array); !ok {
				continue
			}
			d, err := g.varDecl(v.Type(), "e", "", v.Pos())
			if err != nil {
				return err
			}
			g.p("typedef %s { %s }; /* %s of %s in one frame */\n", g.frameTypedef(v), d, v.Name(), f.Name())
			nfa++
		}
	}
	if nfa > 0 {
		g.p("\n")
	}
	done := map[*types.Named]bool{}
	for _, c := range g.prog.Collections {
		el := c.Elem
		if done[el] {
			continue
		}
		done[el] = true
		switch u := el.Underlying().(type) {
		case *types.Record:
			g.p("typedef %s {", g.typedefName(el))
			if len(u.Fields) == 0 {
				g.p(" bit BIR_unused")
			}
			for i, f := range u.Fields {
				d, err := g.varDecl(f.Type(), ident(f.Name()), "", f.Pos())
				if err != nil {
					return err
				}
				if i > 0 {
					g.p(";")
				}
				g.p(" %s", d)
			}
			g.p(" };\n")
		case *types.Array:
			d, err := g.varDecl(&types.Array{Len: u.Len, Elem: u.Elem}, "e", "", c.Pos())
			if err != nil {
				return err
			}
			g.p("typedef %s { %s; byte n }; /* a heap array of length n <= %d */\n", g.typedefName(el), d, u.Len)
		default:
			return g.errorf(c.Pos(), "collection of %s is not supported", el)
		}
	}
	if len(done) > 0 {
		g.p("\n")
	}
	return nil
}

// declRows declares a typedef for each array type that is the element
// type of an array (a row of an array of arrays), inner rows first:
// `typedef T_Row { byte e[2] = 1 }; T_Row g[3];` for g : array [3] of Row,
// whose element g[i][j] is g[i].e[j].
func (g *gen) declRows() error {
	g.rows = map[string]string{}
	taken := map[string]bool{}
	n := 0
	var visit func(t types.Type, pos source.Pos) error
	visit = func(t types.Type, pos source.Pos) error {
		switch u := t.Underlying().(type) {
		case *types.Array:
			if err := visit(u.Elem, pos); err != nil {
				return err
			}
			if _, ok := u.Elem.Underlying().(*types.Array); !ok {
				return nil
			}
			key := u.Elem.String()
			if _, done := g.rows[key]; done {
				return nil
			}
			name := ""
			if nt, ok := u.Elem.(*types.Named); ok {
				name = "T_" + strings.ReplaceAll(nt.String(), "$", "_S")
			}
			for name == "" || taken[name] || g.globalNS[name] {
				n++
				name = fmt.Sprintf("T_row%d", n)
			}
			taken[name] = true
			d, err := g.varDecl(u.Elem, "e", "", pos)
			if err != nil {
				return err
			}
			g.rows[key] = name
			g.p("typedef %s { %s }; /* %s as the row of an array */\n", name, d, u.Elem)
		case *types.Record:
			for _, f := range u.Fields {
				if err := visit(f.Type(), f.Pos()); err != nil {
					return err
				}
			}
		}
		return nil
	}
	var err error
	try := func(t types.Type, pos source.Pos) {
		if err == nil {
			err = visit(t, pos)
		}
	}
	for _, v := range g.prog.Globals {
		try(v.Type(), v.Pos())
	}
	for _, c := range g.prog.Collections {
		try(c.Elem, c.Pos())
	}
	for _, t := range append(append([]*types.Proc(nil), g.prog.Threads...), g.prog.Functions...) {
		for _, v := range t.Vars() {
			try(v.Type(), v.Pos())
		}
		if t.Result != nil {
			try(t.Result, t.Pos())
		}
	}
	if len(g.rows) > 0 {
		g.p("\n")
	}
	return err
}

// isArray reports whether t is an array type.
func isArray(t types.Type) bool {
	_, ok := t.Underlying().(*types.Array)
	return ok
}

// arrayLeaves returns the number of scalars (or locks) an array of type
// t is made of, through every level of nesting.
func arrayLeaves(t types.Type) int64 {
	if a, ok := t.Underlying().(*types.Array); ok {
		return a.Len * arrayLeaves(a.Elem)
	}
	return 1
}

func (g *gen) typedefName(n *types.Named) string {
	if _, ok := n.Underlying().(*types.Array); ok {
		return "A_" + strings.ReplaceAll(n.String(), "$", "_S")
	}
	return "R_" + strings.ReplaceAll(n.String(), "$", "_S")
}

func (g *gen) declGlobals() error {
	if len(g.prog.Globals) > 0 {
		g.p("/* globals */\n")
	}
	for _, v := range g.prog.Globals {
		init := ""
		if v.Init.Kind != types.NoConst {
			init = constString(v.Init)
		}
		d, err := g.varDecl(v.Type(), g.names[v], init, v.Pos())
		if err != nil {
			return err
		}
		g.p("%s;\n", d)
	}
	if len(g.prog.Collections) > 0 {
		g.p("\n/* collections: objects in allocation order and the count allocated;\n")
		g.p("   a reference is 0 (null) or offset + index + 1 */\n")
	}
	for _, c := range g.prog.Collections {
		g.p("%s %s[%d]; byte %s; /* references %d..%d */\n", g.typedefName(c.Elem), g.names[c], c.Size,
			g.countName(c), g.colOff[c]+1, g.colOff[c]+int(c.Size))
	}
	if g.usesTerm {
		var init uint64
		for i, t := range g.mainThreads() {
			if len(t.Locations) > 0 && len(t.Locations[0].Decl.Transformations) == 0 {
				init |= 1 << uint(i)
			}
		}
		g.p("\n/* terminated threads: bit tid-1 for thread tid (a function of the control points) */\n")
		if g.wideSets {
			g.p("int BIR_term = %d; /* tids 1..32 */\n", int32(uint32(init)))
			g.p("int BIR_term2 = %d; /* tids 33..64, bit tid-33 */\n", int32(uint32(init>>32)))
		} else {
			g.p("int BIR_term = %d;\n", init)
		}
	}
	if g.procTab {
		g.p("\n/* the thread (numbered from 1) of each started tid, from tid %d (a function of the processes) */\n", g.nThreads+1)
		g.p("byte BIR_proc[%d];\n", g.maxTids-g.nThreads)
	}
	if len(g.opts.Formulas) > 0 {
		g.p("\n/* set by a step that hits a bound of the model: birch cuts the path there */\n")
		g.p("bit BIR_cut;\n")
	}
	g.p("\n")
	return nil
}

func (g *gen) countName(c *types.Collection) string { return "BIR_n_" + g.names[c] }

func (g *gen) mainThreads() []*types.Proc {
	var out []*types.Proc
	for _, t := range g.prog.Threads {
		if t.Main {
			out = append(out, t)
		}
	}
	return out
}

// inCol is the test that reference r is an object of collection c.
func (g *gen) inCol(r string, c *types.Collection) string {
	off := g.colOff[c]
	if c.Size == 1 {
		return fmt.Sprintf("%s == %d", r, off+1)
	}
	return fmt.Sprintf("(%s > %d && %s <= %d)", r, off, r, off+int(c.Size))
}

// object is the Promela place of the object r refers to in collection c.
func (g *gen) object(r string, c *types.Collection) string {
	off := g.colOff[c] + 1
	if c.Size == 1 {
		return g.names[c] + "[0]"
	}
	if off == 0 {
		return fmt.Sprintf("%s[%s]", g.names[c], r)
	}
	return fmt.Sprintf("%s[%s - %d]", g.names[c], r, off)
}

// refCollections returns the collections a value of reference type t may
// refer to, in declaration order.
func refCollections(t types.Type) []*types.Collection {
	r, ok := t.Underlying().(*types.Ref)
	if !ok {
		return nil
	}
	cs := append([]*types.Collection(nil), r.Collections...)
	sort.Slice(cs, func(i, j int) bool { return cs[i].Index < cs[j].Index })
	return cs
}
