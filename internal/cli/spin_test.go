package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"birch/internal/testenv"
)

func needSpin(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"spin", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH (apt-get install spin gcc)", tool)
		}
	}
}

// spinScript runs SPIN through birch spin; it needs spin and gcc, so it is
// not in testdata/script (whose scripts run everywhere).
const spinScript = `
# A complete search without reduction: the verdict and state count of birch check;
# every property of the model, the ltl ones in a SPIN run each.
birch spin $EXAMPLES/peterson.bir
status 0
stdout '^pass: all 6 properties hold$'
stdout '^properties: safety \(assertions, runtime errors, deadlocks\): pass; invariant mutex: pass; invariant exclusive: pass; ltl property safety: pass; ltl property mirrors: pass; ltl property flagged: pass$'
stdout '^== ltl property flagged ==$'
stdout '^pass: no violation: every reachable state was explored$'
stdout '^rests on: complete \(exhaustive search of the model as written\)$'
stdout '^stats: SPIN: 26 states, \d+ transitions, max depth \d+, '
stdout '^times: translation [\d.]+ s, spin -a [\d.]+ s, gcc [\d.]+ s, pan [\d.]+ s \(gcc -O2 -DSAFETY -DNOREDUCE; pan -m1000000 -n\)$'
stdout '\(gcc -O2 -DNOREDUCE; pan -a -N ltl_mirrors -m1000000 -n\)$'

# Bitstate hashing (incomplete: inconclusive); partial-order reduction in spinScriptLong.
birch spin --bitstate --property mutex $EXAMPLES/peterson.bir
status 3
stdout '^inconclusive: no violation found by SPIN.s bitstate search'
stdout '^rests on: under-approximated \(SPIN.s bitstate search \(supertrace\), which may miss states\)$'
stdout '-DBITSTATE'

# A violation: SPIN's trail in BIR terms, saved for birch replay.
birch spin --trail t.json $EXAMPLES/peterson-broken.bir
status 1
stdout '^fail: assertion: assertion violated: incs == 1$'
stdout '^  thread P0\[1\] at trying$'
stdout '^  SPIN: assertion violated \(\(incs==1\)\|\|BIR_assertion\)$'
stdout '^rests on: complete \(exhaustive search of the model as written\); the trail is confirmed \(found by SPIN; replayed in birch\)$'
stdout '^trail \(\d+ steps\):$'
stdout '^   1\. P\d\[\d\]  idle -> setflag  .*peterson-broken.bir:\d+:5$'
stdout 'trying -> error  .*peterson-broken.bir:17:55$'
stdout '^trail saved to t.json$'
birch replay $EXAMPLES/peterson-broken.bir t.json
status 1
stdout '^fail: assertion: assertion violated: incs == 1$'

# JSON: birch check's document, with SPIN's details.
birch spin --json $EXAMPLES/divzero.bir
status 1
stdout '"verdict": "fail"'
stdout '"kind": "division-by-zero"'
stdout '"thread": "Averager\[2\]"'
stdout '"search": "spin"'
stdout '"states": 1,'
stdout '"compile_seconds": '
stdout '"assertion": "\(\(count!=0\)\|\|BIR_division_by_zero\)"'

# Bounds of the model: the path is cut, and pan says so.
birch spin $EXAMPLES/collection-limit.bir
status 3
stdout '^inconclusive: no violation within the bounds; paths were cut where a bound was hit: collection Nodes is full \(2 objects\)$'
stdout '^bound hit: .*collection-limit.bir:\d+:\d+: collection Nodes is full \(2 objects\)$'
stdout '^stats: SPIN: 5 states'

# A 32-bit overflow that birch's 64-bit int does not have: shown, not saved.
birch spin --trail o.json $EXAMPLES/int-overflow.bir
status 1
stdout '^fail: overflow: integer overflow beyond 32 bits'
stdout '^note: the trail shows the steps up to the one that overflows in SPIN'
stdout 'the trail is confirmed \(found by SPIN with Promela.s 32-bit int; birch.s int has 64 bits and no violation there\)$'
! stdout 'trail saved'
! stdout 'trail NOT saved'

# Properties: invariants are checked by a monitor process, in every state.
birch spin $EXAMPLES/../internal/search/testdata/props/invariant-unsafe.bir
status 1
stdout '^fail: invariant: invariant small violated: count <= 2$'
stdout '^  SPIN: assertion violated \(BIR_invariant\|\|\(count<=2\)\)$'

# --keep keeps SPIN's files (those of each ltl property's run in a directory of their own).
birch spin --keep work $EXAMPLES/invisible.bir
status 0
stdout '^SPIN.s files are in work$'
stdout '^SPIN.s files are in work/ltl_eventually$'
stdout '^SPIN.s files are in work/ltl_notBefore$'
cmp work/model.pml invisible.pml
`

