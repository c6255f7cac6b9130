"""Inline SVG drawings: the cross of community cards, a player's betting areas, a bar chart, the Bonus Spin wheel.

Only geometry is computed here (where a box or a bar goes); every number a drawing labels is given to it
by the caller, from the math or game layers or the offering. Text is escaped; the result is Markup.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from markupsafe import Markup, escape

FONT = 'font-family="Rulegen Sans, DejaVu Sans, sans-serif"'


def _num(value: float) -> str:
    """Coordinates with two decimals at most, the same text on every machine."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _text(x: float, y: float, label: str, size: float = 10, anchor: str = "middle", weight: str = "normal",
          fill: str = "#111") -> str:
    return (f'<text x="{_num(x)}" y="{_num(y)}" {FONT} font-size="{_num(size)}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}">{escape(label)}</text>')


def cross_layout(*, five_card_bonus: bool, bonus_spin: bool, six_card_bonus: bool = False) -> Markup:
    """The table seen from above: the dealer, the cross of five community cards (Down at the top and bottom,
    Across left and right, Middle in the centre), and one player position's betting areas, ordered from the
    dealer outwards as the layouts lay them: bonus wagers, the two antes, the Across and Down bets, Middle."""
    w, h = 520, 300
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
             'role="img" aria-label="Criss Cross Poker layout: community cards and one player\'s betting areas">']
    parts.append(f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}" rx="14" fill="#eef5ee" stroke="#2f6b3a" stroke-width="2"/>')
    # the dealer's side at the top
    parts.append('<rect x="20" y="14" width="200" height="26" rx="4" fill="#fff" stroke="#555"/>')
    parts.append(_text(120, 32, "Dealer", 10))
    # the cross: card boxes 34 x 48
    cw, ch, gap = 34, 48, 8
    cx, top = 120, 54
    boxes = [
        ("Down", cx - cw / 2, top),
        ("Across", cx - cw / 2 - cw - gap, top + ch + gap),
        ("Middle", cx - cw / 2, top + ch + gap),
        ("Across", cx + cw / 2 + gap, top + ch + gap),
        ("Down", cx - cw / 2, top + 2 * (ch + gap)),
    ]
    for label, x, y in boxes:
        fill = "#fff7d6" if label == "Middle" else "#fff"
        parts.append(f'<rect x="{_num(x)}" y="{_num(y)}" width="{cw}" height="{ch}" rx="3" fill="{fill}" stroke="#333"/>')
        parts.append(_text(x + cw / 2, y + ch / 2 + 3, label, 7.5, weight="bold"))
    parts.append(_text(cx, top + 3 * (ch + gap) + 10, "Across: the row · Down: the column", 8.5, fill="#333"))
    parts.append(_text(cx, top + 3 * (ch + gap) + 22, "Middle: in both", 8.5, fill="#333"))
    # one player's betting areas, from the dealer outwards (top to bottom)
    px, py = 300, 52
    rows = []
    if five_card_bonus or bonus_spin or six_card_bonus:
        bonus = [name for flag, name in ((five_card_bonus, "Five Card Bonus"), (six_card_bonus, "Six Card Bonus"),
                                         (bonus_spin, "Bonus Spin")) if flag]
        rows.append(bonus)
    rows.append(["Ante Across", "Ante Down"])
    rows.append(["Across", "Down"])
    rows.append(["Middle"])
    parts.append(_text(px + 95, py - 12, "One player position (dealer side at top)", 9, fill="#333"))
    radius = 25
    for index, row in enumerate(rows):
        y = py + 22 + index * 62
        span = 190
        for j, name in enumerate(row):
            x = px + (span / (len(row) + 1)) * (j + 1)
            shape_fill = "#dfe9f7" if index == len(rows) - 1 or index == len(rows) - 2 else "#fff"
            if name in ("Five Card Bonus", "Six Card Bonus", "Bonus Spin"):
                shape_fill = "#f6e3e3"
            parts.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{radius}" fill="{shape_fill}" stroke="#333"/>')
            words = name.split(" ")
            if len(words) == 1:
                parts.append(_text(x, y + 3, name, 8, weight="bold"))
            elif len(words) == 2:
                parts.append(_text(x, y - 1, words[0], 7.5, weight="bold"))
                parts.append(_text(x, y + 9, words[1], 7.5, weight="bold"))
            else:  # a word a line, so that no line reaches the circle's outline ("Five / Card / Bonus")
                for line, word in enumerate(words[:3]):
                    parts.append(_text(x, y - 5 + 9 * line, word, 7.5, weight="bold"))
    parts.append("</svg>")
    return Markup("".join(parts))


