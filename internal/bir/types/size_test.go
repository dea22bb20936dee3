package types_test

import (
	"fmt"
	"strings"
	"testing"

	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// A model whose state could not be built is rejected by the checker, at the
// declaration that makes it too large, before anything is allocated (issue
// 16: arrays and collections of 2^31 or 2^62 elements ended in an
// out-of-memory crash, and size arithmetic overflowed).
func TestStateSizeBound(t *testing.T) {
	const max = types.MaxSlots
	model := func(decls, locals string) string {
		return "system S ()\n" + decls + "\nmain thread M ()\n" + locals + "\n  loc l0:\nend M;\nend S;\n"
	}
	for _, c := range []struct {
		name, src string
		want      string // "" when the model is within the bound; else "line:col: text"
	}{
		{"array 2^20", model(fmt.Sprintf("a : array [%d] of int;", max), ""), ""},
		{"array 2^20+1", model(fmt.Sprintf("a : array [%d] of int;", max+1), ""), "2:5: array [1048577] of int takes more than 1048576 slots"},
		{"array 2^31", model("a : array [2147483648] of int;", ""), "2:5: array [2147483648] of int takes more than"},
		{"array 2^62", model("a : array [4611686018427387904] of boolean;", ""), "2:5: array [4611686018427387904] of boolean takes more than"},
		{"array max int64", model("a : array [9223372036854775807] of int;", ""), "2:5: array [9223372036854775807] of int takes more than"},
		// the product overflows int64: 2^62 rows of 4
		{"rows overflow", model("a : array [4611686018427387904] of array [4] of int;", ""), "2:5: array [4611686018427387904] of array [4] of int takes more than"},
		{"rows", model("a : array [1024] of array [1025] of int;", ""), "2:5: array [1024] of array [1025] of int takes more than"},
		{"named rows", model("Row = array [1024] of int;\nT = array [1024] of Row;\nU = array [2] of T;\na : U;", ""), "4:5: array [2] of T takes more than"},
		{"locks 2^18", model(fmt.Sprintf("l : array [%d] of lock;", max/4), ""), ""},
		{"locks 2^18+1", model(fmt.Sprintf("l : array [%d] of lock;", max/4+1), ""), "2:5: array [262145] of lock takes more than"},
		{"globals add up", model(fmt.Sprintf("a : array [%d] of int;\nb : array [%d] of int;\nc : int;", max/2, max/2), ""), "4:1: with c the globals and collections take more than 1048576 slots"},
		{"collection 2^31", model("R = record { v : int; };\nC : collection [2147483648] of R;", ""), "3:1: with collection C the globals and collections take more than"},
		{"collection 2^62", model("R = record { v : int; w : int; };\nC : collection [4611686018427387904] of R;", ""), "3:1: with collection C the globals"},
		{"collection of empty records", model("R = record { };\nC : collection [4611686018427387904] of R;", ""), "3:1: with collection C the globals"},
		{"collection of arrays", model("A = array [1024] of int;\nC : collection [1023] of A;", ""), ""},
		{"collection of arrays too many", model("A = array [1024] of int;\nC : collection [1024] of A;", ""), "3:1: with collection C the globals"},
		{"collection then global", model("R = record { v : int; };\nC : collection [1048575] of R;\nx : int;", ""), "4:1: with x the globals"},
		{"record fields", model(fmt.Sprintf("R = record { a : array [%d] of int; b : array [%d] of int; };\nC : collection [1] of R;", max, max), ""), "2:5: the fields of this record take more than"},
		{"local 2^31", model("", "  a : array [2147483648] of int;"), "4:7: array [2147483648] of int takes more than"},
		{"locals add up", model("", fmt.Sprintf("  a : array [%d] of int;\n  b : array [%d] of int;\n  c : boolean;", max/2, max/2)), "6:3: with c the variables of M take more than 1048576 slots"},
		{"locals at the bound", model("", fmt.Sprintf("  a : array [%d] of int;\n  b : array [%d] of int;", max/2, max/2)), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			fset := source.NewFileSet()
			f, err := parser.ParseFile(fset, "s.bir", []byte(c.src), 0)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			_, err = types.Check(fset, f, nil)
			if c.want == "" {
				if err != nil {
					t.Fatalf("a model within the bound: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			first := err.(source.ErrorList)[0].Error()
			if !strings.Contains(first, "s.bir:"+c.want) || !strings.Contains(first, "docs/bir.md §17") {
				t.Errorf("got %q, want s.bir:%s… naming docs/bir.md §17", first, c.want)
			}
		})
	}
}

// Slots saturates instead of overflowing.
func TestSlotsSaturate(t *testing.T) {
	huge := &types.Array{Len: 1 << 62, Elem: &types.Array{Len: 1 << 62, Elem: &types.Lock{}}}
	if n := types.Slots(huge); n != types.MaxSlots+1 {
		t.Errorf("Slots(%s) = %d, want %d", huge, n, types.MaxSlots+1)
	}
	rec := &types.Record{}
	if n := types.Slots(&types.Array{Len: 1 << 62, Elem: rec}); n != 0 {
		t.Errorf("an array of empty records takes %d slots, want 0", n)
	}
	if n := types.Slots(&types.Array{Len: 3, Elem: &types.Array{Len: 5, Elem: &types.Lock{}}}); n != 3*5*types.LockSlots {
		t.Errorf("array [3] of array [5] of lock takes %d slots, want %d", n, 3*5*types.LockSlots)
	}
}
