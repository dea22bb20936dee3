package main

import (
	"fmt"
	"sync/atomic"
	"time"

	"birch/internal/amcs"
	"birch/internal/model"
)

// techniques are the compared searches in the column order of the
// thesis's tables.
var techniques = []Technique{
	{Name: "AMCS", run: amcsRun(amcs.AMCS)},
	{Name: "RandDFS", NoPredicates: true, run: randomDFS},
	{Name: "AMCSNoTP", run: amcsRun(amcs.NoTP)},
	{Name: "MinOnly", run: amcsRun(amcs.MinOnly)},
	{Name: "MaxOverlap", run: amcsRun(amcs.MaxOverlap)},
	{Name: "AddAll", run: amcsRun(amcs.AddAll)},
	{Name: "MinSet", run: amcsRun(amcs.MinSet)},
}

// amcsRun runs variant v of internal/amcs: its Visit gives every concrete
// state the search generates (before matching) with its trail's length and
// the run's counters.
func amcsRun(v amcs.Variant) func(cfg *Config, m *model.Model, o *observer, seed uint64) RunSummary {
	return func(cfg *Config, m *model.Model, o *observer, seed uint64) RunSummary {
		r := amcs.Run(m, m, amcs.Config{
			Variant:    v,
			Seed:       seed,
			NoDeadlock: true,
			TimeLimit:  cfg.Time,
			MaxMemory:  cfg.MaxMemory,
			Stop:       &o.stop,
			Visit: func(state []byte, depth int, c amcs.Counters) {
				o.see(state, depth, c.AbstractStates, c.Predicates, c.Round)
			},
		})
		return RunSummary{Rounds: len(r.Rounds), End: amcsEnd(r)}
	}
}

// amcsEnd says why an AMCS run ended.
func amcsEnd(r *amcs.Result) string {
	switch {
	case r.Exact:
		return "exact (complete concrete search)"
	case r.Stopped != "":
		return r.Stopped
	}
	return r.Reason
}

// table21 runs the error-free AMCS search of the thesis's Table 2.1 on m:
// the number of states when the refinement terminates ("no gain" when the
// last round was exact: one concrete state per abstract state, a complete
// concrete search; "A/C" abstract over concrete states when the predicates
// stopped changing before that), or NT when it did not terminate within
// the time bound.
func table21(cfg *Config, m *model.Model, mr *ModelResult) string {
	bound := cfg.Time21
	if bound <= 0 {
		bound = cfg.Time
	}
	var stop atomic.Bool
	timer := time.AfterFunc(bound, func() { stop.Store(true) }) // as runTechnique's
	r := amcs.Run(m, m, amcs.Config{Variant: amcs.AMCS, Seed: cfg.Seed, NoDeadlock: true, TimeLimit: bound, MaxMemory: cfg.MaxMemory, Stop: &stop})
	timer.Stop()
	var last amcs.Round
	if n := len(r.Rounds); n > 0 {
		last = r.Rounds[n-1]
	}
	switch {
	case r.Violation != nil:
		return "violation of the model: " + r.Reason
	case r.Exact:
		return fmt.Sprintf("%d states (no gain)", last.AbstractStates)
	case r.Stopped != "" || stop.Load() || len(r.LimitsHit) > 0:
		return fmt.Sprintf("NT (%d rounds, %d predicates in %s)", len(r.Rounds), last.Predicates, bound)
	case len(r.Rounds) > 0:
		return fmt.Sprintf("%d/%d, predicates stable, not exact (%d rounds)", last.AbstractStates, mr.States, len(r.Rounds))
	}
	return "n/a: " + r.Reason
}
