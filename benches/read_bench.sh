#!/usr/bin/env bash
# Read-throughput and peak-memory benchmark: air-scan (--jobs 1) against llvm-as-22.
#
#   benches/read_bench.sh [CORPUS_DIR]      (markdown to stdout, progress to stderr)
#
# Environment (all optional):
#   CORPUS    corpus directory        (default: <repo>/../shared/corpus)
#   AIR_SCAN  air-scan binary         (default: <repo>/target/release/air-scan)
#   READER    the reader-alone bench  (default: built by `cargo bench --bench read --no-run`;
#             set it empty to skip the reader rows)
#   LLVM_AS   llvm-as of LLVM 22      (default: llvm-as-22 / /usr/lib/llvm-22/bin/llvm-as)
#   RUNS      runs per measurement, best wall time is reported (default 3)
#   SIZE_MB   size of the generated large modules in MB = 10^6 bytes (default 100)
#   BENCH_DIR where generated modules and outputs go (default ${TMPDIR:-/tmp}/air-scan-bench)
#
# Nothing is written inside the repository. See benches/README.md.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")

CORPUS=${1:-${CORPUS:-$root/../shared/corpus}}
AIR_SCAN=${AIR_SCAN:-$root/target/release/air-scan}
RUNS=${RUNS:-3}
SIZE_MB=${SIZE_MB:-100}
BENCH_DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/air-scan-bench}

log() { printf '%s\n' "read_bench: $*" >&2; }
fail() { printf '%s\n' "read_bench: error: $*" >&2; exit 1; }

command -v python3 >/dev/null || fail "python3 is required"

if [ ! -d "$CORPUS" ]; then
    fail "corpus not found at '$CORPUS' (expected ../shared/corpus next to the repo; pass the path as an argument or set CORPUS)"
fi
CORPUS=$(cd "$CORPUS" && pwd)
n_opaque=$(find "$CORPUS" -name '*.opaque.ll' -type f | wc -l)
if [ "$n_opaque" -eq 0 ]; then
    fail "no *.opaque.ll files under '$CORPUS': this does not look like the AIR corpus"
fi

find_tool() {  # first executable among the arguments (names or paths)
    local c p
    for c in "$@"; do
        p=$(command -v "$c" 2>/dev/null) || continue
        [ -x "$p" ] && { echo "$p"; return 0; }
    done
    return 1
}

if [ -z "${LLVM_AS:-}" ]; then
    LLVM_AS=$(find_tool llvm-as-22 /usr/lib/llvm-22/bin/llvm-as) || LLVM_AS=""
fi
if [ -n "$LLVM_AS" ] && [ ! -x "$LLVM_AS" ]; then
    fail "LLVM_AS='$LLVM_AS' is not executable"
fi
if [ -z "$LLVM_AS" ]; then
    log "llvm-as-22 not found (install with: apt-get install llvm-22); skipping the llvm-as rows"
elif ! "$LLVM_AS" --version 2>/dev/null | grep -q 'version 22\.'; then
    log "warning: $LLVM_AS does not report LLVM 22: $("$LLVM_AS" --version | grep -m1 version)"
fi
if [ ! -x "$AIR_SCAN" ]; then
    log "air-scan binary not found at $AIR_SCAN (build it with: cargo build --release); skipping the air-scan rows"
    AIR_SCAN=""
fi

if [ -z "${READER+set}" ]; then
    READER=$(cd "$root" && cargo bench --bench read --no-run 2>&1 \
        | sed -n 's/.*Executable .*(\(.*\))$/\1/p' | tail -1)
    [ -n "$READER" ] && READER="$root/$READER"
fi
if [ -n "$READER" ] && [ ! -x "$READER" ]; then
    log "reader bench not found at '$READER'; skipping the reader rows"
    READER=""
fi

mkdir -p "$BENCH_DIR"

# --- generated modules (cached in $BENCH_DIR, regenerated when corpus/generator/size change) ---
gen="$here/make_large_module.py"
stamp=$( { find "$CORPUS" -name '*.ll' -type f -printf '%P %s %T@\n' | sort
           sha256sum "$gen"; echo "$SIZE_MB $LLVM_AS"; } | sha256sum | cut -c1-16)
large_opaque="$BENCH_DIR/large-${SIZE_MB}MB.opaque.ll"
large_typed="$BENCH_DIR/large-${SIZE_MB}MB.typed.ll"
merged="$BENCH_DIR/corpus-merged.opaque.ll"

make_large() {  # out, extra args...
    local out=$1; shift
    if [ -f "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$stamp" ]; then
        log "reusing $out"
        return 0
    fi
    rm -f "$out" "$out.stamp"
    log "generating $out"
    python3 "$gen" "$CORPUS" "$out" "$@" 2> >(sed 's/^/  /' >&2) \
        || fail "make_large_module.py failed for $out"
    echo "$stamp" > "$out.stamp"
}

