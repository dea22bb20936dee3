#!/usr/bin/env python3
"""bench/apf/gen-locked.py N: writes models/lockedN.bir and models/lockedN.pred.

lockedN.bir is examples/predicates/lockedcounter.bir with each of the two threads adding one to the
shared int counter N times (a loop over a small range, concrete), under the lock, by reading the
counter into a local and writing the local plus one back; the main thread checks count == 2N. The
predicates say which value count has (2N + 1 of them) and which value each thread's local read
(2N each): enough for a proof in both modes. compare.sh runs them (docs/apf.md)."""
import sys

n = int(sys.argv[1])
thread = """thread {name} ()
  t : int;
  i : range 0..{n};
  loc acquire:
    when i < {n} && lockAvailable(mutex) do {{ lock(mutex); }} goto read;
    when i == {n} do {{ }} goto done;
  loc read:
    when true do {{ t := count; }} goto write;
  loc write:
    when true do {{ count := t + 1; }} goto release;
  loc release:
    when true do {{ unlock(mutex); i := i + 1; }} goto acquire;
  loc done:
end {name};
"""
model = f"""// locked{n}.bir: written by bench/apf/gen-locked.py {n} (see there). Two threads add one to a
// shared int counter {n} times each under a lock; the main thread checks that none was lost.
system Locked{n} ()
count : int;
mutex : lock;

{thread.format(name="Left", n=n)}
{thread.format(name="Right", n=n)}
main thread Main ()
  left, right : tid;
  loc begin:
    when true do {{ left := start Left(); right := start Right(); }} goto join;
  loc join:
    when threadTerminated(left) && threadTerminated(right) do {{ }} goto check;
  loc check:
    when true do {{ assert(count == {2 * n}); }} goto done;
  loc done:
end Main;

end Locked{n};
"""
preds = [f"# written by bench/apf/gen-locked.py {n}"]
preds += [f"count == {k}" for k in range(2 * n + 1)]
for name in ("Left", "Right"):
    preds += [f"[thread {name}] t == {k}" for k in range(2 * n)]
open(f"models/locked{n}.bir", "w").write(model)
open(f"models/locked{n}.pred", "w").write("\n".join(preds) + "\n")
