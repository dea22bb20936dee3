package java_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"birch/internal/cli"
)

// checkBIR runs birch check on a lowered model and returns its exit
// status and output.
func checkBIR(t *testing.T, name string, bir []byte, args ...string) (int, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".bir")
	if err := os.WriteFile(path, bir, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	status := cli.Main(append(append([]string{"check"}, args...), path), nil, &stdout, &stderr)
	return status, stdout.String() + stderr.String()
}

// TestVerdicts lowers the testdata programs and checks them with the
// explicit search: the programs whose asserts hold pass; one that fails
// names the Java position of the failing assert, and the lowering's
// message there says what failed in Java terms.
func TestVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		pos    string // the position of the violation
		text   string // the Java message of the violation
		kind   string // the kind of the violation: "" for assertion
		fix    string // the value of the program's one choice ("" for any)
		trail  string // a regular expression the trail matches
		args   []string
	}{
		{name: "Arith", status: 0},
		{name: "Branches", status: 0},
		// a false Verifier.assume ends the path (BIR's assume(false) blocked
		// main: a deadlock)
		{name: "Assume", status: 0},
		// the trail shows the input chosen (a visible step of its own)
		{name: "Recursion", status: 1, pos: "testdata/Recursion.java:21:1", text: "assert failed: fact reached 120",
			trail: `Recursion_main#1\.n = [56]\n`},
		{name: "SyncBlock", status: 1, pos: "testdata/SyncBlock.java:14:1", text: "assert failed: two"},
		{name: "RefJoin", status: 1, pos: "testdata/RefJoin.java:54:1", text: "assert failed: the last"},
		{name: "DivZero", status: 1, pos: "testdata/DivZero.java:10:1", text: "uncaught java.lang.ArithmeticException: / by zero",
			fix: "2"},
		{name: "DivZero", status: 1, pos: "testdata/DivZero.java:12:1", kind: "division-by-zero", fix: "0",
			text: "uncaught java.lang.ArithmeticException: / by zero"},
		// main is local but for its choice: the trail shows the input
		// chosen (a visible step of its own, not inside the invisible run)
		{name: "Choice", status: 1, pos: "testdata/Choice.java:9:1", text: "assert failed: three",
			trail: `Choice_main#1\.x = 3\n`},
		// Verifier.nondetInt chooses among 2^32 values: the explicit
		// search does not enumerate them
		{name: "Print", status: 3},
	} {
		t.Run(tc.name+tc.fix, func(t *testing.T) {
			out, err := translate(t, tc.name)
			if err != nil {
				t.Fatal(err)
			}
			bir := out.BIR
			if tc.fix != "" {
				bir = fixChoices(t, bir, []string{tc.fix})
			}
			status, text := checkBIR(t, tc.name, bir, tc.args...)
			if status != tc.status {
				t.Fatalf("birch check: exit %d, want %d:\n%s", status, tc.status, text)
			}
			if tc.trail != "" && !regexp.MustCompile(tc.trail).MatchString(text) {
				t.Errorf("the trail does not match %s:\n%s", tc.trail, text)
			}
			if tc.pos == "" {
				return
			}
			kind := tc.kind
			if kind == "" {
				kind = "assertion"
			}
			re := regexp.MustCompile(`(?m)^fail: ` + kind + `: (.*)\n.*\n  at (.*)$`)
			mm := re.FindStringSubmatch(text)
			if mm == nil {
				t.Fatalf("no %s violation in:\n%s", kind, text)
			}
			if mm[2] != tc.pos {
				t.Errorf("violation at %s, want %s:\n%s", mm[2], tc.pos, text)
			}
			if got := out.Describe(mm[2], mm[1]); got != tc.text {
				t.Errorf("Describe(%s, %s) = %q, want %q", mm[2], mm[1], got, tc.text)
			}
			if !strings.Contains(text, tc.pos) {
				t.Errorf("the trail does not name %s", tc.pos)
			}
		})
	}
}
