package data

import (
	"os"
	"path/filepath"
	"testing"

	"birch/internal/source"
	"birch/internal/testenv"
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
	// a constant beyond 64 bits as a modulus: parsed and resolved by
	// default (an undefined token stops the compilation before the
	// operators' synthesis), compiled whole, which takes the solver about
	// 6 s of CPU, with BIRCH_LONG=1
	f.Add([]byte("abstraction A abstracts int begin TOKENS = {X, Y}; abstract(n) begin n % 100000000000000000000 == 3 -> X; n % 100000000000000000000 != 3 -> Z; end end"))
	if testenv.Long() {
		f.Add([]byte("abstraction A abstracts int begin TOKENS = {X, Y}; abstract(n) begin n % 100000000000000000000 == 3 -> X; n % 100000000000000000000 != 3 -> Y; end end"))
	}
	f.Add([]byte("abstraction A abstracts int begin TOKENS = {X, Y}; abstract(n) begin n / 3 * 7 - -n > 2 -> X; !(n / 3 * 7 - -n > 2) -> Y; end end"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 2000 {
			return
		}
		ParseFile(source.NewFileSet(), "fuzz.basl", src, Config{Steps: 20000})
	})
}
