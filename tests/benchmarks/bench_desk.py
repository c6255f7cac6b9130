"""Benchmark: the regulator's desk served as `rulegen desk serve` on 127.0.0.1 (stopped at the end whatever
happens), measured from outside through its JSON API and its pages.

1. Upload and verify 50 distinct signed filings, one after another, each answered 201 with its verdict, with true
   reproduction: the filings are real builds (`rulegen build --final --sign`, every output a build writes) of the
   four bundled samples under 13 offering ids, 3 to 4 revisions each (bench_register's variation of id, revision
   and effective date), each sample signed by a certificate of its own operator under a throwaway root; the desk
   is plain `rulegen desk serve --trust ROOT`, so each upload is verified on the real path: signature, trust, the
   package, the register, and the whole package built again from the signed offering (fresh mathematics, never
   the math cache) and compared byte for byte. Making the filings is timed apart and not part of the measure.
   `--stand-in` measures the desk's and verify's own work instead: bench_register's cheap one-page filings, with
   the factory's product standing in for the pipeline's renderer.
2. The queue page (`GET /`: its first page, a page in the middle, a search with a filter) and `GET /api/filings`
   with 5,000 filings recorded, and every filing read through the API's pages: the rows are inserted into the desk's
   tables directly, each carrying a report copied from a real upload of step 1.

Run: PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_desk.py [--count 50] [--queue 5000] [--repeat 5]
     [--stand-in] [--skip-queue]
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
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


def _rulegen() -> list[str]:
    exe = Path(sys.executable).parent / "rulegen"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "rulegen"]


def make_real_filings(folder: Path, count: int, pki: dict, factory) -> list[Path]:
    """`count` distinct signed final filings, each a real `rulegen build --final --sign` of a bundled sample with
    its offering id, revision and effective date varied; each sample's operator
    signs with its own certificate. One `rulegen build` per sample and revision (the offerings of one run have
    distinct ids, so their build folders do not collide), its offerings built in parallel up to the cores."""
    from rulegen.offering import load_offering
    from rulegen.resources import samples_dir

    import datetime as dt

    def vary(text: str, offering_id: str, revision: int, offset: int) -> str:
        """The sample as another offering's revision: its id and revision, and an effective date after the
        sample's (so after its sign-offs, as a final build requires), later for each revision."""
        text = re.sub(r"(?m)^(  id: ).*$", rf"\g<1>{offering_id}", text, count=1)
        text = re.sub(r"(?m)^(  version: ).*$", rf"\g<1>{revision}", text, count=1)
        found = re.search(r"(?m)^  effective_date: (\d{4}-\d{2}-\d{2})", text)
        assert found is not None
        date = dt.date.fromisoformat(found.group(1)) + dt.timedelta(days=offset + 31 * revision)
        return text.replace(found.group(0), f"  effective_date: {date.isoformat()}", 1)

    samples = sorted(samples_dir().glob("*.yaml"))
    runs: dict[tuple[int, int], list[Path]] = {}
    offering, planned = 0, 0
    while planned < count:
        index = offering % len(samples)
        text = samples[index].read_text(encoding="utf-8")
        base = re.search(r"(?m)^  id: (.*)$", text).group(1)
        for revision in range(1, 3 + offering % 2 + 1):
            if planned == count:
                break
            offering_id = f"{base}-{offering:02d}"
            source = folder / "offerings" / f"{offering_id}-r{revision}.yaml"
            source.parent.mkdir(parents=True, exist_ok=True)
            source.write_text(vary(text, offering_id, revision, offering), encoding="utf-8")
            runs.setdefault((index, revision), []).append(source)
            planned += 1
        offering += 1
    (folder / "pki").mkdir(parents=True, exist_ok=True)
    identities = [factory.make_identity(folder / "pki", pki, f"Compliance Officer {index}",
                                        load_offering(sample).data["offering"]["operator"]["name"],
                                        serial=100 + index) for index, sample in enumerate(samples)]
    env = {**os.environ, "RULEGEN_SIGN_PASSPHRASE": factory.PASSPHRASE.decode(),
           "RULEGEN_CACHE_DIR": str(folder / "math-cache")}
    made: list[Path] = []
    for (index, revision), sources in sorted(runs.items()):
        out = folder / "built" / f"{samples[index].stem}-r{revision}"
        result = subprocess.run([*_rulegen(), "build", *map(str, sources), "--final", "--sign",
                                 str(identities[index]), "--out", str(out)], env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"the build of {samples[index].name} revision {revision} failed:\n{result.stdout}"
                               f"\n{result.stderr}")
        made.extend(sorted(out.glob("*/rules.pdf")))
    assert len(made) == count, len(made)
    return made


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Served:
    """`rulegen desk serve` in its own process group, killed whole on exit."""

    def __init__(self, db: str, archive: Path, trust: Path, log: Path, *, stand_in: bool = False) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-c", SERVE] if stand_in else _rulegen()
        self.process = subprocess.Popen(
            [*command, "desk", "serve", "--db", db, "--archive", str(archive), "--port",
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
    parser.add_argument("--stand-in", action="store_true",
                        help="bench_register's one-page filings, reproduced by the factory's product (the desk's and "
                             "verify's own work) instead of real builds reproduced in full.")
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    factory = _load("tests.filing_factory")
    bench_register = _load("tests.benchmarks.bench_register")
    work = Path(tempfile.mkdtemp(prefix="rulegen-bench-desk-"))
    try:
        (work / "pki").mkdir()
        pki = factory.make_pki(work / "pki")
        start = time.perf_counter()
        if options.stand_in:
            made = bench_register.make_filings(work / "filings", options.count, pki)
            kind = "stand-in filings (one-page renderings), reproduced by the factory's product"
        else:
            made = make_real_filings(work / "filings", options.count, pki, factory)
            kind = "real builds, each reproduced in full by the pipeline (true reproduction)"
        print(f"made {len(made)} distinct signed filings ({kind.split(',')[0]}): {time.perf_counter() - start:.1f} s "
              "(not part of the measure)")

        db = desk_database(work / "desk.sqlite")
        with Served(db, work / "archive", pki["ca"], work / "serve.log", stand_in=options.stand_in) as served:
            web, csrf = session(served.url)
            seconds, verdicts = [], {}
            for folder in (rules.parent for rules in made):
                names = FILES if options.stand_in else sorted(p.name for p in folder.iterdir() if p.is_file())
                parts = [("files", (n, (folder / n).read_bytes(), "application/octet-stream")) for n in names]
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
        print(f"upload and verify {len(seconds)} filings through the desk's JSON API, one after another ({kind}): "
              f"total {sum(seconds):.1f} s; per filing mean {statistics.mean(seconds):.2f} s, median "
              f"{statistics.median(seconds):.2f} s, fastest {min(seconds):.2f} s, slowest {max(seconds):.2f} s; "
              "verdicts " + "; ".join(f"{n} {v}" for v, n in sorted(verdicts.items())))

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
