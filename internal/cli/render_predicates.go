package cli

import (
	"fmt"
	"io"
	"strings"

	"birch/internal/verify"
)

// Rendering of a check with predicate abstraction (docs/predicates.md,
// "Checking with predicates"): the report of a check with abstraction
// (render_abstract.go) whose abstraction lines are the predicates and the
// work of the abstraction, and whose confirmed violation gives the input
// values the solver found; in JSON, the "predicates" object.

// jsonPredicates is the "predicates" object of the JSON report.
type jsonPredicates struct {
	File       string          `json:"file"`
	Predicates []jsonPredicate `json:"predicates"`
	// Abstracted: the concrete variables and fields the abstract model no
	// longer has.
	Abstracted []string `json:"abstracted"`
	// Engine: "explicit" or "bebop"; EngineNote: why not bebop, when it
	// was to be tried; AbstractStates: the explicit engine's states,
	// BDDNodes: bebop's.
	Engine         string `json:"engine"`
	EngineNote     string `json:"engine_note,omitempty"`
	AbstractStates int    `json:"abstract_states"`
	BDDNodes       int    `json:"bdd_nodes,omitempty"`
	// Transformations: the concrete transformations abstracted.
	Transformations int     `json:"transformations"`
	SolverQueries   int     `json:"solver_queries"`
	CacheHits       int     `json:"cache_hits"`
	Unknowns        int     `json:"unknowns"`
	SolverSeconds   float64 `json:"solver_seconds"`
	// AbstractionSeconds: the whole abstraction, the solver included.
	AbstractionSeconds float64 `json:"abstraction_seconds"`
	// Inputs: the input values of a confirmed violation.
	Inputs []jsonInput `json:"inputs,omitempty"`
}

type jsonPredicate struct {
	Predicate string `json:"predicate"` // as in the file, with its scope
	Variable  string `json:"variable"`  // its boolean in the abstract model
}

type jsonInput struct {
	Step   int    `json:"step"`
	Pos    string `json:"pos"`
	Choice string `json:"choice"`
	Value  int64  `json:"value"`
}

// predicatesDoc is the "predicates" object of a check, or nil.
func predicatesDoc(c *verify.Check) *jsonPredicates {
	p := c.Predicates
	if p == nil {
		return nil
	}
	st := p.Stats
	jp := &jsonPredicates{
		File: p.File, Predicates: []jsonPredicate{}, Abstracted: p.Abstracted, AbstractStates: c.Stats.States,
		Engine: p.Engine.Name, EngineNote: p.Engine.Note, BDDNodes: p.Engine.BDDNodes,
		Transformations: st.Transformations, SolverQueries: st.Queries, CacheHits: st.CacheHits, Unknowns: st.Unknowns,
		SolverSeconds: st.SolverTime.Seconds(), AbstractionSeconds: st.Total.Seconds(),
	}
	if jp.Abstracted == nil {
		jp.Abstracted = []string{}
	}
	for i, pr := range p.Predicates {
		jp.Predicates = append(jp.Predicates, jsonPredicate{Predicate: pr, Variable: p.Variables[i]})
	}
	jp.Inputs = inputsDoc(c)
	return jp
}

// inputsDoc is the input values of a check's confirmed violation, or nil.
func inputsDoc(c *verify.Check) []jsonInput {
	var out []jsonInput
	if v := c.Violation; v != nil && v.Confirmation.Confirmed {
		for _, in := range v.Inputs {
			out = append(out, jsonInput{Step: in.Step, Pos: in.Pos, Choice: in.Action, Value: in.Value})
		}
	}
	return out
}

// printPredicates prints the predicates and the work of the abstraction.
func printPredicates(w io.Writer, c *verify.Check) {
	p := c.Predicates
	n := len(p.Predicates)
	fmt.Fprintf(w, "predicate abstraction: %d %s of %s\n", n, plural(n, "predicate", "predicates"), p.File)
	for i, pr := range p.Predicates {
		fmt.Fprintf(w, "  %s: %s\n", p.Variables[i], pr)
	}
	if len(p.Abstracted) > 0 {
		fmt.Fprintf(w, "  abstracted: %s\n", strings.Join(p.Abstracted, ", "))
	}
	st := p.Stats
	fmt.Fprintf(w, "  abstraction: %d transformations, %d solver queries, %d cache hits, %d unknown, %.3f s in the solver of %.3f s\n",
		st.Transformations, st.Queries, st.CacheHits, st.Unknowns, st.SolverTime.Seconds(), st.Total.Seconds())
	if p.Engine.Name == "bebop" {
		fmt.Fprintf(w, "  abstract model decided by bebop (its boolean program): %d BDD nodes\n", p.Engine.BDDNodes)
		return
	}
	fmt.Fprintf(w, "  abstract states: %d (explicit engine)\n", c.Stats.States)
	if p.Engine.Note != "" {
		fmt.Fprintf(w, "  not bebop: %s\n", p.Engine.Note)
	}
}

// printInputs prints the input values of a confirmed violation.
func printInputs(w io.Writer, c *verify.Check) {
	v := c.Violation
	if c.Predicates == nil && c.OnTheFly == nil || v == nil || !v.Confirmation.Confirmed || len(v.Inputs) == 0 {
		return
	}
	how, on := "solved for", "the concrete model"
	if a := c.Abstraction; a != nil && a.Replay == "sampled" {
		how = "tried by the sampled replay"
	}
	if c.OnTheFly != nil {
		on = "the model as written"
	}
	fmt.Fprintf(w, "input values (%s on %s):\n", how, on)
	for _, in := range v.Inputs {
		fmt.Fprintf(w, "  step %d: %s = %d (%s)\n", in.Step, in.Action, in.Value, in.Pos)
	}
}
