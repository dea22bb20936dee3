package amcs

import "birch/internal/model"

// refiner is the seam of the variants that refine expression predicates:
// AMCS, AddAll and NoTP (Algorithms 1 and 2 of the thesis). They live in
// files of their own (helper amcswp) that fill refiners in an init
// function; until they do, Run answers inconclusive for them.
//
// The search (search.go) owns the concrete breadth-first search, the
// matching, the trails, the verdicts and the limits; a refiner only adds
// bits to the abstract key and watches the search:
//
//   - appendKey appends the valuation of the refiner's expression
//     predicates on a concrete state; the key already holds the control
//     part and the datum predicates, so the refiner's bits need only be a
//     deterministic function of the state (a local-scope predicate once per
//     live frame of its proc, in frame order).
//   - expand is called once per expanded representative, before its
//     successors are generated (guard predicates: Algorithm 2, lines 5-7 and
//     18-20, look at the transitions a state does not enable).
//   - step is called for every OK successor (Algorithm 2, line 10: the
//     precision check α(s) ⇒ WP(α(s'), i) of the transition src -> st.State;
//     st.Groups names the transformations executed). st and its slices are
//     valid only during the call.
//   - refine is called after a round that found no violation, was not exact
//     and was not cut by a limit; it makes the next round's predicates
//     (Φ_new) current and returns them as text. None added means Φ is stable:
//     the run ends inconclusive (the thesis's "unreachable" is a pass only
//     when the round was exact).
//   - predicates lists the current predicates as text; solverQueries
//     counts the solver queries since the last call (per round).
//
// A refiner's methods are called from one goroutine. Errors (a solver that
// cannot be started, a predicate WP does not support) come back from the
// factory or from refine and end the run inconclusive with their text.
type refiner interface {
	appendKey(key, state []byte) []byte
	expand(state []byte)
	step(src []byte, st *model.Step)
	refine(round int) (added []string, err error)
	predicates() []string
	solverQueries() int
}

// memoryReporter is a refiner that says how many bytes it holds (its
// predicates, caches): --max-memory counts them with the round's search, so
// that a refiner whose predicates keep growing (No-TP) ends the run
// inconclusive at the limit instead of exhausting memory. The search asks
// before its first expansion and every 16 (every one with a refiner).
type memoryReporter interface {
	memory() int64
}

// refinerFactory builds the refiner of a run of cfg.Variant on m, starting
// from cfg.Predicates.
type refinerFactory func(m *model.Model, cfg *Config) (refiner, error)

// refiners holds the factory of each refining variant (AMCS, AddAll, NoTP);
// a nil entry is a variant not built.
var refiners [NoTP + 1]refinerFactory

// exprPredicates, when set, builds a refiner that only evaluates
// cfg.Predicates (refine adds nothing): the initial expression predicates of
// a GeneralSplitting run (Algorithm 3 starts from a given Φ). When it is nil
// such a run answers inconclusive.
var exprPredicates refinerFactory
