package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"birch/internal/backend/promela"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/verify"
)

type spinOptions struct {
	por        bool
	bitstate   bool
	json       bool
	trail      string
	fullTrail  bool
	keep       string
	timeLimit  string
	maxMemory  string
	memLimitMB int // --max-memory in megabytes, 0 for none
	maxThreads int
	maxCalls   int

	// properties, as for birch check (docs/properties.md)
	property     string
	ltl          string
	pattern      string
	fair         bool
	noInvariants bool
}

func init() {
	register(&command{
		name:     "spin",
		args:     "[--por] [--bitstate] [--json] [--trail FILE] [--property NAME | --ltl FORMULA | --pattern PATTERN] [--fair] MODEL.bir [-- PAN FLAGS]",
		short:    "check a BIR model with SPIN, as a second opinion",
		passArgs: true,
		long: `
Spin checks a BIR model with the SPIN model checker instead of birch's own
engine: it translates the model to Promela (as birch translate --to promela
does), generates the verifier with spin -a, compiles it with gcc (-DSAFETY;
-DNOREDUCE unless --por; -DBITSTATE with --bitstate) and runs it, then reports
the result in birch's terms: the same verdict line and JSON document as birch
check, with SPIN's statistics (states stored, transitions, depth, time,
memory) and the time the translation and the compilation took.

When SPIN finds a violation, its trail is replayed (spin -t) and mapped back
to the BIR model: the threads, locations and source positions of each step,
shown as birch check shows its own trails; --trail saves it in the format of
birch check --trail, so that birch replay re-executes it with birch's engine.

Arguments after -- go to pan (for example -- -w28 for a larger hash table);
without a -m flag, -m1000000 is passed, and when pan's depth bound cuts the
search pan runs again with a bound ten times larger (up to 50000000). A complete search without partial-order
reduction stores exactly as many states as birch check (docs/promela.md);
the verdicts agree, except that SPIN's int has 32 bits, so it reports an
overflow where a value leaves them.

Properties are checked as birch check checks them: every invariant of the
model (unless --no-invariants) by a monitor process in every state;
--property NAME checks one property, --ltl FORMULA and --pattern PATTERN an
LTL formula, which SPIN checks as an ltl block (or a never claim built from
birch's automaton) with its acceptance-cycle search (pan -a, -f with --fair);
a violating run is shown as a lasso in BIR terms (docs/promela.md).

spin and gcc must be on PATH (on Debian and Ubuntu: apt-get install spin gcc).
Temporary files go to a private directory that is removed at the end
(--keep DIR copies them to DIR, replacing links found there rather than
writing through them).

--time-limit, --max-memory and Ctrl-C hold while birch builds and translates
the model, and stop the SPIN tool that runs (spin, gcc with everything it
started, or pan, which prints its statistics); pan is compiled with
-DMEMLIM from --max-memory.

Exit status: 0 pass, 1 fail, 2 bad input, usage or missing tools, 3
inconclusive (bitstate, pan's depth or memory bound, the time limit, Ctrl-C,
or paths cut at a bound of the model).`,
		flags: func(fs *flag.FlagSet) any {
			o := &spinOptions{}
			fs.BoolVar(&o.por, "por", false, "use SPIN's partial-order reduction (otherwise pan is compiled with -DNOREDUCE)")
			fs.BoolVar(&o.bitstate, "bitstate", false, "bitstate hashing (-DBITSTATE): less memory, an incomplete search")
			fs.BoolVar(&o.json, "json", false, "print the result as one JSON document on stdout (as birch check --json)")
			fs.StringVar(&o.trail, "trail", "", "save the trail of a violation to this file (for birch replay)")
			fs.BoolVar(&o.fullTrail, "full-trail", false, "print every step of a long trail (by default the first and last 10)")
			fs.StringVar(&o.keep, "keep", "", "copy the Promela model, pan and the trail into `DIR` at the end (links found there are replaced, not followed)")
			fs.StringVar(&o.timeLimit, "time-limit", "", "stop SPIN after this long, e.g. 30s, 5m (default: no limit)")
			fs.StringVar(&o.maxMemory, "max-memory", "", "bound birch's memory and pan's (-DMEMLIM), e.g. 4G, 512M (default: birch 80% of the machine's, pan none)")
			fs.IntVar(&o.maxThreads, "max-threads", 16, "bound on the number of threads (at most 64)")
			fs.IntVar(&o.maxCalls, "max-call-depth", 64, "bound on the call depth of a thread")
			fs.StringVar(&o.property, "property", "", "check only the property NAME of the model (an invariant or an ltl formula)")
			fs.StringVar(&o.ltl, "ltl", "", "check an LTL formula over the model's predicates and expressions")
			fs.StringVar(&o.pattern, "pattern", "", "check a specification pattern, e.g. 'response(p, q) globally'")
			fs.BoolVar(&o.fair, "fair", false, "ltl: consider only executions that are weakly fair to every thread (pan -f)")
			fs.BoolVar(&o.noInvariants, "no-invariants", false, "do not check the invariants of the properties section")
			return o
		},
		run: runSpin,
	})
}

