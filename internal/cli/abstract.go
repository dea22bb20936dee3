package cli

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"birch/internal/abstraction/data"
	"birch/internal/abstraction/data/absgen"
	"birch/internal/abstraction/data/infer"
	"birch/internal/smt/solvers"
	"birch/internal/source"
	"birch/internal/verify"
)

type abstractOptions struct {
	abstract     repeatedFlag
	abstractions string
	use          repeatedFlag
	coerce       repeatedFlag
	def          string
	solver       string
	explain      bool
	out          string
	// predicate abstraction (abstract_predicates.go)
	predicates string
	cubeLength int
}

func init() {
	register(&command{
		name:  "abstract",
		args:  "MODEL [--abstract NAME=ABSTRACTION]... [--abstractions FILE] [--use FILE.basl]... [--coerce 'FROM->TO']... [--default=concrete|point] [--explain] [-o OUT.bir] | MODEL --predicates FILE [--cube-length N] [-o OUT.bir|OUT.bp]",
		short: "generate the abstract model of a BIR model (data or predicate abstraction)",
		long: `
Abstract binds data abstractions to variables of a BIR model, infers the
abstraction of every other integer variable and expression (as "birch
abstraction infer" does), and writes the abstract model: ordinary BIR, which
"birch vet", "birch check" and "birch translate" accept. Abstracted variables
get an enum type of tokens; operations are decided by the abstraction's
tables, case by case on the tokens a transformation reads; imprecise results
and tests become internChoose; constants are coerced; externChoose over
abstracted values chooses among tokens. Threads, functions and locations are
those of the model, and each transformation becomes one or more abstract
transformations in its place. Properties are under-approximated: a pass of
the abstract model is a pass of the model. docs/abstraction.md describes the
encoding.

Bindings are --abstract NAME=ABSTRACTION (repeatable; NAME is x for a global,
Thread.x or fn.x for a local or parameter, Record.f for a field) and
--abstractions FILE. --use FILE.basl makes a BASL file's abstractions
available. --coerce 'FROM->TO' (repeatable; "coerce FROM -> TO" in a
bindings file) declares that abstraction FROM may be coerced to TO, so that
where the two meet the value gets TO instead of point. Constructs no binding
constrains are concrete, or point with --default=point.

The abstract model is written to standard output, or to OUT.bir with -o.
--explain prints the inferred abstraction of every variable, expression and
test, and the coercions, instead of the model (with -o, the model is still
written to OUT.bir).

With --predicates FILE the abstraction is predicate abstraction (SLAM's
C2bp, as "birch check --predicates" checks it; --cube-length N bounds its
cubes, --solver applies): each predicate of FILE becomes a boolean
variable, the integer data are abstracted away, and the model is written as
BIR, or, when the output file's name ends in .bp, as a SLAM boolean program
(birch bp check reads it), which needs a model of one thread whose abstract
data are all booleans; its assertions are the model's (deadlocks,
invariants and ltl properties are not carried). See docs/predicates.md.

Exit status: 0 on success; 2 for bad input: a bad model, binding, BASL or
predicate file, a conflict, an abstract value where the model needs a
concrete one, or a construct the generator does not support
(file:line:col: message).`,
		flags: func(fs *flag.FlagSet) any {
			o := &abstractOptions{}
			fs.Var(&o.abstract, "abstract", "bind `NAME=ABSTRACTION` (repeatable)")
			fs.StringVar(&o.abstractions, "abstractions", "", "read bindings from `FILE`")
			fs.Var(&o.use, "use", "read the abstractions of a BASL `FILE` (repeatable)")
			fs.Var(&o.coerce, "coerce", "declare a coercion `FROM->TO` between abstractions (repeatable)")
			fs.StringVar(&o.def, "default", "concrete", "abstraction of unconstrained integers: concrete or point")
			fs.StringVar(&o.solver, "solver", solvers.Default, "decision procedure: "+strings.Join(solvers.Names, ", "))
			fs.BoolVar(&o.explain, "explain", false, "print the inferred abstractions")
			fs.StringVar(&o.out, "o", "", "write the abstract model to `FILE`")
			fs.StringVar(&o.predicates, "predicates", "", "abstract with the predicates of `FILE` (predicate abstraction)")
			fs.IntVar(&o.cubeLength, "cube-length", 0, "with --predicates: the longest cube of the abstraction's queries (0: 3)")
			return o
		},
		run: runAbstract,
	})
}

