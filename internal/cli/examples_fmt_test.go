package cli

import "testing"

// TestExamplesCanonical checks that birch fmt -l over examples/ and the
// benchmark models lists nothing: every model shipped with birch is in the
// canonical layout.
func TestExamplesCanonical(t *testing.T) {
	status, out, errs := runMain("fmt", "-l", "../../examples", "../../bench/models")
	if status != ExitPass || out != "" || errs != "" {
		t.Errorf("birch fmt -l examples bench/models: status %d, want 0 and no output; these files are not in the canonical layout (birch fmt -w FILE):\n%s%s", status, out, errs)
	}
}
