package amcs

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"birch/internal/model"
	"birch/internal/search"
)

// runner holds one run: the rounds of the control loop (Algorithm 1 or 3).
type runner struct {
	m     *model.Model
	sm    search.Model
	cfg   Config
	start time.Time
	rng   *rand.Rand

	preds *datumPreds
	ref   refiner
	round int
	// generated counts the concrete states of earlier rounds
	generated int64
	nPreds    int
}

// Run runs cfg.Variant on m; sm is m itself or m wrapped with its
// invariants (search.WithStateCheck), whose Next the search uses.
//
// Each round is a breadth-first search over concrete states that expands
// only the first concrete state of each abstract state (the control part
// and the predicates' valuation). Every violation it meets is real: the
// result's Trail replays on sm. A round in which every abstract state
// received a single concrete state and nothing was cut is a complete
// concrete search: only then is the verdict Pass. Otherwise the variant
// refines the predicates and searches again, until a violation, an exact
// round, predicates that stop changing, MaxRounds or a limit; the last
// three end Inconclusive.
func Run(m *model.Model, sm search.Model, cfg Config) *Result {
	r := &runner{m: m, sm: sm, cfg: cfg, start: time.Now(), preds: &datumPreds{}}
	r.rng = rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	res := &Result{Verdict: search.Inconclusive}
	if cfg.Variant < 0 || cfg.Variant > MinOnly {
		res.Reason = fmt.Sprintf("unknown AMCS variant %d", int(cfg.Variant))
		return res
	}
	if !cfg.Variant.Splitting() || len(cfg.Predicates) > 0 {
		f := exprPredicates
		if !cfg.Variant.Splitting() {
			f = refiners[cfg.Variant]
		}
		if f == nil {
			what := "the " + cfg.Variant.String() + " variant is not built in this birch"
			if cfg.Variant.Splitting() {
				what = "initial predicates (--predicates) with " + cfg.Variant.String() + " are not supported in this birch"
			}
			res.Reason = what
			return res
		}
		ref, err := f(m, &r.cfg)
		if err != nil {
			res.Reason = err.Error()
			return res
		}
		r.ref = ref
		if c, ok := ref.(interface{ close() }); ok {
			defer c.close() // a solver process
		}
	}
	kind := statNone
	switch cfg.Variant {
	case MaxOverlap, MinSet:
		kind = statMinMax
	case MinOnly:
		kind = statMin
	}
	var prev *roundSearch
	for {
		r.round++
		r.nPreds = r.preds.n
		if r.ref != nil {
			r.nPreds += len(r.ref.predicates())
		}
		t0 := time.Now()
		s := newRoundSearch(r, r.preds, r.ref, kind, prev)
		prev = s
		s.run()
		rd := Round{N: r.round, Predicates: r.nPreds, AbstractStates: len(s.states), Eligible: s.eligible,
			Generated: s.generated, Transitions: s.transitions}
		r.generated += s.generated
		res.Rounds = append(res.Rounds, rd)
		res.LimitsHit = s.limitsHit()
		last := &res.Rounds[len(res.Rounds)-1]
		done := r.conclude(s, res)
		if !done {
			added, err := r.refine(s)
			last.Added = added
			switch {
			case err != nil:
				res.Reason = r.under(s, err.Error())
				done = true
			case len(added) == 0:
				res.Reason = r.under(s, "the predicates stopped changing")
				done = true
			}
		}
		s.release()
		if r.ref != nil {
			last.SolverQueries = r.ref.solverQueries()
		}
		last.Seconds = time.Since(t0).Seconds()
		if cfg.Round != nil {
			cfg.Round(*last)
		}
		if done {
			res.Predicates = r.predicateTexts()
			return res
		}
	}
}

