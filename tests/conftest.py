"""Fixtures shared by the test modules."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def math_cache(tmp_path_factory):
    """One math cache folder for the whole session, used by every test (autouse), so each paytable's exact
    analysis runs once per run (the parallel workers share it: an entry is written to a temporary file and
    moved into place, so a worker reads a whole entry or none); a test about the cache itself points
    RULEGEN_CACHE_DIR elsewhere.

    RULEGEN_TEST_CACHE_DIR names a folder to keep between runs while developing; CI names an empty one for its
    two runs (the suite, then the PDF tier), so each CI run computes every analysis once from nothing.
    """
    kept = os.environ.get("RULEGEN_TEST_CACHE_DIR")
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's own folder, above each worker's: the workers share one cache
    folder = Path(kept) if kept else base / "rulegen-math-cache"
    folder.mkdir(parents=True, exist_ok=True)
    previous = os.environ.get("RULEGEN_CACHE_DIR")
    os.environ["RULEGEN_CACHE_DIR"] = str(folder)
    yield folder
    if previous is None:
        os.environ.pop("RULEGEN_CACHE_DIR", None)
    else:
        os.environ["RULEGEN_CACHE_DIR"] = previous


@pytest.fixture(scope="session")
def regulations() -> Path:
    """The folder of the source regulation texts (tests/regulation_labels.py finds it: RULEGEN_REGULATIONS, else
    ../shared/regulations beside the repository). A test that reads the texts asks for this fixture: where they
    are missing it is skipped with the reason, or fails when RULEGEN_REQUIRE_REGULATIONS=1 (CI sets it)."""
    from tests import regulation_labels

    folder, reason = regulation_labels.locate()
    if folder is None:
        if os.environ.get(regulation_labels.REQUIRE_ENV) == "1":
            pytest.fail(f"{reason}, and {regulation_labels.REQUIRE_ENV}=1", pytrace=False)
        pytest.skip(reason)
    return folder


def _warm_main_game():
    from tests.standard_game import STANDARD_RULES
    from rulegen.math.main_game import analyse_main_game

    analyse_main_game(STANDARD_RULES, use_cache=False)  # the exact kernels and the Monte Carlo kernel


def _warm_shared_counts():
    from tests.standard_game import STANDARD_RULES
    from rulegen.math.main_game import analyse_main_game

    # the kernels of the shared counts and of the Monte Carlo's deals: both computed once into the session's cache,
    # with the standard table's analysis from them
    analyse_main_game(STANDARD_RULES)


def _warm_the_others():
    import dataclasses
    from decimal import Decimal

    import numpy as np

    from tests.standard_game import STANDARD_FIVE_CARD_BONUS, STANDARD_RULES
    from rulegen.math import fasteval, maxwin
    from rulegen.math.main_game import starting_hands
    from tests.reference_kernel import run_reference_kernel

    fasteval.five_card_strength_counts()
    fasteval.six_card_strength_counts()
    fasteval.evaluate_many(np.array([[0, 1, 2, 3, 4]], dtype=np.int64))
    # the maximum-win search (numpy, nothing to compile): its tables of card sets, computed once into the session's
    # math cache for every worker, with and without the Six Card Bonus
    maxwin.max_win_per_round(STANDARD_RULES, Decimal(5))
    with_six = dataclasses.replace(STANDARD_RULES, five_card_bonus=STANDARD_FIVE_CARD_BONUS,
                                   six_card_bonus=STANDARD_FIVE_CARD_BONUS)
    maxwin.max_win_per_round(with_six, Decimal(5), Decimal(1), frozenset({"five_card_bonus", "six_card_bonus"}))
    run_reference_kernel(STANDARD_RULES.criss_cross, STANDARD_RULES.ante, hands=list(starting_hands())[:1])


SWEEP_MODULES = {"test_sweep.py", "test_math_shared.py"}


def _warm_sweep_kernels():
    import numpy as np

    from tests.standard_game import STANDARD_RULES
    from rulegen.math import shared
    from rulegen.math.exact_kernels import pay_classes_of
    from rulegen.math.reach import reach_table

    # the sweep's kernels: the shared counts and the reach table land in the math cache, so the sweep's worker
    # processes read them, and the figures' kernel is compiled here rather than once in each of them
    shared.figures(shared.prepare(shared.shared_counts()), STANDARD_RULES.criss_cross, STANDARD_RULES.ante)
    reach_table()
    pay_classes_of(np.zeros((1, 5), dtype=np.int64))


@pytest.fixture(scope="session", autouse=True)
def numba_kernels_compiled_once(request, tmp_path_factory, math_cache):
    """On parallel workers, each numba kernel is compiled by one worker, not by every worker that needs it.

    numba compiles a kernel on its first call and keeps it in its on-disk cache; a fresh machine (CI) has none, and
    two workers needing the same kernel each compiled it (about 23 s of compiling in each). Here each worker takes
    the groups of kernels no other worker has taken (a lock file each), compiles them by calling them as the
    product does, then waits for the groups the others took; every later call loads them from numba's cache.
    Where the cache is warm, this only loads them. The sweep's own kernels (its figures, the reach table, the pay
    classes) are warmed only in a run that holds the sweep's tests.
    """
    import fcntl

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield
        return
    folder = tmp_path_factory.getbasetemp().parent / "numba-compiling"
    folder.mkdir(exist_ok=True)
    jobs = [("main-game", _warm_main_game), ("shared-counts", _warm_shared_counts), ("others", _warm_the_others)]
    if any(Path(item.path).name in SWEEP_MODULES for item in request.session.items):
        jobs.append(("sweep", _warm_sweep_kernels))  # only for a run that uses them
    taken = []
    for name, warm in jobs:
        handle = open(folder / f"{name}.lock", "a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            continue
        taken.append(name)
        try:  # released even when compiling fails, so the other worker fails on its own rather than waiting
            if not (folder / f"{name}.done").exists():
                warm()
                (folder / f"{name}.done").touch()
        finally:
            handle.close()  # closing the file releases its lock
    for name, _warm in jobs:
        if name not in taken:
            with open(folder / f"{name}.lock", "a+") as handle:
                fcntl.flock(handle, fcntl.LOCK_EX)  # until the worker that took it is done
                fcntl.flock(handle, fcntl.LOCK_UN)
    yield


def _run_folder(tmp_path_factory) -> Path:
    """The run's own temporary folder, which every parallel worker shares (each worker's is below it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def sample_build(tmp_path_factory, math_cache):
    """`sample_build(path)`: the published folder of a draft build of the offering at `path` (a bundled sample),
    built once per run and shared by every test module and every parallel worker that asks for it.

    A draft build renders three PDFs (seconds); tests that read a sample's build, or compare another build with
    it, share this one. The folder is keyed by the offering's bytes, built under a lock file (a worker asking
    while another builds waits for it, then reads), and is read-only to the tests: a test that changes a build
    copies it first. The build runs as `rulegen build` runs by default (its PDFs rendered in parallel
    processes), whatever RULEGEN_PROCESSES the asking test has set.
    """
    import fcntl
    import hashlib
    import shutil

    from rulegen import assemble
    from rulegen.assemble.processes import PROCESSES_ENV

    root = _run_folder(tmp_path_factory) / "sample-builds"
    root.mkdir(exist_ok=True)

    def build(path: Path) -> Path:
        key = f"{path.stem}-{hashlib.sha256(path.read_bytes()).hexdigest()[:16]}"
        folder = root / key
        with open(root / f"{key}.lock", "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file is closed
            done = folder / "published"
            if not done.exists():
                shutil.rmtree(folder, ignore_errors=True)
                saved = os.environ.pop(PROCESSES_ENV, None)
                try:
                    result = assemble.build(path, assemble.BuildOptions(out_dir=folder / "out"))
                finally:
                    if saved is not None:
                        os.environ[PROCESSES_ENV] = saved
                assert result.folder is not None
                done.write_text(result.folder.name, encoding="utf-8")
            return folder / "out" / done.read_text(encoding="utf-8")

    return build


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL server on 127.0.0.1 for the tests of this session (tests/pgserver.py), stopped at its end; the
    tests skip without the server binaries, unless RULEGEN_REQUIRE_POSTGRES asks for it (CI)."""
    from tests import pgserver

    try:
        server = pgserver.PostgresServer().start()
    except pgserver.PostgresUnavailable as exc:
        if os.environ.get(pgserver.REQUIRE_ENV):
            pytest.fail(f"PostgreSQL is required ({pgserver.REQUIRE_ENV} is set): {exc}")
        pytest.skip(f"PostgreSQL server not available: {exc}")
    yield server
    server.stop()


_DATABASES = itertools.count(1)


@pytest.fixture(params=["sqlite", "postgresql"])
def register_db(request, tmp_path) -> str:
    """A fresh register database: a SQLite file, then a database of the session's PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "register.sqlite")
    server = request.getfixturevalue("postgres")
    return server.create_database(f"register_{os.getpid()}_{next(_DATABASES)}")
