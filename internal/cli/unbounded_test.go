package cli

import (
	"strings"
	"testing"
)

const unboundedModel = "../verify/testdata/unbounded-choice.bir"

// TestUnboundedChoiceCLI: birch check, simulate and translate stop at
// once, inconclusive (exit 3), naming the choice's position and the
// options that can check the model; birch vet and birch fmt accept it.
func TestUnboundedChoiceCLI(t *testing.T) {
	pos := "unbounded-choice.bir:9:27: x := externChoose(int) chooses among 2^64 values"
	for _, args := range [][]string{{"check"}, {"check", "--search=bfs"}, {"simulate"}, {"translate"}} {
		status, stdout, stderr := runMain(append(args, unboundedModel)...)
		out := stdout + stderr
		if status != ExitInconclusive || !strings.Contains(out, "inconclusive") || !strings.Contains(out, pos) ||
			!strings.Contains(out, "--predicates") || !strings.Contains(out, "--cegar") {
			t.Errorf("birch %v: exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", args, status, ExitInconclusive, pos, stdout, stderr)
		}
	}
	status, doc := checkJSON(t, unboundedModel)
	sc := safetyCheckOf(t, doc)
	if status != ExitInconclusive || doc["verdict"] != "inconclusive" || !strings.Contains(sc["reason"].(string), pos) || sc["phase"] != "model construction" {
		t.Errorf("birch check --json: exit %d, verdict %v, check of safety %v", status, doc["verdict"], sc)
	}
	if status, stdout, stderr := runMain("vet", unboundedModel); status != ExitPass {
		t.Errorf("birch vet: exit %d\n%s%s", status, stdout, stderr)
	}
	if status, stdout, stderr := runMain("fmt", unboundedModel); status != ExitPass || !strings.Contains(stdout, "x := externChoose(int);") ||
		!strings.Contains(stdout, "y := internChoose(Big);") {
		t.Errorf("birch fmt: exit %d\n%s%s", status, stdout, stderr)
	}
}

// TestChooseTypeSmallCLI: a choice among the 1001 values of a range type
// is enumerated: birch check finds the one value that fails.
func TestChooseTypeSmallCLI(t *testing.T) {
	status, doc := checkJSON(t, "testdata/choose-type.bir")
	v, _ := doc["violation"].(map[string]any)
	if status != ExitViolation || v == nil || v["kind"] != "assertion" {
		t.Fatalf("exit %d, violation %v; want the assertion's violation", status, doc["violation"])
	}
	trail := doc["trail"].([]any)
	first := trail[0].(map[string]any)
	if ch, _ := first["changes"].(map[string]any); ch["n"] != "777" || first["ordinal"] != float64(777) {
		t.Errorf("the trail's first step does not choose 777: %v", first)
	}
	if st := doc["stats"].(map[string]any); st["transitions"].(float64) < 778 {
		t.Errorf("stats %v: fewer transitions than the values before 777", st)
	}
}
