"""Benchmark of the math layer. Run: .venv/bin/python tests/benchmarks/bench_math.py [--runs N] [--skip-slow]

Each timed step runs in a fresh Python process (nothing memoised in process) with an empty RULEGEN_CACHE_DIR
("cold" = no result cache), after one warm-up that fills numba's compile cache; the compile cost is measured
apart, with an empty NUMBA_CACHE_DIR. Medians of several runs; the core count is printed. Finally the slow
tests (the full analysis) run under pytest.
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

STEPS = {
    "main_game_cold": """
from rulegen.game import STANDARD_RULES
from rulegen.math.main_game import analyse_main_game
t = time.perf_counter(); analyse_main_game(STANDARD_RULES, monte_carlo_rounds=0); out["seconds"] = time.perf_counter() - t
""",
    "main_game_with_monte_carlo_cold": """
from rulegen.game import STANDARD_RULES
from rulegen.math.main_game import analyse_main_game
t = time.perf_counter(); r = analyse_main_game(STANDARD_RULES); out["seconds"] = time.perf_counter() - t
out["monte_carlo_rounds"] = r["monte_carlo"]["rounds"]
""",
    "main_game_cached": """
from rulegen.game import STANDARD_RULES
from rulegen.math.main_game import analyse_main_game
analyse_main_game(STANDARD_RULES, monte_carlo_rounds=0)
t = time.perf_counter(); analyse_main_game(STANDARD_RULES, monte_carlo_rounds=0); out["seconds"] = time.perf_counter() - t
""",
    "main_game_cached_new_process": """
from rulegen.game import STANDARD_RULES
from rulegen.math.main_game import analyse_main_game
t = time.perf_counter(); analyse_main_game(STANDARD_RULES, monte_carlo_rounds=0); out["seconds"] = time.perf_counter() - t
""",
    "five_and_six_card_bonus_cold": """
from rulegen.game import STANDARD_FIVE_CARD_BONUS, Paytable
from rulegen.math.bonus import five_card_bonus, six_card_bonus
six = Paytable.from_mapping({"royal_flush": 1000, "straight_flush": 200, "four_of_a_kind": 50, "full_house": 20,
                             "flush": 15, "straight": 10, "three_of_a_kind": 5})
t = time.perf_counter(); five_card_bonus(STANDARD_FIVE_CARD_BONUS); six_card_bonus(six)
out["seconds"] = time.perf_counter() - t
""",
    "max_win_cold": """
from decimal import Decimal
from rulegen.game import STANDARD_RULES
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
    print(f"cores: {os.cpu_count()}; runs per figure: {args.runs}; medians")

    # the compile cost, apart: every compiled function with an empty numba cache
    numba_dir = tempfile.mkdtemp(prefix="rulegen-bench-numba-")
    compile_env = fresh_env(NUMBA_CACHE_DIR=numba_dir)
    compile_seconds = {}
    for step in ("max_win_cold", "five_and_six_card_bonus_cold", "main_game_cold"):
        compile_seconds[step] = run(step, compile_env)["seconds"]
    print(f"first run with an empty numba cache (compile included): "
          + ", ".join(f"{k} {v:.2f} s" for k, v in compile_seconds.items()))
    run("main_game_with_monte_carlo_cold", fresh_env())  # warm numba's own cache for the default location

    figures = {}
    for step, label, target in (
            ("tables", "evaluator tables (pure Python build)", None),
            ("main_game_cold", "full exact main-game analysis, cold result cache", 20.0),
            ("main_game_with_monte_carlo_cold", "... with the 2,000,000-round Monte Carlo", None),
            ("main_game_cached", "same paytable again, same process", 1.0),
            ("main_game_cached_new_process", "same paytable again, new process (disk cache)", 1.0),
            ("five_and_six_card_bonus_cold", "Five + Six Card Bonus tables, cold", 2.0),
            ("max_win_cold", "maximum win per round, cold", 5.0)):
        values = [run(step, fresh_env() if "cached" not in step else shared_env(step))["seconds"]
                  for _ in range(args.runs)]
        figures[step] = statistics.median(values)
        verdict = "" if target is None else (" OK" if figures[step] < target else f" OVER {target} s")
        print(f"{label}: {figures[step]:.3f} s (runs: {', '.join(f'{v:.2f}' for v in values)}){verdict}")

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