var panLimitRE = regexp.MustCompile(`(?m)^BIR-limit (\d+)$`)

func runSpin(e *env, fs *flag.FlagSet, opts any) int {
	o := opts.(*spinOptions)
	args := fs.Args()
	var panArgs []string
	for i, a := range args {
		if a == "--" {
			panArgs = args[i+1:]
			args = args[:i]
			break
		}
	}
	if len(args) != 1 {
		fmt.Fprintf(e.stderr, "birch spin: want exactly one model file; %s\n", usageLine(fs))
		return ExitBadInput
	}
	if o.maxThreads < 1 || o.maxThreads > 64 {
		fmt.Fprintln(e.stderr, "birch spin: --max-threads must be between 1 and 64")
		return ExitBadInput
	}
	if o.maxCalls < 1 {
		fmt.Fprintln(e.stderr, "birch spin: --max-call-depth must be at least 1")
		return ExitBadInput
	}
	if !checkOutputPath(e, "spin", "--trail", o.trail) {
		return ExitBadInput
	}
	// birch's own phases (model construction, translation) run under
	// check's limits; pan's memory is bounded with -DMEMLIM
	cfg := search.Config{MaxMemory: defaultMaxMemory()}
	if o.maxMemory != "" {
		n, err := parseBytes(o.maxMemory)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch spin: --max-memory: %v\n", err)
			return ExitBadInput
		}
		cfg.MaxMemory = n
		o.memLimitMB = int(n>>20) + min(int(n&(1<<20-1)), 1) // pan counts megabytes (rounded up)
	}
	if o.timeLimit != "" {
		d, err := parseDuration(o.timeLimit)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch spin: --time-limit: %v\n", err)
			return ExitBadInput
		}
		cfg.TimeLimit = d
	}
	// a closed stdout (birch spin … | head) fails the writes with EPIPE
	// instead of killing birch before it removes the temporary directory
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	defer signal.Stop(pipe)
	name := args[0]
	mo := model.Options{MaxThreads: o.maxThreads, MaxCallDepth: o.maxCalls}
	co := &checkOptions{search: "spin", json: o.json, trail: o.trail, fullTrail: o.fullTrail, property: o.property, ltl: o.ltl, pattern: o.pattern, fair: o.fair, noInvariants: o.noInvariants}
	// the time limit, Ctrl-C and SIGTERM end ctx, which stops SPIN's tools
	// (and the report says so); the temporary directory is still removed
	co.lim = startLimits(e, &cfg)
	defer co.lim.Release()
	ctx := co.lim.Ctx
	if o.ltl != "" || o.pattern != "" {
		return runSpinLTL(ctx, e, o, co, name, nil, mo, panArgs)
	}
	var l *loaded
	var m *model.Model
	if r := co.lim.Run(phaseModel, func() { l, m = compileModel(e, name, mo) }); r != "" {
		return stoppedReport(e, co, name, phaseModel, r)
	}
	if m == nil {
		return ExitBadInput
	}
	invs, isLTL, ok := selectProperties(e, l, co)
	if !ok {
		return ExitBadInput
	}
	if isLTL {
		return runSpinLTL(ctx, e, o, co, name, l, mo, panArgs)
	}
	if invs == nil {
		invs = []*types.Property{} // none: not every invariant
	}
	var sm promela.Stepper = m
	if len(invs) > 0 {
		inv, err := search.NewInvariants(m, invs)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch spin: %v\n", err)
			return ExitBadInput
		}
		sm = search.WithStateCheck(m, inv)
	}
	t0 := time.Now()
	var tr *promela.Translation
	var err error
	if r := co.lim.Run(phasePromela, func() {
		tr, err = promela.TranslateFull(l.prog, promela.Options{MaxThreads: o.maxThreads, MaxCallDepth: o.maxCalls, ReportLimits: true, Invariants: invs})
	}); r != "" {
		return stoppedReport(e, co, name, phasePromela, r)
	}
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return ExitBadInput
	}
	translateTime := time.Since(t0)
	dir, cleanup, ok := spinDir(e, o.keep)
	if !ok {
		return ExitBadInput
	}
	defer cleanup()
	r, err := promela.RunSpin(ctx, tr.Promela, promela.SpinConfig{Dir: dir, POR: o.por, Bitstate: o.bitstate, PanArgs: panArgs, MemLimitMB: o.memLimitMB})
	stopped := spinStopped(err)
	if err != nil && stopped == "" {
		fmt.Fprintf(e.stderr, "birch spin: %v\n", err)
		return ExitBadInput
	}

	searchName := "spin"
	if o.por {
		searchName += " --por"
	}
	if o.bitstate {
		searchName += " --bitstate"
	}
	res := &search.Result{Stats: spinStats(r)}
	// the bounds pan reported hitting (each once: pan does not count them)
	seen := map[int]bool{}
	for _, mm := range panLimitRE.FindAllStringSubmatch(r.Output, -1) {
		k, _ := strconv.Atoi(mm[1])
		if k < len(tr.Limits) && !seen[k] {
			seen[k] = true
			res.LimitsHit = append(res.LimitsHit, search.LimitHit{Msg: tr.Limits[k].Msg, Pos: tr.Limits[k].Pos})
		}
	}
	var steps []trailStep
	var final []byte
	var note string // why the trail is not birch's
	switch {
	case stopped != "":
		res.Verdict = search.Inconclusive
		res.Reason = stopped
	case r.Errors > 0:
		res.Verdict = search.Fail
		res.Violation = &search.Violation{Thread: -1, Msg: "SPIN: " + spinErrorText(r)}
		if k, ok := model.ParseErrorKind(r.Kind); ok {
			res.Violation.Kind = k
		}
		res.Reason = r.Kind + ": " + res.Violation.Msg
		var ords []int
		var merr error
		if r.Trail == "" {
			merr = errors.New("pan wrote no trail")
		} else if spinSteps, err := promela.ReadTrail(ctx, dir, tr); err != nil {
			merr = err
		} else {
			ords, merr = promela.MapTrailIn(m, sm, spinSteps, r.Kind)
		}
		if merr != nil && !errors.Is(merr, promela.ErrNotInBirch) {
			note = fmt.Sprintf("SPIN's trail could not be mapped to the BIR model: %v", merr)
			break
		}
		init, ts, err := search.Replay(sm, ords)
		if err != nil {
			note = fmt.Sprintf("SPIN's trail could not be replayed in birch: %v", err)
			break
		}
		steps = describeTrail(m, l.fset, ts)
		final = search.Final(init, ts)
		if merr != nil {
			// a 32-bit overflow: the trail's last step completes in birch
			res.Violation.Msg = "integer overflow beyond 32 bits (Promela's int; birch's has 64 bits, so birch has no violation here)"
			res.Reason = r.Kind + ": " + res.Violation.Msg
			if n := len(ts); n > 0 {
				last := ts[n-1].Step
				res.Violation.Thread = last.Thread
				if len(last.Groups) > 0 {
					res.Violation.Pos = m.Groups()[last.Groups[len(last.Groups)-1]].Decl.Pos()
				}
			}
			note = "the trail shows the steps up to the one that overflows in SPIN; it is not saved (birch replay would find no violation)"
			break
		}
		res.Trail = ords
		if _, fail := sm.Initial(nil); len(ts) == 0 && fail != nil {
			res.Violation = &search.Violation{Kind: fail.Kind, Msg: fail.Msg, Thread: -1, Pos: fail.Pos}
		} else if n := len(ts); n > 0 && r.Kind != "deadlock" {
			last := ts[n-1].Step
			res.Violation = &search.Violation{Kind: last.Kind, Msg: last.Msg, Thread: last.Thread, Pos: last.Pos, Groups: last.Groups}
		} else if r.Kind == "deadlock" {
			res.Violation = &search.Violation{Kind: model.Deadlock, Msg: "no thread can move", Thread: -1}
		}
		res.Reason = res.Violation.Kind.String() + ": " + res.Violation.Msg
	default:
		noSpinViolation(res, r, o.bitstate, "no violation: every reachable state was explored")
	}
	var viol *jsonViolation
	if res.Violation != nil {
		viol = violationJSON(l, m, res, final)
	}
	saved := false
	if o.trail != "" && res.Verdict == search.Fail && note == "" {
		saved = saveTrail(e, "spin", o.trail, newTrailFile(name, searchName, res.Trail, viol, steps))
	}
	info := jsonSpin{
		StatesMatched: r.Matched, VectorBytes: r.VectorSize,
		TranslateSeconds: round(translateTime.Seconds(), 6), SpinSeconds: round(r.SpinTime.Seconds(), 6),
		CompileSeconds: round(r.CompileTime.Seconds(), 6), PanSeconds: round(r.PanTime.Seconds(), 6),
		CFlags: r.CFlags, PanArgs: r.PanArgs, Assertion: r.Assertion, Note: note,
	}
	if o.json {
		printJSON(e.stdout, spinJSONReport{
			jsonReport: jsonReport{
				Model: name, Verdict: res.Verdict.String(), Complete: res.Complete, Reason: res.Reason,
				Violation: viol, Stats: statsJSON(res.Stats), Trail: jsonTrail(steps),
				LimitsHit: limitsJSON(l.fset, res.LimitsHit), Search: searchName,
			},
			Spin: info,
		})
	} else {
		w := e.stdout
		fmt.Fprintf(w, "%s: %s\n", res.Verdict, res.Reason)
		if v := viol; v != nil {
			if v.Thread != "" {
				fmt.Fprintf(w, "  thread %s at %s\n", v.Thread, v.Location)
			}
			if v.Pos != "" {
				fmt.Fprintf(w, "  at %s\n", v.Pos)
			}
			if r.Assertion != "" {
				fmt.Fprintf(w, "  SPIN: assertion violated %s\n", r.Assertion)
			}
			if len(steps) > 0 || len(res.Trail) > 0 {
				printTrail(w, steps, o.fullTrail)
			}
			printDeadlockThreads(w, v.Threads)
		}
		if note != "" {
			fmt.Fprintf(w, "note: %s\n", note)
		}
		lh := append([]search.LimitHit(nil), res.LimitsHit...)
		sort.SliceStable(lh, func(i, j int) bool { return lh[i].Pos < lh[j].Pos })
		for _, h := range lh {
			fmt.Fprintf(w, "bound hit: %s: %s\n", posString(l.fset, h.Pos), h.Msg)
		}
		if saved {
			fmt.Fprintf(w, "trail saved to %s\n", o.trail)
		}
		if o.keep != "" {
			fmt.Fprintf(w, "SPIN's files are in %s\n", o.keep)
		}
		fmt.Fprintf(w, "stats: SPIN: %s\n", statsLine(res.Stats))
		printSpinTimes(w, translateTime, r)
	}
	switch res.Verdict {
	case search.Pass:
		return ExitPass
	case search.Fail:
		return ExitViolation
	}
	return ExitInconclusive
}

