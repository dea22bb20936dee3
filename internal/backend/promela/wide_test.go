package promela

import (
	"strings"
	"testing"

	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// A choice over nearly the whole int64 range translates to the loop of wide
// ranges (issue 16: hi - lo wrapped around to a negative width, and the
// translation made one option per value until memory ran out).
func TestWideRangeChoice(t *testing.T) {
	for _, bounds := range []string{
		"-9223372036854775807 - 1 .. 9223372036854775807",
		"-9223372036854775807 .. 9223372036854775807",
		"-1 .. 9223372036854775807",
	} {
		src := "system S ()\nx : int;\nmain thread M ()\n  loc l0:\n    when true do { x := internChoose(" + bounds + "); } goto l1;\n  loc l1:\nend M;\nend S;\n"
		fset := source.NewFileSet()
		f, err := parser.ParseFile(fset, "wide.bir", []byte(src), 0)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := types.Check(fset, f, nil)
		if err != nil {
			t.Fatal(err)
		}
		out, err := translate(t, prog)
		if err != nil {
			t.Fatalf("%s: %v", bounds, err)
		}
		if !strings.Contains(out, "do :: BIR_ch <") || len(out) > 10000 {
			t.Errorf("%s: %d bytes, want the loop of wide ranges:\n%.2000s", bounds, len(out), out)
		}
	}
}
