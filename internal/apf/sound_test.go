package apf_test

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"birch/internal/apf"
	"birch/internal/bir/ast"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/source"
	"birch/internal/testenv"
)

// The soundness test of issue 22 by enumeration: for random small models
// (sound_gen_test.go) and random predicates, the reachable states of the
// concrete model (internal/model) and of the on-the-fly search (the same
// engine running the instrumented program P′ with apf's runtime as its
// Native) are enumerated, and every concrete state must be represented:
//
//   - a state projects to its concrete part (every frame's thread, depth,
//     proc and location, whether its thread terminated, and every value of
//     the state that apf does not abstract: booleans, small, references,
//     thread identifiers) and to the truth of every predicate instance (a
//     global predicate once, a [thread T] one per frame of depth 0 of a T
//     thread, a [function f] one per frame of f, a [record Cell] one per
//     allocated cell; the int fields, the value array's elements and the
//     heap array's elements are abstracted, its length is not). On a concrete state the test evaluates each
//     instance itself (rexp's evaluator, independent of apf; "?" where it
//     reads through null or out of bounds); on an on-the-fly state it reads
//     the instance's hidden variable (0 unknown, 1 false, 2 true);
//   - every reachable concrete state must have a reachable on-the-fly state
//     with the same concrete part whose known predicate instances agree
//     with the concrete truth;
//   - every runtime error or assertion failure of a concrete state (a
//     thread taking a transformation) must be an error of the same thread
//     and transformation from some on-the-fly state that represents it.
//
// The models have invisible transformations, run as the check runs them
// (coarsened into runs): a concrete run ends where its thread has no
// outcome, so an on-the-fly run must rest wherever some of the concrete
// states it stands for have none (the runtime's choices and undecided
// guards are "unsure", model.NativeContext.Unsure).
//
// The concrete search stops after rMaxConcrete states (values may grow in
// loops); the states it found are checked all the same.

const (
	rMaxConcrete = 2000
	rMaxAbstract = 10000
)

// rload parses and checks a generated model.
func rload(src string, name string) (*types.Program, error) {
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, name, []byte(src), 0)
	if err != nil {
		return nil, err
	}
	return types.Check(fset, f, nil)
}

// rstate is a reachable state of an enumeration.
type rstate struct {
	enc   string
	index int               // in the graph's states
	ctrl  string            // the concrete part
	preds map[string]string // predicate instance -> "true", "false", "?"
	errs  []rerr            // its error outcomes
	succ  []redge           // its successors
}

// redge is a step to a successor (to: its index; -1 beyond the bound).
type redge struct {
	thread int
	group  int32 // the first transformation of the step
	to     int
	single bool // the step is one visible transformation (not a run)
}

// rerr is an error outcome of a state.
type rerr struct {
	thread int
	group  int32 // the first transformation of the step
	kind   model.ErrorKind
	msg    string
}

// rgraph is the reachable part of a model.
type rgraph struct {
	states   []*rstate
	complete bool // every reachable state was expanded
	limits   []string
}

// rview projects the states of a model (the concrete one, or P′'s).
type rview struct {
	rm  *rmodel
	mod *model.Model
	// hidden holds, for P′, the name of each predicate's hidden variable
	// (nil for the concrete model: the predicates are evaluated).
	hidden []string
	skip   map[string]bool // the hidden variables' names
}

// rbase is the declared name of a value of model.Describe: "g0", "a" of
// T0[1].a, "x" of T0[1].f#1.x, "v" of Cells[0].v, "arr" of arr[2].
func rbase(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	return name
}