// spinJSONReport is birch check's JSON document with SPIN's details.
type spinJSONReport struct {
	jsonReport
	Spin jsonSpin `json:"spin"`
}

type jsonSpin struct {
	StatesMatched    int64    `json:"states_matched"`
	VectorBytes      int      `json:"vector_bytes"`
	TranslateSeconds float64  `json:"translate_seconds"`
	SpinSeconds      float64  `json:"spin_seconds"`
	CompileSeconds   float64  `json:"compile_seconds"`
	PanSeconds       float64  `json:"pan_seconds"`
	CFlags           []string `json:"cflags"`
	PanArgs          []string `json:"pan_args"`
	Assertion        string   `json:"assertion,omitempty"`
	Note             string   `json:"note,omitempty"`
}

// spinStats reads SPIN's statistics as birch's: pan's own elapsed time
// (the process's wall time when pan reports none), its total memory.
func spinStats(r *promela.PanReport) search.Stats {
	secs := r.Seconds
	if secs <= 0 {
		secs = r.PanTime.Seconds()
	}
	return search.Stats{
		States: int(r.States), Transitions: r.Transitions, MaxDepth: int(r.Depth),
		Seconds: secs, Memory: int64(r.MemoryMB * (1 << 20)),
	}
}

func spinErrorText(r *promela.PanReport) string {
	switch {
	case r.Assertion != "":
		return "assertion violated " + r.Assertion
	case r.Kind == "deadlock":
		return "invalid end state"
	}
	return lastLines(r.Output, 1)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "; ")
}

