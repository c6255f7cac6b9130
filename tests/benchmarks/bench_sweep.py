"""Benchmark of paytable sweeps. Run: .venv/bin/python tests/benchmarks/bench_sweep.py [--tables N] [--candidates N]

Prints, with the core count and the load average (on a shared machine the wall time follows the load):
- the shared counts (rulegen.math.shared) and the reach table (rulegen.math.reach) computed from nothing: what a
  machine pays once (both are then kept in the math cache);
- exact main-game figures per second after the shared counts, for N different Criss Cross tables: on one core
  (one thread), on two threads (the kernel releases the GIL, the fractions at its end do not), and on two
  processes (each with the counts read from the cache, timed once they are in memory);
- whole candidate rows per second (validation, every figure, the maximum win) on one core, in process;
- a sweep of N candidates (`rulegen sweep`'s run_sweep) on a local Dask cluster of two worker processes, from
  start to sweep.csv, and from the first chunk sent to the last one back (the cluster up; each worker's first
  chunk still loads the counts and the kernels).
Every table's figures are also checked against the exact analysis for the first three tables.
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def _tables(n: int):
    from rulegen.game import Paytable

    rows = itertools.product([12, 11, 10, 9, 8], [9, 8, 7, 6], [6, 5, 4], [4, 3], [3, 2], [Fraction(3, 2), 1, 2],
                             [1, "push"])
    out = []
    for full, flush, straight, trips, two, jacks, sixes in itertools.islice(rows, n):
        out.append(Paytable.from_mapping({
            "royal_flush": 250, "straight_flush": 100, "four_of_a_kind": 40, "full_house": full, "flush": flush,
            "straight": straight, "three_of_a_kind": trips, "two_pair": two, "pair_jacks_or_better": jacks,
            "pair_sixes_through_tens": sixes}))
    return out


def _share(n: int, half: int, barrier, results) -> None:
    """One of two processes: the counts in memory and the kernel loaded, then half of the tables."""
    from tests.standard_game import STANDARD_ANTE
    from rulegen.math import shared

    tables = _tables(n)[half::2]
    prepared = shared.prepare(shared.shared_counts())
    shared.figures(prepared, tables[0], STANDARD_ANTE)
    barrier.wait()
    for table in tables:
        shared.figures(prepared, table, STANDARD_ANTE)
    results.put(half)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=400)
    parser.add_argument("--candidates", type=int, default=1000)
    args = parser.parse_args()
    cache = tempfile.mkdtemp(prefix="bench-sweep-")
    os.environ["RULEGEN_CACHE_DIR"] = cache
    try:
        _run(args)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def _run(args) -> None:
    from tests.standard_game import STANDARD_ANTE
    from rulegen.math import reach, shared
    from rulegen.math.main_game import _summarise, run_kernel

    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()}")
    shared.compute_shared_counts(threads=1)  # compiles the kernels (numba's cache) before timing
    started = time.perf_counter()
    counts = shared.shared_counts()
    print(f"shared counts, computed from nothing: {time.perf_counter() - started:.1f} s "
          f"({counts.keys.shape[0]:,} joint tables, {counts.type_offsets.shape[0] - 1:,} kinds of across pair, "
          f"{counts.type_key.shape[0]:,} entries)")
    started = time.perf_counter()
    reach.reach_table()
    print(f"reach table (maximum wins), computed from nothing: {time.perf_counter() - started:.1f} s")
    prepared = shared.prepare(counts)
    tables = _tables(args.tables)
    shared.figures(prepared, tables[0], STANDARD_ANTE)  # loads the kernel
    for table in tables[:3]:
        analysis = _summarise(table, STANDARD_ANTE, run_kernel(table, STANDARD_ANTE))
        figures = shared.figures(prepared, table, STANDARD_ANTE)
        assert (figures.ev_per_ante, figures.variance, figures.hit_frequency_exact,
                figures.average_total_wager_exact) == (analysis.ev_per_ante, analysis.variance,
                                                       analysis.hit_frequency_exact,
                                                       analysis.average_total_wager_exact)
    print("the first three tables' figures equal the exact analysis's")
    started = time.perf_counter()
    for table in tables:
        shared.figures(prepared, table, STANDARD_ANTE)
    one = len(tables) / (time.perf_counter() - started)
    print(f"exact main-game figures, one core: {one:.0f} tables per second")
    started = time.perf_counter()
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda t: shared.figures(prepared, t, STANDARD_ANTE), tables))
    two = len(tables) / (time.perf_counter() - started)
    print(f"exact main-game figures, two threads: {two:.0f} tables per second")
    import multiprocessing

    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(3), context.Queue()
    children = [context.Process(target=_share, args=(len(tables), half, barrier, results)) for half in (0, 1)]
    for child in children:
        child.start()
    barrier.wait()  # both have the counts in memory and the kernel loaded
    started = time.perf_counter()
    for _ in children:
        results.get()
    processes = len(tables) / (time.perf_counter() - started)
    for child in children:
        child.join()
    print(f"exact main-game figures, two processes: {processes:.0f} tables per second")

    from rulegen.sweep.evaluate import evaluate_candidate
    from rulegen.sweep.run import run_sweep
    from rulegen.sweep.spec import load_spec

    folder = Path(tempfile.mkdtemp(prefix="bench-sweep-spec-"))
    try:
        shutil.copy(ROOT / "jurisdictions" / "samples" / "house-six-card-bonus.yaml", folder / "base.yaml")
        values = {"full_house": [12, 11, 10, 9, 8], "flush": [9, 8, 7, 6], "straight": [6, 5, 4, 3.5, 3],
                  "three_of_a_kind": [4, 3, 2.5, 2], "two_pair": [3, 2, 1.5, 1], "pair_jacks_or_better": [2, 1.5, 1]}
        total = 1
        lines = ["base: base.yaml", "vary:"]
        for row, options in values.items():
            if total >= args.candidates:
                break
            take = options[:max(1, min(len(options), -(-args.candidates // total)))]
            total *= len(take)
            lines.append(f"  paytables.criss_cross.{row}: {take}")
        lines.append("filter:\n  house_edge: {min: 0.0, max: 0.2}")
        (folder / "spec.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
        spec = load_spec(folder / "spec.yaml")
        evaluate_candidate(spec, 0)
        sample = min(spec.count, 200)
        started = time.perf_counter()
        for index in range(sample):
            evaluate_candidate(spec, index)
        print(f"whole candidate rows (validation, every figure, maximum win), one core: "
              f"{sample / (time.perf_counter() - started):.0f} per second")
        started = time.perf_counter()
        summary = run_sweep(spec, folder / "out", workers=2)
        elapsed = time.perf_counter() - started
        print(f"rulegen sweep of {summary.candidates:,} candidates on a local cluster of two worker processes: "
              f"{elapsed:.1f} s from start to sweep.csv ({summary.candidates / elapsed:.0f} per second, cluster "
              f"start-up and each worker's first load of the counts and kernels included); "
              f"{summary.passing:,} pass the filter, {summary.front} on the Pareto front; computing alone "
              f"{summary.computing_seconds:.1f} s ({summary.candidates / summary.computing_seconds:.0f} per second)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
