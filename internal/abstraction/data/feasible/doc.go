// Package feasible decides whether a trail found on an abstract model is a
// real one: it replays the trail's schedule on the concrete model and
// reports it confirmed, with a concrete trail, or not confirmed, with the
// first step where abstract and concrete part ways. It is the off-line
// counter-example analysis of Bandera (section 2.4 of its data abstraction
// paper); the on-line one, the choose-free search, is a mode of package
// search.
//
// It sits after the search of an abstract model (package absgen generates
// the model, package search finds the trail) and before the report: `birch
// check --abstract` uses it when the choose-free search finds no violation.
//
// # Schedules
//
// A Schedule is what the abstract trail fixes: for each step, the thread
// (its index in the pool) and the transformations it takes, as indices into
// the concrete model's Groups, and what the trail ends in (an error of a
// given kind at its last step, or a deadlock). FromTrail builds one from
// the ordinals of an abstract trail and a map from abstract transformations
// to concrete ones; MatchGroups is such a map for models that keep the
// concrete threads, locations and transformation order.
//
// The abstract values the trail took are not part of the schedule's
// requirements: the concrete model computes its own values, and a concrete
// execution that takes the same transformations in the same order and ends
// in the same violation confirms the trail. What the abstract trail chose
// for the environment (an externChoose over tokens) and what abstraction
// added (internChoose for imprecise operations and tests) is re-decided on
// the concrete model: the environment's choices are searched for, the
// abstraction's are replaced by concrete computation. Step.Abstract and
// Config.Agree compare the values too, to prefer concrete executions whose
// values the abstract tokens stand for and to say where the values first
// differ (Result.ValuesDiverge), which is usually where imprecision made
// the abstract trail spurious.
//
// # Two replays
//
// Replay first executes the schedule with the compiled concrete model
// (package model, its exact semantics): a depth-first search over the
// outcomes that fit each step — the values of externChoose and
// internChoose, and any other nondeterminism (notify, forall) — with a
// budget of (state, step) pairs, Config.MaxNodes. Without choices it is a
// plain replay. When the budget is exhausted (a choice over a large range),
// the symbolic replay takes over: choices become integer unknowns, each
// step adds its guard, assumptions, range checks and non-zero divisors to a
// path condition, the last step adds the violation, and the solver
// (package smt) either refutes the path, naming the first step whose
// condition is unsatisfiable, or gives values; a guided replay with the
// compiled model then turns the values into the concrete trail. The
// symbolic replay handles integers, ranges, booleans, enums and arrays of
// them with constant indices, in globals and main threads' locals; for
// other constructs the concrete replay's answer stands, marked incomplete.
// It encodes BIR's runtime checks on them (int overflow, a zero divisor, a
// value out of its range), so a schedule may end in an assertion or in one
// of those errors, which must be the first check of the last step to fail.
//
// A model with unbounded choices (externChoose(int): model.UnboundedChoices)
// cannot be enumerated: it is compiled with no values for them
// (model.Options.ChoiceValues) and Config.Given set, and Replay goes to the
// symbolic replay at once; its solution is replayed on the model compiled
// with the values found, which `birch replay` compiles the same way from
// the values a trail file records. Result.Choices gives each choice's
// value (the trail's inputs). Where the symbolic replay cannot decide (the
// heap, functions, started threads), the concrete replay runs on the
// model whose unbounded choices take only the model's integer constants,
// their neighbours, -1, 0 and 1 (method "sampled"): a trail it finds is
// real, and is then found again on the model given only the values its
// inputs took (Result.Choices names them, as the symbolic replay's); when
// it finds none the replay stays incomplete, and its note says that both
// replays were tried.
//
// # Results
//
//	confirmed (concrete replay, 4 steps)
//	not confirmed: step 3: Main[1] at s2: the assertion holds on the concrete model
//
// A confirmed Result's Trail is a list of ordinals of the concrete model:
// a trail `birch replay` accepts. A Divergence names the step (1-based),
// the thread, its concrete location, the position of the transformation
// and the reason: a guard that is false (with the model's own explanation,
// e.g. `guard x % 2 == 1 is false`), a step that fails differently, an
// assertion that holds, a state that is not a deadlock. Incomplete says
// that a budget or the solver stopped the replay, so that "not confirmed"
// only means no concrete execution was found.
package feasible
