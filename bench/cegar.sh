#!/usr/bin/env bash
# bench/cegar.sh: birch check --cegar on examples/cegar and examples/predicates, one table row
# per model: verdict, rounds, final predicates, solver queries (the abstractions' cache misses
# and the path formulas' decisions), cache hits, the loop's time, and the time of those queries
# with its share of the loop's (the refinement's Newton, interpolation and Choose are not in it).
#
# Usage: bench/cegar.sh [MODEL...]   (default: examples/cegar/*.bir examples/predicates/*.bir)
# A model's `// flags:` line is passed on (parity.bir: --max-refinements 3); every run has
# --max-refinements 8 --time-limit 60s before it. Needs go and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/birch" ./cmd/birch
models=("$@")
if [ ${#models[@]} -eq 0 ]; then
	models=(examples/cegar/*.bir examples/predicates/*.bir)
fi
echo "| model | verdict | rounds | predicates | solver queries | cache hits | time (s) | in the solver (s) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for f in "${models[@]}"; do
	# shellcheck disable=SC2046
	"$tmp/birch" check --cegar --max-refinements 8 --time-limit 60s $(sed -n 's|^// flags:||p' "$f") --json "$f" >"$tmp/out.json" || true
	python3 - "$f" "$tmp/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[2]))
c = d["checks"][0] if "checks" in d else d
r = c.get("cegar", {}).get("rounds", [])
q = sum(x["solver_queries"] for x in r)
h = sum(x["cache_hits"] for x in r)
s = sum(x["solver_seconds"] for x in r)
t = r[-1]["elapsed_seconds"] if r else 0
share = f" ({100 * s / t:.0f} %)" if t else ""
print(f"| {sys.argv[1]} | {d['verdict']} | {len(r)} | {r[-1]['predicates'] if r else 0} | {q} | {h} | {t:.3f} | {s:.3f}{share} |")
PY
done
