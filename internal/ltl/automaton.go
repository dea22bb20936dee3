package ltl

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/bits"
	"sort"
)

// Automaton is a transition-based generalized Büchi automaton over letters
// that are sets of propositions (bit i of a letter: proposition i is true).
//
// A run starts in Init; in state q, reading letter l, it may take any edge
// of q enabled by l (l contains every proposition of Pos and none of Neg).
// A run is accepting when it is infinite and takes edges of every
// acceptance set 0..NumAcc-1 infinitely often (with NumAcc == 0, every
// infinite run is accepting). The automaton accepts a word when some run
// on it is accepting.
//
// When StateBased is set the automaton is an ordinary Büchi automaton: all
// edges leaving a state carry the same marks, NumAcc is 1, and the states
// whose edges carry mark 0 are its accepting states.
type Automaton struct {
	Props      []string // names of the propositions, for printing
	States     []State
	Init       int
	NumAcc     int
	StateBased bool
}

// State is a state of an automaton: its outgoing edges.
type State struct {
	Edges []Edge
}

// Edge is a transition. Its label is the cube Pos ∧ ¬Neg.
type Edge struct {
	To       int
	Pos, Neg uint64 // propositions that must be true, false
	Acc      uint64 // the acceptance sets the edge belongs to
}

// Enabled reports whether letter l satisfies the edge's label.
func (e Edge) Enabled(l uint64) bool { return l&e.Pos == e.Pos && l&e.Neg == 0 }

// AllAcc is the set of all acceptance sets.
func (a *Automaton) AllAcc() uint64 { return allBits(a.NumAcc) }

func allBits(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

// Accepting reports whether state q of a state-based automaton is
// accepting.
func (a *Automaton) Accepting(q int) bool {
	es := a.States[q].Edges
	return a.StateBased && len(es) > 0 && es[0].Acc&1 != 0
}

// NumEdges counts the edges.
func (a *Automaton) NumEdges() int {
	n := 0
	for _, s := range a.States {
		n += len(s.Edges)
	}
	return n
}

// Empty reports whether the automaton accepts no word at all.
func (a *Automaton) Empty() bool {
	for _, s := range a.States {
		if len(s.Edges) > 0 {
			return false
		}
	}
	return true
}

// Accepts reports whether the automaton accepts the infinite word
// prefix·cycle·cycle·… (cycle must not be empty). It searches the product
// of the automaton with the word's positions for a reachable strongly
// connected component whose internal edges carry every acceptance set.
func (a *Automaton) Accepts(prefix, cycle []uint64) bool {
	if len(cycle) == 0 {
		panic("ltl: Accepts with an empty cycle")
	}
	letters := append(append([]uint64(nil), prefix...), cycle...)
	n := len(letters)
	succ := func(i int) int {
		if i+1 < n {
			return i + 1
		}
		return len(prefix)
	}
	type pedge struct {
		to  int
		acc uint64
	}
	// product node (q, i) is q*n + i
	adj := make([][]pedge, len(a.States)*n)
	for q, s := range a.States {
		for i, l := range letters {
			for _, e := range s.Edges {
				if e.Enabled(l) {
					adj[q*n+i] = append(adj[q*n+i], pedge{e.To*n + succ(i), e.Acc})
				}
			}
		}
	}
	comp := sccs(len(adj), func(v int, visit func(int)) {
		for _, e := range adj[v] {
			visit(e.to)
		}
	}, a.Init*n)
	marks := map[int]uint64{}
	internal := map[int]bool{}
	for v, es := range adj {
		if comp[v] < 0 {
			continue
		}
		for _, e := range es {
			if comp[e.to] == comp[v] {
				internal[comp[v]] = true
				marks[comp[v]] |= e.acc
			}
		}
	}
	for c := range internal {
		if marks[c]&a.AllAcc() == a.AllAcc() {
			return true
		}
	}
	return false
}

// sccs numbers the strongly connected components of the graph reachable
// from root (Tarjan's algorithm, iterative): comp[v] is v's component, or
// -1 for a vertex not reachable. Components are numbered in the order they
// are completed, so successor components come first.
func sccs(n int, succ func(v int, visit func(int)), root int) []int {
	comp := make([]int, n)
	index := make([]int, n)
	low := make([]int, n)
	for i := range comp {
		comp[i] = -1
		index[i] = -1
	}
	var stack []int
	onStack := make([]bool, n)
	type frame struct {
		v    int
		succ []int
		next int
	}
	counter, ncomp := 0, 0
	var call []frame
	push := func(v int) {
		index[v], low[v] = counter, counter
		counter++
		stack = append(stack, v)
		onStack[v] = true
		var ss []int
		succ(v, func(w int) { ss = append(ss, w) })
		call = append(call, frame{v: v, succ: ss})
	}
	push(root)
	for len(call) > 0 {
		f := &call[len(call)-1]
		if f.next < len(f.succ) {
			w := f.succ[f.next]
			f.next++
			if index[w] < 0 {
				push(w)
			} else if onStack[w] {
				low[f.v] = min(low[f.v], index[w])
			}
			continue
		}
		v := f.v
		call = call[:len(call)-1]
		if len(call) > 0 {
			p := call[len(call)-1].v
			low[p] = min(low[p], low[v])
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = ncomp
				if w == v {
					break
				}
			}
			ncomp++
		}
	}
	return comp
}

