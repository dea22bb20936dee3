package verify

import (
	"context"
	"fmt"

	"birch/internal/model"
	"birch/internal/search"
)

// Task is what a verification run checks: a loaded input, which of its
// properties, and how.
type Task struct {
	Input *Input
	// Select chooses the properties; its zero value checks every property
	// of the model.
	Select Selection
	// Search configures each search (its limits are armed by Limits).
	Search search.Config
	// Model: the bounds of the compiled model.
	Model model.Options
	// Limits: the run's time and memory limits and Ctrl-C; StartLimits
	// arms them. Nil: none.
	Limits *Limits
	// LTLMaxNodes bounds the LTL translator (0: ltl.MaxNodes).
	LTLMaxNodes int
	// Abstraction, when not nil, checks the model with data abstraction.
	Abstraction *DataAbstraction
	// Predicates, when not nil, checks the model with predicate
	// abstraction.
	Predicates *PredicateAbstraction
	// Cegar, when not nil, checks the model by counterexample-guided
	// refinement of a predicate abstraction (docs/cegar.md).
	Cegar *Cegar
	// AMCS, when not nil, checks the model by concrete search with
	// abstract matching (docs/amcs.md).
	AMCS *AMCS
	// OnTheFly, when not nil, checks the model with on-the-fly predicate
	// abstraction (docs/apf.md).
	OnTheFly *OnTheFly
	// Warn, when not nil, receives warnings as they arise (a property
	// with X makes the search larger, say).
	Warn func(msg string)
	// WarnAt, when not nil, receives positioned warnings (of the
	// abstraction's inference, of BASL files); without it they go to Warn.
	WarnAt WarnFunc
}

// Selection chooses the properties a run checks (docs/properties.md).
type Selection struct {
	// Names: the properties of the model's properties section to check
	// (--property, repeatable). None: every property: the invariants
	// (unless NoInvariants) in one search with the assertions, runtime
	// errors and deadlocks, and each ltl property in a search of its own.
	Names []string
	// LTL, Pattern: a formula (or a specification pattern) of the command
	// line, checked instead of the model's properties.
	LTL, Pattern string
	NoInvariants bool
	// Fair: ltl properties consider only weakly fair executions.
	Fair bool
}

// DataAbstraction is a check with data abstraction (docs/abstraction.md).
type DataAbstraction struct {
	Bindings  []string // NAME=ABSTRACTION
	File      string   // --abstractions FILE
	Use       []string // BASL files
	Coerce    []string // FROM->TO
	Default   string   // concrete or point
	Solver    string
	MaxReplay int // states of the concrete replay before solving symbolically
	// ReadFile reads the bindings file and the BASL files (nil:
	// os.ReadFile).
	ReadFile ReadFunc
}

// warn passes a warning on.
func (t *Task) warn(msg string) {
	if t.Warn != nil {
		t.Warn(msg)
	}
}

// warnAt passes a positioned warning on.
func (t *Task) warnAt(pos, msg string) {
	if t.WarnAt != nil {
		t.WarnAt(pos, msg)
		return
	}
	t.warn(pos + ": warning: " + msg)
}

// limits returns the task's limits, or a set that never ends when it has
// none.
func (t *Task) limits() *Limits {
	if t.Limits == nil {
		ctx, cancel := context.WithCancelCause(context.Background())
		t.Limits = &Limits{Ctx: ctx, cancel: cancel, release: func() { cancel(nil) }}
		t.Search.Stop, t.Search.StopReason = &t.Limits.stop, t.Limits.Reason
	}
	return t.Limits
}

// UsageError is an option or a property selection that does not fit the
// model; a command prints it after its name.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error { return &UsageError{fmt.Sprintf(format, args...)} }
