package predicate

import (
	"bytes"
	"fmt"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// Predicate is one line of a predicate file: a boolean BIR expression over
// the variables of its scope.
type Predicate struct {
	Expr ast.Expr // the expression; its positions point into the predicate file
	// Proc is the thread or function of a `[thread T]` or `[function f]`
	// scope, whose parameters and locals the expression may read besides
	// the globals; nil for a predicate over globals only.
	Proc *types.Proc
	// Record is the record type of a `[record T]` scope, whose predicates
	// describe every object of T (and of its subtypes) through This; nil
	// otherwise. Such a predicate has no Proc. Only on-the-fly predicate
	// abstraction (internal/apf) reads record predicates: a consumer that
	// cannot must reject them, as c2bp does.
	Record *types.Named
	// This is the variable `this` (kind types.ThisVar, type `ref T`) of a
	// `[record T]` predicate, the object it describes; nil otherwise.
	This *types.Var
	Text string // the expression as written, without scope and comment
}

// Scope names the predicate's scope as written in a predicate file:
// "thread T", "function f", "record T", or "" for the globals.
func (p *Predicate) Scope() string {
	switch {
	case p.Record != nil:
		return "record " + p.Record.String()
	case p.Proc == nil:
		return ""
	case p.Proc.Thread:
		return "thread " + p.Proc.Name()
	}
	return "function " + p.Proc.Name()
}

// String prints the predicate as a line of a predicate file.
func (p *Predicate) String() string {
	if s := p.Scope(); s != "" {
		return "[" + s + "] " + p.Text
	}
	return p.Text
}

// File is a parsed and type-checked predicate file.
type File struct {
	Name       string
	Predicates []*Predicate // in the order of the file
}

// ParseFile reads the predicate file name, whose content is src, against
// the checked program prog. The file is added to prog.Fset, so positions of
// the predicates (and of the errors) resolve as the model's do, and the
// types of the predicates' subexpressions are added to prog.Info. It
// returns every predicate that checked, and a sorted source.ErrorList of
// every error ("file:line:col: message"), or nil.
func ParseFile(prog *types.Program, name string, src []byte) (*File, error) {
	fset := prog.Fset
	file := fset.AddFile(name, src)
	out := &File{Name: name}
	var errs source.ErrorList
	errorf := func(off int, format string, args ...any) {
		errs.Add(file.Position(file.Pos(off)), fmt.Sprintf(format, args...))
	}
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		if p := parseLine(prog, file, src, start, end, errorf, &errs); p != nil {
			out.Predicates = append(out.Predicates, p)
		}
		start = end + 1
	}
	errs.Sort()
	return out, errs.Err()
}

// parseLine parses the line src[from:to]; it returns nil for a blank or
// comment line and after an error.
func parseLine(prog *types.Program, file *source.File, src []byte, from, to int, errorf func(int, string, ...any), errs *source.ErrorList) *Predicate {
	if i := bytes.IndexByte(src[from:to], '#'); i >= 0 {
		to = from + i // BIR has no '#': the rest of the line is a comment
	}
	from, to = trimSpace(src, from, to)
	if from == to {
		return nil
	}
	var sc scope
	if src[from] == '[' {
		close := bytes.IndexByte(src[from:to], ']')
		if close < 0 {
			errorf(to, "expected ] to close the scope [thread T], [function f] or [record T]")
			return nil
		}
		var ok bool
		if sc, ok = parseScope(prog, file, src, from+1, from+close, errorf); !ok {
			return nil
		}
		from, to = trimSpace(src, from+close+1, to)
		if from == to {
			errorf(from, "expected a predicate after the scope")
			return nil
		}
	}
	x, err := parser.ParseExprAt(prog.Fset, file, src, from, to, true)
	if err != nil {
		addErrors(errs, err)
		return nil
	}
	if bad := dataOnly(prog, x); bad != nil {
		errorf(file.Offset(bad.Pos()), "%s", badForm(bad))
		return nil
	}
	var typ types.Type
	if sc.this != nil {
		typ, err = prog.CheckExprThis(prog.Fset, x, sc.this, true)
	} else {
		typ, err = prog.CheckExpr(prog.Fset, x, sc.proc, true)
	}
	if err != nil {
		addErrors(errs, err)
		return nil
	}
	if bad := dataOnly(prog, x); bad != nil { // a use of a model's predicate
		errorf(file.Offset(bad.Pos()), "%s", badForm(bad))
		return nil
	}
	if typ == nil || !types.IsBoolean(typ) {
		what := "invalid"
		if typ != nil {
			what = typ.String()
		}
		errorf(from, "a predicate must be boolean, not %s", what)
		return nil
	}
	p := &Predicate{Expr: x, Proc: sc.proc, Text: string(src[from:to])}
	if sc.this != nil {
		p.Record, p.This = sc.record, sc.this
	}
	return p
}

// scope is the scope of a line: a thread or function, a record type with
// its `this`, or neither (the globals).
type scope struct {
	proc   *types.Proc
	record *types.Named
	this   *types.Var
}

