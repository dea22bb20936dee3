package verify

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"birch/internal/abstraction/data/feasible"
	"birch/internal/abstraction/predicate"
	"birch/internal/abstraction/predicate/c2bp"
	"birch/internal/abstraction/refine"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
)

// The check by counterexample-guided refinement (docs/cegar.md, issue 19)
// wraps the check with predicate abstraction (predicate.go): each round
// abstracts the model with the predicates so far and checks the
// abstraction as predicateTechnique does; before an abstract violation is
// confirmed, its schedule's path formula is decided (refine.Refine). A
// satisfiable one goes on to the confirmation of the predicate check (a
// concrete trail with its input values); an unsatisfiable one gives new
// predicates (refine's Choose) for the next round. The rounds share the
// cache of the abstraction's solver queries. The loop stops with a pass
// (a proof over the final predicates), a confirmed failure, or
// inconclusive with the reason.

// Cegar is a check by counterexample-guided refinement of a predicate
// abstraction (docs/cegar.md).
type Cegar struct {
	// File: a predicate file to start from besides the seed (--predicates
	// FILE with --cegar), or "".
	File string
	// MaxRefinements bounds the refinements (0: DefaultMaxRefinements;
	// negative: none, one abstraction only).
	MaxRefinements int
	CubeLength     int    // as PredicateAbstraction's
	Engine         string // as PredicateAbstraction's
	Solver         string // of the abstraction, the path formulas and the confirmation
	// ReadFile reads File (nil: os.ReadFile).
	ReadFile ReadFunc
	// Round, when not nil, receives each round as it ends (progress lines).
	Round func(CegarRound)
}

// DefaultMaxRefinements is --max-refinements' default.
const DefaultMaxRefinements = 50

// CegarRound is one round of the loop: an abstraction, its check, and
// what became of its violation.
type CegarRound struct {
	Round      int `json:"round"`
	Predicates int `json:"predicates"`
	// AbstractStates: the explicit engine's states (BDDNodes: bebop's).
	AbstractStates int `json:"abstract_states"`
	BDDNodes       int `json:"bdd_nodes,omitempty"`
	// Queries: the solver queries of the abstraction (cache misses) and
	// of the path formula's decision; CacheHits: the abstraction's queries
	// answered by the cache (of this round or an earlier one).
	Queries   int `json:"solver_queries"`
	CacheHits int `json:"cache_hits"`
	// SolverSeconds: the time of those queries.
	SolverSeconds float64 `json:"solver_seconds"`
	Seconds       float64 `json:"elapsed_seconds"` // since the loop started
	// Outcome: "pass", "fail" (confirmed), "spurious" (refined),
	// "inconclusive" (the loop stopped).
	Outcome string `json:"outcome"`
	// Why: for a spurious trail, the step that cannot be taken.
	Why string `json:"why,omitempty"`
	// Added: the new predicates of a spurious trail.
	Added []string `json:"added,omitempty"`
}

// CegarInfo describes a check by refinement.
type CegarInfo struct {
	Rounds []CegarRound
	// Predicates: the final predicates in the predicate-file format
	// (the seed, the file given, and those the rounds added, each with
	// where it came from in a comment).
	Predicates string
	Count      int // the final predicates
	// Stop: why the loop ended without a verdict ("" for pass and fail).
	Stop string
}

// cegarTechnique is the refinement loop; the predicate technique's name,
// properties and ltl (not checked) serve it as they are.
type cegarTechnique struct{ predicateTechnique }

// runCegar checks the plan pl by refinement.
func runCegar(t *Task, pl *plan) (*Result, error) {
	if t.Predicates != nil || t.Abstraction != nil {
		return nil, usagef("--cegar finds the predicates itself: give --predicates FILE with it to start from, and no --abstract/--abstractions")
	}
	cg := t.Cegar
	// the options are checked as the predicate technique's are
	t.Predicates = &PredicateAbstraction{CubeLength: cg.CubeLength, Engine: cg.Engine, Solver: cg.Solver}
	p, err := newPredicateTechnique(t)
	if err != nil {
		return nil, err
	}
	return runPlan(t, pl, &cegarTechnique{*p})
}

