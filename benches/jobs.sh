#!/usr/bin/env bash
# --jobs 2 against --jobs 1, and against the best two cores can do: two independent
# `--jobs 1` processes, each given every other file (issue 8, "near-linear on 2 cores").
#
#   benches/jobs.sh > /tmp/jobs.md        (markdown on stdout, progress on stderr)
#
# On a shared machine one slow moment decides a single comparison, so each round runs the
# three one after the other on the same files and the ratios are taken within the round;
# the summary gives the median round. Inputs: the corpus's 1,073 `.ll` files, and the four
# 16 MB modules benches/scale.sh leaves in $BENCH_DIR/scale/jobs (skipped if absent).
# Environment: CORPUS, AIR_SCAN, ROUNDS (default 9), BENCH_DIR (default /tmp/air-scan-bench).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
CORPUS=${CORPUS:-$root/../shared/corpus}
AIR_SCAN=${AIR_SCAN:-$root/target/release/air-scan}
ROUNDS=${ROUNDS:-9}
BENCH_DIR=${BENCH_DIR:-/tmp/air-scan-bench}
[ -x "$AIR_SCAN" ] || { echo "jobs.sh: build air-scan first (cargo build --release)" >&2; exit 1; }
[ -d "$CORPUS" ] || { echo "jobs.sh: no corpus at $CORPUS" >&2; exit 1; }

ms() { # wall milliseconds of one command, output discarded
    local s e
    s=$(date +%s%N)
    "$@" >/dev/null 2>&1 || [ $? -le 2 ] # 1 (findings) and 2 (a failed file) are results
    e=$(date +%s%N)
    echo $(((e - s) / 1000000))
}

both_halves() { # two --jobs 1 processes side by side, one on each half of the files
    "$AIR_SCAN" --format json --jobs 1 "${odd[@]}" >/dev/null 2>&1 &
    "$AIR_SCAN" --format json --jobs 1 "${even[@]}" >/dev/null 2>&1 || true
    wait || true
}

measure() { # label, files...
    local label=$1
    shift
    local files=("$@") i
    odd=() even=()
    for i in "${!files[@]}"; do
        if ((i % 2 == 0)); then odd+=("${files[i]}"); else even+=("${files[i]}"); fi
    done
    for r in $(seq 1 "$ROUNDS"); do
        local one two halves
        one=$(ms "$AIR_SCAN" --format json --jobs 1 "${files[@]}")
        two=$(ms "$AIR_SCAN" --format json --jobs 2 "${files[@]}")
        halves=$(ms both_halves)
        echo "jobs.sh: $label, round $r: --jobs 1 $one ms, --jobs 2 $two ms, two processes $halves ms" >&2
        echo "$label|$r|$one|$two|$halves"
    done
}

mapfile -t corpus_ll < <(find "$CORPUS" -name '*.ll' -type f | sort)
{
    measure "corpus (${#corpus_ll[@]} \`.ll\` files)" "${corpus_ll[@]}"
    if compgen -G "$BENCH_DIR/scale/jobs/*.ll" >/dev/null; then
        mapfile -t big < <(ls "$BENCH_DIR"/scale/jobs/*.ll)
        measure "${#big[@]} modules of 16 MB" "${big[@]}"
    fi
} >"$BENCH_DIR/jobs.rows"

echo "- $(date -u '+%Y-%m-%d %H:%M UTC'); \`nproc\` = $(nproc); $ROUNDS rounds; air-scan $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), \`--format json\`; wall times in ms"
echo
echo "| input | round | --jobs 1 | --jobs 2 | two processes, half the files each | --jobs 1 ÷ --jobs 2 | two processes ÷ --jobs 2 |"
echo "|---|---:|---:|---:|---:|---:|---:|"
awk -F'|' '{ printf "| %s | %s | %s | %s | %s | %.2f× | %.2f× |\n", $1, $2, $3, $4, $5, $3 / $4, $5 / $4 }' "$BENCH_DIR/jobs.rows"
echo
echo "| input | median --jobs 1 ÷ --jobs 2 | median two processes ÷ --jobs 2 |"
echo "|---|---:|---:|"
awk -F'|' '
    { n[$1]++; a[$1, n[$1]] = $3 / $4; b[$1, n[$1]] = $5 / $4; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
    function median(arr, label, m,   i, j, t, v) {
        for (i = 1; i <= m; i++) v[i] = arr[label, i]
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        return v[int((m + 1) / 2)]
    }
    END { for (i = 1; i <= k; i++) printf "| %s | **%.2f×** | %.2f× |\n", order[i], median(a, order[i], n[order[i]]), median(b, order[i], n[order[i]]) }
' "$BENCH_DIR/jobs.rows"
