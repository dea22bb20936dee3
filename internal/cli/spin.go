package cli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

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
	maxThreads int
	maxCalls   int

	// properties, as for birch check (docs/properties.md)
	properties   repeatedFlag
	ltl          string
	pattern      string
	fair         bool
	noInvariants bool
}

func init() {
	register(&command{
		name:     "spin",
		args:     "[--por] [--bitstate] [--json] [--trail FILE] [--property NAME]... [--ltl FORMULA | --pattern PATTERN] [--fair] MODEL.bir [-- PAN FLAGS]",
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

Properties are checked as birch check checks them, one SPIN run per search:
the assertions, runtime errors, deadlocks and every invariant of the model
(unless --no-invariants; by a monitor process in every state) in one run, and
every ltl property of the model in a run of its own, which SPIN checks as an
ltl block (or a never claim built from birch's automaton) with its
acceptance-cycle search (pan -a, -f with --fair); a violating run is shown
as a lasso in BIR terms (docs/promela.md). --property NAME (repeatable)
checks only the properties named, --ltl FORMULA and --pattern PATTERN only
an LTL formula. With several runs, the report is birch check's: the overall
verdict, each property's, then each run's report.

spin and gcc must be on PATH (on Debian and Ubuntu: apt-get install spin gcc).
Temporary files go to a private directory that is removed at the end
(--keep DIR copies them to DIR, replacing links found there rather than
writing through them; with several runs, those of an ltl property go to
DIR/ltl_NAME).

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
			fs.Var(&o.properties, "property", "check only the property `NAME` of the model (an invariant or an ltl formula; repeatable)")
			fs.StringVar(&o.ltl, "ltl", "", "check an LTL formula over the model's predicates and expressions")
			fs.StringVar(&o.pattern, "pattern", "", "check a specification pattern, e.g. 'response(p, q) globally'")
			fs.BoolVar(&o.fair, "fair", false, "ltl: consider only executions that are weakly fair to every thread (pan -f)")
			fs.BoolVar(&o.noInvariants, "no-invariants", false, "do not check the invariants of the properties section")
			return o
		},
		run: runSpin,
	})
}

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
	so := verify.SpinOptions{POR: o.por, Bitstate: o.bitstate, PanArgs: panArgs, Keep: o.keep}
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
		so.MemLimitMB = int(n>>20) + min(int(n&(1<<20-1)), 1) // pan counts megabytes (rounded up)
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
	co := &checkOptions{search: "spin", cmd: "spin", json: o.json, trail: o.trail, fullTrail: o.fullTrail}
	// the time limit, Ctrl-C and SIGTERM end the limits' context, which
	// stops SPIN's tools (and the report says so); the temporary
	// directories are still removed
	co.lim = startLimits(e, &cfg)
	defer co.lim.Release()
	var in *verify.Input
	if r := co.lim.Run(phaseModel, func() { in = loadInput(e, name) }); r != "" {
		return renderResult(e, co, verify.Stopped(name, "spin", phaseModel, r))
	}
	if in == nil {
		return ExitBadInput
	}
	t := &verify.Task{
		Input: in, Search: cfg, Model: model.Options{MaxThreads: o.maxThreads, MaxCallDepth: o.maxCalls},
		Limits: co.lim, LTLMaxNodes: ltlMaxNodes,
		Select: verify.Selection{Names: o.properties, LTL: o.ltl, Pattern: o.pattern, NoInvariants: o.noInvariants, Fair: o.fair},
		Warn:   func(msg string) { fmt.Fprintf(e.stderr, "birch spin: %s\n", msg) },
	}
	res, err := verify.RunSpin(t, so)
	var te *verify.ToolError
	switch {
	case errors.As(err, &te):
		fmt.Fprintf(e.stderr, "birch spin: %v\n", te)
		return ExitBadInput
	case err != nil:
		printRunError(e, "spin", err)
		return ExitBadInput
	}
	co.javaTerms(e, res, in)
	return renderSpin(e, co, res)
}
