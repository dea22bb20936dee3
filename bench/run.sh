#!/usr/bin/env bash
# bench/run.sh: run birch's explicit-state engine on the benchmark models and print a table.
#
# Usage: bench/run.sh [BIRCH-CHECK-FLAGS...]
#   e.g. bench/run.sh
#        bench/run.sh --search=bfs
#        BENCH_MODELS="counters mutex" bench/run.sh --max-memory=4G
#        BENCH_RUNS=5 bench/run.sh
#
# Builds birch once into a temporary directory, then runs
#   birch check --json FLAGS... MODEL
# for each model in bench/models/*.bir, or only for those BENCH_MODELS names (separated by
# spaces or commas; each a name under bench/models with or without ".bir", such as "mutex" or
# "small/mutex", or a path to a .bir file; shell globs expand), under /usr/bin/time, which
# records the peak resident set size and the CPU time. It prints one row per model: verdict,
# states, transitions, engine seconds, states/s, bytes/state (all from birch's JSON stats), the
# process's CPU seconds (user + system) and states per CPU second, the peak RSS of the whole
# process, and whether the state count equals the one the model's header
# expects (a `// bench: states=N transitions=M` line; "-" when the header gives none).
#
# BENCH_RUNS=N (default 1) runs every model N times, in N rounds over all the models so that a
# slow spell of a shared machine falls on all of them; each row is then the run that took the
# least CPU time, with the median states per CPU second of the N runs in a last column (on a
# machine shared with other jobs, interference only ever slows a run down).
#
# Exit status: 0 when every model passed with its expected counts, 1 otherwise.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [[ ! -x /usr/bin/time ]]; then
	echo "bench/run.sh: /usr/bin/time (GNU time) is needed to measure peak RSS" >&2
	exit 1
fi

source "$root/bench/goamd64.sh"
go build -o "$tmp/birch" ./cmd/birch
echo "birch built for GOAMD64=${GOAMD64:-v1} (bench/goamd64.sh)"

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
fi
for m in "${models[@]}"; do
	if [[ ! -f $m ]]; then
		echo "bench/run.sh: no such model: $m" >&2
		exit 1
	fi
done

# row JSON RSS_KIB MODEL STATUS: print one table row (or a header with no arguments); exits 1
# unless the model passed with its expected counts.
row() {
	python3 - "$@" <<'EOF'
import json, re, sys

fmt = "%-20s %-12s %12s %13s %9s %12s %8s %12s %10s %9s  %s"
if len(sys.argv) == 1:
    print(fmt % ("model", "verdict", "states", "transitions", "seconds", "states/s",
                 "CPU s", "states/CPU-s", "bytes/st", "RSS MiB", "expected"))
    sys.exit(0)

model, runs = sys.argv[1], sys.argv[2:]
name = re.sub(r"\.bir$", "", re.sub(r"^(\./)?bench/models/", "", model))

def cpu_of(rss_file):
    try:
        with open(rss_file) as f:
            kib, user, system = f.read().split()[-3:]
        return int(kib), float(user) + float(system)
    except (OSError, ValueError, IndexError):
        return None, None

# runs: OUT RSS STATUS triples; the row shows the one with the least CPU time
trip = [runs[i:i + 3] for i in range(0, len(runs), 3)]
timed = [(cpu_of(t[1])[1], k) for k, t in enumerate(trip)]
best = min((c, k) for c, k in timed if c is not None)[1] if any(c is not None for c, _ in timed) else 0
out, rss_file, status = trip[best]

want = {}
with open(model) as f:
    for line in f:
        m = re.match(r"\s*//\s*bench:\s*(.*)", line)
        if m:
            want = {k: int(v.replace(",", "")) for k, v in re.findall(r"(\w+)=([\d,]+)", m.group(1))}
            break

kib, cpu = cpu_of(rss_file)
rss = "-" if kib is None else "%.1f" % (kib / 1024)

def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None

doc = load(out)
if doc is None:
    print(fmt % (name, "error(%s)" % status, "-", "-", "-", "-", "-", "-", "-", rss, "-"))
    sys.exit(1)

st = doc.get("stats") or {}

def num(key, form):
    v = st.get(key)
    return "-" if v is None else form % v

verdict = doc.get("verdict", "?")
ok = verdict == "pass"
if want:
    got = {k: st.get(k) for k in want}
    bad = [k for k in want if got[k] != want[k]]
    expected = "ok" if not bad else "MISMATCH " + " ".join("%s=%s" % (k, want[k]) for k in bad)
    ok = ok and not bad
else:
    expected = "-"
# CPU time (user + system, of the whole process) is what a shared machine
# does not inflate by making the search wait for a core
cpu_s = "-" if cpu is None else "%.2f" % cpu
per_cpu = "-" if not cpu or st.get("states") is None else "%.0f" % (st["states"] / cpu)
line = fmt % (name, verdict, num("states", "%d"), num("transitions", "%d"), num("seconds", "%.2f"),
             num("states_per_second", "%.0f"), cpu_s, per_cpu, num("bytes_per_state", "%.1f"), rss, expected)
if len(trip) > 1:
    # every run must pass with the expected counts; the median rate of all
    rates = []
    for t in trip:
        d, (_, c) = load(t[0]), cpu_of(t[1])
        s = (d or {}).get("stats") or {}
        if d is None or d.get("verdict") != "pass" or any(s.get(k) != want[k] for k in want):
            ok = False
        if c and s.get("states") is not None:
            rates.append(s["states"] / c)
    rates.sort()
    med = "-" if not rates else "%.0f" % (rates[len(rates) // 2] if len(rates) % 2 else (rates[len(rates) // 2 - 1] + rates[len(rates) // 2]) / 2)
    line += "  median %s/CPU-s of %d" % (med, len(trip))
print(line)
sys.exit(0 if ok else 1)
EOF
}

runs=${BENCH_RUNS:-1}
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then
	echo "bench/run.sh: BENCH_RUNS must be a positive number, not $runs" >&2
	exit 1
fi

row
fail=0
for ((r = 0; r < runs; r++)); do
	for i in "${!models[@]}"; do
		m=${models[$i]}
		status=0
		/usr/bin/time -f '%M %U %S' -o "$tmp/rss.$i.$r" "$tmp/birch" check --json "$@" "$m" >"$tmp/out.$i.$r" 2>"$tmp/err" || status=$?
		echo "$status" >"$tmp/status.$i.$r"
		if [[ $status -eq 2 ]]; then
			head -n 3 "$tmp/err" | sed 's/^/    /' >&2
		fi
		rm -f "$tmp/err"
	done
done
for i in "${!models[@]}"; do
	args=()
	for ((r = 0; r < runs; r++)); do
		args+=("$tmp/out.$i.$r" "$tmp/rss.$i.$r" "$(cat "$tmp/status.$i.$r")")
	done
	row "${models[$i]}" "${args[@]}" || fail=1
done
exit $fail
