package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"birch/internal/model"
	"birch/internal/verify"
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
	in := loadInput(e, fs.Arg(0))
	if in == nil {
		return ExitBadInput
	}
	mo := model.Options{MaxThreads: o.maxThreads, MaxCallDepth: o.maxCalls, ExposeInvisible: tf.ExposeInvisible, ChoiceValues: tf.ChoiceValues}
	if mo.ChoiceValues == nil && model.UnboundedChoices(in.Prog, mo.MaxChoiceRange) != nil {
		// Only a predicate abstraction (--predicates, --cegar,
		// --on-the-fly) saves a trail of a model with unbounded choices,
		// and its trail file names the values they take, or none when the
		// trail takes none of them: the model is compiled with the given
		// values only, as the check confirmed the trail, so a step that
		// does take one is a limit of the replay.
		mo.ChoiceValues = []int64{}
	}
	in, m := compileModel(e, in, mo)
	if m == nil {
		return compileStatus(in)
	}
	tr := &verify.SavedTrail{Ordinals: tf.Ordinals, CycleStart: tf.CycleStart, Stutter: tf.Stutter}
	for _, s := range tf.Trail {
		tr.Recorded = append(tr.Recorded, verify.Step{Thread: s.Thread, From: s.From, To: s.To})
	}
	if tf.Violation != nil {
		tr.Violation, tr.Message = tf.Violation.Kind, tf.Violation.Message
	}
	r := verify.ReplayTrail(in, m, tr)
	replayInCTerms(r, in)
	replayInJavaTerms(e, r, in)
	printReplay(e.stdout, r)
	if r.End == verify.ReplayMismatch {
		fmt.Fprintf(e.stderr, "birch replay: %s\n", r.Mismatch)
		return ExitBadInput
	}
	return exitStatus(r.Verdict())
}

// compileInput loads an input and compiles its model; on failure it
// prints the diagnostics and returns nil.
func compileInput(e *env, name string, mo model.Options) (*verify.Input, *model.Model) {
	in := loadInput(e, name)
	if in == nil {
		return nil, nil
	}
	return compileModel(e, in, mo)
}

// compileModel compiles the model of a loaded input, as compileInput.
func compileModel(e *env, in *verify.Input, mo model.Options) (*verify.Input, *model.Model) {
	m, err := model.New(in.Prog, mo)
	var ue *model.UnboundedChoiceError
	if errors.As(err, &ue) {
		fmt.Fprintf(e.stderr, "inconclusive: %v\n", ue)
		return in, nil
	}
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return nil, nil
	}
	return in, m
}

// compileStatus is the exit status of a compileInput that gave no model:
// inconclusive when it loaded the input but the model has a choice among
// more values than birch enumerates (model.UnboundedChoiceError), bad
// input otherwise.
func compileStatus(in *verify.Input) int {
	if in != nil {
		return ExitInconclusive
	}
	return ExitBadInput
}

// printReplay prints a replay: the initial state, each step with its
// output and the state it leads to, and the violation the trail ends in.
func printReplay(w io.Writer, r *verify.Replay) {
	if r.End == verify.ReplayInitial {
		fmt.Fprintf(w, "fail: %s: %s (creating the initial state)\n", r.Violation.Kind, r.Violation.Message)
		return
	}
	if r.Initial == nil {
		return
	}
	fmt.Fprintln(w, "initial state:")
	printState(w, r.Initial)
	for _, s := range r.Steps {
		fmt.Fprintf(w, "step %d: %s\n", s.N, stepHead(&s.Step))
		for _, src := range s.Source {
			fmt.Fprintf(w, "  %s\n", src)
		}
		if s.Output != "" {
			for _, line := range strings.Split(strings.TrimSuffix(s.Output, "\n"), "\n") {
				fmt.Fprintf(w, "  output: %s\n", line)
			}
		}
		if s.Outcome == model.OK {
			printState(w, s.State)
		}
	}
	switch r.End {
	case verify.ReplayStep:
		fmt.Fprintf(w, "fail: %s\n", r.Steps[len(r.Steps)-1].Msg)
	case verify.ReplayDeadlock:
		fmt.Fprintln(w, "fail: deadlock: no thread can move")
		for _, t := range r.Violation.Threads {
			fmt.Fprintf(w, "  %s @ %s", t.Thread, t.Location)
			if t.Terminated {
				fmt.Fprint(w, ": terminated")
			}
			fmt.Fprintln(w)
			for _, why := range t.Waits {
				fmt.Fprintf(w, "      %s\n", why)
			}
		}
	case verify.ReplayInvariant, verify.ReplayProposition:
		fmt.Fprintf(w, "fail: %s: %s\n", r.Violation.Kind, r.Violation.Message)
	case verify.ReplayStutter:
		fmt.Fprintln(w, "fail: ltl: the execution ends here and repeats its last state forever, violating the property")
	case verify.ReplayLasso:
		fmt.Fprintf(w, "fail: ltl: the steps from %d on repeat forever (a lasso), violating the property\n", r.Violation.Lasso.CycleStart+1)
	case verify.ReplayNoViolation:
		fmt.Fprintln(w, "end of trail: no violation")
	}
}

func printState(w io.Writer, vars []model.Var) {
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
	in, m := compileInput(e, fs.Arg(0), model.Options{})
	if m == nil {
		return compileStatus(in)
	}
	w := e.stdout
	jn := newJavaNamer(in, e.load.Java)
	sim := verify.Simulate(in, m, verify.SimulationConfig{Seed: o.seed, MaxSteps: o.steps, Describe: o.verbose,
		Each: func(d *verify.Step, output string) {
			if o.verbose {
				jn.step(d)
				fmt.Fprintf(w, "step %d: %s\n", d.N, stepHead(d))
				for _, src := range d.Source {
					fmt.Fprintf(w, "    %s\n", src)
				}
				for _, c := range d.Changes {
					if !strings.HasSuffix(c.Name, " @") {
						fmt.Fprintf(w, "    %s = %s\n", c.Name, c.Value)
					}
				}
			}
			fmt.Fprint(w, output)
		}})
	jn.simulation(sim)
	v := sim.Violation
	switch sim.End {
	case verify.SimulationInitial:
		fmt.Fprintf(w, "fail: %s: %s\n", v.Kind, v.Message)
	case verify.SimulationTerminated:
		fmt.Fprintf(w, "simulation: every thread terminated after %d steps\n", sim.Steps)
	case verify.SimulationDeadlock:
		fmt.Fprintf(w, "fail: deadlock: no thread can move (after %d steps)\n", sim.Steps)
		for _, t := range v.Threads {
			if !t.Terminated {
				fmt.Fprintf(w, "  %s @ %s: %s\n", t.Thread, t.Location, strings.Join(t.Waits, "; "))
			}
		}
	case verify.SimulationError:
		fmt.Fprintf(w, "fail: %s: %s at %s (after %d steps)\n", v.Kind, v.Message, v.Pos, sim.Steps)
	case verify.SimulationBound:
		fmt.Fprintf(w, "simulation: bound hit: %s at %s (after %d steps)\n", sim.Bound.Message, sim.Bound.Pos, sim.Steps)
	case verify.SimulationStepLimit:
		fmt.Fprintf(w, "simulation: stopped after %d steps (--steps)\n", sim.Steps)
	}
	return exitStatus(sim.Verdict())
}
