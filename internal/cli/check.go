package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	cfront "birch/internal/frontend/c"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/smt/solvers"
	"birch/internal/source"
	"birch/internal/verify"
)

type checkOptions struct {
	search     string
	cmd        string // the command, for messages ("" is check)
	tcache     string
	seed       uint64
	maxDepth   int
	maxStates  int
	maxMemory  string
	timeLimit  string
	chooseFree bool
	noDeadlock bool
	onLimit    string
	json       bool
	trail      string
	maxThreads int
	maxCalls   int
	progress   bool
	lim        *runLimits // the limits of the command under way
	stderr     io.Writer
	inRun      bool // rendering one check of a run of several
	fullTrail  bool

	// properties (docs/properties.md)
	properties   repeatedFlag // --property NAME (repeatable)
	ltl          string       // --ltl FORMULA
	pattern      string       // --pattern 'PATTERN(args) SCOPE'
	fair         bool         // --fair: weak fairness over threads
	noInvariants bool         // --no-invariants

	// data abstraction (docs/abstraction.md, "Checking with abstraction")
	abstract     repeatedFlag // --abstract NAME=ABSTRACTION
	abstractions string       // --abstractions FILE
	use          repeatedFlag // --use FILE.basl
	coerce       repeatedFlag // --coerce FROM->TO
	def          string       // --default concrete|point
	solver       string       // --solver for synthesis and replay
	maxReplay    int          // --max-replay: states of the concrete replay

	// predicate abstraction (docs/predicates.md, "Checking with predicates")
	predicates string // --predicates FILE
	cubeLength int    // --cube-length N
	engine     string // --engine auto|explicit|bebop

	// refinement (docs/cegar.md)
	cegar          bool   // --cegar
	maxRefinements int    // --max-refinements N
	savePredicates string // --save-predicates FILE

	// abstract matching (docs/amcs.md)
	amcs       amcsFlag // --amcs[=VARIANT]
	amcsRounds int      // --amcs-rounds N

	onTheFly bool // --on-the-fly: on-the-fly predicate abstraction (docs/apf.md)

	// SV-COMP tasks (docs/svcomp.md)
	task         string       // --task FILE.yml
	taskProperty string       // --task-property NAME
	witness      string       // --witness FILE
	svcomp       *taskOutcome // the answer to --task, for the report

	// modelTrails: the trails of a Java program's violations in the
	// model's names, for the trail files (jterms.go)
	modelTrails map[*verify.Violation][]verify.Step
}

