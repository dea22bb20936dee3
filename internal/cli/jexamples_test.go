package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"birch/internal/testenv"
)

const javaExamplesDir = "../../examples/java"

// javaExamples are the class files of every program of examples/java,
// compiled by one javac run for the whole test binary.
var javaExamples = testenv.JavaBuild{Patterns: []string{javaExamplesDir + "/*.java"}}

// javaExample is a program of examples/java with what its comments expect:
// the runs of `// expect[ with FLAGS]: VERDICT [KIND]` lines (cRun, as in
// examples/c), their `// states[ with FLAGS]: S, transitions: T` counts
// (derived independently of birch's engine), and the lines marked
// `// fails here` (where the violation is) and `// blocks here` (where
// each thread of a deadlock waits).
type javaExample struct {
	name, path, class string
	lines             []string
	runs              []cRun
	fails, blocks     map[int]bool
}

var (
	javaHeadLine = regexp.MustCompile(`^// ([\w-]+\.java): \S`)
	javaMarkLine = regexp.MustCompile(`// (fails|blocks) here\s*$`)
)

func javaExamplesOf(t *testing.T) []javaExample {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(javaExamplesDir, "*.java"))
	if err != nil || len(files) < 10 {
		t.Fatalf("want the programs of examples/java, found %d (%v)", len(files), err)
	}
	var out []javaExample
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		ex := javaExample{name: filepath.Base(f), path: f, class: strings.TrimSuffix(filepath.Base(f), ".java"),
			lines: strings.Split(src, "\n"), fails: map[int]bool{}, blocks: map[int]bool{}}
		if m := javaHeadLine.FindStringSubmatch(src); m == nil || m[1] != ex.name {
			t.Errorf("%s: the first line is not `// %s: what it shows and why its verdict holds`", f, ex.name)
		}
		ex.runs = expectRuns(t, f, src)
		if len(ex.runs) == 0 || len(ex.runs[0].flags) != 0 {
			t.Errorf("%s: want a first `// expect: VERDICT [KIND]` line (birch check without flags)", f)
			continue
		}
		for i, l := range ex.lines {
			if m := javaMarkLine.FindStringSubmatch(l); m != nil {
				map[string]map[int]bool{"fails": ex.fails, "blocks": ex.blocks}[m[1]][i+1] = true
			}
		}
		switch first := ex.runs[0]; {
		case first.verdict == "fail" && first.kind == "deadlock":
			if len(ex.blocks) == 0 || len(ex.fails) > 0 {
				t.Errorf("%s: a deadlock marks the lines where its threads wait (`// blocks here`) and no `// fails here`", f)
			}
		case first.verdict == "fail":
			if len(ex.fails) != 1 || len(ex.blocks) > 0 {
				t.Errorf("%s: a failure marks the one line of its violation (`// fails here`)", f)
			}
		case len(ex.fails)+len(ex.blocks) > 0:
			t.Errorf("%s: a program that does not fail marks no line", f)
		}
		out = append(out, ex)
	}
	return out
}

// javaLineOf returns the line of a position "…/File.java:LINE:COL" when it
// names the example's source file, or 0.
func (ex javaExample) javaLineOf(pos string) int {
	i := strings.Index(pos, ex.name+":")
	if i < 0 || (i > 0 && pos[i-1] != '/') {
		return 0
	}
	line, _, _ := strings.Cut(pos[i+len(ex.name)+1:], ":")
	n, err := strconv.Atoi(line)
	if err != nil || n < 1 || n > len(ex.lines) {
		return 0
	}
	return n
}

