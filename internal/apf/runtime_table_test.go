package apf

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"birch/internal/smt"
)

// The rows of Table 1 of the Abstract Pathfinder paper (weakest
// preconditions) and the cases of its §3.3 (finding the predicates a
// write affects), each as a small model whose predicates are read after
// the step. runE2E also compares every case with the explicit search of
// the model: every concrete reachable state is represented.
//
// birch computes no weakest precondition syntactically: it evaluates each
// predicate instance in the state after the step over the concrete heap,
// the abstracted locations replaced by the step's terms over the state
// before it (forward substitution), which is WP(s, p) with every fread,
// aread and alength resolved on the concrete references and indices. The
// tests check that the values are those the table's rule gives.

// wantPreds checks that the on-the-fly states at loc (a part of their
// concrete part, "Main@s2") have exactly the predicate values of want,
// one predsText per state (in any order).
func wantPreds(t *testing.T, run *e2eRun, loc string, want ...string) {
	t.Helper()
	var got []string
	for _, s := range run.apf.at(loc) {
		if txt := predsText(s.preds); !slices.Contains(got, txt) {
			got = append(got, txt)
		}
	}
	sort.Strings(got)
	want = slices.Clone(want)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("at %s:\n  got  %s\n  want %s", loc, strings.Join(got, "\n       "), strings.Join(want, "\n       "))
	}
}

// noErrors checks that the on-the-fly search found no error and no limit.
func noErrors(t *testing.T, run *e2eRun) {
	t.Helper()
	if len(run.apf.errs) != 0 || len(run.apf.limits) != 0 {
		t.Errorf("on the fly: errors %v, limits %q", run.apf.errs, run.apf.limits)
	}
}

// Table 1, v = v′: WP(v = v′, F_v) = F_v[v′/v]. After x := z the
// predicate x > 0 has the value z > 0 has (true); after x := y that of
// y > 0 (unknown), and x == y is true; the branch on y > 0 then refines
// x > 0 through x == y.
func TestTableCopyVariable(t *testing.T) {
	run := runE2E(t, e2eCase{name: "copy", src: `system CopyVar ()
main thread Main ()
  x, y, z : int;
  loc s0:
    when true do { y := externChoose(-2 .. 2); z := externChoose(1 .. 2); } goto s1;
  loc s1:
    when true do { x := z; } goto s2;
  loc s2:
    when true do { x := y; } goto s3;
  loc s3:
    when y > 0 do { } goto s4;
    when !(y > 0) do { } goto s5;
  loc s4:
  loc s5:
end Main;
end CopyVar;
`, preds: "[thread Main] x > 0\n[thread Main] y > 0\n[thread Main] z > 0\n[thread Main] x == y\n"})
	noErrors(t, run)
	wantPreds(t, run, "Main@s2", "0@0.0=true 1@0.0=? 2@0.0=true 3@0.0=? ")
	wantPreds(t, run, "Main@s3", "0@0.0=? 1@0.0=? 2@0.0=true 3@0.0=true ")
	wantPreds(t, run, "Main@s4", "0@0.0=true 1@0.0=true 2@0.0=true 3@0.0=true ")
	wantPreds(t, run, "Main@s5", "0@0.0=false 1@0.0=false 2@0.0=true 3@0.0=true ")
}

// The refinement after a branch goes through the known predicates between
// (the cone of the question): with no predicate y > 0, the guard y > 0 is
// a fact of the step only, and x > 0 is decided from it through x == y;
// with y > 0 a predicate, through it. (Both stayed unknown before: only
// the predicates sharing a constant with the guard or with a newly known
// predicate were asked about.)
func TestTableCopyRefinedThroughKnown(t *testing.T) {
	src := `system CopyRefine ()
main thread Main ()
  x, y : int;
  loc s0:
    when true do { y := externChoose(-2 .. 2); } goto s1;
  loc s1:
    when true do { x := y; } goto s2;
  loc s2:
    when y > 0 do { } goto s3;
    when !(y > 0) do { } goto s4;
  loc s3:
  loc s4:
end Main;
end CopyRefine;
`
	run := runE2E(t, e2eCase{name: "refine", src: src, preds: "[thread Main] x > 0\n[thread Main] x == y\n"})
	noErrors(t, run)
	wantPreds(t, run, "Main@s3", "0@0.0=true 1@0.0=true ")
	wantPreds(t, run, "Main@s4", "0@0.0=false 1@0.0=true ")
	run = runE2E(t, e2eCase{name: "refine", src: src, preds: "[thread Main] x > 0\n[thread Main] x == y\n[thread Main] y > 0\n"})
	noErrors(t, run)
	wantPreds(t, run, "Main@s3", "0@0.0=true 1@0.0=true 2@0.0=true ")
	wantPreds(t, run, "Main@s4", "0@0.0=false 1@0.0=true 2@0.0=false ")
}

