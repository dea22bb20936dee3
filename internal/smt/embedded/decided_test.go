package embedded

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"birch/internal/smt"
	"birch/internal/smt/smtlib"
)

// TestDecided runs the scripts of testdata/decided, problems the solver
// once answered unknown (each says why), and requires the answer their
// :status gives.
func TestDecided(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "decided", "*.smt2"))
	if len(files) == 0 {
		t.Fatal("no scripts in testdata/decided")
	}
	status := regexp.MustCompile(`\(set-info :status (sat|unsat)\)`)
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m := status.FindSubmatch(src)
		if m == nil {
			t.Fatalf("%s: no :status", path)
		}
		tm := smt.NewTermManager()
		s := New(tm)
		s.SetLimit(smt.Limit{Timeout: 10 * time.Second})
		var out bytes.Buffer
		in := &smtlib.Interpreter{TM: tm, Solver: s, Out: &out}
		if err := in.Run(path, src); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if got := strings.TrimSpace(out.String()); got != string(m[1]) {
			t.Errorf("%s: got %s, want %s", path, got, m[1])
		}
	}
}
