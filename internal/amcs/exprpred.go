package amcs

import (
	"fmt"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/types"
	"birch/internal/model"
)

// exprPred is an expression predicate: a boolean BIR expression over the
// globals (proc nil) or in the scope of a thread or function, evaluated
// once per frame of that proc in a state (one value per frame, in frame
// order: the instances of the predicate). A predicate file's predicates,
// the weakest preconditions of the AMCS variants and the guards of
// transformations are expression predicates.
type exprPred struct {
	expr ast.Expr
	proc *types.Proc
	text string // as a line of a predicate file: "[thread T] x > 0"
}

func newExprPred(x ast.Expr, proc *types.Proc) *exprPred {
	p := &predicate.Predicate{Expr: x, Proc: proc, Text: format.Expr(x)}
	return &exprPred{expr: x, proc: proc, text: p.String()}
}

// Values of an instance of a predicate on a state. A predicate whose
// evaluation fails on a state (an index out of bounds, a null reference)
// has the third value there: the abstraction stays a function of the
// concrete state, and the formulas of the precision check claim nothing
// about it.
const (
	valFalse = iota
	valTrue
	valUndef
)

// literal is the value of one instance of a predicate on a state.
type literal struct {
	pred  int // index in exprSet.list
	frame int // index in the state's frames; -1 for a predicate of the globals
	val   uint8
}

// exprSet is the current set Φ of expression predicates, compiled for the
// model's evaluator. Its text identifies a predicate: two predicates of
// one scope with one text are one predicate (a scope's identifiers name
// its variables, then the globals).
type exprSet struct {
	m    *model.Model
	list []*exprPred
	ids  map[string]bool
	fe   *model.FrameEvaluator

	frames []model.Frame // of the state lits described
	lits   []literal
}

func newExprSet(m *model.Model) *exprSet {
	return &exprSet{m: m, ids: map[string]bool{}}
}

// compiles reports whether the model's evaluator compiles p; the error
// says why not.
func (es *exprSet) compiles(p *exprPred) error {
	_, err := es.m.NewFrameEvaluator([]ast.Expr{p.expr}, []*types.Proc{p.proc})
	return err
}

// has reports whether Φ holds a predicate with p's text.
func (es *exprSet) has(p *exprPred) bool { return es.ids[p.text] }

// add adds p unless Φ has it already; call compile before evaluating.
func (es *exprSet) add(p *exprPred) bool {
	if es.ids[p.text] {
		return false
	}
	es.ids[p.text] = true
	es.list = append(es.list, p)
	return true
}

// compile compiles the predicates for eval.
func (es *exprSet) compile() error {
	conds := make([]ast.Expr, len(es.list))
	procs := make([]*types.Proc, len(es.list))
	for i, p := range es.list {
		conds[i], procs[i] = p.expr, p.proc
	}
	fe, err := es.m.NewFrameEvaluator(conds, procs)
	if err != nil {
		return err
	}
	es.fe = fe
	return nil
}

// eval evaluates every instance of the predicates on state into es.lits
// (predicate by predicate, each one's instances in frame order), with the
// state's frames in es.frames.
func (es *exprSet) eval(state []byte) {
	es.frames = es.m.Frames(state, es.frames[:0])
	es.lits = es.lits[:0]
	if len(es.list) == 0 {
		return
	}
	es.fe.Load(state)
	for i, p := range es.list {
		if p.proc == nil {
			es.lits = append(es.lits, literal{i, -1, es.value(i, 0, 0)})
			continue
		}
		for k, f := range es.frames {
			if f.Proc == p.proc {
				es.lits = append(es.lits, literal{i, k, es.value(i, f.Thread, f.Depth)})
			}
		}
	}
}

func (es *exprSet) value(i, thread, depth int) uint8 {
	v, err := es.fe.Eval(i, thread, depth)
	switch {
	case err != nil:
		return valUndef
	case v:
		return valTrue
	}
	return valFalse
}

// appendKey appends the values of es.lits, two bits each.
func (es *exprSet) appendKey(key []byte) []byte {
	var b byte
	for i, l := range es.lits {
		b |= l.val << (2 * (i % 4))
		if i%4 == 3 {
			key = append(key, b)
			b = 0
		}
	}
	if len(es.lits)%4 != 0 {
		key = append(key, b)
	}
	return key
}

// texts lists the predicates as text.
func (es *exprSet) texts() []string {
	out := make([]string, len(es.list))
	for i, p := range es.list {
		out[i] = p.text
	}
	return out
}

// mapIdents returns x with each identifier id replaced by f(id) (f returns
// id to keep it), rebuilding only the nodes above a replaced one; a
// rebuilt node gets its original's type in info. It fails on a form it
// does not know.
func mapIdents(info *types.Info, x ast.Expr, f func(*ast.Ident) *ast.Ident) (ast.Expr, error) {
	var err error
	var walk func(x ast.Expr) ast.Expr
	rec := func(old, new ast.Expr) ast.Expr {
		if tv, ok := info.Types[old]; ok {
			info.Types[new] = tv
		}
		return new
	}
	walk = func(x ast.Expr) ast.Expr {
		if err != nil {
			return x
		}
		switch x := x.(type) {
		case *ast.Ident:
			return f(x)
		case *ast.BasicLit:
			return x
		case *ast.ParenExpr:
			if y := walk(x.X); y != x.X {
				return rec(x, &ast.ParenExpr{Lparen: x.Lparen, X: y, Rparen: x.Rparen})
			}
			return x
		case *ast.UnaryExpr:
			if y := walk(x.X); y != x.X {
				return rec(x, &ast.UnaryExpr{OpPos: x.OpPos, Op: x.Op, X: y})
			}
			return x
		case *ast.BinaryExpr:
			a, b := walk(x.X), walk(x.Y)
			if a != x.X || b != x.Y {
				return rec(x, &ast.BinaryExpr{X: a, OpPos: x.OpPos, Op: x.Op, Y: b})
			}
			return x
		case *ast.ConvExpr:
			if y := walk(x.X); y != x.X {
				return rec(x, &ast.ConvExpr{Type: x.Type, Lparen: x.Lparen, X: y, Rparen: x.Rparen})
			}
			return x
		case *ast.SelectorExpr:
			if y := walk(x.X); y != x.X {
				return rec(x, &ast.SelectorExpr{X: y, Sel: x.Sel})
			}
			return x
		case *ast.LengthExpr:
			if y := walk(x.X); y != x.X {
				return rec(x, &ast.LengthExpr{X: y, LengthPos: x.LengthPos})
			}
			return x
		case *ast.IndexExpr:
			a, i := walk(x.X), walk(x.Index)
			if a != x.X || i != x.Index {
				return rec(x, &ast.IndexExpr{X: a, Lbrack: x.Lbrack, Index: i, Rbrack: x.Rbrack})
			}
			return x
		case *ast.BuiltinExpr:
			if y := walk(x.X); y != x.X {
				return rec(x, &ast.BuiltinExpr{OpPos: x.OpPos, Op: x.Op, Lparen: x.Lparen, X: y, Rparen: x.Rparen})
			}
			return x
		case *ast.LocationTest, *ast.RemoteRef:
			return x // reads another thread's frame, named there
		case *ast.InstanceofExpr:
			if y := walk(x.X); y != x.X {
				return rec(x, &ast.InstanceofExpr{X: y, InstanceofPos: x.InstanceofPos, Type: x.Type})
			}
			return x
		}
		err = fmt.Errorf("%s: a form the AMCS predicates do not rename", format.Expr(x))
		return x
	}
	y := walk(x)
	return y, err
}
