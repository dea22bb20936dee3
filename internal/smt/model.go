package smt

import (
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"
)

// A Model assigns values to declared symbols: a value term to each constant
// and a FuncValue to each function. Values are literals: true, false,
// integers, abstract values of uninterpreted sorts (OpValue), and arrays in
// canonical form — a ConstArray with stores at increasing indices, none
// storing the default:
//
//	(store (store ((as const (Array Int Int)) 0) 1 7) 4 2)
//
// Because values are canonical and terms hash-consed, two values are equal
// exactly when their pointers are.
//
// A model is complete: Eval gives a symbol the model does not mention the
// default value of its sort (false, 0, the first abstract value, the
// constant array of the element's default).
type Model struct {
	tm     *TermManager
	consts map[*Symbol]*Term
	funcs  map[*Symbol]*FuncValue
}

// A FuncValue interprets a function symbol: either by a table (Entries, then
// Default) or, when Body is not nil, by a term over the parameters
// tm.Bound(0, …), tm.Bound(1, …), ….
type FuncValue struct {
	Entries []FuncEntry // the first entry whose Args equal the arguments gives the value
	Default *Term       // the value elsewhere; nil means the sort's default
	Body    *Term       // when not nil, the value is Body with the parameters replaced by the arguments
}

// A FuncEntry is one row of a function table: Args and Value are values.
type FuncEntry struct {
	Args  []*Term
	Value *Term
}

// NewModel returns an empty model over tm's terms.
func NewModel(tm *TermManager) *Model {
	return &Model{tm: tm, consts: map[*Symbol]*Term{}, funcs: map[*Symbol]*FuncValue{}}
}

// TermManager returns the manager of the model's terms.
func (m *Model) TermManager() *TermManager { return m.tm }

// SetConst sets the value of a nullary symbol. v is evaluated first, so it
// may be any closed term (an array written with stores, say).
func (m *Model) SetConst(s *Symbol, v *Term) error {
	if len(s.params) != 0 {
		return fmt.Errorf("smt: SetConst: %s is a function", s)
	}
	if v.sort != s.result {
		return fmt.Errorf("smt: SetConst: %s has sort %s, value has %s", s, s.result, v.sort)
	}
	val, err := m.Eval(v)
	if err != nil {
		return err
	}
	m.consts[s] = val
	return nil
}

// SetFunc sets the interpretation of a function symbol.
func (m *Model) SetFunc(s *Symbol, f *FuncValue) { m.funcs[s] = f }

// Const returns the value given to a nullary symbol, or nil.
func (m *Model) Const(s *Symbol) *Term { return m.consts[s] }

// Func returns the interpretation of a function symbol, or nil.
func (m *Model) Func(s *Symbol) *FuncValue { return m.funcs[s] }

