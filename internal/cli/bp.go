package cli

import (
	"encoding/json"
	"flag"
	"fmt"

	"birch/internal/boolprog"
	"birch/internal/source"
)

type bpOptions struct {
	json      bool
	maxStates int
}

func init() {
	register(&command{
		name:  "bp",
		args:  "check FILE.bp [--json] [--max-states N]",
		short: "check SLAM boolean programs (.bp)",
		long: `
"birch bp check FILE.bp" reads a boolean program in the dialect of SLAM's
Bebop (decl, void/bool/bool<k> procedures, parameters, locals, enforce,
parallel assignment, *, schoose, assume, assert, goto, if, while, calls with
results, return) and decides whether an assertion can fail in an execution
from main, in which every variable starts unconstrained. The check is
interprocedural reachability with procedure summaries over explicit
valuations of the variables in scope: exact under recursion, with no bound on
the call depth.

On a failure it prints the failing assertion and a trail from main to it:
one line per statement about to run, with its procedure, label and the
values of the variables in scope. --max-states bounds the states,
calling contexts and summaries stored (default 1048576); a check that reaches
the bound is inconclusive, never a pass. With --json the result is one JSON
document {"verdict", "reason", "assertion", "trail", "trail_cut", "states",
"contexts", "summaries"}.

Exit status: 0 pass, 1 an assertion can fail, 2 bad input or usage,
3 inconclusive.`,
		flags: func(fs *flag.FlagSet) any {
			o := &bpOptions{}
			fs.BoolVar(&o.json, "json", false, "print the result as one JSON document on stdout")
			fs.IntVar(&o.maxStates, "max-states", boolprog.DefaultMaxStates, "stop, inconclusive, after storing this many states")
			return o
		},
		run: runBP,
	})
}

type bpJSON struct {
	Verdict   string       `json:"verdict"`
	Reason    string       `json:"reason,omitempty"`
	Assertion string       `json:"assertion,omitempty"`
	Trail     []bpJSONStep `json:"trail,omitempty"`
	TrailCut  bool         `json:"trail_cut,omitempty"`
	States    int          `json:"states"`
	Contexts  int          `json:"contexts"`
	Summaries int          `json:"summaries"`
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
	if o.maxStates <= 0 {
		fmt.Fprintf(e.stderr, "birch bp check: --max-states must be positive; %s\n", usageLine(fs))
		return ExitBadInput
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
	res := boolprog.CheckExplicit(fset, info, boolprog.Limits{MaxStates: o.maxStates})
	if o.json {
		printBPJSON(e, res)
	} else {
		printBP(e, res)
	}
	switch res.Verdict {
	case boolprog.Pass:
		return ExitPass
	case boolprog.Fail:
		return ExitViolation
	}
	return ExitInconclusive
}

func printBP(e *env, res *boolprog.Result) {
	switch res.Verdict {
	case boolprog.Pass:
		fmt.Fprintln(e.stdout, "pass: no assertion can fail")
	case boolprog.Fail:
		fmt.Fprintf(e.stdout, "fail: assertion can fail: %s\n", boolprog.StmtHeader(res.Assert))
		fmt.Fprintf(e.stdout, "  at %s\n", res.AssertPos)
		fmt.Fprintf(e.stdout, "trail (%d steps):\n", len(res.Trail))
		boolprog.WriteTrail(e.stdout, res)
	default:
		fmt.Fprintf(e.stdout, "inconclusive: %s\n", res.Reason)
	}
	fmt.Fprintf(e.stdout, "stats: %d states, %d contexts, %d summaries\n", res.States, res.Contexts, res.Summaries)
}

func printBPJSON(e *env, res *boolprog.Result) {
	out := bpJSON{Verdict: res.Verdict.String(), Reason: res.Reason, TrailCut: res.TrailCut,
		States: res.States, Contexts: res.Contexts, Summaries: res.Summaries}
	if res.Verdict == boolprog.Fail {
		out.Assertion = res.AssertPos.String()
	}
	for _, s := range res.Trail {
		out.Trail = append(out.Trail, bpJSONStep{Proc: s.Proc, Pos: s.Pos.String(), Label: s.Label, Stmt: s.Stmt, Values: s.Values})
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	fmt.Fprintf(e.stdout, "%s\n", b)
}
