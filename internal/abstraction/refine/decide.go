package refine

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"time"

	"birch/internal/abstraction/data/feasible"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/smt"
	"birch/internal/smt/solvers"
	"birch/internal/source"
)

// Config configures Decide and Refine; its zero value works.
type Config struct {
	// Solver names the solver (smt/solvers); "" is the embedded one.
	Solver string
	// Context, when not nil, stops the queries (they answer unknown).
	Context context.Context
	// Steps bounds the work of each query (smt.Limit.Steps); 0 means
	// 200000.
	Steps int64
	// MaxCases bounds the case splits of interpolation (the product of
	// the disjunctions of the path formula it enumerates); 0 means 64.
	MaxCases int
	// MaxMinimize bounds the queries that shrink the unsat core (one per
	// conjunct tried); 0 means 200.
	MaxMinimize int
	// MaxValuations bounds the valuations of the predicates Refutes
	// enumerates over the whole path; 0 means 20000. Past it, Refutes
	// answers ErrUndecided.
	MaxValuations int
}

// Status is what Decide found.
type Status int

// The answers of Decide.
const (
	Unknown    Status = iota // the solver could not decide
	Feasible                 // the path formula is satisfiable
	Infeasible               // it is not
)

func (s Status) String() string {
	return [...]string{"unknown", "feasible", "infeasible"}[s]
}

// Input is the value one choice of the path takes in a model of a feasible
// path formula.
type Input struct {
	Step  int        // the 1-based step of the choice
	Pos   source.Pos // the choice action (its keyword)
	Value int64      // booleans are 0 and 1, enums their ordinals
}

// Decision is the answer of Decide.
type Decision struct {
	Status Status
	// Reason says why the answer is Unknown.
	Reason string
	// Inputs, for a feasible path, are the values of its choices, in order.
	Inputs []Input
	// Step, for an infeasible path, is the end of its shortest infeasible
	// prefix (1-based): the steps before it can be taken, it cannot.
	Step int
	// Why says what of Step fails: its guard, an assumption, a check, or
	// the violation.
	Why string
	// Core is a minimal subset (within Config.MaxMinimize queries) of the
	// conjuncts of the steps up to Step that is unsatisfiable with the
	// definitions of the path.
	Core []*Conjunct
	// Queries counts the solver's queries, and SolverTime the wall-clock
	// time they took.
	Queries    int
	SolverTime time.Duration

	model *smt.Model
}

// Decide decides the path formula with the solver: Feasible with the
// values of the path's choices, Infeasible with the shortest infeasible
// prefix and an unsat core, or Unknown.
func (p *Path) Decide(cfg Config) (*Decision, error) {
	s, err := p.newSolver(cfg)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	for _, d := range p.defs {
		s.Assert(p.tm.Eq(d.c, d.v))
	}
	for _, f := range p.facts {
		s.Assert(f.c)
	}
	for _, c := range p.Conjuncts {
		s.Assert(p.tm.Implies(c.lit, c.Term))
	}
	d := &Decision{}
	check := func(lits []*smt.Term) smt.Result {
		d.Queries++
		start := time.Now()
		r, err := s.CheckAssumptions(lits)
		d.SolverTime += time.Since(start)
		if err != nil {
			return smt.Unknown
		}
		return r
	}
	all := p.lits(len(p.sched.Steps))
	switch check(all) {
	case smt.Unknown:
		d.Reason = "the solver could not decide the path formula"
		return d, nil
	case smt.Sat:
		mdl, err := s.Model()
		if err != nil {
			d.Reason = "the solver gave no model"
			return d, nil
		}
		d.Status, d.model = Feasible, mdl
		for _, c := range p.choices {
			v, err := mdl.Eval(c)
			if err != nil {
				d.Status, d.Reason = Unknown, "the solver gave no value to a choice"
				return d, nil
			}
			n, ok := v.Int64()
			if v.IsBool() {
				n, ok = 0, true
				if v.Op() == smt.OpTrue {
					n = 1
				}
			}
			if !ok {
				d.Status, d.Reason = Unknown, "a choice's value is not an int"
				return d, nil
			}
			sv := p.vars[c]
			d.Inputs = append(d.Inputs, Input{Step: sv.step, Pos: sv.pos, Value: n})
		}
		return d, nil
	}
	// the shortest infeasible prefix: prefixes grow monotonically
	lo, hi := 1, len(p.sched.Steps)
	for lo < hi {
		mid := (lo + hi) / 2
		switch check(p.lits(mid)) {
		case smt.Unsat:
			hi = mid
		case smt.Sat:
			lo = mid + 1
		default:
			d.Reason = "the solver could not decide a prefix of the path formula"
			return d, nil
		}
	}
	d.Status, d.Step = Infeasible, hi
	if check(p.lits(hi)) != smt.Unsat {
		d.Status, d.Reason = Unknown, "the solver could not decide the infeasible prefix again"
		return d, nil
	}
	core, err := s.UnsatCore()
	if err != nil {
		d.Status, d.Reason = Unknown, "the solver gave no unsat core"
		return d, nil
	}
	core = p.minimize(core, check, cfg)
	byLit := map[*smt.Term]*Conjunct{}
	for _, c := range p.Conjuncts {
		byLit[c.lit] = c
	}
	for _, l := range core {
		d.Core = append(d.Core, byLit[l])
	}
	sort.Slice(d.Core, func(i, j int) bool { return p.index(d.Core[i]) < p.index(d.Core[j]) })
	d.Why = p.why(d)
	return d, nil
}