# llvm-as-22 also reads typed-pointer text (it upgrades `T*` to `ptr`), so it checks both.
v22=(); [ -n "$LLVM_AS" ] && v22=(--validate-with "$LLVM_AS")
make_large "$merged" --one-pass "${v22[@]}"
make_large "$large_opaque" --size-mb "$SIZE_MB" "${v22[@]}"
make_large "$large_typed" --size-mb "$SIZE_MB" --typed "${v22[@]}"

# Peak RSS comes from GNU time (`%M`): os.wait4() from python would report at least the
# driver's own RSS, because Linux carries the pre-exec high-water mark into the child.
TIME_BIN=${TIME_BIN:-/usr/bin/time}
if ! { [ -x "$TIME_BIN" ] && "$TIME_BIN" --version 2>&1 | grep -q GNU; }; then
    log "GNU time not found at $TIME_BIN (apt-get install time); falling back to os.wait4, whose peak RSS includes the python driver's (~10-20 MB)"
    TIME_BIN=""
fi

export CORPUS AIR_SCAN READER LLVM_AS RUNS BENCH_DIR TIME_BIN large_opaque large_typed merged

# --- measurements (a small python driver) ---
python3 - <<'PY'
import json, os, re, subprocess, sys, time

E = os.environ
corpus, air_scan, llvm_as, reader = E["CORPUS"], E["AIR_SCAN"], E["LLVM_AS"], E["READER"]
runs, bench_dir, time_bin = int(E["RUNS"]), E["BENCH_DIR"], E["TIME_BIN"]
large_opaque, large_typed, merged = E["large_opaque"], E["large_typed"], E["merged"]
MB = 1e6
ERR = os.path.join(bench_dir, "stderr.txt")
RSS = os.path.join(bench_dir, "rss.txt")


def log(msg):
    print("read_bench: " + msg, file=sys.stderr, flush=True)


class Crashed(Exception):
    pass


def run_once(cmd, stdout_path=os.devnull):
    """(wall seconds, peak RSS bytes, exit code) of one process."""
    argv = [time_bin, "-o", RSS, "-f", "%M", *cmd] if time_bin else cmd
    with open(stdout_path, "wb") as out, open(ERR, "wb") as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    rc = os.waitstatus_to_exitcode(status)
    if time_bin:
        with open(RSS) as f:
            kib = int(f.read().split()[-1])  # last line; earlier ones say "exited with ..."
    else:
        kib = ru.ru_maxrss
    return wall, kib * 1024, rc


def bench(label, cmds, stdout_path=os.devnull, ok_codes=(0,)):
    """Run the list of commands one after another, RUNS times.
    Returns (best total wall, peak RSS over every process, set of exit codes)."""
    best, peak, codes = float("inf"), 0, set()
    for r in range(runs):
        t0 = time.perf_counter()
        for cmd in cmds:
            _w, rss, rc = run_once(cmd, stdout_path)
            peak = max(peak, rss)
            codes.add(rc)
            if rc not in ok_codes:
                with open(ERR, "rb") as f:
                    tail = f.read()[-2000:].decode(errors="replace")
                log(f"{label}: exit status {rc} on {cmd[-1] if len(cmds) > 1 else label}\n{tail}")
                if rc < 0 or rc >= 100:  # signal, or a Rust panic (101)
                    raise Crashed(rc)
        t = time.perf_counter() - t0
        best = min(best, t)
        log(f"{label}: run {r + 1}/{runs}: {t:.3f} s")
    return best, peak, codes


def files(pred):
    out = []
    for root, _d, fs in os.walk(corpus):
        out += [os.path.join(root, f) for f in fs if pred(f)]
    return sorted(out)


def warm(paths):
    for p in paths:
        with open(p, "rb") as f:
            while f.read(1 << 20):
                pass


with open("/proc/loadavg") as f:
    load0 = " ".join(f.read().split()[:3])
all_ll = files(lambda f: f.endswith(".ll"))
opaque = files(lambda f: f.endswith(".opaque.ll"))
size = lambda ps: sum(os.path.getsize(p) for p in ps)
s_all, s_opq = size(all_ll), size(opaque)
s_mg, s_lo, s_lt = (os.path.getsize(p) for p in (merged, large_opaque, large_typed))
warm(all_ll + [merged, large_opaque, large_typed])

rows, notes, res = [], [], {}


def row(key, inp, nbytes, tool, wall, rss, ratio=True):
    rows.append((inp, f"{nbytes / MB:.1f}", tool, f"{wall:.3f}", f"{nbytes / MB / wall:.1f}",
                 f"{rss / MB:.0f}", f"{rss / nbytes:.2f}×" if ratio else "n/a¹"))
    res[key] = (nbytes / wall, rss / nbytes)


