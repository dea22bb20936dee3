package verify

import (
	"strings"

	"birch/internal/search"
)

// Verdict is the outcome of a check: pass, fail or inconclusive.
type Verdict = search.Verdict

// Verdicts.
const (
	Pass         = search.Pass
	Fail         = search.Fail
	Inconclusive = search.Inconclusive
)

// worse reports whether v is a worse outcome than w: a failure is worse
// than an undecided check, which is worse than a pass.
func worse(v, w Verdict) bool {
	rank := func(v Verdict) int {
		switch v {
		case Fail:
			return 2
		case Inconclusive:
			return 1
		}
		return 0
	}
	return rank(v) > rank(w)
}

// BasisKind is one kind of ground a verdict rests on.
type BasisKind int

// What a check's search was (docs/check.md, "What a verdict rests on").
const (
	// Complete: an exhaustive search of the model as written.
	Complete BasisKind = iota
	// Bounded: a bound of the model (a full collection, too many threads,
	// the call depth), --max-depth or a resource limit cut the search;
	// only a violation is conclusive.
	Bounded
	// Abstracted: the search explored an abstraction of the model, an
	// over-approximation: a pass is a proof, a violation must be
	// confirmed on the model as written.
	Abstracted
	// UnderApproximated: the search explored only some behaviours
	// (the choose-free search, abstract matching): only a confirmed
	// violation is conclusive.
	UnderApproximated
)

func (k BasisKind) String() string {
	return [...]string{"complete", "bounded", "abstracted", "under-approximated"}[k]
}

