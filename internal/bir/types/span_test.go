package types

import (
	"math"
	"testing"
)

// TestRangeSpan: Span is Hi-Lo without the int64 overflow of a range of
// more than 2^63 values (int64's Hi-Lo was -1, taken for a small range).
func TestRangeSpan(t *testing.T) {
	for _, c := range []struct {
		r    Range
		want uint64
	}{
		{Range{Lo: 0, Hi: 3}, 3},
		{Range{Lo: -128, Hi: 127}, 255},
		{Range{Lo: math.MinInt64, Hi: math.MaxInt64}, math.MaxUint64},
		{Range{Lo: math.MinInt64, Hi: 0}, 1 << 63},
		{Range{Lo: math.MaxInt64 - 1, Hi: math.MaxInt64}, 1},
	} {
		if got := c.r.Span(); got != c.want {
			t.Errorf("%v.Span() = %d, want %d", &c.r, got, c.want)
		}
	}
	for _, ft := range FixedTypes {
		r := ft.Underlying().(*Range)
		if r.Span() < 255 {
			t.Errorf("%s: Span %d", ft, r.Span())
		}
	}
}
