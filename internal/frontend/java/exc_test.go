package java_test

import (
	"regexp"
	"testing"
)

// TestExceptionVerdicts checks the testdata programs of exceptions with
// the explicit search: the ones whose handlers catch what is thrown pass;
// an exception no handler catches fails where it is thrown, naming its
// class.
func TestExceptionVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		pos    string // the position of the violation
		text   string // its Java message
	}{
		{name: "ExcCatch", status: 0},
		{name: "ExcFinally", status: 0},
		{name: "ExcPropagate", status: 0},
		{name: "ExcUncaught", status: 1, pos: "testdata/ExcUncaught.java:11:1", text: "uncaught ExcUncaught$Bad"},
		{name: "ExcEscape", status: 1, pos: "testdata/ExcEscape.java:26:1", text: "uncaught java.lang.IllegalStateException"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := translate(t, tc.name)
			if err != nil {
				t.Fatal(err)
			}
			status, text := checkBIR(t, tc.name, out.BIR)
			if status != tc.status {
				t.Fatalf("birch check: exit %d, want %d:\n%s\n%s", status, tc.status, text, out.BIR)
			}
			if tc.pos == "" {
				return
			}
			re := regexp.MustCompile(`(?m)^fail: [a-z-]+: (.*)\n.*\n  at (.*)$`)
			mm := re.FindStringSubmatch(text)
			if mm == nil {
				t.Fatalf("no violation in:\n%s", text)
			}
			if mm[2] != tc.pos {
				t.Errorf("violation at %s, want %s:\n%s", mm[2], tc.pos, text)
			}
			if got := out.Describe(mm[2], mm[1]); got != tc.text {
				t.Errorf("Describe(%s, %s) = %q, want %q", mm[2], mm[1], got, tc.text)
			}
		})
	}
}