def air_scan_row(key, inp, nbytes, paths):
    out = os.path.join(bench_dir, f"air-scan-{key}.json")
    try:
        # Exit status 1 is accepted: linters commonly use it for "findings reported".
        wall, rss, codes = bench(f"air-scan {key}",
                                 [[air_scan, *paths, "--format", "json", "--jobs", "1",
                                   # Text IR only: the folder also holds bitcode and sources.
                                   "--exclude", "*.air", "--exclude", "*.metallib", "--exclude", "*.metal"]], out, (0, 1))
    except Crashed as e:
        rows.append((inp, f"{nbytes / MB:.1f}", f"air-scan --jobs 1: **crashed (exit {e.args[0]})**",
                     "–", "–", "–", "–"))
        notes.append(f"air-scan crashed on {inp}; see {ERR}")
        return
    tool = "air-scan --jobs 1" + (f" (exit {','.join(map(str, sorted(codes)))})" if codes != {0} else "")
    row(key, inp, nbytes, tool, wall, rss)
    try:
        with open(out) as f:
            json.load(f)
    except Exception as e:  # noqa: BLE001
        notes.append(f"air-scan's output on {inp} is not valid JSON ({e}); see {out}")


def reader_row(key, inp, nbytes, paths):
    """The reader alone (benches/read.rs, READER_ONLY): read_module and every
    body on text already in memory, best of max(RUNS, 5) in one process."""
    env = {**os.environ, "READER_ONLY": "1", "RUNS": str(max(runs, 5))}
    p = subprocess.run([reader, *paths], env=env, capture_output=True, text=True)
    best = re.search(r"best ([0-9.]+) s", p.stdout)
    peak = re.search(r"peak RSS after reading: ([0-9]+) MB", p.stdout)
    if p.returncode != 0 or not best:
        notes.append(f"the reader bench failed on {inp} (exit {p.returncode}): {p.stderr[-500:]}")
        return
    log(f"reader {key}: {best.group(1)} s")
    row(key, inp, nbytes, "air-scan reader alone (in process)", float(best.group(1)),
        int(peak.group(1)) * MB if peak else 0)


def llvm_as_row(key, inp, nbytes, path):
    wall, rss, _ = bench(f"llvm-as-22 {key}", [[llvm_as, "-disable-output", "-disable-verify", path]])
    row(key, inp, nbytes, "llvm-as-22 -disable-verify", wall, rss)


def llvm_as_per_file(key, inp, nbytes, paths):
    wall, rss, _ = bench(f"llvm-as-22 {key} (1 process per file)",
                         [[llvm_as, "-disable-output", "-disable-verify", p] for p in paths])
    row(key, inp, nbytes, "llvm-as-22 -disable-verify, 1 process per file", wall, rss, ratio=False)


# llvm-as start-up cost and footprint (empty module), for the footnote.
if llvm_as:
    empty = os.path.join(bench_dir, "empty.ll")
    with open(empty, "w") as f:
        f.write('target triple = "air64-apple-macosx15.0.0"\n')
    t = sorted(run_once([llvm_as, "-disable-output", "-disable-verify", empty])[:2] for _ in range(11))
    startup, base_rss = t[5][0], max(x[1] for x in t)

# (a) the corpus, as files
inp_all = f"corpus: all {len(all_ll)} `.ll` files"
inp_opq = f"corpus: {len(opaque)} `.opaque.ll` files"
# LLVM 22 still parses typed-pointer syntax (as opaque `ptr`), so llvm-as-22 reads every file.
if reader:
    reader_row("rd-all", inp_all, s_all, [corpus])
if air_scan:
    air_scan_row("as-all", inp_all, s_all, [corpus])
if llvm_as:
    llvm_as_per_file("ll-all", inp_all, s_all, all_ll)
if air_scan:
    air_scan_row("as-opq", inp_opq, s_opq, opaque)
if llvm_as:
    llvm_as_per_file("ll-opq", inp_opq, s_opq, opaque)

# (a') the same modules in one file (no per-process start-up)
inp_mg = "corpus `.opaque.ll` as one module"
if reader:
    reader_row("rd-mg", inp_mg, s_mg, [merged])
if air_scan:
    air_scan_row("as-mg", inp_mg, s_mg, [merged])
if llvm_as:
    llvm_as_row("ll-mg", inp_mg, s_mg, merged)

# (b) one large module
inp_lo = "large module, opaque pointers"
inp_lt = "large module, typed pointers"
if reader:
    reader_row("rd-lo", inp_lo, s_lo, [large_opaque])
if air_scan:
    air_scan_row("as-lo", inp_lo, s_lo, [large_opaque])
if llvm_as:
    llvm_as_row("ll-lo", inp_lo, s_lo, large_opaque)