func (g *cegarTechnique) safety(t *Task, props []*Property, invs []*types.Property) (*Check, error) {
	cg, opts := t.Cegar, *t.Predicates
	prog := t.Input.Prog
	text, err := cegarStart(t)
	if err != nil {
		return nil, err
	}
	max := cg.MaxRefinements
	switch {
	case max == 0:
		max = DefaultMaxRefinements
	case max < 0:
		max = 0
	}
	start := time.Now()
	info := &CegarInfo{}
	cache := predicate.NewQueryCache()
	spurious := map[string]bool{} // the schedules refuted so far
	finish := func(c *Check, count int, stop string) *Check {
		info.Predicates, info.Count, info.Stop = text, count, stop
		c.Cegar = info
		if stop != "" && c.Stopped == nil {
			c.Reason = "the refinement stopped: " + stop
		}
		return c
	}
	for round := 1; ; round++ {
		var ref *refine.Result
		var refErr error
		var sched feasible.Schedule
		var spuriousAt *Divergence // where the path formula is infeasible
		pa := opts
		pa.File = fmt.Sprintf("the refinement (round %d)", round)
		pa.ReadFile = func(string) ([]byte, error) { return []byte(text), nil }
		pa.cache = cache
		pa.decide = func(am *abstractModel, sc feasible.Schedule, steps []int) bool {
			sched = sc
			release := t.limits().StartSearch()
			ref, refErr = refine.Refine(am.concM, sc, refine.Config{Solver: opts.Solver, Context: t.limits().Ctx})
			release()
			if refErr == nil && ref.Status == refine.Infeasible && ref.Step >= 1 && ref.Step <= len(steps) {
				why := ref.Why // "step K: ...", K a step of the schedule
				if i := strings.Index(why, ": "); strings.HasPrefix(why, "step ") && i >= 0 {
					why = why[i+2:]
				}
				spuriousAt = &Divergence{Step: steps[ref.Step-1] + 1, Reason: "the path formula is unsatisfiable here: " + why}
			}
			// the confirmation replays every trail not known to be
			// spurious: a feasible one, and one the path formula cannot
			// encode or decide (the replay may still confirm it)
			return refErr != nil || ref.Status != refine.Infeasible
		}
		t.Predicates = &pa
		p := &predicateTechnique{t: t}
		if err := p.build(); err != nil {
			return nil, err
		}
		if p.check != nil { // a limit, or a construct c2bp does not abstract soundly
			c := *p.check
			c.Properties = props
			r := CegarRound{Round: round, Outcome: "inconclusive", Seconds: time.Since(start).Seconds()}
			info.Rounds = append(info.Rounds, r)
			if cg.Round != nil {
				cg.Round(r)
			}
			return finish(&c, 0, c.Reason), nil
		}
		carried := invs[:0:0]
		var dropped []string
		for _, inv := range invs {
			if len(p.am.abstractProperties([]*types.Property{inv})) == 1 {
				carried = append(carried, inv)
			} else {
				dropped = append(dropped, inv.Name())
			}
		}
		c, err := searchPredicateSafety(t, p.am, props, carried)
		if err != nil {
			return nil, err
		}
		count := len(p.am.pred.out.Predicates)
		r := CegarRound{Round: round, Predicates: count, AbstractStates: c.Stats.States,
			Queries: c.Predicates.Stats.Queries, CacheHits: c.Predicates.Stats.CacheHits}
		if c.Predicates.Engine.Name == bebopEngine {
			r.AbstractStates, r.BDDNodes = 0, c.Predicates.Engine.BDDNodes
		}
		r.SolverSeconds = c.Predicates.Stats.SolverTime.Seconds()
		if ref != nil {
			r.Queries += ref.Queries
			r.SolverSeconds += ref.SolverTime.Seconds()
		}
		report := func(outcome string) {
			r.Outcome, r.Seconds = outcome, time.Since(start).Seconds()
			info.Rounds = append(info.Rounds, r)
			if cg.Round != nil {
				cg.Round(r)
			}
		}
		v := c.Violation
		switch {
		case c.Verdict() == Pass && len(dropped) > 0:
			why := "the predicate abstraction does not carry the invariant " + strings.Join(dropped, ", ")
			c.RestsOn = append(c.RestsOn, Basis{Bounded, "not checked: " + why})
			report("inconclusive")
			return finish(c, count, why), nil
		case c.Verdict() == Pass:
			report("pass")
			return finish(c, count, ""), nil
		case c.Verdict() == Fail:
			report("fail")
			return finish(c, count, ""), nil
		case c.Stopped != nil:
			report("inconclusive")
			return finish(c, count, c.Stopped.Reason), nil
		case v == nil:
			report("inconclusive")
			return finish(c, count, c.Reason), nil
		}
		if refErr == nil && ref != nil && ref.Status == refine.Feasible && len(carried) == 0 {
			// the predicate check's replay did not confirm a path the
			// solver satisfies: replay it with the solver's values
			if err := confirmByPath(t, p.am, c, ref); err != nil {
				return nil, err
			}
			if c.Verdict() == Fail {
				report("fail")
				return finish(c, count, ""), nil
			}
		}
		stop := cegarStop(t, ref, refErr)
		if stop == "" {
			v.Confirmation.Diverges = spuriousAt
			key := fmt.Sprint(sched)
			switch {
			case spurious[key]:
				stop = "a repeated spurious trail: the abstraction with the new predicates still has the trail of an earlier round" + callNote(prog)
			case round > max:
				stop = fmt.Sprintf("the refinement limit (--max-refinements %d)", max)
			}
			spurious[key] = true
		}
		if stop == "" {
			existing := p.am.pred.file.Predicates
			chosen, refuted, err := ref.Choose(prog, existing, refine.Config{Solver: opts.Solver, Context: t.limits().Ctx})
			if err != nil {
				// Refutes cannot follow the path on the predicates (a
				// thread type with two instances, say): both methods'
				// fresh predicates, and the repeated-trail stop ends a
				// loop that they do not move on
				if fresh, ferr := refine.Fresh(prog, existing, ref.Predicates()); ferr == nil {
					chosen, refuted, err = fresh, true, nil
				}
			}
			chosen = abstractable(prog, chosen)
			switch {
			case err != nil:
				stop = "the new predicates: " + err.Error()
			case len(chosen) == 0:
				stop = "no new predicate: neither Newton nor interpolation finds one the abstraction lacks (" + ref.Why + ")" + callNote(prog)
			case !refuted:
				stop = "no new predicate rules the trail out (" + ref.Why + ")" + callNote(prog)
			}
			if stop == "" {
				r.Why = ref.Why
				if spuriousAt != nil {
					// the step of the abstract trail, as the report numbers it
					r.Why = fmt.Sprintf("step %d: %s", spuriousAt.Step, strings.TrimPrefix(spuriousAt.Reason, "the path formula is unsatisfiable here: "))
				}
				for _, pr := range chosen {
					r.Added = append(r.Added, pr.String())
				}
				if name, n := widest(prog, text+refine.FileText(chosen)); n > maxPredicatesPerName {
					stop = fmt.Sprintf("the predicate limit: %d predicates would read %s (more than %d: one abstract step that writes it may expand into 2^%d valuations, which exhausts the engines)", n, name, maxPredicatesPerName, n)
					r.Why, r.Added = "", nil
				} else {
					text += refine.FileText(chosen)
					report("spurious")
					continue
				}
			}
		}
		if lr := t.limits().Reason(); lr != "" {
			c.stop(PhaseSynthesis, lr)
			stop = lr
		}
		report("inconclusive")
		return finish(c, count, stop), nil
	}
}

