package c2bp

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/parser"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/smt"
	"birch/internal/source"
)

// abstractor holds the state of one abstraction.
type abstractor struct {
	cfg      Config
	conc     *types.Program
	q        *query
	prefix   string // of the added names: abs_ unless the model uses it
	preds    []*pred
	absVar   map[*types.Var]bool
	absField map[string]bool
	// threadPreds: the threads that have [thread T] predicates
	threadPreds map[*types.Proc]bool
	// refTemps: per proc, the reference locals of new into abstracted
	// data, by type text
	refTemps map[*types.Proc]map[string]string
	// funcPreds: the [function f] predicates of each function, in order
	// (its added boolean parameters)
	funcPreds map[*types.Proc][]*pred
	// oneThread: the model has one thread instance (one main thread, no
	// start)
	oneThread bool
	retNames  map[*ast.Transformation]string
	// slotsAt, slotsOf: the return predicates by call transformation and
	// by callee (retSlots)
	slotsAt map[*ast.Transformation]map[*pred]*retSlot
	slotsOf map[*types.Proc][]*retSlot
	// unsatCubes are the cubes no state satisfies (findUnsat)
	unsatCubes []predicate.Cube
	// budget counts down the cubes the current F may still visit
	budget int
	// linearOnly: the solver is the embedded one, which does not decide
	// nonlinear formulas (atom skips them)
	linearOnly bool
	nret       map[*types.Proc]int
	mods       map[*types.Proc]map[any]bool

	tm        *smt.TermManager
	solver    smt.Solver
	enc       *predicate.Encoder
	cubes     *predicate.Cubes
	solverErr error

	errs  source.ErrorList
	stats Stats
}

func (a *abstractor) unsupported(at ast.Node, format string, args ...any) {
	a.errs.Add(a.q.pos(a.conc, at), fmt.Sprintf(format, args...))
}

func (a *abstractor) unsupportedAt(pos source.Pos, fset *source.FileSet, format string, args ...any) {
	a.errs.Add(fset.Position(pos), fmt.Sprintf(format, args...))
}

