package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"birch/internal/search"
)

// Issue 16, point 6: no found violation is lost, no empty property is
// ignored.

// TestTrailPathCheckedFirst: a --trail or -o path that cannot be written is
// a usage error before the search (or the synthesis) starts, whatever its
// verdict would have been.
func TestTrailPathCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-dir", "x.trail")
	pass := filepath.Join(examplesDir, "peterson.bir")
	fail := filepath.Join(examplesDir, "philosophers-deadlock.bir")
	for _, args := range [][]string{
		{"check", "--trail", missing, pass},
		{"check", "--trail", missing, fail},
		{"check", "--trail", dir, pass}, // a directory
		{"check", "--trail", missing, "--ltl", "[] true", pass},
		{"check", "--trail", missing, "--abstract", "Peterson.turn=point", pass},
		{"spin", "--trail", missing, pass},
		{"translate", "-o", missing, pass},
		{"abstract", "-o", missing, pass},
	} {
		status, stdout, stderr := runMain(args...)
		if status != ExitBadInput || stdout != "" || !strings.Contains(stderr, "cannot write there") {
			t.Errorf("birch %s: status %d, stdout %q, stderr %q; want status 2, nothing on stdout, \"cannot write there\"",
				strings.Join(args, " "), status, stdout, stderr)
		}
	}
	// a writable path is left alone when there is no violation
	ok := filepath.Join(dir, "ok.trail")
	if status, _, stderr := runMain("check", "--trail", ok, pass); status != ExitPass {
		t.Fatalf("check --trail %s: status %d: %s", ok, status, stderr)
	}
	if _, err := os.Stat(ok); !os.IsNotExist(err) {
		t.Errorf("check --trail of a passing model created %s (%v)", ok, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the writability probe left files behind: %v", entries)
	}
}

// TestTrailSaveFailureKeepsVerdict: when the trail cannot be written after
// the search (here: a full disk), the violation and its trail are still
// reported, with a warning, and the exit status is 1.
func TestTrailSaveFailureKeepsVerdict(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	fail := filepath.Join(examplesDir, "philosophers-deadlock.bir")
	status, stdout, stderr := runMain("check", "--trail", "/dev/full", fail)
	if status != ExitViolation {
		t.Errorf("status %d, want 1\nstderr: %s", status, stderr)
	}
	if !strings.HasPrefix(stdout, "fail: deadlock") || !strings.Contains(stdout, "trail (") || !strings.Contains(stdout, "trail NOT saved to /dev/full") {
		t.Errorf("stdout lacks the verdict, the trail or the note:\n%s", stdout)
	}
	if !strings.Contains(stderr, "warning: the trail was not saved") {
		t.Errorf("stderr lacks the warning: %q", stderr)
	}
	// JSON: the document is whole
	status, stdout, _ = runMain("check", "--json", "--trail", "/dev/full", fail)
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || status != ExitViolation || doc["verdict"] != "fail" {
		t.Errorf("--json: status %d, verdict %v (%v)", status, doc["verdict"], err)
	}
	// an LTL lasso
	status, stdout, stderr = runMain("check", "--trail", "/dev/full", "--ltl", "[] <> someoneEats", fail)
	if status != ExitViolation || !strings.Contains(stdout, "trail NOT saved") || !strings.Contains(stderr, "warning:") {
		t.Errorf("--ltl: status %d\nstdout:\n%s\nstderr:\n%s", status, stdout, stderr)
	}
}

// TestEmptyFlagValues: an empty property, formula, pattern or bindings
// file is a usage error, not a plain check that can pass.
func TestEmptyFlagValues(t *testing.T) {
	pass := filepath.Join(examplesDir, "peterson.bir")
	for _, args := range [][]string{
		{"check", "--ltl", "", pass},
		{"check", "--ltl=", pass},
		{"check", "--pattern", "", pass},
		{"check", "--property", "", pass},
		{"check", "--property", "  ", pass},
		{"check", "--abstractions", "", pass},
		{"check", "--abstract", "", pass},
		{"check", "--trail", "", pass},
		{"spin", "--ltl", "", pass},
		{"spin", "--property", "", pass},
		{"translate", "--pattern", "", pass},
		{"abstraction", "infer", "--abstractions", "", pass},
	} {
		status, stdout, stderr := runMain(args...)
		if status != ExitBadInput || stdout != "" || !strings.Contains(stderr, "empty value") {
			t.Errorf("birch %q: status %d, stdout %q, stderr %q; want status 2 and \"empty value\"", args, status, stdout, stderr)
		}
	}
}

