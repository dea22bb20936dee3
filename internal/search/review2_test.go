package search

import (
	"testing"

	"birch/internal/ltl"
	"birch/internal/model"
)

// The product search batches the inserts of a state's edges (add, flush).
// One-by-one insertion stored each edge's target as the edge was added, so
// when a later outcome of the same state is a runtime error, the targets
// of the earlier edges are stored and counted. The batched search must
// report the same statistics.
func TestReview2ProductErrorKeepsEarlierInserts(t *testing.T) {
	m := loadModel(t, "../model/testdata/review2-product-error.bir")
	pool := propPool(t, m) // zero, one
	// [] (zero || one): true, but the automaton of its negation does not
	// know it, so every state has an edge
	f := ltl.Un(ltl.Always, ltl.Bin(ltl.Or, ltl.Prop(0), ltl.Prop(1)))
	res, _ := ltlCheck(t, m, pool, f, false)
	if res.Verdict != Fail || res.Violation == nil || res.Violation.Kind != model.Assertion {
		t.Fatalf("%v %+v, want an assertion violation", res.Verdict, res.Violation)
	}
	// the initial product state and the Mover successor's (inserted
	// before Failer's error outcome is seen)
	if got, want := res.Stats.States, 2; got != want {
		t.Errorf("states %d, want %d (one-by-one insertion stores the edge added before the error)", got, want)
	}
	if got, want := res.Stats.Transitions, int64(2); int64(got) != want {
		t.Errorf("transitions %d, want %d", got, want)
	}
}
