// Package smtlib reads SMT-LIB2: S-expressions with byte offsets (Parse,
// and ReadResponse for a solver's answers on a pipe), their elaboration
// into sort-checked terms of package smt (Elaborator), solvers' models
// (ReadModel: z3's and cvc5's get-model output, including abstract values,
// auxiliary functions and lambdas over arrays), and whole scripts
// (Interpreter, which backs `birch smt`).
//
// Errors in scripts are positioned: the Interpreter returns a
// *source.Error "file:line:col: message" for the first bad command or
// term, after running the commands before it, and wraps failures of the
// solver itself in a *SolverError. Quantifiers, reals, bit-vectors,
// strings and datatypes are reported as unsupported.
//
// Example: the script
//
//	(declare-fun x () Int)
//	(define-fun sq ((a Int)) Int (* a a))
//	(assert (> (sq (+ x 1)) 0))
//
// asserts the term (> (* (+ x 1) (+ x 1)) 0): define-fun is a macro, its
// body kept as a term over parameters x!0 … and instantiated at each use.
package smtlib
