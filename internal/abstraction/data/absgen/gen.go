package absgen

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"birch/internal/abstraction/data"
	"birch/internal/abstraction/data/infer"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/parser"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// Generate writes the abstract model of prog given the result of abstract
// type inference, res (for prog). See the package documentation for the
// encoding. Errors are positioned in prog (a source.ErrorList) or, for an
// abstract model that does not type-check (a bug of the generator), say so.
func Generate(prog *types.Program, res *infer.Result, cfg Config) (out *Output, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("absgen: internal error: %v", r)
		}
	}()
	if cfg.MaxCases <= 0 {
		cfg.MaxCases = 4096
	}
	if cfg.Filename == "" {
		name := prog.File.Name
		ext := filepath.Ext(name)
		cfg.Filename = strings.TrimSuffix(name, ext) + ".abs" + ext
		if ext == "" {
			cfg.Filename = name + ".abs.bir"
		}
	}
	g := &gen{
		cfg: cfg, prog: prog, info: prog.Info, res: res, b: &strings.Builder{},
		names:   map[string]bool{},
		toks:    map[*data.Abstraction]*tokType{},
		coerce:  map[[2]*data.Abstraction]*data.Coercion{},
		conds:   map[*data.Abstraction][]ast.Expr{},
		mayPred: map[*types.Predicate]string{},
		decided: map[decideKey]data.Outcomes{},
	}
	g.program()
	if g.errs.Err() != nil {
		g.errs.Sort()
		var errs source.ErrorList
		for i, e := range g.errs {
			if i == 0 || e.Error() != g.errs[i-1].Error() {
				errs = append(errs, e)
			}
		}
		return nil, errs
	}
	src, _ := canonical(cfg.Filename, []byte(g.b.String()), g.spans)
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, cfg.Filename, src, 0)
	if err != nil {
		return nil, fmt.Errorf("absgen: the abstract model does not parse (a bug):\n%v", err)
	}
	aprog, err := types.Check(fset, f, nil)
	if err != nil {
		line := ""
		if list, ok := err.(source.ErrorList); ok && len(list) > 0 {
			if n := list[0].Pos.Line; n > 0 && n <= len(strings.Split(string(src), "\n")) {
				line = "\n\t" + strings.Split(string(src), "\n")[n-1]
			}
		}
		return nil, fmt.Errorf("absgen: the abstract model does not type-check (a bug):\n%v%s", err, line)
	}
	m := &Map{Concrete: prog, Abstract: aprog, byTrans: map[*ast.Transformation]*Origin{}}
	i := 0
	for _, d := range f.System.Decls {
		var body *ast.Body
		switch d := d.(type) {
		case *ast.ThreadDecl:
			body = d.Body
		case *ast.FunctionDecl:
			body = d.Body
		}
		if body == nil {
			continue
		}
		for _, l := range body.Locations {
			for _, t := range l.Transformations {
				if i >= len(g.origins) {
					return nil, fmt.Errorf("absgen: the abstract model has more transformations than generated (a bug)")
				}
				o := g.origins[i]
				o.Abstract = t
				m.byTrans[t] = o
				m.Origins = append(m.Origins, o)
				i++
			}
		}
	}
	if i != len(g.origins) {
		return nil, fmt.Errorf("absgen: the abstract model has fewer transformations than generated (a bug)")
	}
	m.spans = g.spans
	sort.SliceStable(m.spans, func(i, j int) bool {
		if m.spans[i].start != m.spans[j].start {
			return m.spans[i].start < m.spans[j].start
		}
		return m.spans[i].end > m.spans[j].end
	})
	return &Output{Source: src, Program: aprog, Map: m, Wraps: g.wraps()}, nil
}

type gen struct {
	cfg  Config
	prog *types.Program
	info *types.Info
	res  *infer.Result

	names   map[string]bool
	toks    map[*data.Abstraction]*tokType
	order   []*tokType
	coerce  map[[2]*data.Abstraction]*data.Coercion
	conds   map[*data.Abstraction][]ast.Expr
	mayPred map[*types.Predicate]string // the may-version of abstract predicates
	decided map[decideKey]data.Outcomes

	b       *strings.Builder
	spans   []span
	origins []*Origin
	errs    source.ErrorList
}

