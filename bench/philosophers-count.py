#!/usr/bin/env python3
"""Count the reachable states and transitions of bench/models/philosophers.bir for N philosophers.

Usage: python3 bench/philosophers-count.py N...

Apart from the initial state (Main before its start step, one transition), a state is an
assignment of a phase to every philosopher -- think, hungry, one (holds its first fork), eat
(holds both forks) -- in which no fork is held twice; lock owners and eating[] follow from the
phases. Every such assignment is reachable from the all-thinking state (take the forks of the
target assignment one philosopher at a time), so the reachable states are exactly these
assignments. In a state, a thinking or eating philosopher has one enabled step, a hungry one has
one if its first fork is free, and one holding a fork has one if its second fork is free.
"""
import sys


def count(n):
    def forks(i):  # (first, second): the lower-numbered fork first
        return (i, i + 1) if i < n - 1 else (0, n - 1)

    held = [False] * n
    phase = [0] * n
    states = transitions = 0

    def rec(i):
        nonlocal states, transitions
        if i == n:
            states += 1
            for j in range(n):
                first, second = forks(j)
                p = phase[j]
                if p in (0, 3) or (p == 1 and not held[first]) or (p == 2 and not held[second]):
                    transitions += 1
            return
        first, second = forks(i)
        for p, takes in ((0, ()), (1, ()), (2, (first,)), (3, (first, second))):
            if any(held[f] for f in takes):
                continue
            for f in takes:
                held[f] = True
            phase[i] = p
            rec(i + 1)
            for f in takes:
                held[f] = False

    rec(0)
    return states + 1, transitions + 1  # the initial state and Main's start step


if __name__ == "__main__":
    for arg in sys.argv[1:] or ["11"]:
        s, t = count(int(arg))
        print("N=%s states=%d transitions=%d" % (arg, s, t))
