package apf

import (
	"strings"
	"testing"
)

// Figure 3 as a BIR model: after a choice a is unknown to a < 0 and a < 1;
// the branch on a < 0 makes both true in the then-branch, a < 0 false and
// a < 1 unknown in the else-branch, and the assertion a < 1 of the
// then-branch holds without a query about its failure being possible.
func TestRuntimeFigure3(t *testing.T) {
	run := runE2E(t, e2eCase{name: "fig3", src: `system Fig3 ()
a : int;
main thread Main ()
  loc s0:
    when true do { a := externChoose(-3 .. 3); } goto s1;
  loc s1:
    when a < 0 do { } goto s2;
    when !(a < 0) do { } goto s3;
  loc s2:
    when true do { assert(a < 1); } goto s4;
  loc s3:
  loc s4:
end Main;
end Fig3;
`, preds: "a < 0\na < 1\n"})
	want := map[string]string{"s2": "0=true 1=true ", "s3": "0=false 1=? ", "s4": "0=true 1=true "}
	for loc, w := range want {
		states := run.apf.at("Main@" + loc)
		if len(states) != 1 || predsText(states[0].preds) != w {
			var got []string
			for _, s := range states {
				got = append(got, predsText(s.preds))
			}
			t.Errorf("at %s: %q, want [%s]", loc, got, w)
		}
	}
	if len(run.apf.errs) != 0 {
		t.Errorf("errors %v", run.apf.errs)
	}
	st := run.rt.Stats()
	t.Logf("states %d (concrete %d), %+v", len(run.apf.states), len(run.conc.states), st)
	if st.GuardUnknowns == 0 {
		t.Errorf("no guard was unknown: %+v", st)
	}
}

// Aliasing through the concrete heap: q is p or r (a choice); q.v := 7
// changes p.v == 7 exactly when q == p.
func TestRuntimeAliasField(t *testing.T) {
	run := runE2E(t, e2eCase{name: "alias", src: `system Alias ()
Cell = record { v : int; };
Cells : collection [2] of Cell;
CellRef = ref Cell {Cells};
p, q, r : CellRef;
main thread Main ()
  loc s0:
    when true do { p := new Cells; r := new Cells; p.v := 5; r.v := 5; } goto s1;
  loc s1:
    when true do { q := internChoose(p, r); } goto s2;
  loc s2:
    when true do { q.v := q.v + 2; } goto s3;
  loc s3:
    when p.v == 7 do { assert(r.v == 5); } goto s4;
    when p.v != 7 do { assert(r.v == 7); } goto s4;
  loc s4:
end Main;
end Alias;
`, preds: "p.v == 7\nr.v == 5\nq.v == 7\np.v == 5\n"})
	for _, s := range run.apf.at("Main@s3") {
		if strings.Contains(predsText(s.preds), "?") {
			t.Errorf("at s3 a predicate is unknown: %s", predsText(s.preds))
		}
	}
	if len(run.apf.errs) != 0 {
		t.Errorf("errors %v", run.apf.errs)
	}
	t.Logf("states %d (concrete %d), %+v", len(run.apf.states), len(run.conc.states), run.rt.Stats())
}
