package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"birch/internal/boolprog"
	"birch/internal/boolprog/bebop"
	"birch/internal/source"
)

type bpOptions struct {
	json      bool
	engine    string
	maxStates int
	maxNodes  int
	timeLimit string
}

func init() {
	register(&command{
		name:  "bp",
		args:  "check FILE.bp [--json] [--engine bdd|explicit] [--max-nodes N] [--max-states N] [--time-limit D]",
		short: "check SLAM boolean programs (.bp)",
		long: `
"birch bp check FILE.bp" reads a boolean program in the dialect of SLAM's
Bebop (decl, void/bool/bool<k> procedures, parameters, locals, enforce,
parallel assignment, *, schoose, assume, assert, goto, if, while, calls with
results, return) and decides whether an assertion can fail in an execution
from main, in which every variable starts unconstrained. The check is
Bebop's interprocedural reachability with procedure summaries, exact under
recursion (no bound on the call depth), over BDDs (--engine bdd, the default)
or over explicit valuations of the variables in scope (--engine explicit, at
most 64 globals and 64 variables per procedure). The two engines decide the
same question and are tested against each other.

On a failure it prints the failing assertion and a trail from main to it:
one line per statement about to run, with its procedure, label and the
values of the variables in scope. --max-nodes bounds the BDD nodes
(0: 4194304); --max-states bounds the states, calling contexts and summaries
the explicit engine stores (default 1048576); --time-limit stops either
engine after that long (e.g. 30s, 5m; default: no limit). A check that
reaches a bound is inconclusive, never a pass. With --json the result is one JSON document
{"engine", "verdict", "reason", "assertion", "trail", "trail_cut",
"no_trail", "stats"}.

Exit status: 0 pass, 1 an assertion can fail, 2 bad input or usage,
3 inconclusive.`,
		flags: func(fs *flag.FlagSet) any {
			o := &bpOptions{}
			fs.BoolVar(&o.json, "json", false, "print the result as one JSON document on stdout")
			fs.StringVar(&o.engine, "engine", "bdd", "bdd (Bebop's symbolic check) or explicit (explicit valuations)")
			fs.IntVar(&o.maxNodes, "max-nodes", 0, "stop, inconclusive, when the BDDs need more nodes (0: the default, 4194304)")
			fs.IntVar(&o.maxStates, "max-states", boolprog.DefaultMaxStates, "stop, inconclusive, after storing this many states")
			fs.StringVar(&o.timeLimit, "time-limit", "", "stop, inconclusive, after this long, e.g. 30s, 5m (default: no limit)")
			return o
		},
		run: runBP,
	})
}

// bpOutcome is the result of either engine, as printed.
type bpOutcome struct {
	Engine    string       `json:"engine"`
	Verdict   string       `json:"verdict"`
	Reason    string       `json:"reason,omitempty"`
	Assertion string       `json:"assertion,omitempty"`
	Trail     []bpJSONStep `json:"trail,omitempty"`
	TrailCut  bool         `json:"trail_cut,omitempty"`
	NoTrail   string       `json:"no_trail,omitempty"`
	Stats     []bpStat     `json:"stats"`
	assert    *boolprog.AssertStmt
	steps     []boolprog.Step
}

type bpStat struct {
	Name  string `json:"name"`
	Value int    `json:"value"`
}

type bpJSONStep struct {
	Proc   string           `json:"proc"`
	Pos    string           `json:"pos"`
	Label  string           `json:"label,omitempty"`
	Stmt   string           `json:"stmt"`
	Values []boolprog.Value `json:"values"`
}

