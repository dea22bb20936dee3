package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"

	"birch/internal/backend/promela"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/verify"
)

type translateOptions struct {
	to           string
	out          string
	property     string
	ltl          string
	pattern      string
	noInvariants bool
}

func init() {
	register(&command{
		name:  "translate",
		args:  "--to promela [-o OUT] [--property NAME | --ltl FORMULA | --pattern PATTERN | --no-invariants] MODEL",
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

By default the translation checks every invariant of the model's properties
section (a monitor process) and no LTL formula. --property NAME translates only
the property NAME: an invariant, or an ltl property, which becomes an ltl block
(or a never claim) for pan -a -N NAME. --ltl FORMULA and --pattern PATTERN
translate an LTL formula over the model's predicates and expressions, as birch
check and birch spin read them; with a formula, the invariants are left out.
--no-invariants leaves the invariants out.

Exit status: 0 when the model was translated, 2 otherwise.`,
		flags: func(fs *flag.FlagSet) any {
			o := &translateOptions{}
			fs.StringVar(&o.to, "to", "promela", "the target language (promela; bir prints the BIR model a C or Java program is lowered to)")
			fs.StringVar(&o.out, "o", "", "write the translation to `FILE` instead of standard output")
			fs.StringVar(&o.property, "property", "", "translate only the property `NAME` of the model (an invariant or an ltl formula)")
			fs.StringVar(&o.ltl, "ltl", "", "translate an LTL `FORMULA` over the model's predicates and expressions")
			fs.StringVar(&o.pattern, "pattern", "", "translate a specification `PATTERN`, e.g. 'response(p, q) globally'")
			fs.BoolVar(&o.noInvariants, "no-invariants", false, "leave out the invariants of the properties section")
			return o
		},
		run: runTranslate,
	})
}

func runTranslate(e *env, fs *flag.FlagSet, opts any) int {
	o := opts.(*translateOptions)
	if o.to == "bir" && fs.NArg() == 1 {
		return translateToBIR(e, o, fs.Arg(0))
	}
	if o.to != "promela" {
		fmt.Fprintf(e.stderr, "birch translate: unknown target %s (promela, or bir for a C or Java program)\n", quote(o.to))
		return ExitBadInput
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(e.stderr, "birch translate: give exactly one model file; %s\n", usageLine(fs))
		return ExitBadInput
	}
	if !checkOutputPath(e, "translate", "-o", o.out) {
		return ExitBadInput
	}
	prog, popts, status := translateProperties(e, o, fs.Arg(0))
	if prog == nil {
		return status
	}
	var buf bytes.Buffer
	if err := promela.Translate(prog, &buf, popts); err != nil {
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

// translateToBIR writes the BIR model an input is loaded as: for a C or
// Java program, its lowering (docs/c.md, docs/java.md).
func translateToBIR(e *env, o *translateOptions, name string) int {
	in := loadInput(e, name)
	if in == nil {
		return ExitBadInput // inconclusive when the C is unsupported (Main)
	}
	if o.out == "" {
		e.stdout.Write(in.Src)
		return ExitPass
	}
	if err := os.WriteFile(o.out, in.Src, 0o644); err != nil {
		fmt.Fprintf(e.stderr, "birch: %v\n", err)
		return ExitBadInput
	}
	return ExitPass
}

// translateProperties loads the model and selects the properties the
// translation checks (verify.PromelaProperties); without a program, status
// is the exit status (inconclusive for a model with an unbounded choice).
func translateProperties(e *env, o *translateOptions, name string) (prog *types.Program, popts promela.Options, status int) {
	in := loadInput(e, name)
	if in == nil {
		return nil, promela.Options{}, ExitBadInput
	}
	sel := verify.Selection{LTL: o.ltl, Pattern: o.pattern, NoInvariants: o.noInvariants}
	if o.property != "" {
		sel.Names = []string{o.property}
	}
	prog, popts, err := verify.PromelaProperties(in, sel)
	var ue *model.UnboundedChoiceError
	if errors.As(err, &ue) {
		fmt.Fprintf(e.stderr, "birch translate: inconclusive: %v\n", ue)
		return nil, promela.Options{}, ExitInconclusive
	}
	if err != nil {
		printRunError(e, "translate", err)
		return nil, promela.Options{}, ExitBadInput
	}
	return prog, popts, ExitPass
}
