package smt

import (
	"fmt"
	"math/big"
)

// Op is the operator at the root of a term.
type Op uint8

// The operators. The comment gives each one's printed form; "n-ary" means
// two or more arguments (constructors accept fewer and simplify: And() is
// true, And(x) is x).
const (
	OpInvalid Op = iota

	// Leaves.
	OpTrue       // true
	OpFalse      // false
	OpInt        // 42, (- 42): an integer literal of any size
	OpVar        // x: a declared constant (a nullary Symbol)
	OpValue      // (as @U_3 U): an abstract value of an uninterpreted sort, in models
	OpBound      // ?0: parameter i of a function body (define-fun, models)
	OpConstArray // ((as const (Array Int Int)) 0): the array mapping every index to its argument

	// Uninterpreted functions.
	OpApp // (f a b): a declared function of arity ≥ 1 applied to arguments

	// Boolean structure.
	OpNot      // (not a)
	OpAnd      // (and a b …), n-ary
	OpOr       // (or a b …), n-ary
	OpXor      // (xor a b)
	OpImplies  // (=> a b)
	OpEq       // (= a b): equality at any sort, including Bool (iff)
	OpDistinct // (distinct a b …), n-ary
	OpIte      // (ite c a b) at any sort

	// Integer arithmetic.
	OpNeg // (- a)
	OpAdd // (+ a b …), n-ary
	OpSub // (- a b …), n-ary, left-associative
	OpMul // (* a b …), n-ary; linear when at most one argument is not a literal
	OpDiv // (div a b): Euclidean quotient; linear when b is a non-zero literal
	OpMod // (mod a b): Euclidean remainder, 0 ≤ r < |b|
	OpAbs // (abs a)
	OpLt  // (< a b)
	OpLe  // (<= a b)
	OpGt  // (> a b)
	OpGe  // (>= a b)

	// Arrays.
	OpSelect // (select a i)
	OpStore  // (store a i v)

	numOps
)

var opNames = [numOps]string{
	OpInvalid: "invalid", OpTrue: "true", OpFalse: "false", OpInt: "int", OpVar: "var",
	OpValue: "value", OpBound: "bound", OpConstArray: "const", OpApp: "apply",
	OpNot: "not", OpAnd: "and", OpOr: "or", OpXor: "xor", OpImplies: "=>", OpEq: "=",
	OpDistinct: "distinct", OpIte: "ite", OpNeg: "-", OpAdd: "+", OpSub: "-", OpMul: "*",
	OpDiv: "div", OpMod: "mod", OpAbs: "abs", OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">=",
	OpSelect: "select", OpStore: "store",
}

// String returns the operator's SMT-LIB2 name (for leaves, a description).
func (op Op) String() string {
	if op < numOps {
		return opNames[op]
	}
	return fmt.Sprintf("Op(%d)", op)
}

// A Symbol is a declared constant (no parameters) or uninterpreted function.
// A manager holds at most one symbol per name.
type Symbol struct {
	name   string
	params []*Sort
	result *Sort
	id     int
}

// Name returns the symbol's name as declared (unquoted).
func (s *Symbol) Name() string { return s.name }

// Params returns the parameter sorts; the caller must not modify the slice.
func (s *Symbol) Params() []*Sort { return s.params }

// Result returns the result sort.
func (s *Symbol) Result() *Sort { return s.result }

// Arity returns the number of parameters.
func (s *Symbol) Arity() int { return len(s.params) }

// ID returns the symbol's index in declaration order within its manager.
func (s *Symbol) ID() int { return s.id }

// String returns the symbol's name, quoted with |…| when SMT-LIB2 requires it.
func (s *Symbol) String() string { return quoteSymbol(s.name) }

// A Term is a node of a hash-consed DAG: within one TermManager two terms are
// structurally equal exactly when their pointers are equal, so *Term works as
// a map key and == is equality. Terms are immutable.
type Term struct {
	op    Op
	sort  *Sort
	args  []*Term
	sym   *Symbol  // OpVar, OpApp
	small int64    // OpInt when big == nil; OpBound and OpValue: the index
	big   *big.Int // OpInt outside int64
	id    uint32
	hash  uint64
}

