package promela

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"birch/internal/procgroup"
)

// SpinConfig configures RunSpin.
type SpinConfig struct {
	// Dir is the directory that receives model.pml, pan.c, pan and the
	// trail; it must exist. The caller removes it.
	Dir string
	// POR turns SPIN's partial-order reduction on (without it pan is
	// compiled with -DNOREDUCE).
	POR bool
	// Bitstate compiles pan with -DBITSTATE (supertrace: incomplete).
	Bitstate bool
	// QuickBuild compiles pan with -O0 instead of -O2: gcc takes a quarter
	// to a tenth of the time and pan runs slower, which pays off for
	// models of a few thousand states (the tests).
	QuickBuild bool
	// PanArgs are extra flags for pan. Without a -m flag, -m1000000 is
	// added (pan's default depth bound of 10000 is too small for many
	// models), and when pan reports that its depth bound cut the search,
	// pan runs again with a bound ten times larger, up to MaxAutoDepth.
	PanArgs []string
	// Claim, when set, is the ltl block pan checks: pan is compiled
	// without -DSAFETY and run with -a -N Claim (and -f with Fair).
	// Without it, a translation with ltl blocks is compiled with
	// -DNOCLAIM (NoClaim).
	Claim   string
	Fair    bool
	NoClaim bool
	// MemLimitMB, when positive, bounds pan's memory in megabytes
	// (-DMEMLIM): a search that reaches it stops, incomplete.
	MemLimitMB int
	// Procs is the most processes the model can run (Translation.Procs).
	// With Fair, pan is compiled with an NFAIR large enough for them and
	// the never claim (pan's default, 2, allows 6 processes).
	Procs int
	// Prebuilt says that Dir holds pan compiled from the same model and
	// flags by an earlier RunSpin: spin and gcc are not run again.
	Prebuilt bool
	// Wrapv compiles pan with -fwrapv (C's int arithmetic wraps); RunSpin
	// sets it for a translation with fixed-width arithmetic (fixed.go).
	Wrapv bool
}

// MaxAutoDepth is the largest depth bound RunSpin gives pan on its own (pan
// allocates 48 bytes per level: 2.4 GB).
const MaxAutoDepth = 50_000_000

// PanReport is what a SPIN run found, read from pan's report.
type PanReport struct {
	States      int64 // "states, stored"
	Matched     int64 // "states, matched"
	Transitions int64 // "transitions (= stored+matched)"
	Depth       int64 // "depth reached"
	VectorSize  int   // "State-vector N byte"
	Errors      int   // "errors: N"
	// Kind names the violation found: an error kind of birch's JSON output
	// (from the BIR_kind named in an assertion), "deadlock" for an invalid
	// end state, "unknown" for anything else; "" when there is none.
	Kind      string
	Assertion string  // the assertion text of an assertion violation
	MemoryMB  float64 // "total actual memory usage"
	Seconds   float64 // pan's elapsed time
	// Incomplete is set when pan says "Search not completed" without an
	// error (its depth bound was hit) or ran in bitstate mode.
	Incomplete bool
	// DepthLimited is set when pan's depth bound truncated the search.
	DepthLimited bool
	// MemoryLimited is set when pan stopped at its memory bound (MEMLIM).
	MemoryLimited bool
	// DepthBound is the depth bound pan ran with (-m).
	DepthBound int
	Output     string // pan's standard output and error

	// Wall-clock times of the phases.
	SpinTime, CompileTime, PanTime time.Duration
	// Claim is set when pan checked an ltl block; Cycle when the
	// violation is an acceptance cycle (a lasso), not a bad prefix.
	Claim, Cycle bool
	// Trail is the path of the trail pan wrote, or "".
	Trail string
	// Model is the path of the Promela file.
	Model string
	// CFlags are the gcc flags pan was compiled with, PanArgs pan's flags.
	CFlags, PanArgs []string
}

// StoppedError is RunSpin's error when its context ended while a SPIN
// tool ran: the tool and everything it started were killed (pan is
// interrupted first, so that it prints its statistics), and the report
// RunSpin returns with it holds what was measured until then.
type StoppedError struct {
	Phase string // "spin -a", "gcc" or "pan"
	Cause error  // why the context ended (context.Cause)
}

