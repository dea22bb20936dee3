package ltl

import (
	"fmt"
	"strings"

	"birch/internal/source"
)

// The specification patterns of Dwyer, Avrunin and Corbett ("Patterns in
// property specifications for finite-state verification", ICSE 1999), with
// the LTL formulas their catalogue publishes for each scope, written in
// BIR's syntax. Bandera's specification language (BSL) instantiates these
// patterns. The placeholders {P} and {S} are the pattern's propositions,
// {Q} and {R} the scope's (each is replaced by a parenthesized expression).

// PatternInfo describes one pattern of the catalogue.
type PatternInfo struct {
	Name     string   // absence, existence, universality, precedence, response
	Params   []string // the pattern's arguments, in order
	Meaning  string   // what the pattern says, in words
	Formulas [5]string
}

// Scopes are the scopes of the catalogue, in its order; a PatternInfo's
// Formulas are indexed alike.
var Scopes = [5]string{"globally", "before", "after", "between", "after-until"}

// ScopeSyntax shows how each scope is written in a --pattern.
var ScopeSyntax = [5]string{"globally", "before R", "after Q", "between Q and R", "after Q until R"}

var patterns = []PatternInfo{
	{
		Name: "absence", Params: []string{"P"}, Meaning: "P never holds (within the scope)",
		Formulas: [5]string{
			"[] (!{P})",
			"<> {R} -> (!{P} U {R})",
			"[] ({Q} -> [] (!{P}))",
			"[] (({Q} && !{R} && <> {R}) -> (!{P} U {R}))",
			"[] ({Q} && !{R} -> (!{P} W {R}))",
		},
	},
	{
		Name: "existence", Params: []string{"P"}, Meaning: "P holds at some point (within the scope)",
		Formulas: [5]string{
			"<> ({P})",
			"!{R} W ({P} && !{R})",
			"[] (!{Q}) || <> ({Q} && <> {P})",
			"[] ({Q} && !{R} -> (!{R} W ({P} && !{R})))",
			"[] ({Q} && !{R} -> (!{R} U ({P} && !{R})))",
		},
	},
	{
		Name: "universality", Params: []string{"P"}, Meaning: "P always holds (within the scope)",
		Formulas: [5]string{
			"[] ({P})",
			"<> {R} -> ({P} U {R})",
			"[] ({Q} -> [] ({P}))",
			"[] (({Q} && !{R} && <> {R}) -> ({P} U {R}))",
			"[] ({Q} && !{R} -> ({P} W {R}))",
		},
	},
	{
		Name: "precedence", Params: []string{"S", "P"}, Meaning: "S precedes P: P holds only after S has held (within the scope)",
		Formulas: [5]string{
			"!{P} W {S}",
			"<> {R} -> (!{P} U ({S} || {R}))",
			"[] !{Q} || <> ({Q} && (!{P} W {S}))",
			"[] (({Q} && !{R} && <> {R}) -> (!{P} U ({S} || {R})))",
			"[] ({Q} && !{R} -> (!{P} W ({S} || {R})))",
		},
	},
	{
		Name: "response", Params: []string{"P", "S"}, Meaning: "S responds to P: every P is followed by an S (within the scope)",
		Formulas: [5]string{
			"[] ({P} -> <> {S})",
			"<> {R} -> ({P} -> (!{R} U ({S} && !{R}))) U {R}",
			"[] ({Q} -> [] ({P} -> <> {S}))",
			"[] (({Q} && !{R} && <> {R}) -> ({P} -> (!{R} U ({S} && !{R}))) U {R})",
			"[] ({Q} && !{R} -> (({P} -> (!{R} U ({S} && !{R}))) W {R}))",
		},
	},
}

// Patterns lists the catalogue.
func Patterns() []PatternInfo { return patterns }

// Pattern is an instance of a pattern: the pattern, its arguments and its
// scope with the scope's arguments.
type Pattern struct {
	Info  *PatternInfo
	Args  []string // expressions, one per Info.Params
	Scope int      // index into Scopes
	Q, R  string   // the scope's expressions ("" when the scope has none)
}

// Formula returns the pattern's LTL formula in BIR's syntax.
func (p *Pattern) Formula() string {
	return Instantiate(p.Info.Formulas[p.Scope], p.Info.Params, p.Args, p.Q, p.R)
}

// Instantiate replaces the placeholders of a catalogue formula.
func Instantiate(template string, params, args []string, q, r string) string {
	repl := []string{"{Q}", "(" + q + ")", "{R}", "(" + r + ")"}
	for i, name := range params {
		repl = append(repl, "{"+name+"}", "("+args[i]+")")
	}
	return strings.NewReplacer(repl...).Replace(template)
}

// String prints the instance as a --pattern argument.
func (p *Pattern) String() string {
	s := p.Info.Name + "(" + strings.Join(p.Args, ", ") + ") "
	switch Scopes[p.Scope] {
	case "globally":
		return s + "globally"
	case "before":
		return s + "before " + p.R
	case "after":
		return s + "after " + p.Q
	case "between":
		return s + "between " + p.Q + " and " + p.R
	}
	return s + "after " + p.Q + " until " + p.R
}

