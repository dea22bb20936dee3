package infer

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"birch/internal/abstraction/data"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// Binding is one abstraction selected by the user: Target, one of x (a
// global), Thread.x (a thread's local or parameter), fn.x (a function's),
// Record.f (a record field), is abstracted by Abstraction, a library name
// or the name of an abstraction of a BASL file.
type Binding struct {
	Target      string
	Abstraction string
	// Where says where the binding was written, for messages: a position
	// in a bindings file, or "--abstract x=signs".
	Where string
	Pos   source.Position // valid for bindings read from a file
}

// Use is a `use "file.basl"` line of a bindings file.
type Use struct {
	Path string
	Pos  source.Position
}

// ParseBinding parses the argument of --abstract: NAME=ABSTRACTION.
func ParseBinding(arg string) (Binding, error) {
	b, msg := parseBindingText(arg)
	if msg != "" {
		return Binding{}, fmt.Errorf("--abstract %s: %s", source.Excerpt(arg), msg)
	}
	b.Where = "--abstract " + source.Excerpt(arg)
	return b, nil
}

func parseBindingText(s string) (Binding, string) {
	i := strings.IndexByte(s, '=')
	if i < 0 {
		return Binding{}, "expected NAME=ABSTRACTION"
	}
	target := strings.TrimSpace(s[:i])
	abs := strings.TrimSpace(s[i+1:])
	if !validTarget(target) {
		return Binding{}, fmt.Sprintf("bad name %q (want x, Thread.x, fn.x or Record.f; for a Java program Class.field or Class.method.local)", target)
	}
	if abs == "" {
		return Binding{}, "no abstraction after ="
	}
	return Binding{Target: target, Abstraction: abs}, ""
}

// validTarget reports whether s is a dotted name: identifiers of BIR
// (with _ and $) separated by dots. A model's names have one dot at most;
// a Java program's may have more (bank.Account.count,
// Account.deposit.amount: verify resolves them).
func validTarget(s string) bool {
	for _, p := range strings.Split(s, ".") {
		if p == "" {
			return false
		}
		for i, r := range p {
			if !(r == '_' || r == '$' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
				return false
			}
		}
	}
	return true
}

// CoercionDecl declares that values of abstraction From may be coerced to
// abstraction To: From lies below To in the order of abstractions, so that
// where the two meet inference chooses To instead of point. It is written
// `coerce FROM -> TO` in a bindings file or --coerce 'FROM->TO'. Any
// declaration is sound: the coercion itself is computed by the solver
// (data.Coerce), which maps each token of From to every token of To that
// shares an integer with it.
type CoercionDecl struct {
	From, To string
	// Where says where the declaration was written, for messages: a
	// position in a bindings file, or "--coerce signs->range(-1,1)".
	Where string
	// FromPos and ToPos are the positions of the two names, valid for
	// declarations read from a file.
	FromPos, ToPos source.Position
}

// at is where a message about name should point: its position in a file,
// or the flag.
func (d CoercionDecl) at(pos source.Position) string {
	if pos.IsValid() {
		return pos.String()
	}
	return d.Where
}

// ParseCoercion parses the argument of --coerce: FROM->TO.
func ParseCoercion(arg string) (CoercionDecl, error) {
	d, msg, _ := parseCoercionText(arg)
	if msg != "" {
		return CoercionDecl{}, fmt.Errorf("--coerce %s: %s", arg, msg)
	}
	d.Where = "--coerce " + arg
	return d, nil
}

// parseCoercionText parses FROM -> TO; on error, off is the byte offset in
// s the message is about.
func parseCoercionText(s string) (d CoercionDecl, msg string, off int) {
	i := strings.Index(s, "->")
	if i < 0 {
		return d, "expected FROM -> TO (two abstractions)", 0
	}
	from, to := strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+2:])
	switch {
	case from == "":
		return d, "no abstraction before ->", 0
	case to == "":
		return d, "no abstraction after ->", i
	case strings.Contains(to, "->"):
		return d, "expected one coercion FROM -> TO (declare a chain link by link)", i + 2 + strings.Index(s[i+2:], "->")
	}
	return CoercionDecl{From: from, To: to}, "", 0
}

// BindingsFile is the content of a bindings file (--abstractions FILE).
type BindingsFile struct {
	Bindings  []Binding
	Uses      []Use
	Coercions []CoercionDecl
}

