// Package bdd is a small reduced ordered binary decision diagram (ROBDD)
// package: the symbolic layer under the Bebop-style checker of boolean
// programs (internal/boolprog/bebop).
//
// A Manager owns every node. Variables are numbered 0..n-1 and that number
// is also the variable's level: variable 0 is tested first. A Node is an
// index into the Manager's node table; False and True are the two terminals.
// Nodes are hash-consed in a unique table, so two Nodes are equal exactly
// when they denote the same boolean function, and equality is ==.
//
// Operations: Not, And, Or, Xor, Equiv, Imp, Ite (with a computed cache),
// Exists over a set of variables given as a cube (Cube), AndExists (the
// relational product ∃V. f ∧ g, computed without building f ∧ g), Replace
// (simultaneous renaming of variables, any permutation or many-to-one map),
// AnySat (one satisfying assignment), Eval, Support, SatCount and Size.
//
// Memory is bounded: a Manager never holds more than Config.MaxNodes nodes
// (nodes are never freed; a check builds one Manager and drops it). An
// operation that would exceed the bound stops, the Manager records a
// *LimitError (see Err), and from then on every operation returns False.
// A caller must therefore check Err before it draws any conclusion from a
// result; the boolean-program checker turns the error into an inconclusive
// verdict. No operation panics across the package boundary.
//
// Why not github.com/dalzilio/rudd (v1.1.0), the maintained pure-Go BDD
// library the issue suggested: it counts external references with
// runtime finalizers that decrement the node table's reference counts from
// the finalizer goroutine without synchronisation, NewReplacer increments an
// unsynchronised package-level counter (go test -race reports a data race
// when two BDDs create replacers in two goroutines, as two checks running
// at once would), and an operation that fails returns a nil Node that the
// next operation dereferences. birch runs checks concurrently and must not
// panic, so this package keeps all of its state in the Manager, frees
// nothing, and reports failure as an error.
package bdd
