package absgen

import (
	"strings"
	"testing"

	"birch/internal/abstraction/data/infer"
)

// A choice over nearly the whole int64 range into an abstracted variable
// chooses among all its tokens (issue 16: hi - lo wrapped around to a
// negative width, and the generator abstracted the values one by one, 2^64
// of them).
func TestWideRangeChoice(t *testing.T) {
	for _, bounds := range []string{"-9223372036854775807 - 1 .. 9223372036854775807", "-1 .. 9223372036854775807"} {
		src := "system S ()\nx : int;\nmain thread M ()\n  loc l0:\n    when true do { x := internChoose(" + bounds + "); } goto l1;\n  loc l1:\nend M;\nend S;\n"
		out, err := generate(t, loadSource(t, "wide.bir", []byte(src)), infer.Config{}, "x=signs")
		if err != nil {
			t.Fatalf("%s: %v", bounds, err)
		}
		if want := "x := internChoose(signs_NEG, signs_ZERO, signs_POS);"; !strings.Contains(string(out.Source), want) {
			t.Errorf("%s: the abstract model lacks %q:\n%s", bounds, want, out.Source)
		}
	}
}
