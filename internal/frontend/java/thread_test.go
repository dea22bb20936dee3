package java_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	java "birch/internal/frontend/java"
	"birch/internal/verify"
)

// translateThreads lowers the program pkg.Main of testdata/threads (the
// classes of its package, as jcli passes the classes a program uses).
func translateThreads(t *testing.T, main string) (*java.Output, error) {
	t.Helper()
	pkg, _, _ := strings.Cut(main, ".")
	return java.Translate(heapClasses(t, pkg), java.Config{Main: main, SourceDirs: []string{"testdata/threads"}})
}

// TestThreadGolden lowers two programs of testdata/threads and compares
// the BIR with testdata/threads/NAME.golden (-update rewrites them); the
// BIR must load as a model.
func TestThreadGolden(t *testing.T) {
	for _, main := range []string{"threads.Threads", "monitors.Monitors"} {
		t.Run(main, func(t *testing.T) {
			out, err := translateThreads(t, main)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := verify.Load(main+".bir", out.BIR); err != nil {
				t.Fatalf("the lowered model does not load: %v\n%s", err, out.BIR)
			}
			_, name, _ := strings.Cut(main, ".")
			golden := "testdata/threads/" + name + ".golden"
			if *update {
				if err := os.WriteFile(golden, out.BIR, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(out.BIR, want) {
				t.Errorf("the lowering differs from %s (go test -update rewrites it):\n%s", golden, diffLines(string(want), string(out.BIR)))
			}
		})
	}
}

// markerLine is the line of the first comment marker ("// fails here",
// "// blocks here") after the declaration of class cls in a testdata
// program.
func markerLine(t *testing.T, file, cls, marker string) int {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if regexp.MustCompile(`^(public )?class ` + cls + `\b`).MatchString(line) {
			in = true
		}
		if in && strings.Contains(line, marker) {
			return n
		}
	}
	t.Fatalf("%s: no %q after class %s", file, marker, cls)
	return 0
}

// TestThreadVerdicts checks the programs of testdata/threads/Threads.java,
// Monitors.java and Waits.java (each main class a test) with the explicit
// search: the verdict, the Java position of the violation and what the
// lowering says it means; for a deadlock, the Java position where each
// blocked thread waits.
func TestThreadVerdicts(t *testing.T) {
	const (
		pass     = "pass"
		assert   = "assert"
		deadlock = "deadlock"
	)
	for _, tc := range []struct {
		main, file string
		want       string // pass, assert (a violation at "// fails here"), deadlock (threads blocked at "// blocks here")
		at         string // the class whose marker it is ("": main's)
		text       string // the Java message of a violation
		blocked    int    // threads blocked at the deadlock
	}{
		// a Thread subclass and a Runnable started and joined, join of
		// a thread never started, isAlive, super.run()
		{main: "threads.Threads", file: "Threads", want: pass},
		{main: "threads.LostUpdateT", file: "Threads", want: assert, text: "assert failed: an increment was lost"},
		{main: "threads.StartTwice", file: "Threads", want: assert, text: "uncaught java.lang.IllegalThreadStateException"},
		// synchronized methods, static too, reentrant
		{main: "monitors.Monitors", file: "Monitors", want: pass},
		{main: "monitors.LockOrder", file: "Monitors", want: deadlock, at: "Account", blocked: 2},
		// wait in a monitor held twice
		{main: "monitors.ReentrantWait", file: "Monitors", want: pass},
		// wait with if: the second consumer, woken by notifyAll, takes
		// from the empty slot; with while it waits again
		{main: "waits.BufferIf", file: "Waits", want: assert, at: "Slot", text: "assert failed: take from an empty slot"},
		{main: "waits.BufferWhile", file: "Waits", want: pass},
		// synchronized blocks in opposite orders
		{main: "waits.BlockOrder", file: "Waits", want: deadlock, at: "Fork", blocked: 2},
		// an exception out of a synchronized method releases its monitor
		{main: "waits.Release", file: "Waits", want: pass},
		// IllegalMonitorStateException caught
		{main: "waits.NotifyCaught", file: "Waits", want: pass},
		// a false assumption ends the whole path (JPF), not just its
		// thread: a join of it never returns, a monitor it holds is no
		// deadlock
		{main: "monitors.AssumeJoin", file: "AssumeJoin", want: pass},
		{main: "monitors.AssumeHolding", file: "AssumeJoin", want: pass},
		{main: "monitors.WaitUnowned", file: "Monitors", want: assert,
			text: "uncaught java.lang.IllegalMonitorStateException: current thread is not owner"},
	} {
		t.Run(tc.main, func(t *testing.T) {
			out, err := translateThreads(t, tc.main)
			if err != nil {
				t.Fatal(err)
			}
			status, text := checkBIR(t, tc.main, out.BIR)
			src := "testdata/threads/" + tc.file + ".java"
			_, cls, _ := strings.Cut(tc.main, ".")
			if tc.at != "" {
				cls = tc.at
			}
			switch tc.want {
			case pass:
				if status != 0 {
					t.Fatalf("birch check: exit %d, want 0:\n%s", status, text)
				}
			case assert:
				if status != 1 {
					t.Fatalf("birch check: exit %d, want 1:\n%s", status, text)
				}
				pos := fmt.Sprintf("%s:%d:1", src, markerLine(t, src, cls, "// fails here"))
				mm := regexp.MustCompile(`(?m)^fail: assertion: (assertion violated: .*)\n.*\n  at (.*)$`).FindStringSubmatch(text)
				if mm == nil {
					t.Fatalf("no assertion violation in:\n%s", text)
				}
				if mm[2] != pos {
					t.Errorf("violation at %s, want %s:\n%s", mm[2], pos, text)
				}
				if got := out.Describe(mm[2], mm[1]); got != tc.text {
					t.Errorf("Describe(%s, %s) = %q, want %q", mm[2], mm[1], got, tc.text)
				}
			case deadlock:
				if status != 1 || !strings.Contains(text, "fail: deadlock") {
					t.Fatalf("birch check: exit %d, want a deadlock:\n%s", status, text)
				}
				pos := fmt.Sprintf("%s:%d:1: lock ", src, markerLine(t, src, cls, "// blocks here"))
				_, threads, _ := strings.Cut(text, "threads at the deadlock:")
				if n := strings.Count(threads, pos); n != tc.blocked {
					t.Errorf("%d threads wait at %s, want %d:\n%s", n, pos, tc.blocked, text)
				}
			}
		})
	}
}

// TestThreadUnsupported: what the model of threads and monitors leaves
// out is an *UnsupportedError at its Java line (testdata/threads/
// Unsupported.java, marked "// unsupported").
func TestThreadUnsupported(t *testing.T) {
	const src = "testdata/threads/Unsupported.java"
	for _, tc := range []struct{ main, msg string }{
		{"TimedWait", "Object.wait(long)"},
		{"Current", "java.lang.Thread.currentThread()"},
		{"ArrayLock", "synchronized on an array"},
	} {
		t.Run(tc.main, func(t *testing.T) {
			_, err := translateThreads(t, "unsupportedthreads."+tc.main)
			var ue *java.UnsupportedError
			if !errors.As(err, &ue) {
				t.Fatalf("Translate: %v, want an *UnsupportedError", err)
			}
			pos := fmt.Sprintf("%s:%d:1", src, markerLine(t, src, tc.main, "// unsupported"))
			for _, e := range ue.List {
				if e.Pos.String() == pos && strings.Contains(e.Msg, tc.msg) {
					return
				}
			}
			t.Errorf("no error at %s containing %q: %v", pos, tc.msg, err)
		})
	}
}
