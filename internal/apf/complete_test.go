package apf_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/apf"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/source"
)

// The completeness of the classification, checked statically: for every
// node of P′ the model compiles, an expression that reads abstracted data
// is inside a node apf.Program.Replaced holds (the runtime computes it), and
// no node the model runs itself writes abstracted data, unless the model
// is reported Unsupported at a position inside the node. The walk mirrors
// what the model compiles (model.Native's doc: guards, actions but call,
// start and exit, a call's and a start's arguments, a call's Lhs, a
// return's result, each of one slot; arguments, results and call Lhs of
// several slots are copied by the model); the nodes the model asks
// model.Native.Replaces about are recorded and must be the ones the walk
// expects, so a new place where the model compiles an expression shows
// up here. Whether data are abstracted is decided here from the types
// (apf.AbstractType of each variable's, field's and element's type), not
// from apf.Program.Abstracted, which is checked against it.

// askRecorder is a Native that answers Replaces from an apf.Program and
// records what the model asked; the model is only compiled, never run.
type askRecorder struct {
	p     *apf.Program
	asked map[ast.Node]bool
}

func (a *askRecorder) Replaces(n ast.Node) bool {
	a.asked[n] = true
	return a.p.Replaced[n]
}
func (a *askRecorder) Value(*model.NativeContext, ast.Expr) int64 { return 0 }
func (a *askRecorder) Action(*model.NativeContext, ast.Action) model.NativeResult {
	return model.NativeOK
}
func (a *askRecorder) Begin(*model.NativeContext, int)                  {}
func (a *askRecorder) End(*model.NativeContext, int) model.NativeResult { return model.NativeOK }
func (a *askRecorder) Initial(*model.NativeContext) model.NativeResult  { return model.NativeOK }

// completeness is the walk over one P′.
type completeness struct {
	p        *apf.Program
	info     *types.Info
	fset     *source.FileSet
	expected map[ast.Node]bool // the nodes the model should ask about
	problems []string
	// lhsReplaced: the functions some call of which has a replaced Lhs
	lhsReplaced map[*types.Proc]bool
}

func (k *completeness) posString(n ast.Node) string {
	return k.fset.Position(n.Pos()).String()
}

func (k *completeness) problem(n ast.Node, format string, args ...any) {
	k.problems = append(k.problems, fmt.Sprintf("%s: ", k.posString(n))+fmt.Sprintf(format, args...))
}

// abstractVar reports whether v's values are abstracted, and checks that
// apf.Program.Abstracted agrees.
func (k *completeness) abstractVar(n ast.Node, v *types.Var) bool {
	abs := apf.AbstractType(v.Type())
	if v.Kind == types.ThisVar {
		abs = false
	}
	if abs != k.p.Abstracted[v] {
		k.problem(n, "%s (of type %s): Abstracted says %v, its type %v", v.Name(), v.Type(), k.p.Abstracted[v], abs)
	}
	return abs
}

// reading returns a node of x that reads abstracted data, or nil.
func (k *completeness) reading(x ast.Node) ast.Node {
	var found ast.Node
	ast.Inspect(x, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident:
			if v, ok := k.info.Uses[n].(*types.Var); ok && k.abstractVar(n, v) {
				found = n
			}
		case *ast.SelectorExpr:
			if v, ok := k.info.Uses[n.Sel].(*types.Var); ok && k.abstractVar(n, v) {
				found = n
			}
		case *ast.IndexExpr:
			if apf.AbstractType(k.info.TypeOf(n)) {
				found = n
			}
		}
		return found == nil
	})
	return found
}

// unsupportedIn reports whether the model is reported Unsupported at a
// position inside n.
func (k *completeness) unsupportedIn(n ast.Node) bool {
	ue, _ := k.p.Unsupported.(*apf.UnsupportedError)
	if ue == nil {
		return false
	}
	from, to := k.fset.Position(n.Pos()), k.fset.Position(n.End())
	before := func(a, b source.Position) bool {
		return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
	}
	for _, e := range ue.List {
		if e.Pos.Filename == from.Filename && !before(e.Pos, from) && before(e.Pos, to) {
			return true
		}
	}
	return false
}