// ParsePattern reads a pattern instance: NAME(ARGS) SCOPE, where SCOPE is
// one of
//
//	globally                (also: nothing)
//	before R                before(R)
//	after Q                 after(Q)
//	between Q and R         between(Q, R)
//	after Q until R         after-until(Q, R)   after_until(Q, R)
//
// and ARGS, Q and R are expressions (of the model, checked when the
// formula is), separated by commas that are not inside parentheses or
// brackets. For example `response(req, ack) globally` or
// `absence(Server @ s55) between(mainStarted, mainDone)`.
func ParsePattern(src string) (*Pattern, error) {
	s := strings.TrimSpace(src)
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return nil, fmt.Errorf("%q: want NAME(ARGUMENTS) SCOPE, e.g. response(p, q) globally", source.Excerpt(src))
	}
	name := strings.ToLower(strings.TrimSpace(s[:open]))
	var info *PatternInfo
	for i := range patterns {
		if patterns[i].Name == name {
			info = &patterns[i]
		}
	}
	if info == nil {
		return nil, fmt.Errorf("unknown pattern %q (the patterns are %s)", source.Excerpt(name), patternNames())
	}
	args, rest, err := parenArgs(s[open:])
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(args) != len(info.Params) {
		return nil, fmt.Errorf("%s takes %d %s (%s), not %d", name, len(info.Params), pluralS(len(info.Params), "argument"), strings.Join(info.Params, ", "), len(args))
	}
	p := &Pattern{Info: info, Args: args}
	if err := p.parseScope(strings.TrimSpace(rest)); err != nil {
		return nil, err
	}
	return p, nil
}

func pluralS(n int, w string) string {
	if n == 1 {
		return w
	}
	return w + "s"
}

func patternNames() string {
	var ns []string
	for _, p := range patterns {
		ns = append(ns, p.Name)
	}
	return strings.Join(ns, ", ")
}

// parseScope reads the scope part of a pattern instance.
func (p *Pattern) parseScope(s string) error {
	bad := func() error {
		return fmt.Errorf("unknown scope %q (the scopes are %s)", source.Excerpt(s), strings.Join(ScopeSyntax[:], ", "))
	}
	word, rest := s, ""
	for i, c := range s {
		if c == ' ' || c == '(' || c == '\t' {
			word, rest = s[:i], strings.TrimSpace(s[i:])
			break
		}
	}
	word = source.Excerpt(strings.ToLower(word))
	functional := strings.HasPrefix(rest, "(")
	var args []string
	if functional {
		var err error
		var tail string
		args, tail, err = parenArgs(rest)
		if err != nil {
			return fmt.Errorf("%s: %v", word, err)
		}
		if strings.TrimSpace(tail) != "" {
			return fmt.Errorf("unexpected %q after the scope", source.Excerpt(strings.TrimSpace(tail)))
		}
	}
	need := func(n int) error {
		if len(args) != n {
			return fmt.Errorf("scope %s takes %d %s, not %d", word, n, pluralS(n, "argument"), len(args))
		}
		for _, a := range args {
			if a == "" {
				return fmt.Errorf("scope %s: empty argument", word)
			}
		}
		return nil
	}
	switch word {
	case "", "globally":
		if rest != "" {
			return bad()
		}
		p.Scope = 0
		return nil
	case "before":
		p.Scope = 1
		if !functional {
			args = []string{rest}
		}
		if err := need(1); err != nil {
			return err
		}
		p.R = args[0]
	case "after":
		if !functional {
			if q, r, ok := cutWord(rest, "until"); ok {
				p.Scope = 4
				args = []string{q, r}
				if err := need(2); err != nil {
					return err
				}
				p.Q, p.R = args[0], args[1]
				return nil
			}
			args = []string{rest}
		}
		p.Scope = 2
		if err := need(1); err != nil {
			return err
		}
		p.Q = args[0]
	case "between":
		p.Scope = 3
		if !functional {
			q, r, ok := cutWord(rest, "and")
			if !ok {
				return fmt.Errorf("scope between: want between Q and R")
			}
			args = []string{q, r}
		}
		if err := need(2); err != nil {
			return err
		}
		p.Q, p.R = args[0], args[1]
	case "after-until", "after_until", "afteruntil":
		p.Scope = 4
		if !functional {
			return fmt.Errorf("scope %s: want %s(Q, R), or after Q until R", word, word)
		}
		if err := need(2); err != nil {
			return err
		}
		p.Q, p.R = args[0], args[1]
	default:
		return bad()
	}
	return nil
}

// cutWord splits s at the first occurrence of the word w outside
// parentheses and brackets.
func cutWord(s, w string) (before, after string, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		}
		if depth == 0 && strings.HasPrefix(s[i:], w) &&
			(i == 0 || s[i-1] == ' ') && (i+len(w) == len(s) || s[i+len(w)] == ' ' || s[i+len(w)] == '(') {
			return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+len(w):]), true
		}
	}
	return s, "", false
}

// parenArgs reads "(a, b, …)" at the start of s and returns the arguments
// and the text after the closing parenthesis.
func parenArgs(s string) (args []string, rest string, err error) {
	if !strings.HasPrefix(s, "(") {
		return nil, s, fmt.Errorf("want (")
	}
	depth, start := 0, 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
			if depth == 0 {
				a := strings.TrimSpace(s[start:i])
				if a == "" {
					return nil, "", fmt.Errorf("empty argument")
				}
				return append(args, a), s[i+1:], nil
			}
		case ',':
			if depth == 1 {
				a := strings.TrimSpace(s[start:i])
				if a == "" {
					return nil, "", fmt.Errorf("empty argument")
				}
				args = append(args, a)
				start = i + 1
			}
		}
	}
	return nil, "", fmt.Errorf("missing )")
}