func runAbstract(e *env, fs *flag.FlagSet, opts any) int {
	o := opts.(*abstractOptions)
	if fs.NArg() != 1 {
		fmt.Fprintf(e.stderr, "birch abstract: expected one model file; %s\n", usageLine(fs))
		return ExitBadInput
	}
	if o.predicates != "" || o.cubeLength != 0 {
		return runAbstractPredicates(e, fs, o)
	}
	var icfg infer.Config
	switch o.def {
	case "concrete":
	case "point":
		icfg.DefaultPoint = true
	default:
		fmt.Fprintf(e.stderr, "birch abstract: bad --default %s (want concrete or point)\n", quote(o.def))
		return ExitBadInput
	}
	if !solvers.Available(o.solver) {
		fmt.Fprintf(e.stderr, "birch abstract: solver %s is not available (want %s)\n", o.solver, strings.Join(solvers.Names, ", "))
		return ExitBadInput
	}
	if !checkOutputPath(e, "abstract", "-o", o.out) {
		return ExitBadInput
	}
	cfg := data.Config{Solver: o.solver}
	l, sel, res, ok := inferModel(e, "birch abstract", fs.Arg(0), nil, bindingFlags{o.abstract, o.abstractions, o.use, o.coerce}, cfg, icfg)
	if !ok {
		return ExitBadInput
	}
	acfg := absgen.Config{Data: cfg}
	if o.out != "" {
		acfg.Filename = o.out
	}
	out, err := absgen.Generate(l.prog, res, acfg)
	if err != nil {
		source.Print(e.stderr, err, maxShownErrors)
		return ExitBadInput
	}
	if o.explain {
		if err := infer.Explain(e.stdout, l.prog, res, sel); err != nil {
			fmt.Fprintf(e.stderr, "birch abstract: %v\n", err)
			return ExitBadInput
		}
	}
	switch {
	case o.out != "":
		if err := os.WriteFile(o.out, out.Source, 0o644); err != nil {
			fmt.Fprintf(e.stderr, "birch abstract: %v\n", err)
			return ExitBadInput
		}
	case !o.explain:
		e.stdout.Write(out.Source)
	}
	return ExitPass
}

// readBindings reads the bindings of --abstract and --abstractions, with the
// abstractions of --use files and of the bindings file's use lines added to
// lib (a new library when nil), and the coercions of --coerce and of the
// bindings file's coerce lines, resolved in it (verify.ReadBindings). It
// prints what is wrong and returns ok false.
func readBindings(e *env, cmd string, lib *data.Library, abstract []string, abstractions string, use, coerce []string, cfg data.Config) (_ *data.Library, bs []infer.Binding, cs []infer.DeclaredCoercion, ok bool) {
	da := &verify.DataAbstraction{Bindings: abstract, File: abstractions, Use: use, Coerce: coerce}
	b, err := verify.ReadBindings(da, lib, cfg, func(name string) ([]byte, error) { return readSource(e, name) }, warnAt(e))
	if err != nil {
		printRunError(e, strings.TrimPrefix(cmd, "birch "), err)
		return nil, nil, nil, false
	}
	return b.Library, b.Bindings, b.Coercions, true
}

// warnAt prints a positioned warning.
func warnAt(e *env) verify.WarnFunc {
	return func(pos, msg string) { fmt.Fprintf(e.stderr, "%s: warning: %s\n", pos, msg) }
}

// bindingFlags are the flags that bind abstractions: --abstract,
// --abstractions, --use and --coerce.
type bindingFlags struct {
	abstract     []string
	abstractions string
	use, coerce  []string
}

// inferModel reads the bindings, loads the model and infers its
// abstractions, printing errors and the inference's warnings.
func inferModel(e *env, cmd, name string, lib *data.Library, b bindingFlags, cfg data.Config, icfg infer.Config) (*loaded, []infer.Selection, *infer.Result, bool) {
	lib, bs, cs, ok := readBindings(e, cmd, lib, b.abstract, b.abstractions, b.use, b.coerce, cfg)
	if !ok {
		return nil, nil, nil, false
	}
	icfg.Coercions = cs
	l := loadModel(e, name)
	if l == nil {
		return nil, nil, nil, false
	}
	bs, err := verify.JavaBindings(l.in, bs)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return nil, nil, nil, false
	}
	sel, err := infer.Resolve(l.prog, lib, bs)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return nil, nil, nil, false
	}
	res, err := infer.Infer(l.prog, lib, sel, icfg)
	if err != nil {
		source.Print(e.stderr, err, maxShownErrors)
		return nil, nil, nil, false
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(e.stderr, "%s: warning: %s\n", w.Pos, w.Msg)
	}
	return l, sel, res, true
}

// dataAbstraction is the data abstraction of --abstract and
// --abstractions (nil without them).
func (o *checkOptions) dataAbstraction(e *env) (*verify.DataAbstraction, bool) {
	if len(o.abstract) == 0 && o.abstractions == "" {
		for _, f := range []struct {
			name string
			set  bool
		}{{"--use", len(o.use) > 0}, {"--coerce", len(o.coerce) > 0}} {
			if f.set {
				fmt.Fprintf(e.stderr, "birch check: %s needs --abstract or --abstractions\n", f.name)
				return nil, false
			}
		}
		return nil, true
	}
	return &verify.DataAbstraction{
		Bindings: o.abstract, File: o.abstractions, Use: o.use, Coerce: o.coerce, Default: o.def,
		Solver: o.solver, MaxReplay: o.maxReplay, ReadFile: func(name string) ([]byte, error) { return readSource(e, name) },
	}, true
}
