package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// amcsModel is a model whose violation abstract matching finds only after
// refining its predicates: Main counts i up and fails at 6.
const amcsModel = `system CountAMCS ()

main thread Main ()
  i : int;
  loc loop:
    when i < 6 do { i := i + 1; } goto loop;
    when i >= 6 do { assert(i != 6); } goto done;
  loc done:
end Main;

end CountAMCS;
`

// writeModel writes src to a file of dir and returns its path.
func writeModel(t *testing.T, dir, name, src string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// notBuilt reports whether the check of doc did not run because this
// birch lacks the variant or the initial predicates of the command (the
// variants with weakest preconditions, and expression predicates, come
// with a part of issue 21 of their own): the check is then inconclusive
// and says so.
func notBuilt(t *testing.T, doc map[string]any) bool {
	t.Helper()
	reason, _ := doc["reason"].(string)
	if doc["verdict"] == "inconclusive" && regexp.MustCompile(`not checked: .* (is|are) not (built|supported) in this birch`).MatchString(reason) {
		t.Logf("%s", reason)
		return true
	}
	return false
}

// TestAMCSFlags: bare --amcs is the variant amcs; --amcs=NAME picks a
// variant; an unknown variant, --amcs with a flag of another technique or
// of the explicit search's order, --amcs-rounds without --amcs or
// negative, are usage errors (exit 2) that say which flag.
func TestAMCSFlags(t *testing.T) {
	model := examplesDir + "/peterson-broken.bir"
	for _, tc := range []struct {
		args    []string
		variant string
	}{
		{[]string{"--amcs"}, "amcs"},
		{[]string{"--amcs=minonly"}, "minonly"},
		{[]string{"--amcs=maxoverlap", "--amcs-rounds", "50"}, "maxoverlap"},
		{[]string{"--amcs=true"}, "amcs"},
	} {
		status, doc := checkJSON(t, append(tc.args, model)...)
		checkDocument(t, strings.Join(tc.args, " "), doc)
		a, _ := doc["amcs"].(map[string]any)
		if notBuilt(t, doc) && a["variant"] == tc.variant {
			continue
		}
		if status != ExitViolation || a == nil || a["variant"] != tc.variant || doc["search"] != "amcs" {
			t.Errorf("%v: status %d, amcs %v, search %v: want a violation found by the variant %s", tc.args, status, a, doc["search"], tc.variant)
		}
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--amcs=fast"}, `--amcs: invalid value "fast": unknown variant`},
		{[]string{"--amcs", "--cegar"}, "--cegar does not apply to --amcs"},
		{[]string{"--amcs", "--abstract", "turn=signs"}, "--abstract does not apply to --amcs"},
		{[]string{"--amcs", "--search=dfs"}, "--search does not apply to --amcs"},
		{[]string{"--amcs", "--max-depth=3"}, "--max-depth does not apply to --amcs"},
		{[]string{"--amcs", "--choose-free"}, "--choose-free does not apply to --amcs"},
		{[]string{"--amcs", "--engine=bebop"}, "--engine does not apply to --amcs"},
		{[]string{"--amcs-rounds", "3"}, "--amcs-rounds needs --amcs"},
		{[]string{"--amcs", "--amcs-rounds", "-1"}, "bad --amcs-rounds -1"},
	} {
		status, out, errs := runMain(append(append([]string{"check"}, tc.args...), model)...)
		if status != ExitBadInput || out != "" || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want 2 and %q", tc.args, status, out, errs, tc.msg)
		}
	}
	// --amcs=false is no abstract matching
	if status, doc := checkJSON(t, "--amcs=false", model); status != ExitViolation || doc["amcs"] != nil {
		t.Errorf("--amcs=false: status %d, amcs %v", status, doc["amcs"])
	}
	_, out, _ := runMain("help", "check")
	for _, want := range []string{"--amcs[=VARIANT]", "-amcs-rounds", "minonly", "docs/amcs.md"} {
		if !strings.Contains(out, want) {
			t.Errorf("birch help check lacks %q", want)
		}
	}
}

