// Package solvers constructs an smt.Solver by name — "embedded", "z3",
// "cvc5" — for the command line (--solver=NAME) and for differential tests.
// It is the one place that knows every implementation, which keeps package
// smt free of imports of its implementations (they import smt) and needs
// no registry or other global state.
package solvers

import (
	"context"
	"fmt"
	"strings"

	"birch/internal/smt"
	"birch/internal/smt/embedded"
	"birch/internal/smt/process"
)

// Names lists the solvers New knows, the default first.
var Names = []string{"embedded", "z3", "cvc5"}

// Default is the solver used when none is named.
const Default = "embedded"

// New returns a new solver over tm's terms. The caller must Close it.
func New(name string, tm *smt.TermManager) (smt.Solver, error) {
	return NewContext(context.Background(), name, tm)
}

// NewContext is New for a solver that ctx can stop: the end of ctx kills
// the process of z3 or cvc5 (and whatever it started), and the query
// under way returns an error. The embedded solver answers Unknown to the
// query under way and to every later one. A nil ctx never stops, and the
// name "" is Default (the zero values of a caller's configuration).
func NewContext(ctx context.Context, name string, tm *smt.TermManager) (smt.Solver, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	switch name {
	case "embedded", "":
		return embedded.NewContext(ctx, tm), nil
	case "z3":
		return process.NewContext(ctx, tm, process.Z3)
	case "cvc5":
		return process.NewContext(ctx, tm, process.CVC5)
	}
	return nil, fmt.Errorf("unknown solver %q (want %s)", name, strings.Join(Names, ", "))
}

// Available reports whether New(name, …) can succeed here: always for the
// embedded solver, when the program is on PATH for the others.
func Available(name string) bool {
	switch name {
	case "embedded":
		return true
	case "z3":
		return process.Available(process.Z3)
	case "cvc5":
		return process.Available(process.CVC5)
	}
	return false
}
