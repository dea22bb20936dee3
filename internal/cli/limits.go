package cli

import (
	"errors"
	"fmt"
	"strings"

	"birch/internal/abstraction/data/feasible"
	"birch/internal/ltl"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/verify"
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

// runLimits are the limits of a command (verify.Limits).
type runLimits = verify.Limits

// Phases of a check, as reports name them.
const (
	phaseModel       = verify.PhaseModel
	phaseTranslation = verify.PhaseTranslation
	phaseSynthesis   = verify.PhaseSynthesis
	phaseSearch      = verify.PhaseSearch
	phaseReplay      = verify.PhaseReplay
	phasePromela     = verify.PhasePromela
)

// phaseHook, when not nil (in tests), is called as each phase starts,
// with the command's limits (l.End stops the command as Ctrl-C does).
var phaseHook func(phase string, l *runLimits)

// startLimits arms the limits of cfg for the whole command
// (verify.StartLimits). The caller must call Release.
func startLimits(e *env, cfg *search.Config) *runLimits {
	l := verify.StartLimits(cfg)
	l.OnPhase = phaseHook
	return l
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
	stopped = o.lim.Run(phaseTranslation, func() { aut, err = tr.Translate(o.lim.Ctx, ltl.Un(ltl.Not, f), props) })
	if stopped == "" && errors.Is(err, ltl.ErrTooLarge) {
		// the report adds "during the LTL translation"
		return nil, strings.TrimPrefix(err.Error(), "LTL translation stopped: ")
	}
	if stopped == "" && err != nil {
		fmt.Fprintf(o.stderr, "birch check: %v\n", err)
		return nil, ""
	}
	return aut, stopped
}

// replay replays an abstract trail on the concrete model (feasible.Replay)
// within the limits; stopped is the reason when a limit stopped it.
func (o *checkOptions) replay(m *model.Model, sc feasible.Schedule, cfg feasible.Config) (fr *feasible.Result, stopped string, err error) {
	cfg.Context = o.lim.Ctx
	stopped = o.lim.Run(phaseReplay, func() { fr, err = feasible.Replay(m, sc, cfg) })
	return fr, stopped, err
}
