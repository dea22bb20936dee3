package smtlib

import (
	"math/big"
	"strconv"
	"strings"

	"birch/internal/smt"
)

// A Def is a function defined with define-fun: a macro whose Body is a
// term over the parameters smt.Bound(i, Params[i]).
type Def struct {
	Name   string
	Params []*smt.Sort
	Result *smt.Sort
	Body   *smt.Term
}

// Elaborator turns S-expressions into terms and sorts of TM, checking
// sorts. Names resolve, innermost first, to let bindings, definitions
// (Defs), declared symbols (Symbols) and the built-in operators.
type Elaborator struct {
	TM      *smt.TermManager
	Symbols map[string]*smt.Symbol // visible declared symbols
	Sorts   map[string]*smt.Sort   // visible declared sorts
	Defs    map[string]*Def        // visible definitions
	// Atom, when not nil, is asked first about unknown symbols (models
	// name abstract values as U!val!0).
	Atom func(name string) *smt.Term
	// Named, when not nil, is called for each (! t :named n).
	Named func(name string, t *smt.Term, n *Node) error
}

// NewElaborator returns an elaborator with empty scopes.
func NewElaborator(tm *smt.TermManager) *Elaborator {
	return &Elaborator{TM: tm, Symbols: map[string]*smt.Symbol{}, Sorts: map[string]*smt.Sort{}, Defs: map[string]*Def{}}
}

// Sort elaborates a sort: Bool, Int, (Array S T), or a declared sort.
func (e *Elaborator) Sort(n *Node) (*smt.Sort, error) {
	switch n.Kind {
	case Symbol:
		switch n.Text {
		case "Bool":
			return smt.BoolSort, nil
		case "Int":
			return smt.IntSort, nil
		case "Real", "String", "RegLan", "RoundingMode", "Float32", "Float64":
			return nil, errorAt(n, "unsupported sort %s", n.Text)
		}
		if s, ok := e.Sorts[n.Text]; ok {
			return s, nil
		}
		return nil, errorAt(n, "unknown sort %s", n.Text)
	case List:
		if n.Head() == "Array" && len(n.Kids) == 3 {
			i, err := e.Sort(n.Kids[1])
			if err != nil {
				return nil, err
			}
			el, err := e.Sort(n.Kids[2])
			if err != nil {
				return nil, err
			}
			return e.TM.ArraySort(i, el), nil
		}
		if n.Head() == "_" {
			return nil, errorAt(n, "unsupported sort %s", n)
		}
	}
	return nil, errorAt(n, "expected a sort, found %s", n)
}

// Term elaborates a term. env holds let bindings and parameters (it may be
// nil); a let updates it in place while its body is elaborated and restores
// it before Term returns.
func (e *Elaborator) Term(n *Node, env map[string]*smt.Term) (*smt.Term, error) {
	tm := e.TM
	switch n.Kind {
	case Numeral:
		v, ok := new(big.Int).SetString(n.Text, 10)
		if !ok {
			return nil, errorAt(n, "malformed numeral %s", n.Text)
		}
		return tm.BigInt(v), nil
	case Decimal:
		return nil, errorAt(n, "unsupported: real number %s", n.Text)
	case Hex, Binary:
		return nil, errorAt(n, "unsupported: bit-vector literal %s", n.Text)
	case String:
		return nil, errorAt(n, "unsupported: string literal")
	case Keyword:
		return nil, errorAt(n, "expected a term, found %s", n.Text)
	case Symbol:
		return e.symbol(n, env)
	}
	if len(n.Kids) == 0 {
		return nil, errorAt(n, "expected a term, found ()")
	}
	head := n.Kids[0]
	if head.Kind == List {
		// ((as const (Array I E)) v)
		if head.Head() == "as" && len(head.Kids) == 3 && head.Kids[1].IsSymbol("const") {
			s, err := e.Sort(head.Kids[2])
			if err != nil {
				return nil, err
			}
			if !s.IsArray() {
				return nil, errorAt(head.Kids[2], "const needs an array sort, found %s", s)
			}
			if len(n.Kids) != 2 {
				return nil, errorAt(n, "const takes 1 argument")
			}
			v, err := e.Term(n.Kids[1], env)
			if err != nil {
				return nil, err
			}
			if v.Sort() != s.Elem() {
				return nil, errorAt(n.Kids[1], "const array of %s cannot hold %s", s, v.Sort())
			}
			return tm.ConstArray(s, v), nil
		}
		if head.Head() == "_" {
			return nil, errorAt(head, "unsupported: indexed operator %s", head)
		}
		return nil, errorAt(head, "expected an operator, found %s", head)
	}
	if head.Kind != Symbol {
		return nil, errorAt(head, "expected an operator, found %s", head)
	}
	if !head.Quoted {
		switch head.Text {
		case "let":
			return e.let(n, env)
		case "!":
			return e.annotated(n, env)
		case "forall", "exists":
			return nil, errorAt(head, "unsupported: quantifiers (%s)", head.Text)
		case "as":
			return e.as(n, env)
		case "_":
			return nil, errorAt(n, "unsupported: indexed identifier %s", n)
		case "match", "lambda":
			return nil, errorAt(head, "unsupported: %s", head.Text)
		}
	}
	args := make([]*smt.Term, len(n.Kids)-1)
	for i, k := range n.Kids[1:] {
		a, err := e.Term(k, env)
		if err != nil {
			return nil, err
		}
		args[i] = a
	}
	name := head.Text
	if d, ok := e.Defs[name]; ok {
		if err := e.checkArgs(n, name, d.Params, args); err != nil {
			return nil, err
		}
		return tm.SubstituteBound(d.Body, args), nil
	}
	if s, ok := e.Symbols[name]; ok {
		if err := e.checkArgs(n, name, s.Params(), args); err != nil {
			return nil, err
		}
		return tm.Apply(s, args...), nil
	}
	if head.Quoted {
		return nil, errorAt(head, "unknown function %s", head)
	}
	return e.builtin(n, name, args)
}

