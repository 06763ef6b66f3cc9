#!/usr/bin/env bash
# Instructions executed by the reader alone and by the whole per-file
# pipeline (benches/read.rs), counted by callgrind: unlike wall time, the
# count does not move with the load of a shared machine, so it compares
# two commits, or the pipeline with the reader, on any day.
#
#   benches/instructions.sh FILE.ll [FILE.ll ...]   # a markdown table on stdout
#
# Needs valgrind. A run costs about 50x the bench's wall time: use inputs of
# 10-15 MB (benches/make_large_module.py --size-mb 12).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: $0 FILE.ll..." >&2; exit 2; }
bench=$(cargo bench --bench read --no-run 2>&1 | sed -n 's/.*Executable .*(\(.*\))$/\1/p' | tail -1)
[ -x "$bench" ] || { echo "could not build the read bench" >&2; exit 1; }

count() { # env... -- prints the instructions of one run of the bench on "$file"
  env "$@" RUNS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" "$file" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

echo "| input | MB | reader only (instructions) | per byte | whole pipeline | per byte | pipeline / reader |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for file in "$@"; do
  bytes=$(stat -c %s "$file")
  reader=$(count READER_ONLY=1)
  both=$(count) # the bench runs the reader, then the pipeline
  pipeline=$((both - reader))
  awk -v f="$(basename "$file")" -v b="$bytes" -v r="$reader" -v p="$pipeline" 'BEGIN {
    printf "| %s | %.1f | %.0f M | %.0f | %.0f M | %.0f | %.2fx |\n", f, b/1e6, r/1e6, r/b, p/1e6, p/b, p/r }'
done
