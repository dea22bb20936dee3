package c2bp

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/source"
)

// The soundness test of issue 18, by enumeration: for random small models
// (soundness_gen_test.go) and random predicates, the concrete model's
// reachable states are enumerated exactly (internal/model), the abstract
// model of Abstract is enumerated too, and every concrete state and step
// must have its abstract counterpart:
//
//   - a concrete state stands for the tuple (each thread's location and
//     whether it terminated, the value of every variable the abstraction
//     keeps, the value of each predicate on the state); an abstract state
//     whose threads are all at locations of the concrete model stands for
//     the tuple of its locations, kept variables and predicate booleans.
//     Every reachable concrete tuple must be the tuple of a reachable
//     abstract state;
//   - every concrete step (a thread takes transformation t from state s to
//     s') must have an abstract step of the same thread from a state of
//     s's tuple to one of s''s whose transformation's Origin is t (through
//     states at locations the abstraction added, if any);
//   - every concrete runtime error or assertion failure (thread, t, kind
//     from s) must have an abstract error from a state of s's tuple, by
//     t's abstract counterpart, of the same kind or an assertion that
//     Origin.Errors maps to that kind; so when the concrete model can fail
//     an assertion, the abstract one can.
//
// A model the abstraction declines (UnsupportedError) is counted, not
// failed. The concrete search stops after soundMaxConcrete states (the
// values may grow in loops): the states it found are checked all the same.

const (
	soundMaxConcrete = 3000
	soundMaxAbstract = 200000
	soundMaxThreads  = 2 // genOptions.MaxThreads at most
)

// soundState is a reachable state and its outcomes.
type soundState struct {
	enc   string
	tuple string // "" for an abstract state at a location the abstraction added
	steps []soundStep
}

// soundStep is one outcome of a state: a successor (To the index of its
// state, or -1 beyond the concrete bound) or an error.
type soundStep struct {
	thread int
	decl   *ast.Transformation // the transformation, of the concrete model (an abstract one through Origin; nil for an added one)
	origin *Origin             // abstract steps only: the origin, or nil
	to     int
	err    model.ErrorKind // model.NoError for a successor
	msg    string
}

// soundGraph is the reachable part of a model.
type soundGraph struct {
	states   []*soundState
	complete bool // every reachable state was expanded
	limits   []string
}

// soundEnumerate explores m breadth-first from its initial state, up to max
// states; proj gives each state's tuple and decl maps each group of the
// model to its step's concrete transformation and origin.
func soundEnumerate(m *model.Model, max int, proj func(enc []byte) string, decl func(group int32) (*ast.Transformation, *Origin)) (*soundGraph, error) {
	init, fail := m.Initial(nil)
	if fail != nil {
		return nil, fmt.Errorf("initial state: %s", fail.Msg)
	}
	g := &soundGraph{complete: true}
	index := map[string]int{}
	add := func(enc []byte) int {
		if i, ok := index[string(enc)]; ok {
			return i
		}
		if len(g.states) >= max {
			g.complete = false
			return -1
		}
		s := &soundState{enc: string(enc), tuple: proj(enc)}
		index[s.enc] = len(g.states)
		g.states = append(g.states, s)
		return len(g.states) - 1
	}
	add(init)
	for i := 0; i < len(g.states); i++ {
		s := g.states[i]
		var steps []soundStep
		var outs []struct {
			enc  []byte
			step soundStep
		}
		m.Next([]byte(s.enc), func(st *model.Step) {
			d, o := decl(st.Groups[0])
			if len(st.Groups) != 1 {
				d, o = nil, nil // an invisible run: not generated
			}
			ss := soundStep{thread: st.Thread, decl: d, origin: o, err: st.Kind, msg: st.Msg}
			switch st.Outcome {
			case model.OK:
				ss.err = model.NoError
				outs = append(outs, struct {
					enc  []byte
					step soundStep
				}{append([]byte(nil), st.State...), ss})
			case model.Error:
				steps = append(steps, ss)
			case model.Limit:
				g.limits = append(g.limits, st.Msg)
			}
		})
		for _, o := range outs {
			o.step.to = add(o.enc)
			steps = append(steps, o.step)
		}
		s.steps = steps
	}
	return g, nil
}

