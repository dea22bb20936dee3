package lia

import (
	"math/rand"
	"testing"
)

// checkFarkas verifies a proof: the bounds, times their coefficients and
// with slack variables expanded, sum to 0 <= k with k < 0.
func checkFarkas(t *testing.T, s *Simplex, proof []Farkas) {
	t.Helper()
	if len(proof) == 0 {
		t.Fatal("no Farkas proof after Unsat")
	}
	sum := map[Var]Q{}
	var k Q
	for _, f := range proof {
		if f.C.Sign() <= 0 {
			t.Fatalf("coefficient %v is not positive", f.C)
		}
		c := f.C
		if !f.Upper {
			c = c.Neg() // -V <= -Bound
		}
		k = k.Add(c.Mul(f.Bound))
		terms := s.Def(f.V)
		if terms == nil {
			terms = []Term{{V: f.V, C: Int(1)}}
		}
		for _, tm := range terms {
			sum[tm.V] = sum[tm.V].Add(c.Mul(tm.C))
		}
	}
	for v, c := range sum {
		if !c.IsZero() {
			t.Fatalf("variable %d keeps coefficient %v in the sum of %v", v, c, proof)
		}
	}
	if k.Sign() >= 0 {
		t.Fatalf("the sum is 0 <= %v, not a contradiction (%v)", k, proof)
	}
}

func TestFarkasProofSmall(t *testing.T) {
	// x - y <= -1, y - z <= -1, z - x <= 0: infeasible, with coefficients 1, 1, 1
	s := Simplex{Proofs: true}
	x, y, z := s.NewVar(true), s.NewVar(true), s.NewVar(true)
	a := s.AddRow([]Term{{V: x, C: Int(1)}, {V: y, C: Int(-1)}})
	b := s.AddRow([]Term{{V: y, C: Int(1)}, {V: z, C: Int(-1)}})
	c := s.AddRow([]Term{{V: z, C: Int(1)}, {V: x, C: Int(-1)}})
	s.AssertUpper(a, Int(-1), 0)
	s.AssertUpper(b, Int(-1), 1)
	s.AssertUpper(c, Int(0), 2)
	if s.Check() != Unsat {
		t.Fatal("want unsat")
	}
	checkFarkas(t, &s, s.FarkasProof())
	// a conflict of two bounds of one variable
	s2 := Simplex{Proofs: true}
	v := s2.NewVar(true)
	s2.AssertLower(v, Int(3), 0)
	if s2.AssertUpper(v, Int(2), 1) {
		t.Fatal("want a conflict")
	}
	checkFarkas(t, &s2, s2.FarkasProof())
}

// TestFarkasProofRandom: every rational conflict of random systems comes
// with a proof that checks.
func TestFarkasProofRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	unsat := 0
	for iter := 0; iter < 400; iter++ {
		s := Simplex{Proofs: true}
		n := 2 + rng.Intn(3)
		vars := make([]Var, n)
		for i := range vars {
			vars[i] = s.NewVar(false)
		}
		ok := true
		for r := 0; r < 2+rng.Intn(5) && ok; r++ {
			var terms []Term
			for _, v := range vars {
				if c := rng.Intn(7) - 3; c != 0 {
					terms = append(terms, Term{V: v, C: Int(int64(c))})
				}
			}
			if len(terms) == 0 {
				continue
			}
			row := s.AddRow(terms)
			k := Int(int64(rng.Intn(11) - 5))
			if rng.Intn(2) == 0 {
				ok = s.AssertUpper(row, k, int32(2*r))
			} else {
				ok = s.AssertLower(row, k, int32(2*r+1))
			}
		}
		if ok && s.Check() != Unsat {
			continue
		}
		unsat++
		checkFarkas(t, &s, s.FarkasProof())
	}
	if unsat < 20 {
		t.Fatalf("only %d unsatisfiable systems: the test checks too little", unsat)
	}
}

// Without Proofs, a conflict records no proof.
func TestFarkasProofOff(t *testing.T) {
	var s Simplex
	v := s.NewVar(true)
	s.AssertLower(v, Int(3), 0)
	if s.AssertUpper(v, Int(2), 1) || len(s.FarkasProof()) != 0 {
		t.Fatalf("conflict with proof %v", s.FarkasProof())
	}
}
