package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestNonsenseLimits: a numeric limit with a nonsense value (NaN, Inf,
// 1e30, a fraction for a count, a negative or overflowing number) is a
// usage error (exit 2) that names the flag, never a limit silently turned
// off. The model files do not exist: a value taken for valid would fail
// on them instead, without naming the flag.
func TestNonsenseLimits(t *testing.T) {
	durations := []string{"NaN", "Inf", "+Inf", "-Inf", "infinity", "1e30", "1e400", "-1", "0", "0s", "-5s", "1e-12", "9999999999999h", "soon"}
	sizes := []string{"NaN", "Inf", "-Inf", "1e30", "1e30G", "1e19", "0.5", "0", "-1", "-1G", "0.0001K", "lots"}
	counts := []string{"NaN", "Inf", "1e30", "0.5", "1.5", "-1", "99999999999999999999", "ten"}
	type cmd struct {
		args []string // the command and its arguments, before the flag
		flag string
		vals []string
	}
	var cases []cmd
	check := []string{"check", "no-such-model.bir"}
	for _, f := range []string{"--time-limit"} {
		cases = append(cases,
			cmd{check, f, durations},
			cmd{[]string{"check", "--ltl", "[] p", "no-such-model.bir"}, f, durations},
			cmd{[]string{"smt", "no-such-script.smt2"}, f, durations},
			cmd{[]string{"spin", "no-such-model.bir"}, f, durations})
	}
	cases = append(cases, cmd{check, "--max-memory", sizes})
	for _, f := range []string{"--max-depth", "--max-states", "--max-threads", "--max-call-depth", "--max-replay", "--seed"} {
		cases = append(cases, cmd{check, f, counts})
	}
	cases = append(cases, cmd{check, "--max-threads", []string{"0", "65"}}, cmd{check, "--max-call-depth", []string{"0"}})
	for _, f := range []string{"--max-threads", "--max-call-depth"} {
		cases = append(cases,
			cmd{[]string{"replay", "no-such-model.bir", "no-such.trail"}, f, append(counts, "0")},
			cmd{[]string{"spin", "no-such-model.bir"}, f, append(counts, "0")})
	}
	cases = append(cases, cmd{[]string{"replay", "no-such-model.bir", "no-such.trail"}, "--max-threads", []string{"65"}})
	for _, f := range []string{"--steps", "--seed"} {
		cases = append(cases, cmd{[]string{"simulate", "no-such-model.bir"}, f, counts})
	}
	for _, c := range cases {
		for _, v := range c.vals {
			args := append([]string{c.args[0], c.flag + "=" + v}, c.args[1:]...)
			t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
				status, _, stderr := runMain(args...)
				first, _, _ := strings.Cut(stderr, "\n")
				name := strings.TrimLeft(c.flag, "-")
				if status != ExitBadInput || !strings.Contains(first, name) {
					t.Errorf("birch %s: status %d, first line of stderr %q; want status 2 and a message about %s",
						strings.Join(args, " "), status, first, c.flag)
				}
				if (c.flag == "--time-limit" || c.flag == "--max-memory") && strings.Count(stderr, "\n") != 1 {
					t.Errorf("birch %s: stderr %q; want one line", strings.Join(args, " "), stderr)
				}
			})
		}
	}
}

