//go:build !linux

package cputime

import "time"

func thread() (time.Duration, bool) { return 0, false }

func processExact() (time.Duration, bool) { return 0, false }
