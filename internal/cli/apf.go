package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"birch/internal/verify"
)

// The options and the rendering of a check with on-the-fly predicate
// abstraction (docs/apf.md): --on-the-fly with --predicates FILE, the
// predicates and the runtime's work in the report, the JSON "apf" object.

// onTheFlyOptions checks --on-the-fly against the other options: it needs
// --predicates FILE, and the options of the other techniques do not apply.
func (o *checkOptions) onTheFlyOptions(e *env, fs *flag.FlagSet) bool {
	if !o.onTheFly {
		return true
	}
	if o.predicates == "" {
		fmt.Fprintln(e.stderr, "birch check: --on-the-fly needs --predicates FILE (the predicates it tracks)")
		return false
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, name := range []string{"abstract", "abstractions", "use", "coerce", "default", "max-replay", "cegar", "max-refinements",
		"save-predicates", "amcs", "amcs-rounds", "cube-length", "engine", "task"} {
		if set[name] {
			fmt.Fprintf(e.stderr, "birch check: --%s does not apply to --on-the-fly (the explicit search of the model with the predicates of --predicates FILE)\n", name)
			return false
		}
	}
	return true
}

// onTheFlyTask is the check of --on-the-fly.
func (o *checkOptions) onTheFlyTask(e *env) *verify.OnTheFly {
	return &verify.OnTheFly{File: o.predicates, Solver: o.solver,
		ReadFile: func(name string) ([]byte, error) { return readSource(e, name) }}
}

// jsonAPF is the "apf" object of the JSON report.
type jsonAPF struct {
	File       string   `json:"file"`
	Predicates []string `json:"predicates"` // as in the file, with their context
	// Abstracted: the variables and fields whose values the predicates
	// stand for.
	Abstracted []string `json:"abstracted"`
	// States: the states of the instrumented model the search stored.
	States        int `json:"states"`
	Steps         int `json:"steps"`
	SolverQueries int `json:"solver_queries"`
	CacheHits     int `json:"cache_hits"`
	Unknowns      int `json:"unknowns"`
	// UnknownGuards: guards whose value was unknown, taken with the guard
	// as a fact; Branches: possible runtime errors taken both ways, and
	// concrete locations given each value abstracted data may have.
	UnknownGuards int `json:"unknown_guards"`
	Branches      int `json:"branches"`
	// Inputs: the input values of a confirmed violation.
	Inputs []jsonInput `json:"inputs,omitempty"`
	// Notes: the notes the text report prints after the trail (the
	// violations tried before the one confirmed, or none confirmed).
	Notes []string `json:"notes,omitempty"`
}

// apfDoc is the "apf" object of a check, or nil.
func apfDoc(c *verify.Check) *jsonAPF {
	a := c.OnTheFly
	if a == nil {
		return nil
	}
	st := a.Stats
	d := &jsonAPF{File: a.File, Predicates: []string{}, Abstracted: []string{}, States: c.Stats.States, Steps: st.Steps,
		SolverQueries: st.Queries, CacheHits: st.CacheHits, Unknowns: st.Unknowns, UnknownGuards: st.UnknownGuards, Branches: st.Branches}
	d.Predicates = append(d.Predicates, a.Predicates...)
	d.Abstracted = append(d.Abstracted, a.Abstracted...)
	d.Inputs = inputsDoc(c)
	d.Notes = append(d.Notes, c.Notes...)
	return d
}

// printOnTheFly prints the predicates and the runtime's work.
func printOnTheFly(w io.Writer, c *verify.Check) {
	a := c.OnTheFly
	n := len(a.Predicates)
	fmt.Fprintf(w, "on-the-fly predicate abstraction: %d %s of %s\n", n, plural(n, "predicate", "predicates"), a.File)
	for _, p := range a.Predicates {
		fmt.Fprintf(w, "  %s\n", p)
	}
	if len(a.Abstracted) > 0 {
		fmt.Fprintf(w, "  abstracted: %s\n", strings.Join(a.Abstracted, ", "))
	}
	st := a.Stats
	fmt.Fprintf(w, "  runtime: %d steps, %d solver queries, %d cache hits, %d unknown; %d unknown guards taken, %d branches\n",
		st.Steps, st.Queries, st.CacheHits, st.Unknowns, st.UnknownGuards, st.Branches)
}
