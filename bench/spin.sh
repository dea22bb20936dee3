#!/usr/bin/env bash
# bench/spin.sh: birch and SPIN side by side on the benchmark models, in one table.
#
# Usage: bench/spin.sh [PAN FLAGS...]
#   e.g. bench/spin.sh
#        bench/spin.sh -w26                          # flags for pan (a larger hash table)
#        BENCH_MODELS="counters mutex" bench/spin.sh
#        BENCH_MODELS="bench/models/small/*.bir" bench/spin.sh
#        BENCH_EXAMPLES=0 bench/spin.sh              # only bench/models, not examples/
#
# Builds birch once into a temporary directory (removed on exit), then for each model runs
#   birch check --json MODEL                   (under /usr/bin/time, for the peak RSS)
#   birch spin --json MODEL -- PAN FLAGS       (SPIN without partial-order reduction)
#   birch spin --por --json MODEL -- PAN FLAGS (SPIN with partial-order reduction)
# and prints three rows per model:
#   verdict, states, transitions, seconds (of the search: birch's engine, or pan's own elapsed
#   time), states/s, MiB (birch: peak RSS of the process; SPIN: pan's "total actual memory
#   usage", which includes its hash table: 128 MiB at -w24), SPIN's translation time
#   (birch's translation and spin -a) and compilation time (gcc), and on the SPIN rows the
#   ratios birch/SPIN of states/s (above 1: birch is faster) and of memory (below 1: birch
#   uses less), and whether SPIN's state count equals birch's ("=": it must without
#   reduction, docs/promela.md; with reduction SPIN stores fewer).
# The models are bench/models/*.bir and examples/*.bir, or those BENCH_MODELS names (as in
# bench/run.sh: names under bench/models with or without ".bir", or paths; globs expand).
#
# Exit status: 0 when, for every model, birch and SPIN without reduction agree on the verdict
# and, for complete searches, on the number of states; 1 otherwise. Needs go, python3, GNU time
# at /usr/bin/time, spin and gcc (apt-get install spin gcc).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

for tool in spin gcc python3 go; do
	if ! command -v "$tool" >/dev/null; then
		echo "bench/spin.sh: $tool is needed (spin and gcc: apt-get install spin gcc)" >&2
		exit 1
	fi
done
if [[ ! -x /usr/bin/time ]]; then
	echo "bench/spin.sh: /usr/bin/time (GNU time) is needed to measure peak RSS" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source "$root/bench/goamd64.sh"
go build -o "$tmp/birch" ./cmd/birch

models=()
if [[ -n "${BENCH_MODELS:-}" ]]; then
	for m in ${BENCH_MODELS//,/ }; do
		if [[ $m != *.bir ]]; then
			m=$m.bir
		fi
		if [[ ! -f $m && -f bench/models/$m ]]; then
			m=bench/models/$m
		fi
		models+=("$m")
	done
else
	models=(bench/models/*.bir)
	if [[ "${BENCH_EXAMPLES:-1}" != 0 ]]; then
		models+=(examples/*.bir)
	fi
fi
for m in "${models[@]}"; do
	if [[ ! -f $m ]]; then
		echo "bench/spin.sh: no such model: $m" >&2
		exit 1
	fi
done

# table MODEL BIRCH.json RSS_KIB SPIN.json POR.json (or nothing, for the header): print the
# rows of one model; exits 1 unless birch and SPIN without reduction agree.
table() {
	python3 - "$@" <<'EOF'
import json, re, sys

fmt = "%-33s %-10s %-12s %11s %12s %8s %11s %8s %7s %7s %8s %8s %5s"
if len(sys.argv) == 1:
    print(fmt % ("model", "tool", "verdict", "states", "transitions", "seconds", "states/s",
                 "MiB", "transl", "gcc", "speed", "memory", "same"))
    print(fmt % ("", "", "", "", "", "", "", "", "s", "s", "birch/x", "birch/x", "states"))
    sys.exit(0)

model, birch_out, rss_file, spin_out, por_out = sys.argv[1:6]
name = re.sub(r"\.bir$", "", re.sub(r"^(\./)?(bench/models/)?", "", model))

def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    # a model with ltl properties is checked in several searches (runs of
    # pan): the first is the safety search, which the table compares
    if isinstance(doc, dict) and doc.get("checks"):
        return doc["checks"][0]
    return doc

try:
    with open(rss_file) as f:
        birch_mib = int(f.read().split()[-1]) / 1024
except (OSError, ValueError, IndexError):
    birch_mib = None

b, s, p = load(birch_out), load(spin_out), load(por_out)

def stats(doc):
    return (doc or {}).get("stats") or {}

def cell(v, form):
    return "-" if v is None else form % v

def row(tool, doc, mib, extra):
    st = stats(doc)
    verdict = doc.get("verdict", "?") if doc else "error"
    sp = (doc or {}).get("spin") or {}
    transl = None if not sp else sp.get("translate_seconds", 0) + sp.get("spin_seconds", 0)
    print(fmt % (name, tool, verdict, cell(st.get("states"), "%d"), cell(st.get("transitions"), "%d"),
                 cell(st.get("seconds"), "%.2f"), cell(st.get("states_per_second"), "%.0f"),
                 cell(mib, "%.1f"), cell(transl, "%.2f"), cell(sp.get("compile_seconds"), "%.2f"), *extra))

def ratios(doc):
    bs, ss = stats(b), stats(doc)
    speed = mem = None
    if bs.get("states_per_second") and ss.get("states_per_second"):
        speed = bs["states_per_second"] / ss["states_per_second"]
    smib = ss.get("memory_bytes", 0) / (1 << 20) if doc else None
    if birch_mib and smib:
        mem = birch_mib / smib
    same = "-"
    if doc and b:
        same = "=" if ss.get("states") == bs.get("states") else "≠"
    return smib, (cell(speed, "%.2f"), cell(mem, "%.2f"), same)

row("birch", b, birch_mib, ("", "", ""))
smib, extra = ratios(s)
row("spin", s, smib, extra)
pmib, extra = ratios(p)
row("spin --por", p, pmib, extra)

ok = b is not None and s is not None
if ok:
    bv, sv = b["verdict"], s["verdict"]
    # SPIN's overflow is 32-bit (docs/promela.md): it may fail where birch passes
    ok = bv == sv or (sv == "fail" and (s.get("violation") or {}).get("kind") == "overflow")
    if ok and bv == "fail":
        ok = b["violation"]["kind"] == s["violation"]["kind"]
    if ok and bv != "fail" and sv != "fail" and (b.get("complete") or bv == "inconclusive"):
        ok = stats(b).get("states") == stats(s).get("states")
sys.exit(0 if ok else 1)
EOF
}

table
fail=0
for m in "${models[@]}"; do
	/usr/bin/time -f '%M' -o "$tmp/rss" "$tmp/birch" check --json "$m" >"$tmp/birch.json" 2>"$tmp/err" || true
	"$tmp/birch" spin --json "$m" -- "$@" >"$tmp/spin.json" 2>>"$tmp/err" || true
	"$tmp/birch" spin --por --json "$m" -- "$@" >"$tmp/por.json" 2>>"$tmp/err" || true
	if ! table "$m" "$tmp/birch.json" "$tmp/rss" "$tmp/spin.json" "$tmp/por.json"; then
		fail=1
		head -n 3 "$tmp/err" | sed 's/^/    /' >&2
	fi
	rm -f "$tmp"/*.json "$tmp/rss" "$tmp/err"
done
exit $fail
