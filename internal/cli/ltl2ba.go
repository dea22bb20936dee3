package cli

import (
	"flag"
	"fmt"
	"strings"

	"birch/internal/ltl"
	"birch/internal/source"
)

type ltl2baOptions struct {
	dot    bool
	tgba   bool
	negate bool
}

func init() {
	register(&command{
		name:  "ltl2ba",
		args:  "[--dot] [--tgba] [--negate] [--] FORMULA",
		short: "translate an LTL formula into a Büchi automaton",
		long: `
Ltl2ba prints a Büchi automaton that accepts exactly the infinite words
(executions) that satisfy the LTL formula, in BIR's ltl syntax ([] <> X U R W
! && || -> <->, true, false; propositions are names or other expressions, not
resolved against any model). The formula may be given as one argument or as
several, which are joined with spaces; put -- before a formula that starts
with - or contains ->, so that it is not read as a flag.

The automaton is built by birch (formulas expanded into next-state form, as
in Couvreur's construction, then simplified): by default degeneralized into a Büchi
automaton with accepting states; --tgba prints the transition-based
generalized Büchi automaton that birch check's product search uses; --negate
translates the negation of the formula (what birch check searches for); --dot
prints Graphviz's dot language instead of text.

Exit status: 0 when the formula was translated, 2 otherwise.`,
		flags: func(fs *flag.FlagSet) any {
			o := &ltl2baOptions{}
			fs.BoolVar(&o.dot, "dot", false, "print the automaton in Graphviz's dot language")
			fs.BoolVar(&o.tgba, "tgba", false, "print the transition-based generalized automaton (no degeneralization)")
			fs.BoolVar(&o.negate, "negate", false, "translate the negation of the formula")
			return o
		},
		run: runLTL2BA,
	})
}

func runLTL2BA(e *env, fs *flag.FlagSet, opts any) int {
	o := opts.(*ltl2baOptions)
	if fs.NArg() == 0 {
		fmt.Fprintf(e.stderr, "birch ltl2ba: want a formula; %s\n", usageLine(fs))
		return ExitBadInput
	}
	src := strings.Join(fs.Args(), " ")
	spec, err := ltl.Parse("formula", src)
	if err != nil {
		source.Print(e.stderr, err, maxShownErrors)
		return ExitBadInput
	}
	f := spec.Formula
	if o.negate {
		f = ltl.Un(ltl.Not, f)
	}
	a, err := ltl.Translate(f, spec.Names())
	if err != nil {
		fmt.Fprintf(e.stderr, "birch ltl2ba: %v\n", err)
		return ExitBadInput
	}
	if !o.tgba {
		a = ltl.Degeneralize(a)
		a.Simplify()
	}
	title := spec.Format(f)
	if o.dot {
		fmt.Fprint(e.stdout, a.Dot(title))
		return ExitPass
	}
	fmt.Fprintf(e.stdout, "formula: %s\n", title)
	if s := spec.Format(ltl.Simplify(ltl.NNF(f))); s != title {
		fmt.Fprintf(e.stdout, "negation normal form, simplified: %s\n", s)
	}
	fmt.Fprint(e.stdout, a.Format(title))
	return ExitPass
}

func init() {
	register(&command{
		name:  "patterns",
		args:  "[PATTERN]",
		short: "list the specification patterns, or expand one into LTL",
		long: `
Patterns lists the specification patterns of Dwyer, Avrunin and Corbett's
catalogue that birch check --pattern accepts — absence, existence,
universality, precedence and response — with the catalogue's LTL formula for
each scope: globally, before R, after Q, between Q and R, after Q until R.

Given a pattern instance, such as 'response(req, ack) globally' or
'absence(error) between(start, done)', it prints the LTL formula the instance
expands to. The arguments are expressions of a model (predicate names,
comparisons, location tests); they are checked when birch check uses them.
Several arguments are joined with spaces, so the instance need not be quoted
as one.

Exit status: 0, or 2 for an instance that is not a pattern.`,
		run: runPatterns,
	})
}

func runPatterns(e *env, fs *flag.FlagSet, _ any) int {
	w := e.stdout
	if fs.NArg() > 0 {
		src := strings.Join(fs.Args(), " ")
		p, err := ltl.ParsePattern(src)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch patterns: %v\n", err)
			return ExitBadInput
		}
		fmt.Fprintf(w, "%s\n", p)
		fmt.Fprintf(w, "  = %s\n", p.Formula())
		return ExitPass
	}
	fmt.Fprintln(w, "Specification patterns (Dwyer, Avrunin and Corbett, ICSE 1999), for")
	fmt.Fprintln(w, "birch check --pattern 'NAME(ARGUMENTS) SCOPE' (a scope may also be written")
	fmt.Fprintln(w, "before(R), after(Q), between(Q, R) or after-until(Q, R); no scope is globally).")
	for _, info := range ltl.Patterns() {
		fmt.Fprintf(w, "\n%s(%s): %s\n", info.Name, strings.Join(info.Params, ", "), info.Meaning)
		for i, f := range info.Formulas {
			plain := strings.NewReplacer("{P}", "P", "{S}", "S", "{Q}", "Q", "{R}", "R").Replace(f)
			fmt.Fprintf(w, "  %-16s %s\n", ltl.ScopeSyntax[i], plain)
		}
	}
	return ExitPass
}