// TestAMCSReport: the text report says the variant, the rounds (one line
// each) and what the verdict rests on; --progress prints one line per
// round on stderr as it ends; the JSON document has the same rounds.
func TestAMCSReport(t *testing.T) {
	model := writeModel(t, t.TempDir(), "count.bir", amcsModel)
	status, out, errs := runMain("check", "--amcs=minonly", "--progress", model)
	if status != ExitViolation {
		t.Fatalf("status %d\n%s%s", status, out, errs)
	}
	progress := regexp.MustCompile(`(?m)^amcs: round (\d+): \d+ predicates?, \d+ abstract states, \d+ concrete states generated, \d+ eligible, \d+\.\d{3} s`).FindAllStringSubmatch(errs, -1)
	if len(progress) < 2 {
		t.Fatalf("want a progress line per round (at least 2: the first round without predicates cannot reach i = 6):\n%s", errs)
	}
	for i, m := range progress {
		if m[1] != strconv.Itoa(i+1) {
			t.Errorf("progress line %d is of round %s", i+1, m[1])
		}
	}
	head := regexp.MustCompile(`(?m)^abstract matching \(--amcs=minonly\): (\d+) rounds?, \d+ predicates?, \d+ abstract states$`).FindStringSubmatch(out)
	if head == nil || head[1] != strconv.Itoa(len(progress)) {
		t.Errorf("the report does not say the %d rounds:\n%s", len(progress), out)
	}
	if n := len(regexp.MustCompile(`(?m)^  round \d+: `).FindAllString(out, -1)); n != len(progress) {
		t.Errorf("the report prints %d rounds, the progress %d:\n%s", n, len(progress), out)
	}
	for _, want := range []string{"fail: assertion: assertion violated: i != 6\n", "rests on: under-approximated (abstract matching: ",
		"the trail is confirmed", "final predicates ("} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	status, doc := checkJSON(t, "--amcs=minonly", model)
	checkDocument(t, "--amcs=minonly", doc)
	a := doc["amcs"].(map[string]any)
	wantKeys(t, "amcs", a, "variant", "exact", "rounds", "predicates", "abstract_states")
	rounds, _ := a["rounds"].([]any)
	if status != ExitViolation || len(rounds) != len(progress) || a["exact"] != false {
		t.Errorf("JSON: status %d, %d rounds, exact %v; want 1, %d rounds, not exact", status, len(rounds), a["exact"], len(progress))
	}
	for i, r := range rounds {
		wantKeys(t, "amcs round", r, "round", "predicates", "abstract_states", "generated", "transitions", "eligible",
			"solver_queries", "exact", "added", "seconds")
		if r.(map[string]any)["round"] != float64(i+1) {
			t.Errorf("round %d is numbered %v", i+1, r.(map[string]any)["round"])
		}
	}
	if last := rounds[len(rounds)-1].(map[string]any); last["predicates"] != float64(len(a["predicates"].([]any))) {
		t.Errorf("the last round has %v predicates, the final predicates are %v", last["predicates"], a["predicates"])
	}
}

// TestAMCSPass: a model without a violation passes only when the last
// round is exact, resting on a complete concrete search of as many states
// as the explicit search stores; with too few rounds it is inconclusive,
// under-approximated, and says why.
func TestAMCSPass(t *testing.T) {
	model := examplesDir + "/peterson.bir"
	_, plain := checkJSON(t, "--property", "mutex", model)
	status, doc := checkJSON(t, "--amcs=minonly", "--property", "mutex", model)
	checkDocument(t, "pass", doc)
	a := doc["amcs"].(map[string]any)
	ro := doc["rests_on"].([]any)
	if status != ExitPass || a["exact"] != true || doc["complete"] != true || ro[0].(map[string]any)["what"] != "a complete concrete search: the final abstraction was one-to-one" {
		t.Fatalf("status %d, exact %v, rests on %v: want a pass on an exact search", status, a["exact"], ro)
	}
	if got, want := doc["stats"].(map[string]any)["states"], plain["stats"].(map[string]any)["states"]; got != want || a["abstract_states"] != want {
		t.Errorf("an exact search of %v states (%v abstract states); the explicit search stores %v", got, a["abstract_states"], want)
	}
	status, doc = checkJSON(t, "--amcs=minonly", "--amcs-rounds", "1", "--property", "mutex", model)
	a = doc["amcs"].(map[string]any)
	ro = doc["rests_on"].([]any)
	if rounds := a["rounds"].([]any); status != ExitInconclusive || len(rounds) != 1 || a["exact"] != false || a["not_exact"] == "" || doc["complete"] != false ||
		ro[0].(map[string]any)["kind"] != "under-approximated" {
		t.Errorf("--amcs-rounds 1: status %d, %d rounds, exact %v (%v), rests on %v: want inconclusive, under-approximated, after 1 round",
			status, len(rounds), a["exact"], a["not_exact"], ro)
	}
}

// TestAMCSTrailReplays: the trail of every variant's violation, saved
// with --trail, replays with birch replay to the same violation.
func TestAMCSTrailReplays(t *testing.T) {
	dir := t.TempDir()
	count := writeModel(t, dir, "count.bir", amcsModel)
	for _, variant := range amcsVariants {
		for _, model := range []string{count, examplesDir + "/philosophers-deadlock.bir"} {
			trail := filepath.Join(dir, variant+".trail")
			status, doc := checkJSON(t, "--amcs="+variant, "--amcs-rounds", "30", "--time-limit", "20s", "--trail", trail, model)
			if status == ExitPass {
				t.Errorf("--amcs=%s %s: pass on a model with a violation", variant, model)
			}
			if status != ExitViolation {
				continue // a variant with weakest preconditions that did not get there: not a claim
			}
			msg := doc["violation"].(map[string]any)["message"].(string)
			status, out, errs := runMain("replay", model, trail)
			if status != ExitViolation || !strings.Contains(out, msg) {
				t.Errorf("--amcs=%s %s: birch replay: status %d, want 1 and %q\n%s%s", variant, model, status, msg, out, errs)
			}
		}
	}
}

