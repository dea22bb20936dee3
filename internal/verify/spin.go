package verify

import (
	"birch/internal/bir/types"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"birch/internal/backend/promela"
	"birch/internal/search"
)

// The SPIN step (birch spin): each check of the plan is one SPIN run. The
// model is translated to Promela, spin, gcc and pan run in a private
// directory, and pan's verdict, statistics and trail are read back in
// birch's terms: the trail is mapped to the BIR model and replayed by
// birch's engine (docs/promela.md).

// SpinOptions configures the SPIN step.
type SpinOptions struct {
	// POR: SPIN's partial-order reduction (otherwise -DNOREDUCE).
	POR bool
	// Bitstate: bitstate hashing (-DBITSTATE), which may miss states.
	Bitstate bool
	// PanArgs: extra flags for pan.
	PanArgs []string
	// MemLimitMB bounds pan's memory (-DMEMLIM), 0 for none.
	MemLimitMB int
	// Keep, when not "", receives a copy of each run's files at its end:
	// the first check's in Keep, those of an ltl property of a run with
	// several checks in Keep/ltl_NAME (the name of its claim).
	Keep string

	quickBuild bool // tests: gcc -O0 (promela.SpinConfig.QuickBuild)
}

// ToolError is an error of SPIN's tools or of their files (spin or gcc
// missing, a tool that failed, --keep's directory); a command prints it
// after its name, with exit status 2.
type ToolError struct{ Err error }

func (e *ToolError) Error() string { return e.Err.Error() }

func (e *ToolError) Unwrap() error { return e.Err }

// RunSpin checks a task with SPIN instead of birch's own search: every
// property the task selects, as Run does (one SPIN run for safety with the
// invariants, unless only ltl properties were selected, and one per ltl
// property), each a Check of the Result with Search "spin" and its
// SpinInfo. A violation is found by SPIN and replayed in birch where its
// trail maps to the model. t.Search's other fields do not apply; its
// limits (Limits) stop SPIN's tools.
func RunSpin(t *Task, so SpinOptions) (*Result, error) {
	if err := promela.LookSpin(); err != nil {
		return nil, &ToolError{err}
	}
	pl, stopped, err := t.plan(so.searchName())
	if stopped != nil || err != nil {
		return stopped, err
	}
	several := len(pl.ltl) > 1 || (pl.safety && len(pl.ltl) > 0)
	return runPlan(t, pl, unbounded(t, &spinTechnique{so: so, models: modelCache{t: t}, several: several}))
}

// spinTechnique checks each search of a plan with one SPIN run.
type spinTechnique struct {
	so     SpinOptions
	models modelCache
	// several: the run has several checks, whose files --keep keeps
	// apart
	several bool
}

func (s *spinTechnique) name() string { return s.so.searchName() }

func (s *spinTechnique) safetyProperties(invs []*types.Property) []*Property {
	return safetyProperties(invs, false)
}

func (s *spinTechnique) safety(t *Task, props []*Property, invs []*types.Property) (*Check, error) {
	c := &Check{Properties: props, Search: s.name()}
	m, stopped, err := s.models.get(t.Input, false)
	switch {
	case err != nil:
		return nil, err
	case stopped != "":
		return c.stop(PhaseModel, stopped), nil
	}
	return c, spinSafety(t, s.so, c, m, invs)
}

func (s *spinTechnique) ltl(t *Task, p *ltlProperty) (*Check, error) {
	c := &Check{Properties: []*Property{p.Property}, Search: s.name()}
	m, stopped, err := s.models.get(p.in, false)
	switch {
	case err != nil:
		return nil, err
	case stopped != "":
		return c.stop(PhaseModel, stopped), nil
	}
	return c, spinLTL(t, s.so, c, p, m, s.several)
}

