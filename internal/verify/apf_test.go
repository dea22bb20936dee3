package verify

import (
	"fmt"
	"strings"
	"testing"

	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/source"
)

// The tests of the check with on-the-fly predicate abstraction hold its
// plumbing to what it must do with an instrumented model given by hand
// (fakeOnTheFly: a BIR text with the transformations of the model as
// written, at the same positions, compiled without native code): the
// pass that rests on the abstraction, the violation confirmed on the
// model as written, the spurious one that names its step, the properties
// it does not check, and what it refuses. The real instrumentation is
// held to the examples of examples/apf (apf_examples_test.go).

// ticket: two threads take a ticket each from a shared int counter; Main
// waits for both and checks the counter. COND is the assertion.
const ticketModel = `system Ticket ()
  next : int;
  thread T ()
    mine : int;
    loc take: when true do { mine := next; next := next + 1; } goto done;
    loc done:
  end T;
  main thread Main ()
    a, b : tid;
    loc s0: when true do { a := start T(); b := start T(); } goto s1;
    loc s1: when threadTerminated(a) && threadTerminated(b) do { } goto s2;
    loc s2: when true do { assert(COND); } goto s3;
    loc s3:
  end Main;
properties
  invariant small: next <= 2;
  invariant started: Main @ s0 || Main @ s1 || Main @ s2 || Main @ s3;
  ltl eventually: <> (next == 2);
end Ticket;
`

// fakeOnTheFly instruments any model as the program src: its
// predicates are the lines of the predicate file, an expression reads
// abstracted data when it reads an int variable, and the stats count the
// calls of stats.
func fakeOnTheFly(t *testing.T, src string, unsupported error) func(*Task, []byte) (*otfModel, error) {
	return func(task *Task, preds []byte) (*otfModel, error) {
		in, err := Load(task.Input.Name, []byte(src))
		if err != nil {
			t.Fatalf("the instrumented model: %v", err)
		}
		o := &otfModel{prog: in.Prog, unsupported: unsupported}
		for _, l := range strings.Split(strings.TrimSpace(string(preds)), "\n") {
			o.preds = append(o.preds, strings.TrimSpace(l))
		}
		if unsupported != nil {
			return o, nil
		}
		if o.m, err = model.New(in.Prog, task.Model); err != nil {
			t.Fatalf("the instrumented model: %v", err)
		}
		o.abstracted = []string{"next", "T.mine"}
		o.reads = func(e ast.Expr) bool {
			found := false
			ast.Inspect(e, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if v, ok := in.Prog.Info.Uses[id].(*types.Var); ok && v.Type() == types.Typ[types.Int] {
						found = true
					}
				}
				return !found
			})
			return found
		}
		calls := 0
		o.stats = func() OnTheFlyStats { calls++; return OnTheFlyStats{Queries: calls} }
		o.close = func() {}
		return o, nil
	}
}