// Abstract computes the predicate abstraction of prog with respect to the
// predicates of preds (parsed against prog). Constructs it cannot
// abstract soundly come back as an *UnsupportedError listing each with its
// position; a failure of the abstraction itself (a solver that cannot
// start, an abstract model that does not check: a bug) is another error.
func Abstract(prog *types.Program, preds *predicate.File, cfg Config) (out *Output, err error) {
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			if os.Getenv("C2BP_PANIC") != "" {
				panic(r)
			}
			out, err = nil, fmt.Errorf("c2bp: internal error: %v", r)
		}
	}()
	if err := recordPreds(prog.Fset, preds); err != nil {
		return nil, err
	}
	if cfg.Filename == "" {
		name := prog.File.Name
		ext := filepath.Ext(name)
		cfg.Filename = strings.TrimSuffix(name, ext) + ".pred" + ext
		if ext == "" {
			cfg.Filename = name + ".pred.bir"
		}
	}
	a := &abstractor{cfg: cfg, conc: prog, absVar: map[*types.Var]bool{}, absField: map[string]bool{},
		threadPreds: map[*types.Proc]bool{}, refTemps: map[*types.Proc]map[string]string{},
		funcPreds: map[*types.Proc][]*pred{}, retNames: map[*ast.Transformation]string{}, nret: map[*types.Proc]int{}}
	used := names(prog, preds)
	a.prefix = uniquePrefix(used, "abs_")
	if a.q, err = newQuery(prog, a.prefix); err != nil {
		return nil, fmt.Errorf("c2bp: %v", err)
	}
	a.oneThread = oneThread(prog)
	if err := a.readPreds(preds, used); err != nil {
		return nil, err
	}
	a.classify()
	a.tm = smt.NewTermManager()
	solverName := cfg.Solver
	if solverName == "" {
		solverName = "embedded"
	}
	a.linearOnly = solverName == "embedded"
	safe, err := newSafeSolver(solverName, a.tm)
	if err != nil {
		return nil, fmt.Errorf("c2bp: %v", err)
	}
	a.solver = safe
	defer a.solver.Close()
	a.enc = predicate.NewEncoder(a.tm, a.q.prog)
	if err := a.setupPreds(); err != nil {
		return nil, err
	}
	src, origins := a.generate()
	if len(a.errs) > 0 {
		a.errs.Sort()
		a.errs.RemoveMultiples()
		return nil, &UnsupportedError{List: a.errs}
	}
	if err := a.ctxErr(); err != nil {
		return nil, err
	}
	canon, err := format.Source(cfg.Filename, src)
	if err != nil {
		if strings.Contains(err.Error(), "nested too deeply") {
			// a limit of BIR's text, not a bug: too many alias cases or
			// cubes in one formula
			var list source.ErrorList
			list.Add(prog.Fset.Position(prog.File.System.Pos()), "a formula of the abstract model is nested more deeply than BIR allows (too many alias cases or cubes in one step)")
			return nil, &UnsupportedError{List: list}
		}
		return nil, fmt.Errorf("c2bp: internal error: the abstract model does not parse: %v\n%s", err, src)
	}
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, cfg.Filename, canon, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("c2bp: internal error: the abstract model does not parse: %v", err)
	}
	abs, err := types.Check(fset, f, nil)
	if err != nil {
		return nil, fmt.Errorf("c2bp: internal error: the abstract model does not check: %v\n%s", err, canon)
	}
	m := &Map{Concrete: prog, Abstract: abs, byTrans: map[*ast.Transformation]*Origin{}}
	for _, o := range origins {
		ap, _ := abs.Procs.LookupLocal(o.Proc.Name()).(*types.Proc)
		if ap == nil {
			return nil, fmt.Errorf("c2bp: internal error: no abstract %s", o.Proc.Name())
		}
		al := ap.Location(o.Location.Name())
		if al == nil || o.Index >= len(al.Decl.Transformations) {
			return nil, fmt.Errorf("c2bp: internal error: no abstract transformation for %s", o.Location.Name())
		}
		o.Abstract = al.Decl.Transformations[o.Index]
		m.byTrans[o.Abstract] = o
	}
	// the order of the abstract source
	sort.SliceStable(origins, func(i, j int) bool { return origins[i].Abstract.Pos() < origins[j].Abstract.Pos() })
	m.Origins = origins
	out = &Output{Source: canon, Program: abs, Map: m}
	for _, p := range a.preds {
		op := &Pred{Predicate: p.conc, Var: p.name}
		if p.conc.Proc != nil && !p.conc.Proc.Thread {
			op.Proc = p.conc.Proc.Name() // a parameter of its function
		}
		out.Predicates = append(out.Predicates, op)
	}
	out.Abstracted = a.abstractedNames()
	cs := a.cubes.Stats()
	a.stats.Predicates = len(a.preds)
	a.stats.Queries += cs.Queries - cs.Hits
	a.stats.CacheHits = cs.Hits
	a.stats.Unknowns += cs.Unknown
	a.stats.SolverTime += cs.SolverTime
	a.stats.Total = time.Since(start)
	out.Stats = a.stats
	if a.solverErr != nil {
		return nil, fmt.Errorf("c2bp: the solver failed: %v", a.solverErr)
	}
	if err := a.cubes.Err(); err != nil {
		return nil, fmt.Errorf("c2bp: the solver failed: %v", err)
	}
	return out, nil
}

// recordPreds reports the `[record T]` predicates of preds, each at its
// position, as an *UnsupportedError: a boolean program has no objects to
// hold one value per object, so only the on-the-fly abstraction
// (internal/apf) reads them.
func recordPreds(fset *source.FileSet, preds *predicate.File) error {
	var list source.ErrorList
	for _, p := range preds.Predicates {
		if p.Record != nil {
			list.Add(fset.Position(p.Expr.Pos()), fmt.Sprintf("a [record %s] predicate describes every object of %s: the C2bp abstraction has no per-object predicates (on-the-fly predicate abstraction, birch check --on-the-fly, reads them)", p.Record, p.Record))
		}
	}
	if len(list) == 0 {
		return nil
	}
	list.Sort()
	return &UnsupportedError{List: list}
}

