#!/usr/bin/env bash
# tools/birsim/c-examples.sh: the state and transition counts of the examples of examples/c
# that carry a `// states[ with FLAGS]: S, transitions: T` line, derived by the reference
# interpreter (bir.py) on the model each is lowered to (birch translate --to bir [FLAGS]),
# independently of birch's engine. Prints one line per count: the example's line as the
# interpreter gives it, and whether the file agrees. Usage: tools/birsim/c-examples.sh
# (from the repository's root; needs go and python3).
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/birch" ./cmd/birch
for f in examples/c/*.c; do
	{ grep -E '^// states( with [^:]+)?: ' "$f" || true; } | while IFS= read -r line; do
		flags=$(sed -nE 's|^// states with ([^:]+):.*|\1|p' <<<"$line")
		# shellcheck disable=SC2086
		"$tmp/birch" translate --to bir $flags "$f" <"/dev/null" >"$tmp/m.bir"
		out=$(python3 tools/birsim/bir.py "$tmp/m.bir" </dev/null)
		s=$(sed -nE 's/.* states=([0-9]+) transitions=([0-9]+) .*/\1, transitions: \2/p' <<<"$out")
		want="// states${flags:+ with $flags}: $s"
		if [ "$want" = "$line" ]; then agree=agrees; else agree="DIFFERS (the file says: $line)"; fi
		echo "$f: $want  $agree"
	done
done
