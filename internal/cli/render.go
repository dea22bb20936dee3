package cli

import (
	"fmt"
	"io"
	"strings"

	"birch/internal/verify"
)

// Rendering of a verification run's result (verify.Result) as text or
// JSON (docs/check.md). A run with one check prints that check's report;
// a run with several prints the overall verdict, the properties, and then
// each check's report under a heading.

// jsonRestsOn is the "rests_on" array of a report.
func jsonRestsOn(r verify.RestsOn) []verify.Basis { return r.Bases() }

// jsonCheckedProperty is one entry of a report's "properties" array.
type jsonCheckedProperty struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Source  string `json:"source"`
	Formula string `json:"formula,omitempty"`
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
}

// checkedProperties lists a check's properties with their verdicts.
func checkedProperties(c *verify.Check) []jsonCheckedProperty {
	out := []jsonCheckedProperty{}
	for _, p := range c.Properties {
		v, why := c.PropertyVerdict(p)
		out = append(out, jsonCheckedProperty{Name: p.Name, Kind: p.Kind, Source: p.Source, Formula: p.Formula, Verdict: v.String(), Reason: why})
	}
	return out
}

// jsonRunReport is the document of a run with several checks.
type jsonRunReport struct {
	Model      string                `json:"model"`
	Verdict    string                `json:"verdict"`
	Reason     string                `json:"reason"`
	Properties []jsonCheckedProperty `json:"properties"`
	Checks     []any                 `json:"checks"`
}

// renderResult prints a run's result and returns the exit status.
func renderResult(e *env, o *checkOptions, res *verify.Result) int {
	if len(res.Checks) == 1 {
		c := res.Checks[0]
		if o.json {
			saveCheckTrail(e, o, res.Model, c)
			printJSON(e.stdout, checkDoc(o, res.Model, c))
		} else {
			printCheck(e, o, res.Model, c)
		}
		return exitStatus(res.Verdict())
	}
	// the trail saved is the one of the check that decided the verdict, or
	// of the first failing check whose trail can be saved
	trailOf := res.Deciding()
	for _, c := range res.Checks {
		if v := c.Violation; c.Verdict() == verify.Fail && v != nil && v.Ordinals != nil && v.Confirmation.Confirmed {
			trailOf = c
			break
		}
	}
	if o.json {
		saveCheckTrail(e, o, res.Model, trailOf)
		doc := jsonRunReport{Model: res.Model, Verdict: res.Verdict().String(), Reason: runReason(res), Properties: []jsonCheckedProperty{}}
		for _, c := range res.Checks {
			doc.Properties = append(doc.Properties, checkedProperties(c)...)
			doc.Checks = append(doc.Checks, checkDoc(o, res.Model, c))
		}
		printJSON(e.stdout, doc)
		return exitStatus(res.Verdict())
	}
	w := e.stdout
	fmt.Fprintf(w, "%s: %s\n", res.Verdict(), runReason(res))
	printProperties(w, res.Checks...)
	for _, c := range res.Checks {
		var titles []string
		for _, p := range c.Properties {
			titles = append(titles, p.Title)
		}
		fmt.Fprintf(w, "\n== %s ==\n", strings.Join(titles, "; "))
		co := *o
		if c != trailOf {
			co.trail = ""
		}
		co.inRun = true
		printCheck(e, &co, res.Model, c)
	}
	return exitStatus(res.Verdict())
}

// runReason is the reason of a run's overall verdict: the properties that
// failed, or were not decided.
func runReason(res *verify.Result) string {
	var failed, open []string
	n := 0
	for _, c := range res.Checks {
		for _, p := range c.Properties {
			n++
			switch v, _ := c.PropertyVerdict(p); v {
			case verify.Fail:
				failed = append(failed, p.Title)
			case verify.Inconclusive:
				open = append(open, p.Title)
			}
		}
	}
	switch {
	case len(failed) > 0:
		return fmt.Sprintf("%d of %d properties violated: %s", len(failed), n, strings.Join(failed, ", "))
	case res.Verdict() == verify.Fail && res.Deciding().Violated() != nil:
		// the product search of an ltl property stopped at a runtime
		// error: a violation of none of the properties checked
		return fmt.Sprintf("%s violated; %d of %d properties not decided: %s", res.Deciding().Violated().Title, len(open), n, strings.Join(open, ", "))
	case len(open) > 0:
		why := ""
		for _, c := range res.Checks {
			if c.Limit != "" {
				// the limit that ended the run comes first
				why = c.Limit + ": "
				break
			}
		}
		return fmt.Sprintf("%s%d of %d properties not decided: %s", why, len(open), n, strings.Join(open, ", "))
	}
	return fmt.Sprintf("all %d properties hold", n)
}

// printProperties prints the "properties:" line: every property checked
// and its verdict.
func printProperties(w io.Writer, cs ...*verify.Check) {
	var parts []string
	for _, c := range cs {
		for _, p := range c.Properties {
			v, _ := c.PropertyVerdict(p)
			parts = append(parts, p.Title+": "+v.String())
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "properties: %s\n", strings.Join(parts, "; "))
	}
}

// restsOnLine is the "rests on:" line of a check: its grounds, and
// whether its violation's trail is confirmed.
func restsOnLine(c *verify.Check) string {
	s := "rests on: " + c.RestsOn.String()
	if v := c.Violation; v != nil {
		s += "; the trail is " + v.Confirmation.String()
		if v.Confirmation.By != "" {
			s += " (" + v.Confirmation.By + ")"
		}
	}
	return s
}
