package svcomp

import (
	"fmt"
	"strings"
)

// The task files of SV-COMP are written in a small part of YAML: block
// mappings and sequences nested by indentation, plain and quoted scalars,
// flow sequences of scalars ([a, 'b']) and comments. yamlParse reads that
// part (and says so, with a line number, for anything else: block scalars,
// anchors, flow mappings), into string, []any and map[string]any values.

// yamlLine is one significant line: its number, indentation and text
// (comment removed).
type yamlLine struct {
	n      int
	indent int
	text   string
}

// yamlError is an error at a line of the file.
type yamlError struct {
	Line int
	Msg  string
}

func (e *yamlError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

type yamlParser struct {
	lines []yamlLine
	i     int
}

// yamlParse parses a YAML document of the subset.
func yamlParse(src []byte) (any, error) {
	p := &yamlParser{}
	for i, raw := range strings.Split(string(src), "\n") {
		raw = strings.TrimRight(raw, " \t\r")
		if lead := raw[:len(raw)-len(strings.TrimLeft(raw, " \t"))]; strings.ContainsRune(lead, '\t') {
			return nil, &yamlError{i + 1, "a tab in the indentation"}
		}
		text := stripComment(raw)
		trimmed := strings.TrimLeft(text, " ")
		if trimmed == "" || trimmed == "---" || trimmed == "..." || strings.HasPrefix(trimmed, "%") {
			continue
		}
		p.lines = append(p.lines, yamlLine{n: i + 1, indent: len(text) - len(trimmed), text: strings.TrimRight(trimmed, " ")})
	}
	if len(p.lines) == 0 {
		return map[string]any{}, nil
	}
	v, err := p.block(p.lines[0].indent)
	if err != nil {
		return nil, err
	}
	if p.i < len(p.lines) {
		return nil, &yamlError{p.lines[p.i].n, "unexpected indentation"}
	}
	return v, nil
}

// unquoted calls at with the index of each byte of s outside quotes (the
// quotes themselves excluded), until it returns true.
func unquoted(s string, at func(i int) bool) {
	var quote byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case at(i):
			return
		}
	}
}

// stripComment removes a comment: a # at the start of the line or after
// a blank, outside quotes.
func stripComment(s string) string {
	end := len(s)
	unquoted(s, func(i int) bool {
		if s[i] == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t') {
			end = i
			return true
		}
		return false
	})
	return s[:end]
}

// block parses the mapping or sequence whose lines start at indent.
func (p *yamlParser) block(indent int) (any, error) {
	l := p.lines[p.i]
	if l.text == "-" || strings.HasPrefix(l.text, "- ") {
		return p.sequence(indent)
	}
	return p.mapping(indent)
}

// sequence parses "- item" lines at indent.
func (p *yamlParser) sequence(indent int) (any, error) {
	out := []any{}
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if l.indent != indent || !(l.text == "-" || strings.HasPrefix(l.text, "- ")) {
			if l.indent > indent {
				return nil, &yamlError{l.n, "unexpected indentation"}
			}
			break
		}
		rest := strings.TrimLeft(strings.TrimPrefix(l.text, "-"), " ")
		if rest == "" {
			// the item is the block below
			p.i++
			if p.i < len(p.lines) && p.lines[p.i].indent > indent {
				v, err := p.block(p.lines[p.i].indent)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			} else {
				out = append(out, "")
			}
			continue
		}
		if _, _, ok := splitKey(rest); ok || rest == "-" || strings.HasPrefix(rest, "- ") {
			// a block item on the dash's line: read it as if the dash
			// were blank
			col := indent + len(l.text) - len(rest)
			p.lines[p.i] = yamlLine{n: l.n, indent: col, text: rest}
			v, err := p.block(col)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			continue
		}
		v, err := scalarOrFlow(rest, l.n)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.i++
	}
	return out, nil
}

