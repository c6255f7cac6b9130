"""Benchmark: `rulegen build` of each bundled sample with a warm math cache (target: under 3 s each).

Run: .venv/bin/python tests/benchmarks/bench_build.py [--runs N]
The first build of each sample warms the cache (its time is printed too); then each sample is built N times
(default 5) as a user would run it, a fresh `rulegen build FILE` process, and the median is reported: the
wall-clock time and the CPU time of the process and the processes it started. On a shared machine the
wall-clock time depends on the load (printed beside it); the CPU time much less.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def rulegen() -> list[str]:
    exe = Path(sys.executable).parent / "rulegen"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "rulegen"]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], env: dict) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the command and its children, exit status)."""
    cpu = children_cpu()
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=False)
    wall = time.perf_counter() - start
    if done.returncode:
        sys.stderr.write(done.stderr.decode(errors="replace"))
    return wall, children_cpu() - cpu, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    arguments = parser.parse_args()
    from rulegen.resources import samples_dir

    cache = tempfile.mkdtemp(prefix="rulegen-bench-cache-")
    out = tempfile.mkdtemp(prefix="rulegen-bench-build-")
    env = {**os.environ, "RULEGEN_CACHE_DIR": cache}
    print(f"cores: {os.cpu_count()}")
    worst = 0.0
    for sample in sorted(samples_dir().glob("*.yaml")):
        command = rulegen() + ["build", str(sample), "--out", out]
        cold, _cpu, status = timed(command, env)
        runs = [timed(command, env) for _ in range(arguments.runs)]
        wall = statistics.median(run[0] for run in runs)
        cpu = statistics.median(run[1] for run in runs)
        worst = max(worst, wall)
        load = os.getloadavg()[0]
        print(f"{sample.name}: cold cache {cold:.2f} s (exit {status}); warm cache, median of {len(runs)}: "
              f"{wall:.2f} s wall [{', '.join(f'{r[0]:.2f}' for r in runs)}], {cpu:.2f} s CPU; load {load:.1f}")
    print(f"slowest warm build: {worst:.2f} s (target < 3 s): {'ok' if worst < 3 else 'OVER'}")


if __name__ == "__main__":
    main()
