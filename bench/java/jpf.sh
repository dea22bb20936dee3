#!/usr/bin/env bash
# bench/java/jpf.sh: birch check on Java PathFinder's own examples (jpf-core's src/examples),
# kept outside this repository. Each example is compiled by itself with javac -g into a
# directory of its own (birch's stubs of gov.nasa.jpf.vm.Verify and Verifier,
# internal/frontend/java/stubs, on javac's source path), then checked with
# `birch check --time-limit TIMELIMIT DIR/Example.class`. Prints a Markdown table: the example,
# the outcome JPF's .jpf file or comments give for it (with the listener or arguments it relies
# on), birch's verdict (the violation's kind and message, or the reason of an inconclusive
# one), and the wall time of the check (javac not included).
#
# Usage: bench/java/jpf.sh JPF_CORE [TIMELIMIT]   (JPF_CORE: a checkout of
#        github.com/javapathfinder/jpf-core; TIMELIMIT in seconds, default 60)
# Environment: FLAGS="..." adds flags to every birch check (e.g. FLAGS="--max-objects 8").
# A run is given --time-limit TIMELIMIT and --max-memory 2G and is killed TIMELIMIT+10 s after
# it started. Nothing of JPF_CORE is copied into the repository or changed (a JPF_CORE that is
# not a git checkout may name its commit in a file JPF_CORE/COMMIT). Needs go, javac,
# python3. No test uses this script; its last table is in docs/java.md.
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: bench/java/jpf.sh JPF_CORE [TIMELIMIT]" >&2
	exit 2
fi
src=$(cd "$1/src/examples" && pwd)
limit=${2:-60}
cd "$(dirname "$0")/../.."
stubs=internal/frontend/java/stubs
if [ ! -d "$stubs" ]; then
	echo "bench/java/jpf.sh: $stubs is missing (birch's Verify stub)" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/birch" ./cmd/birch
echo "commit $(git rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, time limit ${limit} s, flags '${FLAGS:-}', jpf-core $(git -C "$1" rev-parse --short HEAD 2>/dev/null || cat "$1/COMMIT" 2>/dev/null || echo '(commit unknown)')" >&2
python3 - "$tmp/birch" "$src" "$stubs" "$limit" "$tmp" "${FLAGS:-}" <<'PY'
import json, os, subprocess, sys, threading, time

birch, src, stubs, limit, tmp = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]
flags = sys.argv[6].split()

# What JPF's own files say each example shows: its .jpf file (target.args, listener, comments)
# and the example's comments. An entry in parentheses is not written in JPF's files but read
# off the code.
EXPECTED = {
    "BoundedBuffer": "deadlock (BoundedBuffer.jpf: \"this should produce a deadlock\" with target.args = 2,4,1)",
    "Crossing": "no violation; BFS stores the trace of the 17-minute crossing (Verify.storeTraceAndTerminateIf)",
    "DiningPhil": "(deadlock: each of 6 philosophers locks its left fork, then its right)",
    "HelloWorld": "no violation (\"just like a normal VM\")",
    "NumericValueCheck": "someVariable outside 0..42 (NumericValueChecker listener)",
    "Racer": "data race on d (PreciseRaceDetector listener); (ArithmeticException when d = 0 first)",
    "Rand": "ArithmeticException for a = 0, b = 2 and a = 1, b = 1 (cg.enumerate_random)",
    "RobotManager": "(NullPointerException when the robot goes offline between the two lookups)",
    "StopWatch": "RuntimeException \"it took too long..\" on an off-nominal path (StopWatchFuzzer listener)",
    "TestExample": "no violation (a coverage report, CoverageAnalyzer listener)",
    "oldclassic": "deadlock (a missed signal: \"a wait() that happens after the corresponding notify()\")",
}

def cell(s):
    return s.replace("|", "\\|").replace("\n", " ")

def check(name):
    out = os.path.join(tmp, name)
    os.makedirs(out)
    javac = ["javac", "-g", "-nowarn", "-implicit:class", "-sourcepath", stubs, "-d", out, os.path.join(src, name + ".java")]
    p = subprocess.run(javac, capture_output=True, text=True)
    if p.returncode != 0:
        lines = p.stderr.splitlines()
        i = next((i for i, l in enumerate(lines) if "error:" in l), None)
        if i is None:
            return "javac fails: " + p.stderr.strip(), None
        what = lines[i].replace(src + "/", "")
        sym = next((l.strip() for l in lines[i + 1:i + 5] if l.strip().startswith(("symbol:", "location:"))), "")
        return "javac fails: " + what + ("; " + sym if sym else ""), None
    cmd = [birch, "check", "--json", "--time-limit", f"{limit:g}s", "--max-memory", "2G"] + flags + [os.path.join(out, name + ".class")]
    t0 = time.time()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killer = threading.Timer(limit + 10, proc.kill)
    killer.start()
    stdout, stderr = proc.communicate()
    killer.cancel()
    wall = time.time() - t0
    if proc.returncode < 0:
        return "killed after %g s" % (limit + 10), wall
    try:
        doc = json.loads(stdout)
    except ValueError:
        msg = (stderr.strip().splitlines() or ["no output"])[0]
        return "exit %d: %s" % (proc.returncode, msg.replace(out + "/", "")), wall
    verdict = doc.get("verdict", "?")
    v = doc.get("violation") or {}
    if verdict == "fail":
        what = "fail %s: %s" % (v.get("kind", "?"), v.get("message", ""))
        if v.get("pos"):
            what += " at " + os.path.basename(v["pos"])
    elif verdict == "pass":
        st = doc.get("stats") or {}
        what = "pass (%s states)" % st.get("states", "?")
    else:
        what = "%s: %s" % (verdict, doc.get("reason", ""))
    return what, wall

names = sorted((f[:-5] for f in os.listdir(src) if f.endswith(".java")), key=str.lower)
print("| example | JPF's expected outcome | birch check | time (s) |")
print("|---|---|---|---:|")
for name in names:
    what, wall = check(name)
    print("| %s | %s | %s | %s |" % (name, cell(EXPECTED.get(name, "(not documented)")), cell(what), "-" if wall is None else "%.2f" % wall), flush=True)
PY
