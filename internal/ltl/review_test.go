package ltl

// An independent check of the translation: its own random formulas, its own
// evaluation of a formula on a lasso (by walking the word, not by the
// fixpoints of Holds), its own acceptance test (cycles found by
// reachability, not by Tarjan's components), the emptiness of the product
// of the automata of f and !f, and SPIN's never claims as a second
// translator.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// reviewFormula draws a formula over n propositions with about size
// operators, temporal operators twice as likely as boolean ones. With
// noNext it leaves out X (SPIN is built without it).
func reviewFormula(r *rand.Rand, n, size int, noNext bool) *Formula {
	if size <= 0 {
		if r.IntN(12) == 0 {
			if r.IntN(2) == 0 {
				return T()
			}
			return F()
		}
		return Prop(r.IntN(n))
	}
	unary := []Op{Not, Next, Always, Eventually, Always, Eventually}
	if noNext {
		unary = []Op{Not, Always, Eventually, Always, Eventually}
	}
	binary := []Op{And, Or, Implies, Iff, Until, Release, WeakUntil, Until, Release, WeakUntil}
	if r.IntN(3) == 0 {
		return Un(unary[r.IntN(len(unary))], reviewFormula(r, n, size-1, noNext))
	}
	k := r.IntN(size)
	return Bin(binary[r.IntN(len(binary))], reviewFormula(r, n, k, noNext), reviewFormula(r, n, size-1-k, noNext))
}

// reviewEval evaluates f at every position of the lasso prefix·cycle^ω by
// walking the word: from any position, len(prefix)+len(cycle) steps visit
// every position the suffix will ever reach.
func reviewEval(f *Formula, prefix, cycle []uint64) []bool {
	w := append(append([]uint64(nil), prefix...), cycle...)
	n := len(w)
	next := func(i int) int {
		if i+1 < n {
			return i + 1
		}
		return len(prefix)
	}
	var eval func(*Formula) []bool
	eval = func(f *Formula) []bool {
		out := make([]bool, n)
		var a, b []bool
		if f.L != nil {
			a = eval(f.L)
		}
		if f.R != nil {
			b = eval(f.R)
		}
		for i := range out {
			switch f.Op {
			case True:
				out[i] = true
			case False:
			case Atom:
				out[i] = w[i]>>uint(f.Atom)&1 == 1
			case Not:
				out[i] = !a[i]
			case And:
				out[i] = a[i] && b[i]
			case Or:
				out[i] = a[i] || b[i]
			case Implies:
				out[i] = !a[i] || b[i]
			case Iff:
				out[i] = a[i] == b[i]
			case Next:
				out[i] = a[next(i)]
			case Eventually, Always:
				want := f.Op == Eventually
				out[i] = !want
				for k, j := 0, i; k <= n; k, j = k+1, next(j) {
					if a[j] == want {
						out[i] = want
						break
					}
				}
			case Until, WeakUntil, Release:
				// a U b: b comes, a until then; a W b: or a forever;
				// a R b: b until and including a, or b forever
				out[i] = f.Op != Until
				for k, j := 0, i; k <= n; k, j = k+1, next(j) {
					if f.Op == Release {
						if !b[j] {
							out[i] = false
							break
						}
						if a[j] {
							out[i] = true
							break
						}
						continue
					}
					if b[j] {
						out[i] = true
						break
					}
					if !a[j] {
						out[i] = false
						break
					}
				}
			default:
				panic("unknown operator")
			}
		}
		return out
	}
	return eval(f)
}