// Op returns the root operator.
func (t *Term) Op() Op { return t.op }

// Sort returns the term's sort.
func (t *Term) Sort() *Sort { return t.sort }

// Args returns the arguments; the caller must not modify the slice.
func (t *Term) Args() []*Term { return t.args }

// NumArgs returns len(t.Args()).
func (t *Term) NumArgs() int { return len(t.args) }

// Arg returns argument i.
func (t *Term) Arg(i int) *Term { return t.args[i] }

// Symbol returns the declared symbol of an OpVar or OpApp term, nil otherwise.
func (t *Term) Symbol() *Symbol { return t.sym }

// ID returns a number unique to t within its manager, assigned in creation
// order (so arguments have smaller IDs than the terms built on them). It is
// dense enough to index slices.
func (t *Term) ID() uint32 { return t.id }

// Hash returns the structural hash used for hash-consing.
func (t *Term) Hash() uint64 { return t.hash }

// IsBool, IsInt and IsArray report the sort of t.
func (t *Term) IsBool() bool  { return t.sort.kind == KindBool }
func (t *Term) IsInt() bool   { return t.sort.kind == KindInt }
func (t *Term) IsArray() bool { return t.sort.kind == KindArray }

// IsConst reports whether t is a literal: true, false, an integer, an
// abstract value.
func (t *Term) IsConst() bool {
	switch t.op {
	case OpTrue, OpFalse, OpInt, OpValue:
		return true
	}
	return false
}

// Int64 returns the value of an integer literal that fits in an int64.
func (t *Term) Int64() (int64, bool) {
	if t.op != OpInt || t.big != nil {
		return 0, false
	}
	return t.small, true
}

// BigInt returns the value of an integer literal as a new big.Int, or nil
// when t is not an integer literal.
func (t *Term) BigInt() *big.Int {
	if t.op != OpInt {
		return nil
	}
	if t.big != nil {
		return new(big.Int).Set(t.big)
	}
	return big.NewInt(t.small)
}

// Index returns the index of an OpBound or OpValue term.
func (t *Term) Index() int { return int(t.small) }

// A TermManager creates, interns and owns terms, symbols and sorts. Terms
// from different managers must not be mixed. The zero value is not usable;
// call NewTermManager. A manager is not safe for concurrent use.
type TermManager struct {
	table      map[uint64][]*Term
	nterms     uint32
	symbols    map[string]*Symbol
	symList    []*Symbol
	arraySorts map[[2]*Sort]*Sort
	usorts     map[string]*Sort
	tru, fls   *Term
	zero, one  *Term
	simp       map[*Term]*Term // Simplify's memo
}

// NewTermManager returns an empty manager.
func NewTermManager() *TermManager {
	tm := &TermManager{
		table:      make(map[uint64][]*Term),
		symbols:    make(map[string]*Symbol),
		arraySorts: make(map[[2]*Sort]*Sort),
		usorts:     make(map[string]*Sort),
	}
	tm.tru = tm.intern(&Term{op: OpTrue, sort: BoolSort})
	tm.fls = tm.intern(&Term{op: OpFalse, sort: BoolSort})
	tm.zero = tm.Int(0)
	tm.one = tm.Int(1)
	return tm
}

// NumTerms returns the number of distinct terms created so far; every
// Term.ID is below it.
func (tm *TermManager) NumTerms() int { return int(tm.nterms) }

// Symbols returns the declared symbols in declaration order; the caller must
// not modify the slice.
func (tm *TermManager) Symbols() []*Symbol { return tm.symList }

// Lookup returns the symbol called name, or nil.
func (tm *TermManager) Lookup(name string) *Symbol { return tm.symbols[name] }

