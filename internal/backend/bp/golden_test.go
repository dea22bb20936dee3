package bp

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// load parses and type-checks a BIR model.
func load(t *testing.T, name string, src []byte) *types.Program {
	t.Helper()
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, src)
	}
	return prog
}

func loadFile(t *testing.T, path string) *types.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return load(t, path, src)
}

// TestGolden compares the boolean programs of testdata/*.bir with their
// .bp files.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.bir")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, path := range files {
		if strings.Contains(path, "error") {
			continue
		}
		out, err := Translate(loadFile(t, path), Config{})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		golden := strings.TrimSuffix(path, ".bir") + ".bp"
		if *update {
			if err := os.WriteFile(golden, out.Source, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (go test -update creates it)", err)
		}
		if string(want) != string(out.Source) {
			t.Errorf("%s differs:\n%s", golden, out.Source)
		}
	}
}
