package apf

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/types"
)

// describe lists what Instrument found, one line per item: the
// abstracted variables and fields, the heap array types with abstracted
// elements, and each replaced node at its position.
func describe(p *Program) string {
	var lines []string
	for v := range p.Abstracted {
		owner := "global"
		switch {
		case v.Owner != nil:
			owner = v.Owner.Name()
		case v.Kind == types.FieldVar:
			owner = "field"
		}
		lines = append(lines, fmt.Sprintf("abstracted %s %s : %s", owner, v.Name(), v.Type()))
	}
	for n := range p.AbstractArrays {
		lines = append(lines, "abstract array "+n.String())
	}
	sort.Strings(lines)
	type rep struct {
		pos  int
		line string
	}
	var reps []rep
	for n := range p.Replaced {
		pos := p.Prog.Fset.Position(n.Pos())
		var text string
		switch n := n.(type) {
		case ast.Expr:
			text = "expr " + format.Expr(n)
		case ast.Action:
			text = "action " + strings.TrimPrefix(fmt.Sprintf("%T", n), "*ast.")
		}
		reps = append(reps, rep{int(n.Pos()), fmt.Sprintf("%d:%d %s", pos.Line, pos.Column, text)})
	}
	sort.Slice(reps, func(i, j int) bool { return reps[i].pos < reps[j].pos })
	for _, r := range reps {
		lines = append(lines, r.line)
	}
	return strings.Join(lines, "\n")
}

