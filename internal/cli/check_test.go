package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const examplesDir = "../../examples"

// runMain runs birch in-process and returns its exit status and output.
func runMain(args ...string) (status int, stdout, stderr string) {
	var out, errb bytes.Buffer
	status = Main(args, strings.NewReader(""), &out, &errb)
	return status, out.String(), errb.String()
}

// keysOf returns the sorted keys of a JSON object.
func keysOf(t *testing.T, what string, v any) []string {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s is %T, want a JSON object", what, v)
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func wantKeys(t *testing.T, what string, v any, want ...string) {
	t.Helper()
	got := keysOf(t, what, v)
	want = slices.Clone(want)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s has keys %v, want %v", what, got, want)
	}
}

// checkJSON runs birch check --json and decodes its document.
func checkJSON(t *testing.T, args ...string) (int, map[string]any) {
	t.Helper()
	status, stdout, stderr := runMain(append([]string{"check", "--json"}, args...)...)
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("birch check --json %v: stdout is not one JSON document: %v\nstdout:\n%s\nstderr:\n%s", args, err, stdout, stderr)
	}
	return status, doc
}

var (
	// reportKeys are the keys of every check's document; checkKeys adds
	// those of a check of package verify (the check with abstraction does
	// not go through it yet).
	reportKeys    = []string{"model", "verdict", "complete", "reason", "violation", "stats", "trail", "limits_hit", "search", "unreached"}
	checkKeys     = append(slices.Clone(reportKeys), "rests_on", "properties")
	runKeys       = []string{"model", "verdict", "reason", "properties", "checks"}
	statsKeys     = []string{"states", "transitions", "max_depth", "seconds", "states_per_second", "memory_bytes", "bytes_per_state"}
	stepKeys      = []string{"step", "ordinal", "thread", "from", "to", "pos", "changes"}
	violationKeys = []string{"kind", "message", "thread", "location", "pos"}
	confirmedKeys = append(slices.Clone(violationKeys), "confirmation", "confirmed_by")
	limitKeys     = []string{"message", "pos", "count"}
	threadKeys    = []string{"thread", "location", "terminated"}
	propertyKeys  = []string{"name", "kind", "source", "verdict", "reason"}
	basisKinds    = []string{"complete", "bounded", "abstracted", "under-approximated"}
)

// checkDocument checks the shape of a birch check --json document: the
// document of one check, or of a run of several (with "checks").
func checkDocument(t *testing.T, name string, doc map[string]any) {
	t.Helper()
	checks, ok := doc["checks"].([]any)
	if !ok {
		checkCheckDocument(t, name, doc)
		return
	}
	wantKeys(t, name, doc, runKeys...)
	if len(checks) < 2 {
		t.Errorf("%s: a run document with %d checks (one check prints its own document)", name, len(checks))
	}
	var props []any
	worst := "pass"
	rank := map[string]int{"pass": 0, "inconclusive": 1, "fail": 2}
	for i, c := range checks {
		what := fmt.Sprintf("%s checks[%d]", name, i)
		cd, ok := c.(map[string]any)
		if !ok {
			t.Fatalf("%s is a JSON %s, want object", what, jsonType(c))
		}
		checkCheckDocument(t, what, cd)
		if cd["model"] != doc["model"] {
			t.Errorf("%s: model %v, the run's is %v", what, cd["model"], doc["model"])
		}
		if v, _ := cd["verdict"].(string); rank[v] > rank[worst] {
			worst = v
		}
		props = append(props, cd["properties"].([]any)...)
	}
	if doc["verdict"] != worst {
		t.Errorf("%s: verdict %v, but the worst verdict of its checks is %s", name, doc["verdict"], worst)
	}
	checkPropertyList(t, name, doc["properties"])
	if a, b := fmt.Sprint(doc["properties"]), fmt.Sprint(props); a != b {
		t.Errorf("%s: properties %s, want those of its checks %s", name, a, b)
	}
}

