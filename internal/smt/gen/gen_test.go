package gen

import (
	"strings"
	"testing"

	"birch/internal/smt"
)

func TestDeterministic(t *testing.T) {
	for _, fr := range Fragments {
		a := New(smt.NewTermManager(), 7, Config{Fragment: fr.F})
		b := New(smt.NewTermManager(), 7, Config{Fragment: fr.F})
		for i := 0; i < 50; i++ {
			x, y := a.Formula().String(), b.Formula().String()
			if x != y {
				t.Fatalf("%s: same seed, different formulas:\n%s\n%s", fr.Name, x, y)
			}
		}
	}
}

func TestFragments(t *testing.T) {
	for _, fr := range Fragments {
		tm := smt.NewTermManager()
		g := New(tm, 1, Config{Fragment: fr.F})
		ops := map[smt.Op]bool{}
		for i := 0; i < 300; i++ {
			f := g.Formula()
			if !f.IsBool() {
				t.Fatalf("%s: not a formula: %s", fr.Name, f)
			}
			if !smt.IsLinear(f) {
				t.Fatalf("%s: nonlinear: %s", fr.Name, f)
			}
			walk(f, ops)
		}
		check := func(f Fragment, op smt.Op) {
			if fr.F&f != 0 && !ops[op] {
				t.Errorf("%s: no %s in 300 formulas", fr.Name, op)
			}
			if fr.F&f == 0 && ops[op] && f != LIA {
				t.Errorf("%s: %s outside its fragment", fr.Name, op)
			}
		}
		check(LIA, smt.OpDiv)
		check(LIA, smt.OpMod)
		check(LIA, smt.OpDistinct)
		check(UF, smt.OpApp)
		check(Arrays, smt.OpStore)
		check(Arrays, smt.OpSelect)
	}
}

func walk(t *smt.Term, ops map[smt.Op]bool) {
	ops[t.Op()] = true
	for _, a := range t.Args() {
		walk(a, ops)
	}
}

func TestPredAbs(t *testing.T) {
	for _, cfg := range []PredAbsConfig{{}, {UF: true}, {Programs: 3, PerProgram: 10}, {UF: true, Programs: 2, PerProgram: 5}} {
		tm := smt.NewTermManager()
		a := PredAbs(tm, 1, 50, cfg)
		b := PredAbs(tm, 1, 50, cfg)
		want := 50
		if cfg.Programs > 0 {
			want = cfg.Programs * cfg.PerProgram
		}
		if len(a) != want {
			t.Fatalf("%+v: %d queries, want %d", cfg, len(a), want)
		}
		apps := 0
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%+v: query %d differs between runs with one seed", cfg, i)
			}
			cube := a[i].Cube
			if cube.Op() != smt.OpAnd || cube.NumArgs() < 2 || cube.NumArgs() > 8 {
				t.Fatalf("%+v: cube %v is not a conjunction of 2–8 atoms", cfg, cube)
			}
			if strings.Contains(a[i].Cube.String()+a[i].WP.String(), "(h ") {
				apps++
			}
		}
		if cfg.UF != (apps > 0) {
			t.Errorf("%+v: %d queries with applications", cfg, apps)
		}
	}
}
