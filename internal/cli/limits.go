package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"birch/internal/abstraction/data/feasible"
	"birch/internal/ltl"
	"birch/internal/model"
	"birch/internal/search"
)

// modelBoundsError checks the bounds of the model a command compiles
// (--max-threads, --max-call-depth); it returns "" when they are valid.
func modelBoundsError(maxThreads, maxCalls int) string {
	if maxThreads < 1 || maxThreads > 64 {
		return fmt.Sprintf("--max-threads must be between 1 and 64 (not %d)", maxThreads)
	}
	if maxCalls < 1 {
		return fmt.Sprintf("--max-call-depth must be at least 1 (not %d)", maxCalls)
	}
	return ""
}

// runLimits carries --time-limit, --max-memory and Ctrl-C (SIGINT, or
// SIGTERM) through every phase of a check, not only its search: the time
// limit counts from the start of the command, and a phase that a limit
// ends is reported as an inconclusive result that names the limit and the
// phase (docs/check.md, "Resource limits, progress and Ctrl-C").
//
// The search checks the limits itself (search.Config's Stop, StopReason
// and MaxMemory). The other phases (model construction, LTL translation,
// abstraction synthesis, the concrete replay) run in a goroutine that the
// command stops waiting for when a limit ends it: birch then reports and
// exits, which ends the phase too. Their memory is watched by sampling
// the Go runtime's memory every few milliseconds.
type runLimits struct {
	ctx       context.Context
	cancel    context.CancelCauseFunc
	stop      atomic.Bool // set once ctx ends: stops the search
	searching atomic.Bool // the search counts its own memory
	maxMemory int64
	phase     string    // the phase under way
	stderr    io.Writer // where the phases print diagnostics
	release   func()
}

// limitStop is why a check stopped early: the text of a result's reason.
type limitStop struct{ reason string }

func (s limitStop) Error() string { return s.reason }

// Phases of a check, as reports name them.
const (
	phaseModel       = "model construction"
	phaseTranslation = "LTL translation"
	phaseSynthesis   = "abstraction synthesis"
	phaseSearch      = "search"
	phaseReplay      = "concrete replay"
)

// phaseHook, when not nil (in tests), is called as each phase starts,
// with the command's limits (l.end stops the command as Ctrl-C does).
var phaseHook func(phase string, l *runLimits)

// memoryPoll is how often the memory of the phases other than the search
// is sampled.
const memoryPoll = 5 * time.Millisecond

// startLimits arms the limits of cfg for the whole command: Ctrl-C and
// SIGTERM, a timer for the time limit, the memory watch and Go's soft
// memory limit. The search gets them through cfg.Stop and cfg.StopReason
// (cfg.TimeLimit is left to the timer, which counts from now). The caller
// must call release.
func startLimits(e *env, cfg *search.Config) *runLimits {
	ctx, cancel := context.WithCancelCause(context.Background())
	l := &runLimits{ctx: ctx, cancel: cancel, maxMemory: cfg.MaxMemory, stderr: e.stderr}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	var timer *time.Timer
	if d := cfg.TimeLimit; d > 0 {
		timer = time.AfterFunc(d, func() { l.end(fmt.Sprintf("time limit reached (--time-limit=%s)", d)) })
	}
	cfg.TimeLimit = 0
	cfg.Stop = &l.stop
	cfg.StopReason = l.reason
	go func() {
		tick := time.NewTicker(memoryPoll)
		defer tick.Stop()
		// what the runtime holds, less the free memory it keeps (from a
		// search that ended, say) and could return to the system
		samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"},
			{Name: "/memory/classes/heap/free:bytes"}}
		for {
			select {
			case <-sig:
				l.end("interrupted")
				// a second Ctrl-C gets the default action again
				signal.Stop(sig)
			case <-ctx.Done():
				return
			case <-tick.C:
				if l.maxMemory <= 0 || l.searching.Load() {
					continue
				}
				metrics.Read(samples)
				if held := int64(samples[0].Value.Uint64() - samples[1].Value.Uint64() - samples[2].Value.Uint64()); held >= l.maxMemory {
					l.end(fmt.Sprintf("memory limit reached (--max-memory=%s)", search.FormatBytes(l.maxMemory)))
				}
			}
		}
	}()
	// the garbage collector keeps the process within the budget too
	old := debug.SetMemoryLimit(cfg.MaxMemory + 256<<20)
	l.release = func() {
		if timer != nil {
			timer.Stop()
		}
		signal.Stop(sig)
		cancel(nil)
		debug.SetMemoryLimit(old)
	}
	return l
}

