#!/usr/bin/env bash
# bench/pgo.sh: refresh cmd/birch/default.pgo, the CPU profile that `go build` uses for
# profile-guided optimization of birch (Go's -pgo=auto: inlining of hot calls and
# devirtualization along the profile's hot paths; see docs/performance.md).
#
# Usage: bench/pgo.sh
#
# Builds birch without the profile, runs `birch check` on every model under bench/models with
# BIRCH_CPUPROFILE set, and merges the profiles into cmd/birch/default.pgo. Re-run it after a
# change to the engine's hot paths (a stale profile still builds; it only optimizes less).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source "$root/bench/goamd64.sh"
go build -pgo=off -o "$tmp/birch" ./cmd/birch
for m in bench/models/*.bir; do
	name=$(basename "$m" .bir)
	BIRCH_CPUPROFILE="$tmp/$name.prof" "$tmp/birch" check "$m" >/dev/null
done
go tool pprof -proto "$tmp"/*.prof >"$tmp/merged.pgo"
mv "$tmp/merged.pgo" cmd/birch/default.pgo
echo "bench/pgo.sh: wrote cmd/birch/default.pgo ($(wc -c <cmd/birch/default.pgo) bytes)"
