package bp

import (
	"fmt"
	"strings"
	"testing"

	"birch/internal/boolprog"
	"birch/internal/boolprog/bebop"
	"birch/internal/model"
	"birch/internal/search"
)

// TestCallDepth: BIR stops at 64 active calls where a boolean program
// recurses without bound. A function whose six boolean parameters count
// the calls fails its assertion at the 64th call: the boolean program
// fails, the BIR model reaches its call-depth limit first (inconclusive),
// and the schedule of the boolean program's trail does not replay on the
// BIR model, which says where.
func TestCallDepth(t *testing.T) {
	var params, next, all []string
	for i := range 6 {
		params = append(params, fmt.Sprintf("b%d : boolean", i))
		all = append(all, fmt.Sprintf("b%d", i))
		carry := "true"
		if i > 0 {
			carry = strings.Join(all[:i], " && ")
		}
		next = append(next, fmt.Sprintf("b%d != (%s)", i, carry))
	}
	src := fmt.Sprintf(`system Depth ()
function f (%s)
  loc f0:
    when true do { assert(!(%s)); call f(%s); } goto f1;
  loc f1:
    when true do { } return;
end f;
main thread Main ()
  loc s0:
    when true do { call f(false, false, false, false, false, false); } goto s1;
  loc s1:
end Main;
end Depth;
`, strings.Join(params, ", "), strings.Join(all, " && "), strings.Join(next, ", "))
	prog := load(t, "depth.bir", []byte(src))
	mod, err := model.New(prog, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := search.Run(mod, search.Config{NoDeadlock: true})
	if res.Verdict != search.Inconclusive || len(res.LimitsHit) == 0 {
		t.Fatalf("BIR: %v %v, want inconclusive at the call-depth limit", res.Verdict, res.LimitsHit)
	}
	out, err := Translate(prog, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "f is recursive: BIR stops a thread at 64 active calls, a boolean program does not"; out.Bounds != want {
		t.Errorf("Bounds: %q, want %q", out.Bounds, want)
	}
	br := bebop.Check(out.Info, bebop.Config{})
	if br.Outcome != bebop.Unsafe {
		t.Fatalf("bebop: %v, want unsafe", br.Outcome)
	}
	sc, err := out.Map.Schedule(br.BoolprogResult(out.Fset).Trail, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Steps) != 65 || sc.Steps[64].Depth != 64 {
		t.Fatalf("%d steps, the last at depth %d; want 65 steps, the last at depth 64", len(sc.Steps), sc.Steps[len(sc.Steps)-1].Depth)
	}
	ords, err := sc.Ordinals(mod)
	if err == nil || err.Error() != "step 64: a bound of the BIR model stops it: call depth exceeds 64" || len(ords) != 63 {
		t.Fatalf("ordinals: %d, %v; want 63 and an error at step 64", len(ords), err)
	}
	// the explicit checker agrees
	if ex := boolprog.CheckExplicit(out.Fset, out.Info, boolprog.Limits{}); ex.Verdict != boolprog.Fail {
		t.Fatalf("explicit: %v", ex.Verdict)
	}
}

// TestScheduleMismatch: a trail that does not fit the program is an
// error, not a wrong schedule.
func TestScheduleMismatch(t *testing.T) {
	out, err := Translate(loadFile(t, "testdata/toggle-unsafe.bir"), Config{})
	if err != nil {
		t.Fatal(err)
	}
	trail := bebop.Check(out.Info, bebop.Config{}).BoolprogResult(out.Fset).Trail
	if _, err := out.Map.Schedule(trail, true); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		trail   []boolprog.Step
		failing bool
		want    string
	}{
		"cut":         {trail[2:], true, "trail step 1: the trail does not start at the thread's first location"},
		"not failing": {trail, false, "the trail ends inside the transformation at s1"},
		"short":       {trail[:len(trail)-1], true, "the trail's last step, at testdata/toggle-unsafe.bp:21:5, is no assertion of the transformation at s1"},
		"other proc":  {append([]boolprog.Step{{Proc: "p"}}, trail...), true, "trail step 1: no procedure p in the boolean program"},
	} {
		if _, err := out.Map.Schedule(c.trail, c.failing); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %s", name, err, c.want)
		}
	}
}

// TestBounds: Output.Bounds names a cycle of invisible transformations,
// and is empty for the models of testdata (no recursion, no invisible
// cycle).
func TestBounds(t *testing.T) {
	src := `system Inv ()
main thread M ()
  a, b : boolean;
  loc s0:
    when true do invisible { a := !a; } goto s1;
  loc s1:
    when a do invisible { b := !b; } goto s0;
    when !a do { } goto s2;
  loc s2:
end M;
end Inv;
`
	out, err := Translate(load(t, "inv.bir", []byte(src)), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "the invisible transformations of M go round through s0: BIR stops an invisible run after 10000 transformations, a boolean program does not"; out.Bounds != want {
		t.Errorf("Bounds: %q, want %q", out.Bounds, want)
	}
	for _, path := range []string{"testdata/toggle-unsafe.bir", "testdata/phases-unsafe.bir", "testdata/names-safe.bir"} {
		out, err := Translate(loadFile(t, path), Config{})
		if err != nil {
			t.Fatal(err)
		}
		if out.Bounds != "" {
			t.Errorf("%s: Bounds %q", path, out.Bounds)
		}
	}
}
