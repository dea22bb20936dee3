// Package predicate holds the pieces of birch's predicate abstraction (the
// C2bp construction of SLAM) that are about predicates themselves: the
// predicate file, which names the predicates, and the weakest precondition
// of a BIR step with respect to a predicate, the formula from which the
// abstraction computes a boolean program's statements (F and G of the
// paper, by cubes and a solver, live in the pass that composes these
// pieces).
//
// It sits among the passes of the pipeline (BIR -> boolean program); it
// reads a type-checked program (internal/bir/types) and produces syntax
// (internal/bir/ast), never states.
//
// # Predicate files
//
// A predicate file holds one BIR boolean expression per line. A `#` starts a
// comment that runs to the end of the line (BIR has no `#`), and blank lines
// are ignored. A line may start with a scope:
//
//	# the predicates of a list-partition model
//	g < N                         # globals only
//	[thread Main] curr == null    # Main's parameters and locals, and the globals
//	[thread Main] prev.v > v
//	[function inc] r == k + 1     # inc's parameters and locals, and the globals
//
// ParseFile parses each expression with BIR's own expression parser
// (parser.ParseExprAt, so positions point into the predicate file) and
// type-checks it in its scope against the model (types.Program.CheckExpr).
// A predicate may read record fields through references and array elements
// at any index, and may use `->` and `<->` as the model's predicates
// section may; it may not use location tests, remote references, lock and
// thread tests (the program counter, locks and threads stay concrete in a
// predicate abstraction) nor the model's own predicates. Every error is
// reported as "file:line:col: message", with the line and column of the
// predicate file, and ParseFile reports every bad line, not only the first.
package predicate
