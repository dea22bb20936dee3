#!/usr/bin/env bash
# bench/apf/compare.sh: the two predicate-abstraction modes side by side (docs/apf.md, "Side by
# side with C2bp"): for each model with its predicate file (MODEL.bir and MODEL.pred of
# examples/predicates and examples/apf), birch check --predicates MODEL.pred --engine explicit
# (C2bp: the abstract model built before the search, searched by the explicit engine) and birch
# check --on-the-fly --predicates MODEL.pred (the explicit search of the model, abstracted step by
# step). It prints one markdown table: the verdict of each mode, the states its search stored,
# the solver queries (C2bp: the abstraction's; on-the-fly: the runtime's) with the cache hits,
# and the median wall time of the process over -runs N runs (the whole check: parsing,
# abstraction, search, confirmation), each under --time-limit D (default 60s). The models of
# bench/apf/models are lockedN.bir (bench/apf/gen-locked.py N: more predicates as N grows) and
# busy.bir (many states of concrete data, few predicates).
#
# Usage: bench/apf/compare.sh [-runs N] [-time-limit D] [MODEL.bir...]   (needs go and python3)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

runs=5
tl=60s
models=()
while [[ $# -gt 0 ]]; do
	case $1 in
	-runs | --runs) runs=$2; shift 2 ;;
	-time-limit | --time-limit) tl=$2; shift 2 ;;
	-h | --help) sed -n '2,16p' "$0"; exit 0 ;;
	-*) echo "compare.sh: unknown flag $1" >&2; exit 2 ;;
	*) models+=("$1"); shift ;;
	esac
done
if [[ ${#models[@]} -eq 0 ]]; then
	models=(examples/predicates/*.bir examples/apf/*.bir bench/apf/models/*.bir)
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/birch" ./cmd/birch

echo "| model | C2bp verdict | states | queries (cache hits) | time | on-the-fly verdict | states | queries (cache hits) | time |"
echo "|---|---|---|---|---|---|---|---|---|"
for m in "${models[@]}"; do
	p=${m%.bir}.pred
	row="| $(basename "$m") "
	for mode in c2bp apf; do
		flags=(--time-limit "$tl" --predicates "$p" --engine explicit)
		[[ $mode == apf ]] && flags=(--time-limit "$tl" --on-the-fly --predicates "$p")
		: > "$tmp/times"
		for ((i = 0; i < runs; i++)); do
			start=$(date +%s.%N)
			"$tmp/birch" check --json "${flags[@]}" "$m" > "$tmp/out.json" 2> /dev/null || true
			end=$(date +%s.%N)
			echo "$start $end" >> "$tmp/times"
		done
		row+=$(python3 - "$mode" "$tmp/out.json" "$tmp/times" <<'PY'
import json, statistics, sys
mode, out, times = sys.argv[1:]
d = json.load(open(out))
c = d
if "checks" in d:
    c = next(x for x in d["checks"] if x["verdict"] == d["verdict"])
verdict = d["verdict"]
obj = c.get("predicates") if mode == "c2bp" else c.get("apf")
states, queries = "-", "-"
if obj:
    q, h = obj.get("solver_queries", 0), obj.get("cache_hits", 0)
    queries = f"{q} ({h})"
    if c.get("stats"):
        states = str(c["stats"]["states"])
walls = sorted(float(e) - float(s) for s, e in (l.split() for l in open(times)))
print(f"| {verdict} | {states} | {queries} | {statistics.median(walls):.3f} s ", end="")
PY
)
	done
	echo "$row|"
done