func (e *Elaborator) checkArgs(n *Node, name string, params []*smt.Sort, args []*smt.Term) error {
	if len(args) != len(params) {
		return errorAt(n, "%s takes %d arguments, found %d", name, len(params), len(args))
	}
	for i, a := range args {
		if a.Sort() != params[i] {
			return errorAt(n.Kids[i+1], "argument %d of %s has sort %s, expected %s", i+1, name, a.Sort(), params[i])
		}
	}
	return nil
}

func (e *Elaborator) symbol(n *Node, env map[string]*smt.Term) (*smt.Term, error) {
	if t, ok := env[n.Text]; ok {
		return t, nil
	}
	if d, ok := e.Defs[n.Text]; ok {
		if len(d.Params) != 0 {
			return nil, errorAt(n, "%s takes %d arguments", n.Text, len(d.Params))
		}
		return d.Body, nil
	}
	if s, ok := e.Symbols[n.Text]; ok {
		if s.Arity() != 0 {
			return nil, errorAt(n, "%s takes %d arguments", n.Text, s.Arity())
		}
		return e.TM.Var(s), nil
	}
	if !n.Quoted {
		switch n.Text {
		case "true":
			return e.TM.True(), nil
		case "false":
			return e.TM.False(), nil
		}
	}
	if e.Atom != nil {
		if t := e.Atom(n.Text); t != nil {
			return t, nil
		}
	}
	return nil, errorAt(n, "unknown symbol %s", n)
}

func (e *Elaborator) let(n *Node, env map[string]*smt.Term) (*smt.Term, error) {
	if len(n.Kids) != 3 || n.Kids[1].Kind != List || len(n.Kids[1].Kids) == 0 {
		return nil, errorAt(n, "malformed let: expected (let ((x t) …) body)")
	}
	binds := n.Kids[1].Kids
	vals := make([]*smt.Term, len(binds))
	for i, b := range binds {
		if b.Kind != List || len(b.Kids) != 2 || b.Kids[0].Kind != Symbol {
			return nil, errorAt(b, "malformed let binding: expected (x t)")
		}
		t, err := e.Term(b.Kids[1], env) // parallel let: bindings see the outer env
		if err != nil {
			return nil, err
		}
		vals[i] = t
	}
	// The body sees env with the bindings added. env is updated in place
	// and restored afterwards rather than copied, so that a chain of n
	// nested lets costs time linear in n, not quadratic.
	if env == nil {
		env = make(map[string]*smt.Term, len(binds))
	}
	type saved struct {
		name string
		old  *smt.Term
		had  bool
	}
	undo := make([]saved, len(binds))
	for i, b := range binds {
		name := b.Kids[0].Text
		old, had := env[name]
		undo[i] = saved{name, old, had}
		env[name] = vals[i]
	}
	t, err := e.Term(n.Kids[2], env)
	for i := len(undo) - 1; i >= 0; i-- {
		if u := undo[i]; u.had {
			env[u.name] = u.old
		} else {
			delete(env, u.name)
		}
	}
	return t, err
}

