package c2bp

import (
	"fmt"
	"os"
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
	"birch/internal/smt/solvers"
	"birch/internal/source"
	"birch/internal/testenv"
)

// The soundness test of issue 18, by enumeration: for random small models
// (soundness_gen_test.go) and random predicates, the concrete model's
// reachable states are enumerated exactly (internal/model), the abstract
// model of Abstract is enumerated too, and the concrete states and steps
// must have abstract counterparts:
//
//   - a concrete state stands for the tuple (each thread's location and
//     whether it terminated, the value of every variable the abstraction
//     keeps, the value of each predicate on the state); an abstract state
//     whose threads are all at locations of the concrete model stands for
//     the tuple of its locations, kept variables and predicate booleans.
//     The initial concrete tuple must be the tuple of a reachable abstract
//     state;
//   - every concrete step (a thread takes transformation t from state s to
//     s') from a state that needs a counterpart must have an abstract step
//     of the same thread from a state of s's tuple, by t's abstract
//     counterpart (its Origin is t; through states at locations the
//     abstraction added, if any), either to a state of s''s tuple (s'
//     then needs a counterpart too) or to an error: the abstraction may
//     end a step in an error that the concrete step avoids (a possible
//     overflow, an assertion the predicates cannot prove), and then the
//     abstract model reports a violation there, which no check takes for a
//     pass;
//   - every concrete runtime error or assertion failure (by thread and t
//     from s) must have an abstract error step from a state of s's tuple
//     by t's counterpart; so when the concrete model can fail an
//     assertion, the abstract one can. (Its kind may differ: an abstract
//     step may fail at an earlier action, such as an addition that may
//     overflow, before the concrete assertion; the test counts the errors
//     of the same kind, or of an assertion Origin.Errors maps to it.)
//
// A predicate that reads a field through null or an element out of bounds
// has no value in a concrete state: its place in the tuple ("?") matches
// either value, and so do the predicates of a thread not started yet (-)
// when the abstract thread is not started either. A [function f]
// predicate is in the tuple of each thread inside f. The tuple does not
// say where a call returns to: two calls of f from different places are
// the same tuple while inside f, which makes the test weaker, never wrong.
//
// A model the abstraction declines (UnsupportedError) is counted, not
// failed. The concrete search stops after soundMaxConcrete states (the
// values may grow in loops): the states it found are checked all the same.

const (
	soundMaxConcrete = 3000
	soundMaxAbstract = 200000
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

var soundInstanceRx = regexp.MustCompile(`^(T\d+|W)\[\d+\]`) // the threads of genRandomModel

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
		// a field through a null reference has no value: the predicate
		// is "?" in the tuple, and either value matches it
		ref := func(name string) string {
			if name == "null" {
				return "null"
			}
			if idx, ok := strings.CutPrefix(name, "arr["); ok { // arr[i], arr[0]
				idx = strings.TrimSuffix(idx, "]")
				if v, ok := vals[idx]; ok {
					idx = v
				}
				v, ok := vals["arr["+idx+"]"]
				if !ok {
					panic(soundUndefined{}) // an index out of bounds
				}
				return v
			}
			r, field, through := strings.Cut(name, "->")
			v, ok := vals[r]
			if through && ok {
				if v == "null" {
					panic(soundUndefined{})
				}
				v, ok = vals[v+"."+field]
			}
			if !ok {
				panic("soundness: no value for " + name + " in " + fmt.Sprint(vals))
			}
			return v
		}
		val := func(name string) int64 {
			n, err := strconv.ParseInt(ref(name), 10, 64)
			if err != nil {
				panic("soundness: no int value for " + name + " in " + fmt.Sprint(vals))
			}
			return n
		}
		eval := func(c genCmp, val func(string) int64) (v string) {
			defer func() {
				if r := recover(); r != nil {
					if _, ok := r.(soundUndefined); !ok {
						panic(r)
					}
					v = "?"
				}
			}()
			if c.Ref {
				return strconv.FormatBool(c.evalRef(ref))
			}
			return strconv.FormatBool(c.eval(val))
		}
		for i, p := range gm.Preds {
			if _, ok := vals[p.Thread+" @"]; p.Thread != "" && !p.Func() && !ok {
				fmt.Fprintf(&b, "p%d=- ", i) // of a thread not started yet
				continue
			}
			if !p.Func() {
				fmt.Fprintf(&b, "p%d=%s ", i, eval(p.Cmp, val))
				continue
			}
			// a predicate of f0 in every thread inside f0 (called from
			// the thread's own frame: depth 1)
			for _, t := range gm.Threads {
				if !strings.HasPrefix(vals[t+" @"], p.Thread+".") {
					continue
				}
				frame := func(name string) int64 {
					if f, v, ok := strings.Cut(name, "."); ok {
						return val(t + "." + f + "#1." + v)
					}
					return val(name)
				}
				fmt.Fprintf(&b, "%s.p%d=%s ", t, i, eval(p.Cmp, frame))
			}
		}
		return b.String()
	}
}

