package cli

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"

	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
)

func init() {
	register(&command{
		name:  "replay",
		args:  "MODEL.bir TRAIL",
		short: "re-execute a saved trail step by step",
		long: `
Replay re-executes a trail saved by birch check --trail (or birch spin) on the
model, step by step, printing each step and the state it leads to, and the
output of println actions. It fails with exit status 2 if the trail does not
fit the model (a step that does not exist, or a different thread or location
than the trail recorded).

Exit status: 1 when the trail ends in the violation it records, 0 when it
replays without one, 2 when it does not fit the model.`,
		flags: func(fs *flag.FlagSet) any {
			o := &checkOptions{}
			fs.IntVar(&o.maxThreads, "max-threads", 16, "bound on the number of threads (as in the check that saved the trail)")
			fs.IntVar(&o.maxCalls, "max-call-depth", 64, "bound on the call depth (as in the check that saved the trail)")
			return o
		},
		run: runReplay,
	})
	register(&command{
		name:  "simulate",
		args:  "[--seed N] [--steps K] MODEL.bir",
		short: "run one random execution and print its println output",
		long: `
Simulate runs one random execution of the model: at each step it picks one of
the enabled outcomes uniformly at random (the same seed gives the same run) and
prints the output of println actions. It stops after --steps steps, when no
thread can move, or at a violation, which it reports as birch check does.

Exit status: 1 when the run ends in a violation, 3 when it hits a bound of the
model (a full collection, too many threads, ...), 0 otherwise.`,
		flags: func(fs *flag.FlagSet) any {
			o := &simOptions{}
			fs.Uint64Var(&o.seed, "seed", 1, "random seed")
			fs.IntVar(&o.steps, "steps", 1000, "maximum number of steps")
			fs.BoolVar(&o.verbose, "v", false, "print each step (thread, locations, changes)")
			return o
		},
		run: runSimulate,
	})
}

type simOptions struct {
	seed    uint64
	steps   int
	verbose bool
}