// TestAMCSPredicatesFile: --predicates FILE with --amcs gives the first
// round its predicates (not predicate abstraction); a bad file is a
// positioned error (exit 2).
func TestAMCSPredicatesFile(t *testing.T) {
	dir := t.TempDir()
	model := writeModel(t, dir, "count.bir", amcsModel)
	preds := writeModel(t, dir, "count.pred", "[thread Main] i > 2\n[thread Main] i > 4\n")
	bad := writeModel(t, dir, "bad.pred", "[thread Main] i > 2\n[thread Main] j > 4\n")
	status, out, errs := runMain("check", "--amcs", "--predicates", bad, model)
	if status != ExitBadInput || !strings.Contains(errs, "bad.pred:2:") {
		t.Errorf("a bad predicate file: status %d, want 2 and a position in bad.pred:2\n%s%s", status, out, errs)
	}
	status, doc := checkJSON(t, "--amcs=minonly", "--predicates", preds, model)
	if notBuilt(t, doc) {
		t.Skip("expression predicates are not built yet")
	}
	a, _ := doc["amcs"].(map[string]any)
	if status != ExitViolation || a == nil || doc["predicates"] != nil {
		t.Fatalf("status %d, amcs %v, predicates %v: want a violation by abstract matching", status, a, doc["predicates"])
	}
	if first := a["rounds"].([]any)[0].(map[string]any); first["predicates"] != float64(2) {
		t.Errorf("the first round has %v predicates, want the file's 2", first["predicates"])
	}
}

const amcsExamples = examplesDir + "/amcs"

// amcsExample is a model of examples/amcs with the checks its comments
// expect: `// expect: VERDICT [KIND]` for birch check --amcs, `// expect
// with FLAGS: VERDICT [KIND]` for birch check FLAGS (FLAGS name the
// variant: --amcs=minonly, say; a FILE.pred is the example's), and
// `// states with FLAGS: S, transitions: T` for the counts of an exact
// last round (those of the explicit search).
type amcsExample struct {
	name, path string
	runs       []cRun
}

func amcsExamplesOf(t *testing.T) []amcsExample {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(amcsExamples, "*.bir"))
	if err != nil || len(files) < 3 {
		t.Fatalf("want the models of examples/amcs, found %d (%v)", len(files), err)
	}
	var out []amcsExample
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		ex := amcsExample{name: strings.TrimSuffix(filepath.Base(f), ".bir"), path: f}
		flagsOf := func(s string) []string {
			fl := strings.Fields(s)
			if len(fl) == 0 {
				return []string{"--amcs"}
			}
			for i, a := range fl {
				if strings.HasSuffix(a, ".pred") {
					fl[i] = filepath.Join(amcsExamples, a)
				}
			}
			return fl
		}
		for _, m := range cExpectLine.FindAllStringSubmatch(src, -1) {
			r := cRun{flags: flagsOf(m[1]), verdict: m[2], kind: m[3], states: -1, transitions: -1}
			if !slices.ContainsFunc(r.flags, func(f string) bool { return f == "--amcs" || strings.HasPrefix(f, "--amcs=") }) {
				t.Errorf("%s: %q checks without --amcs", f, m[0])
			}
			ex.runs = append(ex.runs, r)
		}
		for _, m := range cStatesLine.FindAllStringSubmatch(src, -1) {
			found := false
			for i := range ex.runs {
				if slices.Equal(ex.runs[i].flags, flagsOf(m[1])) {
					ex.runs[i].states, _ = strconv.Atoi(m[2])
					ex.runs[i].transitions, _ = strconv.Atoi(m[3])
					found = true
				}
			}
			if !found {
				t.Errorf("%s: %q names no run of an `// expect` line", f, m[0])
			}
		}
		if len(ex.runs) == 0 {
			t.Errorf("%s: no `// expect` line", f)
		}
		out = append(out, ex)
	}
	return out
}

