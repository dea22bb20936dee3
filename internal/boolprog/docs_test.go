package boolprog

import (
	"os"
	"strings"
	"testing"
)

// TestDocExample checks the example of docs/boolprog.md: the program
// (named odd.bp there) parses, and the trail printed after it is the one
// the checker gives.
func TestDocExample(t *testing.T) {
	md, err := os.ReadFile("../../docs/boolprog.md")
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(string(md), "```")
	// parts alternate text and blocks; find "bp\n…" and the block after it.
	for i := 1; i+2 < len(parts); i += 2 {
		if !strings.HasPrefix(parts[i], "bp\n") {
			continue
		}
		src := strings.TrimPrefix(parts[i], "bp\n")
		want := strings.TrimPrefix(parts[i+2], "\n")
		_, info, fset := mustParse(t, "odd.bp", src)
		res := CheckExplicit(fset, info, Limits{})
		if !strings.HasPrefix(want, res.Verdict.String()+":") {
			t.Errorf("docs/boolprog.md: the example's output starts %q, the checker says %v", want[:min(len(want), 20)], res.Verdict)
		}
		var b strings.Builder
		WriteTrail(&b, res)
		var wantTrail []string
		for _, line := range strings.Split(want, "\n") {
			if strings.HasPrefix(line, "odd.bp:") {
				wantTrail = append(wantTrail, line)
			}
		}
		if got := strings.TrimSuffix(b.String(), "\n"); got != strings.Join(wantTrail, "\n") {
			t.Errorf("docs/boolprog.md: the example's trail is\n%s\nthe checker gives\n%s", strings.Join(wantTrail, "\n"), got)
		}
		return
	}
	t.Fatal("docs/boolprog.md has no bp example")
}
