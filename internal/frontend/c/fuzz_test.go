package c

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzTranslate: no C program makes the lowering panic (lowerSafely would
// report it as an internal error), and what it lowers is well formed
// enough to print. The seeds are the programs of testdata, read as
// preprocessed (.i) so that no gcc runs.
func FuzzTranslate(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.c")
	more, _ := filepath.Glob("testdata/verdict/*.c")
	for _, file := range append(files, more...) {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<14 {
			return
		}
		for _, dm := range []DataModel{ILP32, LP64} {
			_, err := Translate("fuzz.i", src, Config{DataModel: dm})
			if err != nil && strings.Contains(err.Error(), internalErrorMsg) {
				t.Fatalf("%v\n%s", err, src)
			}
		}
	})
}
