"""Build layer: several offerings in one run, each built once, in parallel up to the cores.

Each offering is built by `rulegen.assemble.build`, exactly as a build of it alone: the same options, the same
steps, the same bytes. The builds run in worker processes started fresh (multiprocessing's `spawn`, a new
interpreter: a forked copy of this process would inherit the OpenMP thread pool the math's kernels start, and
GNU OpenMP stops a forked child that uses it), at most one per core; a worker renders each offering's three PDFs
in its own process (`RULEGEN_PROCESSES=1`), so no build takes a core from another. A build's failure is its own:
its exception comes back as it was raised (a RulegenError keeps its exit code and findings), nothing of it is
published, and the other builds go on.

With `RULEGEN_PROCESSES=1`, or a single offering, or a single core, the builds run one after another in this
process. The outcomes are given in the order of the offerings, each as soon as it and those before it are done.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rulegen.assemble.processes import PROCESSES_ENV
from rulegen.errors import OutputError, UsageError
from rulegen.findings import Finding

if TYPE_CHECKING:
    from rulegen.assemble import BuildOptions, BuildResult


@dataclass(frozen=True)
class Built:
    """What the command line says of one finished build (a BuildResult without its bytes, to send between
    processes)."""

    folder: Path
    files: tuple[str, ...]
    draft: bool
    seconds: float
    findings: tuple[Finding, ...]
    signer: str | None


def built(result: BuildResult) -> Built:
    """The summary of a `BuildResult` (a build that returns has published its folder)."""
    assert result.folder is not None
    return Built(folder=result.folder, files=tuple(sorted(result.files)),
                 draft=result.draft is None or result.draft.draft, seconds=sum(result.timings.values()),
                 findings=tuple(result.findings), signer=result.signer)


def build_summary(path: Path, display: str, options: BuildOptions) -> Built:
    """Build one offering (in a worker, or here) and summarise it."""
    from rulegen.assemble import build

    return built(build(path, options, display=display))


def distinct(files: Sequence[tuple[Path, str]]) -> tuple[list[tuple[Path, str]], list[tuple[str, UsageError]]]:
    """The offerings to build, each once: a file named twice (or found again under a folder) is built once, and
    a second file with an offering id an earlier one has is refused, as both would be published to one folder."""
    from rulegen.offering import OfferingLoadError, load_offering

    seen: set[str] = set()
    owners: dict[str, str] = {}
    keep: list[tuple[Path, str]] = []
    refused: list[tuple[str, UsageError]] = []
    for path, display in files:
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        try:
            head = load_offering(path, display, keep_going=True).data.get("offering")
        except (OfferingLoadError, OSError):
            head = None  # its build reports why, as a build of it alone does
        offering_id = head.get("id") if isinstance(head, dict) else None
        if isinstance(offering_id, str) and offering_id in owners:
            refused.append((display, UsageError(
                f"{display}: not built: its offering id '{offering_id}' is that of {owners[offering_id]}, built in "
                f"this run to the same folder; give each offering its own id")))
            continue
        if isinstance(offering_id, str):
            owners[offering_id] = display
        keep.append((path, display))
    return keep, refused


def _one_process_each() -> None:
    """A worker's start: its builds render their PDFs in the worker itself (the workers already fill the cores)."""
    os.environ[PROCESSES_ENV] = "1"


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def build_each(items: Sequence[tuple[Path, str]], options: BuildOptions, *,
               processes: int | None = None) -> Iterator[tuple[int, Built | BaseException]]:
    """(index, Built or the exception its build raised) for each (path, display) of `items`, in their order.

    An interrupt (Ctrl-C) stops every build: the workers receive it too, and nothing half-built is published."""
    count = min(len(items), processes if processes is not None else cores())
    if count <= 1 or os.environ.get(PROCESSES_ENV) == "1":
        for index, (path, display) in enumerate(items):
            try:
                yield index, build_summary(path, display, options)
            except Exception as exc:  # noqa: BLE001 - one offering's failure is its own
                yield index, exc
        return

    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    pool = ProcessPoolExecutor(max_workers=count, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_one_process_each)
    try:
        futures = [pool.submit(build_summary, path, display, options) for path, display in items]
        for index, future in enumerate(futures):
            try:
                yield index, future.result()
            except BrokenProcessPool:
                yield index, OutputError(f"building {items[index][1]} stopped: its worker process ended without an "
                                         "answer")
            except Exception as exc:  # noqa: BLE001 - one offering's failure is its own
                yield index, exc
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


__all__ = ["Built", "build_each", "build_summary", "built", "cores", "distinct"]
