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
	"birch/internal/search"
)

// SpinStep is one step of a SPIN trail in BIR terms: the process (whose
// pid is the thread's tid minus one) and the transformations it executed,
// more than one for an invisible run.
type SpinStep struct {
	Pid    int
	Thread int // the thread's index (tid - 1)
	Trans  []*ast.Transformation
}

// ReadTrail replays the trail pan wrote in dir (spin -t -p) and returns
// its steps. Statements that begin no option of t are parts of steps.
func ReadTrail(ctx context.Context, dir string, t *Translation) ([]SpinStep, error) {
	out, err := replayTrail(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("spin -t: %v\n%s", err, out)
	}
	return ParseTrail(out, t)
}

// replayTrail runs spin -t -p on the trail in dir. SPIN's simulator goes
// on after a failed assertion inside an atomic step, and the next
// statement may be the out-of-bounds access the assertion guarded, which
// stops the simulator with an error ("indexing error" on a typedef's
// array); the trail is complete by then, so that error is not one.
func replayTrail(ctx context.Context, dir string) (string, error) {
	out, err := command(ctx, dir, "spin", "-t", "-p", "model.pml")
	if err != nil && ctx.Err() == nil && strings.Contains(out, "spin: text of failed assertion") {
		err = nil
	}
	return out, err
}

var trailLineRE = regexp.MustCompile(`^\s*\d+:\s+proc\s+(\d+) \([^)]*\) \S*?model\.pml:(\d+) \(state \d+\)\s+\[`)

// ParseTrail reads the output of spin -t -p.
func ParseTrail(out string, t *Translation) ([]SpinStep, error) {
	steps, _, err := ParseLasso(out, t)
	return steps, err
}

// ReadLasso replays the trail of a claim (an acceptance cycle, or a bad
// prefix of the claim) and returns its steps and the index of the first
// step of the cycle (-1 when the trail has no cycle).
func ReadLasso(ctx context.Context, dir string, t *Translation) ([]SpinStep, int, error) {
	out, err := replayTrail(ctx, dir)
	if err != nil {
		return nil, -1, fmt.Errorf("spin -t: %v\n%s", err, out)
	}
	return ParseLasso(out, t)
}

// ParseLasso reads the output of spin -t -p: the steps, and the number of
// steps before SPIN's "START OF CYCLE" mark (-1 without one).
func ParseLasso(out string, t *Translation) ([]SpinStep, int, error) {
	var steps []SpinStep
	cycle := -1
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "<<<<<START OF CYCLE>>>>>") {
			cycle = len(steps)
			continue
		}
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
			return nil, -1, fmt.Errorf("the trail hits a bound of the model (line %d), which birch cuts", ln)
		}
		if e.IL {
			if len(steps) == 0 || steps[len(steps)-1].Pid != pid {
				return nil, -1, fmt.Errorf("model.pml:%d: an invisible run continues in another process", ln)
			}
			last := &steps[len(steps)-1]
			last.Trans = append(last.Trans, e.Trans)
			continue
		}
		steps = append(steps, SpinStep{Pid: pid, Thread: t.ThreadOfPid(pid), Trans: []*ast.Transformation{e.Trans}})
	}
	return steps, cycle, nil
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
	return MapTrailIn(m, m, steps, kind)
}

// Stepper is the part of a model MapTrailIn steps through: *model.Model,
// or a model whose states are checked by invariants
// (search.WithStateCheck), whose violations are then Error outcomes of
// kind "invariant".
type Stepper interface {
	Initial(dst []byte) ([]byte, *model.Step)
	Next(state []byte, yield func(*model.Step)) (n int, allDone bool)
}

// MapTrailIn is MapTrail stepping through sm, a model made of m (the
// invariants' monitor of the translation reports kind "invariant"; with a
// StateCheck model the step into the violating state is an Error of that
// kind). An initial state that violates the invariants maps to no steps.
func MapTrailIn(m *model.Model, sm Stepper, steps []SpinStep, kind string) ([]int, error) {
	if _, fail := sm.Initial(nil); fail != nil && fail.Outcome == model.Error && fail.Kind.String() == kind {
		return []int{}, nil
	}
	return mapSteps(m, sm, steps, kind, -1)
}

// MapLasso maps an accepting lasso of SPIN's (an LTL violation) to birch:
// steps[:cycleStart] lead to a state s and steps[cycleStart:] from s back
// to s; when the cycle has no steps (cycleStart == len(steps)), SPIN's
// claim stutters: the last state has no outcome in birch. Every step must
// be an outcome of birch's model without error.
func MapLasso(m *model.Model, steps []SpinStep, cycleStart int) ([]int, error) {
	if cycleStart < 0 || cycleStart > len(steps) {
		return nil, fmt.Errorf("the trail has no cycle")
	}
	return mapSteps(m, m, steps, "", cycleStart)
}

