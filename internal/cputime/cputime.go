// Package cputime reads the CPU time the calling thread has used, so that
// benchmarks on a shared machine can report a rate per CPU second next to
// the wall-clock rate: time spent waiting for a core does not count.
//
// Callers lock the goroutine to its thread (runtime.LockOSThread) for the
// duration of a measurement.
package cputime

import "time"

// Thread returns the user and system CPU time of the calling thread, or of
// the whole process where the system offers no per-thread figure (ok false).
func Thread() (d time.Duration, ok bool) { return thread() }

// Process returns the CPU time of the whole process (every thread: the
// search and the garbage collector), exactly where the system offers it
// (ok false otherwise). It needs no locked thread.
func Process() (d time.Duration, ok bool) { return processExact() }
