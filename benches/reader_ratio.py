#!/usr/bin/env python3
"""The reader's throughput against llvm-as-22's, in interleaved rounds (issue 2).

    cargo bench --bench read --no-run            # builds the reader bench
    python3 benches/reader_ratio.py > /tmp/ratio.md

On a shared machine one slow moment decides a single comparison, so each round
times the reader (benches/read.rs with READER_ONLY=1, best of 5 in one process,
text already in memory) and then llvm-as-22 -disable-output -disable-verify
(best of 3) on the same file, one input after the other, and the ratio is taken
within the round. The summary gives each input's median and worst round.

With CALLGRIND=1 it also counts, with callgrind, the instructions both execute on
the corpus-as-one-module input, less what each spends on an empty module: a
number that does not move with the load (but llvm-as retires fewer instructions
a cycle than the reader, so it understates the wall-time ratio).

With SCAN=1 (issue 8's measure) each round times the whole scan instead: every
binary in AIR_SCAN (default target/release/air-scan; several, space-separated,
to compare commits in the same rounds) as `--jobs 1 --format json FILE` with the
report written to /dev/null, then llvm-as-22, then `grep -cE
'udiv|sdiv|urem|srem'`, best of 3 processes each (several binaries' runs in
turn, each round starting with the next); the ratios to llvm-as-22 and to grep
are taken within the round, and with several binaries a last table gives each
one's throughput over the first's, median of the rounds.

Inputs: the modules benches/read_bench.sh makes in BENCH_DIR (default
${TMPDIR:-/tmp}/air-scan-bench): corpus-merged.opaque.ll, large-100MB.opaque.ll,
large-100MB.typed.ll; missing ones are made with benches/make_large_module.py.
Environment: ROUNDS (default 5), LLVM_AS, READER (the bench binary), CORPUS, SCAN,
AIR_SCAN, INPUT_NAMES (file names in BENCH_DIR to use, space-separated; default
the three above).
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
E = os.environ
BENCH_DIR = E.get("BENCH_DIR") or os.path.join(E.get("TMPDIR", "/tmp"), "air-scan-bench")
CORPUS = E.get("CORPUS") or os.path.join(ROOT, "..", "shared", "corpus")
ROUNDS = int(E.get("ROUNDS", "5"))
MB = 1e6


def log(msg):
    print("reader_ratio: " + msg, file=sys.stderr, flush=True)


def fail(msg):
    log("error: " + msg)
    sys.exit(1)


def reader_binary():
    if E.get("READER"):
        return E["READER"]
    p = subprocess.run(["cargo", "bench", "--bench", "read", "--no-run"], cwd=ROOT,
                       capture_output=True, text=True)
    found = re.findall(r"Executable .*\((.*)\)", p.stderr + p.stdout)
    if not found:
        fail("could not build the read bench:\n" + p.stderr[-2000:])
    return os.path.join(ROOT, found[-1])


LLVM_AS = E.get("LLVM_AS") or shutil.which("llvm-as-22") or "/usr/lib/llvm-22/bin/llvm-as"
if not os.access(LLVM_AS, os.X_OK):
    fail("llvm-as-22 not found (apt-get install llvm-22, or set LLVM_AS)")
SCAN = bool(E.get("SCAN"))
AIR_SCANS = (E.get("AIR_SCAN") or os.path.join(ROOT, "target", "release", "air-scan")).split()
READER = None if SCAN else reader_binary()

INPUTS = [
    ("corpus `.opaque.ll` as one module", "corpus-merged.opaque.ll", ["--one-pass"]),
    ("large module, opaque pointers", "large-100MB.opaque.ll", ["--size-mb", "100"]),
    ("large module, typed pointers", "large-100MB.typed.ll", ["--size-mb", "100", "--typed"]),
]
if E.get("INPUT_NAMES"):
    wanted = E["INPUT_NAMES"].split()
    INPUTS = [i for i in INPUTS if i[1] in wanted] + [
        (n, n, None) for n in wanted if n not in {i[1] for i in INPUTS}]
os.makedirs(BENCH_DIR, exist_ok=True)
for _label, name, args in INPUTS:
    path = os.path.join(BENCH_DIR, name)
    if not os.path.exists(path):
        if args is None:
            fail(f"{path} is missing")
        if not os.path.isdir(CORPUS):
            fail(f"{path} is missing and there is no corpus at {CORPUS} to make it from")
        log(f"making {path}")
        subprocess.run([sys.executable, os.path.join(HERE, "make_large_module.py"), CORPUS, path,
                        *args], check=True)


def reader_seconds(path):
    env = {**E, "READER_ONLY": "1", "RUNS": "5"}
    p = subprocess.run([READER, path], env=env, capture_output=True, text=True)
    m = re.search(r"best ([0-9.]+) s", p.stdout)
    if p.returncode != 0 or not m:
        fail(f"the reader bench failed on {path}: {p.stderr[-1000:]}")
    return float(m.group(1))


def process_seconds(cmd, ok=(0,), runs=3, stdout=subprocess.DEVNULL):
    """Best wall time of `runs` processes; exit statuses outside `ok` fail."""
    return interleaved_seconds([cmd], ok, runs, stdout)[0]


def interleaved_seconds(cmds, ok=(0,), runs=3, stdout=subprocess.DEVNULL, first=0):
    """Best wall time of `runs` processes of each command, run in turn
    (`first`'s first), so that a slow spell of the machine falls on all of
    them rather than on one command's runs."""
    best = [float("inf")] * len(cmds)
    order = list(range(first, len(cmds))) + list(range(first))
    for _ in range(runs):
        for k in order:
            t0 = time.perf_counter()
            p = subprocess.run(cmds[k], stdout=stdout, stderr=subprocess.PIPE)
            if p.returncode not in ok:
                fail(f"{' '.join(cmds[k])}: exit {p.returncode}: "
                     f"{p.stderr[-1000:].decode(errors='replace')}")
            best[k] = min(best[k], time.perf_counter() - t0)
    return best


def llvm_as_seconds(path):
    return process_seconds([LLVM_AS, "-disable-output", "-disable-verify", path])


def scan_round(r, label, path):
    """One SCAN=1 round on one input: a table row, and the ratios per binary."""
    size = os.path.getsize(path) / MB
    # air-scan exits 1 when it reports findings; grep exits 1 when it counts none.
    # Several binaries: their runs interleaved, each round starting with the next.
    ours = interleaved_seconds([[b, "--jobs", "1", "--format", "json", path] for b in AIR_SCANS],
                               ok=(0, 1), first=r % len(AIR_SCANS))
    llvm = llvm_as_seconds(path)
    # Into a pipe: GNU grep stops at the first match when its output is /dev/null.
    grep = process_seconds(["grep", "-cE", "udiv|sdiv|urem|srem", path], ok=(0, 1),
                           stdout=subprocess.PIPE)
    cells = " | ".join(f"{size / s:.0f} ({llvm / s:.1f}x, {grep / s:.2f})" for s in ours)
    log(f"round {r}, {label}: {cells}; llvm-as {size / llvm:.1f} MB/s, grep {size / grep:.0f} MB/s")
    return (f"| {r} | {label} | {size:.1f} | {cells} | {size / llvm:.1f} | {size / grep:.0f} |",
            [(llvm / s, grep / s, ours[0] / s) for s in ours])


def scan_main():
    load0 = loadavg()
    rows, by_input = [], {label: [] for label, _, _ in INPUTS}
    for r in range(1, ROUNDS + 1):
        for label, name, _ in INPUTS:
            row, rs = scan_round(r, label, os.path.join(BENCH_DIR, name))
            rows.append(row)
            by_input[label].append(rs)
    names = " | ".join(f"`{b}` MB/s (÷ llvm-as, ÷ grep)" for b in AIR_SCANS)
    print(f"- {time.strftime('%Y-%m-%d %H:%M %Z')}, `nproc` = {os.cpu_count()}, load average "
          f"{load0} before and {loadavg()} after; {ROUNDS} rounds; each command best of 3 "
          "processes; air-scan `--jobs 1 --format json` to /dev/null; MB = 10^6 bytes")
    print()
    print(f"| round | input | MB | {names} | llvm-as-22 MB/s | grep -cE MB/s |")
    print("|---:|---|---:|" + "---:|" * len(AIR_SCANS) + "---:|---:|")
    print("\n".join(rows))
    print()
    print("| input | binary | median ÷ llvm-as-22 (worst, best round) | median ÷ grep (worst, best) |")
    print("|---|---|---:|---:|")
    for label, rounds in by_input.items():
        for k, b in enumerate(AIR_SCANS):
            vs_as = [rs[k][0] for rs in rounds]
            vs_grep = [rs[k][1] for rs in rounds]
            print(f"| {label} | `{b}` | **{statistics.median(vs_as):.1f}x** ({min(vs_as):.1f}-"
                  f"{max(vs_as):.1f}) | **{statistics.median(vs_grep):.2f}** "
                  f"({min(vs_grep):.2f}-{max(vs_grep):.2f}) |")
    if len(AIR_SCANS) > 1:
        print()
        print("| input | binary | median of the rounds' throughput ÷ the first binary's (worst, best) |")
        print("|---|---|---:|")
        for label, rounds in by_input.items():
            for k, b in enumerate(AIR_SCANS[1:], start=1):
                vs_first = [rs[k][2] for rs in rounds]
                print(f"| {label} | `{b}` | **{statistics.median(vs_first):.2f}** "
                      f"({min(vs_first):.2f}-{max(vs_first):.2f}) |")


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


if SCAN:
    scan_main()
    sys.exit(0)

load0 = loadavg()
ratios = {label: [] for label, _, _ in INPUTS}
best_speed = {label: [0.0, 0.0] for label, _, _ in INPUTS}  # MB/s: reader, llvm-as
lines = []
for r in range(1, ROUNDS + 1):
    for label, name, _ in INPUTS:
        path = os.path.join(BENCH_DIR, name)
        size = os.path.getsize(path)
        ours = reader_seconds(path)
        theirs = llvm_as_seconds(path)
        ratio = theirs / ours
        ratios[label].append(ratio)
        best = best_speed[label]
        best[0], best[1] = max(best[0], size / MB / ours), max(best[1], size / MB / theirs)
        log(f"round {r}, {name}: reader {size / MB / ours:.0f} MB/s, llvm-as {size / MB / theirs:.1f} MB/s, {ratio:.1f}x")
        lines.append(f"| {r} | {label} | {size / MB:.1f} | {size / MB / ours:.0f} | "
                     f"{size / MB / theirs:.1f} | {ratio:.1f}x |")

print(f"- {time.strftime('%Y-%m-%d %H:%M %Z')}, `nproc` = {os.cpu_count()}, load average "
      f"{load0} before and {loadavg()} after; {ROUNDS} rounds; reader: best of 5 in process, "
      "text in memory; llvm-as-22 -disable-output -disable-verify: best of 3 processes; MB = 10^6 bytes")
print()
print("| round | input | MB | reader MB/s | llvm-as-22 MB/s | reader / llvm-as |")
print("|---:|---|---:|---:|---:|---:|")
print("\n".join(lines))
print()
print("| input | median ratio | worst round | best round | best reader MB/s ÷ best llvm-as MB/s |")
print("|---|---:|---:|---:|---:|")
for label, rs in ratios.items():
    (ours, theirs) = best_speed[label]
    print(f"| {label} | **{statistics.median(rs):.1f}x** | {min(rs):.1f}x | {max(rs):.1f}x | "
          f"{ours:.0f} ÷ {theirs:.1f} = **{ours / theirs:.1f}x** |")

if E.get("CALLGRIND"):
    def instructions(cmd, env=None):
        p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
                           env=env, capture_output=True, text=True)
        m = re.search(r"Collected : (\d+)", p.stderr)
        if not m:
            fail("callgrind failed: " + p.stderr[-1000:])
        return int(m.group(1))

    merged = os.path.join(BENCH_DIR, INPUTS[0][1])
    empty = os.path.join(BENCH_DIR, "empty.ll")
    with open(empty, "w") as f:
        f.write('target triple = "air64-apple-macosx15.0.0"\n')
    renv = {**E, "READER_ONLY": "1", "RUNS": "1"}
    ours = instructions([READER, merged], renv) - instructions([READER, empty], renv)
    as_cmd = [LLVM_AS, "-disable-output", "-disable-verify"]
    theirs = instructions([*as_cmd, merged]) - instructions([*as_cmd, empty])
    size = os.path.getsize(merged)
    print()
    print(f"Instructions on {INPUTS[0][0]} ({size / MB:.1f} MB), less an empty module's: reader "
          f"{ours / 1e6:.0f} M ({ours / size:.1f} a byte; this includes copying the file into "
          f"memory), llvm-as-22 {theirs / 1e6:.0f} M ({theirs / size:.1f} a byte): "
          f"**{theirs / ours:.1f}x**.")
