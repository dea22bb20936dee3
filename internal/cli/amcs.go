package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"birch/internal/amcs"
	"birch/internal/source"
	"birch/internal/verify"
)

// The options and the rendering of a check by concrete search with
// abstract matching (docs/amcs.md): --amcs[=VARIANT], --amcs-rounds, one
// progress line per round on stderr, the rounds in the report and the JSON
// "amcs" object.

// amcsFlag is --amcs[=VARIANT]: bare --amcs is the variant amcs.
type amcsFlag struct {
	set     bool
	variant amcs.Variant
}

func (f *amcsFlag) String() string {
	if f == nil || !f.set {
		return "false"
	}
	return f.variant.String()
}

// IsBoolFlag lets --amcs stand alone (flag gives it "true").
func (f *amcsFlag) IsBoolFlag() bool { return true }

func (f *amcsFlag) Set(s string) error {
	switch s {
	case "true":
		f.set, f.variant = true, amcs.AMCS
		return nil
	case "false":
		f.set = false
		return nil
	}
	v, ok := amcs.ParseVariant(s)
	if !ok {
		return fmt.Errorf("unknown variant %s (want %s)", source.Excerpt(s), strings.Join(amcsVariants, ", "))
	}
	f.set, f.variant = true, v
	return nil
}

// amcsVariants are the names --amcs takes.
var amcsVariants = []string{"amcs", "addall", "notp", "maxoverlap", "minset", "minonly"}

// amcsOptions checks the options of --amcs against the others: abstract
// matching searches the model as written breadth-first, so the flags of
// the other techniques and of the explicit search's order do not apply.
func (o *checkOptions) amcsOptions(e *env, fs *flag.FlagSet) bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	bad := func(format string, args ...any) bool {
		fmt.Fprintf(e.stderr, "birch check: "+format+"\n", args...)
		return false
	}
	if !o.amcs.set {
		if set["amcs-rounds"] {
			return bad("--amcs-rounds needs --amcs")
		}
		return true
	}
	for _, name := range []string{"cegar", "abstract", "abstractions", "use", "coerce", "default", "cube-length", "engine",
		"max-refinements", "save-predicates", "search", "choose-free", "max-depth", "max-replay", "task"} {
		if set[name] {
			return bad("--%s does not apply to --amcs (concrete search with abstract matching, breadth-first; --predicates FILE gives its initial predicates)", name)
		}
	}
	if o.amcsRounds < 0 {
		return bad("bad --amcs-rounds %d (want 0, no bound, or more)", o.amcsRounds)
	}
	return true
}

// amcsTask is the check of --amcs.
func (o *checkOptions) amcsTask(e *env) *verify.AMCS {
	a := &verify.AMCS{Variant: o.amcs.variant, MaxRounds: o.amcsRounds, Seed: o.seed, File: o.predicates, Solver: o.solver,
		ReadFile: func(name string) ([]byte, error) { return readSource(e, name) }}
	if o.progress || isTerminal(e.stderr) {
		a.Round = func(r amcs.Round) { fmt.Fprintln(e.stderr, amcsRoundLine(r)) }
	}
	return a
}

// amcsRoundLine is the line of a round:
//
//	amcs: round 2: 3 predicates, 14 abstract states, 52 concrete states generated, 4 eligible, 0.002 s; 2 new predicates: x > 3, Main[1].n > 2
func amcsRoundLine(r amcs.Round) string {
	s := fmt.Sprintf("amcs: round %d: %d %s, %d abstract states, %d concrete states generated, %d eligible",
		r.N, r.Predicates, plural(r.Predicates, "predicate", "predicates"), r.AbstractStates, r.Generated, r.Eligible)
	if r.SolverQueries > 0 {
		s += fmt.Sprintf(", %d solver queries", r.SolverQueries)
	}
	s += fmt.Sprintf(", %.3f s", r.Seconds)
	if r.Exact {
		s += "; exact"
	}
	if n := len(r.Added); n > 0 {
		s += fmt.Sprintf("; %d new %s: %s", n, plural(n, "predicate", "predicates"), strings.Join(r.Added, ", "))
	}
	return s
}

// amcsShown is how many rounds and predicates the text report prints
// before it elides the middle (--full-trail prints all).
const amcsShown = 20

