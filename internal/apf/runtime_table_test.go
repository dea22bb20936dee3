package apf

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/smt"
	"birch/internal/source"
)

// The rows of Table 1 of the Abstract Pathfinder paper (weakest
// preconditions), the cases of its §3.3 (finding the predicates a write
// affects) and of its §3.7 (call boundaries), each as a small model whose
// predicates are read after the step (docs/apf.md, "From the paper to
// birch", names the test of each). runE2E also compares every case with the explicit search of
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

// Table 1, o = new C: WP(o = new C, o = v) = false, and the new object is
// fresh, unlike every existing one (the paper's auxiliary clause
// fresh ≠ e). After q := new Cells, q == p is false where it was true; a
// write through q leaves p's object and its predicates as they were; the
// new object's [record Cell] instances are decided from its fields'
// defaults, and q.v == p.v from p.v's predicates.
func TestTableNewObject(t *testing.T) {
	run := runE2E(t, e2eCase{name: "newobj", src: `system NewObj ()
Cell = record { v : int; };
Cells : collection [2] of Cell;
CellRef = ref Cell {Cells};
p, q : CellRef;
main thread Main ()
  loc s0:
    when true do { p := new Cells; p.v := externChoose(-1 .. 1); q := p; } goto s1;
  loc s1:
    when true do { q := new Cells; } goto s2;
  loc s2:
    when true do { q.v := 5; } goto s3;
  loc s3:
end Main;
end NewObj;
`, preds: "q == p\nq != null\np.v == 5\nq.v == p.v\np.v == 0\n[record Cell] this.v == 0\n", record: func(pred int, vals map[string]string) map[string]string {
		return fieldTruth(vals, "Cells", "v", func(v int64) bool { return v == 0 })
	}})
	noErrors(t, run)
	wantPreds(t, run, "Main@s1", "0=true 1=true 2=false 3=true 4=? 5@Cells[0]=? ")
	wantPreds(t, run, "Main@s2", "0=false 1=true 2=false 3=? 4=? 5@Cells[0]=? 5@Cells[1]=true ")
	wantPreds(t, run, "Main@s3", "0=false 1=true 2=false 3=false 4=? 5@Cells[0]=? 5@Cells[1]=false ")
}

// Table 1, a[i] = e: WP(a[i] = e, aread(arr, a′, i′) relop u) =
// aread(awrite(arr, a, i, e), a′, i′) relop u, decided by whether a′
// aliases a and i′ equals i. c is the heap array a or b (a choice); after
// c[1] := 5 (i concrete) exactly the element 1 of the array c is c
// changed; after c[j] := 7 (j abstracted, 0 or 1) every element of c is
// affected, and those of the other array are not.
func TestTableArrayWrite(t *testing.T) {
	run := runE2E(t, e2eCase{name: "arrwrite", src: `system ArrWrite ()
Ints = array [2] of int;
Arrs : collection [2] of Ints;
IntsRef = ref Ints {Arrs};
a, b, c : IntsRef;
j : int;
main thread Main ()
  loc s0:
    when true do { a := new Arrs[2]; b := new Arrs[2]; j := externChoose(0 .. 1); } goto s1;
  loc s1:
    when true do { c := internChoose(a, b); } goto s2;
  loc s2:
    when true do { c[1] := 5; } goto s3;
  loc s3:
    when true do { c[j] := 7; } goto s4;
  loc s4:
end Main;
end ArrWrite;
`, preds: "a[0] == 0\na[1] == 5\nb[0] == 0\nb[1] == 5\nc[j] == 7\nj == 0\nj >= 0\nj <= 1\n"})
	noErrors(t, run)
	wantPreds(t, run, "Main@s3",
		"0=true 1=true 2=true 3=false 4=false 5=? 6=true 7=true ",
		"0=true 1=false 2=true 3=true 4=false 5=? 6=true 7=true ")
	wantPreds(t, run, "Main@s4",
		"0=? 1=? 2=true 3=false 4=true 5=? 6=true 7=true ",
		"0=true 1=false 2=? 3=? 4=true 5=? 6=true 7=true ")
}