// genLoad parses and checks a generated model and its predicates.
func genLoad(gm *genModel) (*types.Program, *predicate.File, error) {
	fset := source.NewFileSet()
	name := fmt.Sprintf("gen%d.bir", gm.Seed)
	f, err := parser.ParseFile(fset, name, []byte(gm.Src), 0)
	if err != nil {
		return nil, nil, err
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		return nil, nil, err
	}
	preds, err := predicate.ParseFile(prog, strings.TrimSuffix(name, ".bir")+".pred", []byte(gm.PredFile()))
	if err != nil {
		return nil, nil, err
	}
	return prog, preds, nil
}

// soundDescribe returns the named values of a state, a thread instance T[k]
// named T (every thread of a generated model is a main thread with one
// instance): g0, T0.a, "T0 @", "T0 terminated".
func soundDescribe(m *model.Model, enc []byte) map[string]string {
	vals := map[string]string{}
	for _, v := range m.Describe(enc) {
		vals[soundInstanceRx.ReplaceAllString(v.Name, "$1")] = v.Value
	}
	return vals
}

var soundInstanceRx = regexp.MustCompile(`^([A-Za-z_][A-Za-z_0-9]*)\[\d+\]`)

// soundConcreteTuple returns the tuple of a concrete state: the threads'
// locations, the kept variables (kept: those not abstracted) and the
// predicates' values.
func soundConcreteTuple(gm *genModel, m *model.Model, kept []string) func([]byte) string {
	return func(enc []byte) string {
		vals := soundDescribe(m, enc)
		var b strings.Builder
		for _, t := range gm.Threads {
			fmt.Fprintf(&b, "%s@%s%s ", t, vals[t+" @"], soundTerminated(vals, t))
		}
		for _, v := range kept {
			fmt.Fprintf(&b, "%s=%s ", v, vals[v])
		}
		val := func(name string) int64 {
			s, ok := vals[name]
			n, err := strconv.ParseInt(s, 10, 64)
			if !ok || err != nil {
				panic("soundness: no int value for " + name + " in " + fmt.Sprint(vals))
			}
			return n
		}
		for i, p := range gm.Preds {
			fmt.Fprintf(&b, "p%d=%v ", i, p.Cmp.eval(val))
		}
		return b.String()
	}
}

func soundTerminated(vals map[string]string, t string) string {
	if vals[t+" terminated"] == "true" {
		return "(done)"
	}
	return ""
}

// soundAbstractTuple returns the tuple of an abstract state, or "" when a
// thread is at a location the concrete model does not have.
func soundAbstractTuple(gm *genModel, m *model.Model, out *Output, kept []string, locs map[string]bool) func([]byte) string {
	return func(enc []byte) string {
		vals := soundDescribe(m, enc)
		var b strings.Builder
		for _, t := range gm.Threads {
			loc := vals[t+" @"]
			if !locs[t+"@"+loc] {
				return ""
			}
			fmt.Fprintf(&b, "%s@%s%s ", t, loc, soundTerminated(vals, t))
		}
		for _, v := range kept {
			fmt.Fprintf(&b, "%s=%s ", v, vals[v])
		}
		for i, p := range out.Predicates {
			name := p.Var
			if p.Proc != "" {
				name = p.Proc + "." + p.Var
			}
			fmt.Fprintf(&b, "p%d=%s ", i, vals[name])
		}
		return b.String()
	}
}

// soundKept lists the variables of a generated model that the
// abstraction keeps (sorted, in the soundness test's naming), and checks
// that the abstract model has each.
func soundKept(gm *genModel, out *Output, am *model.Model, init []byte) ([]string, error) {
	abstracted := map[string]bool{}
	for _, a := range out.Abstracted {
		abstracted[a] = true
	}
	var all []string
	all = append(all, gm.Ints...)
	if gm.Flag {
		all = append(all, "flag")
	}
	if gm.Small {
		all = append(all, "small")
	}
	vals := soundDescribe(am, init)
	var kept []string
	for _, v := range all {
		if abstracted[v] {
			continue
		}
		if _, ok := vals[v]; !ok {
			return nil, fmt.Errorf("%s is neither in Abstracted (%v) nor in the abstract model", v, out.Abstracted)
		}
		kept = append(kept, v)
	}
	sort.Strings(kept)
	return kept, nil
}

// soundResult is the outcome of one model.
type soundResult struct {
	unsupported bool
	concrete    int // concrete states checked
	abstract    int
	errors      int // concrete error steps checked
}

// soundCheck runs the check on one generated model and returns the
// first discrepancy as an error.
func soundCheck(gm *genModel) (res soundResult, err error) {
	return soundCheckWith(gm, func(prog *types.Program, preds *predicate.File) (*Output, error) {
		return Abstract(prog, preds, Config{})
	})
}

