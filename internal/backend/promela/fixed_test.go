package promela

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixedWidthRefused: the translation does not wrap stores nor compute
// modulo 2^64, so a model with a fixed-width type, a conversion or a
// bitwise operator is refused at its first use, never translated with
// range checks in place of wrapping.
func TestFixedWidthRefused(t *testing.T) {
	for _, c := range []struct{ decl, act, want string }{
		{"x : int; y : uint8;", "y := 300;", "f.bir:2:14: promela: fixed-width type uint8 is not supported"},
		{"x : int;", "x := int32(x * x);", "f.bir:5:25: promela: conversion int32(…) is not supported"},
		{"x : int;", "x := x << 2;", "f.bir:5:27: promela: bitwise operator << is not supported"},
		{"x : int;", "x := ~x;", "f.bir:5:25: promela: bitwise operator ~ is not supported"},
		{"R = record { f : int16; }; C : collection [1] of R; x : int;", "x := 1;", "f.bir:2:5: promela: fixed-width type int16 is not supported"},
	} {
		src := "system S ()\n" + c.decl + "\nmain thread M ()\n  loc s0:\n    when true do { " + c.act + " } goto s1;\n  loc s1:\nend M;\nend S;\n"
		path := filepath.Join(t.TempDir(), "f.bir")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := translate(t, load(t, path))
		if err == nil || !strings.Contains(err.Error(), "/"+c.want) {
			t.Errorf("%s %s: got %v, want %s", c.decl, c.act, err, c.want)
		}
	}
}
