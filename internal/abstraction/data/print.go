package data

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteText prints an abstraction for people: its tokens, its abstraction
// function and every table, one entry a line:
//
//	abstraction signs (library)
//	tokens: NEG ZERO POS
//	default: ZERO
//	one-to-one: ZERO
//	abstract(n)
//	  n < 0  -> NEG
//	  n == 0 -> ZERO
//	  n > 0  -> POS
//
//	operator + (synthesized)
//	  NEG  + NEG  -> {NEG}
//	  …
//	operator / (synthesized)
//	  NEG  / ZERO -> {error}
//	  …
//	test < (synthesized)
//	  NEG  < NEG  -> {true, false}
//
// A token marked ? was kept only because the solver could not decide
// whether it can occur.
func WriteText(w io.Writer, a *Abstraction) error {
	var b strings.Builder
	fmt.Fprintf(&b, "abstraction %s (%s)\n", a.Name, a.Origin)
	if a.Identity {
		b.WriteString("the identity: integers keep their concrete values, operators and tests are the concrete ones\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "tokens: %s\n", strings.Join(a.TokenNames(), " "))
	fmt.Fprintf(&b, "default: %s\n", a.Tokens[a.Default].Name)
	if a.One2One != 0 {
		fmt.Fprintf(&b, "one-to-one: %s\n", strings.Trim(strings.ReplaceAll(a.SetString(a.One2One), ",", ""), "{}"))
	}
	fmt.Fprintf(&b, "abstract(%s)\n", a.Param)
	width := 0
	for _, r := range a.Rules {
		width = max(width, len(r.Cond))
	}
	for _, r := range a.Rules {
		fmt.Fprintf(&b, "  %-*s -> %s\n", width, r.Cond, a.Tokens[r.Token].Name)
	}
	tw := 0
	for _, t := range a.Tokens {
		tw = max(tw, len(t.Name))
	}
	k := len(a.Tokens)
	undecided := false
	for _, t := range a.Ops {
		fmt.Fprintf(&b, "\noperator %s (%s)\n", t.Op, origin(t.Given))
		for i, c := range t.Cells {
			var elems []string
			for r := range a.Tokens {
				if c.Tokens.Has(r) {
					s := a.Tokens[r].Name
					if c.Undecided.Has(r) {
						s += "?"
						undecided = true
					}
					elems = append(elems, s)
				}
			}
			if c.Error {
				elems = append(elems, "error")
			}
			fmt.Fprintf(&b, "  %-*s %s %-*s -> {%s}\n", tw, a.Tokens[i/k].Name, t.Op, tw, a.Tokens[i%k].Name, strings.Join(elems, ", "))
		}
	}
	for _, t := range a.Tests {
		fmt.Fprintf(&b, "\ntest %s (%s)\n", t.Test, origin(t.Given))
		for i, c := range t.Cells {
			var elems []string
			for _, o := range []Outcomes{True, False} {
				if c.Outcomes&o != 0 {
					s := map[Outcomes]string{True: "true", False: "false"}[o]
					if c.Undecided&o != 0 {
						s += "?"
						undecided = true
					}
					elems = append(elems, s)
				}
			}
			fmt.Fprintf(&b, "  %-*s %-2s %-*s -> {%s}\n", tw, a.Tokens[i/k].Name, t.Test, tw, a.Tokens[i%k].Name, strings.Join(elems, ", "))
		}
	}
	if undecided {
		b.WriteString("\n? marks a token kept because the solver could not decide whether it can occur\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func origin(given bool) string {
	if given {
		return "given"
	}
	return "synthesized"
}

// WriteJSON prints an abstraction as one JSON object,
//
//	{"name": "signs", "tokens": ["NEG", "ZERO", "POS"],
//	 "operators": {"+": {"NEG,NEG": ["NEG"], …}, …, "/": {"NEG,ZERO": ["error"], …}},
//	 "tests": {"<": {"NEG,NEG": [true, false], …}, …}}
//
// with operators in the order + - * / %, tests in the order == != < <= > >=,
// pairs in token order and "error" as the outcome of a division by zero.
// The concrete abstraction has no tokens and empty tables.
func WriteJSON(w io.Writer, a *Abstraction) error {
	var b strings.Builder
	str := func(s string) string {
		q, _ := json.Marshal(s)
		return string(q)
	}
	names := a.TokenNames()
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = str(n)
	}
	fmt.Fprintf(&b, "{\n  \"name\": %s,\n  \"tokens\": [%s],\n", str(a.Name), strings.Join(quoted, ", "))
	k := len(names)
	b.WriteString("  \"operators\": {")
	if !a.Identity {
		for oi, t := range a.Ops {
			if oi > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "\n    %s: {", str(t.Op.String()))
			for i, c := range t.Cells {
				var elems []string
				for r := range k {
					if c.Tokens.Has(r) {
						elems = append(elems, quoted[r])
					}
				}
				if c.Error {
					elems = append(elems, `"error"`)
				}
				sep := ","
				if i == 0 {
					sep = ""
				}
				fmt.Fprintf(&b, "%s\n      %s: [%s]", sep, str(names[i/k]+","+names[i%k]), strings.Join(elems, ", "))
			}
			b.WriteString("\n    }")
		}
		b.WriteString("\n  ")
	}
	b.WriteString("},\n  \"tests\": {")
	if !a.Identity {
		for ti, t := range a.Tests {
			if ti > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "\n    %s: {", str(t.Test.String()))
			for i, c := range t.Cells {
				var elems []string
				if c.Outcomes&True != 0 {
					elems = append(elems, "true")
				}
				if c.Outcomes&False != 0 {
					elems = append(elems, "false")
				}
				sep := ","
				if i == 0 {
					sep = ""
				}
				fmt.Fprintf(&b, "%s\n      %s: [%s]", sep, str(names[i/k]+","+names[i%k]), strings.Join(elems, ", "))
			}
			b.WriteString("\n    }")
		}
		b.WriteString("\n  ")
	}
	b.WriteString("}\n}\n")
	_, err := io.WriteString(w, b.String())
	return err
}
