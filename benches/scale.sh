#!/usr/bin/env bash
# Issue 8 in one run: cost against size (1 MB to 1 GB), --jobs scaling, start-up.
#
#   benches/scale.sh > /tmp/air-scan-bench/scale.md     (markdown to stdout, progress to stderr)
#
# (a) modules of about 1, 4, 16, 64, 256 and 1024 MB made by make_large_module.py from the
#     corpus's .opaque.ll files; on each, best wall time and peak RSS (GNU time) of
#     `air-scan --jobs 1 --format json`, `grep -cE 'udiv|sdiv|urem|srem'` and
#     `llvm-as-22 -disable-output -disable-verify` (skipped when ~5x the input would pass
#     LLVM_AS_MAX_MB);
# (b) --jobs 1 against --jobs 2 on the corpus directory and on a directory of 4 large-ish files;
# (c) start-up (hyperfine) on one small testdata file and on an empty module.
#
# Environment (all optional): CORPUS, AIR_SCAN, LLVM_AS (default llvm-as-22), RUNS (3),
# BIG_RUNS (runs at >= 256 MB, default 2), SIZES ("1 4 16 64 256 1024"),
# LLVM_AS_MAX_MB (8000), BENCH_DIR (/tmp/air-scan-bench; generated modules are kept there).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
CORPUS=${CORPUS:-$root/../shared/corpus}
AIR_SCAN=${AIR_SCAN:-$root/target/release/air-scan}
LLVM_AS=${LLVM_AS:-$(command -v llvm-as-22 || echo /usr/lib/llvm-22/bin/llvm-as)}
RUNS=${RUNS:-3}
BIG_RUNS=${BIG_RUNS:-2}
SIZES=${SIZES:-1 4 16 64 256 1024}
LLVM_AS_MAX_MB=${LLVM_AS_MAX_MB:-8000}
BENCH_DIR=${BENCH_DIR:-/tmp/air-scan-bench}
dir="$BENCH_DIR/scale"
small="$root/testdata/rules/divide_cost.ll"

log() { printf 'scale: %s\n' "$*" >&2; }
fail() { log "error: $*"; exit 1; }
[ -x "$AIR_SCAN" ] || fail "no binary at $AIR_SCAN (cargo build --release)"
[ -x "$LLVM_AS" ] || fail "no llvm-as-22 at $LLVM_AS"
[ -x /usr/bin/time ] || fail "GNU time is required (apt-get install time)"
command -v hyperfine >/dev/null || fail "hyperfine is required (apt-get install hyperfine)"
[ -d "$CORPUS" ] || fail "no corpus at $CORPUS"
mkdir -p "$dir"

# --- generated inputs, kept while the corpus and the generator are unchanged ---
stamp=$( { find "$CORPUS" -name '*.opaque.ll' -printf '%P %s\n' | sort
           sha256sum "$here/make_large_module.py"; } | sha256sum | cut -c1-16)
module() {  # size in MB -> path of the module (generated when missing or stale)
    local f="$dir/scale-$1MB.opaque.ll"
    if [ "$(cat "$f.stamp" 2>/dev/null)" != "$stamp" ]; then
        log "generating $f"
        python3 "$here/make_large_module.py" "$CORPUS" "$f" --size-mb "$1" >&2
        echo "$stamp" > "$f.stamp"
    fi
    echo "$f"
}
empty="$dir/empty.ll"
printf 'target triple = "air64-apple-macosx15.0.0"\n' > "$empty"

# --- measuring: best wall time and the largest peak RSS over the runs ---
best() {  # runs, command... -> "seconds peak_KiB" on stdout; the command's stdout goes to $OUT
    local n=$1 s k t0 rc bs=999999 bk=0 i; shift
    for ((i = 0; i < n; i++)); do
        # Wall time from bash (GNU time's %e has 10 ms steps), peak RSS from GNU time.
        t0=$EPOCHREALTIME
        rc=0
        /usr/bin/time -f '%M' -o "$dir/time.txt" "$@" > "${OUT:-/dev/null}" 2> "$dir/stderr.txt" || rc=$?
        # air-scan exits 1 when it reports findings; anything higher is a failure.
        [ "$rc" -le 1 ] || log "warning: exit status $rc from $* (see $dir/stderr.txt)"
        s=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
        k=$(tail -n1 "$dir/time.txt")
        bs=$(awk -v a="$s" -v b="$bs" 'BEGIN { print (a < b) ? a : b }')
        [ "$k" -gt "$bk" ] && bk=$k
    done
    echo "$bs $bk"
}
mbs() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.0f", (s > 0) ? b / 1e6 / s : 0 }'; }
ratio() { awk -v k="$1" -v b="$2" 'BEGIN { printf "%.2f×", k * 1024 / b }'; }

