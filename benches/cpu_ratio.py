#!/usr/bin/env python3
"""CPU time of two air-scan binaries on the same inputs, runs interleaved.

    python3 benches/cpu_ratio.py OLD_BIN NEW_BIN FILE... [> /tmp/cpu.md]

Wall time on this shared machine swings by a third or more; CPU time (perf's
task-clock: what the process ran, not what it waited) swings less, though a
VM's steal and frequency changes still move it by ~10%. Each round runs both
binaries as `--jobs 1 --format json FILE > /dev/null`, in turn order swapped
every round, under `perf stat -e task-clock`. Per input it prints the median
and the minimum of each and their ratios (new / old), and the median of the
rounds' own ratios (paired: the two runs of a round are back to back). Environment: ROUNDS
(default 15). Needs `perf` (linux-perf).
"""
import os
import shutil
import statistics
import subprocess
import sys


def task_clock_ms(binary, path):
    err = subprocess.run(
        ["perf", "stat", "-x,", "-e", "task-clock", binary, "--jobs", "1", "--format", "json", path],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    ).stderr
    for line in err.splitlines():
        if "task-clock" in line:
            return float(line.split(",")[0])
    sys.exit(f"cpu_ratio: no task-clock from perf for {binary} {path}:\n{err}")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    if not shutil.which("perf"):
        sys.exit("cpu_ratio: perf is missing (apt-get install linux-perf)")
    old, new, inputs = sys.argv[1], sys.argv[2], sys.argv[3:]
    rounds = int(os.environ.get("ROUNDS", "15"))
    print("| input | old median ms | new median ms | ratio | old min | new min | ratio | paired ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for path in inputs:
        times = {old: [], new: []}
        for r in range(rounds):
            for b in (old, new) if r % 2 == 0 else (new, old):
                times[b].append(task_clock_ms(b, path))
        mo, mn = statistics.median(times[old]), statistics.median(times[new])
        lo, ln = min(times[old]), min(times[new])
        # Each round's two runs are back to back, so the median of the
        # rounds' own ratios is the least moved by the VM's speed drifting.
        paired = statistics.median(n / o for o, n in zip(times[old], times[new]))
        name = os.path.basename(path)
        print(
            f"| {name} | {mo:.1f} | {mn:.1f} | {mn / mo:.3f} | {lo:.1f} | {ln:.1f} | {ln / lo:.3f} | {paired:.3f} |"
        )


if __name__ == "__main__":
    main()