// runSpinLTL checks an LTL property with SPIN: the translation emits it as
// an ltl block (or a never claim from birch's automaton), pan searches for
// an acceptance cycle (-a, and -f with --fair), and SPIN's lasso is mapped
// back to birch and reported as birch check reports its own.
func runSpinLTL(ctx context.Context, e *env, o *spinOptions, co *checkOptions, name string, l *loaded, mo model.Options, panArgs []string) int {
	p, m, status := loadLTLModel(e, co, name, l, mo)
	if p == nil {
		return status
	}
	var err error
	if p.spec.Formula.HasNext() && hasInvisible(m) {
		fmt.Fprintf(e.stderr, "birch spin: warning: %s uses X (next): the translation keeps each invisible run one "+
			"atomic step, which SPIN's claim sees as one step, while birch check exposes the runs' inner states for "+
			"X: on this model the two verdicts may differ (docs/properties.md)\n", p.title)
	}
	t0 := time.Now()
	var tr *promela.Translation
	if r := co.lim.Run(phasePromela, func() {
		tr, err = promela.TranslateFull(p.l.prog, promela.Options{
			MaxThreads: o.maxThreads, MaxCallDepth: o.maxCalls, ReportLimits: true, NoInvariants: true,
			Formulas: []promela.Formula{{Name: p.name, Spec: p.spec}},
		})
	}); r != "" {
		return stoppedReport(e, co, name, phasePromela, r)
	}
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return ExitBadInput
	}
	translateTime := time.Since(t0)
	dir, cleanup, ok := spinDir(e, o.keep)
	if !ok {
		return ExitBadInput
	}
	defer cleanup()
	r, err := promela.RunSpin(ctx, tr.Promela, promela.SpinConfig{Dir: dir, POR: o.por, Bitstate: o.bitstate, PanArgs: panArgs, Claim: tr.Claims[0], Fair: o.fair, MemLimitMB: o.memLimitMB, Procs: tr.Procs})
	stopped := spinStopped(err)
	if err != nil && stopped == "" {
		fmt.Fprintf(e.stderr, "birch spin: %v\n", err)
		return ExitBadInput
	}
	res := &search.LTLResult{Result: search.Result{Stats: spinStats(r)}, CycleStart: -1}
	seen := map[int]bool{}
	for _, mm := range panLimitRE.FindAllStringSubmatch(r.Output, -1) {
		k, _ := strconv.Atoi(mm[1])
		if k < len(tr.Limits) && !seen[k] {
			seen[k] = true
			res.LimitsHit = append(res.LimitsHit, search.LimitHit{Msg: tr.Limits[k].Msg, Pos: tr.Limits[k].Pos})
		}
	}
	msg := fmt.Sprintf("%s violated: %s", p.title, p.formula)
	note := "" // why there is no trail in birch's terms
	info := ""
	switch {
	case stopped != "":
		res.Verdict = search.Inconclusive
		res.Reason = stopped
	case r.Kind == "ltl":
		res.Verdict = search.Fail
		res.Violation = &search.Violation{Kind: model.LTLViolated, Msg: msg, Thread: -1}
		res.Reason = "ltl: " + msg
		steps, cyc, err := promela.ReadLasso(ctx, dir, tr)
		var ords []int
		switch {
		case err != nil:
		case r.Cycle:
			ords, err = promela.MapLasso(m, steps, cyc)
			res.CycleStart = cyc
			res.Stutter = cyc == len(steps)
		default:
			// a bad prefix: SPIN's claim failed an assertion; birch
			// extends it into a lasso (any extension violates)
			if ords, err = promela.MapPrefix(m, steps); err == nil {
				var stutter bool
				ords, cyc, stutter, err = promela.CompleteLasso(m, ords, 1_000_000)
				res.CycleStart, res.Stutter = cyc, stutter
				info = "SPIN found a bad prefix (every continuation violates the formula); birch completed it into a lasso"
			}
		}
		if err != nil {
			note = fmt.Sprintf("SPIN's trail could not be mapped to the BIR model: %v", err)
			res.CycleStart, res.Stutter = -1, false
			break
		}
		if res.Stutter && res.CycleStart < len(ords) {
			res.Stutter = false
		}
		res.Trail = ords
		if !res.Stutter && res.CycleStart == len(ords) {
			res.Stutter = true
		}
	case r.Errors > 0:
		res.Verdict = search.Fail
		res.Violation = &search.Violation{Thread: -1, Msg: "SPIN: " + spinErrorText(r)}
		if k, ok := model.ParseErrorKind(r.Kind); ok {
			res.Violation.Kind = k
		}
		res.Reason = r.Kind + ": " + res.Violation.Msg
		var ords []int
		spinSteps, err := promela.ReadTrail(ctx, dir, tr)
		if err == nil {
			ords, err = promela.MapTrail(m, spinSteps, r.Kind)
		}
		if err != nil {
			note = fmt.Sprintf("SPIN's trail could not be mapped to the BIR model: %v", err)
			break
		}
		_, ts, err := search.Replay(m, ords)
		if err != nil || len(ts) == 0 {
			note = "SPIN's trail could not be replayed in birch"
			break
		}
		last := ts[len(ts)-1].Step
		res.Trail = ords
		res.Violation = &search.Violation{Kind: last.Kind, Msg: last.Msg, Thread: last.Thread, Pos: last.Pos, Groups: last.Groups}
		res.Reason = res.Violation.Kind.String() + ": " + res.Violation.Msg
	default:
		noSpinViolation(&res.Result, r, o.bitstate, "no violation: every reachable state of the product with the property's never claim was explored")
	}
	if note != "" {
		// the verdict stands, but there is no trail in birch's terms
		res.Trail, res.CycleStart = nil, -1
		if res.Violation != nil && res.Violation.Kind == model.LTLViolated {
			res.Violation = &search.Violation{Kind: model.LTLViolated, Msg: msg, Thread: -1}
		}
		co.trail = ""
	}
	status = reportLTL(e, p, m, name, co, res)
	if !o.json {
		if note != "" {
			fmt.Fprintf(e.stdout, "note: %s\n", note)
		} else if info != "" {
			fmt.Fprintf(e.stdout, "note: %s\n", info)
		}
		if o.keep != "" {
			fmt.Fprintf(e.stdout, "SPIN's files are in %s\n", o.keep)
		}
		printSpinTimes(e.stdout, translateTime, r)
	}
	return status
}

