package absgen

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"birch/internal/abstraction/data/infer"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/testenv"
)

// wrapModel is a random model of fixed-width code in two versions: wrap,
// as written (x, y int32, u uint8; Java-like x := int32(x + e)), and
// noWrap, where x is an int and every store into x is followed by
// assume(x in int32): the executions of wrap in which x never wraps, cut
// where it would.
type wrapModel struct{ wrap, noWrap string }

func randomWrapModel(r *rand.Rand) wrapModel {
	pick := func(xs ...string) string { return xs[r.Intn(len(xs))] }
	consts := []string{"0", "1", "-1", "2", "1000", "2147483647", "-2147483648"}
	var w, g strings.Builder
	both := func(s string) { w.WriteString(s); g.WriteString(s) }
	both("system R ()\n")
	x0 := pick(consts...)
	fmt.Fprintf(&w, "x : int32 := %s;\n", x0)
	fmt.Fprintf(&g, "x : int := %s;\n", x0)
	both(fmt.Sprintf("y : int32 := %s;\nu : uint8 := %s;\n", pick(consts...), pick("0", "7", "250")))
	both("main thread Main ()\n")
	const inRange = "assume(x >= -2147483648 && x <= 2147483647);"
	// storeX writes a store into x in both versions.
	storeX := func(e string, conv bool) {
		if conv {
			fmt.Fprintf(&w, " x := int32(%s);", e)
		} else {
			fmt.Fprintf(&w, " x := %s;", e)
		}
		fmt.Fprintf(&g, " x := %s; %s", e, inRange)
	}
	operand := func() string { return pick("1", "2147483647", "-5", "y", "u", "x", "1000") }
	action := func(choice bool) {
		k := r.Intn(10)
		if k == 5 && !choice {
			k = 0 // BIR: two transformations between two locations both choose or neither does
		}
		switch k {
		case 0, 1:
			storeX("x + "+operand(), true)
		case 2:
			storeX("x - "+operand(), true)
		case 3:
			storeX("x * "+pick("2", "-1", "3"), true)
		case 4:
			storeX("x / "+pick("2", "-3"), false) // a store of an int
		case 5:
			c := fmt.Sprintf(" x := externChoose(%s, %s);", pick(consts...), pick(consts...))
			both(c)
		case 6:
			both(" y := int32(y + " + pick("1", "2147483647", "-5", "u") + ");")
		case 7:
			both(" " + pick("y := (y ^ u) | 1;", "y := y >> 1;", "u := uint8(y);", "y := ~y;"))
		case 8:
			both(" u := u + " + pick("100", "200", "7") + ";")
		case 9:
			storeX(pick("y", "u", "-x"), false)
		}
	}
	test := func() string {
		return pick("x > y", "x < "+pick(consts...), "x == 0", "x >= 0", "u > 100", "y < 0", "(y & 1) == 0", "x + u > 5", "x % 2 == 0")
	}
	n := 2 + r.Intn(3)
	for i := 0; i < n; i++ {
		both(fmt.Sprintf("  loc s%d:\n", i))
		if r.Intn(3) == 0 {
			c := test()
			both(fmt.Sprintf("    when %s do {", c))
			action(false)
			both(fmt.Sprintf(" } goto s%d;\n    when !(%s) do {", i+1, c))
			action(false)
			both(fmt.Sprintf(" } goto s%d;\n", i+1))
			continue
		}
		both("    when true do {")
		for k := 0; k <= r.Intn(2); k++ {
			action(true)
		}
		both(fmt.Sprintf(" } goto s%d;\n", i+1))
	}
	p := test()
	if r.Intn(2) == 0 {
		p = "(" + p + ") " + pick("&&", "||") + " (" + test() + ")"
	}
	both(fmt.Sprintf("  loc s%d:\n    when true do { assert(%s); } goto s%d;\n  loc s%d:\nend Main;\nend R;\n", n, p, n+1, n+1))
	return wrapModel{w.String(), g.String()}
}

// runConcrete searches prog without deadlocks (an assume that cuts an
// execution leaves its thread stuck).
func runConcrete(t *testing.T, prog *types.Program) *search.Result {
	t.Helper()
	m, err := model.New(prog, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return search.Run(m, search.Config{MaxStates: 100000, NoDeadlock: true})
}

// TestRandomWrapSound checks the claim a pass of data abstraction makes on
// a model with fixed-width types: with x abstracted, a pass of the
// abstract model means that the concrete model has no violation in the
// executions where x does not wrap around int32 (the noWrap version), and
// that it has none at all when Output.Wraps is empty. Concrete y and u
// wrap and use bitwise operators; they must keep their exact meaning.
// It also counts the models that fail only through a wrap (wrap fails,
// noWrap passes), whose abstract pass must name a place where x may wrap.
func TestRandomWrapSound(t *testing.T) {
	seeds := 150
	if testenv.Long() {
		seeds = 3000
	}
	abstractions := []string{"signs", "evenodd", "range(0,2)", "set(-1,2147483647)"}
	passes, wrapOnly := 0, 0
	for seed := 0; seed < seeds; seed++ {
		r := rand.New(rand.NewSource(int64(seed)))
		wm := randomWrapModel(r)
		abs := abstractions[r.Intn(len(abstractions))]
		prog := loadSource(t, "w.bir", []byte(wm.wrap))
		b, _ := infer.ParseBinding("x=" + abs)
		sel, err := infer.Resolve(prog, &lib, []infer.Binding{b})
		if err != nil {
			t.Fatal(err)
		}
		res, err := infer.Infer(prog, &lib, sel, infer.Config{})
		if err != nil {
			continue // a bitwise operator on x (y := y ^ u after u := uint8(x)...)
		}
		out, err := Generate(prog, res, Config{})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, wm.wrap)
		}
		m, err := model.New(out.Program, model.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, out.Source)
		}
		ares := search.Run(m, search.Config{MaxStates: 100000, NoDeadlock: true})
		if ares.Verdict != search.Pass || !ares.Complete {
			continue
		}
		passes++
		gres := runConcrete(t, loadSource(t, "g.bir", []byte(wm.noWrap)))
		if gres.Verdict == search.Fail {
			t.Errorf("seed %d, x=%s: the abstract model passes, but an execution without a wrap of x fails: %s\n%s\nabstract:\n%s",
				seed, abs, gres.Violation.Msg, wm.noWrap, out.Source)
			continue
		}
		wres := runConcrete(t, prog)
		if wres.Verdict == search.Fail {
			wrapOnly++
			if len(out.Wraps) == 0 {
				t.Errorf("seed %d, x=%s: the abstract model passes with no place where x may wrap, and the model fails: %s\n%s",
					seed, abs, wres.Violation.Msg, wm.wrap)
			}
		}
	}
	t.Logf("%d seeds: %d abstract passes, %d of them of models that fail through a wrap of x", seeds, passes, wrapOnly)
	if passes == 0 || wrapOnly == 0 {
		t.Errorf("the generator should give abstract passes (%d) and models that fail only through a wrap (%d)", passes, wrapOnly)
	}
}
