package bdd

import (
	"fmt"
	"slices"
)

// Node is a boolean function owned by a Manager. The zero Node is False.
type Node int32

// The two terminals.
const (
	False Node = 0
	True  Node = 1
)

// DefaultMaxNodes is the node bound of a Config whose MaxNodes is zero:
// about 2^22 nodes, some 100 MB with the unique table.
const DefaultMaxNodes = 1 << 22

// defaultCacheSize is the largest number of entries of the computed cache;
// it starts at minCacheSize and grows with the unique table.
const (
	defaultCacheSize = 1 << 20
	minCacheSize     = 1 << 10
)

// Config configures a Manager; its zero value works.
type Config struct {
	// MaxNodes bounds the number of nodes, terminals included
	// (zero: DefaultMaxNodes).
	MaxNodes int
	// CacheSize bounds the entries of the computed cache, rounded up to a
	// power of two (zero: 2^20); the cache starts small and grows with the
	// nodes. The cache is lossy: a smaller one only costs time.
	CacheSize int
}

// LimitError reports that an operation needed more nodes than the bound.
type LimitError struct {
	MaxNodes int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("bdd: more than %d nodes needed (node bound)", e.MaxNodes)
}

type node struct {
	level   int32
	low, hi Node
}

type cacheEntry struct {
	op      int32
	a, b, c Node
	r       Node
}

// Manager holds the nodes of a set of boolean functions over a fixed
// number of variables. A Manager is not safe for concurrent use; distinct
// Managers share nothing.
type Manager struct {
	nvars    int
	nodes    []node
	unique   []int32 // open addressing; 0 is empty (terminals are never stored)
	max      int
	cache    []cacheEntry
	cacheMax int
	err      error
}

// limitPanic unwinds a recursive operation that hit the node bound; the
// exported entry points recover it.
type limitPanic struct{}

// New returns a Manager over nvars variables (numbered 0..nvars-1).
func New(nvars int, cfg Config) *Manager {
	if nvars < 0 {
		nvars = 0
	}
	max := cfg.MaxNodes
	if max <= 0 {
		max = DefaultMaxNodes
	}
	if max < 2 {
		max = 2
	}
	cs := cfg.CacheSize
	if cs <= 0 {
		cs = defaultCacheSize
	}
	size := 1
	for size < cs {
		size <<= 1
	}
	m := &Manager{nvars: nvars, max: max, cacheMax: size, cache: make([]cacheEntry, min(size, minCacheSize))}
	term := int32(nvars)
	m.nodes = append(m.nodes, node{level: term, low: False, hi: False}, node{level: term, low: True, hi: True})
	m.unique = make([]int32, 1024)
	return m
}

// NumVars returns the number of variables.
func (m *Manager) NumVars() int { return m.nvars }

// Err returns the error that stopped the Manager (a *LimitError), or nil.
// After an error every operation returns False.
func (m *Manager) Err() error { return m.err }

// NodeCount returns the number of nodes held, terminals included.
func (m *Manager) NodeCount() int { return len(m.nodes) }

// Level returns the variable tested at the root of f, or NumVars() for a
// terminal.
func (m *Manager) Level(f Node) int { return int(m.nodes[f].level) }

// Low and High return the cofactors of f's root (f itself for a terminal).
func (m *Manager) Low(f Node) Node  { return m.nodes[f].low }
func (m *Manager) High(f Node) Node { return m.nodes[f].hi }

func (m *Manager) guard() {
	if r := recover(); r != nil {
		if _, ok := r.(limitPanic); !ok {
			panic(r)
		}
		if m.err == nil {
			m.err = &LimitError{MaxNodes: m.max}
		}
	}
}

func hash3(a, b, c int32) uint32 {
	h := uint32(a)*0x9E3779B1 ^ uint32(b)*0x85EBCA77 ^ uint32(c)*0xC2B2AE3D
	h ^= h >> 15
	h *= 0x2C1B3C6D
	h ^= h >> 12
	return h
}

