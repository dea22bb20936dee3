package types_test

import (
	"os"
	"path/filepath"
	"testing"

	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// TestTruncatedNoPanic parses and checks every prefix of every test file
// (in steps, to keep it fast): broken input must yield errors, never a
// panic, and the checker must accept the parser's partial trees.
func TestTruncatedNoPanic(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.bir"))
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		step := 1 + len(src)/200
		for n := 0; n <= len(src); n += step {
			fset := source.NewFileSet()
			f, _ := parser.ParseFile(fset, path, src[:n], parser.AllErrors)
			if f == nil || f.System == nil {
				t.Fatalf("%s[:%d]: nil file or system", path, n)
			}
			types.Check(fset, f, nil)
		}
	}
}
