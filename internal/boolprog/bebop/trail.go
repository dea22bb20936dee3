package bebop

import (
	"slices"
	"sort"

	"birch/internal/bdd"
	"birch/internal/boolprog"
)

// The trail is rebuilt backwards from the failing state. Every path edge
// and summary edge was added at a time (checker.time), and a fact added at
// time t follows, by one transfer function, from facts added before t. So
// each backward step picks a predecessor fact from those added strictly
// earlier, which ends: at a procedure's entry, whose facts come from a call
// (or, in main, are the initial states); and across a call, whose summary
// edge came from an exit fact of the callee, itself rebuilt the same way.

// pick returns one assignment of set, variables that do not matter false.
func (c *checker) pick(set bdd.Node) []bool {
	a := c.m.AnySat(set)
	if a == nil {
		return nil
	}
	vals := make([]bool, len(a))
	for i, x := range a {
		vals[i] = x == 1
	}
	return vals
}

// lits is the conjunction of literals fixing vars to their values in vals.
func (c *checker) lits(vals []bool, vars []int) bdd.Node {
	ls := make([]bdd.Node, len(vars))
	for i, v := range vars {
		ls[i] = c.lit(v, vals[v])
	}
	return c.m.AndAll(ls)
}

// litsAs fixes the variables to[i] to the values vals gives from[i].
func (c *checker) litsAs(vals []bool, from, to []int) bdd.Node {
	ls := make([]bdd.Node, len(from))
	for i, v := range from {
		ls[i] = c.lit(to[i], vals[v])
	}
	return c.m.AndAll(ls)
}

func (c *checker) globals(cp int) []int {
	vs := make([]int, c.g)
	for i := range vs {
		vs[i] = c.gvar(i, cp)
	}
	return vs
}

func (c *checker) slots(n, cp int) []int {
	vs := make([]int, n)
	for j := range vs {
		vs[j] = c.lvar(j, cp)
	}
	return vs
}

// tupleVars are the variables of p's path edges: entry globals and
// formals, current globals and variables.
func (c *checker) tupleVars(p *proc) []int {
	var vs []int
	if len(p.callers) > 0 {
		vs = append(c.globals(copyE), c.slots(len(p.info.Proc.Params), copyE)...)
	}
	vs = append(vs, c.globals(copyC)...)
	return append(vs, c.slots(len(p.info.Vars), copyC)...)
}

// before returns the set as it was before time t.
func (c *checker) before(hist []event, t int) bdd.Node {
	i := sort.Search(len(hist), func(i int) bool { return hist[i].t >= t })
	if i == 0 {
		return bdd.False
	}
	return hist[i-1].all
}

// timeOf returns the time fact was added (the sets only grow), or -1.
func (c *checker) timeOf(hist []event, fact bdd.Node) int {
	i := sort.Search(len(hist), func(i int) bool { return c.m.And(hist[i].all, fact) != bdd.False })
	if i == len(hist) {
		return -1
	}
	return hist[i].t
}

func (c *checker) makeStep(n *cnode, vals []bool, depth int) Step {
	c.trailSteps++
	if n.header == "" {
		n.header = "end"
		if n.stmt != nil {
			n.header = boolprog.StmtHeader(n.stmt) // one string, shared by the steps
		}
	}
	st := Step{Proc: n.proc.name(), Depth: depth, Pos: n.pos, Label: n.label, Stmt: n.header}
	for _, v := range c.info.Globals {
		st.Values = append(st.Values, Value{Name: v.Name, Global: true, Value: vals[c.vvar(v, copyC)]})
	}
	for _, v := range n.proc.info.Vars {
		st.Values = append(st.Values, Value{Name: v.Name, Value: vals[c.vvar(v, copyC)]})
	}
	return st
}

// trail returns the execution from main to the failing node, whose
// failing states are bad; nil if it cannot be rebuilt (a stop).
func (c *checker) trail(n *cnode, bad bdd.Node) []Step {
	vals := c.pick(bad)
	steps, entry := c.intra(n.id, vals, 0)
	if steps == nil || c.cut {
		return steps
	}
	for {
		p := n.proc
		te := c.timeOf(c.hist[p.entry], c.lits(entry, c.tupleVars(p)))
		if p == c.byPI[c.info.Main] && te == c.hist[p.entry][0].t {
			break // an initial state
		}
		found := false
		for _, id := range p.callers {
			call := c.nodes[id]
			a := c.actuals(call, c.before(c.hist[id], te))
			a = c.m.And(a, c.litsAs(entry, c.globals(copyE), c.globals(copyC)))
			a = c.m.And(a, c.litsAs(entry, c.slots(len(p.info.Proc.Params), copyE), c.slots(len(p.info.Proc.Params), copyX)))
			if a == bdd.False {
				continue
			}
			w := c.pick(a)
			prefix, e := c.intra(id, w, 0)
			if prefix == nil {
				return nil
			}
			for i := range steps {
				steps[i].Depth++
			}
			steps = append(prefix, steps...)
			if c.cut {
				return steps
			}
			n, entry, found = call, e, true
			break
		}
		if !found || c.stop() != "" {
			return nil
		}
	}
	return steps
}

