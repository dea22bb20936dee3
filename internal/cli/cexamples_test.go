package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"birch/internal/testenv"
)

const cExamplesDir = "../../examples/c"

// cRun is one check of a C example that its comments expect: the flags
// and the verdict with its kind.
type cRun struct {
	flags         []string
	verdict, kind string
	// states, transitions: the counts of the explicit search that the
	// comment `// states[ with FLAGS]: S, transitions: T` gives (derived by
	// tools/birsim/bir.py on the lowered model), or -1
	states, transitions int
}

// cExample is a program of examples/c with what its comments expect:
// `// expect: VERDICT [KIND]` for birch check without flags, any number
// of `// expect with FLAGS: VERDICT [KIND]`, the counts of the explicit
// search `// states[ with FLAGS]: S, transitions: T`, `// technique: cegar` when it
// is checked by refinement (otherwise by the explicit search), and
// `// long` when its checks belong to BIRCH_LONG=1.
type cExample struct {
	name, path, src string
	runs            []cRun
	cegar, long     bool
}

var (
	cExpectLine = regexp.MustCompile(`(?m)^// expect(?: with ([^:]+))?: (pass|fail|inconclusive)(?: (\S+))?\s*$`)
	cHeadLine   = regexp.MustCompile(`^// ([\w.-]+\.c): \S`)
	cStatesLine = regexp.MustCompile(`(?m)^// states(?: with ([^:]+))?: (\d+), transitions: (\d+)\s*$`)
)

// expectRuns reads the runs of a program's `// expect[ with FLAGS]:
// VERDICT [KIND]` lines (f is its file) with the counts its `// states[
// with FLAGS]: S, transitions: T` lines give them.
func expectRuns(t *testing.T, f, src string) []cRun {
	t.Helper()
	var runs []cRun
	for _, m := range cExpectLine.FindAllStringSubmatch(src, -1) {
		runs = append(runs, cRun{flags: strings.Fields(m[1]), verdict: m[2], kind: m[3], states: -1, transitions: -1})
	}
	for _, m := range cStatesLine.FindAllStringSubmatch(src, -1) {
		found := false
		for i := range runs {
			if strings.Join(runs[i].flags, " ") == strings.Join(strings.Fields(m[1]), " ") {
				runs[i].states, _ = strconv.Atoi(m[2])
				runs[i].transitions, _ = strconv.Atoi(m[3])
				found = true
			}
		}
		if !found {
			t.Errorf("%s: %q names no run of an `// expect` line", f, m[0])
		}
	}
	return runs
}

func cExamplesOf(t *testing.T) []cExample {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(cExamplesDir, "*.c"))
	if err != nil || len(files) < 15 {
		t.Fatalf("want the programs of examples/c, found %d (%v)", len(files), err)
	}
	var out []cExample
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ex := cExample{name: filepath.Base(f), path: f, src: string(b)}
		if m := cHeadLine.FindStringSubmatch(ex.src); m == nil || m[1] != ex.name {
			t.Errorf("%s: the first line is not `// %s: what it shows and why its verdict holds`", f, ex.name)
		}
		ex.runs = expectRuns(t, f, ex.src)
		if len(ex.runs) == 0 || len(ex.runs[0].flags) != 0 {
			t.Errorf("%s: want a first `// expect: VERDICT [KIND]` line (birch check without flags)", f)
			continue
		}
		ex.cegar = regexp.MustCompile(`(?m)^// technique: cegar\s*$`).MatchString(ex.src)
		ex.long = regexp.MustCompile(`(?m)^// long\s*$`).MatchString(ex.src)
		out = append(out, ex)
	}
	return out
}