// cegarStop is why the loop cannot go on from the decision of a path
// formula, or "" when the path is infeasible.
func cegarStop(t *Task, ref *refine.Result, err error) string {
	if lr := t.limits().Reason(); lr != "" {
		return lr
	}
	if err != nil {
		if u, ok := err.(*refine.UnsupportedError); ok {
			return "an unsupported construct: the path formula cannot encode the trail: " + u.Error()
		}
		return "the refinement failed: " + err.Error()
	}
	if ref == nil {
		return "the abstract violation has no schedule to refine"
	}
	switch ref.Status {
	case refine.Unknown:
		why := "the solver could not decide the path formula"
		if ref.Reason != "" && !strings.Contains(ref.Reason, why) {
			why += ": " + ref.Reason
		}
		return why
	case refine.Feasible:
		return "the path formula is satisfiable, but the replay on the concrete model does not confirm the trail"
	}
	return ""
}

// cegarStart is the predicate file of the first round: the predicates of
// t.Cegar.File, then the seed's (refine.Seed) that it does not hold.
func cegarStart(t *Task) (string, error) {
	cg, prog := t.Cegar, t.Input.Prog
	seed, err := refine.Seed(prog)
	if err != nil {
		return "", errorf("birch: the refinement's first predicates: %v", err)
	}
	seed = abstractable(prog, seed)
	if cg.File == "" {
		return refine.FileText(seed), nil
	}
	src, err := readPredicates(t.Input, cg.ReadFile, cg.File)
	if err != nil {
		return "", err
	}
	f, err := predicate.ParseFile(prog, cg.File, src)
	if err != nil {
		return "", err
	}
	if err := noRecordPreds(prog, f, "--cegar"); err != nil {
		return "", err
	}
	fresh, err := refine.Fresh(prog, f.Predicates, seed)
	if err != nil {
		return "", errorf("birch: the refinement's first predicates: %v", err)
	}
	text := string(src)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text + refine.FileText(fresh), nil
}

