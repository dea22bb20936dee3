package java_test

import (
	"regexp"
	"testing"

	java "birch/internal/frontend/java"
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
		{name: "ExcImplicit", status: 0},
		{name: "ExcPropagate", status: 0},
		{name: "ExcUncaught", status: 1, pos: "testdata/ExcUncaught.java:11:1", text: "uncaught ExcUncaught$Bad"},
		// U8 (testdata/Unsupported.java) was unsupported without exc.go:
		// f(0)'s ArithmeticException is caught
		{name: "U8", status: 0},
		{name: "ExcNull", status: 1, pos: "testdata/ExcNull.java:15:1", text: "uncaught java.lang.NullPointerException"},
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

// TestRuntimeErrorsInJavaTerms: Describe names the Java exception that
// each of BIR's runtime errors stands for in a lowered program.
func TestRuntimeErrorsInJavaTerms(t *testing.T) {
	out := &java.Output{}
	for msg, want := range map[string]string{
		"null dereference: b is null":                            "uncaught java.lang.NullPointerException",
		"division by zero":                                       "uncaught java.lang.ArithmeticException: / by zero",
		"remainder by zero":                                      "uncaught java.lang.ArithmeticException: / by zero",
		"index 5 out of bounds [0, 2)":                           "uncaught java.lang.ArrayIndexOutOfBoundsException: Index 5 out of bounds for length 2",
		"index -1 out of bounds [0, 2)":                          "uncaught java.lang.ArrayIndexOutOfBoundsException: Index -1 out of bounds for length 2",
		"array length -3 not in 0..8":                            "uncaught java.lang.NegativeArraySizeException: -3",
		"cast: A_c1[0] (a A) does not fit x":                     "uncaught java.lang.ClassCastException",
		"unlock(o.$mon) by a thread that does not hold the lock": "uncaught java.lang.IllegalMonitorStateException",
		"value 9 out of range 0..1 of b":                         "",
		"array length 9 not in 0..8":                             "",
	} {
		if got := out.Describe("A.java:1:1", msg); got != want {
			t.Errorf("Describe(%q) = %q, want %q", msg, got, want)
		}
	}
}