// spinScriptLong is the part of the script that runs with BIRCH_LONG=1
// only, each birch spin a gcc -O2 of pan (about a second of CPU, more for
// a larger model). factorial.bir's pan takes gcc -O2 six seconds of CPU, and
// internal/backend/promela's TestSpinAgreement compares both models' counts
// with birch's (dynamic-threads.bir in its default run too). The default
// run has a representative of the others: of an incomplete search, the
// bitstate one (internal/verify's TestSpinRestsOn checks the depth bound's
// verdict too); of a deadlock's trail replayed, TestSpinTrailsReplay's
// bounded-buffer-notify; of a bound hit, collection-limit.bir's safety run;
// of the properties chosen, the invariant's violation and --property
// mutex.
const spinScriptLong = `
# Partial-order reduction.
birch spin --por --property mutex $EXAMPLES/peterson.bir
status 0
stdout '\(gcc -O2 -DSAFETY; pan'

# Flags after -- go to pan: a depth bound too small makes the search incomplete.
birch spin --property mutex $EXAMPLES/peterson.bir -- -m5
status 3
stdout '^inconclusive: no violation found, but SPIN.s search was cut at its depth bound'
stdout '^rests on: bounded \(SPIN.s search was cut at its depth bound \(pan -m5\)\)$'
stdout 'pan -m5 -n\)$'

# A deadlock.
birch spin --trail d.json $EXAMPLES/philosophers-deadlock.bir
status 1
stdout '^fail: deadlock: no thread can move$'
stdout '^threads at the deadlock:$'
birch replay $EXAMPLES/philosophers-deadlock.bir d.json
status 1
stdout '^fail: deadlock: no thread can move$'

# A bound hit in an ltl run is reported as in the safety run.
birch spin --ltl=[]true $EXAMPLES/collection-limit.bir
status 3
stdout '^bound hit: .*collection-limit.bir:\d+:\d+: collection Nodes is full \(2 objects\)$'
! stdout 'bound hit 0 times'

# Properties left out: the invariant not checked passes.
birch spin --property nonneg $EXAMPLES/../internal/search/testdata/props/invariant-unsafe.bir
status 0
birch spin --no-invariants $EXAMPLES/../internal/search/testdata/props/invariant-unsafe.bir
status 0

# Threads and functions: the same counts as birch check.
birch spin $EXAMPLES/dynamic-threads.bir
status 0
stdout '^stats: SPIN: 47 states'
birch spin $EXAMPLES/factorial.bir
status 0
stdout '^stats: SPIN: 357 states'
`

func TestSpinScript(t *testing.T) {
	needSpin(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "spin.txt")
	// the kept translation must equal birch translate's, but for the
	// limit reports (none in invisible.bir)
	var out bytes.Buffer
	if st := Main([]string{"translate", "--to", "promela", filepath.Join("..", "..", "examples", "invisible.bir")}, nil, &out, &out); st != 0 {
		t.Fatalf("translate: %s", out.String())
	}
	script := spinScript
	if testenv.Long() {
		script += spinScriptLong
	}
	script += "\n-- invisible.pml --\n" + out.String()
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	runScript(t, path)
}

// TestSpinMissing checks the message when spin or gcc is missing.
func TestSpinMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var stdout, stderr bytes.Buffer
	st := Main([]string{"spin", filepath.Join("..", "..", "examples", "peterson.bir")}, nil, &stdout, &stderr)
	if st != ExitBadInput {
		t.Errorf("status %d, want %d", st, ExitBadInput)
	}
	if got := stderr.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "apt-get install spin") {
		t.Errorf("want one line saying how to install spin, got %q", got)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout: %q", stdout.String())
	}
}

// quickTrails are the failing examples whose SPIN trails
// TestSpinTrailsReplay replays in the default run (a deadlock reached
// through wait and notify, a runtime error on the heap, a misuse of a
// lock; spinScript replays an assertion and another deadlock); with
// BIRCH_LONG=1 it replays every failing example's.
var quickTrails = map[string]bool{"bounded-buffer-notify": true, "null-deref": true, "monitor-error": true}

// TestSpinTrailsReplay checks that the trail birch spin saves for every
// failing example replays with birch replay to the same violation. The
// examples run in parallel.
func TestSpinTrailsReplay(t *testing.T) {
	t.Parallel() // with TestSpinLTL: gcc is the work
	needSpin(t)
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "*.bir"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	quick := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), "// expect: fail") || strings.Contains(string(src), "expect: fail overflow") {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(path), ".bir")
		if quickTrails[name] {
			quick++
		} else if !testenv.Long() {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			trail := filepath.Join(t.TempDir(), "trail.json")
			var stdout, stderr bytes.Buffer
			if st := Main([]string{"spin", "--trail", trail, path}, nil, &stdout, &stderr); st != ExitViolation {
				t.Fatalf("birch spin: status %d\n%s%s", st, stdout.String(), stderr.String())
			}
			verdict := strings.SplitN(stdout.String(), "\n", 2)[0]
			stdout.Reset()
			stderr.Reset()
			if st := Main([]string{"replay", path, trail}, nil, &stdout, &stderr); st != ExitViolation {
				t.Fatalf("birch replay: status %d\n%s%s", st, stdout.String(), stderr.String())
			}
			kind := strings.SplitN(strings.TrimPrefix(verdict, "fail: "), ":", 2)[0]
			if !strings.Contains(stdout.String(), "\nfail: "+kind+":") {
				t.Errorf("birch spin found %q, birch replay:\n%s", verdict, stdout.String())
			}
		})
	}
	if quick != len(quickTrails) {
		t.Errorf("%d of the %d quickTrails are failing examples", quick, len(quickTrails))
	}
}

