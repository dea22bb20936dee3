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

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