// mk returns the node (level, low, hi), reduced and hash-consed.
func (m *Manager) mk(level int32, low, hi Node) Node {
	if low == hi {
		return low
	}
	mask := uint32(len(m.unique) - 1)
	for i := hash3(level, int32(low), int32(hi)) & mask; ; i = (i + 1) & mask {
		k := m.unique[i]
		if k == 0 {
			break
		}
		n := &m.nodes[k]
		if n.level == level && n.low == low && n.hi == hi {
			return Node(k)
		}
	}
	if len(m.nodes) >= m.max {
		panic(limitPanic{})
	}
	id := int32(len(m.nodes))
	m.nodes = append(m.nodes, node{level: level, low: low, hi: hi})
	if 2*len(m.nodes) > len(m.unique) {
		m.rehash()
	} else {
		m.insert(id)
	}
	return Node(id)
}

func (m *Manager) insert(id int32) {
	n := m.nodes[id]
	mask := uint32(len(m.unique) - 1)
	i := hash3(n.level, int32(n.low), int32(n.hi)) & mask
	for m.unique[i] != 0 {
		i = (i + 1) & mask
	}
	m.unique[i] = id
}

func (m *Manager) rehash() {
	m.unique = make([]int32, 2*len(m.unique))
	if n := min(m.cacheMax, len(m.unique)/2); n > len(m.cache) {
		m.cache = make([]cacheEntry, n) // entries dropped: the cache is lossy
	}
	for id := int32(2); id < int32(len(m.nodes)); id++ {
		m.insert(id)
	}
}

// Operation codes of the computed cache; 0 marks an empty entry.
const (
	opAnd int32 = iota + 1
	opOr
	opXor
	opNot
	opIte
	opExists
	opAndExists
)

func (m *Manager) lookup(op int32, a, b, c Node) (Node, bool) {
	e := &m.cache[hash3(op^int32(a)<<3, int32(b), int32(c))&uint32(len(m.cache)-1)]
	if e.op == op && e.a == a && e.b == b && e.c == c {
		return e.r, true
	}
	return 0, false
}

func (m *Manager) store(op int32, a, b, c, r Node) {
	e := &m.cache[hash3(op^int32(a)<<3, int32(b), int32(c))&uint32(len(m.cache)-1)]
	*e = cacheEntry{op: op, a: a, b: b, c: c, r: r}
}

// Var returns the function "variable v is true" (False for a v out of
// range).
func (m *Manager) Var(v int) Node {
	if m.err != nil || v < 0 || v >= m.nvars {
		return False
	}
	defer m.guard()
	return m.mk(int32(v), False, True)
}

// NVar returns the function "variable v is false".
func (m *Manager) NVar(v int) Node {
	if m.err != nil || v < 0 || v >= m.nvars {
		return False
	}
	defer m.guard()
	return m.mk(int32(v), True, False)
}

// Const returns True for b, False otherwise.
func Const(b bool) Node {
	if b {
		return True
	}
	return False
}

// Cube returns the conjunction of the given variables (positive), the
// form Exists and AndExists take a set of variables in.
func (m *Manager) Cube(vars ...int) Node {
	if m.err != nil {
		return False
	}
	defer m.guard()
	vs := slices.Clone(vars)
	slices.Sort(vs)
	r := True
	for i := len(vs) - 1; i >= 0; i-- {
		if v := vs[i]; v >= 0 && v < m.nvars && (i == len(vs)-1 || vs[i+1] != v) {
			r = m.mk(int32(v), False, r)
		}
	}
	return r
}

// Not returns ¬f.
func (m *Manager) Not(f Node) Node {
	if m.err != nil {
		return False
	}
	defer m.guard()
	return m.not(f)
}

func (m *Manager) not(f Node) Node {
	if f <= True {
		return 1 - f
	}
	if r, ok := m.lookup(opNot, f, 0, 0); ok {
		return r
	}
	n := m.nodes[f]
	r := m.mk(n.level, m.not(n.low), m.not(n.hi))
	m.store(opNot, f, 0, 0, r)
	return r
}

