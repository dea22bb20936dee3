package amcs

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/testenv"
)

// diffGen writes a small random BIR model with finite data: threads
// (two main ones and a worker started at run time), integer globals and
// locals of the range type R, a global value array, heap records and heap
// arrays, booleans, a lock, function calls, invisible steps, assertions and
// sometimes an invariant. Every integer expression stays in R (sums taken
// modulo 4), so most violations are the assertions, the invariant, a
// deadlock on the lock or a null dereference.
type diffGen struct {
	r    *rand.Rand
	b    strings.Builder
	heap bool // the thread being written has the locals n and a
}

func (g *diffGen) pick(list ...string) string { return list[g.r.IntN(len(list))] }

// intExpr is an expression of R over the integer names ints.
func (g *diffGen) intExpr(ints []string, depth int) string {
	if depth <= 0 || g.r.IntN(3) == 0 {
		if len(ints) > 0 && g.r.IntN(4) > 0 {
			return ints[g.r.IntN(len(ints))]
		}
		return g.pick("0", "1", "2", "3", "1")
	}
	a, b := g.intExpr(ints, depth-1), g.intExpr(ints, depth-1)
	switch g.r.IntN(4) {
	case 0:
		return "(" + a + " * " + b + ") % 4"
	case 1:
		return "(3 - " + a + ")"
	}
	return "(" + a + " + " + b + ") % 4"
}

// boolExpr is a boolean expression over ints and the boolean names bools.
func (g *diffGen) boolExpr(ints, bools []string, depth int) string {
	switch k := g.r.IntN(6); {
	case depth <= 0 || k == 0:
		if len(bools) > 0 && g.r.IntN(2) == 0 {
			return g.pick(bools...)
		}
		return "(" + g.intExpr(ints, 1) + " " + g.pick("==", "!=", "<", "<=", ">", ">=") + " " + g.intExpr(ints, 1) + ")"
	case k == 1 && g.r.IntN(3) == 0:
		return g.pick("(col == GREEN)", "(col != RED)", "(w8 > 0)", "(w8 == -128)")
	case k == 1:
		return "!" + g.boolExpr(ints, bools, depth-1)
	case k == 2:
		return "(" + g.boolExpr(ints, bools, depth-1) + " && " + g.boolExpr(ints, bools, depth-1) + ")"
	case k == 3:
		return "(" + g.boolExpr(ints, bools, depth-1) + " || " + g.boolExpr(ints, bools, depth-1) + ")"
	}
	return "(" + g.intExpr(ints, 2) + " " + g.pick("==", "!=", "<", "<=", ">", ">=") + " " + g.intExpr(ints, 1) + ")"
}

// action is one action over the integer names ints (assignable: wr), the
// booleans bools (assignable: bwr).
func (g *diffGen) action(ints, wr, bools, bwr []string, heap bool) string {
	switch k := g.r.IntN(14); {
	case k < 6 && len(wr) > 0:
		return g.pick(wr...) + " := " + g.intExpr(ints, 2) + ";"
	case k < 7 && len(bwr) > 0:
		return g.pick(bwr...) + " := " + g.boolExpr(ints, bools, 1) + ";"
	case k < 8 && heap:
		return g.pick("col := GREEN;", "col := BLUE;", "col := RED;", "w8 := w8 + 64;", "w8 := w8 * 3;")
	case k < 10:
		// an assertion that fails rarely: a conjunction of tests
		return "assert(" + g.boolExpr(ints, bools, 1) + " || " + g.boolExpr(ints, bools, 1) + ");"
	case k < 11 && heap:
		return g.pick("n := new Nodes; n.val := "+g.intExpr(ints, 1)+";", "hn := n;", "n := hn;",
			"a := new Arrs["+g.pick("1", "2", "3")+"];", "ha := a;")
	}
	return ""
}

