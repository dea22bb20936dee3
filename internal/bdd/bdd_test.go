package bdd

import (
	"errors"
	"math/rand"
	"slices"
	"testing"
)

// formula is a random boolean formula, evaluated directly to give the
// truth table every BDD operation is checked against.
type formula struct {
	op   byte // 'v' variable, 'c' constant, '!' not, '&', '|', '^', '=', '>', '?' ite
	v    int
	c    bool
	args []*formula
}

func randFormula(r *rand.Rand, nvars, depth int) *formula {
	if depth == 0 || r.Intn(5) == 0 {
		if r.Intn(10) == 0 {
			return &formula{op: 'c', c: r.Intn(2) == 0}
		}
		return &formula{op: 'v', v: r.Intn(nvars)}
	}
	ops := "!&|^=>?"
	op := ops[r.Intn(len(ops))]
	n := 2
	switch op {
	case '!':
		n = 1
	case '?':
		n = 3
	}
	f := &formula{op: op}
	for i := 0; i < n; i++ {
		f.args = append(f.args, randFormula(r, nvars, depth-1))
	}
	return f
}

func (f *formula) eval(vals []bool) bool {
	switch f.op {
	case 'v':
		return vals[f.v]
	case 'c':
		return f.c
	case '!':
		return !f.args[0].eval(vals)
	case '&':
		return f.args[0].eval(vals) && f.args[1].eval(vals)
	case '|':
		return f.args[0].eval(vals) || f.args[1].eval(vals)
	case '^':
		return f.args[0].eval(vals) != f.args[1].eval(vals)
	case '=':
		return f.args[0].eval(vals) == f.args[1].eval(vals)
	case '>':
		return !f.args[0].eval(vals) || f.args[1].eval(vals)
	default:
		if f.args[0].eval(vals) {
			return f.args[1].eval(vals)
		}
		return f.args[2].eval(vals)
	}
}

func (f *formula) build(m *Manager) Node {
	switch f.op {
	case 'v':
		return m.Var(f.v)
	case 'c':
		return Const(f.c)
	}
	a := make([]Node, len(f.args))
	for i, g := range f.args {
		a[i] = g.build(m)
	}
	switch f.op {
	case '!':
		return m.Not(a[0])
	case '&':
		return m.And(a[0], a[1])
	case '|':
		return m.Or(a[0], a[1])
	case '^':
		return m.Xor(a[0], a[1])
	case '=':
		return m.Equiv(a[0], a[1])
	case '>':
		return m.Imp(a[0], a[1])
	default:
		return m.Ite(a[0], a[1], a[2])
	}
}

// assignments calls fn with every assignment of n variables.
func assignments(n int, fn func([]bool)) {
	vals := make([]bool, n)
	for k := 0; k < 1<<n; k++ {
		for i := range vals {
			vals[i] = k>>i&1 == 1
		}
		fn(vals)
	}
}

// fromTable builds the BDD of a truth table with the minterms, the slow
// and obvious way, to check canonicity against.
func fromTable(m *Manager, n int, truth func([]bool) bool) Node {
	r := False
	assignments(n, func(vals []bool) {
		if !truth(vals) {
			return
		}
		c := True
		for i, b := range vals {
			if b {
				c = m.And(c, m.Var(i))
			} else {
				c = m.And(c, m.NVar(i))
			}
		}
		r = m.Or(r, c)
	})
	return r
}