// And returns the conjunction of fs (True for none).
func (m *Manager) And(fs ...Node) Node {
	if m.err != nil {
		return False
	}
	defer m.guard()
	r := True
	for _, f := range fs {
		r = m.apply(opAnd, r, f)
	}
	return r
}

// AndAll returns the conjunction of fs like And, conjoining the
// functions whose top variable comes last first: a conjunction of many
// small functions over successive variables (x0 ↔ y0, x1 ↔ y1, …) then
// costs nodes in proportion to its size, where And in the order of the
// variables rebuilds the conjunction so far at each step.
func (m *Manager) AndAll(fs []Node) Node {
	if m.err != nil {
		return False
	}
	defer m.guard()
	sorted := append([]Node(nil), fs...)
	slices.SortFunc(sorted, func(a, b Node) int { return int(m.nodes[b].level) - int(m.nodes[a].level) })
	r := True
	for _, f := range sorted {
		r = m.apply(opAnd, r, f)
	}
	return r
}

// Or returns the disjunction of fs (False for none).
func (m *Manager) Or(fs ...Node) Node {
	if m.err != nil {
		return False
	}
	defer m.guard()
	r := False
	for _, f := range fs {
		r = m.apply(opOr, r, f)
	}
	return r
}

// Xor returns f ⊕ g.
func (m *Manager) Xor(f, g Node) Node {
	if m.err != nil {
		return False
	}
	defer m.guard()
	return m.apply(opXor, f, g)
}

// Equiv returns f ↔ g.
func (m *Manager) Equiv(f, g Node) Node {
	if m.err != nil {
		return False
	}
	defer m.guard()
	return m.not(m.apply(opXor, f, g))
}

// Imp returns f → g.
func (m *Manager) Imp(f, g Node) Node {
	if m.err != nil {
		return False
	}
	defer m.guard()
	return m.apply(opOr, m.not(f), g)
}

// Diff returns f ∧ ¬g.
func (m *Manager) Diff(f, g Node) Node {
	if m.err != nil {
		return False
	}
	defer m.guard()
	return m.apply(opAnd, f, m.not(g))
}

func (m *Manager) apply(op int32, f, g Node) Node {
	switch op {
	case opAnd:
		switch {
		case f == False || g == False:
			return False
		case f == True:
			return g
		case g == True || f == g:
			return f
		}
	case opOr:
		switch {
		case f == True || g == True:
			return True
		case f == False:
			return g
		case g == False || f == g:
			return f
		}
	case opXor:
		switch {
		case f == g:
			return False
		case f == False:
			return g
		case g == False:
			return f
		case f == True:
			return m.not(g)
		case g == True:
			return m.not(f)
		}
	}
	if f > g { // every op here is commutative
		f, g = g, f
	}
	if r, ok := m.lookup(op, f, g, 0); ok {
		return r
	}
	nf, ng := m.nodes[f], m.nodes[g]
	var r Node
	switch {
	case nf.level == ng.level:
		r = m.mk(nf.level, m.apply(op, nf.low, ng.low), m.apply(op, nf.hi, ng.hi))
	case nf.level < ng.level:
		r = m.mk(nf.level, m.apply(op, nf.low, g), m.apply(op, nf.hi, g))
	default:
		r = m.mk(ng.level, m.apply(op, f, ng.low), m.apply(op, f, ng.hi))
	}
	m.store(op, f, g, 0, r)
	return r
}

// Ite returns (f ∧ g) ∨ (¬f ∧ h).
func (m *Manager) Ite(f, g, h Node) Node {
	if m.err != nil {
		return False
	}
	defer m.guard()
	return m.ite(f, g, h)
}

