"""Benchmark of the math layer. Run: .venv/bin/python tests/benchmarks/bench_math.py [--runs N] [--skip-slow]

Each timed step runs in a fresh Python process (nothing memoised in process) with an empty RULEGEN_CACHE_DIR
("cold" = no result cache), after one warm-up that fills numba's compile cache; the compile cost is measured
apart, with an empty NUMBA_CACHE_DIR ("first run"). Medians of several runs; the core count, the load average
and each step's CPU time are printed (on a shared machine the wall time follows the load).

The exact main-game analysis is timed three ways, for the fast algorithm (rulegen.math.exact) and, in the same
run, the previous one (tests/reference_kernel.py), whose ratio is printed:
- cold: a fresh process, the result cache empty; the timer runs around analyse_main_game only, so it includes
  importing numba and loading the compiled kernels from numba's cache (numba's fixed start-up is printed apart);
- warm: the same process analyses two more paytables (HOUSE, an odd table) after a first one: what each further
  table costs in a session, a sweep or a regulator's batch;
- first run: numba's compile cache empty too (compilation included).
Then the fast and the previous analyses are compared on all 169 starting hands for the standard, HOUSE and an
odd paytable: every array of every hand, and the whole report, equal. Finally the slow tests run under pytest.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

REFERENCE = """
from rulegen.math import main_game as _mg
from tests.reference_kernel import run_reference_kernel
_mg.run_kernel = run_reference_kernel
"""

WARM = """
from tests.standard_game import STANDARD_RULES
from rulegen.math.main_game import analyse_main_game
from tests.conftest_math import HOUSE, ODD  # the tables the tests compare on
analyse_main_game(STANDARD_RULES, use_cache=False, monte_carlo_rounds=0)
seconds, cpu = [], []
for table in (HOUSE, ODD):
    t = time.perf_counter(); c = time.process_time()
    analyse_main_game((table, STANDARD_RULES.ante), use_cache=False, monte_carlo_rounds=0)
    seconds.append(time.perf_counter() - t); cpu.append(time.process_time() - c)
out["seconds"] = statistics.median(seconds); out["cpu"] = statistics.median(cpu)
"""

COMPARE = """
import numpy as np
from tests.standard_game import STANDARD_ANTE, STANDARD_CRISS_CROSS
from rulegen.math import main_game as mg
from tests.conftest_math import HOUSE, THIRDS  # the tables the tests compare on
from tests.reference_kernel import run_reference_kernel
fast_kernel = mg.run_kernel
checked = []
for name, table in (("standard", STANDARD_CRISS_CROSS), ("HOUSE", HOUSE), ("thirds", THIRDS)):
    runs = {}
    for which, kernel in (("fast", fast_kernel), ("reference", run_reference_kernel)):
        mg.run_kernel = kernel
        runs[which] = (kernel(table, STANDARD_ANTE), mg.analyse_main_game((table, STANDARD_ANTE), use_cache=False,
                                                                         monte_carlo_rounds=0))
    (fast_run, fast_report), (ref_run, ref_report) = runs["fast"], runs["reference"]
    arrays_equal = len(fast_run.results) == len(ref_run.results) == 169 and all(
        np.array_equal(np.asarray(a), np.asarray(b)) for f, r in zip(fast_run.results, ref_run.results)
        for a, b in zip(f, r))
    report_equal = repr(fast_report) == repr(ref_report)
    checked.append({"table": name, "hands": len(fast_run.results), "arrays_equal": arrays_equal,
                    "report_equal": report_equal})
out["checked"] = checked
"""

STEPS = {
    "numba_startup": """
t = time.perf_counter()
import numpy as np
from rulegen.math.exact_kernels import pay_classes_of
pay_classes_of(np.zeros((1, 5), dtype=np.int64))
out["seconds"] = time.perf_counter() - t
""",
    "main_game_warm": WARM,
    "reference_cold": REFERENCE + """
from tests.standard_game import STANDARD_RULES
t = time.perf_counter(); c = time.process_time()
_mg.analyse_main_game(STANDARD_RULES, monte_carlo_rounds=0)
out["seconds"] = time.perf_counter() - t; out["cpu"] = time.process_time() - c
""",
    "reference_warm": REFERENCE + WARM,
    "fast_equals_reference": COMPARE,
    "main_game_cold": """
from tests.standard_game import STANDARD_RULES
from rulegen.math.main_game import analyse_main_game
t = time.perf_counter(); c = time.process_time()
analyse_main_game(STANDARD_RULES, monte_carlo_rounds=0)
out["seconds"] = time.perf_counter() - t; out["cpu"] = time.process_time() - c
""",
    "main_game_with_monte_carlo_cold": """
