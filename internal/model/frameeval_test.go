package model

import (
	"fmt"
	"strings"
	"testing"

	"birch/internal/bir/ast"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
)

const frameSrc = `system F()
  g : int;
  thread W(k : int)
    n : int;
    loc w0: when true do { n := k * 10; g := g + 1; } goto w1;
    loc w1: when n > 0 do { n := n - 1; } goto w1;
  end W;
  main thread M()
    n : int;
    loc m0: when true do { start W(1); start W(2); n := 7; } goto m1;
    loc m1: when true do { } goto m1;
  end M;
end F;
`

// TestFrameEvaluator evaluates a [thread W] condition on each frame of
// two instances of W (same-named locals of two threads are two values) and
// a condition of the globals, after the first steps of frameSrc.
func TestFrameEvaluator(t *testing.T) {
	m, err := compileSrc(t, frameSrc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	prog := m.Program()
	w, _ := prog.Procs.Lookup("W").(*types.Proc)
	mp, _ := prog.Procs.Lookup("M").(*types.Proc)
	var conds []ast.Expr
	procs := []*types.Proc{w, w, mp, nil}
	for i, src := range []string{"n > 10", "n == k * 10", "n == 7", "g == 2"} {
		x, err := parser.ParseExpr(src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := prog.CheckExpr(prog.Fset, x, procs[i], true); err != nil {
			t.Fatal(err)
		}
		conds = append(conds, x)
	}
	fe, err := m.NewFrameEvaluator(conds, procs)
	if err != nil {
		t.Fatal(err)
	}
	// M starts both, then each W takes its first step
	s, _ := m.Initial(nil)
	for i := 0; i < 3; i++ {
		var next []byte
		m.Next(s, func(st *Step) {
			if next == nil && st.Outcome == OK && st.Thread == i {
				next = append([]byte(nil), st.State...)
			}
		})
		s = next
	}
	var got []string
	fe.Load(s)
	for _, f := range m.Frames(s, nil) {
		line := fmt.Sprintf("%d.%d %s@%s top=%v:", f.Thread, f.Depth, f.Proc.Name(), f.Loc.Name(), f.Top)
		for i := range conds {
			if procs[i] != nil && procs[i] != f.Proc {
				continue
			}
			v, cerr := fe.Eval(i, f.Thread, f.Depth)
			if cerr != nil {
				t.Fatalf("cond %d: %v", i, cerr)
			}
			line += fmt.Sprintf(" %v", v)
		}
		got = append(got, line)
	}
	want := "0.0 M@m1 top=true: true true\n1.0 W@w1 top=true: false true true\n2.0 W@w1 top=true: true true true"
	if g := strings.Join(got, "\n"); g != want {
		t.Errorf("got\n%s\nwant\n%s", g, want)
	}
	if _, cerr := fe.Eval(0, 0, 0); cerr == nil {
		t.Errorf("a [thread W] condition on M's frame: no error")
	}
}
