package model

import (
	"strconv"
	"strings"
	"testing"
)

// TestChoiceProductLimit: two choices of one step whose values are each
// few enough to enumerate but together too many (2^16 · 2^16 successors
// of one state) are one limit outcome, not 2^32 successors that the search
// would collect before its memory limit could act (it grew past 6.8 GB
// with --max-memory 1G). A product within the bound still enumerates.
func TestChoiceProductLimit(t *testing.T) {
	src := func(n int) string {
		return `system Fan ()
x : int;
z : int;
main thread M ()
  loc s0:
    when true do { z := externChoose(0 .. ` + strconv.Itoa(n-1) + `); x := externChoose(uint16); } goto s1;
  loc s1:
end M;
end Fan;
`
	}
	for _, tc := range []struct {
		first int // values of the first choice
		limit bool
	}{{16, false}, {17, true}, {65536, true}} {
		m, err := compileSrc(t, src(tc.first), Options{})
		if err != nil {
			t.Fatal(err)
		}
		s0, fail := m.Initial(nil)
		if fail != nil {
			t.Fatal(fail)
		}
		ok, limits := 0, 0
		m.Next(s0, func(st *Step) {
			switch st.Outcome {
			case OK:
				ok++
			case Limit:
				limits++
				if !strings.Contains(st.Msg, "combinations") {
					t.Errorf("first %d: limit %q", tc.first, st.Msg)
				}
			default:
				t.Errorf("first %d: outcome %v", tc.first, st.Outcome)
			}
		})
		if tc.limit && (limits != 1 || ok != 0) {
			t.Errorf("first %d: %d successors and %d limits, want one limit", tc.first, ok, limits)
		}
		if !tc.limit && (limits != 0 || ok != tc.first*65536) {
			t.Errorf("first %d: %d successors and %d limits, want %d successors", tc.first, ok, limits, tc.first*65536)
		}
	}
}

// TestChoiceProductLowRange: a low MaxChoiceRange (refinement sets 2^8)
// bounds each choice, not their product: two choices of 256 values are
// 65,536 successors (assert.c in examples/c was inconclusive under
// --cegar when the product was held to MaxChoiceRange).
func TestChoiceProductLowRange(t *testing.T) {
	src := `system Fan ()
x : int;
z : int;
main thread M ()
  loc s0:
    when true do { z := externChoose(0 .. 255); x := externChoose(0 .. 255); } goto s1;
  loc s1:
end M;
end Fan;
`
	m, err := compileSrc(t, src, Options{MaxChoiceRange: 256})
	if err != nil {
		t.Fatal(err)
	}
	s0, fail := m.Initial(nil)
	if fail != nil {
		t.Fatal(fail)
	}
	ok := 0
	m.Next(s0, func(st *Step) {
		if st.Outcome != OK {
			t.Fatalf("outcome %v: %s", st.Outcome, st.Msg)
		}
		ok++
	})
	if ok != 65536 {
		t.Errorf("%d successors, want 65536", ok)
	}
}
