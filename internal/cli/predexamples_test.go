package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const predicateExamples = examplesDir + "/predicates"

// predExample is an example of examples/predicates: MODEL.bir, its
// predicate file MODEL.pred, its `// expect: pass` or `// expect: fail
// KIND` line (the verdict of birch check --predicates MODEL.pred), and the
// `// bounded: LO .. HI` line that says with which small inputs the
// concrete model shows the same verdict to the explicit engine.
type predExample struct {
	name, model, preds string
	verdict, kind      string
	bounded            string // "LO .. HI", or "" for a model without unbounded choices
	src                string
}

var (
	predExpectLine  = regexp.MustCompile(`(?m)^// expect: (pass|fail)(?: (\S+))?\s*$`)
	predBoundedLine = regexp.MustCompile(`(?m)^// bounded: (-?\d+ \.\. -?\d+)\s*$`)
)

func predicateExamplesOf(t *testing.T) []predExample {
	t.Helper()
	files, err := filepath.Glob(predicateExamples + "/*.bir")
	if err != nil || len(files) < 5 {
		t.Fatalf("want at least the five examples of examples/predicates, found %d (%v)", len(files), err)
	}
	var out []predExample
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		ex := predExample{name: strings.TrimSuffix(filepath.Base(f), ".bir"), model: f, preds: strings.TrimSuffix(f, ".bir") + ".pred", src: src}
		m := predExpectLine.FindStringSubmatch(src)
		if m == nil {
			t.Fatalf("%s has no // expect: pass or // expect: fail KIND line", f)
		}
		ex.verdict, ex.kind = m[1], m[2]
		if ex.verdict == "fail" {
			if _, ok := expectKinds[ex.kind]; !ok {
				t.Fatalf("%s: unknown expected kind %q", f, ex.kind)
			}
		}
		if m := predBoundedLine.FindStringSubmatch(src); m != nil {
			ex.bounded = m[1]
		} else if strings.Contains(src, "Choose(int)") {
			t.Fatalf("%s chooses among every int but has no // bounded: LO .. HI line", f)
		}
		if !strings.Contains(src, "Why "+ex.name+".pred suffices") {
			t.Errorf("%s does not say why its predicates suffice (a comment \"Why %s.pred suffices: ...\")", f, ex.name)
		}
		if _, err := os.Stat(ex.preds); err != nil {
			t.Fatalf("%s has no predicate file: %v", f, err)
		}
		out = append(out, ex)
	}
	return out
}

var exitOf = map[string]int{"pass": ExitPass, "fail": ExitViolation, "inconclusive": ExitInconclusive}

// TestPredicateExamplesConcrete checks, without predicate abstraction, that
// every example of examples/predicates is well formed with its predicate
// file, and that its concrete model, with every externChoose(int) narrowed
// to the example's `// bounded:` inputs, has the verdict the example
// expects of the predicate abstraction: the models say what they claim.
func TestPredicateExamplesConcrete(t *testing.T) {
	dir := t.TempDir()
	for _, ex := range predicateExamplesOf(t) {
		t.Run(ex.name, func(t *testing.T) {
			if status, out, errs := runMain("vet", "--predicates", ex.preds, ex.model); status != ExitPass {
				t.Fatalf("vet: status %d\n%s%s", status, out, errs)
			}
			model := ex.model
			if ex.bounded != "" {
				model = filepath.Join(dir, ex.name+".bir")
				narrowed := strings.ReplaceAll(ex.src, "Choose(int)", "Choose("+ex.bounded+")")
				if err := os.WriteFile(model, []byte(narrowed), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			status, doc := checkJSON(t, model)
			if doc["verdict"] != ex.verdict || status != exitOf[ex.verdict] {
				t.Fatalf("verdict %v (status %d, reason %v), want %s", doc["verdict"], status, doc["reason"], ex.verdict)
			}
			if ex.verdict == "fail" {
				v, _ := doc["violation"].(map[string]any)
				if v == nil || v["kind"] != expectKinds[ex.kind] {
					t.Errorf("violation %v, want kind %s", v, expectKinds[ex.kind])
				}
			}
		})
	}
}
