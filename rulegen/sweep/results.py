"""A sweep's results: the rows as CSV text (one part file per chunk of candidates, then sweep.csv), Parquet for
large sweeps, the Pareto front of house edge against hit frequency and its SVG plot.

Every value is written one way whatever computed it (exact fractions as n/d, floats by their shortest repr,
money as its exact decimal), so a sweep computed on one machine, two, or a cluster gives the same bytes.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from html import escape

from rulegen.sweep.evaluate import CandidateRow
from rulegen.sweep.spec import SweepSpec, value_text

FIGURE_COLUMNS = (
    "ev_per_ante_exact", "house_edge_per_ante", "element_of_risk", "hit_frequency", "standard_deviation",
    "average_total_wager", "five_card_bonus_return", "six_card_bonus_return", "bonus_spin_return",
    "max_win_at_minimum", "validates", "first_rule_broken", "first_finding", "passes_filter",
)


def columns(spec: SweepSpec) -> tuple[str, ...]:
    return ("candidate", *(f.path for f in spec.fields), *FIGURE_COLUMNS, "pareto")


def _cell(value: object) -> str:
    from decimal import Decimal
    from fractions import Fraction

    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Decimal):
        return str(value)
    return str(value)


def row_cells(row: CandidateRow) -> list[str]:
    """A row's cells, without the Pareto column (known only when every row is in)."""
    return [str(row.candidate), *(value_text(v) for v in row.values),
            *(_cell(getattr(row, name)) for name in FIGURE_COLUMNS)]


