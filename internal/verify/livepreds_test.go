package verify

import (
	"strings"
	"testing"

	"birch/internal/search"
)

// TestFunctionPredicatesLiveSets: a function's predicates are variables
// of the abstract function, which must stay live wherever the model's
// locations have live sets (the C lowering writes one at every location).
// Left out of the abstract live set, the predicate x == 7 was reset to
// false on arrival at L2, the branch to the assertion never taken, and
// the model passed (a wrong pass, found on the C program of an SV-COMP
// unreach-label task).
func TestFunctionPredicatesLiveSets(t *testing.T) {
	src := `system M ()
function f () : int
  x : int;
  loc L1: LIVE
    when true do { x := externChoose(int); } goto L2;
  loc L2: LIVE
    when x == 7 do {} goto L3;
    when !(x == 7) do {} goto L5;
  loc L3: LIVE
    when true do { assert(false); } goto L5;
  loc L5: LIVE
    when true do {} return 0;
end f;
main thread Main ()
  loc run:
    when true do { call f(); } goto done;
  loc done:
end Main;
end M;
`
	for _, live := range []string{"", "live { x }", "live { }"} {
		in, err := Load("live.bir", []byte(strings.ReplaceAll(src, "LIVE", live)))
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]string{"p": "[function f] x == 7\n"}
		read := func(name string) ([]byte, error) { return []byte(files[name]), nil }
		for _, tech := range []string{"cegar", "predicates"} {
			task := &Task{Input: in, Search: search.Config{Strategy: search.BFS}}
			if tech == "cegar" {
				task.Cegar = &Cegar{}
			} else {
				task.Predicates = &PredicateAbstraction{File: "p", ReadFile: read}
			}
			res, err := Run(task)
			if err != nil {
				t.Fatal(err)
			}
			// with live { } x is reset to 0 at L2: the assertion is not
			// reachable
			want := Fail
			if live == "live { }" {
				want = Pass
			}
			if res.Verdict() != want {
				t.Errorf("%q, %s: %v (%s), want %v", live, tech, res.Verdict(), res.Checks[0].Reason, want)
			}
		}
	}
}
