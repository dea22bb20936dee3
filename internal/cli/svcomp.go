package cli

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	cfront "birch/internal/frontend/c"
	"birch/internal/svcomp"
	"birch/internal/verify"
)

// C programs and SV-COMP tasks (docs/svcomp.md): the C front end's flags
// of every command that loads inputs, `birch check --task`, and the
// violation witness of --witness.

// cInputCommands are the commands that load inputs, and so take the C
// front end's flags.
var cInputCommands = map[string]bool{
	"check": true, "replay": true, "simulate": true, "spin": true, "translate": true, "vet": true, "abstract": true,
}

// cFlags are the C front end's flags of a command.
type cFlags struct {
	dataModel     string
	overflowError bool
	mallocMayFail bool
}

// addCFlags registers the C front end's flags on the flag set of a command
// that loads inputs (nil for the others).
func addCFlags(fs *flag.FlagSet, cmd string) *cFlags {
	if !cInputCommands[cmd] {
		return nil
	}
	f := &cFlags{}
	fs.StringVar(&f.dataModel, "data-model", "ILP32", "C programs: the widths of int, long and pointers: `ILP32` (32, 32, 32) or LP64 (32, 64, 64)")
	fs.BoolVar(&f.overflowError, "overflow-error", false, "C programs: signed integer overflow is an error (a violation) instead of wrapping around")
	fs.BoolVar(&f.mallocMayFail, "malloc-may-fail", true, "C programs: malloc and calloc may return null (false: they always succeed, CBMC's default)")
	return f
}

// apply puts the flags into the loading settings; false after a usage
// error (printed).
func (f *cFlags) apply(e *env, cmd string) bool {
	if f == nil {
		return true
	}
	dm, err := cfront.ParseDataModel(f.dataModel)
	if err != nil {
		fmt.Fprintf(e.stderr, "birch %s: --data-model: %v\n", cmd, err)
		return false
	}
	e.load.C.DataModel, e.load.C.OverflowError = dm, f.overflowError
	e.load.C.MallocNeverFails = !f.mallocMayFail
	return true
}

// isFlagSet reports whether the command line gave the flag.
func isFlagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// isCInput reports whether an input is a C program (by its extension, as
// verify.LoadWith decides).
func isCInput(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".c" || ext == ".i"
}

// unsupportedResult is the inconclusive check of a C program with
// constructs the lowering does not handle: no search, each construct
// named with its position.
func unsupportedResult(name, search string, ue *cfront.UnsupportedError) *verify.Result {
	return noSearch(name, search, phaseCFrontEnd, svcomp.UnsupportedReason(ue), "the C program is not lowered to a model")
}

// phaseCFrontEnd is the phase of a check that the C front end ended.
const phaseCFrontEnd = "C front end"

// noSearch is the inconclusive result of a check that made no search, for
// reason (what: why there was none).
func noSearch(name, search, phase, reason, what string) *verify.Result {
	c := &verify.Check{Search: search, Reason: reason}
	c.Stopped = &verify.Stop{Phase: phase, Reason: reason}
	c.RestsOn = verify.RestsOn{{Kind: verify.Bounded, What: "no search: " + what}}
	return &verify.Result{Model: name, Checks: []*verify.Check{c}}
}

// taskOutcome is the answer to --task, for the report.
type taskOutcome struct {
	task    *svcomp.Task
	prop    *svcomp.Property
	outcome svcomp.Outcome
}

// jsonSVCOMP is the "svcomp" object of the JSON report of --task.
type jsonSVCOMP struct {
	Verdict   string `json:"verdict"`
	Reason    string `json:"reason"`
	Task      string `json:"task"`
	Property  string `json:"property"`
	Expected  string `json:"expected_verdict,omitempty"`
	Agreement string `json:"agreement,omitempty"`
}

// svcompDoc is the "svcomp" object of a report (nil without --task).
func (o *checkOptions) svcompDoc() *jsonSVCOMP {
	t := o.svcomp
	if t == nil {
		return nil
	}
	return &jsonSVCOMP{Verdict: string(t.outcome.Answer), Reason: t.outcome.Reason, Task: t.task.File, Property: t.outcome.Property,
		Expected: t.outcome.Expected, Agreement: t.outcome.Agreement()}
}