// TestStopInEveryPhase: Ctrl-C (here, the interrupt of phaseHook) stops a
// check in whichever phase it comes, before the search as in it or after
// it: birch prints an inconclusive report naming the phase, in text and
// JSON, and exits 3.
func TestStopInEveryPhase(t *testing.T) {
	defer func() { phaseHook = nil }()
	withdraw := abstractionExamples + "/withdraw.bir"
	parity := abstractionExamples + "/parity.bir"
	ltlFormula := "[] (x % 2 == 1 -> <> (x % 2 == 0))"
	cases := []struct {
		args  []string
		phase string
	}{
		{[]string{"check", "../../examples/peterson.bir"}, phaseModel},
		{[]string{"check", "../../examples/peterson.bir"}, phaseSearch},
		{[]string{"check", "--ltl", "[] !(p0cs && p1cs)", "../../examples/peterson.bir"}, phaseModel},
		{[]string{"check", "--ltl", "[] !(p0cs && p1cs)", "../../examples/peterson.bir"}, phaseTranslation},
		{[]string{"check", "--ltl", "[] !(p0cs && p1cs)", "../../examples/peterson.bir"}, phaseSearch},
		{[]string{"check", "--property", "safety", "../../examples/peterson.bir"}, phaseTranslation},
		{[]string{"check", "--abstract", "balance=range(0,2)", withdraw}, phaseSynthesis},
		{[]string{"check", "--abstract", "balance=range(0,2)", withdraw}, phaseSearch},
		{[]string{"check", "--abstract", "balance=range(0,2)", withdraw}, phaseReplay},
		{[]string{"check", "--abstract", "x=signs", "--ltl", ltlFormula, parity}, phaseModel},
		{[]string{"check", "--abstract", "x=signs", "--ltl", ltlFormula, parity}, phaseSynthesis},
		{[]string{"check", "--abstract", "x=signs", "--ltl", ltlFormula, parity}, phaseTranslation},
		{[]string{"check", "--abstract", "x=signs", "--ltl", ltlFormula, parity}, phaseSearch},
		{[]string{"check", "--abstract", "x=signs", "--ltl", ltlFormula, parity}, phaseReplay},
	}
	for _, c := range cases {
		for _, asJSON := range []bool{false, true} {
			args := c.args
			if asJSON {
				args = append([]string{args[0], "--json"}, args[1:]...)
			}
			t.Run(c.phase+" "+strings.Join(args, " "), func(t *testing.T) {
				var seen []string
				phaseHook = func(phase string, l *runLimits) {
					seen = append(seen, phase)
					if phase == c.phase {
						l.End("interrupted")
					}
				}
				status, stdout, stderr := runMain(args...)
				if status != ExitInconclusive {
					t.Fatalf("status %d (phases %q)\n%s%s", status, seen, stdout, stderr)
				}
				want := "inconclusive: interrupted during the " + c.phase + "\n"
				if c.phase == phaseSearch {
					want = "inconclusive: interrupted"
				}
				// A model with ltl properties (peterson.bir without
				// flags) is a run of several checks: the first check is
				// the one interrupted, and the run's verdict is
				// inconclusive with every property undecided.
				if asJSON {
					type report struct {
						Verdict, Reason string
						Phase           *string
					}
					var doc struct {
						report
						Checks []report
					}
					if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
						t.Fatalf("%v\n%s", err, stdout)
					}
					r := doc.report
					if len(doc.Checks) > 0 {
						r = doc.Checks[0]
						if doc.Verdict != "inconclusive" || !strings.Contains(doc.Reason, "not decided") {
							t.Errorf("JSON: run verdict %q, reason %q\n%s", doc.Verdict, doc.Reason, stdout)
						}
					}
					if r.Verdict != "inconclusive" || !strings.HasPrefix(r.Reason, "interrupted") ||
						(c.phase != phaseSearch) != (r.Phase != nil && *r.Phase == c.phase) {
						t.Errorf("JSON: verdict %q, reason %q, phase %v\n%s", r.Verdict, r.Reason, r.Phase, stdout)
					}
				} else if first, rest, _ := strings.Cut(stdout, "\n== "); rest != "" {
					_, block, _ := strings.Cut(rest, "==\n")
					if !strings.HasPrefix(first, "inconclusive: ") || !strings.HasPrefix(block, want) {
						t.Errorf("stdout %q; want an inconclusive run whose first check starts with %q", stdout, want)
					}
				} else if !strings.HasPrefix(stdout, want) {
					t.Errorf("stdout %q; want it to start with %q", stdout, want)
				}
			})
		}
	}
}

