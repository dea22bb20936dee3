package smtlib

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"birch/internal/smt"
	"birch/internal/source"
)

// Logics lists the logics a script may set: the quantifier-free fragments
// over Bool, Int, uninterpreted functions and arrays. Nonlinear ones are
// accepted; the embedded solver answers unknown on nonlinear terms.
var Logics = []string{
	"QF_UF", "QF_LIA", "QF_IDL", "QF_UFLIA", "QF_UFIDL", "QF_AX", "QF_ALIA", "QF_AUFLIA",
	"QF_NIA", "QF_UFNIA", "QF_ANIA", "QF_AUFNIA", "ALL",
}

// Interpreter runs SMT-LIB2 scripts against a Solver and writes the
// answers to Out as a solver does: sat, unsat, unknown, models, values,
// unsat cores. One Interpreter may run several scripts; each starts from a
// fresh state (but shares the TermManager).
type Interpreter struct {
	TM     *smt.TermManager
	Solver smt.Solver
	Out    io.Writer

	elab         *Elaborator
	frames       []*frame // frames[0] is the script's outermost level
	printSuccess bool
	cores        bool // :produce-unsat-cores
	global       bool // :global-declarations
	logic        string
	last         lastCheck
	file         *source.File
}

// MaxLevels bounds the assertion levels pushed and not yet popped: each
// takes memory in the interpreter and the solver, so that (push 100000000)
// is an error rather than an out-of-memory crash.
const MaxLevels = 100000

// frame is what one push level added.
type frame struct {
	names  []string // symbols, definitions and sorts declared at this level
	named  []named  // named assertions, checked as assumptions when cores are on
	sorted []string // sorts declared at this level
}

type named struct {
	name string
	term *smt.Term
}

type lastCheck struct {
	result      smt.Result
	valid       bool        // the last check's model and core are still current
	assumptions []*smt.Term // explicit assumptions of check-sat-assuming
	texts       []string    // their source text
	names       map[*smt.Term][]string
	core        []*smt.Term
	reason      string
}

// SolverError is an error of the solver (a process failed), as opposed to
// an error in the script.
type SolverError struct{ Err error }

func (e *SolverError) Error() string { return e.Err.Error() }
func (e *SolverError) Unwrap() error { return e.Err }

// Run executes the script src (named filename in messages). It stops at
// the first error, which it returns as a *source.Error positioned at the
// offending command or term: "file:line:col: message". A failure of the
// solver is returned wrapped in a *SolverError, also positioned.
func (in *Interpreter) Run(filename string, src []byte) error {
	in.reset()
	in.file = source.NewFileSet().AddFile(filename, src)
	nodes, perr := Parse(string(src))
	for _, n := range nodes {
		done, err := in.command(n)
		if err != nil {
			return in.position(err, n)
		}
		if done {
			return nil
		}
	}
	if perr != nil {
		return in.position(perr, nil)
	}
	return nil
}

func (in *Interpreter) position(err error, n *Node) error {
	off := 0
	if n != nil {
		off = n.Offset
	}
	var pe *Error
	if errors.As(err, &pe) {
		off = pe.Offset
		err = errors.New(pe.Msg)
	}
	pos := in.file.Position(in.file.Pos(off))
	var se *SolverError
	if errors.As(err, &se) {
		return &SolverError{Err: &source.Error{Pos: pos, Msg: se.Err.Error()}}
	}
	return &source.Error{Pos: pos, Msg: err.Error()}
}

func (in *Interpreter) reset() {
	if in.frames != nil {
		// Discard the previous script's assertions.
		in.Solver.Pop(len(in.frames))
	}
	in.elab = NewElaborator(in.TM)
	in.elab.Named = in.named
	in.frames = []*frame{{}}
	in.Solver.Push() // so that reset-assertions can pop the outermost level
	in.printSuccess, in.cores, in.global, in.logic = false, false, false, ""
	in.last = lastCheck{}
}

