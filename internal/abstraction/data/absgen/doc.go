// Package absgen generates the abstract model of a BIR program: the last
// step of Bandera's data abstraction, after abstract type inference
// (package infer). It is a pass (BIR -> BIR) whose output over-approximates
// the concrete model: every concrete behaviour has an abstract counterpart,
// and properties are under-approximated, so that a property that holds of
// the abstract model holds of the concrete one.
//
// # API
//
//	out, err := absgen.Generate(prog, res, absgen.Config{})
//	// out.Source:  the abstract model, ordinary BIR text in the canonical
//	//              layout of birch fmt (package format)
//	// out.Program: out.Source parsed and type-checked (its own FileSet)
//	// out.Map:     abstract transformations and positions -> concrete ones
//
// Generate's errors are positioned in the concrete model (a
// source.ErrorList): constructs the generator does not support, or too many
// cases for one transformation.
//
// # The encoding
//
// Each abstraction in use becomes an enum type whose constants are its
// tokens: evenodd becomes
//
//	evenodd_t = enum {evenodd_EVEN, evenodd_ODD};
//
// (names are made unique against the program's). The first constant is the
// abstraction's default token, so record fields and array elements start
// with it; variables get an explicit initial value, the token of the
// concrete initial value. Abstracted variables, fields, parameters, array
// elements and function results get the enum type.
//
// Threads, functions, locations and their order are those of the concrete
// model; synthetic locals (named abs_…) are added at the end of a thread's
// or function's locals. Each concrete transformation becomes one or more
// abstract transformations, in its place, from the same location to the
// same target:
//
//   - Actions are evaluated at generation time, by cases. The abstract
//     values a transformation's actions read (abstract variables, fields and
//     elements, and concrete values coerced to an abstraction, its "probes")
//     are read in the state before the transformation; for each combination
//     of their tokens (a case), the abstract operators' tables give the
//     outcome of every operation and test. Cases whose actions come out the
//     same are merged into one transformation whose guard adds the cases'
//     condition, e.g. `result == evenodd_ODD && m == evenodd_ODD`; cases in
//     which the guard is certainly false are dropped. An abstract value
//     written by an earlier action of the same transformation is known in
//     the case; a field or element read after another abstract field or
//     element was written, or whose reference or index was changed, is any
//     token (sound, imprecise). A copy of a variable, field or element of
//     the same abstraction reads its token at run time.
//   - A test or operation whose only abstract operand is one variable,
//     combined with constants (result % 2 != 0, x - 1), is decided exactly
//     by the decision procedure (data.Decide), not by composing tables.
//   - An imprecise operation result becomes `x := internChoose(A, B);`, an
//     imprecise test in an action a synthetic boolean chosen with
//     `internChoose(true, false)`. A precise one is a constant.
//   - Guards are translated without cases, as formulas over the tokens
//     read: may(g) is true in an abstract state when g may be true in some
//     concrete state it stands for, must(g) when g is true in all. A guard
//     whose abstract tests are precise gives one transformation; otherwise
//     two: `when must(g) …` and `when may(g) && !(must(g)) do {
//     abs_z := internChoose(0); … }`, whose internChoose marks the step as a
//     choice of the abstraction (so a choose-free search skips it).
//   - Constants are coerced by the abstraction function; values of one
//     abstraction flowing into another by the synthesized coercion.
//     `externChoose(1, 2, 3)` into an evenodd variable becomes
//     `externChoose(evenodd_ODD, evenodd_EVEN)`.
//   - Unary minus is `0 - x`.
//   - A division or remainder whose divisor's token contains 0 raises the
//     concrete model's runtime error: `abs_z := abs_z / abs_z;` when the
//     divisor is certainly zero, after `abs_z := internChoose(0, 1);` when
//     it may be.
//   - Storing into an abstracted variable of a range type raises the range
//     error for tokens whose integers lie outside the range (by an
//     internChoose when some lie inside).
//   - Synthetic temporaries are reset at the end of the transformation
//     (before a final wait or call), so that they add no states.
//   - Where one transformation between two locations contains a choose
//     action and another does not (BIR forbids this), the latter gets
//     `abs_z := externChoose(0);`, which a choose-free search does not skip.
//
// # Properties
//
// Properties are under-approximated (Bandera's paper, section 7): an
// abstract proposition holds in an abstract state only if the concrete one
// holds in every concrete state the abstract state stands for. Invariants,
// predicates and the propositions of LTL formulas become must-formulas (in
// a negative position of an LTL formula, the negation of a may-formula).
// An assertion fails when its condition may be false.
//
// # The map back
//
// Map relates the abstract model to the concrete one: for every abstract
// transformation (Map.Transformation) its concrete transformation, thread
// or function, location and index, which case it is and whether it is a
// choice of the abstraction; for every abstract action the concrete action
// it comes from; and every position of the generated source to a concrete
// position (Map.Position). Names of threads, functions, locations and
// variables are those of the concrete model.
package absgen