// TestLimitsBeforeTheSearch: the time limit and the memory limit hold in
// the phases before the search too (the hook waits, in the phase, for the
// limit to end the command).
func TestLimitsBeforeTheSearch(t *testing.T) {
	defer func() { phaseHook = nil }()
	for _, c := range []struct {
		flag, phase, want string
	}{
		{"--time-limit=1ms", phaseModel, "inconclusive: time limit reached (--time-limit=1ms) during the model construction\n"},
		// 1s: the model's construction ends first even on a loaded
		// machine (with 1ms the timer could fire before it ended)
		{"--time-limit=1s", phaseTranslation, "inconclusive: time limit reached (--time-limit=1s) during the LTL translation\n"},
		{"--max-memory=1", phaseModel, "inconclusive: memory limit reached (--max-memory=1 B) during the model construction\n"},
		{"--max-memory=1", phaseTranslation, "inconclusive: memory limit reached (--max-memory=1 B) during the LTL translation\n"},
	} {
		t.Run(c.flag+" "+c.phase, func(t *testing.T) {
			phaseHook = func(phase string, l *runLimits) {
				if phase == c.phase {
					<-l.Ctx.Done()
				}
			}
			status, stdout, stderr := runMain("check", c.flag, "--ltl", "[] !(p0cs && p1cs)", "../../examples/peterson.bir")
			// the memory watch samples every few milliseconds: on a
			// loaded machine it may see the 1-byte limit while the model
			// is still being built; run again until the run reaches the
			// phase under test
			for try := 0; try < 20 && c.phase == phaseTranslation && strings.Contains(stdout, "during the model construction"); try++ {
				status, stdout, stderr = runMain("check", c.flag, "--ltl", "[] !(p0cs && p1cs)", "../../examples/peterson.bir")
			}
			want := c.want
			reason := strings.TrimSuffix(strings.TrimPrefix(c.want, "inconclusive: "), "\n")
			if c.phase == phaseTranslation {
				// the check of the formula was under way: it names the
				// property
				want += "properties: the --ltl formula: inconclusive\n"
			}
			// the verdict rests on the limit
			want += "rests on: bounded (" + reason + ")\n"
			if status != ExitInconclusive || stdout != want {
				t.Errorf("status %d, stdout %q; want 3, %q\n%s", status, stdout, want, stderr)
			}
		})
	}
}

// TestSMTInterrupt: Ctrl-C (here, smtHook's interrupt) stops birch smt in
// the middle of a hard check-sat: nothing more is printed on stdout, the
// script is reported interrupted, and the exit status is 3.
func TestSMTInterrupt(t *testing.T) {
	defer func() { smtHook = nil }()
	var b strings.Builder
	b.WriteString("(set-logic QF_UF)\n")
	const n = 9 // n+1 pigeons, n holes
	for i := 0; i <= n; i++ {
		for j := 0; j < n; j++ {
			fmt.Fprintf(&b, "(declare-const p%d_%d Bool)\n", i, j)
		}
	}
	for i := 0; i <= n; i++ {
		b.WriteString("(assert (or")
		for j := 0; j < n; j++ {
			fmt.Fprintf(&b, " p%d_%d", i, j)
		}
		b.WriteString("))\n")
	}
	for j := 0; j < n; j++ {
		for i := 0; i <= n; i++ {
			for k := i + 1; k <= n; k++ {
				fmt.Fprintf(&b, "(assert (not (and p%d_%d p%d_%d)))\n", i, j, k, j)
			}
		}
	}
	b.WriteString("(check-sat)\n(echo \"after\")\n")
	path := filepath.Join(t.TempDir(), "pigeons.smt2")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// the script is well formed, and its query too hard for 50 ms
	status, stdout, stderr := runMain("smt", "--time-limit=50ms", path)
	if status != ExitPass || stdout != "unknown\n\"after\"\n" {
		t.Fatalf("--time-limit=50ms: status %d, stdout %q, stderr %q; want 0, unknown and after", status, stdout, stderr)
	}
	smtHook = func(interrupt func()) { interrupt() }
	status, stdout, stderr = runMain("smt", path)
	if status != ExitInconclusive || stdout != "" || !strings.HasSuffix(stderr, "pigeons.smt2: interrupted\n") {
		t.Errorf("status %d, stdout %q, stderr %q; want 3, nothing, interrupted", status, stdout, stderr)
	}
}

