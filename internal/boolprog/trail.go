package boolprog

import (
	"fmt"
	"io"
	"strings"
)

// failed builds the Fail result: the trail to the failing path edge,
// rebuilt from the edges' first predecessors. Within a context an edge
// leads back to its predecessor; an edge after a call leads back to the call
// edge and, in between, to the callee's steps from its entry to the return
// that produced the summary; a context's entry leads back to the call that
// first reached it. Every predecessor was stored before its successor, so
// the walk ends.
func (t *tabulation) failed() *Result {
	res := &Result{Verdict: Fail}
	n := &t.graphs[t.ctxs[t.edges[t.failure].ctx].proc].nodes[t.edges[t.failure].node]
	res.Assert, _ = unlabel(n.stmt).(*AssertStmt)
	res.AssertPos = t.fset.Position(n.pos)
	budget := MaxTrailSteps
	var rev []int32 // edges, last first
	truncated := false
	var back func(e int32)
	back = func(e int32) {
		for !truncated {
			if budget == 0 {
				truncated = true
				return
			}
			budget--
			rev = append(rev, e)
			pe := t.edges[e]
			switch pe.how {
			case viaEntry:
				return
			case viaStep:
				e = pe.from
			case viaReturn:
				back(t.sums[pe.sum].exit)
				e = pe.from
			}
		}
	}
	for e := t.failure; e >= 0 && !truncated; e = t.ctxs[t.edges[e].ctx].creator {
		back(e) // back ends at the entry of e's context; go on from its creator
	}
	res.TrailCut = truncated
	res.Trail = make([]Step, len(rev))
	headers := map[*node]string{} // one string per statement, shared by its steps
	for i, e := range rev {
		res.Trail[len(rev)-1-i] = t.step(e, headers)
	}
	return res
}

func unlabel(s Stmt) Stmt {
	for {
		l, ok := s.(*LabeledStmt)
		if !ok {
			return s
		}
		s = l.Stmt
	}
}

func (t *tabulation) step(e int32, headers map[*node]string) Step {
	pe := t.edges[e]
	pg := t.graphs[t.ctxs[pe.ctx].proc]
	n := &pg.nodes[pe.node]
	st := Step{Proc: pg.info.Proc.Name.Name, Pos: t.fset.Position(n.pos), Label: n.label, Stmt: "end"}
	if n.stmt != nil {
		h, ok := headers[n]
		if !ok {
			h = StmtHeader(n.stmt)
			headers[n] = h
		}
		st.Stmt = h
	}
	for i, v := range t.info.Globals {
		st.Values = append(st.Values, Value{v.Name, pe.g>>i&1 != 0})
	}
	for i, v := range pg.info.Vars {
		st.Values = append(st.Values, Value{v.Name, pe.l>>i&1 != 0})
	}
	return st
}

// WriteTrail writes a trail one step a line:
//
//	t.bp:12:5: main L1: x, y := f(x); [g=1 x=0 y=1]
func WriteTrail(w io.Writer, r *Result) {
	if r.TrailCut {
		fmt.Fprintf(w, "(the trail is longer than %d steps; its first steps are left out)\n", MaxTrailSteps)
	}
	for _, s := range r.Trail {
		label := ""
		if s.Label != "" {
			label = s.Label + ": "
		}
		vals := make([]string, len(s.Values))
		for i, v := range s.Values {
			b := "0"
			if v.Value {
				b = "1"
			}
			vals[i] = v.Name + "=" + b
		}
		fmt.Fprintf(w, "%s: %s %s%s [%s]\n", s.Pos, s.Proc, label, s.Stmt, strings.Join(vals, " "))
	}
}