func (m *Manager) ite(f, g, h Node) Node {
	switch {
	case f == True:
		return g
	case f == False:
		return h
	case g == h:
		return g
	case g == True && h == False:
		return f
	case g == False && h == True:
		return m.not(f)
	case g == True:
		return m.apply(opOr, f, h)
	case h == False:
		return m.apply(opAnd, f, g)
	}
	if r, ok := m.lookup(opIte, f, g, h); ok {
		return r
	}
	top := m.nodes[f].level
	if l := m.nodes[g].level; l < top {
		top = l
	}
	if l := m.nodes[h].level; l < top {
		top = l
	}
	f0, f1 := m.cofactors(f, top)
	g0, g1 := m.cofactors(g, top)
	h0, h1 := m.cofactors(h, top)
	r := m.mk(top, m.ite(f0, g0, h0), m.ite(f1, g1, h1))
	m.store(opIte, f, g, h, r)
	return r
}

func (m *Manager) cofactors(f Node, level int32) (Node, Node) {
	n := m.nodes[f]
	if n.level != level {
		return f, f
	}
	return n.low, n.hi
}

// Exists returns ∃vars. f, where vars is a Cube.
func (m *Manager) Exists(f, vars Node) Node {
	if m.err != nil {
		return False
	}
	defer m.guard()
	return m.exists(f, vars)
}

func (m *Manager) exists(f, cube Node) Node {
	if f <= True {
		return f
	}
	lf := m.nodes[f].level
	for cube > True && m.nodes[cube].level < lf {
		cube = m.nodes[cube].hi
	}
	if cube <= True {
		return f
	}
	if r, ok := m.lookup(opExists, f, cube, 0); ok {
		return r
	}
	n := m.nodes[f]
	var r Node
	if m.nodes[cube].level == lf {
		rest := m.nodes[cube].hi
		r = m.exists(n.low, rest)
		if r != True {
			r = m.apply(opOr, r, m.exists(n.hi, rest))
		}
	} else {
		r = m.mk(lf, m.exists(n.low, cube), m.exists(n.hi, cube))
	}
	m.store(opExists, f, cube, 0, r)
	return r
}

// AndExists returns ∃vars. f ∧ g (the relational product), where vars is
// a Cube, without building f ∧ g.
func (m *Manager) AndExists(f, g, vars Node) Node {
	if m.err != nil {
		return False
	}
	defer m.guard()
	return m.andExists(f, g, vars)
}

func (m *Manager) andExists(f, g, cube Node) Node {
	switch {
	case f == False || g == False:
		return False
	case f == True && g == True:
		return True
	case f == True:
		return m.exists(g, cube)
	case g == True || f == g:
		return m.exists(f, cube)
	}
	if f > g {
		f, g = g, f
	}
	nf, ng := m.nodes[f], m.nodes[g]
	top := nf.level
	if ng.level < top {
		top = ng.level
	}
	for cube > True && m.nodes[cube].level < top {
		cube = m.nodes[cube].hi
	}
	if cube <= True {
		return m.apply(opAnd, f, g)
	}
	if r, ok := m.lookup(opAndExists, f, g, cube); ok {
		return r
	}
	f0, f1 := m.cofactors(f, top)
	g0, g1 := m.cofactors(g, top)
	var r Node
	if m.nodes[cube].level == top {
		rest := m.nodes[cube].hi
		r = m.andExists(f0, g0, rest)
		if r != True {
			r = m.apply(opOr, r, m.andExists(f1, g1, rest))
		}
	} else {
		r = m.mk(top, m.andExists(f0, g0, cube), m.andExists(f1, g1, cube))
	}
	m.store(opAndExists, f, g, cube, r)
	return r
}

// Renaming maps variables to variables, for Replace. Build it with
// NewRenaming; it belongs to the Manager that built it.
type Renaming struct {
	to   []int32
	memo map[Node]Node // valid forever: nodes are never freed
}

