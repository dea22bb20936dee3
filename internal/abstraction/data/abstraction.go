package data

import (
	"fmt"
	"math/big"
	"math/bits"
	"strings"

	"birch/internal/source"
)

// MaxTokens is the largest number of tokens an abstraction may have (token
// sets are bit sets).
const MaxTokens = 64

// Op is a binary arithmetic operator of BIR.
type Op uint8

// The operators, in the order tables are printed.
const (
	Add Op = iota // +
	Sub           // -
	Mul           // *
	Div           // /, truncating toward zero
	Rem           // %, with the sign of the dividend
	NumOps
)

var opSymbols = [NumOps]string{"+", "-", "*", "/", "%"}

// String returns the operator's symbol.
func (o Op) String() string {
	if o < NumOps {
		return opSymbols[o]
	}
	return fmt.Sprintf("Op(%d)", o)
}

// Apply computes x o y on the integers with BIR's semantics (/ and %
// truncate toward zero); ok is false for division or remainder by zero.
func (o Op) Apply(x, y *big.Int) (v *big.Int, ok bool) {
	switch o {
	case Add:
		return new(big.Int).Add(x, y), true
	case Sub:
		return new(big.Int).Sub(x, y), true
	case Mul:
		return new(big.Int).Mul(x, y), true
	case Div, Rem:
		if y.Sign() == 0 {
			return nil, false
		}
		if o == Div {
			return new(big.Int).Quo(x, y), true
		}
		return new(big.Int).Rem(x, y), true
	}
	panic("data: Apply of " + o.String())
}

// Test is a comparison of BIR.
type Test uint8

// The tests, in the order tables are printed.
const (
	Eq Test = iota // ==
	Ne             // !=
	Lt             // <
	Le             // <=
	Gt             // >
	Ge             // >=
	NumTests
)

var testSymbols = [NumTests]string{"==", "!=", "<", "<=", ">", ">="}

// String returns the test's symbol.
func (t Test) String() string {
	if t < NumTests {
		return testSymbols[t]
	}
	return fmt.Sprintf("Test(%d)", t)
}

// Holds decides x t y.
func (t Test) Holds(x, y *big.Int) bool {
	c := x.Cmp(y)
	switch t {
	case Eq:
		return c == 0
	case Ne:
		return c != 0
	case Lt:
		return c < 0
	case Le:
		return c <= 0
	case Gt:
		return c > 0
	case Ge:
		return c >= 0
	}
	panic("data: Holds of " + t.String())
}

// Set is a set of tokens of one abstraction: bit i stands for token i.
type Set uint64

// Has reports whether token i is in s.
func (s Set) Has(i int) bool { return s&(1<<uint(i)) != 0 }

// With returns s with token i added.
func (s Set) With(i int) Set { return s | 1<<uint(i) }

// Len returns the number of tokens in s.
func (s Set) Len() int { return bits.OnesCount64(uint64(s)) }

// All returns the set of the first n tokens.
func All(n int) Set {
	if n >= 64 {
		return ^Set(0)
	}
	return 1<<uint(n) - 1
}

// Cell is the outcome of an abstract operator on one pair of tokens: the
// tokens the result may have, and whether the concrete operation may fail
// (division or remainder by zero).
type Cell struct {
	Tokens Set
	Error  bool
	// Undecided holds the tokens of Tokens kept only because the solver
	// could not decide whether they can occur (no witness is known).
	Undecided Set
	// Witness gives, for each token of Tokens that has one, concrete
	// arguments x, y abstracted by the cell's tokens with x op y
	// abstracted by that token. Nil for tables given in BASL.
	Witness map[int][2]*big.Int
}

// Outcomes is a set of booleans: the possible results of an abstract test.
type Outcomes uint8

// The outcomes.
const (
	True  Outcomes = 1
	False Outcomes = 2
	Both           = True | False
)

// Has reports whether b is a possible outcome.
func (o Outcomes) Has(b bool) bool {
	if b {
		return o&True != 0
	}
	return o&False != 0
}

