package model

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// fakeNative is a Native for tests: the nodes whose text (an expression's
// format, an assignment's `lhs := rhs`, or `lhs@line` for a call's Lhs)
// is a key of exprs or acts are replaced, and computed by the functions
// there. It counts Begin and End per group.
type fakeNative struct {
	exprs   map[string]func(c *NativeContext) int64
	acts    map[string]func(c *NativeContext) NativeResult
	lhs     map[string]bool // call Lhs texts replaced
	begin   func(c *NativeContext, g int)
	end     func(c *NativeContext, g int) NativeResult
	initial func(c *NativeContext) NativeResult

	asked           []string // what Replaces was asked about
	begins, ends    map[int]int
	inRun           bool // between Begin and End (or the run's failure)
	beginWithoutEnd int  // Begin called while a run was open
}

func actionText(a ast.Action) string {
	switch a := a.(type) {
	case *ast.AssignAction:
		return format.Expr(a.Lhs) + " := " + format.Expr(a.Rhs)
	case *ast.ChooseAction:
		if a.Type != nil && a.Extern {
			return format.Expr(a.Lhs) + " := externChoose(" + format.TypeExpr(a.Type) + ")"
		}
	}
	return ""
}

func (f *fakeNative) Replaces(n ast.Node) bool {
	switch n := n.(type) {
	case ast.Expr:
		f.asked = append(f.asked, format.Expr(n))
		if f.lhs[format.Expr(n)] {
			return true
		}
		_, ok := f.exprs[format.Expr(n)]
		return ok
	case ast.Action:
		f.asked = append(f.asked, actionText(n))
		_, ok := f.acts[actionText(n)]
		return ok
	}
	return false
}

func (f *fakeNative) Value(c *NativeContext, e ast.Expr) int64 { return f.exprs[format.Expr(e)](c) }

func (f *fakeNative) Action(c *NativeContext, a ast.Action) NativeResult {
	return f.acts[actionText(a)](c)
}

func (f *fakeNative) Begin(c *NativeContext, g int) {
	if f.inRun {
		f.beginWithoutEnd++
	}
	f.inRun = true
	f.begins[g]++
	if f.begin != nil {
		f.begin(c, g)
	}
}

func (f *fakeNative) End(c *NativeContext, g int) NativeResult {
	f.inRun = false
	f.ends[g]++
	if f.end != nil {
		return f.end(c, g)
	}
	return NativeOK
}

func (f *fakeNative) Initial(c *NativeContext) NativeResult {
	if f.initial != nil {
		return f.initial(c)
	}
	return NativeOK
}

func newFake() *fakeNative {
	return &fakeNative{
		exprs:  map[string]func(*NativeContext) int64{},
		acts:   map[string]func(*NativeContext) NativeResult{},
		lhs:    map[string]bool{},
		begins: map[int]int{}, ends: map[int]int{},
	}
}

// checkProg parses and checks a BIR source, as file name.
func checkProg(t *testing.T, name, src string) *types.Program {
	t.Helper()
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, name, []byte(src), 0)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// global, local and fieldVar find variables of prog by name.
func global(prog *types.Program, name string) *types.Var {
	for _, g := range prog.Globals {
		if g.Name() == name {
			return g
		}
	}
	panic("no global " + name)
}

func local(prog *types.Program, proc, name string) *types.Var {
	for _, p := range append(slices.Clone(prog.Threads), prog.Functions...) {
		if p.Name() != proc {
			continue
		}
		for _, v := range p.Vars() {
			if v.Name() == name {
				return v
			}
		}
	}
	panic("no local " + proc + "." + name)
}

func fieldVar(prog *types.Program, typ, name string) *types.Var {
	for _, c := range prog.Collections {
		for n := c.Elem; n != nil; n = n.Super {
			if n.Obj().Name() == typ {
				return n.Underlying().(*types.Record).Field(name)
			}
		}
	}
	panic("no field " + typ + "." + name)
}

// reach explores m breadth-first and returns the reachable states, the
// number of OK outcomes and the other outcomes; each OK outcome is passed
// to ok (when not nil) first.
func reach(t *testing.T, m *Model, ok func(st *Step)) (states map[string]bool, edges int, other []Step) {
	t.Helper()
	s0, fail := m.Initial(nil)
	if fail != nil {
		t.Fatalf("initial: %s", fail.Msg)
	}
	states = map[string]bool{string(s0): true}
	queue := [][]byte{s0}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		m.Next(s, func(st *Step) {
			if st.Outcome != OK {
				other = append(other, *st)
				return
			}
			if ok != nil {
				ok(st)
			}
			edges++
			if !states[string(st.State)] {
				states[string(st.State)] = true
				queue = append(queue, append([]byte(nil), st.State...))
			}
		})
		if len(states) > 10000 {
			t.Fatal("too many states")
		}
	}
	return states, edges, other
}