// readPreds parses the predicates again against the query program and
// names their booleans.
func (a *abstractor) readPreds(preds *predicate.File, used map[string]bool) error {
	var lines []string
	for _, p := range preds.Predicates {
		lines = append(lines, p.String())
	}
	qf, err := predicate.ParseFile(a.q.prog, preds.Name, []byte(strings.Join(lines, "\n")))
	if err != nil || len(qf.Predicates) != len(preds.Predicates) {
		return fmt.Errorf("c2bp: internal error: the predicates do not check again: %v", err)
	}
	for i, p := range preds.Predicates {
		qp := qf.Predicates[i]
		name := uniqueName(used, fmt.Sprintf("p%d_%s", i+1, sanitize(p.Text)))
		a.preds = append(a.preds, &pred{conc: p, q: qp, name: name})
		if p.Proc == nil {
			continue
		}
		pos := p.Expr.Pos()
		if !p.Proc.Thread {
			qproc, _ := a.q.prog.Procs.LookupLocal(p.Proc.Name()).(*types.Proc)
			a.funcPreds[qproc] = append(a.funcPreds[qproc], a.preds[len(a.preds)-1])
			if !a.oneThread && readsShared(a.q.prog, qp) {
				a.unsupportedAt(pos, a.conc.Fset, "a [function %s] predicate that reads globals or the heap needs a model of one thread (another thread could change what it reads, and cannot update it)", p.Proc.Name())
			}
			continue
		}
		if why := oneInstance(a.conc, p.Proc); why != "" {
			a.unsupportedAt(pos, a.conc.Fset, "a [thread %s] predicate needs %s to have one instance: %s", p.Proc.Name(), p.Proc.Name(), why)
		}
		if qproc, ok := a.q.prog.Procs.LookupLocal(p.Proc.Name()).(*types.Proc); ok {
			a.threadPreds[qproc] = true
		}
	}
	return nil
}

// oneThread reports whether the model has one thread instance: one main
// thread and no start.
func oneThread(prog *types.Program) bool {
	mains := 0
	for _, t := range prog.Threads {
		if t.Main {
			mains++
		}
		if t.Started {
			return false
		}
	}
	return mains == 1
}

// readsShared reports whether a predicate reads a global or a field.
func readsShared(prog *types.Program, p *predicate.Predicate) bool {
	found := false
	ast.Inspect(p.Expr, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if v, ok := prog.Info.Uses[n].(*types.Var); ok && v.Kind == types.GlobalVar {
				found = true
			}
		case *ast.SelectorExpr:
			found = true
		case *ast.IndexExpr:
			if _, ok := prog.Info.TypeOf(n.X).Underlying().(*types.Ref); ok {
				found = true
			}
		}
		return !found
	})
	return found
}

// visible reports whether predicate p's boolean is in proc's scope: a
// global boolean, or a parameter of proc.
func (a *abstractor) visible(p *pred, proc *types.Proc) bool {
	return p.q.Proc == nil || p.q.Proc.Thread || p.q.Proc == proc
}

// modOf is what a function may write, itself or through its calls:
// globals (variables) and fields (by name, "field f").
func (a *abstractor) modOf(f *types.Proc) map[any]bool {
	if a.mods == nil {
		a.mods = map[*types.Proc]map[any]bool{}
		direct := map[*types.Proc]map[any]bool{}
		calls := map[*types.Proc][]*types.Proc{}
		info := a.q.prog.Info
		for _, p := range a.q.prog.Functions {
			m := map[any]bool{}
			direct[p] = m
			var root func(x ast.Expr)
			root = func(x ast.Expr) {
				switch l := ast.Unparen(x).(type) {
				case *ast.Ident:
					if v, ok := info.Uses[l].(*types.Var); ok && v.Kind == types.GlobalVar {
						m[v] = true
					}
				case *ast.SelectorExpr:
					m["field "+l.Sel.Name] = true
				case *ast.IndexExpr:
					if _, ok := info.TypeOf(l.X).Underlying().(*types.Ref); ok {
						m["heap arrays"] = true
					}
					root(l.X)
				}
			}
			for _, l := range p.Locations {
				ast.Inspect(l.Decl, func(n ast.Node) bool {
					switch x := n.(type) {
					case *ast.AssignAction:
						root(x.Lhs)
					case *ast.ChooseAction:
						root(x.Lhs)
					case *ast.NewAction:
						root(x.Lhs)
					case *ast.ForallAction:
						root(x.Lhs)
					case *ast.ReachableAction:
						root(x.Lhs)
					case *ast.StartAction:
						if x.Lhs != nil {
							root(x.Lhs)
						}
					case *ast.CallAction:
						if x.Lhs != nil {
							root(x.Lhs)
						}
						if c, ok := a.q.prog.Procs.LookupLocal(x.Func.Name).(*types.Proc); ok {
							calls[p] = append(calls[p], c)
						}
					}
					return true
				})
			}
		}
		for _, p := range a.q.prog.Functions {
			all := map[any]bool{}
			seen := map[*types.Proc]bool{p: true}
			stack := []*types.Proc{p}
			for len(stack) > 0 {
				q := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for k := range direct[q] {
					all[k] = true
				}
				for _, c := range calls[q] {
					if !seen[c] {
						seen[c] = true
						stack = append(stack, c)
					}
				}
			}
			a.mods[p] = all
		}
	}
	return a.mods[f]
}

