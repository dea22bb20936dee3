package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"birch/internal/procgroup/proctest"
)

// TestSolverKilledAtTimeLimit: birch check --abstract --solver z3 with a z3
// that never answers ends at --time-limit, inconclusive, and the z3
// process (with the helper it started) is killed with it. Before, the abandoned synthesis left z3
// running after birch had reported.
func TestSolverKilledAtTimeLimit(t *testing.T) {
	pidFile := proctest.HungZ3(t)
	status, stdout, stderr := runMainWithin(t, 20*time.Second, "check", "--time-limit", "500ms", "--solver", "z3",
		"--abstract", "balance=range(0,2)", abstractionExamples+"/withdraw.bir")
	if want := "inconclusive: time limit reached (--time-limit=500ms) during the abstraction synthesis\n" +
		"properties: safety (assertions, runtime errors; deadlock freedom and the absence of int overflow not proven): inconclusive\n" +
		"rests on: bounded (time limit reached (--time-limit=500ms) during the abstraction synthesis)\n"; status != ExitInconclusive || stdout != want {
		t.Errorf("status %d, stdout %q, stderr %q; want %d and %q", status, stdout, stderr, ExitInconclusive, want)
	}
	if proctest.AliveInFile(t, pidFile) {
		t.Errorf("z3 still runs after birch reported")
	}
}

// TestSMTSolverKilledAtTimeLimit: birch smt --solver z3 --time-limit D
// kills a z3 that does not answer half a second past D, with the helper
// holding its pipes, and exits 3.
func TestSMTSolverKilledAtTimeLimit(t *testing.T) {
	pidFile := proctest.HungZ3(t)
	script := filepath.Join(t.TempDir(), "q.smt2")
	if err := os.WriteFile(script, []byte("(declare-const x Int)\n(assert (> x 0))\n(check-sat)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := runMainWithin(t, 20*time.Second, "smt", "--solver", "z3", "--time-limit", "200ms", script)
	if status != ExitInconclusive || stdout != "unknown\n" || !strings.Contains(stderr, "q.smt2:3:1: smt: z3 did not answer within 700ms; stopped it") {
		t.Errorf("status %d, stdout %q, stderr %q; want %d, unknown and z3 stopped", status, stdout, stderr, ExitInconclusive)
	}
	if proctest.AliveInFile(t, pidFile) {
		t.Errorf("z3's helper still runs after birch reported")
	}
}
