"""Benchmark of `rulegen math` in a fresh process. Run: .venv/bin/python tests/benchmarks/bench_math_cli.py
[--runs N] [SAMPLE ...] (default: the four bundled samples, three runs each).

For each sample, `rulegen math FILE` and `rulegen math --json FILE` each run as a new process, timed from outside
(wall time, and the child's CPU time, user + system, from the operating system):
- cold: RULEGEN_CACHE_DIR empty, so every figure is computed in the run: the exact analysis, the bonus tables, the
  maximum win and the 2,000,000-round Monte Carlo; what a final build computes (it reads no cached figure);
- warm: the same folder after the cold run (the figures read back from the math cache, checksummed).
Numba's compile cache is warmed once before any timing (its first compilation is bench_math.py's business), and a
cold and a warm run must print the same bytes (the figures do not depend on where they come from). Medians of the
runs; the core count and the load average are printed: on a shared machine the wall time follows the load, the CPU
time much less.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def _command() -> list[str]:
    script = Path(sys.executable).with_name("rulegen")
    return [str(script)] if script.exists() else [sys.executable, "-m", "rulegen"]


def run_once(arguments: list[str], cache: Path) -> tuple[float, float, bytes]:
    """(wall seconds, CPU seconds, standard output) of one `rulegen math` in a new process."""
    env = {**os.environ, "RULEGEN_CACHE_DIR": str(cache)}
    env.pop("RULEGEN_PROGRESS", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([*_command(), "math", *arguments], env=env, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"rulegen math {' '.join(arguments)} failed ({done.returncode}): {done.stderr.decode()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def measure(sample: Path, as_json: bool, runs: int, scratch: Path) -> dict[str, float]:
    arguments = (["--json"] if as_json else []) + [str(sample)]
    cold_wall, cold_cpu, warm_wall, warm_cpu = [], [], [], []
    for number in range(runs):
        cache = scratch / f"{sample.stem}-{'json' if as_json else 'text'}-{number}"
        shutil.rmtree(cache, ignore_errors=True)
        wall, cpu, computed = run_once(arguments, cache)
        cold_wall.append(wall)
        cold_cpu.append(cpu)
        wall, cpu, cached = run_once(arguments, cache)
        if cached != computed:
            raise SystemExit(f"{sample.name}: the figures read from the cache differ from the figures computed")
        warm_wall.append(wall)
        warm_cpu.append(cpu)
    return {"cold_wall": statistics.median(cold_wall), "cold_cpu": statistics.median(cold_cpu),
            "warm_wall": statistics.median(warm_wall), "warm_cpu": statistics.median(warm_cpu)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("samples", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    samples = options.samples or sorted((ROOT / "jurisdictions" / "samples").glob("*.yaml"))
    with tempfile.TemporaryDirectory(prefix="rulegen-bench-math-cli-") as folder:
        scratch = Path(folder)
        run_once([str(samples[0])], scratch / "warm-up")  # numba's compile cache filled (or found) once
        print(f"cores: {os.cpu_count()}; load average at start: {os.getloadavg()[0]:.2f}; runs: {options.runs}")
        print(f"{'sample':32} {'output':6} {'cold wall':>10} {'cold CPU':>9} {'warm wall':>10} {'warm CPU':>9}")
        for sample in samples:
            for as_json in (False, True):
                row = measure(sample, as_json, options.runs, scratch)
                print(f"{sample.name:32} {'json' if as_json else 'text':6} {row['cold_wall']:9.2f}s "
                      f"{row['cold_cpu']:8.2f}s {row['warm_wall']:9.2f}s {row['warm_cpu']:8.2f}s", flush=True)
        print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
