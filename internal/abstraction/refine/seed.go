package refine

import (
	"birch/internal/abstraction/predicate"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
)

// Seed returns the predicates a refinement loop starts from, as SLAM
// starts from the conditions of the program: every comparison of
// integers or references that a guard, an assume or an assertion of a
// thread or function makes, and that an invariant of the properties
// section makes, in the scope of its thread or function (global when it
// reads only globals), each once, in the order of the source. A
// predicate and its negation are one boolean of the abstraction, so `x !=
// y` is written `x == y`, `x >= y` is `x < y` and `x > y` is `x <= y`. Comparisons of booleans, enums and thread
// identifiers are left out (the abstraction keeps those data), and so
// are those that read what a predicate may not (a location test, a
// remote reference, a lock or thread test).
func Seed(prog *types.Program) ([]Predicate, error) {
	set := &predSet{}
	info := prog.Info
	collect := func(e ast.Expr, proc *types.Proc) {
		if e == nil {
			return
		}
		ast.Inspect(e, func(n ast.Node) bool {
			b, ok := n.(*ast.BinaryExpr)
			if !ok {
				return true
			}
			switch b.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			default:
				return true
			}
			if !seedOperand(info.TypeOf(b.X)) || !seedOperand(info.TypeOf(b.Y)) {
				return false
			}
			if tv := info.Types[b]; tv.Value.Kind != types.NoConst {
				return false // a constant comparison
			}
			// a predicate and its negation are one boolean: x != y is
			// x == y, x >= y is x < y, x > y is x <= y
			op := map[token.Kind]token.Kind{token.NEQ: token.EQL, token.GEQ: token.LSS, token.GTR: token.LEQ}[b.Op]
			if op == 0 {
				op = b.Op
			}
			text := format.Expr(b.X) + " " + op.String() + " " + format.Expr(b.Y)
			set.add(Predicate{Proc: readsLocals(info, b, proc), Text: text, Method: Model})
			return false
		})
	}
	for _, procs := range [][]*types.Proc{prog.Threads, prog.Functions} {
		for _, p := range procs {
			for _, l := range p.Locations {
				for _, t := range l.Decl.Transformations {
					collect(t.Guard, p)
					for _, a := range t.Actions {
						switch a := a.(type) {
						case *ast.AssertAction:
							collect(a.Cond, p)
						case *ast.AssumeAction:
							collect(a.Cond, p)
						}
					}
				}
			}
		}
	}
	for _, pr := range prog.Properties {
		if !pr.LTL && pr.Decl != nil {
			collect(pr.Decl.Expr, nil)
		}
	}
	// keep those that read back as a predicate file's lines (not a
	// comparison under a location test, a remote reference, a lock or
	// thread test: those are not predicates)
	out, _ := parsable(prog, set.list)
	return out, nil
}

// parsable splits preds into those that read back as lines of a
// predicate file and the others (as their lines, with the error).
func parsable(prog *types.Program, preds []Predicate) (good []Predicate, bad []string) {
	f, err := predicate.ParseFile(prog, "refinement.pred", []byte(FileText(preds)))
	ok := map[int]bool{}
	if f != nil {
		for _, p := range f.Predicates {
			ok[prog.Fset.Position(p.Expr.Pos()).Line] = true
		}
	}
	for i, p := range preds {
		if ok[i+1] {
			good = append(good, p)
		} else {
			bad = append(bad, p.String()+" does not read back as a predicate")
		}
	}
	if len(bad) > 0 && err != nil {
		bad = append(bad, err.Error())
	}
	return good, bad
}

// seedOperand reports whether a comparison of values of type t is data
// a predicate abstraction abstracts: integers and references.
func seedOperand(t types.Type) bool {
	if t == nil {
		return false
	}
	if types.IsInteger(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Ref:
		return true
	case *types.Basic:
		return u.Kind == types.UntypedNull
	}
	return false
}

// readsLocals returns proc when e reads one of its parameters or locals,
// nil when it reads globals only.
func readsLocals(info *types.Info, e ast.Expr, proc *types.Proc) *types.Proc {
	var out *types.Proc
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && v.Kind != types.GlobalVar && v.Owner == proc {
				out = proc
			}
		}
		return out == nil
	})
	return out
}
