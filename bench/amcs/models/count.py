#!/usr/bin/env python3
"""bench/amcs/models/count.py: the numbers of reachable states and transitions of some of the AMCS
model families, counted from their structure, independently of birch (its engine, its parser and
its translation to Promela) and of tools/birsim/bir.py.

    python3 bench/amcs/models/count.py

prints, for each model it knows, the counts birch check --search=bfs must report. The constants
below are those at the top of the models; bench/amcs/models/README.md records the results.

How the states are counted. In every model here each thread's local state (location and locals)
determines its contribution to the shared data, so a global state is the tuple of the threads'
local states plus Main's location; the lock is held exactly by a thread in a locked section, so
the tuples with two threads in their locked sections are not reachable, and every other tuple
is (the threads run independently outside the lock). Fibonacci's shared i and j depend on the
order of the steps of A and B, so their reachable combinations are enumerated.

States: 1 (Main before it starts the threads) + the tuples with Main joining + 1 (Main done, every
thread stopped). Transitions: Main's start step, each tuple's enabled steps (one per thread that
can move; a thread waiting for the lock cannot), and Main's join step from the tuple where every
thread stopped.
"""
import itertools


def locked_threads(threads):
    """threads: per thread, its local states in classes: name -> (how many local states, steps
    of each when the lock is free, steps of each when another thread holds it, 1 if these states
    hold the lock). Returns (states, transitions)."""
    states, trans = 1, 1  # Main before the start step; the start step
    for combo in itertools.product(*[list(t.items()) for t in threads]):
        held = sum(c[1][3] for c in combo)
        if held > 1:
            continue  # two threads in the locked section
        mult, steps = 1, 0
        for _, (m, free, taken, holds) in combo:
            mult *= m
            steps += free if held == 0 or holds else taken
        if all(name == "stop" for name, _ in combo):
            steps += 1  # Main's join
        states += mult
        trans += mult * steps
    return states + 1, trans  # + Main done


def adder(n):
    """SumToN's Adder and MultiplyToN's Multiplier: loop (i = 0..n; i < n steps to acquire, i == n
    to finish), acquire (i = 1..n, waits for the lock), release (i = 1..n, holds it), finish, stop."""
    return {
        "loop": (n + 1, 1, 1, 0),
        "acquire": (n, 1, 0, 0),
        "release": (n, 1, 1, 1),
        "finish": (1, 1, 1, 0),
        "stop": (1, 0, 0, 0),
    }


def fact(n):
    """Factorial's Fact(n): loop with i < n (n states, one step), loop with i == n (waits for the
    lock), add, count and release (hold it), stop."""
    return {
        "loop": (n, 1, 1, 0),
        "take": (1, 1, 0, 0),
        "locked": (3, 1, 1, 1),
        "stop": (1, 0, 0, 0),
    }


def fibonacci(n):
    """A and B (n steps each, then a step to stop) change the shared i and j; the reachable
    (A, B, i, j) are enumerated. C runs on its own: loop k = 0..2n+1, more, stop (2n + 4 local
    states, each but stop with one step)."""
    start = (0, False, 0, False, 1, 1)

    def succ(s):
        ka, sa, kb, sb, i, j = s
        out = []
        if not sa:
            out.append((ka + 1, sa, kb, sb, i + j, j) if ka < n else (ka, True, kb, sb, i, j))
        if not sb:
            out.append((ka, sa, kb + 1, sb, i, j + i) if kb < n else (ka, sa, kb, True, i, j))
        return out

    seen, todo = {start}, [start]
    while todo:
        for t in succ(todo.pop()):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    ab = len(seen)
    ab_steps = sum(len(succ(s)) for s in seen)
    done = sum(1 for s in seen if s[1] and s[3])  # A and B stopped
    c = 2 * n + 4
    states = 1 + ab * c + done
    trans = 1 + ab_steps * c + ab * (c - 1) + done  # + Main's join from each all-stopped tuple
    return states, trans


MODELS = [
    ("sumton.bir (N = 32)", lambda: locked_threads([adder(32)] * 3)),
    ("sumtonbig.bir (N = 290)", lambda: locked_threads([adder(290)] * 2)),
    ("multiplyton.bir (N = 32)", lambda: locked_threads([adder(32)] * 3)),
    ("factorial.bir (K = 12)", lambda: locked_threads([fact(n) for n in (12, 11, 10, 9, 8)])),
    ("fibonacci.bir (N = 7)", lambda: fibonacci(7)),
    ("examples/amcs/sumton.bir (N = 4)", lambda: locked_threads([adder(4)] * 2)),
    ("examples/amcs/fibonacci.bir (N = 2)", lambda: fibonacci(2)),
]

if __name__ == "__main__":
    for name, f in MODELS:
        s, t = f()
        print(f"{name}: states={s} transitions={t}")
