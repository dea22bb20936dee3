package model

import "birch/internal/source"

// Outcome says how one execution of a transformation ended.
type Outcome uint8

// Outcomes.
const (
	OK    Outcome = iota // a successor state
	Error                // a runtime error (an ErrorState)
	Limit                // a bound was hit (a LimitState)
)

// ErrorKind classifies violations. The names are those of the JSON output.
type ErrorKind uint8

// Violation kinds.
const (
	NoError ErrorKind = iota
	Assertion
	Deadlock
	NullDereference
	IndexOutOfBounds
	DivisionByZero
	RangeError
	Overflow
	IllegalMonitorState
	TypeError
	LimitReached
	InvariantViolated // an invariant of the properties section is false
	LTLViolated       // an execution violates an ltl property
	ShiftCount        // a shift count outside 0..63
)

var errorKindNames = [...]string{
	NoError:             "none",
	Assertion:           "assertion",
	Deadlock:            "deadlock",
	NullDereference:     "null-dereference",
	IndexOutOfBounds:    "index-out-of-bounds",
	DivisionByZero:      "division-by-zero",
	RangeError:          "range",
	Overflow:            "overflow",
	IllegalMonitorState: "illegal-monitor-state",
	TypeError:           "type",
	LimitReached:        "limit",
	InvariantViolated:   "invariant",
	LTLViolated:         "ltl",
	ShiftCount:          "shift",
}

func (k ErrorKind) String() string {
	if int(k) < len(errorKindNames) {
		return errorKindNames[k]
	}
	return "unknown"
}

// ParseErrorKind returns the kind named s.
func ParseErrorKind(s string) (ErrorKind, bool) {
	for i, n := range errorKindNames {
		if n == s {
			return ErrorKind(i), true
		}
	}
	return NoError, false
}

// Step is one outcome of one enabled transformation (or of one invisible run
// of transformations) of one thread, as delivered to a search by
// Model.Next. A search must not keep a Step or its slices after the callback
// returns; copy what it needs.
type Step struct {
	Outcome Outcome
	// Ordinal is the position of this outcome among all outcomes of the
	// source state, in Next's deterministic order. A trail is a list of
	// ordinals.
	Ordinal int
	// Thread is the index of the thread in the pool (its tid minus one).
	Thread int
	// Groups lists the transformations executed, in order: one, or several
	// for an invisible run. Each is an index into Model.Groups.
	Groups []int32
	// Intern is true when the step executed a choose action other than
	// externChoose: internChoose (an abstraction's choice among them),
	// forall or reachable. These are the choice transitions of the Bandera
	// paper (its Figure 14), which a choose-free search (the paper's M_D)
	// skips.
	Intern bool
	// State is the successor's encoding (Outcome OK only).
	State []byte
	// Kind, Msg and Pos describe an Error or a Limit outcome; Pos is the
	// position of the action or guard that failed.
	Kind ErrorKind
	Msg  string
	Pos  source.Pos

	// the successor's slots and thread offsets (Outcome OK, during the
	// callback only), for Evaluator.LoadStep
	slots []int64
	off   []int
	// the cached outcome (transition cache hit), for Evaluator.LoadStep
	hit *tcOut
}
