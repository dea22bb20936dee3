package process

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"birch/internal/procgroup/proctest"
	"birch/internal/smt"
)

// fakeSolver puts a shell script named z3 first on PATH.
func fakeSolver(t *testing.T, script string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "z3"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// within runs f and fails the test if it has not returned after d (the
// test then leaves f's goroutine behind rather than hanging).
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still running after %v", d)
	}
}

// TestUnresponsiveSolver: a solver that never answers is killed shortly
// after the query's time limit, also when a process it started holds its
// output pipes open (before, the read waited for the pipe to close, which
// never happened), and that helper is killed with it.
func TestUnresponsiveSolver(t *testing.T) {
	for _, tc := range []struct{ name, script string }{
		{"silent", "exec sleep 300\n"},
		// the helper keeps stdout and stderr open; the solver itself dies
		// when its stdin closes, as z3 does
		{"child holds the pipes", "sleep 300 &\necho $! >\"$PIDFILE\"\ncat >/dev/null\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fakeSolver(t, tc.script)
			pidFile := filepath.Join(t.TempDir(), "pid")
			t.Setenv("PIDFILE", pidFile)
			tm := smt.NewTermManager()
			s, err := New(tm, Z3)
			if err != nil {
				t.Fatal(err)
			}
			s.SetLimit(smt.Limit{Timeout: 50 * time.Millisecond})
			x := tm.Const("x", smt.IntSort)
			s.Assert(tm.Lt(x, tm.Int(0)))
			within(t, 10*time.Second, func() {
				r, err := s.Check()
				if r != smt.Unknown || err == nil || !strings.Contains(err.Error(), "did not answer within") {
					t.Errorf("Check = %v, %v; want unknown and an error saying the solver did not answer", r, err)
				}
				s.Close()
			})
			if strings.Contains(tc.script, "PIDFILE") && proctest.AliveInFile(t, pidFile) {
				t.Errorf("the solver's helper process still runs")
			}
		})
	}
}

// TestSolverContext: ending the context of NewContext kills a solver that
// does not answer, and its helpers, even without a time limit.
func TestSolverContext(t *testing.T) {
	fakeSolver(t, "sleep 300 &\necho $! >\"$PIDFILE\"\nexec sleep 300\n")
	pidFile := filepath.Join(t.TempDir(), "pid")
	t.Setenv("PIDFILE", pidFile)
	tm := smt.NewTermManager()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := NewContext(ctx, tm, Z3)
	if err != nil {
		t.Fatal(err)
	}
	// End the context once the stand-in has started its helper (a fixed
	// deadline raced with a loaded machine: the stand-in was killed
	// before it wrote its pid).
	go func() {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	within(t, 10*time.Second, func() {
		r, err := s.Check()
		if r != smt.Unknown || err == nil || !strings.Contains(err.Error(), "was stopped: context canceled") {
			t.Errorf("Check = %v, %v; want unknown and an error saying the solver was stopped", r, err)
		}
		if _, err := s.Check(); err == nil {
			t.Errorf("a stopped solver answered again")
		}
		s.Close()
	})
	if proctest.AliveInFile(t, pidFile) {
		t.Errorf("the solver's helper process still runs")
	}
}

// TestCloseWithHeldPipe: Close returns although a process the solver
// started holds stderr open after the solver exits, and kills it.
func TestCloseWithHeldPipe(t *testing.T) {
	fakeSolver(t, "sleep 300 >/dev/null &\necho $! >\"$PIDFILE\"\ncat >/dev/null\n")
	pidFile := filepath.Join(t.TempDir(), "pid")
	t.Setenv("PIDFILE", pidFile)
	s, err := New(smt.NewTermManager(), Z3)
	if err != nil {
		t.Fatal(err)
	}
	within(t, 10*time.Second, func() { s.Close() })
	if proctest.AliveInFile(t, pidFile) {
		t.Errorf("the solver's helper process still runs")
	}
}
