package ltl

import (
	"fmt"
	"strings"
)

// propName names proposition i for printing.
func (a *Automaton) propName(i int) string {
	if i < len(a.Props) && a.Props[i] != "" {
		s := a.Props[i]
		if !simpleOperand(s) {
			s = "(" + s + ")"
		}
		return s
	}
	return "p" + itoa(i)
}

// Label prints the label of e: its literals joined by &&, or true.
func (a *Automaton) Label(e Edge) string {
	var lits []string
	for i := 0; i < 64; i++ {
		bit := uint64(1) << uint(i)
		switch {
		case e.Pos&bit != 0:
			lits = append(lits, a.propName(i))
		case e.Neg&bit != 0:
			lits = append(lits, "!"+a.propName(i))
		}
	}
	if len(lits) == 0 {
		return "true"
	}
	return strings.Join(lits, " && ")
}

func accString(acc uint64) string {
	var sets []string
	for i := 0; i < 64; i++ {
		if acc&(1<<uint(i)) != 0 {
			sets = append(sets, itoa(i))
		}
	}
	return "{" + strings.Join(sets, ",") + "}"
}

// Format prints the automaton as text. The header names the formula when
// it is given. Example printed form (of ![] (p -> <> q), degeneralized):
//
//	Büchi automaton for ![] (p -> <> q): 2 states, 3 edges
//	initial state: 0
//	accepting states: 1
//	state 0 (initial):
//	  true -> 0
//	  p && !q -> 1
//	state 1 (accepting):
//	  !q -> 1
//
// Each edge is printed as `LABEL -> TARGET`, followed for a generalized
// automaton by the acceptance sets it belongs to (`{0,1}`).
func (a *Automaton) Format(formula string) string {
	var b strings.Builder
	kind := "Büchi automaton"
	if !a.StateBased {
		kind = "generalized Büchi automaton (transition-based)"
	}
	if formula != "" {
		fmt.Fprintf(&b, "%s for %s: ", kind, formula)
	} else {
		fmt.Fprintf(&b, "%s: ", kind)
	}
	fmt.Fprintf(&b, "%d %s, %d %s", len(a.States), plural(len(a.States), "state", "states"), a.NumEdges(), plural(a.NumEdges(), "edge", "edges"))
	if !a.StateBased {
		fmt.Fprintf(&b, ", %d acceptance %s", a.NumAcc, plural(a.NumAcc, "set", "sets"))
	}
	b.WriteString("\n")
	if a.Empty() {
		b.WriteString("the automaton accepts no word: the formula is unsatisfiable\n")
	}
	fmt.Fprintf(&b, "initial state: %d\n", a.Init)
	if a.StateBased {
		var acc []string
		for q := range a.States {
			if a.Accepting(q) {
				acc = append(acc, itoa(q))
			}
		}
		if len(acc) == 0 {
			acc = append(acc, "none")
		}
		fmt.Fprintf(&b, "accepting states: %s\n", strings.Join(acc, ", "))
	} else if a.NumAcc == 0 {
		b.WriteString("every infinite run is accepting\n")
	} else {
		fmt.Fprintf(&b, "a run is accepting when it takes edges of each of the sets %s infinitely often\n", accString(a.AllAcc()))
	}
	for q, s := range a.States {
		var notes []string
		if q == a.Init {
			notes = append(notes, "initial")
		}
		if a.Accepting(q) {
			notes = append(notes, "accepting")
		}
		if len(notes) > 0 {
			fmt.Fprintf(&b, "state %d (%s):\n", q, strings.Join(notes, ", "))
		} else {
			fmt.Fprintf(&b, "state %d:\n", q)
		}
		if len(s.Edges) == 0 {
			b.WriteString("  (no edges)\n")
		}
		for _, e := range s.Edges {
			fmt.Fprintf(&b, "  %s -> %d", a.Label(e), e.To)
			if !a.StateBased && e.Acc != 0 {
				fmt.Fprintf(&b, "  %s", accString(e.Acc))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// Dot prints the automaton in Graphviz's dot language: accepting states
// (state-based) are double circles, and edges show their label and, for a
// generalized automaton, their acceptance sets.
func (a *Automaton) Dot(formula string) string {
	var b strings.Builder
	b.WriteString("digraph automaton {\n  rankdir=LR;\n")
	if formula != "" {
		fmt.Fprintf(&b, "  label=%q;\n  labelloc=t;\n", formula)
	}
	b.WriteString("  node [shape=circle];\n  init [shape=point];\n")
	for q := range a.States {
		shape := "circle"
		if a.Accepting(q) {
			shape = "doublecircle"
		}
		fmt.Fprintf(&b, "  s%d [label=\"%d\", shape=%s];\n", q, q, shape)
	}
	fmt.Fprintf(&b, "  init -> s%d;\n", a.Init)
	for q, s := range a.States {
		for _, e := range s.Edges {
			label := a.Label(e)
			if !a.StateBased && e.Acc != 0 {
				label += " " + accString(e.Acc)
			}
			fmt.Fprintf(&b, "  s%d -> s%d [label=%q];\n", q, e.To, label)
		}
	}
	b.WriteString("}\n")
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
