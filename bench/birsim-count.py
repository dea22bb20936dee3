#!/usr/bin/env python3
"""Count the reachable states of a BIR model with the reference interpreter's semantics.

Usage: python3 bench/birsim-count.py MODEL.bir

A breadth-first search that uses tools/birsim/bir.py (its parser, Model.succs and Model.key)
but, unlike bir.py's own main, stores only a 16-byte BLAKE2 digest of each state's key, keeps no
state graph and has no state cap, so that a few million states fit in about a gigabyte. It is as
slow as bir.py (a few thousand states per second), and it checks no invariants: it is meant for
confirming the state and transition counts of bench/models, independently of birch's engine.
It prints the same kind of line as bir.py, and a progress line on stderr every 200,000 states.
"""
import hashlib
import os
import sys
from collections import deque

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools", "birsim"))
import bir  # noqa: E402


def main():
    path = sys.argv[1]
    system = bir.P(bir.lex(open(path).read())).system()
    model = bir.Model(system, {})

    def digest(st):
        return hashlib.blake2b(repr(model.key(st)).encode(), digest_size=16).digest()

    s0 = model.initial()
    seen = {digest(s0)}
    queue = deque([s0])
    transitions = errors = deadlocks = limits = done = 0
    while queue:
        st = queue.popleft()
        done += 1
        if done % 200000 == 0:
            print("progress: %d expanded, %d seen" % (done, len(seen)), file=sys.stderr, flush=True)
        outs = model.succs(st)
        if not outs and any(not t["done"] for t in st["t"]):
            deadlocks += 1
        for o in outs:
            transitions += 1
            if o[0] == "err":
                errors += 1
                continue
            if o[0] == "limit":
                limits += 1
                continue
            k = digest(o[1])
            if k not in seen:
                seen.add(k)
                queue.append(o[1])
    print("%s: states=%d transitions=%d errors=%d deadlocks=%d limits=%d"
          % (path, len(seen), transitions, errors, deadlocks, limits))


if __name__ == "__main__":
    main()
