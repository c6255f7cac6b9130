"""Benchmark: what long-term validation costs. Signs one filing PAdES B-B (`--sign`) and PAdES B-LT (`--sign --tsa`,
with the test CA's timestamp authority, CRL and OCSP responder on 127.0.0.1, tests/tsaserver.py), then verifies
each offline; prints the file sizes and the median, min and first of each step.

The filing is the one-page rendering of tests/filing_factory.py, so the times are signing and verifying alone,
not rendering. Network time is the loopback's: a real authority adds its round trips (one timestamp request,
one for the token's size estimate, one per CRL or OCSP responder named).

Run: PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_ltv.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent


def _load(name: str):
    """A helper module of the tests (tests/<name>.py), imported as the test suite imports it."""
    import importlib

    root = str(TESTS.parent)
    if root not in sys.path:
        sys.path.append(root)  # after the installed package, which stays the one measured
    return importlib.import_module(f"tests.{name}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    factory, tsaserver = _load("filing_factory"), _load("tsaserver")
    from rulegen.filing import sign_pdf, verify_filing
    from rulegen.filing.pdf import open_reader, revision_end

    times: dict[str, list[float]] = {"sign B-B": [], "sign B-LT": [], "verify B-B": [], "verify B-LT": []}
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        pki = factory.make_pki(folder)
        filing = factory.build(folder / "filing", pki)
        data = filing.read_bytes()
        unsigned = data[: revision_end(data, open_reader(data), 0)]
        signed = {}
        with tsaserver.TimestampAuthority(pki["ca_cert"], pki["ca_key"]) as tsa:
            identity = tsa.issue_signer(folder, factory.PASSPHRASE, serial=50)
            for _ in range(args.repeat):
                for level, url in (("B-B", None), ("B-LT", tsa.url)):
                    began = time.perf_counter()
                    signed[level] = sign_pdf(unsigned, identity, factory.PASSPHRASE, tsa_url=url)
                    times[f"sign {level}"].append(time.perf_counter() - began)
        # the authority is stopped: verify uses the embedded data only
        for level, blob in signed.items():
            package = folder / level
            shutil.copytree(filing.parent, package)
            (package / "rules.pdf").write_bytes(blob)
            for _ in range(args.repeat):
                began = time.perf_counter()
                report = verify_filing(package, trust=pki["ca"])
                times[f"verify {level}"].append(time.perf_counter() - began)
                if report.exit_code != 0 or report.pades_level != level:
                    raise SystemExit(f"{level}: {report.verdict}")
        print(f"sizes: unsigned {len(unsigned):,} bytes; B-B {len(signed['B-B']):,}; B-LT {len(signed['B-LT']):,}")
    for label, values in times.items():
        print(f"{label:12} median {statistics.median(values) * 1000:6.0f} ms   min {min(values) * 1000:6.0f} ms   "
              f"first {values[0] * 1000:6.0f} ms   ({len(values)} runs)")


if __name__ == "__main__":
    main()
