package verify

import (
	"fmt"
	"math"
	"strconv"

	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/model"
	"birch/internal/search"
)

// The explicit engine enumerates every outcome of a step, and keeps the
// successors of a state until it has generated them all. An abstract
// step that leaves k predicates open chooses among 2^k outcomes (one
// internChoose(true, false) each), so a step with 25 open predicates
// would hold 2^25 successors at once, gigabytes before any limit is
// looked at (fan.bir with 22 predicates on one variable exhausted the
// machine's memory under --max-memory 2G). As for a choice among more
// values than the explicit search enumerates (docs/bir.md §13.3), such a
// model is not searched explicitly: the check is inconclusive at once.

// maxStepOutcomesLog2 bounds the outcomes of one step's choices: 2^20.
const maxStepOutcomesLog2 = 20

// tooManyOutcomes returns a reason when a transformation of m chooses
// among more than 2^20 combinations of values, and "" otherwise.
func tooManyOutcomes(m *model.Model, pos func(g model.Group) string) string {
	for _, g := range m.Groups() {
		if g.Decl == nil {
			continue
		}
		bits, n := 0.0, 0
		for _, a := range g.Decl.Actions {
			c, ok := a.(*ast.ChooseAction)
			if !ok {
				continue
			}
			n++
			bits += math.Log2(float64(choiceValues(c)))
		}
		if bits > maxStepOutcomesLog2 {
			return fmt.Sprintf("the abstract step at %s makes %d choices, about 2^%.0f combinations of values, more than the 2^%d that explicit search enumerates in one step; fewer predicates, or bebop on a one-thread model, can check it",
				pos(g), n, bits, maxStepOutcomesLog2)
		}
	}
	return ""
}

// choiceValues is the number of values c chooses among: its list, or its
// range when the bounds are literals; 1 when they are not (such a range
// is a limit of the model where the search reaches it).
func choiceValues(c *ast.ChooseAction) float64 {
	if c.Values != nil {
		return float64(len(c.Values))
	}
	lo, ok1 := literal(c.Lo)
	hi, ok2 := literal(c.Hi)
	if !ok1 || !ok2 || hi < lo {
		return 1
	}
	return float64(hi) - float64(lo) + 1
}

// literal is the value of an integer literal, possibly negated.
func literal(x ast.Expr) (int64, bool) {
	switch x := x.(type) {
	case *ast.BasicLit:
		v, err := strconv.ParseInt(x.Value, 10, 64)
		return v, err == nil
	case *ast.UnaryExpr:
		if v, ok := literal(x.X); ok && x.Op == token.SUB {
			return -v, true
		}
	case *ast.ParenExpr:
		return literal(x.X)
	}
	return 0, false
}

// unsearched is the result of a search not run for why.
func unsearched(why string) *search.Result {
	return &search.Result{Verdict: search.Inconclusive, Stopped: why, Reason: why}
}