echo "- $(date -u '+%Y-%m-%d %H:%M UTC'); \`nproc\` = $(nproc); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- air-scan $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo ?) (\`$AIR_SCAN\`), $("$LLVM_AS" --version | grep -m1 -o 'LLVM version [0-9.]*'), $(grep --version | head -n1)"
echo "- best wall time of $RUNS runs ($BIG_RUNS at 256 MB and more), warm page cache; peak RSS = GNU time \`%M\`, the largest over the runs; MB = 10^6 bytes"
echo

# (a) cost against size
echo "| input MB | air-scan s | air-scan MB/s | air-scan peak RSS MB | RSS/input | grep -cE s | grep MB/s | llvm-as-22 s | llvm-as MB/s | llvm-as peak RSS MB | air-scan speed ÷ grep's (target ≥ 0.33) | air-scan speed ÷ llvm-as's (target ≥ 10) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for mb in $SIZES; do
    f=$(module "$mb")
    bytes=$(stat -c %s "$f")
    n=$RUNS; [ "$mb" -ge 256 ] && n=$BIG_RUNS
    cat "$f" > /dev/null  # warm the page cache
    log "$mb MB: air-scan"
    read -r as ak < <(best "$n" "$AIR_SCAN" --jobs 1 --format json "$f")
    log "$mb MB: grep"
    # Not to /dev/null: GNU grep then stops at the first match.
    read -r gs gk < <(OUT="$dir/grep.out" best "$n" grep -cE 'udiv|sdiv|urem|srem' "$f")
    ls="skipped (would need ~$((bytes * 5 / 1000000)) MB)" lmbs="" lrss="" lx=""
    if [ $((bytes * 5 / 1000000)) -le "$LLVM_AS_MAX_MB" ]; then
        log "$mb MB: llvm-as"
        read -r ls lk < <(best "$n" "$LLVM_AS" -disable-output -disable-verify "$f")
        lmbs=$(mbs "$bytes" "$ls") lrss=$((lk * 1024 / 1000000))
        lx=$(awk -v a="$ls" -v b="$as" 'BEGIN { printf "%.1f×", a / b }')
    fi
    echo "| $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') | $as | $(mbs "$bytes" "$as") | $((ak * 1024 / 1000000)) | $(ratio "$ak" "$bytes") | $gs | $(mbs "$bytes" "$gs") | $ls | $lmbs | $lrss | $(awk -v a="$as" -v b="$gs" 'BEGIN { printf "%.2f", b / a }') | $lx |"
done
echo

# (b) --jobs scaling: the corpus folder, and 4 copies of the 16 MB module
jobs_dir="$dir/jobs"
mkdir -p "$jobs_dir"
m16=$(module 16)
for i in 1 2 3 4; do
    [ "$jobs_dir/m$i.ll" -nt "$m16" ] || cp "$m16" "$jobs_dir/m$i.ll"
done
echo "| input | MB | --jobs 1 s | --jobs 2 s | speed-up | peak RSS MB (1 / 2) |"
echo "|---|---:|---:|---:|---:|---:|"
jobs_row() {  # label, path, exclude args...
    local label=$1 path=$2 mb s1 k1 s2 k2; shift 2
    mb=$(find "$path" -name '*.ll' -printf '%s\n' | awk '{ s += $1 } END { printf "%.1f", s / 1e6 }')
    find "$path" -name '*.ll' -exec cat {} + > /dev/null
    log "jobs: $label"
    read -r s1 k1 < <(best "$RUNS" "$AIR_SCAN" --jobs 1 --format json "$@" "$path")
    read -r s2 k2 < <(best "$RUNS" "$AIR_SCAN" --jobs 2 --format json "$@" "$path")
    echo "| $label | $mb | $s1 | $s2 | $(awk -v a="$s1" -v b="$s2" 'BEGIN { printf "%.2f×", a / b }') | $((k1 * 1024 / 1000000)) / $((k2 * 1024 / 1000000)) |"
}
# Text IR only: the corpus folder also holds bitcode and sources.
jobs_row "corpus ($(find "$CORPUS" -name '*.ll' | wc -l) \`.ll\` files)" "$CORPUS" \
    --exclude '*.air' --exclude '*.metallib' --exclude '*.metal'
jobs_row "4 copies of the 16 MB module" "$jobs_dir"
echo

# (c) start-up
echo "| start-up on | bytes | mean ms | min ms | σ ms |"
echo "|---|---:|---:|---:|---:|"
for f in "$small" "$empty"; do
    hyperfine -N --warmup 20 --runs 200 --export-json "$dir/hf.json" \
        "$AIR_SCAN --jobs 1 --format json $f" > /dev/null 2>&1
    python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["results"][0]
print("| `%s` | %s | %.1f | %.1f | %.1f |" % (sys.argv[2], sys.argv[3], r["mean"] * 1e3, r["min"] * 1e3, r["stddev"] * 1e3))' \
        "$dir/hf.json" "${f#"$root"/}" "$(stat -c %s "$f")"
done
echo
echo "- load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
