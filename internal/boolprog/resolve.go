package boolprog

import (
	"fmt"

	"birch/internal/source"
)

// Var is a declared boolean variable: a global, a parameter or a local.
type Var struct {
	Name  string
	Decl  *Ident // the declaring name
	Proc  *Proc  // the procedure for parameters and locals; nil for globals
	Param bool   // a formal parameter
	Index int    // index in Info.Globals, or in the procedure's ProcInfo.Vars
}

// Global reports whether v is a global variable.
func (v *Var) Global() bool { return v.Proc == nil }

// ProcInfo is what Resolve records about one procedure.
type ProcInfo struct {
	Proc   *Proc
	Index  int                     // position in Info.Procs
	Vars   []*Var                  // parameters in order, then locals in declaration order
	Labels map[string]*LabeledStmt // the procedure's labels
}

// Info holds Resolve's results in side tables; the AST is not changed.
type Info struct {
	Globals []*Var
	Procs   []*ProcInfo          // in source order
	ByName  map[string]*ProcInfo // procedures by name
	Main    *ProcInfo            // the procedure named main
	// Uses maps every variable occurrence (in an expression or on the left
	// of :=) to its variable. A local or parameter hides a global of the
	// same name.
	Uses    map[*Ident]*Var
	Callees map[*CallStmt]*ProcInfo    // the procedure each call calls
	Targets map[*Ident]*LabeledStmt    // each goto target's labelled statement
	Owner   map[*LabeledStmt]*ProcInfo // the procedure of each label
}

// Resolve checks names and arities of a parsed program: every variable,
// procedure and label is declared once and used only where declared; calls
// pass as many arguments as the callee has parameters and receive none or
// all of its return values; returns give as many values as the procedure
// returns; parallel assignments have as many values as names, the names
// distinct; a procedure named main exists. T and F are constants, not names.
// Errors are positioned; the Info is complete when the error is nil.
func Resolve(fset *source.FileSet, prog *Program) (*Info, error) {
	r := &resolver{fset: fset, info: &Info{
		ByName:  map[string]*ProcInfo{},
		Uses:    map[*Ident]*Var{},
		Callees: map[*CallStmt]*ProcInfo{},
		Targets: map[*Ident]*LabeledStmt{},
		Owner:   map[*LabeledStmt]*ProcInfo{},
	}}
	r.run(prog)
	r.errs.Sort()
	return r.info, r.errs.Err()
}

type resolver struct {
	fset    *source.FileSet
	info    *Info
	errs    source.ErrorList
	globals map[string]*Var
	locals  map[string]*Var
	proc    *ProcInfo
}

func (r *resolver) errorf(pos source.Pos, format string, args ...any) {
	r.errs.Add(r.fset.Position(pos), fmt.Sprintf(format, args...))
}

func (r *resolver) declare(scope map[string]*Var, x *Ident, v *Var, what string) bool {
	if x.Name == "T" || x.Name == "F" {
		r.errorf(x.Pos(), "%s is a boolean constant, not a name", x.Name)
		return false
	}
	if prev, ok := scope[x.Name]; ok {
		r.errorf(x.Pos(), "%s %s already declared at %s", what, x.Name, r.fset.Position(prev.Decl.Pos()))
		return false
	}
	scope[x.Name] = v
	return true
}

func (r *resolver) run(prog *Program) {
	r.globals = map[string]*Var{}
	for _, d := range prog.Globals {
		for _, x := range d.Names {
			v := &Var{Name: x.Name, Decl: x, Index: len(r.info.Globals)}
			if r.declare(r.globals, x, v, "global variable") {
				r.info.Globals = append(r.info.Globals, v)
			}
		}
	}
	for _, p := range prog.Procs {
		pi := &ProcInfo{Proc: p, Index: len(r.info.Procs), Labels: map[string]*LabeledStmt{}}
		if prev, ok := r.info.ByName[p.Name.Name]; ok {
			r.errorf(p.Name.Pos(), "procedure %s already declared at %s", p.Name.Name, r.fset.Position(prev.Proc.Name.Pos()))
		} else {
			r.info.ByName[p.Name.Name] = pi
		}
		r.info.Procs = append(r.info.Procs, pi)
	}
	r.info.Main = r.info.ByName["main"]
	if r.info.Main == nil {
		pos := source.NoPos
		if f := r.fset.File(firstPos(prog)); f != nil {
			pos = f.Pos(0)
		}
		r.errs.Add(r.positionOr(pos, prog.Filename), "no procedure main")
	}
	for _, pi := range r.info.Procs {
		r.procedure(pi)
	}
}

func firstPos(prog *Program) source.Pos {
	if len(prog.Globals) > 0 {
		return prog.Globals[0].Pos()
	}
	if len(prog.Procs) > 0 {
		return prog.Procs[0].Pos()
	}
	return source.NoPos
}

func (r *resolver) positionOr(pos source.Pos, filename string) source.Position {
	if p := r.fset.Position(pos); p.IsValid() {
		return p
	}
	return source.Position{Filename: filename, Line: 1, Column: 1}
}

