package bp

import (
	"strings"
	"testing"
)

// TestErrors: constructs outside the subset are errors at their
// positions.
func TestErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`system S ()
n : range 0..3;
main thread M ()
  loc s0:
end M;
end S;`, "e.bir:2:1: n has type range 0..3: a boolean program has only boolean variables"},
		{`system S ()
main thread M ()
  loc s0:
    when true do { start W(); } goto s0;
end M;
thread W ()
  loc w0:
end W;
end S;`, "e.bir:6:8: thread W: a boolean program has one thread, the main thread (a model of one thread translates)"},
		{`system S ()
main thread M ()
  loc s0:
end M;
main thread N ()
  loc s0:
end N;
end S;`, "e.bir:5:13: main thread N: a boolean program has one thread, and M is a main thread already"},
		{`system S ()
l : lock;
main thread M ()
  loc s0:
    when true do { lock(l); } goto s0;
end M;
end S;`, "e.bir:2:1: l has type lock"},
		{`system S ()
b : boolean;
main thread M ()
  loc s0:
    when true do { b := true; } goto s0;
end M;
properties
  invariant ok: b;
end S;`, "e.bir:8:13: invariant ok: a boolean program checks assertions only"},
		{`system S ()
function f (n : int) : boolean
  loc f0:
    when n > 0 do { } return true;
end f;
main thread M ()
  b : boolean;
  loc s0:
    when true do { b := call f(1); } goto s0;
end M;
end S;`, "e.bir:2:13: n has type int"},
		{`system S ()
E = enum { A, B };
e : E;
main thread M ()
  b : boolean;
  loc s0:
    when e == A do { b := true; } goto s0;
end M;
end S;`, "e.bir:3:1: e has type E"},
		{`system S ()
main thread M ()
  b : boolean;
  loc s0:
    when true do { b := true; start M(); } goto s0;
end M;
end S;`, "e.bir:2:13: main thread M is started: a boolean program has one thread"},
	} {
		prog := load(t, "e.bir", []byte(c.src))
		_, err := Translate(prog, Config{})
		if err == nil {
			t.Errorf("no error, want %q\n%s", c.want, c.src)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "more errors") {
			t.Errorf("error %q, want %q", err, c.want)
		}
	}
}