def bar_chart(bars: list[tuple[str, float]], *, title: str, value_labels: list[str], width: int = 620,
              height: int = 250, log_scale: bool = False) -> Markup:
    """A vertical bar chart; `bars` are (label, value) with value >= 0, `value_labels` the printed figures."""
    left, right, top, bottom = 48, 12, 26, 58
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [max(0.0, float(v)) for _, v in bars]
    if log_scale:
        positive = [v for v in values if v > 0] or [1.0]
        floor = math.floor(math.log10(min(positive)))
        ceiling = math.ceil(math.log10(max(positive)))
        ceiling = max(ceiling, floor + 1)

        def scale(v: float) -> float:
            return 0.0 if v <= 0 else (math.log10(v) - floor) / (ceiling - floor)
        ticks = [(10 ** e, f"1e{e}") for e in range(floor, ceiling + 1)]
    else:
        peak = max(values) or 1.0

        def scale(v: float) -> float:
            return v / peak
        ticks = [(peak * k / 4, f"{peak * k / 4:.3f}") for k in range(5)]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}" role="img" aria-label="{escape(title)}">']
    parts.append(_text(width / 2, 14, title, 10, weight="bold"))
    for tick, label in ticks:
        y = top + plot_h * (1 - scale(tick))
        parts.append(f'<line x1="{left}" y1="{_num(y)}" x2="{width - right}" y2="{_num(y)}" stroke="#ddd"/>')
        parts.append(_text(left - 4, y + 3, label, 7, anchor="end", fill="#555"))
    n = max(1, len(bars))
    slot = plot_w / n
    every = max(1, math.ceil(16 / slot))  # axis labels at least 16 units apart, so none overlap
    labelled = set(range(0, n, every))
    last_regular = max(labelled)
    if last_regular != n - 1:  # both ends labelled; a regular label too close to the last one gives way
        if 0 < last_regular and n - 1 - last_regular < every:
            labelled.remove(last_regular)
        labelled.add(n - 1)
    for i, ((label, _), value, printed) in enumerate(zip(bars, values, value_labels)):
        bar_h = plot_h * scale(value)
        x = left + i * slot + slot * 0.15
        y = top + plot_h - bar_h
        parts.append(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(slot * 0.7)}" height="{_num(bar_h)}" fill="#4f7fc2"/>')
        parts.append(_text(x + slot * 0.35, y - 3, printed, 6.5, fill="#222"))
        if i not in labelled:
            continue
        lx, ly = x + slot * 0.35, top + plot_h + 10
        parts.append(f'<text x="{_num(lx)}" y="{_num(ly)}" {FONT} font-size="7" text-anchor="end" '
                     f'transform="rotate(-35 {_num(lx)} {_num(ly)})" fill="#111">{escape(label)}</text>')
    parts.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{width - right}" y2="{top + plot_h}" stroke="#333"/>')
    parts.append("</svg>")
    return Markup("".join(parts))


def wheel(segments: list[dict[str, Any]], *, size: int = 300) -> Markup:
    """The Bonus Spin wheel: one wedge per segment, sized by its weight where weights are given (equal wedges
    otherwise), labelled with the segment's printed prize. `segments`: [{label, weight|None, highlight, position?}].
    Where every segment carries the wheel position its table gives (New Jersey's Tables 3 to 5), the wedges go round
    the wheel in that order from the pointer, not in the table's row order."""
    if segments and all(s.get("position") is not None for s in segments):
        segments = sorted(segments, key=lambda s: int(s["position"]))
    r = size / 2 - 10
    c = size / 2
    weights = [s.get("weight") for s in segments]
    equal = any(w is None for w in weights) or not segments
    total = len(segments) if equal else sum(int(w) for w in weights if w is not None)
    palette = ("#f3d9a4", "#cfe0f5", "#d8ecd3", "#f2d0d0", "#e3d7f0", "#f8ecc4")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size}" height="{size}" '
             'role="img" aria-label="Bonus Spin wheel">']
    angle = -math.pi / 2
    for index, segment in enumerate(segments):
        share = (1 if equal else int(segment["weight"])) / total if total else 0
        sweep = 2 * math.pi * share
        end = angle + sweep
        x1, y1 = c + r * math.cos(angle), c + r * math.sin(angle)
        x2, y2 = c + r * math.cos(end), c + r * math.sin(end)
        large = 1 if sweep > math.pi else 0
        fill = "#c9a227" if segment.get("highlight") else palette[index % len(palette)]
        if share >= 0.999999:
            parts.append(f'<circle cx="{_num(c)}" cy="{_num(c)}" r="{_num(r)}" fill="{fill}" stroke="#444"/>')
        else:
            parts.append(f'<path d="M{_num(c)},{_num(c)} L{_num(x1)},{_num(y1)} A{_num(r)},{_num(r)} 0 {large} 1 '
                         f'{_num(x2)},{_num(y2)} Z" fill="{fill}" stroke="#444" stroke-width="0.6"/>')
        if sweep > 0.12:
            mid = angle + sweep / 2
            tx, ty = c + r * 0.68 * math.cos(mid), c + r * 0.68 * math.sin(mid)
            parts.append(_text(tx, ty + 3, segment["label"], 7.5 if sweep > 0.3 else 6, weight="bold"))
        angle = end
    parts.append(f'<circle cx="{_num(c)}" cy="{_num(c)}" r="9" fill="#333"/>')
    parts.append(f'<path d="M{_num(c - 7)},4 L{_num(c + 7)},4 L{_num(c)},18 Z" fill="#a00"/>')
    parts.append("</svg>")
    return Markup("".join(parts))


def decimal_text(value: object) -> str:
    return str(Decimal(str(value)))