// MarshalText writes the kind as its name in JSON.
func (k BasisKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Basis is one ground of a verdict: its kind and, for every kind but
// Complete, which bound, abstraction or under-approximation.
type Basis struct {
	Kind BasisKind `json:"kind"`
	What string    `json:"what"`
}

// RestsOn is what a check's verdict rests on. An empty RestsOn is a
// complete search of the model as written.
type RestsOn []Basis

// Has reports whether r has a basis of kind k.
func (r RestsOn) Has(k BasisKind) bool {
	for _, b := range r {
		if b.Kind == k {
			return true
		}
	}
	return false
}

// Bases returns r, or the one Complete basis when r is empty: what
// reports print.
func (r RestsOn) Bases() []Basis {
	if len(r) == 0 {
		return []Basis{{Kind: Complete, What: "exhaustive search of the model as written"}}
	}
	return r
}

// String is the text of r: "complete (exhaustive search of the model as
// written)", or its bases joined with "; ".
func (r RestsOn) String() string {
	var parts []string
	for _, b := range r.Bases() {
		s := b.Kind.String()
		if b.What != "" {
			s += " (" + b.What + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// allowsPass reports whether a search resting on r proves the absence of
// a violation when it finds none: only a complete search of the model or
// of an over-approximation does.
func (r RestsOn) allowsPass() bool {
	return !r.Has(Bounded) && !r.Has(UnderApproximated)
}

// Confirmation says whether a violation's trail is one of the model as
// written.
type Confirmation struct {
	// Confirmed: the trail is an execution of the model as written (found
	// on it, or replayed on it); By says how.
	Confirmed bool   `json:"confirmed"`
	By        string `json:"by"`
	// Diverges: for a trail not confirmed, the first step where the
	// abstract trail and the concrete model part ways (nil if unknown).
	Diverges *Divergence `json:"diverges"`
}

// Divergence is the first step where an abstract trail and the concrete
// model part ways.
type Divergence struct {
	Step     int    `json:"step"`
	Thread   string `json:"thread"`
	Location string `json:"location"`
	Pos      string `json:"pos"`
	Reason   string `json:"reason"`
}

// String is "confirmed" or "not confirmed".
func (c Confirmation) String() string {
	if c.Confirmed {
		return "confirmed"
	}
	return "not confirmed"
}

// Stop is why a limit (or Ctrl-C) ended a check, and in which phase.
type Stop struct {
	Phase  string
	Reason string
}

// Property is one property a check decided.
type Property struct {
	// Name: the property's name in the model, "--ltl" or "--pattern" for
	// a formula of the command line, or "safety" for the assertions,
	// runtime errors and deadlocks every search checks.
	Name string
	// Kind: "safety", "invariant" or "ltl".
	Kind string
	// Source: what the user wrote (the formula, the pattern; for safety
	// the violations it covers). Formula: an LTL formula as birch prints
	// it.
	Source, Formula string
	Fair            bool // ltl: weakly fair executions only
	// AutomatonStates: ltl: the states of the automaton searched with.
	AutomatonStates int
	// Title is how messages name it ("ltl property p", "the --ltl
	// formula", "invariant inv").
	Title string

	prop string // the property's name in the loaded program ("" for safety)
}

// Check is the result of one search of a verification run: the
// properties it decided, the violation it found (with its trail in the
// terms of the user's model), what its verdict rests on, and its
// statistics. Its verdict is derived from these facts (Verdict), so that
// a pass from an incomplete or under-approximating search cannot be made.
type Check struct {
	Properties []*Property
	// Explored: the search explored every state it was to explore and
	// found no violation: it was not stopped, cut by --max-depth or
	// restricted to the choose-free steps. Bounds of the model may have
	// cut paths (RestsOn lists them; they leave the verdict undecided).
	// It is the JSON report's "complete".
	Explored bool
	// Reason says why the verdict is what it is, in one line.
	Reason string
	// RestsOn: the grounds of the verdict.
	RestsOn RestsOn
	// Violation, if not nil, is the violation found.
	Violation *Violation
	// Stopped, if not nil, is the limit that ended the check outside its
	// search (in the phase it names); the check then has no statistics.
	Stopped *Stop
	// Limit: the limit (--time-limit, --max-memory, --max-states, Ctrl-C)
	// that stopped the check, or "".
	Limit string
	// Search names the search: dfs, bfs, random, spin, ...
	Search    string
	Stats     search.Stats
	LimitsHit []Limit
	// Unreached: after a complete search without a violation, the
	// transformations no step executed ([] when every one was); nil
	// otherwise.
	Unreached []Unreached
	// Notes are remarks a report prints after the trail.
	Notes []string

	// Abstraction, Spin: the details of a check with data abstraction, or
	// of a SPIN run.
	Abstraction *AbstractionInfo
	Spin        *SpinInfo
	// Predicates: the details of a check with predicate abstraction
	// (with Abstraction for the abstract search and its confirmation).
	Predicates *PredicateInfo
	// Cegar: the rounds of a check by refinement (with Predicates for its
	// last abstraction).
	Cegar *CegarInfo
	// AMCS: the rounds of a check by abstract matching.
	AMCS *AMCSInfo
	// OnTheFly: the details of a check with on-the-fly predicate
	// abstraction (with Abstraction for the search and its confirmation).
	OnTheFly *OnTheFlyInfo

	violated *Property // the property Violation violates
}

// PropertyVerdict is the verdict on one of c's properties: the check's
// verdict for the property violated and for every property of a check
// without a violation; inconclusive for the other properties of a check
// that stopped at a violation (its search did not finish).
func (c *Check) PropertyVerdict(p *Property) (Verdict, string) {
	v := c.Verdict()
	if c.Violation == nil || c.violated == nil || c.violated == p {
		return v, c.Reason
	}
	return Inconclusive, "not decided: the search stopped at the violation of " + c.violated.Title
}

// Violated is the property c's violation violates, or nil. It is not
// among c's Properties when the product search of an ltl property stopped
// at a runtime error: a violation of safety (assertions, runtime errors).
func (c *Check) Violated() *Property { return c.violated }

// Verdict is the check's verdict: fail for a confirmed violation, pass
// only for an explored search whose grounds allow a pass (RestsOn),
// inconclusive otherwise.
func (c *Check) Verdict() Verdict {
	switch {
	case c.Violation != nil && c.Violation.Confirmation.Confirmed:
		return Fail
	case c.Violation != nil, c.Stopped != nil, !c.Explored, !c.RestsOn.allowsPass():
		return Inconclusive
	}
	return Pass
}

// Limit is a bound of the model that cut paths of the search.
type Limit struct {
	Message string
	Pos     string
	Count   int // 0: hit, count unknown (SPIN)
}

// Lasso is the shape of an LTL violation: the trail's steps before the
// cycle, and whether the execution ends by repeating its last state (End:
// "terminated" or "deadlock").
type Lasso struct {
	CycleStart int
	Stutter    bool
	End        string
}

// Violation is a violation a check found, in the terms of the user's
// model.
type Violation struct {
	Kind    string
	Message string
	// ModelMessage: the model's own message when Message words the
	// violation in the terms of the source language (a C program's
	// "reach_error() called" for "assertion violated: false"); "" else.
	ModelMessage string
	Thread       string // the thread that failed, or ""
	Location     string
	Pos          string
	// Threads: for a deadlock, every thread and what it waits for.
	Threads []ThreadState
	// Trail is the execution that leads to it, step by step (nil when
	// there is none in birch's terms, as for some SPIN trails).
	Trail []Step
	// Lasso: the shape of an LTL violation's trail.
	Lasso *Lasso
	// Ordinals replay the trail (birch replay); nil when it cannot be
	// saved. ExposeInvisible: it replays with invisible runs exposed.
	Ordinals        []int
	ExposeInvisible bool
	Confirmation    Confirmation
	// Inputs: the values a solver found for the trail's choices (a trail
	// confirmed by the symbolic replay of a predicate abstraction's
	// trail). ChoiceValues: the values the model's unbounded choices take
	// to replay Ordinals (model.Options.ChoiceValues; nil when it has
	// none).
	Inputs       []InputValue
	ChoiceValues []int64
}

// ModelText is the model's own message of the violation.
func (v *Violation) ModelText() string {
	if v.ModelMessage != "" {
		return v.ModelMessage
	}
	return v.Message
}

// ThreadState is a thread's location at a deadlock and what it waits
// for.
type ThreadState struct {
	Thread     string
	Location   string
	Terminated bool
	Waits      []string
}

// Result is the result of a verification run: one Check per search.
type Result struct {
	Model  string // the input as the user named it
	Checks []*Check
}

// Verdict is the worst verdict of the run's checks (a failure, then an
// undecided check, then a pass); a run without checks is inconclusive.
func (r *Result) Verdict() Verdict {
	if len(r.Checks) == 0 {
		return Inconclusive
	}
	v := Pass
	for _, c := range r.Checks {
		if cv := c.Verdict(); worse(cv, v) {
			v = cv
		}
	}
	return v
}

// Deciding is the check whose verdict is the run's: the first with it.
func (r *Result) Deciding() *Check {
	v := r.Verdict()
	for _, c := range r.Checks {
		if c.Verdict() == v {
			return c
		}
	}
	return nil
}

// AbstractionInfo describes a check with data abstraction.
type AbstractionInfo struct {
	Bindings  []string
	Coercions []string          // declared coercions in effect, "FROM -> TO"
	Variables map[string]string // every abstracted variable and its abstraction
	// AbstractVerdict is the verdict of the search of the abstract model.
	AbstractVerdict Verdict
	// AbstractViolation and AbstractTrail: the abstract model's violation
	// (in the terms of the concrete model where it can be).
	AbstractViolation *Violation
	AbstractTrail     []Step
	// FoundBy: "choose-free" when the choose-free search found the
	// violation, "search" when only the full search did, "" without one.
	FoundBy string
	// Replay: how the abstract trail was replayed ("" without one);
	// ValuesDiverge: the first step where the concrete values differ
	// from the abstract trail's.
	Replay     string
	ReplayNote string // why the replay is incomplete, or ""
	// ReplayConfirmed: the replay confirmed the abstract trail (a
	// violation may stand without it: a choose-free trail whose replay
	// did not finish).
	ReplayConfirmed bool
	ValuesDiverge   *Divergence
	AbstractFormula string // the under-approximated formula of an ltl property
	AbstractLasso   *Lasso
	// Wraps lists the places where an abstracted value may wrap around a
	// fixed-width type, "FILE:LINE:COL: WHAT": a pass does not cover the
	// executions in which one of them wraps (abstract_wrap.go).
	Wraps []string
}

// SpinInfo describes a SPIN run (birch spin).
type SpinInfo struct {
	StatesMatched int64 // pan's "states, matched"
	VectorBytes   int   // pan's state vector
	// the wall-clock times of the translation to Promela, spin -a, gcc
	// and pan
	TranslateSeconds, SpinSeconds, CompileSeconds, PanSeconds float64
	// CFlags: gcc's flags for pan; PanArgs: pan's (nil: not run)
	CFlags, PanArgs []string
	Assertion       string // the Promela assertion pan found violated, or ""
	Note            string // why the trail is not birch's (or how birch completed it), or ""
	Kept            string // the directory the run's files were copied to (--keep), or ""
}
