package boolprog

import (
	"birch/internal/source"
)

// The explicit checker runs on a control-flow graph per procedure, built
// from the tree and Resolve's tables. Values are bit vectors: bit i of a
// global valuation is Info.Globals[i], bit i of a local valuation is
// ProcInfo.Vars[i] (parameters first).

type nodeKind uint8

const (
	nSkip   nodeKind = iota // go to next
	nAssign                 // lhs := rhs, then next
	nCall                   // lhs := callee(rhs), then next
	nAssume                 // if cond may hold, next
	nAssert                 // if cond may fail, a violation; if it may hold, next
	nGoto                   // any of targets
	nBranch                 // next when cond may hold, alt when it may not
	nReturn                 // return rhs
	nExit                   // the procedure's end: return unconstrained values
)

type node struct {
	kind    nodeKind
	stmt    Stmt // nil for the exit node
	pos     source.Pos
	label   string // the label of stmt, if any
	next    int32
	alt     int32
	targets []int32
	cond    *cexpr
	lhs     []varRef
	rhs     []*cexpr
	callee  int32
}

type varRef struct {
	global bool
	bit    uint8
}

type procGraph struct {
	info    *ProcInfo
	nodes   []node
	entry   int32
	enforce *cexpr // nil when the procedure has no enforce
	nparams int
	nvars   int
}

// Expression opcodes.
const (
	eVar uint8 = iota
	eConst
	eNondet
	eChoose
	eNot
	eBinary
)

type cexpr struct {
	code uint8
	v    varRef
	val  bool
	op   Op
	x, y *cexpr
}

// Value sets: bit 0 set when false is possible, bit 1 when true is.
const (
	canFalse uint8 = 1
	canTrue  uint8 = 2
	either         = canFalse | canTrue
)

func (e *cexpr) eval(g, l uint64) uint8 {
	switch e.code {
	case eVar:
		w := l
		if e.v.global {
			w = g
		}
		if w>>e.v.bit&1 != 0 {
			return canTrue
		}
		return canFalse
	case eConst:
		if e.val {
			return canTrue
		}
		return canFalse
	case eNondet:
		return either
	case eChoose:
		t, f := e.x.eval(g, l), e.y.eval(g, l)
		var r uint8
		if t&canTrue != 0 {
			r |= canTrue
		}
		if t&canFalse != 0 {
			if f&canTrue != 0 {
				r |= canFalse
			}
			if f&canFalse != 0 {
				r |= either
			}
		}
		return r
	case eNot:
		x := e.x.eval(g, l)
		return x>>1 | x&1<<1
	}
	x, y := e.x.eval(g, l), e.y.eval(g, l)
	var r uint8
	for a := 0; a < 2; a++ {
		if x&(1<<a) == 0 {
			continue
		}
		for b := 0; b < 2; b++ {
			if y&(1<<b) != 0 {
				r |= valueSet(applyOp(e.op, a == 1, b == 1))
			}
		}
	}
	return r
}

func valueSet(b bool) uint8 {
	if b {
		return canTrue
	}
	return canFalse
}

func applyOp(op Op, a, b bool) bool {
	switch op {
	case Implies:
		return !a || b
	case Or:
		return a || b
	case Xor:
		return a != b
	case And:
		return a && b
	case Eq:
		return a == b
	}
	return a != b // Neq
}

type graphBuilder struct {
	info    *Info
	pi      *ProcInfo
	g       *procGraph
	labels  map[*LabeledStmt]int32
	pending []pendingGoto
}

type pendingGoto struct {
	node   int32
	target *LabeledStmt
}

// buildGraphs compiles every procedure of a resolved program.
func buildGraphs(info *Info) []*procGraph {
	graphs := make([]*procGraph, len(info.Procs))
	for i, pi := range info.Procs {
		b := &graphBuilder{info: info, pi: pi, labels: map[*LabeledStmt]int32{}}
		b.g = &procGraph{info: pi, nparams: len(pi.Proc.Params), nvars: len(pi.Vars)}
		b.add(node{kind: nExit, pos: pi.Proc.EndPos}) // node 0
		b.g.entry = b.list(pi.Proc.Body, 0)
		for _, p := range b.pending {
			b.g.nodes[p.node].targets = append(b.g.nodes[p.node].targets, b.labels[p.target])
		}
		if pi.Proc.Enforce != nil {
			b.g.enforce = b.expr(pi.Proc.Enforce)
		}
		graphs[i] = b.g
	}
	return graphs
}

