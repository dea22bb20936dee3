// Package c2bp is the predicate abstraction of SLAM's C2bp for BIR: a pass
// (BIR -> BIR) that replaces the data the predicates of a predicate file
// describe by one boolean variable per predicate, and keeps the rest of the
// model (threads, locations, locks, booleans, enums, small ranges) as it
// is. The abstract model over-approximates the concrete one: every
// concrete execution has an abstract counterpart through the same threads,
// locations and transformations, and every assertion failure or runtime
// error of the concrete model is an assertion failure of the abstract one
// at the same step. So a model whose abstraction passes passes.
//
// Package predicate supplies the pieces: the predicate file, the weakest
// preconditions and the cube search (F and G). This package composes them
// into the abstract model; internal/backend/bp writes the model of a
// one-thread program as a SLAM boolean program, and internal/verify checks
// it (birch check --predicates).
//
// # API
//
//	out, err := c2bp.Abstract(prog, preds, c2bp.Config{})
//	// out.Source:     the abstract model, BIR text in birch fmt's layout
//	// out.Program:    out.Source parsed and checked (a FileSet of its own)
//	// out.Map:        abstract transformations -> concrete ones (Origin),
//	//                 and which abstract assertions stand for which
//	//                 concrete runtime errors (Origin.Errors)
//	// out.Predicates: the predicates and their boolean variables
//	// out.Abstracted: the concrete variables and fields that are gone
//
// A construct the pass cannot translate soundly is an *UnsupportedError
// listing every such construct with its concrete position; a check then
// says inconclusive. The pass never guesses.
//
// # What is abstracted
//
// Every variable, parameter and field of type int or of a range of more
// than 256 values (and a value array of them) is abstracted: it is not in
// the abstract model. So is every reference or array variable or field a
// predicate mentions and, by closure, a reference or array variable
// assigned data that read abstracted data, and a field read or written
// through an abstracted reference (fields by name, as the encoder of
// package predicate stores them). Booleans, enums, small ranges, locks,
// thread identifiers and the remaining references stay concrete, with
// their actions as written.
//
// # The abstract model
//
// Each predicate is a global boolean, named after its text (p1_x_lt_n)
// and declared with a comment holding the predicate. A [thread T]
// predicate is a global too, so a step of any thread that may change it
// updates it; it needs T to have one instance: a main thread that no start
// names, or a thread started by exactly one start, in such a main thread,
// at a location on no cycle. The start assigns the new instance's
// parameters and locals (the arguments, the initial values) as the
// weakest preconditions see it, which sets T's predicates; before it, T's
// locals are taken to hold their initial values (no step reads them), so
// T's predicates are consistent from the initial state on.
//
// A [function f] predicate is a boolean parameter of the abstract f
// (assigned like a local by f's steps). Each call passes its value on
// entry, F of φ with the arguments for the parameters (all at once: a
// recursive call's arguments read the caller's parameters, and when they
// permute them, as f(b, a), the predicates over them are unknown) and the
// initial values for the locals, over the caller's state before the step
// (or a choice when F decides neither φ nor !φ). One that reads globals or the
// heap needs a model of one thread instance: another thread could change
// what it reads and cannot update a parameter of a frame.
//
// Threads, locations and transformations are those of the concrete
// model, in the same order, each concrete transformation giving exactly
// one abstract transformation (Origin). Transformations lose `invisible`:
// they read and write the predicates, which are globals, and dropping the
// claim only adds interleavings. A transformation
//
//	when g do { a1; …; ak } goto L;
//
// becomes
//
//	when up(g) do { choices; temporaries; the actions in order; predicates := temporaries; resets } goto L;
//
// where every abstract formula is computed over the state before the step
// (the weakest precondition through the actions before it) into a
// temporary abs_tN before any action writes, so that the concrete actions
// that stay and the predicates' new values do not interfere:
//
//   - up(e) over-approximates a boolean expression e, low(e)
//     under-approximates it: the parts of e that read only concrete data
//     and cannot fail stay as written (combined by && || ! as in e), and
//     each maximal part that reads abstracted data (or may fail, or names
//     a local of another thread) is G (for up) or F (for low) of it over
//     the predicates. F asks the solver only about the predicates that
//     share a variable with the part (the cone of influence), under the
//     domain facts of what it reads (an int is in [-2^63, 2^63-1], a range
//     in its bounds), after asking whether the empty cube suffices. A
//     part that reads concrete variables of small types (booleans, enums,
//     ranges, at most 8 valuations together) is bounded once per
//     valuation, since the abstract state knows them:
//     F(e) = (flag && F(flag -> e)) || (!flag && F(!flag -> e)).
//   - A predicate p the actions may change (WP.Changes) gets
//     low(!g || WP(p)) || (!low(!g || WP(!p)) && abs_cN), abs_cN a
//     choice of true or false; the guard is a hypothesis since the step is
//     taken only when it holds. The others keep their value and cost no
//     query. A dead local (not in the live set of the target) is reset by
//     the model on arrival: WP sees that reset as an assignment (a value
//     array as one per element, up to 64; a longer one, or a value no
//     assignment states, as a havoc that makes the predicates reading it
//     unknown). So do a call's entry and a start for the callee's locals.
//   - assume(c) on abstracted data is assume(up(g && pre(c))), where pre
//     is the condition that the actions before it may complete with c
//     true: the conditions of their assumes and asserts conjoined, and a
//     choice among values the disjunction over them. assert(c) fails
//     whenever c may be false and goes on whenever c may be true:
//     assert(!(low(!g || wlp(!c)) || (up(g && pre(!c)) && abs_cN))), wlp
//     the liberal weakest precondition (a choice among values: the
//     conjunction). A failure that is possible but not certain is a
//     choice, so that the executions in which the concrete step succeeds
//     keep their abstract counterparts.
//   - A boolean variable assigned abstracted data gets
//     low(!g || WP(e)) || (up(pre(e)) && abs_cN); an enum or small range
//     variable any value of its type (internChoose).
//   - A runtime error of an expression that the abstraction translates
//     (overflow of + - * unary - outside a conversion's operand, / and %
//     by zero, an index out of bounds, a null dereference, a value out of
//     a range type, a shift count out of 0..63) is an assertion
//     that its condition does not hold, built as for assert above and
//     placed before the action, with short-circuit evaluation respected
//     (an error of the guard: the guard is up(g) || up(cond), the step
//     asserts as above and then assumes up(g)); Origin.Errors maps its index to
//     the concrete error's kind and position. Actions that read only
//     concrete data are kept as written and raise their own errors.
//     Concrete asserts kept as written are in Origin.Errors as well (kind
//     assertion), so every abstract assertion has its concrete meaning.
//   - A store into a fixed-width location (int8 … uint64) wraps: it is no
//     range error, and the weakest preconditions take it for the
//     assignment of its conversion (package predicate), which the cube
//     queries state exactly; so does a fixed-width result in a return
//     predicate.
//   - A choice of abstracted data, x := externChoose(int) or any range or
//     type form, is the assignment of a fresh variable of the choice's
//     type to x as the weakest preconditions see it: the cube queries
//     quantify over it, so `x := externChoose(int); assume(x > 0)` makes
//     x > 0 true. A choice among listed values is WP's conjunction.
//   - After the predicates' new values, the step assumes that those it
//     chose form no cube of one or two literals that no state satisfies
//     (x < 3 && !(x < 5)): C2bp's enforce. The unsatisfiable cubes are
//     found once, over pairs of predicates that share a variable (the
//     first 64 predicates); a pruned valuation stands for no concrete
//     state, so the concrete steps keep their counterparts.
//   - Temporaries and choices are locals abs_tN, abs_cN of the thread,
//     reset to false at the end of the step (before a final wait), so they
//     add no states. An exit ends the abstract step, after the updates of
//     the predicates the actions before it change; the actions after it,
//     which do not run, are left out.
//   - BIR's rule of §12.2 (between one source and one target, every
//     transformation chooses or none does) is kept by adding
//     abs_z := internChoose(false) to the transformations that do not
//     choose.
//
// Calls: the arguments of abstracted parameters are dropped (their errors
// kept), a boolean parameter given abstracted data gets
// low(e) || (up(e) && choice), and a result of an abstracted type is
// dropped (the callee returns nothing). The callee's steps update the
// global predicates themselves. What they cannot update is the caller's:
// the variable the result goes to, the caller's [function] predicates over
// data the callee may write (the globals and fields written by it and the
// functions it calls, transitively), and the locals dead at the target.
// The predicates that read those become unknown in a step added at the
// return target (a location abs_retN whose one transformation chooses
// them and goes on to the concrete target); that step has no Origin. In a
// model of several threads, a global predicate made unknown that way would
// be stale for one step, so such a call is unsupported there. A boolean
// argument computed by the
// abstraction is a temporary of the caller that the call's step does not
// reset (the call comes last and reads it); the added step resets it, so
// it adds states only while the callee runs. A returning step pops the frame: it
// updates the global predicates only, and its temporaries are not reset
// (a boolean result computed from abstracted data is returned from one).
//
// Return predicates (C2bp's, retpreds.go): in a model of one thread
// instance, the predicates made unknown by a call `x := call f(a1, …)`
// that read x (a variable, abstracted, live at the target) and otherwise
// only caller locals y that are the whole argument ai of a parameter pi
// that f never changes (no action of f writes pi and every location of f
// keeps it live, so pi holds the argument's value when f returns; y, a
// local of the caller's frame, is not touched by the call) are f's return
// predicates: φ over x and the y. Each gets a global boolean
// abs_ret_f_N, false initially. Every returning step `… return e` of f
// decides φ[y := pi][x := e] over the state before the step (after its
// actions, under its guard: F of it and of its negation, a choice when F
// decides neither) and writes it into abs_ret_f_N; the step added at the
// call's target assigns abs_ret_f_N to φ's boolean instead of a choice,
// and resets it to false. The renaming is one simultaneous substitution:
// the y go to pi first, then x to e (e reads the callee's variables,
// which in a recursive call are the caller's too, and must not be
// renamed), and a pi that is another y's variable (a recursive call that
// permutes its parameters) or that two y map to is left out. The read
// is sound for recursion because in a model of one thread instance the
// step after a return is the caller's added step: the innermost return
// writes abs_ret_f_N, its own caller reads it next, and an outer return
// writes it again before its caller reads. A predicate over a parameter
// f changes (`k := k + 1; return k` relates the result to the new k, not
// to the argument) stays unknown. In a model of several threads there are
// none: another thread could run between the return and the read.
//
// Each predicate's boolean starts with its value in the initial state,
// decided by the solver from the initial values of the variables it reads
// (a field or element read, which no object has yet, is taken to hold its
// type's default: a read through null is a value the encoding gives and no
// step writes); one the solver cannot decide is unsupported.
//
// Properties: an invariant becomes low(inv) (it fails whenever inv may be
// false); ltl properties are left out, and so is every claim about
// deadlocks: an over-approximation of the guards preserves neither, and
// the check reports them as not checked. The model's predicates section
// keeps the predicates that read no abstracted data; an invariant that
// names one that does has it written out before low is taken.
//
// # The queries
//
// Formulas are checked in a query program: the concrete model printed
// again with one global per choice of a range or a type (abs_fresh_k),
// whose nodes map back to the concrete ones for positions. The solver is
// birch's embedded one by default (Config.Solver names another). A query
// the solver cannot decide counts as "no", which keeps F an
// under-approximation; a panic of the solver is caught, counted as
// undecided, and the solver replaced by a fresh one. The work is bounded:
// one F visits at most 1000 cubes and the abstract model writes at most
// 200 of them (a cone of many predicates has millions of cubes of three
// literals, and a long disjunction would pass BIR's nesting bound), the
// consistency assumptions come 200 clauses to an assume, and the pairs of
// findUnsat are those of the first 64 predicates; past a bound F keeps
// what it found, weaker and still sound (Stats.Unknowns counts it). A
// cancelled Config.Context stops the queries. Each query is bounded
// (20000 steps of the solver, and a second). With the embedded solver,
// which decides linear arithmetic, a formula with a product of two
// variables or a division by one is not asked about (it is unknown), and
// a nonlinear predicate takes part in no cube (its boolean is known only
// where a step decides it without the solver, and at the start).
//
// `new` into an abstracted reference still allocates (a full collection is
// a limit of the model) into a reference local abs_rN of the step, reset
// to null at its end.
//
// # Not supported
//
// A concrete value array of booleans, enums or small ranges (16 elements
// at most) written at an index that reads abstracted data has each
// element become its old value or the new one (a[k] := internChoose(a[k],
// v)), the index's errors kept.
//
// Each of these is an UnsupportedError at its position: any other
// concrete location chosen by abstracted data (a choice into one, a
// reference element); a lock reached through
// abstracted data; concrete data of a type other than boolean, enum or
// range assigned abstracted data (a thread identifier read through an
// abstracted reference); a concrete parameter or result other than a
// boolean given abstracted data; a call's result assigned to an
// abstracted variable whose type does not hold every value of the result's
// (a range error the dropped result would lose); [thread T] predicates of a thread that
// may have several instances; [function f] predicates over globals in a
// model of several threads; calls whose return makes a global predicate
// unknown in a model of several threads; a predicate whose initial value
// the solver cannot decide.
package c2bp
