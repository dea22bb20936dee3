package cli

import (
	"fmt"

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

// ltlMaxNodes bounds the LTL translation of a check (0: ltl.MaxNodes);
// tests lower it.
var ltlMaxNodes int
