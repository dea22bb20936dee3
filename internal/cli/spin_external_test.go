package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"birch/internal/procgroup/proctest"
)

// These tests run birch spin with stand-ins for spin, gcc and pan (shell
// scripts first on PATH), so that they take milliseconds and can make the
// tools hang, start helpers or ignore signals. The stand-in pan prints
// panReport unless told otherwise.

const panReport = `
(Spin Version 6.5.2 -- 6 December 2019)

Full statespace search for:
	never claim         	- (none specified)
	assertion violations	+
	cycle checks       	- (disabled by -DSAFETY)
	invalid end states	+

State-vector 36 byte, depth reached 17, errors: 0
       26 states, stored
       19 states, matched
       45 transitions (= stored+matched)
        0 atomic steps
hash conflicts:         0 (resolved)

Stats on memory usage (in Megabytes):
  173.972	total actual memory usage

pan: elapsed time 0 seconds
`

// the report of a pan interrupted by SIGINT
const panInterrupted = `Interrupted

(Spin Version 6.5.2 -- 6 December 2019)
Warning: Search not completed

State-vector 36 byte, depth reached 333606, errors: 0
   333607 states, stored
        0 states, matched
   333607 transitions (= stored+matched)
  184.128	total actual memory usage

pan: elapsed time 0.55 seconds
`

// fakeSpinTools puts stand-ins for spin and gcc first on PATH; the gcc
// stand-in runs gccScript, or else writes a pan that runs panScript. It
// sets TMPDIR to a fresh directory, which it returns, and PIDFILE to a
// file a script may write a helper's pid to.
func fakeSpinTools(t *testing.T, gccScript, panScript string) (tmp, pidFile string) {
	t.Helper()
	bin := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("spin", "[ \"$1\" = -a ] && : >pan.c\n")
	if gccScript == "" {
		if panScript == "" {
			panScript = "cat <<'EOF'\n" + panReport + "EOF\n"
		}
		gccScript = "cat >pan <<'PAN'\n#!/bin/sh\n" + panScript + "PAN\nchmod +x pan\n"
	}
	write("gcc", gccScript)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	tmp = t.TempDir()
	t.Setenv("TMPDIR", tmp)
	pidFile = filepath.Join(t.TempDir(), "pid")
	t.Setenv("PIDFILE", pidFile)
	return tmp, pidFile
}

// runMainWithin runs birch and fails the test if it has not returned
// after d.
func runMainWithin(t *testing.T, d time.Duration, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		status, stdout, stderr = runMain(args...)
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("birch %s still runs after %v", strings.Join(args, " "), d)
	}
	return status, stdout, stderr
}

func noTempLeft(t *testing.T, tmp string) {
	t.Helper()
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		t.Errorf("birch spin left %s in the temporary directory", ents[0].Name())
	}
}

var peterson = filepath.Join("..", "..", "examples", "peterson.bir")

// TestSpinTimeLimitGcc: the time limit stops gcc and what it started (a
// stand-in for cc1 holding gcc's output pipe), birch spin says which phase
// it stopped and exits 3. Before, gcc alone was killed and birch waited
// for the pipe its child held (and then exited 2).
func TestSpinTimeLimitGcc(t *testing.T) {
	tmp, pidFile := fakeSpinTools(t, "sleep 300 &\necho $! >\"$PIDFILE\"\nwait\n", "")
	status, stdout, stderr := runMainWithin(t, 20*time.Second, "spin", "--time-limit", "300ms", peterson)
	wantStopped(t, status, stdout, stderr, "inconclusive: time limit reached (--time-limit=300ms) while gcc compiled pan\n", pidFile, tmp)
	if !strings.Contains(stdout, "; pan not run)\n") {
		t.Errorf("stdout %q does not say that pan did not run", stdout)
	}
}

// petersonStopped begins the report of a birch spin of peterson.bir that
// the limit named stopped: none of its six properties (checked in four
// SPIN runs) is decided.
func petersonStopped(limit string) string {
	return "inconclusive: " + limit + ": 6 of 6 properties not decided: safety (assertions, runtime errors, deadlocks), " +
		"invariant mutex, invariant exclusive, ltl property safety, ltl property mirrors, ltl property flagged\n"
}

// wantStopped checks the outcome of a birch spin of peterson.bir stopped
// by a limit: exit status 3, the run's verdict line naming the limit and
// the stopped check's verdict line (its first SPIN run's; the runs after
// it do not start), the stand-in's helper dead and no temporary files
// left.
func wantStopped(t *testing.T, status int, stdout, stderr, verdict, pidFile, tmp string) {
	t.Helper()
	if status != ExitInconclusive {
		t.Errorf("status %d, want %d; stderr %q", status, ExitInconclusive, stderr)
	}
	limit, _, _ := strings.Cut(strings.TrimPrefix(verdict, "inconclusive: "), " while ")
	if verdict != "{" && (!strings.HasPrefix(stdout, petersonStopped(limit)) || !strings.Contains(stdout, "\n"+verdict) ||
		strings.Count(stdout, "\ninconclusive: "+limit+" before this check started\n") != 3) {
		t.Errorf("stdout %q, want it to begin %q, have the line %q and three checks not started", stdout, petersonStopped(limit), verdict)
	}
	if verdict == "{" && !strings.HasPrefix(stdout, verdict) {
		t.Errorf("stdout %q, want it to begin %q", stdout, verdict)
	}
	if proctest.AliveInFile(t, pidFile) {
		t.Errorf("the helper of the stopped tool still runs")
	}
	noTempLeft(t, tmp)
}