// Table 1, a[i] = e with i abstracted: every element predicate of the
// array is affected (§3.3), and each is decided by what the predicates
// say of i: with 1 <= i known, a[i] := 5 leaves a[0] == 0 true and makes
// a[1] == 0 and a[2] == 0 unknown, a[i] == 5 true. The branch on i == 1
// then makes a[1] == 0 false through a[i] == 5; a[2] == 0 stays unknown,
// as in the paper: no predicate kept that the write missed a[2].
func TestTableArrayWriteAbstractIndex(t *testing.T) {
	run := runE2E(t, e2eCase{name: "arridx", src: `system ArrIdx ()
Ints = array [3] of int;
Arrs : collection [1] of Ints;
IntsRef = ref Ints {Arrs};
a : IntsRef;
i : int;
main thread Main ()
  loc s0:
    when true do { a := new Arrs[3]; i := externChoose(1 .. 2); } goto s1;
  loc s1:
    when true do { a[i] := 5; } goto s2;
  loc s2:
    when i == 1 do { } goto s3;
    when i != 1 do { } goto s4;
  loc s3:
  loc s4:
end Main;
end ArrIdx;
`, preds: "a[0] == 0\na[1] == 0\na[2] == 0\na[i] == 5\n1 <= i\ni <= 2\ni == 1\n"})
	noErrors(t, run)
	wantPreds(t, run, "Main@s1", "0=true 1=true 2=true 3=false 4=true 5=true 6=? ")
	wantPreds(t, run, "Main@s2", "0=true 1=? 2=? 3=true 4=true 5=true 6=? ")
	wantPreds(t, run, "Main@s3", "0=true 1=false 2=? 3=true 4=true 5=true 6=true ")
	wantPreds(t, run, "Main@s4", "0=true 1=? 2=false 3=true 4=true 5=true 6=false ")
}

// A value array written at an abstracted index: the same rule; value
// arrays are copied, never aliased, so b's element predicates are not
// affected by a write into a after b := a (which copied a's elements'
// values of the step, 4).
func TestTableValueArrayWrite(t *testing.T) {
	run := runE2E(t, e2eCase{name: "valarr", src: `system ValArr ()
a, b : array [2] of int;
i : int;
main thread Main ()
  loc s0:
    when true do { i := externChoose(0 .. 1); a[0] := 4; a[1] := 4; b := a; } goto s1;
  loc s1:
    when true do { a[i] := 3; } goto s2;
  loc s2:
end Main;
end ValArr;
`, preds: "a[0] == 3\na[1] == 3\nb[0] == 4\nb[1] == 4\na[i] == 3\ni == 0\ni >= 0\ni <= 1\n"})
	noErrors(t, run)
	wantPreds(t, run, "Main@s1", "0=false 1=false 2=true 3=true 4=false 5=? 6=true 7=true ")
	wantPreds(t, run, "Main@s2", "0=? 1=? 2=true 3=true 4=true 5=? 6=true 7=true ")
}

// Table 1, a = newarray[e]: WP(a = newarray[e], alength(arrlen, a′) relop
// u) = alength(store(arrlen, a, e), a′) relop u, and the new array's
// elements are fresh (aread(awrite(arr, a, fresh), a′, i)). BIR's lengths
// are concrete, so alength predicates are decided exactly: after
// a := new Arrs[n] the old array, still b, keeps its length and its
// elements' predicates, the new one's elements hold their defaults, and
// a == b is false (WP(a = newarray[e], a = v) = false).
func TestTableNewArray(t *testing.T) {
	run := runE2E(t, e2eCase{name: "newarr", src: `system NewArr ()
Ints = array [3] of int;
Arrs : collection [2] of Ints;
IntsRef = ref Ints {Arrs};
a, b : IntsRef;
n : range 1..3;
main thread Main ()
  loc s0:
    when true do { a := new Arrs[3]; a[0] := externChoose(-1 .. 1); b := a; n := internChoose(1, 2); } goto s1;
  loc s1:
    when true do { a := new Arrs[n]; } goto s2;
  loc s2:
    when true do { a[0] := b[0]; } goto s3;
  loc s3:
end Main;
end NewArr;
`, preds: "a.length == 2\nb.length == 3\na.length < b.length\na[0] == 0\nb[0] == 0\na[0] == b[0]\na == b\n"})
	noErrors(t, run)
	wantPreds(t, run, "Main@s1", "0=false 1=true 2=false 3=? 4=? 5=true 6=true ")
	wantPreds(t, run, "Main@s2",
		"0=false 1=true 2=true 3=true 4=? 5=? 6=false ",
		"0=true 1=true 2=true 3=true 4=? 5=? 6=false ")
	wantPreds(t, run, "Main@s3",
		"0=false 1=true 2=true 3=? 4=? 5=true 6=false ",
		"0=true 1=true 2=true 3=? 4=? 5=true 6=false ")
}

