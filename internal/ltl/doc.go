// Package ltl holds birch's linear temporal logic: formulas, their negation
// normal form and simplification, their translation into Büchi automata,
// and Dwyer, Avrunin and Corbett's specification patterns.
//
// It sits beside internal/model in the pipeline: the command line (or an
// `ltl` property of a model) gives a formula; FromExpr turns its syntax tree
// into a Spec, a Formula over numbered propositions (maximal subexpressions
// without temporal or boolean operators, such as `x > 2` or `Main @ done`);
// Translate turns the formula's negation into an Automaton; and the product
// search of internal/search explores the model and the automaton together,
// evaluating the propositions with model.Evaluator, to find an accepted
// run: an execution that violates the formula.
//
// # Formulas
//
// A Formula is an immutable tree of operators (Op): true, false,
// propositions, !, &&, ||, ->, <->, X, [], <>, U, R and W. Format prints it
// in BIR's ltl syntax, which Parse reads back. NNF rewrites a formula into
// negation normal form over &&, ||, X, U and R; Simplify applies the usual
// rewriting rules of LTL translators to such a formula. Holds decides
// whether a lasso-shaped word u·v^ω satisfies a formula, directly by the
// semantics; the tests use it as the oracle for the automata.
//
// # Automata
//
// An Automaton is a transition-based generalized Büchi automaton (TGBA): its
// edges carry a label (a conjunction of literals over the propositions) and
// a set of acceptance marks; a run is accepting when it takes edges of every
// acceptance set infinitely often. Translate builds it by expanding
// formulas into next-state form, as Couvreur's construction does: a state is
// a set of formulas, each edge a term `label ∧ X next` of the state's
// expansion, and an edge that postpones an eventuality a U b carries a
// promise of it (the acceptance set of a U b holds the edges without one).
// States are reduced by syntactic implication and dominated terms dropped,
// so that conjunctions of independent obligations such as [] <> p ∧ [] <> q
// stay one state. The result is reduced (Simplify: useless states, subsumed
// edges, redundant acceptance sets, bisimilar states).
// Degeneralize turns a TGBA into an ordinary state-based Büchi automaton,
// which is what `birch ltl2ba` prints by default:
//
//	$ birch ltl2ba -- '<> p'
//	formula: <> p
//	Büchi automaton for <> p: 2 states, 3 edges
//	initial state: 0
//	accepting states: 1
//	state 0 (initial):
//	  true -> 0
//	  p -> 1
//	state 1 (accepting):
//	  true -> 1
//
// # Patterns
//
// Patterns lists the specification patterns of Dwyer, Avrunin and Corbett
// (absence, existence, universality, precedence and response, each under the
// scopes globally, before R, after Q, between Q and R, after Q until R) with
// their published LTL formulas; ExpandPattern instantiates one.
package ltl