func (in *Interpreter) top() *frame { return in.frames[len(in.frames)-1] }

func (in *Interpreter) printf(format string, args ...any) { fmt.Fprintf(in.Out, format, args...) }

func (in *Interpreter) success() {
	if in.printSuccess {
		in.printf("success\n")
	}
}

// command runs one command; done reports exit.
func (in *Interpreter) command(n *Node) (done bool, err error) {
	name := n.Head()
	if name == "" {
		return false, errorAt(n, "expected a command, found %s", n)
	}
	args := n.Kids[1:]
	nargs := func(k int) error {
		if len(args) != k {
			return errorAt(n, "%s takes %d arguments, found %d", name, k, len(args))
		}
		return nil
	}
	switch name {
	case "set-logic":
		if err := nargs(1); err != nil {
			return false, err
		}
		l := args[0].Text
		ok := false
		for _, s := range Logics {
			ok = ok || s == l
		}
		if !ok || args[0].Kind != Symbol {
			return false, errorAt(args[0], "unsupported logic %s (birch decides %s)", args[0], strings.Join(Logics, ", "))
		}
		if in.logic != "" {
			return false, errorAt(n, "logic already set")
		}
		in.logic = l
		in.success()
	case "set-option":
		return false, in.setOption(n, args)
	case "set-info":
		in.success()
	case "get-info":
		if err := nargs(1); err != nil {
			return false, err
		}
		switch args[0].Text {
		case ":name":
			in.printf("(:name \"birch\")\n")
		case ":version":
			in.printf("(:version \"0.1\")\n")
		case ":authors":
			in.printf("(:authors \"the birch authors\")\n")
		case ":error-behavior":
			in.printf("(:error-behavior immediate-exit)\n")
		case ":reason-unknown":
			r := in.last.reason
			if r == "" {
				r = "incomplete"
			}
			in.printf("(:reason-unknown %s)\n", r)
		default:
			in.printf("unsupported\n")
		}
	case "declare-sort":
		if err := nargs(2); err != nil {
			return false, err
		}
		if args[0].Kind != Symbol {
			return false, errorAt(args[0], "expected a sort name, found %s", args[0])
		}
		if args[1].Kind != Numeral || args[1].Text != "0" {
			return false, errorAt(args[1], "unsupported: sorts with parameters")
		}
		sname := args[0].Text
		if _, ok := in.elab.Sorts[sname]; ok || sname == "Int" || sname == "Bool" || sname == "Array" {
			return false, errorAt(args[0], "sort %s already declared", sname)
		}
		in.elab.Sorts[sname] = in.TM.UninterpretedSort(sname)
		in.top().sorted = append(in.top().sorted, sname)
		in.success()
	case "declare-fun", "declare-const":
		var params []*smt.Sort
		var result *Node
		if name == "declare-fun" {
			if err := nargs(3); err != nil {
				return false, err
			}
			if args[1].Kind != List {
				return false, errorAt(args[1], "expected a list of sorts, found %s", args[1])
			}
			for _, p := range args[1].Kids {
				s, err := in.elab.Sort(p)
				if err != nil {
					return false, err
				}
				params = append(params, s)
			}
			result = args[2]
		} else {
			if err := nargs(2); err != nil {
				return false, err
			}
			result = args[1]
		}
		if args[0].Kind != Symbol {
			return false, errorAt(args[0], "expected a symbol, found %s", args[0])
		}
		rs, err := in.elab.Sort(result)
		if err != nil {
			return false, err
		}
		if err := in.fresh(args[0]); err != nil {
			return false, err
		}
		sym, err := in.TM.Declare(args[0].Text, params, rs)
		if err != nil {
			return false, errorAt(args[0], "unsupported: redeclaring %s with another sort", args[0])
		}
		in.elab.Symbols[sym.Name()] = sym
		in.top().names = append(in.top().names, sym.Name())
		in.success()
	case "define-fun":
		if err := nargs(4); err != nil {
			return false, err
		}
		if args[0].Kind != Symbol || args[1].Kind != List {
			return false, errorAt(n, "malformed define-fun: expected (define-fun f ((x S) …) S t)")
		}
		if err := in.fresh(args[0]); err != nil {
			return false, err
		}
		d := &Def{Name: args[0].Text}
		env := map[string]*smt.Term{}
		for i, p := range args[1].Kids {
			if p.Kind != List || len(p.Kids) != 2 || p.Kids[0].Kind != Symbol {
				return false, errorAt(p, "malformed parameter: expected (x S)")
			}
			s, err := in.elab.Sort(p.Kids[1])
			if err != nil {
				return false, err
			}
			d.Params = append(d.Params, s)
			env[p.Kids[0].Text] = in.TM.Bound(i, s)
		}
		rs, err := in.elab.Sort(args[2])
		if err != nil {
			return false, err
		}
		body, err := in.elab.Term(args[3], env)
		if err != nil {
			return false, err
		}
		if body.Sort() != rs {
			return false, errorAt(args[3], "body of %s has sort %s, expected %s", d.Name, body.Sort(), rs)
		}
		d.Result, d.Body = rs, body
		in.elab.Defs[d.Name] = d
		in.top().names = append(in.top().names, d.Name)
		in.success()
	case "assert":
		if err := nargs(1); err != nil {
			return false, err
		}
		// A top-level (! t :named n) becomes an assumption when unsat
		// cores are wanted, so that the core can name it.
		var nm *named
		body := args[0]
		if in.cores && body.Head() == "!" && len(body.Kids) == 4 && body.Kids[2].Kind == Keyword && body.Kids[2].Text == ":named" {
			nm = &named{name: body.Kids[3].Text}
		}
		t, err := in.elab.Term(body, nil)
		if err != nil {
			return false, err
		}
		if !t.IsBool() {
			return false, errorAt(body, "assertion has sort %s, expected Bool", t.Sort())
		}
		in.last.valid = false
		if nm != nil {
			nm.term = t
			in.top().named = append(in.top().named, *nm)
		} else {
			in.Solver.Assert(t)
		}
		in.success()
	case "push", "pop":
		k, count := 1, "1"
		if len(args) > 1 {
			return false, errorAt(n, "%s takes at most 1 argument", name)
		}
		if len(args) == 1 {
			if args[0].Kind != Numeral {
				return false, errorAt(args[0], "expected a numeral, found %s", args[0])
			}
			count = args[0].Text
			v, err := strconv.Atoi(count)
			if err != nil {
				v = math.MaxInt // more than can be pushed or popped
			}
			k = v
		}
		in.last.valid = false
		if name == "push" {
			if k > MaxLevels-(len(in.frames)-1) {
				return false, errorAt(n, "push %s: at most %d levels may be pushed, and %d are", source.Excerpt(count), MaxLevels, len(in.frames)-1)
			}
			for i := 0; i < k; i++ {
				in.frames = append(in.frames, &frame{})
				in.Solver.Push()
			}
		} else {
			if k > len(in.frames)-1 {
				return false, errorAt(n, "pop %s with %d levels pushed", source.Excerpt(count), len(in.frames)-1)
			}
			for i := 0; i < k; i++ {
				in.popFrame()
			}
			in.Solver.Pop(k)
		}
		in.success()
	case "reset-assertions":
		levels := len(in.frames)
		for len(in.frames) > 1 {
			in.popFrame()
		}
		in.frames[0].named = nil
		in.Solver.Pop(levels)
		in.Solver.Push()
		in.frames = []*frame{{names: in.frames[0].names, sorted: in.frames[0].sorted}}
		in.last = lastCheck{}
		in.success()
	case "reset":
		in.reset()
		in.success()
	case "check-sat":
		if err := nargs(0); err != nil {
			return false, err
		}
		return false, in.checkSat(nil, nil)
	case "check-sat-assuming":
		if err := nargs(1); err != nil {
			return false, err
		}
		if args[0].Kind != List {
			return false, errorAt(args[0], "expected a list of literals, found %s", args[0])
		}
		var lits []*smt.Term
		var texts []string
		for _, k := range args[0].Kids {
			t, err := in.elab.Term(k, nil)
			if err != nil {
				return false, err
			}
			if !t.IsBool() {
				return false, errorAt(k, "assumption has sort %s, expected Bool", t.Sort())
			}
			lits = append(lits, t)
			texts = append(texts, k.String())
		}
		return false, in.checkSat(lits, texts)
	case "get-model":
		if err := nargs(0); err != nil {
			return false, err
		}
		m, err := in.model(n)
		if err != nil {
			return false, err
		}
		in.printf("(\n")
		for _, s := range in.TM.Symbols() {
			if in.elab.Symbols[s.Name()] == s {
				in.printf("  %s\n", m.Define(s))
			}
		}
		in.printf(")\n")
	case "get-value":
		if err := nargs(1); err != nil {
			return false, err
		}
		if args[0].Kind != List || len(args[0].Kids) == 0 {
			return false, errorAt(args[0], "expected a list of terms, found %s", args[0])
		}
		m, err := in.model(n)
		if err != nil {
			return false, err
		}
		var parts []string
		for _, k := range args[0].Kids {
			t, err := in.elab.Term(k, nil)
			if err != nil {
				return false, err
			}
			v, err := m.Eval(t)
			if err != nil {
				return false, errorAt(k, "%v", err)
			}
			parts = append(parts, "("+k.String()+" "+v.String()+")")
		}
		in.printf("(%s)\n", strings.Join(parts, " "))
	case "get-unsat-core", "get-unsat-assumptions":
		if err := nargs(0); err != nil {
			return false, err
		}
		if !in.last.valid || in.last.result != smt.Unsat {
			return false, errorAt(n, "%s: the last check-sat did not answer unsat", name)
		}
		if name == "get-unsat-core" && !in.cores {
			return false, errorAt(n, "get-unsat-core needs (set-option :produce-unsat-cores true)")
		}
		var parts []string
		seen := map[string]bool{}
		for _, c := range in.last.core {
			if name == "get-unsat-core" {
				for _, nm := range in.last.names[c] {
					if !seen[nm] {
						seen[nm] = true
						parts = append(parts, nm)
					}
				}
				continue
			}
			for i, a := range in.last.assumptions {
				if a == c && !seen[in.last.texts[i]] {
					seen[in.last.texts[i]] = true
					parts = append(parts, in.last.texts[i])
				}
			}
		}
		in.printf("(%s)\n", strings.Join(parts, " "))
	case "get-assertions", "get-assignment", "get-proof", "get-option":
		return false, errorAt(n.Kids[0], "unsupported command %s", name)
	case "echo":
		if err := nargs(1); err != nil {
			return false, err
		}
		if args[0].Kind != String {
			return false, errorAt(args[0], "echo needs a string")
		}
		in.printf("%s\n", args[0].String())
	case "exit":
		in.success()
		return true, nil
	case "define-sort", "define-fun-rec", "define-funs-rec", "declare-datatype", "declare-datatypes":
		return false, errorAt(n.Kids[0], "unsupported command %s", name)
	default:
		return false, errorAt(n.Kids[0], "unknown command %s", name)
	}
	return false, nil
}