func runReplay(e *env, fs *flag.FlagSet, opts any) int {
	o := opts.(*checkOptions)
	if fs.NArg() != 2 {
		fmt.Fprintf(e.stderr, "birch replay: want a model file and a trail file; %s\n", usageLine(fs))
		return ExitBadInput
	}
	if msg := modelBoundsError(o.maxThreads, o.maxCalls); msg != "" {
		fmt.Fprintf(e.stderr, "birch replay: %s\n", msg)
		return ExitBadInput
	}
	tf, err := readTrail(fs.Arg(1))
	if err != nil {
		fmt.Fprintf(e.stderr, "birch replay: %v\n", err)
		return ExitBadInput
	}
	l, m := compileModel(e, fs.Arg(0), model.Options{MaxThreads: o.maxThreads, MaxCallDepth: o.maxCalls, ExposeInvisible: tf.ExposeInvisible})
	if m == nil {
		return ExitBadInput
	}
	w := e.stdout
	notFit := func(format string, args ...any) int {
		fmt.Fprintf(e.stderr, "birch replay: the trail does not fit the model: "+format+"\n", args...)
		return ExitBadInput
	}
	if len(tf.Trail) > 0 && len(tf.Trail) != len(tf.Ordinals) {
		return notFit("it has %d ordinals but %d recorded steps", len(tf.Ordinals), len(tf.Trail))
	}
	init, fail := m.Initial(nil)
	if fail != nil {
		if len(tf.Ordinals) == 0 && tf.Violation != nil && tf.Violation.Kind == failKind(fail) {
			fmt.Fprintf(w, "fail: %s: %s (creating the initial state)\n", failKind(fail), fail.Msg)
			return ExitViolation
		}
		fmt.Fprintf(e.stderr, "birch replay: the initial state cannot be created: %s\n", fail.Msg)
		return ExitBadInput
	}
	fmt.Fprintln(w, "initial state:")
	printState(w, m.Describe(init))
	cur := init
	states := [][]byte{init} // states[i]: the state before step i+1
	for i, ord := range tf.Ordinals {
		var out strings.Builder
		st := m.Print(cur, ord, &out)
		if st == nil {
			fmt.Fprintf(e.stderr, "birch replay: the trail does not fit the model: step %d: the state has no outcome number %d\n", i+1, ord)
			return ExitBadInput
		}
		ts := search.TrailStep{Step: *st, Before: cur, After: st.State}
		if st.Outcome != model.OK {
			ts.After = nil
		}
		d := describeTrail(m, l.fset, []search.TrailStep{ts})[0]
		d.N = i + 1
		if i < len(tf.Trail) {
			rec := tf.Trail[i]
			if rec.Thread != d.Thread || rec.From != d.From || rec.To != d.To {
				fmt.Fprintf(e.stderr, "birch replay: the trail does not fit the model: step %d: the trail has %s %s -> %s, the model gives %s %s -> %s\n",
					i+1, rec.Thread, rec.From, rec.To, d.Thread, d.From, d.To)
				return ExitBadInput
			}
		}
		fmt.Fprintf(w, "step %d: %s  %s -> %s  %s\n", d.N, d.Thread, d.From, d.To, d.Pos)
		for _, src := range d.Source {
			fmt.Fprintf(w, "  %s\n", src)
		}
		if out.Len() > 0 {
			for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
				fmt.Fprintf(w, "  output: %s\n", line)
			}
		}
		if st.Outcome != model.OK {
			if i != len(tf.Ordinals)-1 {
				return notFit("step %d ends in %s, but the trail goes on", i+1, failKind(st))
			}
			if tf.Violation != nil && tf.Violation.Kind != failKind(st) {
				return notFit("it ends in %s, but records %s", failKind(st), tf.Violation.Kind)
			}
			fmt.Fprintf(w, "fail: %s\n", d.Msg)
			return ExitViolation
		}
		printState(w, m.Describe(st.State))
		cur = st.State
		states = append(states, cur)
	}
	if tf.Violation != nil && tf.Violation.Kind == model.Deadlock.String() {
		n, allDone := m.Next(cur, func(*model.Step) {})
		if n == 0 && !allDone {
			fmt.Fprintln(w, "fail: deadlock: no thread can move")
			for _, t := range m.Threads(cur, true) {
				fmt.Fprintf(w, "  %s @ %s", t.Name, t.Location)
				if t.Done {
					fmt.Fprint(w, ": terminated")
				}
				fmt.Fprintln(w)
				for _, why := range t.Waits {
					fmt.Fprintf(w, "      %s\n", why)
				}
			}
			return ExitViolation
		}
		fmt.Fprintln(e.stderr, "birch replay: the trail does not fit the model: it records a deadlock, but its last state has successors")
		return ExitBadInput
	}
	if tf.Violation != nil && tf.Violation.Kind == model.InvariantViolated.String() {
		var invs []*types.Property
		for _, p := range l.prog.Properties {
			if !p.LTL {
				invs = append(invs, p)
			}
		}
		checker, err := search.NewInvariants(m, invs)
		if err == nil && checker != nil {
			v := &model.Step{}
			if !checker.Check(cur, v) {
				fmt.Fprintf(w, "fail: %s: %s\n", v.Kind, v.Msg)
				return ExitViolation
			}
		}
		return notFit("it records a false invariant, but every invariant holds in its last state")
	}
	if tf.Violation != nil && tf.Violation.Kind == model.LTLViolated.String() && tf.CycleStart != nil {
		cs := *tf.CycleStart
		if cs < 0 || cs > len(tf.Ordinals) {
			return notFit("its cycle starts at step %d of %d", cs, len(tf.Ordinals))
		}
		if tf.Stutter {
			if n, _ := m.Next(cur, func(*model.Step) {}); n != 0 {
				return notFit("it ends by repeating its last state, but that state has successors")
			}
			fmt.Fprintln(w, "fail: ltl: the execution ends here and repeats its last state forever, violating the property")
			return ExitViolation
		}
		if cs == len(tf.Ordinals) || string(states[cs]) != string(cur) {
			return notFit("its cycle (from step %d) does not return to the state it starts from", cs+1)
		}
		fmt.Fprintf(w, "fail: ltl: the steps from %d on repeat forever (a lasso), violating the property\n", cs+1)
		return ExitViolation
	}
	if tf.Violation != nil {
		return notFit("it records a violation (%s), but its steps end without one", tf.Violation.Kind)
	}
	fmt.Fprintln(w, "end of trail: no violation")
	return ExitPass
}