// end stops the command for reason (the first reason stands).
func (l *runLimits) end(reason string) {
	l.cancel(limitStop{reason})
	l.stop.Store(true)
}

// reason is why the command was stopped, or "" while it runs.
func (l *runLimits) reason() string {
	var ls limitStop
	if errors.As(context.Cause(l.ctx), &ls) {
		return ls.reason
	}
	return ""
}

// run runs fn, the phase of the command named phase, and returns "" when
// it finished, or why the limits ended it first (then fn is abandoned: it
// must not write to the command's output).
func (l *runLimits) run(phase string, fn func()) (stopped string) {
	l.phase = phase
	if phaseHook != nil {
		phaseHook(phase, l)
	}
	if r := l.reason(); r != "" {
		return r
	}
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		fn()
	}()
	select {
	case r := <-done:
		if r != nil {
			panic(r) // Main reports it
		}
		// a phase that ended because the limits did (its queries
		// answered unknown, its translation gave up) is stopped too:
		// its results are not used
		return l.reason()
	case <-l.ctx.Done():
		return l.reason()
	}
}

// startSearch marks the start of a search phase (which counts its own
// memory); the returned function marks its end.
func (l *runLimits) startSearch() func() {
	l.phase = phaseSearch
	if phaseHook != nil {
		phaseHook(phaseSearch, l)
	}
	l.searching.Store(true)
	return func() { l.searching.Store(false) }
}

// stoppedReport prints the report of a check that a limit stopped before
// its search could give a result (or, for the concrete replay, after it),
// and returns exit status 3.
func stoppedReport(e *env, o *checkOptions, name, phase, reason string) int {
	reason += " during the " + phase
	if o.json {
		printJSON(e.stdout, jsonStoppedReport{
			jsonReport: jsonReport{Model: name, Verdict: search.Inconclusive.String(), Reason: reason,
				Trail: []jsonStep{}, LimitsHit: []jsonLimit{}, Search: o.search},
			Phase: phase,
		})
	} else {
		fmt.Fprintf(e.stdout, "%s: %s\n", search.Inconclusive, reason)
	}
	return ExitInconclusive
}

// jsonStoppedReport is the document of a check stopped outside its search:
// phase names the phase a limit (or Ctrl-C) ended.
type jsonStoppedReport struct {
	jsonReport
	Phase string `json:"phase"`
}

// ltlMaxNodes bounds the LTL translation of a check (0: ltl.MaxNodes);
// tests lower it.
var ltlMaxNodes int

// translate translates the negation of the formula f (over the
// propositions props) into the automaton a check searches with, within
// the limits. It returns nil, having printed why, when the translator
// fails, and the reason when a limit stopped it (or the automaton grew
// past the translator's bound, ltl.MaxNodes: a resource limit too).
func (o *checkOptions) translate(f *ltl.Formula, props []string) (aut *ltl.Automaton, stopped string) {
	var err error
	tr := ltl.Translator{MaxNodes: ltlMaxNodes}
	stopped = o.lim.run(phaseTranslation, func() { aut, err = tr.Translate(o.lim.ctx, ltl.Un(ltl.Not, f), props) })
	if stopped == "" && errors.Is(err, ltl.ErrTooLarge) {
		// the report adds "during the LTL translation"
		return nil, strings.TrimPrefix(err.Error(), "LTL translation stopped: ")
	}
	if stopped == "" && err != nil {
		fmt.Fprintf(o.lim.stderr, "birch check: %v\n", err)
		return nil, ""
	}
	return aut, stopped
}

// replay replays an abstract trail on the concrete model (feasible.Replay)
// within the limits; stopped is the reason when a limit stopped it.
func (o *checkOptions) replay(m *model.Model, sc feasible.Schedule, cfg feasible.Config) (fr *feasible.Result, stopped string, err error) {
	cfg.Context = o.lim.ctx
	stopped = o.lim.run(phaseReplay, func() { fr, err = feasible.Replay(m, sc, cfg) })
	return fr, stopped, err
}