// parseScope reads "thread T", "function f" or "record T" from
// src[from:to].
func parseScope(prog *types.Program, file *source.File, src []byte, from, to int, errorf func(int, string, ...any)) (scope, bool) {
	words := fields(src, from, to)
	if len(words) == 0 {
		errorf(to, "expected thread, function or record in the scope, found ]")
		return scope{}, false
	}
	kind := string(src[words[0][0]:words[0][1]])
	if kind != "thread" && kind != "function" && kind != "record" {
		errorf(words[0][0], "expected thread, function or record in the scope, found %s", source.Excerpt(kind))
		return scope{}, false
	}
	if len(words) == 1 {
		what := "a " + kind
		if kind == "record" {
			what = "a record type"
		}
		errorf(to, "expected the name of %s after %s", what, kind)
		return scope{}, false
	}
	if len(words) > 2 {
		errorf(words[2][0], "expected ], found %s", source.Excerpt(string(src[words[2][0]:words[2][1]])))
		return scope{}, false
	}
	name := string(src[words[1][0]:words[1][1]])
	if kind == "record" {
		return recordScope(prog, file, name, words[1][0], errorf)
	}
	p, _ := prog.Procs.Lookup(name).(*types.Proc)
	switch {
	case p == nil:
		errorf(words[1][0], "undefined %s %s", kind, source.Excerpt(name))
		return scope{}, false
	case p.Thread && kind == "function":
		errorf(words[1][0], "%s is a thread, not a function: write [thread %s]", name, name)
		return scope{}, false
	case !p.Thread && kind == "thread":
		errorf(words[1][0], "%s is a function, not a thread: write [function %s]", name, name)
		return scope{}, false
	}
	return scope{proc: p}, true
}

// recordScope resolves the type name of `[record T]` at offset off: a
// record type the model declares (not the predeclared Object, whose
// objects have no fields to hold predicates).
func recordScope(prog *types.Program, file *source.File, name string, off int, errorf func(int, string, ...any)) (scope, bool) {
	tn, _ := prog.Scope.Lookup(name).(*types.TypeName)
	if tn == nil {
		errorf(off, "undefined record type %s", source.Excerpt(name))
		return scope{}, false
	}
	n := tn.Named()
	if n == nil {
		errorf(off, "%s is not a record type", source.Excerpt(name))
		return scope{}, false
	}
	if _, ok := n.Underlying().(*types.Record); !ok {
		errorf(off, "%s is not a record type, but %s", source.Excerpt(name), n.Underlying())
		return scope{}, false
	}
	if tn.Decl == nil {
		errorf(off, "%s is predeclared and has no fields: name a record type the model declares", name)
		return scope{}, false
	}
	return scope{record: n, this: prog.NewThis(n, file.Pos(off))}, true
}

// dataOnly returns the first part of x that a predicate of a predicate file
// may not contain, or nil; uses of the model's predicates are found only
// once x is checked. Such a predicate is about data: the control
// location, locks and thread states stay concrete in a predicate
// abstraction, and the model's own predicates may hold location tests.
func dataOnly(prog *types.Program, x ast.Expr) ast.Node {
	var bad ast.Node
	ast.Inspect(x, func(n ast.Node) bool {
		if bad != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.LocationTest, *ast.RemoteRef, *ast.BuiltinExpr:
			bad = n
		case *ast.Ident:
			if _, ok := prog.Info.Uses[n].(*types.Predicate); ok {
				bad = n
			}
		}
		return bad == nil
	})
	return bad
}

func badForm(n ast.Node) string {
	switch n := n.(type) {
	case *ast.LocationTest:
		return "a predicate file's predicate reads data: a location test is not allowed (locations stay concrete)"
	case *ast.RemoteRef:
		return "a predicate file's predicate reads data in its scope: a remote reference is not allowed (write [thread " + n.Thread.Name + "] in front)"
	case *ast.BuiltinExpr:
		return "a predicate file's predicate reads data: " + n.Op.String() + " is not allowed (locks and threads stay concrete)"
	case *ast.Ident:
		return "a predicate file's predicate cannot use the model's predicate " + n.Name
	}
	return "not allowed in a predicate"
}

// addErrors appends the errors of a source.ErrorList to errs; a line of a
// predicate file ends where a BIR file would, so "end of file" reads "end
// of line".
func addErrors(errs *source.ErrorList, err error) {
	list, ok := err.(source.ErrorList)
	if !ok {
		errs.Add(source.Position{}, err.Error())
		return
	}
	for _, e := range list {
		errs.Add(e.Pos, strings.ReplaceAll(e.Msg, "found end of file", "found end of line"))
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' }

func trimSpace(src []byte, from, to int) (int, int) {
	for from < to && isSpace(src[from]) {
		from++
	}
	for to > from && isSpace(src[to-1]) {
		to--
	}
	return from, to
}

// fields returns the [start, end) offsets of the space-separated words of
// src[from:to].
func fields(src []byte, from, to int) [][2]int {
	var out [][2]int
	for i := from; i < to; {
		for i < to && isSpace(src[i]) {
			i++
		}
		j := i
		for j < to && !isSpace(src[j]) {
			j++
		}
		if j > i {
			out = append(out, [2]int{i, j})
		}
		i = j
	}
	return out
}