def part_text(rows: Iterable[CandidateRow]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow(row_cells(row))
    return out.getvalue()


def read_part(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@dataclass(frozen=True)
class Point:
    candidate: int
    house_edge: float
    hit_frequency: float


def pareto_front(points: list[Point]) -> list[Point]:
    """The candidates no other beats on both: a higher house edge and a higher hit frequency are both sought (the
    house's return and how often the player wins); a point is on the front unless another has both at least as
    high and one higher. Sorted by house edge, highest first; of equal points, each is on the front."""
    ordered = sorted(points, key=lambda p: (-p.house_edge, -p.hit_frequency, p.candidate))
    front: list[Point] = []
    best_hit = None
    best_edge = None
    for point in ordered:
        if best_hit is None or point.hit_frequency > best_hit or (
                point.hit_frequency == best_hit and point.house_edge == best_edge):
            front.append(point)
            if best_hit is None or point.hit_frequency > best_hit:
                best_hit, best_edge = point.hit_frequency, point.house_edge
    return front


def with_filter(spec: SweepSpec, header: tuple[str, ...], cells: list[str]) -> list[str]:
    """The row's cells with passes_filter as the spec's filter says now (so a changed filter needs no candidate
    computed again): a row with figures passes when each bounded figure is within its bounds."""
    from rulegen.sweep.spec import FIGURES

    at = {name: i for i, name in enumerate(header)}
    passes = bool(cells[at["ev_per_ante_exact"]]) and all(
        bound.admits(cells[at[FIGURES[bound.figure]]] or None) for bound in spec.bounds)
    out = list(cells)
    out[at["passes_filter"]] = "true" if passes else "false"
    return out


def filtered_points(rows: Iterable[list[str]], header: tuple[str, ...]) -> Iterator[Point]:
    """The points of the rows that pass the filter (and have figures)."""
    at = {name: i for i, name in enumerate(header)}
    for cells in rows:
        if cells[at["passes_filter"]] == "true" and cells[at["house_edge_per_ante"]]:
            yield Point(int(cells[at["candidate"]]), float(cells[at["house_edge_per_ante"]]),
                        float(cells[at["hit_frequency"]]))


MAX_PLOTTED = 20_000  # candidates off the front drawn at most (evenly taken), so the plot stays small


def pareto_svg(points: list[Point], front: list[Point], title: str) -> str:
    """A scatter plot of the candidates that pass the filter (house edge across, hit frequency up) with the
    Pareto front drawn over them."""
    width, height, left, right, top, bottom = 760, 480, 90, 50, 40, 60
    plot_w, plot_h = width - left - right, height - top - bottom
    if points:
        x0, x1 = min(p.house_edge for p in points), max(p.house_edge for p in points)
        y0, y1 = min(p.hit_frequency for p in points), max(p.hit_frequency for p in points)
    else:
        x0 = x1 = y0 = y1 = 0.0
    if x1 - x0 < 1e-12:
        x0, x1 = x0 - 0.001, x1 + 0.001
    if y1 - y0 < 1e-12:
        y0, y1 = y0 - 0.001, y1 + 0.001

    def sx(v: float) -> float:
        return left + (v - x0) / (x1 - x0) * plot_w

    def sy(v: float) -> float:
        return top + plot_h - (v - y0) / (y1 - y0) * plot_h

    on_front = {p.candidate for p in front}
    rest = [p for p in points if p.candidate not in on_front]
    step = max(1, -(-len(rest) // MAX_PLOTTED))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<title>{escape(title)}</title>',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="{width / 2:.1f}" y="20" text-anchor="middle" font-size="14">{escape(title)}</text>',
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="black"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="black"/>',
    ]
    for i in range(6):
        xv = x0 + (x1 - x0) * i / 5
        yv = y0 + (y1 - y0) * i / 5
        parts.append(f'<line x1="{sx(xv):.1f}" y1="{top + plot_h}" x2="{sx(xv):.1f}" y2="{top + plot_h + 5}" '
                     'stroke="black"/>')
        parts.append(f'<text x="{sx(xv):.1f}" y="{top + plot_h + 18}" text-anchor="middle">{100 * xv:.3f}%</text>')
        parts.append(f'<line x1="{left - 5}" y1="{sy(yv):.1f}" x2="{left}" y2="{sy(yv):.1f}" stroke="black"/>')
        parts.append(f'<text x="{left - 8}" y="{sy(yv) + 4:.1f}" text-anchor="end">{100 * yv:.3f}%</text>')
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 15}" text-anchor="middle">'
                 'house edge per ante</text>')
    parts.append(f'<text x="{left}" y="{top - 8}" text-anchor="middle">hit frequency</text>')
    for point in rest[::step]:
        parts.append(f'<g><title>candidate {point.candidate}</title><circle cx="{sx(point.house_edge):.1f}" '
                     f'cy="{sy(point.hit_frequency):.1f}" r="2.5" fill="#9aa5b1"/></g>')
    if front:
        path = " ".join(f"{sx(p.house_edge):.1f},{sy(p.hit_frequency):.1f}" for p in front)
        parts.append(f'<polyline points="{path}" fill="none" stroke="#c0392b" stroke-width="1.5"/>')
        for point in front:
            parts.append(f'<g><title>candidate {point.candidate}: house edge {100 * point.house_edge:.4f}%, '
                         f'hit frequency {100 * point.hit_frequency:.4f}%</title><circle '
                         f'cx="{sx(point.house_edge):.1f}" cy="{sy(point.hit_frequency):.1f}" r="4" '
                         'fill="#c0392b"/></g>')
    if not points:
        parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{top + plot_h / 2:.1f}" text-anchor="middle">'
                     'no candidate passes the filter</text>')
    parts.append(f'<text x="{left + plot_w - 4}" y="{top + 14}" text-anchor="end">'
                 f'{len(points):,} candidates pass the filter; {len(front):,} on the Pareto front (red)</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


PARQUET_FROM = 10_000  # a sweep of this many candidates or more is written as Parquet too


def parquet_schema(header: tuple[str, ...]):
    import pyarrow as pa

    types = {"candidate": pa.int64(), "house_edge_per_ante": pa.float64(), "element_of_risk": pa.float64(),
             "hit_frequency": pa.float64(), "standard_deviation": pa.float64(), "average_total_wager": pa.float64(),
             "five_card_bonus_return": pa.float64(), "six_card_bonus_return": pa.float64(),
             "bonus_spin_return": pa.float64(), "validates": pa.bool_(), "passes_filter": pa.bool_(),
             "pareto": pa.bool_()}
    return pa.schema([(name, types.get(name, pa.string())) for name in header])


def parquet_batch(schema, rows: list[list[str]]):
    """Rows (CSV cells) as one record batch: numbers as numbers, an empty cell as null, exact values as text."""
    import pyarrow as pa

    arrays = []
    for i, field in enumerate(schema):
        cells = [row[i] for row in rows]
        if pa.types.is_int64(field.type):
            arrays.append(pa.array([int(c) for c in cells], type=field.type))
        elif pa.types.is_float64(field.type):
            arrays.append(pa.array([float(c) if c else None for c in cells], type=field.type))
        elif pa.types.is_boolean(field.type):
            arrays.append(pa.array([c == "true" if c else None for c in cells], type=field.type))
        else:
            arrays.append(pa.array([c if c else None for c in cells], type=field.type))
    return pa.RecordBatch.from_arrays(arrays, schema=schema)