// fresh reports an error when name is visible already.
func (in *Interpreter) fresh(n *Node) error {
	if _, ok := in.elab.Symbols[n.Text]; ok {
		return errorAt(n, "%s already declared", n)
	}
	if _, ok := in.elab.Defs[n.Text]; ok {
		return errorAt(n, "%s already defined", n)
	}
	if !n.Quoted && (n.Text == "true" || n.Text == "false" || isBuiltin(n.Text)) {
		return errorAt(n, "%s is a built-in name", n)
	}
	return nil
}

func isBuiltin(s string) bool {
	switch s {
	case "not", "and", "or", "xor", "=>", "=", "distinct", "ite", "-", "+", "*", "div", "mod", "abs",
		"<", "<=", ">", ">=", "select", "store", "let", "as", "!", "_", "forall", "exists":
		return true
	}
	return false
}

func (in *Interpreter) popFrame() {
	f := in.top()
	in.frames = in.frames[:len(in.frames)-1]
	if in.global {
		// Declarations outlive their level; keep them in the enclosing one.
		p := in.top()
		p.names = append(p.names, f.names...)
		p.sorted = append(p.sorted, f.sorted...)
		return
	}
	for _, name := range f.names {
		delete(in.elab.Symbols, name)
		delete(in.elab.Defs, name)
	}
	for _, name := range f.sorted {
		delete(in.elab.Sorts, name)
	}
}