// TestAMCSExamples checks every model of examples/amcs with each check its
// comments give: the verdict and exit status, which never contradict the
// explicit search of the model; a failure's kind, confirmed, with a trail
// that birch replay replays to the same violation; a pass that is exact,
// complete, with the states of the explicit search (and those the comment
// gives); an inconclusive check that is under-approximated and says why.
func TestAMCSExamples(t *testing.T) {
	dir := t.TempDir()
	for _, ex := range amcsExamplesOf(t) {
		t.Run(ex.name, func(t *testing.T) {
			_, plain := checkJSON(t, "--search=bfs", ex.path)
			for i, r := range ex.runs {
				what := strings.Join(r.flags, " ")
				trail := filepath.Join(dir, ex.name+strconv.Itoa(i)+".trail")
				args := []string{"--trail", trail}
				if !slices.ContainsFunc(r.flags, func(f string) bool { return strings.HasPrefix(f, "--time-limit") }) {
					// a variant that stops ending fails here, not the package's timeout
					args = append(args, "--time-limit", "60s")
				}
				status, doc := checkJSON(t, append(append(args, r.flags...), ex.path)...)
				dc := decidingCheckOf(t, doc)
				a, _ := dc["amcs"].(map[string]any)
				if doc["verdict"] != r.verdict || status != exitOf[r.verdict] || a == nil {
					t.Errorf("%s: %v (exit %d), want %s; reason: %v", what, doc["verdict"], status, r.verdict, doc["reason"])
					continue
				}
				if doc["verdict"] != "inconclusive" && plain["verdict"] != doc["verdict"] {
					t.Errorf("%s: %v, but the explicit search's verdict is %v", what, doc["verdict"], plain["verdict"])
				}
				st, _ := dc["stats"].(map[string]any)
				if r.states >= 0 && (st["states"] != float64(r.states) || st["transitions"] != float64(r.transitions)) {
					t.Errorf("%s: %v states, %v transitions; the example says %d and %d", what, st["states"], st["transitions"], r.states, r.transitions)
				}
				ro, _ := dc["rests_on"].([]any)
				switch r.verdict {
				case "pass":
					pst, _ := plain["stats"].(map[string]any)
					if a["exact"] != true || len(ro) != 1 || ro[0].(map[string]any)["kind"] != "complete" || st["states"] != pst["states"] {
						t.Errorf("%s: a pass with exact %v, resting on %v, of %v states (the explicit search stores %v)", what, a["exact"], ro, st["states"], pst["states"])
					}
				case "inconclusive":
					if a["exact"] != false || a["not_exact"] == nil || !strings.Contains(fmt.Sprint(ro), "under-approximated") {
						t.Errorf("%s: inconclusive with exact %v (%v), resting on %v", what, a["exact"], a["not_exact"], ro)
					}
				case "fail":
					v, _ := dc["violation"].(map[string]any)
					if v == nil || v["kind"] != expectKinds[r.kind] || v["confirmation"] != "confirmed" {
						t.Fatalf("%s: violation %v, want a confirmed %s", what, v, expectKinds[r.kind])
					}
					status, out, errs := runMain("replay", ex.path, trail)
					if status != ExitViolation || !strings.Contains(out, v["message"].(string)) {
						t.Errorf("%s: birch replay: status %d, want 1 and %q\n%s%s", what, status, v["message"], out, errs)
					}
				}
			}
		})
	}
}

// TestAMCSLimits: --max-states (the abstract states of a round) and
// --time-limit end a check by abstract matching inconclusive, naming the
// limit, never with a pass; the rounds so far are reported.
func TestAMCSLimits(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		reason string
	}{
		{[]string{"--amcs=minonly", "--max-states", "10", "--property", "mutex", examplesDir + "/peterson.bir"}, "state limit reached (--max-states=10)"},
		{[]string{"--amcs=maxoverlap", "--time-limit", "500ms", "../../bench/amcs/models/sumtonbig.bir"}, "time limit reached (--time-limit=500ms)"},
		// No-TP's predicates grow without bound on stack.bir: the memory
		// they and the solver hold counts (before, only the search's
		// states did, and the run grew to gigabytes)
		{[]string{"--amcs=notp", "--max-memory", "80M", "--time-limit", "60s", examplesDir + "/amcs/stack.bir"}, "memory limit reached (--max-memory=80.0 MiB)"},
	} {
		status, doc := checkJSON(t, tc.args...)
		checkDocument(t, strings.Join(tc.args, " "), doc)
		a, _ := doc["amcs"].(map[string]any)
		ro := fmt.Sprint(doc["rests_on"])
		if status != ExitInconclusive || doc["reason"] != tc.reason || a == nil || a["exact"] != false || len(a["rounds"].([]any)) == 0 ||
			!strings.Contains(ro, "bounded") || !strings.Contains(ro, "not exact because a limit stopped the last round: "+tc.reason) {
			t.Errorf("%v: status %d, reason %v, amcs %v, rests on %s; want inconclusive: %s", tc.args, status, doc["reason"], a, ro, tc.reason)
		}
	}
}
