package cli

import (
	"fmt"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/ltl"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
)

// selectProperties picks the properties birch check verifies: with
// --property NAME that property (isLTL when it is an ltl formula),
// otherwise every invariant unless --no-invariants.
func selectProperties(e *env, l *loaded, o *checkOptions) (invs []*types.Property, isLTL, ok bool) {
	if o.property != "" {
		for _, p := range l.prog.Properties {
			if p.Name() == o.property {
				if p.LTL {
					return nil, true, true
				}
				if o.fair {
					fmt.Fprintf(e.stderr, "birch check: --fair applies only to ltl properties; %s is an invariant\n", p.Name())
					return nil, false, false
				}
				return []*types.Property{p}, false, true
			}
		}
		fmt.Fprintf(e.stderr, "birch check: --property %s: the model has no property %[1]s%s\n", source.Excerpt(o.property), propertyList(l.prog))
		return nil, false, false
	}
	if o.fair {
		fmt.Fprintln(e.stderr, "birch check: --fair applies only to ltl properties (--property NAME, --ltl or --pattern)")
		return nil, false, false
	}
	if o.noInvariants {
		return nil, false, true
	}
	for _, p := range l.prog.Properties {
		if !p.LTL {
			invs = append(invs, p)
		}
	}
	return invs, false, true
}

// propertyList lists a program's properties for an error message.
func propertyList(prog *types.Program) string {
	if len(prog.Properties) == 0 {
		return " (it has no properties section)"
	}
	s := " (its properties are"
	for i, p := range prog.Properties {
		if i > 0 {
			s += ","
		}
		kind := "invariant"
		if p.LTL {
			kind = "ltl"
		}
		s += " " + kind + " " + p.Name()
	}
	return s + ")"
}

// ltlProperty is the LTL property a check verifies.
type ltlProperty struct {
	name    string // the property's name, or --ltl / --pattern
	prop    string // the name of the property in l's program
	title   string // how messages name it
	source  string // what the user wrote: the formula, or the pattern
	l       *loaded
	spec    *ltl.Spec
	formula string // the formula as birch prints it
}

// loadLTL loads the model and the LTL property of the check: --property
// NAME (an ltl property of the model), --ltl FORMULA or --pattern PATTERN.
// A formula given on the command line is type-checked as an ltl property
// of the model (inserted at the end of its properties section); errors in
// it are reported as --ltl:1:COL.
//
// l is the model when it is loaded already (for --property).
func loadLTL(e *env, o *checkOptions, name string, l *loaded) *ltlProperty {
	var src []byte
	if l == nil {
		// read the text once: it is parsed again with the formula
		var err error
		if src, err = readSource(e, name); err != nil {
			fmt.Fprintf(e.stderr, "birch: %v\n", err)
			return nil
		}
		if l = checkSource(e, name, src); l == nil {
			return nil
		}
	}
	p := &ltlProperty{l: l}
	var expr ast.Expr
	switch {
	case o.ltl != "" || o.pattern != "":
		if o.property != "" || (o.ltl != "" && o.pattern != "") {
			fmt.Fprintln(e.stderr, "birch check: give only one of --property, --ltl and --pattern")
			return nil
		}
		flagName, text := "--ltl", o.ltl
		p.source, p.title = o.ltl, "the --ltl formula"
		if o.pattern != "" {
			flagName, p.source = "--pattern", o.pattern
			pat, err := ltl.ParsePattern(o.pattern)
			if err != nil {
				fmt.Fprintf(e.stderr, "birch check: --pattern: %v\n", err)
				return nil
			}
			text = pat.Formula()
			p.title = "pattern " + pat.String()
		}
		p.name = flagName
		l2, x := loadWithFormula(e, src, l, flagName, text)
		if l2 == nil {
			return nil
		}
		p.l, expr = l2, x
		for _, pr := range l2.prog.Properties {
			if pr.Decl.Expr == x {
				p.prop = pr.Name()
			}
		}
	default:
		for _, pr := range l.prog.Properties {
			if pr.Name() == o.property && pr.LTL {
				p.name, p.prop, expr = pr.Name(), pr.Name(), pr.Decl.Expr
				p.title = "ltl property " + pr.Name()
				p.source = format.Expr(expr)
			}
		}
	}
	spec, err := ltl.FromExpr(p.l.fset, expr)
	if err != nil {
		source.Print(e.stderr, err, maxShownErrors)
		return nil
	}
	p.spec = spec
	p.formula = spec.String()
	return p
}

