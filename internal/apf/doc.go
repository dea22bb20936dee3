// Package apf is on-the-fly predicate abstraction in the manner of
// Abstract Pathfinder (issue 22; docs/apf.md): birch's explicit engine
// runs the model, and the integer data the predicates of a predicate file
// describe are not kept in the state but replaced by three-valued
// predicates (unknown, false, true), updated at every step with weakest
// preconditions and the solver. Threads, locations, locks, references, the
// heap, calls and frames, booleans, enums and small ranges stay concrete,
// so a model with shared heap data and unbounded integers needs no boolean
// program.
//
// The package sits between the front end and internal/model: it rewrites
// the checked model into P′ and implements model.Native, the hook through
// which the model leaves the steps on abstracted data to Go code.
//
// # P′, the instrumented program
//
// Instrument parses the model again, reads the predicate file against it
// (package predicate: global, [thread T], [function f] and [record T]
// predicates), and adds one hidden variable per predicate, of type
// `range 0..2` (0 unknown, the default; 1 false; 2 true):
//
//   - a global predicate gets a global, declared after the model's own;
//   - a [thread T] or [function f] predicate a local of T or f, after the
//     proc's own locals and named in every `live { }` set of the proc, so
//     the model never resets it; each frame has its instance;
//   - a [record T] predicate a field of T, after T's fields, and the same
//     field at the same index in every subtype of T (BIR's prefix rule);
//     each object has its instance.
//
// A hidden variable is named pred'N, N the predicate's number in the file
// from 1: BIR identifiers have no quote ('), so it clashes with no name of the
// model. P′ is checked again with types.Check, and its threads, functions,
// locations and transformations are those of the model in the same order,
// so model.Groups() of P′ and of the model agree index by index (a trail
// of P′ is a schedule of the model).
//
// For a model
//
//	R = record { v : int; };
//	Rs : collection [2] of R;
//	g : int;
//	main thread M ()
//	  x : int;
//	  loc s0: live { x }
//	  …
//
// and the predicate file
//
//	g > 0
//	[thread M] x == g
//	[record R] this.v < g
//
// P′ reads as
//
//	R = record { v : int; pred'3 : range 0..2; };
//	…
//	main thread M ()
//	  x : int;
//	  pred'2 : range 0..2;
//	  loc s0: live { x, pred'2 }
//	  …
//	pred'1 : range 0..2;
//
// Program.Slots maps each predicate to its hidden variable (PredSlot).
//
// # What is abstracted
//
// Abstracted data are the variables, parameters, fields and array
// elements (of value arrays and heap arrays) whose type is int or a range
// of more than 256 values (AbstractType), the bound the C2bp pass uses.
// Unlike C2bp, fixed-width types (int8 … uint64) stay concrete: their
// wrapping stores are the model's own. An abstracted variable keeps its
// slot, which holds its initial or default value and is never written, so
// it splits no states. Program.Abstracted holds the abstracted variables,
// parameters and fields (a value array whose elements are abstracted as a
// whole); an array element is abstracted exactly when AbstractType holds
// for the array's element type (Program.AbstractArrays lists the heap
// array types with abstracted elements); a heap array's length stays
// concrete.
//
// # What the runtime computes
//
// Program.Replaced holds the nodes the model leaves to the runtime
// (model.Native.Replaces): a transformation's guard, an action, the result
// of `return e`, an argument of a call or start, and the Lhs of a call,
// whenever it reads or writes abstracted data. An argument for an
// abstracted parameter, the result of a function whose result type is
// abstracted, and the result of a function some call of which stores it
// into an abstracted location, are replaced even when they are constants:
// the runtime, not the slot, holds or stores the value. Calls and starts themselves run in the model
// (frames, threads), and so do new, forall, reachable and the lock
// actions.
//
// # The runtime
//
// NewRuntime returns the model.Native of a Program: model.New(p.Prog,
// model.Options{Native: r}) runs P′ with it, and search.Run explores it
// as any model. The runtime evaluates an expression of P′ to a solver term
// (internal/smt): concrete parts read from the slots, an abstracted
// location — a global, a local of one frame, a field of one object, an
// element of one heap or value array — as the term the step wrote into
// the run's overlay, or else as the location's symbol, which stands for
// its value in the state before the step (a location the step created, in
// a new frame or object, reads as the initial value its slot holds).
// References and indices are concrete, so aliasing needs no alias
// analysis: p.v written through q == p is the same location; an element
// written at an abstracted index i is, for each element k, ite(i == k, e,
// old), and a field, an element or a length through a reference such an
// index chooses (cs[i].v, rows[i][j], rows[i].length) is an ite over the
// candidate objects. Int arithmetic is BIR's: an overflow, a zero divisor, an index out
// of bounds, a value out of a range are runtime errors, and / and %
// truncate.
//
// After each run (End) every predicate instance of the state after the
// step is evaluated there and in the state before it; equal terms
// (hash-consed) keep their value, a known one, or an unknown one the
// run's path does not touch. Any other instance p — its data written,
// a reference or index along its access paths changed, a new frame,
// object or thread — gets true when path ∧ l(D) ⇒ p is valid, false when
// path ∧ l(D) ⇒ ¬p is, unknown otherwise (Abstract Pathfinder §3.5): the
// path holds the guard and the facts of the run's choices, l(D) the known
// predicate instances of the state before the step that share a symbol
// with p, transitively (the cone of influence), with each symbol's domain
// (an int in [-2^63, 2^63-1], a range in its bounds). The unknown
// instances are then refined from the known ones to a fixpoint (§3.6,
// Figure 3). The questions go through an smt.Cache; an undecided one is
// unknown, never a guess.
//
// A guard is true or false when the known predicates decide it; when they
// do not, its transformation is taken with the guard as a fact of the run
// (so its negation's transformation is taken too: branching on unknown).
// A runtime error that abstracted data make possible but not certain is a
// choice between the failure and the run going on with its negation as a
// fact (in a guard, whose Value cannot choose, Begin makes the choice);
// assume(c) blocks the run when the facts refute c and makes c a fact
// otherwise. A concrete location (a boolean, an enum, a small range)
// that receives abstracted data takes, by a choice, each value the facts
// allow. A call binds the callee's abstracted parameters to the
// arguments' terms, a start the new thread's, a return stores the result's
// term into the caller's left-hand side; arriving at a location resets
// its dead abstracted locals to their defaults, as the model does with
// their slots. What the runtime cannot do soundly at run time stops the
// step with a limit ("on-the-fly predicate abstraction: …"), never a
// value. Stats counts the solver's queries, the cache's hits, the unknown
// guards and the choices made.
//
// # What is unsupported
//
// Program.Unsupported (an *UnsupportedError) lists, each at its position,
// what the runtime cannot do soundly; a check of such a model is
// inconclusive, never a guess:
//
//   - concrete data stored at a location chosen by abstracted data (an
//     abstracted index or a reference read through one);
//   - abstracted data stored into a concrete location, passed to a
//     concrete parameter or returned as a concrete result, of a type that
//     is not a boolean, an enum or a range of at most 256 values (those
//     take the value by a choice over their values): fixed-width data, say;
//   - a lock reached through abstracted data;
//   - the length of a new array, or the object reachable starts from, read
//     from abstracted data.
//   - a value array of abstracted data passed as an argument, returned, or
//     stored from a call: only values of one slot pass through the native
//     hook.
//   - a lock or thread identifier that lockAvailable, hasLock, wasNotified
//     or threadTerminated reads, or a value array, chosen by abstracted
//     data (an abstracted index).
//
// println of abstracted data is replaced and prints nothing. Invariants
// and the model's predicates that read abstracted data (Program.Reads) are
// not evaluated by the runtime: the check reports them not checked.
package apf