// printAMCS prints the rounds of a check by abstract matching and its
// final predicates.
func printAMCS(w io.Writer, o *checkOptions, c *verify.Check) {
	a := c.AMCS
	n := len(a.Rounds)
	fmt.Fprintf(w, "abstract matching (--amcs=%s): %d %s, %d %s, %d abstract states", a.Variant, n, plural(n, "round", "rounds"),
		len(a.Predicates), plural(len(a.Predicates), "predicate", "predicates"), a.AbstractStates)
	switch {
	case a.Exact:
		fmt.Fprint(w, "; exact")
	case a.Why != "":
		fmt.Fprint(w, "; not exact") // (why: the rests-on line)
	}
	fmt.Fprintln(w)
	for i, r := range a.Rounds {
		if !o.fullTrail && n > amcsShown && i == amcsShown/2 {
			fmt.Fprintf(w, "  ... %d rounds not shown (--full-trail or --json shows them)\n", n-amcsShown)
		}
		if o.fullTrail || n <= amcsShown || i < amcsShown/2 || i >= n-amcsShown/2 {
			fmt.Fprintf(w, "  %s\n", strings.TrimPrefix(amcsRoundLine(r), "amcs: "))
		}
	}
	if len(a.Predicates) == 0 {
		return
	}
	fmt.Fprintf(w, "final predicates (%d):\n", len(a.Predicates))
	for i, p := range a.Predicates {
		if !o.fullTrail && i == amcsShown {
			fmt.Fprintf(w, "  ... %d more (--full-trail or --json shows them)\n", len(a.Predicates)-amcsShown)
			break
		}
		fmt.Fprintf(w, "  %s\n", p)
	}
}

// amcsStatsLine is the statistics of a check by abstract matching: those
// of the last round's search (its memory is not measured), and the
// concrete states of every round.
func amcsStatsLine(c *verify.Check) string {
	var generated int64
	for _, r := range c.AMCS.Rounds {
		generated += r.Generated
	}
	st := c.Stats
	return fmt.Sprintf("last round: %d abstract states, %d transitions, max depth %d; %d concrete states generated in %d %s, %.3f s",
		st.States, st.Transitions, st.MaxDepth, generated, len(c.AMCS.Rounds), plural(len(c.AMCS.Rounds), "round", "rounds"), st.Seconds)
}

// jsonAMCS is the "amcs" object of the JSON report.
type jsonAMCS struct {
	Variant        string          `json:"variant"`
	Exact          bool            `json:"exact"`
	Rounds         []jsonAMCSRound `json:"rounds"`
	Predicates     []string        `json:"predicates"`
	AbstractStates int             `json:"abstract_states"`
	NotExact       string          `json:"not_exact,omitempty"`
}

// jsonAMCSRound is one round of the "amcs" object.
type jsonAMCSRound struct {
	Round          int      `json:"round"`
	Predicates     int      `json:"predicates"`
	AbstractStates int      `json:"abstract_states"`
	Generated      int64    `json:"generated"`
	Transitions    int64    `json:"transitions"`
	Eligible       int      `json:"eligible"`
	SolverQueries  int      `json:"solver_queries"`
	Exact          bool     `json:"exact"`
	Added          []string `json:"added"`
	Seconds        float64  `json:"seconds"`
}

// amcsDoc is the "amcs" object of a check, or nil.
func amcsDoc(c *verify.Check) *jsonAMCS {
	a := c.AMCS
	if a == nil {
		return nil
	}
	d := &jsonAMCS{Variant: a.Variant, Exact: a.Exact, Rounds: []jsonAMCSRound{}, Predicates: []string{}, AbstractStates: a.AbstractStates, NotExact: a.Why}
	d.Predicates = append(d.Predicates, a.Predicates...)
	for _, r := range a.Rounds {
		jr := jsonAMCSRound{Round: r.N, Predicates: r.Predicates, AbstractStates: r.AbstractStates, Generated: r.Generated,
			Transitions: r.Transitions, Eligible: r.Eligible, SolverQueries: r.SolverQueries, Exact: r.Exact, Added: []string{}, Seconds: r.Seconds}
		jr.Added = append(jr.Added, r.Added...)
		d.Rounds = append(d.Rounds, jr)
	}
	return d
}
