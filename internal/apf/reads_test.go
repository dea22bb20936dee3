package apf

import "testing"

// An invariant or a model predicate that names a predicate reading
// abstracted data reads abstracted data (through the name, as the model's
// evaluator does): verify must not check it on P′, whose abstracted slots
// hold their defaults.
func TestReadsThroughPredicateNames(t *testing.T) {
	model := `system S ()
g : int;
main thread M ()
  n : int;
  loc s0:
end M;
predicates
  low = g < 2;
  alsoLow = low;
  remote = (M : n) > 2;
properties
  invariant inv: low;
  invariant inv2: !alsoLow || alsoLow;
  invariant inv3: !remote;
end S;
`
	p := instrumentSource(t, "model.bir", model, "g > 0\n")
	for _, pr := range p.Prog.Predicates {
		if !p.Reads(pr.Decl.Expr) {
			t.Errorf("predicate %s: Reads false, want true", pr.Name())
		}
	}
	for _, pr := range p.Prog.Properties {
		if !p.Reads(pr.Decl.Expr) {
			t.Errorf("property %s: Reads false, want true", pr.Name())
		}
	}
}
