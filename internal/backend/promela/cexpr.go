package promela

import (
	"fmt"
	"strings"
)

// The existential entry conditions of symbolic choices (symbolic.go) are C
// functions in a top-level c_code block, which pan compiles with the
// transitions. Their bodies are the conditions the translation builds as
// Promela expressions (in terms of the state before the step), converted
// to C by cExpr: Promela's expression syntax is C's (the same operators
// with the same precedence, since pan compiles Promela expressions to C
// unchanged) but for the conditional expression (c -> a : b), the boolean
// constants, and the names: a global is a field of pan's state vector
// (now.x), a local of the thread's process is reached through SPIN's macro
// for its proctype (PT->x for proctype T, from the _this pointer), and a
// hidden variable is a C global of its own name.

// cNames resolves the names of a Promela expression for cExpr.
type cNames struct {
	proc    string            // the proctype whose locals are read (PT->x)
	globals map[string]bool   // names in the state vector (now.x)
	hidden  map[string]bool   // hidden globals: C globals of pan
	special map[string]string // names replaced by C text (symbols, calls)
	// remote is the C pointer to a remote thread's process: a name
	// remoteMarker + x is its local x (remoteToC)
	remote string
}

// cToken is a token of a Promela expression.
type cToken struct {
	text  string
	ident bool
}

// tokenizePromela splits a Promela expression into tokens.
func tokenizePromela(s string) ([]cToken, error) {
	var out []cToken
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(s) && isIdentChar(s[j]) {
				j++
			}
			out = append(out, cToken{text: s[i:j], ident: true})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			out = append(out, cToken{text: s[i:j]})
			i = j
		default:
			if i+1 < len(s) {
				switch two := s[i : i+2]; two {
				case "->", "&&", "||", "==", "!=", "<=", ">=", "<<", ">>":
					out = append(out, cToken{text: two})
					i += 2
					continue
				}
			}
			if !strings.ContainsRune("()[].!~-+*/%<>&|^:", rune(c)) {
				return nil, fmt.Errorf("cannot convert %q to C (at %q)", s, s[i:])
			}
			out = append(out, cToken{text: string(c)})
			i++
		}
	}
	return out, nil
}

// cExpr converts a Promela expression emitted by the translation into a C
// expression over pan's state. The text has no ';', no '++' or '--' and no
// '=' outside comparisons, which SPIN's check of c_expr for side effects
// requires.
func cExpr(s string, n *cNames) (string, error) {
	toks, err := tokenizePromela(s)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	prev := ""
	for i, t := range toks {
		text := t.text
		switch {
		case t.ident && prev == ".":
			// a field name
		case t.ident:
			if r, ok := n.special[text]; ok {
				text = r
				break
			}
			switch {
			case n.remote != "" && strings.HasPrefix(text, remoteMarker):
				text = n.remote + "->" + strings.TrimPrefix(text, remoteMarker)
			case text == "true":
				text = "1"
			case text == "false":
				text = "0"
			case text == "_pid":
				text = fmt.Sprintf("((int)P%s->_pid)", n.proc)
			case text == "_nr_pr":
				text = "now._nr_pr"
			case n.hidden[text]:
			case n.globals[text]:
				text = "now." + text
			default:
				text = "P" + n.proc + "->" + text
			}
		case text == "->":
			text = "?"
		case text == "@" || text == "?":
			return "", fmt.Errorf("cannot convert %q to C", s)
		}
		if i > 0 && text != "." && text != "[" && text != "]" && text != ")" && prev != "." && prev != "[" && prev != "(" && !(prev == "!" || prev == "~") {
			b.WriteByte(' ')
		} else if i > 0 && (prev == "-" || prev == "+") {
			b.WriteByte(' ') // never "--" or "++"
		}
		b.WriteString(text)
		prev = t.text
	}
	return b.String(), nil
}

