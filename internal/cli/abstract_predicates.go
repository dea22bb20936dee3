package cli

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"birch/internal/abstraction/predicate"
	"birch/internal/abstraction/predicate/c2bp"
	"birch/internal/backend/bp"
	"birch/internal/smt/solvers"
	"birch/internal/source"

	"birch/internal/verify"
)

// runAbstractPredicates is birch abstract --predicates FILE: the
// predicate abstraction of the model (c2bp), written as BIR or, to a file
// whose name ends in .bp, as a boolean program (package backend/bp).
func runAbstractPredicates(e *env, fs *flag.FlagSet, o *abstractOptions) int {
	const cmd = "birch abstract"
	if o.predicates == "" {
		fmt.Fprintf(e.stderr, "%s: --cube-length needs --predicates\n", cmd)
		return ExitBadInput
	}
	for _, f := range []struct {
		name string
		set  bool
	}{{"--abstract", len(o.abstract) > 0}, {"--abstractions", o.abstractions != ""}, {"--use", len(o.use) > 0},
		{"--coerce", len(o.coerce) > 0}, {"--default", o.def != "concrete"}, {"--explain", o.explain}} {
		if f.set {
			fmt.Fprintf(e.stderr, "%s: %s is an option of data abstraction, not of --predicates\n", cmd, f.name)
			return ExitBadInput
		}
	}
	if o.cubeLength < 0 {
		fmt.Fprintf(e.stderr, "%s: bad --cube-length %d (want a positive number, or 0 for the default)\n", cmd, o.cubeLength)
		return ExitBadInput
	}
	if !solvers.Available(o.solver) {
		fmt.Fprintf(e.stderr, "%s: solver %s is not available (want %s)\n", cmd, o.solver, strings.Join(solvers.Names, ", "))
		return ExitBadInput
	}
	if !checkOutputPath(e, "abstract", "-o", o.out) {
		return ExitBadInput
	}
	l := loadModel(e, fs.Arg(0))
	if l == nil {
		return ExitBadInput
	}
	src, err := readSource(e, o.predicates)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", cmd, err)
		return ExitBadInput
	}
	file, err := predicate.ParseFile(l.prog, o.predicates, verify.JavaPredicates(l.in, src))
	if err != nil {
		source.Print(e.stderr, err, maxShownErrors)
		return ExitBadInput
	}
	toBP := strings.HasSuffix(o.out, ".bp")
	// with -o OUT.bp the abstract model's positions are those of OUT.bir,
	// which -o OUT.bir writes
	birName := o.out
	if toBP {
		birName = strings.TrimSuffix(o.out, ".bp") + ".bir"
	}
	ccfg := c2bp.Config{Solver: o.solver, CubeLength: o.cubeLength, Filename: birName}
	out, err := c2bp.Abstract(l.prog, file, ccfg)
	if err != nil {
		if u, ok := err.(*c2bp.UnsupportedError); ok {
			fmt.Fprintf(e.stderr, "%s: the predicate abstraction does not support these constructs:\n", cmd)
			source.Print(e.stderr, u.List, maxShownErrors)
		} else {
			fmt.Fprintf(e.stderr, "%s: %v\n", cmd, err)
		}
		return ExitBadInput
	}
	text := out.Source
	if toBP {
		b, err := bp.Translate(out.Program, bp.Config{Filename: o.out})
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: -o %s: the abstract model is no boolean program (one thread, boolean data, no properties); -o %s writes it:\n", cmd, o.out, birName)
			source.Print(e.stderr, err, maxShownErrors)
			return ExitBadInput
		}
		text = b.Source
		if b.Bounds != "" {
			// bebop's verdict on it may differ from birch check's
			fmt.Fprintf(e.stderr, "%s: warning: %s\n", cmd, b.Bounds)
		}
	}
	if o.out == "" {
		e.stdout.Write(text)
		return ExitPass
	}
	if err := os.WriteFile(o.out, text, 0o644); err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", cmd, err)
		return ExitBadInput
	}
	return ExitPass
}
