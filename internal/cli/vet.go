package cli

import (
	"flag"
	"fmt"
)

type vetOptions struct {
	quiet bool
}

func init() {
	register(&command{
		name:  "vet",
		args:  "[-q] FILE...",
		short: "check that BIR models are well formed",
		long: `
Vet parses and type-checks each BIR model (a FILE of "-" reads standard input)
and reports every syntax and static-semantics error as file:line:col: message,
at most 10 per file. It prints "FILE: ok" for each well-formed model unless -q
is given.

Exit status: 0 when every model is well formed, 2 otherwise.`,
		flags: func(fs *flag.FlagSet) any {
			o := &vetOptions{}
			fs.BoolVar(&o.quiet, "q", false, "print nothing for well-formed models")
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
		if m := loadModel(e, name); m == nil {
			status = ExitBadInput
		} else if !o.quiet {
			fmt.Fprintf(e.stdout, "%s: ok\n", name)
		}
	}
	return status
}
