"""A matrix of offering configurations the samples never print, for the document check (tests/doccheck.py).

Each configuration is a bundled sample changed along the dimensions an offering can take: dealing × shuffling ×
deck count, each optional wager present and absent, each Bonus Spin table, kind, trigger and top-prize kind, the
payout limit present and absent, the displays. Every configuration is meant to validate: a configuration the
validation refuses is a fault of the matrix (the test says which rule refused it), not a document to check.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from rulegen.resources import samples_dir

SAMPLES = {"MD": "md-progressive.yaml", "NJ": "nj-bonus-spin.yaml", "PA": "pa-five-card-bonus.yaml",
           "HOUSE": "house-six-card-bonus.yaml"}

Data = dict[str, Any]
Change = Callable[[Data], None]


@dataclass(frozen=True)
class Configuration:
    name: str
    jurisdiction: str
    data: Data

    def write(self, folder: Path) -> Path:
        path = folder / f"{self.name}.yaml"
        yaml = YAML(typ="safe", pure=True)
        yaml.default_flow_style = False
        with path.open("w", encoding="utf-8") as out:
            yaml.dump(self.data, out)
        return path


def sample_data(code: str) -> Data:
    yaml = YAML(typ="safe", pure=True)
    data: Data = yaml.load((Path(samples_dir()) / SAMPLES[code]).read_text(encoding="utf-8"))
    return data


# --- the dimensions ---------------------------------------------------------------------------------------------

def cards(dealing: str, shuffling: str, decks: int, hours: int | None = None) -> Change:
    def change(data: Data) -> None:
        section = data["cards"]
        section.update(dealing=dealing, shuffling=shuffling, decks=decks,
                       back_colours=["red", "blue"][:decks])
        if hours is None:
            section.pop("deck_change_hours", None)
        else:
            section["deck_change_hours"] = hours
    return change


def without(*keys: str) -> Change:
    def change(data: Data) -> None:
        for key in keys:
            data.pop(key, None)
    return change


def displays(odds: str, limit: str) -> Change:
    def change(data: Data) -> None:
        data["table"]["payout_odds_display"] = odds
        data["table"]["payout_limit_display"] = limit
    return change


def spin(**fields: Any) -> Change:
    def change(data: Data) -> None:
        data["bonus_spin"] = {key: value for key, value in fields.items() if value is not None}
    return change


def top(kind: str, initial: int, reset: int | None = None, rate: float | None = None,
        description: str | None = None) -> Data:
    prize: Data = {"kind": kind, "initial": initial}
    if reset is not None:
        prize["reset"] = reset
    if rate is not None:
        prize["rate_of_progression_percent"] = rate
    if description is not None:
        prize["description"] = description
    return prize


def limit(amount: int | None) -> Change:
    def change(data: Data) -> None:
        if amount is None:
            data.pop("payout_limit", None)
        else:
            data["payout_limit"] = {"amount": amount}
    return change


# Dealing × shuffling × decks, each with the deck-change interval its dealing allows (4 h by hand, 8 h from a shoe).
DEALING = {
    "shoe-manual-1": cards("manual-shoe", "manual", 1, 8),
    "shoe-auto-1": cards("manual-shoe", "automated", 1, 8),
    "shoe-counting-2": cards("manual-shoe", "automated-counting", 2, 8),
    "hand-auto-1": cards("hand", "automated", 1, 4),
    "hand-counting-2": cards("hand", "automated-counting", 2, 4),
    "autoshoe-counting-1": cards("automated-shoe", "automated-counting", 1, 8),
    "autoshoe-auto-2": cards("automated-shoe", "automated", 2, 8),
}


def _md() -> dict[str, list[Change]]:
    progressive = lambda table, prize, community="A": spin(  # noqa: E731
        kind="progressive", wager=5, paytable=table, community_pay=community, trigger="pair_in_hole_cards",
        top_prize=prize)
    fixed_a = top("fixed", 1000)
    merchandise_c = top("merchandise", 6000, description="A 2027 Vespa GTS 300 motor scooter")
    return {
        "fixed-a-manual-shuffle": [DEALING["shoe-manual-1"], progressive("A", fixed_a)],
        "merch-c-hand": [DEALING["hand-auto-1"], progressive("C", merchandise_c, "B")],
        "prog-b-autoshoe": [DEALING["autoshoe-counting-1"], progressive("B", top("progressive", 1000, 1000, 1.5))],
        # An Xtreme wager triggered by suited cards, or on Paytables D to I, returns more than it takes whatever the
        # wheel's weights (a validation error, spin-return): the Xtreme tables a filing can use are A to C at $5.
        "xtreme-c-pair": [DEALING["shoe-auto-1"], spin(kind="xtreme", wager=5, paytable="C", community_pay="C",
                                                          trigger="pair_in_hole_cards",
                                                          top_prize=top("progressive", 2500, 1000, 2))],
        "xtreme-a-pair": [DEALING["hand-counting-2"],
                          spin(kind="xtreme", wager=5, paytable="A", community_pay="A", trigger="pair_in_hole_cards",
                               top_prize=top("progressive", 2500, 2500, 2))],
        "no-fcb-no-spin": [DEALING["shoe-manual-1"], without("five_card_bonus", "bonus_spin"),
                           displays("layout", "layout")],
        "spin-only": [DEALING["autoshoe-auto-2"], without("five_card_bonus")],
        "limit-no-spin": [limit(50000), without("bonus_spin")],
        # the facility operator's own ante table, a departure from §A the text has no waiver for: a DRAFT only
        "ante-operator": [DEALING["shoe-manual-1"], lambda data: data["paytables"].update(ante="standard"),
                          without("bonus_spin")],
    }


def _nj() -> dict[str, list[Change]]:
    table = lambda number, wager, prize: spin(  # noqa: E731
        kind="progressive", wager=wager, paytable=number, trigger="pair_in_hole_cards", top_prize=prize,
        hardware_approval="MO-381-17-019-DGE")
    return {
        "t3-fixed-manual-shuffle": [DEALING["shoe-manual-1"], table("3", 5, top("fixed", 10000))],
        "t4-fixed-hand": [DEALING["hand-auto-1"], table("4", 1, top("fixed", 2500))],
        "t4-fixed": [DEALING["shoe-counting-2"], table("4", 1, top("fixed", 5000))],
        "t5-progressive": [DEALING["autoshoe-auto-2"], table("5", 1, top("progressive", 5000, 5000, 2))],
        "no-spin": [DEALING["hand-counting-2"], without("bonus_spin"), displays("sign", "sign")],
        "shoe-auto-layout": [DEALING["shoe-auto-1"], displays("layout", "layout")],
        "no-limit-stated": [DEALING["autoshoe-counting-1"], limit(None)],
        "t4-merch-hand": [DEALING["hand-counting-2"],
                          table("4", 1, top("merchandise", 5000, description="A motorcycle"))],
    }


def _pa() -> dict[str, list[Change]]:
    return {
        "manual-shuffle-shoe": [DEALING["shoe-manual-1"]],
        "no-fcb": [DEALING["shoe-counting-2"], without("five_card_bonus")],
        "no-limit": [DEALING["autoshoe-counting-1"], limit(None)],
        "no-fcb-no-limit": [DEALING["hand-auto-1"], without("five_card_bonus"), limit(None), displays("sign", "sign")],
        "two-decks-autoshoe": [DEALING["autoshoe-auto-2"]],
        "shoe-auto": [DEALING["shoe-auto-1"], displays("layout", "layout")],
    }


def _house() -> dict[str, list[Change]]:
    return {
        "no-six": [without("six_card_bonus")],
        "no-bonuses": [without("six_card_bonus", "five_card_bonus")],
        "layout-displays": [displays("layout", "layout")],
    }


MATRIX = {"MD": _md, "NJ": _nj, "PA": _pa, "HOUSE": _house}


def weighted_wheel(code: str) -> Change:
    """A wheel with a weight for every segment of the designated Bonus Spin table, as a final filing needs (the
    manufacturer's par sheet): each segment weighted as 100,000,000 / prize³ (the top prize once), so small prizes
    come up most and every table of the matrix returns less than its wager, other players' community pays
    included. A sample's own wheel is kept where it is for the same table."""
    def change(data: Data) -> None:
        spin = data.get("bonus_spin")
        if not spin:
            return
        from rulegen.jurisdiction import load_jurisdiction
        from rulegen.resolved import bonus_spin_table

        table = bonus_spin_table(load_jurisdiction(code), spin)
        assert table is not None, f"{code} has no Bonus Spin table {spin.get('paytable')!r}"
        rows = table.value.get("symbols", [])
        symbols = {str(row.get("symbol")) for row in rows}
        if spin.get("wheel") and {str(seg["symbol"]) for seg in spin["wheel"]} == symbols:
            return
        # community pays (on the wheel's segments, or an Xtreme wager's Community Prize Wheel) add to the return for
        # every other player holding the wager: the wheel leans on its small prizes, so a full table stays below 100%
        scale, power = (10**12, 5) if spin.get("kind") == "xtreme" else (100_000_000, 3)
        wheel = []
        for row in rows:
            symbol = row.get("symbol")
            segment: Data = {"symbol": int(symbol) if str(symbol).isdigit() else symbol,
                             "weight": 1 if row.get("pays") is None else
                             max(1, round(scale / row["pays"] ** power / (20 if row.get("community") else 1)))}
            if row.get("community") is not None:
                segment["community"] = row["community"]
            wheel.append(segment)
        spin["wheel"] = wheel
        community = spin.get("community_pay")
        if spin.get("kind") == "xtreme" and community is not None and not spin.get("community_wheel"):
            amounts = [row["pays"] for row in
                       load_jurisdiction(code).data["bonus_spin"]["xtreme"]["community_pays"][community]["value"]]
            spin["community_wheel"] = [{"symbol": amount, "weight": max(1, round(10_000_000 / amount ** 5))}
                                       for amount in amounts]
    return change


def configurations(codes: tuple[str, ...] = ("MD", "NJ", "PA", "HOUSE")) -> Iterator[Configuration]:
    for code in codes:
        base = sample_data(code)
        for name, changes in MATRIX[code]().items():
            data = copy.deepcopy(base)
            data["offering"]["id"] = f"{code.lower()}-{name}"
            for change in (*changes, weighted_wheel(code)):
                change(data)
            yield Configuration(f"{code.lower()}-{name}", code, data)
