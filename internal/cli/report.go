package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
)

// jsonReport is the document `birch check --json` prints (docs/check.md).
type jsonReport struct {
	Model     string         `json:"model"`
	Verdict   string         `json:"verdict"`
	Complete  bool           `json:"complete"`
	Reason    string         `json:"reason"`
	Violation *jsonViolation `json:"violation"`
	Stats     jsonStats      `json:"stats"`
	Trail     []jsonStep     `json:"trail"`
	LimitsHit []jsonLimit    `json:"limits_hit"`
	Search    string         `json:"search"`
}

type jsonViolation struct {
	Kind     string       `json:"kind"`
	Message  string       `json:"message"`
	Thread   string       `json:"thread"`
	Location string       `json:"location"`
	Pos      string       `json:"pos"`
	Threads  []jsonThread `json:"threads,omitempty"` // for a deadlock: every thread
}

type jsonThread struct {
	Thread     string   `json:"thread"`
	Location   string   `json:"location"`
	Terminated bool     `json:"terminated"`
	Waits      []string `json:"waits,omitempty"`
}

type jsonStats struct {
	States          int     `json:"states"`
	Transitions     int64   `json:"transitions"`
	MaxDepth        int     `json:"max_depth"`
	Seconds         float64 `json:"seconds"`
	StatesPerSecond float64 `json:"states_per_second"`
	MemoryBytes     int64   `json:"memory_bytes"`
	BytesPerState   float64 `json:"bytes_per_state"`
}

type jsonStep struct {
	Step    int               `json:"step"`
	Ordinal int               `json:"ordinal"`
	Thread  string            `json:"thread"`
	From    string            `json:"from"`
	To      string            `json:"to"`
	Pos     string            `json:"pos"`
	Changes map[string]string `json:"changes"`
}

type jsonLimit struct {
	Message string `json:"message"`
	Pos     string `json:"pos"`
	Count   int    `json:"count"`
}

// trailStep is one step of a trail in user terms.
type trailStep struct {
	n        int
	ordinal  int
	thread   string
	from, to string
	pos      string
	changes  []model.Var
	outcome  model.Outcome
	msg      string
}

// describeTrail turns replayed steps into user terms.
func describeTrail(m *model.Model, fset *source.FileSet, steps []search.TrailStep) []trailStep {
	var out []trailStep
	for i, ts := range steps {
		st := ts.Step
		t := trailStep{n: i + 1, ordinal: st.Ordinal, outcome: st.Outcome}
		t.thread = m.ThreadName(ts.Before, st.Thread)
		t.from = threadLocation(m, ts.Before, st.Thread)
		if len(st.Groups) > 0 {
			g := m.Groups()[st.Groups[0]]
			t.pos = posString(fset, g.Decl.Pos())
		}
		switch st.Outcome {
		case model.OK:
			t.to = threadLocation(m, ts.After, st.Thread)
			t.changes = m.Changes(ts.Before, ts.After)
		case model.Error:
			t.to = "error"
			t.msg = st.Kind.String() + ": " + st.Msg
			t.pos = posString(fset, st.Pos)
		case model.Limit:
			t.to = "limit"
			t.msg = "limit: " + st.Msg
			t.pos = posString(fset, st.Pos)
		}
		out = append(out, t)
	}
	return out
}

func threadLocation(m *model.Model, state []byte, j int) string {
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

func posString(fset *source.FileSet, p source.Pos) string {
	if !p.IsValid() {
		return ""
	}
	return fset.Position(p).String()
}

// printTrail prints a trail in text.
func printTrail(w io.Writer, steps []trailStep) {
	if len(steps) == 1 {
		fmt.Fprintln(w, "trail (1 step):")
	} else {
		fmt.Fprintf(w, "trail (%d steps):\n", len(steps))
	}
	printSteps(w, steps)
}

// printSteps prints the steps of a trail, one line each followed by what
// the step changed.
func printSteps(w io.Writer, steps []trailStep) {
	for _, t := range steps {
		fmt.Fprintf(w, "%4d. %s  %s -> %s  %s\n", t.n, t.thread, t.from, t.to, t.pos)
		if t.msg != "" {
			fmt.Fprintf(w, "        %s\n", t.msg)
		}
		for _, c := range t.changes {
			if strings.HasSuffix(c.Name, " @") {
				if c.Name != t.thread+" @" {
					// a thread started by this step
					fmt.Fprintf(w, "        %s %s\n", c.Name, c.Value)
				}
				continue // the acting thread's location is on the step line
			}
			fmt.Fprintf(w, "        %s = %s\n", c.Name, c.Value)
		}
	}
}

func jsonTrail(steps []trailStep) []jsonStep {
	out := []jsonStep{}
	for _, t := range steps {
		js := jsonStep{Step: t.n, Ordinal: t.ordinal, Thread: t.thread, From: t.from, To: t.to, Pos: t.pos, Changes: map[string]string{}}
		for _, c := range t.changes {
			if !strings.HasSuffix(c.Name, " @") {
				js.Changes[c.Name] = c.Value
			}
		}
		out = append(out, js)
	}
	return out
}

func printJSON(w io.Writer, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	w.Write(append(b, '\n'))
}

func statsJSON(st search.Stats) jsonStats {
	return jsonStats{
		States: st.States, Transitions: st.Transitions, MaxDepth: st.MaxDepth,
		Seconds: round(st.Seconds, 6), StatesPerSecond: round(st.StatesPerSecond(), 1),
		MemoryBytes: st.Memory, BytesPerState: round(st.BytesPerState(), 2),
	}
}

func round(v float64, digits int) float64 {
	p := 1.0
	for ; digits > 0; digits-- {
		p *= 10
	}
	return float64(int64(v*p+0.5)) / p
}

func statsLine(st search.Stats) string {
	return fmt.Sprintf("%d states, %d transitions, max depth %d, %.3f s, %.0f states/s, %s, %.1f bytes/state",
		st.States, st.Transitions, st.MaxDepth, st.Seconds, st.StatesPerSecond(), search.FormatBytes(st.Memory), st.BytesPerState())
}

func limitsJSON(fset *source.FileSet, ls []search.LimitHit) []jsonLimit {
	out := []jsonLimit{}
	for _, l := range ls {
		out = append(out, jsonLimit{Message: l.Msg, Pos: posString(fset, l.Pos), Count: l.Count})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	return out
}

// printDeadlockThreads prints, after the trail of a deadlock, each
// thread's location and what it waits for.
func printDeadlockThreads(w io.Writer, threads []jsonThread) {
	if len(threads) == 0 {
		return
	}
	fmt.Fprintln(w, "threads at the deadlock:")
	for _, t := range threads {
		if t.Terminated {
			fmt.Fprintf(w, "  %s @ %s: terminated\n", t.Thread, t.Location)
			continue
		}
		fmt.Fprintf(w, "  %s @ %s:\n", t.Thread, t.Location)
		for _, why := range t.Waits {
			fmt.Fprintf(w, "      %s\n", why)
		}
	}
}