// soundUndefined is the panic of a predicate's evaluation that reads a
// field through null.
type soundUndefined struct{}

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
			loc, ok := vals[t+" @"]
			if ok && !locs[t+"@"+loc] {
				return "" // at a location the abstraction added (absent: not started)
			}
			fmt.Fprintf(&b, "%s@%s%s ", t, loc, soundTerminated(vals, t))
		}
		for _, v := range kept {
			fmt.Fprintf(&b, "%s=%s ", v, vals[v])
		}
		for i, p := range out.Predicates {
			if _, ok := vals[gm.Preds[i].Thread+" @"]; gm.Preds[i].Thread != "" && !gm.Preds[i].Func() && !ok {
				fmt.Fprintf(&b, "p%d=- ", i)
				continue
			}
			if !gm.Preds[i].Func() {
				name := p.Var
				if p.Proc != "" {
					name = p.Proc + "." + p.Var
				}
				fmt.Fprintf(&b, "p%d=%s ", i, vals[name])
				continue
			}
			for _, t := range gm.Threads {
				if strings.HasPrefix(vals[t+" @"], gm.Preds[i].Thread+".") {
					fmt.Fprintf(&b, "%s.p%d=%s ", t, i, vals[t+"."+gm.Preds[i].Thread+"#1."+p.Var])
				}
			}
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
	if gm.Heap {
		all = append(all, "h0", "h1", "p", "q")
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
	concrete    int // concrete states found
	abstract    int // abstract states
	matched     int // concrete states that needed and had a counterpart
	errors      int // concrete error steps, each with an abstract error step
	sameKind    int // of which the abstract error is of the same kind
	cut         int // concrete steps whose abstract counterpart ends in an error
}

// soundCheck runs the check on one generated model and returns the
// first discrepancy as an error.
func soundCheck(gm *genModel, cfg Config) (res soundResult, err error) {
	return soundCheckWith(gm, func(prog *types.Program, preds *predicate.File) (*Output, error) {
		return Abstract(prog, preds, cfg)
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
		for _, f := range prog.Functions {
			for _, l := range f.Locations {
				locs[p.Name()+"@"+f.Name()+"."+l.Name()] = true
			}
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
	return res, soundCompare(cg, ag, &res)
}

// soundKey names a step between tuples by a concrete transformation, or,
// with to == soundError, a step from a tuple by it that ends in an error.
type soundKey struct {
	from   string
	thread int
	decl   *ast.Transformation
	to     string
}

const soundError = "!error"

// soundCompare checks that cg's tuples, steps and errors have abstract
// counterparts in ag. An abstract step that stands for a concrete one
// may end in an error where the concrete step does not (a runtime error
// the predicates cannot exclude, an assertion they cannot prove): the
// abstract model then reports a violation there, which a check cannot
// mistake for a pass, and the concrete states past that step need no
// counterpart. Those are counted in res.cut.
func soundCompare(cg, ag *soundGraph, res *soundResult) error {
	tuples := map[string]bool{}
	steps := map[soundKey]bool{}
	kinds := map[soundKey]map[model.ErrorKind]bool{} // the error kinds of an error step, Origin.Errors included
	for _, s := range ag.states {
		if s.tuple == "" {
			continue
		}
		tuples[s.tuple] = true
		soundStepsFrom(ag, s, func(thread int, o *Origin, to string, errs map[model.ErrorKind]bool) {
			k := soundKey{from: s.tuple, thread: thread, decl: o.Transformation, to: to}
			steps[k] = true
			if to == soundError {
				if kinds[k] == nil {
					kinds[k] = map[model.ErrorKind]bool{}
				}
				for e := range errs {
					kinds[k][e] = true
				}
			}
		})
	}
	need := []int{0} // the concrete states that need a counterpart, from the initial one
	seen := map[int]bool{0: true}
	// has says whether some completion of the concrete tuples from (and
	// to, unless it is soundError) is a key of m (a predicate "?" may be
	// either)
	has := func(m map[soundKey]bool, thread int, decl *ast.Transformation, from, to string) (soundKey, bool) {
		tos := []string{to}
		if to != soundError {
			tos = soundExpand(to)
		}
		for _, f := range soundExpand(from) {
			for _, t := range tos {
				if k := (soundKey{from: f, thread: thread, decl: decl, to: t}); m[k] {
					return k, true
				}
			}
		}
		return soundKey{}, false
	}
	for len(need) > 0 {
		s := cg.states[need[0]]
		need = need[1:]
		found := false
		for _, t := range soundExpand(s.tuple) {
			found = found || tuples[t]
		}
		if !found {
			return fmt.Errorf("the concrete state (%s) has no abstract counterpart", s.tuple)
		}
		for _, st := range s.steps {
			k, failing := has(steps, st.thread, st.decl, s.tuple, soundError)
			if st.err != model.NoError {
				res.errors++
				if !failing {
					return fmt.Errorf("the concrete step of thread %d from (%s) by [%s] ends in %s (%s); no abstract step does", st.thread, s.tuple, soundTransText(st.decl), st.err, st.msg)
				}
				if kinds[k][st.err] {
					res.sameKind++
				}
				continue
			}
			if st.to < 0 {
				continue // beyond the concrete bound
			}
			to := cg.states[st.to].tuple
			_, ok := has(steps, st.thread, st.decl, s.tuple, to)
			switch {
			case ok:
				if !seen[st.to] {
					seen[st.to] = true
					need = append(need, st.to)
				}
			case failing:
				res.cut++
			default:
				return fmt.Errorf("the concrete step of thread %d from (%s) by [%s] to (%s) has no abstract counterpart", st.thread, s.tuple, soundTransText(st.decl), to)
			}
		}
	}
	res.matched = len(seen)
	return nil
}

// soundExpand returns the completions of a concrete tuple: each
// predicate "?" (read through null) as true and as false.
func soundExpand(tuple string) []string {
	i := strings.Index(tuple, "=? ")
	if i < 0 {
		return []string{tuple}
	}
	var out []string
	for _, v := range []string{"=true ", "=false "} {
		out = append(out, soundExpand(tuple[:i]+v+tuple[i+3:])...)
	}
	return out
}

// soundStepsFrom calls f for every abstract step of a thread from s (a
// state at concrete locations) that stands for a concrete transformation:
// to a state at concrete locations (its tuple), through states at
// locations the abstraction added, or to an error (soundError; errs the
// error kinds: the step's, and those Origin.Errors maps assertions to).
func soundStepsFrom(ag *soundGraph, s *soundState, f func(thread int, o *Origin, to string, errs map[model.ErrorKind]bool)) {
	type item struct {
		state  int
		origin *Origin
	}
	threads := map[int]bool{}
	for _, st := range s.steps {
		threads[st.thread] = true
	}
	for th := range threads {
		seen := map[item]bool{} // by state and origin: two transformations may lead to one state
		var work []item
		expand := func(st soundStep, o *Origin) {
			if st.origin != nil {
				o = st.origin
			}
			if st.err != model.NoError {
				if o != nil {
					errs := map[model.ErrorKind]bool{st.err: true}
					if st.err == model.Assertion {
						for _, e := range o.Errors {
							errs[e.Kind] = true
						}
					}
					f(th, o, soundError, errs)
				}
				return
			}
			to := ag.states[st.to]
			if to.tuple != "" {
				if o != nil {
					f(th, o, to.tuple, nil)
				}
				return
			}
			if it := (item{st.to, o}); !seen[it] {
				seen[it] = true
				work = append(work, it)
			}
		}
		for _, st := range s.steps {
			if st.thread == th {
				expand(st, nil)
			}
		}
		for len(work) > 0 {
			it := work[0]
			work = work[1:]
			for _, st := range ag.states[it.state].steps {
				if st.thread == th {
					expand(st, it.origin)
				}
			}
		}
	}
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
	var twoThreads, complete, withErrors, otherErrors, evaluated, states, inCalls int
	const n = 100
	sets := []genOptions{genDefault, genCalls, genHeap, genArrays, genWrap}
	for i := 0; i < len(sets)*n; i++ {
		seed, opts := uint64(i%n+1), sets[i/n]
		gm := genRandomModel(seed, opts)
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
			k := 0 // the predicates of functions are not in the section
			for i, p := range gm.Preds {
				if p.Func() {
					continue
				}
				v, cerr := ev.Eval(k)
				k++
				want := fmt.Sprintf(" p%d=%v ", i, v)
				if cerr != nil && cerr.Kind == model.Overflow {
					continue // birch's evaluation overflows; the test's is the mathematical value
				}
				if cerr != nil {
					if cerr.Kind != model.NullDereference && cerr.Kind != model.IndexOutOfBounds {
						t.Fatalf("seed %d: pred%d: %v", seed, i, cerr)
					}
					want = fmt.Sprintf(" p%d=? ", i) // through null or out of bounds: undefined
				}
				if !strings.Contains(" "+tuple, want) {
					t.Fatalf("seed %d: the tuple (%s) lacks %s: birch evaluates %s to %v", seed, tuple, want, gm.Preds[i], v)
				}
				evaluated++
			}
			if strings.Contains(tuple, "@f0.") {
				inCalls++
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
	t.Logf("%d models: %d of two threads, %d explored completely, %d states (%d inside a call), %d assertion failures, %d other errors, %d predicate values compared",
		len(sets)*n, twoThreads, complete, states, inCalls, withErrors, otherErrors, evaluated)
	if twoThreads < n || twoThreads > (len(sets)-1)*n || complete < 2*n || complete == len(sets)*n || withErrors < n/10 || otherErrors == 0 || inCalls < 100 {
		t.Errorf("the generator lacks variety")
	}
}

// soundSeeds returns the seeds 1..n, or 1..long in the long suite.
func soundSeeds(n, long int) []uint64 {
	if testenv.Long() {
		n = long
	}
	seeds := make([]uint64, n)
	for i := range seeds {
		seeds[i] = uint64(i + 1)
	}
	return seeds
}

// TestSoundnessByEnumeration is the soundness test of issue 18 on random
// models (the comment at the top of this file says what it checks).
func TestSoundnessByEnumeration(t *testing.T) {
	t.Run("threads", func(t *testing.T) { soundRun(t, soundSeeds(40, 1500), genDefault, Config{}) })
	t.Run("calls", func(t *testing.T) { soundRun(t, soundSeeds(40, 1500), genCalls, Config{}) })
	t.Run("start", func(t *testing.T) { soundRun(t, soundSeeds(15, 600), genStart, Config{}) })
	t.Run("heap", func(t *testing.T) { soundRun(t, soundSeeds(20, 600), genHeap, Config{}) })
	t.Run("arrays", func(t *testing.T) { soundRun(t, soundSeeds(20, 600), genArrays, Config{}) })
	// fixed-width variables whose stores wrap, and conversions
	t.Run("wrap", func(t *testing.T) { soundRun(t, soundSeeds(40, 1500), genWrap, Config{}) })
	// the cube queries asked of z3 and cvc5 instead of the embedded
	// solver (long suite only: a process per abstraction)
	for _, solver := range []string{"z3", "cvc5"} {
		t.Run(solver, func(t *testing.T) {
			testenv.SkipUnlessLong(t)
			if !solvers.Available(solver) {
				t.Skipf("%s is not installed", solver)
			}
			soundRun(t, soundSeeds(0, 150), genCalls, Config{Solver: solver})
		})
	}
	// shorter cubes make F weaker, never unsound
	t.Run("cube1", func(t *testing.T) { soundRun(t, soundSeeds(12, 500), genCalls, Config{CubeLength: 1}) })
}

func soundRun(t *testing.T, seeds []uint64, opts genOptions, cfg Config) {
	var checked, unsupported int
	var sum soundResult
	for _, seed := range seeds {
		gm := genRandomModel(seed, opts)
		res, err := soundCheck(gm, cfg)
		if err != nil {
			t.Errorf("seed %d: %v\nmodel:\n%s\npredicates:\n%s", seed, err, gm.Src, gm.PredFile())
			continue
		}
		if res.unsupported {
			unsupported++
			continue
		}
		checked++
		sum.concrete += res.concrete
		sum.matched += res.matched
		sum.abstract += res.abstract
		sum.errors += res.errors
		sum.sameKind += res.sameKind
		sum.cut += res.cut
	}
	t.Logf("%d models checked, %d unsupported; concrete states: %d found, %d matched; abstract states: %d; concrete errors: %d, %d of the same kind; concrete steps that fail abstractly: %d",
		checked, unsupported, sum.concrete, sum.matched, sum.abstract, sum.errors, sum.sameKind, sum.cut)
	if checked < len(seeds)/2 {
		t.Errorf("only %d of %d models checked (%d unsupported)", checked, len(seeds), unsupported)
	}
}

// TestSoundnessSeeds rechecks the seeds of testdata/soundness.seeds: one
// a line, "SEED" for genDefault's model, "calls SEED" for genCalls' or
// "wrap SEED" for genWrap's, #
// comments; models that found a bug once. The file must exist: without
// it the test would check nothing.
func TestSoundnessSeeds(t *testing.T) {
	b, err := os.ReadFile("testdata/soundness.seeds")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, line := range strings.Split(string(b), "\n") {
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		opts, what := genDefault, ""
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "calls "); ok {
			opts, what, line = genCalls, "calls ", rest
		}
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "wrap "); ok {
			opts, what, line = genWrap, "wrap ", rest
		}
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		seed, err := strconv.ParseUint(line, 10, 64)
		if err != nil {
			t.Fatalf("testdata/soundness.seeds:%d: %q: %v", i+1, line, err)
		}
		n++
		gm := genRandomModel(seed, opts)
		if _, err := soundCheck(gm, Config{}); err != nil {
			t.Errorf("%sseed %d: %v\nmodel:\n%s\npredicates:\n%s", what, seed, err, gm.Src, gm.PredFile())
		}
	}
	if n == 0 {
		t.Fatal("testdata/soundness.seeds has no seed")
	}
}