// loadWithFormula re-reads the model with the formula inserted as an ltl
// property, type-checks it and returns the formula's syntax tree.
func loadWithFormula(e *env, src []byte, l *loaded, flagName, formula string) (*loaded, ast.Expr) {
	if strings.TrimSpace(formula) == "" {
		fmt.Fprintf(e.stderr, "birch check: %s: empty formula\n", flagName)
		return nil, nil
	}
	sys := l.file.System
	f := l.fset.File(sys.EndPos)
	if f == nil {
		fmt.Fprintf(e.stderr, "birch check: %s: the model has no end\n", flagName)
		return nil, nil
	}
	off := f.Offset(sys.EndPos)
	// a property name the model does not use
	used := map[string]bool{}
	for _, pr := range l.prog.Properties {
		used[pr.Name()] = true
	}
	prop := "cmdline"
	for i := 1; used[prop]; i++ {
		prop = fmt.Sprintf("cmdline%d", i)
	}
	head := string(src[:off]) + "\n"
	if sys.Properties == nil {
		head += "properties\n"
	}
	head += "ltl " + prop + ":\n"
	text := head + formula + "\n;\n" + string(src[off:])
	after := strings.Count(head, "\n")
	display := f.Name()
	fset := source.NewFileSet()
	file, err := parser.ParseFile(fset, display, []byte(text), parser.ParseComments)
	if err == nil {
		var prog *types.Program
		prog, err = types.Check(fset, file, nil)
		if err == nil {
			for _, pr := range prog.Properties {
				if pr.Name() == prop {
					return &loaded{fset: fset, file: file, prog: prog}, pr.Decl.Expr
				}
			}
			err = fmt.Errorf("%s: the formula was lost", flagName)
		}
	}
	source.Print(e.stderr, ltl.RelocateErrors(err, flagName, formula, after), maxShownErrors)
	return nil, nil
}

// checkSource parses and type-checks a model's text as loadModel does,
// printing the diagnostics.
func checkSource(e *env, name string, src []byte) *loaded {
	display := name
	if name == "-" {
		display = "<stdin>"
	}
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, display, src, parser.ParseComments)
	if err != nil {
		source.Print(e.stderr, err, maxShownErrors)
		return nil
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		source.Print(e.stderr, err, maxShownErrors)
		return nil
	}
	return &loaded{fset: fset, file: f, prog: prog}
}

// loadLTLModel loads the LTL property of a check (loadLTL) and builds the
// model, within the limits of the command; on failure p is nil and status
// the exit status (the report printed).
func loadLTLModel(e *env, o *checkOptions, name string, l *loaded, mo model.Options) (p *ltlProperty, m *model.Model, status int) {
	var err error
	if r := o.lim.Run(phaseModel, func() {
		if p = loadLTL(e, o, name, l); p != nil {
			if m, err = model.New(p.l.prog, mo); err != nil {
				fmt.Fprintln(e.stderr, err)
			}
		}
	}); r != "" {
		return nil, nil, stoppedReport(e, o, name, phaseModel, r)
	}
	if p == nil || err != nil {
		return nil, nil, ExitBadInput
	}
	return p, m, 0
}

type jsonProperty struct {
	Name            string `json:"name"`
	Kind            string `json:"kind"`
	Source          string `json:"source"`
	Formula         string `json:"formula"`
	Fair            bool   `json:"fair"`
	AutomatonStates int    `json:"automaton_states"`
}

type jsonLasso struct {
	CycleStart int    `json:"cycle_start"`
	Stutter    bool   `json:"stutter"`
	End        string `json:"end,omitempty"`
}

