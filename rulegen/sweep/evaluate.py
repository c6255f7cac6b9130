"""One candidate's row: the base offering with the candidate's rows, validated in the base's jurisdiction, and
its figures from the math layer (the main game's from the shared counts, the maximum win from the reach table,
both computed once per process)."""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from rulegen.errors import RulegenError
from rulegen.sweep.spec import TABLES, SweepSpec, Value, value_text


@dataclass(frozen=True)
class CandidateRow:
    """One candidate's figures (None where the candidate has no such figure, or it could not be computed)."""
    candidate: int
    values: tuple[Value, ...]
    ev_per_ante_exact: Fraction | None
    house_edge_per_ante: float | None
    element_of_risk: float | None
    hit_frequency: float | None
    standard_deviation: float | None
    average_total_wager: float | None
    five_card_bonus_return: float | None
    six_card_bonus_return: float | None
    bonus_spin_return: float | None
    max_win_at_minimum: Decimal | None
    validates: bool
    first_rule_broken: str | None
    first_finding: str | None
    passes_filter: bool

    def figure(self, name: str) -> Any:
        return getattr(self, name)


_lock = threading.Lock()
_prepared: list[Any] = []
_bases: dict[str, Any] = {}


def prepared_counts():
    """The shared counts ready for the per-paytable kernel, once per process (a Dask worker computes or reads
    them on its first candidate)."""
    from rulegen.math import shared

    with _lock:
        if not _prepared:
            _prepared.append(shared.prepare(shared.shared_counts()))
        return _prepared[0]


def _base(spec: SweepSpec):
    from rulegen.offering import parse_offering

    key = spec.digest
    with _lock:
        if key not in _bases:
            _bases[key] = parse_offering(spec.base_source, str(spec.base), spec.base)
        return _bases[key]


def _written_out(offering, table: str) -> dict:
    """The paytable at `table` as a mapping of its rows, written out from the jurisdiction's data if named."""
    from rulegen.jurisdiction import codes, load_jurisdiction
    from rulegen.resolved import resolve_paytable

    first, second = table.split(".")
    section = offering.data.get(first)
    if not isinstance(section, dict):
        raise RulegenError(f"the base offering has no {first}: {table} cannot be varied")
    choice = section.get(second)
    if isinstance(choice, dict):
        return choice
    code = offering.data.get("offering", {}).get("jurisdiction")
    if code not in codes():
        raise RulegenError(f"the base offering names no known jurisdiction: {table} cannot be written out")
    mapping, _name, _citation = resolve_paytable(load_jurisdiction(code), TABLES[table], choice)
    if mapping is None:
        raise RulegenError(f"{table} names {choice!r}, a table its jurisdiction does not authorize")
    written: dict[str, object] = {}
    for key, odds in mapping.items():
        if isinstance(odds, str):
            written[key] = odds
        elif odds.denominator == 1:
            written[key] = odds.numerator
        else:
            written[key] = Decimal(odds.numerator) / Decimal(odds.denominator)
    section[second] = written
    return written


def candidate_offering(spec: SweepSpec, values: tuple[Value, ...]):
    """The base offering with the candidate's rows: its data changed, its text and places the base's (a finding
    points into the base file)."""
    from dataclasses import replace

    base = _base(spec)
    data = copy.deepcopy(base.data)
    offering = replace(base, data=data, display_path=f"{base.display_path} (candidate)", _logo=None)
    for field, value in zip(spec.fields, values):
        table = _written_out(offering, field.table)
        if isinstance(value, Decimal) and value == value.to_integral_value():
            table[field.row] = int(value)
        else:
            table[field.row] = value
    return offering