// soundCheckWith is soundCheck with the abstraction abstract.
func soundCheckWith(gm *genModel, abstract func(*types.Program, *predicate.File) (*Output, error)) (res soundResult, err error) {
	prog, preds, err := genLoad(gm)
	if err != nil {
		return res, fmt.Errorf("the generated model does not check: %v", err)
	}
	cm, err := model.New(prog, model.Options{})
	if err != nil {
		return res, fmt.Errorf("concrete model: %v", err)
	}
	out, err := abstract(prog, preds)
	if err != nil {
		if _, ok := err.(*UnsupportedError); ok {
			res.unsupported = true
			return res, nil
		}
		return res, fmt.Errorf("Abstract: %v", err)
	}
	am, err := model.New(out.Program, model.Options{})
	if err != nil {
		return res, fmt.Errorf("abstract model: %v\n%s", err, out.Source)
	}
	ainit, fail := am.Initial(nil)
	if fail != nil {
		return res, fmt.Errorf("abstract initial state: %s", fail.Msg)
	}
	kept, err := soundKept(gm, out, am, ainit)
	if err != nil {
		return res, err
	}
	locs := map[string]bool{}
	for _, p := range prog.Threads {
		for _, l := range p.Locations {
			locs[p.Name()+"@"+l.Name()] = true
		}
	}
	cgroups, agroups := cm.Groups(), am.Groups()
	cg, err := soundEnumerate(cm, soundMaxConcrete, soundConcreteTuple(gm, cm, kept), func(g int32) (*ast.Transformation, *Origin) {
		return cgroups[g].Decl, nil
	})
	if err != nil {
		return res, err
	}
	ag, err := soundEnumerate(am, soundMaxAbstract, soundAbstractTuple(gm, am, out, kept, locs), func(g int32) (*ast.Transformation, *Origin) {
		o := out.Map.Transformation(agroups[g].Decl)
		if o == nil {
			return nil, nil
		}
		return o.Transformation, o
	})
	if err != nil {
		return res, err
	}
	if !ag.complete {
		return res, fmt.Errorf("the abstract model has more than %d states", soundMaxAbstract)
	}
	res.concrete, res.abstract = len(cg.states), len(ag.states)
	return res, soundCompare(cg, ag, &res, out)
}

// soundKey names a step between tuples by a concrete transformation, or,
// for an error (err not NoError), a step from a tuple to that error.
type soundKey struct {
	from   string
	thread int
	decl   *ast.Transformation
	to     string
	err    model.ErrorKind
}

// soundCompare checks that cg's tuples, steps and errors have abstract
// counterparts in ag.
func soundCompare(cg, ag *soundGraph, res *soundResult, out *Output) error {
	tuples := map[string]bool{}
	steps := map[soundKey]bool{}
	for _, s := range ag.states {
		if s.tuple == "" {
			continue
		}
		tuples[s.tuple] = true
		// the steps of one thread from s, through states at added
		// locations, to a state of the concrete locations or an error
		type item struct {
			state  int
			origin *Origin
			errs   map[model.ErrorKind]bool // kinds of Origin.Errors on the way
		}
		for th := 0; th < soundMaxThreads; th++ {
			seen := map[int]bool{}
			work := []item{}
			expand := func(st soundStep, from item) {
				o := from.origin
				errs := from.errs
				if st.origin != nil {
					o = st.origin
					errs = map[model.ErrorKind]bool{}
					for k, v := range from.errs {
						errs[k] = v
					}
					for _, e := range st.origin.Errors {
						errs[e.Kind] = true
					}
				}
				if st.err != model.NoError {
					if o == nil {
						return
					}
					steps[soundKey{from: s.tuple, thread: th, decl: o.Transformation, err: st.err}] = true
					if st.err == model.Assertion {
						for k := range errs {
							steps[soundKey{from: s.tuple, thread: th, decl: o.Transformation, err: k}] = true
						}
					}
					return
				}
				to := ag.states[st.to]
				if to.tuple != "" {
					if o != nil {
						steps[soundKey{from: s.tuple, thread: th, decl: o.Transformation, to: to.tuple}] = true
					}
					return
				}
				if !seen[st.to] {
					seen[st.to] = true
					work = append(work, item{state: st.to, origin: o, errs: errs})
				}
			}
			for _, st := range s.steps {
				if st.thread == th {
					expand(st, item{})
				}
			}
			for len(work) > 0 {
				it := work[0]
				work = work[1:]
				for _, st := range ag.states[it.state].steps {
					if st.thread == th {
						expand(st, it)
					}
				}
			}
		}
	}
	for _, s := range cg.states {
		if !tuples[s.tuple] {
			return fmt.Errorf("the concrete state (%s) has no abstract counterpart", s.tuple)
		}
	}
	for _, s := range cg.states {
		for _, st := range s.steps {
			k := soundKey{from: s.tuple, thread: st.thread, decl: st.decl, err: st.err}
			if st.err == model.NoError {
				if st.to < 0 {
					continue // beyond the concrete bound
				}
				k.to = cg.states[st.to].tuple
			} else {
				res.errors++
			}
			if !steps[k] {
				what := "to (" + k.to + ")"
				if st.err != model.NoError {
					what = "ending in " + st.err.String() + " (" + st.msg + ")"
				}
				return fmt.Errorf("the concrete step of thread %d from (%s) by [%s] %s has no abstract counterpart", st.thread, s.tuple, soundTransText(st.decl), what)
			}
		}
	}
	return nil
}

