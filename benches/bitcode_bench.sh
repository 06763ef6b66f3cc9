#!/usr/bin/env bash
# The native bitcode reader against llvm-dis-22 (issue 25), in interleaved
# rounds, and what binaries cost in a whole-corpus scan. Prints a markdown
# summary on stdout, progress on stderr.
#
#   cargo build --release          # the script does not build air-scan
#   benches/bitcode_bench.sh > /tmp/bitcode.md
#
# Needs: hyperfine and GNU time (`apt-get install hyperfine time`),
# llvm-dis-22 (`apt-get install llvm-22`), python3, the corpus at
# ../shared/corpus (or CORPUS=). Settings: ROUNDS (default 5: each round
# runs each command RUNS times, default 3, the order of the two commands
# alternating from round to round), AIR_SCAN, LLVM_DIS, BENCH_DIR.
#
# What it measures:
# 1. `air-scan --jobs 1 --format json mlx.metallib` (382 modules read,
#    printed, parsed, analysed, reported) against `llvm-dis-22` alone
#    disassembling the same 382 modules (the library's extracted `.air`
#    files, copied to BENCH_DIR first, since llvm-dis writes each `.ll`
#    beside its input) in one process.
# 2. Peak RSS (GNU time) of that scan (mlx.metallib is the corpus's largest
#    input), and of air-scan on one tiny `.ll` (what any run costs).
# 3. `air-scan --jobs 1 --format json CORPUS` with every file against the
#    same with `--exclude '*.air' --exclude '*.metallib'` (the `.ll` text
#    only), in the same interleaved rounds; and the binaries alone
#    (`--exclude '*.ll'`: 1,063 modules of `.air` and metallib entries,
#    against the text's 1,073 `.ll` files, each module in two forms on
#    both sides), which says what a module costs as bitcode against as text.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
corpus="${CORPUS:-$root/../shared/corpus}"
air_scan="${AIR_SCAN:-$root/target/release/air-scan}"
llvm_dis="${LLVM_DIS:-llvm-dis-22}"
rounds="${ROUNDS:-5}"
runs="${RUNS:-3}"
dir="${BENCH_DIR:-${TMPDIR:-/tmp}/air-scan-bitcode-bench}"
for tool in hyperfine /usr/bin/time python3 "$llvm_dis" "$air_scan"; do
  command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 2; }
done
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 2; }
lib="$corpus/Iito__spindll/mlx.metallib"
mkdir -p "$dir/air" "$dir/json"
rm -f "$dir/air/"* "$dir/json/"*
cp "$lib.extracted/"*.air "$dir/air/"
modules=$(ls "$dir/air/"*.air | wc -l)
scan_lib="$air_scan --jobs 1 --format json $lib > /dev/null"
dis_lib="$llvm_dis $dir/air/*.air"
scan_all="$air_scan --jobs 1 --format json $corpus > /dev/null; true"
scan_text="$air_scan --jobs 1 --format json --exclude '*.air' --exclude '*.metallib' $corpus > /dev/null; true"
scan_bin="$air_scan --jobs 1 --format json --exclude '*.ll' $corpus > /dev/null; true"

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for r in $(seq 1 "$rounds"); do
  echo "round $r of $rounds" >&2
  if [ $((r % 2)) -eq 1 ]; then pair=("$scan_lib" "$dis_lib"); else pair=("$dis_lib" "$scan_lib"); fi
  hyperfine -N --shell=bash -w 1 -r "$runs" --export-json "$dir/json/lib-$r.json" \
    -n "${pair[0]%% *}" "${pair[0]}" -n "${pair[1]%% *}" "${pair[1]}" >/dev/null 2>&1 ||
    hyperfine --shell=bash -w 1 -r "$runs" --export-json "$dir/json/lib-$r.json" "${pair[@]}" >/dev/null
  if [ $((r % 2)) -eq 1 ]; then trio=("$scan_all" "$scan_text" "$scan_bin"); else trio=("$scan_bin" "$scan_text" "$scan_all"); fi
  hyperfine --shell=bash -w 1 -r "$runs" --export-json "$dir/json/corpus-$r.json" "${trio[@]}" >/dev/null
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

rss() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1; }
tiny="$root/testdata/minimal_kernel.ll"
rss_lib=$(rss "$air_scan" --jobs 1 --format json "$lib")
rss_tiny=$(rss "$air_scan" --jobs 1 --format json "$tiny")

python3 - "$dir/json" "$rounds" "$lib" "$modules" "$rss_lib" "$rss_tiny" "$scan_lib" "$dis_lib" "$scan_all" "$scan_text" "$scan_bin" <<'PY'
import json, os, statistics, sys
d, rounds, lib, modules, rss_lib, rss_tiny = sys.argv[1:7]
scan_lib, dis_lib, scan_all, scan_text, scan_bin = sys.argv[7:12]
def times(kind, cmd):
    # Wall times of every run, and the CPU time (user + system) of each
    # round's runs (hyperfine keeps only their mean), one per run.
    wall, cpu = [], []
    for r in range(1, int(rounds) + 1):
        for res in json.load(open(f"{d}/{kind}-{r}.json"))["results"]:
            if res["command"] == cmd or res["command"] == cmd.split(" ")[0]:
                wall += res["times"]
                cpu += [res["user"] + res["system"]] * len(res["times"])
    return wall, cpu
def row(name, t):
    (w, c) = t
    return (f"| {name} | {len(w)} | {min(w):.3f} | {statistics.median(w):.3f} | {max(w):.3f} "
            f"| {statistics.median(c):.3f} |")
a, b = times("lib", scan_lib), times("lib", dis_lib)
c, e = times("corpus", scan_all), times("corpus", scan_text)
g = times("corpus", scan_bin)
size = os.path.getsize(lib) / 1e6
print("| command | runs | min s | median s | max s | CPU s (median) |")
print("|---|---:|---:|---:|---:|---:|")
print(row(f"air-scan --jobs 1 --format json mlx.metallib ({modules} modules)", a))
print(row(f"llvm-dis-22 on the same {modules} .air files, one process", b))
print(row("air-scan --jobs 1 --format json CORPUS (all files)", c))
print(row("the same, --exclude '*.air' --exclude '*.metallib'", e))
print(row("the same, --exclude '*.ll' (binaries only)", g))
print()
med = lambda t, i: statistics.median(t[i])
print(f"- mlx.metallib: llvm-dis-22 / air-scan = {med(b, 0) / med(a, 0):.1f}x wall (medians), "
      f"{min(b[0]) / min(a[0]):.1f}x (best runs), {med(b, 1) / med(a, 1):.1f}x CPU; target: at least 5x")
print(f"- corpus: all files / text only = {med(c, 0) / med(e, 0):.2f} wall, {med(c, 1) / med(e, 1):.2f} CPU "
      f"(medians); target: at most 1")
print(f"- corpus: binaries only / text only = {med(g, 0) / med(e, 0):.2f} wall, {med(g, 1) / med(e, 1):.2f} CPU "
      f"(medians): a module as bitcode against as text")
print(f"- peak RSS: mlx.metallib scan {int(rss_lib) / 1e3:.1f} MB, input {size:.2f} MB "
      f"({int(rss_lib) / 1e3 / size:.2f}x); a one-kernel .ll scan {int(rss_tiny) / 1e3:.1f} MB; "
      f"the library's scan above that {(int(rss_lib) - int(rss_tiny)) / 1e3:.1f} MB "
      f"({(int(rss_lib) - int(rss_tiny)) / 1e3 / size:.2f}x the input); target: at most 1.5x")
PY
