"""The sweep spec: a base offering, the values to try for some of its paytable rows, and a filter.

    base: house-six-card-bonus.yaml          # relative to the spec's folder
    vary:                                    # a paytable row by its dotted field: the values to try
      paytables.criss_cross.full_house: [12, 11, 10]
      paytables.criss_cross.flush: [8, 7]
    filter:                                  # optional bounds (inclusive) on figures
      house_edge: {min: 0.02, max: 0.06}
      hit_frequency: {min: 0.3}
      max_win: {max: 3000}

The candidates are every combination of the values, numbered from 0 with the last field changing fastest. A
row may be any hand class of the Criss Cross, ante, Five Card Bonus or Six Card Bonus paytable; a value is a
number N (N to 1) or `push`. A paytable the base names (`standard`) is written out from the jurisdiction's data
before the row is changed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from rulegen.errors import InputError
from rulegen.game import HAND_CLASS_KEYS

# a varied field's paytable: the dotted path of the table in the offering, and its kind (as the data names it)
TABLES = {
    "paytables.criss_cross": "criss_cross",
    "paytables.ante": "ante",
    "five_card_bonus.paytable": "five_card_bonus",
    "six_card_bonus.paytable": "six_card_bonus",
}
FIGURES = {"house_edge": "house_edge_per_ante", "hit_frequency": "hit_frequency", "max_win": "max_win_at_minimum",
           "element_of_risk": "element_of_risk", "standard_deviation": "standard_deviation"}
MAX_SPEC_BYTES = 1024 * 1024
MAX_CANDIDATES = 10_000_000

Value = Decimal | str  # a pay N (N to 1) or "push"


@dataclass(frozen=True)
class Bound:
    figure: str  # a key of FIGURES
    minimum: Decimal | None
    maximum: Decimal | None

    def admits(self, value: float | Decimal | str | None) -> bool:
        if value is None:
            return False
        number = Decimal(str(value))
        if not number.is_finite():
            return False
        return (self.minimum is None or number >= self.minimum) and (self.maximum is None or number <= self.maximum)


@dataclass(frozen=True)
class VariedField:
    path: str  # the dotted field, as the spec writes it: paytables.criss_cross.full_house
    table: str  # the paytable's dotted path: paytables.criss_cross
    row: str  # the hand class: full_house
    values: tuple[Value, ...]


@dataclass(frozen=True)
class SweepSpec:
    spec_path: Path
    base: Path
    base_source: bytes
    fields: tuple[VariedField, ...]
    bounds: tuple[Bound, ...]

    @property
    def count(self) -> int:
        total = 1
        for field in self.fields:
            total *= len(field.values)
        return total

    def values(self, index: int) -> tuple[Value, ...]:
        """The varied fields' values of candidate `index` (the last field changes fastest)."""
        if not 0 <= index < self.count:
            raise IndexError(index)
        chosen: list[Value] = []
        for field in reversed(self.fields):
            index, at = divmod(index, len(field.values))
            chosen.append(field.values[at])
        return tuple(reversed(chosen))

    @property
    def digest(self) -> str:
        """What the results of this sweep depend on: the base's bytes, the fields and their values."""
        text = json.dumps({"base": hashlib.sha256(self.base_source).hexdigest(),
                           "vary": [[f.path, [value_text(v) for v in f.values]] for f in self.fields]},
                          sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()


def value_text(value: Value) -> str:
    return value if isinstance(value, str) else str(value)


def _value(field: str, raw: object) -> Value:
    if raw == "push":
        return "push"
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        raise InputError(f"sweep spec: {field}: {raw!r} is not a pay (a number N for N to 1, or push)")
    try:
        number = Decimal(str(raw))
    except InvalidOperation:
        raise InputError(f"sweep spec: {field}: {raw!r} is not a pay (a number N for N to 1, or push)") from None
    if not number.is_finite() or number <= 0 or number > 1_000_000:
        raise InputError(f"sweep spec: {field}: {raw!r} is not a pay between 0 and 1,000,000 to 1 (or push)")
    return number


def _bound(figure: str, raw: object) -> Bound:
    if figure not in FIGURES:
        raise InputError(f"sweep spec: filter: {figure!r} is not a figure to filter on ({', '.join(FIGURES)})")
    if not isinstance(raw, dict) or not raw or set(raw) - {"min", "max"}:
        raise InputError(f"sweep spec: filter.{figure}: give min, max or both, as {{min: 0.02, max: 0.05}}")
    limits: dict[str, Decimal | None] = {"min": None, "max": None}
    for key, value in raw.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InputError(f"sweep spec: filter.{figure}.{key}: {value!r} is not a number")
        limits[key] = Decimal(str(value))
    return Bound(figure, limits["min"], limits["max"])


def load_spec(path: Path) -> SweepSpec:
    """Read and check a sweep spec; InputError (exit 2) says what is wrong with it."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    from rulegen.safeio import UnsafeFile, read_regular

    try:
        source = read_regular(path, MAX_SPEC_BYTES)
    except (UnsafeFile, OSError) as exc:
        raise InputError(f"{path}: the sweep spec cannot be read ({exc})") from None
    try:
        data = YAML(typ="safe", pure=True).load(source.decode("utf-8"))
    except (YAMLError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"{path}: the sweep spec is not YAML: {exc}") from None
    if not isinstance(data, dict) or set(data) - {"base", "vary", "filter"}:
        raise InputError(f"{path}: a sweep spec is a mapping of base, vary and (optionally) filter")
    base_name = data.get("base")
    if not isinstance(base_name, str) or not base_name:
        raise InputError(f"{path}: base names the base offering file, relative to the spec")
    base = (path.parent / base_name)
    try:
        base_source = read_regular(base, MAX_SPEC_BYTES)
    except (UnsafeFile, OSError) as exc:
        raise InputError(f"{path}: base: {base} cannot be read ({exc})") from None
    vary = data.get("vary")
    if not isinstance(vary, dict) or not vary:
        raise InputError(f"{path}: vary maps each paytable row to vary (paytables.criss_cross.flush) to its values")
    fields = []
    for dotted, raw_values in vary.items():
        dotted = str(dotted)
        table, _, row = dotted.rpartition(".")
        if table not in TABLES or row not in HAND_CLASS_KEYS:
            raise InputError(f"sweep spec: vary: {dotted!r} is not a paytable row; a row is one of "
                             f"{', '.join(TABLES)} followed by a hand class ({', '.join(HAND_CLASS_KEYS)})")
        if not isinstance(raw_values, list) or not raw_values:
            raise InputError(f"sweep spec: vary: {dotted}: give a list of the values to try")
        values = tuple(_value(dotted, v) for v in raw_values)
        if len(set(values)) != len(values):
            raise InputError(f"sweep spec: vary: {dotted}: a value is given twice")
        fields.append(VariedField(dotted, table, row, values))
    raw_filter = data.get("filter") or {}
    if not isinstance(raw_filter, dict):
        raise InputError(f"{path}: filter maps figures ({', '.join(FIGURES)}) to bounds")
    spec = SweepSpec(path, base, base_source, tuple(fields),
                     tuple(_bound(str(k), v) for k, v in raw_filter.items()))
    if spec.count > MAX_CANDIDATES:
        raise InputError(f"sweep spec: {spec.count:,} candidates; a sweep takes at most {MAX_CANDIDATES:,}")
    return spec