// reviewAccepts decides whether the automaton accepts prefix·cycle^ω
// without Accepts: in the product of the automaton with the lasso's
// positions, some reachable node v lies on a cycle and, for each
// acceptance set, on a cycle through an edge of that set. A state-based
// automaton is read by its accepting states (as a never claim is): some
// reachable accepting node lies on a cycle.
func reviewAccepts(a *Automaton, prefix, cycle []uint64) bool {
	w := append(append([]uint64(nil), prefix...), cycle...)
	n := len(w)
	type pedge struct {
		to  int
		acc uint64
	}
	N := len(a.States) * n
	adj := make([][]pedge, N)
	for q, s := range a.States {
		for i := range w {
			j := i + 1
			if j == n {
				j = len(prefix)
			}
			for _, e := range s.Edges {
				if e.Enabled(w[i]) {
					adj[q*n+i] = append(adj[q*n+i], pedge{e.To*n + j, e.Acc})
				}
			}
		}
	}
	succ := adj2(adj, func(e pedge) (int, uint64) { return e.to, e.acc })
	if a.StateBased {
		return reviewLasso(N, succ, a.Init*n, 0, func(v int) bool { return a.Accepting(v / n) })
	}
	return reviewLasso(N, succ, a.Init*n, a.NumAcc, func(int) bool { return true })
}

func adj2[E any](adj [][]E, f func(E) (int, uint64)) func(v int, visit func(to int, acc uint64)) {
	return func(v int, visit func(int, uint64)) {
		for _, e := range adj[v] {
			to, acc := f(e)
			visit(to, acc)
		}
	}
}

// reviewLasso reports whether the graph of N nodes has, reachable from
// root, a node v with good(v) on a cycle that, for every set below nacc,
// can pass an edge of the set.
func reviewLasso(N int, succ func(v int, visit func(to int, acc uint64)), root, nacc int, good func(v int) bool) bool {
	reach := func(from int) []bool {
		seen := make([]bool, N)
		stack := []int{from}
		seen[from] = true
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			succ(v, func(to int, _ uint64) {
				if !seen[to] {
					seen[to] = true
					stack = append(stack, to)
				}
			})
		}
		return seen
	}
	fromRoot := reach(root)
	rs := make([][]bool, N) // rs[v][x]: x reachable from v in 0 or more steps
	for v := 0; v < N; v++ {
		if fromRoot[v] {
			rs[v] = reach(v)
		}
	}
	for v := 0; v < N; v++ {
		if !fromRoot[v] || !good(v) {
			continue
		}
		var marks uint64
		cyc := false
		for x := 0; x < N; x++ {
			if !rs[v][x] {
				continue
			}
			succ(x, func(y int, acc uint64) {
				if rs[y][v] {
					cyc = true
					marks |= acc
				}
			})
		}
		if cyc && marks&allBits(nacc) == allBits(nacc) {
			return true
		}
	}
	return false
}

// reviewProductEmpty reports whether no word is accepted by both
// automata (generalized, or state-based read through their edges' marks,
// which Degeneralize puts on the edges leaving accepting states).
func reviewProductEmpty(a, b *Automaton) (empty bool, ok bool) {
	if a.NumAcc+b.NumAcc > 64 {
		return false, false
	}
	type pair struct{ p, q int }
	id := map[pair]int{}
	var nodes []pair
	get := func(k pair) int {
		if v, ok := id[k]; ok {
			return v
		}
		id[k] = len(nodes)
		nodes = append(nodes, k)
		return id[k]
	}
	type pedge struct {
		to  int
		acc uint64
	}
	var adj [][]pedge
	get(pair{a.Init, b.Init})
	for i := 0; i < len(nodes); i++ {
		k := nodes[i]
		var es []pedge
		for _, x := range a.States[k.p].Edges {
			for _, y := range b.States[k.q].Edges {
				pos, neg := x.Pos|y.Pos, x.Neg|y.Neg
				if pos&neg != 0 {
					continue
				}
				es = append(es, pedge{get(pair{x.To, y.To}), x.Acc | y.Acc<<uint(a.NumAcc)})
			}
		}
		adj = append(adj, es)
	}
	found := reviewLasso(len(nodes), adj2(adj, func(e pedge) (int, uint64) { return e.to, e.acc }), 0, a.NumAcc+b.NumAcc,
		func(int) bool { return true })
	return !found, true
}

