package cli

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"birch/internal/smt"
	"birch/internal/smt/smtlib"
	"birch/internal/smt/solvers"
)

type smtOptions struct {
	solver    string
	timeLimit string
}

func init() {
	register(&command{
		name:  "smt",
		args:  "[--solver=NAME] [--time-limit=D] FILE.smt2...",
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

Exit status: 0 when every script ran to its end, 2 bad input or usage, 3 a
solver failed (a process died or did not answer in time).`,
		flags: func(fs *flag.FlagSet) any {
			o := &smtOptions{}
			fs.StringVar(&o.solver, "solver", solvers.Default, "decision procedure: "+strings.Join(solvers.Names, ", "))
			fs.StringVar(&o.timeLimit, "time-limit", "", "bound each check-sat, e.g. 10s (default: none); a query that hits it answers unknown")
			return o
		},
		run: runSMT,
	})
}

func runSMT(e *env, fs *flag.FlagSet, opts any) int {
	o := opts.(*smtOptions)
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "birch smt: no script files given")
		fs.Usage()
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
		s, err := solvers.New(o.solver, tm)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch smt: %v\n", err)
			return ExitBadInput
		}
		s.SetLimit(limit)
		in := &smtlib.Interpreter{TM: tm, Solver: s, Out: e.stdout}
		err = in.Run(display, src)
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