// runTask checks an SV-COMP task: its program under its data model, for
// its property; the first line of the report is the answer (true, false,
// unknown), and the exit status is the answer's (0, 1, 3).
func runTask(e *env, fs *flag.FlagSet, o *checkOptions) int {
	if fs.NArg() != 0 {
		fmt.Fprintf(e.stderr, "birch check: --task names the program to check; give no model file; %s\n", usageLine(fs))
		return ExitBadInput
	}
	if isFlagSet(fs, "data-model") {
		fmt.Fprintln(e.stderr, "birch check: --data-model: the task's options.data_model gives the data model")
		return ExitBadInput
	}
	task, err := svcomp.ReadTask(o.task, func(name string) ([]byte, error) { return readSource(e, name) })
	if err != nil {
		fmt.Fprintf(e.stderr, "birch check: %v\n", err)
		return ExitBadInput
	}
	p, err := task.Property(o.taskProperty)
	if err != nil {
		fmt.Fprintf(e.stderr, "birch check: %v\n", err)
		return ExitBadInput
	}
	o.svcomp = &taskOutcome{task: task, prop: p}
	name := task.InputFiles[0]
	var why string
	switch {
	case p.Kind == svcomp.Unsupported:
		why = p.Why
	case task.Language != "C":
		why = fmt.Sprintf("the task's language is %s: birch checks C tasks", task.Language)
	case len(task.InputFiles) != 1:
		why = fmt.Sprintf("the task has %d input files: birch checks a task of one", len(task.InputFiles))
	case !isCInput(name):
		why = fmt.Sprintf("the task's input %s is not a C program (.c or .i)", name)
	}
	if why != "" {
		o.svcomp.outcome = svcomp.Outcome{Answer: svcomp.Unknown, Reason: why, Property: p.Title(), Expected: p.Expected}
		res := noSearch(name, o.search, "task", why, "the task is not one birch checks")
		return o.renderTask(e, res)
	}
	e.load.C.DataModel = task.DataModel
	src, _ := readSource(e, name)
	svcomp.ConfigureLowering(&e.load.C, p, src)
	start, cegar := time.Now(), o.cegar
	res, in, status := o.check(e, fs, name)
	if res == nil {
		// a program birch cannot read (a C syntax error, a missing file):
		// exit 2, the answer unknown
		o.svcomp.outcome = svcomp.Outcome{Answer: svcomp.Unknown, Reason: "the program could not be read (see the errors above)", Property: p.Title(), Expected: p.Expected}
		if o.json {
			printJSON(e.stdout, struct {
				Model  string      `json:"model"`
				SVCOMP *jsonSVCOMP `json:"svcomp"`
			}{name, o.svcompDoc()})
		} else {
			fmt.Fprintf(e.stdout, "%s\n", svcomp.Unknown)
			printTaskLines(e, o)
		}
		return status
	}
	o.savePredicatesOf(e, res)
	o.svcomp.outcome = o.decide(e, p, res, in, name)
	if a := o.svcomp.outcome.Answer; a != svcomp.Unknown && !task.DataModelGiven {
		// the task leaves the data model open (format 1.0 has no
		// options): an answer must hold under both
		o.svcomp.outcome = o.otherDataModel(e, fs, p, name, in, start, cegar)
	}
	status = o.renderTask(e, res)
	if o.svcomp.outcome.Answer == svcomp.False {
		o.writeWitness(e, in, res, p)
	}
	return status
}

// decide is the answer to the task's property on a check's result.
func (o *checkOptions) decide(e *env, p *svcomp.Property, res *verify.Result, in *verify.Input, name string) svcomp.Outcome {
	if c := res.Checks[0]; c.Stopped != nil && c.Stopped.Phase == phaseCFrontEnd {
		return svcomp.Outcome{Answer: svcomp.Unknown, Reason: c.Reason, Property: p.Title(), Expected: p.Expected}
	}
	var out *cfront.Output
	if in != nil {
		out = in.C
	}
	return svcomp.Decide(p, res, out, sourceLines(e, name))
}

// otherDataModel checks a task that gives no data model again under LP64
// (the first check was ILP32's), within what is left of --time-limit: the
// answer is the first check's when both agree, unknown otherwise.
func (o *checkOptions) otherDataModel(e *env, fs *flag.FlagSet, p *svcomp.Property, name string, in32 *verify.Input, start time.Time, cegar bool) svcomp.Outcome {
	first := o.svcomp.outcome
	unknown := func(why string) svcomp.Outcome {
		return svcomp.Outcome{Answer: svcomp.Unknown, Property: first.Property, Expected: first.Expected,
			Reason: fmt.Sprintf("the task gives no data model, and %s (under ILP32: %s: %s)", why, first.Answer, first.Reason)}
	}
	e.load.C.DataModel = cfront.LP64
	in64, err := loadInputErr(e, name)
	e.load.C.DataModel = cfront.ILP32
	if err == nil && in32 != nil && in32.C != nil && in64.C != nil && svcomp.SameModel(in32.C.BIR, in64.C.BIR) {
		// the program does not depend on the data model: its model is
		// the same
		first.Reason += " (the same model under ILP32 and LP64: the task gives no data model)"
		return first
	}
	if o.timeLimit != "" {
		limit, err := parseDuration(o.timeLimit)
		if err != nil {
			return unknown("the time limit cannot be read")
		}
		left := limit - time.Since(start)
		if left <= 0 {
			return unknown("no time was left to check it under LP64")
		}
		o.timeLimit = left.Round(time.Millisecond).String()
	}
	o.lim.Release()
	o.lim, o.cegar = nil, cegar
	e.load.C.DataModel = cfront.LP64
	res, in, _ := o.check(e, fs, name)
	e.load.C.DataModel = cfront.ILP32
	if res == nil {
		return unknown("the program cannot be read under LP64")
	}
	second := o.decide(e, p, res, in, name)
	if second.Answer != first.Answer {
		return unknown(fmt.Sprintf("under LP64 the answer is %s: %s", second.Answer, second.Reason))
	}
	first.Reason += " (the same under ILP32 and LP64: the task gives no data model)"
	return first
}