// project returns the concrete part of a state and the values of its
// predicate instances.
func (v *rview) project(enc []byte) (string, map[string]string) {
	vals := map[string]string{}
	var b strings.Builder
	var objs []string
	for _, x := range v.mod.Describe(enc) {
		vals[x.Name] = x.Value
		base := rbase(x.Name)
		if strings.HasSuffix(x.Name, "].next") {
			objs = append(objs, strings.TrimSuffix(x.Name, ".next"))
		}
		if strings.HasSuffix(x.Name, " @") || strings.HasSuffix(x.Name, " terminated") || !(v.rm.Ints[base] || v.skip[base]) {
			fmt.Fprintf(&b, "%s=%s ", x.Name, x.Value)
		}
	}
	type frame struct{ prefix, proc string }
	var frames []frame
	for _, f := range v.mod.Frames(enc, nil) {
		tn := v.mod.ThreadName(enc, f.Thread)
		fmt.Fprintf(&b, "|%s#%d %s@%s", tn, f.Depth, f.Proc.Name(), f.Loc.Name())
		if f.Done {
			b.WriteString("(done)")
		}
		prefix := tn + "."
		if f.Depth > 0 {
			prefix = tn + "." + f.Proc.Name() + "#" + strconv.Itoa(f.Depth) + "."
		}
		frames = append(frames, frame{prefix, f.Proc.Name()})
	}
	preds := map[string]string{}
	inst := func(i int, key string, env *renv, place string) {
		if v.hidden == nil {
			preds[key] = env.truth(v.rm.Preds[i].E)
			return
		}
		s, ok := vals[place+v.hidden[i]]
		switch {
		case !ok:
			s = "missing"
		case s == "0":
			s = "?"
		case s == "1":
			s = "false"
		case s == "2":
			s = "true"
		}
		preds[key] = s
	}
	for i, p := range v.rm.Preds {
		kind, name, _ := strings.Cut(p.Ctx, " ")
		switch kind {
		case "":
			inst(i, strconv.Itoa(i), &renv{vals: vals, globals: v.rm.Globals}, "")
		case "thread", "function":
			for _, f := range frames {
				if f.proc == name && (kind == "function") == strings.Contains(f.prefix, "#") {
					inst(i, strconv.Itoa(i)+"@"+f.prefix, &renv{vals: vals, globals: v.rm.Globals, frame: f.prefix}, f.prefix)
				}
			}
		case "record":
			for _, o := range objs {
				inst(i, strconv.Itoa(i)+"@"+o, &renv{vals: vals, globals: v.rm.Globals, this: o}, o+".")
			}
		}
	}
	return b.String(), preds
}

// enumerate explores m breadth-first from its initial state, up to max
// states.
func (v *rview) enumerate(max int) (*rgraph, error) {
	m := v.mod
	init, fail := m.Initial(nil)
	if fail != nil {
		return nil, fmt.Errorf("initial state: %s", fail.Msg)
	}
	g := &rgraph{complete: true}
	groups := m.Groups()
	index := map[string]int{}
	add := func(enc []byte) int {
		if i, ok := index[string(enc)]; ok {
			return i
		}
		if len(g.states) >= max {
			g.complete = false
			return -1
		}
		s := &rstate{enc: string(enc), index: len(g.states)}
		s.ctrl, s.preds = v.project(enc)
		index[s.enc] = len(g.states)
		g.states = append(g.states, s)
		return len(g.states) - 1
	}
	add(init)
	type out struct {
		enc  []byte
		edge redge
	}
	var outs []out
	for i := 0; i < len(g.states); i++ {
		s := g.states[i]
		outs = outs[:0]
		m.Next([]byte(s.enc), func(st *model.Step) {
			switch st.Outcome {
			case model.OK:
				single := len(st.Groups) == 1 && !groups[st.Groups[0]].Decl.Invisible
				outs = append(outs, out{append([]byte(nil), st.State...), redge{thread: st.Thread, group: st.Groups[0], single: single}})
			case model.Error:
				s.errs = append(s.errs, rerr{thread: st.Thread, group: st.Groups[0], kind: st.Kind, msg: st.Msg})
			case model.Limit:
				g.limits = append(g.limits, st.Msg)
			}
		})
		for _, o := range outs {
			o.edge.to = add(o.enc)
			s.succ = append(s.succ, o.edge)
		}
	}
	return g, nil
}

// rpredsText prints predicate instance values in a fixed order.
func rpredsText(p map[string]string) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%s ", k, p[k])
	}
	return b.String()
}

// rcounts counts what rcompare compared.
type rcounts struct {
	matched int // concrete states that needed a counterpart (and had one)
	steps   int // concrete steps of one visible transformation (each had a counterpart)
	errors  int // their errors (each had a counterpart)
	same    int // of which a counterpart of the same kind
	// instances: the predicate instances of the matched states; known:
	// of those, the most any counterpart knows (a runtime that knew
	// nothing would pass the comparison: the test requires knowledge)
	instances, known int
}