// OneInstance says why thread t may have more than one instance, which a
// `[thread T]` predicate of T cannot abstract, or "" (the refinement loop
// leaves such predicates out).
func OneInstance(prog *types.Program, t *types.Proc) string { return oneInstance(prog, t) }

// oneInstance says why thread t may have more than one instance, or ""
// when it has at most one: a main thread that no start names, or a thread
// started by exactly one start, in a main thread that no start names, at
// a location on no cycle of that thread's locations.
func oneInstance(prog *types.Program, t *types.Proc) string {
	type site struct {
		proc *types.Proc
		loc  *types.Location
	}
	var sites []site
	for _, p := range append(append([]*types.Proc(nil), prog.Threads...), prog.Functions...) {
		for _, l := range p.Locations {
			ast.Inspect(l.Decl, func(n ast.Node) bool {
				if s, ok := n.(*ast.StartAction); ok && s.Thread.Name == t.Name() {
					sites = append(sites, site{p, l})
				}
				return true
			})
		}
	}
	switch {
	case t.Main && len(sites) == 0:
		return ""
	case t.Main:
		return "it is a main thread that is also started"
	case len(sites) != 1:
		return fmt.Sprintf("it is started by %d start actions", len(sites))
	}
	s := sites[0]
	if !s.proc.Thread || !s.proc.Main || s.proc.Started {
		return "it is started by " + s.proc.Name() + ", which is not a main thread with one instance"
	}
	if onCycle(s.loc) {
		return "it is started at " + s.proc.Name() + "'s location " + s.loc.Name() + ", which is on a cycle"
	}
	return ""
}

// onCycle reports whether a location can be reached again from itself.
func onCycle(l *types.Location) bool {
	seen := map[*types.Location]bool{}
	var stack []*types.Location
	next := func(x *types.Location) {
		for _, t := range x.Decl.Transformations {
			if t.Target == nil {
				continue
			}
			if y := x.Proc.Location(t.Target.Name); y != nil && !seen[y] {
				seen[y] = true
				stack = append(stack, y)
			}
		}
	}
	next(l)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == l {
			return true
		}
		next(x)
	}
	return false
}

// names lists every name the program and the predicate file use.
func names(prog *types.Program, preds *predicate.File) map[string]bool {
	used := map[string]bool{}
	ast.Inspect(prog.File, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	return used
}

// uniquePrefix returns a prefix that starts no used name.
func uniquePrefix(used map[string]bool, base string) string {
	for i := 1; ; i++ {
		p := base
		if i > 1 {
			p = fmt.Sprintf("%s%d_", strings.TrimSuffix(base, "_"), i)
		}
		clash := false
		for n := range used {
			if strings.HasPrefix(n, p) {
				clash = true
				break
			}
		}
		if !clash {
			return p
		}
	}
}

func uniqueName(used map[string]bool, base string) string {
	name := base
	for i := 2; used[name]; i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	used[name] = true
	return name
}

// sanitize turns a predicate's text into a part of a name: x < n gives
// x_lt_n.
func sanitize(text string) string {
	words := map[string]string{
		"<=": "le", ">=": "ge", "==": "eq", "!=": "ne", "&&": "and", "||": "or", "->": "imp", "<->": "iff",
		"<": "lt", ">": "gt", "+": "plus", "-": "minus", "*": "times", "/": "div", "%": "mod", "!": "not", ".": "_",
		"[": "_", "]": "", "(": "", ")": "",
	}
	var parts []string
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			j := i
			for j < len(text) && (text[j] == '_' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9') {
				j++
			}
			parts = append(parts, text[i:j])
			i = j
		case c == ' ' || c == '\t':
			i++
		default:
			matched := false
			for _, l := range []int{3, 2, 1} {
				if i+l <= len(text) {
					if w, ok := words[text[i:i+l]]; ok {
						if w != "" && w != "_" {
							parts = append(parts, w)
						}
						i += l
						matched = true
						break
					}
				}
			}
			if !matched {
				i++
			}
		}
	}
	s := strings.Join(parts, "_")
	if len(s) > 32 {
		s = strings.TrimRight(s[:32], "_")
	}
	return s
}

