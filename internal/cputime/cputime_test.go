package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestThreadAdvances checks that busy work on the locked thread shows up
// as CPU time, and that sleeping does not.
func TestThreadAdvances(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	a, ok := Thread()
	if !ok {
		t.Skip("no per-thread CPU time on this system")
	}
	deadline := time.Now().Add(50 * time.Millisecond)
	x := uint64(1)
	for time.Now().Before(deadline) {
		for i := 0; i < 1000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	b, _ := Thread()
	if b-a < 10*time.Millisecond {
		t.Errorf("50ms of busy work used %v of CPU time (x=%d)", b-a, x)
	}
	time.Sleep(100 * time.Millisecond)
	c, _ := Thread()
	if c-b > 50*time.Millisecond {
		t.Errorf("sleeping 100ms used %v of CPU time", c-b)
	}
}

// TestThreadResolution checks that a millisecond of busy work shows up: a
// clock sampled at the timer tick (4 ms at 250 Hz) would often read no
// change.
func TestThreadResolution(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if _, ok := Thread(); !ok {
		t.Skip("no per-thread CPU time on this system")
	}
	checkResolution(t, Thread)
}

// TestProcessResolution checks that a millisecond of busy work shows up in
// the process's CPU time.
func TestProcessResolution(t *testing.T) {
	if _, ok := Process(); !ok {
		t.Skip("no exact process CPU time on this system")
	}
	checkResolution(t, Process)
}

// checkResolution fails unless each of ten milliseconds of busy work
// advances clock.
func checkResolution(t *testing.T, clock func() (time.Duration, bool)) {
	t.Helper()
	x := uint64(1)
	for range 10 {
		a, _ := clock()
		deadline := time.Now().Add(time.Millisecond)
		for time.Now().Before(deadline) {
			for i := 0; i < 100; i++ {
				x = x*6364136223846793005 + 1442695040888963407
			}
		}
		b, _ := clock()
		if b <= a {
			t.Fatalf("a millisecond of busy work used %v of CPU time (x=%d)", b-a, x)
		}
	}
}