from tests.standard_game import STANDARD_RULES
from rulegen.math.main_game import analyse_main_game
t = time.perf_counter(); r = analyse_main_game(STANDARD_RULES); out["seconds"] = time.perf_counter() - t
out["monte_carlo_rounds"] = r.monte_carlo.rounds
""",
    "main_game_cached": """
from tests.standard_game import STANDARD_RULES
from rulegen.math.main_game import analyse_main_game
analyse_main_game(STANDARD_RULES, monte_carlo_rounds=0)
t = time.perf_counter()
analyse_main_game(STANDARD_RULES, monte_carlo_rounds=0)
out["seconds"] = time.perf_counter() - t
""",
    "main_game_cached_new_process": """
from tests.standard_game import STANDARD_RULES
from rulegen.math.main_game import analyse_main_game
t = time.perf_counter()
analyse_main_game(STANDARD_RULES, monte_carlo_rounds=0)
out["seconds"] = time.perf_counter() - t
""",
    "five_and_six_card_bonus_cold": """
from rulegen.game import Paytable
from tests.standard_game import STANDARD_FIVE_CARD_BONUS
from rulegen.math.bonus import five_card_bonus, six_card_bonus
six = Paytable.from_mapping({"royal_flush": 1000, "straight_flush": 200, "four_of_a_kind": 50, "full_house": 20,
                             "flush": 15, "straight": 10, "three_of_a_kind": 5})
t = time.perf_counter(); five_card_bonus(STANDARD_FIVE_CARD_BONUS); six_card_bonus(six)
out["seconds"] = time.perf_counter() - t
""",
    "max_win_cold": """
from decimal import Decimal
from tests.standard_game import STANDARD_RULES
from rulegen.math.maxwin import max_win_per_round
counted = frozenset({"ante_across", "ante_down", "across", "down", "middle", "five_card_bonus"})
t = time.perf_counter(); r = max_win_per_round(STANDARD_RULES, Decimal(5), Decimal(1), counted)
out["seconds"] = time.perf_counter() - t; out["amount"] = str(r.amount)
""",
    "bulk_evaluation": """
