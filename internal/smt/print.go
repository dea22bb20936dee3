package smt

import (
	"io"
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// String returns t in SMT-LIB2 syntax as a tree (shared subterms are printed
// at each occurrence). Use Fprint for large DAGs.
func (t *Term) String() string {
	p := printer{}
	p.term(t)
	return p.buf.String()
}

// Fprint writes t in SMT-LIB2 syntax to w. Non-trivial subterms that occur
// more than once are printed once and bound with let, so the output is
// linear in the size of the DAG:
//
//	(let ((?t1 (+ x y))) (and (< ?t1 3) (> ?t1 0)))
//
// The let names are chosen not to clash with symbols of t.
func Fprint(w io.Writer, t *Term) error {
	p := printer{}
	p.shared(t)
	_, err := io.WriteString(w, p.buf.String())
	return err
}

// Sprint returns what Fprint writes.
func Sprint(t *Term) string {
	var b strings.Builder
	Fprint(&b, t)
	return b.String()
}

// DeclString returns the declaration of a symbol:
//
//	(declare-fun f (Int Int) Bool)
//
// Constants are printed as (declare-fun x () Int), which every SMT-LIB2
// solver accepts.
func DeclString(s *Symbol) string {
	var b strings.Builder
	b.WriteString("(declare-fun ")
	b.WriteString(quoteSymbol(s.name))
	b.WriteString(" (")
	for i, p := range s.params {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p.String())
	}
	b.WriteString(") ")
	b.WriteString(s.result.String())
	b.WriteByte(')')
	return b.String()
}

