package c2bp

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// The query program is the concrete program printed and checked again,
// with one global added for each choice of a range or a type (abs_fresh_k,
// of the choice's type): the abstraction reads every formula in it. A choice
// x := externChoose(T) of abstracted data becomes, for the weakest
// preconditions, the assignment x := abs_fresh_k of a variable that no
// predicate reads and that the cube queries quantify universally, which
// is the choice's meaning (φ holds after it for every value of T). The
// query program is never run; its nodes map back to the concrete ones
// (back) for positions.
type query struct {
	prog  *types.Program
	back  map[ast.Node]ast.Node            // query node -> concrete node
	fresh map[*ast.ChooseAction]*ast.Ident // query choice -> its fresh variable
	procs map[*types.Proc]*types.Proc      // query proc -> concrete proc
}

// freshPrefix is the prefix of the added globals; it is made unique
// against the program's names by newQuery.
func newQuery(conc *types.Program, prefix string) (*query, error) {
	var buf bytes.Buffer
	if err := format.File(&buf, nil, conc.File); err != nil {
		return nil, err
	}
	text := buf.Bytes()
	fs := source.NewFileSet()
	f, err := parser.ParseFile(fs, conc.File.Name, text, 0)
	if err != nil || f.System == nil {
		return nil, fmt.Errorf("the concrete model does not print back: %v", err)
	}
	// one global per choice of a range or a type, in the order of the
	// source
	var decls strings.Builder
	k := 0
	ast.Inspect(conc.File.System, func(n ast.Node) bool {
		a, ok := n.(*ast.ChooseAction)
		if !ok || a.Values != nil {
			return true
		}
		k++
		fmt.Fprintf(&decls, "%sfresh_%d : %s;\n", prefix, k, choiceType(conc, a))
		return true
	})
	off := fs.File(f.System.Rparen).Offset(f.System.Rparen) + 1
	src := append(append(append([]byte(nil), text[:off]...), "\n"+decls.String()...), text[off:]...)
	qfs := source.NewFileSet()
	qf, err := parser.ParseFile(qfs, conc.File.Name, src, 0)
	if err != nil {
		return nil, fmt.Errorf("the query program does not parse: %v", err)
	}
	qp, err := types.Check(qfs, qf, nil)
	if err != nil {
		return nil, fmt.Errorf("the query program does not check: %v", err)
	}
	q := &query{prog: qp, back: map[ast.Node]ast.Node{}, fresh: map[*ast.ChooseAction]*ast.Ident{},
		procs: map[*types.Proc]*types.Proc{}}
	// zip the nodes of the two systems, the added declarations left out
	cs, qs := conc.File.System, qf.System
	if len(qs.Decls) != len(cs.Decls)+k {
		return nil, fmt.Errorf("the query program has %d declarations, want %d", len(qs.Decls), len(cs.Decls)+k)
	}
	var cn, qn []ast.Node
	collect := func(out *[]ast.Node) func(ast.Node) bool {
		return func(n ast.Node) bool {
			if n != nil {
				*out = append(*out, n)
			}
			return true
		}
	}
	for i, d := range cs.Decls {
		ast.Inspect(d, collect(&cn))
		ast.Inspect(qs.Decls[i+k], collect(&qn))
	}
	if cs.Predicates != nil && qs.Predicates != nil {
		ast.Inspect(cs.Predicates, collect(&cn))
		ast.Inspect(qs.Predicates, collect(&qn))
	}
	if cs.Properties != nil && qs.Properties != nil {
		ast.Inspect(cs.Properties, collect(&cn))
		ast.Inspect(qs.Properties, collect(&qn))
	}
	if len(cn) != len(qn) {
		return nil, fmt.Errorf("the query program has %d nodes, want %d", len(qn), len(cn))
	}
	for i := range cn {
		if fmt.Sprintf("%T", cn[i]) != fmt.Sprintf("%T", qn[i]) {
			return nil, fmt.Errorf("the query program differs from the model at %s", conc.Fset.Position(cn[i].Pos()))
		}
		q.back[qn[i]] = cn[i]
	}
	k = 0
	for _, n := range qn {
		if a, ok := n.(*ast.ChooseAction); ok && a.Values == nil {
			k++
			v, _ := qp.Lookup(fmt.Sprintf("%sfresh_%d", prefix, k)).(*types.Var)
			if v == nil {
				return nil, fmt.Errorf("the query program lacks %sfresh_%d", prefix, k)
			}
			id := &ast.Ident{NamePos: a.KwPos, Name: v.Name()}
			qp.Info.Uses[id] = v
			qp.Info.Types[id] = types.TypeAndValue{Type: v.Type()}
			q.fresh[a] = id
		}
	}
	for _, p := range append(append([]*types.Proc(nil), qp.Threads...), qp.Functions...) {
		c, _ := conc.Procs.LookupLocal(p.Name()).(*types.Proc)
		q.procs[p] = c
	}
	return q, nil
}

// choiceType is the type of a choice's fresh variable: the type of the
// type form, the range of a range form with constant bounds, int otherwise.
func choiceType(prog *types.Program, a *ast.ChooseAction) string {
	lo, okl := constInt(prog, a.Lo)
	hi, okh := constInt(prog, a.Hi)
	if !okl || !okh || lo > hi || lo == math.MinInt64 && hi == math.MaxInt64 {
		return "int"
	}
	return fmt.Sprintf("range %d..%d", lo, hi)
}

func constInt(prog *types.Program, x ast.Expr) (int64, bool) {
	if x == nil {
		return 0, false
	}
	tv := prog.Info.Types[x]
	return tv.Value.Int, tv.Value.Kind == types.IntConst
}

// pos is the concrete position of a query node (or of the nearest
// enclosing one the walk met).
func (q *query) pos(conc *types.Program, n ast.Node) source.Position {
	if c := q.back[n]; c != nil {
		return conc.Fset.Position(c.Pos())
	}
	return source.Position{}
}