func (b *graphBuilder) add(n node) int32 {
	b.g.nodes = append(b.g.nodes, n)
	return int32(len(b.g.nodes) - 1)
}

// list compiles a statement list whose successor is follow and returns its
// first node.
func (b *graphBuilder) list(list []Stmt, follow int32) int32 {
	for i := len(list) - 1; i >= 0; i-- {
		follow = b.stmt(list[i], follow, "")
	}
	return follow
}

func (b *graphBuilder) stmt(s Stmt, follow int32, label string) int32 {
	n := node{stmt: s, pos: s.Pos(), label: label, next: follow}
	switch s := s.(type) {
	case *LabeledStmt:
		id := b.stmt(s.Stmt, follow, s.Label.Name)
		b.labels[s] = id
		return id
	case *SkipStmt:
		n.kind = nSkip
	case *AssignStmt:
		n.kind = nAssign
		n.lhs = b.refs(s.Lhs)
		n.rhs = b.exprs(s.Rhs)
	case *CallStmt:
		n.kind = nCall
		n.lhs = b.refs(s.Lhs)
		n.rhs = b.exprs(s.Args)
		n.callee = int32(b.info.Callees[s].Index)
	case *AssumeStmt:
		n.kind = nAssume
		n.cond = b.expr(s.Cond)
	case *AssertStmt:
		n.kind = nAssert
		n.cond = b.expr(s.Cond)
	case *GotoStmt:
		n.kind = nGoto
		id := b.add(n)
		for _, x := range s.Targets {
			b.pending = append(b.pending, pendingGoto{id, b.info.Targets[x]})
		}
		return id
	case *ReturnStmt:
		n.kind = nReturn
		n.rhs = b.exprs(s.Results)
	case *IfStmt:
		n.kind = nBranch
		n.cond = b.expr(s.Cond)
		n.next = b.list(s.Then, follow)
		n.alt = follow
		if len(s.Else) > 0 {
			n.alt = b.list(s.Else, follow)
		}
	case *WhileStmt:
		n.kind = nBranch
		n.cond = b.expr(s.Cond)
		n.alt = follow
		id := b.add(n)
		body := b.list(s.Body, id)
		if len(s.Body) == 0 {
			body = id
		}
		b.g.nodes[id].next = body
		return id
	}
	return b.add(n)
}

func (b *graphBuilder) refs(list []*Ident) []varRef {
	out := make([]varRef, len(list))
	for i, x := range list {
		out[i] = b.ref(x)
	}
	return out
}

func (b *graphBuilder) ref(x *Ident) varRef {
	v := b.info.Uses[x]
	return varRef{global: v.Global(), bit: uint8(v.Index)}
}

func (b *graphBuilder) exprs(list []Expr) []*cexpr {
	out := make([]*cexpr, len(list))
	for i, e := range list {
		out[i] = b.expr(e)
	}
	return out
}

func (b *graphBuilder) expr(e Expr) *cexpr {
	switch e := e.(type) {
	case *Ident:
		return &cexpr{code: eVar, v: b.ref(e)}
	case *Const:
		return &cexpr{code: eConst, val: e.Value}
	case *Nondet:
		return &cexpr{code: eNondet}
	case *Choose:
		return &cexpr{code: eChoose, x: b.expr(e.True), y: b.expr(e.False)}
	case *Unary:
		return &cexpr{code: eNot, x: b.expr(e.X)}
	case *Binary:
		return &cexpr{code: eBinary, op: e.Op, x: b.expr(e.X), y: b.expr(e.Y)}
	}
	return &cexpr{code: eNondet}
}