func (e *Elaborator) annotated(n *Node, env map[string]*smt.Term) (*smt.Term, error) {
	if len(n.Kids) < 2 {
		return nil, errorAt(n, "malformed annotation: expected (! t :attr …)")
	}
	t, err := e.Term(n.Kids[1], env)
	if err != nil {
		return nil, err
	}
	for i := 2; i < len(n.Kids); i++ {
		k := n.Kids[i]
		if k.Kind != Keyword {
			return nil, errorAt(k, "expected an attribute, found %s", k)
		}
		if k.Text == ":named" {
			if i+1 >= len(n.Kids) || n.Kids[i+1].Kind != Symbol {
				return nil, errorAt(k, ":named needs a symbol")
			}
			name := n.Kids[i+1]
			if e.Named != nil {
				if err := e.Named(name.Text, t, name); err != nil {
					return nil, err
				}
			}
			i++
			continue
		}
		if i+1 < len(n.Kids) && n.Kids[i+1].Kind != Keyword {
			i++ // the attribute's value (:pattern …) is ignored
		}
	}
	return t, nil
}

// as handles (as @U_3 U), the abstract values in cvc5's models, and
// (as t S) as a plain sort ascription.
func (e *Elaborator) as(n *Node, env map[string]*smt.Term) (*smt.Term, error) {
	if len(n.Kids) != 3 {
		return nil, errorAt(n, "malformed as: expected (as t S)")
	}
	s, err := e.Sort(n.Kids[2])
	if err != nil {
		return nil, err
	}
	v := n.Kids[1]
	if v.Kind == Symbol && strings.HasPrefix(v.Text, "@") && s.Kind() == smt.KindUninterpreted {
		if i := strings.LastIndexByte(v.Text, '_'); i >= 0 {
			if k, err := strconv.Atoi(v.Text[i+1:]); err == nil && k >= 0 {
				return e.TM.Value(s, k), nil
			}
		}
	}
	t, err := e.Term(v, env)
	if err != nil {
		return nil, err
	}
	if t.Sort() != s {
		return nil, errorAt(n, "%s has sort %s, not %s", v, t.Sort(), s)
	}
	return t, nil
}

