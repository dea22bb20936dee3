package cli

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestOnTheFlyJSONNotes: the JSON report of an on-the-fly check has the
// notes its text report prints (the `notes` of the `apf` object): a
// violation confirmed after one that is not (g := 5 makes the first
// assertion possibly false with a predicate that does not bound g), and
// none confirmed (the model without the second branch). The JSON had none.
func TestOnTheFlyJSONNotes(t *testing.T) {
	dir := t.TempDir()
	const src = `system S ()
g : int;
main thread T ()
  loc s:
    when true do { g := 5; } goto a;
    when true do { g := 20; } goto b;
  loc a:
    when true do { assert(g < 7); } goto done;
  loc b:
    when true do { assert(g < 10); } goto done;
  loc done:
end T;
end S;
`
	preds := writeModel(t, dir, "g.pred", "g >= 100\n")
	for _, tc := range []struct {
		name, src string
		status    int
		note      string
	}{
		{"confirmed.bir", src, ExitViolation, "found after 1 violation of the instrumented model not confirmed on the model as written"},
		{"spurious.bir", strings.Replace(src, "when true do { g := 20; } goto b;", "", 1), ExitInconclusive, "the search finds no other violation of the instrumented model"},
	} {
		model := writeModel(t, dir, tc.name, tc.src)
		status, out, errs := runMain("check", "--on-the-fly", "--predicates", preds, model)
		var notes []string
		for _, l := range strings.Split(out, "\n") {
			if n, ok := strings.CutPrefix(l, "note: "); ok {
				notes = append(notes, n)
			}
		}
		if status != tc.status || !slices.Contains(notes, tc.note) {
			t.Fatalf("%s: status %d, notes %q, want %d and %q:\n%s%s", tc.name, status, notes, tc.status, tc.note, out, errs)
		}
		status, js, errs := runMain("check", "--json", "--on-the-fly", "--predicates", preds, model)
		var doc struct {
			APF struct {
				Notes []string `json:"notes"`
			} `json:"apf"`
		}
		if err := json.Unmarshal([]byte(js), &doc); err != nil || status != tc.status {
			t.Fatalf("%s: JSON report, status %d (%v):\n%s%s", tc.name, status, err, js, errs)
		}
		if !slices.Equal(doc.APF.Notes, notes) {
			t.Errorf("%s: JSON notes %q, the text's %q", tc.name, doc.APF.Notes, notes)
		}
	}
}