// tokType is the enum type of an abstraction's tokens.
type tokType struct {
	abs    *data.Abstraction
	name   string
	consts []string // by token index
}

func (g *gen) errorf(pos source.Pos, format string, args ...any) {
	g.errs.Addf(g.prog.Fset.Position(pos), format, args...)
}

// unique returns a name not used in the program nor generated before.
func (g *gen) unique(base string) string {
	var b strings.Builder
	for i, r := range base {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '-':
			b.WriteString("M")
		default:
			b.WriteRune('_')
		}
	}
	name := strings.TrimRight(b.String(), "_")
	if name == "" {
		name = "abs"
	}
	for n := 1; ; n++ {
		try := name
		if n > 1 {
			try = fmt.Sprintf("%s%d", name, n)
		}
		if !g.names[try] && token.Lookup(try) == token.IDENT {
			g.names[try] = true
			return try
		}
	}
}

// abstract returns a's token type, creating it.
func (g *gen) tokenType(a *data.Abstraction) *tokType {
	if t := g.toks[a]; t != nil {
		return t
	}
	t := &tokType{abs: a, name: g.unique(a.Name + "_t"), consts: make([]string, len(a.Tokens))}
	for i, tk := range a.Tokens {
		t.consts[i] = g.unique(a.Name + "_" + tk.Name)
	}
	g.toks[a] = t
	g.order = append(g.order, t)
	return t
}

// tok names token i of a.
func (g *gen) tok(a *data.Abstraction, i int) string { return g.tokenType(a).consts[i] }

// absOf returns the abstraction of an integer expression, or nil when it
// is concrete.
func (g *gen) absOf(x ast.Expr) *data.Abstraction {
	a := g.res.Exprs[x]
	if a == nil || a.Identity {
		return nil
	}
	return a
}

func (g *gen) varAbs(v *types.Var) *data.Abstraction {
	a := g.res.Vars[v]
	if a == nil || a.Identity {
		return nil
	}
	return a
}

func (g *gen) constInt(x ast.Expr) (int64, bool) {
	tv, ok := g.info.Types[x]
	if ok && tv.Value.Kind == types.IntConst {
		return tv.Value.Int, true
	}
	return 0, false
}

// coerceSet returns the tokens of to that token s of from may become.
func (g *gen) coerceSet(from, to *data.Abstraction, s int) data.Set {
	if from == to {
		return data.Set(0).With(s)
	}
	if len(to.Tokens) == 1 {
		return data.Set(1)
	}
	key := [2]*data.Abstraction{from, to}
	c, ok := g.coerce[key]
	if !ok {
		var err error
		c, err = data.Coerce(from, to, g.cfg.Data)
		if err != nil {
			c = nil
		}
		g.coerce[key] = c
	}
	if c == nil {
		return data.All(len(to.Tokens))
	}
	return c.Map[s]
}

// ruleCond returns rule i's condition as an expression.
func (g *gen) ruleCond(a *data.Abstraction, i int) ast.Expr {
	cs, ok := g.conds[a]
	if !ok {
		cs = make([]ast.Expr, len(a.Rules))
		for j, r := range a.Rules {
			if x, err := parser.ParseExpr(r.Cond); err == nil {
				cs[j] = x
			}
		}
		g.conds[a] = cs
	}
	return cs[i]
}

// span records that the abstract text from start to the current end
// stands for the concrete construct at pos.
func (g *gen) span(start int, pos source.Pos) {
	if pos.IsValid() {
		g.spans = append(g.spans, span{start, g.b.Len(), pos})
	}
}

func (g *gen) printf(format string, args ...any) { fmt.Fprintf(g.b, format, args...) }