// modelRuns checks a node the model compiles itself (not replaced): it
// must not read abstracted data, unless it is reported unsupported.
func (k *completeness) modelRuns(n ast.Node, what string) {
	if r := k.reading(n); r != nil && !k.unsupportedIn(n) {
		k.problem(n, "%s %s is run by the model but reads abstracted data (%s), and is neither replaced nor unsupported", what, excerpt(n), excerpt(r))
	}
}

func excerpt(n ast.Node) string {
	switch n := n.(type) {
	case ast.Expr:
		return source.Excerpt(format.Expr(n))
	case ast.Action:
		return fmt.Sprintf("%T", n)
	}
	return fmt.Sprintf("%T", n)
}

func multiSlot(t types.Type) bool {
	if t == nil {
		return false
	}
	_, arr := t.Underlying().(*types.Array)
	return arr || types.Slots(t) != 1
}

// asked records that the model asks about x (an expression of one slot)
// and returns whether x is replaced.
func (k *completeness) asked(x ast.Expr) bool {
	k.expected[x] = true
	return k.p.Replaced[x]
}

// args checks the arguments of a call or a start of pr.
func (k *completeness) args(pr *types.Proc, args []ast.Expr) {
	for i, x := range args {
		if pr == nil || i >= len(pr.Params) {
			return
		}
		param := pr.Params[i]
		absParam := apf.AbstractType(param.Type())
		if multiSlot(k.info.TypeOf(x)) {
			// copied slot by slot by the model
			if (absParam || k.reading(x) != nil) && !k.unsupportedIn(x) {
				k.problem(x, "the argument %s of several slots for %s of %s involves abstracted data, and the model copies it: not unsupported", excerpt(x), param.Name(), pr.Name())
			}
			continue
		}
		if k.asked(x) {
			continue
		}
		k.modelRuns(x, "the argument")
		if absParam && !k.unsupportedIn(x) {
			k.problem(x, "the argument %s for the abstracted parameter %s of %s is not replaced: the model writes its value into the parameter's slot", excerpt(x), param.Name(), pr.Name())
		}
	}
}

// action checks one action.
func (k *completeness) action(a ast.Action) {
	switch a := a.(type) {
	case *ast.ExitAction:
		return
	case *ast.StartAction:
		pr, _ := k.info.Uses[a.Thread].(*types.Proc)
		k.args(pr, a.Args)
		if a.Lhs != nil {
			k.modelRuns(a.Lhs, "the thread identifier's place")
		}
		return
	case *ast.CallAction:
		f, _ := k.info.Uses[a.Func].(*types.Proc)
		k.args(f, a.Args)
		if a.Lhs == nil || f == nil {
			return
		}
		lt := k.info.TypeOf(a.Lhs)
		if multiSlot(lt) {
			if (apf.AbstractType(lt) || apf.AbstractType(f.Result) || k.reading(a.Lhs) != nil) && !k.unsupportedIn(a.Lhs) {
				k.problem(a.Lhs, "the result of %s stored in %s of several slots involves abstracted data, and the model copies it: not unsupported", f.Name(), excerpt(a.Lhs))
			}
			return
		}
		if k.asked(a.Lhs) {
			k.lhsReplaced[f] = true
			return
		}
		k.modelRuns(a.Lhs, "the call's left-hand side")
		switch {
		case apf.AbstractType(lt) && !k.unsupportedIn(a.Lhs):
			k.problem(a.Lhs, "the model stores the result of %s into the abstracted %s", f.Name(), excerpt(a.Lhs))
		case apf.AbstractType(f.Result) && !k.unsupportedIn(a.Lhs):
			k.problem(a.Lhs, "the model stores the abstracted result of %s (the default the runtime returns) into %s", f.Name(), excerpt(a.Lhs))
		}
		return
	}
	k.expected[a] = true
	if k.p.Replaced[a] {
		return
	}
	k.modelRuns(a, "the action")
	// the places the model writes
	var lhs ast.Expr
	switch a := a.(type) {
	case *ast.AssignAction:
		lhs = a.Lhs
	case *ast.ChooseAction:
		lhs = a.Lhs
	case *ast.NewAction:
		lhs = a.Lhs
	case *ast.ForallAction:
		lhs = a.Lhs
	case *ast.ReachableAction:
		lhs = a.Lhs
	}
	if lhs != nil && apf.AbstractType(k.info.TypeOf(lhs)) && !k.unsupportedIn(a) {
		k.problem(a, "the model writes the abstracted %s", excerpt(lhs))
	}
}

