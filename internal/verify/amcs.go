package verify

import (
	"fmt"
	"strings"

	"birch/internal/abstraction/predicate"
	"birch/internal/amcs"
	"birch/internal/bir/types"
	"birch/internal/search"
	"birch/internal/source"
)

// The check by concrete search with abstract matching (AMCS, docs/amcs.md,
// issue 21): the search explores concrete states breadth-first but does
// not explore a state whose abstraction (its control part and the values
// of the predicates) it has seen; the variant refines the predicates round
// after round. It under-approximates the model: every violation it finds
// is one of the model as written (a concrete trail, replayed on it), and
// it passes only when the final round was exact (every abstract state held
// one concrete state: a complete concrete search).

// AMCS is a check by concrete search with abstract matching.
type AMCS struct {
	Variant amcs.Variant
	// MaxRounds bounds the rounds (0: none).
	MaxRounds int
	// Seed breaks the ties of the heuristics (--seed).
	Seed uint64
	// File: a predicate file of initial predicates (--predicates FILE
	// with --amcs), or "".
	File   string
	Solver string // the solver of the amcs and addall variants ("": the default)
	// ReadFile reads File (nil: os.ReadFile).
	ReadFile ReadFunc
	// Round, when not nil, receives each round as it ends (progress lines).
	Round func(amcs.Round)

	preds []*predicate.Predicate // File's, read by Run
}

// AMCSInfo describes a check by abstract matching: the variant, whether
// the last round was exact, the rounds, the final predicates.
type AMCSInfo struct {
	Variant string
	Exact   bool
	Rounds  []amcs.Round
	// Predicates: the final predicates, as text.
	Predicates []string
	// AbstractStates: the abstract states of the last round.
	AbstractStates int
	// Why: why the check is not exact ("" when exact or with a violation).
	Why string
}

// amcsTechnique checks safety by abstract matching; ltl properties are not
// checked.
type amcsTechnique struct{ models modelCache }

// newAMCSTechnique checks the options of t.AMCS and reads its predicate
// file.
func newAMCSTechnique(t *Task) (*amcsTechnique, error) {
	if t.Cegar != nil || t.Predicates != nil || t.Abstraction != nil {
		return nil, usagef("--amcs searches the model as written: give no --cegar, --abstract or --abstractions with it (--predicates FILE gives its initial predicates)")
	}
	a := t.AMCS
	if a.MaxRounds < 0 {
		return nil, usagef("bad --amcs-rounds %d (want 0, no bound, or more)", a.MaxRounds)
	}
	if t.Search.ChooseFree || t.Search.MaxDepth > 0 {
		return nil, usagef("--amcs explores every step breadth-first: --choose-free and --max-depth do not apply")
	}
	a.preds = nil
	if a.File != "" {
		src, err := readPredicates(t.Input, a.ReadFile, a.File)
		if err != nil {
			return nil, err
		}
		f, err := predicate.ParseFile(t.Input.Prog, a.File, src)
		if err != nil {
			return nil, err
		}
		if err := noRecordPreds(t.Input.Prog, f, "--amcs"); err != nil {
			return nil, err
		}
		a.preds = f.Predicates
	}
	return &amcsTechnique{models: modelCache{t: t}}, nil
}

func (a *amcsTechnique) name() string { return "amcs" }

func (a *amcsTechnique) safetyProperties(invs []*types.Property) []*Property {
	return safetyProperties(invs, a.models.t.Search.NoDeadlock)
}

func (a *amcsTechnique) ltl(t *Task, p *ltlProperty) (*Check, error) {
	why := "abstract matching searches for reachable violations (assertions, runtime errors, deadlocks, invariants); it does not check ltl properties"
	c := &Check{Properties: []*Property{p.Property}, Search: a.name(), Reason: "not checked: " + why}
	c.RestsOn = RestsOn{{Bounded, "no search: " + why}}
	return c, nil
}

