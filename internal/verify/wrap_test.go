package verify

import (
	"strings"
	"testing"

	"birch/internal/search"
)

// wrapModels fail only because a store into a fixed-width variable wraps
// (issue 20): x := x + 1 from the largest value gives the smallest, and
// the assertion after it fails. Neither the predicate abstraction nor the
// refinement loop may pass them, whatever the predicates: a wrapping store
// taken for a range-checked one (or for unbounded arithmetic) would.
var wrapModels = []struct{ name, src, preds string }{
	{"uint8", `system W ()
x : uint8 := 255;
main thread M ()
  loc s0: when true do { x := x + 1; } goto s1;
  loc s1: when true do { assert(x != 0); } goto s2;
  loc s2:
end M;
end W;
`, "x != 0\nx == 255\n"},
	{"int32", `system W ()
x : int32 := 2147483647;
main thread M ()
  loc s0: when true do { x := x + 1; } goto s1;
  loc s1: when true do { assert(x > 0); } goto s2;
  loc s2:
end M;
end W;
`, "x > 0\nx == 2147483647\n"},
	{"input", `system W ()
x : int32;
main thread M ()
  loc s0: when true do { x := externChoose(int32); } goto s1;
  loc s1: when x > 2147483000 do { x := x + 1000; } goto s2;
          when x <= 2147483000 do { } goto s3;
  loc s2: when true do { assert(x > 0); } goto s3;
  loc s3:
end M;
end W;
`, "x > 0\nx > 2147483000\n"},
	{"conversion", `system W ()
n, r : int;
main thread M ()
  loc s0: when true do { n := externChoose(int); } goto s1;
  loc s1: when n > 0 do { r := uint8(n + 1); } goto s2;
          when n <= 0 do { } goto s3;
  loc s2: when true do { assert(r > 0); } goto s3;
  loc s3:
end M;
end W;
`, "r > 0\nn > 0\n"},
}

// TestWrapNoWrongPass: each wrapping model fails under --predicates (with
// its predicates, and with none that matter) and under --cegar, never
// passes.
func TestWrapNoWrongPass(t *testing.T) {
	for _, tc := range wrapModels {
		for _, preds := range []string{tc.preds, "n == 12345\n"} {
			if !strings.Contains(tc.src, "n, r") {
				preds = strings.ReplaceAll(preds, "n == 12345", "x == 12345")
			}
			in, err := Load(tc.name+".bir", []byte(tc.src))
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			pa := &PredicateAbstraction{File: "w.pred", ReadFile: func(string) ([]byte, error) { return []byte(preds), nil }}
			res, err := Run(&Task{Input: in, Predicates: pa})
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if v := res.Verdict(); v == Pass {
				t.Errorf("%s, predicates %q: pass, but the model fails", tc.name, preds)
			} else {
				t.Logf("%s, predicates %q: %v (%s)", tc.name, preds, v, res.Checks[0].Reason)
			}
		}
		res := checkCegar(t, tc.name, tc.src)
		c := res.Checks[0]
		if res.Verdict() != Fail || c.Violation == nil || c.Violation.Kind != "assertion" || !c.Violation.Confirmation.Confirmed {
			t.Errorf("%s: --cegar gives %v (%s), want a confirmed assertion violation", tc.name, res.Verdict(), c.Reason)
		}
	}
}

// TestWrapCegarPass: models that pass only because a store wraps (as
// unbounded arithmetic, or with a range error, they would fail): the
// refinement loop finds the predicates over the conversions and proves
// them.
func TestWrapCegarPass(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"down", `system W ()
x : uint16;
main thread M ()
  loc s0: when true do { x := x - 1; } goto s1;
  loc s1: when true do { assert(x == 65535); } goto s2;
  loc s2:
end M;
end W;
`},
		{"input", `system W ()
x : int32;
main thread M ()
  loc s0: when true do { x := externChoose(int32); } goto s1;
  loc s1: when x > 2147483000 do { x := x + 1000; assert(x < 0); } goto s2;
          when x <= 2147483000 do { } goto s2;
  loc s2:
end M;
end W;
`},
	} {
		res := checkCegar(t, tc.name, tc.src)
		if res.Verdict() != Pass {
			t.Errorf("%s: --cegar gives %v (%s), want pass", tc.name, res.Verdict(), res.Checks[0].Reason)
		}
	}
}

// checkCegar checks src with --cegar.
func checkCegar(t *testing.T, name, src string) *Result {
	t.Helper()
	in, err := Load(name+".bir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(&Task{Input: in, Cegar: &Cegar{}, Search: search.Config{Strategy: search.BFS}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}