// transformation checks the guard and the actions of t.
func (k *completeness) transformation(t *ast.Transformation) {
	if t.Guard != nil {
		k.expected[t.Guard] = true
		if !k.p.Replaced[t.Guard] {
			k.modelRuns(t.Guard, "the guard")
		}
	}
	for _, a := range t.Actions {
		k.action(a)
	}
}

// result checks the result of a `return x` of pr (after every call was
// seen).
func (k *completeness) result(pr *types.Proc, x ast.Expr) {
	if multiSlot(k.info.TypeOf(x)) {
		if (apf.AbstractType(pr.Result) || k.reading(x) != nil) && !k.unsupportedIn(x) {
			k.problem(x, "the result %s of several slots of %s involves abstracted data, and the model copies it: not unsupported", excerpt(x), pr.Name())
		}
		return
	}
	if k.asked(x) {
		return
	}
	k.modelRuns(x, "the result")
	switch {
	case apf.AbstractType(pr.Result) && !k.unsupportedIn(x):
		k.problem(x, "the result %s of %s, whose result type is abstracted, is not replaced: the runtime never learns it", excerpt(x), pr.Name())
	case k.lhsReplaced[pr] && !k.unsupportedIn(x):
		k.problem(x, "the result %s of %s is not replaced, but a call of %s has a replaced left-hand side: the runtime never learns it", excerpt(x), pr.Name(), pr.Name())
	}
}

// checkComplete walks P′ and the model compiled from it; it returns the
// problems found.
func checkComplete(p *apf.Program) []string {
	k := &completeness{p: p, info: p.Prog.Info, fset: p.Prog.Fset, expected: map[ast.Node]bool{}, lhsReplaced: map[*types.Proc]bool{}}
	procs := append(append([]*types.Proc(nil), p.Prog.Threads...), p.Prog.Functions...)
	type ret struct {
		pr *types.Proc
		x  ast.Expr
	}
	var rets []ret
	for _, pr := range procs {
		for _, l := range pr.Body().Locations {
			for _, t := range l.Transformations {
				k.transformation(t)
				if t.Return && t.Result != nil {
					rets = append(rets, ret{pr, t.Result})
				}
			}
		}
	}
	for _, r := range rets {
		k.result(r.pr, r.x)
	}
	// every replaced node is one the model asks about
	for n := range p.Replaced {
		if !k.expected[n] && !k.unsupportedIn(n) {
			k.problem(n, "replaced, but the model never asks about %s", excerpt(n))
		}
	}
	// the model asks about what the walk expects
	rec := &askRecorder{p: p, asked: map[ast.Node]bool{}}
	if _, err := model.New(p.Prog, model.Options{Native: rec}); err != nil {
		k.problems = append(k.problems, "model.New: "+err.Error())
		return k.problems
	}
	for n := range k.expected {
		if !rec.asked[n] {
			k.problem(n, "the walk expects the model to ask about %s; it did not", excerpt(n))
		}
	}
	for n := range rec.asked {
		if !k.expected[n] {
			k.problem(n, "the model asked about %s, which the walk does not expect", excerpt(n))
		}
	}
	return k.problems
}

