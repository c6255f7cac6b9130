"""A sweep run: the candidates in chunks over Dask workers (a local cluster over the machine's cores, or the
cluster at `--scheduler`), each chunk's rows written to DIR/parts/ as it finishes, then sweep.csv, Parquet for a
large sweep, and the Pareto plot.

Resumable: a chunk whose part file is in DIR is not computed again, so a run stopped half-way goes on where it
stopped. Bounded memory: at most a few chunks per worker are in flight, rows go to disk as they come, and
sweep.csv is written by streaming the parts. The figures are exact integers and fractions turned into text one
way, so sweep.csv is the same byte for byte however and wherever the candidates were computed.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rulegen.errors import InputError, OutputError
from rulegen.sweep.evaluate import evaluate_chunk
from rulegen.sweep.results import (
    PARQUET_FROM, columns, filtered_points, parquet_batch, parquet_schema, pareto_front, pareto_svg, part_text,
    read_part, with_filter,
)
from rulegen.sweep.spec import SweepSpec

CHUNK = 25  # candidates per task: a few seconds of work at most, so progress and resumption are fine-grained
IN_FLIGHT_PER_WORKER = 3


@dataclass(frozen=True)
class SweepSummary:
    out: Path
    candidates: int
    computed: int  # candidates computed in this run
    skipped: int  # candidates already in DIR
    passing: int  # candidates that pass the filter
    front: int  # candidates on the Pareto front
    files: tuple[str, ...]
    workers: int
    seconds: float  # the whole run
    computing_seconds: float  # from the first chunk sent to the last one back (the cluster up, the counts ready)


def chunk_rows(spec: SweepSpec, first: int, last: int) -> str:
    """One task: the CSV rows of candidates first..last - 1 (run on a worker)."""
    return part_text(evaluate_chunk(spec, first, last))


def _write(path: Path, data: bytes) -> None:
    from rulegen.safeio import UnsafeFile, write_replacing

    try:
        write_replacing(path, data)
    except UnsafeFile as exc:
        raise OutputError(f"{path} {exc.reason}") from None


def _part_path(out: Path, index: int) -> Path:
    return out / "parts" / f"part-{index:07d}.csv"


def _done(out: Path, spec: SweepSpec, chunk: int, index: int) -> bool:
    """Whether chunk `index`'s part file is in DIR and whole (its rows are its candidates, in order)."""
    path = _part_path(out, index)
    try:
        rows = read_part(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, csv.Error):
        return False
    first, last = index * chunk, min((index + 1) * chunk, spec.count)
    width = len(columns(spec)) - 1
    return [r[0] for r in rows] == [str(i) for i in range(first, last)] and all(len(r) == width for r in rows)


def _manifest(out: Path, spec: SweepSpec, chunk: int) -> int:
    """DIR's record of which sweep it holds; returns the chunk size (the one recorded when resuming). DIR
    holding another sweep is refused."""
    path = out / "sweep.json"
    record = {"spec_digest": spec.digest, "candidates": spec.count, "chunk": chunk,
              "fields": [f.path for f in spec.fields]}
    if path.exists():
        try:
            found = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(f"{path} cannot be read ({exc}); give an empty --out folder") from None
        if not isinstance(found, dict) or found.get("spec_digest") != spec.digest:
            raise InputError(f"{out} holds the results of another sweep (another base or other values); give "
                             "another --out folder, or empty this one")
        recorded = found.get("chunk")
        if not isinstance(recorded, int) or recorded < 1:
            raise InputError(f"{path} is not a sweep's record; give an empty --out folder")
        return recorded
    _write(path, (json.dumps(record, indent=2) + "\n").encode())
    return chunk


@contextlib.contextmanager
def dask_client(scheduler: str | None, workers: int | None, timeout: float = 30) -> Iterator[object]:
    """A Dask client: of the cluster at `scheduler` (given `timeout` seconds to answer), or of a local cluster of
    `workers` processes (default: the machine's cores) listening on 127.0.0.1 only, torn down when done."""
    import logging

    from distributed import Client, LocalCluster

    if scheduler:
        try:
            client = Client(scheduler, timeout=f"{timeout}s")
        except (OSError, TimeoutError) as exc:
            raise InputError(f"--scheduler {scheduler}: no Dask scheduler answers there ({exc})") from None
        try:
            yield client
        finally:
            client.close()
        return
    cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                           host="127.0.0.1", dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR)
    try:
        client = Client(cluster)
        try:
            yield client
        finally:
            client.close()
    finally:
        cluster.close()


