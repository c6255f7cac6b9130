"""Benchmark: `rulegen build` of each bundled sample with a warm math cache (target: under 10 s each).

Run: .venv/bin/python tests/benchmarks/bench_build.py
The first build of each sample warms the cache (its time is printed too); then each sample is built three
times as a user would run it (a fresh `rulegen build FILE` process) and the median is reported, with the
time of each step inside one in-process build.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def rulegen() -> list[str]:
    exe = Path(sys.executable).parent / "rulegen"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "rulegen"]


def timed(command: list[str], env: dict) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=False)
    if done.returncode:
        sys.stderr.write(done.stderr.decode(errors="replace"))
    return time.perf_counter() - start, done.returncode


def main() -> None:
    from rulegen.resources import samples_dir

    cache = tempfile.mkdtemp(prefix="rulegen-bench-cache-")
    out = tempfile.mkdtemp(prefix="rulegen-bench-build-")
    env = {**os.environ, "RULEGEN_CACHE_DIR": cache}
    os.environ["RULEGEN_CACHE_DIR"] = cache
    print(f"cores: {os.cpu_count()}")
    worst = 0.0
    for sample in sorted(samples_dir().glob("*.yaml")):
        command = rulegen() + ["build", str(sample), "--out", out]
        cold, status = timed(command, env)
        runs = [timed(command, env)[0] for _ in range(3)]
        median = statistics.median(runs)
        worst = max(worst, median)
        from rulegen import build as pipeline

        result = pipeline.build(sample, pipeline.BuildOptions(out_dir=Path(out)))
        steps = ", ".join(f"{k} {v:.2f}" for k, v in result.timings.items())
        print(f"{sample.name}: cold cache {cold:.2f} s (exit {status}); warm cache, median of 3: {median:.2f} s "
              f"[{', '.join(f'{r:.2f}' for r in runs)}]; in-process steps: {steps}")
    print(f"slowest warm build: {worst:.2f} s (target < 10 s): {'ok' if worst < 10 else 'OVER'}")


if __name__ == "__main__":
    main()