// rcompare checks that the states and errors of the concrete graph c are
// represented in the on-the-fly graph a, from the initial state on: a
// state that needs a counterpart must have one (an on-the-fly state of
// its concrete part whose known predicates agree with its truth); each of
// its errors must be an error of the same thread and transformation from
// some counterpart; each successor needs a counterpart too, and a step of
// one visible transformation must be a step of the same transformation
// between counterparts. (The runtime
// takes a step whose error it cannot exclude both ways, one failing and
// one going on, in a guard as in an action, so no concrete successor is
// left without a counterpart by an error the step only may raise.)
func rcompare(c, a *rgraph) (n rcounts, err error) {
	byCtrl := map[string][]*rstate{}
	for _, s := range a.states {
		byCtrl[s.ctrl] = append(byCtrl[s.ctrl], s)
	}
	reps := func(s *rstate) []*rstate {
		var out []*rstate
		for _, t := range byCtrl[s.ctrl] {
			if rrepresents(t.preds, s.preds) {
				out = append(out, t)
			}
		}
		return out
	}
	fails := func(reps []*rstate, thread int, group int32) (found bool, kinds map[model.ErrorKind]bool) {
		kinds = map[model.ErrorKind]bool{}
		for _, t := range reps {
			for _, f := range t.errs {
				if f.thread == thread && f.group == group {
					found = true
					kinds[f.kind] = true
				}
			}
		}
		return found, kinds
	}
	type step struct {
		from *rstate
		e    redge
	}
	via := map[int]step{} // how the search reached a state
	need, seen := []int{0}, map[int]bool{0: true}
	for len(need) > 0 {
		s := c.states[need[0]]
		need = need[1:]
		rs := reps(s)
		if len(rs) == 0 {
			var near []string
			for _, t := range byCtrl[s.ctrl] {
				near = append(near, rpredsText(t.preds))
			}
			from := ""
			if v, ok := via[s.index]; ok {
				found, _ := fails(reps(v.from), v.e.thread, v.e.group)
				from = fmt.Sprintf("\nreached from\n  %s\n  %s\nby thread %d, transformation %d (which fails on the fly: %v)",
					v.from.ctrl, rpredsText(v.from.preds), v.e.thread, v.e.group, found)
			}
			return n, fmt.Errorf("the concrete state\n  %s\n  %s\nis not represented; on-the-fly states of its concrete part: %d%s%s",
				s.ctrl, rpredsText(s.preds), len(near), strings.Join(append([]string{""}, near...), "\n  "), from)
		}
		n.matched++
		n.instances += len(s.preds)
		most := 0
		for _, t := range rs {
			k := 0
			for _, v := range t.preds {
				if v != "?" {
					k++
				}
			}
			most = max(most, k)
		}
		n.known += most
		for _, e := range s.errs {
			n.errors++
			found, kinds := fails(rs, e.thread, e.group)
			if !found {
				return n, fmt.Errorf("the concrete state\n  %s\n  %s\nfails (%s: %s, thread %d, transformation %d); no on-the-fly state that represents it does",
					s.ctrl, rpredsText(s.preds), e.kind, e.msg, e.thread, e.group)
			}
			if kinds[e.kind] {
				n.same++
			}
		}
		for _, e := range s.succ {
			if e.to < 0 {
				continue
			}
			if e.single {
				// the same transformation leads from a counterpart of
				// s to a counterpart of its successor (a run may rest on
				// the fly where the concrete one goes on: runs are
				// compared by their states only)
				if !rstepped(rs, e, c.states[e.to], a) {
					return n, fmt.Errorf("the concrete step of thread %d by transformation %d from\n  %s\n  %s\nto\n  %s\n  %s\nhas no counterpart between counterparts of the two states",
						e.thread, e.group, s.ctrl, rpredsText(s.preds), c.states[e.to].ctrl, rpredsText(c.states[e.to].preds))
				}
				n.steps++
			}
			if seen[e.to] {
				continue
			}
			via[e.to] = step{s, e}
			seen[e.to] = true
			need = append(need, e.to)
		}
	}
	return n, nil
}

// rstepped says whether some state of reps has a step of e's thread and
// transformation to a state of graph a that represents to.
func rstepped(reps []*rstate, e redge, to *rstate, a *rgraph) bool {
	for _, r := range reps {
		for _, f := range r.succ {
			if f.thread == e.thread && f.group == e.group && f.to >= 0 {
				if t := a.states[f.to]; t.ctrl == to.ctrl && rrepresents(t.preds, to.preds) {
					return true
				}
			}
		}
	}
	return false
}

