package verify

import (
	"fmt"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/ltl"
	"birch/internal/source"
)

// plan is the searches of a run: one for safety (the assertions, runtime
// errors and deadlocks, with the invariants chosen), unless only ltl
// properties were asked for, and one per ltl property.
type plan struct {
	safety     bool
	invariants []*types.Property
	ltl        []*ltlProperty
}

// ltlProperty is an LTL property a check verifies.
type ltlProperty struct {
	*Property
	in   *Input // the input with the formula (a formula of the command line is inserted)
	spec *ltl.Spec
}

// makePlan chooses the properties of a run (Selection).
func makePlan(t *Task) (*plan, error) {
	sel, in := t.Select, t.Input
	if sel.LTL != "" || sel.Pattern != "" {
		if len(sel.Names) > 0 || (sel.LTL != "" && sel.Pattern != "") {
			return nil, usagef("give only one of --property, --ltl and --pattern")
		}
		p, err := commandLineLTL(in, sel)
		if err != nil {
			return nil, err
		}
		return &plan{ltl: []*ltlProperty{p}}, nil
	}
	pl := &plan{}
	if len(sel.Names) > 0 {
		seen := map[string]bool{}
		for _, name := range sel.Names {
			var found *types.Property
			for _, p := range in.Prog.Properties {
				if p.Name() == name {
					found = p
				}
			}
			if found == nil {
				return nil, usagef("--property %s: the model has no property %[1]s%s", source.Excerpt(name), propertyList(in.Prog))
			}
			if seen[name] {
				continue
			}
			seen[name] = true
			if found.LTL {
				p, err := modelLTL(in, found, sel.Fair)
				if err != nil {
					return nil, err
				}
				pl.ltl = append(pl.ltl, p)
				continue
			}
			pl.safety = true
			pl.invariants = append(pl.invariants, found)
		}
		if sel.Fair && len(pl.ltl) == 0 {
			return nil, usagef("--fair applies only to ltl properties; %s is an invariant", sel.Names[0])
		}
		return pl, nil
	}
	pl.safety = true
	for _, p := range in.Prog.Properties {
		switch {
		case p.LTL:
			lp, err := modelLTL(in, p, sel.Fair)
			if err != nil {
				return nil, err
			}
			pl.ltl = append(pl.ltl, lp)
		case !sel.NoInvariants:
			pl.invariants = append(pl.invariants, p)
		}
	}
	if sel.Fair && len(pl.ltl) == 0 {
		return nil, usagef("--fair applies only to ltl properties, and the model has none (give --ltl or --pattern)")
	}
	return pl, nil
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

// safetyProperties are the properties a safety search decides: the
// assertions, runtime errors and (unless noDeadlock) deadlocks, and the
// invariants.
func safetyProperties(invs []*types.Property, noDeadlock bool) []*Property {
	what := "assertions, runtime errors, deadlocks"
	if noDeadlock {
		what = "assertions, runtime errors"
	}
	out := []*Property{{Name: "safety", Kind: "safety", Source: what, Title: "safety (" + what + ")"}}
	for _, p := range invs {
		out = append(out, &Property{Name: p.Name(), Kind: "invariant", Source: format.Expr(p.Decl.Expr),
			Title: "invariant " + p.Name(), prop: p.Name()})
	}
	return out
}

// abstractSafetyProperties are the properties a safety search of an
// abstract model decides: as safetyProperties, but a pass does not prove
// deadlock freedom (an abstract state may enable a transformation where
// the concrete states it stands for have none), nor the absence of int
// overflow (abstract operators work on the mathematical integers), and
// the property says so.
func abstractSafetyProperties(invs []*types.Property, noDeadlock bool) []*Property {
	ps := safetyProperties(invs, noDeadlock)
	if !noDeadlock {
		ps[0].Source = "assertions, runtime errors, deadlocks (a deadlock found is confirmed on the concrete model; a pass does not prove deadlock freedom, nor the absence of int overflow)"
		ps[0].Title = "safety (assertions, runtime errors; deadlock freedom and the absence of int overflow not proven)"
	} else {
		ps[0].Source = "assertions, runtime errors (a pass does not prove the absence of int overflow)"
		ps[0].Title = "safety (assertions, runtime errors; the absence of int overflow not proven)"
	}
	return ps
}

// modelLTL is an ltl property of the model.
func modelLTL(in *Input, p *types.Property, fair bool) (*ltlProperty, error) {
	spec, err := ltl.FromExpr(in.Fset, p.Decl.Expr)
	if err != nil {
		return nil, err
	}
	return &ltlProperty{
		Property: &Property{Name: p.Name(), Kind: "ltl", Source: format.Expr(p.Decl.Expr), Formula: spec.String(),
			Fair: fair, Title: "ltl property " + p.Name(), prop: p.Name()},
		in: in, spec: spec,
	}, nil
}

// commandLineLTL is the formula of --ltl or --pattern, type-checked as an
// ltl property of the model (inserted at the end of its properties
// section); errors in it are reported as --ltl:1:COL.
func commandLineLTL(in *Input, sel Selection) (*ltlProperty, error) {
	flagName, text := "--ltl", sel.LTL
	p := &Property{Name: flagName, Kind: "ltl", Source: sel.LTL, Title: "the --ltl formula", Fair: sel.Fair}
	if sel.Pattern != "" {
		pat, err := ltl.ParsePattern(sel.Pattern)
		if err != nil {
			return nil, usagef("--pattern: %v", err)
		}
		flagName, text = "--pattern", pat.Formula()
		p.Name, p.Source, p.Title = flagName, sel.Pattern, "pattern "+pat.String()
	}
	in2, x, prop, err := withFormula(in, flagName, text)
	if err != nil {
		return nil, err
	}
	p.prop = prop
	spec, err := ltl.FromExpr(in2.Fset, x)
	if err != nil {
		return nil, err
	}
	p.Formula = spec.String()
	return &ltlProperty{Property: p, in: in2, spec: spec}, nil
}

// withFormula parses the model again with the formula inserted as an ltl
// property, type-checks it and returns the formula's syntax tree and the
// property's name.
func withFormula(in *Input, flagName, formula string) (*Input, ast.Expr, string, error) {
	if strings.TrimSpace(formula) == "" {
		return nil, nil, "", usagef("%s: empty formula", flagName)
	}
	sys := in.File.System
	f := in.Fset.File(sys.EndPos)
	if f == nil {
		return nil, nil, "", usagef("%s: the model has no end", flagName)
	}
	off := f.Offset(sys.EndPos)
	// a property name the model does not use
	used := map[string]bool{}
	for _, pr := range in.Prog.Properties {
		used[pr.Name()] = true
	}
	prop := "cmdline"
	for i := 1; used[prop]; i++ {
		prop = fmt.Sprintf("cmdline%d", i)
	}
	src := in.Src
	head := string(src[:off]) + "\n"
	if sys.Properties == nil {
		head += "properties\n"
	}
	head += "ltl " + prop + ":\n"
	text := head + formula + "\n;\n" + string(src[off:])
	after := strings.Count(head, "\n")
	fset := source.NewFileSet()
	file, err := parser.ParseFile(fset, f.Name(), []byte(text), parser.ParseComments)
	if err == nil {
		var prog *types.Program
		prog, err = types.Check(fset, file, nil)
		if err == nil {
			for _, pr := range prog.Properties {
				if pr.Name() == prop {
					return &Input{Name: in.Name, Fset: fset, File: file, Prog: prog, Src: []byte(text)}, pr.Decl.Expr, prop, nil
				}
			}
			err = usagef("%s: the formula was lost", flagName)
		}
	}
	return nil, nil, "", ltl.RelocateErrors(err, flagName, formula, after)
}
