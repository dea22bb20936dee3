package types

import (
	"fmt"
	"strings"

	"birch/internal/bir/ast"
)

// Dump returns a deterministic, position-free description of the typed
// program: every object with its type (and value or initial value), every
// thread and function with its variables and locations, and every
// expression in source order with its type and constant value. Two programs
// that differ only in layout and comments have equal dumps; tests use it to
// show that formatting never changes meaning.
func (p *Program) Dump() string {
	var b strings.Builder
	fmt.Fprintf(&b, "system %s\n", p.Name)
	for _, k := range p.Consts {
		fmt.Fprintf(&b, "const %s %s = %s\n", k.name, typeString(k.typ), k.Value)
	}
	for _, t := range p.Types {
		n := t.Named()
		super := ""
		if n.Super != nil {
			super = " extends " + n.Super.obj.name
		}
		fmt.Fprintf(&b, "type %s = %s%s\n", t.name, typeString(n.Underlying()), super)
	}
	for _, c := range p.Collections {
		fmt.Fprintf(&b, "collection %s [%d] of %s\n", c.name, c.Size, typeString(c.typ))
	}
	for _, g := range p.Globals {
		fmt.Fprintf(&b, "global %s : %s%s\n", g.name, typeString(g.typ), initString(g.Init))
	}
	procs := append(append([]*Proc(nil), p.Threads...), p.Functions...)
	for _, pr := range procs {
		kind := "function"
		if pr.Thread {
			kind = "thread"
			if pr.Main {
				kind = "main thread"
			}
		}
		fmt.Fprintf(&b, "%s %s started=%v", kind, pr.name, pr.Started)
		if pr.Result != nil {
			fmt.Fprintf(&b, " result %s", typeString(pr.Result))
		}
		b.WriteString("\n")
		for _, v := range pr.Params {
			fmt.Fprintf(&b, "  param %s : %s\n", v.name, typeString(v.typ))
		}
		for _, v := range pr.Locals {
			fmt.Fprintf(&b, "  local %s : %s%s\n", v.name, typeString(v.typ), initString(v.Init))
		}
		for _, l := range pr.Locations {
			fmt.Fprintf(&b, "  loc %s", l.name)
			if l.Decl != nil && l.Decl.Live != nil {
				var names []string
				for _, id := range l.Decl.Live.Names {
					names = append(names, id.Name)
				}
				fmt.Fprintf(&b, " live {%s}", strings.Join(names, ", "))
			}
			b.WriteString("\n")
		}
	}
	for _, pr := range p.Predicates {
		fmt.Fprintf(&b, "predicate %s\n", pr.name)
	}
	for _, pr := range p.Properties {
		kind := "invariant"
		if pr.LTL {
			kind = "ltl"
		}
		fmt.Fprintf(&b, "property %s %s\n", kind, pr.name)
	}
	if p.File != nil {
		ast.Inspect(p.File, func(n ast.Node) bool {
			x, ok := n.(ast.Expr)
			if !ok {
				return true
			}
			tv, ok := p.Info.Types[x]
			if !ok {
				return true
			}
			fmt.Fprintf(&b, "expr %T %s : %s", x, exprString(x), typeString(tv.Type))
			if tv.Value.Kind != NoConst {
				fmt.Fprintf(&b, " = %s", tv.Value)
			}
			if id, isID := x.(*ast.Ident); isID {
				if o := p.Info.Uses[id]; o != nil {
					fmt.Fprintf(&b, " -> %T %s", o, o.Name())
				}
			}
			b.WriteString("\n")
			return true
		})
	}
	return b.String()
}

func typeString(t Type) string {
	if t == nil {
		return "<none>"
	}
	return t.String()
}

func initString(v ConstValue) string {
	if v.Kind == NoConst {
		return ""
	}
	return " := " + v.String()
}
