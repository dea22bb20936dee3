// Package proctest helps tests check that the external tools birch starts
// (and the helpers those start) are gone when they should be.
package proctest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Alive reports whether process pid still runs two seconds later: a killed
// process takes a moment to die, and a zombie (which only waits for its
// parent to reap it, perhaps a container's init that never does) has died.
// It reads /proc, so it reports false where there is none.
func Alive(pid int) bool {
	for range 200 {
		st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return false
		}
		f := strings.Fields(string(st[strings.LastIndexByte(string(st), ')')+1:]))
		if len(f) == 0 || f[0] == "Z" {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// AliveInFile is Alive for the pid written in file (by a stand-in tool's
// script); it fails the test when there is none.
func AliveInFile(t testing.TB, file string) bool {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the stand-in wrote no pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("the stand-in wrote %q, not a pid", b)
	}
	return Alive(pid)
}

// HungZ3 puts first on PATH a z3 that never answers and starts a helper
// that holds its pipes; it returns the file holding the helper's pid.
func HungZ3(t testing.TB) (pidFile string) {
	t.Helper()
	bin := t.TempDir()
	pidFile = filepath.Join(t.TempDir(), "pid")
	t.Setenv("PIDFILE", pidFile)
	script := "#!/bin/sh\nsleep 300 &\necho $! >\"$PIDFILE\"\nexec sleep 300\n"
	if err := os.WriteFile(filepath.Join(bin, "z3"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return pidFile
}
