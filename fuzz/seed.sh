#!/usr/bin/env bash
# Copies seed inputs into fuzz/corpus/<target>/ for each target, named by
# content hash (as libFuzzer names its own finds, so reseeding adds nothing
# twice), up to MAX_SEED bytes each (default 65536; libFuzzer mutates small
# inputs faster):
#   read, pipeline: every .ll of testdata/ and of ../shared/corpus;
#   bitcode: every .air and .bc of ../shared/corpus.
# The corpus directories are ignored by git: seeds are copied at run time,
# never committed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
max="${MAX_SEED:-65536}"
shared="$root/../shared/corpus"
text_sources=("$root/testdata")
if [ -d "$shared" ]; then
  text_sources+=("$shared")
else
  echo "note: $shared is absent; seeding read and pipeline from testdata/ only, bitcode not at all" >&2
fi
# seed TARGET FIND-ARGS...: copies what `find` names into fuzz/corpus/TARGET/.
seed() {
  local target="$1"
  shift
  local dir="$here/corpus/$target"
  mkdir -p "$dir"
  find "$@" -type f -size -"$((max + 1))"c -print0 |
    while IFS= read -r -d '' f; do
      cp "$f" "$dir/$(sha1sum "$f" | cut -c1-40)"
    done
  echo "$target: $(ls "$dir" | wc -l) seeds in $dir" >&2
}
for target in read pipeline; do
  seed "$target" "${text_sources[@]}" -name '*.ll'
done
if [ -d "$shared" ]; then
  seed bitcode "$shared" \( -name '*.air' -o -name '*.bc' \)
fi