func (p *Path) index(c *Conjunct) int {
	for i, x := range p.Conjuncts {
		if x == c {
			return i
		}
	}
	return -1
}

// minimize drops conjuncts from an unsat core while it stays unsat:
// chunks of half the core first, then of a quarter, down to single
// conjuncts (the solver's cores carry many checks the proof does not
// need, which go together in a few queries), within Config.MaxMinimize
// queries.
func (p *Path) minimize(core []*smt.Term, check func([]*smt.Term) smt.Result, cfg Config) []*smt.Term {
	budget := cfg.MaxMinimize
	if budget <= 0 {
		budget = 200
	}
	core = append([]*smt.Term(nil), core...)
	for chunk := max(len(core)/2, 1); chunk >= 1 && budget > 0; chunk /= 2 {
		for i := 0; i < len(core) && budget > 0; {
			end := min(i+chunk, len(core))
			budget--
			try := append(append([]*smt.Term(nil), core[:i]...), core[end:]...)
			if check(try) == smt.Unsat {
				core = try
			} else {
				i = end
			}
		}
	}
	return core
}

// why describes the failing part of the infeasible step.
func (p *Path) why(d *Decision) string {
	var last *Conjunct
	for _, c := range d.Core {
		if c.Step == d.Step {
			last = c
		}
	}
	th := p.threadAt(d.Step)
	if last == nil {
		return th + ": the step cannot be taken"
	}
	switch last.Kind {
	case Guard:
		return th + ": guard " + last.Text + " is false"
	case Assume:
		return th + ": " + last.Text + " is false"
	case Domain:
		return th + ": " + last.Text + " has no value that fits"
	case Check:
		return th + ": " + last.Text + " fails"
	}
	return th + ": the step does not end in " + p.sched.End.Error.String()
}

// threadAt names the thread of a 1-based step and its location before it.
func (p *Path) threadAt(step int) string {
	st := p.sched.Steps[step-1]
	ts := p.threads[step-1][st.Thread]
	return fmt.Sprintf("step %d: %s[%d] at %s", step, ts.proc.Name(), st.Thread+1, ts.loc.Name())
}

// lits are the activation literals of the conjuncts of steps 1..k.
func (p *Path) lits(k int) []*smt.Term {
	var out []*smt.Term
	for _, c := range p.Conjuncts {
		if c.Step <= k {
			out = append(out, c.lit)
		}
	}
	return out
}

// newSolver returns a solver of the path's terms, configured.
func (p *Path) newSolver(cfg Config) (smt.Solver, error) {
	s, err := solvers.NewContext(cfg.Context, cfg.Solver, p.tm)
	if err != nil {
		return nil, err
	}
	steps := cfg.Steps
	if steps <= 0 {
		steps = 200000
	}
	s.SetLimit(smt.Limit{Steps: steps})
	return s, nil
}