// callNote says, for a model with functions, which facts relating a
// callee's result to its caller's variables the return predicates carry.
func callNote(prog *types.Program) string {
	if len(prog.Functions) == 0 {
		return ""
	}
	return " (the model has calls: a callee's result reaches its caller's predicates only through return predicates, those over the result's variable and arguments passed whole, in a model of one thread)"
}

// confirmByPath confirms c's abstract violation, whose path formula ref
// satisfies, by replaying the path with the solver's input values
// (refine's Path.Confirm): c becomes the confirmed violation when the
// replay ends in it, and stays as it is otherwise. Only for checks without
// invariants (Confirm ends in the schedule's error, not an invariant's
// check).
func confirmByPath(t *Task, am *abstractModel, c *Check, ref *refine.Result) error {
	// the abstract trail takes the steps of an invisible run one by one
	// (the abstraction keeps no run together): so does the replay
	var m *model.Model
	var values []int64
	ords, err := ref.Path.Confirm(ref.Decision, func(vs []int64) (*model.Model, error) {
		mo := t.Model
		mo.ExposeInvisible = true
		if am.pred.unbounded || model.WideRanges(am.conc.Prog, mo.MaxChoiceRange) {
			mo.ChoiceValues, values = append([]int64{}, vs...), vs
		}
		var err error
		m, err = model.New(am.conc.Prog, mo)
		return m, err
	})
	if err != nil {
		return nil // not confirmed: the loop says so
	}
	var cs []feasible.Choice
	for _, in := range ref.Inputs {
		cs = append(cs, feasible.Choice{Step: in.Step, Pos: in.Pos, Value: in.Value})
	}
	x := *am
	x.concM = m
	fr := &feasible.Result{Confirmed: true, Trail: ords, Method: "path formula", Choices: cs}
	if err := x.confirm(c, m, &search.Violation{}, fr); err != nil {
		return err
	}
	if v := c.Violation; v != nil && v.Confirmation.Confirmed {
		v.Inputs = choiceInputs(am.conc, cs)
		v.ChoiceValues = values
	}
	return nil
}

// abstractable leaves out the predicates over the locals of a thread that
// may have several instances, which C2bp cannot abstract (fewer
// predicates: a coarser abstraction, never an unsound one).
func abstractable(prog *types.Program, ps []refine.Predicate) []refine.Predicate {
	out := ps[:0:0]
	for _, p := range ps {
		if p.Proc != nil && p.Proc.Thread && c2bp.OneInstance(prog, p.Proc) != "" {
			continue
		}
		out = append(out, p)
	}
	return out
}

// maxPredicatesPerName bounds the predicates that read one name: the
// explicit engine expands an abstract step into every valuation of the
// predicates it leaves open, and past about 16 predicates over the
// variables one step writes that exhausts memory (docs/cegar.md).
const maxPredicatesPerName = 16

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// widest returns the name (a variable or field, constants left out, the
// same name in several scopes counted once) that the most predicates of
// the predicate file text read, and how many.
func widest(prog *types.Program, text string) (string, int) {
	count := map[string]int{}
	for _, line := range strings.Split(text, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if i := strings.IndexByte(line, ']'); i >= 0 {
			line = line[i+1:]
		}
		seen := map[string]bool{}
		for _, id := range identRE.FindAllString(line, -1) {
			if _, ok := prog.Lookup(id).(*types.Const); ok || id == "null" || id == "true" || id == "false" || seen[id] {
				continue
			}
			seen[id] = true
			count[id]++
		}
	}
	best, n := "", 0
	for id, c := range count {
		if c > n || c == n && id < best {
			best, n = id, c
		}
	}
	return best, n
}
