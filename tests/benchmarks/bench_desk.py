"""Benchmark: the regulator's desk served as `rulegen desk serve` on 127.0.0.1 (stopped at the end whatever
happens), measured from outside through its JSON API and its pages.

1. Upload and verify 50 distinct signed filings, one after another, each answered 201 with its verdict: revisions
   of the four bundled samples under 13 offering ids (bench_register's corpus: real manifests and attached offerings,
   the outputs of a build beside each, a PAdES signature from a throwaway CA, rules.pdf a one-page rendering from
   tests/filing_factory.py). Verification is full (signature, trust, the package, the register) with the factory's
   own product standing in for the pipeline's renderer, as in the register benchmark: the measure is the desk's and
   verify's own work. A real filing's reproduction is a whole build (20 to 40 s on two cores) and adds that per
   filing.
2. The queue page (`GET /`: its first page, a page in the middle, a search with a filter) and `GET /api/filings`
   with 5,000 filings recorded, and every filing read through the API's pages: the rows are inserted into the desk's
   tables directly, each carrying a report copied from a real upload of step 1.

Run: PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_desk.py [--count 50] [--queue 5000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PASSWORD = "a long enough benchmark password"
FILES = ("rules.pdf", "manifest.json", "rules.html", "signage.pdf", "math-appendix.pdf")
SERVE = (f"import sys; sys.path.append({str(ROOT)!r}); import rulegen.assemble, tests.filing_factory as f; "
         "rulegen.assemble.reproduce_filing_for_verify = f.reproduce; sys.argv[0] = 'rulegen'; "
         "from rulegen.cli import main; main()")


def _load(name: str):
    if str(ROOT) not in sys.path:
        sys.path.append(str(ROOT))  # after the installed package, which stays the one measured
    return importlib.import_module(name)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Served:
    """`rulegen desk serve` in its own process group, killed whole on exit."""

    def __init__(self, db: str, archive: Path, trust: Path, log: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVE, "desk", "serve", "--db", db, "--archive", str(archive), "--port",
             str(self.port), "--trust", str(trust)], start_new_session=True, stdout=subprocess.DEVNULL,
            stderr=open(log, "wb"), env={k: v for k, v in os.environ.items() if k != "RULEGEN_TRUST"})

    def __enter__(self) -> Served:
        import httpx

        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(self.url + "/healthz")
                return self
            except httpx.TransportError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the desk did not start") from None
                time.sleep(0.2)

    def __exit__(self, *exc: object) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=15)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=15)


def desk_database(path: Path) -> str:
    from rulegen.filing.register_store import open_register
    from rulegen.web.desk import store

    engine = open_register(str(path))
    store.create_tables(engine)
    store.add_user(engine, "ana", "analyst", PASSWORD)
    engine.dispose()
    return str(path)


def session(url: str):
    import httpx

    web = httpx.Client(base_url=url, timeout=600)
    csrf = web.post("/api/session", json={"user": "ana", "password": PASSWORD}).json()["csrf"]
    return web, csrf


def seed_queue(db: str, count: int, report: str) -> None:
    """`count` filings written straight into the desk's tables, as many offerings' revisions."""
    from sqlalchemy import insert

    from rulegen.filing.register_store import open_register
    from rulegen.web.desk import store

    engine = open_register(db)
    statuses = store.STATUSES
    verdicts = ("VERIFIED", "VERIFIED", "VERIFIED", "NOT TRUSTED", "FAILED")
    rows = [{"received_at": store.now(), "uploaded_by": 1, "status": statuses[i % len(statuses)], "assignee": None,
             "verdict": verdicts[i % len(verdicts)], "verify_status": "verified", "verdict_text": "VERIFIED: seeded",
             "offering_id": f"seeded-{i // 5:04d}", "revision": 1 + i % 5, "jurisdiction": "PA",
             "operator": f"Operator {i // 5}", "signer": "Compliance Officer", "rules_sha256": f"{i:064x}",
             "register_entry": None, "report": report} for i in range(count)]
    with engine.begin() as connection:
        connection.execute(insert(store.filings), rows)
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--queue", type=int, default=5000)
    parser.add_argument("--skip-queue", action="store_true", help="Only the uploads.")
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    factory = _load("tests.filing_factory")
    bench_register = _load("tests.benchmarks.bench_register")
    work = Path(tempfile.mkdtemp(prefix="rulegen-bench-desk-"))
    try:
        (work / "pki").mkdir()
        pki = factory.make_pki(work / "pki")
        start = time.perf_counter()
        made = bench_register.make_filings(work / "filings", options.count, pki)
        print(f"made {len(made)} distinct signed filings: {time.perf_counter() - start:.1f} s")

        db = desk_database(work / "desk.sqlite")
        with Served(db, work / "archive", pki["ca"], work / "serve.log") as served:
            web, csrf = session(served.url)
            seconds, verdicts = [], {}
            for folder in (rules.parent for rules in made):
                parts = [("files", (n, (folder / n).read_bytes(), "application/octet-stream")) for n in FILES]
                began = time.perf_counter()
                response = web.post("/api/filings", files=parts, headers={"X-CSRF-Token": csrf})
                seconds.append(time.perf_counter() - began)
                assert response.status_code == 201, response.text
                body = response.json()
                verdict = body["verdict"]
                if verdict != "VERIFIED":  # say why, by the first check that failed
                    failed = next((c for c in body["checks"] if c["ok"] is False), None)
                    verdict += f" ({failed['name']}: {failed['detail'][:90]})" if failed else ""
                verdicts[verdict] = verdicts.get(verdict, 0) + 1
            report = web.get("/api/filings").json()["filings"][0]["id"]
            sample_report = web.get(f"/api/filings/{report}").json()
        print(f"upload and verify {len(seconds)} filings through the desk, one after another: {sum(seconds):.1f} s "
              f"(median {statistics.median(seconds):.2f} s, slowest {max(seconds):.2f} s per filing); verdicts "
              + "; ".join(f"{n} {v}" for v, n in sorted(verdicts.items())))

        if options.skip_queue:
            return
        import json

        from sqlalchemy import select

        from rulegen.filing.register_store import open_register
        from rulegen.web.desk import store

        engine = open_register(db)
        with engine.connect() as connection:
            kept = connection.execute(select(store.filings.c.report).where(
                store.filings.c.id == sample_report["id"])).scalar()
        engine.dispose()
        queue_db = desk_database(work / "queue.sqlite")
        start = time.perf_counter()
        seed_queue(queue_db, options.queue, kept)
        print(f"seeded {options.queue:,} filings into the desk's tables: {time.perf_counter() - start:.1f} s "
              f"(each with a real report of {len(json.dumps(json.loads(kept))):,} characters)")
        with Served(queue_db, work / "archive", pki["ca"], work / "serve-queue.log") as served:
            web, _csrf = session(served.url)
            middle = options.queue // 2
            for label, path in (("queue page GET / (its first page)", "/"),
                                (f"queue page GET /?before={middle} (a page in the middle)", f"/?before={middle}"),
                                ("queue page searched and filtered GET /?q=operator+7&jurisdiction=PA",
                                 "/?q=operator+7&jurisdiction=PA"),
                                ("GET /api/filings (its first page)", "/api/filings")):
                times, size = [], 0
                for _ in range(options.repeat):
                    began = time.perf_counter()
                    response = web.get(path)
                    times.append(time.perf_counter() - began)
                    assert response.status_code == 200
                    size = len(response.content)
                print(f"{label} with {options.queue:,} filings: median {statistics.median(times):.2f} s, best "
                      f"{min(times):.2f} s of {options.repeat} ({size:,} bytes)")
            began, pages, listed = time.perf_counter(), 0, 0
            link: str | None = "/api/filings?limit=500"
            while link is not None:  # the whole queue through the API's next links, as another system reads it
                answer = web.get(link).json()
                pages, listed, link = pages + 1, listed + len(answer["filings"]), answer["next"]
            assert listed == options.queue, listed
            print(f"every filing through GET /api/filings?limit=500 and its next links: {listed:,} filings in "
                  f"{pages} pages, {time.perf_counter() - began:.2f} s")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
