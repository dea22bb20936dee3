#!/usr/bin/env bash
# bench/svcomp.sh: birch check --task on every reachability task under DIR (each task file
# whose properties include unreach-call or unreach-label), with a time limit per task; compares
# the answer with the task's expected_verdict and prints, by folder (DIR's first level) and in
# total: correct true, correct false, wrong true, wrong false, unknown, and CPU time.
#
# Usage: bench/svcomp.sh DIR [TIMELIMIT]   (TIMELIMIT in seconds, default 10)
# Environment: JOBS=N runs N tasks at a time (default 1); MEMORY=SIZE is each run's --max-memory
# (default 2G); LOG=FILE keeps one line per task (default: a new file under /tmp); PROPS="..."
# the properties to run, by base name (default "unreach-call unreach-label"; e.g. no-overflow).
# A run is given --time-limit TIMELIMIT and killed TIMELIMIT+10 s after it started (an answer
# of unknown). The task files stay where they are: nothing of DIR is copied. Needs go, python3.
# See docs/svcomp.md.
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: bench/svcomp.sh DIR [TIMELIMIT]" >&2
	exit 2
fi
dir=$(cd "$1" && pwd)
limit=${2:-10}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/birch" ./cmd/birch
log=${LOG:-/tmp/svcomp-$(date -u +%Y%m%dT%H%M%S).log}
echo "commit $(git rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%MZ), time limit ${limit} s, $(nproc) cores, JOBS=${JOBS:-1}; per-task log: $log" >&2
python3 - "$tmp/birch" "$dir" "$limit" "${JOBS:-1}" "${MEMORY:-2G}" "$log" "${PROPS:-unreach-call unreach-label}" <<'PY'
import concurrent.futures, os, re, subprocess, sys, threading, time

birch, root, limit, jobs, memory, logname = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
wanted = sys.argv[7].split()

def props(path):
    """The reachability properties of a task file and their expected verdicts."""
    out, cur = [], None
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.search(r"property_file:\s*['\"]?([^'\"\s]+)", line)
        if m:
            cur = os.path.basename(m.group(1))
            cur = cur[:-4] if cur.endswith(".prp") else cur
            out.append([cur, ""])
            continue
        m = re.search(r"expected_verdict:\s*['\"]?(true|false)", line)
        if m and out:
            out[-1][1] = m.group(1)
    return [(p, e) for p, e in out if p in wanted]

tasks = []
for d, _, files in os.walk(root):
    for f in sorted(files):
        if f.endswith(".yml"):
            path = os.path.join(d, f)
            for p, e in props(path):
                tasks.append((path, p, e))
tasks.sort()

def run(task):
    path, prop, expected = task
    cmd = [birch, "check", "--task", path, "--task-property", prop, "--time-limit", f"{limit:g}s", "--max-memory", memory]
    t0 = time.time()
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        return task, "unknown", 0.0, 0.0, f"could not run: {e}"
    killer = threading.Timer(limit + 10, p.kill)
    killer.start()
    got = {}
    readers = [threading.Thread(target=lambda k, f: got.__setitem__(k, f.read()), args=(k, f)) for k, f in (("out", p.stdout), ("err", p.stderr))]
    for r in readers:
        r.start()
    # wait4: the run's own CPU time, whatever else runs at the same time
    _, status, ru = os.wait4(p.pid, 0)
    killer.cancel()
    for r in readers:
        r.join()
    p.returncode = os.waitstatus_to_exitcode(status)
    killed = os.WIFSIGNALED(status)
    out = got.get("out", b"").decode(errors="replace")
    err = got.get("err", b"").decode(errors="replace")
    lines = out.splitlines()
    answer = lines[0] if lines and lines[0] in ("true", "false", "unknown") and not killed else "unknown"
    if killed:
        why = "killed at the time limit"
    elif len(lines) > 1:
        why = lines[1]
    else:
        why = (err.strip().splitlines() or ["no output"])[0]
    return task, answer, time.time() - t0, ru.ru_utime + ru.ru_stime, why

rows, start = {}, time.time()
log = open(logname, "w")
with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
    for (path, prop, expected), answer, wall, cpu, why in ex.map(run, tasks):
        rel = os.path.relpath(path, root)
        folder = rel.split(os.sep)[0] if os.sep in rel else "."
        if answer == "unknown":
            cat = "unknown"
        elif expected == "":
            cat = "no expected verdict"
        elif answer == expected:
            cat = "correct " + answer
        else:
            cat = "wrong " + answer
        for key in (folder, "total"):
            r = rows.setdefault(key, {"tasks": 0, "cpu": 0.0})
            r["tasks"] += 1
            r[cat] = r.get(cat, 0) + 1
            r["cpu"] += cpu
        log.write(f"{rel}\t{prop}\texpected {expected or '-'}\t{answer}\t{cat}\t{cpu:.2f} s CPU\t{wall:.2f} s\t{why}\n")
        log.flush()
        if cat.startswith("wrong"):
            print(f"WRONG: {rel} ({prop}): {answer}, expected {expected}: {why}", file=sys.stderr)
cols = ["correct true", "correct false", "wrong true", "wrong false", "unknown"]
print("| folder | tasks | " + " | ".join(cols) + " | CPU time (s) |")
print("|---|---:|" + "---:|" * len(cols) + "---:|")
for key in sorted(k for k in rows if k != "total") + ["total"]:
    r = rows[key]
    name = f"**{key}**" if key == "total" else key
    print(f"| {name} | {r['tasks']} | " + " | ".join(str(r.get(c, 0)) for c in cols) + f" | {r['cpu']:.0f} |")
print(f"\nwall-clock time: {time.time() - start:.0f} s")
if rows.get("total", {}).get("no expected verdict"):
    print(f"tasks without an expected verdict: {rows['total']['no expected verdict']}")
PY
