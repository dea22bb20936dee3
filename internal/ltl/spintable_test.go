package ltl

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestSpinSizeTable prints, as a Markdown table, the sizes of birch's
// automata and of SPIN's never claims for the negation of every formula of
// the pattern catalogue (with propositions p, s, q, r) and of the formula
// families of issue 16: the table of docs/properties.md. It runs only with
// BIRCH_SPIN_TABLE=1 and spin on the PATH:
//
//	BIRCH_SPIN_TABLE=1 go test ./internal/ltl -run TestSpinSizeTable -v
func TestSpinSizeTable(t *testing.T) {
	if os.Getenv("BIRCH_SPIN_TABLE") == "" {
		t.Skip("set BIRCH_SPIN_TABLE=1 to print the table")
	}
	if _, err := exec.LookPath("spin"); err != nil {
		t.Skip("spin is not installed")
	}
	type row struct{ title, src string }
	var rows []row
	for _, p := range Patterns() {
		args := []string{"p", "s"}[:len(p.Params)]
		for s := range Scopes {
			pat := &Pattern{Info: &p, Args: args, Scope: s, Q: "q", R: "r"}
			rows = append(rows, row{pat.String(), Instantiate(p.Formulas[s], p.Params, args, "q", "r")})
		}
	}
	family := func(n int, op string, f func(i int) string) string {
		var parts []string
		for i := 0; i < n; i++ {
			parts = append(parts, f(i))
		}
		return strings.Join(parts, " "+op+" ")
	}
	chainSrc := family(11, "&&", func(i int) string { return fmt.Sprintf("(p%d -> <> p%d)", i, i+1) })
	persSrc := family(11, "||", func(i int) string { return fmt.Sprintf("<> [] p%d", i) })
	rows = append(rows,
		row{"issue 16: chain", chainSrc},
		row{"issue 16: chain, negated", "!(" + chainSrc + ")"},
		row{"issue 16: persistences", persSrc},
		row{"issue 16: persistences, negated", "!(" + persSrc + ")"},
	)
	var b strings.Builder
	b.WriteString("| property (its negation translated) | birch TGBA states / edges / sets | birch Büchi states / edges | SPIN states / transitions | birch s | SPIN s |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		spec, err := Parse("table", r.src)
		if err != nil {
			t.Fatalf("%s: %v", r.src, err)
		}
		neg := Un(Not, spec.Formula)
		start := time.Now()
		a, err := Translate(neg, spec.Names())
		if err != nil {
			t.Fatalf("%s: %v", r.src, err)
		}
		ba := Degeneralize(a)
		ba.Simplify()
		birchTime := time.Since(start).Seconds()
		spinSrc := "!(" + spinFormat(spec, spec.Formula) + ")"
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		start = time.Now()
		out, err := exec.CommandContext(ctx, "spin", "-f", spinSrc).CombinedOutput()
		spinTime := time.Since(start).Seconds()
		timedOut := ctx.Err() != nil
		cancel()
		spinCol, spinTimeCol := "", fmt.Sprintf("%.2f", spinTime)
		switch {
		case timedOut:
			spinCol, spinTimeCol = "did not finish", "> 60"
		case err != nil || !strings.Contains(string(out), "never"):
			t.Fatalf("spin -f '%s': %v\n%s", spinSrc, err, out)
		default:
			states, trans := countNever(string(out))
			spinCol = fmt.Sprintf("%d / %d", states, trans)
		}
		title := "`" + r.title + "`"
		if strings.HasPrefix(r.title, "issue") {
			title = r.title + ": `" + r.src + "`"
		}
		fmt.Fprintf(&b, "| %s | %d / %d / %d | %d / %d | %s | %.2f | %s |\n",
			strings.ReplaceAll(title, "|", `\|`), len(a.States), a.NumEdges(), a.NumAcc,
			len(ba.States), ba.NumEdges(), spinCol, birchTime, spinTimeCol)
	}
	t.Log("\n" + b.String())
}

var neverLabel = regexp.MustCompile(`^\s*[A-Za-z_]\w*:\s*$`)

// countNever counts the states and transitions of a never claim printed by
// spin -f: a state is a run of labels (accept_S1: T0_S1:), a transition an
// option (::) or a skip (a true self-loop).
func countNever(claim string) (states, trans int) {
	inLabels := false
	for _, line := range strings.Split(claim, "\n") {
		switch {
		case neverLabel.MatchString(line):
			if !inLabels {
				states++
			}
			inLabels = true
			continue
		case strings.Contains(line, "::"), strings.TrimSpace(line) == "skip":
			trans++
		}
		inLabels = false
	}
	return states, trans
}

// spinFormat prints a formula in SPIN's LTL syntax: fully parenthesized, R
// as V, and a W b (which spin -f does not read) as (a U b) || [] a.
func spinFormat(s *Spec, f *Formula) string {
	switch f.Op {
	case True:
		return "true"
	case False:
		return "false"
	case Atom:
		return s.Props[f.Atom].Text
	case Not:
		return "!(" + spinFormat(s, f.L) + ")"
	case Next:
		return "X (" + spinFormat(s, f.L) + ")"
	case Always:
		return "[] (" + spinFormat(s, f.L) + ")"
	case Eventually:
		return "<> (" + spinFormat(s, f.L) + ")"
	case WeakUntil:
		a, b := spinFormat(s, f.L), spinFormat(s, f.R)
		return "(((" + a + ") U (" + b + ")) || [] (" + a + "))"
	}
	op := map[Op]string{And: "&&", Or: "||", Implies: "->", Iff: "<->", Until: "U", Release: "V"}[f.Op]
	return "((" + spinFormat(s, f.L) + ") " + op + " (" + spinFormat(s, f.R) + "))"
}
