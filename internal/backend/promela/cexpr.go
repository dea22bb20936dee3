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
