#!/usr/bin/env bash
# bench/amcs/run.sh: the experiment of Kudra's thesis (Chapter 5) on birch, in one command.
#
# Usage: bench/amcs/run.sh [-out DIR] [EXPERIMENT-FLAGS...] [MODEL.bir...]
#   e.g. bench/amcs/run.sh                      # every model, 3 runs, 10 s per run
#        bench/amcs/run.sh -quick               # smoke test: 2 models, 2 s, 1 run
#        bench/amcs/run.sh -time 5s -runs 2 -out /tmp/amcs
#        bench/amcs/run.sh -techniques MinOnly,RandDFS bench/amcs/models/hyman.bir
#
# Builds bench/amcs/experiment (for the machine's GOAMD64 level, bench/goamd64.sh) and runs it on
# the models given, or on bench/amcs/models/*.bir: the seven in the row order of the thesis's
# Tables 5.1-5.5 first, then the other families. For each model it injects 40 errors at random
# reachable states (seeded), runs AMCS, RandDFS, AMCSNoTP, MinOnly, MaxOverlap, AddAll and MinSet
# under the time bound, and prints the thesis's tables (normalized wins on time, states, error
# depth, predicates; the fraction of errors found; the error-free AMCS search of Table 2.1) on
# stdout, with progress on stderr. It writes DIR/tables.md (the tables, with the thesis's beside
# them) and DIR/observations.tsv (every observation); DIR defaults to a new directory under
# ${TMPDIR:-/tmp}. `go run ./bench/amcs/experiment -h` lists the flags; docs/amcs.md ("The experiment")
# explains the scoring and discusses the results.
#
# Time: about models x (7 techniques x runs + 1) x the time bound at most (a run ends earlier when
# its search completes or every error is found).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

out=""
args=()
models=()
while [[ $# -gt 0 ]]; do
	case $1 in
	-out | --out)
		out=$2
		shift 2
		;;
	-out=* | --out=*)
		out=${1#*=}
		shift
		;;
	-time | --time | -time21 | --time21 | -runs | --runs | -errors | --errors | -seed | --seed | -techniques | --techniques | -max-memory | --max-memory | -enum-states | --enum-states)
		args+=("$1" "$2")
		shift 2
		;;
	-*)
		args+=("$1")
		shift
		;;
	*)
		models+=("$1")
		shift
		;;
	esac
done

if [[ ${#models[@]} -eq 0 ]]; then
	for n in branches sumtonbig custworkers multiplyton hyman diningphil barbershop \
		fibonacci factorial handshake stack sumton; do
		if [[ -f bench/amcs/models/$n.bir ]]; then
			models+=("bench/amcs/models/$n.bir")
		fi
	done
	for m in bench/amcs/models/*.bir; do
		[[ -f $m ]] || continue
		case " ${models[*]} " in
		*" $m "*) ;;
		*) models+=("$m") ;;
		esac
	done
fi
if [[ ${#models[@]} -eq 0 ]]; then
	echo "bench/amcs/run.sh: no models (bench/amcs/models/*.bir)" >&2
	exit 2
fi
if [[ -z $out ]]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/birch-amcs-$(date -u +%Y%m%dT%H%M%SZ)-XXXX")
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$root/bench/goamd64.sh"
go build -o "$tmp/experiment" ./bench/amcs/experiment
{
	echo "bench/amcs/run.sh ${args[*]}, birch $(git rev-parse --short HEAD 2>/dev/null || echo '?'), GOAMD64=${GOAMD64:-v1}, $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC')"
} >&2
"$tmp/experiment" -out "$out" "${args[@]}" "${models[@]}"
