package c2bp

import (
	"sort"
	"strings"
	"testing"

	"birch/internal/bir/types"
	"birch/internal/model"
)

// reachableErrors explores the abstract model whole, past its errors, and
// lists the concrete errors (Origin.Errors) its error steps stand for.
func reachableErrors(t *testing.T, out *Output) []string {
	t.Helper()
	return errorKinds(t, out.Program, out, 100000)
}

// errorKinds explores prog (up to max states) and lists the kinds of its
// error steps; with out, prog is out's abstract model and an abstract
// assertion counts as the concrete error Origin.Errors maps it to.
func errorKinds(t *testing.T, prog *types.Program, out *Output, max int) []string {
	t.Helper()
	m, err := model.New(prog, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	init, fail := m.Initial(nil)
	if fail != nil {
		t.Fatal(fail.Msg)
	}
	seen := map[string]bool{string(init): true}
	work := [][]byte{init}
	kinds := map[string]bool{}
	for len(work) > 0 && len(seen) < max {
		s := work[0]
		work = work[1:]
		m.Next(s, func(st *model.Step) {
			switch st.Outcome {
			case model.OK:
				if !seen[string(st.State)] {
					seen[string(st.State)] = true
					work = append(work, append([]byte(nil), st.State...))
				}
			case model.Error:
				kind := st.Kind.String() // a concrete action's own error
				if out == nil {
					kinds[kind] = true
					return
				}
				if st.Kind == model.Assertion {
					kind = "unmapped assertion"
				}
				for _, o := range out.Map.Origins {
					for i, act := range o.Abstract.Actions {
						if act.Pos() <= st.Pos && st.Pos < act.End() {
							if e, ok := o.Errors[i]; ok {
								kind = e.Kind.String()
							}
						}
					}
				}
				kinds[kind] = true
			}
		})
	}
	var out2 []string
	for k := range kinds {
		out2 = append(out2, k)
	}
	sort.Strings(out2)
	return out2
}

// TestMayFail: where an assertion or a runtime error may fail but need
// not (its condition's up holds, its low does not), the abstract step both
// fails and goes on, so the executions in which the concrete step succeeds
// keep their abstract counterparts: here the division by zero after the
// assertion is reachable only past the assertion's possible failure.
// (The abstraction once failed there for sure, which loses those
// executions; the soundness test by enumeration found it.)
func TestMayFail(t *testing.T) {
	out, err := abstractSource(t, `system S ()
x, y : int;
main thread M ()
  loc l0:
    when true do { x := externChoose(0, 9); } goto l1;
  loc l1:
    when true do { assert(x <= 4); } goto l2;
  loc l2:
    when true do { y := 10 / x; } goto l3;
  loc l3:
end M;
end S;
`, "y > 0\n")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(reachableErrors(t, out), ", ")
	if got != "assertion, division-by-zero" {
		t.Fatalf("errors reachable in the abstract model: %s, want assertion, division-by-zero\n%s", got, out.Source)
	}
}
