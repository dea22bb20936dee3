package model

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// UnboundedChoice is a choice of the type form, `lhs := externChoose(T);`
// or internChoose(T), whose type T has more values than the explicit
// engine enumerates (docs/bir.md §13.3).
type UnboundedChoice struct {
	Pos    source.Position
	Action string // the action as written: x := externChoose(int)
	Values string // how many values T has: 2^64, 4000001
}

// UnboundedChoiceError is New's error for a model with unbounded choices:
// it cannot be searched by enumerating values. It is not bad input: a
// check of such a model is inconclusive (internal/verify).
type UnboundedChoiceError struct {
	Choices []UnboundedChoice
	Max     int // the bound on the values of one choice (Options.MaxChoiceRange)
}

// Hint names the options that can check a model with unbounded choices.
const UnboundedHint = "predicate abstraction can check it: birch check --cegar finds the predicates (docs/cegar.md), --predicates FILE gives them (docs/predicates.md), and --on-the-fly --predicates FILE checks with them on the fly (docs/apf.md)"

func (e *UnboundedChoiceError) Error() string { return e.Unwrap().Error() }

// Unwrap is the error as a positioned one, at the first choice: errors.As
// finds the *source.Error.
func (e *UnboundedChoiceError) Unwrap() error {
	c := e.Choices[0]
	s := fmt.Sprintf("%s chooses among %s values, more than the %s that explicit search enumerates", c.Action, c.Values, countString(uint64(e.Max)))
	if n := len(e.Choices) - 1; n == 1 {
		s += fmt.Sprintf(" (and 1 more unbounded choice, at %s)", e.Choices[1].Pos)
	} else if n > 1 {
		s += fmt.Sprintf(" (and %d more unbounded choices, the next at %s)", n, e.Choices[1].Pos)
	}
	return &source.Error{Pos: c.Pos, Msg: s + "; " + UnboundedHint}
}

// UnboundedChoices lists the choices of prog's type form whose type has
// more than max values, in source order (nil when there is none; max <= 0
// is the default bound, 2^20).
func UnboundedChoices(prog *types.Program, max int) []UnboundedChoice {
	return unboundedChoices(prog, max, nil)
}

// unboundedChoices is UnboundedChoices without the choices native code
// replaces (nat may be nil).
func unboundedChoices(prog *types.Program, max int, nat Native) []UnboundedChoice {
	if max <= 0 {
		max = Options{}.withDefaults().MaxChoiceRange
	}
	var out []UnboundedChoice
	if prog.File == nil {
		return nil
	}
	ast.Inspect(prog.File, func(n ast.Node) bool {
		a, ok := n.(*ast.ChooseAction)
		if !ok || a.Type == nil {
			return true
		}
		lo, hi, ok := types.IntegerBounds(prog.Info.TypeExprs[a.Type])
		if !ok || hi < lo || uint64(hi-lo) < uint64(max) || nat != nil && nat.Replaces(a) {
			return true
		}
		kw := "internChoose"
		if a.Extern {
			kw = "externChoose"
		}
		c := UnboundedChoice{
			Action: fmt.Sprintf("%s := %s(%s)", format.Expr(a.Lhs), kw, format.TypeExpr(a.Type)),
			Values: countString(uint64(hi-lo) + 1),
		}
		if prog.Fset != nil {
			c.Pos = prog.Fset.Position(a.KwPos)
		}
		out = append(out, c)
		return true
	})
	return out
}

// countString writes n as a power of two where it is one (0 is 2^64).
func countString(n uint64) string {
	if n == 0 {
		return "2^64"
	}
	if n&(n-1) == 0 && n >= 1<<10 {
		return fmt.Sprintf("2^%d", bits.TrailingZeros64(n))
	}
	return fmt.Sprint(n)
}

// givenChoice compiles an unbounded choice of the type form when
// Options.ChoiceValues gives its values (nil otherwise): it chooses among
// the given values its type holds, and is a limit of the model where
// there is none.
func (m *Model) givenChoice(a *ast.ChooseAction, st storeFn, intern bool) actFn {
	if a.Type == nil || m.opts.ChoiceValues == nil {
		return nil
	}
	lo, hi, ok := types.IntegerBounds(m.info.TypeExprs[a.Type])
	if !ok || hi < lo || uint64(hi-lo) < uint64(m.opts.MaxChoiceRange) {
		return nil
	}
	pos := a.KwPos
	return func(x *exec) int { return x.chooseGiven(pos, lo, hi, st, intern) }
}

