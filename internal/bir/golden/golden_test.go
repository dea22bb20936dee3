package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"birch/internal/bir/format"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

const examplesDir = "../../../examples"
const goldenDir = "../../../testdata/golden"

func exampleFiles(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join(examplesDir, "*.bir"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	if len(files) < 12 {
		t.Fatalf("expected at least 12 example models in examples/, found %d", len(files))
	}
	return files
}

// frontEnd parses and checks src; the program is nil after any error.
func frontEnd(name string, src []byte) (*source.FileSet, *types.Program, error) {
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return fset, nil, err
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		return fset, nil, err
	}
	return fset, prog, nil
}

func formatted(t testing.TB, fset *source.FileSet, prog *types.Program) []byte {
	var buf bytes.Buffer
	if err := format.File(&buf, fset, prog.File); err != nil {
		t.Fatalf("format: %v", err)
	}
	return buf.Bytes()
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/bir/golden -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; run with -update if the change is intended.\n%s", path, firstDiff(string(want), string(got)))
	}
}

func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + w + "\n  got:  " + g
		}
	}
	return ""
}

// TestExamples checks every example: it is well formed, its parse tree,
// canonical layout and typed program match the golden files, and
// formatting is idempotent and preserves meaning.
func TestExamples(t *testing.T) {
	for _, path := range exampleFiles(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".bir")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(src, []byte("// expect: ")) {
				t.Errorf("%s has no '// expect: VERDICT' header line", path)
			}
			fset, prog, err := frontEnd(filepath.Base(path), src)
			if err != nil {
				t.Fatalf("example is not well formed: %v", err)
			}
			out := formatted(t, fset, prog)
			if !bytes.Equal(out, src) {
				t.Errorf("%s is not in the canonical layout; run: birch fmt -w %s", path, path)
			}
			compareGolden(t, filepath.Join(goldenDir, name+".ast"), []byte(format.DumpAST(prog.File)))
			compareGolden(t, filepath.Join(goldenDir, name+".fmt"), out)
			compareGolden(t, filepath.Join(goldenDir, name+".types"), []byte(prog.Dump()))
			checkRoundTrip(t, path, src, prog, out)
		})
	}
}

// checkRoundTrip asserts that formatting is idempotent, keeps every comment,
// and yields the same parse tree and the same typed program.
func checkRoundTrip(t testing.TB, name string, src []byte, prog *types.Program, out []byte) {
	fset2, prog2, err := frontEnd(name+" (formatted)", out)
	if err != nil {
		t.Fatalf("formatted model does not check: %v\n%s", err, out)
	}
	if !format.Equal(prog.File, prog2.File) {
		t.Errorf("formatting changed the parse tree of %s", name)
	}
	if d1, d2 := prog.Dump(), prog2.Dump(); d1 != d2 {
		t.Errorf("formatting changed the typed program of %s:\n%s", name, firstDiff(d1, d2))
	}
	out2 := formatted(t, fset2, prog2)
	if !bytes.Equal(out, out2) {
		t.Errorf("formatting %s is not idempotent:\n%s", name, firstDiff(string(out), string(out2)))
	}
	if c1, c2 := commentTexts(prog), commentTexts(prog2); c1 != c2 {
		t.Errorf("formatting %s changed its comments:\n%s", name, firstDiff(c1, c2))
	}
}

func commentTexts(p *types.Program) string {
	var texts []string
	for _, g := range p.File.Comments {
		for _, c := range g.List {
			texts = append(texts, c.Text)
		}
	}
	return strings.Join(texts, "\n")
}