// TestSpinTimeLimitPan: pan is interrupted at the time limit, prints its
// statistics, which birch spin reports with an inconclusive verdict; a
// helper pan started dies with it.
func TestSpinTimeLimitPan(t *testing.T) {
	pan := "trap 'cat <<EOF\n" + panInterrupted + "EOF\nexit 0' INT\nsleep 300 >/dev/null 2>&1 &\necho $! >\"$PIDFILE\"\nwait\n"
	tmp, pidFile := fakeSpinTools(t, "", pan)
	for _, json := range []bool{false, true} {
		args := []string{"spin", "--time-limit", "500ms", peterson}
		if json {
			args = append([]string{"spin", "--json"}, args[1:]...)
		}
		status, stdout, stderr := runMainWithin(t, 20*time.Second, args...)
		reason := "time limit reached (--time-limit=500ms) while pan searched: SPIN's search did not complete"
		verdict := "inconclusive: " + reason + "\n"
		want := []string{"\nstats: SPIN: 333607 states, 333607 transitions, max depth 333606, "}
		if json {
			verdict = "{"
			want = []string{`"verdict": "inconclusive"`, `"reason": "` + reason + `"`, `"states": 333607`}
		}
		wantStopped(t, status, stdout, stderr, verdict, pidFile, tmp)
		for _, w := range want {
			if !strings.Contains(stdout, w) {
				t.Errorf("stdout %q, want %q in it", stdout, w)
			}
		}
	}
}