// Declare declares a function symbol (a constant when params is empty). It
// returns the existing symbol when name was declared before with the same
// signature, and an error when it was declared with another.
func (tm *TermManager) Declare(name string, params []*Sort, result *Sort) (*Symbol, error) {
	if s, ok := tm.symbols[name]; ok {
		if s.result != result || len(s.params) != len(params) {
			return nil, fmt.Errorf("%s already declared with another sort", quoteSymbol(name))
		}
		for i := range params {
			if s.params[i] != params[i] {
				return nil, fmt.Errorf("%s already declared with another sort", quoteSymbol(name))
			}
		}
		return s, nil
	}
	if result.kind == 0 {
		return nil, fmt.Errorf("%s: invalid result sort", quoteSymbol(name))
	}
	s := &Symbol{name: name, params: append([]*Sort(nil), params...), result: result, id: len(tm.symList)}
	tm.symbols[name] = s
	tm.symList = append(tm.symList, s)
	return s, nil
}

// Const declares (or finds) the constant name of the given sort and returns
// it as a term. It panics when name is declared with another sort.
func (tm *TermManager) Const(name string, sort *Sort) *Term {
	s, err := tm.Declare(name, nil, sort)
	if err != nil {
		panic("smt: Const: " + err.Error())
	}
	return tm.Var(s)
}

// Var returns the term for a nullary symbol.
func (tm *TermManager) Var(s *Symbol) *Term {
	if len(s.params) != 0 {
		panic(fmt.Sprintf("smt: Var: %s has arity %d", s, len(s.params)))
	}
	return tm.mk(OpVar, s.result, s, 0, nil)
}

// Apply applies a symbol to arguments of its parameter sorts. Applying a
// nullary symbol to no arguments gives its Var.
func (tm *TermManager) Apply(s *Symbol, args ...*Term) *Term {
	if len(args) != len(s.params) {
		panic(fmt.Sprintf("smt: Apply: %s takes %d arguments, got %d", s, len(s.params), len(args)))
	}
	if len(args) == 0 {
		return tm.Var(s)
	}
	for i, a := range args {
		if a.sort != s.params[i] {
			panic(fmt.Sprintf("smt: Apply: argument %d of %s has sort %s, want %s", i+1, s, a.sort, s.params[i]))
		}
	}
	return tm.mk(OpApp, s.result, s, 0, nil, args...)
}

// True returns the literal true.
func (tm *TermManager) True() *Term { return tm.tru }

// False returns the literal false.
func (tm *TermManager) False() *Term { return tm.fls }

// Bool returns true or false.
func (tm *TermManager) Bool(b bool) *Term {
	if b {
		return tm.tru
	}
	return tm.fls
}

// Int returns an integer literal.
func (tm *TermManager) Int(v int64) *Term { return tm.mk(OpInt, IntSort, nil, v, nil) }

// BigInt returns an integer literal; v is copied. Values that fit an int64
// are stored as such, so BigInt(big.NewInt(3)) == Int(3).
func (tm *TermManager) BigInt(v *big.Int) *Term {
	if v.IsInt64() {
		return tm.Int(v.Int64())
	}
	return tm.mk(OpInt, IntSort, nil, 0, new(big.Int).Set(v))
}

// Value returns abstract value number i of an uninterpreted sort.
func (tm *TermManager) Value(sort *Sort, i int) *Term {
	if sort.kind != KindUninterpreted {
		panic("smt: Value: sort " + sort.String() + " is not uninterpreted")
	}
	return tm.mk(OpValue, sort, nil, int64(i), nil)
}

// Bound returns parameter i of sort s, for function bodies (see FuncValue
// and SubstituteBound).
func (tm *TermManager) Bound(i int, s *Sort) *Term { return tm.mk(OpBound, s, nil, int64(i), nil) }

// ConstArray returns the array of sort arr that maps every index to v.
func (tm *TermManager) ConstArray(arr *Sort, v *Term) *Term {
	if arr.kind != KindArray || arr.elem != v.sort {
		panic(fmt.Sprintf("smt: ConstArray: sort %s cannot hold %s", arr, v.sort))
	}
	return tm.mk(OpConstArray, arr, nil, 0, nil, v)
}