// TestSpinLTL runs birch spin on LTL properties (formulas with spaces do
// not fit the script runner): verdicts and lassos in birch's terms. Two
// cases, a SPIN run (a gcc -O2) each, run with BIRCH_LONG=1 only.
func TestSpinLTL(t *testing.T) {
	t.Parallel() // with TestSpinTrailsReplay: gcc is the work
	needSpin(t)
	props := filepath.Join("..", "search", "testdata", "props")
	trail := filepath.Join(t.TempDir(), "l.json")
	type ltlCase struct {
		args   []string
		status int
		want   []string
	}
	cases := []ltlCase{
		{[]string{"--property", "eventuallyFlag", "--trail", trail, filepath.Join(props, "fairness.bir")}, ExitViolation, []string{
			`(?m)^fail: ltl: ltl property eventuallyFlag violated: <> flag$`,
			`(?m)^cycle \(2 steps, back to the state after step 1\), repeated forever:$`,
			`pan -a -N ltl_eventuallyFlag `, `(?m)^trail saved to `}},
		{[]string{"--fair", "--property", "eventuallyFlag", filepath.Join(props, "fairness.bir")}, ExitPass, []string{`pan -a -f -N ltl_eventuallyFlag `}},
		// every property of the model, the ltl ones too (before, birch spin
		// checked only the invariants and passed)
		{[]string{filepath.Join(props, "fairness.bir")}, ExitViolation, []string{
			`(?m)^fail: 1 of 4 properties violated: ltl property eventuallyFlag$`,
			`(?m)^properties: safety \(assertions, runtime errors, deadlocks\): pass; ltl property eventuallyFlag: fail; ltl property spins: pass; ltl property flagStays: pass$`,
			`(?m)^== ltl property eventuallyFlag ==\nfail: ltl: ltl property eventuallyFlag violated: <> flag$`,
			`(?m)^rests on: complete \(exhaustive search of the model as written\); the trail is confirmed \(found by SPIN; replayed in birch\)$`}},
		{[]string{"--ltl", "<> [] (x == 2)", filepath.Join(props, "terminate.bir")}, ExitPass, []string{`(?m)^pass: `}},
		{[]string{"--ltl", "[] (x >= 1)", filepath.Join(props, "terminate.bir")}, ExitViolation, []string{
			`(?m)^note: SPIN found a bad prefix`, `(?m)^(cycle|then the last state repeats forever)`}},
		{[]string{"--pattern", "existence(counter == 4) globally", filepath.Join("..", "..", "examples", "dynamic-threads.bir")}, ExitViolation, []string{
			`(?m)^then the last state repeats forever \(every thread has terminated\)$`}},
	}
	if testenv.Long() {
		cases = append(cases, []ltlCase{
			// --property twice checks both (before, only the last); the
			// default run has the case of every property
			{[]string{"--property", "spins", "--property", "eventuallyFlag", filepath.Join(props, "fairness.bir")}, ExitViolation, []string{
				`(?m)^properties: ltl property spins: pass; ltl property eventuallyFlag: fail$`}},
			// a pass with X (the default run has a pass of <> [])
			{[]string{"--ltl", "[] (done -> X done)", filepath.Join("..", "..", "examples", "dynamic-threads.bir")}, ExitPass, []string{`(?m)^pass: `}},
		}...)
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		st := Main(append([]string{"spin"}, c.args...), nil, &stdout, &stderr)
		if st != c.status {
			t.Errorf("%v: status %d, want %d\n%s%s", c.args, st, c.status, stdout.String(), stderr.String())
			continue
		}
		for _, w := range c.want {
			if !regexp.MustCompile(w).MatchString(stdout.String()) {
				t.Errorf("%v: output does not match %s:\n%s", c.args, w, stdout.String())
			}
		}
	}
	// the saved lasso replays in birch (replay checks its steps)
	var stdout, stderr bytes.Buffer
	Main([]string{"replay", filepath.Join(props, "fairness.bir"), trail}, nil, &stdout, &stderr)
	if !strings.Contains(stdout.String(), "Spinner[2]  s0 -> s0") {
		t.Errorf("replay of SPIN's lasso:\n%s%s", stdout.String(), stderr.String())
	}
	// a bad formula is a positioned error
	var out, errOut bytes.Buffer
	if st := Main([]string{"spin", "--ltl", "[] (", filepath.Join(props, "terminate.bir")}, nil, &out, &errOut); st != ExitBadInput || !strings.HasPrefix(errOut.String(), "--ltl:1:") {
		t.Errorf("bad formula: status %d, stderr %q", st, errOut.String())
	}
}