// Issue 16, point 7: a usage mistake is one line with the problem, a
// suggestion and a pointer to -h; -h goes to stdout only; messages quote at
// most an excerpt of bad input.

func TestUsageMistakeOneLine(t *testing.T) {
	model := filepath.Join(examplesDir, "peterson.bir")
	for _, c := range []struct {
		args []string
		want string // in the one line
	}{
		{[]string{"check", "--max-state=5", model}, `unknown flag "--max-state" (did you mean --max-states?); run 'birch check -h' for usage`},
		{[]string{"check", model, "--seach", "bfs"}, `(did you mean --search?)`},
		{[]string{"check", "--max-mem", "4G", model}, `(did you mean --max-memory?)`},
		{[]string{"spin", "--tim-limit", "4", model}, `(did you mean --time-limit?); run 'birch spin -h' for usage`},
		{[]string{"check", "--zzzzzz", model}, `unknown flag "--zzzzzz"; run 'birch check -h'`},
		{[]string{"check", "--max-states=x", model}, `--max-states: invalid value "x": not a number; run 'birch check -h'`},
		{[]string{"check", "--json=maybe", model}, `--json: invalid value "maybe": want true or false`},
		{[]string{"check", model, "--trail"}, `--trail needs a value`},
		{[]string{"chek", model}, `unknown command "chek" (did you mean check?); run 'birch help'`},
		{[]string{"help", "simualte"}, `unknown command "simualte" (did you mean simulate?)`},
		{[]string{"abstraction", "shw"}, `(did you mean show?)`},
	} {
		status, stdout, stderr := runMain(c.args...)
		if status != ExitBadInput || stdout != "" {
			t.Errorf("birch %q: status %d, stdout %q; want 2 and nothing", c.args, status, stdout)
		}
		if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("birch %q: stderr %q; want one line with %q", c.args, stderr, c.want)
		}
	}
	// a command's own usage mistake: the problem and the pointer, no help text
	for _, c := range []struct{ args, want string }{
		{"check", "birch check: want exactly one model file; run 'birch check -h' for usage\n"},
		{"check a.bir b.bir", "birch check: want exactly one model file; run 'birch check -h' for usage\n"},
		{"replay a.bir", "birch replay: want a model file and a trail file; run 'birch replay -h' for usage\n"},
		{"vet", "birch vet: no model files given; run 'birch vet -h' for usage\n"},
		{"spin", "birch spin: want exactly one model file; run 'birch spin -h' for usage\n"},
	} {
		status, stdout, stderr := runMain(strings.Fields(c.args)...)
		if status != ExitBadInput || stdout != "" || stderr != c.want {
			t.Errorf("birch %s: status %d, stdout %q, stderr %q; want 2 and %q", c.args, status, stdout, stderr, c.want)
		}
	}
}

func TestHelpOnStdoutOnly(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "-h"}, "usage: birch check "},
		{[]string{"check", "--help"}, "usage: birch check "},
		{[]string{"check", "x.bir", "-h"}, "usage: birch check "},
		{[]string{"spin", "-h"}, "usage: birch spin "},
		{[]string{"help", "check"}, "usage: birch check "},
	} {
		status, stdout, stderr := runMain(c.args...)
		if status != ExitPass || stderr != "" || !strings.HasPrefix(stdout, c.want) {
			t.Errorf("birch %q: status %d, stderr %q, stdout starts %q; want 0, nothing on stderr, %q",
				c.args, status, stderr, stdout[:min(len(stdout), 40)], c.want)
		}
	}
}