// Not returns (not a).
func (tm *TermManager) Not(a *Term) *Term {
	tm.want("not", BoolSort, a)
	return tm.mk(OpNot, BoolSort, nil, 0, nil, a)
}

// And returns (and ts…); And() is true and And(a) is a.
func (tm *TermManager) And(ts ...*Term) *Term { return tm.nary(OpAnd, BoolSort, BoolSort, tm.tru, ts) }

// Or returns (or ts…); Or() is false and Or(a) is a.
func (tm *TermManager) Or(ts ...*Term) *Term { return tm.nary(OpOr, BoolSort, BoolSort, tm.fls, ts) }

// Xor returns (xor a b).
func (tm *TermManager) Xor(a, b *Term) *Term {
	tm.want("xor", BoolSort, a, b)
	return tm.mk(OpXor, BoolSort, nil, 0, nil, a, b)
}

// Implies returns (=> a b).
func (tm *TermManager) Implies(a, b *Term) *Term {
	tm.want("=>", BoolSort, a, b)
	return tm.mk(OpImplies, BoolSort, nil, 0, nil, a, b)
}

// Eq returns (= a b); a and b must have the same sort.
func (tm *TermManager) Eq(a, b *Term) *Term {
	tm.same("=", a, b)
	return tm.mk(OpEq, BoolSort, nil, 0, nil, a, b)
}

// Distinct returns (distinct ts…); with fewer than two terms it is true.
func (tm *TermManager) Distinct(ts ...*Term) *Term {
	if len(ts) < 2 {
		return tm.tru
	}
	tm.same("distinct", ts...)
	return tm.mk(OpDistinct, BoolSort, nil, 0, nil, ts...)
}

// Ite returns (ite c a b).
func (tm *TermManager) Ite(c, a, b *Term) *Term {
	tm.want("ite", BoolSort, c)
	tm.same("ite", a, b)
	return tm.mk(OpIte, a.sort, nil, 0, nil, c, a, b)
}

// Neg returns (- a).
func (tm *TermManager) Neg(a *Term) *Term {
	tm.want("-", IntSort, a)
	return tm.mk(OpNeg, IntSort, nil, 0, nil, a)
}

// Add returns (+ ts…); Add() is 0 and Add(a) is a.
func (tm *TermManager) Add(ts ...*Term) *Term { return tm.nary(OpAdd, IntSort, IntSort, tm.zero, ts) }

// Sub returns (- a b …); Sub(a) is a.
func (tm *TermManager) Sub(a *Term, ts ...*Term) *Term {
	if len(ts) == 0 {
		tm.want("-", IntSort, a)
		return a
	}
	all := append([]*Term{a}, ts...)
	tm.want("-", IntSort, all...)
	return tm.mk(OpSub, IntSort, nil, 0, nil, all...)
}

// Mul returns (* ts…); Mul() is 1 and Mul(a) is a. The product is linear
// when at most one factor is not a literal; other products are representable
// but decision procedures for linear arithmetic answer unknown on them.
func (tm *TermManager) Mul(ts ...*Term) *Term { return tm.nary(OpMul, IntSort, IntSort, tm.one, ts) }

// Scale returns (* c a), multiplication by a constant.
func (tm *TermManager) Scale(c int64, a *Term) *Term { return tm.Mul(tm.Int(c), a) }

// Div returns (div a b), SMT-LIB's Euclidean quotient: a = b·q + r with
// 0 ≤ r < |b|. Division by zero is unspecified (any value) as in SMT-LIB.
func (tm *TermManager) Div(a, b *Term) *Term {
	tm.want("div", IntSort, a, b)
	return tm.mk(OpDiv, IntSort, nil, 0, nil, a, b)
}

// Mod returns (mod a b), SMT-LIB's Euclidean remainder, 0 ≤ r < |b|.
func (tm *TermManager) Mod(a, b *Term) *Term {
	tm.want("mod", IntSort, a, b)
	return tm.mk(OpMod, IntSort, nil, 0, nil, a, b)
}

