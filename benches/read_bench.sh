#!/usr/bin/env bash
# Read-throughput and peak-memory benchmark: air-scan (--jobs 1) against llvm-as-22.
#
#   benches/read_bench.sh [CORPUS_DIR]      (markdown to stdout, progress to stderr)
#
# Environment (all optional):
#   CORPUS    corpus directory        (default: <repo>/../shared/corpus)
#   AIR_SCAN  air-scan binary         (default: <repo>/target/release/air-scan)
#   LLVM_AS   llvm-as of LLVM 22      (default: llvm-as-22 / /usr/lib/llvm-22/bin/llvm-as)
#   LLVM_AS14 llvm-as of LLVM 14, only to validate the typed large module and give an
#             informational row         (default: llvm-as-14 if installed; "none" to skip)
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
if [ "${LLVM_AS14:-}" = none ]; then
    LLVM_AS14=""
elif [ -z "${LLVM_AS14:-}" ]; then
    LLVM_AS14=$(find_tool llvm-as-14 /usr/lib/llvm-14/bin/llvm-as) || LLVM_AS14=""
fi
if [ ! -x "$AIR_SCAN" ]; then
    log "air-scan binary not found at $AIR_SCAN (build it with: cargo build --release); skipping the air-scan rows"
    AIR_SCAN=""
fi

mkdir -p "$BENCH_DIR"

# --- large modules (cached in $BENCH_DIR, regenerated when corpus/generator/size change) ---
gen="$here/make_large_module.py"
stamp=$( { find "$CORPUS" -name '*.ll' -type f -printf '%P %s %T@\n' | sort
           sha256sum "$gen"; echo "$SIZE_MB $LLVM_AS $LLVM_AS14"; } | sha256sum | cut -c1-16)
large_opaque="$BENCH_DIR/large-${SIZE_MB}MB.opaque.ll"
large_typed="$BENCH_DIR/large-${SIZE_MB}MB.typed.ll"

make_large() {  # out, extra args...
    local out=$1; shift
    if [ -f "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$stamp" ]; then
        log "reusing $out"
        return 0
    fi
    rm -f "$out" "$out.stamp"
    log "generating $out"
    python3 "$gen" "$CORPUS" "$out" --size-mb "$SIZE_MB" "$@" 2> >(sed 's/^/  /' >&2) \
        || fail "make_large_module.py failed for $out"
    echo "$stamp" > "$out.stamp"
}

if [ -n "$LLVM_AS" ]; then
    make_large "$large_opaque" --validate-with "$LLVM_AS"
else
    make_large "$large_opaque"
fi
if [ -n "$LLVM_AS14" ]; then
    make_large "$large_typed" --typed --validate-with "$LLVM_AS14"
else
    make_large "$large_typed" --typed
fi

export CORPUS AIR_SCAN LLVM_AS LLVM_AS14 RUNS BENCH_DIR large_opaque large_typed

# --- measurements: a small python driver (os.wait4 gives each child's own max RSS) ---
python3 - <<'PY'
import json, os, subprocess, sys, time

E = os.environ
corpus, air_scan, llvm_as, llvm_as14 = E["CORPUS"], E["AIR_SCAN"], E["LLVM_AS"], E["LLVM_AS14"]
runs, bench_dir = int(E["RUNS"]), E["BENCH_DIR"]
large_opaque, large_typed = E["large_opaque"], E["large_typed"]
MB = 1e6


def log(msg):
    print("read_bench: " + msg, file=sys.stderr, flush=True)


def run_once(cmd, stdout_path=os.devnull):
    """Wall seconds, max RSS in bytes, exit status, stderr tail of one child process."""
    errp = os.path.join(bench_dir, "stderr.txt")
    with open(stdout_path, "wb") as out, open(errp, "wb") as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    with open(errp, "rb") as f:
        tail = f.read()[-2000:].decode(errors="replace")
    return wall, ru.ru_maxrss * 1024, p.returncode, tail


class Crashed(Exception):
    pass


