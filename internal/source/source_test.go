package source

import (
	"strings"
	"testing"
)

func TestPositions(t *testing.T) {
	fset := NewFileSet()
	a := fset.AddFile("a.bir", []byte("ab\ncd\n"))
	b := fset.AddFile("b.bir", []byte("x\n\nyz"))
	for _, c := range []struct {
		p    Pos
		want string
	}{
		{a.Pos(0), "a.bir:1:1"},
		{a.Pos(1), "a.bir:1:2"},
		{a.Pos(3), "a.bir:2:1"},
		{a.Pos(6), "a.bir:3:1"},
		{b.Pos(0), "b.bir:1:1"},
		{b.Pos(3), "b.bir:3:1"},
		{b.Pos(4), "b.bir:3:2"},
	} {
		if got := fset.Position(c.p).String(); got != c.want {
			t.Errorf("Position(%d) = %s, want %s", c.p, got, c.want)
		}
	}
	if fset.Position(NoPos).IsValid() {
		t.Error("NoPos resolved to a valid position")
	}
	if fset.File(a.Pos(2)) != a || fset.File(b.Pos(2)) != b {
		t.Error("File returned the wrong file")
	}
}

func TestErrorList(t *testing.T) {
	var l ErrorList
	if l.Err() != nil {
		t.Fatal("empty list is an error")
	}
	l.Add(Position{Filename: "f", Line: 2, Column: 1}, "second")
	l.Add(Position{Filename: "f", Line: 1, Column: 5}, "first")
	l.Add(Position{Filename: "f", Line: 1, Column: 9}, "same line")
	l.Sort()
	if l[0].Msg != "first" || l.Err() == nil {
		t.Fatalf("not sorted: %v", l)
	}
	var out strings.Builder
	Print(&out, l, 2)
	want := "f:1:5: first\nf:1:9: same line\nf:2:1: too many errors (1 more)\n"
	if out.String() != want {
		t.Errorf("Print:\n%s\nwant:\n%s", out.String(), want)
	}
	l.RemoveMultiples()
	if len(l) != 2 {
		t.Errorf("RemoveMultiples kept %d errors, want 2", len(l))
	}
}

func TestExcerpt(t *testing.T) {
	long := strings.Repeat("é", MaxExcerpt+1)
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"abc", "abc"},
		{strings.Repeat("x", MaxExcerpt), strings.Repeat("x", MaxExcerpt)},
		{strings.Repeat("x", 1<<20), strings.Repeat("x", MaxExcerpt) + "…"},
		{long, long[:2*MaxExcerpt] + "…"},
	} {
		if got := Excerpt(c.in); got != c.want {
			t.Errorf("Excerpt(%d bytes) = %q, want %q", len(c.in), got, c.want)
		}
	}
}

func TestLineColumnInfo(t *testing.T) {
	fset := NewFileSet()
	src := "ab\ncd ef\ngh\nij\nkl\n"
	f := fset.AddFile("m.bir", []byte(src))
	f.AddLineColumnInfo(3, "p.c", 10, 4)  // "cd ef" is p.c:10:4, "gh" p.c:11
	f.AddLineColumnInfo(3, "q.c", 1, 1)   // not after the last: ignored
	f.AddLineColumnInfo(12, "q.c", 20, 2) // "ij" is q.c:20:2
	f.AddLineColumnInfo(14, "r.c", 0, 1)  // line 0: ignored
	for _, c := range []struct {
		off  int
		want string
	}{
		{0, "m.bir:1:1"}, {1, "m.bir:1:2"},
		{3, "p.c:10:4"}, {6, "p.c:10:4"}, {9, "p.c:11:1"}, {10, "p.c:11:2"},
		{12, "q.c:20:2"}, {13, "q.c:20:2"}, {15, "q.c:21:1"},
	} {
		if got := fset.Position(f.Pos(c.off)).String(); got != c.want {
			t.Errorf("offset %d: %s, want %s", c.off, got, c.want)
		}
	}
	if got := fset.PositionFor(f.Pos(6), false).String(); got != "m.bir:2:4" {
		t.Errorf("unadjusted: %s", got)
	}
	if !f.HasLineDirectives() {
		t.Error("HasLineDirectives false")
	}
}