// mapping parses "key: value" lines at indent.
func (p *yamlParser) mapping(indent int) (any, error) {
	out := map[string]any{}
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if l.indent < indent {
			break
		}
		if l.indent > indent {
			return nil, &yamlError{l.n, "unexpected indentation"}
		}
		if l.text == "-" || strings.HasPrefix(l.text, "- ") {
			break // a sequence at the mapping's indentation ends it (key:\n- a)
		}
		key, rest, ok := splitKey(l.text)
		if !ok {
			return nil, &yamlError{l.n, fmt.Sprintf("expected key: value, found %q", l.text)}
		}
		k, err := scalar(key, l.n)
		if err != nil {
			return nil, err
		}
		if _, dup := out[k]; dup {
			return nil, &yamlError{l.n, fmt.Sprintf("key %q given twice", k)}
		}
		p.i++
		if rest != "" {
			v, err := scalarOrFlow(rest, l.n)
			if err != nil {
				return nil, err
			}
			out[k] = v
			continue
		}
		// the value is the block below: more indented, or a sequence at
		// the key's indentation
		if p.i < len(p.lines) {
			nl := p.lines[p.i]
			isSeq := nl.text == "-" || strings.HasPrefix(nl.text, "- ")
			if nl.indent > indent || (nl.indent == indent && isSeq) {
				v, err := p.block(nl.indent)
				if err != nil {
					return nil, err
				}
				out[k] = v
				continue
			}
		}
		out[k] = ""
	}
	return out, nil
}

// splitKey splits "key: rest" (the key may be quoted); ok is false when
// the text is not a key-value pair.
func splitKey(s string) (key, rest string, ok bool) {
	end := 0
	if s != "" && (s[0] == '\'' || s[0] == '"') {
		q := s[0]
		j := 1
		for j < len(s) {
			if s[j] == q {
				if q == '\'' && j+1 < len(s) && s[j+1] == '\'' {
					j += 2
					continue
				}
				break
			}
			if q == '"' && s[j] == '\\' {
				j++
			}
			j++
		}
		end = j + 1
		if end > len(s) || !strings.HasPrefix(s[end:], ":") {
			return "", "", false
		}
	} else {
		i := strings.Index(s, ": ")
		if i < 0 {
			if !strings.HasSuffix(s, ":") {
				return "", "", false
			}
			i = len(s) - 1
		}
		end = i
		if strings.ContainsAny(s[:end], "[]{}") {
			return "", "", false
		}
	}
	return s[:end], strings.TrimSpace(s[end+1:]), true
}

// scalarOrFlow reads a scalar or a flow sequence of scalars.
func scalarOrFlow(s string, line int) (any, error) {
	switch {
	case strings.HasPrefix(s, "["):
		if !strings.HasSuffix(s, "]") {
			return nil, &yamlError{line, "a flow sequence must end on its line"}
		}
		out := []any{}
		body := strings.TrimSpace(s[1 : len(s)-1])
		if body == "" {
			return out, nil
		}
		for _, item := range splitFlow(body) {
			v, err := scalar(strings.TrimSpace(item), line)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case s == "{}":
		return map[string]any{}, nil
	case strings.HasPrefix(s, "{"):
		return nil, &yamlError{line, "flow mappings ({...}) are not supported"}
	case strings.HasPrefix(s, "|") || strings.HasPrefix(s, ">"):
		return nil, &yamlError{line, "block scalars (| and >) are not supported"}
	case strings.HasPrefix(s, "&") || strings.HasPrefix(s, "*") || strings.HasPrefix(s, "!"):
		return nil, &yamlError{line, "anchors, aliases and tags are not supported"}
	}
	return scalar(s, line)
}

// splitFlow splits a flow sequence's body at the commas outside quotes.
func splitFlow(s string) []string {
	var out []string
	start := 0
	unquoted(s, func(i int) bool {
		if s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
		return false
	})
	return append(out, s[start:])
}

// scalar reads a plain, single-quoted or double-quoted scalar.
func scalar(s string, line int) (string, error) {
	if s == "" {
		return "", nil
	}
	switch s[0] {
	case '\'':
		if len(s) < 2 || s[len(s)-1] != '\'' {
			return "", &yamlError{line, "unterminated quoted string"}
		}
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'"), nil
	case '"':
		if len(s) < 2 || s[len(s)-1] != '"' {
			return "", &yamlError{line, "unterminated quoted string"}
		}
		var b strings.Builder
		body := s[1 : len(s)-1]
		for i := 0; i < len(body); i++ {
			c := body[i]
			if c != '\\' {
				b.WriteByte(c)
				continue
			}
			i++
			if i == len(body) {
				return "", &yamlError{line, "a backslash ends the quoted string"}
			}
			switch body[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '\\', '"', '/':
				b.WriteByte(body[i])
			default:
				return "", &yamlError{line, fmt.Sprintf("unsupported escape \\%c", body[i])}
			}
		}
		return b.String(), nil
	}
	return s, nil
}
