package apf

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/ast"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
)

// The end-to-end tests of the runtime: a hand-written model is searched
// concretely (internal/model alone) and on the fly (P′ with the runtime as
// its Native), and every concrete reachable state must be represented: an
// on-the-fly state with the same concrete part (locations and the values
// apf does not abstract) whose known predicate instances agree with the
// truth of the predicates in the concrete state (computed by birch's own
// evaluator, model.FrameEvaluator). Every concrete error must be an error
// of the same thread and transformation from a representing state.

// e2eState is a reachable state, projected.
type e2eState struct {
	ctrl  string
	preds map[string]string // instance -> true, false, ? (unknown or undefined)
	errs  []string          // "thread/group" of its error outcomes
}

// e2eGraph is the reachable part of a model, projected.
type e2eGraph struct {
	states []*e2eState
	limits []string
	errs   map[string]bool // the kinds of the errors found
}

// e2eView projects the states of one model.
type e2eView struct {
	mod  *model.Model
	skip map[string]bool // the abstracted names (and collections of abstracted arrays)
	// the predicates: global, thread and function ones evaluated by fe on
	// the concrete model; on P′ read from the hidden variables
	preds  []*predicate.Predicate
	fe     *model.FrameEvaluator
	feIdx  []int
	record func(pred int, vals map[string]string) map[string]string // the truth of record instances (concrete only)
	hidden bool
}

func e2eBase(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	return name
}

func (v *e2eView) project(enc []byte) *e2eState {
	vals := map[string]string{}
	var b strings.Builder
	for _, x := range v.mod.Describe(enc) {
		vals[x.Name] = x.Value
		if !v.skip[e2eBase(x.Name)] && !strings.Contains(x.Name, "'") {
			fmt.Fprintf(&b, "%s=%s ", x.Name, x.Value)
		}
	}
	s := &e2eState{preds: map[string]string{}}
	frames := v.mod.Frames(enc, nil)
	for _, f := range frames {
		fmt.Fprintf(&b, "|%d#%d %s@%s %v", f.Thread, f.Depth, f.Proc.Name(), f.Loc.Name(), f.Done)
	}
	s.ctrl = b.String()
	if v.fe != nil {
		v.fe.Load(enc)
	}
	hiddenVal := func(name string) string {
		switch vals[name] {
		case "1":
			return "false"
		case "2":
			return "true"
		case "0":
			return "?"
		}
		return "missing " + name
	}
	for i, p := range v.preds {
		key := strconv.Itoa(i)
		hname := hiddenName(i)
		truth := func(thread, depth int) string {
			ok, err := v.fe.Eval(v.feIdx[i], thread, depth)
			if err != nil {
				return "?"
			}
			return strconv.FormatBool(ok)
		}
		switch {
		case p.Record != nil:
			if v.hidden {
				for name := range vals {
					if strings.HasSuffix(name, "."+hname) {
						s.preds[key+"@"+strings.TrimSuffix(name, "."+hname)] = hiddenVal(name)
					}
				}
			} else {
				for obj, t := range v.record(i, vals) {
					s.preds[key+"@"+obj] = t
				}
			}
		case p.Proc == nil:
			if v.hidden {
				s.preds[key] = hiddenVal(hname)
			} else {
				s.preds[key] = truth(0, 0)
			}
		default:
			for _, f := range frames {
				if f.Proc.Name() != p.Proc.Name() || (p.Proc.Thread && f.Depth != 0) {
					continue
				}
				k := fmt.Sprintf("%s@%d.%d", key, f.Thread, f.Depth)
				if v.hidden {
					tn := v.mod.ThreadName(enc, f.Thread)
					prefix := tn + "."
					if f.Depth > 0 {
						prefix = tn + "." + f.Proc.Name() + "#" + strconv.Itoa(f.Depth) + "."
					}
					s.preds[k] = hiddenVal(prefix + hname)
				} else {
					s.preds[k] = truth(f.Thread, f.Depth)
				}
			}
		}
	}
	return s
}

