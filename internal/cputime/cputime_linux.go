package cputime

import (
	"syscall"
	"time"
	"unsafe"
)

const (
	rusageThread          = 1 // RUSAGE_THREAD
	clockProcessCPUTimeID = 2 // CLOCK_PROCESS_CPUTIME_ID
	clockThreadCPUTimeID  = 3 // CLOCK_THREAD_CPUTIME_ID
)

// thread reads CLOCK_THREAD_CPUTIME_ID, the scheduler's exact count of
// the thread's CPU time (getrusage's per-thread times are sampled at the
// timer tick, too coarse for intervals of milliseconds); it falls back to
// getrusage.
func thread() (time.Duration, bool) {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno == 0 {
		return time.Duration(ts.Nano()), true
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return process()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

func process() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), false
}

// processExact reads CLOCK_PROCESS_CPUTIME_ID.
func processExact() (time.Duration, bool) {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
