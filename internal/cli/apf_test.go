package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const apfExamples = examplesDir + "/apf"

// apfExample is a model of examples/apf with the checks its comments
// expect: `// expect: VERDICT [KIND]` for birch check --on-the-fly
// --predicates MODEL.pred, `// expect with FLAGS: VERDICT [KIND]` for
// birch check FLAGS (a FILE.pred is the example's); a model with unbounded
// inputs has a `// bounded: LO .. HI` line, the inputs with which the
// explicit search of the model must not contradict the verdicts.
type apfExample struct {
	name, path, preds, src string
	runs                   []cRun
}

func apfExamplesOf(t *testing.T) []apfExample {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(apfExamples, "*.bir"))
	if err != nil || len(files) < 5 {
		t.Fatalf("want the models of examples/apf, found %d (%v)", len(files), err)
	}
	var out []apfExample
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ex := apfExample{name: strings.TrimSuffix(filepath.Base(f), ".bir"), path: f, preds: strings.TrimSuffix(f, ".bir") + ".pred", src: string(b)}
		for _, m := range cExpectLine.FindAllStringSubmatch(ex.src, -1) {
			r := cRun{verdict: m[2], kind: m[3]}
			if m[1] == "" {
				r.flags = []string{"--on-the-fly", "--predicates", ex.preds}
			}
			for _, a := range strings.Fields(m[1]) {
				if strings.HasSuffix(a, ".pred") {
					a = filepath.Join(apfExamples, a)
				}
				r.flags = append(r.flags, a)
			}
			if r.verdict == "fail" {
				if _, ok := expectKinds[r.kind]; !ok {
					t.Fatalf("%s: unknown expected kind %q", f, r.kind)
				}
			}
			ex.runs = append(ex.runs, r)
		}
		if len(ex.runs) == 0 || ex.runs[0].flags[0] != "--on-the-fly" {
			t.Errorf("%s: no `// expect: VERDICT` line (the check with --on-the-fly) first", f)
		}
		out = append(out, ex)
	}
	return out
}

