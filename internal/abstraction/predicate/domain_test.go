package predicate

import (
	"testing"

	"birch/internal/smt"
	"birch/internal/smt/embedded"
)

// TestFormulaDomain: under the domain facts the solver proves what BIR's
// types guarantee (a range variable, an element, a field within their
// bounds; an int below 2^63, so that n < 7 keeps n + 1 from overflowing),
// and without them it does not.
func TestFormulaDomain(t *testing.T) {
	tm := smt.NewTermManager()
	valids := []string{
		"g <= 3 && g >= 0",
		"i < 3",
		"a[j] <= 3",
		"p.v >= 0 && p.lo >= 1",
		"i < n -> i + 1 <= 9223372036854775807",
		"n >= -9223372036854775807 - 1",
		"p.col == RED || p.col == GREEN",
	}
	prog := withActions(t, "p := new Cells;")
	for i := range valids {
		valids[i] = "[thread Main] " + valids[i]
	}
	f, err := ParseFile(prog, "dom.pred", []byte(joinLines(valids)))
	if err != nil {
		t.Fatal(err)
	}
	enc := NewEncoder(tm, prog)
	s := embedded.New(tm)
	for i, p := range f.Predicates {
		phi, dom, err := enc.FormulaDomain(p.Expr)
		if err != nil {
			t.Fatalf("%s: %v", valids[i], err)
		}
		if ok, err := smt.Implies(s, dom, phi); !ok || err != nil {
			t.Errorf("%s: not proved under its domain %s (%v)", valids[i], smt.Sprint(dom), err)
		}
		if ok, _ := smt.Valid(s, phi); ok {
			t.Errorf("%s: proved without the domain: the test proves nothing", valids[i])
		}
	}
}

func joinLines(ls []string) string {
	out := ""
	for _, l := range ls {
		out += l + "\n"
	}
	return out
}

// TestFOver: F over a subset of the predicates uses only theirs, is
// implied by F over all of them, and with the subset of all it is F.
func TestFOver(t *testing.T) {
	w := newCubeWorld()
	s := embedded.New(w.tm)
	cs := NewCubes(s, w.preds)
	for name, phi := range w.phis {
		all := cs.F(phi)
		if got := cs.FOver(phi, []int{0, 1, 2, 3}); smt.Sprint(got.Term(w.tm, w.preds)) != smt.Sprint(all.Term(w.tm, w.preds)) {
			t.Errorf("%s: FOver(all) %v, F %v", name, got, all)
		}
		sub := cs.FOver(phi, []int{1, 3})
		for _, c := range sub.Cubes {
			for _, l := range c {
				if l.Pred != 1 && l.Pred != 3 {
					t.Errorf("%s: FOver({1,3}) uses predicate %d", name, l.Pred)
				}
			}
		}
		if ok, err := smt.Implies(s, sub.Term(w.tm, w.preds), all.Term(w.tm, w.preds)); !ok || err != nil {
			t.Errorf("%s: FOver({1,3}) does not imply F", name)
		}
	}
	// x < 3 over {x < 3} alone is itself; over {x == y, y > 0}, x == y
	// && !(y > 0)
	if b := cs.FOver(w.phis["x<3"], []int{3}); len(b.Cubes) != 1 || len(b.Cubes[0]) != 1 || b.Cubes[0][0] != (Literal{3, false}) {
		t.Errorf("FOver(x < 3, {x < 3}) = %v", b)
	}
	if b := cs.FOver(w.phis["x<3"], []int{1, 2}); len(b.Cubes) != 1 || b.Cubes[0].String() != "1 & !2" {
		t.Errorf("FOver(x < 3, {x == y, y > 0}) = %v, want 1 & !2", b)
	}
}