// pathTruth is the truth of a record predicate test(this.f1.f2…) of every
// object of collection coll (by the values model.Describe prints;
// undefined, "?", where a reference on the path is null).
func pathTruth(vals map[string]string, coll string, path []string, test func(v int64) bool) map[string]string {
	out := map[string]string{}
	for k := 0; ; k++ {
		obj := coll + "[" + strconv.Itoa(k) + "]"
		if _, ok := vals[obj+"."+path[len(path)-1]]; !ok {
			return out
		}
		cur := obj
		for _, f := range path[:len(path)-1] {
			cur = vals[cur+"."+f]
		}
		v, err := strconv.ParseInt(vals[cur+"."+path[len(path)-1]], 10, 64)
		if cur == "null" || err != nil {
			out[obj] = "?"
			continue
		}
		out[obj] = strconv.FormatBool(test(v))
	}
}

// §3.3, a write a.b.c.d where a prefix names several objects: with i
// abstracted, ns[i].next.next names Nodes[3] (i == 0) or Nodes[2]
// (i == 1); ns[i].next.next.v := 9 makes the predicate of each of them
// unknown (the paper's symbol table adds e's value to the values the
// expression has: {x1, x2, p3}; here each candidate's value is
// ite(cond, 9, old)), leaves the other objects' as they were, and makes
// ns[i].next.next.v == 9 true. The branch on i == 0 then decides Nodes[3]
// through it. A write through a path of single objects,
// ns[0].next.next.v := 1, changes Nodes[3] only.
func TestTableWriteThroughSeveralObjects(t *testing.T) {
	run := runE2E(t, e2eCase{name: "several", src: `system Several ()
Node = record { next : NodeRef; v : int; };
Nodes : collection [4] of Node;
NodeRef = ref Node {Nodes};
ns : array [2] of NodeRef;
i : int;
main thread Main ()
  loc s0:
    when true do {
      ns[0] := new Nodes; ns[1] := new Nodes; ns[0].next := new Nodes; ns[1].next := new Nodes;
      ns[0].next.next := ns[1].next; ns[1].next.next := ns[0].next; i := externChoose(0 .. 1);
    } goto s1;
  loc s1:
    when true do { ns[i].next.next.v := 9; } goto s2;
  loc s2:
    when i == 0 do { } goto s3;
    when i != 0 do { } goto s4;
  loc s3:
    when true do { ns[0].next.next.v := 1; } goto s4;
  loc s4:
end Main;
end Several;
`, preds: "i == 0\ni >= 0\ni <= 1\nns[i].next.next.v == 9\n[record Node] this.v == 9\n", record: func(pred int, vals map[string]string) map[string]string {
		return fieldTruth(vals, "Nodes", "v", func(v int64) bool { return v == 9 })
	}})
	noErrors(t, run)
	all := func(v0, v1, v2, v3 string) string {
		return "4@Nodes[0]=" + v0 + " 4@Nodes[1]=" + v1 + " 4@Nodes[2]=" + v2 + " 4@Nodes[3]=" + v3 + " "
	}
	wantPreds(t, run, "Main@s1", "0=? 1=true 2=true 3=false "+all("false", "false", "false", "false"))
	wantPreds(t, run, "Main@s2", "0=? 1=true 2=true 3=true "+all("false", "false", "?", "?"))
	wantPreds(t, run, "Main@s3", "0=true 1=true 2=true 3=true "+all("false", "false", "?", "true"))
	wantPreds(t, run, "Main@s4",
		"0=true 1=true 2=true 3=false "+all("false", "false", "?", "false"),
		"0=false 1=true 2=true 3=true "+all("false", "false", "true", "?"))
}