// body writes the locations of a thread or function; ret is the
// function's return (or "" for a thread).
func (g *diffGen) body(ints, wr, bools, bwr []string, nloc int, ret string, calls, locks, start bool) {
	for li := 0; li < nloc; li++ {
		live := ""
		if ret == "" && g.heap && g.r.IntN(5) == 0 {
			live = g.pick(" live { x, n, a }", " live { y, c }", " live { x, y, c, n, a }")
		}
		fmt.Fprintf(&g.b, "  loc s%d:%s\n", li, live)
		if ret == "" && li > 0 && li == nloc-1 && g.r.IntN(4) == 0 {
			continue // a final location: the thread terminates there
		}
		if ret == "" && len(wr) > 1 && g.r.IntN(6) == 0 && li < nloc-1 {
			// an invisible step over the thread's locals
			v := wr[len(wr)-1]
			fmt.Fprintf(&g.b, "    when true do invisible { %s := %s; } goto s%d;\n", v, g.intExpr([]string{v}, 1), li+1)
			continue
		}
		// the transformations of a location all choose or none (BIR 12.2)
		choose := len(wr) > 0 && g.r.IntN(3) == 0
		ntr := 1 + g.r.IntN(2)
		for t := 0; t < ntr; t++ {
			guard := "true"
			if t > 0 || g.r.IntN(4) == 0 {
				guard = g.boolExpr(ints, bools, 1)
			}
			var acts []string
			if len(wr) > 0 && g.r.IntN(2) == 0 {
				v := g.pick(wr...)
				acts = append(acts, v+" := ("+v+" + "+g.pick("1", "1", "2", "3")+") % 4;")
			}
			for k := g.r.IntN(3); k > 0; k-- {
				if a := g.action(ints, wr, bools, bwr, g.heap); a != "" {
					acts = append(acts, a)
				}
			}
			end := fmt.Sprintf("goto s%d;", (li+1)%nloc)
			if g.r.IntN(2) == 0 {
				end = fmt.Sprintf("goto s%d;", g.r.IntN(nloc))
			}
			if ret != "" && li == nloc-1 {
				end = "return " + g.intExpr(ints, 1) + ";"
			}
			switch {
			case g.heap && g.r.IntN(5) == 0:
				// a step on the heap, guarded against null
				guard, acts = g.pick(
					"n != null", "a != null", "a != null && a.length > 1", "hn != null", "true"), nil
				switch guard {
				case "n != null":
					acts = []string{"n.val := (n.val + " + g.intExpr(ints, 1) + ") % 4;"}
				case "a != null":
					acts = []string{"a[0] := " + g.intExpr(ints, 1) + ";"}
				case "hn != null":
					acts = []string{"hn.flag := !hn.flag;", g.pick(wr...) + " := hn.val;"}
				case "true":
					acts = []string{"ga[" + g.pick("0", "1") + "] := " + g.intExpr(ints, 1) + ";"}
				default:
					acts = []string{"a[1] := (a[0] + 1) % 4;"}
				}
			case locks && t == 0 && g.r.IntN(5) == 0:
				if g.r.IntN(2) == 0 {
					guard, acts = "lockAvailable(lk)", append(acts, "lock(lk);")
				} else {
					guard, acts = "hasLock(lk)", append(acts, "unlock(lk);")
				}
			case calls && len(wr) > 0 && g.r.IntN(2) == 0:
				acts = append(acts, g.pick(wr...)+" := call f("+g.intExpr(ints, 1)+");")
			case start && li == 0 && t == 0:
				acts = append(acts, "w := start W("+g.intExpr(ints, 1)+");")
				end = fmt.Sprintf("goto s%d;", 1+g.r.IntN(nloc-1))
			}
			if choose {
				acts = append([]string{g.pick(wr...) + " := " + g.pick("internChoose(0 .. 3)", "externChoose(1, 2)", "internChoose(0, 3)") + ";"}, acts...)
			}
			fmt.Fprintf(&g.b, "    when %s do { %s } %s\n", guard, strings.Join(acts, " "), end)
		}
	}
}

// model returns the model's text.
func (g *diffGen) model() string {
	g.b.Reset()
	g.b.WriteString(`system Gen()
R = range 0..3;
Node = record { val : R; flag : boolean; next : NodeRef; };
Nodes : collection [2] of Node;
NodeRef = ref Node {Nodes};
Arr = array [3] of R;
Arrs : collection [2] of Arr;
ArrRef = ref Arr {Arrs};
g0 : R;
g1 : R;
gb : boolean;
ga : array [2] of R;
hn : NodeRef;
ha : ArrRef;
lk : lock;
Color = enum { RED, GREEN = 5, BLUE };
col : Color;
w8 : int8;
`)
	gints := []string{"g0", "g1", "ga[0]", "ga[1]"}
	gwr := []string{"g0", "g1"}
	gb := []string{"gb"}
	calls := g.r.IntN(2) == 0
	if calls {
		g.b.WriteString("\nfunction f (p : R) : R\n  q : R;\n")
		ints := append(append([]string(nil), gints...), "p", "q")
		g.body(ints, append(append([]string(nil), gwr...), "q"), gb, gb, 1+g.r.IntN(2), "R", false, false, false)
		g.b.WriteString("end f;\n")
	}
	locks := g.r.IntN(2) == 0
	start := g.r.IntN(2) == 0
	for th := 0; th < 2; th++ {
		fmt.Fprintf(&g.b, "\nmain thread T%d ()\n  x : R;\n  y : R;\n  c : boolean;\n  n : NodeRef;\n  a : ArrRef;\n", th)
		if th == 0 && start {
			g.b.WriteString("  w : tid;\n")
		}
		ints := append(append([]string(nil), gints...), "x", "y")
		wr := append(append([]string(nil), gwr...), "x", "y")
		bools := append(append([]string(nil), gb...), "c")
		g.heap = true
		g.body(ints, wr, bools, bools, 2+g.r.IntN(3), "", calls, locks, th == 0 && start)
		g.heap = false
		fmt.Fprintf(&g.b, "end T%d;\n", th)
	}
	if start {
		g.b.WriteString("\nthread W (id : R)\n  z : R;\n")
		ints := append(append([]string(nil), gints...), "id", "z")
		g.body(ints, append(append([]string(nil), gwr...), "z"), gb, gb, 1+g.r.IntN(2), "", calls, locks, false)
		g.b.WriteString("end W;\n")
	}
	if g.r.IntN(3) == 0 {
		fmt.Fprintf(&g.b, "\nproperties\n  invariant inv: %s;\n", g.boolExpr(gints, gb, 1)+" || "+g.boolExpr(gints, gb, 1))
	}
	g.b.WriteString("end Gen;\n")
	return g.b.String()
}

