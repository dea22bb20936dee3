package apf

import (
	"fmt"
	"strconv"
	"strings"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/ast"
	"birch/internal/bir/parser"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// Context says where the instances of a predicate live.
type Context int

// The contexts of a predicate file's predicates.
const (
	Global   Context = iota // a predicate over globals: one instance
	Thread                  // [thread T]: one instance per frame of T (depth 0 of a thread whose proc is T)
	Function                // [function f]: one instance per frame of f
	Record                  // [record T]: one instance per object of T or of a subtype
)

func (c Context) String() string {
	switch c {
	case Global:
		return "global"
	case Thread:
		return "thread"
	case Function:
		return "function"
	case Record:
		return "record"
	}
	return "Context(" + strconv.Itoa(int(c)) + ")"
}

// PredSlot is where the value of one predicate of the file lives in P′:
// its hidden variable, of type `range 0..2` (0 unknown, the default; 1
// false; 2 true).
type PredSlot struct {
	Context Context
	// Proc is the thread or function of a Thread or Function predicate
	// (a proc of P′), whose hidden local Var is; nil otherwise.
	Proc *types.Proc
	// Record is the record type T of a `[record T]` predicate (a type of
	// P′); Var is the hidden field of T. Every subtype S of T holds the
	// hidden field too, at the same index among S's fields (BIR's prefix
	// rule), so Var.Index locates the predicate in any object of T or of a
	// subtype.
	Record *types.Named
	// Var is the hidden variable in P′: a global, a local of Proc, or a
	// field of Record. Its name has a quote ('), which no BIR identifier has.
	Var *types.Var
	// This is the `this` of a Record predicate (the predicate's This): the
	// variable its expression reads for the object; nil otherwise.
	This *types.Var
}

// Program is a model instrumented for on-the-fly predicate abstraction:
// P′, the model with the predicates' hidden variables, and what the
// runtime must compute in the model's place.
type Program struct {
	Prog  *types.Program  // P′
	Preds *predicate.File // the predicate file, parsed against P′
	Slots []PredSlot      // per predicate, with the index of Preds.Predicates
	// Abstracted holds the variables, parameters and fields of P′ whose
	// values are abstracted: those of type int, of a range of more than
	// 256 values, or of a value array of them (AbstractType). Their slots
	// keep their initial or default value; their values are described by
	// the predicates. Fields are marked in every record that declares them
	// (a subtype's copy too).
	Abstracted map[*types.Var]bool
	// AbstractArrays holds the array types of P′'s collections whose
	// elements are abstracted (AbstractType of the element type). An
	// element of any array, a value array or a heap array, is abstracted
	// exactly when AbstractType holds for the array's element type; a
	// value array variable or field of such a type is in Abstracted as a
	// whole, while a heap array's length stays concrete.
	AbstractArrays map[*types.Named]bool
	// Replaced is what Native.Replaces answers true for: the guards, the
	// actions, the result expressions of `return e`, the argument
	// expressions of calls and starts, and the Lhs of calls that read or
	// write abstracted data. An argument for an abstracted parameter, the
	// result of a function whose result type is abstracted, and the
	// result of a function some call of which has a replaced Lhs, are
	// replaced even when constant or concrete: the runtime, not the slot,
	// holds or stores the value. A CallAction or StartAction itself is never replaced (the
	// model pushes the frame or starts the thread).
	Replaced map[ast.Node]bool
	// Unsupported lists, each at its position, the constructs the runtime
	// cannot handle soundly (an *UnsupportedError), or is nil. A check of
	// a program with any is inconclusive.
	Unsupported error
}

// UnsupportedError lists the constructs of a model that on-the-fly
// predicate abstraction cannot handle soundly, each with its position.
type UnsupportedError struct {
	List source.ErrorList
}

// Error lists the constructs, one line each.
func (e *UnsupportedError) Error() string {
	lines := make([]string, len(e.List))
	for i, x := range e.List {
		lines[i] = x.Error()
	}
	return strings.Join(lines, "\n")
}

// maxConcreteRange is the largest number of values of a range type whose
// data stay concrete; the C2bp pass uses the same bound.
const maxConcreteRange = 256

// AbstractType reports whether data of type t are abstracted: int, a range
// (not fixed-width) of more than 256 values, and a value array of them.
// Fixed-width types (int8 … uint64), booleans, enums, small ranges,
// references, tids and locks stay concrete.
func AbstractType(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind == types.Int
	case *types.Range:
		return !u.Wrap && u.Span() >= maxConcreteRange
	case *types.Array:
		return AbstractType(u.Elem)
	}
	return false
}

