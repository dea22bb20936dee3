package ltl

import (
	"strings"
)

// Op is the operator of a formula node.
type Op uint8

// Operators. True, False and Atom are leaves; Not, Next, Always and
// Eventually are unary (operand L); the others are binary (L op R).
const (
	True Op = iota
	False
	Atom // an atomic proposition: Formula.Atom indexes the Spec's atoms
	Not
	And
	Or
	Implies
	Iff
	Next       // X
	Always     // []
	Eventually // <>
	Until      // U
	Release    // R
	WeakUntil  // W
)

var opNames = [...]string{
	True: "true", False: "false", Atom: "atom", Not: "!", And: "&&", Or: "||",
	Implies: "->", Iff: "<->", Next: "X", Always: "[]", Eventually: "<>",
	Until: "U", Release: "R", WeakUntil: "W",
}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "?"
}

// unary reports whether o takes one operand.
func (o Op) unary() bool { return o == Not || o == Next || o == Always || o == Eventually }

// binary reports whether o takes two operands.
func (o Op) binary() bool { return o >= And && o != Next && o != Always && o != Eventually }

// Formula is an LTL formula over atomic propositions numbered from 0.
// Formulas are immutable trees; functions that transform them return new
// trees and may share subtrees.
type Formula struct {
	Op   Op
	Atom int      // Op == Atom: the proposition's number
	L, R *Formula // operands: L for unary operators, L and R for binary ones
}

// Constructors.

// T is the formula true.
func T() *Formula { return &Formula{Op: True} }

// F is the formula false.
func F() *Formula { return &Formula{Op: False} }

// Prop is the atomic proposition number i.
func Prop(i int) *Formula { return &Formula{Op: Atom, Atom: i} }

// Un builds a unary formula.
func Un(op Op, x *Formula) *Formula { return &Formula{Op: op, L: x} }

// Bin builds a binary formula.
func Bin(op Op, x, y *Formula) *Formula { return &Formula{Op: op, L: x, R: y} }

// Equal reports whether f and g are the same tree.
func Equal(f, g *Formula) bool {
	if f == g {
		return true
	}
	if f == nil || g == nil || f.Op != g.Op {
		return false
	}
	switch {
	case f.Op == Atom:
		return f.Atom == g.Atom
	case f.Op.unary():
		return Equal(f.L, g.L)
	case f.Op.binary():
		return Equal(f.L, g.L) && Equal(f.R, g.R)
	}
	return true
}

// HasNext reports whether f uses the next operator X. Formulas without X
// are stutter-invariant (their truth does not depend on how many times a
// state repeats), which is what lets reductions that merge or skip steps
// preserve them.
func (f *Formula) HasNext() bool {
	if f == nil {
		return false
	}
	return f.Op == Next || f.L.HasNext() || f.R.HasNext()
}

// Size is the number of nodes of f.
func (f *Formula) Size() int {
	if f == nil {
		return 0
	}
	return 1 + f.L.Size() + f.R.Size()
}

// Atoms returns the numbers of the propositions f uses, ascending.
func (f *Formula) Atoms() []int {
	seen := map[int]bool{}
	var walk func(*Formula)
	walk = func(g *Formula) {
		if g == nil {
			return
		}
		if g.Op == Atom {
			seen[g.Atom] = true
		}
		walk(g.L)
		walk(g.R)
	}
	walk(f)
	var out []int
	for i := range seen {
		out = append(out, i)
	}
	sortInts(out)
	return out
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// prec is an operator's binding level in BIR's ltl syntax (docs/bir.md
// §21.2), loosest highest; unary operators and leaves bind tightest.
func prec(o Op) int {
	switch o {
	case Until, Release, WeakUntil:
		return 6
	case And:
		return 7
	case Or:
		return 8
	case Implies:
		return 9
	case Iff:
		return 10
	}
	return 1
}

// fprec is prec of f's operator as printed: false R g and true U g print
// as the unary [] g and <> g.
func fprec(f *Formula) int {
	if f.Op == Release && f.L.Op == False || f.Op == Until && f.L.Op == True {
		return 1
	}
	return prec(f.Op)
}

func rightAssoc(o Op) bool { return o == Until || o == Release || o == WeakUntil || o == Implies }

// Format prints f in BIR's ltl syntax, naming proposition i by name(i).
// Parentheses are added where the precedence of BIR's operators needs them,
// and around a name that is not a simple operand (such as `x > 2`);
// false R g and true U g are printed as [] g and <> g. The result parses
// back to f, up to those two abbreviations.
func (f *Formula) Format(name func(int) string) string {
	var b strings.Builder
	f.format(&b, name)
	return b.String()
}

// String prints f with propositions named p0, p1, ….
func (f *Formula) String() string {
	return f.Format(func(i int) string { return "p" + itoa(i) })
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var buf [20]byte
	n := len(buf)
	for i > 0 {
		n--
		buf[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		buf[n] = '-'
	}
	return string(buf[n:])
}

func (f *Formula) format(b *strings.Builder, name func(int) string) {
	switch {
	case f.Op == True, f.Op == False:
		b.WriteString(f.Op.String())
	case f.Op == Atom:
		s := name(f.Atom)
		if simpleOperand(s) {
			b.WriteString(s)
		} else {
			b.WriteString("(" + s + ")")
		}
	case f.Op == Release && f.L.Op == False:
		Un(Always, f.R).format(b, name) // false R g is [] g
	case f.Op == Until && f.L.Op == True:
		Un(Eventually, f.R).format(b, name) // true U g is <> g
	case f.Op.unary():
		b.WriteString(f.Op.String())
		if f.Op != Not {
			b.WriteByte(' ')
		}
		if f.L.Op.binary() && !(f.L.Op == Release && f.L.L.Op == False) && !(f.L.Op == Until && f.L.L.Op == True) {
			b.WriteByte('(')
			f.L.format(b, name)
			b.WriteByte(')')
		} else {
			f.L.format(b, name)
		}
	default:
		p := prec(f.Op)
		lp, rp := fprec(f.L), fprec(f.R)
		lparen := lp > p || (lp == p && rightAssoc(f.Op))
		rparen := rp > p || (rp == p && !rightAssoc(f.Op))
		if lparen {
			b.WriteByte('(')
		}
		f.L.format(b, name)
		if lparen {
			b.WriteByte(')')
		}
		b.WriteString(" " + f.Op.String() + " ")
		if rparen {
			b.WriteByte('(')
		}
		f.R.format(b, name)
		if rparen {
			b.WriteByte(')')
		}
	}
}

// simpleOperand reports whether s can be printed as an operand without
// parentheses: a name, possibly with selections and indexes, that is not
// one of the temporal operators' letters.
func simpleOperand(s string) bool {
	if s == "" || s == "X" || s == "U" || s == "R" || s == "W" {
		return false
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '[':
			depth++
		case c == ']':
			depth--
		case depth > 0:
		case c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return depth == 0
}
