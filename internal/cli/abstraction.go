package cli

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"birch/internal/abstraction/data"
	"birch/internal/abstraction/data/infer"
	"birch/internal/smt/solvers"
	"birch/internal/verify"
)

type abstractionOptions struct {
	json         bool
	solver       string
	use          repeatedFlag
	abstract     repeatedFlag
	abstractions string
	coerce       repeatedFlag
	def          string
}

// repeatedFlag collects the values of a flag given several times.
type repeatedFlag []string

func (r *repeatedFlag) String() string { return strings.Join(*r, ",") }
func (r *repeatedFlag) Set(v string) error {
	if strings.TrimSpace(v) == "" {
		return errors.New("empty value")
	}
	*r = append(*r, v)
	return nil
}

func init() {
	register(&command{
		name:  "abstraction",
		args:  "show NAME... [--json] | list | infer MODEL [--abstract NAME=ABSTRACTION]... [--abstractions FILE] [--coerce 'FROM->TO']... [--default=concrete|point]; all take [--use FILE.basl]...",
		short: "show the data abstractions of the library and of BASL files",
		long: `
Abstraction prints data abstractions of the integers, as Bandera defines them:
a set of tokens, an abstraction function mapping every integer to one token,
and abstract operators (+ - * / %) and tests (== != < <= > >=) on tokens.

"birch abstraction show NAME" prints the tokens, the abstraction function and
every table of the abstraction NAME. NAME is a member of the library —
concrete, point, signs, evenodd, range(l,u), set(v1,…,vn), modulo(k), quoted
for the shell: 'range(0,3)' — or an abstraction defined in a BASL file given
with --use, or a FILE.basl, whose abstractions are all shown. Tables left out
of a BASL file, and all tables of the library, are synthesized with the
decision procedure: a token is removed from an entry only when the solver
proves that no concrete arguments produce it. A token the solver could not
decide is kept and marked "?". "error" is the outcome of a division or
remainder by zero. With --json each abstraction is printed as one object
{"name", "tokens", "operators", "tests"}.

"birch abstraction list" lists the library's families and the abstractions
of the --use files.

"birch abstraction infer MODEL" binds abstractions to variables of a BIR model
and infers the abstraction of every other integer variable, function result,
expression and comparison, as Bandera's abstract type inference does; it prints
them, with the coercions the abstract model needs. Bindings are
--abstract NAME=ABSTRACTION (repeatable), where NAME is x for a global,
Thread.x or fn.x for a local or parameter, Record.f for a field, and
--abstractions FILE, a file of NAME = ABSTRACTION lines, use "FILE.basl"
lines and coerce FROM -> TO lines. Abstractions propagate along value flows to
the least solution: concrete below every abstraction, point above, and FROM
below TO for each declared coercion (coerce lines, or --coerce 'FROM->TO',
repeatable). Two abstractions meet at the greater one, or at the least one
declared above both, and otherwise at point (with a warning). A value of one
abstraction flowing into a variable bound to another, not declared above it,
is a conflict. Constructs no binding constrains are
concrete, or point with --default=point.

Errors in BASL files (syntax; an abstraction function that overlaps or misses
integers, with a witness; incomplete or unsound given tables) are printed as
file:line:col: message.

Exit status: 0 on success, 2 for a bad name, a bad BASL file, a bad binding
or a conflict.`,
		flags: func(fs *flag.FlagSet) any {
			o := &abstractionOptions{}
			fs.BoolVar(&o.json, "json", false, "print JSON")
			fs.StringVar(&o.solver, "solver", solvers.Default, "decision procedure for the synthesis: "+strings.Join(solvers.Names, ", "))
			fs.Var(&o.use, "use", "read the abstractions of a BASL `FILE` (repeatable)")
			fs.Var(&o.abstract, "abstract", "infer: bind `NAME=ABSTRACTION` (repeatable)")
			fs.StringVar(&o.abstractions, "abstractions", "", "infer: read bindings from `FILE`")
			fs.Var(&o.coerce, "coerce", "infer: declare a coercion `FROM->TO` between abstractions (repeatable)")
			fs.StringVar(&o.def, "default", "concrete", "infer: abstraction of unconstrained constructs: concrete or point")
			return o
		},
		run: runAbstraction,
	})
}