// program writes the abstract system.
func (g *gen) program() {
	sys := g.prog.File.System
	ast.Inspect(g.prog.File, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			g.names[id.Name] = true
		}
		return true
	})
	// The token types come first; they are known only after the rest is
	// generated, so the rest is written to a second builder.
	for _, a := range g.usedAbstractions() {
		g.tokenType(a)
	}
	for _, p := range g.prog.Predicates {
		if p.Decl != nil && g.hasAbstract(p.Decl.Expr) {
			g.mayPred[p] = g.unique("abs_may_" + p.Name())
		}
	}
	start := g.b.Len()
	g.printf("system %s ()\n", sys.Name.Name)
	g.span(start, sys.Pos())
	g.printf("// The abstract model of %s, generated by birch abstract.\n", sys.Name.Name)
	if ws := g.wraps(); len(ws) > 0 {
		// what a pass of this model covers (Output.Wraps)
		g.printf("// Abstracted values are mathematical integers here: it does not cover the executions\n")
		g.printf("// of %s where one wraps around a fixed-width type, which it may at\n", sys.Name.Name)
		for _, w := range ws {
			g.printf("//   %s: %s\n", g.prog.Fset.Position(w.Pos), w.What)
		}
	}
	for _, t := range g.order {
		names := []string{t.consts[t.abs.Default]}
		for i, c := range t.consts {
			if i != t.abs.Default {
				names = append(names, c)
			}
		}
		g.printf("%s = enum { %s };\n", t.name, strings.Join(names, ", "))
	}
	for _, d := range sys.Decls {
		start := g.b.Len()
		switch d := d.(type) {
		case *ast.ConstDecl:
			g.printf("const %s = %s;\n", d.Name.Name, format.Expr(d.Value))
		case *ast.TypeDecl:
			if rt, ok := d.Type.(*ast.RecordType); ok {
				g.printf("%s = record {", d.Name.Name)
				for _, f := range rt.Fields {
					for _, id := range f.Names {
						v, _ := g.info.Defs[id].(*types.Var)
						g.printf(" %s : %s;", id.Name, g.typeText(v, f.Type))
						if v != nil && g.varAbs(v) != nil {
							g.checkDefault(v, id.Pos())
						}
					}
				}
				g.printf(" };\n")
			} else {
				g.printf("%s = %s;\n", d.Name.Name, format.TypeExpr(d.Type))
			}
		case *ast.ExtendsDecl:
			g.printf("%s extends %s;\n", d.Sub.Name, d.Super.Name)
		case *ast.CollectionDecl:
			if d.Size != nil {
				g.printf("%s : collection [%s] of %s;\n", d.Name.Name, format.Expr(d.Size), d.Elem.Name)
			} else {
				g.printf("%s : collection of %s;\n", d.Name.Name, d.Elem.Name)
			}
		case *ast.VarDecl:
			g.varDecl(d, "", ";\n")
		case *ast.ThreadDecl:
			g.proc(d)
		case *ast.FunctionDecl:
			g.proc(d)
		}
		g.span(start, d.Pos())
	}
	if s := sys.Predicates; s != nil {
		g.printf("predicates\n")
		for _, pd := range s.Predicates {
			start := g.b.Len()
			p, _ := g.info.Defs[pd.Name].(*types.Predicate)
			if p != nil && g.mayPred[p] != "" {
				may, must := g.boolForms(pd.Expr)
				g.printf("  %s = %s;\n", pd.Name.Name, must)
				g.span(start, pd.Pos())
				start = g.b.Len()
				g.printf("  %s = %s;\n", g.mayPred[p], may)
			} else {
				g.printf("  %s = %s;\n", pd.Name.Name, format.Expr(pd.Expr))
			}
			g.span(start, pd.Pos())
		}
	}
	if s := sys.Properties; s != nil {
		g.printf("properties\n")
		for _, pd := range s.Properties {
			start := g.b.Len()
			kw := "invariant"
			if pd.Kind == token.LTL {
				kw = "ltl"
			}
			g.printf("  %s %s: %s;\n", kw, pd.Name.Name, g.ltl(pd.Expr, true))
			g.span(start, pd.Pos())
		}
	}
	g.printf("end %s;\n", sys.Name.Name)
}

