package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const cegarExamples = "../../examples/cegar"

// cegarExample is an example of examples/cegar with what its comments
// expect: `// expect: VERDICT [KIND]`, `// rounds: N`, `// flags: ...`.
type cegarExample struct {
	name, model, verdict, kind string
	rounds                     int
	flags                      []string
}

func cegarExamplesOf(t *testing.T) []cegarExample {
	t.Helper()
	files, err := filepath.Glob(cegarExamples + "/*.bir")
	if err != nil || len(files) < 5 {
		t.Fatalf("want the examples of examples/cegar, found %d (%v)", len(files), err)
	}
	line := func(src, key string) string {
		m := regexp.MustCompile(`(?m)^// ` + key + `: (.*)$`).FindStringSubmatch(src)
		if m == nil {
			return ""
		}
		return strings.TrimSpace(m[1])
	}
	var out []cegarExample
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		ex := cegarExample{name: strings.TrimSuffix(filepath.Base(f), ".bir"), model: f}
		exp := strings.Fields(line(src, "expect"))
		n, err := strconv.Atoi(line(src, "rounds"))
		if len(exp) == 0 || err != nil {
			t.Fatalf("%s: want `// expect:` and `// rounds:` lines", f)
		}
		ex.verdict, ex.rounds = exp[0], n
		if len(exp) > 1 {
			ex.kind = exp[1]
		}
		ex.flags = strings.Fields(line(src, "flags"))
		out = append(out, ex)
	}
	return out
}

// TestCegarExamples checks every example of examples/cegar with birch
// check --cegar: its verdict and exit status, its round count, the reason
// of an inconclusive end; a failure confirmed with the input values and a
// trail that birch replay replays; a pass whose saved predicates prove the
// model again with --predicates (no refinement) and with --cegar
// --predicates (one round).
func TestCegarExamples(t *testing.T) {
	dir := t.TempDir()
	for _, ex := range cegarExamplesOf(t) {
		t.Run(ex.name, func(t *testing.T) {
			trail := filepath.Join(dir, ex.name+".trail")
			saved := filepath.Join(dir, ex.name+".pred")
			args := append(append([]string{"--cegar", "--trail", trail, "--save-predicates", saved}, ex.flags...), ex.model)
			status, doc := checkJSON(t, args...)
			dc := decidingCheckOf(t, doc)
			cg, _ := dc["cegar"].(map[string]any)
			if cg == nil {
				t.Fatalf("no cegar object: %v", dc)
			}
			rounds, _ := cg["rounds"].([]any)
			if doc["verdict"] != ex.verdict || status != exitOf[ex.verdict] || len(rounds) != ex.rounds {
				t.Fatalf("%v after %d rounds (status %d, reason %v), want %s after %d", doc["verdict"], len(rounds), status, doc["reason"], ex.verdict, ex.rounds)
			}
			for i, r := range rounds {
				r := r.(map[string]any)
				if int(r["round"].(float64)) != i+1 {
					t.Errorf("round %d is numbered %v", i+1, r["round"])
				}
				if want := "spurious"; i < len(rounds)-1 && r["outcome"] != want {
					t.Errorf("round %d: outcome %v, want %s", i+1, r["outcome"], want)
				}
			}
			if last := rounds[len(rounds)-1].(map[string]any); last["outcome"] != ex.verdict {
				t.Errorf("the last round's outcome is %v, want %s", last["outcome"], ex.verdict)
			}
			switch ex.verdict {
			case "inconclusive":
				if stop, _ := cg["stop"].(string); stop == "" || !strings.Contains(doc["reason"].(string), stop) {
					t.Errorf("stop %q, reason %v: want the reason the loop stopped", cg["stop"], doc["reason"])
				}
			case "fail":
				v, _ := dc["violation"].(map[string]any)
				if v == nil || v["kind"] != expectKinds[ex.kind] || v["confirmation"] != "confirmed" {
					t.Fatalf("violation %v, want a confirmed %s", v, expectKinds[ex.kind])
				}
				preds, _ := dc["predicates"].(map[string]any)
				if inputs, _ := preds["inputs"].([]any); len(inputs) == 0 {
					t.Errorf("no input values: %v", preds)
				}
				status, out, errs := runMain("replay", ex.model, trail)
				if status != ExitViolation || !strings.Contains(out, "fail: "+expectKinds[ex.kind]+": "+v["message"].(string)) {
					t.Fatalf("replay: status %d\n%s%s", status, out, errs)
				}
			case "pass":
				if list, _ := cg["predicates"].([]any); len(list) != len(predicateLines(t, saved)) {
					t.Errorf("predicates %v, but %s holds %d", list, saved, len(predicateLines(t, saved)))
				}
				status, out, errs := runMain("check", "--predicates", saved, ex.model)
				if status != ExitPass {
					t.Fatalf("check --predicates %s: status %d\n%s%s", saved, status, out, errs)
				}
				status, doc := checkJSON(t, "--cegar", "--predicates", saved, ex.model)
				rounds, _ := decidingCheckOf(t, doc)["cegar"].(map[string]any)["rounds"].([]any)
				if status != ExitPass || len(rounds) != 1 {
					t.Fatalf("check --cegar --predicates %s: status %d after %d rounds, want a pass in 1", saved, status, len(rounds))
				}
			}
		})
	}
}