def run_sweep(spec: SweepSpec, out: Path, *, scheduler: str | None = None, workers: int | None = None,
              progress: Callable[[int, int], None] | None = None,
              counts_progress: Callable[[int, int], None] | None = None, chunk: int = CHUNK,
              timeout: float = 30, parquet: bool | None = None) -> SweepSummary:
    """Compute every candidate of `spec` not yet in `out`, then write sweep.csv, pareto.svg and, for a large
    sweep (or with `parquet`), sweep.parquet there."""
    started = time.monotonic()
    try:
        (out / "parts").mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{out} cannot be written ({exc.strerror or exc})") from None
    chunk = _manifest(out, spec, chunk)
    n_chunks = -(-spec.count // chunk)
    pending = [i for i in range(n_chunks) if not _done(out, spec, chunk, i)]
    skipped = spec.count - sum(min((i + 1) * chunk, spec.count) - i * chunk for i in pending)
    done = skipped
    if progress is not None:
        progress(done, spec.count)
    n_workers = 0
    computing = 0.0
    if pending:
        from rulegen.errors import RulegenError
        from rulegen.sweep.evaluate import candidate_offering

        try:  # every candidate has the base's structure: a row the base cannot take is said once, here
            candidate_offering(spec, spec.values(0))
        except RulegenError as exc:
            raise InputError(f"{spec.spec_path}: {exc.message}") from None
        if scheduler is None:
            # computed (or read) here first, so the local workers read them from the disk cache, not each anew
            from rulegen.math.reach import reach_table
            from rulegen.math.shared import shared_counts

            shared_counts(progress=counts_progress)
            reach_table()
        with dask_client(scheduler, workers, timeout) as client:
            computing = time.monotonic()
            n_workers = _run_chunks(client, spec, out, chunk, pending, done, progress)
            computing = time.monotonic() - computing
    files = _assemble(spec, out, n_chunks, spec.count >= PARQUET_FROM if parquet is None else parquet)
    points = files.pop()
    return SweepSummary(out=out, candidates=spec.count, computed=spec.count - skipped, skipped=skipped,
                        passing=int(points[0]), front=int(points[1]), files=tuple(files), workers=n_workers,
                        seconds=time.monotonic() - started, computing_seconds=computing)


def _run_chunks(client, spec: SweepSpec, out: Path, chunk: int, pending: list[int], done: int,
                progress: Callable[[int, int], None] | None) -> int:
    from distributed import as_completed

    n_workers = max(1, len(client.scheduler_info().get("workers", {})))
    [spec_future] = client.scatter([spec], broadcast=True)
    queue = iter(pending)
    limit = IN_FLIGHT_PER_WORKER * n_workers

    def submit(index: int):
        first, last = index * chunk, min((index + 1) * chunk, spec.count)
        future = client.submit(chunk_rows, spec_future, first, last, key=f"sweep-{spec.digest[:12]}-{index}",
                               pure=False)
        future.chunk_index = index
        return future

    running = as_completed([submit(i) for _, i in zip(range(limit), queue)])
    for future in running:
        index = future.chunk_index
        text = future.result()
        _write(_part_path(out, index), text.encode("utf-8"))
        done += min((index + 1) * chunk, spec.count) - index * chunk
        if progress is not None:
            progress(done, spec.count)
        future.release()
        following = next(queue, None)
        if following is not None:
            running.add(submit(following))
    return n_workers


def _parts(spec: SweepSpec, out: Path, n_chunks: int) -> Iterator[list[str]]:
    """Every row, in the order of the candidates, passes_filter as the spec's filter says."""
    header = columns(spec)
    for index in range(n_chunks):
        for cells in read_part(_part_path(out, index).read_text(encoding="utf-8")):
            yield with_filter(spec, header, cells)


def _assemble(spec: SweepSpec, out: Path, n_chunks: int, use_parquet: bool) -> list:
    """sweep.csv (and sweep.parquet) streamed from the parts, with the Pareto column; pareto.svg. Returns the
    files written, then (passing, on the front)."""
    header = columns(spec)
    points = list(filtered_points(_parts(spec, out, n_chunks), header))
    front = pareto_front(points)
    on_front = {p.candidate for p in front}
    temporary = out / ".sweep.csv.assembling"
    writer = None
    schema = parquet_schema(header) if use_parquet else None
    batch: list[list[str]] = []
    try:
        with open(temporary, "w", encoding="utf-8", newline="") as handle:
            rows = csv.writer(handle, lineterminator="\n")
            rows.writerow(header)
            if use_parquet:
                import pyarrow.parquet as pq

                writer = pq.ParquetWriter(str(out / ".sweep.parquet.assembling"), schema)
            for cells in _parts(spec, out, n_chunks):
                full = [*cells, "true" if int(cells[0]) in on_front else "false"]
                rows.writerow(full)
                if writer is not None:
                    batch.append(full)
                    if len(batch) >= 50_000:
                        writer.write_batch(parquet_batch(schema, batch))
                        batch = []
            if writer is not None:
                if batch:
                    writer.write_batch(parquet_batch(schema, batch))
                writer.close()
                writer = None
        os.replace(temporary, out / "sweep.csv")
        files = ["sweep.csv"]
        if use_parquet:
            os.replace(out / ".sweep.parquet.assembling", out / "sweep.parquet")
            files.append("sweep.parquet")
    except OSError as exc:
        raise OutputError(f"{out} cannot be written ({exc.strerror or exc})") from None
    finally:
        if writer is not None:
            writer.close()
    title = f"{spec.base.name}: {spec.count:,} candidate paytables"
    _write(out / "pareto.svg", pareto_svg(points, front, title).encode("utf-8"))
    files.append("pareto.svg")
    return [*files, (len(points), len(front))]


def read_sweep_csv(path: Path) -> list[dict[str, str]]:
    """sweep.csv's rows as mappings by column (tests, tools)."""
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
