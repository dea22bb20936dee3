package predicate

import (
	"strings"
	"testing"
)

// TestWPRangeChoiceAtTheEnds: a range choice that ends at
// 9223372036854775807 is listed by count (the loop `v <= hi; v++` wrapped
// past the top and never ended), one that starts at -2^63 lists it as
// BIR's literal (intLit(-2^63) recursed until the stack overflowed), and
// one of 2^64 values is a havoc (its hi-lo overflowed to -1, taken for a
// short range).
func TestWPRangeChoiceAtTheEnds(t *testing.T) {
	for _, c := range []struct{ actions, pred, want string }{
		{"n := internChoose(9223372036854775806 .. 9223372036854775807);", "n == g",
			"9223372036854775806 == g && 9223372036854775807 == g"},
		{"n := internChoose(-9223372036854775808 .. -9223372036854775807);", "n == g",
			"-9223372036854775808 == g && -9223372036854775807 == g"},
		{"n := internChoose(-9223372036854775808 .. 9223372036854775807);", "n == g",
			"error: no weakest precondition of a range choice"},
	} {
		if got := wpOf(t, c.actions, c.pred); !strings.HasPrefix(got, c.want) {
			t.Errorf("WP(%s, %s) = %s, want %s", c.actions, c.pred, got, c.want)
		}
	}
}