// TestJavaExamples checks every program of examples/java, compiled once by
// javac, with birch check on its main class, with each set of flags its
// comments give: the verdict and exit status, the counts of an exhaustive
// search where the example gives them, and for a failure the kind, the
// violation at the line marked `// fails here` (a deadlock: every waiting
// thread at a line marked `// blocks here`), every step of the trail at a
// line of the Java source, and a trail that birch replay replays to the
// same violation.
func TestJavaExamples(t *testing.T) {
	exs := javaExamplesOf(t)
	classes := javaExamples.Dir(t)
	dir := t.TempDir()
	for _, ex := range exs {
		for _, r := range ex.runs {
			name := ex.class
			if len(r.flags) > 0 {
				name += "/" + strings.Join(r.flags, "_")
			}
			t.Run(name, func(t *testing.T) {
				class := filepath.Join(classes, ex.class+".class")
				trail := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".trail")
				args := append(append([]string{"--trail", trail}, r.flags...), class)
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
				if r.verdict == "pass" && len(r.flags) == 0 {
					ro, _ := doc["rests_on"].([]any)
					if len(ro) != 1 || ro[0].(map[string]any)["kind"] != "complete" {
						t.Errorf("a pass that is not complete: rests on %v", ro)
					}
				}
				if r.verdict != "fail" {
					return
				}
				kind, ok := expectKinds[r.kind]
				if !ok {
					t.Fatalf("unknown expected kind %q", r.kind)
				}
				v, _ := doc["violation"].(map[string]any)
				if v == nil || v["kind"] != kind {
					t.Fatalf("violation %v, want kind %s", v, kind)
				}
				if kind == "deadlock" {
					ex.checkDeadlock(t, v)
				} else if pos, _ := v["pos"].(string); !ex.fails[ex.javaLineOf(pos)] {
					t.Errorf("the violation is at %q, not at the line of %s marked `// fails here`", pos, ex.name)
				} else if want := ex.javaMessage(r.kind, ex.javaLineOf(pos)); want != "" && v["message"] != want {
					t.Errorf("the violation says %q, want %q", v["message"], want)
				}
				steps, _ := doc["trail"].([]any)
				if len(steps) == 0 {
					t.Fatalf("a failure without a trail")
				}
				for _, s := range steps {
					step, _ := s.(map[string]any)
					if pos, _ := step["pos"].(string); pos != "" && ex.javaLineOf(pos) == 0 {
						t.Errorf("trail step %v is at %q, not at a line of %s", step["step"], pos, ex.name)
					}
					if th, _ := step["thread"].(string); !javaThreadName.MatchString(th) {
						t.Errorf("trail step %v is taken by thread %q, not main or Thread-N as Java names threads", step["step"], th)
					}
				}
				rargs := append(append([]string{"replay"}, r.flags...), class, trail)
				status, out, errs := runMain(rargs...)
				// the replay ends with the violation's line; a deadlock's is
				// followed by its threads
				want := "fail: " + kind + ": " + v["message"].(string) + "\n"
				if status != ExitViolation || !strings.HasSuffix(out, want) && !(kind == "deadlock" && strings.Contains(out, want)) {
					t.Errorf("birch %v: exit %d, want 1 and an output that ends in %q:\n%s%s", rargs, status, want, out, errs)
				}
			})
		}
	}
}

// javaThreadName is a thread's name in a Java program's trail.
var javaThreadName = regexp.MustCompile(`^(main|Thread-\d+)$`)

// javaMessage is what the violation of kind at the example's line says in
// Java terms: the uncaught exception, or the failed assert with the string
// constant of its message; "" when the line does not tell.
func (ex javaExample) javaMessage(kind string, line int) string {
	switch kind {
	case "null":
		return "uncaught java.lang.NullPointerException"
	case "assert":
		if m := regexp.MustCompile(`\bassert\b[^:]*: "([^"\\]*)";`).FindStringSubmatch(ex.lines[line-1]); m != nil {
			return "assert failed: " + m[1]
		}
	}
	return ""
}

// checkDeadlock checks a deadlock's report: at least two threads wait, and
// each thread that has not terminated waits at a line marked `// blocks
// here`.
func (ex javaExample) checkDeadlock(t *testing.T, v map[string]any) {
	t.Helper()
	threads, _ := v["threads"].([]any)
	waiting := 0
	for _, th := range threads {
		th, _ := th.(map[string]any)
		if th["terminated"] == true {
			continue
		}
		waiting++
		waits, _ := th["waits"].([]any)
		if len(waits) == 0 {
			t.Errorf("thread %v neither terminated nor waits: %v", th["thread"], th)
		}
		for _, w := range waits {
			w, _ := w.(string)
			if !ex.blocks[ex.javaLineOf(w)] {
				t.Errorf("thread %v waits at %q, not at a line of %s marked `// blocks here`", th["thread"], w, ex.name)
			}
		}
	}
	if waiting < 2 {
		t.Errorf("a deadlock of %d waiting threads: %v", waiting, threads)
	}
}
