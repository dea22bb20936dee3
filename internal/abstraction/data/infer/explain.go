package infer

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/types"
)

// VarName names a variable as bindings do: x for a global, Thread.x or
// fn.x for a local or parameter, Record.f for a field.
func VarName(prog *types.Program, v *types.Var) string {
	switch v.Kind {
	case types.LocalVar, types.ParamVar:
		if v.Owner != nil {
			return v.Owner.Name() + "." + v.Name()
		}
	case types.FieldVar:
		for _, tn := range prog.Types {
			if rec, ok := tn.Type().Underlying().(*types.Record); ok {
				for _, f := range rec.Fields {
					if f == v {
						return tn.Name() + "." + v.Name()
					}
				}
			}
		}
	}
	return v.Name()
}

// Explain prints the result of the inference for people: the abstraction
// of every integer variable, function result, expression and comparison,
// and the coercions, each with its position, and the declared coercions
// (when there are any):
//
//	variables
//	  Power.m       evenodd    bound by --abstract Power.m=evenodd
//	  Power.result  evenodd
//	  Power.n       concrete
//	expressions
//	  power.bir:14:25  result * m  evenodd
//	tests
//	  power.bir:12:10  n < 1       concrete
//	coercions
//	  power.bir:9:27   1           concrete -> evenodd
func Explain(w io.Writer, prog *types.Program, res *Result, sel []Selection) error {
	var b strings.Builder
	fset := prog.Fset
	bound := map[*types.Var]Selection{}
	for _, s := range sel {
		bound[s.Var] = s
	}
	type row struct {
		key  string
		cols []string
	}
	table := func(title string, rows []row) {
		if len(rows) == 0 {
			return
		}
		fmt.Fprintln(&b, title)
		widths := make([]int, 8)
		for _, r := range rows {
			for i, c := range r.cols {
				widths[i] = max(widths[i], len(c))
			}
		}
		for _, r := range rows {
			line := " "
			for i, c := range r.cols {
				if i == len(r.cols)-1 {
					line += " " + c
				} else {
					line += fmt.Sprintf(" %-*s", widths[i], c)
				}
			}
			fmt.Fprintln(&b, strings.TrimRight(line, " "))
		}
	}
	var rows []row
	for v, a := range res.Vars {
		note := ""
		if s, ok := bound[v]; ok {
			note = "bound by " + s.Binding.Where
		}
		pos := fset.Position(v.Pos())
		rows = append(rows, row{fmt.Sprintf("%s:%08d:%08d", pos.Filename, pos.Line, pos.Column), []string{VarName(prog, v), a.Name, note}})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].key < rows[j].key })
	table("variables", rows)
	rows = nil
	for p, a := range res.Funcs {
		pos := fset.Position(p.Pos())
		rows = append(rows, row{fmt.Sprintf("%s:%08d:%08d", pos.Filename, pos.Line, pos.Column), []string{p.Name(), a.Name}})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].key < rows[j].key })
	table("function results", rows)
	exprRows := func(xs map[ast.Expr]string) []row {
		var rows []row
		for x, a := range xs {
			pos := fset.Position(x.Pos())
			rows = append(rows, row{fmt.Sprintf("%s:%08d:%08d:%08d", pos.Filename, pos.Line, pos.Column, x.End()), []string{pos.String(), format.Expr(x), a}})
		}
		sort.Slice(rows, func(i, j int) bool { return rows[i].key < rows[j].key })
		return rows
	}
	xs := map[ast.Expr]string{}
	for x, a := range res.Exprs {
		if _, paren := x.(*ast.ParenExpr); !paren {
			xs[x] = a.Name
		}
	}
	table("expressions", exprRows(xs))
	xs = map[ast.Expr]string{}
	for x, a := range res.Tests {
		xs[x] = a.Name
	}
	table("tests", exprRows(xs))
	rows = nil
	for i, c := range res.Coercions {
		pos := fset.Position(c.Pos)
		if c.Expr != nil {
			pos = fset.Position(c.Expr.Pos())
		}
		what := ""
		if c.Expr != nil {
			what = format.Expr(c.Expr)
		}
		rows = append(rows, row{fmt.Sprintf("%08d", i), []string{pos.String(), what, c.From.Name + " -> " + c.To.Name}})
	}
	table("coercions", rows)
	rows = nil
	for i, c := range res.Declared {
		rows = append(rows, row{fmt.Sprintf("%08d", i), []string{c.From.Name + " -> " + c.To.Name, "declared by " + c.Decl.Where}})
	}
	table("declared coercions", rows)
	_, err := io.WriteString(w, b.String())
	return err
}