func runBP(e *env, fs *flag.FlagSet, opts any) int {
	o := opts.(*bpOptions)
	args := fs.Args()
	if len(args) == 0 || args[0] != "check" {
		fmt.Fprintf(e.stderr, "birch bp: expected check; %s\n", usageLine(fs))
		return ExitBadInput
	}
	if len(args) != 2 {
		fmt.Fprintf(e.stderr, "birch bp check: want exactly one boolean program file; %s\n", usageLine(fs))
		return ExitBadInput
	}
	if o.engine != "bdd" && o.engine != "explicit" {
		fmt.Fprintf(e.stderr, "birch bp check: --engine: want bdd or explicit, not %s; %s\n", quote(o.engine), usageLine(fs))
		return ExitBadInput
	}
	if o.maxStates <= 0 || o.maxNodes < 0 {
		fmt.Fprintf(e.stderr, "birch bp check: --max-states must be positive and --max-nodes not negative; %s\n", usageLine(fs))
		return ExitBadInput
	}
	ctx := context.Background()
	if o.timeLimit != "" {
		d, err := parseDuration(o.timeLimit)
		if err != nil || d <= 0 {
			fmt.Fprintf(e.stderr, "birch bp check: --time-limit: want a positive duration such as 30s, not %s; %s\n", quote(o.timeLimit), usageLine(fs))
			return ExitBadInput
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, d, fmt.Errorf("the time limit (--time-limit=%s) was reached", o.timeLimit))
		defer cancel()
	}
	name := args[1]
	src, err := readSource(e, name)
	if err != nil {
		fmt.Fprintf(e.stderr, "birch: %v\n", err)
		return ExitBadInput
	}
	if name == "-" {
		name = "<stdin>"
	}
	fset := source.NewFileSet()
	prog, err := boolprog.Parse(fset, name, src)
	if err != nil {
		source.Print(e.stderr, err, maxShownErrors)
		return ExitBadInput
	}
	info, err := boolprog.Resolve(fset, prog)
	if err != nil {
		source.Print(e.stderr, err, maxShownErrors)
		return ExitBadInput
	}
	var out *bpOutcome
	if o.engine == "explicit" {
		out = bpExplicit(boolprog.CheckExplicit(fset, info, boolprog.Limits{MaxStates: o.maxStates, Context: ctx}))
	} else {
		out = bpSymbolic(fset, bebop.Check(info, bebop.Config{MaxNodes: o.maxNodes, Context: ctx}))
	}
	for _, st := range out.steps {
		out.Trail = append(out.Trail, bpJSONStep{Proc: st.Proc, Pos: st.Pos.String(), Label: st.Label, Stmt: st.Stmt, Values: st.Values})
	}
	if o.json {
		b, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		printBP(e, out)
	}
	switch out.Verdict {
	case "pass":
		return ExitPass
	case "fail":
		return ExitViolation
	}
	return ExitInconclusive
}

func bpExplicit(res *boolprog.Result) *bpOutcome {
	return bpFrom("explicit", res, "", []bpStat{{"states", res.States}, {"contexts", res.Contexts}, {"summaries", res.Summaries}})
}

func bpSymbolic(fset *source.FileSet, res *bebop.Result) *bpOutcome {
	r := res.BoolprogResult(fset)
	if res.Outcome == bebop.Unsafe {
		r.Reason = "" // BoolprogResult puts NoTrail there
	}
	return bpFrom("bdd", r, res.NoTrail, []bpStat{{"path edge additions", res.Stats.PathEdges}, {"summary additions", res.Stats.Summaries},
		{"BDD nodes", res.Stats.BDDNodes}, {"BDD variables", res.Stats.BDDVars}})
}

// bpFrom is a result in the explicit checker's terms as printed.
func bpFrom(engine string, res *boolprog.Result, noTrail string, stats []bpStat) *bpOutcome {
	out := &bpOutcome{Engine: engine, Verdict: res.Verdict.String(), Reason: res.Reason, NoTrail: noTrail,
		TrailCut: res.TrailCut, assert: res.Assert, steps: res.Trail, Stats: stats}
	if res.Verdict == boolprog.Fail {
		out.Assertion = res.AssertPos.String()
	}
	return out
}

func printBP(e *env, out *bpOutcome) {
	switch out.Verdict {
	case "pass":
		fmt.Fprintln(e.stdout, "pass: no assertion can fail")
	case "fail":
		fmt.Fprintf(e.stdout, "fail: assertion can fail: %s\n", boolprog.StmtHeader(out.assert))
		fmt.Fprintf(e.stdout, "  at %s\n", out.Assertion)
		if out.NoTrail != "" {
			fmt.Fprintf(e.stdout, "no trail: %s\n", out.NoTrail)
		} else {
			fmt.Fprintf(e.stdout, "trail (%d steps):\n", len(out.steps))
			boolprog.WriteTrail(e.stdout, &boolprog.Result{Trail: out.steps, TrailCut: out.TrailCut})
		}
	default:
		fmt.Fprintf(e.stdout, "inconclusive: %s\n", out.Reason)
	}
	var stats []string
	for _, st := range out.Stats {
		stats = append(stats, fmt.Sprintf("%d %s", st.Value, st.Name))
	}
	fmt.Fprintf(e.stdout, "stats (%s): %s\n", out.Engine, strings.Join(stats, ", "))
}