// enumerate explores the reachable states breadth-first, up to max.
func (v *e2eView) enumerate(t *testing.T, max int) *e2eGraph {
	t.Helper()
	m := v.mod
	init, fail := m.Initial(nil)
	if fail != nil {
		t.Fatalf("initial state: %s", fail.Msg)
	}
	g := &e2eGraph{errs: map[string]bool{}}
	var encs []string
	index := map[string]bool{}
	add := func(enc []byte) {
		if !index[string(enc)] && len(encs) < max {
			index[string(enc)] = true
			encs = append(encs, string(enc))
			g.states = append(g.states, v.project(enc))
		}
	}
	add(init)
	for i := 0; i < len(encs); i++ {
		var succ [][]byte
		m.Next([]byte(encs[i]), func(st *model.Step) {
			switch st.Outcome {
			case model.OK:
				succ = append(succ, append([]byte(nil), st.State...))
			case model.Error:
				g.states[i].errs = append(g.states[i].errs, fmt.Sprintf("%d/%d", st.Thread, st.Groups[0]))
				g.errs[st.Kind.String()] = true
			case model.Limit:
				g.limits = append(g.limits, st.Msg)
			}
		})
		for _, s := range succ {
			add(s)
		}
	}
	if len(encs) >= max {
		t.Fatalf("more than %d states", max)
	}
	return g
}

