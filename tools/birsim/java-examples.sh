#!/usr/bin/env bash
# tools/birsim/java-examples.sh: the state and transition counts of the programs of
# examples/java, derived by the reference interpreter (bir.py) on the model each is lowered to
# (birch translate --to bir [FLAGS] X.java), independently of birch's engine. For every
# `// expect[ with FLAGS]: pass` line (an exhaustive search) it prints the
# `// states[ with FLAGS]: S, transitions: T` line the interpreter gives and whether the file
# has it. Usage: tools/birsim/java-examples.sh (from the repository's root; needs go, javac,
# python3).
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/birch" ./cmd/birch
for f in examples/java/*.java; do
	{ grep -E '^// expect( with [^:]+)?: pass' "$f" || true; } | while IFS= read -r line; do
		flags=$(sed -nE 's|^// expect with ([^:]+):.*|\1|p' <<<"$line")
		case "$flags" in *--abstract* | *--predicates* | *--cegar*) continue ;; esac
		# shellcheck disable=SC2086
		"$tmp/birch" translate --to bir $flags "$f" <"/dev/null" >"$tmp/m.bir"
		out=$(python3 tools/birsim/bir.py "$tmp/m.bir" </dev/null)
		s=$(sed -nE 's/.* states=([0-9]+) transitions=([0-9]+) .*/\1, transitions: \2/p' <<<"$out")
		want="// states${flags:+ with $flags}: $s"
		if grep -qxF "$want" "$f"; then agree=agrees; else agree="NOT IN THE FILE ($(grep -E '^// states' "$f" || echo 'no states line'))"; fi
		echo "$f: $want  $agree  [bir.py: $(head -1 <<<"$out")]"
	done
done
