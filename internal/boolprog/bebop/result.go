package bebop

import (
	"birch/internal/boolprog"
	"birch/internal/source"
)

// BoolprogResult returns r in the explicit checker's terms, so that both
// checkers print alike (boolprog.WriteTrail, birch bp check). The counts
// of states, contexts and summaries stay zero: this checker keeps sets,
// not states (r.Stats has its own counts).
func (r *Result) BoolprogResult(fset *source.FileSet) *boolprog.Result {
	out := &boolprog.Result{Reason: r.Reason, Assert: r.Assert, TrailCut: r.TrailCut}
	switch r.Outcome {
	case Safe:
		out.Verdict = boolprog.Pass
	case Unsafe:
		out.Verdict = boolprog.Fail
		if r.Assert != nil {
			out.AssertPos = fset.Position(r.Assert.Pos())
		}
		if r.NoTrail != "" {
			out.Reason = r.NoTrail
		}
	default:
		out.Verdict = boolprog.Inconclusive
	}
	for _, s := range r.Trail {
		st := boolprog.Step{Proc: s.Proc, Pos: fset.Position(s.Pos), Label: s.Label, Stmt: s.Stmt}
		for _, v := range s.Values {
			st.Values = append(st.Values, boolprog.Value{Name: v.Name, Value: v.Value})
		}
		out.Trail = append(out.Trail, st)
	}
	return out
}