// searchName is the Search of the step's checks: "spin", "spin --por",
// "spin --bitstate", ...
func (so SpinOptions) searchName() string {
	s := "spin"
	if so.POR {
		s += " --por"
	}
	if so.Bitstate {
		s += " --bitstate"
	}
	return s
}

// spinRun is one run of SPIN's tools on a translation.
type spinRun struct {
	tr      *promela.Translation
	r       *promela.PanReport
	dir     string // the directory SPIN ran in (removed by cleanup)
	stopped string // why a limit stopped a tool, or ""
	cleanup func()
}

// run translates in's program with popts (within the limits), runs SPIN
// on it with sc (pan checks the translation's claim, if it has one) and
// fills c's SpinInfo, statistics, bounds hit and grounds. keepClaim keeps
// the files in a directory of so.Keep named after the claim. It returns
// nil when a limit stopped the translation (c is then stopped); the caller
// must call the run's cleanup.
func (so SpinOptions) run(t *Task, c *Check, in *Input, popts promela.Options, sc promela.SpinConfig, keepClaim bool) (*spinRun, error) {
	lim := t.limits()
	t0 := time.Now()
	var tr *promela.Translation
	var err error
	popts.MaxThreads, popts.MaxCallDepth, popts.ReportLimits = t.Model.MaxThreads, t.Model.MaxCallDepth, true
	if stopped := lim.Run(PhasePromela, func() { tr, err = promela.TranslateFull(in.Prog, popts) }); stopped != "" {
		c.stop(PhasePromela, stopped)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	translateTime := time.Since(t0)
	keep := so.Keep
	if len(tr.Claims) > 0 {
		sc.Claim, sc.Procs = tr.Claims[0], tr.Procs
		if keepClaim && keep != "" {
			keep = filepath.Join(keep, tr.Claims[0])
		}
	}
	dir, cleanup, err := spinDir(keep, t.warn)
	if err != nil {
		return nil, &ToolError{err}
	}
	sc.Dir, sc.POR, sc.Bitstate, sc.PanArgs, sc.MemLimitMB, sc.QuickBuild = dir, so.POR, so.Bitstate, so.PanArgs, so.MemLimitMB, so.quickBuild
	r, err := promela.RunSpin(lim.Ctx, tr.Promela, sc)
	run := &spinRun{tr: tr, r: r, dir: dir, stopped: spinStopped(err), cleanup: cleanup}
	if err != nil && run.stopped == "" {
		cleanup()
		return nil, &ToolError{err}
	}
	c.Spin = &SpinInfo{
		StatesMatched: r.Matched, VectorBytes: r.VectorSize,
		TranslateSeconds: translateTime.Seconds(), SpinSeconds: r.SpinTime.Seconds(),
		CompileSeconds: r.CompileTime.Seconds(), PanSeconds: r.PanTime.Seconds(),
		CFlags: r.CFlags, PanArgs: r.PanArgs, Assertion: r.Assertion, Kept: keep,
	}
	c.Stats = spinStats(r)
	c.LimitsHit = describeLimits(in.Fset, panLimits(r, tr))
	c.RestsOn = spinRestsOn(r, so.Bitstate, c.LimitsHit, run.stopped)
	return run, nil
}

var panLimitRE = regexp.MustCompile(`(?m)^BIR-limit (\d+)$`)

// panLimits are the bounds of the model pan reported hitting (each once:
// pan does not count them).
func panLimits(r *promela.PanReport, tr *promela.Translation) []search.LimitHit {
	var out []search.LimitHit
	seen := map[int]bool{}
	for _, mm := range panLimitRE.FindAllStringSubmatch(r.Output, -1) {
		k, _ := strconv.Atoi(mm[1])
		if k < len(tr.Limits) && !seen[k] {
			seen[k] = true
			out = append(out, search.LimitHit{Msg: tr.Limits[k].Msg, Pos: tr.Limits[k].Pos})
		}
	}
	return out
}

// spinStats reads SPIN's statistics as birch's: pan's own elapsed time
// (the process's wall time when pan reports none), its total memory.
func spinStats(r *promela.PanReport) search.Stats {
	secs := r.Seconds
	if secs <= 0 {
		secs = r.PanTime.Seconds()
	}
	return search.Stats{
		States: int(r.States), Transitions: r.Transitions, MaxDepth: int(r.Depth),
		Seconds: secs, Memory: int64(r.MemoryMB * (1 << 20)),
	}
}

// spinRestsOn is what a SPIN run's verdict rests on: pan's depth and
// memory bounds, bitstate hashing (which may miss states), the bounds of
// the model hit, a limit that stopped it, a search pan did not complete.
func spinRestsOn(r *promela.PanReport, bitstate bool, limits []Limit, stopped string) RestsOn {
	var ro RestsOn
	if stopped != "" {
		ro = append(ro, Basis{Bounded, stopped})
	}
	if r.DepthLimited {
		ro = append(ro, Basis{Bounded, fmt.Sprintf("SPIN's search was cut at its depth bound (pan -m%d)", r.DepthBound)})
	}
	if r.MemoryLimited {
		ro = append(ro, Basis{Bounded, "pan reached its memory bound (--max-memory)"})
	}
	if bitstate {
		ro = append(ro, Basis{UnderApproximated, "SPIN's bitstate search (supertrace), which may miss states"})
	}
	for _, l := range limits {
		ro = append(ro, Basis{Bounded, "a bound of the model cut paths: " + l.Message})
	}
	if stopped == "" && r.Errors == 0 && len(ro) == 0 && (r.Incomplete || r.States == 0) {
		ro = append(ro, Basis{Bounded, "SPIN's search did not complete"})
	}
	return ro
}

// noViolation fills the verdict of a SPIN run without a violation: a pass
// with the reason given, unless the search was stopped, cut by pan's depth
// or memory bound, a bitstate search, not complete, or cut at a bound of
// the model (its RestsOn then says so too).
func (run *spinRun) noViolation(c *Check, bitstate bool, pass string) {
	r := run.r
	switch {
	case run.stopped != "":
		c.Reason = run.stopped
	case r.DepthLimited:
		c.Reason = fmt.Sprintf("no violation found, but SPIN's search was cut at its depth bound (pan -m%d)", r.DepthBound)
	case r.MemoryLimited:
		c.Reason = "no violation found before pan reached its memory bound (--max-memory)"
	case bitstate:
		c.Reason = "no violation found by SPIN's bitstate search (supertrace), which may miss states"
	case r.Incomplete || r.States == 0:
		c.Reason = "SPIN's search did not complete: " + lastLines(r.Output, 3)
	case len(c.LimitsHit) > 0:
		c.Reason = "no violation within the bounds; paths were cut where a bound was hit: " + c.LimitsHit[0].Message
	default:
		c.Reason = pass
	}
	// pan explored every state (bounds of the model may have cut paths)
	c.Explored = run.stopped == "" && r.States > 0 && !r.Incomplete && !r.DepthLimited && !r.MemoryLimited && !bitstate
}

// spinStopped returns the reason of an inconclusive verdict when err says
// that RunSpin was stopped by a limit or a signal, else "".
func spinStopped(err error) string {
	var se *promela.StoppedError
	if !errors.As(err, &se) {
		return ""
	}
	why := "interrupted"
	if r := StopReason(se.Cause); r != "" {
		why = r
	}
	switch se.Phase {
	case "spin -a":
		return why + " while spin -a generated the verifier"
	case "gcc":
		return why + " while gcc compiled pan"
	}
	return why + " while pan searched: SPIN's search did not complete"
}

func spinErrorText(r *promela.PanReport) string {
	switch {
	case r.Assertion != "":
		return "assertion violated " + r.Assertion
	case r.Kind == "deadlock":
		return "invalid end state"
	}
	return lastLines(r.Output, 1)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "; ")
}
