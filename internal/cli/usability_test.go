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

// Issue 16, point 7: a usage mistake is one line with the problem, a
// suggestion and a pointer to -h; -h goes to stdout only; messages quote at
// most an excerpt of bad input.

func TestUsageMistakeOneLine(t *testing.T) {
	model := filepath.Join(examplesDir, "peterson.bir")
	for _, c := range []struct {
		args []string
		want string // in the one line
	}{
		{[]string{"check", "--max-state=5", model}, `unknown flag "--max-state" (did you mean --max-states?); run 'birch check -h' for usage`},
		{[]string{"check", model, "--seach", "bfs"}, `(did you mean --search?)`},
		{[]string{"check", "--max-mem", "4G", model}, `(did you mean --max-memory?)`},
		{[]string{"spin", "--tim-limit", "4", model}, `(did you mean --time-limit?); run 'birch spin -h' for usage`},
		{[]string{"check", "--zzzzzz", model}, `unknown flag "--zzzzzz"; run 'birch check -h'`},
		{[]string{"check", "--max-states=x", model}, `--max-states: invalid value "x": not a number; run 'birch check -h'`},
		{[]string{"check", "--json=maybe", model}, `--json: invalid value "maybe": want true or false`},
		{[]string{"check", model, "--trail"}, `--trail needs a value`},
		{[]string{"chek", model}, `unknown command "chek" (did you mean check?); run 'birch help'`},
		{[]string{"help", "simualte"}, `unknown command "simualte" (did you mean simulate?)`},
		{[]string{"abstraction", "shw"}, `(did you mean show?)`},
	} {
		status, stdout, stderr := runMain(c.args...)
		if status != ExitBadInput || stdout != "" {
			t.Errorf("birch %q: status %d, stdout %q; want 2 and nothing", c.args, status, stdout)
		}
		if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("birch %q: stderr %q; want one line with %q", c.args, stderr, c.want)
		}
	}
	// a command's own usage mistake: the problem and the pointer, no help text
	status, _, stderr := runMain("check")
	if status != ExitBadInput || stderr != "birch check: want exactly one model file\nrun 'birch check -h' for usage\n" {
		t.Errorf("birch check: status %d, stderr %q", status, stderr)
	}
}

func TestHelpOnStdoutOnly(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "-h"}, "usage: birch check "},
		{[]string{"check", "--help"}, "usage: birch check "},
		{[]string{"check", "x.bir", "-h"}, "usage: birch check "},
		{[]string{"spin", "-h"}, "usage: birch spin "},
		{[]string{"help", "check"}, "usage: birch check "},
	} {
		status, stdout, stderr := runMain(c.args...)
		if status != ExitPass || stderr != "" || !strings.HasPrefix(stdout, c.want) {
			t.Errorf("birch %q: status %d, stderr %q, stdout starts %q; want 0, nothing on stderr, %q",
				c.args, status, stderr, stdout[:min(len(stdout), 40)], c.want)
		}
	}
}

func TestMessagesQuoteExcerpts(t *testing.T) {
	model := filepath.Join(examplesDir, "peterson.bir")
	long := strings.Repeat("x", 100000)
	for _, args := range [][]string{
		{"check", "--search=" + long, model},
		{"check", "--max-states=" + long, model},
		{"check", "--max-memory=" + long, model},
		{"check", "--time-limit=" + long, model},
		{"check", "--" + long, model},
		{long},
		{"help", long},
		{"check", "--property", long, model},
		{"check", "--pattern", long, model},
		{"abstraction", long},
		{"translate", "--to", long, model},
	} {
		status, _, stderr := runMain(args...)
		if status != ExitBadInput || len(stderr) > 400 || !strings.Contains(stderr, "xxx…") {
			t.Errorf("birch %.40q…: status %d, %d bytes on stderr (want 2, an excerpt ending in …, at most 400 bytes): %.300s", args, status, len(stderr), stderr)
		}
	}
	// names and tokens of a model
	dir := t.TempDir()
	for i, src := range []string{
		"process P()\n" + long + " \nend P;\n",
		"process P()\nv : int;\nmain thread M()\n loc a: when " + long + " do {} goto a;\nend M;\nend P;\n",
		"process P()\nv : int;\nmain thread M()\n loc a: when true do { v := 1" + long + "; } goto a;\nend M;\nend P;\n",
		"process P()\nv : int;\nmain thread M()\n loc a: when true do {} goto " + long + ";\nend M;\nend P;\n",
	} {
		name := filepath.Join(dir, "long"+string(rune('0'+i))+".bir")
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		status, _, stderr := runMain("vet", name)
		if status != ExitBadInput || len(stderr) > 400+len(name) || !strings.Contains(stderr, "xxx…") {
			t.Errorf("birch vet long%d.bir: status %d, %d bytes on stderr: %.300s", i, status, len(stderr), stderr)
		}
	}
}