// checkOnTheFly checks the model src with the instrumented model
// instrumented and the predicate file preds.
func checkOnTheFly(t *testing.T, src, instrumented, preds string, unsupported error) *Result {
	t.Helper()
	in, err := Load("ticket.bir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	read := func(string) ([]byte, error) { return []byte(preds), nil }
	task := &Task{Input: in, OnTheFly: &OnTheFly{File: "ticket.pred", ReadFile: read, instrument: fakeOnTheFly(t, instrumented, unsupported)}}
	res, err := Run(task)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func ticket(cond string) string { return strings.Replace(ticketModel, "COND", cond, 1) }

func checkTitled(t *testing.T, res *Result, title string) *Check {
	t.Helper()
	for _, c := range res.Checks {
		for _, p := range c.Properties {
			if p.Title == title {
				return c
			}
		}
	}
	t.Fatalf("no check of %q in %v", title, res.Checks)
	return nil
}

const safetyTitle = "safety (assertions, runtime errors; deadlocks not checked)"

func TestOnTheFlyPass(t *testing.T) {
	res := checkOnTheFly(t, ticket("next == 2"), ticket("next == 2"), "next == 2\n[thread T] mine == 0", nil)
	c := checkTitled(t, res, safetyTitle)
	if c.Verdict() != Pass || !strings.Contains(c.Reason, "proven with on-the-fly predicate abstraction (2 predicates of ticket.pred)") {
		t.Fatalf("%v: %s", c.Verdict(), c.Reason)
	}
	if !c.RestsOn.Has(Abstracted) || !strings.Contains(c.RestsOn.String(), "a pass is a proof") {
		t.Errorf("rests on %s", c.RestsOn)
	}
	if c.OnTheFly == nil || len(c.OnTheFly.Predicates) != 2 || c.OnTheFly.Stats.Queries == 0 || c.OnTheFly.File != "ticket.pred" {
		t.Errorf("info %+v", c.OnTheFly)
	}
	// the invariant over the concrete control is checked in the same
	// search; the one over next is reported, not checked
	if v, _ := c.PropertyVerdict(c.Properties[len(c.Properties)-1]); c.Properties[len(c.Properties)-1].Name != "started" || v != Pass {
		t.Errorf("properties %v", titles(c.Properties))
	}
	small := checkTitled(t, res, "invariant small")
	if small.Verdict() != Inconclusive || !strings.Contains(small.Reason, "not checked: the invariant reads data the predicates stand for") {
		t.Errorf("invariant small: %v: %s", small.Verdict(), small.Reason)
	}
	ltl := checkTitled(t, res, "ltl property eventually")
	if ltl.Verdict() != Inconclusive || !strings.Contains(ltl.Reason, "does not preserve ltl properties") {
		t.Errorf("ltl: %v: %s", ltl.Verdict(), ltl.Reason)
	}
	if res.Verdict() != Inconclusive {
		t.Errorf("run verdict %v, want inconclusive (properties not checked)", res.Verdict())
	}
}

// TestOnTheFlyConfirmed: the violation of the instrumented model is the
// model's: its trail replays on the model as written and the check fails
// with the concrete trail.
func TestOnTheFlyConfirmed(t *testing.T) {
	res := checkOnTheFly(t, ticket("next == 3"), ticket("next == 3"), "next == 2", nil)
	c := checkTitled(t, res, safetyTitle)
	v := c.Violation
	if c.Verdict() != Fail || v == nil || !v.Confirmation.Confirmed || v.Kind != "assertion" {
		t.Fatalf("%v: %s (%+v)", c.Verdict(), c.Reason, v)
	}
	if len(v.Trail) != 5 || v.Ordinals == nil || !c.Abstraction.ReplayConfirmed || c.Abstraction.FoundBy != "search" {
		t.Errorf("trail %v, ordinals %v, abstraction %+v", v.Trail, v.Ordinals, c.Abstraction)
	}
	if !strings.Contains(v.Pos, "ticket.bir:12:") {
		t.Errorf("at %s, want the assertion's line", v.Pos)
	}
	if c.Violated() == nil || c.Violated().Name != "safety" {
		t.Errorf("violated %v", c.Violated())
	}
}

// TestOnTheFlyNotConfirmed: a violation of the instrumented model that
// the model as written does not have (its second thread adds 2 where the
// model adds 1) is reported with the step where the two part ways.
func TestOnTheFlyNotConfirmed(t *testing.T) {
	spurious := strings.Replace(ticket("next == 2"), "loc take: when true do { mine := next; next := next + 1; }", "loc take: when true do { mine := next; next := next + 2; }", 1)
	res := checkOnTheFly(t, ticket("next == 2"), spurious, "next == 2", nil)
	c := checkTitled(t, res, safetyTitle)
	v := c.Violation
	if c.Verdict() != Inconclusive || v == nil || v.Confirmation.Confirmed {
		t.Fatalf("%v: %s (%+v)", c.Verdict(), c.Reason, v)
	}
	if !strings.Contains(c.Reason, "not confirmed on the model as written") {
		t.Errorf("reason %s", c.Reason)
	}
	d := v.Confirmation.Diverges
	if d == nil || d.Step != 5 || !strings.Contains(d.Reason, "assertion holds") {
		t.Errorf("diverges %+v, want at the assertion, step 5", d)
	}
	if len(c.Abstraction.AbstractTrail) != 5 {
		t.Errorf("abstract trail %v", c.Abstraction.AbstractTrail)
	}
}

// TestOnTheFlyUnsupported: a model the instrumentation cannot abstract
// soundly is not searched: every check is inconclusive with the reason.
func TestOnTheFlyUnsupported(t *testing.T) {
	why := source.ErrorList{{Msg: "abstracted data in a lock's path"}}
	res := checkOnTheFly(t, ticket("next == 2"), ticket("next == 2"), "next == 2", why)
	c := checkTitled(t, res, safetyTitle)
	if c.Verdict() != Inconclusive || !strings.Contains(c.Reason, "cannot check the model soundly: ") || !strings.Contains(c.Reason, "abstracted data in a lock's path") {
		t.Fatalf("%v: %s", c.Verdict(), c.Reason)
	}
	if res.Verdict() != Inconclusive {
		t.Errorf("run %v", res.Verdict())
	}
}

func TestOnTheFlyUsage(t *testing.T) {
	in, err := Load("ticket.bir", []byte(ticket("true")))
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range []*Task{
		{Input: in, OnTheFly: &OnTheFly{}},
		{Input: in, OnTheFly: &OnTheFly{File: "p"}, Predicates: &PredicateAbstraction{File: "p"}},
		{Input: in, OnTheFly: &OnTheFly{File: "p"}, AMCS: &AMCS{}},
		{Input: in, OnTheFly: &OnTheFly{File: "p", Solver: "nosuch"}},
	} {
		if _, err := Run(task); err == nil {
			t.Errorf("%+v: no usage error", task.OnTheFly)
		} else if _, ok := err.(*UsageError); !ok {
			t.Errorf("%v: not a usage error", err)
		}
	}
}

// checkReal checks the model src on the fly with the predicates preds,
// instrumented by package apf.
func checkReal(t *testing.T, src, preds string) *Result {
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

// TestOnTheFlyUnsupportedReal: what the runtime cannot do soundly makes the
// check inconclusive with the position: a lock chosen by abstracted data
// (apf.Instrument's list), and a choice of a fixed-width type among more
// values than explicit search enumerates (concrete data on the fly, which
// the model refuses: it was an error of bad input before).
func TestOnTheFlyUnsupportedReal(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`system U ()
locks : array [2] of lock;
i : int;
main thread M ()
  loc a:
    when true do { lock(locks[i]); } goto b;
  loc b:
end M;
end U;
`, "m.bir:6:25: a lock reached through abstracted data"},
		{`system U ()
i : int;
w : int32;
main thread M ()
  loc a:
    when true do { w := externChoose(int32); i := 1; } goto b;
  loc b:
end M;
end U;
`, "m.bir:6:25: w := externChoose(int32) chooses concrete data (a fixed-width type stays concrete on the fly) among 2^32 values"},
	} {
		res := checkReal(t, tc.src, "i == 0\n")
		c := checkTitled(t, res, safetyTitle)
		if c.Verdict() != Inconclusive || !strings.Contains(c.Reason, "cannot check the model soundly: "+tc.want) {
			t.Errorf("%v: %s, want %q", c.Verdict(), c.Reason, tc.want)
		}
	}
}

// TestOnTheFlyAbstractTrailWorded: the abstract trail of a violation not
// confirmed shows each predicate a step changes, in its context, as
// unknown, false or true, not the hidden variable that holds it.
func TestOnTheFlyAbstractTrailWorded(t *testing.T) {
	res := checkReal(t, `system C ()
main thread Main ()
  x : int;
  loc loop:
    when x < 10 do { x := x + 1; } goto loop;
    when x >= 10 do { assert(x == 10); } goto done;
  loc done:
end Main;
end C;
`, "[thread Main] x >= 10\n")
	c := checkTitled(t, res, safetyTitle)
	if c.Verdict() != Inconclusive || c.Abstraction == nil || len(c.Abstraction.AbstractTrail) != 2 {
		t.Fatalf("%v: %s", c.Verdict(), c.Reason)
	}
	got := fmt.Sprint(c.Abstraction.AbstractTrail[0].Changes)
	if got != "[{Main[1] [x >= 10] unknown}]" {
		t.Errorf("step 1 changes %s", got)
	}
}

// TestOnTheFlyAbstractTrailHidesAbstracted: the abstract trail of the
// on-the-fly check leaves out abstracted data (a global, a heap record's
// field, a heap array's elements, a started thread's local and parameter),
// whose slots keep their initial values whatever the predicates say: it
// printed `Rs[0].v = 0` for an object whose v is 5. Concrete data and the
// predicates are shown; the reason says which models were searched and
// replayed.
func TestOnTheFlyAbstractTrailHidesAbstracted(t *testing.T) {
	res := checkReal(t, `system S ()
R = record { v : int; };
Rs : collection [1] of R;
RRef = ref R {Rs};
IntArr = array [2] of int;
Arrs : collection [1] of IntArr;
ArrRef = ref IntArr {Arrs};
r : RRef;
a : ArrRef;
g : int;
b : boolean;

thread W (n : int)
  k : int;
  loc s:
    when true do { k := n + 1; g := k; } goto e;
  loc e:
    when true do { assert(g < 3); } goto done;
  loc done:
end W;

main thread Main ()
  loc s:
    when true do { r := new Rs; r.v := 5; a := new Arrs[2]; a[1] := 4; b := true; start W(1); } goto done;
  loc done:
end Main;
end S;
`, "[record R] this.v >= 5\ng >= 3\n[thread W] n < 10\n")
	c := checkTitled(t, res, safetyTitle)
	if c.Verdict() != Inconclusive || c.Abstraction == nil || len(c.Abstraction.AbstractTrail) == 0 {
		t.Fatalf("%v: %s", c.Verdict(), c.Reason)
	}
	var names []string
	for _, st := range c.Abstraction.AbstractTrail {
		for _, ch := range st.Changes {
			names = append(names, ch.Name+" = "+ch.Value)
		}
	}
	got := strings.Join(names, "\n")
	for _, bad := range []string{"Rs[0].v", "Arrs[0][", "W[2].n", "W[2].k", "\ng = "} {
		if strings.Contains("\n"+got, bad) {
			t.Errorf("the abstract trail shows abstracted data %q:\n%s", bad, got)
		}
	}
	for _, want := range []string{"r = Rs[0]", "a = Arrs[0]", "Arrs[0].length = 2", "b = true", "W[2] @ = s", "Rs[0] [this.v >= 5] = true", "[g >= 3] = unknown"} {
		if !strings.Contains(got, want) {
			t.Errorf("the abstract trail does not show %q:\n%s", want, got)
		}
	}
	if want := "the instrumented model has a violation (assertion) that is not confirmed on the model as written"; !strings.HasPrefix(c.Reason, want) {
		t.Errorf("reason %q, want %q", c.Reason, want)
	}
}

// TestOnTheFlySampledInputs: a violation through the heap, which the
// symbolic replay does not handle, is confirmed by the concrete replay
// with the unbounded input narrowed to the model's small values; the
// violation names the input it took (x = 10) and its trail is on the
// model given only that value (before, no input was named and the trail's
// model took every sampled value).
func TestOnTheFlySampledInputs(t *testing.T) {
	res := checkReal(t, `system H ()
R = record { v : int; };
Rs : collection [1] of R;
RRef = ref R {Rs};
main thread M ()
  r : RRef;
  x : int;
  loc s0: when true do { x := externChoose(int); r := new Rs; r.v := x; } goto s1;
  loc s1: when true do { assert(r.v != 10); } goto s2;
  loc s2:
end M;
end H;
`, "[record R] this.v == 10\n")
	c := checkTitled(t, res, safetyTitle)
	v := c.Violation
	if c.Verdict() != Fail || v == nil || !v.Confirmation.Confirmed || c.Abstraction.Replay != "sampled" {
		t.Fatalf("%v: %s (%+v)", c.Verdict(), c.Reason, v)
	}
	if len(v.Inputs) != 1 || v.Inputs[0].Value != 10 || v.Inputs[0].Step != 1 || v.Inputs[0].Action != "x := externChoose(int)" {
		t.Errorf("inputs %+v", v.Inputs)
	}
	if fmt.Sprint(v.ChoiceValues) != "[10]" {
		t.Errorf("choice values %v, want [10]", v.ChoiceValues)
	}
}

// tellers is a lost update: two tellers read an account's balance and
// withdraw from it, each when the balance it read covers its amount; with
// the one predicate balance >= 0 the first violations the search finds
// are a single teller's, which the model as written does not have.
const tellers = `system R ()
Account = record { balance : int; };
Accounts : collection [1] of Account;
AccountRef = ref Account {Accounts};
thread Teller (acc : AccountRef)
  amount, cur : int;
  loc ask: when true do { amount := externChoose(int); } goto read;
  loc read: when true do { cur := acc.balance; } goto withdraw;
  loc withdraw:
    when cur >= amount && amount > 0 do { acc.balance := acc.balance - amount; } goto leave;
    when cur < amount || amount <= 0 do { } goto leave;
  loc leave: when true do { assert(acc.balance >= 0); } goto done;
  loc done:
end Teller;
main thread Main ()
  a : AccountRef;
  loc open: when true do { a := new Accounts; a.balance := externChoose(int); assume(a.balance >= 0); } goto run;
  loc run: when true do { START } goto done;
  loc done:
end Main;
end R;
`

// TestOnTheFlySearchesOnPastUnconfirmed: a violation not confirmed does
// not end the check: the other violations are tried, so that the race of
// two tellers is found and confirmed (it was inconclusive, with a single teller's trail); with one
// teller, where every violation is spurious, the check stays inconclusive
// (never pass: the violations left out might have been real) and says it
// went on.
func TestOnTheFlySearchesOnPastUnconfirmed(t *testing.T) {
	preds := "[record Account] this.balance >= 0\n"
	c := checkTitled(t, checkReal(t, strings.Replace(tellers, "START", "start Teller(a); start Teller(a);", 1), preds), safetyTitle)
	v := c.Violation
	if c.Verdict() != Fail || v == nil || !v.Confirmation.Confirmed {
		t.Fatalf("two tellers: %v: %s", c.Verdict(), c.Reason)
	}
	if len(c.Notes) != 1 || !strings.HasPrefix(c.Notes[0], "found after ") || !strings.HasSuffix(c.Notes[0], " of the instrumented model not confirmed on the model as written") {
		t.Errorf("two tellers: notes %q", c.Notes)
	}
	if len(v.Inputs) < 3 {
		t.Errorf("two tellers: inputs %+v", v.Inputs)
	}
	c = checkTitled(t, checkReal(t, strings.Replace(tellers, "START", "start Teller(a);", 1), preds), safetyTitle)
	if c.Verdict() != Inconclusive || c.Violation == nil || c.Violation.Confirmation.Confirmed {
		t.Fatalf("one teller: %v: %s", c.Verdict(), c.Reason)
	}
	if len(c.Notes) != 1 || c.Notes[0] != "the search finds no other violation of the instrumented model" {
		t.Errorf("one teller: notes %q", c.Notes)
	}
}

// TestOnTheFlySearchesOnToInvariant: after a violation not confirmed, an
// invariant's violation, which ends the search that collects the others,
// is tried too and confirmed.
func TestOnTheFlySearchesOnToInvariant(t *testing.T) {
	res := checkReal(t, `system I ()
main thread M ()
  x : int;
  loc m0: when true do { x := x + 1; } goto m1;
  loc m1: when true do { assert(x == 1); } goto m2;
  loc m2:
end M;
main thread B ()
  loc b0: when true do { } goto b1;
  loc b1: when true do { } goto b2;
  loc b2:
end B;
properties
  invariant nob2: !(B @ b2);
end I;
`, "[thread M] x >= 2\n")
	v := propertyVerdicts(res)
	if v["nob2"] != "fail" {
		t.Errorf("invariant nob2: %q, want fail: %v", v["nob2"], v)
	}
	c := checkTitled(t, res, safetyTitle)
	if c.Verdict() != Fail || len(c.Notes) != 1 || c.Notes[0] != "found after 1 violation of the instrumented model not confirmed on the model as written" {
		t.Errorf("%v: %s %q", c.Verdict(), c.Reason, c.Notes)
	}
}