// conclude sets the result after round s when the round decides the run
// (a violation, an exact round, a limit, the last round allowed) and
// reports whether it did.
func (r *runner) conclude(s *roundSearch, res *Result) bool {
	last := &res.Rounds[len(res.Rounds)-1]
	switch {
	case s.found:
		res.Verdict = search.Fail
		res.Violation, res.Trail = s.violation, s.trail
		res.Reason = fmt.Sprintf("violation found in round %d (%d abstract states, %d predicates): a concrete trail", r.round, len(s.states), r.nPreds)
		return true
	case s.stopped != "":
		res.Stopped = s.stopped
		res.Reason = r.under(s, "round "+strconv.Itoa(r.round)+" was cut: "+s.stopped)
		return true
	case len(s.limitOrder) > 0:
		if s.eligible == 0 {
			res.Reason = r.under(s, "paths were cut by model bounds (a limit outcome)")
			return true
		}
	case s.eligible == 0:
		last.Exact = true
		res.Verdict, res.Exact = search.Pass, true
		res.Reason = fmt.Sprintf("exact: every abstract state received one concrete state (%d states, %d predicates, %d rounds): a complete concrete search", len(s.states), r.nPreds, r.round)
		return true
	}
	if r.cfg.MaxRounds > 0 && r.round >= r.cfg.MaxRounds {
		res.Reason = r.under(s, fmt.Sprintf("%d abstract states received several concrete states and the round bound (%d) was reached", s.eligible, r.cfg.MaxRounds))
		return true
	}
	if r.cfg.TimeLimit > 0 && time.Since(r.start) >= r.cfg.TimeLimit {
		res.Stopped = fmt.Sprintf("time limit reached (--time-limit=%s)", r.cfg.TimeLimit)
		res.Reason = r.under(s, res.Stopped)
		return true
	}
	if r.cfg.Stop != nil && r.cfg.Stop.Load() {
		res.Stopped = "interrupted"
		res.Reason = r.under(s, res.Stopped)
		return true
	}
	return false
}

// under words an inconclusive verdict after round s.
func (r *runner) under(s *roundSearch, why string) string {
	return fmt.Sprintf("under-approximation: %d abstract states, %d predicates, %d rounds; not exact because %s", len(s.states), r.nPreds, r.round, why)
}

// refine makes the next round's predicates; it returns those it added.
func (r *runner) refine(s *roundSearch) ([]string, error) {
	if !r.cfg.Variant.Splitting() {
		return r.ref.refine(r.round)
	}
	var chosen []datumPred
	var at []int32 // the abstract state each chosen predicate splits, for its name
	switch r.cfg.Variant {
	case MaxOverlap:
		segs := s.segments()
		if p, _, ok := maxOverlap(segs, r.rng); ok {
			chosen = append(chosen, p)
			for _, g := range segs {
				if p.splits(g) {
					at = append(at, int32(g.State))
					break
				}
			}
		}
	case MinSet:
		var states []int
		chosen, states = minSet(s.segments(), r.rng)
		for _, st := range states {
			at = append(at, int32(st))
		}
	case MinOnly:
		var cands []datumPred
		for i := range s.states {
			a := &s.states[i]
			if !a.distinct {
				continue
			}
			cands = cands[:0]
			data := s.dataOf(int32(i))
			for k := int64(0); k < int64(a.nData); k++ {
				if !s.uniq[a.stat+k] {
					cands = append(cands, datumPred{data[k].ID, s.lo[a.stat+k]})
				}
			}
			if p, ok := minOnlyChoice(cands, r.rng); ok {
				chosen = append(chosen, p)
				at = append(at, int32(i))
			}
		}
	}
	var added []string
	for i, p := range chosen {
		if r.preds.has(p) {
			continue
		}
		name := r.m.DataName(s.stateBytes(at[i]), p.ID)
		if name == "" {
			name = fmt.Sprintf("datum#%x", p.ID)
		}
		text := name + " > " + strconv.FormatInt(p.C, 10)
		if r.preds.add(p, text) {
			added = append(added, text)
		}
	}
	return added, nil
}

// segments lists the max-min segments (Lo < Hi) of the eligible abstract
// states.
func (s *roundSearch) segments() []segment {
	var segs []segment
	for i := range s.states {
		a := &s.states[i]
		if !a.distinct {
			continue
		}
		data := s.dataOf(int32(i))
		for k := int64(0); k < int64(a.nData); k++ {
			if lo, hi := s.lo[a.stat+k], s.hi[a.stat+k]; lo < hi {
				segs = append(segs, segment{State: i, ID: data[k].ID, Lo: lo, Hi: hi})
			}
		}
	}
	return segs
}

// dataOf returns the data of abstract state i's representative, whose IDs
// are those of every concrete state of i (they share the control part);
// valid until the next call.
func (s *roundSearch) dataOf(i int32) []model.Datum {
	s.ctrl, s.data = s.m.SplitData(s.stateBytes(i), s.ctrl[:0], s.data[:0])
	return s.data
}

// predicateTexts lists the current predicates: the refiner's expression
// predicates, then the datum predicates.
func (r *runner) predicateTexts() []string {
	var out []string
	if r.ref != nil {
		out = append(out, r.ref.predicates()...)
	}
	return append(out, r.preds.texts()...)
}

// visit calls cfg.Visit for a concrete state generated by round s.
func (r *runner) visit(state []byte, depth int, s *roundSearch) {
	if r.cfg.Visit == nil {
		return
	}
	r.cfg.Visit(state, depth, Counters{Round: r.round, Predicates: r.nPreds, AbstractStates: len(s.states),
		Generated: r.generated + s.generated, Elapsed: time.Since(r.start)})
}