// usedAbstractions lists the abstractions of the result, in the order of
// their first variable or expression in the source.
func (g *gen) usedAbstractions() []*data.Abstraction {
	first := map[*data.Abstraction]source.Pos{}
	note := func(a *data.Abstraction, p source.Pos) {
		if a == nil || a.Identity {
			return
		}
		if q, ok := first[a]; !ok || p < q {
			first[a] = p
		}
	}
	for v, a := range g.res.Vars {
		note(a, v.Pos())
	}
	for x, a := range g.res.Exprs {
		note(a, x.Pos())
	}
	for x, a := range g.res.Tests {
		note(a, x.Pos())
	}
	var out []*data.Abstraction
	for a := range first {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool {
		if first[out[i]] != first[out[j]] {
			return first[out[i]] < first[out[j]]
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// typeText prints the type of variable v, declared with syntax te.
func (g *gen) typeText(v *types.Var, te ast.TypeExpr) string {
	if v == nil {
		return format.TypeExpr(te)
	}
	a := g.varAbs(v)
	if a == nil {
		return format.TypeExpr(te)
	}
	var text func(t types.Type) string
	text = func(t types.Type) string {
		if arr, ok := t.Underlying().(*types.Array); ok {
			return fmt.Sprintf("array [%d] of %s", arr.Len, text(arr.Elem))
		}
		return g.tokenType(a).name
	}
	return text(v.Type())
}

// defaultInt is the initial integer of a variable of type t without an
// initial value.
func defaultInt(t types.Type) int64 {
	if r, ok := t.Underlying().(*types.Range); ok && (r.Lo > 0 || r.Hi < 0) {
		return r.Lo
	}
	return 0
}

func elemType(t types.Type) types.Type {
	for {
		arr, ok := t.Underlying().(*types.Array)
		if !ok {
			return t
		}
		t = arr.Elem
	}
}

// checkDefault reports a field or array element whose concrete default is
// not abstracted by its abstraction's default token, the first constant of
// the enum (fields and elements cannot have initial values).
func (g *gen) checkDefault(v *types.Var, pos source.Pos) {
	a := g.varAbs(v)
	d := defaultInt(elemType(v.Type()))
	if t := a.Abstract64(d); t != a.Default {
		g.errorf(pos, "cannot abstract %s with %s: its initial value %d is %s, but a new %s field or element starts with the default token %s",
			infer.VarName(g.prog, v), a.Name, d, a.Tokens[t].Name, a.Name, a.Tokens[a.Default].Name)
	}
}

// varDecl writes a global, local or parameter declaration, one name at a
// time.
func (g *gen) varDecl(d *ast.VarDecl, indent, end string) {
	for _, id := range d.Names {
		start := g.b.Len()
		v, _ := g.info.Defs[id].(*types.Var)
		g.printf("%s%s : %s", indent, id.Name, g.typeText(v, d.Type))
		a := (*data.Abstraction)(nil)
		if v != nil {
			a = g.varAbs(v)
		}
		switch {
		case a != nil && v.Kind != types.ParamVar:
			if _, isArr := v.Type().Underlying().(*types.Array); isArr {
				g.checkDefault(v, id.Pos())
				if d.Init != nil {
					g.errorf(d.Init.Pos(), "cannot abstract the initial value of an array")
				}
				break
			}
			init := defaultInt(v.Type())
			if v.Init.Kind == types.IntConst {
				init = v.Init.Int
			} else if d.Init != nil {
				if c, ok := g.constInt(d.Init); ok {
					init = c
				}
			}
			if r, ok := v.Type().Underlying().(*types.Range); ok && r.Wrap {
				if w, ok := r.WrapValue(init); ok {
					init = w // the store of a constant wraps exactly (§5.12)
				}
			}
			g.printf(" := %s", g.tok(a, a.Abstract64(init)))
		case d.Init != nil:
			g.printf(" := %s", format.Expr(d.Init))
		}
		g.printf("%s", end)
		g.span(start, id.Pos())
	}
}