// chooseGiven chooses among the values of Options.ChoiceValues between lo
// and hi (an unbounded choice, or a range choice of more values than
// Options.MaxChoiceRange, in a replay with given values); it is a limit of
// the model where none is given.
func (x *exec) chooseGiven(pos source.Pos, lo, hi int64, st storeFn, intern bool) int {
	var vals []int64
	for _, v := range x.m.opts.ChoiceValues {
		if lo <= v && v <= hi {
			vals = append(vals, v)
		}
	}
	slices.Sort(vals)
	vals = slices.Compact(vals)
	if len(vals) == 0 {
		x.limit(pos, "no value is given to the unbounded choice (it is replayed with given values only)")
		return rFail
	}
	k := x.choose(len(vals))
	if x.tooManyChoices(pos) {
		return rFail
	}
	if intern {
		x.intern = true
	}
	if g := x.m.given; g != nil {
		*g = append(*g, GivenChoice{Pos: pos, Value: vals[k]})
	}
	st(x, vals[k])
	if x.failed {
		return rFail
	}
	return rOK
}

// ChoiceBits is the sum, over the choice actions of prog, of log2 of the
// number of values each chooses among (the type form's type, the listed
// values, a range between integer constants); a choice whose values are
// not known before the run (a range with computed bounds) counts 0. A
// choice is counted once wherever it runs (in a loop, in a function
// called again): it is an estimate of how many inputs the explicit search
// holds at once (docs/c.md, "Inputs and how the program is checked").
func ChoiceBits(prog *types.Program) float64 {
	if prog == nil || prog.File == nil {
		return 0
	}
	sum := 0.0
	ast.Inspect(prog.File, func(n ast.Node) bool {
		a, ok := n.(*ast.ChooseAction)
		if !ok {
			return true
		}
		switch {
		case a.Type != nil:
			if lo, hi, ok := types.IntegerBounds(prog.Info.TypeExprs[a.Type]); ok && hi >= lo {
				sum += valueBits(uint64(hi-lo) + 1)
			}
		case a.Values != nil:
			sum += math.Log2(float64(len(a.Values)))
		default:
			lo, ok1 := intLit(a.Lo)
			hi, ok2 := intLit(a.Hi)
			if ok1 && ok2 && hi >= lo {
				sum += valueBits(uint64(hi-lo) + 1)
			}
		}
		return true
	})
	return sum
}

// valueBits is log2(n), n = 0 standing for 2^64.
func valueBits(n uint64) float64 {
	if n == 0 {
		return 64
	}
	return math.Log2(float64(n))
}

// intLit is the value of an integer literal.
func intLit(e ast.Expr) (int64, bool) {
	l, ok := e.(*ast.BasicLit)
	if !ok || l.Kind != token.INT {
		return 0, false
	}
	v, err := strconv.ParseInt(l.Value, 0, 64)
	return v, err == nil
}

// WideRanges reports whether prog has a range choice, `externChoose(lo ..
// hi)`, that may choose among more than max values (max <= 0: the default
// bound): one between constants that far apart, or one with a computed
// bound. A replay with given values (Options.ChoiceValues) takes such a
// range as an unbounded input.
func WideRanges(prog *types.Program, max int) bool {
	if max <= 0 {
		max = Options{}.withDefaults().MaxChoiceRange
	}
	if prog == nil || prog.File == nil {
		return false
	}
	wide := false
	ast.Inspect(prog.File, func(n ast.Node) bool {
		a, ok := n.(*ast.ChooseAction)
		if !ok || a.Type != nil || a.Values != nil || wide {
			return !wide
		}
		lo, ok1 := intLit(a.Lo)
		hi, ok2 := intLit(a.Hi)
		wide = !ok1 || !ok2 || hi >= lo && uint64(hi-lo) >= uint64(max)
		return !wide
	})
	return wide
}
