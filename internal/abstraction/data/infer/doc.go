// Package infer binds data abstractions to the variables of a typed BIR
// program and infers the abstraction of everything else, as Bandera's
// abstract type inference does (section 5 of its paper).
//
// It sits between the BIR type checker (package bir/types) and the
// generation of the abstract model: the user names a few variables and
// their abstractions (Binding, from --abstract NAME=ABSTRACTION or a
// bindings file), Resolve finds them in the program, and Infer propagates
// abstractions along value flows to the least solution. The result says,
// for every integer variable, function result, expression and comparison,
// which abstraction it has (the concrete one, an abstraction, or point),
// and where values must be coerced from one to another.
//
// # Bindings
//
//	x = signs               a global
//	Main.n = range(0,3)     a thread's (or function's) local or parameter
//	Acct.bal = evenodd      a record field (every instance)
//	use "mine.basl"         a bindings file may name BASL files
//	coerce signs -> range(-1,1)   and declare coercions (CoercionDecl)
//
// An array of integers may be bound: its elements are abstracted.
//
// # Inference
//
// Constraints are generated from a syntax-directed walk: a variable
// reference has its variable's abstraction (an equality, by union-find);
// the operands of an operation or comparison lie at or below it, and the
// value of an assignment, argument, returned value, choice or initializer at
// or below its destination (flows). The lattice has ⊥ (unconstrained) below
// concrete, concrete below every abstraction and point above them all, and
// each declared coercion (Config.Coercions, closed transitively) puts its
// From below its To; two abstractions meet at the greater one, or at the
// least one declared above both, and otherwise at point, with a warning. Selected variables are fixed:
// a flow that would raise one is a conflict, reported at the flow with both
// bindings. After propagation, unconstrained constructs whose values flow
// into constrained ones become concrete (and are coerced there); the others
// get the default, concrete or point (Config.DefaultPoint); constructs
// values flow into from valued ones are at least those (a comparison of
// concrete values is concrete), and constants are concrete, coerced where
// they flow. Every flow between two different abstractions is a Coercion.
//
// The result of a call and the variable it is assigned to are one node
// (an abstract model cannot convert a value after a call, the last action
// of its step). Predicates, invariants and the propositions of LTL
// properties are inferred like guards.
//
// BIR needs some values concrete: array indices, the lengths of new
// arrays, the bounds of range choices. Unconstrained values there stay
// concrete; one that inference makes abstract is an error at its position,
// naming the binding its abstraction comes from:
//
//	index.bir:8:32: the index i of buf[i] needs a concrete value, but it is
//	abstracted by signs (from Main.k, bound by --abstract Main.k=signs)
//
// # Declared coercions
//
// As in Bandera (its paper's section 5), the user may extend the default
// order: `coerce FROM -> TO` in a bindings file, or --coerce 'FROM->TO'
// (ParseCoercion). ResolveCoercions looks the abstractions up and rejects a
// coercion to concrete, from point, to itself, or one that closes a
// cycle. A declaration only decides where values meet; the coercion itself
// is synthesized (data.Coerce: each token of FROM to the tokens of TO that
// share an integer with it), so any declaration is sound.
//
// Explain prints the result:
//
//	variables
//	  Main.m      evenodd  bound by --abstract Main.m=evenodd
//	  Main.n      concrete
//	  Main.result evenodd
//	expressions
//	  power.bir:9:32  result * m evenodd
//	  …
//	tests
//	  power.bir:8:10  n < 1      concrete
//	coercions
//	  power.bir:6:89  1 concrete -> evenodd
package infer