func (r *resolver) procedure(pi *ProcInfo) {
	p := pi.Proc
	r.proc = pi
	r.locals = map[string]*Var{}
	for _, x := range p.Params {
		v := &Var{Name: x.Name, Decl: x, Proc: p, Param: true, Index: len(pi.Vars)}
		if r.declare(r.locals, x, v, "parameter") {
			pi.Vars = append(pi.Vars, v)
		}
	}
	for _, d := range p.Locals {
		for _, x := range d.Names {
			v := &Var{Name: x.Name, Decl: x, Proc: p, Index: len(pi.Vars)}
			if r.declare(r.locals, x, v, "local variable") {
				pi.Vars = append(pi.Vars, v)
			}
		}
	}
	r.labels(pi, p.Body)
	if p.Enforce != nil {
		r.expr(p.Enforce)
	}
	r.stmts(p.Body)
}

// labels records the procedure's labels, at any nesting depth.
func (r *resolver) labels(pi *ProcInfo, list []Stmt) {
	for _, s := range list {
		for {
			l, ok := s.(*LabeledStmt)
			if !ok {
				break
			}
			if prev, ok := pi.Labels[l.Label.Name]; ok {
				r.errorf(l.Label.Pos(), "label %s already defined at %s", l.Label.Name, r.fset.Position(prev.Label.Pos()))
			} else {
				pi.Labels[l.Label.Name] = l
				r.info.Owner[l] = pi
			}
			s = l.Stmt
		}
		switch s := s.(type) {
		case *IfStmt:
			r.labels(pi, s.Then)
			r.labels(pi, s.Else)
		case *WhileStmt:
			r.labels(pi, s.Body)
		}
	}
}

func (r *resolver) stmts(list []Stmt) {
	for _, s := range list {
		r.stmt(s)
	}
}

func (r *resolver) lhs(list []*Ident) {
	seen := map[string]bool{}
	for _, x := range list {
		if seen[x.Name] {
			r.errorf(x.Pos(), "%s assigned twice in one statement", x.Name)
		}
		seen[x.Name] = true
		r.use(x)
	}
}

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}

func (r *resolver) stmt(s Stmt) {
	switch s := s.(type) {
	case *SkipStmt:
	case *AssignStmt:
		r.lhs(s.Lhs)
		for _, e := range s.Rhs {
			r.expr(e)
		}
		if len(s.Lhs) != len(s.Rhs) {
			r.errorf(s.Assign, "assignment of %s to %s", plural(len(s.Rhs), "value"), plural(len(s.Lhs), "variable"))
		}
	case *CallStmt:
		r.lhs(s.Lhs)
		for _, e := range s.Args {
			r.expr(e)
		}
		callee, ok := r.info.ByName[s.Proc.Name]
		if !ok {
			r.errorf(s.Proc.Pos(), "undefined procedure %s", s.Proc.Name)
			return
		}
		r.info.Callees[s] = callee
		if n := len(callee.Proc.Params); n != len(s.Args) {
			r.errorf(s.Lparen, "call of %s with %s, it takes %s", s.Proc.Name, plural(len(s.Args), "argument"), plural(n, "parameter"))
		}
		if k := callee.Proc.Returns; len(s.Lhs) > 0 && len(s.Lhs) != k {
			r.errorf(s.Pos(), "%s returns %s, the call assigns %s", s.Proc.Name, plural(k, "value"), plural(len(s.Lhs), "variable"))
		}
	case *AssumeStmt:
		r.expr(s.Cond)
	case *AssertStmt:
		r.expr(s.Cond)
	case *GotoStmt:
		for _, x := range s.Targets {
			if l, ok := r.proc.Labels[x.Name]; ok {
				r.info.Targets[x] = l
			} else {
				r.errorf(x.Pos(), "undefined label %s in procedure %s", x.Name, r.proc.Proc.Name.Name)
			}
		}
	case *ReturnStmt:
		for _, e := range s.Results {
			r.expr(e)
		}
		if k := r.proc.Proc.Returns; len(s.Results) != k {
			r.errorf(s.Return, "return of %s in %s, which returns %s", plural(len(s.Results), "value"), r.proc.Proc.Name.Name, plural(k, "value"))
		}
	case *IfStmt:
		r.expr(s.Cond)
		r.stmts(s.Then)
		r.stmts(s.Else)
	case *WhileStmt:
		r.expr(s.Cond)
		r.stmts(s.Body)
	case *LabeledStmt:
		r.stmt(s.Stmt)
	}
}

func (r *resolver) use(x *Ident) {
	if v, ok := r.locals[x.Name]; ok {
		r.info.Uses[x] = v
		return
	}
	if v, ok := r.globals[x.Name]; ok {
		r.info.Uses[x] = v
		return
	}
	r.errorf(x.Pos(), "undefined variable %s", x.Name)
}

func (r *resolver) expr(e Expr) {
	switch e := e.(type) {
	case *Ident:
		r.use(e)
	case *Choose:
		r.expr(e.True)
		r.expr(e.False)
	case *Unary:
		r.expr(e.X)
	case *Binary:
		r.expr(e.X)
		r.expr(e.Y)
	}
}
