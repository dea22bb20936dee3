package bp

import "testing"

// TestRangesAtTheTop: a variable and a choice of a range that ends at
// 9223372036854775807 translate by counting their values (the loops
// `v <= Hi; v++` wrapped past the top and never ended).
func TestRangesAtTheTop(t *testing.T) {
	src := `system S ()
x : range 9223372036854775806..9223372036854775807;
main thread M ()
  loc s0:
    when true do { x := internChoose(9223372036854775806 .. 9223372036854775807); } goto s1;
  loc s1:
    when true do { assert(x == 9223372036854775806 || x == 9223372036854775807); } goto s2;
  loc s2:
end M;
end S;`
	if _, err := Translate(load(t, "top.bir", []byte(src)), Config{}); err != nil {
		t.Errorf("%v\n%s", err, src)
	}
}
