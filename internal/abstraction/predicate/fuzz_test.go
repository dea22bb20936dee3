package predicate

import (
	"testing"

	"birch/internal/bir/format"
)

// FuzzParseFile: no predicate file makes ParseFile or WP panic, and every
// predicate it accepts has a WP for an assignment or gives an
// UnsupportedError.
func FuzzParseFile(f *testing.F) {
	for _, s := range []string{
		"g < 2\n[thread Main] p.next.v == g # c\n",
		"[function inc] r <= k\n\n#\n",
		"[thread Main] b[i] == d[j + 1] -> p.v != 0",
		"[thread", "[]", "[thread Main]", "((((", "a[", "p.", "\x00", "g <\r\n",
		"[thread Main] p.data[i] == q.data.length && p instanceof Cell",
		"[record Cell] this.v < g && this.next != null -> this.next.v == g", "[record", "[record Cell]",
		"[record Big] this.big", "[record Cells] this == null",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		// a program per input: ParseFile adds to prog's file set and Info
		prog := withActions(t, "p.v := g; a[i] := 2; p := new Cells; p.next := q;")
		actions := mainActions(prog)
		file, _ := ParseFile(prog, "fuzz.pred", []byte(src))
		for _, p := range file.Predicates {
			if p.Proc != nil && p.Proc != prog.Threads[0] {
				continue
			}
			out, err := NewWP(prog).Actions(actions, p.Expr)
			if err == nil {
				_ = format.Expr(out)
			} else if _, ok := err.(*UnsupportedError); !ok {
				t.Errorf("%s: %v", p, err)
			}
		}
	})
}
