package boolprog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExplicitTestdata checks every testdata program against the verdict in
// its name (-safe or -unsafe) and, for unsafe ones, that the trail starts in
// main and ends at the failing assertion with values that falsify it.
func TestExplicitTestdata(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.bp")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, info, fset := mustParse(t, f, string(src))
		res := CheckExplicit(fset, info, Limits{})
		want := Pass
		if strings.HasSuffix(f, "-unsafe.bp") {
			want = Fail
		}
		if res.Verdict != want {
			t.Errorf("%s: %v (%s), want %v", f, res.Verdict, res.Reason, want)
			continue
		}
		if want == Fail {
			checkTrailEnds(t, f, info, res)
		}
	}
}

func checkTrailEnds(t *testing.T, name string, info *Info, res *Result) {
	t.Helper()
	if len(res.Trail) == 0 {
		t.Errorf("%s: fail without a trail", name)
		return
	}
	if first := res.Trail[0]; first.Proc != "main" {
		t.Errorf("%s: the trail starts in %s, not main", name, first.Proc)
	}
	last := res.Trail[len(res.Trail)-1]
	if last.Pos != res.AssertPos || !strings.HasPrefix(last.Stmt, "assert(") {
		t.Errorf("%s: the trail ends at %s %q, not at the assertion %s", name, last.Pos, last.Stmt, res.AssertPos)
	}
}

// TestExplicitTrail checks the trail of summary-unsafe.bp step by step: the
// third call of set fails, and the trail shows the first two calls in full.
func TestExplicitTrail(t *testing.T) {
	src, err := os.ReadFile("testdata/summary-unsafe.bp")
	if err != nil {
		t.Fatal(err)
	}
	_, info, fset := mustParse(t, "summary-unsafe.bp", string(src))
	res := CheckExplicit(fset, info, Limits{})
	if res.Verdict != Fail {
		t.Fatalf("verdict %v, want fail", res.Verdict)
	}
	var b strings.Builder
	WriteTrail(&b, res)
	want := `summary-unsafe.bp:13:5: main x, y := F, F; [x=0 y=0 p=0 q=0]
summary-unsafe.bp:14:5: main p, q := set(T, F); [x=0 y=0 p=0 q=0]
summary-unsafe.bp:6:5: set assert(!(a & b & x)); [x=0 y=0 a=1 b=0]
summary-unsafe.bp:7:5: set x := a | x; [x=0 y=0 a=1 b=0]
summary-unsafe.bp:8:5: set return b, a; [x=1 y=0 a=1 b=0]
summary-unsafe.bp:15:5: main p, q := set(p, q); [x=1 y=0 p=0 q=1]
summary-unsafe.bp:6:5: set assert(!(a & b & x)); [x=1 y=0 a=0 b=1]
summary-unsafe.bp:7:5: set x := a | x; [x=1 y=0 a=0 b=1]
summary-unsafe.bp:8:5: set return b, a; [x=1 y=0 a=0 b=1]
summary-unsafe.bp:16:5: main p, q := set(p, T); [x=1 y=0 p=1 q=0]
summary-unsafe.bp:6:5: set assert(!(a & b & x)); [x=1 y=0 a=1 b=1]
`
	if got := b.String(); got != want {
		t.Errorf("trail:\n%s\nwant:\n%s", got, want)
	}
}
