package ltl

import (
	"fmt"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/parser"
	"birch/internal/bir/token"
	"birch/internal/source"
)

// Proposition is an atomic proposition of a formula: a boolean expression
// of the model (a predicate name, a comparison, a location test, …) in
// which no temporal or boolean operator of the formula occurs.
type Proposition struct {
	Text string   // the expression as printed by the formatter; propositions are identified by it
	Expr ast.Expr // the first occurrence in the formula's syntax tree
}

// Spec is a formula with its propositions: Formula's proposition number i
// is Props[i].
type Spec struct {
	Formula *Formula
	Props   []Proposition
}

// MaxProps is the largest number of propositions a formula may have; the
// automata read letters as bit sets in a uint64.
const MaxProps = 64

// String prints the formula in BIR's syntax with the propositions' texts.
func (s *Spec) String() string { return s.Format(s.Formula) }

// Format prints a formula over s's propositions.
func (s *Spec) Format(f *Formula) string {
	return f.Format(func(i int) string { return s.Props[i].Text })
}

// Names returns the propositions' texts.
func (s *Spec) Names() []string {
	out := make([]string, len(s.Props))
	for i, p := range s.Props {
		out[i] = p.Text
	}
	return out
}

// FromExpr converts the syntax tree of an ltl formula (the Expr of an `ltl`
// property, type-checked or not) into a Spec. The temporal operators, !,
// &&, ||, -> and <-> (and == and != between temporal formulas) become
// formula operators, true and false constants, and every other maximal
// subexpression a proposition. fset positions errors and may be nil.
func FromExpr(fset *source.FileSet, e ast.Expr) (*Spec, error) {
	c := &converter{fset: fset, index: map[string]int{}}
	f := c.conv(e)
	if c.err != nil {
		return nil, c.err
	}
	if len(c.spec.Props) > MaxProps {
		return nil, c.errorf(e.Pos(), "the formula has %d propositions; at most %d are supported", len(c.spec.Props), MaxProps)
	}
	c.spec.Formula = f
	return &c.spec, nil
}

type converter struct {
	fset  *source.FileSet
	spec  Spec
	index map[string]int
	err   error
}

func (c *converter) errorf(pos source.Pos, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if c.fset != nil && pos.IsValid() {
		return &source.Error{Pos: c.fset.Position(pos), Msg: msg}
	}
	return fmt.Errorf("%s", msg)
}

func (c *converter) conv(e ast.Expr) *Formula {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return c.conv(x.X)
	case *ast.BasicLit:
		switch x.Kind {
		case token.TRUE:
			return T()
		case token.FALSE:
			return F()
		}
	case *ast.UnaryExpr:
		switch x.Op {
		case token.NOT:
			return Un(Not, c.conv(x.X))
		case token.ALWAYS:
			return Un(Always, c.conv(x.X))
		case token.EVENTUAL:
			return Un(Eventually, c.conv(x.X))
		case token.NEXT:
			return Un(Next, c.conv(x.X))
		}
	case *ast.BinaryExpr:
		ops := map[token.Kind]Op{
			token.LAND: And, token.LOR: Or, token.ARROW: Implies, token.IFF: Iff,
			token.UNTIL: Until, token.RELEASE: Release, token.WEAKUNTIL: WeakUntil,
		}
		if op, ok := ops[x.Op]; ok {
			return Bin(op, c.conv(x.X), c.conv(x.Y))
		}
		if (x.Op == token.EQL || x.Op == token.NEQ) && (temporal(x.X) || temporal(x.Y)) {
			f := Bin(Iff, c.conv(x.X), c.conv(x.Y))
			if x.Op == token.NEQ {
				f = Un(Not, f)
			}
			return f
		}
	}
	if temporal(e) {
		if c.err == nil {
			c.err = c.errorf(e.Pos(), "a temporal formula cannot be an operand of %s", outerOp(e))
		}
		return F()
	}
	text := format.Expr(e)
	i, ok := c.index[text]
	if !ok {
		i = len(c.spec.Props)
		c.index[text] = i
		c.spec.Props = append(c.spec.Props, Proposition{Text: text, Expr: e})
	}
	return Prop(i)
}

// temporal reports whether e contains a temporal operator.
func temporal(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.UnaryExpr:
			if x.Op == token.ALWAYS || x.Op == token.EVENTUAL || x.Op == token.NEXT {
				found = true
			}
		case *ast.BinaryExpr:
			if x.Op == token.UNTIL || x.Op == token.RELEASE || x.Op == token.WEAKUNTIL {
				found = true
			}
		}
		return !found
	})
	return found
}

func outerOp(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.BinaryExpr:
		return x.Op.String()
	case *ast.UnaryExpr:
		return x.Op.String()
	}
	return "an expression"
}

// The string form of a formula is parsed inside a minimal system, so that
// BIR's parser reads it exactly as it reads an ltl property.
const (
	formulaHead = "system F ()\nmain thread M ()\n  loc l0:\nend M;\nproperties\n  ltl f:\n"
	formulaTail = "\n;\nend F;\n"
	headLines   = 6 // lines of formulaHead
)

// Parse parses a formula written as in an ltl property, without a model:
// propositions are not resolved (any expression is taken as one). The file
// name of error positions is filename; their lines and columns are those
// of src.
func Parse(filename, src string) (*Spec, error) {
	if strings.TrimSpace(src) == "" {
		return nil, fmt.Errorf("%s: empty formula", filename)
	}
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, filename, []byte(formulaHead+src+formulaTail), 0)
	if err != nil {
		return nil, RelocateErrors(err, filename, src, headLines)
	}
	props := f.System.Properties
	if props == nil || len(props.Properties) != 1 {
		return nil, fmt.Errorf("%s: not a formula", filename)
	}
	spec, err := FromExpr(fset, props.Properties[0].Expr)
	if err != nil {
		return nil, RelocateErrors(err, filename, src, headLines)
	}
	return spec, nil
}

// RelocateErrors rewrites the positions of the diagnostics in err, which
// refer to a text into which the formula src was inserted at the start of
// line after+1, so that they refer to src itself in a file named filename.
// A diagnostic past the formula's end (an unexpected token after it, say)
// is put at its end; diagnostics before it keep their positions. Only the
// diagnostics about the formula are returned when there are any.
func RelocateErrors(err error, filename, src string, after int) error {
	var list source.ErrorList
	switch e := err.(type) {
	case source.ErrorList:
		list = e
	case *source.Error:
		list = source.ErrorList{e}
	default:
		return err
	}
	lines := strings.Split(src, "\n")
	var out source.ErrorList
	for _, e := range list {
		if e.Pos.Line <= after {
			continue
		}
		c := *e
		c.Pos.Filename = filename
		c.Pos.Line -= after
		if c.Pos.Line > len(lines) {
			c.Pos.Line = len(lines)
			c.Pos.Column = len(lines[len(lines)-1]) + 1
		}
		c.Pos.Offset = 0
		out = append(out, &c)
	}
	if len(out) == 0 {
		return err
	}
	return out
}