if reader:
    reader_row("rd-lt", inp_lt, s_lt, [large_typed])
if air_scan:
    air_scan_row("as-lt", inp_lt, s_lt, [large_typed])
if llvm_as:
    llvm_as_row("ll-lt", inp_lt, s_lt, large_typed)

# --- report (markdown on stdout) ---
def out1(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.strip().splitlines()[0]
    except Exception:  # noqa: BLE001
        return "?"

cpu = "?"
with open("/proc/cpuinfo") as f:
    for line in f:
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
u = os.uname()
print(f"- Machine: `nproc` = {out1(['nproc'])}; CPU: {cpu}; {u.sysname} {u.release} {u.machine}; "
      f"load average before the runs: {load0} (other work on the machine skews the numbers)")
if llvm_as:
    ver = [l.strip() for l in subprocess.run([llvm_as, "--version"], capture_output=True, text=True).stdout.splitlines()
           if "version" in l]
    print(f"- llvm-as: `{llvm_as}` ({ver[0] if ver else '?'})")
print(f"- air-scan: `{air_scan or 'not built: rows skipped'}`")
print(f"- {time.strftime('%Y-%m-%d %H:%M %Z')}; best wall time of {runs} runs, warm page cache; "
      f"MB = 10^6 bytes; peak RSS = max resident set size " + ("(GNU time `%M`)" if time_bin else "(wait4; includes the driver's RSS)"))
print()
print("| input | size MB | tool | best wall s | MB/s | peak RSS MB | RSS/input |")
print("|---|---:|---|---:|---:|---:|---:|")
for r in rows:
    print("| " + " | ".join(r) + " |")
print()
if llvm_as:
    print(f"¹ One llvm-as process per file: the peak is that of the largest single run, mostly llvm-as's "
          f"fixed footprint ({base_rss / MB:.0f} MB on an empty module, where a run takes {startup * 1000:.1f} ms), "
          "so a ratio to the corpus size would mean nothing.")
    print()
print(f"\"As one module\" and the large modules are made by `benches/make_large_module.py`: every "
      f"`.opaque.ll` module (or its typed `.ll` twin) copied under new names into one valid module, "
      f"once, or until {s_lo / MB:.0f} MB (≈ {s_lo / s_mg:.1f} copies of each). llvm-as-22 accepts the "
      "generated modules with the verifier on; air-scan and llvm-as read the same bytes on each input. "
      "llvm-as-22 reads typed-pointer text too: it parses `T*` as `ptr`.")
if air_scan and llvm_as:
    def x(a, b):
        return f"{res[a][0] / res[b][0]:.1f}×" if a in res and b in res else "?"
    print()
    ok = "ll-lo" in res and "as-lo" in res and res["as-lo"][0] / res["ll-lo"][0] >= 10
    ok = ok and "ll-lt" in res and "as-lt" in res and res["as-lt"][0] / res["ll-lt"][0] >= 10
    print(f"- air-scan vs llvm-as-22 throughput (target ≥ 10×): large module **{x('as-lo', 'll-lo')}** "
          f"(typed: {x('as-lt', 'll-lt')}), corpus as one module {x('as-mg', 'll-mg')}, corpus file by file "
          f"{x('as-all', 'll-all')} (all) / {x('as-opq', 'll-opq')} (`.opaque.ll`) "
          f"— {'meets' if ok else '**misses**'} the target on the large modules.")
    if reader:
        ok = all(k in res and res[k][0] / res[l][0] >= 10 for k, l in
                 (("rd-mg", "ll-mg"), ("rd-lo", "ll-lo"), ("rd-lt", "ll-lt")) if l in res)
        print(f"- The reader alone vs llvm-as-22 (issue 2, target ≥ 10×): corpus as one module "
              f"**{x('rd-mg', 'll-mg')}**, large module **{x('rd-lo', 'll-lo')}** (typed: "
              f"**{x('rd-lt', 'll-lt')}**) — {'meets' if ok else '**misses**'} the target. Its peak RSS "
              "is the text in memory plus one module's model.")
    big = {k: res[k][1] for k in ("as-lo", "as-lt") if k in res}
    if big and "ll-lo" in res:
        worst = max(big.values())
        print(f"- air-scan peak RSS / input on the large modules (target < 1.5×): "
              + ", ".join(f"{'opaque' if k == 'as-lo' else 'typed'} {v:.2f}×" for k, v in big.items())
              + f" — {'meets' if worst < 1.5 else '**misses**'} the target (llvm-as-22: {res['ll-lo'][1]:.2f}× / "
              f"{res['ll-lt'][1] if 'll-lt' in res else float('nan'):.2f}×). "
              "On the small inputs the ratio is dominated by the process's fixed footprint.")
for n in notes:
    print(f"- Note: {n}")
PY