const nativeEquivSrc = `system N ()
R = record { v : range 0..9; w : range 0..9; };
S = record { v : range 0..9; w : range 0..9; z : boolean; };
S extends R;
Rs : collection [1] of R;
Ss : collection [1] of S;
A = array [3] of range 0..9;
As : collection [1] of A;
RRef = ref R;
ARef = ref A {As};
g : range 0..9;
function f (p : range 0..9) : range 0..9
  loc f0: when true do { } return p + 1;
end f;
main thread M ()
  x : range 0..5;
  o : RRef;
  a : ARef;
  y : range 0..9;
  loc m0:
    when x < 2 do { x := x + 1; } goto m0;
    when x >= 2 do { o := new Rs; a := new As[2]; } goto m1;
  loc m1:
    when true do { o.w := x; a[1] := x + 1; g := x; } goto m2;
  loc m2:
    when true do { y := call f(o.w); } goto m3;
  loc m3:
    when true do { o := new Ss; } goto m4;
  loc m4:
    when true do { o.w := a[1]; } goto m5;
  loc m5:
    when true do { y := call f(o.w); } goto m6;
  loc m6:
end M;
main thread T ()
  loc t0:
    when g > 0 do { g := g - 1; } goto t0;
end T;
end N;
`

// The model with guards, actions, a call's argument and a return's result
// left to native code that computes them as the model would, through
// Local, Global, Field (also of a supertype's field on a subtype's object)
// and Elem, reaches the same states by as many transitions as the model
// alone; Begin and End are called once per run; in each End the state's
// frames and objects are those of the state emitted next.
func TestNativeReplacedMatchesModel(t *testing.T) {
	plainProg := checkProg(t, "native.bir", nativeEquivSrc)
	plain, err := New(plainProg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantStates, wantEdges, wantOther := reach(t, plain, nil)

	prog := checkProg(t, "native.bir", nativeEquivSrc)
	x, o, a := local(prog, "M", "x"), local(prog, "M", "o"), local(prog, "M", "a")
	p := local(prog, "f", "p")
	g := global(prog, "g")
	w := fieldVar(prog, "R", "w")
	fk := newFake()
	loc := func(c *NativeContext, v *types.Var) int {
		i := c.Cur().Local(c.Thread(), c.Depth(), v)
		if i < 0 {
			t.Fatalf("no slot for %s", v.Name())
		}
		return i
	}
	cur := func(c *NativeContext, i int) int64 { return c.Cur().Slots()[i] }
	fk.exprs["x < 2"] = func(c *NativeContext) int64 { return b2i(cur(c, loc(c, x)) < 2) }
	fk.exprs["g > 0"] = func(c *NativeContext) int64 { return b2i(cur(c, c.Cur().Global(g)) > 0) }
	fk.exprs["o.w"] = func(c *NativeContext) int64 { return cur(c, c.Cur().Field(cur(c, loc(c, o)), w)) }
	fk.exprs["p + 1"] = func(c *NativeContext) int64 { return cur(c, loc(c, p)) + 1 }
	fk.acts["x := x + 1"] = func(c *NativeContext) NativeResult {
		c.Cur().Slots()[loc(c, x)] = c.Pre().Slots()[c.Pre().Local(c.Thread(), c.Depth(), x)] + 1
		return NativeOK
	}
	fk.acts["o.w := x"] = func(c *NativeContext) NativeResult {
		c.Cur().Slots()[c.Cur().Field(cur(c, loc(c, o)), w)] = cur(c, loc(c, x))
		return NativeOK
	}
	fk.acts["a[1] := x + 1"] = func(c *NativeContext) NativeResult {
		s := c.Cur()
		ref := cur(c, loc(c, a))
		if s.Length(ref) != 2 || s.Elem(ref, 2) != -1 || s.Elem(ref, -1) != -1 {
			t.Errorf("array: length %d, elem 2 at %d", s.Length(ref), s.Elem(ref, 2))
		}
		s.Slots()[s.Elem(ref, 1)] = cur(c, loc(c, x)) + 1
		return NativeOK
	}
	fk.acts["o.w := a[1]"] = func(c *NativeContext) NativeResult {
		s := c.Cur()
		s.Slots()[s.Field(cur(c, loc(c, o)), w)] = cur(c, s.Elem(cur(c, loc(c, a)), 1))
		return NativeOK
	}
	var frames []Frame
	var objs []NativeObject
	var endSlots []int64
	fk.end = func(c *NativeContext, gi int) NativeResult {
		endSlots = append(endSlots[:0], c.Cur().Slots()...)
		frames = c.Cur().Frames(frames[:0])
		objs = c.Cur().Objects(objs[:0])
		if c.Thread() == 0 {
			if ref := cur(c, c.Cur().Local(0, 0, o)); ref != 0 && !slices.ContainsFunc(objs, func(ob NativeObject) bool { return ob.Ref == ref }) {
				t.Errorf("o = %d is not among the objects %v", ref, objs)
			}
		}
		return NativeOK
	}
	m, err := New(prog, Options{Native: fk, TransitionCache: CacheOn})
	if err != nil {
		t.Fatal(err)
	}
	m.checkEncoding = true
	for _, want := range []string{"x < 2", "g > 0", "o.w", "p + 1", "x := x + 1", "o.w := x", "a[1] := x + 1", "o.w := a[1]", "y"} {
		if !slices.Contains(fk.asked, want) {
			t.Errorf("Replaces was not asked about %s (asked: %q)", want, fk.asked)
		}
	}
	var checked int
	states, edges, other := reach(t, m, func(st *Step) {
		if got := m.NativeState(st.State).Slots(); !slices.Equal(got, endSlots) {
			t.Errorf("End's slots %v, the state's %v", endSlots, got)
		}
		if got := m.Frames(st.State, nil); !slices.Equal(got, frames) {
			t.Errorf("End's frames %v, the state's %v", frames, got)
		}
		var want []NativeObject
		for _, d := range m.Describe(st.State) {
			for _, c := range prog.Collections {
				if strings.HasPrefix(d.Name, c.Name()+"[") && strings.Count(d.Name, ".") == 1 && (strings.HasSuffix(d.Name, ".v") || strings.HasSuffix(d.Name, ".length")) {
					want = append(want, NativeObject{Coll: c, Type: c.Elem})
				}
			}
		}
		if len(want) != len(objs) {
			t.Errorf("End's objects %v, the state's %v", objs, want)
		}
		for i := range min(len(want), len(objs)) {
			if objs[i].Coll != want[i].Coll || objs[i].Type != want[i].Type || objs[i].Ref != int64(m.colls[objs[i].Coll.Index].first+1) {
				t.Errorf("object %d: %+v, want %+v", i, objs[i], want[i])
			}
		}
		checked++
	})
	t.Logf("%d states, %d transitions, %d other outcomes", len(states), edges, len(other))
	if len(states) != len(wantStates) || edges != wantEdges || len(other) != len(wantOther) {
		t.Fatalf("native: %d states, %d transitions, %d other outcomes; the model: %d, %d, %d", len(states), edges, len(other), len(wantStates), wantEdges, len(wantOther))
	}
	for s := range wantStates {
		if !states[s] {
			t.Fatalf("state %v not reached with native code", plain.Describe([]byte(s)))
		}
	}
	total := 0
	for gi, n := range fk.begins {
		if fk.ends[gi] != n {
			t.Errorf("group %d: %d Begin, %d End", gi, n, fk.ends[gi])
		}
		total += n
	}
	if total != edges || fk.beginWithoutEnd != 0 || checked != edges {
		t.Errorf("%d runs begun for %d transitions (%d Begin without End, %d checked)", total, edges, fk.beginWithoutEnd, checked)
	}
	if m.tc.allowed {
		t.Error("the transition cache is allowed with native code")
	}
}

// nativeModel compiles src with fk as the native code.
func nativeModel(t *testing.T, src string, fk *fakeNative) (*Model, *types.Program) {
	t.Helper()
	prog := checkProg(t, "native.bir", src)
	m, err := New(prog, Options{Native: fk})
	if err != nil {
		t.Fatal(err)
	}
	m.checkEncoding = true
	return m, prog
}

// successors returns the outcomes of Next on state, copied.
func successors(m *Model, state []byte) []Step {
	var out []Step
	m.Next(state, func(st *Step) {
		c := *st
		c.Groups = slices.Clone(st.Groups)
		c.State = slices.Clone(st.State)
		c.slots, c.off = nil, nil
		out = append(out, c)
	})
	return out
}

// value returns the value Describe gives name in state.
func value(t *testing.T, m *Model, state []byte, name string) string {
	t.Helper()
	for _, v := range m.Describe(state) {
		if v.Name == name {
			return v.Value
		}
	}
	t.Fatalf("no %s in %v", name, m.Describe(state))
	return ""
}

// A shadow counter kept by End: End counts every transformation of an
// invisible run and every alternative of a choice, each run between its
// own Begin and End; Pre is the state before the transformation (inside
// the run too), and differs from Cur after an assignment.
func TestNativeShadowCounter(t *testing.T) {
	src := `system C ()
h : range 0..20;
main thread M ()
  i : range 0..9;
  loc m0: when true do invisible { i := 1; } goto m1;
  loc m1: when true do invisible { i := i + 1; } goto m2;
  loc m2: when true do { i := externChoose(4 .. 6); } goto m3;
  loc m3:
end M;
end C;
`
	fk := newFake()
	var prog *types.Program
	var pres, curs []int64
	fk.end = func(c *NativeContext, g int) NativeResult {
		i := local(prog, "M", "i")
		pres = append(pres, c.Pre().Slots()[c.Pre().Local(0, 0, i)])
		curs = append(curs, c.Cur().Slots()[c.Cur().Local(0, 0, i)])
		c.Cur().Slots()[c.Cur().Global(global(prog, "h"))]++
		return NativeOK
	}
	var m *Model
	m, prog = nativeModel(t, src, fk)
	s0, fail := m.Initial(nil)
	if fail != nil {
		t.Fatal(fail.Msg)
	}
	succ := successors(m, s0)
	if len(succ) != 3 {
		t.Fatalf("%d successors, want 3", len(succ))
	}
	for k, st := range succ {
		if st.Outcome != OK || len(st.Groups) != 3 || value(t, m, st.State, "h") != "3" || value(t, m, st.State, "M[1].i") != []string{"4", "5", "6"}[k] {
			t.Errorf("successor %d: %v %v", k, st.Groups, m.Describe(st.State))
		}
	}
	if want := map[int]int{0: 1, 1: 1, 2: 3}; !maps.Equal(fk.begins, want) || !maps.Equal(fk.ends, want) {
		t.Errorf("Begin %v, End %v, want %v each", fk.begins, fk.ends, want)
	}
	// runs in order: i := 1 (0 -> 1), i := i + 1 (1 -> 2), then the choice
	// (2 -> 4, 5, 6)
	if want := []int64{0, 1, 2, 2, 2}; !slices.Equal(pres, want) {
		t.Errorf("Pre's i in End: %v, want %v", pres, want)
	}
	if want := []int64{1, 2, 4, 5, 6}; !slices.Equal(curs, want) {
		t.Errorf("Cur's i in End: %v, want %v", curs, want)
	}

	// with the invisible transformations exposed, each is a step of its
	// own, after its End
	fk = newFake()
	fk.end = func(c *NativeContext, g int) NativeResult {
		c.Cur().Slots()[c.Cur().Global(global(prog, "h"))]++
		return NativeOK
	}
	prog = checkProg(t, "native.bir", src)
	m, err := New(prog, Options{Native: fk, ExposeInvisible: true})
	if err != nil {
		t.Fatal(err)
	}
	m.checkEncoding = true
	s, _ := m.Initial(nil)
	var hs []string
	for range 3 {
		succ := successors(m, s)
		s = succ[0].State
		hs = append(hs, fmt.Sprintf("%d:%s", len(succ), value(t, m, s, "h")))
	}
	if want := []string{"1:1", "1:2", "3:3"}; !slices.Equal(hs, want) {
		t.Errorf("exposed: successors:h %q, want %q", hs, want)
	}
}

const nativeActionSrc = `system B ()
v : range 0..9;
main thread M ()
  loc m0:
    when true do { v := 1; } goto m1;
  loc m1:
end M;
end B;
`

// A replaced action that blocks leaves the run without outcome; one that
// fails is an error at the position it gives; one that chooses among n
// alternatives gives n successors; a limit, and a failure without a
// reason, are limits. End's results work the same.
func TestNativeActionResults(t *testing.T) {
	var prog *types.Program
	var pos source.Pos
	setV := func(c *NativeContext, val int64) {
		c.Cur().Slots()[c.Cur().Global(global(prog, "v"))] = val
	}
	for _, tc := range []struct {
		name string
		act  func(c *NativeContext) NativeResult
		end  func(c *NativeContext) NativeResult
		want []string // the outcomes: v's value, or kind@position:message
		ends int
	}{
		{"block", func(c *NativeContext) NativeResult { return NativeBlocked }, nil, nil, 0},
		{"fail", func(c *NativeContext) NativeResult {
			c.Fail(DivisionByZero, pos, "boom")
			return NativeFailed
		}, nil, []string{"division-by-zero@5:20:boom"}, 0},
		{"fail but ok", func(c *NativeContext) NativeResult {
			c.Fail(Overflow, pos, "late")
			return NativeOK
		}, nil, []string{"overflow@5:20:late"}, 0},
		{"limit", func(c *NativeContext) NativeResult {
			c.Limit(pos, "too far")
			return NativeFailed
		}, nil, []string{"limit@5:20:too far"}, 0},
		{"failed without reason", func(c *NativeContext) NativeResult { return NativeFailed },
			nil, []string{"limit@5:20:native code failed without saying why"}, 0},
		{"choose", func(c *NativeContext) NativeResult {
			setV(c, int64(4+c.Choose(3)))
			return NativeOK
		}, nil, []string{"4", "5", "6"}, 3},
		{"end blocks", func(c *NativeContext) NativeResult { setV(c, 3); return NativeOK },
			func(c *NativeContext) NativeResult { return NativeBlocked }, nil, 1},
		{"end chooses", func(c *NativeContext) NativeResult { setV(c, 3); return NativeOK },
			func(c *NativeContext) NativeResult {
				if c.Choose(2) == 1 {
					setV(c, 7)
				}
				return NativeOK
			}, []string{"3", "7"}, 2},
		{"end fails", func(c *NativeContext) NativeResult { setV(c, 3); return NativeOK },
			func(c *NativeContext) NativeResult {
				c.Fail(Assertion, pos, "end")
				return NativeFailed
			}, []string{"assertion@5:20:end"}, 1},
		{"end chooses then fails", func(c *NativeContext) NativeResult { setV(c, 3); return NativeOK },
			func(c *NativeContext) NativeResult {
				if c.Choose(2) == 1 {
					c.Fail(Overflow, pos, "one")
					return NativeFailed
				}
				return NativeOK
			}, []string{"3", "overflow@5:20:one"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fk := newFake()
			fk.acts["v := 1"] = tc.act
			if tc.end != nil {
				fk.end = func(c *NativeContext, g int) NativeResult { return tc.end(c) }
			}
			var m *Model
			m, prog = nativeModel(t, nativeActionSrc, fk)
			pos = prog.Threads[0].Locations[0].Decl.Transformations[0].Actions[0].Pos()
			s0, _ := m.Initial(nil)
			var got []string
			for _, st := range successors(m, s0) {
				if st.Outcome == OK {
					got = append(got, value(t, m, st.State, "v"))
					continue
				}
				p := m.fset.Position(st.Pos)
				got = append(got, fmt.Sprintf("%s@%d:%d:%s", st.Kind, p.Line, p.Column, st.Msg))
			}
			if !slices.Equal(got, tc.want) || fk.ends[0] != tc.ends || fk.begins[0] != max(1, tc.ends) {
				t.Errorf("outcomes %q, want %q; Begin %d, End %d (want %d)", got, tc.want, fk.begins[0], fk.ends[0], tc.ends)
			}
		})
	}
}

// Native code that chooses in a guard's Value makes the step a limit; a
// guard's Value sees Pre as Cur.
func TestNativeChooseInGuard(t *testing.T) {
	src := `system G ()
v : range 0..9;
main thread M ()
  loc m0:
    when v == 0 do { v := 1; } goto m1;
  loc m1:
end M;
end G;
`
	fk := newFake()
	fk.exprs["v == 0"] = func(c *NativeContext) int64 {
		if &c.Pre().Slots()[0] != &c.Cur().Slots()[0] || c.Group() != 0 {
			t.Errorf("Pre is not Cur in a guard, or the group %d is not 0", c.Group())
		}
		return int64(c.Choose(2))
	}
	m, _ := nativeModel(t, src, fk)
	s0, _ := m.Initial(nil)
	succ := successors(m, s0)
	if len(succ) != 1 || succ[0].Outcome != Limit || !strings.Contains(succ[0].Msg, "guard") {
		t.Fatalf("outcomes %+v, want one limit", succ)
	}
	if fk.begins[0] != 0 {
		t.Errorf("Begin called %d times after a failed guard", fk.begins[0])
	}
}

// A call's replaced Lhs is not stored by the model, its replaced argument
// and the callee's replaced result are computed by Value (the result
// checked against the function's result type and stored where the Lhs is
// not replaced), and End after a return runs in the caller's frame after
// the pop and the store.
func TestNativeCall(t *testing.T) {
	src := `system F ()
function f (p : int) : range 0..200
  loc f0: when true do { } return p * 2;
end f;
main thread M ()
  y : int;
  z : range 0..200;
  loc m0: when true do { y := call f(3); } goto m1;
  loc m1: when true do { z := call f(4); } goto m2;
  loc m2: when true do { z := call f(4); } goto m3;
  loc m3:
end M;
end F;
`
	fk := newFake()
	var prog *types.Program
	fk.lhs["y"] = true
	fk.exprs["3"] = func(c *NativeContext) int64 { return 5 }
	results := []int64{105, 104, 300}
	fk.exprs["p * 2"] = func(c *NativeContext) int64 {
		p := c.Cur().Slots()[c.Cur().Local(c.Thread(), c.Depth(), local(prog, "f", "p"))]
		if c.Depth() != 1 || p != 5 && p != 4 {
			t.Errorf("the result's Value at depth %d with p = %d", c.Depth(), p)
		}
		r := results[0]
		results = results[1:]
		return r
	}
	var ends []string
	fk.end = func(c *NativeContext, g int) NativeResult {
		s := c.Cur()
		y, z := s.Slots()[s.Local(0, 0, local(prog, "M", "y"))], s.Slots()[s.Local(0, 0, local(prog, "M", "z"))]
		if c.Group() != g {
			t.Errorf("End of g%d in group %d", g, c.Group())
		}
		ends = append(ends, fmt.Sprintf("g%d depth %d: y=%d z=%d pre depth %d", g, c.Depth(), y, z, c.Pre().Depth(0)-1))
		return NativeOK
	}
	var m *Model
	m, prog = nativeModel(t, src, fk)
	s, _ := m.Initial(nil)
	var outs []string
	for range 6 {
		succ := successors(m, s)
		if len(succ) != 1 {
			t.Fatalf("%d successors", len(succ))
		}
		if succ[0].Outcome != OK {
			outs = append(outs, succ[0].Kind.String()+": "+succ[0].Msg)
			break
		}
		s = succ[0].State
		d := m.Describe(s)
		outs = append(outs, fmt.Sprint(d[len(d)-3:]))
	}
	want := []string{
		"[{M[1].y 0} {M[1].z 0} {M[1].f#1.p 5}]",
		"[{M[1] @ m1} {M[1].y 0} {M[1].z 0}]",
		"[{M[1].y 0} {M[1].z 0} {M[1].f#1.p 4}]",
		"[{M[1] @ m2} {M[1].y 0} {M[1].z 104}]",
		"[{M[1].y 0} {M[1].z 104} {M[1].f#1.p 4}]",
		"range: value 300 out of range 0..200 of the result of f",
	}
	if !slices.Equal(outs, want) {
		t.Errorf("states:\n%s\nwant\n%s", strings.Join(outs, "\n"), strings.Join(want, "\n"))
	}
	wantEnds := []string{
		"g0 depth 1: y=0 z=0 pre depth 0", // the call: in the callee
		"g3 depth 0: y=0 z=0 pre depth 1", // the return: in the caller
		"g1 depth 1: y=0 z=0 pre depth 0",
		"g3 depth 0: y=0 z=104 pre depth 1",
		"g2 depth 1: y=0 z=104 pre depth 0",
	}
	if !slices.Equal(ends, wantEnds) {
		t.Errorf("End saw\n%s\nwant\n%s", strings.Join(ends, "\n"), strings.Join(wantEnds, "\n"))
	}
}

// Initial may write slots of the initial state; its failure, its limit and
// its block (a limit) are the initial state's failure, and it may not
// choose.
func TestNativeInitial(t *testing.T) {
	src := `system I ()
h : range 0..9;
main thread M ()
  loc m0:
end M;
end I;
`
	for _, tc := range []struct {
		name string
		init func(c *NativeContext) NativeResult
		want string
	}{
		{"write", func(c *NativeContext) NativeResult {
			c.Cur().Slots()[c.Cur().Global(c.x.m.prog.Globals[0])] = 7
			return NativeOK
		}, "h=7"},
		{"fail", func(c *NativeContext) NativeResult {
			c.Fail(Assertion, source.NoPos, "no")
			return NativeFailed
		}, "assertion: no"},
		{"block", func(c *NativeContext) NativeResult { return NativeBlocked }, "limit: native code blocked the initial state"},
		{"choose", func(c *NativeContext) NativeResult {
			c.Choose(2)
			return NativeOK
		}, "limit: native code chose in a guard or in the initial state"},
		{"context", func(c *NativeContext) NativeResult {
			if c.Thread() != -1 || c.Depth() != -1 || c.Group() != -1 || c.Pre().Threads() != 1 || c.Cur().Depth(0) != 1 {
				t.Errorf("thread %d depth %d threads %d", c.Thread(), c.Depth(), c.Pre().Threads())
			}
			return NativeOK
		}, "h=0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fk := newFake()
			fk.initial = tc.init
			m, _ := nativeModel(t, src, fk)
			s0, fail := m.Initial(nil)
			got := ""
			if fail != nil {
				got = fail.Kind.String() + ": " + fail.Msg
			} else {
				got = "h=" + value(t, m, s0, "h")
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// The explanation of a state without successors runs the native guards
// and, after Begin, the native actions: a replaced guard that is false and
// a replaced action that blocks are explained.
func TestNativeExplain(t *testing.T) {
	src := `system E ()
v : range 0..9;
main thread M ()
  loc m0:
    when v == 3 do { } goto m1;
    when true do { v := 1; } goto m1;
  loc m1:
end M;
end E;
`
	fk := newFake()
	fk.exprs["v == 3"] = func(c *NativeContext) int64 { return 0 }
	fk.acts["v := 1"] = func(c *NativeContext) NativeResult { return NativeBlocked }
	m, _ := nativeModel(t, src, fk)
	s0, _ := m.Initial(nil)
	if n, _ := m.Next(s0, func(*Step) {}); n != 0 {
		t.Fatalf("%d successors, want none", n)
	}
	waits := m.Threads(s0, true)[0].Waits
	if len(waits) != 2 || !strings.Contains(waits[0], "guard v == 3 is false") || !strings.Contains(waits[1], "native code blocked") {
		t.Errorf("waits %q", waits)
	}
	if fk.begins[1] != 2 || fk.ends[1] != 0 {
		t.Errorf("Begin %d, End %d for the blocked action (Next and the explanation)", fk.begins[1], fk.ends[1])
	}
}

// A choice among more values than explicit search enumerates is no error
// of New when native code replaces it (and chooses itself).
func TestNativeUnboundedChoice(t *testing.T) {
	src := `system U ()
x : int;
main thread M ()
  loc m0:
    when true do { x := externChoose(int); } goto m1;
  loc m1:
end M;
end U;
`
	var uerr *UnboundedChoiceError
	if _, err := New(checkProg(t, "native.bir", src), Options{Native: newFake()}); !errors.As(err, &uerr) {
		t.Fatalf("not replaced: %v, want an UnboundedChoiceError", err)
	}
	fk := newFake()
	fk.acts["x := externChoose(int)"] = func(c *NativeContext) NativeResult {
		c.Cur().Slots()[0] = int64(-5 + 10*c.Choose(2))
		return NativeOK
	}
	m, _ := nativeModel(t, src, fk)
	s0, _ := m.Initial(nil)
	var got []string
	for _, st := range successors(m, s0) {
		got = append(got, value(t, m, st.State, "x"))
	}
	if want := []string{"-5", "5"}; !slices.Equal(got, want) {
		t.Errorf("x: %q, want %q", got, want)
	}
}

// countNative replaces every guard and assignment: a guard reads v, an
// assignment adds 1 to v (mod 4), End counts the runs in h.
type countNative struct{ v, h *types.Var }

func (n countNative) Replaces(x ast.Node) bool {
	switch x := x.(type) {
	case *ast.AssignAction:
		return format.Expr(x.Lhs) == "v"
	case *ast.BinaryExpr:
		return format.Expr(x.X) == "v"
	}
	return false
}

func (n countNative) Value(c *NativeContext, e ast.Expr) int64 {
	return b2i(c.Cur().Slots()[c.Cur().Global(n.v)] < 3)
}

func (n countNative) Action(c *NativeContext, a ast.Action) NativeResult {
	s := c.Cur().Slots()
	p := c.Cur().Global(n.v)
	s[p] = (s[p] + 1) % 4
	return NativeOK
}

func (n countNative) Begin(c *NativeContext, g int) {}

func (n countNative) End(c *NativeContext, g int) NativeResult {
	s := c.Cur().Slots()
	p := c.Cur().Global(n.h)
	s[p] = (s[p] + 1) % 8
	return NativeOK
}

func (n countNative) Initial(c *NativeContext) NativeResult { return NativeOK }

// The model's side of native code allocates nothing per Next.
func TestNativeNoAllocs(t *testing.T) {
	src := `system A ()
v : range 0..3;
h : range 0..7;
main thread M ()
  i : range 0..1;
  loc m0:
    when v < 3 do { v := v + 1; } goto m0;
    when i == 0 do invisible { i := 1; } goto m1;
  loc m1:
    when v < 3 do { v := v + 1; i := 0; } goto m0;
end M;
main thread N ()
  loc n0:
    when v < 3 do { v := v + 1; } goto n0;
end N;
end A;
`
	prog := checkProg(t, "native.bir", src)
	m, err := New(prog, Options{Native: countNative{prog.Globals[0], prog.Globals[1]}})
	if err != nil {
		t.Fatal(err)
	}
	s0, _ := m.Initial(nil)
	n := 0
	yield := func(st *Step) { n++ }
	if allocs := testing.AllocsPerRun(100, func() { m.Next(s0, yield) }); allocs != 0 {
		t.Errorf("%v allocations per Next", allocs)
	}
	if n != 101*3 {
		t.Errorf("%d outcomes in 101 calls, want 3 each (M: two, one after an invisible run; N: one)", n)
	}
}

// An invisible run rests where its thread cannot move, and the other
// threads move there. A guard that native code takes without deciding it
// (NativeContext.Unsure) must not take that away: the run also rests in
// the state before the guard's transformation, and with ExposeInvisible
// the other threads move there too.
func TestNativeUnsureGuardRests(t *testing.T) {
	src := `system U ()
g : boolean;
main thread A ()
  x : int;
  loc a0:
    when true do invisible { } goto a1;
  loc a1:
    when x > 0 do invisible { } goto a2;
  loc a2:
end A;
main thread B ()
  loc b0:
    when true do { g := true; } goto b1;
  loc b1:
end B;
end U;
`
	for _, expose := range []bool{false, true} {
		for _, unsure := range []bool{false, true} {
			fk := newFake()
			fk.exprs["x > 0"] = func(c *NativeContext) int64 {
				if unsure {
					c.Unsure()
				}
				return 1
			}
			prog := checkProg(t, "unsure.bir", src)
			m, err := New(prog, Options{Native: fk, ExposeInvisible: expose})
			if err != nil {
				t.Fatal(err)
			}
			m.checkEncoding = true
			// the moves of B from a state where A is at a1
			at := func(state []byte, proc string) string {
				for _, f := range m.Frames(state, nil) {
					if f.Proc.Name() == proc {
						return f.Loc.Name()
					}
				}
				return ""
			}
			s0, fail := m.Initial(nil)
			if fail != nil {
				t.Fatal(fail.Msg)
			}
			seen := map[string]bool{string(s0): true}
			queue := [][]byte{s0}
			restA1, bMovesAtA1 := false, false
			for len(queue) > 0 {
				s := queue[0]
				queue = queue[1:]
				if at(s, "A") == "a1" {
					restA1 = true
				}
				for _, st := range successors(m, s) {
					if at(s, "A") == "a1" && st.Thread == 1 {
						bMovesAtA1 = true
					}
					if !seen[string(st.State)] {
						seen[string(st.State)] = true
						queue = append(queue, st.State)
					}
				}
			}
			if restA1 != unsure && !expose {
				t.Errorf("expose %v, unsure %v: a state with A resting at a1 stored: %v", expose, unsure, restA1)
			}
			if bMovesAtA1 != unsure {
				t.Errorf("expose %v, unsure %v: B moves where A is at a1: %v", expose, unsure, bMovesAtA1)
			}
		}
	}
}

// An error Begin records fails the run before its actions: an action
// that blocks (a lock another thread holds) does not take it away.
func TestNativeBeginFailsBeforeActions(t *testing.T) {
	src := `system F ()
m : lock;
took : boolean;
thread H ()
  loc h0:
    when true do { lock(m); took := true; } goto h1;
  loc h1:
end H;
main thread M ()
  loc s0:
    when true do { start H(); } goto s1;
  loc s1:
    when took do { lock(m); } goto s2;
  loc s2:
end M;
end F;
`
	fk := newFake()
	m, _ := nativeModel(t, src, fk)
	lockG := -1
	for i, g := range m.Groups() {
		if g.From.Name() == "s1" {
			lockG = i
		}
	}
	fk.begin = func(c *NativeContext, g int) {
		if g == lockG {
			c.Fail(Assertion, source.NoPos, "native failure in Begin")
		}
	}
	_, _, other := reach(t, m, nil)
	if len(other) != 1 || other[0].Msg != "native failure in Begin" {
		t.Errorf("outcomes other than OK: %+v, want Begin's failure", other)
	}
	if fk.ends[lockG] != 0 {
		t.Errorf("End called %d times after Begin failed", fk.ends[lockG])
	}
}

// A run Begin blocks has no outcome: the model runs none of its actions
// (a concrete assertion that fails would be one) and does not call End.
func TestNativeBeginBlocks(t *testing.T) {
	src := `system B ()
g : boolean;
main thread M ()
  loc s0:
    when true do { g := true; assert(false); } goto s1;
  loc s1:
end M;
end B;
`
	fk := newFake()
	fk.begin = func(c *NativeContext, g int) { c.Block() }
	m, _ := nativeModel(t, src, fk)
	states, edges, other := reach(t, m, nil)
	if len(states) != 1 || edges != 0 || len(other) != 0 {
		t.Errorf("%d states, %d edges, other outcomes %+v; want the initial state alone", len(states), edges, other)
	}
	if fk.ends[0] != 0 {
		t.Errorf("End called %d times after Begin blocked", fk.ends[0])
	}
}
