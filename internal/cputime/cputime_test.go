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
