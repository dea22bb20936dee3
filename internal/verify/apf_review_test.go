package verify

import "testing"

// checkOnTheFlyReal checks the model src with on-the-fly predicate
// abstraction, instrumented by package apf, with the predicate file preds.
func checkOnTheFlyReal(t *testing.T, src, preds string) *Result {
	t.Helper()
	in, err := Load("m.bir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	read := func(string) ([]byte, error) { return []byte(preds), nil }
	res, err := Run(&Task{Input: in, OnTheFly: &OnTheFly{File: "m.pred", ReadFile: read}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// propertyVerdicts returns the verdict of each property of res by name.
func propertyVerdicts(res *Result) map[string]string {
	out := map[string]string{}
	for _, c := range res.Checks {
		for _, p := range c.Properties {
			v, _ := c.PropertyVerdict(p)
			out[p.Name] = v.String()
		}
	}
	return out
}

// An invariant over thread locations is checked in the state where an
// invisible run rests; on the fly the run rests there too when the guard
// that would take it on is unknown (the concrete states where it is
// false), so the violation is found, never a pass.
func TestOnTheFlyInvariantWhereAnInvisibleRunRests(t *testing.T) {
	src := `system R ()
g : boolean;
main thread A ()
  x : int;
  loc a0:
    when true do invisible { x := externChoose(0, 1); } goto a1;
  loc a1:
    when x > 0 do invisible { } goto a2;
  loc a2:
end A;
main thread B ()
  loc b0:
    when true do { g := true; } goto b1;
  loc b1:
end B;
properties
  invariant never: !(A @ a1 && g);
end R;
`
	res := checkOnTheFlyReal(t, src, "[thread B] g\n")
	if v := propertyVerdicts(res)["never"]; v == "pass" || v == "" {
		t.Errorf("invariant never: %q, want its violation (the concrete model violates it): %v", v, propertyVerdicts(res))
	}
}

// An invariant that names a model predicate over abstracted data reads
// them: it is reported as not checked, never passed on P′'s default
// slots.
func TestOnTheFlyInvariantThroughPredicateName(t *testing.T) {
	src := `system P ()
g : int;
main thread M ()
  loc s0:
    when true do { g := 5; } goto s1;
  loc s1:
end M;
predicates
  low = g < 2;
properties
  invariant stayslow: low;
end P;
`
	res := checkOnTheFlyReal(t, src, "g > 0\n")
	v := propertyVerdicts(res)["stayslow"]
	if v == "pass" || v == "" {
		t.Errorf("invariant stayslow: %q, want it not checked (it reads g through low): %v", v, propertyVerdicts(res))
	}
}