func (e *StoppedError) Error() string {
	return fmt.Sprintf("%s was stopped: %v", e.Phase, e.Cause)
}

// ErrNoSpin is returned by RunSpin when spin or gcc is not on PATH.
var ErrNoSpin = errors.New("spin and gcc are needed (on Debian and Ubuntu: apt-get install spin gcc)")

// LookSpin reports ErrNoSpin (naming the missing tool) unless spin and gcc
// are on PATH.
func LookSpin() error {
	for _, tool := range []string{"spin", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s is not installed: %w", tool, ErrNoSpin)
		}
	}
	return nil
}

// SpinFlags are the flags RunSpin gives spin -a: -o1 and -o2 keep SPIN from
// resetting variables it finds dead and from hiding write-only variables,
// which would break the correspondence of states (docs/promela.md).
var SpinFlags = []string{"-a", "-o1", "-o2"}

// RunSpin writes pml to cfg.Dir/model.pml, generates the verifier with
// spin, compiles it with gcc and runs it. A pan that reports its state
// vector too large is recompiled with a larger VECTORSZ. When ctx ends,
// the tool running is stopped and RunSpin returns the report so far with
// a *StoppedError.
func RunSpin(ctx context.Context, pml string, cfg SpinConfig) (*PanReport, error) {
	if err := LookSpin(); err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, err
	}
	cfg.Dir = dir
	cfg.Wrapv = cfg.Wrapv || strings.Contains(pml, wrapvMarker)
	r := &PanReport{Model: filepath.Join(cfg.Dir, "model.pml")}
	if err := os.WriteFile(r.Model, []byte(pml), 0o644); err != nil {
		return nil, err
	}
	stopped := func(phase string) (*PanReport, error) {
		return r, &StoppedError{Phase: phase, Cause: context.Cause(ctx)}
	}
	t0 := time.Now()
	if !cfg.Prebuilt {
		out, err := command(ctx, cfg.Dir, "spin", append(append([]string(nil), SpinFlags...), "model.pml")...)
		r.SpinTime = time.Since(t0)
		if ctx.Err() != nil {
			return stopped("spin -a")
		}
		if err != nil || strings.Contains(out, "Error:") {
			return nil, fmt.Errorf("spin -a failed: %v\n%s", err, out)
		}
	}
	hasDepth := false
	for _, a := range cfg.PanArgs {
		hasDepth = hasDepth || strings.HasPrefix(a, "-m")
	}
	depth := 1_000_000
	for _, a := range cfg.PanArgs {
		if n, err := strconv.Atoi(strings.TrimPrefix(a, "-m")); err == nil && strings.HasPrefix(a, "-m") {
			depth = n
		}
	}
	vector := 0
	nfair := 0
	if cfg.Fair && cfg.Claim != "" {
		nfair = NFair(cfg.Procs + 1) // and the never claim
	}
	compile := !cfg.Prebuilt
	if cfg.Prebuilt {
		r.CFlags = cfg.cflags(0, nfair)
	}
	for attempt := 0; ; attempt++ {
		if compile {
			cflags := cfg.cflags(vector, nfair)
			r.CFlags = cflags
			t1 := time.Now()
			out, err := command(ctx, cfg.Dir, "gcc", append(append([]string(nil), cflags...), "-o", "pan", "pan.c")...)
			r.CompileTime += time.Since(t1)
			if ctx.Err() != nil {
				return stopped("gcc")
			}
			if err != nil {
				return nil, fmt.Errorf("gcc failed: %v\n%s", err, out)
			}
			compile = false
		}
		var args []string
		if cfg.Claim != "" {
			args = append(args, "-a")
			if cfg.Fair {
				args = append(args, "-f")
			}
			args = append(args, "-N", cfg.Claim)
		}
		args = append(args, cfg.PanArgs...)
		if !hasDepth {
			args = append(args, fmt.Sprintf("-m%d", depth))
		}
		args = append(args, "-n") // no report of unreached code
		r.PanArgs = args
		os.Remove(filepath.Join(cfg.Dir, "model.pml.trail"))
		os.Remove(filepath.Join(cfg.Dir, "model.pml1.trail"))
		t2 := time.Now()
		out, err := command(ctx, cfg.Dir, filepath.Join(cfg.Dir, "pan"), args...)
		r.PanTime = time.Since(t2)
		if ctx.Err() != nil {
			// the statistics pan printed when it was interrupted
			r.Claim = cfg.Claim != ""
			ParsePan(out, r)
			r.Incomplete = true
			return stopped("pan")
		}
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			return nil, fmt.Errorf("pan: %v\n%s", err, out)
		}
		if m := vectorRE.FindStringSubmatch(out); m != nil && attempt < 8 {
			n, _ := strconv.Atoi(m[1])
			vector = (n + 1024) / 1024 * 1024 * 2
			compile = true
			continue
		}
		if m := nfairRE.FindStringSubmatch(out); m != nil && attempt < 8 {
			// more processes than Procs said: pan names the NFAIR it needs
			// for one more
			n, _ := strconv.Atoi(m[1])
			nfair = max(n, nfair+1)
			compile = true
			continue
		}
		if !panVectorRE.MatchString(out) && !strings.Contains(out, "out of memory") {
			return nil, fmt.Errorf("pan stopped without a report:\n%s", strings.TrimSpace(out))
		}
		r.Claim = cfg.Claim != ""
		ParsePan(out, r)
		r.DepthBound = depth
		if r.Depth >= int64(depth)-1 && r.Errors == 0 {
			// pan's deepest level is the bound less one; its fair search
			// can stop there without saying that the bound cut it
			r.DepthLimited, r.Incomplete = true, true
		}
		if r.DepthLimited && r.Errors == 0 && !hasDepth && depth < MaxAutoDepth && attempt < 8 {
			// pan's depth bound is a fixed array: run it again with a
			// larger one
			depth = min(depth*10, MaxAutoDepth)
			continue
		}
		if cfg.Bitstate {
			r.Incomplete = true
		}
		break
	}
	if r.Errors > 0 {
		if p := filepath.Join(cfg.Dir, "model.pml.trail"); fileExists(p) {
			r.Trail = p
		}
	}
	return r, nil
}