// TestOnTheFlyExamples checks every model of examples/apf with each check
// its comments give: the verdict and exit status; for --on-the-fly the
// "apf" object with the file's predicates, a pass that rests on the
// abstraction, a failure confirmed, of the expected kind, whose saved trail
// birch replay replays to the same violation, an inconclusive check whose
// violation is not confirmed and names the step where it parts ways with
// the model; and a verdict that never contradicts the explicit search of a
// model (its unbounded inputs narrowed to the example's `// bounded:`
// range).
func TestOnTheFlyExamples(t *testing.T) {
	dir := t.TempDir()
	for _, ex := range apfExamplesOf(t) {
		t.Run(ex.name, func(t *testing.T) {
			// the explicit search of the model, its unbounded inputs
			// narrowed to the example's `// bounded: LO .. HI` (deadlocks
			// are not checked on the fly)
			model := ex.path
			if strings.Contains(ex.src, "Choose(int)") {
				m := predBoundedLine.FindStringSubmatch(ex.src)
				if m == nil {
					t.Fatalf("%s chooses among every int but has no // bounded: LO .. HI line", ex.path)
				}
				model = filepath.Join(dir, ex.name+".bir")
				if err := os.WriteFile(model, []byte(strings.ReplaceAll(ex.src, "Choose(int)", "Choose("+m[1]+")")), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, doc := checkJSON(t, "--no-deadlock", model)
			plain := doc["verdict"].(string)
			for i, r := range ex.runs {
				what := strings.Join(r.flags, " ")
				trail := filepath.Join(dir, ex.name+strconv.Itoa(i)+".trail")
				status, doc := checkJSON(t, append(append([]string{"--trail", trail, "--time-limit", "60s"}, r.flags...), ex.path)...)
				dc := decidingCheckOf(t, doc)
				if doc["verdict"] != r.verdict || status != exitOf[r.verdict] {
					t.Errorf("%s: %v (exit %d), want %s; reason: %v", what, doc["verdict"], status, r.verdict, dc["reason"])
					continue
				}
				if doc["verdict"] != "inconclusive" && doc["verdict"] != plain {
					t.Errorf("%s: %v, but the explicit search's verdict is %s", what, doc["verdict"], plain)
				}
				if r.flags[0] != "--on-the-fly" {
					continue
				}
				checkOnTheFlyDoc(t, what, ex, r, dc, trail)
			}
		})
	}
}

// checkOnTheFlyDoc checks the document dc of the check of example ex with
// --on-the-fly (trail: where it saved its trail).
func checkOnTheFlyDoc(t *testing.T, what string, ex apfExample, r cRun, dc map[string]any, trail string) {
	t.Helper()
	a, _ := dc["apf"].(map[string]any)
	if a == nil {
		t.Fatalf("%s: no apf object in %v", what, dc)
	}
	if ps, _ := a["predicates"].([]any); len(ps) != len(predicateLines(t, ex.preds)) {
		t.Errorf("%s: predicates %v, want the %d of %s", what, a["predicates"], len(predicateLines(t, ex.preds)), ex.preds)
	}
	var kinds []string
	for _, b := range dc["rests_on"].([]any) {
		kinds = append(kinds, b.(map[string]any)["kind"].(string))
	}
	v, _ := dc["violation"].(map[string]any)
	abs, _ := dc["abstraction"].(map[string]any)
	switch r.verdict {
	case "pass":
		if !slices.Equal(kinds, []string{"abstracted"}) || dc["complete"] != true {
			t.Errorf("%s: a pass resting on %v, complete %v", what, kinds, dc["complete"])
		}
	case "fail":
		if v == nil || v["kind"] != expectKinds[r.kind] || v["confirmation"] != "confirmed" {
			t.Fatalf("%s: violation %v, want a confirmed %s", what, v, expectKinds[r.kind])
		}
		status, out, errs := runMain("replay", ex.path, trail)
		if status != ExitViolation || !strings.Contains(out, v["message"].(string)) {
			t.Errorf("%s: birch replay: status %d, want 1 and %q\n%s%s", what, status, v["message"], out, errs)
		}
	case "inconclusive":
		if abs == nil || abs["confirmation"] != "not confirmed" || abs["diverges"] == nil {
			t.Fatalf("%s: inconclusive with abstraction %v, want a violation not confirmed and where it parts ways", what, abs)
		}
		if d := abs["diverges"].(map[string]any); d["reason"] == "" {
			t.Errorf("%s: diverges %v without a reason", what, d)
		}
		// the abstract trail names the predicates, not their hidden
		// variables, and says unknown, false or true
		worded := false
		for _, st := range abs["abstract_trail"].([]any) {
			for name, val := range st.(map[string]any)["changes"].(map[string]any) {
				if strings.Contains(name, "pred'") {
					t.Errorf("%s: the abstract trail shows a hidden variable: %s = %v", what, name, val)
				}
				if strings.HasSuffix(name, "]") && slices.Contains([]any{"unknown", "false", "true"}, val) {
					worded = true
				}
			}
		}
		if !worded {
			t.Errorf("%s: no predicate in the abstract trail %v", what, abs["abstract_trail"])
		}
	}
}

// TestOnTheFlyAgreesWithC2bp: every example of examples/predicates gets
// the verdict of check --predicates (C2bp, which TestPredicateExamples
// checks) with --on-the-fly, a failure confirmed, of the same kind.
func TestOnTheFlyAgreesWithC2bp(t *testing.T) {
	for _, ex := range predicateExamplesOf(t) {
		t.Run(ex.name, func(t *testing.T) {
			status, doc := checkJSON(t, "--on-the-fly", "--predicates", ex.preds, "--time-limit", "60s", ex.model)
			dc := decidingCheckOf(t, doc)
			if doc["verdict"] != ex.verdict || status != exitOf[ex.verdict] || dc["apf"] == nil {
				t.Fatalf("verdict %v (status %d, reason %v), want %s as check --predicates", doc["verdict"], status, dc["reason"], ex.verdict)
			}
			if v, _ := dc["violation"].(map[string]any); ex.verdict == "fail" && (v == nil || v["kind"] != expectKinds[ex.kind] || v["confirmation"] != "confirmed") {
				t.Errorf("violation %v, want a confirmed %s", v, expectKinds[ex.kind])
			}
		})
	}
}

// TestOnTheFlyText: the text report names the abstraction, its predicates
// and the runtime's work.
func TestOnTheFlyText(t *testing.T) {
	status, out, errs := runMain("check", "--on-the-fly", "--predicates", apfExamples+"/figure3.pred", apfExamples+"/figure3.bir")
	for _, want := range []string{
		"pass: no violation: every reachable state of the instrumented model was explored; proven with on-the-fly predicate abstraction (2 predicates of ",
		"on-the-fly predicate abstraction: 2 predicates of ",
		"  [thread Main] a < 0\n",
		"  runtime: ",
		"rests on: abstracted (on-the-fly predicate abstraction (2 predicates of ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the report (status %d):\n%s%s", want, status, out, errs)
		}
	}
}