// Simplify reduces the automaton in place, keeping its language: it removes
// states that are unreachable or from which no accepting cycle is
// reachable, edges subsumed by others (same target, weaker labels, together
// at least the same marks) and merges edges whose labels differ in one literal, drops
// acceptance sets implied by others, and merges bisimilar states. For a state-based automaton the
// acceptance marks are left alone, so that it stays state-based.
func (a *Automaton) Simplify() { _ = a.simplify(context.Background()) }

// simplify is Simplify under a context, polled between its passes.
func (a *Automaton) simplify(ctx context.Context) error {
	for i := 0; i < 10; i++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("LTL translation stopped: %w", err)
		}
		before := a.size()
		a.trim()
		a.mergeEdges()
		if !a.StateBased {
			a.simplifyAcc()
		}
		a.bisim()
		if a.size() == before {
			return nil
		}
	}
	return nil
}

func (a *Automaton) size() [3]int { return [3]int{len(a.States), a.NumEdges(), a.NumAcc} }

// components returns the SCCs of the states reachable from Init and, per
// component, whether an edge stays inside it and the marks of such edges.
func (a *Automaton) components() (comp []int, cyclic []bool, marks []uint64) {
	comp = sccs(len(a.States), func(v int, visit func(int)) {
		for _, e := range a.States[v].Edges {
			visit(e.To)
		}
	}, a.Init)
	n := 0
	for _, c := range comp {
		n = max(n, c+1)
	}
	cyclic = make([]bool, n)
	marks = make([]uint64, n)
	for q, s := range a.States {
		if comp[q] < 0 {
			continue
		}
		for _, e := range s.Edges {
			if comp[e.To] == comp[q] {
				cyclic[comp[q]] = true
				marks[comp[q]] |= e.Acc
			}
		}
	}
	return comp, cyclic, marks
}

// trim removes states that are unreachable or cannot reach an accepting
// cycle.
func (a *Automaton) trim() {
	comp, cyclic, marks := a.components()
	all := a.AllAcc()
	// components are completed successors first, so one pass in
	// increasing component order decides "can reach an accepting one"
	n := len(cyclic)
	good := make([]bool, n)
	members := make([][]int, n)
	for q, c := range comp {
		if c >= 0 {
			members[c] = append(members[c], q)
		}
	}
	for c := 0; c < n; c++ {
		if cyclic[c] && marks[c]&all == all {
			good[c] = true
			continue
		}
		for _, q := range members[c] {
			for _, e := range a.States[q].Edges {
				if comp[e.To] != c && good[comp[e.To]] {
					good[c] = true
				}
			}
		}
	}
	keep := make([]bool, len(a.States))
	for q, c := range comp {
		keep[q] = c >= 0 && good[c]
	}
	if comp[a.Init] < 0 || !good[comp[a.Init]] {
		a.States[a.Init].Edges = nil // the language is empty
	}
	keep[a.Init] = true
	a.restrict(keep)
}

// restrict keeps the states marked in keep (and the edges between them),
// renumbering them in order.
func (a *Automaton) restrict(keep []bool) {
	num := make([]int, len(a.States))
	var states []State
	for q := range a.States {
		if keep[q] {
			num[q] = len(states)
			states = append(states, a.States[q])
		} else {
			num[q] = -1
		}
	}
	for i := range states {
		var es []Edge
		for _, e := range states[i].Edges {
			if num[e.To] >= 0 {
				e.To = num[e.To]
				es = append(es, e)
			}
		}
		states[i].Edges = es
	}
	a.Init = num[a.Init]
	a.States = states
}