// NFair is the smallest NFAIR (at least pan's default, 2) with which
// pan's fair search (-f) accepts procs processes, never claim included:
// pan stops with "too many processes" when procs+1 >= 4*NFAIR.
func NFair(procs int) int {
	return max(2, (procs+1)/4+1)
}

// cflags are gcc's flags for pan.
func (cfg SpinConfig) cflags(vector, nfair int) []string {
	cflags := []string{"-O2"}
	if cfg.QuickBuild {
		cflags[0] = "-O0"
	}
	if cfg.Wrapv {
		cflags = append(cflags, "-fwrapv")
	}
	if cfg.Claim == "" {
		cflags = append(cflags, "-DSAFETY")
		if cfg.NoClaim {
			cflags = append(cflags, "-DNOCLAIM")
		}
	}
	if !cfg.POR {
		cflags = append(cflags, "-DNOREDUCE")
	}
	if cfg.Bitstate {
		cflags = append(cflags, "-DBITSTATE")
	}
	if vector > 0 {
		cflags = append(cflags, fmt.Sprintf("-DVECTORSZ=%d", vector))
	}
	if nfair > 2 {
		cflags = append(cflags, fmt.Sprintf("-DNFAIR=%d", nfair))
	}
	if cfg.MemLimitMB > 0 {
		cflags = append(cflags, fmt.Sprintf("-DMEMLIM=%d", cfg.MemLimitMB))
	}
	return cflags
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// command runs a SPIN tool in a process group of its own and returns its
// output. When ctx ends, the whole group is stopped (gcc's cc1, as, ld
// with gcc): pan with SIGINT, on which it prints its statistics and
// exits, anything else with SIGKILL; a process still there stopWait
// later is killed, and command does not wait for pipes that something
// outside the group holds open.
func command(ctx context.Context, dir, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var buf bytes.Buffer
	cmd.Stdout = &buf
	cmd.Stderr = &buf
	cmd.SysProcAttr = procgroup.Attr()
	sig := syscall.SIGKILL
	if filepath.Base(name) == "pan" {
		sig = syscall.SIGINT
	}
	cmd.Cancel = func() error { return procgroup.Kill(cmd.Process.Pid, sig) }
	cmd.WaitDelay = stopWait
	err := cmd.Run()
	if ctx.Err() != nil && cmd.Process != nil {
		procgroup.Kill(cmd.Process.Pid, syscall.SIGKILL)
	}
	return buf.String(), err
}

// stopWait is how long a stopped tool has to exit before it is killed.
const stopWait = 2 * time.Second

var (
	nfairRE       = regexp.MustCompile(`recompile with -DNFAIR=(\d+)`)
	vectorRE      = regexp.MustCompile(`VECTORSZ too small, recompile pan.c with -DVECTORSZ=N with N>(\d+)`)
	panStatesRE   = regexp.MustCompile(`(\d+) states, stored`)
	panMatchedRE  = regexp.MustCompile(`(\d+) states, matched`)
	panTransRE    = regexp.MustCompile(`(\d+) transitions \(= `)
	panVectorRE   = regexp.MustCompile(`State-vector (\d+) byte, depth reached (\d+), errors: (\d+)`)
	panMemRE      = regexp.MustCompile(`([\d.]+)\s+total actual memory usage`)
	panTimeRE     = regexp.MustCompile(`pan: elapsed time ([\d.e+-]+) seconds`)
	panAssertRE   = regexp.MustCompile(`assertion violated (.*) \(at depth`)
	panDeadlockRE = regexp.MustCompile(`pan:\d+: invalid end state`)
	panCycleRE    = regexp.MustCompile(`pan:\d+: acceptance cycle`)
	panClaimRE    = regexp.MustCompile(`pan:\d+: (claim violated|end state in claim)`)
)

// ParsePan reads pan's report out into r.
func ParsePan(out string, r *PanReport) {
	r.Output = out
	num := func(re *regexp.Regexp) int64 {
		if m := re.FindStringSubmatch(out); m != nil {
			n, _ := strconv.ParseInt(m[1], 10, 64)
			return n
		}
		return 0
	}
	r.States = num(panStatesRE)
	r.Matched = num(panMatchedRE)
	r.Transitions = num(panTransRE)
	if m := panVectorRE.FindStringSubmatch(out); m != nil {
		r.VectorSize, _ = strconv.Atoi(m[1])
		r.Depth, _ = strconv.ParseInt(m[2], 10, 64)
		r.Errors, _ = strconv.Atoi(m[3])
	}
	if m := panMemRE.FindStringSubmatch(out); m != nil {
		r.MemoryMB, _ = strconv.ParseFloat(m[1], 64)
	}
	if m := panTimeRE.FindStringSubmatch(out); m != nil {
		r.Seconds, _ = strconv.ParseFloat(m[1], 64)
		if r.Seconds > 1e6 { // pan prints garbage when it stops at once
			r.Seconds = 0
		}
	}
	r.DepthLimited = strings.Contains(out, "max search depth too small")
	r.MemoryLimited = strings.Contains(out, "reached -DMEMLIM bound")
	r.Incomplete = r.DepthLimited || r.MemoryLimited || (r.Errors == 0 && strings.Contains(out, "Search not completed"))
	if r.Errors > 0 {
		switch {
		case panAssertRE.MatchString(out):
			r.Assertion = panAssertRE.FindStringSubmatch(out)[1]
			r.Kind = KindOfAssertion(r.Assertion)
			if r.Kind == "" {
				// the assertions of the model name a kind; one that
				// does not is the never claim's (a bad prefix of a
				// safety formula)
				r.Kind = "unknown"
				if r.Claim {
					r.Kind = "ltl"
				}
			}
		case panCycleRE.MatchString(out):
			r.Kind = "ltl"
			r.Cycle = true
		case panClaimRE.MatchString(out):
			r.Kind = "ltl"
		case panDeadlockRE.MatchString(out):
			r.Kind = "deadlock"
		default:
			r.Kind = "unknown"
		}
	}
}
