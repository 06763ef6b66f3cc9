#!/usr/bin/env bash
# Copies seed inputs into fuzz/corpus/<target>/ for each target: every .ll of
# testdata/ and of ../shared/corpus (when present) up to MAX_SEED bytes
# (default 65536; libFuzzer mutates small inputs faster). The corpus
# directories are ignored by git: seeds are copied at run time, never
# committed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
max="${MAX_SEED:-65536}"
sources=("$root/testdata")
if [ -d "$root/../shared/corpus" ]; then
  sources+=("$root/../shared/corpus")
else
  echo "note: $root/../shared/corpus is absent; seeding from testdata/ only" >&2
fi
for target in read pipeline; do
  dir="$here/corpus/$target"
  mkdir -p "$dir"
  # Named by content hash, as libFuzzer names its own finds, so reseeding
  # adds nothing twice.
  find "${sources[@]}" -name '*.ll' -type f -size -"$((max + 1))"c -print0 |
    while IFS= read -r -d '' f; do
      cp "$f" "$dir/$(sha1sum "$f" | cut -c1-40)"
    done
  echo "$target: $(ls "$dir" | wc -l) seeds in $dir" >&2
done