def evaluate_candidate(spec: SweepSpec, index: int) -> CandidateRow:
    from rulegen.math import shared
    from rulegen.math.bonus import five_card_bonus, six_card_bonus
    from rulegen.math.maxwin import max_win_per_round
    from rulegen.math.reach import max_win_amount
    from rulegen.math.report import wheel_setting, with_limit_by_rule
    from rulegen.math.wheel import WheelSetting, bonus_spin_math
    from rulegen.resolved import resolve
    from rulegen.validate import validate_offering

    values = spec.values(index)
    offering = candidate_offering(spec, values)
    errors = [f for f in validate_offering(offering) if f.level == "error"]
    first = errors[0] if errors else None
    figures: dict[str, Any] = {}
    problem = None
    try:
        resolved = with_limit_by_rule(resolve(offering))
        rules = resolved.game_rules
        main = shared.figures(prepared_counts(), rules.criss_cross, rules.ante)
        figures.update(
            ev_per_ante_exact=main.ev_per_ante, house_edge_per_ante=main.house_edge_per_ante,
            element_of_risk=main.element_of_risk, hit_frequency=main.hit_frequency,
            standard_deviation=main.standard_deviation,
            average_total_wager=float(main.average_total_wager_exact))
        if rules.five_card_bonus is not None:
            figures["five_card_bonus_return"] = five_card_bonus(rules.five_card_bonus).return_per_wager
        if rules.six_card_bonus is not None:
            figures["six_card_bonus_return"] = six_card_bonus(rules.six_card_bonus).return_per_wager
        if rules.bonus_spin is not None:
            spin = bonus_spin_math(rules.bonus_spin, wheel_setting(resolved) or WheelSetting(other_players=(0,)))
            if spin.weighted is not None:
                figures["bonus_spin_return"] = float(spin.weighted.return_per_wager)
        counted = frozenset(resolved.payout_limit.counted_in_max_win)
        five_minimum = resolved.five_card_bonus_minimum if "five_card_bonus" in counted else None
        if "bonus_spin" in counted and rules.bonus_spin is not None:
            # the reach table knows the cards, not the wheel: a limit that counts the Bonus Spin takes the search
            positions = resolved.table.positions
            figures["max_win_at_minimum"] = max_win_per_round(
                rules, resolved.limits.ante.minimum, five_minimum, counted,
                other_players=max(positions - 1, 0) if isinstance(positions, int) else 0).amount
        else:
            figures["max_win_at_minimum"] = max_win_amount(rules, resolved.limits.ante.minimum, five_minimum,
                                                           counted)
    except (RulegenError, ValueError, ArithmeticError) as exc:
        problem = f"figures not computed: {getattr(exc, 'message', None) or exc}"
    row = CandidateRow(
        candidate=index, values=values,
        ev_per_ante_exact=figures.get("ev_per_ante_exact"),
        house_edge_per_ante=figures.get("house_edge_per_ante"),
        element_of_risk=figures.get("element_of_risk"),
        hit_frequency=figures.get("hit_frequency"),
        standard_deviation=figures.get("standard_deviation"),
        average_total_wager=figures.get("average_total_wager"),
        five_card_bonus_return=figures.get("five_card_bonus_return"),
        six_card_bonus_return=figures.get("six_card_bonus_return"),
        bonus_spin_return=figures.get("bonus_spin_return"),
        max_win_at_minimum=figures.get("max_win_at_minimum"),
        validates=first is None,
        first_rule_broken=(first.rule or "error") if first is not None else None,
        first_finding=first.message if first is not None else problem,
        passes_filter=False,
    )
    return _filtered(spec, row)


def _filtered(spec: SweepSpec, row: CandidateRow) -> CandidateRow:
    from dataclasses import replace

    from rulegen.sweep.spec import FIGURES

    passes = row.ev_per_ante_exact is not None and all(
        bound.admits(row.figure(FIGURES[bound.figure])) for bound in spec.bounds)
    return replace(row, passes_filter=passes)


def evaluate_chunk(spec: SweepSpec, first: int, last: int) -> list[CandidateRow]:
    """The rows of candidates first..last - 1 (one Dask task)."""
    return [evaluate_candidate(spec, index) for index in range(first, last)]


def describe(values: tuple[Value, ...]) -> tuple[str, ...]:
    return tuple(value_text(v) for v in values)
