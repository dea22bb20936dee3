package absgen

import (
	"strings"
	"testing"

	"birch/internal/abstraction/data/infer"
)

// TestRangeChoiceAtTheTop: an abstracted choice of a range that ends at
// 9223372036854775807 abstracts its values by count (the loop
// `v <= hi; v++` wrapped past the top and never ended).
func TestRangeChoiceAtTheTop(t *testing.T) {
	src := `system S ()
main thread Main ()
  x : int;
  loc s0:
    when true do { x := internChoose(9223372036854775806 .. 9223372036854775807); } goto s1;
  loc s1:
    when true do { assert(x > 0); } goto s2;
  loc s2:
end Main;
end S;`
	out, err := generate(t, loadSource(t, "top.bir", []byte(src)), infer.Config{}, "Main.x=signs")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out.Source), "POS") {
		t.Errorf("the choice does not choose POS:\n%s", out.Source)
	}
}
