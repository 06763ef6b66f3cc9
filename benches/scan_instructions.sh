#!/usr/bin/env bash
# Instructions a whole scan executes (`air-scan --jobs 1 --format json`:
# reading, analyses, rules, JSON written to /dev/null), counted by callgrind,
# for one or more binaries on the same files: how two commits compare on the
# whole pipeline, which wall time on a shared machine cannot tell. Each
# binary's JSON is also checked to be byte-identical to the first's.
#
#   benches/scan_instructions.sh FILE.ll [FILE.ll ...]            # target/release/air-scan
#   BINARIES="old/air-scan new/air-scan" benches/scan_instructions.sh FILE.ll
#
# Needs valgrind. A run costs about 50x the scan's wall time: use inputs of
# 10-15 MB (benches/make_large_module.py --size-mb 12). Builds differ by
# about 1% from codegen-unit partitioning alone: compare several builds, or
# differences well above that.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: $0 FILE.ll..." >&2; exit 2; }
read -r -a binaries <<< "${BINARIES:-target/release/air-scan}"
for b in "${binaries[@]}"; do
  [ -x "$b" ] || { echo "not an executable: $b (cargo build --release?)" >&2; exit 1; }
done
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "| input | MB | binary | instructions | per byte | JSON same as the first |"
echo "|---|---:|---|---:|---:|---|"
for file in "$@"; do
  [ -f "$file" ] || { echo "no such file: $file" >&2; exit 1; }
  bytes=$(stat -c %s "$file")
  k=0
  for b in "${binaries[@]}"; do
    refs=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$b" --jobs 1 --format json "$file" \
      2>"$work/err" >"$work/out.$k" || true; sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/err")
    [ -n "$refs" ] || { echo "callgrind gave no count for $b on $file:" >&2; cat "$work/err" >&2; exit 1; }
    same=yes
    [ "$k" -eq 0 ] || cmp -s "$work/out.0" "$work/out.$k" || same=NO
    awk -v f="$(basename "$file")" -v b="$bytes" -v n="$b" -v r="$refs" -v s="$same" 'BEGIN {
      printf "| %s | %.1f | %s | %.1f M | %.1f | %s |\n", f, b/1e6, n, r/1e6, r/b, s }'
    k=$((k + 1))
  done
done