// §3.3, a predicate affected through an alias of a prefix: p is h.next,
// so h.next.next.v := 4 changes p.next.v == 4 (a [thread Main]
// predicate) and the [record Node] predicate this.next.v == 4 of the
// object h.next; moving p to h makes p.next.v == 4 read h.next.v, and a
// write through p.next is a write of h.next.v. (Nodes[2].next is null:
// its instance is undefined, unknown.)
func TestTableAliasOfPrefix(t *testing.T) {
	run := runE2E(t, e2eCase{name: "prefix", src: `system Prefix ()
Node = record { next : NodeRef; v : int; };
Nodes : collection [3] of Node;
NodeRef = ref Node {Nodes};
h : NodeRef;
main thread Main ()
  p : NodeRef;
  loc s0:
    when true do { h := new Nodes; h.next := new Nodes; h.next.next := new Nodes; p := h.next; } goto s1;
  loc s1:
    when true do { h.next.next.v := 4; } goto s2;
  loc s2:
    when true do { p := h; } goto s3;
  loc s3:
    when true do { p.next.v := 4; } goto s4;
  loc s4:
end Main;
end Prefix;
`, preds: "[thread Main] p.next.v == 4\nh.next.next.v == 4\n[record Node] this.next.v == 4\n", record: func(pred int, vals map[string]string) map[string]string {
		return pathTruth(vals, "Nodes", []string{"next", "v"}, func(v int64) bool { return v == 4 })
	}})
	noErrors(t, run)
	wantPreds(t, run, "Main@s1", "0@0.0=false 1=false 2@Nodes[0]=false 2@Nodes[1]=false 2@Nodes[2]=? ")
	wantPreds(t, run, "Main@s2", "0@0.0=true 1=true 2@Nodes[0]=false 2@Nodes[1]=true 2@Nodes[2]=? ")
	wantPreds(t, run, "Main@s3", "0@0.0=false 1=true 2@Nodes[0]=false 2@Nodes[1]=true 2@Nodes[2]=? ")
	wantPreds(t, run, "Main@s4", "0@0.0=true 1=true 2@Nodes[0]=true 2@Nodes[1]=true 2@Nodes[2]=? ")
}