// TestOnTheFlyUsage: --on-the-fly needs --predicates, and the options of
// the other techniques do not apply to it: exit status 2, one line.
func TestOnTheFlyUsage(t *testing.T) {
	model, preds := apfExamples+"/figure3.bir", apfExamples+"/figure3.pred"
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--on-the-fly", model}, "birch check: --on-the-fly needs --predicates FILE"},
		{[]string{"--on-the-fly", "--predicates", preds, "--cegar", model}, "birch check: --cegar does not apply to --on-the-fly"},
		{[]string{"--on-the-fly", "--predicates", preds, "--abstract", "a=signs", model}, "birch check: --abstract does not apply to --on-the-fly"},
		{[]string{"--on-the-fly", "--predicates", preds, "--abstractions", "x", model}, "birch check: --abstractions does not apply to --on-the-fly"},
		{[]string{"--on-the-fly", "--predicates", preds, "--amcs", model}, "birch check: --amcs does not apply to --on-the-fly"},
		{[]string{"--on-the-fly", "--predicates", preds, "--engine", "bebop", model}, "birch check: --engine does not apply to --on-the-fly"},
	} {
		status, out, errs := runMain(append([]string{"check"}, tc.args...)...)
		if status != ExitBadInput || out != "" || !strings.HasPrefix(errs, tc.msg) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want 2 and %q", tc.args, status, out, errs, tc.msg)
		}
	}
}

// TestOnTheFlyMemoryLimit: --max-memory holds for the whole process during
// the search on the fly (the runtime's terms and query cache are not in
// the search's count of its states): busy.bir's states take 2.5 MiB, and
// the check passed under --max-memory 8M while the process held more.
func TestOnTheFlyMemoryLimit(t *testing.T) {
	status, doc := checkJSON(t, "--on-the-fly", "--predicates", "../../bench/apf/models/busy.pred", "--max-memory", "8M", "../../bench/apf/models/busy.bir")
	if status != ExitInconclusive || !strings.HasPrefix(fmt.Sprint(doc["reason"]), "memory limit reached (--max-memory=8.0 MiB)") {
		t.Errorf("status %d, reason %v; want the memory limit", status, doc["reason"])
	}
}

// TestOnTheFlyReportShowsNoAbstractedData: the on-the-fly report says
// which models were searched and replayed (the instrumented model, the
// model as written), and its abstract trail, text and JSON, shows the
// predicates but not the abstracted data, whose slots keep their initial
// values (it printed `Rs[0].v = 0` and `W[2].k = 0`).
func TestOnTheFlyReportShowsNoAbstractedData(t *testing.T) {
	dir := t.TempDir()
	model := writeModel(t, dir, "spurious.bir", `system S ()
R = record { v : int; };
Rs : collection [1] of R;
RRef = ref R {Rs};
r : RRef;

thread W (x : RRef)
  k : int;
  loc s:
    when true do { k := x.v - 1; } goto e;
  loc e:
    when true do { assert(k < 7); } goto done;
  loc done:
end W;

main thread Main ()
  loc s:
    when true do { r := new Rs; r.v := 5; start W(r); } goto done;
  loc done:
end Main;
end S;
`)
	preds := writeModel(t, dir, "spurious.pred", "[record R] this.v >= 5\n[thread W] k >= 7\n")
	status, out, errs := runMain("check", "--on-the-fly", "--predicates", preds, model)
	for _, want := range []string{
		"inconclusive: the instrumented model has a violation (assertion) that is not confirmed on the model as written\n",
		"\nfound by the search of the instrumented model\n",
		"  Rs[0] [this.v >= 5] = true\n",
		"  W[2] [k >= 7] = unknown\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the report (status %d):\n%s%s", want, status, out, errs)
		}
	}
	for _, bad := range []string{"Rs[0].v =", "W[2].k =", "abstract model", "concrete model"} {
		if strings.Contains(out, bad) {
			t.Errorf("%q in the report:\n%s", bad, out)
		}
	}
	_, js, _ := runMain("check", "--json", "--on-the-fly", "--predicates", preds, model)
	if !strings.Contains(js, `"abstract_trail"`) || !strings.Contains(js, `"W[2] [k `) || strings.Contains(js, "Rs[0].v") || strings.Contains(js, "W[2].k") {
		t.Errorf("JSON report:\n%s", js)
	}
}