// cOutline returns a C expression equivalent to e of at most about limit
// bytes, moving its long parts into helper functions: helper(body) defines
// a function returning the int value of the C expression body (over the
// same variables as e) and returns a call of it. SPIN reads a c_code block
// into a buffer of about 60 KB, so a long condition (the conditions of a
// step with symbolic choices, 3000 comparisons) is split: a chain of ||
// or && into calls of helpers that each hold consecutive terms (the
// short-circuit is kept: a helper runs only when the chain reaches it), a
// conditional expression into its three operands, and otherwise each long
// parenthesized operand into a helper. Every value is an int, as the
// expressions cExpr emits are.
func cOutline(e string, limit int, helper func(body string) string) string {
	if len(e) <= limit {
		return e
	}
	e = strings.TrimSpace(e)
	for len(e) >= 2 && e[0] == '(' && closing(e, 0) == len(e)-1 {
		e = strings.TrimSpace(e[1 : len(e)-1])
	}
	if len(e) <= limit {
		return "(" + e + ")"
	}
	call := func(x string) string { return helper(cOutline(x, limit, helper)) }
	if q, c := topConditional(e); q >= 0 {
		return cOutline("("+call(e[:q])+" ? "+call(e[q+1:c])+" : "+call(e[c+1:])+")", limit, helper)
	}
	for _, op := range []string{"||", "&&"} {
		terms := flattenTop(splitTop(e, op), op)
		if len(terms) < 2 {
			continue
		}
		var calls []string
		var chunk []string
		size := 0
		flush := func() {
			if len(chunk) > 0 {
				calls = append(calls, helper(strings.Join(chunk, " "+op+" ")))
				chunk, size = nil, 0
			}
		}
		for _, t := range terms {
			t = strings.TrimSpace(t)
			if len(t) > limit/2 {
				t = call(t) // a long term: a helper of its own
			}
			if size+len(t) > limit/2 {
				flush()
			}
			chunk = append(chunk, t)
			size += len(t) + len(op) + 2
		}
		flush()
		return cOutline("("+strings.Join(calls, " "+op+" ")+")", limit, helper)
	}
	// another operator: outline the long parenthesized groups that are
	// operands (not a call's arguments, a cast or an index)
	var b strings.Builder
	changed := false
	for i := 0; i < len(e); i++ {
		if e[i] == '(' {
			j := closing(e, i)
			prev := byte(' ')
			if k := strings.LastIndexFunc(e[:i], func(r rune) bool { return r != ' ' }); k >= 0 {
				prev = e[k]
			}
			if j > i && j-i > limit/4 && !isIdentChar(prev) && prev != ')' && prev != ']' {
				b.WriteString(call(e[i+1 : j]))
				i = j
				changed = true
				continue
			}
		}
		b.WriteByte(e[i])
	}
	if !changed {
		return e
	}
	return cOutline(b.String(), limit, helper)
}

// closing is the index of the parenthesis or bracket that closes the one
// at i (-1 when there is none).
func closing(e string, i int) int {
	depth := 0
	for k := i; k < len(e); k++ {
		switch e[k] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// splitTop splits e at the occurrences of op outside parentheses and
// brackets; none when a conditional expression is at the top (it binds
// less tightly than op).
func splitTop(e, op string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(e); i++ {
		switch e[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '?', ':':
			if depth == 0 {
				return nil
			}
		}
		if depth == 0 && strings.HasPrefix(e[i:], op) {
			parts = append(parts, e[start:i])
			i += len(op) - 1
			start = i + 1
		}
	}
	return append(parts, e[start:])
}

// flattenTop replaces each term of a chain of op that is a parenthesized
// chain of the same op by its terms (the translation nests its chains:
// ((a && b) && c)), keeping their order, which keeps the short-circuit.
func flattenTop(terms []string, op string) []string {
	var out []string
	for _, t := range terms {
		t = strings.TrimSpace(t)
		if len(t) >= 2 && t[0] == '(' && closing(t, 0) == len(t)-1 {
			if inner := splitTop(t[1:len(t)-1], op); len(inner) >= 2 {
				out = append(out, flattenTop(inner, op)...)
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// topConditional finds the ? and : of a conditional expression at the top
// of e (-1 when there is none).
func topConditional(e string) (q, c int) {
	depth, nested := 0, 0
	q = -1
	for i := 0; i < len(e); i++ {
		switch e[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '?':
			if depth == 0 {
				if q < 0 {
					q = i
				} else {
					nested++
				}
			}
		case ':':
			if depth == 0 && q >= 0 {
				if nested == 0 {
					return q, i
				}
				nested--
			}
		}
	}
	return -1, -1
}