// Confirm replays a feasible path on the concrete model compiled with the
// Decision's input values (build compiles the program with
// model.Options.ChoiceValues, or returns the model itself when it has no
// unbounded choices): at each step it keeps the outcome of the step's
// thread and transformations whose state has the values the solver's
// model predicts. It returns the concrete trail (ordinals, as birch replay
// takes them), which ends in the schedule's error.
func (p *Path) Confirm(d *Decision, build func(values []int64) (*model.Model, error)) ([]int, error) {
	if d.Status != Feasible {
		return nil, fmt.Errorf("the path is %s, not feasible", d.Status)
	}
	var vals []int64
	for _, in := range d.Inputs {
		vals = append(vals, in.Value)
	}
	m, err := build(vals)
	if err != nil {
		return nil, err
	}
	var sm search.Model = m
	state, fail := sm.Initial(nil)
	if fail != nil {
		return nil, fmt.Errorf("the initial state fails: %s", fail.Msg)
	}
	var trail []int
	for i, st := range p.sched.Steps {
		last := i == len(p.sched.Steps)-1 && p.sched.End.Kind == feasible.EndError
		var next []byte
		found := -1
		want := p.predicted(d.model, i+1)
		sm.Next(state, func(o *model.Step) {
			if found >= 0 || o.Thread != st.Thread || !sameGroups(o.Groups, st.Groups) {
				return
			}
			if last {
				if o.Outcome != model.OK && o.Kind == p.sched.End.Error {
					found = o.Ordinal
				}
				return
			}
			if o.Outcome == model.OK && p.matches(m, o.State, want) {
				found = o.Ordinal
				next = append([]byte(nil), o.State...)
			}
		})
		if found < 0 {
			return nil, fmt.Errorf("step %d: no outcome of the concrete model has the values the solver predicts", i+1)
		}
		trail = append(trail, found)
		if last {
			return trail, nil
		}
		state = next
	}
	return trail, nil
}

func sameGroups(a []int32, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if int(a[i]) != b[i] {
			return false
		}
	}
	return true
}

// predicted gives the value of every variable after a step, named as
// model.Describe names them.
func (p *Path) predicted(mdl *smt.Model, step int) map[string]string {
	out := map[string]string{}
	for k, t := range p.points[step] {
		if k.v.Kind == types.FieldVar || isRef(k.v.Type()) {
			// fields come below; references are printed as objects
			continue
		}
		name := k.v.Name()
		if k.thread >= 0 {
			ts := p.threads[step][k.thread]
			prefix := ts.proc.Name() + "[" + strconv.Itoa(k.thread+1) + "]."
			if k.frame > 0 {
				// a call's variables, named as Describe names them: by
				// the depth of the activation (1 for the thread's first
				// call); a call that has returned has none
				d := activeDepth(ts.frames, k.frame)
				if d == 0 {
					continue
				}
				prefix += ts.frames[d-1].proc.Name() + "#" + strconv.Itoa(d) + "."
			}
			name = prefix + name
		}
		if a, ok := k.v.Type().Underlying().(*types.Array); ok {
			if isRef(a.Elem) || a.Len > 1024 {
				continue
			}
			for i := int64(0); i < a.Len; i++ {
				v, err := mdl.Eval(p.tm.Select(t, p.tm.Int(i)))
				if err != nil {
					continue
				}
				if isBool(a.Elem) {
					n, _ := v.Int64()
					v = p.tm.Bool(n != 0)
				}
				out[name+"["+strconv.FormatInt(i, 10)+"]"] = formatValue(a.Elem, v)
			}
			continue
		}
		v, err := mdl.Eval(t)
		if err != nil {
			continue
		}
		out[name] = formatValue(k.v.Type(), v)
	}
	// the fields of the objects allocated so far
	for _, al := range p.allocs {
		for fname, f := range p.fields {
			arr, ok := p.points[step][key{f, -1, 0}]
			if !ok || isRef(f.Type()) {
				continue
			}
			v, err := mdl.Eval(p.tm.Select(arr, p.tm.Int(al.ref)))
			if err != nil {
				continue
			}
			if isBool(f.Type()) {
				n, _ := v.Int64()
				v = p.tm.Bool(n != 0)
			}
			out[al.coll.Name()+"["+strconv.Itoa(al.index)+"]."+fname] = formatValue(f.Type(), v)
		}
	}
	return out
}

// activeDepth is the depth of the activation id among the active calls
// frames (innermost last): 1 for the first, 0 when it is not active.
func activeDepth(frames []frame, id int) int {
	for i, f := range frames {
		if f.id == id {
			return i + 1
		}
	}
	return 0
}

func formatValue(t types.Type, v *smt.Term) string {
	if v.IsBool() {
		return strconv.FormatBool(v.Op() == smt.OpTrue)
	}
	n, _ := v.Int64()
	if e, ok := t.Underlying().(*types.Enum); ok {
		for _, c := range e.Consts {
			if c.Ordinal == n {
				return c.Name()
			}
		}
	}
	return strconv.FormatInt(n, 10)
}

func (p *Path) matches(m *model.Model, state []byte, want map[string]string) bool {
	for _, v := range m.Describe(state) {
		if w, ok := want[v.Name]; ok && w != v.Value {
			return false
		}
	}
	return true
}