// mergeEdges removes subsumed edges and merges pairs of edges with the
// same target and marks whose labels differ in the polarity of exactly one
// proposition. Only edges with the same target are compared, so the cost
// is quadratic in the edges between two states, not in a state's edges.
func (a *Automaton) mergeEdges() {
	for q := range a.States {
		es := a.States[q].Edges
		sortEdges(es)
		var out []Edge
		for lo := 0; lo < len(es); {
			hi := lo + 1
			for hi < len(es) && es[hi].To == es[lo].To {
				hi++
			}
			out = append(out, mergeParallel(es[lo:hi:hi])...)
			lo = hi
		}
		a.States[q].Edges = out
	}
}

// mergeParallel applies mergeEdges's rules to edges with one target. An
// edge is subsumed when other edges with weaker labels together carry all
// its marks: a run that takes it infinitely often can take those in turn
// instead and still sees each of its marks infinitely often.
func mergeParallel(es []Edge) []Edge {
	for changed := true; changed; {
		changed = false
		for j := 0; j < len(es); j++ {
			y := es[j]
			var marks uint64
			weaker := false
			for i, x := range es {
				if i != j && x.Pos&y.Pos == x.Pos && x.Neg&y.Neg == x.Neg {
					marks |= x.Acc
					weaker = true
				}
			}
			if weaker && marks&y.Acc == y.Acc {
				es = append(es[:j], es[j+1:]...)
				j--
				changed = true
			}
		}
		for i := 0; i < len(es); i++ {
			for j := i + 1; j < len(es); j++ {
				x, y := es[i], es[j]
				if x.Acc == y.Acc {
					d := (x.Pos ^ y.Pos) | (x.Neg ^ y.Neg)
					if bits.OnesCount64(d) == 1 && x.Pos&^d == y.Pos&^d && x.Neg&^d == y.Neg&^d && (x.Pos^y.Pos) == (x.Neg^y.Neg) {
						es[i] = Edge{To: x.To, Pos: x.Pos &^ d, Neg: x.Neg &^ d, Acc: x.Acc}
						es = append(es[:j], es[j+1:]...)
						j = i // compare the merged edge with all others again
						changed = true
					}
				}
			}
		}
	}
	sortEdges(es)
	return es
}

func sortEdges(es []Edge) {
	sort.Slice(es, func(i, j int) bool {
		x, y := es[i], es[j]
		if x.To != y.To {
			return x.To < y.To
		}
		if x.Pos != y.Pos {
			return x.Pos < y.Pos
		}
		if x.Neg != y.Neg {
			return x.Neg < y.Neg
		}
		return x.Acc < y.Acc
	})
}

// simplifyAcc drops acceptance sets that every cycle satisfies or that
// another set implies. Marks on edges between components do not matter
// either, but they are left as they are: they are mostly equal to those of
// the edges around them, which lets bisim merge more states.
func (a *Automaton) simplifyAcc() {
	comp, _, _ := a.components()
	// sets[i] = the internal edges in set i, as (state, edge index) pairs;
	// compare sets by membership over all internal edges
	type ek struct{ q, i int }
	var internal []ek
	for q, s := range a.States {
		for i, e := range s.Edges {
			if comp[q] >= 0 && comp[e.To] == comp[q] {
				internal = append(internal, ek{q, i})
			}
		}
	}
	has := func(k ek, set int) bool { return a.States[k.q].Edges[k.i].Acc&(1<<uint(set)) != 0 }
	drop := uint64(0)
	for s := 0; s < a.NumAcc; s++ {
		onAll := true
		for _, k := range internal {
			if !has(k, s) {
				onAll = false
				break
			}
		}
		if onAll {
			drop |= 1 << uint(s)
			continue
		}
		// s is implied by another kept set t ⊆ s
		for t := 0; t < a.NumAcc; t++ {
			if t == s || drop&(1<<uint(t)) != 0 {
				continue
			}
			subset := true
			for _, k := range internal {
				if has(k, t) && !has(k, s) {
					subset = false
					break
				}
			}
			if subset {
				drop |= 1 << uint(s)
				break
			}
		}
	}
	if drop == 0 {
		return
	}
	// renumber the remaining sets
	var keep []int
	for s := 0; s < a.NumAcc; s++ {
		if drop&(1<<uint(s)) == 0 {
			keep = append(keep, s)
		}
	}
	for q := range a.States {
		for i := range a.States[q].Edges {
			e := &a.States[q].Edges[i]
			var acc uint64
			for n, s := range keep {
				if e.Acc&(1<<uint(s)) != 0 {
					acc |= 1 << uint(n)
				}
			}
			e.Acc = acc
		}
	}
	a.NumAcc = len(keep)
}

