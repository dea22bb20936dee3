package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 16, point 6: no found violation is lost, no empty property is
// ignored.

// TestTrailPathCheckedFirst: a --trail or -o path that cannot be written is
// a usage error before the search (or the synthesis) starts, whatever its
// verdict would have been.
func TestTrailPathCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-dir", "x.trail")
	pass := filepath.Join(examplesDir, "peterson.bir")
	fail := filepath.Join(examplesDir, "philosophers-deadlock.bir")
	for _, args := range [][]string{
		{"check", "--trail", missing, pass},
		{"check", "--trail", missing, fail},
		{"check", "--trail", dir, pass}, // a directory
		{"check", "--trail", missing, "--ltl", "[] true", pass},
		{"check", "--trail", missing, "--abstract", "Peterson.turn=point", pass},
		{"spin", "--trail", missing, pass},
		{"translate", "-o", missing, pass},
		{"abstract", "-o", missing, pass},
	} {
		status, stdout, stderr := runMain(args...)
		if status != ExitBadInput || stdout != "" || !strings.Contains(stderr, "cannot write there") {
			t.Errorf("birch %s: status %d, stdout %q, stderr %q; want status 2, nothing on stdout, \"cannot write there\"",
				strings.Join(args, " "), status, stdout, stderr)
		}
	}
	// a writable path is left alone when there is no violation
	ok := filepath.Join(dir, "ok.trail")
	if status, _, stderr := runMain("check", "--trail", ok, pass); status != ExitPass {
		t.Fatalf("check --trail %s: status %d: %s", ok, status, stderr)
	}
	if _, err := os.Stat(ok); !os.IsNotExist(err) {
		t.Errorf("check --trail of a passing model created %s (%v)", ok, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the writability probe left files behind: %v", entries)
	}
}

// TestTrailSaveFailureKeepsVerdict: when the trail cannot be written after
// the search (here: a full disk), the violation and its trail are still
// reported, with a warning, and the exit status is 1.
func TestTrailSaveFailureKeepsVerdict(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	fail := filepath.Join(examplesDir, "philosophers-deadlock.bir")
	status, stdout, stderr := runMain("check", "--trail", "/dev/full", fail)
	if status != ExitViolation {
		t.Errorf("status %d, want 1\nstderr: %s", status, stderr)
	}
	if !strings.HasPrefix(stdout, "fail: deadlock") || !strings.Contains(stdout, "trail (") || !strings.Contains(stdout, "trail NOT saved to /dev/full") {
		t.Errorf("stdout lacks the verdict, the trail or the note:\n%s", stdout)
	}
	if !strings.Contains(stderr, "warning: the trail was not saved") {
		t.Errorf("stderr lacks the warning: %q", stderr)
	}
	// JSON: the document is whole
	status, stdout, _ = runMain("check", "--json", "--trail", "/dev/full", fail)
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || status != ExitViolation || doc["verdict"] != "fail" {
		t.Errorf("--json: status %d, verdict %v (%v)", status, doc["verdict"], err)
	}
	// an LTL lasso
	status, stdout, stderr = runMain("check", "--trail", "/dev/full", "--ltl", "[] <> someoneEats", fail)
	if status != ExitViolation || !strings.Contains(stdout, "trail NOT saved") || !strings.Contains(stderr, "warning:") {
		t.Errorf("--ltl: status %d\nstdout:\n%s\nstderr:\n%s", status, stdout, stderr)
	}
}

// TestEmptyFlagValues: an empty property, formula, pattern or bindings
// file is a usage error, not a plain check that can pass.
func TestEmptyFlagValues(t *testing.T) {
	pass := filepath.Join(examplesDir, "peterson.bir")
	for _, args := range [][]string{
		{"check", "--ltl", "", pass},
		{"check", "--ltl=", pass},
		{"check", "--pattern", "", pass},
		{"check", "--property", "", pass},
		{"check", "--property", "  ", pass},
		{"check", "--abstractions", "", pass},
		{"check", "--abstract", "", pass},
		{"check", "--trail", "", pass},
		{"spin", "--ltl", "", pass},
		{"spin", "--property", "", pass},
		{"translate", "--pattern", "", pass},
		{"abstraction", "infer", "--abstractions", "", pass},
	} {
		status, stdout, stderr := runMain(args...)
		if status != ExitBadInput || stdout != "" || !strings.Contains(stderr, "empty value") {
			t.Errorf("birch %q: status %d, stdout %q, stderr %q; want status 2 and \"empty value\"", args, status, stdout, stderr)
		}
	}
}