// checkPropertyList checks a document's "properties": every entry names a
// property and gives its verdict.
func checkPropertyList(t *testing.T, name string, v any) {
	t.Helper()
	ps, ok := v.([]any)
	if !ok || len(ps) == 0 {
		t.Errorf("%s: properties is %v, want a non-empty array", name, v)
		return
	}
	for i, p := range ps {
		what := fmt.Sprintf("%s properties[%d]", name, i)
		pm, _ := p.(map[string]any)
		if pm["kind"] == "ltl" {
			wantKeys(t, what, p, append(propertyKeys, "formula")...)
		} else {
			wantKeys(t, what, p, propertyKeys...)
		}
		if !slices.Contains([]string{"safety", "invariant", "ltl"}, fmt.Sprint(pm["kind"])) ||
			!slices.Contains([]string{"pass", "fail", "inconclusive"}, fmt.Sprint(pm["verdict"])) {
			t.Errorf("%s: kind %v, verdict %v", what, pm["kind"], pm["verdict"])
		}
	}
}

// checkCheckDocument checks the document of one check of package verify:
// every key of reportKeys, what its verdict rests on, the properties it
// decided; for an ltl property the property (and the lasso of a
// violation), for a check stopped outside its search the phase.
func checkCheckDocument(t *testing.T, name string, doc map[string]any) {
	t.Helper()
	keys := slices.Clone(checkKeys)
	if _, ok := doc["property"]; ok {
		keys = append(keys, "property")
		if ps, _ := doc["properties"].([]any); len(ps) != 1 || ps[0].(map[string]any)["kind"] != "ltl" {
			t.Errorf("%s: a property object, but properties is %v (want one ltl property)", name, ps)
		}
		if _, ok := doc["lasso"]; ok {
			keys = append(keys, "lasso")
		}
	}
	if _, ok := doc["amcs"]; ok {
		keys = append(keys, "amcs")
	}
	if _, ok := doc["phase"]; ok {
		keys = append(keys, "phase")
		if doc["verdict"] != "inconclusive" {
			t.Errorf("%s: stopped in the %v, verdict %v", name, doc["phase"], doc["verdict"])
		}
	}
	checkReportDocument(t, name, doc, keys, confirmedKeys)
	checkPropertyList(t, name, doc["properties"])
	bases, ok := doc["rests_on"].([]any)
	if !ok || len(bases) == 0 {
		t.Fatalf("%s: rests_on is %v, want a non-empty array", name, doc["rests_on"])
	}
	for i, b := range bases {
		wantKeys(t, fmt.Sprintf("%s rests_on[%d]", name, i), b, "kind", "what")
		if k := b.(map[string]any)["kind"]; !slices.Contains(basisKinds, fmt.Sprint(k)) || (k == "complete") != (len(bases) == 1 && i == 0 && k == "complete") {
			t.Errorf("%s: rests_on %v", name, bases)
		}
	}
	if doc["verdict"] == "pass" && bases[0].(map[string]any)["kind"] != "complete" {
		t.Errorf("%s: a pass that rests on %v", name, bases)
	}
	if v, ok := doc["violation"].(map[string]any); ok {
		if (v["confirmation"] == "confirmed") != (doc["verdict"] == "fail") {
			t.Errorf("%s: violation %s, verdict %v", name, v["confirmation"], doc["verdict"])
		}
	}
}