// ParseBindings reads a bindings file (--abstractions FILE): one binding a
// line, `NAME = ABSTRACTION`; `use "file.basl"` lines naming BASL files
// whose abstractions the bindings may use; and `coerce FROM -> TO` lines
// declaring coercions between abstractions (CoercionDecl). # and // start
// comments. Errors are a source.ErrorList; the file's lines without errors
// are returned with them.
func ParseBindings(filename string, src []byte) (*BindingsFile, error) {
	f := &BindingsFile{}
	var errs source.ErrorList
	for i, line := range strings.Split(string(src), "\n") {
		text := line
		if j := strings.Index(text, "//"); j >= 0 {
			text = text[:j]
		}
		if j := strings.IndexByte(text, '#'); j >= 0 {
			text = text[:j]
		}
		indent := len(text) - len(strings.TrimLeft(text, " \t"))
		text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), ";"))
		if text == "" {
			continue
		}
		at := func(off int) source.Position {
			return source.Position{Filename: filename, Line: i + 1, Column: indent + off + 1}
		}
		pos := at(0)
		if rest, ok := keyword(text, "use"); ok {
			path, err := strconv.Unquote(strings.TrimSpace(rest))
			if err != nil || path == "" {
				errs.Add(pos, `expected use "FILE.basl"`)
				continue
			}
			f.Uses = append(f.Uses, Use{Path: path, Pos: pos})
			continue
		}
		if rest, ok := keyword(text, "coerce"); ok {
			base := len(text) - len(rest)
			d, msg, off := parseCoercionText(rest)
			if msg != "" {
				if off == 0 {
					errs.Add(pos, msg)
				} else {
					errs.Add(at(base+off), msg)
				}
				continue
			}
			arrow := strings.Index(rest, "->")
			d.FromPos = at(base + len(rest[:arrow]) - len(strings.TrimLeft(rest[:arrow], " \t")))
			d.ToPos = at(base + arrow + 2 + len(rest[arrow+2:]) - len(strings.TrimLeft(rest[arrow+2:], " \t")))
			d.Where = pos.String()
			f.Coercions = append(f.Coercions, d)
			continue
		}
		b, msg := parseBindingText(text)
		if msg != "" {
			errs.Add(pos, msg)
			continue
		}
		b.Pos, b.Where = pos, pos.String()
		f.Bindings = append(f.Bindings, b)
	}
	return f, errs.Err()
}

// keyword reports whether line starts with the keyword kw (use, coerce) and
// returns the rest. A binding of a variable named like the keyword
// (`use = signs`) is not a keyword line.
func keyword(line, kw string) (string, bool) {
	rest, ok := strings.CutPrefix(line, kw)
	if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '"' {
		return "", false
	}
	if strings.HasPrefix(strings.TrimSpace(rest), "=") {
		return "", false
	}
	return rest, true
}

// Lookup finds abstractions by name: a *data.Library does.
type Lookup interface {
	Lookup(name string) (*data.Abstraction, error)
}

// Selection is a resolved binding: a variable (a field for Record.f) and
// its abstraction.
type Selection struct {
	Var         *types.Var
	Abstraction *data.Abstraction
	Binding     Binding
}

// Resolve finds the variables the bindings name in prog and the
// abstractions in lib. A variable must be of an integer type (int or a
// range) or an array of integers (its elements are abstracted); a variable
// bound twice is an error. Errors name the binding's Where.
func Resolve(prog *types.Program, lib Lookup, bs []Binding) ([]Selection, error) {
	var out []Selection
	var errs []string
	seen := map[*types.Var]Binding{}
	for _, b := range bs {
		v, err := resolveTarget(prog, b.Target)
		if err == nil {
			if prev, dup := seen[v]; dup {
				err = fmt.Errorf("%s is already bound by %s", b.Target, prev.Where)
			}
		}
		var a *data.Abstraction
		if err == nil {
			a, err = lib.Lookup(b.Abstraction)
		}
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", b.Where, err))
			continue
		}
		seen[v] = b
		out = append(out, Selection{Var: v, Abstraction: a, Binding: b})
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return out, nil
}

func resolveTarget(prog *types.Program, target string) (*types.Var, error) {
	var v *types.Var
	if scope, name, ok := strings.Cut(target, "."); ok {
		var fromProc, fromRecord *types.Var
		if pr, ok := prog.Procs.LookupLocal(scope).(*types.Proc); ok {
			for _, x := range pr.Vars() {
				if x.Name() == name {
					fromProc = x
				}
			}
			if fromProc == nil {
				kind := "function"
				if pr.Thread {
					kind = "thread"
				}
				return nil, fmt.Errorf("%s %s has no variable %s", kind, scope, name)
			}
		}
		if tn, ok := prog.Lookup(scope).(*types.TypeName); ok {
			if rec, ok := tn.Type().Underlying().(*types.Record); ok {
				fromRecord = rec.Field(name)
				if fromRecord == nil && fromProc == nil {
					return nil, fmt.Errorf("record %s has no field %s", scope, name)
				}
			}
		}
		switch {
		case fromProc != nil && fromRecord != nil:
			return nil, fmt.Errorf("%s is ambiguous: %s is both a thread or function and a record type", target, scope)
		case fromProc != nil:
			v = fromProc
		case fromRecord != nil:
			v = fromRecord
		default:
			return nil, fmt.Errorf("no thread, function or record type %s", scope)
		}
	} else {
		var ok bool
		if v, ok = prog.Lookup(target).(*types.Var); !ok {
			return nil, fmt.Errorf("no global variable %s (name a thread's, function's or record's with Thread.%s)", target, target)
		}
	}
	if !abstractable(v.Type()) {
		return nil, fmt.Errorf("%s is of type %s: only integer variables and arrays of integers can be abstracted", target, v.Type())
	}
	return v, nil
}

// abstractable reports whether values of type t can be abstracted: integers
// and (the elements of) arrays of integers.
func abstractable(t types.Type) bool {
	if t == nil {
		return false
	}
	if types.IsInteger(t) {
		return true
	}
	if a, ok := t.Underlying().(*types.Array); ok {
		return abstractable(a.Elem)
	}
	return false
}
