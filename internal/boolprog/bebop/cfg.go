package bebop

import (
	"birch/internal/bdd"
	"birch/internal/boolprog"
	"birch/internal/source"
)

// kind is what a control-flow node does.
type kind int

const (
	kSkip   kind = iota // skip or goto: to every successor, state unchanged
	kAssign             // parallel assignment
	kCall               // call; succ[0] is the return site
	kAssume             // assume(cond)
	kAssert             // assert(cond)
	kBranch             // if or while: succ[0] when cond, succ[1] otherwise
	kReturn             // return results
	kEnd                // the procedure's end: returns unconstrained values
)

// cnode is one node of a procedure's control-flow graph: the point before a
// statement. Path edges are attached to nodes.
type cnode struct {
	id     int
	kind   kind
	proc   *proc
	stmt   boolprog.Stmt // nil for kEnd
	pos    source.Pos
	label  string          // the statement's label, if any
	header string          // the statement's first line, once a trail needs it
	lhs    []*boolprog.Var // assignment or call targets
	exprs  []boolprog.Expr // assignment right-hand sides, call arguments, return results
	cond   boolprog.Expr   // assume, assert, branch
	callee *proc           // kCall
	succ   []int           // see kind

	// The BDDs the transfer functions use, built by (*checker).prepare.
	rel     bdd.Node // assign: ∧ t'N ↔ e(C); call: ∧ X_j ↔ arg_j(C); return: ∧ N_i ↔ r_i(C)
	qcube   bdd.Node // variables quantified with rel
	condT   bdd.Node // ∃choices. cond
	condF   bdd.Node // ∃choices. ¬cond
	targets bdd.Node // cube of the targets' current copies
	retEq   bdd.Node // call with targets: ∧ t_i(C) ↔ N_i
}

// proc is a procedure and its control-flow graph.
type proc struct {
	info    *boolprog.ProcInfo
	entry   int   // node id of the first statement
	end     int   // node id of the end
	nodes   []int // node ids, entry first
	callers []int // call nodes (anywhere) that call this procedure
	exits   []int // return and end nodes

	enforce bdd.Node // ∃choices. enforce (True when none)
	entryEq bdd.Node // globals and formals: entry copy = current copy
}

func (p *proc) name() string { return p.info.Proc.Name.Name }

// builder turns a procedure's statements into nodes.
type builder struct {
	info   *boolprog.Info
	nodes  []*cnode
	proc   *proc
	labels map[*boolprog.LabeledStmt]int
	gotos  []gotoFix
}

type gotoFix struct {
	node    int
	targets []*boolprog.Ident
}

func (b *builder) add(n *cnode) int {
	n.id = len(b.nodes)
	n.proc = b.proc
	b.nodes = append(b.nodes, n)
	b.proc.nodes = append(b.proc.nodes, n.id)
	return n.id
}

func (b *builder) buildProc(p *proc) {
	b.proc = p
	b.labels = map[*boolprog.LabeledStmt]int{}
	b.gotos = nil
	pr := p.info.Proc
	p.end = b.add(&cnode{kind: kEnd, pos: pr.EndPos})
	p.exits = append(p.exits, p.end)
	p.entry = b.list(pr.Body, p.end)
	for _, g := range b.gotos {
		for _, x := range g.targets {
			if l, ok := b.info.Targets[x]; ok {
				b.nodes[g.node].succ = append(b.nodes[g.node].succ, b.labels[l])
			}
		}
	}
}

// list builds stmts, each followed by the next, the last by next; it
// returns the first node (next when stmts is empty).
func (b *builder) list(stmts []boolprog.Stmt, next int) int {
	for i := len(stmts) - 1; i >= 0; i-- {
		next = b.stmt(stmts[i], next)
	}
	return next
}

func (b *builder) vars(xs []*boolprog.Ident) []*boolprog.Var {
	vs := make([]*boolprog.Var, len(xs))
	for i, x := range xs {
		vs[i] = b.info.Uses[x]
	}
	return vs
}

func (b *builder) stmt(s boolprog.Stmt, next int) int {
	switch s := s.(type) {
	case *boolprog.LabeledStmt:
		n := b.stmt(s.Stmt, next)
		b.labels[s] = n
		if b.nodes[n].label == "" {
			b.nodes[n].label = s.Label.Name
		}
		return n
	case *boolprog.SkipStmt:
		return b.add(&cnode{kind: kSkip, stmt: s, pos: s.Pos(), succ: []int{next}})
	case *boolprog.AssignStmt:
		return b.add(&cnode{kind: kAssign, stmt: s, pos: s.Pos(), lhs: b.vars(s.Lhs), exprs: s.Rhs, succ: []int{next}})
	case *boolprog.CallStmt:
		n := &cnode{kind: kCall, stmt: s, pos: s.Pos(), lhs: b.vars(s.Lhs), exprs: s.Args, succ: []int{next}}
		return b.add(n)
	case *boolprog.AssumeStmt:
		return b.add(&cnode{kind: kAssume, stmt: s, pos: s.Pos(), cond: s.Cond, succ: []int{next}})
	case *boolprog.AssertStmt:
		return b.add(&cnode{kind: kAssert, stmt: s, pos: s.Pos(), cond: s.Cond, succ: []int{next}})
	case *boolprog.GotoStmt:
		n := b.add(&cnode{kind: kSkip, stmt: s, pos: s.Pos()})
		b.gotos = append(b.gotos, gotoFix{n, s.Targets})
		return n
	case *boolprog.ReturnStmt:
		n := b.add(&cnode{kind: kReturn, stmt: s, pos: s.Pos(), exprs: s.Results})
		b.proc.exits = append(b.proc.exits, n)
		return n
	case *boolprog.IfStmt:
		then := b.list(s.Then, next)
		els := b.list(s.Else, next)
		return b.add(&cnode{kind: kBranch, stmt: s, pos: s.Pos(), cond: s.Cond, succ: []int{then, els}})
	case *boolprog.WhileStmt:
		w := b.add(&cnode{kind: kBranch, stmt: s, pos: s.Pos(), cond: s.Cond})
		body := b.list(s.Body, w)
		b.nodes[w].succ = []int{body, next}
		return w
	}
	return next
}

// choices counts the `*` and schoose occurrences of e: each needs its own
// choice variable.
func choices(e boolprog.Expr) int {
	switch e := e.(type) {
	case *boolprog.Nondet:
		return 1
	case *boolprog.Choose:
		return 1 + choices(e.True) + choices(e.False)
	case *boolprog.Unary:
		return choices(e.X)
	case *boolprog.Binary:
		return choices(e.X) + choices(e.Y)
	}
	return 0
}

func (n *cnode) choices() int {
	k := 0
	for _, e := range n.exprs {
		k += choices(e)
	}
	if n.cond != nil {
		k += choices(n.cond)
	}
	return k
}
