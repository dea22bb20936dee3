package ltl

// Holds reports whether the infinite word prefix·cycle·cycle·… satisfies f.
// Each letter is the set of propositions true at that position (bit i for
// proposition i). cycle must not be empty.
//
// It evaluates f directly by its semantics, independently of any automaton:
// the word has len(prefix)+len(cycle) distinct positions (a suffix of the
// word is determined by its first position), and each subformula's set of
// positions is computed bottom up, U and <> as least and R, W and [] as
// greatest fixpoints of their one-step unfoldings. Tests use it to check
// the automata.
func Holds(f *Formula, prefix, cycle []uint64) bool {
	if len(cycle) == 0 {
		panic("ltl: Holds with an empty cycle")
	}
	w := lassoWord{letters: append(append([]uint64(nil), prefix...), cycle...), loop: len(prefix)}
	return w.sat(f)[0]
}

type lassoWord struct {
	letters []uint64
	loop    int // the position the last one continues to
}

func (w *lassoWord) succ(i int) int {
	if i+1 < len(w.letters) {
		return i + 1
	}
	return w.loop
}

func (w *lassoWord) sat(f *Formula) []bool {
	n := len(w.letters)
	out := make([]bool, n)
	switch f.Op {
	case True:
		for i := range out {
			out[i] = true
		}
	case False:
	case Atom:
		for i, l := range w.letters {
			out[i] = l&(1<<uint(f.Atom)) != 0
		}
	case Not:
		a := w.sat(f.L)
		for i := range out {
			out[i] = !a[i]
		}
	case And, Or, Implies, Iff:
		a, b := w.sat(f.L), w.sat(f.R)
		for i := range out {
			switch f.Op {
			case And:
				out[i] = a[i] && b[i]
			case Or:
				out[i] = a[i] || b[i]
			case Implies:
				out[i] = !a[i] || b[i]
			case Iff:
				out[i] = a[i] == b[i]
			}
		}
	case Next:
		a := w.sat(f.L)
		for i := range out {
			out[i] = a[w.succ(i)]
		}
	case Eventually: // least: a || X this
		return w.fix(w.sat(f.L), nil, false)
	case Always: // greatest: a && X this
		return w.fix(nil, w.sat(f.L), true)
	case Until: // least: b || (a && X this)
		return w.fixUntil(w.sat(f.L), w.sat(f.R))
	case WeakUntil: // greatest: b || (a && X this)
		return w.fixWeak(w.sat(f.L), w.sat(f.R))
	case Release: // greatest: b && (a || X this)
		a, b := w.sat(f.L), w.sat(f.R)
		// a R b = !(!a U !b)
		na, nb := make([]bool, n), make([]bool, n)
		for i := range na {
			na[i], nb[i] = !a[i], !b[i]
		}
		u := w.fixUntil(na, nb)
		for i := range out {
			out[i] = !u[i]
		}
	}
	return out
}

// fix computes <> a (always false) or [] g (always true).
func (w *lassoWord) fix(a, g []bool, always bool) []bool {
	n := len(w.letters)
	all := make([]bool, n)
	for i := range all {
		all[i] = true
	}
	if !always {
		return w.fixUntil(all, a)
	}
	// [] g = !<> !g
	ng := make([]bool, n)
	for i := range ng {
		ng[i] = !g[i]
	}
	e := w.fixUntil(all, ng)
	for i := range e {
		e[i] = !e[i]
	}
	return e
}

// fixUntil computes a U b as the least fixpoint of b || (a && X this).
func (w *lassoWord) fixUntil(a, b []bool) []bool {
	n := len(w.letters)
	out := append([]bool(nil), b...)
	for changed := true; changed; {
		changed = false
		for i := 0; i < n; i++ {
			if !out[i] && a[i] && out[w.succ(i)] {
				out[i] = true
				changed = true
			}
		}
	}
	return out
}

// fixWeak computes a W b as the greatest fixpoint of b || (a && X this).
func (w *lassoWord) fixWeak(a, b []bool) []bool {
	n := len(w.letters)
	out := make([]bool, n)
	for i := range out {
		out[i] = a[i] || b[i]
	}
	for changed := true; changed; {
		changed = false
		for i := 0; i < n; i++ {
			if out[i] && !b[i] && !out[w.succ(i)] {
				out[i] = false
				changed = true
			}
		}
	}
	return out
}
