package verify

import (
	"fmt"

	"birch/internal/abstraction/data/feasible"
	"birch/internal/abstraction/predicate"
	"birch/internal/abstraction/predicate/c2bp"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
)

// The abstraction-synthesis step of a check with predicate abstraction:
// the predicate file is parsed against the model, c2bp.Abstract builds the
// abstract model, and both models are compiled; the map c2bp gives relates
// abstract transformations, assertions and positions to the concrete
// ones, so that abstract trails read in the terms of the model as written.

// predAbstraction is a predicate abstraction of a model: the predicate
// file, c2bp's output, and what relates abstract positions to concrete
// ones.
type predAbstraction struct {
	file *predicate.File
	out  *c2bp.Output
	// unbounded: the concrete model has unbounded choices, compiled
	// without values (model.Options.ChoiceValues)
	unbounded bool
	// pos maps the positions of abstract transformations and assertions
	// to the concrete ones; errs the abstract assertions that stand for a
	// concrete runtime error; asserts the concrete assertion of each
	// other abstract assertion
	origins map[*ast.Transformation]*c2bp.Origin // by abstract transformation
	pos     map[source.Pos]source.Pos
	errs    map[source.Pos]c2bp.ErrorOutcome
	asserts map[source.Pos]*ast.AssertAction
}

// abstractPredicates reads t's predicate file and abstracts t's model with
// its predicates. A parse error is a source.ErrorList; a construct c2bp
// cannot abstract soundly, a *c2bp.UnsupportedError.
func abstractPredicates(t *Task) (*predAbstraction, error) {
	pa, in := t.Predicates, t.Input
	src, err := readPredicates(in, pa.ReadFile, pa.File)
	if err != nil {
		return nil, err
	}
	file, err := predicate.ParseFile(in.Prog, pa.File, src)
	if err != nil {
		return nil, err
	}
	abstract := c2bp.Abstract
	if pa.abstract != nil {
		abstract = pa.abstract
	}
	out, err := abstract(in.Prog, file, c2bp.Config{Solver: pa.Solver, CubeLength: pa.CubeLength, Context: t.limits().Ctx, Cache: pa.cache})
	if err != nil {
		if _, ok := err.(*c2bp.UnsupportedError); ok {
			return nil, err
		}
		return nil, errorf("birch: the predicate abstraction failed: %v", err)
	}
	p := &predAbstraction{file: file, out: out}
	p.mapPositions()
	return p, nil
}

// mapPositions relates the abstract transformations and assertions to the
// concrete ones: an abstract assertion that stands for a runtime error is
// in Origin.Errors, the others stand for the concrete assertions in order.
func (p *predAbstraction) mapPositions() {
	p.pos = map[source.Pos]source.Pos{}
	p.errs = map[source.Pos]c2bp.ErrorOutcome{}
	p.asserts = map[source.Pos]*ast.AssertAction{}
	p.origins = map[*ast.Transformation]*c2bp.Origin{}
	for _, o := range p.out.Map.Origins {
		if o.Abstract == nil || o.Transformation == nil {
			continue
		}
		p.origins[o.Abstract] = o
		p.pos[o.Abstract.Pos()] = o.Transformation.Pos()
		var conc []*ast.AssertAction
		for _, a := range o.Transformation.Actions {
			if as, ok := a.(*ast.AssertAction); ok {
				conc = append(conc, as)
			}
		}
		k := 0
		for i, a := range o.Abstract.Actions {
			as, ok := a.(*ast.AssertAction)
			if !ok {
				continue
			}
			if e, ok := o.Errors[i]; ok {
				p.pos[as.Pos()] = e.Pos
				if c := assertAt(conc, e.Pos); e.Kind == model.Assertion && c != nil {
					// the concrete assertion itself
					p.asserts[as.Pos()] = c
					k++
					continue
				}
				p.errs[as.Pos()] = e
				continue
			}
			if k < len(conc) {
				p.asserts[as.Pos()] = conc[k]
				p.pos[as.Pos()] = conc[k].Pos()
			}
			k++
		}
	}
}