// TestCell is the outcome of an abstract test on one pair of tokens.
type TestCell struct {
	Outcomes  Outcomes
	Undecided Outcomes       // outcomes kept only because the solver could not decide
	Witness   [2][2]*big.Int // Witness[0] for true, [1] for false; nil when unknown
}

// OpTable is an abstract operator: Cells[a*k+b] is the outcome of token a
// op token b, for k tokens.
type OpTable struct {
	Op    Op
	Given bool // written in the BASL specification, not synthesized
	Cells []Cell
}

// TestTable is an abstract test: Cells[a*k+b] for k tokens.
type TestTable struct {
	Test  Test
	Given bool
	Cells []TestCell
}

// Token is one abstract value with what is known of the integers it
// stands for.
type Token struct {
	Name string
	// Lo and Hi bound the integers the token stands for; nil when it has
	// integers below -2⁶² (Lo) or above 2⁶² (Hi), or the bound is unknown.
	Lo, Hi *big.Int
	// Values lists the integers the token stands for, when they are few
	// (Lo and Hi are finite and close); nil otherwise.
	Values []*big.Int
}

// Single reports whether the token stands for exactly one integer.
func (t *Token) Single() bool { return len(t.Values) == 1 }

// Rule is one rule of the abstraction function: integers satisfying Cond
// are abstracted by Tokens[Token].
type Rule struct {
	Cond  string // as written, in BASL syntax
	Token int
	Pos   source.Position
	cond  *cond
}

// Abstraction is a compiled data abstraction of the integers: tokens, the
// abstraction function and every abstract operator and test. It is
// immutable once built and safe for concurrent use.
type Abstraction struct {
	Name   string
	Origin string // "library", or the BASL file that defines it

	// Identity marks the concrete abstraction, which keeps integers as they
	// are: it has no tokens, rules or tables.
	Identity bool

	Tokens  []Token
	Default int // the token of new variables: DEFAULT, or the token of 0
	One2One Set // tokens declared (or, in the library, known) to stand for one integer
	Param   string
	Rules   []Rule

	Ops   [NumOps]*OpTable
	Tests [NumTests]*TestTable

	// Warnings are remarks that do not make the abstraction unusable: a
	// given table entry the solver could not prove sound, a solver failure.
	Warnings source.ErrorList

	moduli  []int64 // literal divisors of the conditions, for the synthesis
	queries int     // the solver queries its compilation asked (for tests)
}

// TokenIndex returns the index of the token called name, or -1.
func (a *Abstraction) TokenIndex(name string) int {
	for i := range a.Tokens {
		if a.Tokens[i].Name == name {
			return i
		}
	}
	return -1
}

// TokenNames returns the names of the tokens, in order.
func (a *Abstraction) TokenNames() []string {
	names := make([]string, len(a.Tokens))
	for i := range a.Tokens {
		names[i] = a.Tokens[i].Name
	}
	return names
}

// Abstract returns the token of the integer v (the first rule that holds),
// or -1 for the identity abstraction.
func (a *Abstraction) Abstract(v *big.Int) int {
	for _, r := range a.Rules {
		if r.cond.holds(v) {
			return r.Token
		}
	}
	return -1
}

// Abstract64 is Abstract for an int64.
func (a *Abstraction) Abstract64(v int64) int { return a.Abstract(big.NewInt(v)) }

// Apply returns the outcome of token x op token y.
func (a *Abstraction) Apply(op Op, x, y int) Cell {
	return a.Ops[op].Cells[x*len(a.Tokens)+y]
}

// Compare returns the outcomes of token x t token y.
func (a *Abstraction) Compare(t Test, x, y int) Outcomes {
	return a.Tests[t].Cells[x*len(a.Tokens)+y].Outcomes
}

// SetString prints a set of tokens as {A, B}.
func (a *Abstraction) SetString(s Set) string {
	var names []string
	for i := range a.Tokens {
		if s.Has(i) {
			names = append(names, a.Tokens[i].Name)
		}
	}
	return "{" + strings.Join(names, ", ") + "}"
}