// rrepresents says whether the on-the-fly predicate values a represent the
// concrete truth c: the same instances, every known one agreeing.
func rrepresents(a, c map[string]string) bool {
	if len(a) != len(c) {
		return false
	}
	for k, cv := range c {
		av, ok := a[k]
		if !ok || av == "missing" || (av != "?" && cv != "?" && av != cv) {
			return false
		}
	}
	return true
}

// rseeds returns the seeds 1..n, or 1..long in the long suite.
func rseeds(n, long int) []uint64 {
	if testenv.Long() {
		n = long
	}
	seeds := make([]uint64, n)
	for i := range seeds {
		seeds[i] = uint64(i + 1)
	}
	return seeds
}

// rseedList returns the seeds of list, or 1..long in the long suite.
func rseedList(list []uint64, long int) []uint64 {
	if testenv.Long() {
		return rseeds(0, long)
	}
	return list
}

// rconcrete builds and enumerates the concrete model of m, up to max
// states.
func rconcrete(m *rmodel, max int) (*rview, *rgraph, error) {
	prog, err := rload(m.Src, fmt.Sprintf("r%d.bir", m.Seed))
	if err != nil {
		return nil, nil, fmt.Errorf("the generated model does not check: %v", err)
	}
	mod, err := model.New(prog, model.Options{})
	if err != nil {
		return nil, nil, err
	}
	v := &rview{rm: m, mod: mod}
	g, err := v.enumerate(max)
	return v, g, err
}

// TestRandomModelsConcrete checks the generator and the concrete side of
// the soundness test: every generated model checks; the truth of the
// predicates the test computes agrees with birch's own evaluator on every
// reachable state (the predicates as a model's predicates section: a
// thread's locals through remote references, this as p; those of f and
// of the started thread W left out); and the models have variety: two
// threads, calls, the heap, arrays, errors of several kinds.
func TestRandomModelsConcrete(t *testing.T) {
	n := 50
	if testenv.Long() {
		n = 1500
	}
	counts := map[string]int{}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		m := rgenerate(seed, ropt)
		src, checked := rwithPredicates(m)
		prog, err := rload(src, "r.bir")
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		mod, err := model.New(prog, model.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var conds []ast.Expr
		for _, p := range prog.Predicates {
			conds = append(conds, p.Decl.Expr)
		}
		ev, err := mod.NewEvaluator(conds)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		v := &rview{rm: m, mod: mod}
		g, err := v.enumerate(rMaxConcrete)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		for _, s := range g.states {
			ev.Load([]byte(s.enc))
			for k, c := range checked {
				p := m.Preds[c.pred]
				key := strconv.Itoa(c.pred)
				switch {
				case p.Ctx == "record Cell":
					vals := map[string]string{}
					for _, x := range mod.Describe([]byte(s.enc)) {
						vals[x.Name] = x.Value
					}
					if vals["p"] == "null" {
						continue
					}
					key += "@" + vals["p"]
				case p.Ctx != "":
					for k := range s.preds {
						if strings.HasPrefix(k, key+"@"+c.thread+"[") {
							key = k
						}
					}
				}
				got, ok := s.preds[key]
				if !ok {
					t.Fatalf("seed %d: no instance %s of %s in %s", seed, key, p, rpredsText(s.preds))
				}
				want, cerr := ev.Eval(k)
				w := strconv.FormatBool(want)
				if cerr != nil && cerr.Kind == model.Overflow {
					continue // birch's evaluation overflows; the test's is the mathematical value
				}
				if cerr != nil {
					if cerr.Kind != model.NullDereference && cerr.Kind != model.IndexOutOfBounds {
						t.Fatalf("seed %d: %s: %v", seed, p, cerr)
					}
					w = "?"
				}
				if got != w {
					t.Fatalf("seed %d: the test evaluates %s to %s, birch to %s in\n%s", seed, p, got, w, s.ctrl)
				}
				counts["values compared"]++
			}
			for _, e := range s.errs {
				counts["error "+e.kind.String()]++
			}
			if strings.Contains(s.ctrl, " f@") {
				counts["states in a call"]++
			}
		}
		counts["states"] += len(g.states)
		if g.complete {
			counts["complete"]++
		}
		if len(g.limits) > 0 {
			t.Errorf("seed %d: limits %v", seed, g.limits)
		}
		for _, p := range m.Preds {
			counts["predicates "+strings.Fields(p.Ctx + " global")[0]]++
		}
		if m.Second != "" {
			counts["second thread "+m.Second]++
		}
		if m.Heap {
			counts["heap"]++
		}
		if m.HeapArr {
			counts["heap array"]++
		}
		if m.Sub {
			counts["subtype"]++
		}
		if strings.Contains(m.Src, "invisible") {
			counts["invisible"]++
		}
	}
	t.Logf("%d models: %v", n, counts)
	for _, k := range []string{"complete", "states in a call", "predicates record", "predicates function", "predicates thread", "predicates global", "second thread W", "second thread T1", "heap", "heap array", "subtype", "invisible",
		"error assertion", "error null-dereference", "error index-out-of-bounds", "error range"} {
		if counts[k] < n/50 {
			t.Errorf("the generator lacks variety: %q %d", k, counts[k])
		}
	}
	if counts["complete"] == n {
		t.Errorf("every model's state space is small: the generator lacks loops that grow")
	}
}

