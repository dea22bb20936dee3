package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// predicateLines returns the predicate lines of a predicate file (neither
// blank nor a comment).
func predicateLines(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if s := strings.TrimSpace(line); s != "" && !strings.HasPrefix(s, "#") {
			out = append(out, line)
		}
	}
	return out
}

// TestPredicateExamples checks every example of examples/predicates with
// birch check --predicates MODEL.pred MODEL.bir, with the default engine
// of the abstract model and with the explicit one: the verdict and exit
// status of its `// expect:` line; the predicates in the JSON report; a
// pass that rests on the predicate abstraction; a failure confirmed on
// the concrete model, of the expected kind, with its input values, whose
// saved trail birch replay replays to the same violation.
func TestPredicateExamples(t *testing.T) {
	dir := t.TempDir()
	for _, ex := range predicateExamplesOf(t) {
		for _, engine := range []string{"auto", "explicit"} {
			t.Run(ex.name+"/"+engine, func(t *testing.T) {
				checkPredicateExample(t, ex, engine, filepath.Join(dir, ex.name+"-"+engine+".trail"))
			})
		}
	}
}

// checkPredicateExample checks one example with one engine of the
// abstract model (auto: bebop for a model of one thread).
func checkPredicateExample(t *testing.T, ex predExample, engine, trail string) {
	status, doc := checkJSON(t, "--predicates", ex.preds, "--engine", engine, "--trail", trail, ex.model)
	dc := decidingCheckOf(t, doc)
	if doc["verdict"] != ex.verdict || status != exitOf[ex.verdict] {
		t.Fatalf("verdict %v (status %d, reason %v), want %s\nviolation: %v", doc["verdict"], status, doc["reason"], ex.verdict, dc["violation"])
	}
	abstracted := false
	for _, b := range dc["rests_on"].([]any) {
		if b.(map[string]any)["kind"] == "abstracted" {
			abstracted = true
		}
	}
	if !abstracted {
		t.Errorf("rests_on %v: want the predicate abstraction", dc["rests_on"])
	}
	preds, _ := dc["predicates"].(map[string]any)
	if list, _ := preds["predicates"].([]any); len(list) != len(predicateLines(t, ex.preds)) {
		t.Errorf("predicates %v, want the %d of %s", preds["predicates"], len(predicateLines(t, ex.preds)), ex.preds)
	}
	if engine == "explicit" && preds["engine"] != "explicit" {
		t.Errorf("engine %v, want explicit", preds["engine"])
	}
	if ex.verdict == "pass" {
		return
	}
	v, _ := dc["violation"].(map[string]any)
	if v == nil || v["kind"] != expectKinds[ex.kind] || v["confirmation"] != "confirmed" {
		t.Fatalf("violation %v, want a confirmed %s", v, expectKinds[ex.kind])
	}
	inputs, _ := preds["inputs"].([]any)
	if strings.Contains(ex.src, "Choose(int)") && len(inputs) == 0 {
		t.Errorf("a confirmed violation of a model with unbounded inputs gives no input values: %v", preds)
	}
	status, out, errs := runMain("replay", ex.model, trail)
	if status != ExitViolation || !strings.Contains(out, "fail: "+expectKinds[ex.kind]+": "+v["message"].(string)) {
		t.Fatalf("replay: status %d\n%s%s", status, out, errs)
	}
	if ex.name == "payload" {
		if !regexp.MustCompile(`Receiver\[1\]\.len = (149[3-9]|1500)\n`).MatchString(out) {
			t.Errorf("the replayed trail should receive a length in 1493..1500:\n%s", out)
		}
		if len(inputs) != 1 || inputs[0].(map[string]any)["value"].(float64) < 1493 || inputs[0].(map[string]any)["value"].(float64) > 1500 {
			t.Errorf("inputs %v, want one length in 1493..1500", inputs)
		}
	}
}

// TestPredicateExamplesNeedEveryPredicate backs the examples' comments
// "Why NAME.pred suffices": each predicate of an example that passes is
// needed; without any one of them the check does not pass.
func TestPredicateExamplesNeedEveryPredicate(t *testing.T) {
	dir := t.TempDir()
	for _, ex := range predicateExamplesOf(t) {
		if ex.verdict != "pass" {
			continue
		}
		lines := predicateLines(t, ex.preds)
		for i := range lines {
			fewer := filepath.Join(dir, ex.name+".pred")
			rest := append(append([]string(nil), lines[:i]...), lines[i+1:]...)
			if err := os.WriteFile(fewer, []byte(strings.Join(rest, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			status, out, errs := runMain("check", "--predicates", fewer, ex.model)
			if status == ExitPass || status == ExitBadInput {
				t.Errorf("%s without %q: status %d, want no pass\n%s%s", ex.name, strings.TrimSpace(lines[i]), status, out, errs)
			}
		}
	}
}
