package verify

import (
	"fmt"
	"sort"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
)

// Step is one step of a trail in the terms of the user's model.
type Step struct {
	N        int // 1, 2, ...
	Ordinal  int
	Thread   string
	From, To string // the thread's locations ("error" or "limit" for a failing step)
	Pos      string
	Source   []string // the transformations' text, one line each, bounded
	Changes  []model.Var
	Outcome  model.Outcome
	Msg      string // for a failing step: what failed
	// Frame: where the step is in the terms of the program's language,
	// when not BIR: a Java frame, "pkg.Main.main(Main.java:12)".
	Frame string
}

// DescribeTrail turns replayed steps into user terms (a trail of no
// steps is an empty trail, not nil: there is one).
func DescribeTrail(m *model.Model, fset *source.FileSet, steps []search.TrailStep) []Step {
	out := []Step{}
	for i, ts := range steps {
		st := ts.Step
		t := Step{N: i + 1, Ordinal: st.Ordinal, Outcome: st.Outcome}
		t.Thread = m.ThreadName(ts.Before, st.Thread)
		t.From = ThreadLocation(m, ts.Before, st.Thread)
		if len(st.Groups) > 0 {
			g := m.Groups()[st.Groups[0]]
			t.Pos = PosString(fset, g.Decl.Pos())
			t.Source = stepSource(m, st.Groups)
		}
		switch st.Outcome {
		case model.OK:
			t.To = ThreadLocation(m, ts.After, st.Thread)
			t.Changes = m.Changes(ts.Before, ts.After)
		case model.Error:
			t.To = "error"
			t.Msg = st.Kind.String() + ": " + st.Msg
			t.Pos = PosString(fset, st.Pos)
		case model.Limit:
			t.To = "limit"
			t.Msg = "limit: " + st.Msg
			t.Pos = PosString(fset, st.Pos)
		}
		out = append(out, t)
	}
	return out
}

// ThreadLocation is the location of thread j (0-based) in state, with
// " (terminated)" for a thread that ended.
func ThreadLocation(m *model.Model, state []byte, j int) string {
	for _, ti := range m.Threads(state, false) {
		if ti.Tid == j+1 {
			if ti.Done {
				return ti.Location + " (terminated)"
			}
			return ti.Location
		}
	}
	return "?"
}

// PosString prints a position as file:line:col, or "" for none.
func PosString(fset *source.FileSet, p source.Pos) string {
	if !p.IsValid() {
		return ""
	}
	return fset.Position(p).String()
}

// maxSourceText bounds the transformation text a trail step shows.
const maxSourceText = 100

// maxSourceLines bounds the transformations of an invisible run a trail
// step shows.
const maxSourceLines = 4

// stepSource is the text a trail step shows for the transformations it
// executed (several for an invisible run), as SPIN's -p shows statements.
func stepSource(m *model.Model, groups []int32) []string {
	var out []string
	for i, g := range groups {
		if i == maxSourceLines-1 && len(groups) > maxSourceLines {
			out = append(out, fmt.Sprintf("... and %d more transformations of the invisible run", len(groups)-i))
			break
		}
		out = append(out, TransformationText(m.Groups()[g].Decl))
	}
	return out
}

// TransformationText is a transformation's text on one line, bounded.
func TransformationText(decl *ast.Transformation) string {
	return "[" + source.ExcerptN(strings.TrimSuffix(format.Transformation(decl), ";"), maxSourceText) + "]"
}

// describeViolation describes a search's violation in user terms; final
// is the state its trail ends in (nil when unknown).
func describeViolation(fset *source.FileSet, m *model.Model, v *search.Violation, final []byte) *Violation {
	if v == nil {
		return nil
	}
	jv := &Violation{Kind: v.Kind.String(), Message: v.Msg, Pos: PosString(fset, v.Pos)}
	if final == nil {
		return jv
	}
	if v.Kind == model.Deadlock {
		jv.Threads = threadStates(m, final)
		return jv
	}
	if v.Thread >= 0 {
		jv.Thread = m.ThreadName(final, v.Thread)
		jv.Location = ThreadLocation(m, final, v.Thread)
	}
	return jv
}

// threadStates is every thread of state, where it is and what it waits
// for.
func threadStates(m *model.Model, state []byte) []ThreadState {
	var out []ThreadState
	for _, t := range m.Threads(state, true) {
		out = append(out, ThreadState{Thread: t.Name, Location: t.Location, Terminated: t.Done, Waits: t.Waits})
	}
	return out
}

// describeLimits lists the bounds a search hit, in the order of their
// positions.
func describeLimits(fset *source.FileSet, ls []search.LimitHit) []Limit {
	out := []Limit{}
	for _, l := range ls {
		out = append(out, Limit{Message: l.Msg, Pos: PosString(fset, l.Pos), Count: l.Count})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	return out
}

// Unreached is one transformation that no step of a complete search
// executed.
type Unreached struct {
	Proc     string // the thread or function
	Kind     string // "thread" or "function"
	Location string
	Pos      string
	Source   string // the transformation's text, bounded
}

// unreachedCode lists, in the order of the model's text, the
// transformations that no step of the search executed. It is nil unless
// the search explored every reachable state without a violation (a pass,
// or a search complete within the bounds of the model): only then is code
// that was not executed code no execution reaches.
func unreachedCode(in *Input, m *model.Model, res *search.Result) []Unreached {
	if !searchedAll(res) {
		return nil
	}
	executed := map[*ast.Transformation]bool{}
	for _, g := range m.Groups() {
		if wasExecuted(res, g.Index) {
			executed[g.Decl] = true
		}
	}
	return listUnreached(in, func(t *ast.Transformation) bool { return !executed[t] })
}

// searchedAll reports whether res is a complete search without a
// violation that recorded the transformations it executed.
func searchedAll(res *search.Result) bool {
	return res.Complete && res.Violation == nil && res.Executed != nil
}

// wasExecuted reports whether the search executed transformation g.
func wasExecuted(res *search.Result, g int) bool {
	return res.Executed[g>>6]&(1<<(uint(g)&63)) != 0
}

// listUnreached lists the transformations of in's program that unreached
// says are, in the order of the model's text.
func listUnreached(in *Input, unreached func(*ast.Transformation) bool) []Unreached {
	out := []Unreached{}
	for _, procs := range [][]*types.Proc{in.Prog.Threads, in.Prog.Functions} {
		for _, p := range procs {
			kind := "function"
			if p.Thread {
				kind = "thread"
			}
			for _, loc := range p.Locations {
				for _, t := range loc.Decl.Transformations {
					if unreached(t) {
						out = append(out, Unreached{Proc: p.Name(), Kind: kind, Location: loc.Name(),
							Pos: PosString(in.Fset, t.Pos()), Source: TransformationText(t)})
					}
				}
			}
		}
	}
	return out
}
