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
n : range 0..256;
main thread M ()
  loc s0:
end M;
end S;`, "e.bir:2:1: n has type range 0..256: a boolean program has only boolean variables (and ranges and enums of at most 256 values, as bits)"},
		{`system S ()
function f (n : range 0..3) : range 0..3
  loc f0:
    when true do { } return n + 1;
end f;
main thread M ()
  b : range 0..3;
  loc s0:
    when true do { b := call f(1); } goto s0;
end M;
end S;`, "e.bir:4:29: the returned value may be 4, outside range 0..3: not translated to a boolean program"},
		{`system S ()
function f (n : range 0..3) : range 0..3
  loc f0:
    when true do { } return n;
end f;
main thread M ()
  b : range 0..4;
  loc s0:
    when true do { b := call f(1); } goto s0;
end M;
end S;`, "e.bir:9:20: b has another type than f's result: not translated to a boolean program"},
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
t : tid;
main thread M ()
  loc s0:
end M;
end S;`, "e.bir:2:1: t has type tid"},
		{`system S ()
main thread M ()
  b : boolean;
  loc s0:
    when true do { b := true; start M(); } goto s0;
end M;
end S;`, "e.bir:2:13: main thread M is started: a boolean program has one thread"},
		{`system S ()
main thread M ()
  b : uint8;
  loc s0:
    when true do { b := b + 1; } goto s0;
end M;
end S;`, "e.bir:3:7: fixed-width type uint8 is not supported by the boolean-program translation (it does not wrap values)"},
		{`system S ()
main thread M ()
  b : range 0..3;
  loc s0:
    when true do { b := b & 2; } goto s0;
end M;
end S;`, "e.bir:5:27: bitwise operator & is not supported by the boolean-program translation"},
		{`system S ()
n : range -9223372036854775808..9223372036854775807;
main thread M ()
  loc s0:
end M;
end S;`, "e.bir:2:1: n has type range -9223372036854775808..9223372036854775807: a boolean program has only boolean variables"},
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

// TestFormulaBound: a chain of additions has case formulas exponentially
// longer than itself; past MaxFormula it is an error at the action, not a
// boolean program too large to print (it hung before the bound).
func TestFormulaBound(t *testing.T) {
	e := "a"
	for range 30 {
		e = "(" + e + " + a)"
	}
	src := "system S ()\nmain thread M ()\n  a : range 0..1;\n  b : range 0..200;\n  loc s0:\n    when true do { b := " + e + "; } goto s0;\nend M;\nend S;\n"
	_, err := Translate(load(t, "b.bir", []byte(src)), Config{})
	want := "b.bir:6:20: this translates to formulas of more than 65536 operators and operands: too large for a boolean program"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