func TestRandomFormulasTruthTables(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for iter := 0; iter < 300; iter++ {
		n := 1 + r.Intn(8)
		m := New(n, Config{CacheSize: 64}) // a small cache: collisions exercised
		f := randFormula(r, n, 5)
		g := randFormula(r, n, 5)
		bf, bg := f.build(m), g.build(m)
		assignments(n, func(vals []bool) {
			if m.Eval(bf, vals) != f.eval(vals) {
				t.Fatalf("iter %d: f %v: bdd %v, formula %v", iter, vals, m.Eval(bf, vals), f.eval(vals))
			}
		})
		// Canonicity: the same function is the same node.
		if fromTable(m, n, f.eval) != bf {
			t.Fatalf("iter %d: f's BDD is not the minterm BDD", iter)
		}
		if m.Not(m.Not(bf)) != bf {
			t.Fatalf("iter %d: ¬¬f ≠ f", iter)
		}
		if m.Not(m.And(bf, bg)) != m.Or(m.Not(bf), m.Not(bg)) {
			t.Fatalf("iter %d: De Morgan fails", iter)
		}
		// SatCount and AnySat.
		want := 0
		assignments(n, func(vals []bool) {
			if f.eval(vals) {
				want++
			}
		})
		if got := m.SatCount(bf); got != float64(want) {
			t.Fatalf("iter %d: SatCount %v, want %d", iter, got, want)
		}
		a := m.AnySat(bf)
		if (a == nil) != (want == 0) {
			t.Fatalf("iter %d: AnySat %v with %d models", iter, a, want)
		}
		if a != nil {
			vals := make([]bool, n)
			for i, x := range a {
				vals[i] = x == 1
			}
			if !f.eval(vals) {
				t.Fatalf("iter %d: AnySat %v does not satisfy f", iter, a)
			}
		}
		// Support: exactly the variables whose flip changes f.
		dep := make([]bool, n)
		assignments(n, func(vals []bool) {
			for i := range vals {
				w := append([]bool(nil), vals...)
				w[i] = !w[i]
				if f.eval(vals) != f.eval(w) {
					dep[i] = true
				}
			}
		})
		var wantSup []int
		for i, d := range dep {
			if d {
				wantSup = append(wantSup, i)
			}
		}
		if got := m.Support(bf); !slices.Equal(got, wantSup) {
			t.Fatalf("iter %d: Support %v, want %v", iter, got, wantSup)
		}
		if m.Err() != nil {
			t.Fatal(m.Err())
		}
	}
}

func TestExistsAndExists(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for iter := 0; iter < 300; iter++ {
		n := 1 + r.Intn(8)
		m := New(n, Config{CacheSize: 64})
		f, g := randFormula(r, n, 5), randFormula(r, n, 5)
		bf, bg := f.build(m), g.build(m)
		var vs []int
		quant := make([]bool, n)
		for i := 0; i < n; i++ {
			if r.Intn(2) == 0 {
				vs = append(vs, i)
				quant[i] = true
			}
		}
		cube := m.Cube(vs...)
		// exists: some assignment of the quantified variables satisfies.
		ex := func(p func([]bool) bool) func([]bool) bool {
			return func(vals []bool) bool {
				w := append([]bool(nil), vals...)
				found := false
				assignments(len(vs), func(qv []bool) {
					for j, v := range vs {
						w[v] = qv[j]
					}
					if p(w) {
						found = true
					}
				})
				return found
			}
		}
		wantEx := fromTable(m, n, ex(f.eval))
		if got := m.Exists(bf, cube); got != wantEx {
			t.Fatalf("iter %d: Exists differs from its truth table", iter)
		}
		wantRel := fromTable(m, n, ex(func(v []bool) bool { return f.eval(v) && g.eval(v) }))
		if got := m.AndExists(bf, bg, cube); got != wantRel {
			t.Fatalf("iter %d: AndExists differs from its truth table", iter)
		}
		for _, s := range m.Support(wantEx) {
			if quant[s] {
				t.Fatalf("iter %d: ∃ keeps quantified variable %d", iter, s)
			}
		}
		if m.Err() != nil {
			t.Fatal(m.Err())
		}
	}
}

func TestReplace(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for iter := 0; iter < 300; iter++ {
		n := 1 + r.Intn(8)
		m := New(n, Config{CacheSize: 64})
		f := randFormula(r, n, 5)
		bf := f.build(m)
		// A random map of variables to variables: permutations, swaps
		// against the order, and many-to-one.
		img := make([]int, n)
		var from, to []int
		if r.Intn(2) == 0 {
			perm := r.Perm(n)
			copy(img, perm)
		} else {
			for i := range img {
				img[i] = r.Intn(n)
			}
		}
		for i, v := range img {
			from, to = append(from, i), append(to, v)
		}
		ren, err := m.NewRenaming(from, to)
		if err != nil {
			t.Fatal(err)
		}
		want := fromTable(m, n, func(vals []bool) bool {
			w := make([]bool, n)
			for i := range w {
				w[i] = vals[img[i]]
			}
			return f.eval(w)
		})
		if got := m.Replace(bf, ren); got != want {
			t.Fatalf("iter %d: Replace with %v differs from its truth table", iter, img)
		}
		if got := m.Replace(bf, ren); got != want { // memo reused
			t.Fatalf("iter %d: second Replace differs", iter)
		}
	}
	m := New(2, Config{})
	if _, err := m.NewRenaming([]int{0}, []int{2}); err == nil {
		t.Error("a renaming to variable 2 of 2 was accepted")
	}
	if _, err := m.NewRenaming([]int{0}, nil); err == nil {
		t.Error("a renaming of 1 variable to 0 was accepted")
	}
}