// bisim merges bisimilar states: states whose edges have the same labels
// and marks and lead to equivalent states (coarsest partition refinement).
func (a *Automaton) bisim() {
	n := len(a.States)
	class := make([]int, n)
	nclass := 1
	for {
		sigs := map[string]int{}
		next := make([]int, n)
		var b []byte
		for q, s := range a.States {
			b = binary.AppendUvarint(b[:0], uint64(class[q]))
			es := make([]Edge, len(s.Edges))
			for i, e := range s.Edges {
				e.To = class[e.To]
				es[i] = e
			}
			sortEdges(es)
			for i, e := range es {
				if i > 0 && e == es[i-1] {
					continue
				}
				b = binary.AppendUvarint(b, uint64(e.To))
				b = binary.AppendUvarint(b, e.Pos)
				b = binary.AppendUvarint(b, e.Neg)
				b = binary.AppendUvarint(b, e.Acc)
			}
			id, ok := sigs[string(b)]
			if !ok {
				id = len(sigs)
				sigs[string(b)] = id
			}
			next[q] = id
		}
		class = next
		if len(sigs) == nclass {
			break
		}
		nclass = len(sigs)
	}
	if nclass == n {
		return
	}
	// keep the first state of each class, in order
	rep := make([]int, nclass)
	for i := range rep {
		rep[i] = -1
	}
	order := make([]int, nclass) // class -> new number, by first member
	num := 0
	for q := 0; q < n; q++ {
		if rep[class[q]] < 0 {
			rep[class[q]] = q
			order[class[q]] = num
			num++
		}
	}
	states := make([]State, nclass)
	for c := 0; c < nclass; c++ {
		var es []Edge
		for _, e := range a.States[rep[c]].Edges {
			e.To = order[class[e.To]]
			es = append(es, e)
		}
		sortEdges(es)
		var uniq []Edge
		for i, e := range es {
			if i == 0 || e != es[i-1] {
				uniq = append(uniq, e)
			}
		}
		states[order[c]] = State{Edges: uniq}
	}
	a.Init = order[class[a.Init]]
	a.States = states
}

// Degeneralize returns an equivalent state-based Büchi automaton: a state
// (q, i) waits for acceptance set i after visiting q's component; an edge
// that carries sets i, i+1, … advances the counter, and the states entered
// when the counter completes are accepting. An automaton without
// acceptance sets becomes one whose states are all accepting.
func Degeneralize(a *Automaton) *Automaton {
	n := a.NumAcc
	b := &Automaton{Props: a.Props, NumAcc: 1, StateBased: true}
	if n == 0 {
		b.States = make([]State, len(a.States))
		for q, s := range a.States {
			for _, e := range s.Edges {
				e.Acc = 1
				b.States[q].Edges = append(b.States[q].Edges, e)
			}
		}
		b.Init = a.Init
		return b
	}
	// state (q, j), j in 0..n: j == n means "all sets seen": accepting
	type key struct{ q, j int }
	id := map[key]int{}
	var work []key
	get := func(k key) int {
		if v, ok := id[k]; ok {
			return v
		}
		id[k] = len(b.States)
		b.States = append(b.States, State{})
		work = append(work, k)
		return id[k]
	}
	b.Init = get(key{a.Init, 0})
	for len(work) > 0 {
		k := work[0]
		work = work[1:]
		from := id[k]
		level := k.j
		var acc uint64
		if level == n {
			level, acc = 0, 1
		}
		for _, e := range a.States[k.q].Edges {
			j := level
			for j < n && e.Acc&(1<<uint(j)) != 0 {
				j++
			}
			to := get(key{e.To, j})
			b.States[from].Edges = append(b.States[from].Edges, Edge{To: to, Pos: e.Pos, Neg: e.Neg, Acc: acc})
		}
	}
	return b
}