def bench(label, cmds, stdout_path=os.devnull, ok_codes=(0,)):
    """cmds: list of argv run one after another per run (one per file for llvm-as on the corpus).
    Returns (best total wall, max peak RSS over all processes, set of exit codes)."""
    best, peak, codes = float("inf"), 0, set()
    for r in range(runs):
        t0 = time.perf_counter()
        for cmd in cmds:
            _w, rss, rc, tail = run_once(cmd, stdout_path)
            peak = max(peak, rss)
            codes.add(rc)
            if rc not in ok_codes:
                log(f"{label}: exit status {rc} for {' '.join(cmd[-1:])}\n{tail}")
                if rc < 0 or rc >= 100:  # killed by a signal, or a Rust panic (101)
                    raise Crashed(rc)
        best = min(best, time.perf_counter() - t0)
        log(f"{label}: run {r + 1}/{runs}: {time.perf_counter() - t0:.3f} s")
    return best, peak, codes


def warm(paths):
    for p in paths:
        with open(p, "rb") as f:
            while f.read(1 << 20):
                pass


def files(pred):
    out = []
    for root, _d, fs in os.walk(corpus):
        out += [os.path.join(root, f) for f in fs if pred(f)]
    return sorted(out)


all_ll = files(lambda f: f.endswith(".ll"))
opaque = files(lambda f: f.endswith(".opaque.ll"))
size = lambda ps: sum(os.path.getsize(p) for p in ps)
s_all, s_opq = size(all_ll), size(opaque)
s_lo, s_lt = os.path.getsize(large_opaque), os.path.getsize(large_typed)
warm(all_ll + [large_opaque, large_typed])

rows, notes, ratios = [], [], {}


def row(inp, nbytes, tool, wall, rss, ratio=True):
    rows.append((inp, f"{nbytes / MB:.1f}", tool, f"{wall:.3f}", f"{nbytes / MB / wall:.1f}",
                 f"{rss / MB:.0f}", f"{rss / nbytes:.2f}×" if ratio else "n/a¹"))


def air_scan_row(inp, nbytes, paths, key):
    out = os.path.join(bench_dir, f"air-scan-{key}.json")
    # Exit status 1 is accepted: linters commonly use it for "findings reported".
    try:
        wall, rss, codes = bench(f"air-scan {key}", [[air_scan, *paths, "--format", "json", "--jobs", "1"]],
                                 out, ok_codes=(0, 1))
    except Crashed as e:
        rows.append((inp, f"{nbytes / MB:.1f}", f"air-scan --jobs 1: **crashed (exit {e.args[0]})**",
                     "–", "–", "–", "–"))
        notes.append(f"air-scan crashed on {inp}; its stderr is in {bench_dir}/stderr.txt")
        return
    tool = "air-scan --jobs 1" + (f" (exit {','.join(map(str, sorted(codes)))})" if codes != {0} else "")
    row(inp, nbytes, tool, wall, rss)
    try:
        with open(out) as f:
            json.load(f)
    except Exception as e:  # noqa: BLE001
        notes.append(f"air-scan output on {inp} is not valid JSON ({e}); see {out}")
    ratios[key] = (nbytes / wall, rss / nbytes)


# Process start-up of llvm-as (empty module), to show what the per-file loop pays for it.
startup = None
if llvm_as:
    empty = os.path.join(bench_dir, "empty.ll")
    with open(empty, "w") as f:
        f.write('target triple = "air64-apple-macosx15.0.0"\n')
    startup = sorted(run_once([llvm_as, "-disable-output", "-disable-verify", empty])[0] for _ in range(21))[10]
    base_rss = run_once([llvm_as, "-disable-output", "-disable-verify", empty])[1]

# (a) the corpus
inp_all = f"corpus, all {len(all_ll)} `.ll`"
inp_opq = f"corpus, {len(opaque)} `.opaque.ll`"
if air_scan:
    air_scan_row(inp_all, s_all, [corpus], "corpus-all")
    air_scan_row(inp_opq, s_opq, opaque, "corpus-opaque")
if llvm_as:
    wall, rss, _ = bench("llvm-as-22 corpus (per file)",
                         [[llvm_as, "-disable-output", "-disable-verify", p] for p in opaque])
    row(inp_opq, s_opq, "llvm-as-22, 1 process per file", wall, rss, ratio=False)
    adj = wall - len(opaque) * startup
    if adj > 0:
        row(inp_opq, s_opq, f"llvm-as-22, minus {len(opaque)}× start-up²", adj, rss, ratio=False)
    ratios["llvm-corpus"] = (s_opq / wall, None)
    ratios["llvm-corpus-adj"] = (s_opq / adj if adj > 0 else None, None)