// Abs returns (abs a).
func (tm *TermManager) Abs(a *Term) *Term {
	tm.want("abs", IntSort, a)
	return tm.mk(OpAbs, IntSort, nil, 0, nil, a)
}

// TDiv returns the truncating quotient a / b of BIR, Java and C (rounding
// towards zero), expressed with Euclidean div:
//
//	(ite (>= a 0) (div a b) (- (div (- a) b)))
func (tm *TermManager) TDiv(a, b *Term) *Term {
	return tm.Ite(tm.Ge(a, tm.zero), tm.Div(a, b), tm.Neg(tm.Div(tm.Neg(a), b)))
}

// TRem returns the truncating remainder a % b of BIR, Java and C (the sign
// of a), expressed with Euclidean mod:
//
//	(ite (>= a 0) (mod a b) (- (mod (- a) b)))
func (tm *TermManager) TRem(a, b *Term) *Term {
	return tm.Ite(tm.Ge(a, tm.zero), tm.Mod(a, b), tm.Neg(tm.Mod(tm.Neg(a), b)))
}

// Lt returns (< a b).
func (tm *TermManager) Lt(a, b *Term) *Term { return tm.cmp(OpLt, a, b) }

// Le returns (<= a b).
func (tm *TermManager) Le(a, b *Term) *Term { return tm.cmp(OpLe, a, b) }

// Gt returns (> a b).
func (tm *TermManager) Gt(a, b *Term) *Term { return tm.cmp(OpGt, a, b) }

// Ge returns (>= a b).
func (tm *TermManager) Ge(a, b *Term) *Term { return tm.cmp(OpGe, a, b) }

func (tm *TermManager) cmp(op Op, a, b *Term) *Term {
	tm.want(op.String(), IntSort, a, b)
	return tm.mk(op, BoolSort, nil, 0, nil, a, b)
}

// Select returns (select a i).
func (tm *TermManager) Select(a, i *Term) *Term {
	if a.sort.kind != KindArray || a.sort.index != i.sort {
		panic(fmt.Sprintf("smt: select: cannot index %s with %s", a.sort, i.sort))
	}
	return tm.mk(OpSelect, a.sort.elem, nil, 0, nil, a, i)
}

// Store returns (store a i v).
func (tm *TermManager) Store(a, i, v *Term) *Term {
	if a.sort.kind != KindArray || a.sort.index != i.sort || a.sort.elem != v.sort {
		panic(fmt.Sprintf("smt: store: cannot store %s at %s in %s", v.sort, i.sort, a.sort))
	}
	return tm.mk(OpStore, a.sort, nil, 0, nil, a, i, v)
}

// Make builds a term from an operator and arguments, checking sorts, as
// the named constructors do. Leaves (literals, variables, applications,
// bound variables, values, constant arrays) have their own constructors and
// are rejected here, except that Make(op, t.Args()...) rebuilds any
// non-leaf t. This is what generic rewriting (Substitute, Simplify) uses.
func (tm *TermManager) Make(op Op, args ...*Term) *Term {
	switch op {
	case OpNot:
		return tm.Not(args[0])
	case OpAnd:
		return tm.And(args...)
	case OpOr:
		return tm.Or(args...)
	case OpXor:
		return tm.Xor(args[0], args[1])
	case OpImplies:
		return tm.Implies(args[0], args[1])
	case OpEq:
		return tm.Eq(args[0], args[1])
	case OpDistinct:
		return tm.Distinct(args...)
	case OpIte:
		return tm.Ite(args[0], args[1], args[2])
	case OpNeg:
		return tm.Neg(args[0])
	case OpAdd:
		return tm.Add(args...)
	case OpSub:
		return tm.Sub(args[0], args[1:]...)
	case OpMul:
		return tm.Mul(args...)
	case OpDiv:
		return tm.Div(args[0], args[1])
	case OpMod:
		return tm.Mod(args[0], args[1])
	case OpAbs:
		return tm.Abs(args[0])
	case OpLt, OpLe, OpGt, OpGe:
		return tm.cmp(op, args[0], args[1])
	case OpSelect:
		return tm.Select(args[0], args[1])
	case OpStore:
		return tm.Store(args[0], args[1], args[2])
	}
	panic("smt: Make: " + op.String() + " is a leaf")
}

