package amcs

import (
	"reflect"
	"testing"

	"birch/internal/search"
)

// The worked examples through the search, not only through the choice
// functions: the statistics a round keeps of the concrete states matched
// into each abstract state give the thesis's predicates.
//
// Figure 4.3 (MinOnly): at location t, x = 6 (first, the representative)
// and x = 8 match one abstract state; the round keeps min(x) = 6 with
// unique false and adds x > 6, after which the round is exact.
// Figure 4.1 (MaxOverlap): three abstract states (locations a, b, c)
// receive x in {0, 4}, {3, 7} and {2, 5}; x > 3 splits all three.
func TestWorkedExamplesThroughSearch(t *testing.T) {
	m := compile(t, `system Fig()
  x : range 0..9;
  main thread M()
    loc s: when true do { x := internChoose(6, 8); } goto t;
    loc t:
  end M;
end Fig;
`)
	res := Run(m, m, Config{Variant: MinOnly, NoDeadlock: true})
	if res.Verdict != search.Pass || len(res.Rounds) != 2 || !reflect.DeepEqual(res.Rounds[0].Added, []string{"x > 6"}) {
		t.Errorf("MinOnly: %v %s, rounds %+v", res.Verdict, res.Reason, res.Rounds)
	}
	m = compile(t, `system Fig()
  x : range 0..9;
  main thread M()
    loc s: when true do { x := internChoose(0, 4); } goto a;
           when true do { x := internChoose(3, 7); } goto b;
           when true do { x := internChoose(2, 5); } goto c;
    loc a:
    loc b:
    loc c:
  end M;
end Fig;
`)
	for seed := uint64(0); seed < 10; seed++ {
		res = Run(m, m, Config{Variant: MaxOverlap, NoDeadlock: true, Seed: seed})
		if res.Verdict != search.Pass || len(res.Rounds) != 2 || !reflect.DeepEqual(res.Rounds[0].Added, []string{"x > 3"}) ||
			res.Rounds[0].Eligible != 3 || res.Rounds[1].Eligible != 0 {
			t.Fatalf("MaxOverlap seed %d: %v %s, rounds %+v", seed, res.Verdict, res.Reason, res.Rounds)
		}
		res = Run(m, m, Config{Variant: MinSet, NoDeadlock: true, Seed: seed})
		if res.Verdict != search.Pass || len(res.Rounds) != 2 || !reflect.DeepEqual(res.Rounds[0].Added, []string{"x > 3"}) {
			t.Fatalf("MinSet seed %d: %v %s, rounds %+v", seed, res.Verdict, res.Reason, res.Rounds)
		}
	}
}
