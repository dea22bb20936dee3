package c2bp

import "testing"

// TestRangesAtTheTop: concrete variables and choices of ranges that end at
// 9223372036854775807 are enumerated by count (the loops `v <= Hi; v++`
// wrapped past the top and never ended: birch ran out of memory), and an
// int64 variable is abstracted (its Hi-Lo overflowed to -1).
func TestRangesAtTheTop(t *testing.T) {
	for i, model := range []string{`system B ()
x : range 9223372036854775806..9223372036854775807;
y : int;
main thread M ()
  loc s0:
    when true do { y := externChoose(int); } goto s1;
  loc s1:
    when y > 3 && x == 9223372036854775806 do { assert(y > 2); } goto s2;
  loc s2:
end M;
end B;`, `system C ()
x : range 9223372036854775806..9223372036854775807;
y : int;
main thread M ()
  loc s0:
    when true do { y := externChoose(int); x := internChoose(9223372036854775806 .. 9223372036854775807); } goto s1;
  loc s1:
    when y > 3 do { assert(y > 2); } goto s2;
  loc s2:
end M;
end C;`, `system D ()
x : int64;
y : int;
main thread M ()
  loc s0:
    when true do { y := externChoose(int); x := y; } goto s1;
  loc s1:
    when y > 3 do { assert(x > 2); } goto s2;
  loc s2:
end M;
end D;`, `system E ()
x : range 9223372036854775806..9223372036854775807;
a : array [2] of range 9223372036854775806..9223372036854775807;
y : int;
main thread M ()
  loc s0:
    when true do { y := externChoose(int); } goto s1;
  loc s1:
    when y > 3 && y < 9 do { a[y - 4] := x; assert(y < x); } goto s2;
  loc s2:
end M;
end E;`} {
		out, err := abstractSource(t, model, "y > 3\nx > 9223372036854775806\n")
		if err != nil {
			t.Fatalf("%v\n%s", err, model)
		}
		if out == nil || len(out.Source) == 0 {
			t.Fatalf("no abstract model for\n%s", model)
		}
		abstracted := false
		for _, v := range out.Abstracted {
			abstracted = abstracted || v == "x"
		}
		if abstracted != (i == 2) {
			t.Errorf("x abstracted: %v, want %v (%v)\n%s", abstracted, i == 2, out.Abstracted, model)
		}
	}
}