// renderTask prints the report of --task: the answer, the task's lines,
// then the check's report (in JSON, the answer is the "svcomp" object).
// The exit status is the answer's.
func (o *checkOptions) renderTask(e *env, res *verify.Result) int {
	out := o.svcomp.outcome
	if !o.json {
		fmt.Fprintf(e.stdout, "%s\n", out.Answer)
		printTaskLines(e, o)
	}
	renderResult(e, o, res)
	switch out.Answer {
	case svcomp.True:
		return ExitPass
	case svcomp.False:
		return ExitViolation
	}
	return ExitInconclusive
}

// printTaskLines prints the lines after the answer: the task, the
// property and the reason; the expected verdict, when the task gives one.
func printTaskLines(e *env, o *checkOptions) {
	t := o.svcomp
	fmt.Fprintf(e.stdout, "task %s: %s: %s\n", t.task.File, t.outcome.Property, t.outcome.Reason)
	if a := t.outcome.Agreement(); a != "" {
		fmt.Fprintf(e.stdout, "expected verdict: %s (%s)\n", t.outcome.Expected, a)
	}
}

// sourceLines gives the lines of the C source positions name (the input's
// files, or their originals by the line markers of a .i file).
func sourceLines(e *env, input string) func(file string, line int) string {
	return svcomp.SourceLines([]string{input}, func(name string) ([]byte, error) { return readSource(e, name) })
}

// witnessProperty is the property a violation of a check without a task
// violates: the call of an error function or the ERROR label it is at, or
// nil.
func witnessProperty(e *env, in *verify.Input, res *verify.Result) *svcomp.Property {
	var cands []*svcomp.Property
	for _, f := range cfront.DefaultErrorFunctions {
		cands = append(cands, &svcomp.Property{Kind: svcomp.UnreachCall, Function: f, Spec: fmt.Sprintf("CHECK( init(main()), LTL(G ! call(%s())) )", f)})
	}
	for _, l := range cfront.DefaultErrorLabels {
		cands = append(cands, &svcomp.Property{Kind: svcomp.UnreachLabel, Label: l, Spec: fmt.Sprintf("CHECK( init(main()), LTL(G ! label(%s)) )", l)})
	}
	for _, p := range cands {
		if svcomp.Decide(p, res, in.C, sourceLines(e, in.Name)).Answer == svcomp.False {
			return p
		}
	}
	return nil
}

// writeWitness writes the violation witness of --witness for a confirmed
// violation of a C program (p: the task's property, nil without --task).
func (o *checkOptions) writeWitness(e *env, in *verify.Input, res *verify.Result, p *svcomp.Property) {
	if o.witness != "" && in != nil && in.Java != nil {
		fmt.Fprintln(e.stderr, "birch check: --witness: no witness written: birch writes violation witnesses of C programs only")
		return
	}
	if o.witness == "" || in == nil || in.C == nil || res.Verdict() != verify.Fail {
		return
	}
	c := res.Deciding()
	v := c.Violation
	if v == nil || !v.Confirmation.Confirmed {
		return
	}
	if p == nil {
		// without a task: the property is that of the error function or
		// label the violation is at; any other violation has no witness
		p = witnessProperty(e, in, res)
		if p == nil {
			fmt.Fprintf(e.stderr, "birch check: --witness: no witness written: the violation is not a call of %s or an ERROR label\n", strings.Join(cfront.DefaultErrorFunctions, " or "))
			return
		}
	}
	prog, err := os.ReadFile(in.Name)
	if err != nil {
		fmt.Fprintf(e.stderr, "birch check: --witness: %v\n", err)
		return
	}
	info := svcomp.WitnessInfo{Producer: "birch " + Version, ProgramFile: in.Name, Program: prog, Architecture: "32bit", Created: time.Now().UTC(),
		Spec: p.Spec}
	if e.load.C.DataModel == cfront.LP64 {
		info.Architecture = "64bit"
	}
	var b bytes.Buffer
	if err := svcomp.WriteWitness(&b, info, svcomp.Waypoints(v, sourceLines(e, in.Name))); err == nil {
		err = os.WriteFile(o.witness, b.Bytes(), 0o644)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch check: --witness: %v\n", err)
			return
		}
	}
	if !o.json {
		fmt.Fprintf(e.stdout, "witness written to %s\n", o.witness)
	}
}
