package c2bp

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/ast"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/source"
)

// exactAbstraction is a stand-in for Abstract that the soundness check
// must accept: the concrete model of a one-thread generated model with a
// boolean pK per predicate, set to the predicate's value at the end of
// every transformation (so exact), and with every int variable declared
// abstracted when hideInts (the check then compares only the locations,
// flag, small and the predicates). mutate, when not nil, may change the
// actions added to the transformations, to make the stand-in unsound.
func soundExact(gm *genModel, hideInts bool, mutate func(updates []string) []string) func(*types.Program, *predicate.File) (*Output, error) {
	return func(prog *types.Program, preds *predicate.File) (*Output, error) {
		var decls strings.Builder
		var updates []string
		val := func(name string) int64 { return gm.Init[name] }
		for i, p := range gm.Preds {
			fmt.Fprintf(&decls, "p%d : boolean := %v;\n", i, p.Cmp.eval(val))
			updates = append(updates, "p"+strconv.Itoa(i)+" := "+p.Cmp.String())
		}
		if mutate != nil {
			updates = mutate(updates)
		}
		src := gm.render(decls.String(), func(string) []string { return updates })
		fset := source.NewFileSet()
		f, err := parser.ParseFile(fset, "exact.bir", []byte(src), 0)
		if err != nil {
			return nil, fmt.Errorf("%v\n%s", err, src)
		}
		aprog, err := types.Check(fset, f, nil)
		if err != nil {
			return nil, fmt.Errorf("%v\n%s", err, src)
		}
		out := &Output{Source: []byte(src), Program: aprog, Map: &Map{Concrete: prog, Abstract: aprog, byTrans: map[*ast.Transformation]*Origin{}}}
		for i, th := range prog.Threads {
			ath := aprog.Threads[i]
			for j, loc := range th.Locations {
				for k, tr := range loc.Decl.Transformations {
					o := &Origin{Abstract: ath.Locations[j].Decl.Transformations[k], Proc: th, Location: loc, Transformation: tr, Index: k}
					out.Map.Origins = append(out.Map.Origins, o)
					out.Map.byTrans[o.Abstract] = o
				}
			}
		}
		for i, p := range preds.Predicates {
			out.Predicates = append(out.Predicates, &Pred{Predicate: p, Var: "p" + strconv.Itoa(i)})
		}
		if hideInts {
			for _, v := range gm.Ints {
				out.Abstracted = append(out.Abstracted, v)
			}
		}
		return out, nil
	}
}

// TestSoundnessCheckItself runs the soundness check on exact stand-ins of
// the abstraction, which it must accept, and on unsound ones (a predicate
// never updated, a transformation whose guard is false, assertions
// dropped), which it must reject for some models: the check can fail.
func TestSoundnessCheckItself(t *testing.T) {
	var models, stale, blocked, noAsserts int
	for seed := uint64(1); seed <= 60; seed++ {
		gm := genRandomModel(seed, genDefault)
		if len(gm.Threads) != 1 {
			continue // predicates of one thread that another's steps change cannot be updated exactly
		}
		if prog, _, err := genLoad(gm); err != nil {
			t.Fatal(err)
		} else if m, err := model.New(prog, model.Options{}); err != nil {
			t.Fatal(err)
		} else if g, err := soundEnumerate(m, soundMaxConcrete, func([]byte) string { return "" }, func(int32) (*ast.Transformation, *Origin) { return nil, nil }); err != nil || !g.complete {
			continue // the exact stand-in with every int kept would be as large
		}
		models++
		for _, hide := range []bool{false, true} {
			if _, err := soundCheckWith(gm, soundExact(gm, hide, nil)); err != nil {
				t.Fatalf("seed %d (ints hidden: %v): the exact abstraction is rejected: %v\n%s%s", seed, hide, err, gm.Src, gm.PredFile())
			}
		}
		never := func(u []string) []string { return u[1:] } // p0 keeps its initial value
		if _, err := soundCheckWith(gm, soundExact(gm, true, never)); err != nil {
			stale++
		}
		// the stand-in with every guard false: only the initial state
		// remains (the check compares the abstract program's guards
		// through the Map, so a rendering with false guards is needed)
		saved := gm.threads[0].locs
		gm.threads[0].locs = genWithGuards(saved, "false", false)
		_, err := soundCheckWith(gm, soundExact(gm, true, nil))
		gm.threads[0].locs = genWithGuards(saved, "", true)
		_, err2 := soundCheckWith(gm, soundExact(gm, true, nil))
		gm.threads[0].locs = saved
		if err != nil {
			blocked++
		}
		if err2 != nil {
			noAsserts++
		}
	}
	t.Logf("%d models; rejected: %d with a stale predicate, %d with false guards, %d without assertions", models, stale, blocked, noAsserts)
	if models < 10 || stale == 0 || blocked < models/2 || noAsserts == 0 {
		t.Errorf("the soundness check misses unsound abstractions")
	}
}

// withGuards copies locs with every guard replaced by guard (unless ""),
// and without assertions when dropAsserts.
func genWithGuards(locs [][]genTrans, guard string, dropAsserts bool) [][]genTrans {
	out := make([][]genTrans, len(locs))
	for i, ts := range locs {
		for _, tr := range ts {
			if guard != "" {
				tr.guard = guard
			}
			if dropAsserts {
				var acts []string
				for _, a := range tr.actions {
					if !strings.HasPrefix(a, "assert(") {
						acts = append(acts, a)
					}
				}
				tr.actions = acts
			}
			out[i] = append(out[i], tr)
		}
	}
	return out
}