// assertAt is the assertion of as at pos, or nil.
func assertAt(as []*ast.AssertAction, pos source.Pos) *ast.AssertAction {
	for _, a := range as {
		if a.Pos() == pos {
			return a
		}
	}
	return nil
}

// compile compiles the abstract and the concrete model with t's options:
// the concrete model's unbounded choices take no value (the confirmation
// solves for them).
func (p *predAbstraction) compile(t *Task) (*abstractModel, error) {
	in, mo := t.Input, t.Model
	absM, err := model.New(p.out.Program, mo)
	if err != nil {
		return nil, errorf("birch: internal error: the abstract model: %v", err)
	}
	if model.UnboundedChoices(in.Prog, mo.MaxChoiceRange) != nil {
		p.unbounded, mo.ChoiceValues = true, []int64{}
	}
	concM, err := model.New(in.Prog, mo)
	if err != nil {
		return nil, plainError(err)
	}
	prog := p.out.Program
	am := &abstractModel{
		conc: in, concM: concM, absM: absM, pred: p,
		abs: &Input{Name: in.Name, Fset: prog.Fset, File: prog.File, Prog: prog, Src: p.out.Source},
	}
	am.mapGroups()
	return am, nil
}

// position maps a position of the abstract model to the concrete one; a
// position of what the abstraction added stays the abstract model's.
func (p *predAbstraction) position(am *abstractModel, pos source.Pos) string {
	if cp, ok := p.pos[pos]; ok {
		return PosString(am.conc.Fset, cp)
	}
	return am.abs.Fset.Position(pos).String()
}

// violation words an abstract violation at pos in the terms of the
// concrete model: an abstract assertion that stands for a runtime error is
// that error, a concrete assertion is named by its condition.
func (p *predAbstraction) violation(am *abstractModel, k model.ErrorKind, msg string, pos source.Pos) (model.ErrorKind, string) {
	if k != model.Assertion {
		return k, msg
	}
	if e, ok := p.errs[pos]; ok {
		return e.Kind, e.Kind.String() + " possible: the abstract state does not exclude it"
	}
	if a := p.asserts[pos]; a != nil {
		return k, "assertion violated: " + format.Expr(a.Cond) + " (may be false in the abstract state)"
	}
	return k, msg
}

// schedule turns the abstract trail of res into a schedule of the
// concrete model: the steps the abstraction added (no concrete
// transformation) are left out; steps[i] is the index in the abstract
// trail of the schedule's step i. The end is the concrete error an
// abstract assertion stands for.
func (p *predAbstraction) schedule(am *abstractModel, absSM search.Model, res *search.Result) (sc feasible.Schedule, steps []int, err error) {
	v := res.Violation
	kind, msg := am.violationOf(v.Kind, v.Msg, v.Groups, v.Pos)
	if len(res.Trail) == 0 {
		sc.End = feasible.End{Kind: feasible.EndError, Error: kind, Msg: msg}
		return sc, nil, nil
	}
	_, ts, err := search.Replay(absSM, res.Trail)
	if err != nil {
		return sc, nil, err
	}
	for i, st := range ts {
		fs := feasible.Step{Thread: st.Step.Thread}
		for _, g := range st.Step.Groups {
			if c := am.mapGroup(int(g)); c >= 0 {
				fs.Groups = append(fs.Groups, c)
			}
		}
		failing := st.Step.Outcome != model.OK
		if len(fs.Groups) == 0 {
			switch {
			case failing && kind == model.InvariantViolated:
				// a step the abstraction added changes no concrete data:
				// the state before it (after the last step of the
				// schedule, or the initial one) is the one to violate
				// the invariant
				sc.End = feasible.End{Kind: feasible.EndError, Error: kind, Msg: msg}
			case failing:
				return sc, nil, fmt.Errorf("step %d: a transformation the abstraction added fails", i+1)
			}
			continue
		}
		sc.Steps, steps = append(sc.Steps, fs), append(steps, i)
		if failing {
			sc.End = feasible.End{Kind: feasible.EndError, Error: kind, Msg: msg}
		}
	}
	return sc, steps, nil
}