// diffVariants are the variants compared with the explicit search: the
// GeneralSplitting heuristics, and on some models (their solver queries
// are slow) the refining ones.
func diffVariants(seed uint64) []Variant {
	vs := append([]Variant(nil), splitting...)
	if every := map[bool]uint64{false: 6, true: 10}[testenv.Long()]; seed%every != 0 {
		return vs
	}
	for v := AMCS; v <= NoTP; v++ {
		if refiners[v] != nil {
			vs = append(vs, v)
		}
	}
	return vs
}

// diffOne compares every variant with the explicit breadth-first search on
// the model of seed; it reports whether the model compiled, and the
// explicit verdict.
func diffOne(t *testing.T, seed uint64) (bool, search.Verdict) {
	g := &diffGen{r: rand.New(rand.NewPCG(seed, 0xd1ff))}
	src := g.model()
	prog := testenv.CheckBIR([]byte(src))
	if prog == nil {
		t.Fatalf("seed %d: the generated model does not check:\n%s", seed, src)
	}
	m, err := model.New(prog, model.Options{MaxThreads: 4})
	if err != nil {
		t.Fatalf("seed %d: %v\n%s", seed, err, src)
	}
	var sm search.Model = m
	if len(prog.Properties) > 0 {
		var props []*types.Property
		props = append(props, prog.Properties...)
		inv, err := search.NewInvariants(m, props)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		sm = search.WithStateCheck(m, inv)
	}
	limit, wpTime := 3000, 100*time.Millisecond
	if testenv.Long() {
		limit, wpTime = 200000, 2*time.Second
	}
	// the control part and the data of every reachable state: equal
	// control parts have equal data IDs, and the split is one-to-one
	ids := map[string]string{}
	split := map[string]string{}
	var ctrl []byte
	var data []model.Datum
	bad := false
	visit := func(state []byte, depth int) {
		ctrl, data = m.SplitData(state, ctrl[:0], data[:0])
		var id, val []byte
		for _, d := range data {
			id = binary.AppendUvarint(id, d.ID)
			val = binary.AppendVarint(val, d.Value)
			if m.DataName(state, d.ID) == "" && !bad {
				bad = true
				t.Errorf("seed %d: datum %x has no name", seed, d.ID)
			}
		}
		if prev, ok := ids[string(ctrl)]; ok && prev != string(id) && !bad {
			bad = true
			t.Errorf("seed %d: two states with one control part have different data IDs", seed)
		}
		ids[string(ctrl)] = string(id)
		k := string(ctrl) + "|" + string(val)
		if prev, ok := split[k]; ok && prev != string(state) && !bad {
			bad = true
			t.Errorf("seed %d: two states with one control part and one data:\n%v\n%v", seed, m.Describe(state), m.Describe([]byte(prev)))
		}
		split[k] = string(state)
	}
	// some models with --on-limit=error, some without deadlock detection
	limitErr, noDeadlock := seed%4 == 1, seed%5 == 2
	ex := search.Run(sm, search.Config{Strategy: search.BFS, MaxStates: limit, Visit: visit, LimitError: limitErr, NoDeadlock: noDeadlock})
	// initial predicates (--predicates) for some models
	var preds []*predicate.Predicate
	if seed%3 == 0 {
		var lines []string
		for _, l := range []string{"g0 > 1", "g0 == g1", "ga[0] != g1", "hn != null", "hn.val > 1", "gb",
			"[thread T0] x == y", "[thread T1] x + y > 2", "[thread T0] n != null && n.val == 0", "[thread T1] c"} {
			if g.r.IntN(3) == 0 {
				lines = append(lines, l)
			}
		}
		if strings.Contains(src, "function f") && g.r.IntN(2) == 0 {
			lines = append(lines, "[function f] q > p")
		}
		f, err := predicate.ParseFile(prog, "p.preds", []byte(strings.Join(lines, "\n")+"\n"))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		preds = f.Predicates
	}
	for _, v := range diffVariants(seed) {
		cfg := Config{Variant: v, Seed: seed, Predicates: preds, LimitError: limitErr, NoDeadlock: noDeadlock}
		if ex.Stopped != "" {
			// the explicit search was cut: AMCS under the same bound
			cfg.MaxStates = limit
		}
		if !v.Splitting() {
			// the WP variants need not terminate, and their solver
			// queries are slow
			cfg.MaxRounds, cfg.TimeLimit = 8, wpTime
		}
		res := Run(m, sm, cfg)
		where := fmt.Sprintf("seed %d %v %d predicates (explicit: %v, %d states, %s)", seed, v, len(preds), ex.Verdict, ex.Stats.States, ex.Reason)
		switch res.Verdict {
		case search.Pass:
			if !res.Exact {
				t.Errorf("%s: pass without an exact round: %s", where, res.Reason)
			}
			if ex.Verdict != search.Pass {
				t.Errorf("%s: AMCS says pass: %s\n%s", where, res.Reason, src)
				continue
			}
			if last := res.Rounds[len(res.Rounds)-1]; last.AbstractStates != ex.Stats.States {
				t.Errorf("%s: exact round with %d abstract states, explicit search stores %d\n%s", where, last.AbstractStates, ex.Stats.States, src)
			}
		case search.Fail:
			if res.Violation.Kind == model.Deadlock && noDeadlock {
				t.Errorf("%s: a deadlock with NoDeadlock", where)
			}
			if res.Violation.Kind == model.LimitReached && !limitErr {
				t.Errorf("%s: a limit reported as a violation without LimitError", where)
			}
			if len(res.Trail) == 0 && res.Violation.Kind != model.Deadlock {
				// the initial state fails
				if _, st := sm.Initial(nil); st == nil || st.Kind != res.Violation.Kind {
					t.Errorf("%s: empty trail for %v, the initial state gives %v", where, res.Violation.Kind, st)
				}
			} else {
				checkTrail(t, sm, res)
			}
			if ex.Verdict == search.Pass {
				t.Errorf("%s: AMCS finds %v, explicit search passes\n%s", where, res.Violation.Kind, src)
			}
		default:
			if ex.Verdict == search.Fail && v.Splitting() && len(res.LimitsHit) == 0 && len(ex.LimitsHit) == 0 {
				t.Errorf("%s: GeneralSplitting inconclusive on a finite model with a violation: %s\n%s", where, res.Reason, src)
			}
			if ex.Verdict == search.Pass && v.Splitting() {
				t.Errorf("%s: GeneralSplitting inconclusive on a finite model: %s\n%s", where, res.Reason, src)
			}
		}
		// a bound on the abstract states below the explicit count never
		// passes
		if ex.Verdict == search.Pass && ex.Stats.States > 2 {
			res := Run(m, sm, Config{Variant: v, Seed: seed, MaxStates: ex.Stats.States - 1, MaxRounds: 8, Predicates: preds, TimeLimit: wpTime,
				LimitError: limitErr, NoDeadlock: noDeadlock})
			if res.Verdict == search.Pass {
				t.Errorf("%s: pass with MaxStates %d: %s", where, ex.Stats.States-1, res.Reason)
			}
		}
	}
	return true, ex.Verdict
}

// The randomized differential test of AMCS against the explicit search:
// on generated models, no variant passes where the explicit search finds
// a violation or is cut, every violation replays, an exact round has as
// many abstract states as the explicit search stores, and GeneralSplitting
// decides every finite model.
func TestDifferentialRandomModels(t *testing.T) {
	n := 12
	if testenv.Long() {
		n = 2000
	}
	var verdicts [3]int
	for seed := uint64(1); seed <= uint64(n); seed++ {
		_, v := diffOne(t, seed)
		verdicts[v]++
		if t.Failed() && testenv.Long() {
			break
		}
		if seed%200 == 0 {
			t.Logf("%d models", seed)
		}
	}
	t.Logf("explicit verdicts over %d models: %d pass, %d fail, %d inconclusive", n, verdicts[0], verdicts[1], verdicts[2])
}
