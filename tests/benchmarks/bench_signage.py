"""Benchmark: the table sign, in process, per sample and size, soft proof and printer's file.

Run: PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_signage.py
For each case: the median of three renderings (after one warm-up), how many layouts the fitting took, the
scale it chose and how much of the sheet's height the sign fills.
"""

from __future__ import annotations

import statistics
import time

SIZES = ("letter", "tabloid", "a3-landscape", "limit-card", "24x36in")


def main() -> None:
    from rulegen.resolved import resolve
    from rulegen.offering import load_offering
    from rulegen.render import documents, signage
    from rulegen.render.context import draft_status
    from rulegen.resources import samples_dir

    layouts = []
    original = signage.render_signage_html

    def counting(*args, **kwargs):
        layouts.append(1)
        return original(*args, **kwargs)

    signage.render_signage_html = counting
    print(f"{'sample':24} {'size':13} {'print':5} {'median s':>8} {'layouts':>7} {'scale':>6} {'fill':>5}")
    for sample in sorted(samples_dir().glob("*.yaml")):
        offering = resolve(load_offering(sample))
        draft = draft_status(offering, False)
        for size in SIZES:
            for print_proof in (False, True):
                documents.signage_rendering(offering, draft=draft, size=size, print_proof=print_proof)
                times = []
                for _ in range(3):
                    layouts.clear()
                    start = time.perf_counter()
                    result = documents.signage_rendering(offering, draft=draft, size=size,
                                                         print_proof=print_proof)
                    times.append(time.perf_counter() - start)
                fill = result.measure.used_px / result.measure.height_px
                print(f"{sample.stem:24} {size:13} {'yes' if print_proof else 'no':5} {statistics.median(times):8.2f} "
                      f"{len(layouts):7d} {float(result.scale):6.2f} {fill:5.2f}")


if __name__ == "__main__":
    main()