# (b) one large module
inp_lo = "large module, opaque ptrs"
inp_lt = "large module, typed ptrs"
if air_scan:
    air_scan_row(inp_lo, s_lo, [large_opaque], "large-opaque")
if llvm_as:
    wall, rss, _ = bench("llvm-as-22 large", [[llvm_as, "-disable-output", "-disable-verify", large_opaque]])
    row(inp_lo, s_lo, "llvm-as-22 -disable-verify", wall, rss)
    ratios["llvm-large"] = (s_lo / wall, rss / s_lo)
if air_scan:
    air_scan_row(inp_lt, s_lt, [large_typed], "large-typed")
if llvm_as14:
    wall, rss, _ = bench("llvm-as-14 large typed", [[llvm_as14, "-disable-output", "-disable-verify", large_typed]])
    row(inp_lt, s_lt, "llvm-as-14 -disable-verify (info)", wall, rss)

# --- report ---
def first_line(cmd):
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
print(f"- Machine: `nproc` = {first_line(['nproc'])}, "
      f"CPU: {cpu}, {os.uname().sysname} {os.uname().release}")
if llvm_as:
    ver = [l.strip() for l in subprocess.run([llvm_as, "--version"], capture_output=True, text=True).stdout.splitlines() if "version" in l]
    print(f"- llvm-as: `{llvm_as}` ({ver[0] if ver else '?'})")
print(f"- air-scan: `{air_scan or 'not built (rows skipped)'}`")
print(f"- Date: {time.strftime('%Y-%m-%d %H:%M %Z')}; best of {runs} runs, warm page cache; "
      f"MB = 10^6 bytes; peak RSS = the process's max resident set (`getrusage`)")
print()
hdr = ("input", "size MB", "tool", "best wall s", "MB/s", "peak RSS MB", "RSS/input")
print("| " + " | ".join(hdr) + " |")
print("|" + "|".join(["---", "---:", "---", "---:", "---:", "---:", "---:"]) + "|")
for r in rows:
    print("| " + " | ".join(r) + " |")
print()
print("¹ One process per file: the peak is that of the largest single run and is mostly the "
      "process's fixed footprint" + (f" ({base_rss / MB:.0f} MB for an empty module)" if llvm_as else "") +
      ", so a ratio to the corpus size means nothing.")
if llvm_as:
    print(f"² Wall time minus {len(opaque)} × {startup * 1000:.1f} ms, llvm-as-22's median time "
          "(21 runs) on an empty module: an estimate of its parse throughput without process start-up.")
print(f"The large modules are made by `benches/make_large_module.py` (every corpus module copied "
      f"under new names into one module, ≈ {s_lo / s_opq:.1f} copies of each); on each input, air-scan "
      "and llvm-as read the same bytes.")

if air_scan and llvm_as and {"large-opaque", "large-typed", "corpus-opaque", "corpus-all"} <= ratios.keys():
    print()
    def verdict(ok):
        return "meets" if ok else "**misses**"
    a_l, m_l = ratios["large-opaque"]
    l_l, lm_l = ratios["llvm-large"]
    a_c, m_c = ratios["corpus-opaque"]
    l_c, _ = ratios["llvm-corpus"]
    l_ca, _ = ratios["llvm-corpus-adj"]
    print(f"- Throughput vs llvm-as-22, large module: **{a_l / l_l:.1f}×** ({verdict(a_l / l_l >= 10)} the ≥ 10× target); "
          f"corpus `.opaque.ll`: {a_c / l_c:.1f}× per-file"
          + (f", {a_c / l_ca:.1f}× against the start-up-free estimate" if l_ca else "") + ".")
    print(f"- air-scan peak memory / input: large opaque {m_l:.2f}×, large typed {ratios['large-typed'][1]:.2f}×, "
          f"corpus {ratios['corpus-all'][1]:.2f}× ({verdict(max(m_l, ratios['large-typed'][1], ratios['corpus-all'][1]) < 1.5)} "
          f"the < 1.5× target; llvm-as-22: {lm_l:.2f}×).")
for n in notes:
    print(f"- Note: {n}")
PY
