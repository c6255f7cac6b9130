"""Benchmark: a regulator's batch of 50 signed final filings through `rulegen verify` and `rulegen register add`
(SQLite, and PostgreSQL when its server binaries are installed), then `register list` and `register report --html`.

The 50 filings are made from the four bundled samples with varied offering ids, revisions and effective dates
(13 offerings of 3 to 4 revisions each), each carrying its real manifest and attached offering, the outputs of
a build beside it, and a PAdES signature from a throwaway CA; rules.pdf itself is a one-page rendering
(tests/filing_factory.py), so making them takes seconds instead of a full build each. Every revision after the
first carries a diff and the mathematics that changed; the math cache is warmed first (one analysis per
sample) and the cold cost is printed apart.

Run: PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_register.py [--count 50] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent


def _load(name: str):
    """A helper module of the tests (tests/<name>.py), imported as the test suite imports it."""
    import importlib

    root = str(TESTS.parent)
    if root not in sys.path:
        sys.path.append(root)  # after the installed package, which stays the one measured
    return importlib.import_module(f"tests.{name}")


def rulegen() -> list[str]:
    exe = Path(sys.executable).parent / "rulegen"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "rulegen"]


def rulegen_reproducing_the_factory() -> list[str]:
    """`rulegen`, with the factory's own product standing in for the pipeline's renderer that full verification
    reproduces a filing with (these filings are stand-ins, which the pipeline does not build): the measure is
    of verify's and the register's own work, the reproduction being a cheap rendering of one page."""
    code = (f"import sys; sys.path.append({str(TESTS.parent)!r}); import rulegen.assemble, tests.filing_factory as f; "
            "rulegen.assemble.reproduce_filing_for_verify = f.reproduce; sys.argv[0] = 'rulegen'; "
            "from rulegen.cli import main; main()")
    return [sys.executable, "-c", code]


def vary(text: str, offering_id: str, revision: int, day: int) -> str:
    text = re.sub(r"(?m)^(  id: ).*$", rf"\g<1>{offering_id}", text, count=1)
    text = re.sub(r"(?m)^(  version: ).*$", rf"\g<1>{revision}", text, count=1)
    return re.sub(r"(?m)^(  effective_date: ).*$", rf"\g<1>2027-{1 + revision:02d}-{day:02d}", text, count=1)


def make_filings(folder: Path, count: int, pki: dict) -> list[Path]:
    from rulegen.resources import samples_dir

    factory = _load("filing_factory")
    samples = sorted(samples_dir().glob("*.yaml"))
    # One signer per operator (each sample is one operator), as in life: one certificate signing for several
    # operators is what the register flags.
    signers = [factory.make_identity(folder.parent / "pki", pki, f"Compliance Officer {index}",
                                     f"Operator {index}", serial=100 + index) for index in range(len(samples))]
    made: list[Path] = []
    offering = 0
    while len(made) < count:
        sample = samples[offering % len(samples)]
        text = sample.read_text(encoding="utf-8")
        base = re.search(r"(?m)^  id: (.*)$", text).group(1)
        revisions = 3 + offering % 2
        for revision in range(1, revisions + 1):
            if len(made) == count:
                break
            offering_id = f"{base}-{offering:02d}"
            target = folder / f"{offering_id}-r{revision}" / offering_id
            made.append(factory.build(target, pki, text=vary(text, offering_id, revision, 1 + offering % 28),
                                      identity=signers[offering % len(samples)]))
        offering += 1
    return made


def timed(command: list[str], env: dict) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--keep", type=Path, help="Make the filings here and leave them.")
    options = parser.parse_args()
    factory = _load("filing_factory")
    work = options.keep or Path(tempfile.mkdtemp(prefix="rulegen-bench-register-"))
    work.mkdir(parents=True, exist_ok=True)
    env = {**os.environ}
    env.setdefault("RULEGEN_CACHE_DIR", str(work / "math-cache"))
    os.environ["RULEGEN_CACHE_DIR"] = env["RULEGEN_CACHE_DIR"]
    try:
        (work / "pki").mkdir(exist_ok=True)
        pki = factory.make_pki(work / "pki")
        trusted = work / "trusted"
        trusted.mkdir(exist_ok=True)
        shutil.copy(pki["ca"], trusted / "ca.pem")
        env["RULEGEN_TRUST"] = str(trusted)

        from rulegen.resources import samples_dir

        start = time.perf_counter()
        for sample in sorted(samples_dir().glob("*.yaml")):
            subprocess.run(rulegen() + ["math", str(sample), "--json"], capture_output=True, env=env, check=False)
        print(f"math of the 4 samples (fills the math cache when cold): {time.perf_counter() - start:.1f} s")

        filings = work / "filings"
        if filings.exists():
            shutil.rmtree(filings)
        start = time.perf_counter()
        made = make_filings(filings, options.count, pki)
        print(f"made {len(made)} signed filings: {time.perf_counter() - start:.1f} s")

        seconds, result = timed(rulegen_reproducing_the_factory() + ["verify", str(filings), "--format", "json"], env)
        summary = json.loads(result.stdout)["summary"]
        print(f"rulegen verify on {summary['filings']} filings (one process): {seconds:.1f} s wall, "
              f"{seconds / summary['filings']:.2f} s per filing; {summary['verified']} verified, exit "
              f"{result.returncode}")

        seconds, result = timed(rulegen() + ["verify", "--integrity-only", str(made[0].parent)], env)
        print(f"rulegen verify --integrity-only on 1 filing (one process, imports included): {seconds:.2f} s")

        database = work / "register.sqlite"
        database.unlink(missing_ok=True)
        seconds, result = timed(rulegen_reproducing_the_factory() + ["register", "add", str(filings), "--db",
                                                                     str(database), "--format", "json"], env)
        summary = json.loads(result.stdout)["summary"]
        print(f"rulegen register add (SQLite) of {summary['recorded']} filings: {seconds:.1f} s wall, "
              f"{seconds / max(1, summary['recorded']):.2f} s per filing; {summary['flagged']} flagged, exit "
              f"{result.returncode}")
        seconds, _ = timed(rulegen() + ["register", "list", "--db", str(database)], env)
        print(f"rulegen register list (SQLite): {seconds:.2f} s")
        seconds, _ = timed(rulegen() + ["register", "report", "--db", str(database), "--html",
                                        str(work / "report.html")], env)
        print(f"rulegen register report --html (SQLite): {seconds:.2f} s, "
              f"{(work / 'report.html').stat().st_size:,} bytes")

        pgserver = _load("pgserver")
        try:
            server = pgserver.PostgresServer().start()
        except pgserver.PostgresUnavailable as exc:
            print(f"PostgreSQL: not measured ({exc})")
            return
        try:
            url = server.create_database("bench")
            seconds, result = timed(rulegen_reproducing_the_factory() + ["register", "add", str(filings), "--db", url,
                                                                         "--format", "json"], env)
            summary = json.loads(result.stdout)["summary"]
            print(f"rulegen register add (PostgreSQL) of {summary['recorded']} filings: {seconds:.1f} s wall, "
                  f"{seconds / max(1, summary['recorded']):.2f} s per filing, exit {result.returncode}")
        finally:
            server.stop()
    finally:
        if options.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
