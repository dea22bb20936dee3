// Package amcs is concrete search with abstract matching (AMCS): a
// breadth-first search over the concrete states of a model that stores and
// expands only the first concrete state of each abstract state, and the
// refinement loops around it. It implements Pasareanu, Pelanek and Visser's
// AMCS (with its Add-All and No-TP variants) and the GeneralSplitting
// heuristics of Kudra's thesis (MaxOverlap, MinSet, MinOnly), after
// "Finding Termination and Time Improvement in Predicate Abstraction with
// Under-Approximation and Abstract Matching" (BYU, 2007).
//
// It sits beside internal/search: it asks a search.Model for successors
// (the model itself, or the model wrapped with its invariants) and uses
// model.SplitData to split each concrete state into its control part
// (booleans, enums, references, locations: kept concrete) and its integer
// data. An abstract state is the control part plus the valuation of the
// predicates on the data: datum predicates `d > c` (what the heuristics
// add) and, for the AMCS variants, BIR expressions.
//
// # What a run proves
//
// The search is an under-approximation: every behaviour it explores is a
// behaviour of the model, so every violation it finds is real and comes
// with a concrete trail (step ordinals, replayable with search.Replay). A
// round in which every abstract state received one concrete state only
// (compared byte for byte with its representative) and no path was cut is
// a complete concrete search: the only Pass. Anything else is
// Inconclusive, with the abstract states, predicates and rounds.
//
// # Files
//
//   - interface.go: the exported API (Variant, Config, Round, Result).
//   - search.go: one round (Algorithm 4 of the thesis; Algorithm 2 with a
//     refiner): the abstract key, the representatives, the per-state
//     statistics (minimum and maximum of each datum, or MinOnly's minimum
//     and unique flag), violations, limits.
//   - split.go: the heuristics as pure functions over max-min segments
//     (MaxOverlap, MinSet's stabbing and greedy cover, MinOnly's choice).
//   - control.go: the control loop (Algorithms 1 and 3) and the verdicts.
//   - seam.go: the refiner interface the AMCS, AddAll and NoTP variants
//     implement in files of their own.
//
// # Example
//
//	res := amcs.Run(m, search.WithStateCheck(m, inv), amcs.Config{Variant: amcs.MinOnly, Seed: 1})
//	// res.Verdict, res.Trail, res.Rounds[i].AbstractStates, res.Predicates
//	//   e.g. ["x > 3", "Main[1].n > 0"]
package amcs