// reviewLassos lists every lasso over nprops propositions with
// len(prefix)+len(cycle) <= max.
func reviewLassos(nprops, max int) (pres, cycs [][]uint64) {
	letters := uint64(1) << uint(nprops)
	var words func(k int) [][]uint64
	words = func(k int) [][]uint64 {
		if k == 0 {
			return [][]uint64{nil}
		}
		var out [][]uint64
		for _, w := range words(k - 1) {
			for l := uint64(0); l < letters; l++ {
				out = append(out, append(append([]uint64(nil), w...), l))
			}
		}
		return out
	}
	for total := 1; total <= max; total++ {
		for c := 1; c <= total; c++ {
			for _, u := range words(total - c) {
				for _, v := range words(c) {
					pres = append(pres, u)
					cycs = append(cycs, v)
				}
			}
		}
	}
	return pres, cycs
}

type reviewAut struct {
	name string
	a    *Automaton
}

// reviewAutomata translates f into every form birch uses: raw,
// simplified, degeneralized (as a never claim reads it), degeneralized
// and simplified again.
func reviewAutomata(t *testing.T, f *Formula) []reviewAut {
	t.Helper()
	raw, err := TranslateRaw(f, nil)
	if err != nil {
		t.Fatalf("%v: %v", f, err)
	}
	simp, err := Translate(f, nil)
	if err != nil {
		t.Fatalf("%v: %v", f, err)
	}
	deg := Degeneralize(simp)
	degSimp := Degeneralize(simp)
	degSimp.Simplify()
	return []reviewAut{{"raw", raw}, {"simplified", simp}, {"degeneralized", deg}, {"degeneralized raw", Degeneralize(raw)}, {"degeneralized and simplified", degSimp}}
}

func reviewSweep(t *testing.T, seed uint64, formulas, maxSize, maxLasso int, propsFor func(r *rand.Rand) int) (nf, nl int) {
	r := rand.New(rand.NewPCG(seed, 99))
	lassos := map[int][2][][]uint64{}
	for i := 0; i < formulas; i++ {
		nprops := propsFor(r)
		f := reviewFormula(r, nprops, 1+r.IntN(maxSize), false)
		auts := reviewAutomata(t, f)
		neg := reviewAutomata(t, Un(Not, f))
		for k := range auts {
			if k == 3 {
				continue // the raw degeneralized product grows too large
			}
			empty, ok := reviewProductEmpty(auts[k].a, neg[k].a)
			if ok && !empty {
				t.Fatalf("%v: the %s automata of the formula and of its negation accept a common word\n%s\n%s",
					f, auts[k].name, auts[k].a.Format(""), neg[k].a.Format(""))
			}
		}
		ls, ok := lassos[nprops]
		if !ok {
			max := maxLasso
			if nprops > 2 {
				max = min(maxLasso, 3)
			}
			if nprops > 3 {
				max = 2
			}
			p, c := reviewLassos(nprops, max)
			ls = [2][][]uint64{p, c}
			lassos[nprops] = ls
		}
		pres, cycs := ls[0], ls[1]
		for j := range pres {
			want := reviewEval(f, pres[j], cycs[j])[0]
			if h := Holds(f, pres[j], cycs[j]); h != want {
				t.Fatalf("%v on %v %v^w: Holds says %v, the walk %v", f, pres[j], cycs[j], h, want)
			}
			for k, c := range auts {
				if got := reviewAccepts(c.a, pres[j], cycs[j]); got != want {
					t.Fatalf("%v: the %s automaton says %v on %v %v^w, the formula %v\n%s",
						f, c.name, got, pres[j], cycs[j], want, c.a.Format(""))
				}
				if got := reviewAccepts(neg[k].a, pres[j], cycs[j]); got == want {
					t.Fatalf("!(%v): the %s automaton says %v on %v %v^w, the formula %v\n%s",
						f, c.name, got, pres[j], cycs[j], !want, neg[k].a.Format(""))
				}
				if got := c.a.Accepts(pres[j], cycs[j]); got != want {
					t.Fatalf("%v: Accepts of the %s automaton says %v on %v %v^w, the formula %v",
						f, c.name, got, pres[j], cycs[j], want)
				}
			}
			nl++
		}
		nf++
	}
	return nf, nl
}