// choosable reports whether a concrete location of type t can take an
// abstracted value by a choice over its values: a boolean, an enum or a
// range (not fixed-width) of at most 256 values.
func choosable(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind == types.Bool
	case *types.Enum:
		return true
	case *types.Range:
		return !u.Wrap && u.Span() < maxConcreteRange
	}
	return false
}

// hiddenName is the name of the hidden variable of the i-th predicate
// (from 0): BIR identifiers have no quote ('), so it clashes with no name of the
// model.
func hiddenName(i int) string { return "pred'" + strconv.Itoa(i+1) }

// Instrument parses the model again (src, its file name in fset), reads
// the predicate file against it, adds the hidden variables, and checks the
// result. A model or predicate file that does not parse or check is a
// source.ErrorList (file:line:col: message); constructs the runtime cannot
// handle are listed in the result's Unsupported.
func Instrument(fset *source.FileSet, name string, src []byte, predName string, predSrc []byte) (*Program, error) {
	orig, err := parseCheck(fset, name, src)
	if err != nil {
		return nil, err
	}
	pf, err := predicate.ParseFile(orig.prog, predName, predSrc)
	if err != nil {
		return nil, err
	}
	// P′: the model parsed again (the checker rewrites some nodes), with
	// the hidden variables added
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	if err := addHidden(f, orig.prog, pf); err != nil {
		return nil, err
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		// the hidden variables may make a state or a record too large
		return nil, fmt.Errorf("the model with one variable per predicate (on-the-fly predicate abstraction) does not check: %v", err)
	}
	preds, err := predicate.ParseFile(prog, predName, predSrc)
	if err != nil || len(preds.Predicates) != len(pf.Predicates) {
		return nil, fmt.Errorf("apf: internal error: the predicates do not check against the instrumented model: %v", err)
	}
	p := &Program{
		Prog:           prog,
		Preds:          preds,
		Abstracted:     map[*types.Var]bool{},
		AbstractArrays: map[*types.Named]bool{},
		Replaced:       map[ast.Node]bool{},
	}
	if err := p.findSlots(); err != nil {
		return nil, err
	}
	p.classify()
	return p, nil
}

type parsed struct {
	file *ast.File
	prog *types.Program
}

func parseCheck(fset *source.FileSet, name string, src []byte) (*parsed, error) {
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		return nil, err
	}
	return &parsed{f, prog}, nil
}