// rchecked is a predicate of a model's predicates section: which
// predicate, through which thread's remote references.
type rchecked struct {
	pred   int
	thread string
}

// rwithPredicates returns m's model with a predicates section that
// defines one predicate per predicate of m that birch's own evaluator can
// evaluate: a thread's locals read as remote references (T0 : a), this as
// p.
func rwithPredicates(m *rmodel) (string, []rchecked) {
	var b strings.Builder
	b.WriteString("\npredicates\n")
	var out []rchecked
	for i, p := range m.Preds {
		kind, name, _ := strings.Cut(p.Ctx, " ")
		var text string
		switch {
		case kind == "":
			text = p.E.String()
		case kind == "thread" && name != "W":
			text = p.E.text(func(v string) string {
				if m.Globals[v] {
					return v
				}
				return "(" + name + " : " + v + ")"
			})
		case kind == "record":
			text = strings.ReplaceAll(p.E.String(), "this", "p")
		default:
			continue
		}
		fmt.Fprintf(&b, "  pred%d = %s;\n", i, text)
		out = append(out, rchecked{pred: i, thread: name})
	}
	end := fmt.Sprintf("\nend R%d;\n", m.Seed)
	return strings.TrimSuffix(m.Src, end) + b.String() + end, out
}

// rinstrument builds P′ of a generated model and checks that apf abstracts
// exactly the model's int data.
func rinstrument(m *rmodel) (*apf.Program, error) {
	name := fmt.Sprintf("r%d.bir", m.Seed)
	p, err := apf.Instrument(source.NewFileSet(), name, []byte(m.Src), fmt.Sprintf("r%d.pred", m.Seed), []byte(m.PredFile()))
	if err != nil {
		return nil, err
	}
	if len(p.Slots) != len(m.Preds) {
		return nil, fmt.Errorf("%d slots for %d predicates", len(p.Slots), len(m.Preds))
	}
	for v := range p.Abstracted {
		if !m.Ints[v.Name()] {
			return nil, fmt.Errorf("%s is abstracted", v.Name())
		}
	}
	vars := append([]*types.Var(nil), p.Prog.Globals...)
	for _, pr := range append(append([]*types.Proc(nil), p.Prog.Threads...), p.Prog.Functions...) {
		vars = append(vars, pr.Vars()...)
	}
	for _, tn := range p.Prog.Types {
		if n := tn.Named(); n != nil {
			if rec, ok := n.Underlying().(*types.Record); ok {
				vars = append(vars, rec.Fields...)
			}
		}
	}
	for _, v := range vars {
		if m.Ints[v.Name()] && !p.Abstracted[v] {
			return nil, fmt.Errorf("%s is not abstracted", v.Name())
		}
	}
	return p, nil
}

// TestRandomInstrument checks that apf.Instrument takes every generated
// model and predicate file, abstracts exactly their int data, and
// supports their constructs.
func TestRandomInstrument(t *testing.T) {
	reasons := map[string]int{}
	uns := 0
	for seed := uint64(1); seed <= 300; seed++ {
		m := rgenerate(seed, ropt)
		p, err := rinstrument(m)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s\n%s", seed, err, m.Src, m.PredFile())
		}
		if p.Unsupported != nil {
			uns++
			for _, e := range p.Unsupported.(*apf.UnsupportedError).List {
				msg := e.Msg
				if i := strings.IndexAny(msg, ":("); i > 0 {
					msg = msg[:i]
				}
				reasons[msg]++
			}
		}
	}
	t.Logf("%d unsupported: %v", uns, reasons)
	if uns > 0 {
		t.Errorf("%d models unsupported", uns)
	}
}