// §3.3, a cyclic structure: a.next is b, b.next is a, c.next is c, and
// the [record Node] predicates read this.next.next.v, which is this.v
// for every node. The paper bounds its search for aliases by the longest
// access expression so as to terminate on cycles; birch evaluates each
// predicate instance along its own expression on the concrete heap, so
// it needs no bound: the search terminates, every concrete state is
// represented, and each node's this.next.next.v > 0 has the value of its
// this.v > 0 in every state (the same location, the same formula).
func TestTableCyclicList(t *testing.T) {
	run := runE2E(t, e2eCase{name: "cycle", src: `system Cycle ()
Node = record { next : NodeRef; v : int; };
Nodes : collection [3] of Node;
NodeRef = ref Node {Nodes};
a, b, c, p : NodeRef;
main thread Main ()
  loc s0:
    when true do { a := new Nodes; b := new Nodes; c := new Nodes; a.next := b; b.next := a; c.next := c; p := a; } goto loop;
  loc loop:
    when p.v < 2 do { p.v := p.v + 1; p := p.next; } goto loop;
    when p.v >= 2 do { } goto turn;
  loc turn:
    when p != c do { p := c; } goto loop;
    when p == c do { assert(p.next.next.v >= 2); } goto done;
  loc done:
end Main;
end Cycle;
`, preds: "[record Node] this.next.next.v > 0\n[record Node] this.v > 0\n[record Node] this.v >= 0\n[record Node] this.v < 2\n", record: func(pred int, vals map[string]string) map[string]string {
		if pred == 0 {
			return pathTruth(vals, "Nodes", []string{"next", "next", "v"}, func(v int64) bool { return v > 0 })
		}
		return fieldTruth(vals, "Nodes", "v", func(v int64) bool { return []bool{v > 0, v >= 0, v < 2}[pred-1] })
	}})
	noErrors(t, run)
	if len(run.apf.at("Main@done")) == 0 {
		t.Errorf("done is not reached on the fly")
	}
	for _, s := range run.apf.states {
		for k := 0; k < 3; k++ {
			obj := "@Nodes[" + strconv.Itoa(k) + "]"
			if s.preds["0"+obj] != s.preds["1"+obj] {
				t.Errorf("%s: this.next.next.v > 0 and this.v > 0 differ: %s", obj, predsText(s.preds))
			}
		}
		// v is 0, 1 or 2 and the predicates tell them apart
		if strings.Contains(predsText(s.preds), "?") {
			t.Errorf("a predicate is unknown: %s %s", s.ctrl, predsText(s.preds))
		}
	}
	if len(run.apf.states) != len(run.conc.states) {
		t.Errorf("%d states on the fly, %d concretely: the predicates tell the values apart", len(run.apf.states), len(run.conc.states))
	}
}

// The cycle with unbounded values (inputs of type int, counted down
// forever): the explicit search of the model cannot enumerate them; on
// the fly the search terminates and proves this.next.next.v > 0 of the
// node it visits.
func TestTableCyclicListUnbounded(t *testing.T) {
	src := `system CycleInt ()
Node = record { next : NodeRef; v : int; };
Nodes : collection [2] of Node;
NodeRef = ref Node {Nodes};
a, b, p : NodeRef;
main thread Main ()
  loc s0:
    when true do { a := new Nodes; b := new Nodes; a.next := b; b.next := a; a.v := externChoose(int); b.v := externChoose(int); p := a; } goto s1;
  loc s1:
    when a.v > 0 && b.v > 0 do { } goto loop;
    when !(a.v > 0 && b.v > 0) do { } goto done;
  loc loop:
    when p.v > 1 do { assert(p.next.next.v > 0); p.v := p.v - 1; p := p.next; } goto loop;
    when p.v <= 1 do { assert(p.next.next.v > 0); p := p.next; } goto loop;
  loc done:
end Main;
end CycleInt;
`
	res, rt := searchOnTheFly(t, "cycleint", src, "[record Node] this.next.next.v > 0\n[record Node] this.v > 1\n", search.Config{MaxStates: 1000})
	if res.Verdict != search.Pass || !res.Complete {
		t.Errorf("verdict %v complete %v: %s", res.Verdict, res.Complete, res.Reason)
	}
	t.Logf("states %d, %+v", res.Stats.States, rt.Stats())
}

