package verify

import (
	"errors"
	"fmt"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/ltl"
	"birch/internal/model"
	"birch/internal/search"
)

// The explicit steps: the search of a compiled model for safety (the
// assertions, runtime errors, deadlocks and invariants) and the product
// search of an LTL property. Other steps compose them: the check with data
// abstraction runs them on the abstract model.

// safetyModel is m with the invariants checked in every state.
func safetyModel(m *model.Model, invs []*types.Property) (search.Model, error) {
	if len(invs) == 0 {
		return m, nil
	}
	inv, err := search.NewInvariants(m, invs)
	if err != nil {
		return nil, err
	}
	return search.WithStateCheck(m, inv), nil
}

// restsOnSearch is what a search of the model as written rests on: the
// bounds and limits that cut it, and --choose-free.
func restsOnSearch(cfg search.Config, res *search.Result) RestsOn {
	var r RestsOn
	if cfg.ChooseFree {
		r = append(r, Basis{UnderApproximated, "--choose-free: only the steps that execute no internChoose, forall or reachable"})
	}
	if res.DepthCut {
		r = append(r, Basis{Bounded, fmt.Sprintf("--max-depth=%d cut paths", cfg.MaxDepth)})
	}
	for _, lh := range res.LimitsHit {
		if cfg.LimitError {
			// --on-limit=error: a bound hit is a violation, not a cut
			break
		}
		r = append(r, Basis{Bounded, "a bound of the model cut paths: " + lh.Msg})
	}
	if res.Stopped != "" {
		r = append(r, Basis{Bounded, res.Stopped})
	}
	return r
}

// SearchSafety is the explicit step: it searches m (compiled from in) for
// a violation of safety (assertions, runtime errors, deadlocks unless
// cfg.NoDeadlock) and of the invariants invs.
func SearchSafety(t *Task, in *Input, m *model.Model, invs []*types.Property) (*Check, error) {
	sm, err := safetyModel(m, invs)
	if err != nil {
		return nil, err
	}
	cfg := t.Search
	release := t.limits().StartSearch()
	res := search.Run(sm, cfg)
	release()
	c := &Check{Properties: safetyProperties(invs, cfg.NoDeadlock), Search: cfg.Strategy.String()}
	if err := c.fromSearch(in, m, cfg, res); err != nil {
		return nil, err
	}
	c.Unreached = unreachedCode(in, m, res)
	return c, nil
}

// fromSearch fills c from a search of the model as written (m, or m with
// its invariants): the verdict's grounds, the violation and its trail in
// user terms, the statistics. The trail is replayed on m itself, so that
// the last step of an invariant's violation leads to the state that
// violates it (as birch replay shows it), not to the error state of the
// invariants' check.
func (c *Check) fromSearch(in *Input, m *model.Model, cfg search.Config, res *search.Result) error {
	c.Explored = res.Complete && res.Violation == nil
	c.Reason = res.Reason
	c.RestsOn = restsOnSearch(cfg, res)
	c.Limit = res.Stopped
	c.Stats = res.Stats
	c.LimitsHit = describeLimits(in.Fset, res.LimitsHit)
	if res.Violation == nil {
		return nil
	}
	init, ts, err := search.Replay(m, res.Trail)
	if err != nil {
		return fmt.Errorf("birch: internal error: the trail does not replay: %v", err)
	}
	v := describeViolation(in.Fset, m, res.Violation, search.Final(init, ts))
	v.Trail = DescribeTrail(m, in.Fset, ts)
	v.Ordinals = savable(res.Trail)
	v.ExposeInvisible = m.Options().ExposeInvisible
	v.Confirmation = Confirmation{Confirmed: true, By: "a trail of the model as written"}
	c.Violation = v
	c.attribute(res.Violation)
	return nil
}

// savable is the ordinals of a trail of the model as written, never nil:
// a trail of no steps (a violation in the initial state) replays too, and
// nil Ordinals say that a trail cannot be saved.
func savable(trail []int) []int {
	if trail == nil {
		return []int{}
	}
	return trail
}

// attribute marks the property a violation belongs to: an invariant's
// violation is the invariant's, an ltl violation the ltl property's, any
// other the safety property's. The product search of an ltl property
// stops at a runtime error too (an assertion, say): that is a violation
// of safety, not of the ltl property, which the search did not decide
// (PropertyVerdict), so it is attributed to a safety property outside the
// check's Properties. A runtime error in evaluating an invariant ("in
// invariant NAME: ...") or a proposition of the ltl property ("in
// proposition ...") is that property's: the model's code did not fail.
func (c *Check) attribute(v *search.Violation) {
	for _, p := range c.Properties {
		if p.Kind == "invariant" && (v.Kind == model.InvariantViolated && strings.HasPrefix(v.Msg, "invariant "+p.Name+" violated") ||
			v.Kind != model.InvariantViolated && strings.HasPrefix(v.Msg, "in invariant "+p.Name+": ")) {
			c.violated = p
			return
		}
	}
	inProposition := v.Thread < 0 && strings.HasPrefix(v.Msg, "in proposition ")
	for _, p := range c.Properties {
		if (v.Kind == model.LTLViolated || inProposition) == (p.Kind == "ltl") && p.Kind != "invariant" {
			c.violated = p
			return
		}
	}
	c.violated = &Property{Name: "safety", Kind: "safety", Source: "assertions, runtime errors",
		Title: "safety (assertions, runtime errors)"}
}

