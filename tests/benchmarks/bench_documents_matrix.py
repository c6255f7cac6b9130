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

from rulegen.build import math_results, settled  # noqa: E402
from rulegen.render import documents  # noqa: E402
from rulegen.render.appendix import render_appendix_html  # noqa: E402
from rulegen.render.context import draft_status  # noqa: E402
from rulegen.render.signage import render_signage_html  # noqa: E402
from rulegen.validate import validate_file  # noqa: E402
from tests.configurations import configurations  # noqa: E402
from tests.doccheck import Config, check_html, concordance_order, text_outside_page  # noqa: E402


def check(configuration, folder: Path) -> list[str]:
    path = configuration.write(folder)
    report = validate_file(path, path.name)
    errors = [f.format() for f in report.findings if f.level == "error"]
    if errors:
        return [f"does not validate: {error}" for error in errors]
    offering = settled(report.offering)
    results = math_results(offering)
    draft = draft_status(offering, False)
    config = Config.of(configuration.data)
    rules = documents.rules_html(offering, results, draft=draft)
    problems = check_html("rules.html", rules, config)
    problems += check_html("signage.html", render_signage_html(offering, draft=draft), config)
    problems += check_html("appendix.html", render_appendix_html(offering, results, draft=draft), config)
    problems += concordance_order(rules, config.jurisdiction)
    problems += text_outside_page("rules.pdf", documents.rules_pdf(offering, rules, []))
    for size in ("letter", "tabloid"):
        problems += text_outside_page(f"signage.pdf ({size})", documents.signage_pdf(offering, draft=draft, size=size))
    problems += text_outside_page("math-appendix.pdf", documents.appendix_pdf(offering, results, draft=draft))
    return problems


def main(names: list[str]) -> int:
    total = 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        matrix = [c for c in configurations() if not names or c.name in names]
        for configuration in matrix:
            start = time.perf_counter()
            problems = check(configuration, Path(folder))
            total += len(problems)
            print(f"{configuration.name}: {len(problems)} problems, {time.perf_counter() - start:.1f} s")
            for problem in problems:
                print(f"  {problem}")
    print(f"{len(matrix)} configurations, {total} problems, {time.perf_counter() - started:.0f} s")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
