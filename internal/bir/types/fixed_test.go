package types_test

import (
	"math"
	"math/rand"
	"strconv"
	"testing"

	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

const fixedModel = `system S ()
g : int32;
u : uint16;
main thread Main ()
  loc s0:
    when true do { } goto s0;
end Main;
end S;
`

func checkFixedExpr(t *testing.T, prog *types.Program, fset *source.FileSet, expr string) (types.Type, types.TypeAndValue, error) {
	t.Helper()
	src := []byte(expr)
	file := fset.AddFile("x", src)
	x, err := parser.ParseExprAt(fset, file, src, 0, len(src), false)
	if err != nil {
		return nil, types.TypeAndValue{}, err
	}
	typ, err := prog.CheckExpr(fset, x, nil, false)
	return typ, prog.Info.Types[x], err
}

// TestConversionTypes checks the type and the folded value of conversions
// and bitwise operators.
func TestConversionTypes(t *testing.T) {
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, "s.bir", []byte(fixedModel), 0)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		expr, typ string
		val       string // the constant's value, or "" for a non-constant
	}{
		{"int8(g)", "int8", ""},
		{"uint16(g + u)", "uint16", ""},
		{"int32(g) + 1", "int", ""},
		{"g & u", "int", ""},
		{"~g", "int", ""},
		{"int8(127 + 1)", "int8", "-128"},
		{"uint8(-1)", "uint8", "255"},
		{"uint16(65536 * 3 + 5)", "uint16", "5"},
		{"int16(-32769)", "int16", "32767"},
		{"uint32(-1)", "uint32", "4294967295"},
		{"int64(-(-9223372036854775807 - 1))", "int64", "-9223372036854775808"},
		{"int64(9223372036854775807 * 3)", "int64", "9223372036854775805"},
		{"uint64(9223372036854775807)", "uint64", "9223372036854775807"},
		{"1 | 2 ^ 3 & 5", "int", "3"},             // 1 | (2 ^ (3 & 5))
		{"1 << 2 + 1", "int", "8"},                // + binds tighter than <<
		{"1 << 3 < 9 == true", "boolean", "true"}, // << tighter than <, < tighter than ==
		{"-16 >> 2", "int", "-4"},                 // arithmetic shift
		{"1 << 63", "int", "-9223372036854775808"},
		{"~0", "int", "-1"},
	} {
		typ, tv, err := checkFixedExpr(t, prog, fset, tc.expr)
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		if typ.String() != tc.typ {
			t.Errorf("%s: type %s, want %s", tc.expr, typ, tc.typ)
		}
		got := ""
		if tv.Value.Kind != types.NoConst {
			got = tv.Value.String()
		}
		if got != tc.val {
			t.Errorf("%s: value %q, want %q", tc.expr, got, tc.val)
		}
	}
}

// TestWrapValue compares Range.WrapValue with Go's own conversions.
func TestWrapValue(t *testing.T) {
	byName := map[string]*types.Range{}
	for _, n := range types.FixedTypes {
		byName[n.String()] = n.Underlying().(*types.Range)
	}
	if len(byName) != 8 {
		t.Fatalf("%d fixed types", len(byName))
	}
	conv := map[string]func(int64) int64{
		"int8":   func(v int64) int64 { return int64(int8(v)) },
		"int16":  func(v int64) int64 { return int64(int16(v)) },
		"int32":  func(v int64) int64 { return int64(int32(v)) },
		"int64":  func(v int64) int64 { return v },
		"uint8":  func(v int64) int64 { return int64(uint8(v)) },
		"uint16": func(v int64) int64 { return int64(uint16(v)) },
		"uint32": func(v int64) int64 { return int64(uint32(v)) },
		"uint64": func(v int64) int64 { return v },
	}
	rng := rand.New(rand.NewSource(1))
	values := []int64{0, 1, -1, 127, 128, -128, -129, 255, 256, 65535, 65536, math.MaxInt32, math.MinInt32,
		math.MaxUint32, math.MaxUint32 + 1, math.MaxInt64, math.MinInt64}
	for i := 0; i < 2000; i++ {
		values = append(values, int64(rng.Uint64())>>uint(rng.Intn(64)))
	}
	for name, r := range byName {
		for _, v := range values {
			got, ok := r.WrapValue(v)
			want := conv[name](v)
			if name == "uint64" {
				if ok != (v >= 0) || ok && got != v {
					t.Errorf("uint64: WrapValue(%d) = %d, %v", v, got, ok)
				}
				continue
			}
			if !ok || got != want {
				t.Errorf("%s: WrapValue(%d) = %d, %v; Go says %d", name, v, got, ok, want)
			}
			if got < r.Lo || got > r.Hi {
				t.Errorf("%s: WrapValue(%d) = %d outside %d..%d", name, v, got, r.Lo, r.Hi)
			}
		}
	}
	if _, ok := (&types.Range{Lo: 0, Hi: 3}).WrapValue(4); ok {
		t.Error("a range without Wrap accepts 4 into 0..3")
	}
	for _, n := range types.FixedTypes {
		if !types.IsInteger(n) || !types.IsFixed(n) || types.Identical(n, types.Typ[types.Int]) {
			t.Errorf("%s: not an integer fixed-width type", n)
		}
		r := n.Underlying().(*types.Range)
		if r.String() != n.String() || strconv.Itoa(r.Bits) != n.String()[len(n.String())-len(strconv.Itoa(r.Bits)):] {
			t.Errorf("%s: range prints as %s with %d bits", n, r, r.Bits)
		}
	}
}

// TestLineDirectiveErrors checks that an error on a line a //line directive
// maps is reported at the mapped position, parse errors and type errors
// alike.
func TestLineDirectiveErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`system S ()
main thread M ()
  x : int8;
  loc s0:
//line prog.c:7:3
    when true do { x := y; } goto s0;
end M;
end S;
`, "prog.c:7:3: undefined: y"},
		{`system S ()
main thread M ()
  x : int8;
  loc s0:
//line dir/prog.c:7:3
    when true do { x := 1; }
      goto s0 x;
end M;
end S;
`, "dir/prog.c:8:14: expected ';', found name x"},
		{`system S ()
main thread M ()
  x : int8;
  loc s0:
//line prog.c:7:3
    when true do { x := 1; } goto s0;
    when x do { } goto s0;
end M;
end S;
`, "prog.c:8:10: guard must be boolean, not int8"},
	} {
		fset := source.NewFileSet()
		f, err := parser.ParseFile(fset, "m.bir", []byte(tc.src), 0)
		if err == nil {
			_, err = types.Check(fset, f, nil)
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("got %v, want %s", err, tc.want)
		}
	}
}