// TestReviewTranslate checks every form of the automata of random
// formulas, and of their negations, on every short lasso, and checks that
// the automata of f and !f share no word.
func TestReviewTranslate(t *testing.T) {
	nf, nl := reviewSweep(t, 1, 120, 12, 3, func(r *rand.Rand) int { return 1 + r.IntN(2) })
	t.Logf("%d formulas, %d (formula, lasso) pairs", nf, nl)
}

// TestReviewTranslateLong is TestReviewTranslate with larger formulas,
// every lasso of length 4 over 2 propositions and up to 4 propositions,
// then formulas of up to 14 operators over 2 propositions (the sweep that
// found TestReviewFound's formula) (BIRCH_LONG=1).
func TestReviewTranslateLong(t *testing.T) {
	if os.Getenv("BIRCH_LONG") == "" {
		t.Skip("set BIRCH_LONG=1 to run")
	}
	nf, nl := reviewSweep(t, 2, 1500, 9, 4, func(r *rand.Rand) int { return 2 + r.IntN(3) })
	t.Logf("%d formulas, %d (formula, lasso) pairs", nf, nl)
	nf, nl = reviewSweep(t, 41, 1500, 14, 3, func(r *rand.Rand) int { return 2 })
	t.Logf("%d larger formulas, %d (formula, lasso) pairs", nf, nl)
}

// neverClaim is a never claim read minimally: its states, their options
// (a condition and a target, -1 for the claim's end, reached by an
// assertion that fails or by falling off the claim, where SPIN reports
// the violation at once), and which are accepting.
type neverClaim struct {
	accepting []bool
	options   [][]neverOption
}

type neverOption struct {
	cond func(l uint64) bool
	to   int // -1: violation found
}

func parseNever(t *testing.T, text string) *neverClaim {
	t.Helper()
	var labels [][]string // the labels of each state
	var bodies [][]string
	fresh := true
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "never") || line == "}":
		case strings.HasSuffix(line, ":") && !strings.Contains(line, " "):
			if fresh && len(labels) > 0 {
				labels[len(labels)-1] = append(labels[len(labels)-1], strings.TrimSuffix(line, ":"))
				continue
			}
			labels = append(labels, []string{strings.TrimSuffix(line, ":")})
			bodies = append(bodies, nil)
			fresh = true
			continue
		default:
			bodies[len(bodies)-1] = append(bodies[len(bodies)-1], line)
		}
		fresh = false
	}
	index := map[string]int{}
	nc := &neverClaim{}
	for i, ls := range labels {
		acc := false
		for _, l := range ls {
			index[l] = i
			acc = acc || strings.HasPrefix(l, "accept")
		}
		nc.accepting = append(nc.accepting, acc)
	}
	for q, body := range bodies {
		var opts []neverOption
		for _, line := range body {
			switch {
			case line == "do" || line == "od;" || line == "if" || line == "fi;":
			case line == "skip" || line == "skip;":
				opts = append(opts, neverOption{func(uint64) bool { return true }, -1})
			case line == "false;":
			case strings.HasPrefix(line, ":: atomic {"):
				s := strings.TrimPrefix(line, ":: atomic {")
				k := strings.Index(s, "->")
				opts = append(opts, neverOption{compileCond(t, strings.TrimSpace(s[:k])), -1})
			case strings.HasPrefix(line, "::"):
				s := strings.TrimPrefix(line, "::")
				k := strings.LastIndex(s, "-> goto ")
				if k < 0 { // an option of a do loop that stays: ":: false"
					opts = append(opts, neverOption{compileCond(t, strings.TrimSpace(s)), q})
					continue
				}
				to, ok := index[strings.TrimSpace(s[k+len("-> goto "):])]
				if !ok {
					t.Fatalf("never claim line %q: unknown label", line)
				}
				opts = append(opts, neverOption{compileCond(t, strings.TrimSpace(s[:k])), to})
			default:
				t.Fatalf("cannot read never claim line %q in\n%s", line, text)
			}
		}
		nc.options = append(nc.options, opts)
	}
	return nc
}