// TestCExamples checks every program of examples/c with birch check, with
// each set of flags its comments give: the verdict and exit status; for a
// failure the kind, a position in the C file, and a trail that birch
// replay (with the same flags) replays to the same violation; the
// technique (the explicit search, complete, or refinement, whose failure
// is confirmed with the input values); an inconclusive check's limit.
func TestCExamples(t *testing.T) {
	dir := t.TempDir()
	for _, ex := range cExamplesOf(t) {
		for i, r := range ex.runs {
			name := strings.TrimSuffix(ex.name, ".c")
			if len(r.flags) > 0 {
				name += "/" + strings.Join(r.flags, "_")
			}
			t.Run(name, func(t *testing.T) {
				if ex.long {
					testenv.SkipUnlessLong(t)
				}
				trail := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".trail")
				args := append(append([]string{"--trail", trail}, r.flags...), ex.path)
				status, doc := checkJSON(t, args...)
				if doc["verdict"] != r.verdict || status != exitOf[r.verdict] {
					t.Fatalf("birch check %v: %v (exit %d), want %s; reason: %v", args, doc["verdict"], status, r.verdict, doc["reason"])
				}
				if r.states >= 0 {
					st, _ := doc["stats"].(map[string]any)
					if st["states"] != float64(r.states) || st["transitions"] != float64(r.transitions) {
						t.Errorf("%v states, %v transitions; the example says %d and %d", st["states"], st["transitions"], r.states, r.transitions)
					}
				}
				_, cegar := doc["cegar"]
				switch {
				case cegar != ex.cegar:
					t.Errorf("checked by refinement: %v, want %v (// technique: cegar); rests on %v", cegar, ex.cegar, doc["rests_on"])
				case !cegar && r.verdict == "pass":
					ro, _ := doc["rests_on"].([]any)
					if len(ro) != 1 || ro[0].(map[string]any)["kind"] != "complete" {
						t.Errorf("an explicit pass that is not complete: rests on %v", ro)
					}
				}
				switch r.verdict {
				case "inconclusive":
					if r.kind != "limit" {
						t.Fatalf("unknown expectation inconclusive %q", r.kind)
					}
					if lh, _ := doc["limits_hit"].([]any); len(lh) == 0 {
						t.Errorf("no limits_hit: %v", doc["reason"])
					}
				case "fail":
					kind, ok := expectKinds[r.kind]
					if !ok {
						t.Fatalf("unknown expected kind %q", r.kind)
					}
					v, _ := doc["violation"].(map[string]any)
					if v == nil || v["kind"] != kind {
						t.Fatalf("violation %v, want kind %s", v, kind)
					}
					if pos, _ := v["pos"].(string); !strings.HasPrefix(pos, ex.path+":") {
						t.Errorf("the violation is at %q, not a line of %s", pos, ex.path)
					}
					if cegar {
						if v["confirmation"] != "confirmed" {
							t.Errorf("the refinement's violation is %v, want confirmed", v["confirmation"])
						}
						if !trailChoosesInput(ex, doc) {
							t.Errorf("the confirmed trail gives no value to an input (a step at a __VERIFIER_nondet_ call that changes a variable): %v", doc["trail"])
						}
					}
					rargs := append(append([]string{"replay"}, r.flags...), ex.path, trail)
					status, out, errs := runMain(rargs...)
					want := "fail: " + kind + ": " + v["message"].(string) + "\n"
					if status != ExitViolation || !strings.HasSuffix(out, want) {
						t.Errorf("birch %v: exit %d, want 1 and an output that ends in %q:\n%s%s", rargs, status, want, out, errs)
					}
				}
				if i == 0 && r.verdict != "inconclusive" {
					checkAgainstGCC(t, ex, r)
				}
				for _, lr := range ex.runs[1:] {
					if i == 0 && strings.Join(lr.flags, " ") == "--data-model LP64" && r.verdict != "inconclusive" {
						checkAgainstGCC(t, ex, lr)
					}
				}
			})
		}
	}
}

// trailChoosesInput reports whether a step of the report's trail, at a
// line of the example that calls a __VERIFIER_nondet_ function, changes a
// variable: the input value the trail goes with.
func trailChoosesInput(ex cExample, doc map[string]any) bool {
	lines := strings.Split(ex.src, "\n")
	steps, _ := doc["trail"].([]any)
	for _, s := range steps {
		step, _ := s.(map[string]any)
		pos, _ := step["pos"].(string)
		parts := strings.Split(strings.TrimPrefix(pos, ex.path+":"), ":")
		n, err := strconv.Atoi(parts[0])
		if err != nil || n < 1 || n > len(lines) || !strings.Contains(lines[n-1], "__VERIFIER_nondet_") {
			continue
		}
		if ch, _ := step["changes"].(map[string]any); len(ch) > 0 {
			return true
		}
	}
	return false
}

