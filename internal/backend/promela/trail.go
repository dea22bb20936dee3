package promela

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/model"
)

// SpinStep is one step of a SPIN trail in BIR terms: the process (whose
// pid is the thread's tid minus one) and the transformations it executed,
// more than one for an invisible run.
type SpinStep struct {
	Pid   int
	Trans []*ast.Transformation
}

// ReadTrail replays the trail pan wrote in dir (spin -t -p) and returns
// its steps. Statements that begin no option of t are parts of steps.
func ReadTrail(ctx context.Context, dir string, t *Translation) ([]SpinStep, error) {
	out, err := command(ctx, dir, "spin", "-t", "-p", "model.pml")
	if err != nil {
		return nil, fmt.Errorf("spin -t: %v\n%s", err, out)
	}
	return ParseTrail(out, t)
}

var trailLineRE = regexp.MustCompile(`^\s*\d+:\s+proc\s+(\d+) \([^)]*\) \S*?model\.pml:(\d+) \(state \d+\)\s+\[`)

// ParseTrail reads the output of spin -t -p.
func ParseTrail(out string, t *Translation) ([]SpinStep, error) {
	var steps []SpinStep
	for _, line := range strings.Split(out, "\n") {
		m := trailLineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		pid, _ := strconv.Atoi(m[1])
		ln, _ := strconv.Atoi(m[2])
		e, ok := t.Entries[ln]
		if !ok {
			continue
		}
		if e.Limit {
			return nil, fmt.Errorf("the trail hits a bound of the model (line %d), which birch cuts", ln)
		}
		if e.IL {
			if len(steps) == 0 || steps[len(steps)-1].Pid != pid {
				return nil, fmt.Errorf("model.pml:%d: an invisible run continues in another process", ln)
			}
			last := &steps[len(steps)-1]
			last.Trans = append(last.Trans, e.Trans)
			continue
		}
		steps = append(steps, SpinStep{Pid: pid, Trans: []*ast.Transformation{e.Trans}})
	}
	return steps, nil
}

// ErrNotInBirch says that the trail's last step has no violation in birch:
// SPIN's 32-bit int overflows where birch's 64-bit int does not.
var ErrNotInBirch = errors.New("birch has no such violation at the end of the trail")

// MapTrail finds birch's trail for a SPIN trail: for each step, the
// ordinal of the outcome of birch's model m in which the same thread runs
// the same transformations, ending in the violation kind SPIN found (an
// error kind, or "deadlock" for a trail that ends in a state without
// successors). Where several outcomes fit a step (choices), it tries them
// in order and backtracks. When every step but the violation fits, it
// returns the ordinals of the steps and an error wrapping ErrNotInBirch.
func MapTrail(m *model.Model, steps []SpinStep, kind string) ([]int, error) {
	groupOf := map[*ast.Transformation]int32{}
	for i, g := range m.Groups() {
		groupOf[g.Decl] = int32(i)
	}
	want := make([][]int32, len(steps))
	for i, s := range steps {
		for _, tr := range s.Trans {
			gi, ok := groupOf[tr]
			if !ok {
				return nil, fmt.Errorf("step %d: a transformation the model does not have", i+1)
			}
			want[i] = append(want[i], gi)
		}
	}
	init, fail := m.Initial(nil)
	if fail != nil {
		return nil, fmt.Errorf("the initial state cannot be created: %s", fail.Msg)
	}
	type cand struct {
		ord     int
		outcome model.Outcome
		kind    string
		state   []byte
	}
	failed := map[string]bool{} // step index and state with no continuation
	var ords []int
	var prefix []int // the longest fitting prefix when the violation does not fit
	budget := 1_000_000
	var try func(i int, state []byte) bool
	try = func(i int, state []byte) bool {
		if budget--; budget < 0 {
			return false
		}
		key := strconv.Itoa(i) + ":" + string(state)
		if failed[key] {
			return false
		}
		last := i == len(steps)-1
		if i == len(steps) {
			// only a deadlock ends after the last step
			n, allDone := m.Next(state, func(*model.Step) {})
			return kind == "deadlock" && n == 0 && !allDone
		}
		var cs []cand
		m.Next(state, func(st *model.Step) {
			if st.Thread != steps[i].Pid {
				return
			}
			if !sameGroups(st.Groups, want[i]) {
				// SPIN may fail in the middle of a run that goes on in birch
				if last && prefix == nil && kind != "deadlock" && len(st.Groups) > len(want[i]) && sameGroups(st.Groups[:len(want[i])], want[i]) {
					prefix = append(append([]int(nil), ords...), st.Ordinal)
				}
				return
			}
			c := cand{ord: st.Ordinal, outcome: st.Outcome}
			switch st.Outcome {
			case model.OK:
				c.state = append([]byte(nil), st.State...)
			case model.Error:
				c.kind = st.Kind.String()
			case model.Limit:
				c.kind = model.LimitReached.String()
			}
			cs = append(cs, c)
		})
		for _, c := range cs {
			if last && kind != "deadlock" {
				if c.outcome == model.Error && c.kind == kind {
					ords = append(ords, c.ord)
					return true
				}
				if c.outcome == model.OK && prefix == nil {
					prefix = append(append([]int(nil), ords...), c.ord)
				}
				continue
			}
			if c.outcome != model.OK {
				continue
			}
			ords = append(ords, c.ord)
			if try(i+1, c.state) {
				return true
			}
			ords = ords[:len(ords)-1]
		}
		failed[key] = true
		return false
	}
	if len(steps) == 0 {
		if kind == "deadlock" {
			if n, allDone := m.Next(init, func(*model.Step) {}); n == 0 && !allDone {
				return []int{}, nil
			}
		}
		return nil, fmt.Errorf("the trail is empty")
	}
	if try(0, init) {
		return ords, nil
	}
	if prefix != nil {
		return prefix, fmt.Errorf("%w: the last step of SPIN's trail completes in birch (%s)", ErrNotInBirch, kind)
	}
	if budget < 0 {
		return nil, fmt.Errorf("the trail is too ambiguous to map")
	}
	return nil, fmt.Errorf("no run of the model follows SPIN's trail")
}

func sameGroups(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