// TestSpinInterrupt: Ctrl-C (SIGINT to birch) while pan runs stops it the
// same way, and the report says it was interrupted.
func TestSpinInterrupt(t *testing.T) {
	pan := "trap 'cat <<EOF\n" + panInterrupted + "EOF\nexit 0' INT\nsleep 300 >/dev/null 2>&1 &\necho $! >\"$PIDFILE\"\nwait\n"
	tmp, pidFile := fakeSpinTools(t, "", pan)
	go func() {
		// once pan runs
		for range 2000 {
			if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 {
				syscall.Kill(os.Getpid(), syscall.SIGINT)
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	status, stdout, stderr := runMainWithin(t, 20*time.Second, "spin", peterson)
	wantStopped(t, status, stdout, stderr, "inconclusive: interrupted while pan searched: SPIN's search did not complete\n", pidFile, tmp)
}

// TestSpinBrokenPipe: birch spin … | true removes its temporary directory.
// Before, the first write to the closed pipe killed birch (SIGPIPE) before
// its deferred cleanup ran. birch runs in a child process (this test's
// binary again), as a closed standard output only kills a program through
// its file descriptor 1.
func TestSpinBrokenPipe(t *testing.T) {
	if os.Getenv("BIRCH_TEST_SPIN_PIPE") == "1" {
		os.Exit(Main([]string{"spin", peterson}, nil, os.Stdout, os.Stderr))
	}
	tmp, _ := fakeSpinTools(t, "", "")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSpinBrokenPipe$")
	cmd.Env = append(os.Environ(), "BIRCH_TEST_SPIN_PIPE=1")
	cmd.Stdout = w
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	w.Close()
	if ee, ok := err.(*exec.ExitError); ok && !ee.Exited() {
		t.Errorf("birch spin was killed (%v); stderr %q", err, stderr.String())
	}
	noTempLeft(t, tmp)
}

// TestSpinKeepSymlinks: birch spin --keep DIR replaces symbolic links
// planted in DIR under the names of SPIN's files; it never writes through
// them.
func TestSpinKeepSymlinks(t *testing.T) {
	tmp, _ := fakeSpinTools(t, "", "")
	outside := t.TempDir()
	keep := t.TempDir()
	for _, name := range []string{"model.pml", "pan.c", "pan"} {
		victim := filepath.Join(outside, name)
		if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(victim, filepath.Join(keep, name)); err != nil {
			t.Fatal(err)
		}
	}
	status, stdout, stderr := runMainWithin(t, 20*time.Second, "spin", "--keep", keep, peterson)
	if status != ExitPass || stderr != "" {
		t.Errorf("status %d, stderr %q; want %d and no message", status, stderr, ExitPass)
	}
	if !strings.Contains(stdout, "SPIN's files are in "+keep+"\n") {
		t.Errorf("stdout %q does not say where SPIN's files are", stdout)
	}
	for _, name := range []string{"model.pml", "pan.c", "pan"} {
		if b, err := os.ReadFile(filepath.Join(outside, name)); err != nil || string(b) != "precious\n" {
			t.Errorf("%s outside DIR was written through a symbolic link: %q, %v", name, b, err)
		}
		fi, err := os.Lstat(filepath.Join(keep, name))
		if err != nil || !fi.Mode().IsRegular() {
			t.Errorf("DIR/%s is not a regular file: %v, %v", name, fi, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(keep, "model.pml")); !bytes.Contains(b, []byte("proctype")) {
		t.Errorf("DIR/model.pml is not the Promela model: %.80q", b)
	}
	noTempLeft(t, tmp)
}

// TestSpinBadLimits: nonsense values of birch spin's limits are usage
// errors, not a limit silently disabled or hit at once.
func TestSpinBadLimits(t *testing.T) {
	for _, args := range [][]string{
		{"--time-limit", "NaN"}, {"--time-limit", "Inf"}, {"--time-limit", "1e30"}, {"--time-limit", "-1s"},
		{"--time-limit", "0"}, {"--max-memory", "0.5"}, {"--max-memory", "NaN"}, {"--max-memory", "Inf"},
		{"--max-memory", "1e30"}, {"--max-memory", "0"}, {"--max-threads", "0"}, {"--max-threads", "65"},
		{"--max-call-depth", "0"},
	} {
		fakeSpinTools(t, "", "")
		status, stdout, stderr := runMainWithin(t, 20*time.Second, append(append([]string{"spin"}, args...), peterson)...)
		if status != ExitBadInput || stdout != "" || !strings.Contains(stderr, args[0]) {
			t.Errorf("birch spin %s %s: status %d, stdout %q, stderr %q; want %d and a message naming the flag",
				args[0], args[1], status, stdout, stderr, ExitBadInput)
		}
	}
}

// TestSpinMaxMemory: --max-memory bounds pan's memory (-DMEMLIM, in
// megabytes rounded up), and a pan that reaches the bound is inconclusive.
func TestSpinMaxMemory(t *testing.T) {
	pan := "cat <<'EOF'\npan: reached -DMEMLIM bound\n" + panInterrupted + "EOF\n"
	fakeSpinTools(t, "", pan)
	status, stdout, stderr := runMainWithin(t, 20*time.Second, "spin", "--max-memory", "200.5M", peterson)
	if status != ExitInconclusive {
		t.Errorf("status %d, want %d; stderr %q", status, ExitInconclusive, stderr)
	}
	for _, w := range []string{
		"inconclusive: no violation found before pan reached its memory bound (--max-memory)\n",
		"(gcc -O2 -DSAFETY -DNOREDUCE -DMEMLIM=201; pan",
	} {
		if !strings.Contains(stdout, w) {
			t.Errorf("stdout %q, want %q in it", stdout, w)
		}
	}
}

// TestSpinStopBeforeSPIN: Ctrl-C (the interrupt of phaseHook) during birch
// spin's own phases, model construction and the translation to Promela,
// ends it with an inconclusive report naming the phase, exit 3, before
// SPIN runs. Before, birch spin went on into SPIN.
func TestSpinStopBeforeSPIN(t *testing.T) {
	defer func() { phaseHook = nil }()
	for _, c := range []struct {
		args  []string
		phase string
	}{
		{[]string{"spin", peterson}, phaseModel},
		{[]string{"spin", peterson}, phasePromela},
		{[]string{"spin", "--ltl", "[] !(p0cs && p1cs)", peterson}, phaseModel},
		{[]string{"spin", "--property", "safety", peterson}, phasePromela},
	} {
		stopped := "interrupted during the " + c.phase
		want := "inconclusive: " + stopped + "\n"
		switch {
		case c.phase == phaseModel:
			// before the properties are known
			want += "rests on: bounded (" + stopped + ")\n"
		case len(c.args) == 2:
			// every SPIN run stops before it starts
			want = petersonStopped("interrupted") + "properties: safety (assertions, runtime errors, deadlocks): inconclusive; " +
				"invariant mutex: inconclusive; invariant exclusive: inconclusive; ltl property safety: inconclusive; " +
				"ltl property mirrors: inconclusive; ltl property flagged: inconclusive\n" +
				"\n== safety (assertions, runtime errors, deadlocks); invariant mutex; invariant exclusive ==\n" +
				"inconclusive: " + stopped + "\nrests on: bounded (" + stopped + ")\n"
			for _, title := range []string{"ltl property safety", "ltl property mirrors", "ltl property flagged"} {
				want += "\n== " + title + " ==\ninconclusive: interrupted before this check started\n" +
					"rests on: bounded (interrupted before this check started)\n"
			}
		default:
			want += "properties: ltl property safety: inconclusive\nrests on: bounded (" + stopped + ")\n"
		}
		tmp, _ := fakeSpinTools(t, "", "")
		phaseHook = func(phase string, l *runLimits) {
			if phase == c.phase {
				l.End("interrupted")
			}
		}
		status, stdout, stderr := runMainWithin(t, 20*time.Second, c.args...)
		if status != ExitInconclusive || stdout != want {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want %d and %q", strings.Join(c.args, " "), status, stdout, stderr, ExitInconclusive, want)
		}
		noTempLeft(t, tmp)
	}
}