func init() {
	register(&command{
		name:  "check",
		args:  "[flags] MODEL.bir",
		short: "explore every behaviour of a BIR model (explicit-state model checking)",
		long: `
Check explores the state space of a BIR model exhaustively and either proves
that no violation is reachable or shows a trail to one. Violations are failed
assertions, runtime errors (null dereference, index out of bounds, division by
zero, a value out of its range, integer overflow, illegal monitor state, a
failed reference cast), deadlocks, and the invariants of the model's
properties section (unless --no-invariants). Every ltl property of the
properties section is checked too, each by a search of its own; the report
gives a verdict per property and the worst as the overall verdict.

--property NAME (repeatable) checks only the properties named; --ltl FORMULA
and --pattern PATTERN check only an LTL formula. The search for an ltl
property looks for an execution that violates the formula (a lasso: a
prefix and a cycle that repeats forever).
Executions that end (every thread terminated, or no thread can move) repeat
their last state forever. --fair keeps only executions that are weakly fair
to every thread. See docs/properties.md.

The verdict is pass (no violation, complete search), fail (a violation, with
its trail), or inconclusive (a resource limit, a bound of the model, or an
incomplete search mode such as --choose-free or --max-depth).

Bounds of the model (a full collection, too many threads, the call depth, the
reentrancy count) cut the path by default (--on-limit=cut), and a search that
hit one is inconclusive: the model holds only within the bounds.
--on-limit=error makes hitting a bound a violation.

--abstract NAME=ABSTRACTION (repeatable) and --abstractions FILE check the
abstract model instead (Bandera's data abstraction; the bindings are those of
birch abstraction infer, with --use FILE.basl, --coerce 'FROM->TO' and
--default): a pass is a
proof for the concrete model. A violation is looked for again with the
choose-free search, and the abstract trail is replayed on the concrete model:
confirmed (fail, with a concrete trail) or not confirmed (inconclusive,
naming the first step where the abstract and concrete models part ways).
See docs/abstraction.md.

--predicates FILE checks the predicate abstraction of the model instead
(SLAM's C2bp: one boolean per predicate of FILE; --cube-length N bounds the
cubes of its solver queries): a pass is a proof for the concrete model, also
when the model reads unbounded inputs (externChoose(int)). An abstract
violation is solved along its steps on the concrete model: confirmed (fail,
with the input values and a trail for birch replay) or not confirmed
(inconclusive, naming the step where the two part ways). Deadlocks and ltl
properties are not checked. See docs/predicates.md.

--cegar finds the predicates itself (SLAM's refinement loop): it starts from
the comparisons the model makes (and the predicates of --predicates FILE, if
given), abstracts, checks, and decides each abstract violation's path on the
concrete model: real (fail, confirmed, with its input values) or spurious
(new predicates, by interpolation and Newton, and another round). It ends in
pass (printing the predicates of the proof; --save-predicates FILE writes
them for --predicates), fail, or inconclusive with the reason (no new
predicate, a repeated spurious trail, --max-refinements N, default 50, the
time limit, an undecided path). --search defaults to bfs (shortest trails).
See docs/cegar.md.

--amcs[=VARIANT] searches the concrete states breadth-first but matches them
on an abstraction (their control part and the values of predicates) and
refines the predicates round after round (Pasareanu, Pelanek and Visser's
abstract matching; Kudra's GeneralSplitting): an under-approximation that
finds real errors in state spaces too large to search. A violation is real
(fail, confirmed, with a trail for birch replay); pass only when the last
round was exact (a complete concrete search); otherwise inconclusive.
VARIANT is amcs (bare --amcs: weakest preconditions and the solver), addall,
notp, maxoverlap, minset or minonly (GeneralSplitting without a solver, which
always ends; minonly led them in the thesis's experiment and in birch's,
where random DFS found more injected errors still); --predicates FILE
gives the initial predicates, --amcs-rounds N bounds the rounds, --seed
breaks the heuristics' ties. ltl properties are not checked. See
docs/amcs.md.

--on-the-fly with --predicates FILE abstracts each step as the explicit
search executes it (Abstract Pathfinder's predicate abstraction): threads,
locations, locks, references and the heap stay concrete, and the int data
(and ranges of more than 256 values) are described by the predicates of
FILE, each true, false or unknown, per context: globals, [thread T] and
[function f] per frame, [record T] per object. A guard whose value is
unknown is taken both ways. A pass is a proof; a violation is replayed on
the model as written: confirmed (fail, with a trail for birch replay) or
not confirmed, when the other violations the search finds are tried (up
to 100); none confirmed is inconclusive, naming the step where the first
one and the model part ways.
Deadlocks, ltl properties and invariants that read abstracted data are not
checked. See docs/apf.md.

A C program (prog.c, or a preprocessed prog.i) is lowered to a BIR model
(--data-model ILP32|LP64, --overflow-error) and checked by refinement when it
reads unbounded inputs (__VERIFIER_nondet_int()), by the explicit search
otherwise. --task FILE.yml checks an SV-COMP task (its program, property and
data model) and prints SV-COMP's answer, true, false or unknown, as the first
line; --witness FILE writes a violation witness. See docs/svcomp.md.

A Java program (Main.java, compiled with javac; Main.class, whose directory
walked up by its package is the class path; or a directory of class files,
with --main pkg.Main unless one class has a main method) is lowered to a
BIR model: --max-objects N bounds the objects of each allocation site (4),
--max-array-length N the arrays (8); a program that needs more is cut
there and the check is inconclusive (bounded). Its trail names Java's
threads (main, Thread-0, ...), frames (pkg.Main.main(Main.java:12)),
fields and locals, and an uncaught exception by its class. See
docs/java.md.

Exit status: 0 pass, 1 fail, 2 bad input or usage, 3 inconclusive.
The JSON output (--json) is described in docs/check.md.`,
		flags: func(fs *flag.FlagSet) any {
			o := &checkOptions{}
			fs.StringVar(&o.search, "search", "dfs", "search order: dfs, bfs (shortest trails) or random (randomized dfs)")
			fs.Uint64Var(&o.seed, "seed", 1, "seed of --search=random and of --amcs's tie breaks")
			fs.IntVar(&o.maxDepth, "max-depth", 0, "cut paths longer than this many steps (0: no bound); a search that cut a path is inconclusive")
			fs.IntVar(&o.maxStates, "max-states", 0, "stop after storing this many states (0: no limit)")
			fs.StringVar(&o.maxMemory, "max-memory", "", "stop when the search holds this much memory, e.g. 4G, 512M (default: 80% of the machine's memory)")
			fs.StringVar(&o.timeLimit, "time-limit", "", "stop after this long, e.g. 30s, 5m (default: no limit)")
			fs.BoolVar(&o.chooseFree, "choose-free", false, "explore only transformations that execute no internChoose, forall or reachable (M_D)")
			fs.BoolVar(&o.noDeadlock, "no-deadlock", false, "do not report deadlocks")
			fs.StringVar(&o.onLimit, "on-limit", "cut", "what a bound of the model does: cut the path, or error (a violation)")
			fs.BoolVar(&o.json, "json", false, "print the result as one JSON document on stdout")
			fs.StringVar(&o.trail, "trail", "", "save the trail of a violation to this file (for birch replay)")
			fs.IntVar(&o.maxThreads, "max-threads", 16, "bound on the number of threads (at most 64)")
			fs.IntVar(&o.maxCalls, "max-call-depth", 64, "bound on the call depth of a thread")
			fs.StringVar(&o.tcache, "transition-cache", "auto", "memo of each thread's steps: auto (used when it measures faster), on or off; the result is the same")
			fs.BoolVar(&o.fullTrail, "full-trail", false, "print every step of a long trail (by default the first and last 10; the trail file and --json always have every step)")
			fs.BoolVar(&o.progress, "progress", false, "print a progress line every second even when stderr is not a terminal")
			fs.Var(&o.properties, "property", "check only the property `NAME` of the model's properties section (an invariant or an ltl formula; repeatable)")
			fs.StringVar(&o.ltl, "ltl", "", "check the LTL formula `FORMULA` (over the model's predicates and boolean expressions)")
			fs.StringVar(&o.pattern, "pattern", "", "check a specification pattern, e.g. 'response(p, q) globally' (see birch patterns)")
			fs.BoolVar(&o.fair, "fair", false, "ltl: consider only executions that are weakly fair to every thread")
			fs.BoolVar(&o.noInvariants, "no-invariants", false, "do not check the invariants of the model's properties section")
			fs.Var(&o.abstract, "abstract", "check the abstract model: bind `NAME=ABSTRACTION` (repeatable)")
			fs.StringVar(&o.abstractions, "abstractions", "", "check the abstract model: read bindings from `FILE`")
			fs.Var(&o.use, "use", "with --abstract: read the abstractions of a BASL `FILE` (repeatable)")
			fs.Var(&o.coerce, "coerce", "with --abstract: declare a coercion `FROM->TO` between abstractions (repeatable)")
			fs.StringVar(&o.def, "default", "concrete", "with --abstract: abstraction of unconstrained integers: concrete or point")
			fs.StringVar(&o.solver, "solver", solvers.Default, "with --abstract, --predicates, --cegar or --amcs: decision procedure: "+strings.Join(solvers.Names, ", "))
			fs.IntVar(&o.maxReplay, "max-replay", 100000, "with --abstract: states the concrete replay of an abstract trail may explore before solving symbolically")
			fs.StringVar(&o.predicates, "predicates", "", "check the predicate abstraction of the model with the predicates of `FILE` (--solver applies; with --amcs: its initial predicates)")
			fs.IntVar(&o.cubeLength, "cube-length", 0, "with --predicates: the longest cube of the abstraction's queries (0: 3)")
			fs.StringVar(&o.engine, "engine", "auto", "with --predicates: the engine of the abstract model: bebop (one thread), explicit, or auto (bebop where it applies)")
			fs.BoolVar(&o.cegar, "cegar", false, "find the predicates by counterexample-guided refinement (--predicates FILE: predicates to start from)")
			fs.IntVar(&o.maxRefinements, "max-refinements", verify.DefaultMaxRefinements, "with --cegar: the most refinements before the check ends inconclusive")
			fs.StringVar(&o.savePredicates, "save-predicates", "", "with --cegar: write the final predicates to `FILE` (for --predicates FILE)")
			fs.Var(&o.amcs, "amcs", "search with abstract matching: --amcs or --amcs=`VARIANT` (amcs, addall, notp, maxoverlap, minset, minonly); --predicates FILE: initial predicates")
			fs.IntVar(&o.amcsRounds, "amcs-rounds", 0, "with --amcs: the most rounds of refinement (0: no bound)")
			fs.BoolVar(&o.onTheFly, "on-the-fly", false, "with --predicates FILE: abstract each step as the explicit search executes it (Abstract Pathfinder) instead of the model before the search")
			fs.StringVar(&o.task, "task", "", "check the SV-COMP task `FILE.yml` (its program, property and data model); the first line is true, false or unknown")
			fs.StringVar(&o.taskProperty, "task-property", "", "with --task: check the property `NAME` of the task (unreach-call, no-overflow; default: the first birch checks)")
			fs.StringVar(&o.witness, "witness", "", "on a violation of a C program, write an SV-COMP violation witness (GraphML 1.0) to `FILE`")
			return o
		},
		run: runCheck,
	})
}