// hasInvisible reports whether m has an invisible transformation.
func hasInvisible(m *model.Model) bool {
	for _, g := range m.Groups() {
		if g.Invisible {
			return true
		}
	}
	return false
}

// propExprs are the expressions of a formula's propositions.
func propExprs(s *ltl.Spec) []ast.Expr {
	var exprs []ast.Expr
	for _, pr := range s.Props {
		exprs = append(exprs, pr.Expr)
	}
	return exprs
}

// translate translates the negation of the formula f (over the
// propositions props) into the automaton a check searches with, within
// the limits. stopped is the reason when a limit stopped it (or the
// automaton grew past the translator's bound, ltl.MaxNodes: a resource
// limit too).
func (t *Task) translate(f *ltl.Formula, props []string) (aut *ltl.Automaton, stopped string, err error) {
	tr := ltl.Translator{MaxNodes: t.LTLMaxNodes}
	lim := t.limits()
	stopped = lim.Run(PhaseTranslation, func() { aut, err = tr.Translate(lim.Ctx, ltl.Un(ltl.Not, f), props) })
	if stopped == "" && errors.Is(err, ltl.ErrTooLarge) {
		// the report adds "during the LTL translation"
		return nil, strings.TrimPrefix(err.Error(), "LTL translation stopped: "), nil
	}
	if stopped != "" {
		err = nil
	}
	return aut, stopped, err
}

// xWarning is the warning for a property with X on a model with invisible
// runs.
func xWarning(title string) string {
	return fmt.Sprintf("warning: %s uses X (next), which counts steps: invisible runs are "+
		"exposed for it (each of their transformations is a step and the states inside them are checked; "+
		"they are still not interleaved with other threads), so the search is larger (docs/properties.md)", title)
}

// SearchLTL is the LTL product step: it searches m (compiled from p's
// input, with invisible runs exposed when the formula has X) for an
// execution that violates p.
func SearchLTL(t *Task, p *ltlProperty, m *model.Model) (*Check, error) {
	c := &Check{Properties: []*Property{p.Property}, Search: "dfs"}
	ev, err := m.NewEvaluator(propExprs(p.spec))
	if err != nil {
		return nil, err
	}
	aut, stopped, err := t.translate(p.spec.Formula, p.spec.Names())
	if err != nil {
		return nil, err
	}
	if stopped != "" {
		return c.stop(PhaseTranslation, stopped), nil
	}
	prop := search.Property{
		Automaton: aut, Labels: ev, Fair: p.Fair,
		Msg: fmt.Sprintf("%s violated: %s", p.Title, p.Formula),
	}
	cfg := t.Search
	cfg.Strategy = search.DFS
	release := t.limits().StartSearch()
	res := search.RunLTL(m, prop, cfg)
	release()
	p.AutomatonStates = res.AutomatonStates
	if err := c.fromSearch(p.in, m, cfg, &res.Result); err != nil {
		return nil, err
	}
	if v := c.Violation; v != nil && res.CycleStart >= 0 {
		v.Lasso = &Lasso{CycleStart: res.CycleStart, Stutter: res.Stutter, End: lassoEnd(m, res, finalOf(m, res.Trail))}
	}
	return c, nil
}

// finalOf is the state a trail of m ends in.
func finalOf(m search.Model, trail []int) []byte {
	init, ts, err := search.Replay(m, trail)
	if err != nil {
		return nil
	}
	return search.Final(init, ts)
}

// lassoEnd says how a stutter lasso ends: "terminated" or "deadlock".
func lassoEnd(m *model.Model, res *search.LTLResult, final []byte) string {
	if res.CycleStart < 0 || !res.Stutter || final == nil {
		return ""
	}
	if _, allDone := m.Next(final, func(*model.Step) {}); allDone {
		return "terminated"
	}
	return "deadlock"
}

// stop marks c as stopped by a limit in phase.
func (c *Check) stop(phase, reason string) *Check {
	c.Stopped = &Stop{Phase: phase, Reason: reason}
	c.Limit = reason
	c.Reason = reason + " during the " + phase
	c.RestsOn = append(c.RestsOn, Basis{Bounded, c.Reason})
	return c
}
