package java_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"birch/internal/cli"
	"birch/internal/testenv"
)

// TestDifferential runs small Java programs (testdata/Diff*.java, whose
// main passes Verify.getInt inputs to run) on a handful of inputs both
// with java -ea (testdata/DiffDriver.java, one JVM for all runs) and as
// birch's lowered model with the inputs fixed (birch simulate): what
// each run prints, and the exception or failed assert that ends it and
// its line, must agree.
func TestDifferential(t *testing.T) {
	testenv.SkipWithoutJavac(t)
	javaBin, err := exec.LookPath("java")
	if err != nil {
		t.Skip("java is not installed")
	}
	classes := testClasses(t)
	var runs []string
	for _, a := range []int{-5, -1, 0, 3, 5} {
		for _, b := range []int{-3, 0, 1, 6, 8} {
			runs = append(runs, fmt.Sprintf("DiffArith:%d,%d", a, b))
		}
	}
	for _, n := range []int{-1, 0, 1, 4, 5, 6} {
		for _, k := range []int{0, 1, 2, 3, 5} {
			runs = append(runs, fmt.Sprintf("DiffLoops:%d,%d", n, k))
		}
	}
	for _, a := range []int{-3, -1, 0, 2, 3} {
		for _, b := range []int{-2, 0, 1, 4} {
			runs = append(runs, fmt.Sprintf("DiffMisc:%d,%d", a, b))
		}
	}
	want := runDriver(t, javaBin, "DiffDriver", runs)
	models := map[string][]byte{}
	for _, run := range runs {
		prog, inputs, _ := strings.Cut(run, ":")
		bir, ok := models[prog]
		if !ok {
			o, err := translate(t, prog)
			if err != nil {
				t.Fatalf("%s: %v", prog, err)
			}
			bir, models[prog] = o.BIR, o.BIR
			_ = classes
		}
		got := simulate(t, prog, fixChoices(t, bir, strings.Split(inputs, ",")))
		if got != want[run] {
			t.Errorf("%s: birch and java differ:\nbirch:\n%sjava:\n%s", run, got, want[run])
		}
	}
}

var choice = regexp.MustCompile(`externChoose\([^;]*\)`)

// fixChoices replaces the model's choices, in the order of the text, by
// the inputs.
func fixChoices(t *testing.T, bir []byte, inputs []string) []byte {
	i := 0
	fixed := choice.ReplaceAllFunc(bir, func(m []byte) []byte {
		if i >= len(inputs) {
			t.Fatalf("more choices than inputs in:\n%s", bir)
		}
		i++
		return []byte(inputs[i-1])
	})
	if i != len(inputs) {
		t.Fatalf("%d choices for %d inputs", i, len(inputs))
	}
	return fixed
}

var failure = regexp.MustCompile(`(?m)^fail: ([a-z -]+): .* at [^ ]*\.java:(\d+):\d+ \(after`)

// simulate runs the (deterministic) model with birch simulate and
// renders its output as DiffDriver does.
func simulate(t *testing.T, name string, bir []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".bir")
	if err := os.WriteFile(path, bir, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	status := cli.Main([]string{"simulate", "--steps", "1000000", path}, nil, &stdout, &stderr)
	var b strings.Builder
	for _, line := range strings.Split(stdout.String(), "\n") {
		if m := failure.FindStringSubmatch(line); m != nil {
			exc := map[string]string{"assertion": "AssertionError", "division-by-zero": "ArithmeticException"}[m[1]]
			if exc == "" {
				exc = m[1]
			}
			fmt.Fprintf(&b, "!! %s at line %s\n", exc, m[2])
			continue
		}
		if line != "" && !strings.HasPrefix(line, "simulation: ") {
			b.WriteString(line + "\n")
		}
	}
	if status != 0 && status != 1 || stderr.Len() > 0 {
		t.Errorf("birch simulate %s: exit %d\n%s%s", name, status, stdout.String(), stderr.String())
	}
	return b.String()
}

// runDriver runs a driver class of the package's compiled programs with
// args in one JVM and returns what it printed after each "== ARG" line,
// by ARG.
func runDriver(t *testing.T, javaBin, driver string, args []string) map[string]string {
	t.Helper()
	out, err := exec.Command(javaBin, append([]string{"-ea", "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
		"-cp", progs.Dir(t), driver}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("java: %v\n%s", err, out)
	}
	want := map[string]string{}
	var cur string
	for _, line := range strings.Split(string(out), "\n") {
		if arg, ok := strings.CutPrefix(line, "== "); ok {
			cur = arg
			continue
		}
		if cur != "" && line != "" {
			want[cur] += line + "\n"
		}
	}
	return want
}