// joinInvisible is sc (of which steps[i] is the abstract step of step i)
// with the invisible runs of the concrete model joined, for the replay:
// c2bp drops `invisible`, so an abstract trail takes an invisible run's
// transformations one step each, where the concrete model takes the run
// in one step. A thread's invisible transformations wait for its next
// step with a visible one, or the schedule's last step, and join it; they
// touch only the thread's locals, so the steps of other threads between
// them commute with them. Runs the schedule ends in come before its last
// step. A model compiled with invisible runs exposed: sc as it is (the
// path formula's replay, refine, takes the fine schedule).
func joinInvisible(am *abstractModel, sc feasible.Schedule, steps []int) (feasible.Schedule, []int) {
	if am.concM.Options().ExposeInvisible || len(sc.Steps) == 0 {
		return sc, steps
	}
	groups := am.concM.Groups()
	type run struct {
		groups []int
		first  int // its first step in sc
	}
	pending := map[int]*run{}
	var order []int // threads with a pending run, in the order they started
	out := sc
	out.Steps = nil
	var outSteps []int
	stepOf := func(i int) int {
		if steps == nil {
			return i
		}
		return steps[i]
	}
	last := len(sc.Steps) - 1
	for i, fs := range sc.Steps {
		invisible := len(fs.Groups) > 0
		for _, c := range fs.Groups {
			invisible = invisible && c >= 0 && c < len(groups) && groups[c].Invisible
		}
		r := pending[fs.Thread]
		if invisible && i < last {
			if r == nil {
				r = &run{first: i}
				pending[fs.Thread] = r
				order = append(order, fs.Thread)
			}
			r.groups = append(r.groups, fs.Groups...)
			continue
		}
		if i == last {
			// the others' runs first: nothing comes after the last step
			for _, th := range order {
				if o := pending[th]; o != nil && th != fs.Thread {
					out.Steps = append(out.Steps, feasible.Step{Thread: th, Groups: o.groups})
					outSteps = append(outSteps, stepOf(o.first))
				}
			}
		}
		first := i
		if r != nil {
			fs.Groups = append(append([]int(nil), r.groups...), fs.Groups...)
			first = r.first
			delete(pending, fs.Thread)
		}
		out.Steps = append(out.Steps, fs)
		outSteps = append(outSteps, stepOf(first))
	}
	if steps == nil {
		outSteps = nil
	}
	return out, outSteps
}

// info is the details of the check: the predicates and the work.
func (p *predAbstraction) info(engine Engine) *PredicateInfo {
	pi := &PredicateInfo{File: p.file.Name, Abstracted: p.out.Abstracted, Stats: p.out.Stats, Engine: engine}
	for _, pr := range p.out.Predicates {
		pi.Predicates = append(pi.Predicates, pr.String())
		pi.Variables = append(pi.Variables, pr.Var)
	}
	return pi
}

// choiceInputs describes the values the solver found for the choices of
// a confirmed trail of the model in.
func choiceInputs(in *Input, cs []feasible.Choice) []InputValue {
	actions := map[source.Pos]*ast.ChooseAction{}
	ast.Inspect(in.File, func(n ast.Node) bool {
		if a, ok := n.(*ast.ChooseAction); ok {
			actions[a.KwPos] = a
		}
		return true
	})
	var out []InputValue
	for _, c := range cs {
		iv := InputValue{Step: c.Step, Pos: PosString(in.Fset, c.Pos), Value: c.Value}
		if a := actions[c.Pos]; a != nil {
			iv.Action = chooseText(a)
		}
		out = append(out, iv)
	}
	return out
}

// chooseText is a choice action as written, without its semicolon.
func chooseText(a *ast.ChooseAction) string {
	kw := "internChoose"
	if a.Extern {
		kw = "externChoose"
	}
	arg := ""
	switch {
	case a.Type != nil:
		arg = format.TypeExpr(a.Type)
	case a.Values != nil:
		for i, v := range a.Values {
			if i > 0 {
				arg += ", "
			}
			arg += format.Expr(v)
		}
	default:
		arg = format.Expr(a.Lo) + " .. " + format.Expr(a.Hi)
	}
	return format.Expr(a.Lhs) + " := " + kw + "(" + arg + ")"
}