// abstractedNames lists the abstracted variables ("x", "Main.i") and
// fields ("Node.val"), sorted.
func (a *abstractor) abstractedNames() []string {
	var out []string
	fresh := map[*types.Var]bool{}
	for _, id := range a.q.fresh {
		fresh[a.q.prog.Info.Uses[id].(*types.Var)] = true
	}
	for v := range a.absVar {
		if fresh[v] {
			continue
		}
		name := v.Name()
		if v.Owner != nil {
			name = v.Owner.Name() + "." + name
		}
		out = append(out, name)
	}
	for _, tn := range a.q.prog.Types {
		if n := tn.Named(); n != nil {
			if r, ok := n.Underlying().(*types.Record); ok {
				for _, f := range r.Fields {
					if a.absField[f.Name()] {
						out = append(out, tn.Name()+"."+f.Name())
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// generate writes the abstract model's text and lists the origins of its
// transformations (Abstract not yet set).
func (a *abstractor) generate() ([]byte, []*Origin) {
	q := a.q.prog
	var b bytes.Buffer
	sys := q.File.System
	fmt.Fprintf(&b, "system %s ()\n", sys.Name.Name)
	nfresh := len(a.q.fresh)
	var origins []*Origin
	for i, d := range sys.Decls {
		if i < nfresh {
			continue // the query program's fresh variables
		}
		switch d := d.(type) {
		case *ast.ConstDecl:
			fmt.Fprintf(&b, "const %s = %s;\n", d.Name.Name, format.Expr(d.Value))
		case *ast.TypeDecl:
			t := d.Type
			if r, ok := t.(*ast.RecordType); ok {
				nr := &ast.RecordType{}
				for _, f := range r.Fields {
					if nf := a.keepNames(f, true); nf != nil {
						nr.Fields = append(nr.Fields, nf)
					}
				}
				t = nr
			}
			fmt.Fprintf(&b, "%s = %s;\n", d.Name.Name, format.TypeExpr(t))
		case *ast.ExtendsDecl:
			fmt.Fprintf(&b, "%s extends %s;\n", d.Sub.Name, d.Super.Name)
		case *ast.CollectionDecl:
			size := ""
			if d.Size != nil {
				size = " [" + format.Expr(d.Size) + "]"
			}
			fmt.Fprintf(&b, "%s : collection%s of %s;\n", d.Name.Name, size, d.Elem.Name)
		case *ast.VarDecl:
			if nd := a.keepNames(d, false); nd != nil {
				b.WriteString(varDeclText(nd) + ";\n")
			}
		}
	}
	// the predicates' booleans, and the return predicates'
	a.retSlots()
	for _, p := range a.preds {
		if p.q.Proc != nil && !p.q.Proc.Thread {
			continue // a parameter of its function
		}
		fmt.Fprintf(&b, "%s : boolean := %s; // %s\n", p.name, a.initial(p), p.conc.String())
	}
	for _, f := range a.q.prog.Functions { // in order: the text is the same each time
		for _, s := range a.slotsOf[f] {
			fmt.Fprintf(&b, "%s : boolean := false; // %s after a return\n", s.name, s.p.conc.String())
		}
	}
	for i, d := range sys.Decls {
		if i < nfresh {
			continue
		}
		switch d := d.(type) {
		case *ast.ThreadDecl:
			p, _ := q.Procs.LookupLocal(d.Name.Name).(*types.Proc)
			head := "thread"
			if d.Main {
				head = "main thread"
			}
			origins = append(origins, a.proc(&b, p, head, d.Name.Name, d.Body, "")...)
		case *ast.FunctionDecl:
			p, _ := q.Procs.LookupLocal(d.Name.Name).(*types.Proc)
			result := ""
			if d.Result != nil && !abstractType(p.Result) {
				result = " : " + format.TypeExpr(d.Result)
			}
			origins = append(origins, a.proc(&b, p, "function", d.Name.Name, d.Body, result)...)
		}
	}
	a.sections(&b, sys)
	fmt.Fprintf(&b, "end %s;\n", sys.Name.Name)
	return b.Bytes(), origins
}

// keepNames returns d with its abstracted names left out (nil if none is
// left); fields by name.
func (a *abstractor) keepNames(d *ast.VarDecl, field bool) *ast.VarDecl {
	nd := *d
	nd.Names = nil
	for _, n := range d.Names {
		if field {
			if a.absField[n.Name] {
				continue
			}
		} else if v, ok := a.q.prog.Info.Defs[n].(*types.Var); ok && a.isAbs(v) {
			continue
		}
		nd.Names = append(nd.Names, n)
	}
	if len(nd.Names) == 0 {
		return nil
	}
	return &nd
}

func varDeclText(d *ast.VarDecl) string {
	var ns []string
	for _, n := range d.Names {
		ns = append(ns, n.Name)
	}
	s := strings.Join(ns, ", ") + " : " + format.TypeExpr(d.Type)
	if d.Init != nil {
		s += " := " + format.Expr(d.Init)
	}
	return s
}

// proc writes a thread's abstract text.
func (a *abstractor) proc(b *bytes.Buffer, p *types.Proc, head, name string, body *ast.Body, result string) []*Origin {
	var params []string
	for _, d := range body.Params {
		if nd := a.keepNames(d, false); nd != nil {
			params = append(params, varDeclText(nd))
		}
	}
	for _, fp := range a.funcPreds[p] {
		params = append(params, fp.name+" : boolean")
	}
	fmt.Fprintf(b, "%s %s (%s)%s\n", head, name, strings.Join(params, ", "), result)
	for _, d := range body.Locals {
		if nd := a.keepNames(d, false); nd != nil {
			b.WriteString(varDeclText(nd) + ";\n")
		}
	}
	cp := a.q.procs[p]
	var trans [][]*absTrans
	maxT, maxC := 0, 0
	for _, l := range p.Locations {
		var ts []*absTrans
		for _, t := range l.Decl.Transformations {
			at := a.transformation(p, t)
			a.stats.Transformations++
			ts = append(ts, at)
			maxT, maxC = max(maxT, at.nt), max(maxC, at.nc)
		}
		trans = append(trans, ts)
	}
	// BIR's rule for choose actions: between one source and one target,
	// all transformations choose or none does
	needZ := false
	for _, ts := range trans {
		groups := map[string][]*absTrans{}
		for _, t := range ts {
			groups[t.key] = append(groups[t.key], t)
		}
		for _, g := range groups {
			some := false
			for _, t := range g {
				some = some || t.choose
			}
			if !some {
				continue
			}
			for _, t := range g {
				if !t.choose {
					t.choices = append([]step{{text: a.prefix + "z := internChoose(false);", choose: true}}, t.choices...)
					t.choose = true
					needZ = true
				}
			}
		}
	}
	var temps []string
	for i := 1; i <= maxT; i++ {
		temps = append(temps, fmt.Sprintf("%st%d", a.prefix, i))
	}
	for i := 1; i <= maxC; i++ {
		temps = append(temps, fmt.Sprintf("%sc%d", a.prefix, i))
	}
	if needZ {
		temps = append(temps, a.prefix+"z")
	}
	if len(temps) > 0 {
		fmt.Fprintf(b, "%s : boolean;\n", strings.Join(temps, ", "))
	}
	var refs []string
	for typ, name := range a.refTemps[p] {
		refs = append(refs, name+" : "+typ+";\n")
	}
	sort.Strings(refs)
	for _, r := range refs {
		b.WriteString(r)
	}
	var origins []*Origin
	for li, l := range p.Locations {
		fmt.Fprintf(b, "loc %s:", l.Name())
		if l.Decl.Live != nil {
			var live []string
			for _, id := range l.Decl.Live.Names {
				if v, ok := a.q.prog.Info.Uses[id].(*types.Var); ok && a.isAbs(v) {
					continue
				}
				live = append(live, id.Name)
			}
			// the function's predicates are its variables here: each
			// transformation gives them their values at its target (a
			// dead variable's reset included), so none is reset by the
			// live set (left out, x == 7 was reset to false on arrival:
			// a wrong pass, TestFunctionPredicatesLiveSets in verify)
			for _, fp := range a.funcPreds[p] {
				live = append(live, fp.name)
			}
			fmt.Fprintf(b, " live { %s }", strings.Join(live, ", "))
		}
		b.WriteString("\n")
		for ti, t := range trans[li] {
			all := t.all()
			o := &Origin{Proc: cp, Location: cp.Locations[li], Transformation: cp.Locations[li].Decl.Transformations[ti], Index: ti}
			var acts []string
			for k, s := range all {
				acts = append(acts, s.text)
				if s.err != nil {
					if o.Errors == nil {
						o.Errors = map[int]ErrorOutcome{}
					}
					o.Errors[k] = *s.err
				}
			}
			fmt.Fprintf(b, "when %s do { %s } %s\n", t.guard, strings.Join(acts, " "), t.end)
			origins = append(origins, o)
		}
	}
	// the steps added after calls
	for _, ts := range trans {
		for _, t := range ts {
			if t.ret != "" {
				fmt.Fprintf(b, "loc %s:\n%s\n", a.retName(p, t.qt), t.ret)
			}
		}
	}
	fmt.Fprintf(b, "end %s;\n", name)
	return origins
}

// sections writes the predicates and properties sections: the model's
// predicates that read no abstracted data, invariants as low(inv); ltl
// properties are left out (an over-approximation of the guards does not
// preserve them).
func (a *abstractor) sections(b *bytes.Buffer, sys *ast.System) {
	q := a.q.prog
	dropped := map[*types.Predicate]bool{}
	if sys.Predicates != nil && len(sys.Predicates.Predicates) > 0 {
		var kept []string
		for _, d := range sys.Predicates.Predicates {
			if a.readsAbsDeep(d.Expr, map[*types.Predicate]bool{}) {
				if p, ok := q.Info.Defs[d.Name].(*types.Predicate); ok {
					dropped[p] = true
				}
				continue
			}
			kept = append(kept, fmt.Sprintf("%s = %s;", d.Name.Name, format.Expr(d.Expr)))
		}
		if len(kept) > 0 {
			b.WriteString("predicates\n" + strings.Join(kept, "\n") + "\n")
		}
	}
	if sys.Properties == nil {
		return
	}
	var props []string
	for _, d := range sys.Properties.Properties {
		prop, _ := q.Info.Defs[d.Name].(*types.Property)
		if prop == nil || prop.LTL {
			continue
		}
		x := d.Expr
		usesDropped := false
		ast.Inspect(d.Expr, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if p, ok := q.Info.Uses[id].(*types.Predicate); ok && dropped[p] {
					usesDropped = true
				}
			}
			return true
		})
		if usesDropped {
			// the model's predicates written out, checked again
			y, err := a.parseCheck(inlinePredicates(q, d.Expr, 0), nil)
			if err != nil {
				a.unsupported(d, "invariant %s reads abstracted data through a predicate of the model", d.Name.Name)
				continue
			}
			x = y
		}
		inv := format.Expr(x)
		if a.readsAbs(x) {
			inv = a.low(x, nil)
		}
		props = append(props, fmt.Sprintf("invariant %s: %s;", d.Name.Name, inv))
	}
	if len(props) > 0 {
		b.WriteString("properties\n" + strings.Join(props, "\n") + "\n")
	}
}

// inlinePredicates is the text of x with the model's predicates it names
// written out in parentheses (to a depth of 100: the checker has ruled out
// cycles).
func inlinePredicates(prog *types.Program, x ast.Expr, depth int) string {
	if depth > 100 {
		return format.Expr(x)
	}
	return format.Expr(rewrite(x, func(n ast.Expr) ast.Expr {
		id, ok := n.(*ast.Ident)
		if !ok {
			return n
		}
		p, ok := prog.Info.Uses[id].(*types.Predicate)
		if !ok {
			return n
		}
		return &ast.Ident{NamePos: id.NamePos, Name: "(" + inlinePredicates(prog, p.Decl.Expr, depth+1) + ")"}
	}))
}

// rewrite copies x with f applied to each of its expressions, innermost
// first (x itself is not modified).
func rewrite(x ast.Expr, f func(ast.Expr) ast.Expr) ast.Expr {
	if x == nil {
		return nil
	}
	var y ast.Expr
	switch x := x.(type) {
	case *ast.ParenExpr:
		c := *x
		c.X = rewrite(x.X, f)
		y = &c
	case *ast.UnaryExpr:
		c := *x
		c.X = rewrite(x.X, f)
		y = &c
	case *ast.BinaryExpr:
		c := *x
		c.X, c.Y = rewrite(x.X, f), rewrite(x.Y, f)
		y = &c
	case *ast.SelectorExpr:
		c := *x
		c.X = rewrite(x.X, f)
		y = &c
	case *ast.LengthExpr:
		c := *x
		c.X = rewrite(x.X, f)
		y = &c
	case *ast.IndexExpr:
		c := *x
		c.X, c.Index = rewrite(x.X, f), rewrite(x.Index, f)
		y = &c
	case *ast.InstanceofExpr:
		c := *x
		c.X = rewrite(x.X, f)
		y = &c
	case *ast.BuiltinExpr:
		c := *x
		c.X = rewrite(x.X, f)
		y = &c
	case *ast.LocationTest:
		c := *x
		c.Instance = rewrite(x.Instance, f)
		y = &c
	case *ast.RemoteRef:
		c := *x
		c.Instance, c.X = rewrite(x.Instance, f), rewrite(x.X, f)
		y = &c
	default:
		y = x
	}
	return f(y)
}

// readsAbsDeep is readsAbs through the model's predicates.
func (a *abstractor) readsAbsDeep(x ast.Expr, seen map[*types.Predicate]bool) bool {
	if a.readsAbs(x) {
		return true
	}
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !found {
			if p, ok := a.q.prog.Info.Uses[id].(*types.Predicate); ok && !seen[p] {
				seen[p] = true
				found = a.readsAbsDeep(p.Decl.Expr, seen)
			}
		}
		return !found
	})
	return found
}

// initial decides a predicate's value in the initial state.
func (a *abstractor) initial(p *pred) string {
	if p.real == nil {
		a.unsupportedAt(p.conc.Expr.Pos(), a.conc.Fset, "the initial value of %s is unknown (the solver cannot encode it)", p.conc.Text)
		return "false"
	}
	// every variable has its initial value, and every field or element
	// the predicate reads its type's default: no object exists yet, and a
	// read through null or out of bounds (a value the encoding gives but
	// no step can write) is taken to be the default too
	var eqs []*smt.Term
	bad := false
	pin := func(x ast.Expr, val string, ok bool) {
		if !ok {
			bad = true
			return
		}
		eq, err := a.mkEq(x, val)
		if err != nil {
			bad = true
			return
		}
		t, _, err := a.enc.FormulaDomain(eq)
		if err != nil {
			bad = true
			return
		}
		eqs = append(eqs, t)
	}
	ast.Inspect(p.q.Expr, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			v, ok := a.q.prog.Info.Uses[x].(*types.Var)
			if !ok || v.Kind == types.FieldVar {
				return true
			}
			if _, isArray := v.Type().Underlying().(*types.Array); isArray {
				return true // its elements are pinned where they are read
			}
			val, ok := initText(v)
			pin(x, val, ok)
		case *ast.SelectorExpr, *ast.IndexExpr:
			if t := a.q.prog.Info.TypeOf(x.(ast.Expr)); t != nil {
				if _, isArray := t.Underlying().(*types.Array); !isArray {
					val, ok := defaultText(t)
					pin(x.(ast.Expr), val, ok)
				}
			}
		}
		return true
	})
	if !bad {
		init := a.tm.And(eqs...)
		a.stats.Queries += 2
		if ok, _ := smt.Implies(a.solver, init, p.real); ok {
			return "true"
		}
		if ok, _ := smt.Implies(a.solver, init, a.tm.Not(p.real)); ok {
			return "false"
		}
	}
	a.unsupportedAt(p.conc.Expr.Pos(), a.conc.Fset, "the initial value of %s is unknown to the solver", p.conc.Text)
	return "false"
}