// compileCond reads a condition of a never claim (!, &&, ||,
// parentheses, 1, 0, true, false, p<i>) as a function of the letter.
func compileCond(t *testing.T, s string) func(l uint64) bool {
	t.Helper()
	toks := strings.Fields(strings.NewReplacer("(", " ( ", ")", " ) ", "!", " ! ", "&&", " && ", "||", " || ").Replace(s))
	pos := 0
	type cond = func(uint64) bool
	var or, and, unary func() cond
	or = func() cond {
		v := and()
		for pos < len(toks) && toks[pos] == "||" {
			pos++
			x, y := v, and()
			v = func(l uint64) bool { return x(l) || y(l) }
		}
		return v
	}
	and = func() cond {
		v := unary()
		for pos < len(toks) && toks[pos] == "&&" {
			pos++
			x, y := v, unary()
			v = func(l uint64) bool { return x(l) && y(l) }
		}
		return v
	}
	unary = func() cond {
		if pos >= len(toks) {
			t.Fatalf("condition %q ends early", s)
		}
		tok := toks[pos]
		pos++
		switch {
		case tok == "!":
			x := unary()
			return func(l uint64) bool { return !x(l) }
		case tok == "(":
			v := or()
			if pos >= len(toks) || toks[pos] != ")" {
				t.Fatalf("condition %q: missing )", s)
			}
			pos++
			return v
		case tok == "1" || tok == "true":
			return func(uint64) bool { return true }
		case tok == "0" || tok == "false":
			return func(uint64) bool { return false }
		case strings.HasPrefix(tok, "p"):
			var i int
			if _, err := fmt.Sscanf(tok, "p%d", &i); err != nil {
				t.Fatalf("condition %q: %v", s, err)
			}
			return func(l uint64) bool { return l>>uint(i)&1 == 1 }
		}
		t.Fatalf("condition %q: unexpected %q", s, tok)
		return nil
	}
	v := or()
	if pos != len(toks) {
		t.Fatalf("condition %q: trailing %q", s, toks[pos:])
	}
	return v
}

// accepts reports whether the never claim accepts prefix·cycle^ω: a
// violation is reached, or a reachable accepting state lies on a cycle
// of the product with the lasso.
func (nc *neverClaim) accepts(t *testing.T, prefix, cycle []uint64) bool {
	w := append(append([]uint64(nil), prefix...), cycle...)
	n := len(w)
	N := len(nc.options)*n + 1 // the last node: violation found, a self-loop
	done := N - 1
	succ := func(v int, visit func(int, uint64)) {
		if v == done {
			visit(done, 0)
			return
		}
		q, i := v/n, v%n
		j := i + 1
		if j == n {
			j = len(prefix)
		}
		for _, o := range nc.options[q] {
			if o.cond(w[i]) {
				if o.to < 0 {
					visit(done, 0)
				} else {
					visit(o.to*n+j, 0)
				}
			}
		}
	}
	return reviewLasso(N, succ, 0, 0, func(v int) bool { return v == done || nc.accepting[v/n] })
}