func soundTransText(t *ast.Transformation) string {
	if t == nil {
		return "?"
	}
	return format.Transformation(t)
}

// TestGeneratedModels checks the generator and the concrete side of the
// soundness test: every generated model and predicate file checks; the
// enumeration of the concrete model finds its states, steps and errors;
// and the predicate values the test computes from a state's variables
// are those birch's own evaluator gives the same predicates (as a
// predicates section, locals through remote references) on every
// reachable state. The generator must give variety: models of one and of
// two threads, loops, assertion failures and other runtime errors.
func TestGeneratedModels(t *testing.T) {
	var twoThreads, complete, withErrors, otherErrors, evaluated, states int
	const n = 100
	for seed := uint64(1); seed <= n; seed++ {
		gm := genRandomModel(seed, genDefault)
		if _, _, err := genLoad(gm); err != nil {
			t.Fatalf("seed %d: %v\n%s\n%s", seed, err, gm.Src, gm.PredFile())
		}
		fset := source.NewFileSet()
		f, err := parser.ParseFile(fset, "gen.bir", []byte(gm.WithPredicates()), 0)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, gm.WithPredicates())
		}
		prog, err := types.Check(fset, f, nil)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, gm.WithPredicates())
		}
		m, err := model.New(prog, model.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var conds []ast.Expr
		for _, p := range prog.Predicates {
			conds = append(conds, p.Decl.Expr)
		}
		ev, err := m.NewEvaluator(conds)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var kept []string
		if gm.Flag {
			kept = append(kept, "flag")
		}
		proj := soundConcreteTuple(gm, m, kept)
		g, err := soundEnumerate(m, soundMaxConcrete, func(enc []byte) string {
			tuple := proj(enc)
			ev.Load(enc)
			for i := range gm.Preds {
				v, cerr := ev.Eval(i)
				if cerr != nil {
					t.Fatalf("seed %d: pred%d: %v", seed, i, cerr)
				}
				if want := fmt.Sprintf("p%d=%v ", i, v); !strings.Contains(tuple, want) {
					t.Fatalf("seed %d: the tuple (%s) lacks %s: birch evaluates %s to %v", seed, tuple, want, gm.Preds[i], v)
				}
				evaluated++
			}
			return tuple
		}, func(g int32) (*ast.Transformation, *Origin) { return m.Groups()[g].Decl, nil })
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if len(g.limits) > 0 {
			t.Errorf("seed %d: limits %v", seed, g.limits)
		}
		if len(gm.Threads) == 2 {
			twoThreads++
		}
		if g.complete {
			complete++
		}
		states += len(g.states)
		for _, s := range g.states {
			for _, st := range s.steps {
				if st.err == model.Assertion {
					withErrors++
				} else if st.err != model.NoError {
					otherErrors++
				}
			}
		}
	}
	t.Logf("%d models: %d of two threads, %d explored completely, %d states, %d assertion failures, %d other errors, %d predicate values compared",
		n, twoThreads, complete, states, withErrors, otherErrors, evaluated)
	if twoThreads < n/4 || twoThreads > 3*n/4 || complete < n/4 || complete == n || withErrors < n/10 || otherErrors == 0 {
		t.Errorf("the generator lacks variety")
	}
}