// TestSIGINTBeforeTheSearch: a real SIGINT, sent to the process while the
// model is being constructed, ends the check with a report naming the
// phase and exit status 3 (not the default action of the signal).
func TestSIGINTBeforeTheSearch(t *testing.T) {
	defer func() { phaseHook = nil }()
	phaseHook = func(phase string, l *runLimits) {
		if phase == phaseModel {
			if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
				t.Error(err)
			}
			<-l.Ctx.Done()
		}
	}
	status, stdout, stderr := runMain("check", "../../examples/peterson.bir")
	want := "inconclusive: interrupted during the model construction\nrests on: bounded (interrupted during the model construction)\n"
	if status != ExitInconclusive || stdout != want {
		t.Errorf("status %d, stdout %q; want 3, %q\n%s", status, stdout, want, stderr)
	}
}

// TestSMTMemoryLimit: birch smt stops a script whose terms outgrow
// --max-memory (an ite nest 1200 deep, which the embedded solver holds in
// about 80 MiB) with the reason, nothing on stdout, and exit 3; the same
// script runs to its end without the limit.
func TestSMTMemoryLimit(t *testing.T) {
	var b strings.Builder
	const n = 1200
	b.WriteString("(declare-const x Int)\n(assert (= 0 ")
	for i := range n {
		fmt.Fprintf(&b, "(ite (= x %d) %d ", i, i)
	}
	b.WriteString("0" + strings.Repeat(")", n) + "))\n(check-sat)\n")
	path := filepath.Join(t.TempDir(), "ite.smt2")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := runMain("smt", "--max-memory=20M", path)
	if status != ExitInconclusive || stdout != "" || !strings.Contains(stderr, "ite.smt2: memory limit reached (--max-memory=20.0 MiB)") {
		t.Errorf("status %d, stdout %q, stderr %q; want 3, nothing and the memory limit", status, stdout, stderr)
	}
	status, stdout, stderr = runMain("smt", path)
	if status != ExitPass || stdout != "sat\n" {
		t.Errorf("without the limit: status %d, stdout %q, stderr %q; want 0 and sat", status, stdout, stderr)
	}
}

// TestLTLTranslationTooLarge: an LTL property whose automaton outgrows the
// translator's bound is an inconclusive check (exit 3) that says so, not a
// bad input and not a pass.
func TestLTLTranslationTooLarge(t *testing.T) {
	ltlMaxNodes = 1000
	defer func() { ltlMaxNodes = 0 }()
	var conj, vars []string
	for i := range 8 {
		conj = append(conj, fmt.Sprintf("[] (p%d -> <> q%d)", i, i))
		vars = append(vars, fmt.Sprintf("p%d, q%d", i, i))
	}
	model := filepath.Join(t.TempDir(), "m.bir")
	src := "system S ()\n" + strings.Join(vars, ", ") + " : boolean;\nmain thread M ()\n  loc s0:\n    when true do { p0 := !p0; } goto s0;\nend M;\nend S;\n"
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := runMain("check", "--ltl", "!("+strings.Join(conj, " && ")+")", model)
	reason := "the automaton is too large (more than 1000 states, edges and intermediate terms) during the LTL translation"
	want := "inconclusive: " + reason + "\nproperties: the --ltl formula: inconclusive\nrests on: bounded (" + reason + ")\n"
	if status != ExitInconclusive || stdout != want {
		t.Errorf("status %d, stdout %q, stderr %q; want 3 and %q", status, stdout, stderr, want)
	}
}

// TestSMTGateDropsAfterStop: once the limits stop birch smt, what the
// script still prints is dropped, also an answer the stopped solver gives
// before birch smt sees the stop (TestSMTMemoryLimit printed "unknown" on a
// loaded machine: the embedded solver answered the cancelled query first).
func TestSMTGateDropsAfterStop(t *testing.T) {
	var b strings.Builder
	ctx, cancel := context.WithCancel(context.Background())
	g := &gatedWriter{w: &b, ctx: ctx}
	fmt.Fprint(g, "sat\n")
	cancel()
	fmt.Fprint(g, "unknown\n")
	if b.String() != "sat\n" {
		t.Errorf("printed %q, want only the answer before the stop", b.String())
	}
}