// The text report of a pass prints the rounds and the predicates of the
// proof in the predicate-file format; --progress prints one line per
// round on stderr.
func TestCegarReport(t *testing.T) {
	status, out, errs := runMain("check", "--cegar", "--progress", cegarExamples+"/bound.bir")
	if status != ExitPass {
		t.Fatalf("status %d\n%s%s", status, out, errs)
	}
	for _, want := range []string{"refinement: 2 rounds\n", "predicates of the proof (4):\n", "  [thread Main] i >= 0  # interpolation, after step "} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	lines := regexp.MustCompile(`(?m)^refinement: round (\d+): \d+ predicates?, .*solver queries.*s: (\w+)`).FindAllStringSubmatch(errs, -1)
	if len(lines) != 2 || lines[0][1] != "1" || lines[0][2] != "spurious" || lines[1][1] != "2" || lines[1][2] != "pass" {
		t.Errorf("progress lines %q, want round 1 spurious and round 2 pass:\n%s", lines, errs)
	}
	if !strings.Contains(errs, "1 new predicate: [thread Main] i >= 0") {
		t.Errorf("round 1 does not name its new predicate:\n%s", errs)
	}
}

// --max-refinements 0 abstracts once: a model that needs a refinement
// ends inconclusive at the limit; the refinement's flags need --cegar.
func TestCegarFlags(t *testing.T) {
	status, doc := checkJSON(t, "--cegar", "--max-refinements", "0", cegarExamples+"/bound.bir")
	dc := decidingCheckOf(t, doc)
	if status != ExitInconclusive || !strings.Contains(doc["reason"].(string), "the refinement limit (--max-refinements 0)") {
		t.Errorf("status %d, reason %v", status, doc["reason"])
	}
	if rounds := dc["cegar"].(map[string]any)["rounds"].([]any); len(rounds) != 1 {
		t.Errorf("%d rounds, want 1", len(rounds))
	}
	for _, args := range [][]string{
		{"--max-refinements", "3"},
		{"--save-predicates", filepath.Join(t.TempDir(), "p.pred")},
		{"--cegar", "--max-refinements", "-1"},
	} {
		status, out, errs := runMain(append(append([]string{"check"}, args...), cegarExamples+"/bound.bir")...)
		if status != ExitBadInput || !strings.Contains(errs, "birch check: ") {
			t.Errorf("%v: status %d, want 2\n%s%s", args, status, out, errs)
		}
	}
}

// The other stops: a model with a violation whose invisible run the
// abstract trail takes step by step is confirmed (by the predicate check's
// replay, which joins the run's steps as the model takes them; before,
// only by replaying the path formula's values), and the trail replays; predicates over a thread started several times
// are left out, so the loop goes on without them; the time limit ends the
// loop; a path formula the solver does not decide goes to the
// confirmation, which confirms divzero.bir's division by zero.
func TestCegarStops(t *testing.T) {
	trail := filepath.Join(t.TempDir(), "index.trail")
	status, out, errs := runMain("check", "--cegar", "--trail", trail, "testdata/cegar/invisible-index.bir")
	if status != ExitViolation || !strings.Contains(out, "confirmed on the concrete model") {
		t.Fatalf("invisible-index.bir: status %d\n%s%s", status, out, errs)
	}
	if status, out, errs := runMain("replay", "testdata/cegar/invisible-index.bir", trail); status != ExitViolation || !strings.Contains(out, "fail: index-out-of-bounds") {
		t.Fatalf("replay: status %d\n%s%s", status, out, errs)
	}
	// the solver does not decide divzero.bir's path formula (a division
	// by an input), and the replay confirms it
	if status, out, errs := runMain("check", "--cegar", "../../examples/divzero.bir"); status != ExitViolation || !strings.Contains(out, "fail: division-by-zero") {
		t.Errorf("divzero.bir: status %d\n%s%s", status, out, errs)
	}
	if status, out, errs := runMain("check", "--cegar", "../../examples/philosophers-ordered.bir"); status != ExitPass {
		t.Errorf("philosophers-ordered.bir (Phil started three times): status %d\n%s%s", status, out, errs)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--time-limit", "300ms", cegarExamples + "/parity.bir"}, "time limit reached (--time-limit=300ms)"},
	} {
		status, doc := checkJSON(t, append([]string{"--cegar"}, tc.args...)...)
		if status != ExitInconclusive || !strings.Contains(doc["reason"].(string), tc.want) {
			t.Errorf("%v: status %d, reason %v, want %q", tc.args, status, doc["reason"], tc.want)
		}
	}
}
