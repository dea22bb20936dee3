package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"

	"birch/internal/search"
	"birch/internal/smt"
	"birch/internal/smt/smtlib"
	"birch/internal/smt/solvers"
)

type smtOptions struct {
	solver    string
	timeLimit string
	maxMemory string
}

func init() {
	register(&command{
		name:  "smt",
		args:  "[--solver=NAME] [--time-limit=D] [--max-memory=N] FILE.smt2...",
		short: "answer SMT-LIB2 scripts as a solver does",
		long: `
Smt runs SMT-LIB2 scripts (a FILE of "-" reads standard input) and prints the
answers on standard output as an SMT-LIB2 solver does: sat, unsat or unknown
for check-sat, models for get-model, values for get-value, cores for
get-unsat-core. It accepts the quantifier-free logics over Bool, Int,
uninterpreted functions and arrays (QF_UF, QF_LIA, QF_IDL, QF_UFLIA, QF_AX,
QF_ALIA, QF_AUFLIA, their nonlinear variants, and ALL) and the commands
set-logic, set-option, set-info, get-info, declare-sort, declare-fun,
declare-const, define-fun, assert, push, pop, reset, reset-assertions,
check-sat, check-sat-assuming, get-model, get-value, get-unsat-core,
get-unsat-assumptions, echo and exit. docs/smt.md describes the details.

--solver chooses the decision procedure: embedded (birch's own, the
default), z3 or cvc5 (run as processes; they must be on PATH).

Each file runs in a fresh solver. An error in a script (bad syntax, an
ill-sorted term, an unsupported logic or command) is reported as
file:line:col: message and ends that script.

Ctrl-C stops the script under way: its query answers unknown and nothing
more is printed. So does --max-memory (default: 80% of the machine's
memory), which bounds the memory birch holds while it reads and solves.

Exit status: 0 when every script ran to its end, 2 bad input or usage, 3 a
solver failed (a process died or did not answer in time), or Ctrl-C or the
memory limit stopped a script.`,
		flags: func(fs *flag.FlagSet) any {
			o := &smtOptions{}
			fs.StringVar(&o.solver, "solver", solvers.Default, "decision procedure: "+strings.Join(solvers.Names, ", "))
			fs.StringVar(&o.timeLimit, "time-limit", "", "bound each check-sat, e.g. 10s (default: none); a query that hits it answers unknown")
			fs.StringVar(&o.maxMemory, "max-memory", "", "stop when birch holds this much memory, e.g. 4G, 512M (default: 80% of the machine's memory)")
			return o
		},
		run: runSMT,
	})
}

func runSMT(e *env, fs *flag.FlagSet, opts any) int {
	o := opts.(*smtOptions)
	if fs.NArg() == 0 {
		fmt.Fprintf(e.stderr, "birch smt: no script files given; %s\n", usageLine(fs))
		return ExitBadInput
	}
	var limit smt.Limit
	if o.timeLimit != "" {
		d, err := parseDuration(o.timeLimit)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch smt: --time-limit: %v\n", err)
			return ExitBadInput
		}
		limit.Timeout = d
	}
	maxMemory := defaultMaxMemory()
	if o.maxMemory != "" {
		n, err := parseBytes(o.maxMemory)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch smt: --max-memory: %v\n", err)
			return ExitBadInput
		}
		maxMemory = n
	}
	// Ctrl-C, SIGTERM and the memory limit stop the script under way: its
	// query answers unknown (the embedded solver) or its process is killed
	// (z3, cvc5), nothing more is printed, and birch exits with status 3
	lim := startLimits(e, &search.Config{MaxMemory: maxMemory})
	defer lim.Release()
	ctx := lim.Ctx
	if smtHook != nil {
		smtHook(func() { lim.End("interrupted") })
	}
	out := &gatedWriter{w: e.stdout, ctx: ctx}
	status := ExitPass
	for _, name := range fs.Args() {
		src, err := readSource(e, name)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch: %v\n", err)
			status = ExitBadInput
			continue
		}
		display := name
		if name == "-" {
			display = "<stdin>"
		}
		tm := smt.NewTermManager()
		s, err := solvers.NewContext(ctx, o.solver, tm)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch smt: %v\n", err)
			return ExitBadInput
		}
		s.SetLimit(limit)
		in := &smtlib.Interpreter{TM: tm, Solver: s, Out: out}
		done := make(chan error, 1)
		go func() { done <- in.Run(display, src) }()
		select {
		case err = <-done:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			// the script is abandoned: what it would still print is not
			out.close()
			fmt.Fprintf(e.stderr, "birch smt: %s: %s\n", display, lim.Reason())
			return ExitInconclusive
		}
		s.Close()
		if err != nil {
			fmt.Fprintln(e.stderr, err)
			var se *smtlib.SolverError
			if errors.As(err, &se) {
				if status == ExitPass {
					status = ExitInconclusive
				}
			} else {
				status = ExitBadInput
			}
		}
	}
	return status
}

// smtHook, when not nil (in tests), is called as birch smt starts, with
// the function that stops it as Ctrl-C does.
var smtHook func(interrupt func())

// gatedWriter passes writes on until it is closed or its context is done,
// and drops them after: a solver stopped by the context answers unknown,
// which the script would print before birch smt sees the stop.
type gatedWriter struct {
	mu     sync.Mutex
	w      io.Writer
	ctx    context.Context // nil: only close gates
	closed bool
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed || g.ctx != nil && g.ctx.Err() != nil {
		return len(p), nil
	}
	return g.w.Write(p)
}

func (g *gatedWriter) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}