// mkEq builds x == val (BIR text of a constant), typed in the query
// program.
func (a *abstractor) mkEq(x ast.Expr, val string) (ast.Expr, error) {
	y, err := a.parseCheck(val, nil)
	if err != nil {
		return nil, err
	}
	e := &ast.BinaryExpr{X: x, Op: token.EQL, Y: y}
	a.q.prog.Info.Types[e] = types.TypeAndValue{Type: types.Typ[types.Bool]}
	return e, nil
}

// initText is the initial value of a variable as BIR text.
func initText(v *types.Var) (string, bool) {
	t := v.Type().Underlying()
	if v.Init.Kind == types.NoConst {
		return defaultText(t)
	}
	switch v.Init.Kind {
	case types.IntConst:
		if e, ok := t.(*types.Enum); ok {
			for _, c := range e.Consts {
				if c.Ordinal == v.Init.Int {
					return c.Name(), true
				}
			}
			return "", false
		}
		return fmt.Sprint(v.Init.Int), true
	case types.BoolConst:
		return fmt.Sprint(v.Init.Bool), true
	case types.NullConst:
		return "null", true
	}
	return "", false
}

// defaultText is the default value of a scalar type as BIR text.
func defaultText(t types.Type) (string, bool) {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch u.Kind {
		case types.Bool:
			return "false", true
		case types.Int:
			return "0", true
		}
	case *types.Range:
		if u.Lo <= 0 && 0 <= u.Hi {
			return "0", true
		}
		return fmt.Sprint(u.Lo), true
	case *types.Enum:
		return u.Consts[0].Name(), true
	case *types.Ref:
		return "null", true
	}
	return "", false
}
