#!/usr/bin/env bash
# bench/amcs/large.sh: AMCS against random depth-first search (and BFS, DFS) on models too large
# to search, whose errors are written in the model (bench/amcs/large/*.bir; each file's header
# says what its error is). docs/amcs.md, "Models too large to search", discusses a run.
#
# Usage: bench/amcs/large.sh [-time-limit D] [-max-memory M] [-seeds N] [-rounds R] [MODEL.bir...]
#   e.g. bench/amcs/large.sh                     # every model, 60 s per run
#        bench/amcs/large.sh -time-limit 20s bench/amcs/large/seqwrap.bir
#
# Builds birch once, then for each model runs `birch check --json --time-limit D --max-memory M`
# with --amcs=minonly, --amcs=maxoverlap, --amcs=minset, --amcs (the WP variant, --amcs-rounds R),
# --search=random --seed 1..N, --search=bfs and the default search (dfs), and prints one table
# per model: the verdict, the time to the verdict from the JSON (AMCS: the sum of its rounds'
# seconds; the searches: their stats' seconds) and the wall time of the process, the trail's
# length, the states stored (AMCS: the last round's abstract states, and the concrete states
# generated in all rounds) and the rounds. Time: at most models x (8 + N) x D.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

tl=60s
mem=1GB
seeds=5
rounds=50
models=()
while [[ $# -gt 0 ]]; do
	case $1 in
	-time-limit | --time-limit) tl=$2; shift 2 ;;
	-max-memory | --max-memory) mem=$2; shift 2 ;;
	-seeds | --seeds) seeds=$2; shift 2 ;;
	-rounds | --rounds) rounds=$2; shift 2 ;;
	-h | --help) sed -n '2,17p' "$0"; exit 0 ;;
	-*) echo "large.sh: unknown flag $1" >&2; exit 2 ;;
	*) models+=("$1"); shift ;;
	esac
done
if [[ ${#models[@]} -eq 0 ]]; then
	models=(bench/amcs/large/*.bir)
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/amcslarge.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
birch=$tmp/birch
go build -o "$birch" ./cmd/birch

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# birch check --json --time-limit $tl --max-memory $mem [technique] MODEL"

techniques=("--amcs=minonly" "--amcs=maxoverlap" "--amcs=minset" "--amcs --amcs-rounds $rounds")
for s in $(seq 1 "$seeds"); do
	techniques+=("--search=random --seed $s")
done
techniques+=("--search=bfs" "--search=dfs")

for model in "${models[@]}"; do
	echo
	echo "## $model"
	echo
	echo "| technique | verdict | time to verdict (s) | wall (s) | trail | states stored | rounds |"
	echo "|---|---|---|---|---|---|---|"
	for t in "${techniques[@]}"; do
		start=$(date +%s.%N)
		# shellcheck disable=SC2086 # $t is a list of flags
		"$birch" check --json --time-limit "$tl" --max-memory "$mem" $t "$model" >"$tmp/out.json" 2>"$tmp/err" || true
		end=$(date +%s.%N)
		python3 - "$t" "$start" "$end" "$tmp/out.json" "$tmp/err" <<'PY'
import json, sys
t, start, end, out, err = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
try:
    d = json.load(open(out))
except Exception:
    msg = open(err).read().strip().splitlines()
    print(f"| `{t}` | error: {msg[0] if msg else 'no output'} | | {end - start:.2f} | | | |")
    sys.exit(0)
verdict = d.get("verdict", "?")
if verdict == "fail":
    verdict += " (" + d.get("violation", {}).get("kind", "?") + ")"
elif verdict == "inconclusive":
    r = d.get("reason", "")
    why = ("time limit" if "time limit" in r else "memory limit" if "memory limit" in r else
           "predicates stable" if "stopped changing" in r else "round bound" if "round bound" in r else r[:40])
    verdict += " (" + why + ")"
st = d.get("stats", {})
a = d.get("amcs")
trail = len(d.get("trail") or []) if d.get("verdict") == "fail" else ""
if a:
    secs = sum(r.get("seconds", 0) for r in a.get("rounds", []))
    gen = sum(r.get("generated", 0) for r in a.get("rounds", []))
    states = f"{a.get('abstract_states', 0):,} abstract ({gen:,} generated)"
    rounds = len(a.get("rounds", []))
else:
    secs = st.get("seconds", 0)
    states = f"{st.get('states', 0):,}"
    rounds = ""
print(f"| `{t}` | {verdict} | {secs:.3f} | {end - start:.2f} | {trail} | {states} | {rounds} |")
PY
	done
done
echo
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