func TestMessagesQuoteExcerpts(t *testing.T) {
	model := filepath.Join(examplesDir, "peterson.bir")
	long := strings.Repeat("x", 100000)
	for _, args := range [][]string{
		{"check", "--search=" + long, model},
		{"check", "--max-states=" + long, model},
		{"check", "--max-memory=" + long, model},
		{"check", "--time-limit=" + long, model},
		{"check", "--" + long, model},
		{long},
		{"help", long},
		{"check", "--property", long, model},
		{"check", "--pattern", long, model},
		{"abstraction", long},
		{"translate", "--to", long, model},
	} {
		status, _, stderr := runMain(args...)
		if status != ExitBadInput || len(stderr) > 400 || !strings.Contains(stderr, "xxx…") {
			t.Errorf("birch %.40q…: status %d, %d bytes on stderr (want 2, an excerpt ending in …, at most 400 bytes): %.300s", args, status, len(stderr), stderr)
		}
	}
	// where a message quotes its input whole, the line is cut
	dir := t.TempDir()
	script := filepath.Join(dir, "long.smt2")
	if err := os.WriteFile(script, []byte("(assert "+long+")\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "--abstract", long + "=signs", model},
		{"check", "--abstract", "x=" + long, model},
		{"abstraction", "show", long},
		{"replay", model, long},
		{"smt", script},
	} {
		status, _, stderr := runMain(args...)
		if status != ExitBadInput || len(stderr) > maxMessageLine+10 || !strings.Contains(stderr, "qqq…") && !strings.Contains(stderr, "xxx…") {
			t.Errorf("birch %.40q…: status %d, %d bytes on stderr: %.300s", args, status, len(stderr), stderr)
		}
	}
	// names and tokens of a model
	for i, src := range []string{
		"process P()\n" + long + " \nend P;\n",
		"process P()\nv : int;\nmain thread M()\n loc a: when " + long + " do {} goto a;\nend M;\nend P;\n",
		"process P()\nv : int;\nmain thread M()\n loc a: when true do { v := 1" + long + "; } goto a;\nend M;\nend P;\n",
		"process P()\nv : int;\nmain thread M()\n loc a: when true do {} goto " + long + ";\nend M;\nend P;\n",
	} {
		name := filepath.Join(dir, "long"+string(rune('0'+i))+".bir")
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		status, _, stderr := runMain("vet", name)
		if status != ExitBadInput || len(stderr) > 400+len(name) || !strings.Contains(stderr, "xxx…") {
			t.Errorf("birch vet long%d.bir: status %d, %d bytes on stderr: %.300s", i, status, len(stderr), stderr)
		}
	}
}

// countTo is a model whose trail has n+1 steps: a counter taken to n, then
// a failed assertion.
func countTo(t *testing.T, n int) string {
	t.Helper()
	src := fmt.Sprintf(`process Count()
c : int;
main thread M()
  loc a:
    when c < %d do { c := c + 1; } goto a;
    when c == %[1]d do { assert(false); } goto a;
end M;
end Count;
`, n)
	name := filepath.Join(t.TempDir(), "count.bir")
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestLongTrailInPart: a long trail prints its first and last steps with
// the count of those left out; --full-trail, the JSON output and the trail
// file have every step; each step shows its transformation's text.
func TestLongTrailInPart(t *testing.T) {
	model := countTo(t, 40) // 41 steps
	trail := filepath.Join(t.TempDir(), "count.trail")
	status, stdout, _ := runMain("check", "--trail", trail, model)
	if status != ExitViolation {
		t.Fatalf("status %d\n%s", status, stdout)
	}
	steps := regexp.MustCompile(`(?m)^ +(\d+)\. M\[1\]`).FindAllStringSubmatch(stdout, -1)
	var nums []string
	for _, s := range steps {
		nums = append(nums, s[1])
	}
	want := "1 2 3 4 5 6 7 8 9 10 32 33 34 35 36 37 38 39 40 41"
	if strings.Join(nums, " ") != want {
		t.Errorf("steps printed: %v, want %s\n%s", nums, want, stdout)
	}
	if !strings.Contains(stdout, "trail (41 steps):") || !strings.Contains(stdout, "... 21 steps left out (--full-trail shows them) ...") {
		t.Errorf("no header or count of the steps left out:\n%s", stdout)
	}
	if n := strings.Count(stdout, "        [when c < 40 do { c := c + 1; } goto a]\n"); n != 19 {
		t.Errorf("%d steps show their transformation's text, want 19:\n%s", n, stdout)
	}
	if !strings.Contains(stdout, "  41. M[1]  a -> error") || !strings.Contains(stdout, "        [when c == 40 do { assert(false); } goto a]\n") {
		t.Errorf("the last step or its text is missing:\n%s", stdout)
	}
	_, full, _ := runMain("check", "--full-trail", model)
	if strings.Contains(full, "left out") || strings.Count(full, ". M[1]  a -> ") != 41 {
		t.Errorf("--full-trail does not print every step:\n%s", full)
	}
	_, doc := checkJSON(t, model)
	if n := len(doc["trail"].([]any)); n != 41 {
		t.Errorf("the JSON trail has %d steps, want 41", n)
	}
	tf, err := readTrail(trail)
	if err != nil || len(tf.Ordinals) != 41 || len(tf.Trail) != 41 {
		t.Errorf("the trail file: %v, %d ordinals", err, len(tf.Ordinals))
	}
	// a short trail is printed whole
	_, short, _ := runMain("check", countTo(t, 20))
	if strings.Contains(short, "left out") || strings.Count(short, ". M[1]  a -> ") != 21 {
		t.Errorf("a 21-step trail is not printed whole:\n%s", short)
	}
}

// TestProgressLine: the progress line shows the elapsed time, the
// transitions and the rate since the previous line, not since the start.
func TestProgressLine(t *testing.T) {
	var b strings.Builder
	p := progressPrinter(&b)
	p(search.Stats{States: 1000000, Transitions: 3000000, MaxDepth: 40, Seconds: 1, Memory: 64 << 20})
	p(search.Stats{States: 1000100, Transitions: 3000400, MaxDepth: 41, Seconds: 2, Memory: 64 << 20})
	p(search.Stats{States: 1500100, Transitions: 4000400, MaxDepth: 41, Seconds: 3725, Memory: 64 << 20})
	want := "progress: 1s, 1000000 states, 3000000 transitions, depth 40, 1000000 states/s now, 64.0 MiB\n" +
		"progress: 2s, 1000100 states, 3000400 transitions, depth 41, 100 states/s now, 64.0 MiB\n" +
		"progress: 1h02m05s, 1500100 states, 4000400 transitions, depth 41, 134 states/s now, 64.0 MiB\n"
	if b.String() != want {
		t.Errorf("progress lines:\n%s\nwant:\n%s", b.String(), want)
	}
}

// unreachedModel has three transformations no execution takes: a guard
// that is never true, the location it would lead to, and a function never
// called.
const unreachedModel = `process U()
x : int;
function f() : int
  loc f0:
    when true do { } return 1;
end f;
main thread M()
  loc a:
    when x < 2 do { x := x + 1; } goto a;
    when x > 5 do { x := 0; } goto b;
    when x == 2 do { } goto c;
  loc b:
    when true do { x := 1; } goto c;
  loc c:
end M;
end U;
`

// TestUnreachedCode: after a complete search birch lists the
// transformations no step executed (text and JSON), as SPIN's "unreached
// in proctype" does; after a violation or a limit it says nothing.
func TestUnreachedCode(t *testing.T) {
	name := filepath.Join(t.TempDir(), "u.bir")
	if err := os.WriteFile(name, []byte(unreachedModel), 0o644); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := runMain("check", name)
	want := "unreached in thread M (2 transformations never executed):\n" +
		"  " + name + ":10:5: loc a: [when x > 5 do { x := 0; } goto b]\n" +
		"  " + name + ":13:5: loc b: [when true do { x := 1; } goto c]\n" +
		"unreached in function f (1 transformation never executed):\n" +
		"  " + name + ":5:5: loc f0: [when true do { } return 1]\n"
	if status != ExitPass || !strings.Contains(stdout, want) {
		t.Errorf("status %d, stdout:\n%s\nwant it to contain:\n%s\nstderr: %s", status, stdout, want, stderr)
	}
	_, doc := checkJSON(t, name)
	checkDocument(t, "u.bir", doc)
	var got []string
	for _, u := range doc["unreached"].([]any) {
		u := u.(map[string]any)
		wantKeys(t, "unreached[i]", u, "proc", "kind", "location", "pos", "source")
		got = append(got, fmt.Sprintf("%s %s %s %s", u["kind"], u["proc"], u["location"], strings.TrimPrefix(u["pos"].(string), name)))
	}
	if w := "thread M a :10:5|thread M b :13:5|function f f0 :5:5"; strings.Join(got, "|") != w {
		t.Errorf("JSON unreached: %q, want %q", strings.Join(got, "|"), w)
	}
	// with abstraction: what the abstract model never executes, in the
	// concrete model's terms (here only f: the abstract model may take x > 5)
	status, stdout, _ = runMain("check", "--abstract", "x=signs", name)
	want = "unreached in function f (1 transformation never executed):\n" +
		"  " + name + ":5:5: loc f0: [when true do { } return 1]\n"
	if status != ExitPass || !strings.Contains(stdout, want) || strings.Contains(stdout, "thread M (") {
		t.Errorf("--abstract x=signs: status %d, stdout:\n%s\nwant it to contain:\n%s", status, stdout, want)
	}
	// every transformation executed: nothing printed, [] in JSON
	peterson := filepath.Join(examplesDir, "peterson.bir")
	if _, out, _ := runMain("check", peterson); strings.Contains(out, "unreached") {
		t.Errorf("peterson.bir: %s", out)
	}
	// (peterson.bir has ltl properties: the check of safety reports it;
	// a product search with an ltl property's automaton never does)
	_, doc = checkJSON(t, peterson)
	if sc := safetyCheckOf(t, doc); sc["unreached"] == nil || len(sc["unreached"].([]any)) != 0 {
		t.Errorf("peterson.bir: unreached is %v, want []", sc["unreached"])
	}
	for i, c := range doc["checks"].([]any) {
		if c := c.(map[string]any); c["property"] != nil && c["unreached"] != nil {
			t.Errorf("peterson.bir: checks[%d] (an ltl property) reports unreached %v", i, c["unreached"])
		}
	}
	// no report after a violation or a stopped search: null
	for _, args := range [][]string{
		{filepath.Join(examplesDir, "philosophers-deadlock.bir")},
		{"--max-states=3", name},
		{"--max-depth=1", name},
	} {
		_, out, _ := runMain(append([]string{"check"}, args...)...)
		if strings.Contains(out, "unreached") {
			t.Errorf("check %v reports unreached code:\n%s", args, out)
		}
		if _, doc := checkJSON(t, args...); doc["unreached"] != nil {
			t.Errorf("check --json %v: unreached is %v, want null", args, doc["unreached"])
		}
	}
}

func TestLineCap(t *testing.T) {
	var b strings.Builder
	c := &lineCap{w: &b}
	long := strings.Repeat("y", maxMessageLine)
	// written in pieces, one exactly at the bound
	c.Write([]byte("short\n" + long[:maxMessageLine-3]))
	c.Write([]byte("abc"))
	c.Write([]byte("def"))
	c.Write([]byte("ghi\nnext " + long + "\nend\n"))
	want := "short\n" + long[:maxMessageLine-3] + "abc…\nnext " + long[:maxMessageLine-5] + "…\nend\n"
	if b.String() != want {
		t.Errorf("lineCap wrote %d bytes %.80q…, want %d bytes", b.Len(), b.String(), len(want))
	}
}
