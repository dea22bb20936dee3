package java_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	java "birch/internal/frontend/java"
	"birch/internal/verify"
)

// translateExc lowers the program testdata/exc/NAME.java (package
// lower-case name; the classes of its package, as jcli passes the classes
// a program uses).
func translateExc(t *testing.T, name string) (*java.Output, error) {
	t.Helper()
	pkg := strings.ToLower(name)
	return java.Translate(heapClasses(t, pkg), java.Config{Main: pkg + "." + name, SourceDirs: []string{"testdata/exc"}})
}

// TestExcGolden lowers each testdata/exc program and compares the BIR with
// testdata/exc/NAME.golden (-update rewrites them); the BIR must load.
func TestExcGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/exc/*.java")
	if len(files) == 0 {
		t.Fatal("no testdata/exc/*.java")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".java")
		t.Run(name, func(t *testing.T) {
			out, err := translateExc(t, name)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := verify.Load(name+".bir", out.BIR); err != nil {
				t.Fatalf("the lowered model does not load: %v\n%s", err, out.BIR)
			}
			golden := strings.TrimSuffix(file, ".java") + ".golden"
			if *update {
				if err := os.WriteFile(golden, out.BIR, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(out.BIR, want) {
				t.Errorf("the lowering differs from %s (go test -update rewrites it):\n%s", golden, diffLines(string(want), string(out.BIR)))
			}
		})
	}
}

// TestExceptionVerdicts checks the testdata/exc programs with the
// explicit search: those whose handlers catch what is thrown pass (a
// finally runs on both paths, a synchronized block or method an exception
// leaves releases its monitor); an exception no handler catches fails
// where it is thrown, naming its class; one that passes handlers that do
// not take it fails where it leaves main or a thread's run().
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
		{name: "ExcSync", status: 0},
		{name: "ExcUncaught", status: 1, pos: "testdata/exc/ExcUncaught.java:13:1", text: "uncaught excuncaught.ExcUncaught$Bad"},
		{name: "ExcMessage", status: 1, pos: "testdata/exc/ExcMessage.java:11:1", text: "uncaught java.lang.IllegalStateException: x reached 2"},
		{name: "ExcSyncNull", status: 1, pos: "testdata/exc/ExcSyncNull.java:21:1", text: "uncaught java.lang.NullPointerException"},
		{name: "ExcNull", status: 1, pos: "testdata/exc/ExcNull.java:17:1", text: "uncaught java.lang.NullPointerException"},
		{name: "ExcEscape", status: 1, pos: "testdata/exc/ExcEscape.java:28:1", text: "uncaught java.lang.IllegalStateException"},
		{name: "ExcThread", status: 1, pos: "testdata/exc/ExcThread.java:22:1", text: "uncaught java.lang.IllegalStateException"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := translateExc(t, tc.name)
			if err != nil {
				t.Fatal(err)
			}
			checkExc(t, out, tc.name, tc.status, tc.pos, tc.text)
		})
	}
	// U8 of testdata/Unsupported.java was unsupported without exc.go:
	// f(0)'s ArithmeticException is caught
	t.Run("U8", func(t *testing.T) {
		out, err := translate(t, "U8")
		if err != nil {
			t.Fatal(err)
		}
		checkExc(t, out, "U8", 0, "", "")
	})
}

// checkExc checks a lowered program: birch check's exit status and, for
// a violation, its position and Java message.
func checkExc(t *testing.T, out *java.Output, name string, status int, pos, text string) {
	t.Helper()
	got, report := checkBIR(t, name, out.BIR)
	if got != status {
		t.Fatalf("birch check: exit %d, want %d:\n%s", got, status, report)
	}
	if pos == "" {
		return
	}
	re := regexp.MustCompile(`(?m)^fail: [a-z-]+: (.*)\n.*\n  at (.*)$`)
	mm := re.FindStringSubmatch(report)
	if mm == nil {
		t.Fatalf("no violation in:\n%s", report)
	}
	if mm[2] != pos {
		t.Errorf("violation at %s, want %s:\n%s", mm[2], pos, report)
	}
	if d := out.Describe(mm[2], mm[1]); d != text {
		t.Errorf("Describe(%s, %s) = %q, want %q", mm[2], mm[1], d, text)
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

// TestExcDeterministic: lowering a program twice gives the same text
// (the temporaries that the exception handlers' stacks join were
// declared in a map's order, so the goldens changed from run to run).
func TestExcDeterministic(t *testing.T) {
	for _, name := range []string{"ExcPropagate", "ExcEscape"} {
		first, err := translateExc(t, name)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 10; i++ {
			out, err := translateExc(t, name)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.BIR, first.BIR) {
				t.Fatalf("%s: the lowering differs from the first:\n%s", name, diffLines(string(first.BIR), string(out.BIR)))
			}
		}
	}
}
