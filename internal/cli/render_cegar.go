package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"birch/internal/search"
	"birch/internal/verify"
)

// The options and the rendering of a check by refinement (docs/cegar.md):
// one progress line per round on stderr, the rounds and the final
// predicates in the report (text and the JSON "cegar" object), and
// --save-predicates.

// cegarOptions checks the options of --cegar; without --search the search
// is breadth-first (the shortest abstract trails refine best).
func (o *checkOptions) cegarOptions(e *env, fs *flag.FlagSet, cfg *search.Config) bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !o.cegar {
		for _, name := range []string{"max-refinements", "save-predicates"} {
			if set[name] {
				fmt.Fprintf(e.stderr, "birch check: --%s needs --cegar\n", name)
				return false
			}
		}
		return true
	}
	if o.maxRefinements < 0 {
		fmt.Fprintf(e.stderr, "birch check: bad --max-refinements %d (want 0 or more)\n", o.maxRefinements)
		return false
	}
	if !set["search"] {
		cfg.Strategy = search.BFS
		o.search = "bfs"
	}
	return checkOutputPath(e, "check", "--save-predicates", o.savePredicates)
}

// cegarTask is the refinement of --cegar.
func (o *checkOptions) cegarTask(e *env) *verify.Cegar {
	max := o.maxRefinements
	if max == 0 {
		max = -1 // no refinement: verify's zero is the default
	}
	cg := &verify.Cegar{File: o.predicates, MaxRefinements: max, CubeLength: o.cubeLength, Engine: o.engine, Solver: o.solver,
		ReadFile: func(name string) ([]byte, error) { return readSource(e, name) }}
	if o.progress || isTerminal(e.stderr) {
		cg.Round = func(r verify.CegarRound) { fmt.Fprintln(e.stderr, roundLine(r)) }
	}
	return cg
}

// roundLine is the progress line of a round:
//
//	refinement: round 2: 4 predicates, 9 abstract states, 61 solver queries (12 cached), 0.100 s: spurious (step 4: ...); 1 new predicate: [thread Main] i <= n
func roundLine(r verify.CegarRound) string {
	states := fmt.Sprintf("%d abstract states", r.AbstractStates)
	if r.BDDNodes > 0 {
		states = fmt.Sprintf("%d BDD nodes (bebop)", r.BDDNodes)
	}
	s := fmt.Sprintf("refinement: round %d: %d %s, %s, %d solver queries (%d cached), %.3f s: %s",
		r.Round, r.Predicates, plural(r.Predicates, "predicate", "predicates"), states, r.Queries, r.CacheHits, r.Seconds, r.Outcome)
	if r.Outcome == "spurious" {
		n := len(r.Added)
		s += fmt.Sprintf(" (%s); %d new %s: %s", r.Why, n, plural(n, "predicate", "predicates"), strings.Join(r.Added, ", "))
	}
	return s
}

// cegarOf is the check of res that the refinement decided, or nil.
func cegarOf(res *verify.Result) *verify.Check {
	for _, c := range res.Checks {
		if c.Cegar != nil {
			return c
		}
	}
	return nil
}

// savePredicatesOf writes the final predicates of the refinement to
// --save-predicates FILE (whatever the verdict: a later --cegar
// --predicates FILE goes on from them); a failure to write is a warning.
func (o *checkOptions) savePredicatesOf(e *env, res *verify.Result) {
	c := cegarOf(res)
	if o.savePredicates == "" || c == nil || c.Cegar.Predicates == "" {
		return
	}
	head := fmt.Sprintf("# the predicates of birch check --cegar after %d %s (%s)\n",
		len(c.Cegar.Rounds), plural(len(c.Cegar.Rounds), "round", "rounds"), c.Verdict())
	if err := os.WriteFile(o.savePredicates, []byte(head+c.Cegar.Predicates), 0o644); err != nil {
		fmt.Fprintf(e.stderr, "birch check: warning: --save-predicates: %v\n", err)
	}
}

// printCegar prints the rounds of a check by refinement and, for a pass,
// the predicates of the proof.
func printCegar(w io.Writer, o *checkOptions, c *verify.Check) {
	g := c.Cegar
	n := len(g.Rounds)
	fmt.Fprintf(w, "refinement: %d %s", n, plural(n, "round", "rounds"))
	if g.Stop != "" {
		fmt.Fprintf(w, "; stopped: %s", g.Stop)
	}
	fmt.Fprintln(w)
	if c.Verdict() != verify.Pass {
		return
	}
	fmt.Fprintf(w, "predicates of the proof (%d", g.Count)
	if o.savePredicates != "" {
		fmt.Fprintf(w, "; saved to %s", o.savePredicates)
	}
	fmt.Fprintln(w, "):")
	for _, l := range strings.Split(strings.TrimRight(g.Predicates, "\n"), "\n") {
		fmt.Fprintf(w, "  %s\n", l)
	}
}

// jsonCegar is the "cegar" object of the JSON report.
type jsonCegar struct {
	Rounds []verify.CegarRound `json:"rounds"`
	// Predicates: the final predicates, each a line of a predicate file.
	Predicates []string `json:"predicates"`
	Stop       string   `json:"stop,omitempty"`
}

// cegarDoc is the "cegar" object of a check, or nil.
func cegarDoc(c *verify.Check) *jsonCegar {
	g := c.Cegar
	if g == nil {
		return nil
	}
	jc := &jsonCegar{Rounds: g.Rounds, Predicates: []string{}, Stop: g.Stop}
	if jc.Rounds == nil {
		jc.Rounds = []verify.CegarRound{}
	}
	for _, l := range strings.Split(g.Predicates, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			jc.Predicates = append(jc.Predicates, l)
		}
	}
	return jc
}