func runAbstraction(e *env, fs *flag.FlagSet, opts any) int {
	o := opts.(*abstractionOptions)
	args := fs.Args()
	if len(args) == 0 {
		fmt.Fprintf(e.stderr, "birch abstraction: expected show, list or infer; %s\n", usageLine(fs))
		return ExitBadInput
	}
	if !solvers.Available(o.solver) {
		fmt.Fprintf(e.stderr, "birch abstraction: solver %s is not available (want %s)\n", o.solver, strings.Join(solvers.Names, ", "))
		return ExitBadInput
	}
	cfg := data.Config{Solver: o.solver}
	lib := &data.Library{Config: cfg}
	var users []*data.Abstraction
	for _, file := range o.use {
		as, ok := loadBASL(e, file, cfg)
		if !ok {
			return ExitBadInput
		}
		if err := lib.Add(as...); err != nil {
			fmt.Fprintf(e.stderr, "birch abstraction: %v\n", err)
			return ExitBadInput
		}
		users = append(users, as...)
	}
	switch args[0] {
	case "list":
		if len(args) > 1 {
			fmt.Fprintln(e.stderr, "birch abstraction list: takes no arguments")
			return ExitBadInput
		}
		fmt.Fprintln(e.stdout, "library:")
		for _, f := range data.Families {
			fmt.Fprintf(e.stdout, "  %-14s %s\n", f.Syntax, f.Doc)
		}
		if len(users) > 0 {
			fmt.Fprintln(e.stdout, "from BASL files:")
			for _, a := range users {
				fmt.Fprintf(e.stdout, "  %-14s %s (%s)\n", a.Name, strings.Join(a.TokenNames(), " "), a.Origin)
			}
		}
		return ExitPass
	case "show":
		if len(args) == 1 {
			fmt.Fprintln(e.stderr, "birch abstraction show: no abstraction named")
			return ExitBadInput
		}
		var shown []*data.Abstraction
		for _, name := range args[1:] {
			if strings.HasSuffix(name, ".basl") {
				as, ok := loadBASL(e, name, cfg)
				if !ok {
					return ExitBadInput
				}
				shown = append(shown, as...)
				continue
			}
			a, err := lib.Lookup(name)
			if err != nil {
				fmt.Fprintf(e.stderr, "birch abstraction: %v\n", err)
				return ExitBadInput
			}
			shown = append(shown, a)
		}
		for i, a := range shown {
			var err error
			if o.json {
				err = data.WriteJSON(e.stdout, a)
			} else {
				if i > 0 {
					fmt.Fprintln(e.stdout)
				}
				err = data.WriteText(e.stdout, a)
			}
			if err != nil {
				fmt.Fprintf(e.stderr, "birch abstraction: %v\n", err)
				return ExitBadInput
			}
		}
		return ExitPass
	case "infer":
		if len(args) != 2 {
			fmt.Fprintln(e.stderr, "birch abstraction infer: expected one model file")
			return ExitBadInput
		}
		return runInfer(e, o, lib, cfg, args[1])
	}
	fmt.Fprintf(e.stderr, "birch abstraction: unknown subcommand %s%s (want show, list or infer)\n", quote(args[0]), didYouMean(args[0], []string{"show", "list", "infer"}))
	return ExitBadInput
}

// runInfer resolves the bindings against the model and prints the inferred
// abstractions.
func runInfer(e *env, o *abstractionOptions, lib *data.Library, cfg data.Config, model string) int {
	var icfg infer.Config
	switch o.def {
	case "concrete":
	case "point":
		icfg.DefaultPoint = true
	default:
		fmt.Fprintf(e.stderr, "birch abstraction: bad --default %s (want concrete or point)\n", quote(o.def))
		return ExitBadInput
	}
	l, sel, res, ok := inferModel(e, "birch abstraction infer", model, lib, bindingFlags{abstract: o.abstract, abstractions: o.abstractions, coerce: o.coerce}, cfg, icfg)
	if !ok {
		return ExitBadInput
	}
	if err := infer.Explain(e.stdout, l.prog, res, sel); err != nil {
		fmt.Fprintf(e.stderr, "birch abstraction: %v\n", err)
		return ExitBadInput
	}
	return ExitPass
}

// loadBASL reads and compiles a BASL file, printing its errors, and its
// warnings to standard error.
func loadBASL(e *env, name string, cfg data.Config) ([]*data.Abstraction, bool) {
	as, err := verify.LoadBASL(name, cfg, func(name string) ([]byte, error) { return readSource(e, name) }, warnAt(e))
	if err != nil {
		printRunError(e, "abstraction", err)
		return nil, false
	}
	return as, true
}