// accountsRace writes examples/apf/accounts.bir without its lock and with
// the withdrawal written acc.balance := acc.balance - amount (a lost
// update makes a balance negative) into dir.
func accountsRace(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(apfExamples + "/accounts.bir")
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	for _, r := range [][2]string{
		{"when lockAvailable(acc.l) do { lock(acc.l); } goto read;", "when true do { } goto read;"},
		{"acc.balance := cur - amount;", "acc.balance := acc.balance - amount;"},
		{" unlock(acc.l);", ""},
	} {
		if !strings.Contains(src, r[0]) {
			t.Fatalf("accounts.bir has no %q", r[0])
		}
		src = strings.Replace(src, r[0], r[1], 1)
	}
	return writeModel(t, dir, "race.bir", src)
}

// TestOnTheFlyRaceConfirmedWithInputs: the lost update of accountsRace,
// found on the fly, is confirmed by the concrete replay with the inputs
// narrowed to small values (the symbolic replay does not handle the
// heap); the report names the inputs, the trail file gives the model only
// those values, and birch replay replays it to the violation.
func TestOnTheFlyRaceConfirmedWithInputs(t *testing.T) {
	dir := t.TempDir()
	model := accountsRace(t, dir)
	preds := writeModel(t, dir, "race.pred", "[record Account] this.balance >= 0\n[thread Teller] cur == acc.balance\n")
	trail := filepath.Join(dir, "race.trail")
	status, out, errs := runMain("check", "--on-the-fly", "--predicates", preds, "--trail", trail, model)
	if status != ExitViolation {
		t.Fatalf("status %d:\n%s%s", status, out, errs)
	}
	for _, want := range []string{
		"fail: assertion: assertion violated: acc.balance >= 0\n",
		"found by the search of the instrumented model; confirmed on the model as written (sampled replay)\n",
		"input values (tried by the sampled replay on the model as written):\n",
		"  step 1: first.balance := externChoose(int) = ",
		": amount := externChoose(int) = ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the report:\n%s", want, out)
		}
	}
	b, err := os.ReadFile(trail)
	if err != nil {
		t.Fatal(err)
	}
	var tf struct {
		ChoiceValues []int64 `json:"choice_values"`
	}
	if err := json.Unmarshal(b, &tf); err != nil || len(tf.ChoiceValues) == 0 || len(tf.ChoiceValues) > 4 {
		t.Errorf("choice_values %v (%v), want the inputs only", tf.ChoiceValues, err)
	}
	status, out, errs = runMain("replay", model, trail)
	if status != ExitViolation || !strings.Contains(out, "fail: assertion: assertion violated: acc.balance >= 0") {
		t.Errorf("replay: status %d:\n%s%s", status, out, errs)
	}
}

// TestOnTheFlyRaceFound: the lost update of accountsRace with the
// example's predicate: the first violations found are a single teller's,
// not confirmed; the check tries the other violations until one is
// confirmed (it was inconclusive with the first). With two tellers on one
// account (fast), and with the three tellers of the example under
// BIRCH_LONG (65 replays, some seconds).
func TestOnTheFlyRaceFound(t *testing.T) {
	dir := t.TempDir()
	model := accountsRace(t, dir)
	b, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	two := strings.Replace(string(b), "start Teller(first); start Teller(first); start Teller(second);", "start Teller(first); start Teller(first);", 1)
	models := []string{writeModel(t, dir, "race2.bir", two)}
	if os.Getenv("BIRCH_LONG") != "" {
		models = append(models, model)
	}
	for _, m := range models {
		status, out, errs := runMain("check", "--on-the-fly", "--predicates", apfExamples+"/accounts.pred", m)
		if status != ExitViolation {
			t.Fatalf("%s: status %d:\n%s%s", m, status, out, errs)
		}
		for _, want := range []string{
			"fail: assertion: assertion violated: acc.balance >= 0\n",
			"found by the search of the instrumented model; confirmed on the model as written (sampled replay)\n",
			"note: found after ",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in the report:\n%s", m, want, out)
			}
		}
	}
}