// checkAgainstGCC compiles an example that reads no input and starts no
// thread with gcc and runs it: the error function is reached (or an assert fails, or the ERROR
// label is reached) exactly when the run r expects a failure. Signed
// overflow wraps (-fwrapv), as birch computes it without
// --overflow-error. ILP32 programs need gcc's 32-bit target (-m32); a host
// without it skips them.
func checkAgainstGCC(t *testing.T, ex cExample, r cRun) {
	t.Helper()
	if strings.Contains(ex.src, "__VERIFIER_nondet") || strings.Contains(ex.src, "pthread_create") {
		return // its verdict is over every input or schedule: no one run decides it
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Log("no gcc: the verdict is not compared with the compiled program's run")
		return
	}
	args := []string{"-w", "-fwrapv", "-x", "c"}
	if strings.Join(r.flags, " ") != "--data-model LP64" {
		if len(r.flags) > 0 {
			return
		}
		args = append(args, "-m32")
	}
	dir := t.TempDir()
	prelude := "#include <stdio.h>\n#include <stdlib.h>\n" +
		"void reach_error(void) { puts(\"reach_error\"); exit(101); }\n" +
		"void __VERIFIER_error(void) { puts(\"__VERIFIER_error\"); exit(101); }\n"
	src := prelude + "#line 1 \"" + ex.name + "\"\n" +
		regexp.MustCompile(`(?m)^ERROR:`).ReplaceAllString(ex.src, "ERROR: exit(101);")
	cfile, bin := filepath.Join(dir, "prog.c"), filepath.Join(dir, "prog")
	if err := os.WriteFile(cfile, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(gcc, append(args, "-o", bin, cfile)...).CombinedOutput()
	if err != nil {
		if args[len(args)-1] == "-m32" {
			t.Logf("gcc -m32 cannot compile here (no 32-bit headers?): the ILP32 verdict is not compared with a run")
			return
		}
		t.Fatalf("gcc %v: %v\n%s", args, err, out)
	}
	out, err = exec.Command(bin).CombinedOutput()
	failed := err != nil
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() != 101 && ee.ExitCode() != -1 {
		t.Fatalf("the compiled program exits with %v:\n%s", err, out)
	}
	if failed != (r.verdict == "fail") {
		t.Errorf("compiled by gcc %v and run, the program fails: %v (%v: %s); birch's expected verdict is %s", args, failed, err, out, r.verdict)
	}
}

// TestCExampleTasks runs birch check --task on every task file of
// examples/c, with each `# birch[ --task-property NAME]: ANSWER` line of it:
// the first line of the report is ANSWER (true, false or unknown), the exit
// status is the answer's, and an answer other than unknown agrees with the
// task's expected verdict (the tasks are written here, and their expected
// verdicts derived by hand: birch must never contradict one).
func TestCExampleTasks(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(cExamplesDir, "*.yml"))
	if len(files) < 5 {
		t.Fatalf("want the task files of examples/c, found %d", len(files))
	}
	answerLine := regexp.MustCompile(`(?m)^# birch(?: --task-property (\S+))?: (true|false|unknown)\b`)
	status := map[string]int{"true": ExitPass, "false": ExitViolation, "unknown": ExitInconclusive}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ms := answerLine.FindAllStringSubmatch(string(b), -1)
		if len(ms) == 0 {
			t.Errorf("%s: no `# birch: ANSWER` line", f)
		}
		for _, m := range ms {
			args := []string{"check", "--task", f}
			name := strings.TrimSuffix(filepath.Base(f), ".yml")
			if m[1] != "" {
				args = append(args, "--task-property", m[1])
				name += "/" + m[1]
			}
			t.Run(name, func(t *testing.T) {
				st, out, errs := runMain(args...)
				first, _, _ := strings.Cut(out, "\n")
				if first != m[2] || st != status[m[2]] {
					t.Fatalf("birch %v: first line %q, exit %d; want %s, exit %d\n%s%s", args, first, st, m[2], status[m[2]], out, errs)
				}
				if m[2] != "unknown" && !strings.Contains(out, "(agrees with the expected verdict)") {
					t.Errorf("birch %v does not agree with the task's expected verdict:\n%s", args, out)
				}
			})
		}
	}
}
