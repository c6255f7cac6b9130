"""Benchmark: `rulegen validate` over 500 offerings in one folder (a regulator's batch), and the slowest
answer over the hostile corpus from validate, math, signage and build.
Run: .venv/bin/python tests/benchmarks/bench_validate.py"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data"


def rulegen() -> list[str]:
    exe = Path(sys.executable).parent / "rulegen"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "rulegen"]


def batch(count: int = 500) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="rulegen-bench-"))
    sources = sorted(DATA.glob("correct_*.yaml"))
    for index in range(count):
        source = sources[index % len(sources)]
        text = source.read_text().replace("id: test-", f"id: t{index:04d}-")
        (folder / f"offering-{index:04d}.yaml").write_text(text)
    return folder


def generated_hostile(folder: Path) -> list[Path]:
    """Large hostile inputs made on the spot: 1 MiB of keys in one mapping, of sign-offs, of wheel segments."""
    base = (DATA / "correct_pa.yaml").read_text()
    made = {
        "mebibyte_of_keys.yaml": base + "extra:\n" + "".join(f"  k{i}: 1\n" for i in range(120_000)),
        "mebibyte_of_signoffs.yaml": base + "signoff:\n" + "".join(
            f"  - {{role: prepared, name: N{i}, title: T, date: 2027-01-01}}\n" for i in range(20_000)),
        "mebibyte_of_segments.yaml": base + "bonus_spin:\n  wheel:\n" + "".join(
            f"    - {{symbol: {i}, weight: 1}}\n" for i in range(40_000)),
    }
    paths = []
    for name, text in made.items():
        path = folder / name
        path.write_text(text[: (1 << 20) - 1])
        paths.append(path)
    return paths


def timed(command: list[str], env=None) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    return time.perf_counter() - start


def main() -> None:
    folder = batch()
    env = dict(os.environ)
    try:
        cold_cache = tempfile.mkdtemp(prefix="rulegen-cache-")
        cold = timed(rulegen() + ["validate", str(folder)], {**env, "RULEGEN_CACHE_DIR": cold_cache})
        runs = [timed(rulegen() + ["validate", str(folder)], {**env, "RULEGEN_CACHE_DIR": cold_cache})
                for _ in range(5)]
        print(f"cores: {os.cpu_count()}")
        print(f"validate 500 offerings, cold math cache: {cold:.2f} s")
        print(f"validate 500 offerings, warm cache, median of 5: {statistics.median(runs):.2f} s "
              f"(min {min(runs):.2f}, max {max(runs):.2f})")
        hostile = sorted((DATA / "hostile").glob("*.yaml")) + generated_hostile(folder)
        answers = sorted(((timed(rulegen() + ["validate", str(path)], {**env, "RULEGEN_CACHE_DIR": cold_cache}),
                           path.name) for path in hostile), reverse=True)
        print(f"hostile corpus ({len(hostile)} files, 1 MiB generated ones included), slowest single answer "
              f"(whole process): {answers[0][0]:.2f} s ({answers[0][1]}); "
              f"next {answers[1][0]:.2f} s ({answers[1][1]}); "
              f"target < 5 s: {'ok' if answers[0][0] < 5 else 'OVER'}")
        cache_env = {**env, "RULEGEN_CACHE_DIR": cold_cache}
        for command in ("math", "signage", "build"):
            times = []
            for path in hostile:
                out = Path(tempfile.mkdtemp(prefix="rulegen-bench-out-"))
                extra = {"math": ["--json"], "signage": ["-o", str(out / "sign.pdf")], "build": ["--out", str(out)]}
                start = time.perf_counter()
                done = subprocess.run(rulegen() + [command, str(path), *extra[command]], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL, env=cache_env, check=False)
                times.append((time.perf_counter() - start, done.returncode, path.name))
                shutil.rmtree(out, ignore_errors=True)
            refused = max(t for t in times if t[1] != 0)
            accepted = [t for t in times if t[1] == 0]
            line = f"hostile corpus, {command}: slowest refusal {refused[0]:.2f} s ({refused[2]})"
            if accepted:
                worst = max(accepted)
                line += f"; {len(accepted)} accepted and done, slowest {worst[0]:.2f} s ({worst[2]})"
            print(line)
        shutil.rmtree(cold_cache, ignore_errors=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