func (e *Elaborator) builtin(n *Node, name string, args []*smt.Term) (*smt.Term, error) {
	tm := e.TM
	want := func(s *smt.Sort, min, max int) error {
		if len(args) < min || (max >= 0 && len(args) > max) {
			switch {
			case min == max:
				return errorAt(n, "%s takes %d arguments, found %d", name, min, len(args))
			case max < 0:
				return errorAt(n, "%s takes at least %d arguments, found %d", name, min, len(args))
			}
			return errorAt(n, "%s takes %d to %d arguments, found %d", name, min, max, len(args))
		}
		if s == nil {
			return nil
		}
		for i, a := range args {
			if a.Sort() != s {
				return errorAt(n.Kids[i+1], "argument %d of %s has sort %s, expected %s", i+1, name, a.Sort(), s)
			}
		}
		return nil
	}
	same := func() error {
		for i, a := range args[1:] {
			if a.Sort() != args[0].Sort() {
				return errorAt(n.Kids[i+2], "argument %d of %s has sort %s, argument 1 has %s", i+2, name, a.Sort(), args[0].Sort())
			}
		}
		return nil
	}
	B, I := smt.BoolSort, smt.IntSort
	switch name {
	case "not":
		if err := want(B, 1, 1); err != nil {
			return nil, err
		}
		return tm.Not(args[0]), nil
	case "and", "or":
		if err := want(B, 1, -1); err != nil {
			return nil, err
		}
		if name == "and" {
			return tm.And(args...), nil
		}
		return tm.Or(args...), nil
	case "=>": // right-associative
		if err := want(B, 2, -1); err != nil {
			return nil, err
		}
		r := args[len(args)-1]
		for i := len(args) - 2; i >= 0; i-- {
			r = tm.Implies(args[i], r)
		}
		return r, nil
	case "xor": // left-associative
		if err := want(B, 2, -1); err != nil {
			return nil, err
		}
		r := args[0]
		for _, a := range args[1:] {
			r = tm.Xor(r, a)
		}
		return r, nil
	case "=": // chainable
		if err := want(nil, 2, -1); err != nil {
			return nil, err
		}
		if err := same(); err != nil {
			return nil, err
		}
		if len(args) == 2 {
			return tm.Eq(args[0], args[1]), nil
		}
		var cs []*smt.Term
		for i := 0; i+1 < len(args); i++ {
			cs = append(cs, tm.Eq(args[i], args[i+1]))
		}
		return tm.And(cs...), nil
	case "distinct":
		if err := want(nil, 2, -1); err != nil {
			return nil, err
		}
		if err := same(); err != nil {
			return nil, err
		}
		return tm.Distinct(args...), nil
	case "ite":
		if err := want(nil, 3, 3); err != nil {
			return nil, err
		}
		if args[0].Sort() != B {
			return nil, errorAt(n.Kids[1], "condition of ite has sort %s, expected Bool", args[0].Sort())
		}
		if args[1].Sort() != args[2].Sort() {
			return nil, errorAt(n, "branches of ite have sorts %s and %s", args[1].Sort(), args[2].Sort())
		}
		return tm.Ite(args[0], args[1], args[2]), nil
	case "-":
		if err := want(I, 1, -1); err != nil {
			return nil, err
		}
		if len(args) == 1 {
			if args[0].Op() == smt.OpInt && n.Kids[1].Kind == Numeral {
				return tm.BigInt(new(big.Int).Neg(args[0].BigInt())), nil // (- 5) is the literal -5
			}
			return tm.Neg(args[0]), nil
		}
		return tm.Sub(args[0], args[1:]...), nil
	case "+", "*":
		if err := want(I, 2, -1); err != nil {
			return nil, err
		}
		if name == "+" {
			return tm.Add(args...), nil
		}
		return tm.Mul(args...), nil
	case "div", "mod": // left-associative
		max := -1
		if name == "mod" {
			max = 2
		}
		if err := want(I, 2, max); err != nil {
			return nil, err
		}
		r := args[0]
		for _, a := range args[1:] {
			if name == "div" {
				r = tm.Div(r, a)
			} else {
				r = tm.Mod(r, a)
			}
		}
		return r, nil
	case "abs":
		if err := want(I, 1, 1); err != nil {
			return nil, err
		}
		return tm.Abs(args[0]), nil
	case "<", "<=", ">", ">=": // chainable
		if err := want(I, 2, -1); err != nil {
			return nil, err
		}
		var cs []*smt.Term
		for i := 0; i+1 < len(args); i++ {
			a, b := args[i], args[i+1]
			switch name {
			case "<":
				cs = append(cs, tm.Lt(a, b))
			case "<=":
				cs = append(cs, tm.Le(a, b))
			case ">":
				cs = append(cs, tm.Gt(a, b))
			default:
				cs = append(cs, tm.Ge(a, b))
			}
		}
		return tm.And(cs...), nil
	case "select":
		if err := want(nil, 2, 2); err != nil {
			return nil, err
		}
		a := args[0].Sort()
		if !a.IsArray() {
			return nil, errorAt(n.Kids[1], "select from %s, which is not an array", a)
		}
		if args[1].Sort() != a.Index() {
			return nil, errorAt(n.Kids[2], "index of select has sort %s, expected %s", args[1].Sort(), a.Index())
		}
		return tm.Select(args[0], args[1]), nil
	case "store":
		if err := want(nil, 3, 3); err != nil {
			return nil, err
		}
		a := args[0].Sort()
		if !a.IsArray() {
			return nil, errorAt(n.Kids[1], "store into %s, which is not an array", a)
		}
		if args[1].Sort() != a.Index() {
			return nil, errorAt(n.Kids[2], "index of store has sort %s, expected %s", args[1].Sort(), a.Index())
		}
		if args[2].Sort() != a.Elem() {
			return nil, errorAt(n.Kids[3], "value of store has sort %s, expected %s", args[2].Sort(), a.Elem())
		}
		return tm.Store(args[0], args[1], args[2]), nil
	case "/", "to_real", "to_int", "is_int":
		return nil, errorAt(n.Kids[0], "unsupported: real arithmetic (%s)", name)
	}
	return nil, errorAt(n.Kids[0], "unknown function %s", n.Kids[0])
}
