package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// ltlFalseModel has an invariant and two ltl properties, settles (true)
// and recurs (false), and no other violation.
const ltlFalseModel = "testdata/ltl-false-unsafe.bir"

// propertyVerdicts maps the "kind name" of each entry of a check
// document's "properties" to its verdict.
func propertyVerdicts(t *testing.T, doc map[string]any) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, p := range doc["properties"].([]any) {
		p := p.(map[string]any)
		got[p["kind"].(string)+" "+p["name"].(string)] = p["verdict"].(string)
	}
	return got
}

// TestFalseLTLPropertyFails: birch check without flags checks every ltl
// property of the model, so a model whose only error is a false ltl
// property fails and names it. (On main before package verify, 2e151c3,
// the ltl properties were skipped unless named: the model passed, exit 0.)
func TestFalseLTLPropertyFails(t *testing.T) {
	status, stdout, stderr := runMain("check", ltlFalseModel)
	if status != ExitViolation {
		t.Fatalf("exit status %d, want 1\n%s%s", status, stdout, stderr)
	}
	for _, want := range []string{
		"fail: 1 of 4 properties violated: ltl property recurs\n",
		"properties: safety (assertions, runtime errors, deadlocks): pass; invariant small: pass; ltl property settles: pass; ltl property recurs: fail\n",
		"\n== ltl property recurs ==\nfail: ltl: ltl property recurs violated: [] <> (x == 0)\n",
		"then the last state repeats forever (every thread has terminated)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.HasPrefix(stdout, "fail: ") {
		t.Errorf("stdout does not start with the verdict:\n%s", stdout)
	}

	status, doc := checkJSON(t, ltlFalseModel)
	checkDocument(t, ltlFalseModel, doc)
	if status != ExitViolation || doc["verdict"] != "fail" {
		t.Errorf("--json: status %d, verdict %v; want 1, fail", status, doc["verdict"])
	}
	want := map[string]string{"safety safety": "pass", "invariant small": "pass", "ltl settles": "pass", "ltl recurs": "fail"}
	if got := propertyVerdicts(t, doc); len(got) != len(want) {
		t.Errorf("properties %v, want %v", got, want)
	} else {
		for k, v := range want {
			if got[k] != v {
				t.Errorf("properties %v, want %v", got, want)
				break
			}
		}
	}
	dc := decidingCheckOf(t, doc)
	if v, _ := dc["violation"].(map[string]any); v == nil || v["kind"] != "ltl" || len(dc["trail"].([]any)) != 3 || dc["lasso"] == nil {
		t.Errorf("the deciding check has violation %v, trail %v, lasso %v; want the ltl violation of recurs, 3 steps, a lasso",
			dc["violation"], dc["trail"], dc["lasso"])
	}

	// --trail saves the trail of the check that decided the verdict, and
	// it replays to the same violation
	trail := filepath.Join(t.TempDir(), "recurs.trail")
	if status, stdout, stderr := runMain("check", "--trail", trail, ltlFalseModel); status != ExitViolation || !strings.Contains(stdout, "trail saved to "+trail+"\n") {
		t.Fatalf("check --trail: status %d\n%s%s", status, stdout, stderr)
	}
	status, stdout, stderr = runMain("replay", ltlFalseModel, trail)
	if status != ExitViolation || !strings.HasSuffix(stdout, "fail: ltl: the execution ends here and repeats its last state forever, violating the property\n") {
		t.Errorf("replay: status %d\n%s%s", status, stdout, stderr)
	}
}

// TestRepeatedPropertyFlag: --property A --property B checks both, each
// named with its verdict, and fails when either is false, in either
// order. (On main before package verify, 2e151c3, only the last was
// checked: --property recurs --property settles passed, exit 0.)
func TestRepeatedPropertyFlag(t *testing.T) {
	for _, order := range [][2]string{{"settles", "recurs"}, {"recurs", "settles"}} {
		args := []string{"--property", order[0], "--property", order[1], ltlFalseModel}
		t.Run(strings.Join(order[:], ","), func(t *testing.T) {
			status, stdout, stderr := runMain(append([]string{"check"}, args...)...)
			if status != ExitViolation {
				t.Fatalf("exit status %d, want 1\n%s%s", status, stdout, stderr)
			}
			verdict := map[string]string{"settles": "pass", "recurs": "fail"}
			line := "properties: ltl property " + order[0] + ": " + verdict[order[0]] + "; ltl property " + order[1] + ": " + verdict[order[1]] + "\n"
			if !strings.HasPrefix(stdout, "fail: 1 of 2 properties violated: ltl property recurs\n"+line) {
				t.Errorf("stdout does not start with the verdict and %q:\n%s", line, stdout)
			}
			status, doc := checkJSON(t, args...)
			checkDocument(t, ltlFalseModel, doc)
			if status != ExitViolation || doc["verdict"] != "fail" {
				t.Errorf("--json: status %d, verdict %v; want 1, fail", status, doc["verdict"])
			}
			var names []string
			for _, p := range doc["properties"].([]any) {
				p := p.(map[string]any)
				names = append(names, p["name"].(string)+"="+p["verdict"].(string))
			}
			want := order[0] + "=" + verdict[order[0]] + "," + order[1] + "=" + verdict[order[1]]
			if strings.Join(names, ",") != want {
				t.Errorf("--json properties %v, want %s", names, want)
			}
		})
	}
	// an invariant and an ltl property: the invariant in the search for
	// safety, the ltl property in its own
	status, doc := checkJSON(t, "--property", "small", "--property", "settles", ltlFalseModel)
	checkDocument(t, ltlFalseModel, doc)
	got := propertyVerdicts(t, doc)
	if status != ExitPass || len(got) != 3 || got["safety safety"] != "pass" || got["invariant small"] != "pass" || got["ltl settles"] != "pass" {
		t.Errorf("--property small --property settles: status %d, properties %v; want 0, safety, small and settles passing", status, got)
	}
}