// MapPrefix maps a bad prefix of SPIN's (its claim of a safety formula
// failed an assertion at the end of the trail): every step must be an
// outcome of birch's model without error. CompleteLasso extends it.
func MapPrefix(m *model.Model, steps []SpinStep) ([]int, error) {
	return mapSteps(m, m, steps, "", prefixOnly)
}

// prefixOnly as mapSteps's cycleStart: map the steps without a cycle or a
// violation at the end.
const prefixOnly = 1 << 30

// CompleteLasso extends a trail (a bad prefix) into a lasso of birch's
// model: from its last state it follows the first successful outcome of
// each state until a state repeats (the cycle) or a state has no outcome
// (stutter: cycleStart is len(ords)). It fails when it meets a state whose
// outcomes are all errors or cuts, or after max steps.
func CompleteLasso(m *model.Model, trail []int, max int) (ords []int, cycleStart int, stutter bool, err error) {
	init, ts, err := search.Replay(m, trail)
	if err != nil {
		return nil, 0, false, err
	}
	state := search.Final(init, ts)
	ords = append([]int(nil), trail...)
	seen := map[string]int{string(state): len(ords)}
	for k := 0; k < max; k++ {
		next, ord := []byte(nil), -1
		n, _ := m.Next(state, func(st *model.Step) {
			if ord < 0 && st.Outcome == model.OK {
				ord, next = st.Ordinal, append([]byte(nil), st.State...)
			}
		})
		if n == 0 {
			return ords, len(ords), true, nil
		}
		if ord < 0 {
			return nil, 0, false, fmt.Errorf("the trail's last state has no successful step in birch")
		}
		ords = append(ords, ord)
		state = next
		if at, ok := seen[string(state)]; ok {
			return ords, at, false, nil
		}
		seen[string(state)] = len(ords)
	}
	return nil, 0, false, fmt.Errorf("no cycle within %d steps", max)
}

// mapSteps finds the ordinals of birch's outcomes that follow steps. With
// cycleStart < 0 it maps a finite trail ending in the violation kind (see
// MapTrail); otherwise a lasso.
func mapSteps(m *model.Model, sm Stepper, steps []SpinStep, kind string, cycleStart int) ([]int, error) {
	lasso := cycleStart >= 0
	if cycleStart == prefixOnly {
		cycleStart = len(steps) + 1 // never reached: any end is fine
	}
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
	init, fail := sm.Initial(nil)
	if fail != nil {
		return nil, fmt.Errorf("the initial state cannot be created: %s", fail.Msg)
	}
	var cycleState []byte // the state at cycleStart (lassos)
	if cycleStart == 0 {
		cycleState = init
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
		if lasso && i > cycleStart {
			key += "|" + string(cycleState)
		}
		if failed[key] {
			return false
		}
		last := i == len(steps)-1 && !lasso
		if i == len(steps) {
			if lasso {
				if cycleStart > len(steps) {
					return true
				}
				if cycleStart == len(steps) {
					// the claim stutters: birch has no outcome here
					n, _ := sm.Next(state, func(*model.Step) {})
					return n == 0
				}
				return string(state) == string(cycleState)
			}
			// only a deadlock ends after the last step
			n, allDone := sm.Next(state, func(*model.Step) {})
			return kind == "deadlock" && n == 0 && !allDone
		}
		if lasso && i == cycleStart {
			cycleState = state
		}
		var cs []cand
		sm.Next(state, func(st *model.Step) {
			if st.Thread != steps[i].Thread {
				return
			}
			if !sameGroups(st.Groups, want[i]) {
				if lasso {
					return
				}
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
			if kind == "invariant" && c.outcome == model.Error && c.kind == kind {
				// SPIN's monitor need not run in the first state that
				// violates an invariant: birch's trail ends there
				ords = append(ords, c.ord)
				return true
			}
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
		if lasso && cycleStart > 0 {
			return []int{}, nil // an empty prefix
		}
		if lasso {
			if n, _ := sm.Next(init, func(*model.Step) {}); n == 0 {
				return []int{}, nil
			}
			return nil, fmt.Errorf("SPIN's claim stutters in the initial state, which has outcomes in birch")
		}
		if kind == "deadlock" {
			if n, allDone := sm.Next(init, func(*model.Step) {}); n == 0 && !allDone {
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
