package bp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/abstraction/predicate"
	"birch/internal/abstraction/predicate/c2bp"
)

// TestAgreeC2bp: the abstract models C2bp makes of the examples and of its
// test models, those of one thread with boolean data, translate, and
// bebop's verdict on the boolean program is the explicit search's on the
// abstract BIR model, every failing trail replaying there.
func TestAgreeC2bp(t *testing.T) {
	models, _ := filepath.Glob("../../../examples/predicates/*.bir")
	more, _ := filepath.Glob("../../abstraction/predicate/c2bp/testdata/*.bir")
	translated := 0
	for _, path := range append(models, more...) {
		pred := strings.TrimSuffix(path, ".bir") + ".pred"
		psrc, err := os.ReadFile(pred)
		if err != nil {
			continue
		}
		prog := loadFile(t, path)
		file, err := predicate.ParseFile(prog, pred, psrc)
		if err != nil {
			t.Fatalf("%s: %v", pred, err)
		}
		out, err := c2bp.Abstract(prog, file, c2bp.Config{})
		if err != nil {
			t.Logf("%s: not abstracted: %v", path, err)
			continue
		}
		if _, err := Translate(out.Program, Config{}); err != nil {
			t.Logf("%s: no boolean program: %v", path, strings.SplitN(err.Error(), "\n", 2)[0])
			continue
		}
		translated++
		v := agree(t, path, out.Program, string(out.Source))
		t.Logf("%s: %+v", path, v)
	}
	if translated < 5 {
		t.Errorf("%d abstract models translate, want at least 5", translated)
	}
}