// Symbols returns the declared symbols occurring in the terms, in
// declaration order.
func Symbols(ts ...*Term) []*Symbol {
	seen := map[*Term]bool{}
	syms := map[*Symbol]bool{}
	var walk func(t *Term)
	walk = func(t *Term) {
		if seen[t] {
			return
		}
		seen[t] = true
		if t.sym != nil {
			syms[t.sym] = true
		}
		for _, a := range t.args {
			walk(a)
		}
	}
	for _, t := range ts {
		walk(t)
	}
	out := make([]*Symbol, 0, len(syms))
	for s := range syms {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// UninterpretedSorts returns the uninterpreted sorts used by the symbols,
// in creation order.
func UninterpretedSorts(syms []*Symbol) []*Sort {
	seen := map[*Sort]bool{}
	var out []*Sort
	var add func(s *Sort)
	add = func(s *Sort) {
		switch s.kind {
		case KindArray:
			add(s.index)
			add(s.elem)
		case KindUninterpreted:
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	for _, sym := range syms {
		for _, p := range sym.params {
			add(p)
		}
		add(sym.result)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// WriteScript writes a self-contained SMT-LIB2 script asserting the
// formulas: set-logic (when logic is not empty), declare-sort and
// declare-fun for what they use, one assert each, and check-sat.
func WriteScript(w io.Writer, logic string, formulas ...*Term) error {
	var b strings.Builder
	if logic != "" {
		b.WriteString("(set-logic " + logic + ")\n")
	}
	syms := Symbols(formulas...)
	for _, s := range UninterpretedSorts(syms) {
		b.WriteString("(declare-sort " + s.String() + " 0)\n")
	}
	for _, s := range syms {
		b.WriteString(DeclString(s) + "\n")
	}
	for _, f := range formulas {
		b.WriteString("(assert ")
		Fprint(&b, f)
		b.WriteString(")\n")
	}
	b.WriteString("(check-sat)\n")
	_, err := io.WriteString(w, b.String())
	return err
}

type printer struct {
	buf  strings.Builder
	lets map[*Term]string
}

// shared prints t, binding shared subterms with nested lets in creation
// order (arguments before the terms built on them).
func (p *printer) shared(t *Term) {
	count := map[*Term]int{}
	var order []*Term
	names := map[string]bool{}
	var walk func(t *Term)
	walk = func(t *Term) {
		count[t]++
		if count[t] > 1 {
			return
		}
		if t.sym != nil {
			names[t.sym.name] = true
		}
		for _, a := range t.args {
			walk(a)
		}
		order = append(order, t)
	}
	walk(t)
	var bind []*Term
	for _, u := range order {
		if count[u] > 1 && len(u.args) > 0 && u != t {
			bind = append(bind, u)
		}
	}
	if len(bind) == 0 {
		p.term(t)
		return
	}
	p.lets = map[*Term]string{}
	n := 0
	for _, u := range bind {
		var name string
		for {
			n++
			name = "?t" + strconv.Itoa(n)
			if !names[name] {
				break
			}
		}
		p.buf.WriteString("(let ((" + name + " ")
		p.term(u)
		p.buf.WriteString(")) ")
		p.lets[u] = name
	}
	p.term(t)
	p.buf.WriteString(strings.Repeat(")", len(bind)))
}

func (p *printer) term(t *Term) {
	if name, ok := p.lets[t]; ok {
		p.buf.WriteString(name)
		return
	}
	b := &p.buf
	switch t.op {
	case OpTrue:
		b.WriteString("true")
		return
	case OpFalse:
		b.WriteString("false")
		return
	case OpInt:
		if t.big != nil {
			if t.big.Sign() < 0 {
				b.WriteString("(- " + new(big.Int).Neg(t.big).String() + ")")
			} else {
				b.WriteString(t.big.String())
			}
		} else if t.small < 0 {
			b.WriteString("(- " + strconv.FormatUint(uint64(-(t.small+1))+1, 10) + ")")
		} else {
			b.WriteString(strconv.FormatInt(t.small, 10))
		}
		return
	case OpVar:
		b.WriteString(quoteSymbol(t.sym.name))
		return
	case OpValue:
		b.WriteString("(as " + valueName(t) + " " + t.sort.String() + ")")
		return
	case OpBound:
		b.WriteString(BoundName(int(t.small)))
		return
	case OpConstArray:
		b.WriteString("((as const " + t.sort.String() + ") ")
		p.term(t.args[0])
		b.WriteByte(')')
		return
	case OpApp:
		b.WriteString("(" + quoteSymbol(t.sym.name))
	default:
		b.WriteString("(" + t.op.String())
	}
	for _, a := range t.args {
		b.WriteByte(' ')
		p.term(a)
	}
	b.WriteByte(')')
}

// BoundName returns the printed name of parameter i in a function body
// (OpBound): x!0, x!1, … as z3 names them.
func BoundName(i int) string { return "x!" + strconv.Itoa(i) }

// valueName returns the printed name of an abstract value: @U_3.
func valueName(t *Term) string {
	name := t.sort.name
	if !isSimpleSymbol(name) {
		name = "v"
	}
	return "@" + name + "_" + strconv.FormatInt(t.small, 10)
}

var reserved = map[string]bool{
	"!": true, "_": true, "as": true, "BINARY": true, "DECIMAL": true, "exists": true,
	"HEXADECIMAL": true, "forall": true, "let": true, "match": true, "NUMERAL": true,
	"par": true, "STRING": true,
}

func isSimpleSymbol(s string) bool {
	if s == "" || reserved[s] || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !IsSymbolChar(s[i]) {
			return false
		}
	}
	return true
}

// IsSymbolChar reports whether c may appear in an SMT-LIB2 simple symbol.
func IsSymbolChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("~!@$%^&*_-+=<>.?/", c) >= 0
}

// quoteSymbol returns name as an SMT-LIB2 symbol, quoted |…| when it is not
// a simple symbol. (Names containing | or \ cannot be written in SMT-LIB2;
// they are printed with those characters replaced by _.)
func quoteSymbol(name string) string {
	if isSimpleSymbol(name) {
		return name
	}
	name = strings.NewReplacer("|", "_", `\`, "_").Replace(name)
	return "|" + name + "|"
}