// completeModels are the models the completeness check walks: the
// examples and the model's test data (each with its predicate file when
// it has one) and hand-written corner cases.
func completeModels(t *testing.T) map[string][2]string {
	t.Helper()
	out := map[string][2]string{}
	for _, dir := range []string{"../../examples", "../model/testdata"} {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".bir") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			preds := ""
			if b, err := os.ReadFile(strings.TrimSuffix(path, ".bir") + ".pred"); err == nil {
				preds = string(b)
			}
			out[path] = [2]string{string(src), preds}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestCompleteness(t *testing.T) {
	checked := 0
	for name, c := range completeModels(t) {
		p, err := apf.Instrument(source.NewFileSet(), name, []byte(c[0]), name+".pred", []byte(c[1]))
		if err != nil {
			continue // a model that does not check (an example of an error)
		}
		checked++
		for _, pr := range checkComplete(p) {
			t.Errorf("%s", pr)
		}
	}
	t.Logf("%d models walked", checked)
	if checked < 40 {
		t.Errorf("only %d models walked", checked)
	}
}

func TestCompletenessRandom(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		m := rgenerate(seed, ropt)
		p, err := apf.Instrument(source.NewFileSet(), "r.bir", []byte(m.Src), "r.pred", []byte(m.PredFile()))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, pr := range checkComplete(p) {
			t.Errorf("seed %d: %s", seed, pr)
		}
	}
}

// completeCorners are hand-written models with the constructs where the
// model could run abstracted data itself.
var completeCorners = map[string]string{
	"heap and value arrays": `system S ()
Ints = array [3] of int;
Grid = array [2] of Ints;
IA : collection [2] of Ints;
GA : collection [1] of Grid;
R = record { v : int; arr : Ints; b : boolean; m : lock wait; t : tid; };
T = record { v : int; arr : Ints; b : boolean; m : lock wait; t : tid; w : range 0..1000; };
T extends R;
Rs : collection [2] of R;
Ts : collection [1] of T;
RA = array [3] of ref R;
g : int;
va, vb : Ints;
grid : Grid;
refs : RA;
small : range 0..5;
E = enum { A, B, C };
e : E;
w8 : int8;
function id (a : Ints) : Ints
  loc i0:
    when true do { } return a;
end id;
function pick (a : Ints; k : range 0..2) : int
  loc p0:
    when a[k] > 0 do { } return a[k];
    when !(a[k] > 0) do { } return 0;
end pick;
function cnt (n : int) : range 0..5
  loc c0:
    when n > 5 do { } return 5;
    when !(n > 5) do { } return 0;
end cnt;
thread W (p : ref R; n : int; b : boolean)
  loc w0:
    when p != null do { lock(p.m); p.v := p.v + n; unlock(p.m); } goto w1;
  loc w1:
end W;
main thread M ()
  a : ref Ints;
  h : ref Grid;
  p : ref R;
  q : ref T;
  i : range 0..2;
  x : int;
  loc s0:
    when true do { a := new IA[3]; h := new GA[2]; p := new Rs; q := new Ts; refs[1] := p; } goto s1;
  loc s1:
    when true do { a[i] := g; va := vb; grid[i] := va; grid[1][i] := x; h[1] := va; va[i] := h[0][i]; } goto s2;
  loc s2:
    when true do { p.arr := va; q.arr[i] := 3; q.w := q.v; p := q; p.v := 1; refs[i].v := x; } goto s3;
  loc s3:
    when true do { va := call id(vb); } goto s4;
  loc s4:
    when true do { x := call pick(va, i); } goto s5;
  loc s5:
    when true do { small := call cnt(x); } goto s6;
  loc s6:
    when true do { p.t := start W(p, x, x > 0); refs[i] := p; } goto s7;
  loc s7:
    when true do { small := x; e := internChoose(A, B); p.b := x == 2; w8 := int8(i); } goto s8;
  loc s8:
    when true do { x := internChoose(0 .. small); g := externChoose(int); small := internChoose(0 .. 5); } goto s9;
  loc s9:
    when true do { println(x, small); println(va); println(a[i], grid); } goto s10;
  loc s10:
    when h[i][i] > 0 && a.length > 2 do { assert(q.w > 3); assume(refs[i].v > 0); } goto s11;
  loc s11:
    when q instanceof T do { p := forall(T); p := reachable(refs[i], R); } goto s12;
  loc s12:
    when lockAvailable(p.m) do { lock(p.m); notify(p.m); unlock(p.m); } goto s13;
  loc s13:
    when true do { exit; } goto s14;
  loc s14:
end M;
end S;
`,
	"unsupported places": `system S ()
Ints = array [3] of int;
IA : collection [2] of Ints;
R = record { v : int; m : lock; };
Rs : collection [2] of R;
RA = array [3] of ref R;
refs : RA;
ls : array [3] of lock;
ts : array [3] of tid;
g : int;
w : int32;
va : Ints;
vv : array [2] of Ints;
function id (a : Ints) : Ints
  loc i0:
    when true do { } return a;
end id;
function one () : int
  loc o0:
    when true do { } return 1;
end one;
thread W (n : int16)
  loc w0:
end W;
main thread M ()
  a : ref Ints;
  p : ref R;
  loc s0:
    when true do { lock(ls[g]); refs[g] := new Rs; a := new IA[g]; } goto s1;
  loc s1:
    when true do { ts[g] := start W(g); w := g; p := refs[g]; } goto s2;
  loc s2:
    when true do { va := call id(vv[g]); } goto s2b;
  loc s2b:
    when true do { w := call one(); } goto s3;
  loc s3:
    when lockAvailable(ls[g]) do { p := forall(R); refs[g] := reachable(p, R); } goto s4;
  loc s4:
    when true do { vv[g] := va; va := vv[g]; } goto s5;
  loc s5:
end M;
end S;
`,
}

