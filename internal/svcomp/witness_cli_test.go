package svcomp_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"birch/internal/cli"
	"birch/internal/svcomp"
)

// TestWitnessOfCheck writes the witness of a failed task with birch check
// --task --witness and checks it against the format's rules: an
// assumption on the input the trail reads (x > 10 reaches the call), then
// the call's line.
func TestWitnessOfCheck(t *testing.T) {
	dir := t.TempDir()
	prog := `extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 10)
    reach_error();
  return 0;
}
`
	task := "format_version: '2.0'\ninput_files: 'prog.c'\nproperties:\n  - property_file: ../props/unreach-call.prp\n    expected_verdict: false\noptions:\n  data_model: LP64\n"
	for name, text := range map[string]string{"prog.c": prog, "prog.yml": task} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := filepath.Join(dir, "w.graphml")
	var stdout, stderr bytes.Buffer
	status := cli.Main([]string{"check", "--task", filepath.Join(dir, "prog.yml"), "--witness", w}, nil, &stdout, &stderr)
	if status != 1 || !strings.HasPrefix(stdout.String(), "false\n") {
		t.Fatalf("status %d\n%s%s", status, stdout.String(), stderr.String())
	}
	data, err := os.ReadFile(w)
	if err != nil {
		t.Fatal(err)
	}
	if bad := svcomp.CheckWitness(data); len(bad) > 0 {
		t.Errorf("the witness breaks the format:\n%s\n%s", strings.Join(bad, "\n"), data)
	}
	s := string(data)
	for _, want := range []string{
		`<data key="architecture">64bit</data>`,
		`<data key="specification">CHECK( init(main()), LTL(G ! call(reach_error())) )</data>`,
		"<data key=\"startline\">4</data>\n   <data key=\"assumption\">\\result == ",
		"<data key=\"startline\">6</data>\n  </edge>",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the witness lacks %q:\n%s", want, s)
		}
	}
	// the value assumed reaches the call
	i := strings.Index(s, `\result == `)
	v := s[i+len(`\result == `):]
	v = v[:strings.Index(v, ";")]
	if n, err := strconv.Atoi(v); err != nil || n <= 10 {
		t.Errorf("assumed value %s does not reach the call", v)
	}
}