// addHidden adds to f, a fresh parse of the model orig was checked from,
// the hidden variable of each predicate of pf: a global at the end of the
// declarations, a local at the end of its proc's locals (and in every live
// set of the proc, so the model never resets it), or a field of its record
// type and, at the same index, of each subtype.
func addHidden(f *ast.File, orig *types.Program, pf *predicate.File) error {
	sys := f.System
	if sys == nil {
		return fmt.Errorf("apf: internal error: no system")
	}
	bodies := map[string]*ast.Body{}
	records := map[string]*ast.RecordType{}
	for _, d := range sys.Decls {
		switch d := d.(type) {
		case *ast.ThreadDecl:
			bodies[d.Name.Name] = d.Body
		case *ast.FunctionDecl:
			bodies[d.Name.Name] = d.Body
		case *ast.TypeDecl:
			if rt, ok := d.Type.(*ast.RecordType); ok {
				records[d.Name.Name] = rt
			}
		}
	}
	var globals []ast.Decl
	// record predicates, by record type, in the order of the file
	own := map[*types.Named][]int{}
	for i, p := range pf.Predicates {
		pos := p.Expr.Pos()
		switch {
		case p.Record != nil:
			own[p.Record] = append(own[p.Record], i)
		case p.Proc != nil:
			b := bodies[p.Proc.Name()]
			if b == nil {
				return fmt.Errorf("apf: internal error: no body of %s", p.Proc.Name())
			}
			b.Locals = append(b.Locals, hiddenDecl(i, pos))
			for _, l := range b.Locations {
				if l.Live != nil {
					l.Live.Names = append(l.Live.Names, &ast.Ident{NamePos: pos, Name: hiddenName(i)})
				}
			}
		default:
			globals = append(globals, hiddenDecl(i, pos))
		}
	}
	sys.Decls = append(sys.Decls, globals...)
	// a record's hidden fields go at the end of its fields (those of its
	// supertypes' hidden fields included) and at the same index in each
	// subtype: supertypes first, so that every subtype's fields keep the
	// supertype's as a prefix
	var named []*types.Named
	for _, tn := range orig.Types {
		if n := tn.Named(); n != nil && tn.Decl != nil {
			if _, ok := n.Underlying().(*types.Record); ok {
				named = append(named, n)
			}
		}
	}
	depth := func(n *types.Named) int {
		d := 0
		for x := n.Super; x != nil && d < len(named); x = x.Super {
			d++
		}
		return d
	}
	count := map[*types.Named]int{} // fields in P′ so far
	for _, n := range named {
		count[n] = len(n.Underlying().(*types.Record).Fields)
	}
	for d := 0; d <= len(named); d++ {
		for _, t := range named {
			if depth(t) != d || len(own[t]) == 0 {
				continue
			}
			at := count[t]
			for _, s := range named {
				if !types.IsSubtype(s, t) {
					continue
				}
				rt := records[s.String()]
				if rt == nil {
					return fmt.Errorf("apf: internal error: no record type %s", s)
				}
				for k, i := range own[t] {
					insertField(rt, at+k, hiddenDecl(i, pf.Predicates[i].Expr.Pos()))
				}
				count[s] += len(own[t])
			}
		}
	}
	return nil
}

// hiddenDecl declares the hidden variable of the i-th predicate, at pos
// (the predicate's position in its file).
func hiddenDecl(i int, pos source.Pos) *ast.VarDecl {
	lit := func(v string) *ast.BasicLit { return &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: v} }
	return &ast.VarDecl{
		Names: []*ast.Ident{{NamePos: pos, Name: hiddenName(i)}},
		Colon: pos,
		Type:  &ast.RangeType{RangePos: pos, Lo: lit("0"), Ellipsis: pos, Hi: lit("2")},
	}
}

// insertField inserts d as the field of index at of rt, splitting a
// declaration of several names if the index falls inside it.
func insertField(rt *ast.RecordType, at int, d *ast.VarDecl) {
	n := 0
	for k, fd := range rt.Fields {
		if n == at {
			rt.Fields = append(rt.Fields[:k:k], append([]*ast.VarDecl{d}, rt.Fields[k:]...)...)
			return
		}
		if at < n+len(fd.Names) {
			cut := at - n
			first := *fd
			first.Names = fd.Names[:cut:cut]
			rest := *fd
			rest.Names = fd.Names[cut:]
			tail := append([]*ast.VarDecl{&first, d, &rest}, rt.Fields[k+1:]...)
			rt.Fields = append(rt.Fields[:k:k], tail...)
			return
		}
		n += len(fd.Names)
	}
	rt.Fields = append(rt.Fields, d)
}

// findSlots finds each predicate's hidden variable in P′.
func (p *Program) findSlots() error {
	for i, pr := range p.Preds.Predicates {
		name := hiddenName(i)
		var s PredSlot
		switch {
		case pr.Record != nil:
			s.Context, s.Record, s.This = Record, pr.Record, pr.This
			if r, ok := pr.Record.Underlying().(*types.Record); ok {
				s.Var = r.Field(name)
			}
		case pr.Proc != nil:
			s.Context, s.Proc = Function, pr.Proc
			if pr.Proc.Thread {
				s.Context = Thread
			}
			for _, v := range pr.Proc.Locals {
				if v.Name() == name {
					s.Var = v
				}
			}
		default:
			s.Var, _ = p.Prog.Lookup(name).(*types.Var)
		}
		if s.Var == nil {
			return fmt.Errorf("apf: internal error: no hidden variable %s for %s", name, pr)
		}
		p.Slots = append(p.Slots, s)
	}
	return nil
}
