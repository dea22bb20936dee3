package verify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"syscall"
	"time"

	"birch/internal/search"
)

// Limits carries --time-limit, --max-memory and Ctrl-C (SIGINT, or
// SIGTERM) through every phase of a run, not only its search: the time
// limit counts from the start of the run, and a phase that a limit ends
// is reported as an inconclusive check that names the limit and the phase
// (docs/check.md, "Resource limits, progress and Ctrl-C").
//
// The search checks the limits itself (search.Config's Stop, StopReason
// and MaxMemory). The other phases (model construction, LTL translation,
// abstraction synthesis, the concrete replay) get Ctx, and run in a
// goroutine that the run stops waiting for when a limit ends it: birch
// then reports and exits, which ends the phase too. Their memory is
// watched by sampling the Go runtime's memory every few milliseconds.
type Limits struct {
	// Ctx ends when a limit is reached; phases that can stop early
	// (solver queries, the LTL translation, the replay) watch it.
	Ctx       context.Context
	cancel    context.CancelCauseFunc
	stop      atomic.Bool // set once Ctx ends: stops the search
	searching atomic.Bool // the search counts its own memory
	maxMemory int64
	phase     string // the phase under way
	release   func()
	// OnPhase, when not nil (in tests), is called as each phase starts
	// (End stops the run as Ctrl-C does).
	OnPhase func(phase string, l *Limits)
}

// limitStop is why a run stopped early: the text of a check's reason.
type limitStop struct{ reason string }

func (s limitStop) Error() string { return s.reason }

// StopReason returns the reason of a limit that err (a cause of a
// context's end) carries, or "".
func StopReason(err error) string {
	var ls limitStop
	if errors.As(err, &ls) {
		return ls.reason
	}
	return ""
}

// Phases of a run, as reports name them.
const (
	PhaseModel       = "model construction"
	PhaseTranslation = "LTL translation"
	PhaseSynthesis   = "abstraction synthesis"
	PhaseSearch      = "search"
	PhaseReplay      = "concrete replay"
	PhasePromela     = "translation to Promela"
)

// memoryPoll is how often the memory of the phases other than the search
// is sampled.
const memoryPoll = 5 * time.Millisecond

// StartLimits arms the limits of cfg for the whole run: Ctrl-C and
// SIGTERM, a timer for the time limit, the memory watch and Go's soft
// memory limit. The search gets them through cfg.Stop and cfg.StopReason
// (cfg.TimeLimit is left to the timer, which counts from now). The caller
// must call Release.
func StartLimits(cfg *search.Config) *Limits {
	ctx, cancel := context.WithCancelCause(context.Background())
	l := &Limits{Ctx: ctx, cancel: cancel, maxMemory: cfg.MaxMemory}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	var timer *time.Timer
	if d := cfg.TimeLimit; d > 0 {
		timer = time.AfterFunc(d, func() { l.End(fmt.Sprintf("time limit reached (--time-limit=%s)", d)) })
	}
	cfg.TimeLimit = 0
	cfg.Stop = &l.stop
	cfg.StopReason = l.Reason
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
				l.End("interrupted")
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
					l.End(fmt.Sprintf("memory limit reached (--max-memory=%s)", search.FormatBytes(l.maxMemory)))
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

// Release disarms the limits.
func (l *Limits) Release() { l.release() }

// End stops the run for reason (the first reason stands).
func (l *Limits) End(reason string) {
	l.cancel(limitStop{reason})
	l.stop.Store(true)
}

// Reason is why the run was stopped, or "" while it runs.
func (l *Limits) Reason() string { return StopReason(context.Cause(l.Ctx)) }

// Run runs fn, the phase of the run named phase, and returns "" when it
// finished, or why the limits ended it first (then fn is abandoned: it
// must not write to the run's output).
func (l *Limits) Run(phase string, fn func()) (stopped string) {
	l.phase = phase
	if l.OnPhase != nil {
		l.OnPhase(phase, l)
	}
	if r := l.Reason(); r != "" {
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
			panic(r) // the command reports it
		}
		// a phase that ended because the limits did (its queries
		// answered unknown, its translation gave up) is stopped too:
		// its results are not used
		return l.Reason()
	case <-l.Ctx.Done():
		return l.Reason()
	}
}

// StartSearch marks the start of a search phase (which counts its own
// memory); the returned function marks its end.
func (l *Limits) StartSearch() func() {
	l.startSearch()
	l.searching.Store(true)
	return func() { l.searching.Store(false) }
}

// StartWatchedSearch marks the start of a search phase that does not count
// all it holds (abstract matching's refiners keep predicates, caches and
// an in-process solver): the memory watch goes on sampling the process,
// so --max-memory holds for all of it.
func (l *Limits) StartWatchedSearch() {
	l.startSearch()
}

func (l *Limits) startSearch() {
	l.phase = PhaseSearch
	if l.OnPhase != nil {
		l.OnPhase(PhaseSearch, l)
	}
}
