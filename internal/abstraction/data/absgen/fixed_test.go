package absgen

import (
	"strings"
	"testing"

	"birch/internal/abstraction/data/infer"
)

// TestFixedWidthRefused: data abstraction does not model wrapping stores
// nor modulo-2^64 arithmetic, so a model with a fixed-width type, a
// conversion or a bitwise operator is refused at its first use, even when
// the abstracted variable does not touch it.
func TestFixedWidthRefused(t *testing.T) {
	for _, c := range []struct{ decl, act, want string }{
		{"y : uint8;", "y := 300;", "f.bir:4:7: fixed-width type uint8 is not supported by data abstraction"},
		{"y : int;", "y := int32(y * y);", "f.bir:6:37: conversion int32(…) is not supported by data abstraction"},
		{"y : int;", "y := y & 3;", "f.bir:6:39: bitwise operator & is not supported by data abstraction"},
	} {
		src := "system S ()\nmain thread Main ()\n  m : int;\n  " + c.decl + "\n  loc s0:\n    when true do { m := m + 1; " + c.act + " } goto s0;\nend Main;\nend S;\n"
		_, err := generate(t, loadSource(t, "f.bir", []byte(src)), infer.Config{}, "Main.m=evenodd")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: got %v, want %s", c.decl, c.act, err, c.want)
		}
	}
}
