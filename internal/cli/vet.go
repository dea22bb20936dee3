package cli

import (
	"flag"
	"fmt"

	"birch/internal/abstraction/predicate"
	"birch/internal/source"

	"birch/internal/verify"
)

type vetOptions struct {
	quiet      bool
	predicates string
}

func init() {
	register(&command{
		name:  "vet",
		args:  "[-q] [--predicates P] FILE...",
		short: "check that BIR models are well formed",
		long: `
Vet parses and type-checks each BIR model (a FILE of "-" reads standard input)
and reports every syntax and static-semantics error as file:line:col: message,
at most 10 per file. It prints "FILE: ok" for each well-formed model unless -q
is given. With --predicates P it also checks the predicate file P against each
model (docs/predicates.md) and prints "P: ok (N predicates)".

Exit status: 0 when every model is well formed, 2 otherwise.`,
		flags: func(fs *flag.FlagSet) any {
			o := &vetOptions{}
			fs.BoolVar(&o.quiet, "q", false, "print nothing for well-formed models")
			fs.StringVar(&o.predicates, "predicates", "", "also check the predicate file `P` against each model")
			return o
		},
		run: runVet,
	})
}

func runVet(e *env, fs *flag.FlagSet, opts any) int {
	o := opts.(*vetOptions)
	if fs.NArg() == 0 {
		fmt.Fprintf(e.stderr, "birch vet: no model files given; %s\n", usageLine(fs))
		return ExitBadInput
	}
	status := ExitPass
	for _, name := range fs.Args() {
		m := loadModel(e, name)
		if m == nil {
			status = ExitBadInput
			continue
		}
		if !o.quiet {
			fmt.Fprintf(e.stdout, "%s: ok\n", name)
		}
		if o.predicates != "" && !vetPredicates(e, m, o) {
			status = ExitBadInput
		}
	}
	return status
}

// vetPredicates checks the predicate file of o against m.
func vetPredicates(e *env, m *loaded, o *vetOptions) bool {
	src, err := readSource(e, o.predicates)
	if err != nil {
		fmt.Fprintf(e.stderr, "birch: %v\n", err)
		return false
	}
	f, err := predicate.ParseFile(m.prog, o.predicates, verify.JavaPredicates(m.in, src))
	if err != nil {
		source.Print(e.stderr, err, maxShownErrors)
		return false
	}
	if !o.quiet {
		fmt.Fprintf(e.stdout, "%s: ok (%d predicates)\n", o.predicates, len(f.Predicates))
	}
	return true
}
