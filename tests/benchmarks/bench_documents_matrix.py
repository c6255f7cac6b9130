"""Benchmark and check: every configuration of the document matrix, built as PDFs and read as a regulator would.

Run: .venv/bin/python tests/benchmarks/bench_documents_matrix.py [NAME ...]
For each configuration of tests/configurations.py (or the ones named), the rules, the sign and the appendix are
rendered to PDF and HTML and read by tests/doccheck.py: the HTML for placeholders, other jurisdictions, tool
vocabulary and equipment or wagers the table lacks; the Concordance for the text's order; every PDF for text
outside its page. The fast suite checks the HTML of the whole matrix and the PDFs of a covering subset; this
reads every PDF. Prints each configuration's problems and time, then the totals; exits 1 on any problem.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.configurations import configurations  # noqa: E402
from tests.doccheck import configuration_problems  # noqa: E402


def main(names: list[str]) -> int:
    total = 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        matrix = [c for c in configurations() if not names or c.name in names]
        for configuration in matrix:
            start = time.perf_counter()
            problems = configuration_problems(configuration, Path(folder), pdfs=True, sign_sizes=("letter", "tabloid"))
            total += len(problems)
            print(f"{configuration.name}: {len(problems)} problems, {time.perf_counter() - start:.1f} s")
            for problem in problems:
                print(f"  {problem}")
    print(f"{len(matrix)} configurations, {total} problems, {time.perf_counter() - started:.0f} s")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
