"""Benchmark of `rulegen math` in a fresh process. Run: .venv/bin/python tests/benchmarks/bench_math_cli.py
[--runs N] [SAMPLE ...] (default: the four bundled samples, three runs each).

Each `rulegen math FILE` (and `rulegen math --json FILE`) runs as a new process, timed from outside: wall time,
and the child's CPU time (user + system) from the operating system. Three situations, each defined by what the
math cache (RULEGEN_CACHE_DIR) holds when the process starts:

- first run on a machine: the cache empty. The run computes what every later run on the machine reads: the
  shared counts of the main game and the Monte Carlo's deals (rulegen.math.shared, rulegen.math.counted), the
  per-hand reach tables where a progressive's meter needs them, the pay classes of every 3-card set with every
  pair, the bonus class counts; then every figure of the offering. Measured once per sample (--json).
- fresh process, new paytable, counts cached: the cache holds only those machine-wide files (copied from the
  first run's cache), none of the offering's own figures: its main game, with the 2,000,000-round Monte Carlo,
  its bonus tables and its maximum win are computed in the run, from the counts. This is what a final build
  prints, found the way a draft build or a preview of a paytable never analysed finds it.
- fresh process, same offering (result cached): the cache after that run; every figure read back, checksummed.

numba's compile cache is warmed once before any timing (compilation is once per installation, bench_math.py's
business); no compiled kernel is loaded in the last two situations. Every run of a sample must print the same
bytes (the figures do not depend on where they come from). Medians of the runs; the core count and the load
average are printed: on a shared machine the wall time follows the load, the CPU time much less.
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


def machine_wide_files(cache: Path) -> list[Path]:
    """The files of `cache` that hold no offering's figures: what a first run computes for every later one."""
    from rulegen.math import bonus, reach
    from rulegen.math import cache as disk
    from rulegen.math import maxwin_search

    keys = [disk.key("class_counts", bonus.CODE_VERSION, 5), disk.key("class_counts", bonus.CODE_VERSION, 6),
            disk.key("hand_reach_tables", reach.HAND_TABLES_VERSION),
            disk.key("triple_classes", maxwin_search.CLASSES_VERSION)]
    found = [*cache.glob("shared-counts-*.npz"), *cache.glob("monte-carlo-deals-*.npz")]
    return found + [cache / f"{key}.json" for key in keys if (cache / f"{key}.json").exists()]


def measure(sample: Path, runs: int, scratch: Path) -> list[tuple[str, str, float, float, float, float]]:
    """Rows (situation, output, median wall, median CPU, least wall, least CPU)."""
    first = scratch / f"{sample.stem}-first"
    shutil.rmtree(first, ignore_errors=True)
    wall, cpu, expected = run_once(["--json", str(sample)], first)
    rows = [("first run on a machine", "json", wall, cpu, wall, cpu)]
    for output in ("text", "json"):
        arguments = (["--json"] if output == "json" else []) + [str(sample)]
        new, cached = [], []
        reference = None
        for number in range(runs):
            cache = scratch / f"{sample.stem}-{output}-{number}"
            shutil.rmtree(cache, ignore_errors=True)
            cache.mkdir()
            for path in machine_wide_files(first):
                shutil.copy(path, cache / path.name)
            wall, cpu, computed = run_once(arguments, cache)
            new.append((wall, cpu))
            wall, cpu, read = run_once(arguments, cache)
            cached.append((wall, cpu))
            reference = reference or computed
            if computed != reference or read != reference or (output == "json" and computed != expected):
                raise SystemExit(f"{sample.name}: the figures differ between runs (computed, cached, first run)")
        for name, times in (("new paytable, counts cached", new), ("same offering, result cached", cached)):
            walls, cpus = [w for w, _ in times], [c for _, c in times]
            rows.append((name, output, statistics.median(walls), statistics.median(cpus), min(walls), min(cpus)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("samples", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    samples = options.samples or sorted((ROOT / "jurisdictions" / "samples").glob("*.yaml"))
    with tempfile.TemporaryDirectory(prefix="rulegen-bench-math-cli-") as folder:
        scratch = Path(folder)
        for sample in samples:  # numba's compile cache filled (or found): every kernel a first run may load
            run_once([str(sample)], scratch / "warm-up")
        print(f"cores: {os.cpu_count()}; load average at start: {os.getloadavg()[0]:.2f}; runs: {options.runs}")
        print(f"{'sample':28} {'situation':30} {'output':6} {'wall':>7} {'CPU':>7} {'least wall':>10} "
              f"{'least CPU':>9}")
        for sample in samples:
            for situation, output, wall, cpu, least_wall, least_cpu in measure(sample, options.runs, scratch):
                print(f"{sample.name:28} {situation:30} {output:6} {wall:6.2f}s {cpu:6.2f}s {least_wall:9.2f}s "
                      f"{least_cpu:8.2f}s", flush=True)
        print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