// named records (! t :named n): n becomes a name for t.
func (in *Interpreter) named(name string, t *smt.Term, n *Node) error {
	if err := in.fresh(n); err != nil {
		return err
	}
	in.elab.Defs[name] = &Def{Name: name, Result: t.Sort(), Body: t}
	in.top().names = append(in.top().names, name)
	return nil
}

func (in *Interpreter) setOption(n *Node, args []*Node) error {
	if len(args) < 1 || args[0].Kind != Keyword {
		return errorAt(n, "malformed set-option: expected (set-option :name value)")
	}
	val := ""
	if len(args) > 1 {
		val = args[1].Text
	}
	boolVal := func() (bool, error) {
		switch val {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return false, errorAt(n, "%s needs true or false", args[0].Text)
	}
	switch args[0].Text {
	case ":print-success":
		b, err := boolVal()
		if err != nil {
			return err
		}
		in.printSuccess = b
	case ":produce-unsat-cores":
		b, err := boolVal()
		if err != nil {
			return err
		}
		in.cores = b
	case ":global-declarations":
		b, err := boolVal()
		if err != nil {
			return err
		}
		in.global = b
	case ":produce-models", ":produce-unsat-assumptions", ":produce-assignments", ":random-seed",
		":verbosity", ":diagnostic-output-channel", ":regular-output-channel", ":produce-assertions",
		":produce-proofs", ":interactive-mode", ":reproducible-resource-limit", ":incremental":
		// Always on, or irrelevant.
	default:
		in.printf("unsupported\n")
		return nil
	}
	in.success()
	return nil
}

func (in *Interpreter) checkSat(lits []*smt.Term, texts []string) error {
	names := map[*smt.Term][]string{}
	var all []*smt.Term
	for _, f := range in.frames {
		for _, nm := range f.named {
			if _, ok := names[nm.term]; !ok {
				all = append(all, nm.term)
			}
			names[nm.term] = append(names[nm.term], nm.name)
		}
	}
	all = append(all, lits...)
	var r smt.Result
	var err error
	if all == nil {
		r, err = in.Solver.Check()
	} else {
		r, err = in.Solver.CheckAssumptions(all)
	}
	in.last = lastCheck{result: r, valid: true, assumptions: lits, texts: texts, names: names}
	in.printf("%s\n", r)
	if err != nil {
		in.last.reason = strconv.Quote(err.Error())
		return &SolverError{Err: err}
	}
	if r == smt.Unsat && all != nil {
		core, err := in.Solver.UnsatCore()
		if err != nil {
			return &SolverError{Err: err}
		}
		in.last.core = core
	}
	return nil
}

func (in *Interpreter) model(n *Node) (*smt.Model, error) {
	if !in.last.valid || in.last.result != smt.Sat {
		return nil, errorAt(n, "%s: no model: the last check-sat did not answer sat, or assertions changed since", n.Head())
	}
	m, err := in.Solver.Model()
	if err != nil {
		return nil, &SolverError{Err: err}
	}
	return m, nil
}