import numpy as np
import phevaluator
from rulegen.math.fasteval import evaluate_many
t = time.perf_counter(); evaluate_many(np.zeros((1, 5), dtype=np.uint8) + np.arange(5, dtype=np.uint8))
out["first_call_seconds"] = time.perf_counter() - t
rng = np.random.default_rng(1)
n = 20_000_000
deck = np.tile(np.arange(52, dtype=np.uint8), (n // 20, 1))
hands = np.ascontiguousarray(np.concatenate([rng.permuted(deck, axis=1)[:, :5] for _ in range(20)]))
result = np.empty(n, dtype=np.uint16)
rates = []
for _ in range(5):
    t = time.perf_counter(); evaluate_many(hands, result); rates.append(n / (time.perf_counter() - t))
out["ours_hands_per_second"] = statistics.median(rates)
sample = hands[:300_000].tolist()
evaluate = phevaluator.evaluate_cards
t = time.perf_counter()
for a, b, c, d, e in sample:
    evaluate(a, b, c, d, e)
out["phevaluator_hands_per_second"] = len(sample) / (time.perf_counter() - t)
out["ratio"] = out["ours_hands_per_second"] / out["phevaluator_hands_per_second"]
""",
    "tables": """
t = time.perf_counter()
from rulegen.evaluator import strength_arrays
strength_arrays()
out["seconds"] = time.perf_counter() - t
""",
}


def run(step: str, env: dict) -> dict:
    code = "import json, statistics, time\nout = {}\n" + STEPS[step] + "\nprint(json.dumps(out))\n"
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    if completed.returncode != 0:
        raise SystemExit(f"{step} failed:\n{completed.stderr}")
    return json.loads(completed.stdout.strip().splitlines()[-1])


def fresh_env(**extra) -> dict:
    env = dict(os.environ)
    env["RULEGEN_CACHE_DIR"] = tempfile.mkdtemp(prefix="rulegen-bench-cache-")
    env.update(extra)
    return env


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-slow", action="store_true")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}; runs per figure: {args.runs}; medians; load average at start: "
          + ", ".join(f"{v:.1f}" for v in os.getloadavg()))

    # the first run, compile included: every compiled function with an empty numba cache (the main game first,
    # so its figure is its own kernels' compilation)
    compile_env = fresh_env(NUMBA_CACHE_DIR=tempfile.mkdtemp(prefix="rulegen-bench-numba-"))
    compile_seconds = {}
    for step in ("main_game_cold", "max_win_cold", "five_and_six_card_bonus_cold"):
        compile_seconds[step] = run(step, compile_env)["seconds"]
    reference_first = run("reference_cold", fresh_env(NUMBA_CACHE_DIR=tempfile.mkdtemp(prefix="rulegen-bench-numba-")))
    print("first run with an empty numba cache (compile included): "
          + ", ".join(f"{k} {v:.2f} s" for k, v in compile_seconds.items())
          + f"; previous main-game analysis {reference_first['seconds']:.2f} s")
    run("main_game_with_monte_carlo_cold", fresh_env())  # warm numba's own cache for the default location
    run("reference_cold", fresh_env())

    startup = [run("numba_startup", fresh_env())["seconds"] for _ in range(args.runs)]
    print(f"numba start-up in a fresh process (import, first cached kernel loaded): {statistics.median(startup):.3f} s")
    for fast_step, reference_step, label in (
            ("main_game_cold", "reference_cold", "exact main-game analysis, cold (fresh process, no result cache)"),
            ("main_game_warm", "reference_warm", "exact main-game analysis, warm (another paytable, same process)")):
        fast = [run(fast_step, fresh_env()) for _ in range(args.runs)]
        reference = [run(reference_step, fresh_env()) for _ in range(args.runs)]
        f, r = (statistics.median(x["seconds"] for x in runs) for runs in (fast, reference))
        fc, rc = (statistics.median(x["cpu"] for x in runs) for runs in (fast, reference))
        runs_text = ", ".join(f"{x['seconds']:.2f}" for x in fast)
        print(f"{label}: {f:.3f} s (CPU {fc:.2f} s; runs {runs_text})"
              f"{' OK' if f < 1.0 else ' OVER 1 s'}; previous {r:.3f} s (CPU {rc:.2f} s); ratio {r / f:.1f}x")

    figures = {}
    for step, label, target in (
            ("tables", "evaluator tables (pure Python build)", None),
            ("main_game_with_monte_carlo_cold", "exact analysis with the 2,000,000-round Monte Carlo, cold", None),
            ("main_game_cached", "same paytable again, same process", 1.0),
            ("main_game_cached_new_process", "same paytable again, new process (disk cache)", 1.0),
            ("five_and_six_card_bonus_cold", "Five + Six Card Bonus tables, cold", 2.0),
            ("max_win_cold", "maximum win per round, cold", 5.0)):
        values = [run(step, fresh_env() if "cached" not in step else shared_env(step))["seconds"]
                  for _ in range(args.runs)]
        figures[step] = statistics.median(values)
        verdict = "" if target is None else (" OK" if figures[step] < target else f" OVER {target} s")
        print(f"{label}: {figures[step]:.3f} s (runs: {', '.join(f'{v:.2f}' for v in values)}){verdict}")

    checked = run("fast_equals_reference", fresh_env())["checked"]
    for row in checked:
        print(f"fast = previous on {row['table']} ({row['hands']} starting hands): every array "
              f"{'EQUAL' if row['arrays_equal'] else 'DIFFERENT'}, the report "
              f"{'EQUAL' if row['report_equal'] else 'DIFFERENT'}")

    bulk = [run("bulk_evaluation", fresh_env()) for _ in range(args.runs)]
    ours = statistics.median(b["ours_hands_per_second"] for b in bulk)
    theirs = statistics.median(b["phevaluator_hands_per_second"] for b in bulk)
    print(f"bulk five-card evaluation, one core: {ours / 1e6:.1f} M hands/s; phevaluator.evaluate_cards "
          f"{theirs / 1e6:.3f} M hands/s; ratio {ours / theirs:.0f}x "
          f"({'OK' if ours >= 100e6 and ours / theirs >= 50 else 'BELOW TARGET'}); first call (table + load) "
          f"{statistics.median(b['first_call_seconds'] for b in bulk):.3f} s")

    if not args.skip_slow:
        completed = subprocess.run([sys.executable, "-m", "pytest", "-q", "-m", "slow", "-o", "addopts=",
                                    "-p", "no:cacheprovider", "--import-mode=importlib",
                                    "tests/test_math_main.py"], cwd=ROOT, env=fresh_env())
        print(f"slow tests: exit {completed.returncode}")


_SHARED: dict[str, dict] = {}


def shared_env(step: str) -> dict:
    """One cache folder for the 'cached' steps, filled once."""
    if "env" not in _SHARED:
        _SHARED["env"] = fresh_env()
        run("main_game_cold", _SHARED["env"])
    return _SHARED["env"]


if __name__ == "__main__":
    main()