// ronTheFly enumerates P′ of m run with native (apf's runtime, or a fake
// one for the self-test), up to max states.
func ronTheFly(m *rmodel, p *apf.Program, native model.Native, max int) (*rgraph, error) {
	am, err := model.New(p.Prog, model.Options{Native: native})
	if err != nil {
		return nil, fmt.Errorf("the on-the-fly model: %v", err)
	}
	av := &rview{rm: m, mod: am, skip: map[string]bool{}}
	for _, s := range p.Slots {
		av.hidden = append(av.hidden, s.Var.Name())
		av.skip[s.Var.Name()] = true
	}
	g, err := av.enumerate(max)
	if err != nil {
		return nil, fmt.Errorf("the on-the-fly model: %v", err)
	}
	return g, nil
}

// rfake is a Native for the self-test of the comparison: it replaces no
// expression; with lie it makes every global predicate true in every
// state, with skipAsserts it runs no assertion.
type rfake struct {
	p           *apf.Program
	lie         bool
	skipAsserts bool
}

func (f *rfake) Replaces(n ast.Node) bool {
	_, ok := n.(*ast.AssertAction)
	return ok && f.skipAsserts
}

func (f *rfake) Value(*model.NativeContext, ast.Expr) int64 {
	panic("rfake: no expression is replaced")
}

func (f *rfake) Action(*model.NativeContext, ast.Action) model.NativeResult { return model.NativeOK }
func (f *rfake) Begin(*model.NativeContext, int)                            {}

func (f *rfake) End(c *model.NativeContext, _ int) model.NativeResult {
	f.set(c)
	return model.NativeOK
}

func (f *rfake) Initial(c *model.NativeContext) model.NativeResult {
	f.set(c)
	return model.NativeOK
}

func (f *rfake) set(c *model.NativeContext) {
	if !f.lie {
		return
	}
	for _, s := range f.p.Slots {
		if s.Context == apf.Global {
			c.Cur().Slots()[c.Cur().Global(s.Var)] = 2
		}
	}
}

// TestSoundnessCheckSelf tests the comparison of TestSoundnessByEnumeration
// with fake runtimes on P′: one that knows nothing (every predicate
// unknown, the int data run concretely) represents every concrete state;
// one that claims every global predicate true after every step misses
// exactly the models where some reachable state makes a global predicate
// false; one that skips assertions misses the models whose concrete
// errors are all assertion failures.
func TestSoundnessCheckSelf(t *testing.T) {
	var lies, skips int
	for seed := uint64(1); seed <= 25; seed++ {
		m := rgenerate(seed, ropt)
		_, cg, err := rconcrete(m, 500)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		p, err := rinstrument(m)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		ag, err := ronTheFly(m, p, &rfake{p: p}, 500)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if _, err := rcompare(cg, ag); err != nil {
			t.Fatalf("seed %d: with every predicate unknown: %v\n%s%s", seed, err, m.Src, m.PredFile())
		}
		falseGlobal, asserts, others := false, 0, 0
		for _, s := range cg.states {
			for k, v := range s.preds {
				falseGlobal = falseGlobal || (v == "false" && !strings.Contains(k, "@"))
			}
			for _, e := range s.errs {
				if e.kind == model.Assertion {
					asserts++
				} else {
					others++
				}
			}
		}
		ag, err = ronTheFly(m, p, &rfake{p: p, lie: true}, 500)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		_, err = rcompare(cg, ag)
		if (err != nil) != falseGlobal || (err != nil && !strings.Contains(err.Error(), "is not represented") && !strings.Contains(err.Error(), "has no counterpart")) {
			t.Fatalf("seed %d: with every global predicate true, a global predicate false somewhere %v, the comparison says %v", seed, falseGlobal, err)
		}
		if err != nil {
			lies++
		}
		if asserts > 0 && others == 0 {
			ag, err = ronTheFly(m, p, &rfake{p: p, skipAsserts: true}, 500)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			_, err = rcompare(cg, ag)
			if err == nil || !strings.Contains(err.Error(), "no on-the-fly state that represents it does") {
				t.Fatalf("seed %d: without assertions, the comparison says %v", seed, err)
			}
			skips++
		}
	}
	t.Logf("lies found in %d models, skipped assertions in %d", lies, skips)
	if lies < 5 || skips < 3 {
		t.Errorf("the self-test exercises too few models")
	}
}