// printSpinTimes prints the times line of birch spin: each phase's time
// and the flags of gcc and pan ("not run" for a tool a limit stopped birch
// spin before).
func printSpinTimes(w io.Writer, translate time.Duration, r *promela.PanReport) {
	flags := func(fs []string) string {
		if len(fs) == 0 {
			return "not run"
		}
		return strings.Join(fs, " ")
	}
	fmt.Fprintf(w, "times: translation %.3f s, spin -a %.3f s, gcc %.3f s, pan %.3f s (gcc %s; pan %s)\n",
		translate.Seconds(), r.SpinTime.Seconds(), r.CompileTime.Seconds(), r.PanTime.Seconds(), flags(r.CFlags), flags(r.PanArgs))
}

// spinStopped returns the reason of an inconclusive verdict when err says
// that RunSpin was stopped by a limit or a signal, else "".
func spinStopped(err error) string {
	var se *promela.StoppedError
	if !errors.As(err, &se) {
		return ""
	}
	why := "interrupted"
	if r := verify.StopReason(se.Cause); r != "" {
		why = r
	}
	switch se.Phase {
	case "spin -a":
		return why + " while spin -a generated the verifier"
	case "gcc":
		return why + " while gcc compiled pan"
	}
	return why + " while pan searched: SPIN's search did not complete"
}