func (a *amcsTechnique) safety(t *Task, props []*Property, invs []*types.Property) (*Check, error) {
	m, stopped, err := a.models.get(t.Input, false)
	if err != nil {
		return nil, err
	}
	c := &Check{Properties: props, Search: a.name()}
	if stopped != "" {
		return c.stop(PhaseModel, stopped), nil
	}
	sm, err := safetyModel(m, invs)
	if err != nil {
		return nil, err
	}
	o, cfg := t.AMCS, t.Search
	lim := t.limits()
	ac := amcs.Config{
		Variant: o.Variant, Seed: o.Seed, Predicates: o.preds, Solver: o.Solver, Round: o.Round,
		NoDeadlock: cfg.NoDeadlock, LimitError: cfg.LimitError, MaxRounds: o.MaxRounds,
		MaxStates: cfg.MaxStates, MaxMemory: cfg.MaxMemory, TimeLimit: cfg.TimeLimit, Stop: cfg.Stop,
	}
	// the deepest concrete state of the last round
	depthRound, maxDepth := 0, 0
	ac.Visit = func(_ []byte, depth int, n amcs.Counters) {
		if n.Round != depthRound {
			depthRound, maxDepth = n.Round, 0
		}
		if depth > maxDepth {
			maxDepth = depth
		}
	}
	release := func() {}
	if o.Variant.Splitting() {
		// the search counts what it holds: its states and statistics
		release = lim.StartSearch()
	} else {
		// the WP variants' predicates, caches and solver grow outside
		// the search's count (No-TP's predicates without bound)
		lim.StartWatchedSearch()
	}
	r := amcsRun(m, sm, ac)
	release()
	if r.Stopped != "" {
		if lr := lim.Reason(); lr != "" {
			r.Stopped = lr // the limit's own words (the time limit's flag, say)
		}
		if r.Violation == nil {
			r.Reason = r.Stopped
		}
	}
	info := &AMCSInfo{Variant: o.Variant.String(), Exact: r.Exact && r.Violation == nil, Rounds: r.Rounds, Predicates: r.Predicates}
	sres := &search.Result{Verdict: r.Verdict, Violation: r.Violation, Trail: r.Trail, LimitsHit: r.LimitsHit, Stopped: r.Stopped,
		Reason: r.Reason, Complete: info.Exact && r.Stopped == ""}
	if n := len(r.Rounds); n > 0 {
		last := r.Rounds[n-1]
		info.AbstractStates = last.AbstractStates
		sres.Stats.States, sres.Stats.Transitions = last.AbstractStates, last.Transitions
		for _, rd := range r.Rounds {
			sres.Stats.Seconds += rd.Seconds
		}
		if depthRound == last.N {
			sres.Stats.MaxDepth = maxDepth
		}
	}
	scfg := cfg
	scfg.ChooseFree, scfg.MaxDepth = false, 0
	if err := c.fromSearch(t.Input, m, scfg, sres); err != nil {
		return nil, err
	}
	c.AMCS = info
	// explored: an exact round, complete (within the bounds of the model,
	// which RestsOn lists); a round that is not exact dropped states
	c.Explored = sres.Complete
	what := fmt.Sprintf("abstract matching: %d abstract states, %d %s, %d %s", info.AbstractStates,
		len(r.Predicates), plural(len(r.Predicates), "predicate", "predicates"), len(r.Rounds), plural(len(r.Rounds), "round", "rounds"))
	switch {
	case r.Violation != nil:
		// a concrete trail, replayed on the model by fromSearch: confirmed
		c.Reason = r.Violation.Kind.String() + ": " + r.Violation.Msg
		c.RestsOn = append(c.RestsOn, Basis{UnderApproximated, what + "; the violation's trail is concrete"})
	case len(r.Rounds) == 0 && r.Stopped == "":
		// no round ran (a variant or an option this birch lacks)
		c.Explored, c.Reason = false, "not checked: "+r.Reason
		c.RestsOn = append(c.RestsOn, Basis{Bounded, "no search: " + r.Reason})
	case info.Exact && r.Stopped == "" && len(c.RestsOn) == 0:
		c.Reason = fmt.Sprintf("no violation: the abstract matching was exact: a complete concrete search of %d states", info.AbstractStates)
		c.RestsOn = RestsOn{{Complete, "a complete concrete search: the final abstraction was one-to-one"}}
	default:
		info.Exact = false
		info.Why = amcsWhy(r)
		if r.Stopped == "" {
			c.Reason = "no violation found, but abstract matching under-approximates: " + info.Why
		}
		c.RestsOn = append(c.RestsOn, Basis{UnderApproximated, what + "; not exact because " + info.Why})
	}
	return c, nil
}

// amcsRun is amcs.Run (tests give results that amcs may not).
var amcsRun = amcs.Run

// notExact introduces the reason in amcs's words ("under-approximation:
// N abstract states, ...; not exact because WHY").
const notExact = "not exact because "

// amcsWhy says why a run without a violation was not exact.
func amcsWhy(r *amcs.Result) string {
	switch {
	case r.Stopped != "":
		return "a limit stopped the last round: " + r.Stopped
	case len(r.LimitsHit) > 0:
		return "a bound of the model cut paths: " + r.LimitsHit[0].Msg
	case strings.Contains(r.Reason, notExact):
		return r.Reason[strings.Index(r.Reason, notExact)+len(notExact):]
	case r.Reason != "":
		return r.Reason
	}
	return "some abstract state matched more than one concrete state"
}

// noRecordPreds reports each `[record T]` predicate of f at its position,
// for the technique of the flag mode: abstract matching's and the
// refinement's predicates are expressions over globals and frames, with no
// value per object.
func noRecordPreds(prog *types.Program, f *predicate.File, mode string) error {
	var list source.ErrorList
	for _, p := range f.Predicates {
		if p.Record != nil {
			list.Add(prog.Fset.Position(p.Expr.Pos()), mode+" reads predicates over globals, threads and functions; a [record "+p.Record.String()+"] predicate is for --on-the-fly")
		}
	}
	return list.Err()
}
