package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
	"birch/internal/verify"
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
	// Unreached: after a complete search without a violation, the
	// transformations no step executed ([] when every one was); null
	// otherwise.
	Unreached []jsonUnreached `json:"unreached"`
}

type jsonViolation struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// ModelMessage: the model's message when message is in C terms.
	ModelMessage string       `json:"model_message,omitempty"`
	Thread       string       `json:"thread"`
	Location     string       `json:"location"`
	Pos          string       `json:"pos"`
	Threads      []jsonThread `json:"threads,omitempty"` // for a deadlock: every thread
	// Confirmation: "confirmed" (a trail of the model as written) or "not
	// confirmed"; ConfirmedBy says how.
	Confirmation string `json:"confirmation,omitempty"`
	ConfirmedBy  string `json:"confirmed_by,omitempty"`
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
	Frame   string            `json:"frame,omitempty"` // a Java program's step: "pkg.Main.main(Main.java:12)"
	Changes map[string]string `json:"changes"`
}

type jsonLimit struct {
	Message string `json:"message"`
	Pos     string `json:"pos"`
	Count   int    `json:"count"`
}

// trailStep is one step of a trail in user terms.
type trailStep = verify.Step

func posString(fset *source.FileSet, p source.Pos) string { return verify.PosString(fset, p) }

func describeTrail(m *model.Model, fset *source.FileSet, steps []search.TrailStep) []trailStep {
	return verify.DescribeTrail(m, fset, steps)
}

func threadLocation(m *model.Model, state []byte, j int) string {
	return verify.ThreadLocation(m, state, j)
}

// printTrail prints a trail in text; unless full, a long one only in part
// (printSteps).
func printTrail(w io.Writer, steps []trailStep, full bool) {
	if len(steps) == 1 {
		fmt.Fprintln(w, "trail (1 step):")
	} else {
		fmt.Fprintf(w, "trail (%d steps):\n", len(steps))
	}
	printSteps(w, steps, full)
}

// A long trail is printed as its first trailHead and last trailTail
// steps, with a count of those left out (unless --full-trail); the trail
// file and the JSON output always hold every step.
const (
	trailHead = 10
	trailTail = 10
	// a trail is cut only when that leaves out at least this many steps
	trailMinLeftOut = 5
)

// printSteps prints the steps of a trail, one line each followed by the
// transformation's text and what the step changed. Unless full, a trail
// longer than trailHead+trailTail steps is printed in part.
func printSteps(w io.Writer, steps []trailStep, full bool) {
	if n := len(steps); !full && n >= trailHead+trailTail+trailMinLeftOut {
		printSteps(w, steps[:trailHead], true)
		left := n - trailHead - trailTail
		fmt.Fprintf(w, "      ... %d steps left out (--full-trail shows them) ...\n", left)
		printSteps(w, steps[n-trailTail:], true)
		return
	}
	for _, t := range steps {
		fmt.Fprintf(w, "%4d. %s\n", t.N, stepHead(&t))
		for _, s := range t.Source {
			fmt.Fprintf(w, "        %s\n", s)
		}
		if t.Msg != "" {
			fmt.Fprintf(w, "        %s\n", t.Msg)
		}
		for _, c := range t.Changes {
			if strings.HasSuffix(c.Name, " @") {
				if c.Name != t.Thread+" @" {
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
		js := jsonStep{Step: t.N, Ordinal: t.Ordinal, Thread: t.Thread, From: t.From, To: t.To, Pos: t.Pos, Frame: t.Frame, Changes: map[string]string{}}
		for _, c := range t.Changes {
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

// progressPrinter returns the search's progress callback: a line with the
// elapsed time, the states and transitions so far, the depth, the rate of
// new states since the previous line (a since-start average would look
// stalled when a search slows down) and the memory held.
func progressPrinter(w io.Writer) func(search.Stats) {
	var prev search.Stats
	return func(st search.Stats) {
		rate := 0.0
		if dt := st.Seconds - prev.Seconds; dt > 0 {
			rate = float64(st.States-prev.States) / dt
		}
		fmt.Fprintf(w, "progress: %s, %d states, %d transitions, depth %d, %.0f states/s now, %s\n",
			formatElapsed(st.Seconds), st.States, st.Transitions, st.MaxDepth, rate, search.FormatBytes(st.Memory))
		prev = st
	}
}

// formatElapsed prints seconds as 42s, 3m05s or 2h03m05s.
func formatElapsed(sec float64) string {
	s := int64(sec + 0.5)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm%02ds", s/3600, s/60%60, s%60)
}

// jsonUnreached is one transformation that no step of a complete search
// executed (the "unreached" array of the JSON report).
type jsonUnreached struct {
	Proc     string `json:"proc"` // the thread or function
	Kind     string `json:"kind"` // "thread" or "function"
	Location string `json:"location"`
	Pos      string `json:"pos"`
	Source   string `json:"source"` // the transformation's text, bounded
}

// printUnreached prints the unreached code after a complete search, per
// thread and function, as SPIN's "unreached in proctype" does; nothing
// when every transformation was executed.
func printUnreached(w io.Writer, us []jsonUnreached, bounded bool) {
	for i, u := range us {
		if i == 0 || u.Proc != us[i-1].Proc || u.Kind != us[i-1].Kind {
			n := 0
			for _, v := range us[i:] {
				if v.Proc == u.Proc && v.Kind == u.Kind {
					n++
				}
			}
			within := ""
			if bounded {
				within = " within the bounds"
			}
			fmt.Fprintf(w, "unreached in %s %s (%d %s never executed%s):\n", u.Kind, u.Proc, n, plural(n, "transformation", "transformations"), within)
		}
		fmt.Fprintf(w, "  %s: loc %s: %s\n", u.Pos, u.Location, u.Source)
	}
}

type jsonProperty struct {
	Name            string `json:"name"`
	Kind            string `json:"kind"`
	Source          string `json:"source"`
	Formula         string `json:"formula"`
	Fair            bool   `json:"fair"`
	AutomatonStates int    `json:"automaton_states"`
}

type jsonLasso struct {
	CycleStart int    `json:"cycle_start"`
	Stutter    bool   `json:"stutter"`
	End        string `json:"end,omitempty"`
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