// jsonLTLReport is jsonReport with the property and, for an LTL violation,
// the shape of the lasso.
type jsonLTLReport struct {
	Model     string         `json:"model"`
	Verdict   string         `json:"verdict"`
	Complete  bool           `json:"complete"`
	Reason    string         `json:"reason"`
	Violation *jsonViolation `json:"violation"`
	Stats     jsonStats      `json:"stats"`
	Trail     []jsonStep     `json:"trail"`
	LimitsHit []jsonLimit    `json:"limits_hit"`
	Search    string         `json:"search"`
	Property  jsonProperty   `json:"property"`
	Lasso     *jsonLasso     `json:"lasso,omitempty"`
	// Unreached is always null: the product search explores only the
	// model states the property's automaton lets through.
	Unreached []jsonUnreached `json:"unreached"`
}

// hasInvisible reports whether m has an invisible transformation.
func hasInvisible(m *model.Model) bool {
	for _, g := range m.Groups() {
		if g.Invisible {
			return true
		}
	}
	return false
}

// lassoTrailFile is the trail file of an LTL violation: a trail file
// (birch-trail/1) with the lasso's shape.
type lassoTrailFile struct {
	trailFile
}

// reportLTL prints the result of a product search.
func reportLTL(e *env, p *ltlProperty, m *model.Model, name string, o *checkOptions, res *search.LTLResult) int {
	l := p.l
	var steps []trailStep
	var final []byte
	end := ""
	if res.Violation != nil {
		init, ts, err := search.Replay(m, res.Trail)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch: internal error: the trail does not replay: %v\n", err)
			return ExitBadInput
		}
		steps = describeTrail(m, l.fset, ts)
		final = search.Final(init, ts)
		if res.CycleStart >= 0 && res.Stutter {
			if _, allDone := m.Next(final, func(*model.Step) {}); allDone {
				end = "terminated"
			} else {
				end = "deadlock"
			}
		}
	}
	viol := violationJSON(l, m, &res.Result, final)
	saved := false
	if o.trail != "" && res.Violation != nil {
		tf := lassoTrailFile{trailFile: newTrailFile(name, o.search, res.Trail, viol, steps)}
		tf.Stutter, tf.ExposeInvisible = res.Stutter, m.Options().ExposeInvisible
		if res.CycleStart >= 0 {
			cs := res.CycleStart
			tf.CycleStart = &cs
		}
		saved = saveTrail(e, "check", o.trail, tf)
	}
	if o.json {
		doc := jsonLTLReport{
			Model: name, Verdict: res.Verdict.String(), Complete: res.Complete, Reason: res.Reason,
			Violation: viol, Stats: statsJSON(res.Stats), Trail: jsonTrail(steps),
			LimitsHit: limitsJSON(l.fset, res.LimitsHit), Search: o.search,
			Property: jsonProperty{Name: p.name, Kind: "ltl", Source: p.source, Formula: p.formula, Fair: o.fair, AutomatonStates: res.AutomatonStates},
		}
		if res.Violation != nil && res.CycleStart >= 0 {
			doc.Lasso = &jsonLasso{CycleStart: res.CycleStart, Stutter: res.Stutter, End: end}
		}
		printJSON(e.stdout, doc)
	} else {
		w := e.stdout
		fmt.Fprintf(w, "%s: %s\n", res.Verdict, res.Reason)
		if v := viol; v != nil {
			if v.Thread != "" {
				fmt.Fprintf(w, "  thread %s at %s\n", v.Thread, v.Location)
			}
			if v.Pos != "" {
				fmt.Fprintf(w, "  at %s\n", v.Pos)
			}
			switch {
			case res.CycleStart < 0:
				printTrail(w, steps, o.fullTrail)
			case res.Stutter:
				printTrail(w, steps, o.fullTrail)
				what := "every thread has terminated"
				if end == "deadlock" {
					what = "no thread can move"
				}
				fmt.Fprintf(w, "then the last state repeats forever (%s)\n", what)
			default:
				printTrail(w, steps[:res.CycleStart], o.fullTrail)
				n := len(steps) - res.CycleStart
				from := "the initial state"
				if res.CycleStart > 0 {
					from = fmt.Sprintf("the state after step %d", res.CycleStart)
				}
				fmt.Fprintf(w, "cycle (%d %s, back to %s), repeated forever:\n", n, plural(n, "step", "steps"), from)
				printSteps(w, steps[res.CycleStart:], o.fullTrail)
			}
		}
		printResultTail(w, l, o, &res.Result, saved)
	}
	return exitStatus(res.Verdict)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
