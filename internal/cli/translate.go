package cli

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"birch/internal/backend/promela"
)

type translateOptions struct {
	to  string
	out string
}

func init() {
	register(&command{
		name:  "translate",
		args:  "--to promela [-o OUT] MODEL",
		short: "translate a BIR model for another model checker",
		long: `
Translate writes the translation of a BIR model (a MODEL of "-" reads standard
input) into the input language of another model checker. The only target so far
is Promela, the language of SPIN (--to promela). Each BIR transformation becomes
one atomic Promela step, so that SPIN's states correspond one to one with
birch's; docs/promela.md describes the scheme and what is supported. A
construct the translation does not support is reported as file:line:col:
message and nothing is written.

The translation goes to standard output, or to OUT with -o.

Exit status: 0 when the model was translated, 2 otherwise.`,
		flags: func(fs *flag.FlagSet) any {
			o := &translateOptions{}
			fs.StringVar(&o.to, "to", "promela", "the target language (promela)")
			fs.StringVar(&o.out, "o", "", "write the translation to `FILE` instead of standard output")
			return o
		},
		run: runTranslate,
	})
}

func runTranslate(e *env, fs *flag.FlagSet, opts any) int {
	o := opts.(*translateOptions)
	if o.to != "promela" {
		fmt.Fprintf(e.stderr, "birch translate: unknown target %q (the only target is promela)\n", o.to)
		return ExitBadInput
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "birch translate: give exactly one model file")
		fs.Usage()
		return ExitBadInput
	}
	m := loadModel(e, fs.Arg(0))
	if m == nil {
		return ExitBadInput
	}
	var buf bytes.Buffer
	if err := promela.Translate(m.prog, &buf, promela.Options{}); err != nil {
		fmt.Fprintln(e.stderr, err)
		return ExitBadInput
	}
	if o.out == "" {
		e.stdout.Write(buf.Bytes())
		return ExitPass
	}
	if err := os.WriteFile(o.out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintf(e.stderr, "birch: %v\n", err)
		return ExitBadInput
	}
	return ExitPass
}
