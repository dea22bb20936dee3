// Package verify is birch's verification pipeline: a Task goes in (a
// loaded input, the properties to check, the options), a Result comes out.
// It sits between the engines and the command line:
//
//	front ends (Load: BIR today) -> passes (data abstraction) -> model -> search -> verify -> cli
//
// A run is planned from the properties the Task selects: one search for
// safety (the assertions, runtime errors and deadlocks, with the chosen
// invariants) unless only ltl properties were asked for, and one search per
// ltl property; every property of the model is checked unless the Task
// names some. Each search is a step, and steps compose as CPAchecker's
// algorithms wrap each other:
//
//   - SearchSafety: the explicit-state search of a compiled model;
//   - SearchLTL: the product search of a model and a property's automaton;
//   - the check with data abstraction (abstract.go, abstract_ltl.go):
//     abstraction synthesis, then the explicit steps on the abstract model
//     (with the choose-free re-search), then the confirmation step, which
//     replays the abstract trail on the concrete model;
//   - the check with predicate abstraction (predicate.go, predabs.go):
//     the predicate file and c2bp's abstract model, the explicit step on
//     it without deadlocks (or Bebop on its boolean program, predbebop.go,
//     for one thread), and the confirmation step, which solves the
//     abstract trail's schedule on the concrete model (its unbounded
//     inputs too); ltl properties are not checked;
//   - RunSpin (spin.go, spin_trail.go): the SPIN second opinion, one SPIN
//     run per search of the plan (translation to Promela, spin, gcc, pan),
//     whose trail or lasso is mapped back to the model and replayed in
//     birch;
//   - ReplayTrail and Simulate: a saved trail, a random execution.
//
// Each search gives a Check, and the Result holds them all. A Check
// states what its verdict rests on (RestsOn: complete, bounded,
// abstracted, under-approximated) and, for a violation, whether its trail
// is confirmed on the model as written. Its verdict is not stored but
// derived from these facts (Check.Verdict): a pass from a bounded or
// under-approximating search, or a failure from an unconfirmed trail,
// cannot be made. The Result's verdict is the worst of its checks.
//
// Limits carries the time limit, the memory limit and Ctrl-C through
// every phase of a run; a phase a limit ends makes an inconclusive check
// that names the limit and the phase.
//
// Nothing here prints: warnings go to Task.Warn, and package cli renders
// a Result as text or JSON (docs/check.md). A new technique is a new step
// here (with its pass or engine in its own package) and one flag in cli;
// docs/architecture.md shows where.
package verify
