package absgen

import (
	"strings"
	"testing"
)

// TestCanonicalSpans: formatting moves each span onto the same tokens, and
// a source the formatter would change in its tokens is kept as it is.
func TestCanonicalSpans(t *testing.T) {
	src := "system S ()\nx : int;\nmain thread Main ()\n  loc a:\n    when   x < 3 do { x := x + 1;  x := x * 2; x := x - 1; } goto a;\nend Main;\nend S;\n"
	var spans []span
	for _, s := range []string{"x := x * 2;", "x * 2", "when   x < 3 do { x := x + 1;  x := x * 2; x := x - 1; } goto a;", "end S;"} {
		i := strings.Index(src, s)
		spans = append(spans, span{start: i, end: i + len(s)})
	}
	// A span that ends after the space following its last token.
	i := strings.Index(src, "x := x + 1;  ")
	spans = append(spans, span{start: i, end: i + len("x := x + 1;  ")})
	want := make([]string, len(spans))
	for k, s := range spans {
		want[k] = strings.Join(strings.Fields(src[s.start:s.end]), " ")
	}
	out, ok := canonical("s.bir", []byte(src), spans)
	if !ok {
		t.Fatal("canonical failed")
	}
	if !strings.Contains(string(out), "x : int;\n\nmain thread") {
		t.Errorf("the layout did not change:\n%s", out)
	}
	for k, s := range spans {
		if got := strings.Join(strings.Fields(string(out[s.start:s.end])), " "); got != want[k] {
			t.Errorf("span %d covers %q after formatting, want %q", k, got, want[k])
		}
	}
	// A source that does not parse is kept, spans untouched.
	bad := []byte("system S (\n")
	sp := []span{{start: 0, end: 6}}
	if out, ok := canonical("s.bir", bad, sp); ok || string(out) != string(bad) || sp[0].end != 6 {
		t.Errorf("canonical of a bad source: ok %v, %q, %v", ok, out, sp)
	}
}
