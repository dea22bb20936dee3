package c2bp

import (
	"testing"

	"birch/internal/search"
)

// TestExamples abstracts each model of examples/predicates with its
// predicate file and searches the abstract model: the examples that pass
// pass in the abstract model (so the predicates prove them), and the one
// with a bug fails there.
func TestExamples(t *testing.T) {
	for _, c := range []struct {
		name string
		want search.Verdict
	}{
		{"lockloop", search.Pass},
		{"countbound", search.Pass},
		{"lockedcounter", search.Pass},
		{"partition", search.Pass},
		{"payload", search.Fail},
		{"payload-fixed", search.Pass},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := "../../../../examples/predicates/"
			out, err := abstractFile(t, dir+c.name+".bir", dir+c.name+".pred")
			if err != nil {
				t.Fatal(err)
			}
			res := explore(t, out.Program)
			if res.Verdict != c.want || c.want == search.Pass && !res.Complete {
				t.Fatalf("%v (%s), want %v\n%s", res.Verdict, res.Reason, c.want, out.Source)
			}
		})
	}
}
