package verify

import (
	"fmt"
	"strings"
)

// Fixed-width types and data abstraction (docs/abstraction.md, "Fixed-width
// types"): concrete fixed-width variables, conversions and bitwise
// operators keep their exact meaning in the abstract model, but an
// abstracted value is a mathematical integer there, so a conversion of it,
// or its store into a fixed-width type, is taken as the value itself. A
// pass covers only the concrete executions in which none of those places
// wraps around, and every report of a pass says so.

// wrapsNotCovered is the qualification of a property passed with an
// abstraction under which abstracted values may wrap.
const wrapsNotCovered = "executions where an abstracted value wraps around not covered"

// wraps lists the places where an abstracted value may wrap around a
// fixed-width type, "FILE:LINE:COL: WHAT", or nil (also for predicate
// abstraction, which models wrapping exactly).
func (am *abstractModel) wraps() []string {
	if am.out == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, w := range am.out.Wraps {
		// two on a line read the same where positions name lines only
		// (a Java program's //line File.java:LINE:1)
		if s := PosString(am.conc.Fset, w.Pos) + ": " + w.What; !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// wrapsWhere names the first places of ws for a reason: "FILE:L:C
// conversion int32(…) and 2 more".
func wrapsWhere(ws []string) string {
	const shown = 3
	s := strings.Join(ws[:min(len(ws), shown)], ", ")
	if len(ws) > shown {
		s += fmt.Sprintf(" and %d more", len(ws)-shown)
	}
	return s
}

// qualifyWraps restricts what the properties of c and its reason and basis
// claim to the executions without a wrap, when am's abstracted values may
// wrap. c has passed, or its properties are those it would pass.
func (am *abstractModel) qualifyWraps(c *Check, pass bool) {
	ws := am.wraps()
	if len(ws) == 0 {
		return
	}
	for i, p := range c.Properties {
		q := *p
		if strings.HasSuffix(q.Title, " not covered)") {
			// "ltl property p (executions that end in a deadlock not covered)"
			q.Title = strings.TrimSuffix(q.Title, " not covered)") + ", and " + strings.TrimPrefix(wrapsNotCovered, "executions ") + ")"
		} else if strings.HasSuffix(q.Title, ")") {
			q.Title = strings.TrimSuffix(q.Title, ")") + "; " + wrapsNotCovered + ")"
		} else {
			q.Title += " (" + wrapsNotCovered + ")"
		}
		q.Source += " (a pass does not cover the executions in which an abstracted value wraps around a fixed-width type: abstract operators work on the mathematical integers; it may wrap at " + wrapsWhere(ws) + ")"
		c.Properties[i] = &q
	}
	for i, b := range c.RestsOn {
		if b.Kind == Abstracted {
			c.RestsOn[i].What += "; executions where an abstracted value wraps around a fixed-width type are not covered"
		}
	}
	if pass {
		c.Reason += "; executions in which an abstracted value wraps around a fixed-width type are not covered (abstract operators work on the mathematical integers; it may wrap at " + wrapsWhere(ws) + ")"
	}
}