func TestCompletenessCorners(t *testing.T) {
	for name, src := range completeCorners {
		t.Run(name, func(t *testing.T) {
			p, err := apf.Instrument(source.NewFileSet(), "c.bir", []byte(src), "c.pred", []byte("g > 0\n"))
			if err != nil {
				t.Fatal(err)
			}
			for _, pr := range checkComplete(p) {
				t.Errorf("%s", pr)
			}
			t.Logf("unsupported: %v", p.Unsupported)
		})
	}
}

// The walk catches a classification that leaves out any one replaced
// node: every node of Replaced is needed (or reported unsupported).
func TestCompletenessCatches(t *testing.T) {
	srcs := map[string][2]string{}
	for name, src := range completeCorners {
		srcs[name] = [2]string{src, "g > 0\n"}
	}
	for name, c := range completeModels(t) {
		srcs[name] = c
	}
	mutants := 0
	for name, c := range srcs {
		p, err := apf.Instrument(source.NewFileSet(), name, []byte(c[0]), name+".pred", []byte(c[1]))
		if err != nil {
			continue
		}
		var nodes []ast.Node
		for n := range p.Replaced {
			nodes = append(nodes, n)
		}
		for _, n := range nodes {
			delete(p.Replaced, n)
			if probs := checkComplete(p); len(probs) == 0 {
				k := &completeness{p: p, fset: p.Prog.Fset}
				if !k.unsupportedIn(n) {
					t.Errorf("%s: without %s replaced, the walk finds nothing", k.posString(n), excerpt(n))
				}
			}
			p.Replaced[n] = true
			mutants++
		}
	}
	t.Logf("%d mutants", mutants)
}
