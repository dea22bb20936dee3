package promela

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixedModel translates a one-step model with declarations decl and the
// actions act.
func fixedModel(t *testing.T, decl, act string) (string, error) {
	t.Helper()
	src := "system S ()\n" + decl + "\nmain thread M ()\n  loc s0:\n    when true do { " + act + " } goto s1;\n  loc s1:\nend M;\nend S;\n"
	path := filepath.Join(t.TempDir(), "f.bir")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return translate(t, load(t, path))
}

// TestFixedWidthRefused: int64, uint32 and uint64 have values a Promela
// int (a C int of pan, 32 bits) cannot hold, so a model with one of them
// (or a conversion to one) is refused at its first use, never translated
// approximately.
func TestFixedWidthRefused(t *testing.T) {
	for _, c := range []struct{ decl, act, want string }{
		{"x : int; y : uint32;", "y := 300;", "f.bir:2:14: promela: fixed-width type uint32 is not supported"},
		{"x : int;", "x := int64(x * x);", "f.bir:5:25: promela: conversion int64(…) is not supported"},
		{"x : int;", "x := uint32(x) + int16(x);", "f.bir:5:25: promela: conversion uint32(…) is not supported"},
		{"R = record { f : uint64; }; C : collection [1] of R; x : int;", "x := 1;", "f.bir:2:5: promela: fixed-width type uint64 is not supported"},
		{"A = array [2] of int64; a : A;", "a[0] := 1;", "f.bir:2:5: promela: fixed-width type int64 is not supported"},
	} {
		_, err := fixedModel(t, c.decl, c.act)
		if err == nil || !strings.Contains(err.Error(), "/"+c.want) {
			t.Errorf("%s %s: got %v, want %s", c.decl, c.act, err, c.want)
		}
	}
}

// TestFixedWidthTranslated: the types of at most 32 bits, conversions to
// them and the bitwise operators (refused before) are translated with an
// explicit reduction of every stored value into its type, modular
// arithmetic where birch's is (a C int of pan compiled with -fwrapv), and
// C shifts by 0..31 only. SPIN runs testdata/fixed-*.bir in
// TestSpinAgreement and random models in TestSpinFixedRandom.
func TestFixedWidthTranslated(t *testing.T) {
	for _, c := range []struct {
		decl, act string
		want      []string
	}{
		{"x : int; y : uint8;", "y := 300; y := x;", []string{"byte y;\n", "y = 44;", "y = x & 255;"}},
		{"x : int; s : int16; e : int8;", "s := x * x; e := int8(x - 1);", []string{"short s;\n", "s = (((x * x) & 65535) ^ 32768) - 32768;", "short e;\n", "e = (((x - 1) & 255) ^ 128) - 128;"}},
		{"a, b : int32;", "a := int32(a + b * 7);", []string{"int a;\n", "a = a + (b * 7);"}},
		{"a, b : int32;", "a := a << b;", []string{"assert((b >= 0 && b <= 63) || BIR_shift);", "a = (b >= 0 && b <= 31 -> a << b : 0);"}},
		{"a, b : int32;", "a := int32(a >> (b & 31));", []string{"a = a >> (b & 31);"}},
		{"a, b : int32; x : int;", "x := a >> b;", []string{"x = (b >= 0 && b <= 31 -> a >> b : (a < 0 -> -1 : 0));"}},
		{"a, b : int32;", "a := int32(a / b);", []string{"assert((b != 0) || BIR_division_by_zero);", "a = (b != 0 -> (b == -1 -> -a : a / b) : 0);"}},
		{"a : int32; u : uint16;", "u := ~u; a := a ^ -1; a := -2147483647 - 1;", []string{"int u;\n", "u = ~u & 65535;", "a = a ^ (-1);", "a = (-2147483647 - 1);"}},
		// Java's >>> on int, lowered as (x & 4294967295) >> n: the 32 bits
		// shifted logically (a count of 0 leaves them)
		{"a, b : int32;", "a := int32((a & 4294967295) >> 28); b := int32((b & 4294967295) >> (a & 31));", []string{
			"a = ((a >> 28) & 15);",
			"b = ((a & 31) == 0 -> b : ((b >> (a & 31)) & ~(-1 << (32 - (a & 31)))));"}},
		{"a : int32; x : int;", "x := (a & 4294967295) >> 1; x := (a & 4294967295) >> a;", []string{
			"x = ((a >> 1) & 2147483647);",
			"assert((!(a == 0) || a >= 0) || BIR_overflow);"}},
		// birch's 64-bit overflow outside a conversion stays checked: a
		// value beyond 32 bits there is BIR's int, as in Promela before
		{"x : int; a : int32;", "x := a + 1;", []string{"assert((a <= 2147483646) || BIR_overflow);"}},
		{"x : int; a : int32;", "x := a << 1;", []string{"assert((a == 0 || (true && ((a << 1) >> 1) == a)) || BIR_overflow);"}},
	} {
		out, err := fixedModel(t, c.decl, c.act)
		if err != nil {
			t.Errorf("%s %s: %v", c.decl, c.act, err)
			continue
		}
		if !strings.Contains(out, wrapvMarker) {
			t.Errorf("%s %s: the header does not ask for -fwrapv", c.decl, c.act)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s %s: the translation lacks %q:\n%s", c.decl, c.act, w, out)
			}
		}
	}
}