func predsText(p map[string]string) string {
	var keys []string
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

// represents says whether the on-the-fly values a represent the concrete
// truth c.
func represents(a, c map[string]string) bool {
	if len(a) != len(c) {
		return false
	}
	for k, cv := range c {
		av, ok := a[k]
		if !ok || strings.HasPrefix(av, "missing") || av != "?" && cv != "?" && av != cv {
			return false
		}
	}
	return true
}

// e2eCase is a model, its predicates and the truth of its record
// predicates in a concrete state (by the values model.Describe prints).
type e2eCase struct {
	name, src, preds string
	record           func(pred int, vals map[string]string) map[string]string
	// unsupported runs the case although Instrument lists unsupported
	// constructs (the runtime's handling of them is tested)
	unsupported bool
}

// fieldTruth is the truth of a record predicate test(v) of every object
// of collection coll (by its field f as model.Describe prints it).
func fieldTruth(vals map[string]string, coll, f string, test func(v int64) bool) map[string]string {
	out := map[string]string{}
	for k := 0; ; k++ {
		obj := coll + "[" + strconv.Itoa(k) + "]"
		s, ok := vals[obj+"."+f]
		if !ok {
			return out
		}
		v, err := strconv.ParseInt(s, 10, 64)
		out[obj] = strconv.FormatBool(err == nil && test(v))
	}
}

// e2eRun is the outcome of one case.
type e2eRun struct {
	conc, apf *e2eGraph
	rt        *Runtime
	prog      *Program
}

func runE2E(t *testing.T, c e2eCase) *e2eRun {
	t.Helper()
	// the concrete model
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, c.name+".bir", []byte(c.src), 0)
	if err != nil {
		t.Fatal(err)
	}
	cprog, err := types.Check(fset, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	cpreds, err := predicate.ParseFile(cprog, c.name+".pred", []byte(c.preds))
	if err != nil {
		t.Fatal(err)
	}
	cmod, err := model.New(cprog, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// the record predicates' truth comes from the case; the others are
	// compiled in their scopes (feIdx: a predicate's condition)
	var conds []ast.Expr
	var procs []*types.Proc
	feIdx := make([]int, len(cpreds.Predicates))
	for i, p := range cpreds.Predicates {
		feIdx[i] = len(conds)
		if p.Record == nil {
			conds, procs = append(conds, p.Expr), append(procs, p.Proc)
		}
	}
	fe, err := cmod.NewFrameEvaluator(conds, procs)
	if err != nil {
		t.Fatal(err)
	}
	// P′ and the runtime
	p, err := Instrument(source.NewFileSet(), c.name+".bir", []byte(c.src), c.name+".pred", []byte(c.preds))
	if err != nil {
		t.Fatal(err)
	}
	if p.Unsupported != nil && !c.unsupported {
		t.Fatalf("unsupported: %v", p.Unsupported)
	}
	rt, err := NewRuntime(p, Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rt.Close)
	amod, err := model.New(p.Prog, model.Options{Native: rt})
	if err != nil {
		t.Fatal(err)
	}
	checkGroups(t, cmod, amod)
	skip := map[string]bool{}
	for v := range p.Abstracted {
		skip[v.Name()] = true
	}
	for _, col := range p.Prog.Collections {
		if p.AbstractArrays[col.Elem] {
			skip[col.Name()] = true
		}
	}
	cv := &e2eView{mod: cmod, skip: skip, preds: cpreds.Predicates, fe: fe, feIdx: feIdx, record: c.record}
	av := &e2eView{mod: amod, skip: skip, preds: cpreds.Predicates, hidden: true}
	run := &e2eRun{conc: cv.enumerate(t, 5000), apf: av.enumerate(t, 5000), rt: rt, prog: p}
	if len(run.apf.limits) > 0 {
		t.Errorf("on the fly: limits %q", run.apf.limits)
	}
	compareE2E(t, run.conc, run.apf)
	if t.Failed() {
		t.FailNow()
	}
	// search.Run agrees with the enumeration
	res := search.Run(amod, search.Config{Strategy: search.BFS, NoDeadlock: true})
	if len(run.apf.errs) == 0 && res.Stats.States != len(run.apf.states) {
		t.Errorf("search.Run stored %d states, the enumeration %d", res.Stats.States, len(run.apf.states))
	}
	return run
}

// checkGroups checks that P′'s transformations are the original model's.
func checkGroups(t *testing.T, c, a *model.Model) {
	t.Helper()
	cg, ag := c.Groups(), a.Groups()
	if len(cg) != len(ag) {
		t.Fatalf("%d transformations in the model, %d in P′", len(cg), len(ag))
	}
	for i := range cg {
		if cg[i].From.Name() != ag[i].From.Name() || cg[i].Proc.Name() != ag[i].Proc.Name() || len(cg[i].Decl.Actions) != len(ag[i].Decl.Actions) {
			t.Fatalf("transformation %d differs", i)
		}
	}
}

// compareE2E checks that every concrete state and error is represented.
func compareE2E(t *testing.T, c, a *e2eGraph) {
	t.Helper()
	byCtrl := map[string][]*e2eState{}
	for _, s := range a.states {
		byCtrl[s.ctrl] = append(byCtrl[s.ctrl], s)
	}
	for _, s := range c.states {
		var reps []*e2eState
		for _, u := range byCtrl[s.ctrl] {
			if represents(u.preds, s.preds) {
				reps = append(reps, u)
			}
		}
		if len(reps) == 0 {
			var near []string
			for _, u := range byCtrl[s.ctrl] {
				near = append(near, predsText(u.preds))
			}
			t.Errorf("the concrete state\n  %s\n  %s\nis not represented; on-the-fly states of its concrete part:\n  %s", s.ctrl, predsText(s.preds), strings.Join(near, "\n  "))
			return
		}
		for _, e := range s.errs {
			found := false
			for _, u := range reps {
				for _, f := range u.errs {
					found = found || f == e
				}
			}
			if !found {
				t.Errorf("the concrete state\n  %s\nfails (%s); no representing on-the-fly state does", s.ctrl, e)
				return
			}
		}
	}
}

// at returns the on-the-fly states whose concrete part contains want.
func (g *e2eGraph) at(want string) []*e2eState {
	var out []*e2eState
	for _, s := range g.states {
		if strings.Contains(s.ctrl, want) {
			out = append(out, s)
		}
	}
	return out
}
