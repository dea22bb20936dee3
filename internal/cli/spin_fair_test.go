package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"birch/internal/testenv"
)

// SPIN's fair search (pan -f) on models with five threads and at its depth
// bound. The fast tests use the stand-ins of spin_external_test.go with
// pan's real output, recorded in testdata/spin/*.pan (SPIN 6.5.2); the
// BIRCH_LONG ones run SPIN itself.

var (
	fairFive  = filepath.Join("testdata", "spin", "fair-five-threads.bir")
	fairDepth = filepath.Join("testdata", "spin", "fair-depth.bir")
)

// recordedPan is a stand-in pan that prints the recorded output file.
func recordedPan(t *testing.T, file string) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("testdata", "spin", file))
	if err != nil {
		t.Fatal(err)
	}
	return "cat '" + abs + "'\n"
}

// TestSpinFairNFAIR: with five threads (seven processes with birch's
// stutter process and the never claim) pan's default NFAIR is too small;
// birch spin compiles pan with -DNFAIR=3. The gcc stand-in builds a pan
// that prints what the real one prints for the flags it was given. Before,
// birch passed no NFAIR and exited 2 ("pan stopped without a report").
func TestSpinFairNFAIR(t *testing.T) {
	good := recordedPan(t, "fair-five-threads.pan")
	bad := recordedPan(t, "fair-five-threads-nfair2.pan")
	gcc := "case \" $* \" in\n*\" -DNFAIR=3 \"*) body=\"" + good + "\";;\n*) body=\"" + bad + "\";;\nesac\n" +
		"printf '#!/bin/sh\\n%s' \"$body\" >pan\nchmod +x pan\n"
	fakeSpinTools(t, gcc, "")
	status, stdout, stderr := runMainWithin(t, 20*time.Second, "spin", "--fair", "--property", "eventually", fairFive)
	if status != ExitPass {
		t.Errorf("status %d, want %d; stdout %q, stderr %q", status, ExitPass, stdout, stderr)
	}
	for _, w := range []string{
		"pass: no violation: every reachable state of the product with the property's never claim was explored\n",
		"(gcc -O2 -DNOREDUCE -DNFAIR=3; pan -a -f -N ltl_eventually -m1000000 -n)\n",
	} {
		if !strings.Contains(stdout, w) {
			t.Errorf("stdout %q, want %q in it", stdout, w)
		}
	}
}

// TestSpinFairDepthCut: pan's fair search reached depth 207 under -m208
// and stopped without its "max search depth too small" warning, reporting
// no error, while the model has a fair violation (birch check finds it).
// That search was cut: inconclusive, not a pass as before.
func TestSpinFairDepthCut(t *testing.T) {
	fakeSpinTools(t, "", recordedPan(t, "fair-depth-m208.pan"))
	status, stdout, stderr := runMainWithin(t, 20*time.Second, "spin", "--fair", "--property", "notdone", fairDepth, "--", "-m208")
	if status != ExitInconclusive {
		t.Errorf("status %d, want %d; stdout %q, stderr %q", status, ExitInconclusive, stdout, stderr)
	}
	if want := "inconclusive: no violation found, but SPIN's search was cut at its depth bound (pan -m208)\n"; !strings.HasPrefix(stdout, want) {
		t.Errorf("stdout %q, want it to begin %q", stdout, want)
	}
	// the violation is real: birch's own search finds it
	status, stdout, _ = runMain("check", "--fair", "--property", "notdone", fairDepth)
	if status != ExitViolation || !strings.Contains(stdout, "then the last state repeats forever") {
		t.Errorf("birch check --fair: status %d, stdout %.200q; want a violation ending in a terminal state", status, stdout)
	}
}

// TestSpinFairReal runs SPIN itself on both models (about four seconds of
// gcc each on a quiet machine; a step of .ci/run's long suites): the five threads pass under --fair and
// fail without it, as in birch check; the depth-bound cut is inconclusive
// and, without -m, pan's bound grows until SPIN finds the violation.
func TestSpinFairReal(t *testing.T) {
	testenv.SkipUnlessLong(t)
	needSpin(t)
	for _, tc := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"--fair", "--property", "eventually", fairFive}, ExitPass, "-DNFAIR=3; pan -a -f "},
		{[]string{"--property", "eventually", fairFive}, ExitViolation, "fail: ltl: ltl property eventually violated: <> done\n"},
		{[]string{"--fair", "--property", "notdone", fairDepth, "--", "-m208"}, ExitInconclusive, "cut at its depth bound (pan -m208)"},
		{[]string{"--fair", "--property", "notdone", fairDepth}, ExitViolation, "then the last state repeats forever"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			status, stdout, stderr := runMain(append([]string{"spin"}, tc.args...)...)
			if status != tc.status || !strings.Contains(stdout, tc.want) {
				t.Errorf("status %d, stdout %q, stderr %q; want %d and %q", status, stdout, stderr, tc.status, tc.want)
			}
		})
	}
}
