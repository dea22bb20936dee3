package c2bp

import (
	"errors"
	"strings"
	"testing"
)

// TestUnsupported: what the abstraction cannot translate soundly is an
// *UnsupportedError naming the construct's position in the model (or in
// the predicate file), never an abstract model.
func TestUnsupported(t *testing.T) {
	for _, c := range []struct {
		name, model, preds, want string
	}{
		{"array element chosen by abstracted data", `system S ()
R = record { f : boolean; };
Rs : collection [1] of R;
RR = ref R {Rs};
x : int;
a : array [3] of RR;
main thread M ()
  loc s0:
    when true do { a[x] := null; } goto s1;
  loc s1:
end M;
end S;
`, "x < 3\n", "model.bir:9:20: an assignment to concrete data at a location chosen by abstracted data"},
		{"lock through abstracted data", `system S ()
x : int;
ls : array [2] of lock;
main thread M ()
  loc s0:
    when true do { lock(ls[x]); } goto s1;
  loc s1:
end M;
end S;
`, "x == 0\n", "model.bir:6:20: a lock reached through abstracted data"},
		{"result that may not fit its variable", `system S ()
function f () : int
  loc a:
    when true do { } return 5000;
end f;
main thread M ()
  x : range 0..1000;
  loc s0:
    when true do { x := call f(); } goto s1;
  loc s1:
end M;
end S;
`, "[thread M] x == 0\n", "model.bir:9:20: the result of f (int) assigned to x of type range 0..1000, which it may not fit (a range error at the return)"},
		{"thread started twice", `system S ()
thread W ()
  x : int;
  loc w0:
    when true do { x := x + 1; } goto w1;
  loc w1:
end W;
main thread M ()
  loc s0:
    when true do { start W(); start W(); } goto s1;
  loc s1:
end M;
end S;
`, "[thread W] x == 0\n", "model.pred:1:12: a [thread W] predicate needs W to have one instance: it is started by 2 start actions"},
		{"thread started in a loop", `system S ()
thread W ()
  x : int;
  loc w0:
end W;
main thread M ()
  loc s0:
    when true do { start W(); } goto s0;
end M;
end S;
`, "[thread W] x == 0\n", "model.pred:1:12: a [thread W] predicate needs W to have one instance: it is started at M's location s0, which is on a cycle"},
		{"tid from abstracted data", `system S ()
R = record { t : tid; n : int; };
Rs : collection [1] of R;
RR = ref R {Rs};
main thread M ()
  r : RR;
  t : tid;
  loc s0:
    when true do { r := new Rs; } goto s1;
  loc s1:
    when r.n > 0 do { t := r.t; } goto s2;
  loc s2:
end M;
end S;
`, "[thread M] r.n > 0\n", "model.bir:11:23: concrete data of type tid assigned abstracted data"},
		{"checked conversion into an abstracted reference", `system S ()
Msg = record { v : int; };
Data = record { v : int; d : boolean; };
Data extends Msg;
Msgs : collection [1] of Msg;
Datas : collection [1] of Data;
AnyMsg = ref Msg;
DataRef = ref Data {Datas};
main thread M ()
  m : AnyMsg;
  d : DataRef;
  loc s0:
    when true do { m := new Msgs; } goto s1;
  loc s1:
    when true do { d := m; } goto s2;
  loc s2:
end M;
end S;
`, "[thread M] d == null\n", "model.bir:15:20: a checked reference conversion into abstracted data (it may fail with a cast error)"},
		{"function predicate over a global with two threads", `system S ()
g : int;
function f ()
  loc f0:
    when true do { } return;
end f;
main thread A ()
  loc a0:
    when true do { call f(); } goto a1;
  loc a1:
end A;
main thread B ()
  loc b0:
    when true do { g := g + 1; } goto b1;
  loc b1:
end B;
end S;
`, "[function f] g == 0\n", "model.pred:1:14: a [function f] predicate that reads globals or the heap needs a model of one thread"},
		{"call result into a global predicate's variable with two threads", `system S ()
g : int;
function f () : int
  loc f0:
    when true do { } return 1;
end f;
main thread A ()
  loc a0:
    when true do { g := call f(); } goto a1;
  loc a1:
end A;
main thread B ()
  loc b0:
    when true do { assert(g <= 1); } goto b1;
  loc b1:
end B;
end S;
`, "g <= 1\n", "model.bir:9:20: after this call returns, predicate g <= 1 is unknown, and other threads may read it in between"},
		{"record predicate", `system S ()
R = record { v : int; };
Rs : collection [2] of R;
g : int;
main thread M ()
  p : ref R;
  loc s0:
    when true do { p := new Rs; p.v := 1; } goto s1;
  loc s1:
end M;
end S;
`, "g == 0\n  [record R]  this.v > 0\n", "model.pred:2:15: a [record R] predicate describes every object of R: the C2bp abstraction has no per-object predicates"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := abstractSource(t, c.model, c.preds)
			var u *UnsupportedError
			if !errors.As(err, &u) {
				if out != nil {
					t.Fatalf("got an abstract model, want %q:\n%s", c.want, out.Source)
				}
				t.Fatalf("error %v, want an UnsupportedError", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%v\nwant %q", err, c.want)
			}
		})
	}
}
