package data

import (
	"os"
	"path/filepath"
	"testing"

	"birch/internal/source"
)

// FuzzParseFile checks that no BASL input makes compilation panic.
func FuzzParseFile(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.basl")
	more, _ := filepath.Glob("testdata/errors/*.basl")
	for _, p := range append(files, more...) {
		src, err := os.ReadFile(p)
		if err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("abstraction A abstracts int begin TOKENS = {X, Y}; abstract(n) begin n % 100000000000000000000 == 3 -> X; n % 100000000000000000000 != 3 -> Y; end end"))
	f.Add([]byte("abstraction A abstracts int begin TOKENS = {X, Y}; abstract(n) begin n / 3 * 7 - -n > 2 -> X; !(n / 3 * 7 - -n > 2) -> Y; end end"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 2000 {
			return
		}
		ParseFile(source.NewFileSet(), "fuzz.basl", src, Config{Steps: 20000})
	})
}