// Table 1, v = e: WP(v = e, v relop u) = e relop u. With y in 0 .. 9
// known, x := y + 1 makes x > 0 and x > y true; x := y - 1 makes x > y
// false and leaves x > 0 unknown (y - 1 > 0 is not decided by 0 <= y).
func TestTableAssignExpression(t *testing.T) {
	run := runE2E(t, e2eCase{name: "assign", src: `system Assign ()
main thread Main ()
  x, y : int;
  loc s0:
    when true do { y := externChoose(0 .. 9); } goto s1;
  loc s1:
    when true do { x := y + 1; } goto s2;
  loc s2:
    when true do { x := y - 1; } goto s3;
  loc s3:
end Main;
end Assign;
`, preds: "[thread Main] x > 0\n[thread Main] x > y\n[thread Main] y >= 0\n[thread Main] y < 10\n"})
	noErrors(t, run)
	wantPreds(t, run, "Main@s2", "0@0.0=true 1@0.0=true 2@0.0=true 3@0.0=true ")
	wantPreds(t, run, "Main@s3", "0@0.0=? 1@0.0=false 2@0.0=true 3@0.0=true ")
}

// Table 1, o.f = e: WP(o.f = e, fread(f, o′) relop u) =
// fread(fwrite(f, o, e), o′) relop u, true or false by whether o′ aliases
// o. q is p or r (a choice); after q.v := 5, p.v == 5 is true exactly
// when q is p and r.v == 5 exactly when q is r, and each object's
// [record Cell] instance follows its own object.
func TestTableFieldWrite(t *testing.T) {
	run := runE2E(t, e2eCase{name: "field", src: `system Field ()
Cell = record { v : int; };
Cells : collection [2] of Cell;
CellRef = ref Cell {Cells};
p, q, r : CellRef;
main thread Main ()
  loc s0:
    when true do { p := new Cells; r := new Cells; } goto s1;
  loc s1:
    when true do { q := internChoose(p, r); } goto s2;
  loc s2:
    when true do { q.v := 5; } goto s3;
  loc s3:
end Main;
end Field;
`, preds: "p.v == 5\nr.v == 5\nq.v == 5\n[record Cell] this.v == 5\n", record: func(pred int, vals map[string]string) map[string]string {
		return fieldTruth(vals, "Cells", "v", func(v int64) bool { return v == 5 })
	}})
	noErrors(t, run)
	wantPreds(t, run, "Main@s3",
		"0=true 1=false 2=true 3@Cells[0]=true 3@Cells[1]=false ",
		"0=false 1=true 2=true 3@Cells[0]=false 3@Cells[1]=true ")
}

// Table 1, o.f = e where the predicates do not decide whether o′ is o:
// cs[i].v := 5 with i abstracted writes one of two objects. Each object's
// predicate becomes unknown (fread(fwrite(f, o, e), o′) with o = o′
// unknown), cs[i].v == 5 is true, and the branch on i == 0 refines
// cs[0].v == 5 to true through it.
func TestTableFieldWriteUnknownAlias(t *testing.T) {
	run := runE2E(t, e2eCase{name: "fieldalias", src: `system FieldAlias ()
Cell = record { v : int; };
Cells : collection [2] of Cell;
CellRef = ref Cell {Cells};
cs : array [2] of CellRef;
i : int;
main thread Main ()
  loc s0:
    when true do { cs[0] := new Cells; cs[1] := new Cells; i := externChoose(0 .. 1); } goto s1;
  loc s1:
    when true do { cs[i].v := 5; } goto s2;
  loc s2:
    when i == 0 do { } goto s3;
    when i != 0 do { } goto s4;
  loc s3:
  loc s4:
end Main;
end FieldAlias;
`, preds: "i == 0\ni >= 0\ni <= 1\ncs[0].v == 5\ncs[1].v == 5\ncs[i].v == 5\n"})
	noErrors(t, run)
	wantPreds(t, run, "Main@s1", "0=? 1=true 2=true 3=false 4=false 5=false ")
	wantPreds(t, run, "Main@s2", "0=? 1=true 2=true 3=? 4=? 5=true ")
	wantPreds(t, run, "Main@s3", "0=true 1=true 2=true 3=true 4=? 5=true ")
	wantPreds(t, run, "Main@s4", "0=false 1=true 2=true 3=? 4=true 5=true ")
}

// The refinement of §3.6 asks about an unknown predicate whose cone meets
// a new fact or a newly known predicate, also through known predicates
// between: x > 0 from y > 0 through x == y. (Before, after a step, only
// the predicates sharing a constant with a newly known one were asked
// about: x > 0 stayed unknown when y > 0 became false.)
func TestRefineThroughKnown(t *testing.T) {
	r, err := newSolving(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tm := r.tm
	x, y := tm.Const("x", smt.IntSort), tm.Const("y", smt.IntSort)
	xPos, yPos, eq := tm.Gt(x, tm.Int(0)), tm.Gt(y, tm.Int(0)), tm.Eq(x, y)
	// a new fact
	ps := []predValue{{xPos, unknown}, {eq, isTrue}}
	r.refine(ps, []*smt.Term{yPos})
	if ps[0].val != isTrue {
		t.Errorf("the fact y > 0: x > 0 is %d, want true", ps[0].val)
	}
	// a predicate the step decided
	ps = []predValue{{yPos, isFalse}, {eq, isTrue}, {xPos, unknown}}
	r.refineFrom(ps, nil, []bool{true, false, false})
	if ps[2].val != isFalse {
		t.Errorf("y > 0 newly false: x > 0 is %d, want false", ps[2].val)
	}
}
