package java_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"birch/internal/cli"
	java "birch/internal/frontend/java"
	"birch/internal/frontend/java/classfile"
	"birch/internal/testenv"
	"birch/internal/verify"
)

// heapClasses parses the classes of package pkg of the heap's programs
// (testdata/heap, compiled with the package's other programs).
func heapClasses(t *testing.T, pkg string) []*classfile.Class {
	t.Helper()
	cfs := jdiffClasses(t, progs.Dir(t), pkg)
	if len(cfs) == 0 {
		t.Fatalf("no classes in %s", filepath.Join(progs.Dir(t), pkg))
	}
	return cfs
}

// translateHeap lowers the heap's program pkg.Main (the classes of its
// package, as jcli passes the classes a program uses).
func translateHeap(t *testing.T, main string) (*java.Output, error) {
	t.Helper()
	return translateHeapCfg(t, main, java.Config{})
}

// translateHeapCfg lowers the heap's program pkg.Main with the bounds of
// cfg.
func translateHeapCfg(t *testing.T, main string, cfg java.Config) (*java.Output, error) {
	t.Helper()
	pkg, _, _ := strings.Cut(main, ".")
	cfg.Main, cfg.SourceDirs = main, []string{"testdata/heap"}
	return java.Translate(heapClasses(t, pkg), cfg)
}

func TestJavacHierarchy(t *testing.T) {
	java.CheckJavacHierarchy(t, heapClasses(t, "heaptest"))
}

// violation finds the first violation of birch check's or simulate's
// output: its kind, model message and position.
var violation = regexp.MustCompile(`(?m)^fail: ([a-z -]+): (.*?)(?:\n.*\n  at | at )([^ \n]*\.java:\d+:\d+)`)

// javaException is the Java exception a violation of the lowered model
// stands for: the lowering's message of an assertion, or the exception
// of BIR's own runtime error.
func javaException(out *java.Output, kind, msg, pos string) string {
	if kind == "assertion" {
		text := out.Describe(pos, msg)
		if strings.HasPrefix(text, "assert failed") {
			return "AssertionError"
		}
		if cls, ok := strings.CutPrefix(text, "uncaught java.lang."); ok {
			cls, _, _ = strings.Cut(cls, ":")
			return cls
		}
		return "?" + text
	}
	if e := map[string]string{"null-dereference": "NullPointerException", "index-out-of-bounds": "ArrayIndexOutOfBoundsException",
		"cast": "ClassCastException", "division-by-zero": "ArithmeticException"}[kind]; e != "" {
		return e
	}
	return "?" + kind
}

