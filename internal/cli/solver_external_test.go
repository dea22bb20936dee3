package cli

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"birch/internal/procgroup/proctest"
)

// TestSolverKilledAtTimeLimit: birch check --abstract --solver z3 with a z3
// that never answers ends at --time-limit, inconclusive, and the z3
// process is killed with it. Before, the abandoned synthesis left z3
// running after birch had reported.
func TestSolverKilledAtTimeLimit(t *testing.T) {
	bin := t.TempDir()
	pidFile := filepath.Join(t.TempDir(), "pid")
	t.Setenv("PIDFILE", pidFile)
	if err := os.WriteFile(filepath.Join(bin, "z3"), []byte("#!/bin/sh\necho $$ >\"$PIDFILE\"\nexec sleep 300\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	status, stdout, stderr := runMainWithin(t, 20*time.Second, "check", "--time-limit", "500ms", "--solver", "z3",
		"--abstract", "balance=range(0,2)", abstractionExamples+"/withdraw.bir")
	if want := "inconclusive: time limit reached (--time-limit=500ms) during the abstraction synthesis\n"; status != ExitInconclusive || stdout != want {
		t.Errorf("status %d, stdout %q, stderr %q; want %d and %q", status, stdout, stderr, ExitInconclusive, want)
	}
	if proctest.AliveInFile(t, pidFile) {
		t.Errorf("z3 still runs after birch reported")
	}
}
