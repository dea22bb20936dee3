package java_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeterministic lowers each testdata program several times: the text
// is the same every time (map orders must not leak into the model).
func TestDeterministic(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.java")
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".java")
		if strings.HasPrefix(name, "Unsupported") || name == "DiffDriver" || name == "LargeMethod" {
			continue
		}
		first, err := translate(t, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := 0; i < 4; i++ {
			again, err := translate(t, name)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !bytes.Equal(first.BIR, again.BIR) {
				t.Fatalf("%s: two lowerings differ:\n%s", name, diffLines(string(first.BIR), string(again.BIR)))
			}
		}
	}
}