// intra returns the steps from the entry of node id's procedure to id,
// reaching id with the state vals (E and C copies), calls expanded; and
// the state at the entry. depth is the depth of id's procedure. When the
// trail reaches MaxTrailSteps steps it sets c.cut and returns the last
// steps only (the steps are found last to first).
func (c *checker) intra(id int, vals []bool, depth int) ([]Step, []bool) {
	m := c.m
	var rev []Step
	rev = append(rev, c.makeStep(c.nodes[id], vals, depth))
	preds := c.preds()
back:
	for {
		if c.stop() != "" {
			return nil, nil
		}
		if c.trailSteps >= MaxTrailSteps {
			c.cut = true
			break
		}
		n := c.nodes[id]
		p := n.proc
		fact := c.lits(vals, c.tupleVars(p))
		if id == p.entry && m.And(fact, p.entryEq) != bdd.False {
			break
		}
		t := c.timeOf(c.hist[id], fact)
		found := false
		for _, pid := range preds[id] {
			pn := c.nodes[pid]
			if pn.kind == kCall {
				callVals, callee := c.callPred(pn, vals, t, depth)
				if callVals == nil {
					continue
				}
				slices.Reverse(callee)
				rev = append(rev, callee...)
				if c.cut {
					break back
				}
				rev = append(rev, c.makeStep(pn, callVals, depth))
				id, vals, found = pid, callVals, true
				break
			}
			set := m.And(c.before(c.hist[pid], t), c.predOf(pn, id, vals))
			if set == bdd.False {
				continue
			}
			vals = c.pick(set)
			rev = append(rev, c.makeStep(pn, vals, depth))
			id, found = pid, true
			break
		}
		if !found {
			return nil, nil
		}
	}
	slices.Reverse(rev)
	return rev, vals
}

// preds returns, for each node, the nodes that lead to it.
func (c *checker) preds() [][]int {
	if c.predCache == nil {
		c.predCache = make([][]int, len(c.nodes))
		for _, n := range c.nodes {
			if n.kind == kReturn || n.kind == kEnd {
				continue
			}
			for _, s := range n.succ {
				if !slices.Contains(c.predCache[s], n.id) {
					c.predCache[s] = append(c.predCache[s], n.id)
				}
			}
		}
	}
	return c.predCache
}

// predOf returns the states at n (E and C copies of its procedure) from
// which n's statement leads to node to with state vals.
func (c *checker) predOf(n *cnode, to int, vals []bool) bdd.Node {
	m := c.m
	p := n.proc
	switch n.kind {
	case kAssume, kAssert:
		return m.And(c.lits(vals, c.tupleVars(p)), n.condT)
	case kBranch:
		cond := bdd.False
		if n.succ[0] == to {
			cond = m.Or(cond, n.condT)
		}
		if n.succ[1] == to {
			cond = m.Or(cond, n.condF)
		}
		return m.And(c.lits(vals, c.tupleVars(p)), cond)
	case kAssign:
		var keep, tn, tc []int
		targets := map[int]bool{}
		for _, v := range n.lhs {
			targets[c.vvar(v, copyC)] = true
			tc = append(tc, c.vvar(v, copyC))
			tn = append(tn, c.vvar(v, copyN))
		}
		for _, v := range c.tupleVars(p) {
			if !targets[v] {
				keep = append(keep, v)
			}
		}
		pre := m.AndExists(n.rel, c.litsAs(vals, tc, tn), m.And(m.Cube(tn...), c.cubeCh))
		return m.And(pre, c.lits(vals, keep))
	}
	return c.lits(vals, c.tupleVars(p)) // skip, goto
}

// callPred finds, for the state vals after call n (at time t), a state
// before the call and the callee's execution from entry to exit that
// produce it. It returns nil when there is none before t.
func (c *checker) callPred(n *cnode, vals []bool, t, depth int) ([]bool, []Step) {
	m := c.m
	p, callee := n.proc, n.callee
	targets := map[int]bool{}
	var tc []int
	for _, v := range n.lhs {
		targets[c.vvar(v, copyC)] = true
		tc = append(tc, c.vvar(v, copyC))
	}
	// Before the call: the same entry, the same variables but the targets.
	var keep []int
	keep = append(keep, c.globals(copyE)...)
	keep = append(keep, c.slots(len(p.info.Proc.Params), copyE)...)
	for _, v := range c.slots(len(p.info.Vars), copyC) {
		if !targets[v] {
			keep = append(keep, v)
		}
	}
	a := c.actuals(n, m.And(c.before(c.hist[n.id], t), c.lits(vals, keep)))
	// After it: the globals but the targets as in vals, the results the
	// targets' values.
	var from, to []int
	for i := 0; i < c.g; i++ {
		if v := c.gvar(i, copyC); !targets[v] {
			from, to = append(from, v), append(to, c.gvar(i, copyN))
		}
	}
	k := c.litsAs(vals, append(from, tc...), append(to, c.slots(len(tc), copyN)...))
	sum := m.And(a, c.before(c.sumHist[callee.info.Index], t), k)
	if sum == bdd.False {
		return nil, nil
	}
	w := c.pick(sum)
	nf, nr := len(callee.info.Proc.Params), callee.info.Proc.Returns
	sigma := m.And(c.lits(w, c.globals(copyC)), c.lits(w, c.slots(nf, copyX)),
		c.lits(w, c.globals(copyN)), c.lits(w, c.slots(nr, copyN)))
	ts := c.timeOf(c.sumHist[callee.info.Index], sigma)
	// An exit fact of the callee, before ts, that gives sigma.
	ex := m.And(c.litsAs(w, c.globals(copyC), c.globals(copyE)),
		c.litsAs(w, c.slots(nf, copyX), c.slots(nf, copyE)),
		c.litsAs(w, c.globals(copyN), c.globals(copyC)))
	for _, r := range callee.exits {
		rn := c.nodes[r]
		set := m.And(c.before(c.hist[r], ts), ex)
		if rn.kind == kReturn {
			res := m.AndExists(rn.rel, c.lits(w, c.slots(nr, copyN)), m.And(c.cubeL[copyN], c.cubeCh))
			set = m.And(set, res)
		}
		if set == bdd.False {
			continue
		}
		steps, _ := c.intra(r, c.pick(set), depth+1)
		if steps == nil {
			return nil, nil
		}
		return w, steps
	}
	return nil, nil
}
