package c2bp

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/backend/promela"
)

// TestPromela: the abstract models translate to Promela (birch spin
// accepts them), the examples' and testdata's alike, but for those that
// keep an int64, uint32 or uint64 variable, which the translation refuses
// (it translates the fixed-width types of at most 32 bits, docs/promela.md).
func TestPromela(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.bir")
	for _, n := range []string{"lockloop", "countbound", "lockedcounter", "partition", "payload"} {
		files = append(files, "../../../../examples/predicates/"+n+".bir")
	}
	for _, path := range files {
		name := strings.TrimSuffix(path, ".bir")
		t.Run(filepath.Base(name), func(t *testing.T) {
			out, err := abstractFile(t, path, name+".pred")
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := promela.Translate(out.Program, &b, promela.Options{}); err != nil {
				if strings.Contains(err.Error(), "fixed-width type") {
					// the abstraction keeps a 64-bit or uint32 variable,
					// which a Promela int cannot hold
					t.Skipf("promela: %v", err)
				}
				t.Errorf("promela: %v\n%s", err, out.Source)
			}
		})
	}
}
