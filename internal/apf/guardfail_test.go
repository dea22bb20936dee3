package apf

import "testing"

// A guard that may fail on abstracted data fails in Begin (the runtime's
// choice between the failure and the guard decided without it); the
// model must not then run the transformation's actions, whose blocking
// (here a lock another thread holds) took the failure away: the concrete
// model fails in the guard, whatever the actions would do.
func TestRuntimeGuardFailureBeforeBlockingAction(t *testing.T) {
	run := runE2E(t, e2eCase{name: "gblock", src: `system GuardBlock ()
a : array [2] of int;
i : int;
took : boolean;
m : lock;
thread H ()
  loc h0:
    when true do { lock(m); took := true; } goto h1;
  loc h1:
end H;
main thread Main ()
  loc s0:
    when true do { start H(); } goto s1;
  loc s1:
    when took do { i := externChoose(0 .. 2); } goto s2;
  loc s2:
    when a[i] >= 0 do { lock(m); } goto s3;
  loc s3:
end Main;
end GuardBlock;
`, preds: "i >= 0\n"})
	if !run.apf.errs["index-out-of-bounds"] {
		t.Errorf("errors %v, want an index out of bounds", run.apf.errs)
	}
}

// When Begin decides that a guard the runtime took (it may fail) is false
// on the alternative without the failure, the run has no outcome: the
// model does not run its actions, whose concrete failure (an assertion
// here) would otherwise be a spurious error.
func TestRuntimeBeginBlocksBeforeActions(t *testing.T) {
	run := runE2E(t, e2eCase{name: "bblock", src: `system BeginBlock ()
a : array [2] of int;
i : int;
main thread Main ()
  loc s0:
    when true do { i := externChoose(0 .. 2); } goto s1;
  loc s1:
    when a[i] > 0 do { assert(false); } goto s2;
  loc s2:
end Main;
end BeginBlock;
`, preds: "a[0] > 0\na[1] > 0\n"})
	if !run.apf.errs["index-out-of-bounds"] || run.apf.errs["assertion"] {
		t.Errorf("errors %v, want an index out of bounds and no assertion", run.apf.errs)
	}
}
