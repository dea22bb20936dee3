package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const abstractionExamples = examplesDir + "/abstraction"

// absExpect is one `// expect: birch check ARGS: VERDICT (DETAIL)` line of
// an example of examples/abstraction, with the `// abstract: N states, M
// transitions` line that may follow it.
type absExpect struct {
	args        []string
	verdict     string
	detail      string
	states      int // -1 when not given
	transitions int
}

var (
	expectLine   = regexp.MustCompile(`^// expect: birch check (.*): (pass|fail|inconclusive) \((.*)\)$`)
	abstractLine = regexp.MustCompile(`^// abstract: (\d+) states, (\d+) transitions$`)
)

// shellWords splits a command line, honouring single and double quotes.
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	var quote rune // the open quote, or 0
	for _, r := range s {
		switch {
		case quote == 0 && (r == '\'' || r == '"'):
			quote = r
			in = true
		case r == quote:
			quote = 0
		case r == ' ' && quote == 0:
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

func readAbsExpects(t *testing.T, path string) []absExpect {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []absExpect
	for _, line := range strings.Split(string(b), "\n") {
		if m := expectLine.FindStringSubmatch(line); m != nil {
			out = append(out, absExpect{args: shellWords(m[1]), verdict: m[2], detail: m[3], states: -1})
			continue
		}
		if m := abstractLine.FindStringSubmatch(line); m != nil && len(out) > 0 {
			out[len(out)-1].states, _ = strconv.Atoi(m[1])
			out[len(out)-1].transitions, _ = strconv.Atoi(m[2])
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no expect line", path)
	}
	return out
}

// TestAbstractionExamples checks the verdict, the confirmation status and
// the exact abstract state counts of every example of examples/abstraction.
func TestAbstractionExamples(t *testing.T) {
	files, err := filepath.Glob(abstractionExamples + "/*.bir")
	if err != nil || len(files) < 5 {
		t.Fatalf("want the five examples of examples/abstraction, found %d (%v)", len(files), err)
	}
	for _, f := range files {
		for _, ex := range readAbsExpects(t, f) {
			t.Run(filepath.Base(f)+" "+strings.Join(ex.args, " "), func(t *testing.T) {
				args := append([]string{"check", "--json", f}, ex.args...)
				status, out, errs := runMain(args...)
				var doc map[string]any
				if err := json.Unmarshal([]byte(out), &doc); err != nil {
					t.Fatalf("not JSON: %v\n%s\n%s", err, out, errs)
				}
				if doc["verdict"] != ex.verdict {
					t.Fatalf("verdict %v (%v), want %s\n%s", doc["verdict"], doc["reason"], ex.verdict, out)
				}
				want := map[string]int{"pass": ExitPass, "fail": ExitViolation, "inconclusive": ExitInconclusive}[ex.verdict]
				if status != want {
					t.Errorf("exit status %d, want %d", status, want)
				}
				abs, _ := doc["abstraction"].(map[string]any)
				withAbs := strings.Contains(strings.Join(ex.args, " "), "--abstract")
				if withAbs != (abs != nil) {
					t.Fatalf("abstraction object %v, want one: %v", abs, withAbs)
				}
				if !withAbs {
					if !strings.Contains(doc["reason"].(string), ex.detail) {
						t.Errorf("reason %q does not mention %q", doc["reason"], ex.detail)
					}
					return
				}
				conf, foundBy := abs["confirmation"], abs["found_by"]
				switch {
				case ex.detail == "proven with abstraction":
					if conf != "" || !strings.Contains(doc["reason"].(string), "proven with abstraction") || doc["complete"] != true {
						t.Errorf("confirmation %q, reason %q, complete %v", conf, doc["reason"], doc["complete"])
					}
				case strings.HasPrefix(ex.detail, "not confirmed"):
					if conf != "not confirmed" || abs["diverges"] == nil || len(doc["trail"].([]any)) != 0 || doc["violation"] != nil {
						t.Errorf("confirmation %q, diverges %v, trail %v, violation %v", conf, abs["diverges"], doc["trail"], doc["violation"])
					}
					if len(abs["abstract_trail"].([]any)) == 0 || abs["abstract_violation"] == nil {
						t.Error("the abstract trail and violation should be reported")
					}
				case strings.HasPrefix(ex.detail, "confirmed"):
					if conf != "confirmed" || doc["violation"] == nil || len(doc["trail"].([]any)) == 0 {
						t.Errorf("confirmation %q, violation %v", conf, doc["violation"])
					}
				default:
					t.Fatalf("unknown detail %q", ex.detail)
				}
				wantBy := "search"
				if strings.Contains(ex.detail, "found by the choose-free search") {
					wantBy = "choose-free"
				}
				if conf != "" && foundBy != wantBy {
					t.Errorf("found by %q, want %q", foundBy, wantBy)
				}
				if ex.states >= 0 {
					st := doc["stats"].(map[string]any)
					if int(st["states"].(float64)) != ex.states || int(st["transitions"].(float64)) != ex.transitions {
						t.Errorf("abstract model: %v states, %v transitions; want %d, %d", st["states"], st["transitions"], ex.states, ex.transitions)
					}
				}
			})
		}
	}
}

// A confirmed trail is saved as a trail of the concrete model, which birch
// replay accepts and replays to the violation.
func TestAbstractConfirmedTrailReplays(t *testing.T) {
	model := abstractionExamples + "/withdraw.bir"
	trail := filepath.Join(t.TempDir(), "withdraw.trail")
	status, out, errs := runMain("check", model, "--abstract", "balance=range(0,2)", "--trail", trail)
	if status != ExitViolation {
		t.Fatalf("status %d\n%s%s", status, out, errs)
	}
	for _, want := range []string{
		"fail: assertion: assertion violated: balance >= 0\n",
		"abstraction: balance=range(0,2)\n",
		"found by the choose-free search of the abstract model (not caused by abstraction); confirmed on the concrete model",
		"trail saved to " + trail,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	status, out, errs = runMain("replay", model, trail)
	if status != ExitViolation || !strings.Contains(out, "fail: assertion: assertion violated: balance >= 0") {
		t.Fatalf("replay: status %d\n%s%s", status, out, errs)
	}
	// the concrete trail's last state has a negative balance
	if !regexp.MustCompile(`balance = -\d`).MatchString(out) {
		t.Errorf("the replayed trail should make the balance negative:\n%s", out)
	}
}

// The text report of a trail that is not confirmed names the step where
// abstract and concrete part ways, and where their values first differ.
func TestAbstractNotConfirmedText(t *testing.T) {
	status, out, errs := runMain("check", abstractionExamples+"/decrement.bir", "--abstract", "Main.x=signs", "--trail", filepath.Join(t.TempDir(), "t"))
	if status != ExitInconclusive {
		t.Fatalf("status %d\n%s%s", status, out, errs)
	}
	for _, want := range []string{
		"inconclusive: the abstract model has a violation (assertion) that is not confirmed on the concrete model\n",
		"abstracted: Main.x signs, Main.y signs, Main.z signs\n",
		"found by the search of the abstract model; the choose-free search finds no violation\n",
		"abstract violation: assertion: assertion violated: y > 0 (false in every concrete state the abstract state stands for) at " + abstractionExamples + "/decrement.bir:30:20\n",
		"abstract trail (4 steps):\n",
		"   3. Main[1]  s2 -> s3  " + abstractionExamples + "/decrement.bir:28:5\n        [when true do { y := x - z; } goto s3]\n        Main[1].y = signs_NEG\n",
		"not confirmed: step 4: Main[1] at s3 (" + abstractionExamples + "/decrement.bir:30:5): the assertion holds on the concrete model\n",
		"values part ways first at step 3 (Main[1] at s2): Main[1].y = 1 (POS), abstract signs_NEG\n",
		"no trail saved: no concrete trail was found\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestAbstractCheckBadInput(t *testing.T) {
	model := abstractionExamples + "/decrement.bir"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--abstract", "Main.x"}, "NAME=ABSTRACTION"},
		{[]string{"--abstract", "Main.nosuch=signs"}, "nosuch"},
		{[]string{"--abstract", "Main.x=nosuch"}, "nosuch"},
		{[]string{"--abstract", "Main.x=signs", "--ltl", "[] nosuch"}, "--ltl:1:4"},
		{[]string{"--abstract", "Main.x=signs", "--ltl", "[] true", "--search", "bfs"}, "depth-first"},
		{[]string{"--abstract", "Main.x=signs", "--ltl", "[] true", "--pattern", "absence(true)"}, "only one of"},
		{[]string{"--abstract", "Main.x=signs", "--solver", "nosuch"}, "not available"},
		{[]string{"--abstract", "Main.x=signs", "--max-replay", "-1"}, "--max-replay"},
		{[]string{"--use", "x.basl"}, "--use needs --abstract"},
		{[]string{"--abstractions", filepath.Join(t.TempDir(), "missing")}, "missing"},
	} {
		status, out, errs := runMain(append([]string{"check", model}, c.args...)...)
		if status != ExitBadInput || !strings.Contains(errs, c.want) {
			t.Errorf("%v: status %d, stderr %q (want %q)\n%s", c.args, status, errs, c.want, out)
		}
	}
	// a bindings file with a positioned error
	bad := filepath.Join(t.TempDir(), "b.txt")
	if err := os.WriteFile(bad, []byte("Main.x = signs\nthis is not a binding\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	status, _, errs := runMain("check", model, "--abstractions", bad)
	if status != ExitBadInput || !strings.Contains(errs, bad+":2:") {
		t.Errorf("bindings file: status %d, stderr %q", status, errs)
	}
}

// --abstractions FILE gives the same result as --abstract.
func TestAbstractionsFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "b.txt")
	if err := os.WriteFile(file, []byte("count = range(0,3)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	status, out, errs := runMain("check", abstractionExamples+"/buffer.bir", "--abstractions", file)
	if status != ExitPass || !strings.HasPrefix(out, "pass: no violation: every reachable state of the abstract model was explored; proven with abstraction (count=range(0,3)); deadlock freedom is not preserved by abstraction (not proven)\n") {
		t.Fatalf("status %d\n%s%s", status, out, errs)
	}
}

// With --max-replay too small to enumerate the inputs, the symbolic replay
// decides: it confirms the real bug (with a trail that replays) and
// refutes the spurious trail.
func TestAbstractSymbolicReplay(t *testing.T) {
	trail := filepath.Join(t.TempDir(), "w.trail")
	model := abstractionExamples + "/withdraw.bir"
	_, doc := checkJSON(t, model, "--abstract", "balance=range(0,2)", "--max-replay", "3", "--trail", trail)
	abs := doc["abstraction"].(map[string]any)
	if abs["confirmation"] != "confirmed" || abs["replay"] != "symbolic" {
		t.Fatalf("confirmation %v by %v", abs["confirmation"], abs["replay"])
	}
	if status, out, errs := runMain("replay", model, trail); status != ExitViolation {
		t.Fatalf("replay: status %d\n%s%s", status, out, errs)
	}
	status, out, _ := runMain("check", abstractionExamples+"/decrement.bir", "--abstract", "Main.x=signs", "--max-replay", "2")
	if status != ExitInconclusive || !strings.Contains(out, "not confirmed: step 4: Main[1] at s3 (") || !strings.Contains(out, "the assertion holds on the concrete model for every choice\n") {
		t.Fatalf("status %d\n%s", status, out)
	}
}

// The JSON document of a check with abstraction has every key of a plain
// check, plus the abstraction object.
func TestAbstractJSONKeys(t *testing.T) {
	_, doc := checkJSON(t, abstractionExamples+"/decrement.bir", "--abstract", "Main.x=signs")
	plain := map[string]any{}
	for k, v := range doc {
		if k != "abstraction" {
			plain[k] = v
		}
	}
	checkDocument(t, "decrement", plain)
	if r := doc["rests_on"].([]any); len(r) != 1 || r[0].(map[string]any)["kind"] != "abstracted" {
		t.Errorf("rests_on %v, want the abstraction", r)
	}
	wantKeys(t, "abstraction", doc["abstraction"], "abstract_trail", "abstract_verdict", "abstract_violation", "bindings",
		"confirmation", "diverges", "found_by", "replay", "values_diverge", "variables")
	abs := doc["abstraction"].(map[string]any)
	wantKeys(t, "diverges", abs["diverges"], "location", "pos", "reason", "step", "thread")
	wantKeys(t, "values_diverge", abs["values_diverge"], "location", "pos", "reason", "step", "thread")
	if d := abs["diverges"].(map[string]any); d["step"] != float64(4) || d["location"] != "s3" || d["pos"] != abstractionExamples+"/decrement.bir:30:5" {
		t.Errorf("diverges %v", d)
	}
	if abs["confirmation"] != "not confirmed" || abs["found_by"] != "search" || doc["verdict"] != "inconclusive" {
		t.Errorf("confirmation %v, found by %v, verdict %v", abs["confirmation"], abs["found_by"], doc["verdict"])
	}
	if v := abs["variables"].(map[string]any); v["Main.x"] != "signs" || v["Main.y"] != "signs" || v["Main.z"] != "signs" || len(v) != 3 {
		t.Errorf("variables %v", v)
	}
}

// Deadlocks: a deadlock of the abstract model is replayed like any trail;
// a pass does not claim deadlock freedom (an abstract transformation that
// may be enabled hides a concrete deadlock), unless --no-deadlock.
func TestAbstractDeadlock(t *testing.T) {
	src := `system DL ()
x : int;
main thread A ()
  loc a0:
    when true do { x := externChoose(LO .. 3); } goto a1;
  loc a1:
    when x > 5 do { } goto a2;
  loc a2:
end A;
end DL;
`
	dir := t.TempDir()
	real := filepath.Join(dir, "real.bir")
	hidden := filepath.Join(dir, "hidden.bir")
	os.WriteFile(real, []byte(strings.Replace(src, "LO", "0", 1)), 0o644)
	os.WriteFile(hidden, []byte(strings.Replace(src, "LO", "1", 1)), 0o644)
	status, doc := checkJSON(t, real, "--abstract", "x=signs")
	abs := doc["abstraction"].(map[string]any)
	if status != ExitViolation || abs["confirmation"] != "confirmed" || doc["violation"].(map[string]any)["kind"] != "deadlock" {
		t.Fatalf("status %d, %v, %v", status, abs["confirmation"], doc["violation"])
	}
	// x in 1..3 deadlocks concretely, but the abstract x > 5 may hold for POS
	status, out, _ := runMain("check", hidden, "--abstract", "x=signs")
	if status != ExitPass || !strings.Contains(out, "deadlock freedom is not preserved by abstraction (not proven)") {
		t.Fatalf("status %d\n%s", status, out)
	}
	status, out, _ = runMain("check", hidden, "--abstract", "x=signs", "--no-deadlock")
	if status != ExitPass || strings.Contains(out, "deadlock") {
		t.Fatalf("status %d\n%s", status, out)
	}
	// and the concrete model does deadlock
	if status, _, _ := runMain("check", hidden); status != ExitViolation {
		t.Fatalf("the concrete model should deadlock, status %d", status)
	}
}

// LTL with abstraction: a pass says what it proves (not the executions
// that end in a deadlock); a lasso whose cycle does not close concretely
// is not confirmed; a confirmed lasso is saved as a lasso trail of the
// concrete model.
func TestAbstractLTL(t *testing.T) {
	parity := abstractionExamples + "/parity.bir"
	status, out, errs := runMain("check", parity, "--abstract", "x=evenodd", "--property", "back_to_even")
	if status != ExitPass {
		t.Fatalf("status %d\n%s%s", status, out, errs)
	}
	for _, want := range []string{
		"pass: no violation: every execution of the abstract model satisfies the under-approximated formula; proven with abstraction (x=evenodd) " +
			"for every execution of the concrete model that is infinite or ends with every thread terminated; executions that end in a deadlock are not covered (abstraction does not preserve deadlocks)\n",
		"  formula: [] ((x % 2 == 1) -> <> (x % 2 == 0))\n  under-approximated: [] ((x == evenodd_ODD) -> <> (x == evenodd_EVEN))\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	status, out, _ = runMain("check", parity, "--abstract", "x=signs", "--property", "back_to_even")
	for _, want := range []string{
		"inconclusive: the abstract model has a violation (ltl) that is not confirmed on the concrete model\n",
		"abstract lasso (5 steps):\n",
		"cycle (2 steps, back to the state after step 3), repeated forever:\n",
		"not confirmed: step 6: the cycle does not close on the concrete model: the state after step 5 is not the state after step 3 (x = 5, was 3)\n",
	} {
		if status != ExitInconclusive || !strings.Contains(out, want) {
			t.Errorf("status %d, output lacks %q:\n%s", status, want, out)
		}
	}
	status, out, _ = runMain("check", parity, "--abstract", "x=evenodd", "--property", "often_odd")
	for _, want := range []string{
		"found by the search of the abstract model; the choose-free search finds no violation\n",
		"then the last state repeats forever (every thread has terminated)\n",
		"not confirmed: step 1: Main[1] at even (" + parity + ":38:5): guard x >= 10 is false\n",
	} {
		if status != ExitInconclusive || !strings.Contains(out, want) {
			t.Errorf("status %d, output lacks %q:\n%s", status, want, out)
		}
	}

	server := abstractionExamples + "/server.bir"
	trail := filepath.Join(t.TempDir(), "server.trail")
	status, doc := checkJSON(t, server, "--abstract", "served=signs", "--property", "progress", "--trail", trail)
	abs := doc["abstraction"].(map[string]any)
	if status != ExitViolation || abs["confirmation"] != "confirmed" || doc["lasso"] == nil || abs["abstract_lasso"] == nil ||
		abs["abstract_formula"] != "[] <> (served == signs_POS)" || doc["property"].(map[string]any)["name"] != "progress" {
		t.Fatalf("status %d: %v", status, doc)
	}
	status, out, errs = runMain("replay", server, trail)
	if status != ExitViolation || !strings.Contains(out, "repeat forever (a lasso)") {
		t.Fatalf("replay: status %d\n%s%s", status, out, errs)
	}
}

// Weak fairness is not preserved by abstraction: a pass that needs --fair
// is inconclusive; one that does not is a pass.
func TestAbstractLTLFair(t *testing.T) {
	file := "../verify/testdata/abstract-fair.bir"
	// without fairness A may run forever: x grows, so the lasso is not real
	status, out, errs := runMain("check", file, "--abstract", "x=signs", "--property", "done")
	if status != ExitInconclusive || !strings.Contains(out, "the cycle does not close on the concrete model") {
		t.Fatalf("status %d\n%s%s", status, out, errs)
	}
	// with fairness the abstract model satisfies it, but fairness is not preserved
	status, out, errs = runMain("check", file, "--abstract", "x=signs", "--property", "done", "--fair")
	if status != ExitInconclusive || !strings.Contains(out, "weak fairness is not preserved by abstraction") {
		t.Fatalf("status %d\n%s%s", status, out, errs)
	}
}
