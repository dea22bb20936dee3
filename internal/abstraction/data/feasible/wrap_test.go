package feasible

import (
	"testing"

	"birch/internal/model"
)

// The symbolic replay wraps a store into a fixed-width variable (never a
// range error) and computes conversions exactly, + - * inside them
// modulo 2^64 (no overflow): it solves for the inputs that make a wrap
// fail an assertion, and refutes the trails that need an overflow or a
// range error there.
func TestReplayUnboundedWrap(t *testing.T) {
	const decls = "  u : uint8;\n  w : int16;\n  q : uint64;\n"
	for _, tc := range []struct {
		last    string
		end     model.ErrorKind
		confirm bool
		check   func(x, y int64) bool
	}{
		{"u := x + y; assert(u != 0);", model.Assertion, true, func(x, y int64) bool { return uint8(x+y) == 0 }},
		{"w := x; assert(w > 0);", model.Assertion, true, func(x, y int64) bool { return int16(x) <= 0 }},
		{"z := int32(x * 3); assert(z != 7);", model.Assertion, true, func(x, y int64) bool { return int32(x*3) == 7 }},
		{"u := x; z := u; assert(z == x);", model.Assertion, true, func(x, y int64) bool { return x > 255 }},
		// a uint64 value from 2^63 on is a limit: x - 20 must not be
		// negative for the trail to go on
		{"assume(x < 20 || x > 1000000); q := x - 20; assert(q < 5);", model.Assertion, true, func(x, y int64) bool { return x > 1000000 }},
		{"u := x; assert(u <= 255);", model.Assertion, false, nil},
		{"u := x + 300;", model.RangeError, false, nil},
		{"z := int64(x * y);", model.Overflow, false, nil},
	} {
		src := replaceLast(inputs, tc.last)
		src = src[:len("system In ()\n")] + decls + src[len("system In ()\n"):]
		m, given := givenModel(t, src)
		sc := Schedule{Steps: []Step{{Groups: []int{0}}, {Groups: []int{1}}, {Groups: []int{2}}}, End: End{Kind: EndError, Error: tc.end}}
		r, err := Replay(m, sc, Config{Given: given})
		if err != nil {
			t.Fatal(err)
		}
		if r.Confirmed != tc.confirm || r.Incomplete || r.Method != "symbolic" {
			t.Errorf("%s: %s", tc.last, r)
			continue
		}
		if !tc.confirm {
			if d := r.Diverge; d == nil || d.Step != 3 {
				t.Errorf("%s: divergence %+v, want step 3", tc.last, d)
			}
			continue
		}
		x, y := r.Choices[0].Value, r.Choices[1].Value
		if x <= 10 || !tc.check(x, y) {
			t.Errorf("%s: x = %d, y = %d do not fail it", tc.last, x, y)
		}
		gm, _, err := given([]int64{x, y})
		if err != nil {
			t.Fatal(err)
		}
		checkTrail(t, gm, r.Trail, tc.end)
	}
}