// checkReportDocument checks the keys every check's document has (keys;
// violKeys those of its violation, a deadlock adds threads).
func checkReportDocument(t *testing.T, name string, doc map[string]any, keys, violKeys []string) {
	t.Helper()
	wantKeys(t, name, doc, keys...)
	for k, want := range map[string]string{
		"model": "string", "verdict": "string", "complete": "bool", "reason": "string",
		"stats": "object", "trail": "array", "limits_hit": "array", "search": "string",
	} {
		if got := jsonType(doc[k]); got != want {
			t.Errorf("%s: %q is a JSON %s, want %s", name, k, got, want)
		}
	}
	wantKeys(t, name+" stats", doc["stats"], statsKeys...)
	for k, v := range doc["stats"].(map[string]any) {
		if jsonType(v) != "number" {
			t.Errorf("%s: stats.%s is a JSON %s, want number", name, k, jsonType(v))
		}
	}
	for i, s := range doc["trail"].([]any) {
		what := fmt.Sprintf("%s trail[%d]", name, i)
		wantKeys(t, what, s, stepKeys...)
		step := s.(map[string]any)
		if step["step"] != float64(i+1) {
			t.Errorf("%s: step is %v, want %d", what, step["step"], i+1)
		}
		if jsonType(step["changes"]) != "object" {
			t.Errorf("%s: changes is a JSON %s, want object", what, jsonType(step["changes"]))
		}
	}
	for i, l := range doc["limits_hit"].([]any) {
		wantKeys(t, fmt.Sprintf("%s limits_hit[%d]", name, i), l, limitKeys...)
	}
	switch v := doc["violation"].(type) {
	case nil:
		if doc["verdict"] == "fail" {
			t.Errorf("%s: verdict fail without a violation", name)
		}
		if len(doc["trail"].([]any)) != 0 {
			t.Errorf("%s: a trail without a violation", name)
		}
	case map[string]any:
		if v["kind"] == "deadlock" {
			wantKeys(t, name+" violation", v, append(violKeys, "threads")...)
			for i, th := range v["threads"].([]any) {
				what := fmt.Sprintf("%s violation.threads[%d]", name, i)
				if th.(map[string]any)["terminated"] == true {
					wantKeys(t, what, th, threadKeys...)
				} else {
					wantKeys(t, what, th, append(threadKeys, "waits")...)
				}
			}
		} else {
			wantKeys(t, name+" violation", v, violKeys...)
		}
		if doc["verdict"] != "fail" {
			t.Errorf("%s: a violation with verdict %v", name, doc["verdict"])
		}
	default:
		t.Errorf("%s: violation is a JSON %s, want object or null", name, jsonType(v))
	}
}

// safetyCheckOf is the document of the check of safety (the assertions,
// runtime errors, deadlocks and invariants) in a check's document: the
// document itself for a run of one check, else the check of its "checks"
// that decided the property "safety" of kind safety.
func safetyCheckOf(t *testing.T, doc map[string]any) map[string]any {
	t.Helper()
	checks, ok := doc["checks"].([]any)
	if !ok {
		return doc
	}
	for _, c := range checks {
		cd := c.(map[string]any)
		for _, p := range cd["properties"].([]any) {
			if p.(map[string]any)["kind"] == "safety" {
				return cd
			}
		}
	}
	t.Fatalf("%v: no check of safety", doc["model"])
	return nil
}