// TestReviewSpinClaims compares birch's degeneralized automaton of !f, the
// one a never claim is written from, with SPIN's never claim for !f
// (spin -f) on every short lasso, and both with the formula.
func TestReviewSpinClaims(t *testing.T) {
	if _, err := exec.LookPath("spin"); err != nil {
		t.Skip("spin is not installed")
	}
	formulas, maxSize, maxLasso, spinTimeout := 25, 6, 3, time.Second
	if os.Getenv("BIRCH_LONG") != "" {
		formulas, maxSize, maxLasso, spinTimeout = 300, 9, 4, 2*time.Second
	}
	r := rand.New(rand.NewPCG(3, 99))
	pres, cycs := reviewLassos(2, maxLasso)
	props := &Spec{Props: []Proposition{{Text: "p0"}, {Text: "p1"}}}
	nl, skipped := 0, 0
	for i := 0; i < formulas; i++ {
		f := reviewFormula(r, 2, 1+r.IntN(maxSize), true)
		text := "!(" + spinFormat(props, f) + ")"
		// SPIN's translation takes seconds on some formulas with <->
		ctx, cancel := context.WithTimeout(context.Background(), spinTimeout)
		out, err := exec.CommandContext(ctx, "spin", "-f", text).CombinedOutput()
		timedOut := ctx.Err() != nil
		cancel()
		if timedOut {
			skipped++
			continue
		}
		if err != nil {
			t.Fatalf("spin -f %q: %v\n%s", text, err, out)
		}
		nc := parseNever(t, string(out))
		tgba, err := Translate(Un(Not, f), nil)
		if err != nil {
			t.Fatal(err)
		}
		ba := Degeneralize(tgba)
		for j := range pres {
			want := !reviewEval(f, pres[j], cycs[j])[0]
			spin := nc.accepts(t, pres[j], cycs[j])
			birch := reviewAccepts(ba, pres[j], cycs[j])
			if spin != want || birch != want {
				t.Fatalf("!(%v) on %v %v^w: the formula says %v, SPIN's claim %v, birch's automaton %v\n%s\n%s",
					f, pres[j], cycs[j], want, spin, birch, out, ba.Format(""))
			}
			nl++
		}
	}
	t.Logf("%d formulas (%d more SPIN did not translate in time), %d (formula, lasso) pairs", formulas-skipped, skipped, nl)
}

// TestReviewFound holds the formulas the sweeps above found wrong, each
// checked as they check a random one.
func TestReviewFound(t *testing.T) {
	for _, text := range []string{
		// the R implies <> p and <> ((!q || p) R p), each other's
		// equivalent; the automaton postponed them in turn, each dropped
		// from the next state as implied by the R, and accepted q^ω
		"<> p W (<> ((q -> p) R p) && q)",
	} {
		s, err := Parse("f", text)
		if err != nil {
			t.Fatal(err)
		}
		f := s.Formula
		auts, neg := reviewAutomata(t, f), reviewAutomata(t, Un(Not, f))
		for k := range auts {
			if empty, ok := reviewProductEmpty(auts[k].a, neg[k].a); ok && !empty {
				t.Errorf("%s: the %s automata of the formula and of its negation accept a common word", text, auts[k].name)
			}
		}
		pres, cycs := reviewLassos(len(s.Props), 4)
		for j := range pres {
			want := reviewEval(f, pres[j], cycs[j])[0]
			for k := range auts {
				if got := reviewAccepts(auts[k].a, pres[j], cycs[j]); got != want {
					t.Fatalf("%s: the %s automaton says %v on %v %v^w, the formula %v\n%s",
						text, auts[k].name, got, pres[j], cycs[j], want, auts[k].a.Format(""))
				}
				if got := reviewAccepts(neg[k].a, pres[j], cycs[j]); got == want {
					t.Fatalf("!(%s): the %s automaton says %v on %v %v^w, the formula %v\n%s",
						text, auts[k].name, got, pres[j], cycs[j], !want, neg[k].a.Format(""))
				}
			}
		}
	}
}