// TestClassify: golden lists of the abstracted data and the replaced
// nodes of small models.
func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		name, model, preds, want string
	}{
		{"types", `system S ()
Ints = array [2] of int;
Smalls = array [2] of range 0..9;
IA : collection [1] of Ints;
SA : collection [1] of Smalls;
R = record { n : int; big : range 0..256; small : range 0..255; i8 : int8; i16 : int16; f : boolean; };
Rs : collection [1] of R;
E = enum { A, B };
g : int;
va : array [2] of int;
vs : array [2] of range 0..3;
thread M (k : range -1000..1000)
  e : E;
  loc s0:
end M;
main thread Main ()
  loc s0:
    when true do { start M(1); } goto s1;
  loc s1:
end Main;
end S;
`, "g > 0\n", `abstract array Ints
abstracted M k : range -1000..1000
abstracted field big : range 0..256
abstracted field n : int
abstracted global g : int
abstracted global va : array [2] of int
18:28 expr 1`},
		{"guards and actions", `system S ()
R = record { v : int; b : boolean; };
Rs : collection [2] of R;
Ints = array [3] of int;
IA : collection [1] of Ints;
g : int;
flag : boolean;
s : range 0..3;
m : lock;
main thread M ()
  p : ref R;
  a : ref Ints;
  i : range 0..2;
  loc s0:
    when g > 0 do { g := g - 1; flag := g == 0; } goto s1;
    when flag do { p := new Rs; p.v := 3; p.b := true; lock(m); } goto s1;
  loc s1:
    when p != null && p.v > 0 do { a := new IA[3]; a[i] := g; s := 2; } goto s2;
  loc s2:
    when true do { g := externChoose(int); i := internChoose(0 .. 2); s := internChoose(0 .. 3); println("g", g, flag); println(flag); } goto s3;
  loc s3:
    when a.length > i do { assert(a[i] <= g); assume(g > 0); assert(flag); } goto s4;
  loc s4:
end M;
end S;
`, "g > 0\n", `abstract array Ints
abstracted field v : int
abstracted global g : int
15:10 expr g > 0
15:21 action AssignAction
15:33 action AssignAction
16:33 action AssignAction
18:10 expr p != null && p.v > 0
18:52 action AssignAction
20:20 action ChooseAction
20:98 action PrintAction
22:28 action AssertAction
22:47 action AssumeAction`},
		{"calls, returns and starts", `system S ()
g : int;
function f (k : int; b : boolean) : int
  loc f0:
    when b do { } return 1;
    when !b do { } return k + 1;
end f;
function h (k : int) : boolean
  loc h0:
    when true do { } return k > 0;
end h;
function u (c : range 0..3) : range 0..3
  loc u0:
    when true do { } return c;
end u;
thread W (n : int; c : boolean)
  loc w0:
end W;
main thread M ()
  x : int;
  b : boolean;
  c : range 0..3;
  loc s0:
    when true do { x := call f(2, true); } goto s1;
  loc s1:
    when true do { b := call h(x); } goto s2;
  loc s2:
    when true do { c := call u(c); } goto s3;
  loc s3:
    when true do { start W(7, x > 2); } goto s4;
  loc s4:
    when true do { call f(c, b); } goto s5;
  loc s5:
    when true do { x := call u(c); } goto s6;
  loc s6:
end M;
end S;
`, "g > 0\n", `abstracted M x : int
abstracted W n : int
abstracted f k : int
abstracted global g : int
abstracted h k : int
5:26 expr 1
6:27 expr k + 1
10:29 expr k > 0
14:29 expr c
24:20 expr x
24:32 expr 2
26:32 expr x
30:28 expr 7
30:31 expr x > 2
32:27 expr c
34:20 expr x`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := instrumentSource(t, "model.bir", tc.model, tc.preds)
			if p.Unsupported != nil {
				t.Fatalf("unsupported: %v", p.Unsupported)
			}
			if got := describe(p); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestUnsupported: what the runtime cannot do soundly is listed, each at
// its position, in one *UnsupportedError.
func TestUnsupported(t *testing.T) {
	model := `system S ()
R = record { v : int; };
Rs : collection [2] of R;
RA = array [3] of R_ref;
R_ref = ref R {Rs};
Ints = array [3] of int;
IA : collection [2] of Ints;
g : int;
w : int32;
big : range 0..1000;
flags : array [3] of boolean;
ls : array [2] of lock;
refs : RA;
function f () : int
  loc f0:
    when true do { } return 5;
end f;
function k () : int16
  loc k0:
    when true do { } return int16(g);
end k;
function va (a : Ints) : Ints
  loc v0:
    when true do { } return a;
end va;
thread W (n : int32)
  loc w0:
end W;
main thread M ()
  p : R_ref;
  a : ref Ints;
  vals : Ints;
  tids : array [2] of tid;
  grid : array [2] of Ints;
  loc s0:
    when true do { w := g; flags[g] := true; lock(ls[g]); } goto s1;
  loc s1:
    when true do { refs[g] := new Rs; a := new IA[g]; start W(g); } goto s2;
  loc s2:
    when true do { w := call f(); } goto s3;
  loc s3:
    when true do { p := refs[g]; p := reachable(refs[g], R); } goto s4;
  loc s4:
    when true do { w := w + 1; flags[1] := g > 0; } goto s5;
  loc s5:
    when true do { vals := call va(vals); } goto s6;
  loc s6:
    when lockAvailable(ls[g]) && !threadTerminated(tids[g]) do { vals := grid[g]; } goto s7;
  loc s7:
end M;
end S;
`
	p := instrumentSource(t, "model.bir", model, "g > 0\n")
	var u *UnsupportedError
	if !errors.As(p.Unsupported, &u) {
		t.Fatalf("Unsupported = %v, want an *UnsupportedError", p.Unsupported)
	}
	want := []string{
		"model.bir:36:20: an assignment of abstracted data to w of type int32, which can take them only as a boolean, an enum or a range of at most 256 values",
		"model.bir:36:28: an assignment to concrete data at a location chosen by abstracted data",
		"model.bir:36:51: a lock reached through abstracted data",
		"model.bir:38:20: a new object stored at a location chosen by abstracted data",
		"model.bir:38:51: the length of a new array read from abstracted data",
		"model.bir:38:63: abstracted data passed to the parameter n of W of type int32, which can take them only as a boolean, an enum or a range of at most 256 values",
		"model.bir:40:20: the abstracted result of f stored in w of type int32, which can take it only as a boolean, an enum or a range of at most 256 values",
		"model.bir:42:20: an assignment of abstracted data to p of type R_ref, which can take them only as a boolean, an enum or a range of at most 256 values",
		"model.bir:42:49: reachable from a reference read through abstracted data",
		"model.bir:48:24: lockAvailable of a lock or thread chosen by abstracted data",
		"model.bir:48:52: threadTerminated of a lock or thread chosen by abstracted data",
		"model.bir:48:79: a value array chosen by abstracted data",
		"model.bir:24:29: a value array of abstracted data returned (only values of one slot pass through calls and returns)",
		"model.bir:46:20: a value array of abstracted data stored from a call (only values of one slot pass through calls and returns)",
		"model.bir:46:36: a value array of abstracted data passed to the parameter a of va (only values of one slot pass through calls and returns)",
		"model.bir:20:29: abstracted data returned as int16, which can take them only as a boolean, an enum or a range of at most 256 values",
	}
	sort.Strings(want)
	var got []string
	for _, e := range u.List {
		got = append(got, e.Error())
	}
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestReads: Reads tells the invariants and model predicates that read
// abstracted data (which the runtime does not evaluate) from the others.
func TestReads(t *testing.T) {
	model := `system S ()
R = record { v : int; b : boolean; };
Rs : collection [1] of R;
g : int;
s : range 0..3;
p : ref R;
main thread M ()
  loc s0:
end M;
predicates
  low = g < 2;
  small = s < 2;
  field = p != null && p.v > 0;
  flag = p != null && p.b;
properties
  invariant inv1: s < 3 || g > 0;
  invariant inv2: s < 3;
end S;
`
	p := instrumentSource(t, "model.bir", model, "g > 0\n")
	got := map[string]bool{}
	for _, pr := range p.Prog.Predicates {
		got[pr.Name()] = p.Reads(pr.Decl.Expr)
	}
	for _, pr := range p.Prog.Properties {
		got[pr.Name()] = p.Reads(pr.Decl.Expr)
	}
	want := map[string]bool{"low": true, "small": false, "field": true, "flag": false, "inv1": true, "inv2": false}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Reads: %v, want %v", got, want)
	}
}