// NewRenaming returns the renaming that maps from[i] to to[i] and every
// other variable to itself. Several variables may map to the same one.
func (m *Manager) NewRenaming(from, to []int) (*Renaming, error) {
	if len(from) != len(to) {
		return nil, fmt.Errorf("bdd: renaming of %d variables to %d", len(from), len(to))
	}
	r := &Renaming{to: make([]int32, m.nvars), memo: map[Node]Node{}}
	for v := range r.to {
		r.to[v] = int32(v)
	}
	for i, v := range from {
		if v < 0 || v >= m.nvars || to[i] < 0 || to[i] >= m.nvars {
			return nil, fmt.Errorf("bdd: renaming of variable %d to %d: out of range", v, to[i])
		}
		r.to[v] = int32(to[i])
	}
	return r, nil
}

// Replace returns f with every variable v replaced by r's image of v, all
// at once (f[v := r(v)]).
func (m *Manager) Replace(f Node, r *Renaming) Node {
	if m.err != nil {
		return False
	}
	defer m.guard()
	return m.replace(f, r)
}

func (m *Manager) replace(f Node, r *Renaming) Node {
	if f <= True {
		return f
	}
	if res, ok := r.memo[f]; ok {
		return res
	}
	n := m.nodes[f]
	lo, hi := m.replace(n.low, r), m.replace(n.hi, r)
	v := r.to[n.level]
	var res Node
	if v < m.nodes[lo].level && v < m.nodes[hi].level {
		res = m.mk(v, lo, hi)
	} else {
		res = m.ite(m.mk(v, False, True), hi, lo)
	}
	r.memo[f] = res
	return res
}

// AnySat returns one assignment that satisfies f, one entry per variable:
// 0 false, 1 true, -1 either (the variable does not matter on the path
// chosen). It prefers false. It returns nil when f is False.
func (m *Manager) AnySat(f Node) []int8 {
	if f == False || m.err != nil {
		return nil
	}
	a := make([]int8, m.nvars)
	for i := range a {
		a[i] = -1
	}
	for f > True {
		n := m.nodes[f]
		if n.low != False {
			a[n.level] = 0
			f = n.low
		} else {
			a[n.level] = 1
			f = n.hi
		}
	}
	return a
}

// Eval returns f's value under the assignment vals (one per variable;
// missing ones are false).
func (m *Manager) Eval(f Node, vals []bool) bool {
	for f > True {
		n := m.nodes[f]
		if int(n.level) < len(vals) && vals[n.level] {
			f = n.hi
		} else {
			f = n.low
		}
	}
	return f == True
}

// Support returns the variables f depends on, in increasing order.
func (m *Manager) Support(f Node) []int {
	seen := make([]bool, m.nvars)
	m.walk(f, func(n node) { seen[n.level] = true })
	var vs []int
	for v, s := range seen {
		if s {
			vs = append(vs, v)
		}
	}
	return vs
}

// Size returns the number of nodes of f, terminals included.
func (m *Manager) Size(f Node) int {
	k := 0
	m.walk(f, func(node) { k++ })
	if f > True {
		k += 2 // walk visits inner nodes only; count both terminals
	} else {
		k = 1
	}
	return k
}

func (m *Manager) walk(f Node, visit func(node)) {
	seen := map[Node]bool{}
	stack := []Node{f}
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if g <= True || seen[g] {
			continue
		}
		seen[g] = true
		n := m.nodes[g]
		visit(n)
		stack = append(stack, n.low, n.hi)
	}
}

// SatCount returns the number of assignments of all NumVars variables
// that satisfy f (as a float64: exact below 2^53).
func (m *Manager) SatCount(f Node) float64 {
	memo := map[Node]float64{}
	var count func(Node) float64 // assignments of the variables at levels >= level(g)
	count = func(g Node) float64 {
		if g <= True {
			return float64(g)
		}
		if c, ok := memo[g]; ok {
			return c
		}
		n := m.nodes[g]
		c := count(n.low)*pow2(int(m.nodes[n.low].level-n.level-1)) + count(n.hi)*pow2(int(m.nodes[n.hi].level-n.level-1))
		memo[g] = c
		return c
	}
	return count(f) * pow2(int(m.nodes[f].level))
}

func pow2(k int) float64 {
	r := 1.0
	for ; k > 0; k-- {
		r *= 2
	}
	return r
}