// decidingCheckOf is the document of the check that decided a run's
// verdict: the document itself for a run of one check, else the first of
// its checks with the run's verdict.
func decidingCheckOf(t *testing.T, doc map[string]any) map[string]any {
	t.Helper()
	checks, ok := doc["checks"].([]any)
	if !ok {
		return doc
	}
	for _, c := range checks {
		if cd := c.(map[string]any); cd["verdict"] == doc["verdict"] {
			return cd
		}
	}
	t.Fatalf("%v: no check has the run's verdict %v", doc["model"], doc["verdict"])
	return nil
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "bool"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func TestCheckJSONDocument(t *testing.T) {
	for _, tc := range []struct {
		model, verdict, kind string
		status               int
	}{
		{"peterson.bir", "pass", "", ExitPass},
		{"peterson-broken.bir", "fail", "assertion", ExitViolation},
		{"philosophers-deadlock.bir", "fail", "deadlock", ExitViolation},
		{"collection-limit.bir", "inconclusive", "", ExitInconclusive},
	} {
		t.Run(tc.model, func(t *testing.T) {
			path := filepath.Join(examplesDir, tc.model)
			status, doc := checkJSON(t, path)
			if status != tc.status {
				t.Errorf("exit status %d, want %d", status, tc.status)
			}
			checkDocument(t, tc.model, doc)
			if doc["model"] != path {
				t.Errorf("model is %v, want %s", doc["model"], path)
			}
			if doc["verdict"] != tc.verdict {
				t.Errorf("verdict is %v, want %s", doc["verdict"], tc.verdict)
			}
			// peterson.bir has ltl properties: a run of several checks,
			// the first the check of safety
			c := safetyCheckOf(t, doc)
			if c["search"] != "dfs" {
				t.Errorf("search is %v, want dfs", c["search"])
			}
			if tc.kind != "" {
				v := c["violation"].(map[string]any)
				if v["kind"] != tc.kind {
					t.Errorf("violation kind is %v, want %s", v["kind"], tc.kind)
				}
				if len(c["trail"].([]any)) == 0 {
					t.Errorf("no trail")
				}
			}
		})
	}
	// A violation other than a deadlock names the thread and its location.
	_, doc := checkJSON(t, "--search=bfs", filepath.Join(examplesDir, "peterson-broken.bir"))
	v := doc["violation"].(map[string]any)
	if v["thread"] != "P0[1]" || v["location"] != "trying" || !strings.HasSuffix(v["pos"].(string), "peterson-broken.bir:17:55") {
		t.Errorf("violation = %v, want thread P0[1] at trying, pos …peterson-broken.bir:17:55", v)
	}
	if doc["search"] != "bfs" {
		t.Errorf("search is %v, want bfs", doc["search"])
	}
	trail := doc["trail"].([]any)
	last := trail[len(trail)-1].(map[string]any)
	if last["to"] != "error" || last["thread"] != "P0[1]" {
		t.Errorf("last step = %v, want P0[1] … -> error", last)
	}
}

// expectKinds maps the kind words of the examples' "// expect:" lines to
// the violation kinds of the JSON output.
var expectKinds = map[string]string{
	"assert":    "assertion",
	"deadlock":  "deadlock",
	"null":      "null-dereference",
	"index":     "index-out-of-bounds",
	"divzero":   "division-by-zero",
	"range":     "range",
	"overflow":  "overflow",
	"monitor":   "illegal-monitor-state",
	"cast":      "type",
	"invariant": "invariant",
}

// exampleCounts reads the state and transition counts of docs/examples.md.
func exampleCounts(t *testing.T) map[string][2]int {
	t.Helper()
	b, err := os.ReadFile("../../docs/examples.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^\| (\S+\.bir) \| [^|]+ \| (\d+) \| (\d+) \|`)
	counts := map[string][2]int{}
	for _, m := range row.FindAllStringSubmatch(string(b), -1) {
		s, _ := strconv.Atoi(m[2])
		tr, _ := strconv.Atoi(m[3])
		counts[m[1]] = [2]int{s, tr}
	}
	if len(counts) < 10 {
		t.Fatalf("docs/examples.md: found counts for only %d models", len(counts))
	}
	return counts
}

// TestCheckExamples checks every example against its "// expect:" line, and
// the exhaustive state counts against docs/examples.md.
func TestCheckExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(examplesDir, "*.bir"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	counts := exampleCounts(t)
	expectRx := regexp.MustCompile(`(?m)^// expect: (pass|fail|inconclusive)(?: (\S+))?\s*$`)
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, ".bir"), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m := expectRx.FindStringSubmatch(string(src))
			if m == nil {
				t.Fatalf("%s has no // expect: line", name)
			}
			verdict, what := m[1], m[2]
			status, doc := checkJSON(t, path)
			checkDocument(t, name, doc)
			if doc["verdict"] != verdict {
				t.Errorf("verdict %v, want %s (reason: %v)", doc["verdict"], verdict, doc["reason"])
			}
			wantStatus := map[string]int{"pass": ExitPass, "fail": ExitViolation, "inconclusive": ExitInconclusive}[verdict]
			if status != wantStatus {
				t.Errorf("exit status %d, want %d", status, wantStatus)
			}
			// a model with ltl properties has a check per property: the
			// deciding check has the violation or the limits hit, and
			// the check of safety the counts of docs/examples.md
			dc := decidingCheckOf(t, doc)
			switch verdict {
			case "fail":
				kind, ok := expectKinds[what]
				if !ok {
					t.Fatalf("unknown expected kind %q", what)
				}
				v, _ := dc["violation"].(map[string]any)
				if v == nil || v["kind"] != kind {
					t.Errorf("violation %v, want kind %s", v, kind)
				}
			case "inconclusive":
				if what != "limit" {
					t.Fatalf("unknown expectation %q", what)
				}
				if len(dc["limits_hit"].([]any)) == 0 {
					t.Errorf("no limits_hit")
				}
			}
			if c, ok := counts[name]; ok {
				st := safetyCheckOf(t, doc)["stats"].(map[string]any)
				if st["states"] != float64(c[0]) || st["transitions"] != float64(c[1]) {
					t.Errorf("%v states, %v transitions; docs/examples.md says %d and %d", st["states"], st["transitions"], c[0], c[1])
				}
			} else if verdict != "fail" {
				t.Errorf("docs/examples.md gives no counts for %s", name)
			}
		})
	}
}