// rebuild returns t with its arguments replaced (same operator, symbol and
// sort). args must have the sorts of t's arguments.
func (tm *TermManager) rebuild(t *Term, args []*Term) *Term {
	switch t.op {
	case OpApp:
		return tm.Apply(t.sym, args...)
	case OpConstArray:
		return tm.ConstArray(t.sort, args[0])
	case OpTrue, OpFalse, OpInt, OpVar, OpValue, OpBound:
		return t
	}
	return tm.Make(t.op, args...)
}

func (tm *TermManager) nary(op Op, argSort, sort *Sort, unit *Term, ts []*Term) *Term {
	switch len(ts) {
	case 0:
		return unit
	case 1:
		tm.want(op.String(), argSort, ts[0])
		return ts[0]
	}
	tm.want(op.String(), argSort, ts...)
	return tm.mk(op, sort, nil, 0, nil, ts...)
}

func (tm *TermManager) want(op string, s *Sort, ts ...*Term) {
	for i, t := range ts {
		if t.sort != s {
			panic(fmt.Sprintf("smt: %s: argument %d has sort %s, want %s", op, i+1, t.sort, s))
		}
	}
}

func (tm *TermManager) same(op string, ts ...*Term) {
	for i, t := range ts[1:] {
		if t.sort != ts[0].sort {
			panic(fmt.Sprintf("smt: %s: argument %d has sort %s, argument 1 has %s", op, i+2, t.sort, ts[0].sort))
		}
	}
}

// mk interns the term with the given fields. args is copied when a new term
// is created.
func (tm *TermManager) mk(op Op, sort *Sort, sym *Symbol, small int64, bigv *big.Int, args ...*Term) *Term {
	h := hashTerm(op, sort, sym, small, bigv, args)
	for _, t := range tm.table[h] {
		if t.op == op && t.sort == sort && t.sym == sym && t.small == small && len(t.args) == len(args) &&
			(t.big == nil) == (bigv == nil) && (bigv == nil || t.big.Cmp(bigv) == 0) {
			same := true
			for i, a := range args {
				if t.args[i] != a {
					same = false
					break
				}
			}
			if same {
				return t
			}
		}
	}
	t := &Term{op: op, sort: sort, sym: sym, small: small, big: bigv, hash: h}
	if len(args) > 0 {
		t.args = append([]*Term(nil), args...)
	}
	return tm.intern(t)
}

func (tm *TermManager) intern(t *Term) *Term {
	if t.hash == 0 {
		t.hash = hashTerm(t.op, t.sort, t.sym, t.small, t.big, t.args)
	}
	t.id = tm.nterms
	tm.nterms++
	tm.table[t.hash] = append(tm.table[t.hash], t)
	return t
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func mix(h, v uint64) uint64 {
	h ^= v
	h *= fnvPrime
	h ^= h >> 29
	return h
}

func sortHash(s *Sort) uint64 {
	switch s.kind {
	case KindArray:
		return mix(mix(3, sortHash(s.index)), sortHash(s.elem))
	case KindUninterpreted:
		return mix(4, uint64(s.id))
	}
	return uint64(s.kind)
}

func hashTerm(op Op, sort *Sort, sym *Symbol, small int64, bigv *big.Int, args []*Term) uint64 {
	h := mix(fnvOffset, uint64(op))
	h = mix(h, sortHash(sort))
	if sym != nil {
		h = mix(h, uint64(sym.id)+1)
	}
	h = mix(h, uint64(small))
	if bigv != nil {
		for _, w := range bigv.Bits() {
			h = mix(h, uint64(w))
		}
		h = mix(h, uint64(bigv.Sign()+2))
	}
	for _, a := range args {
		h = mix(h, uint64(a.id))
	}
	if h == 0 {
		h = 1
	}
	return h
}