// §3.7, method call boundaries: the callee's parameter predicates come
// from the caller's predicates over the arguments (k > 0 from x > 0), its
// other locals start at their initial values (r == 0 is true, where the
// paper's would be unknown), and a write through a reference parameter
// changes the caller's predicates over the object at the write, exactly,
// also when the callee then overwrites the parameter (where the paper
// makes them unknown at the return): p.v > 0 is true from k > 0. p.v == x
// becomes unknown: no predicate relates the callee's k to the caller's x,
// which the callee does not see (the paper's limit too).
func TestTableCallBoundaries(t *testing.T) {
	run := runE2E(t, e2eCase{name: "calls", src: `system Calls ()
Cell = record { v : int; };
Cells : collection [1] of Cell;
CellRef = ref Cell {Cells};
function set (c : CellRef, k : int)
  r : int;
  loc f0:
    when true do { c.v := k; c := null; } goto f1;
  loc f1:
    when true do { } return;
end set;
main thread Main ()
  p : CellRef;
  x : int;
  loc s0:
    when true do { p := new Cells; x := externChoose(1 .. 3); } goto s1;
  loc s1:
    when true do { call set(p, x); } goto s2;
  loc s2:
end Main;
end Calls;
`, preds: "[thread Main] x > 0\n[thread Main] p.v > 0\n[thread Main] p.v == x\n[function set] k > 0\n[function set] r == 0\n[function set] c.v == k\n"})
	noErrors(t, run)
	wantPreds(t, run, "set@f0", "0@0.0=true 1@0.0=false 2@0.0=false 3@0.1=true 4@0.1=true 5@0.1=false ")
	wantPreds(t, run, "set@f1", "0@0.0=true 1@0.0=true 2@0.0=? 3@0.1=true 4@0.1=true 5@0.1=? ")
	wantPreds(t, run, "Main@s2", "0@0.0=true 1@0.0=true 2@0.0=? ")
}

// The predicates a step affects, beyond the written location itself: a
// concrete index that moves (a[j] == 5 after j := 1), a predicate of
// another thread over a shared object (W's [thread W] c.v > 0 after
// Main's write), and the [record Cell] predicates of every object over a
// global (this.v < g after g := g - 5: false for p's object, whose v > 0
// W's predicate keeps; unknown for q's, of whose v = 1 the predicates
// kept only v < 3).
func TestTableAffectedPredicates(t *testing.T) {
	run := runE2E(t, e2eCase{name: "affected", src: `system Affected ()
Cell = record { v : int; };
Cells : collection [2] of Cell;
CellRef = ref Cell {Cells};
a : array [2] of int;
j : range 0..1;
g : int := 3;
thread W (c : CellRef)
  loc w0:
    when true do { } goto w1;
  loc w1:
end W;
main thread Main ()
  p, q : CellRef;
  loc s0:
    when true do { a[1] := 5; p := new Cells; q := new Cells; q.v := 1; start W(p); } goto s1;
  loc s1:
    when true do { j := 1; } goto s2;
  loc s2:
    when true do { p.v := 2; } goto s3;
  loc s3:
    when true do { g := g - 5; } goto s4;
  loc s4:
end Main;
end Affected;
`, preds: "a[1] == 5\na[j] == 5\n[thread W] c.v > 0\ng == 3\n[record Cell] this.v < g\n", record: func(pred int, vals map[string]string) map[string]string {
		g, _ := strconv.ParseInt(vals["g"], 10, 64)
		return fieldTruth(vals, "Cells", "v", func(v int64) bool { return v < g })
	}})
	noErrors(t, run)
	wantPreds(t, run, "Main@s1", "0=true 1=false 2@1.0=false 3=true 4@Cells[0]=true 4@Cells[1]=true ")
	wantPreds(t, run, "Main@s2", "0=true 1=true 2@1.0=false 3=true 4@Cells[0]=true 4@Cells[1]=true ")
	wantPreds(t, run, "Main@s3", "0=true 1=true 2@1.0=true 3=true 4@Cells[0]=true 4@Cells[1]=true ")
	wantPreds(t, run, "Main@s4", "0=true 1=true 2@1.0=true 3=false 4@Cells[0]=false 4@Cells[1]=? ")
}

// searchOnTheFly searches the model src with the predicates preds on the
// fly (breadth-first, deadlocks not checked, cfg's bounds).
func searchOnTheFly(t *testing.T, name, src, preds string, cfg search.Config) (*search.Result, *Runtime) {
	t.Helper()
	p, err := Instrument(source.NewFileSet(), name+".bir", []byte(src), name+".pred", []byte(preds))
	if err != nil || p.Unsupported != nil {
		t.Fatal(err, p.Unsupported)
	}
	rt, err := NewRuntime(p, Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rt.Close)
	m, err := model.New(p.Prog, model.Options{Native: rt})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Strategy, cfg.NoDeadlock = search.BFS, true
	return search.Run(m, cfg), rt
}