func runCheck(e *env, fs *flag.FlagSet, opts any) int {
	o := opts.(*checkOptions)
	defer func() {
		if o.lim != nil {
			o.lim.Release()
		}
	}()
	if o.task != "" {
		return runTask(e, fs, o)
	}
	if o.taskProperty != "" {
		fmt.Fprintln(e.stderr, "birch check: --task-property needs --task")
		return ExitBadInput
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(e.stderr, "birch check: want exactly one model file; %s\n", usageLine(fs))
		return ExitBadInput
	}
	res, in, status := o.check(e, fs, fs.Arg(0))
	if res == nil {
		return status
	}
	o.savePredicatesOf(e, res)
	status = renderResult(e, o, res)
	o.writeWitness(e, in, res, nil)
	return status
}

// check checks the input name with the flags of o: the run's result and
// the input, or a nil result and the exit status of a bad input (its
// diagnostics printed). The limits it starts (o.lim) are the caller's to
// release.
func (o *checkOptions) check(e *env, fs *flag.FlagSet, name string) (*verify.Result, *verify.Input, int) {
	cfg, mo, ok := o.config(e, "check")
	if !ok || !checkOutputPath(e, "check", "--trail", o.trail) || !checkOutputPath(e, "check", "--witness", o.witness) {
		return nil, nil, ExitBadInput
	}
	o.stderr = e.stderr
	o.lim = startLimits(e, &cfg)
	da, ok := o.dataAbstraction(e)
	if !ok {
		return nil, nil, ExitBadInput
	}
	// a C or Java program is checked by refinement when it reads
	// unbounded inputs
	isC := isCInput(name) || verify.IsJavaInput(name)
	if !o.onTheFlyOptions(e, fs) || !o.amcsOptions(e, fs) {
		return nil, nil, ExitBadInput
	}
	if (o.cubeLength != 0 || o.engine != "auto") && o.predicates == "" && !o.cegar && !isC {
		fmt.Fprintln(e.stderr, "birch check: --cube-length and --engine need --predicates or --cegar")
		return nil, nil, ExitBadInput
	}
	if (!isC || o.cegar) && !o.cegarOptions(e, fs, &cfg) {
		// (a C program's refinement flags are checked once it is known
		// whether it is checked by refinement)
		return nil, nil, ExitBadInput
	}
	var in *verify.Input
	var err error
	if r := o.lim.Run(phaseModel, func() { in, err = loadInputErr(e, name) }); r != "" {
		return verify.Stopped(name, o.search, phaseModel, r), nil, 0
	}
	if err != nil {
		var ue *cfront.UnsupportedError
		if errors.As(err, &ue) {
			return unsupportedResult(name, o.search, ue), nil, 0
		}
		if lang, list, ok := unsupportedOf(err); ok && lang == "Java" {
			return javaUnsupportedResult(name, o.search, list), nil, 0
		}
		printLoadError(e, err)
		return nil, nil, ExitBadInput
	}
	if (in.C != nil || in.Java != nil) && !o.cegar && o.predicates == "" && da == nil && !o.amcs.set {
		// a C or Java program: refinement when it reads unbounded
		// inputs, the explicit search of the model otherwise
		// (docs/svcomp.md, docs/java.md)
		o.cegar = model.UnboundedChoices(in.Prog, mo.MaxChoiceRange) != nil
		if !o.cegar && model.ChoiceBits(in.Prog) > maxExplicitChoiceBits {
			// inputs each small, together too many to enumerate: the
			// refinement takes every choice of more than 2^8 values as
			// an unbounded input (a solver's value, as an int's)
			o.cegar, mo.MaxChoiceRange = true, 1<<8
		}
		if !o.cegarOptions(e, fs, &cfg) {
			return nil, nil, ExitBadInput
		}
	}
	if in.C != nil && !isFlagSet(fs, "no-deadlock") {
		// a C program has no deadlock property: a thread blocked for good
		// (a false __VERIFIER_assume) is an execution that ends
		cfg.NoDeadlock = true
	}
	o.prepareSearch(e, &cfg)
	t := &verify.Task{
		Input: in, Search: cfg, Model: mo, Limits: o.lim, LTLMaxNodes: ltlMaxNodes, Abstraction: da, WarnAt: warnAt(e),
		Select: verify.Selection{Names: o.properties, LTL: o.ltl, Pattern: o.pattern, NoInvariants: o.noInvariants, Fair: o.fair},
		Warn:   func(msg string) { fmt.Fprintf(e.stderr, "birch check: %s\n", msg) },
	}
	t.Predicates = o.predicateAbstraction(e)
	if o.cegar {
		t.Cegar, t.Predicates = o.cegarTask(e), nil
	}
	if o.amcs.set {
		t.AMCS, t.Predicates = o.amcsTask(e), nil
	}
	if o.onTheFly {
		t.OnTheFly, t.Predicates = o.onTheFlyTask(e), nil
	}
	res, err := verify.Run(t)
	if err != nil {
		printRunError(e, "check", err)
		return nil, nil, ExitBadInput
	}
	inCTerms(res, in)
	o.javaTerms(e, res, in)
	return res, in, 0
}

