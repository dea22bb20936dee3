package promela

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"birch/internal/model"
	"birch/internal/search"
)

// TestCExpr checks the conversion of the Promela expressions the
// translation emits into C over pan's state.
func TestCExpr(t *testing.T) {
	n := &cNames{
		proc:    "Chooser",
		globals: map[string]bool{"x": true, "C": true, "BIR_n_C": true},
		hidden:  map[string]bool{"BIR_always": true},
		special: map[string]string{"BIR_cv0": "v0", symPH: "BIR_x1_1(_this, v0)"},
	}
	for _, c := range []struct{ in, want string }{
		{"x != 2", "now.x != 2"},
		{"(a > 0 && a <= 2 -> C[a - 1].f : C[0].f) == BIR_cv0", "(PChooser->a > 0 && PChooser->a <= 2 ? now.C[PChooser->a - 1].f : now.C[0].f) == v0"},
		{"!(BIR_n_C > 3) || BIR_always", "!(now.BIR_n_C > 3) || BIR_always"},
		{"x - -1 >= (-2147483647 - 1)", "now.x - - 1 >= (- 2147483647 - 1)"},
		{"true && !false", "1 && !0"},
		{"l.owner == (_pid + 1) && _nr_pr < 3", "PChooser->l.owner == (((int)PChooser->_pid) + 1) && now._nr_pr < 3"},
		{"F_f_w[BIR_sp - 1].e[2] << 1", "PChooser->F_f_w[PChooser->BIR_sp - 1].e[2] << 1"},
		{"(x > 0) && (" + symPH + ")", "(now.x > 0) && (BIR_x1_1(_this, v0))"},
	} {
		got, err := cExpr(c.in, n)
		if err != nil || got != c.want {
			t.Errorf("cExpr(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
		if strings.Contains(got, "--") || strings.Contains(got, "++") || strings.Contains(got, ";") {
			t.Errorf("cExpr(%q) = %q: SPIN takes this for a side effect", c.in, got)
		}
	}
	for _, bad := range []string{"P[0]@L_x", "x = 1", "c?x"} {
		if got, err := cExpr(bad, n); err == nil {
			t.Errorf("cExpr(%q) = %q, want an error", bad, got)
		}
	}
}

// TestSymbolicTrail checks that SPIN's simulator, which does not run
// embedded C, replays a trail through the walk of a symbolic choice with the
// value pan chose: in testdata/symbolic-assert.bir the assertion fails in
// the step that chooses x = 26, and the simulator fails it too; the trail
// maps to birch's outcome that chooses 26.
func TestSymbolicTrail(t *testing.T) {
	needSpin(t)
	prog := load(t, filepath.Join("testdata", "symbolic-assert.bir"))
	tr, err := TranslateFull(prog, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sp, dir := runSpin(t, tr)
	if sp.Kind != "assertion" {
		t.Fatalf("SPIN: %q, want an assertion:\n%s", sp.Kind, sp.Output)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := replayTrail(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "spin: text of failed assertion: assert(((x<20)||BIR_assertion))") {
		t.Fatalf("the simulator does not fail the assertion: its walk chose another value:\n%s", out)
	}
	steps, err := ParseTrail(out, tr)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 2 {
		t.Fatalf("%d steps, want 2 (Setter, then Finder's failing step): %v", len(steps), steps)
	}
	m, err := model.New(prog, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ords, err := MapTrail(m, steps, sp.Kind)
	if err != nil {
		t.Fatal(err)
	}
	_, ts, err := search.Replay(m, ords)
	if err != nil {
		t.Fatal(err)
	}
	last := ts[len(ts)-1].Step
	if last.Outcome != model.Error || last.Kind.String() != "assertion" {
		t.Fatalf("the mapped trail ends in %v %v", last.Outcome, last.Kind)
	}
}
