package predicate

import (
	"strings"
	"testing"

	"birch/internal/bir/format"
	"birch/internal/bir/parser"
	"birch/internal/smt"
	"birch/internal/smt/embedded"
)

// encodeAll parses lines as Main's predicates in heap.bir (after actions)
// and encodes each.
func encodeAll(t *testing.T, tm *smt.TermManager, actions string, lines ...string) ([]*smt.Term, []error) {
	t.Helper()
	prog := withActions(t, actions)
	for i, l := range lines {
		lines[i] = "[thread Main] " + l
	}
	f, err := ParseFile(prog, "enc.pred", []byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	enc := NewEncoder(tm, prog)
	var ts []*smt.Term
	var errs []error
	for _, p := range f.Predicates {
		x, err := enc.Formula(p.Expr)
		ts = append(ts, x)
		errs = append(errs, err)
	}
	return ts, errs
}

// TestEncoderValidities: formulas that hold in every state are proved
// valid once encoded, and formulas that do not are not (the encoding is
// neither too weak for these nor too strong).
func TestEncoderValidities(t *testing.T) {
	tm := smt.NewTermManager()
	valids := []string{
		"n < 5 -> n < 7",
		"i == j -> a[i] == a[j]",
		"p == q -> p.v == q.v",
		"p == q -> p.mark == q.mark",
		"p == q && p.col == RED -> q.col != GREEN",
		"flag <-> !!flag",
		"(n + 1) * 2 == 2 * n + 2",
		"n == 7 -> n / 2 == 3 && n % 2 == 1 && -n / 2 == -3 && -n % 2 == -1",
		"-n == 0 - n",
		"p == null && q == null -> p == q",
		"a[i] == g || a[i] != g",
	}
	invalids := []string{
		"n < 7 -> n < 5",
		"a[i] == a[j]",
		"p.v == q.v",
		"p != null",
		"flag",
		"p.mark == q.mark",
	}
	ts, errs := encodeAll(t, tm, "p := new Cells;", append(append([]string(nil), valids...), invalids...)...)
	for i, x := range ts {
		name := append(append([]string(nil), valids...), invalids...)[i]
		if errs[i] != nil {
			t.Errorf("%s: %v", name, errs[i])
			continue
		}
		ok, err := smt.Valid(embedded.New(tm), x)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if want := i < len(valids); ok != want {
			t.Errorf("%s: valid %v, want %v (%s)", name, ok, want, smt.Sprint(x))
		}
	}
}

// TestEncoderUnsupported: what the encoder cannot say is an error, not a
// wrong term.
func TestEncoderUnsupported(t *testing.T) {
	tm := smt.NewTermManager()
	_, errs := encodeAll(t, tm, "p := new Cells;", "p.data[0] == 1", "b[i] == 2", "ac instanceof Big", "b.length == 3")
	for i, err := range errs {
		if err == nil {
			t.Errorf("case %d encoded", i)
		}
	}
}

// TestFOfWP: F and G over encoded predicates of a model, for the WP of an
// assignment: after `g := g + 1` the predicate g < 2 holds exactly when
// g < 1 held, which F finds from the predicates g < 1 and g == 0.
func TestFOfWP(t *testing.T) {
	tm := smt.NewTermManager()
	prog := withActions(t, "g := g + 1;")
	f, err := ParseFile(prog, "wp.pred", []byte("g < 2\ng < 1\ng == 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	enc := NewEncoder(tm, prog)
	var preds []*smt.Term
	for _, p := range f.Predicates {
		x, err := enc.Formula(p.Expr)
		if err != nil {
			t.Fatal(err)
		}
		preds = append(preds, x)
	}
	wp, err := NewWP(prog).Actions(mainActions(prog), f.Predicates[0].Expr)
	if err != nil {
		t.Fatal(err)
	}
	// WP's nodes are not in prog.Info: check its text again, as the
	// abstraction will
	src := []byte(format.Expr(wp))
	x, err := parser.ParseExprAt(prog.Fset, prog.Fset.AddFile("wp", src), src, 0, len(src), false)
	if err == nil {
		_, err = prog.CheckExpr(prog.Fset, x, nil, false)
	}
	if err != nil {
		t.Fatal(err)
	}
	phi, err := enc.Formula(x)
	if err != nil {
		t.Fatal(err)
	}
	cs := NewCubes(embedded.New(tm), preds)
	got := cs.F(phi).Cubes
	want := []Cube{{{1, false}}, {{2, false}}} // g < 1, g == 0
	if len(got) != len(want) || got[0].String() != want[0].String() || got[1].String() != want[1].String() {
		t.Errorf("F(%s) = %v, want %v", smt.Sprint(phi), got, want)
	}
	// G(WP) = ¬F(¬WP): !(g < 2) and !(g < 1) each imply !(g+1 < 2)
	g := cs.G(phi)
	if len(g.Cubes) != 2 || g.Cubes[0].String() != "!0" || g.Cubes[1].String() != "!1" {
		t.Errorf("G(%s) = not %v, want not [!0 !1]", smt.Sprint(phi), g.Cubes)
	}
}

// TestEncoderFixedWidth: conversions, wrapping values and the bitwise
// operators encoded exactly: formulas that hold in every state (under the
// domain facts: a fixed-width variable within its type's bounds) are
// proved valid, formulas that do not are not, and the forms that are not
// linear are errors.
func TestEncoderFixedWidth(t *testing.T) {
	tm := smt.NewTermManager()
	valids := []string{
		"uint8(u8 + 1) != 0 <-> u8 != 255",
		"int8(i8 + 1) < i8 <-> i8 == 127",
		"uint8(n) == (n & 255)",
		"uint8(-1) == 255 && int8(200) == -56 && int8(u8) < 0 <-> u8 > 127",
		"int8(int8(i8 + 1) - 1) == i8",
		"n < 0 || n >> 1 == n / 2",
		"n >> 63 == 0 || n >> 63 == -1",
		"n > 4611686018427387903 || n < -4611686018427387904 || n << 1 == 2 * n",
		"~n == -n - 1 && (n ^ -1) == ~n",
		"(n | 7) == n - (n & 7) + 7 && (n ^ 7) == (n | 7) - (n & 7)",
		"(u8 & -16) == u8 - u8 % 16 && (n | -8) == (n & 7) - 8",
		"uint16(i8) >= 0 && (i8 >= 0 || uint16(i8) >= 65408)",
	}
	invalids := []string{
		"uint8(u8 + 1) > u8",
		"n >> 1 == n / 2",
		"uint8(n) == n",
		"int8(i8 - 1) < i8",
		"n << 1 == 2 * n",
	}
	all := append(append([]string(nil), valids...), invalids...)
	prog := withActions(t, "p := new Cells;")
	var lines []string
	for _, l := range all {
		lines = append(lines, "[thread Main] "+l)
	}
	f, err := ParseFile(prog, "enc.pred", []byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	enc := NewEncoder(tm, prog)
	for i, p := range f.Predicates {
		x, dom, err := enc.FormulaDomain(p.Expr)
		if err != nil {
			t.Errorf("%s: %v", all[i], err)
			continue
		}
		ok, err := smt.Valid(embedded.New(tm), tm.Implies(dom, x))
		if err != nil {
			t.Errorf("%s: %v", all[i], err)
		}
		if want := i < len(valids); ok != want {
			t.Errorf("%s: valid %v, want %v (%s)", all[i], ok, want, smt.Sprint(x))
		}
	}
	_, errs := encodeAll(t, tm, "p := new Cells;", "(n & 6) == 0", "n << i == 0", "(n | g) > 0", "(n ^ u8) == 1", "1 << n == 2")
	for i, err := range errs {
		if err == nil {
			t.Errorf("nonlinear case %d encoded", i)
		}
	}
}