// spinDir checks that spin and gcc are there and returns the private
// temporary directory SPIN runs in. cleanup removes it, after copying its
// files to --keep's DIR when there is one (with a warning on stderr if it
// cannot).
func spinDir(e *env, keep string) (dir string, cleanup func(), ok bool) {
	if err := promela.LookSpin(); err != nil {
		fmt.Fprintf(e.stderr, "birch spin: %v\n", err)
		return "", nil, false
	}
	if keep != "" {
		if err := os.MkdirAll(keep, 0o755); err != nil {
			fmt.Fprintf(e.stderr, "birch spin: %v\n", err)
			return "", nil, false
		}
	}
	dir, err := os.MkdirTemp("", "birch-spin-")
	if err != nil {
		fmt.Fprintf(e.stderr, "birch spin: %v\n", err)
		return "", nil, false
	}
	return dir, func() {
		if keep != "" {
			if err := keepSpinFiles(dir, keep); err != nil {
				fmt.Fprintf(e.stderr, "birch spin: --keep: %v\n", err)
			}
		}
		os.RemoveAll(dir)
	}, true
}

// keepSpinFiles copies the files of SPIN's run from dir to keep. Each is
// created afresh (O_EXCL, O_NOFOLLOW) after the entry of its name in keep
// is removed, so a symbolic or hard link planted in keep is replaced,
// never written through.
func keepSpinFiles(dir, keep string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, ent := range ents {
		if !ent.Type().IsRegular() {
			continue
		}
		if err := copyNew(filepath.Join(dir, ent.Name()), filepath.Join(keep, ent.Name())); err != nil {
			return err
		}
	}
	return nil
}

// copyNew copies the file src to a new file dst, replacing (not
// following) what is at dst.
func copyNew(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if err := os.Remove(dst); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// noSpinViolation sets the verdict of a SPIN run that reported no
// violation: a pass with the reason given, unless the search was cut by its
// depth bound, was a bitstate search, did not complete, or hit a bound of
// the model.
func noSpinViolation(res *search.Result, r *promela.PanReport, bitstate bool, pass string) {
	res.Verdict = search.Inconclusive
	switch {
	case r.DepthLimited:
		res.Reason = fmt.Sprintf("no violation found, but SPIN's search was cut at its depth bound (pan -m%d)", r.DepthBound)
	case r.MemoryLimited:
		res.Reason = "no violation found before pan reached its memory bound (--max-memory)"
	case bitstate:
		res.Reason = "no violation found by SPIN's bitstate search (supertrace), which may miss states"
	case r.Incomplete || r.States == 0:
		res.Reason = "SPIN's search did not complete: " + lastLines(r.Output, 3)
	case len(res.LimitsHit) > 0:
		res.Reason = "no violation within the bounds; paths were cut where a bound was hit: " + res.LimitsHit[0].Msg
	default:
		res.Verdict = search.Pass
		res.Complete = true
		res.Reason = pass
	}
}