// Symbols returns the symbols the model interprets, in declaration order.
func (m *Model) Symbols() []*Symbol {
	var out []*Symbol
	for s := range m.consts {
		out = append(out, s)
	}
	for s := range m.funcs {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// ErrUndefined is returned (wrapped) by Eval when a term's value is not
// determined by the model: division or remainder by zero, which SMT-LIB
// leaves unspecified.
var ErrUndefined = errors.New("value not determined by the model")

// Eval returns the value of t in the model. It fails on terms with free
// parameters (OpBound), on nonsensical input, and (with ErrUndefined) on
// division by zero.
func (m *Model) Eval(t *Term) (*Term, error) {
	e := evaluator{m: m, tm: m.tm, memo: map[*Term]*Term{}}
	return e.eval(t)
}

// Holds reports whether the formula t evaluates to true.
func (m *Model) Holds(t *Term) (bool, error) {
	v, err := m.Eval(t)
	if err != nil {
		return false, err
	}
	return v == m.tm.tru, nil
}

// Default returns the default value of a sort: false, 0, the abstract value
// number 0, or the constant array of the element sort's default.
func (tm *TermManager) Default(s *Sort) *Term {
	switch s.kind {
	case KindBool:
		return tm.fls
	case KindInt:
		return tm.zero
	case KindUninterpreted:
		return tm.Value(s, 0)
	case KindArray:
		return tm.ConstArray(s, tm.Default(s.elem))
	}
	panic("smt: Default: bad sort")
}

type evaluator struct {
	m    *Model
	tm   *TermManager
	memo map[*Term]*Term
	args []*Term // values of the parameters when evaluating a function body
}

func (e *evaluator) eval(t *Term) (*Term, error) {
	if v, ok := e.memo[t]; ok {
		return v, nil
	}
	v, err := e.eval1(t)
	if err != nil {
		return nil, err
	}
	e.memo[t] = v
	return v, nil
}

func (e *evaluator) eval1(t *Term) (*Term, error) {
	tm := e.tm
	switch t.op {
	case OpTrue, OpFalse, OpInt, OpValue:
		return t, nil
	case OpBound:
		if int(t.small) >= len(e.args) {
			return nil, fmt.Errorf("smt: Eval: free parameter %s", t)
		}
		return e.args[t.small], nil
	case OpVar:
		if v, ok := e.m.consts[t.sym]; ok {
			return v, nil
		}
		return tm.Default(t.sort), nil
	case OpIte:
		c, err := e.eval(t.args[0])
		if err != nil {
			return nil, err
		}
		if c == tm.tru {
			return e.eval(t.args[1])
		}
		return e.eval(t.args[2])
	case OpAnd, OpOr, OpImplies:
		// Short-circuit so that an undefined operand that does not matter
		// does not make the whole formula undefined.
		stop := tm.fls
		if t.op == OpOr {
			stop = tm.tru
		}
		var firstErr error
		for i, a := range t.args {
			v, err := e.eval(a)
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
			if t.op == OpImplies && i == 0 {
				if v == tm.fls {
					return tm.tru, nil
				}
				continue
			}
			if v == stop {
				if t.op == OpImplies {
					return tm.fls, nil
				}
				return stop, nil
			}
		}
		if firstErr != nil {
			return nil, firstErr
		}
		if t.op == OpImplies {
			return tm.tru, nil
		}
		return tm.Bool(stop == tm.fls), nil
	}
	vals := make([]*Term, len(t.args))
	for i, a := range t.args {
		v, err := e.eval(a)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	switch t.op {
	case OpConstArray:
		return tm.ConstArray(t.sort, vals[0]), nil
	case OpApp:
		return e.apply(t.sym, vals)
	case OpNot:
		return tm.Bool(vals[0] == tm.fls), nil
	case OpXor:
		return tm.Bool(vals[0] != vals[1]), nil
	case OpEq:
		return tm.Bool(vals[0] == vals[1]), nil
	case OpDistinct:
		seen := map[*Term]bool{}
		for _, v := range vals {
			if seen[v] {
				return tm.fls, nil
			}
			seen[v] = true
		}
		return tm.tru, nil
	case OpNeg:
		return tm.BigInt(new(big.Int).Neg(bigOf(vals[0]))), nil
	case OpAbs:
		return tm.BigInt(new(big.Int).Abs(bigOf(vals[0]))), nil
	case OpAdd, OpSub, OpMul:
		if r, ok := smallArith(t.op, vals); ok {
			return tm.Int(r), nil
		}
		acc := new(big.Int).Set(bigOf(vals[0]))
		for _, v := range vals[1:] {
			switch t.op {
			case OpAdd:
				acc.Add(acc, bigOf(v))
			case OpSub:
				acc.Sub(acc, bigOf(v))
			case OpMul:
				acc.Mul(acc, bigOf(v))
			}
		}
		return tm.BigInt(acc), nil
	case OpDiv, OpMod:
		d := bigOf(vals[1])
		if d.Sign() == 0 {
			return nil, fmt.Errorf("smt: Eval: %s by zero: %w", t.op, ErrUndefined)
		}
		q, r := new(big.Int).DivMod(bigOf(vals[0]), d, new(big.Int)) // Euclidean, as SMT-LIB
		if t.op == OpDiv {
			return tm.BigInt(q), nil
		}
		return tm.BigInt(r), nil
	case OpLt, OpLe, OpGt, OpGe:
		c := compareInts(vals[0], vals[1])
		switch t.op {
		case OpLt:
			return tm.Bool(c < 0), nil
		case OpLe:
			return tm.Bool(c <= 0), nil
		case OpGt:
			return tm.Bool(c > 0), nil
		}
		return tm.Bool(c >= 0), nil
	case OpSelect:
		def, entries := arrayParts(vals[0])
		for _, en := range entries {
			if en[0] == vals[1] {
				return en[1], nil
			}
		}
		return def, nil
	case OpStore:
		return tm.arrayValue(vals[0].sort, vals[0], vals[1], vals[2]), nil
	}
	return nil, fmt.Errorf("smt: Eval: unexpected operator %s", t.op)
}

func (e *evaluator) apply(s *Symbol, args []*Term) (*Term, error) {
	f := e.m.funcs[s]
	if f == nil {
		return e.tm.Default(s.result), nil
	}
	if f.Body != nil {
		sub := evaluator{m: e.m, tm: e.tm, memo: map[*Term]*Term{}, args: args}
		return sub.eval(f.Body)
	}
next:
	for _, en := range f.Entries {
		for i, a := range en.Args {
			if a != args[i] {
				continue next
			}
		}
		return en.Value, nil
	}
	if f.Default != nil {
		return f.Default, nil
	}
	return e.tm.Default(s.result), nil
}

func bigOf(t *Term) *big.Int {
	if t.big != nil {
		return t.big
	}
	return big.NewInt(t.small)
}

func compareInts(a, b *Term) int {
	if a.big == nil && b.big == nil {
		switch {
		case a.small < b.small:
			return -1
		case a.small > b.small:
			return 1
		}
		return 0
	}
	return bigOf(a).Cmp(bigOf(b))
}

// smallArith computes + - * over int64 literals when nothing overflows.
func smallArith(op Op, vals []*Term) (int64, bool) {
	if vals[0].big != nil {
		return 0, false
	}
	acc := vals[0].small
	for _, v := range vals[1:] {
		if v.big != nil {
			return 0, false
		}
		x := v.small
		switch op {
		case OpAdd:
			r := acc + x
			if (r > acc) != (x > 0) {
				return 0, false
			}
			acc = r
		case OpSub:
			r := acc - x
			if (r < acc) != (x > 0) {
				return 0, false
			}
			acc = r
		case OpMul:
			if acc == 0 || x == 0 {
				acc = 0
				continue
			}
			r := acc * x
			if r/x != acc || (acc == -1 && x == -1<<63) || (x == -1 && acc == -1<<63) {
				return 0, false
			}
			acc = r
		}
	}
	return acc, true
}

// compareValues orders values: integers numerically, false before true,
// abstract values by index, other terms by ID.
func compareValues(a, b *Term) int {
	if a.op == OpInt && b.op == OpInt {
		return compareInts(a, b)
	}
	if a.op == OpValue && b.op == OpValue {
		return int(a.small - b.small)
	}
	if a.op == OpFalse && b.op == OpTrue {
		return -1
	}
	if a.op == OpTrue && b.op == OpFalse {
		return 1
	}
	return int(a.id) - int(b.id)
}

// arrayParts decomposes a canonical array value into its default and its
// (index, value) entries in increasing index order.
func arrayParts(v *Term) (def *Term, entries [][2]*Term) {
	for v.op == OpStore {
		entries = append(entries, [2]*Term{v.args[1], v.args[2]})
		v = v.args[0]
	}
	for i, j := 0, len(entries)-1; i < j; i, j = i+1, j-1 {
		entries[i], entries[j] = entries[j], entries[i]
	}
	return v.args[0], entries
}

// arrayValue returns the canonical form of (store arr i v) for a canonical
// array value arr and values i, v.
func (tm *TermManager) arrayValue(s *Sort, arr, i, v *Term) *Term {
	def, entries := arrayParts(arr)
	var out [][2]*Term
	placed := false
	for _, en := range entries {
		c := compareValues(en[0], i)
		if c == 0 {
			continue
		}
		if c > 0 && !placed {
			if v != def {
				out = append(out, [2]*Term{i, v})
			}
			placed = true
		}
		out = append(out, en)
	}
	if !placed && v != def {
		out = append(out, [2]*Term{i, v})
	}
	r := tm.ConstArray(s, def)
	for _, en := range out {
		r = tm.Store(r, en[0], en[1])
	}
	return r
}

// String prints the model as SMT-LIB2 solvers answer get-model:
//
//	(
//	  (define-fun x () Int 3)
//	  (define-fun f ((x!0 Int)) Int (ite (= x!0 1) 2 0))
//	)
func (m *Model) String() string {
	var b strings.Builder
	b.WriteString("(\n")
	for _, s := range m.Symbols() {
		b.WriteString("  " + m.Define(s) + "\n")
	}
	b.WriteString(")")
	return b.String()
}

// Define returns the define-fun for symbol s in the model (completed with
// the default when the model does not mention s).
func (m *Model) Define(s *Symbol) string {
	var b strings.Builder
	b.WriteString("(define-fun " + quoteSymbol(s.name) + " (")
	for i, p := range s.params {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("(" + BoundName(i) + " " + p.String() + ")")
	}
	b.WriteString(") " + s.result.String() + " ")
	if len(s.params) == 0 {
		v, err := m.Eval(m.tm.Var(s))
		if err != nil {
			v = m.tm.Default(s.result)
		}
		b.WriteString(v.String())
	} else {
		Fprint(&b, m.FuncBody(s))
	}
	b.WriteByte(')')
	return b.String()
}

// FuncBody returns the interpretation of function symbol s as a term over
// its parameters tm.Bound(i, …): the Body, or the table as an ite chain.
func (m *Model) FuncBody(s *Symbol) *Term {
	tm := m.tm
	f := m.funcs[s]
	if f == nil {
		return tm.Default(s.result)
	}
	if f.Body != nil {
		return f.Body
	}
	body := f.Default
	if body == nil {
		body = tm.Default(s.result)
	}
	for i := len(f.Entries) - 1; i >= 0; i-- {
		en := f.Entries[i]
		conds := make([]*Term, len(en.Args))
		for j, a := range en.Args {
			conds[j] = tm.Eq(tm.Bound(j, s.params[j]), a)
		}
		body = tm.Ite(tm.And(conds...), en.Value, body)
	}
	return body
}
