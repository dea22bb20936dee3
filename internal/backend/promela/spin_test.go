package promela

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
)

const examplesDir = "../../../examples"

func load(t *testing.T, path string) *types.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return prog
}

func examples(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(examplesDir, "*.bir"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	return files
}

// models returns the examples and this package's own test models (which
// exercise locks, wait/notify, exit and heap operations without start).
func models(t *testing.T) []string {
	t.Helper()
	own, err := filepath.Glob(filepath.Join("testdata", "*.bir"))
	if err != nil || len(own) == 0 {
		t.Fatalf("no test models: %v", err)
	}
	return append(examples(t), own...)
}

// translate returns the translation of the example, or "" (with the error)
// when the example uses a construct the translation does not support.
func translate(t *testing.T, prog *types.Program) (string, error) {
	t.Helper()
	var buf bytes.Buffer
	err := Translate(prog, &buf, Options{})
	if err != nil {
		var se *source.Error
		if !errors.As(err, &se) || !se.Pos.IsValid() {
			t.Fatalf("unsupported constructs must be reported with a position, got %v", err)
		}
		if buf.Len() != 0 {
			t.Fatalf("Translate wrote output despite the error %v", err)
		}
		return "", err
	}
	return buf.String(), nil
}

// TestUnsupportedPositioned checks that every example either translates or
// is refused with a positioned error, and that the examples without start
// and without functions (the scope of the state-count agreement) translate.
func TestUnsupportedPositioned(t *testing.T) {
	for _, path := range examples(t) {
		prog := load(t, path)
		_, err := translate(t, prog)
		if err == nil {
			continue
		}
		started := false
		for _, th := range prog.Threads {
			started = started || th.Started
		}
		if !started && len(prog.Functions) == 0 {
			t.Errorf("%s: %v", filepath.Base(path), err)
		}
		if !strings.Contains(err.Error(), "not supported") {
			t.Errorf("%s: the error should say what is not supported: %v", filepath.Base(path), err)
		}
	}
}

func needSpin(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"spin", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH (apt-get install spin gcc)", tool)
		}
	}
}

func run(t *testing.T, dir string, timeout time.Duration, name string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestSpinAccepts checks that spin -a accepts the translation of every
// example that translates.
func TestSpinAccepts(t *testing.T) {
	needSpin(t)
	for _, path := range models(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".bir")
		t.Run(name, func(t *testing.T) {
			pml, err := translate(t, load(t, path))
			if err != nil {
				t.Skipf("not translated: %v", err)
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "model.pml"), []byte(pml), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := run(t, dir, time.Minute, "spin", "-a", "model.pml"); err != nil || strings.Contains(out, "Error") {
				t.Fatalf("spin -a: %v\n%s", err, out)
			}
		})
	}
}

// panResult is what pan reported.
type panResult struct {
	states int
	errors int
	kind   string // the violation kind named, "deadlock", or ""
	text   string
}

var (
	statesRE   = regexp.MustCompile(`(\d+) states, stored`)
	errorsRE   = regexp.MustCompile(`errors: (\d+)`)
	assertRE   = regexp.MustCompile(`assertion violated (.*) \(at depth`)
	deadlockRE = regexp.MustCompile(`pan:\d+: invalid end state`)
)

func runSpin(t *testing.T, pml string) panResult {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "model.pml"), []byte(pml), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := run(t, dir, time.Minute, "spin", "-a", "model.pml"); err != nil {
		t.Fatalf("spin -a: %v\n%s", err, out)
	}
	if out, err := run(t, dir, 2*time.Minute, "gcc", "-O2", "-DSAFETY", "-DNOREDUCE", "-o", "pan", "pan.c"); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	out, err := run(t, dir, 2*time.Minute, filepath.Join(dir, "pan"), "-m1000000")
	if err != nil {
		// pan exits with status 0 even when it finds errors; anything else is
		// a failure to run it.
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("pan: %v\n%s", err, out)
		}
	}
	if strings.Contains(out, "max search depth too small") {
		t.Fatalf("pan: search depth too small:\n%s", out)
	}
	var r panResult
	r.text = out
	m := statesRE.FindStringSubmatch(out)
	e := errorsRE.FindStringSubmatch(out)
	if m == nil || e == nil {
		t.Fatalf("cannot read pan's report:\n%s", out)
	}
	r.states, _ = strconv.Atoi(m[1])
	r.errors, _ = strconv.Atoi(e[1])
	if r.errors > 0 {
		switch {
		case assertRE.MatchString(out):
			r.kind = KindOfAssertion(assertRE.FindStringSubmatch(out)[1])
		case deadlockRE.MatchString(out):
			r.kind = "deadlock"
		default:
			r.kind = "unknown"
		}
	}
	return r
}

// TestSpinAgreement runs birch and SPIN on every example that translates:
// the verdicts must agree (pass or inconclusive within the bounds against no
// error; the same violation kind), and for complete searches SPIN's stored
// state count must equal birch's state count (docs/promela.md).
func TestSpinAgreement(t *testing.T) {
	needSpin(t)
	for _, path := range models(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".bir")
		t.Run(name, func(t *testing.T) {
			prog := load(t, path)
			pml, err := translate(t, prog)
			if err != nil {
				t.Skipf("not translated: %v", err)
			}
			m, err := model.New(prog, model.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res := search.Run(m, search.Config{Strategy: search.DFS, TimeLimit: 2 * time.Minute})
			sp := runSpin(t, pml)
			switch res.Verdict {
			case search.Pass, search.Inconclusive:
				if !res.Complete {
					t.Fatalf("birch's search is not complete: %s", res.Reason)
				}
				if sp.errors != 0 {
					t.Fatalf("birch: %s (%s), SPIN found %d errors (%s):\n%s", res.Verdict, res.Reason, sp.errors, sp.kind, sp.text)
				}
				if sp.states != res.Stats.States {
					t.Errorf("states: birch %d, SPIN %d", res.Stats.States, sp.states)
				}
				t.Logf("%s: birch %s, %d states; SPIN no errors, %d states", name, res.Verdict, res.Stats.States, sp.states)
			case search.Fail:
				want := res.Violation.Kind.String()
				if sp.errors == 0 {
					t.Fatalf("birch: fail (%s), SPIN found no error (%d states)", want, sp.states)
				}
				if sp.kind != want {
					t.Errorf("violation kind: birch %s, SPIN %s:\n%s", want, sp.kind, sp.text)
				}
				t.Logf("%s: birch fail %s; SPIN %s", name, want, sp.kind)
			}
		})
	}
}