// failKind names the violation kind of an Error or Limit outcome.
func failKind(st *model.Step) string {
	if st.Outcome == model.Limit {
		return model.LimitReached.String()
	}
	return st.Kind.String()
}

func printState(w interface{ Write([]byte) (int, error) }, vars []model.Var) {
	for _, v := range vars {
		if strings.HasSuffix(v.Name, " @") {
			fmt.Fprintf(w, "  %s %s\n", v.Name, v.Value)
			continue
		}
		fmt.Fprintf(w, "  %s = %s\n", v.Name, v.Value)
	}
}

func runSimulate(e *env, fs *flag.FlagSet, opts any) int {
	o := opts.(*simOptions)
	if fs.NArg() != 1 {
		fmt.Fprintf(e.stderr, "birch simulate: want exactly one model file; %s\n", usageLine(fs))
		return ExitBadInput
	}
	if o.steps < 0 {
		fmt.Fprintln(e.stderr, "birch simulate: --steps must not be negative")
		return ExitBadInput
	}
	l, m := compileModel(e, fs.Arg(0), model.Options{})
	if m == nil {
		return ExitBadInput
	}
	w := e.stdout
	rng := rand.New(rand.NewPCG(o.seed, o.seed^0x9e3779b97f4a7c15))
	cur, fail := m.Initial(nil)
	if fail != nil {
		fmt.Fprintf(w, "fail: %s: %s\n", fail.Kind, fail.Msg)
		return ExitViolation
	}
	for i := 0; i < o.steps; i++ {
		n, allDone := m.Next(cur, func(*model.Step) {})
		if n == 0 {
			if allDone {
				fmt.Fprintf(w, "simulation: every thread terminated after %d steps\n", i)
				return ExitPass
			}
			fmt.Fprintf(w, "fail: deadlock: no thread can move (after %d steps)\n", i)
			for _, t := range m.Threads(cur, true) {
				if !t.Done {
					fmt.Fprintf(w, "  %s @ %s: %s\n", t.Name, t.Location, strings.Join(t.Waits, "; "))
				}
			}
			return ExitViolation
		}
		var out strings.Builder
		st := m.Print(cur, rng.IntN(n), &out)
		if o.verbose {
			ts := search.TrailStep{Step: *st, Before: cur, After: st.State}
			if st.Outcome != model.OK {
				ts.After = nil
			}
			d := describeTrail(m, l.fset, []search.TrailStep{ts})[0]
			fmt.Fprintf(w, "step %d: %s  %s -> %s  %s\n", i+1, d.Thread, d.From, d.To, d.Pos)
			for _, src := range d.Source {
				fmt.Fprintf(w, "    %s\n", src)
			}
			for _, c := range d.Changes {
				if !strings.HasSuffix(c.Name, " @") {
					fmt.Fprintf(w, "    %s = %s\n", c.Name, c.Value)
				}
			}
		}
		fmt.Fprint(w, out.String())
		switch st.Outcome {
		case model.Error:
			fmt.Fprintf(w, "fail: %s: %s at %s (after %d steps)\n", st.Kind, st.Msg, posString(l.fset, st.Pos), i+1)
			return ExitViolation
		case model.Limit:
			fmt.Fprintf(w, "simulation: bound hit: %s at %s (after %d steps)\n", st.Msg, posString(l.fset, st.Pos), i+1)
			return ExitInconclusive
		}
		cur = st.State
	}
	fmt.Fprintf(w, "simulation: stopped after %d steps (--steps)\n", o.steps)
	return ExitPass
}
