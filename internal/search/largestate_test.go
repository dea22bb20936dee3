package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A search of large states looks at its memory limit before 1024 of them
// are expanded (issue 16: 16 threads of 2^20 slots each grew to 6 GiB under
// --max-memory=1G before the first look, and past the time limit too).
func TestLargeStatesMemoryLimit(t *testing.T) {
	// about 128 KiB a state (a small int takes a byte), 401 states
	path := filepath.Join(t.TempDir(), "large.bir")
	src := "system S ()\na : array [131072] of int;\nx : int;\nmain thread M ()\n  loc l0:\n" +
		"    when x < 400 do { x := x + 1; a[x] := x; } goto l0;\n    when x >= 400 do { } goto l1;\n  loc l1:\nend M;\nend S;\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m := loadModel(t, path)
	const limit = 24 << 20
	for _, st := range strategies[:2] {
		cfg := st.config()
		cfg.MaxMemory = limit
		res := Run(m, cfg)
		if res.Verdict != Inconclusive || !strings.Contains(res.Reason, "memory limit") || res.Stats.Memory > 2*limit {
			t.Errorf("%s: %v (%s) after %d states holding %d bytes; want the memory limit of %d bytes reached", st.name, res.Verdict, res.Reason, res.Stats.States, res.Stats.Memory, limit)
		}
	}
}