// TestNodeLimit: exceeding the node bound is an error, not a panic or an
// unbounded allocation, and every later result is False.
func TestNodeLimit(t *testing.T) {
	const n = 16
	m := New(2*n, Config{MaxNodes: 2000})
	// x_i ↔ y_i with the x's before the y's needs 2^n nodes.
	f := True
	for i := 0; i < n; i++ {
		f = m.And(f, m.Equiv(m.Var(i), m.Var(n+i)))
	}
	var le *LimitError
	if !errors.As(m.Err(), &le) || le.MaxNodes != 2000 {
		t.Fatalf("Err() = %v, want a *LimitError with bound 2000", m.Err())
	}
	if m.NodeCount() > 2000 {
		t.Errorf("%d nodes held, bound 2000", m.NodeCount())
	}
	if f != False || m.Or(True) != False || m.Var(0) != False {
		t.Error("a result after the error is not False")
	}
	// The interleaved order needs few nodes: the same function fits.
	m2 := New(2*n, Config{MaxNodes: 2000})
	g := True
	for i := 0; i < n; i++ {
		g = m2.And(g, m2.Equiv(m2.Var(2*i), m2.Var(2*i+1)))
	}
	if m2.Err() != nil || m2.SatCount(g) != float64(uint64(1)<<n) {
		t.Errorf("interleaved: err %v, %v models", m2.Err(), m2.SatCount(g))
	}
}

func TestManagersIndependent(t *testing.T) {
	// Two Managers in two goroutines (go test -race): no shared state.
	done := make(chan Node, 2)
	for k := 0; k < 2; k++ {
		go func() {
			m := New(8, Config{})
			ren, _ := m.NewRenaming([]int{0, 1}, []int{1, 0})
			f := m.And(m.Var(0), m.NVar(1))
			done <- m.Replace(f, ren)
		}()
	}
	a, b := <-done, <-done
	if a != b {
		t.Errorf("the same computation in two Managers gave nodes %d and %d", a, b)
	}
}

// TestAndAll: AndAll is And, and a conjunction of n equivalences over
// successive variables costs O(n) nodes, not O(n^2).
func TestAndAll(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for iter := 0; iter < 100; iter++ {
		n := 1 + r.Intn(8)
		m := New(n, Config{})
		var fs []Node
		for k := r.Intn(5); k >= 0; k-- {
			fs = append(fs, randFormula(r, n, 3).build(m))
		}
		if got, want := m.AndAll(fs), m.And(fs...); got != want {
			t.Fatalf("iter %d: AndAll differs from And", iter)
		}
	}
	const n = 2000
	m := New(2*n, Config{MaxNodes: 20 * n})
	var eqs []Node
	for i := 0; i < n; i++ {
		eqs = append(eqs, m.Equiv(m.Var(2*i), m.Var(2*i+1)))
	}
	f := m.AndAll(eqs)
	if m.Err() != nil || m.Size(f) != 3*n+2 {
		t.Errorf("AndAll of %d equivalences: %v, %d nodes", n, m.Err(), m.Size(f))
	}
}

func TestCube(t *testing.T) {
	m := New(4, Config{})
	want := m.And(m.Var(1), m.Var(3))
	if got := m.Cube(3, 1, 3, 9, -1); got != want {
		t.Errorf("Cube(3, 1, 3, 9, -1) is not x1 ∧ x3")
	}
	if m.Cube() != True {
		t.Errorf("the empty cube is not True")
	}
}
