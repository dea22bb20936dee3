#!/usr/bin/env python3
"""bench/svcomp-integer.py: the integer-only part of a bench/svcomp.sh run.

Usage: bench/svcomp-integer.py BIRCH DIR LOG

BIRCH is a birch binary, DIR the directory bench/svcomp.sh ran on and LOG its per-task log (LOG=
FILE). A task is *integer-only* when its program, as birch's C front end reads it, uses no memory,
floating point or threads: `birch translate --to bir` lowers it to a model without heap cells
($mem), arrays, threads or locks, or reports it unsupported only for reasons that name none of
pointers, arrays, structs, unions, floating point, memory, strings, threads or mutexes (an undefined
library function, say). A program the front end cannot read is left out. Prints the answers of
the integer-only tasks as bench/svcomp.sh does (docs/svcomp.md).
"""
import os, re, subprocess, sys

birch, root, logname = sys.argv[1], sys.argv[2], sys.argv[3]
memory = re.compile(r"pointer|array|struct|union|float|double|memory|string|thread|mutex|malloc|heap|\$mem|void \*", re.I)

def task_input(yml):
    text = open(yml, encoding="utf-8", errors="replace").read()
    m = re.search(r"input_files:\s*['\"]?([^'\"\s\]]+\.[ci])", text) or re.search(r"input_files:\s*\n\s*-\s*['\"]?([^'\"\s]+)", text)
    dm = "LP64" if re.search(r"data_model:\s*['\"]?LP64", text) else "ILP32"
    return (os.path.join(os.path.dirname(yml), m.group(1)) if m else None), dm

def integer_only(path, dm):
    try:
        p = subprocess.run([birch, "translate", "--to", "bir", "--data-model", dm, path], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None
    if p.returncode == 0:
        return not re.search(r"\$mem|\barray\b|\bstart\b|\block\(", p.stdout)
    if p.returncode == 3:
        return not memory.search(p.stdout + p.stderr)
    return None  # not readable

cols = ["correct true", "correct false", "wrong true", "wrong false", "unknown"]
rows, seen = {}, {}
for line in open(logname, encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    if len(f) < 5 or f[4] == "no expected verdict":
        continue
    rel, cat = f[0], f[4]
    yml = os.path.join(root, rel)
    if yml not in seen:
        path, dm = task_input(yml)
        seen[yml] = integer_only(path, dm) if path and os.path.exists(path) else None
    if not seen[yml]:
        continue
    folder = rel.split(os.sep)[0] if os.sep in rel else "."
    for key in (folder, "total"):
        r = rows.setdefault(key, {"tasks": 0})
        r["tasks"] += 1
        r[cat] = r.get(cat, 0) + 1
print("| folder | integer-only tasks | " + " | ".join(cols) + " |")
print("|---|---:|" + "---:|" * len(cols))
for key in sorted(k for k in rows if k != "total") + ["total"]:
    r = rows[key]
    name = f"**{key}**" if key == "total" else key
    print(f"| {name} | {r['tasks']} | " + " | ".join(str(r.get(c, 0)) for c in cols) + " |")