// TestHeapVerdicts lowers the heap's programs (objects, dispatch, arrays,
// casts, java.lang) and checks them with the explicit search: those whose
// asserts hold pass; the others fail with the Java exception, at the line
// the program marks "fails here".
func TestHeapVerdicts(t *testing.T) {
	for _, tc := range []struct {
		main   string
		status int
		exc    string // the uncaught exception
		line   int
		cfg    java.Config
	}{
		{main: "dispatch.Dispatch"},
		{main: "arrays1.Arrays1"},
		{main: "boxing.Boxing"},
		{main: "ifacecast.IfaceCast"},
		{main: "catches.Catches"},
		{main: "indexout.IndexOut", status: 1, exc: "ArrayIndexOutOfBoundsException", line: 10},
		{main: "negsize.NegSize", status: 1, exc: "NegativeArraySizeException", line: 11},
		{main: "badcast.BadCast", status: 1, exc: "ClassCastException", line: 20},
		{main: "nullcall.NullCall", status: 1, exc: "NullPointerException", line: 18},
		{main: "nullfield.NullField", status: 1, exc: "NullPointerException", line: 15},
		{main: "choice.Choice", status: 1, exc: "AssertionError", line: 19},
		{main: "parseint.ParseInt", status: 1, exc: "NumberFormatException", line: 15},
		{main: "strings.Strings", status: 1, exc: "IllegalStateException", line: 40},
		{main: "constlength.ConstLength", status: 1, exc: "NegativeArraySizeException", line: 19},
		{main: "randomchoice.RandomChoice", status: 1, exc: "ArithmeticException", line: 14},
		{main: "longarray.LongArray", status: 3},
		{main: "longarray.LongArray", cfg: java.Config{MaxArrayLength: 10}},
		{main: "manynodes.ManyNodes", status: 3},
		{main: "manynodes.ManyNodes", cfg: java.Config{MaxObjects: 5}},
	} {
		name := tc.main
		if tc.cfg.MaxObjects != 0 || tc.cfg.MaxArrayLength != 0 {
			name += fmt.Sprintf("/%d,%d", tc.cfg.MaxObjects, tc.cfg.MaxArrayLength)
		}
		t.Run(name, func(t *testing.T) {
			out, err := translateHeapCfg(t, tc.main, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			status, text := checkBIR(t, tc.main, out.BIR)
			if status != tc.status {
				t.Fatalf("birch check: exit %d, want %d:\n%s", status, tc.status, text)
			}
			if tc.status != 1 {
				return
			}
			m := violation.FindStringSubmatch(text)
			if m == nil {
				t.Fatalf("no violation in:\n%s", text)
			}
			_, cls, _ := strings.Cut(tc.main, ".")
			file := "testdata/heap/" + cls + ".java"
			if want := fmt.Sprintf("%s:%d:1", file, tc.line); m[3] != want {
				t.Errorf("violation at %s, want %s:\n%s", m[3], want, text)
			}
			if got := javaException(out, m[1], m[2], m[3]); got != tc.exc {
				t.Errorf("violation %q (%s) is %s, want %s", m[2], m[1], got, tc.exc)
			}
		})
	}
}

// TestHeapDifferential runs the heap's deterministic programs with java
// -ea (testdata/heap/HeapDriver.java, one JVM for all) and their lowered
// models with birch simulate: what each prints and the exception that
// ends it, with its line, must agree.
func TestHeapDifferential(t *testing.T) {
	testenv.SkipWithoutJavac(t)
	javaBin, err := exec.LookPath("java")
	if err != nil {
		t.Skip("java is not installed")
	}
	mains := []string{"dispatch.Dispatch", "arrays1.Arrays1", "boxing.Boxing", "indexout.IndexOut", "negsize.NegSize",
		"badcast.BadCast", "nullcall.NullCall", "nullfield.NullField", "parseint.ParseInt", "strings.Strings", "ifacecast.IfaceCast", "catches.Catches"}
	want := runDriver(t, javaBin, "heapdriver.HeapDriver", mains)
	for _, main := range mains {
		out, err := translateHeap(t, main)
		if err != nil {
			t.Fatalf("%s: %v", main, err)
		}
		path := filepath.Join(t.TempDir(), main+".bir")
		if err := os.WriteFile(path, out.BIR, 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		status := cli.Main([]string{"simulate", "--steps", "100000", path}, nil, &stdout, &stderr)
		var got strings.Builder
		for _, line := range strings.Split(stdout.String(), "\n") {
			if m := violation.FindStringSubmatch(line); m != nil {
				_, l, _ := strings.Cut(strings.TrimSuffix(m[3], ":1"), ".java:")
				fmt.Fprintf(&got, "!! %s at line %s\n", javaException(out, m[1], m[2], m[3]), l)
				continue
			}
			if line != "" && !strings.HasPrefix(line, "simulation: ") {
				got.WriteString(line + "\n")
			}
		}
		if status != 0 && status != 1 || stderr.Len() > 0 {
			t.Errorf("birch simulate %s: exit %d\n%s%s", main, status, stdout.String(), stderr.String())
		}
		if got.String() != want[main] {
			t.Errorf("%s: birch and java differ:\nbirch:\n%sjava:\n%s", main, got.String(), want[main])
		}
	}
}

// TestHeapUnsupported: what the heap's lowering does not handle is
// reported at its line: an array where an object reference is expected (a
// parameter, a field, an element of Object[]), a class that extends one
// outside the model, a method of Object outside it.
func TestHeapUnsupported(t *testing.T) {
	for _, tc := range []struct {
		main  string
		lines []int
		msg   string
	}{
		{"arrayasobject.ArrayAsObject", []int{14, 19, 24}, "birch keeps arrays and objects apart"},
		{"outsidemodel.OutsideModel", []int{13}, "java.lang.Object.hashCode()"},
		{"outsidemodel.OutsideModel", []int{9}, "outsidemodel.OutsideModel$Stack2 extends java.util.ArrayList, which is outside birch's model"},
	} {
		_, err := translateHeap(t, tc.main)
		var ue *java.UnsupportedError
		if !errors.As(err, &ue) {
			t.Fatalf("%s: Translate: %v, want an *UnsupportedError", tc.main, err)
		}
		got := map[string]bool{}
		for _, e := range ue.List {
			if strings.Contains(e.Msg, tc.msg) {
				got[e.Pos.String()] = true
			}
		}
		_, cls, _ := strings.Cut(tc.main, ".")
		for _, line := range tc.lines {
			if pos := fmt.Sprintf("testdata/heap/%s.java:%d:1", cls, line); !got[pos] {
				t.Errorf("no error %q at %s: %v", tc.msg, pos, err)
			}
		}
	}
}

// TestHeapGolden lowers heap programs and compares the BIR with
// testdata/heap/NAME.golden (go test -update rewrites them): records
// with their prefixes, collections per site, the dispatch's cases, array
// allocation and its checks, boxing.
func TestHeapGolden(t *testing.T) {
	for _, main := range []string{"dispatch.Dispatch", "arrays1.Arrays1", "boxing.Boxing", "choice.Choice"} {
		t.Run(main, func(t *testing.T) {
			out, err := translateHeap(t, main)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := verify.Load(main+".bir", out.BIR); err != nil {
				t.Fatalf("the lowered model does not load: %v\n%s", err, out.BIR)
			}
			_, cls, _ := strings.Cut(main, ".")
			golden := filepath.Join("testdata", "heap", cls+".golden")
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