// TestTrailRoundTrip saves the trail of every failing example with each
// search order and replays it: the replay ends in the same violation.
func TestTrailRoundTrip(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(examplesDir, "*.bir"))
	dir := t.TempDir()
	n := 0
	for _, path := range files {
		src, _ := os.ReadFile(path)
		if !bytes.Contains(src, []byte("// expect: fail")) {
			continue
		}
		for _, order := range []string{"dfs", "bfs", "random"} {
			n++
			name := strings.TrimSuffix(filepath.Base(path), ".bir") + "-" + order
			trail := filepath.Join(dir, name+".json")
			status, doc := checkJSON(t, "--search="+order, "--trail", trail, path)
			if status != ExitViolation {
				t.Errorf("%s: check exit status %d, want 1", name, status)
				continue
			}
			v := doc["violation"].(map[string]any)
			b, err := os.ReadFile(trail)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			var tf map[string]any
			if err := json.Unmarshal(b, &tf); err != nil {
				t.Errorf("%s: the trail file is not JSON: %v", name, err)
				continue
			}
			wantKeys(t, name+" trail file", tf, "format", "model", "search", "ordinals", "violation", "trail")
			if tf["format"] != "birch-trail/1" || tf["model"] != path || tf["search"] != order {
				t.Errorf("%s: trail file header format=%v model=%v search=%v", name, tf["format"], tf["model"], tf["search"])
			}
			if len(tf["ordinals"].([]any)) != len(doc["trail"].([]any)) || len(tf["trail"].([]any)) != len(doc["trail"].([]any)) {
				t.Errorf("%s: the trail file has %d ordinals and %d steps; the check printed %d steps", name,
					len(tf["ordinals"].([]any)), len(tf["trail"].([]any)), len(doc["trail"].([]any)))
			}
			status, stdout, stderr := runMain("replay", path, trail)
			if status != ExitViolation {
				t.Errorf("%s: replay exit status %d, want 1\nstderr:\n%s", name, status, stderr)
				continue
			}
			want := "fail: " + v["kind"].(string) + ": " + v["message"].(string) + "\n"
			if v["kind"] == "deadlock" {
				want = "fail: deadlock: no thread can move\n"
				if !strings.Contains(stdout, want) {
					t.Errorf("%s: replay output lacks %q:\n%s", name, want, stdout)
				}
				continue
			}
			if !strings.HasSuffix(stdout, want) {
				t.Errorf("%s: replay output does not end in %q:\n%s", name, want, stdout)
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d failing runs", n)
	}
}

// TestSimulateDeterministic runs simulate twice per seed: the output is the
// same.
func TestSimulateDeterministic(t *testing.T) {
	for _, model := range []string{"dynamic-threads.bir", "peterson-broken.bir", "msgqueue.bir", "choose.bir"} {
		for _, seed := range []string{"1", "3", "12345"} {
			args := []string{"simulate", "-v", "--seed", seed, filepath.Join(examplesDir, model)}
			s1, out1, err1 := runMain(args...)
			s2, out2, err2 := runMain(args...)
			if s1 != s2 || out1 != out2 || err1 != err2 {
				t.Errorf("%s --seed %s: two runs differ:\n--- status %d\n%s%s\n--- status %d\n%s%s", model, seed, s1, out1, err1, s2, out2, err2)
			}
			if s1 != ExitPass && s1 != ExitViolation {
				t.Errorf("%s --seed %s: exit status %d\n%s", model, seed, s1, err1)
			}
		}
	}
	// Different seeds give different runs (of this model, for these seeds).
	_, a, _ := runMain("simulate", "-v", "--seed", "1", filepath.Join(examplesDir, "msgqueue.bir"))
	_, b, _ := runMain("simulate", "-v", "--seed", "2", filepath.Join(examplesDir, "msgqueue.bir"))
	if a == b {
		t.Errorf("seeds 1 and 2 give the same run of msgqueue.bir")
	}
}

// bigModel is a model with 21^6 (about 8.6e7) states, far more than a test
// can explore: six threads each counting 0..20 in a loop.
func bigModel(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("system Big ()\n")
	for _, name := range []string{"A", "B", "C", "D", "E", "F"} {
		fmt.Fprintf(&b, `
main thread %s ()
  n : range 0..20;
  loc s0:
    when n < 20 do { n := n + 1; } goto s0;
    when n == 20 do { n := 0; } goto s0;
end %s;
`, name, name)
	}
	b.WriteString("\nend Big;\n")
	path := filepath.Join(t.TempDir(), "big.bir")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var statsLineRx = regexp.MustCompile(`(?m)^stats: \d+ states, \d+ transitions, max depth \d+, [0-9.]+ s, \d+ states/s, [0-9.]+ (B|KiB|MiB|GiB), [0-9.]+ bytes/state$`)

// TestCheckInterrupt sends SIGINT while birch check runs: the search stops
// and reports an inconclusive result with its statistics.
func TestCheckInterrupt(t *testing.T) {
	path := bigModel(t)
	// Our own registration keeps a SIGINT from killing the test binary if it
	// arrives before birch check has installed its handler.
	mine := make(chan os.Signal, 16)
	signal.Notify(mine, os.Interrupt)
	defer func() {
		time.Sleep(100 * time.Millisecond) // let signals in flight arrive
		signal.Stop(mine)
	}()

	type result struct {
		status         int
		stdout, stderr string
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		s, o, e := runMain("check", path)
		done <- result{s, o, e}
	}()
	time.Sleep(300 * time.Millisecond)
	var r result
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(60 * time.Second)
wait:
	for {
		// Signal again until the search stops, in case the first signal
		// came before the handler was installed.
		if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		select {
		case r = <-done:
			break wait
		case <-tick.C:
		case <-deadline:
			t.Fatal("birch check did not stop within 60 s of SIGINT")
		}
	}
	if r.status != ExitInconclusive {
		t.Errorf("exit status %d, want 3\nstdout:\n%s\nstderr:\n%s", r.status, r.stdout, r.stderr)
	}
	if !strings.HasPrefix(r.stdout, "inconclusive: interrupted\n") {
		t.Errorf("stdout does not start with the verdict %q:\n%s", "inconclusive: interrupted", r.stdout)
	}
	if !statsLineRx.MatchString(r.stdout) {
		t.Errorf("no stats line:\n%s", r.stdout)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the search took %v to stop", d)
	}
}

func TestCheckTimeLimit(t *testing.T) {
	path := bigModel(t)
	start := time.Now()
	status, stdout, stderr := runMain("check", "--time-limit", "200ms", path)
	if status != ExitInconclusive {
		t.Errorf("exit status %d, want 3\n%s%s", status, stdout, stderr)
	}
	if !strings.HasPrefix(stdout, "inconclusive: time limit reached (--time-limit=200ms)\n") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if !statsLineRx.MatchString(stdout) {
		t.Errorf("no stats line:\n%s", stdout)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("a 200ms time limit took %v", d)
	}
	// JSON: the reason says so, and the search is not complete.
	status, doc := checkJSON(t, "--time-limit=0.2", path)
	if status != ExitInconclusive || doc["verdict"] != "inconclusive" || doc["complete"] != false ||
		!strings.Contains(doc["reason"].(string), "time limit") {
		t.Errorf("status %d, verdict %v, complete %v, reason %v", status, doc["verdict"], doc["complete"], doc["reason"])
	}
}

func TestCheckMaxMemory(t *testing.T) {
	path := bigModel(t)
	for _, order := range []string{"dfs", "bfs"} {
		status, stdout, stderr := runMain("check", "--search", order, "--max-memory", "1M", path)
		if status != ExitInconclusive {
			t.Errorf("%s: exit status %d, want 3\n%s%s", order, status, stdout, stderr)
		}
		if !strings.HasPrefix(stdout, "inconclusive: memory limit reached (--max-memory=1.0 MiB)\n") {
			t.Errorf("%s: stdout:\n%s", order, stdout)
		}
		if !statsLineRx.MatchString(stdout) {
			t.Errorf("%s: no stats line:\n%s", order, stdout)
		}
	}
	status, doc := checkJSON(t, "--max-memory=1M", path)
	st := doc["stats"].(map[string]any)
	if status != ExitInconclusive || !strings.Contains(doc["reason"].(string), "memory") {
		t.Errorf("status %d, reason %v", status, doc["reason"])
	}
	// the search stops before the next growth of the store could pass
	// the limit: it never holds more than the limit
	if mem := st["memory_bytes"].(float64); mem <= 0 || mem > 1<<20 {
		t.Errorf("memory_bytes %v, want at most 1 MiB", mem)
	}
}

// TestCheckProgress: --progress prints a progress line about once a second
// on stderr.
func TestCheckProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 1.5 s")
	}
	// A line every 10 ms: the time limit counts from the start of the
	// command, so on a loaded machine the search itself may get well
	// under a second of it.
	progressEvery = 10 * time.Millisecond
	defer func() { progressEvery = 0 }()
	path := bigModel(t)
	status, stdout, stderr := runMain("check", "--progress", "--time-limit", "1.5s", path)
	if status != ExitInconclusive {
		t.Errorf("exit status %d, want 3\n%s%s", status, stdout, stderr)
	}
	rx := regexp.MustCompile(`(?m)^progress: \d+s, \d+ states, \d+ transitions, depth \d+, \d+ states/s now, [0-9.]+ (B|KiB|MiB|GiB)$`)
	if !rx.MatchString(stderr) {
		t.Errorf("no progress line on stderr:\n%s", stderr)
	}
	if strings.Contains(stdout, "progress:") {
		t.Errorf("progress on stdout:\n%s", stdout)
	}
	// Without --progress and with stderr not a terminal: nothing on stderr.
	_, _, stderr = runMain("check", "--time-limit", "1.2s", path)
	if stderr != "" {
		t.Errorf("stderr without --progress:\n%s", stderr)
	}
}

// TestReplayPrintlnOutput: replay shows the println output of each step,
// and only that step's.
func TestReplayPrintlnOutput(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "race.bir")
	src := `system Race ()
count : range 0..2;

thread W ()
  tmp : range 0..2;
  loc w0:
    when true do { tmp := count; } goto w1;
  loc w1:
    when true do { count := tmp + 1; println("wrote ", count); } goto w2;
  loc w2:
end W;

main thread M ()
  a, b : tid;
  loc m0:
    when true do { a := start W(); b := start W(); } goto m1;
  loc m1:
    when threadTerminated(a) && threadTerminated(b) do { assert(count == 2); } goto m2;
  loc m2:
end M;

end Race;
`
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	trail := filepath.Join(dir, "t.json")
	if status, _, stderr := runMain("check", "--search=bfs", "--trail", trail, model); status != ExitViolation {
		t.Fatalf("check: exit status %d\n%s", status, stderr)
	}
	_, stdout, _ := runMain("replay", model, trail)
	// Two printlns run on the trail (steps 4 and 5).
	if n := strings.Count(stdout, "output: wrote"); n != 2 {
		t.Errorf("%d println outputs, want 2:\n%s", n, stdout)
	}
}