// maxExplicitChoiceBits: a C program whose choices together have more
// than 2^20 combinations (model.ChoiceBits) is checked by refinement
// (docs/c.md, "Inputs and how the program is checked").
const maxExplicitChoiceBits = 20

// printRunError prints the error of a verification run: positioned
// diagnostics as they are, a usage error after the command's name.
func printRunError(e *env, cmd string, err error) {
	var ue *verify.UsageError
	var list source.ErrorList
	switch {
	case errors.As(err, &ue):
		fmt.Fprintf(e.stderr, "birch %s: %v\n", cmd, ue)
	case errors.As(err, &list):
		source.Print(e.stderr, list, maxShownErrors)
	default:
		fmt.Fprintln(e.stderr, err)
	}
}

// progressEvery is the interval between progress lines (0: a second);
// tests shorten it.
var progressEvery time.Duration

// prepareSearch arranges for progress lines.
func (o *checkOptions) prepareSearch(e *env, cfg *search.Config) {
	if o.progress || isTerminal(e.stderr) {
		cfg.Progress = progressPrinter(e.stderr)
		cfg.ProgressEvery = progressEvery
	}
}

// violationJSON describes the violation; final is the state the trail ends
// in.
func violationJSON(l *loaded, m *model.Model, res *search.Result, final []byte) *jsonViolation {
	v := res.Violation
	if v == nil {
		return nil
	}
	jv := &jsonViolation{Kind: v.Kind.String(), Message: v.Msg, Pos: posString(l.fset, v.Pos)}
	if final == nil {
		return jv
	}
	if v.Kind == model.Deadlock {
		for _, t := range m.Threads(final, true) {
			jv.Threads = append(jv.Threads, jsonThread{Thread: t.Name, Location: t.Location, Terminated: t.Done, Waits: t.Waits})
		}
		return jv
	}
	if v.Thread >= 0 {
		jv.Thread = m.ThreadName(final, v.Thread)
		jv.Location = threadLocation(m, final, v.Thread)
	}
	return jv
}

// exitStatus is the exit status of a verdict.
func exitStatus(v search.Verdict) int {
	switch v {
	case search.Pass:
		return ExitPass
	case search.Fail:
		return ExitViolation
	}
	return ExitInconclusive
}

// predicateAbstraction is the predicate abstraction of --predicates, or
// nil.
func (o *checkOptions) predicateAbstraction(e *env) *verify.PredicateAbstraction {
	if o.predicates == "" {
		return nil
	}
	return &verify.PredicateAbstraction{File: o.predicates, CubeLength: o.cubeLength, Solver: o.solver, Engine: o.engine,
		ReadFile: func(name string) ([]byte, error) { return readSource(e, name) }}
}
