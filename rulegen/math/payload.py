"""The math cache's payload: a typed result (rulegen.math.results) written as plain JSON data and read back
against its dataclass's type hints, so every field comes back with its exact type (fractions as "n/d" text,
Decimals as text)."""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeVar

from rulegen.math.json_values import fraction_text

T = TypeVar("T")

# A typed result is written as plain JSON data (fractions and Decimals as text) and read back against its
# dataclass's type hints, so every field comes back with its exact type. Written here rather than through a
# validation library: building pydantic's reader for these types costs about 0.2 s in each process, a tenth of a
# warm build, where this reads an entry in a few milliseconds.


class PayloadError(ValueError):
    """A payload that is not the typed result asked for (an entry of an older format, or damaged)."""


def to_payload(value: Any) -> Any:
    """A typed result as JSON-able data that `from_payload` reads back exactly."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_payload(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [to_payload(item) for item in value]
    if isinstance(value, dict):
        return {str(key): to_payload(item) for key, item in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"{type(value).__name__} is not a math result value")


def from_payload(kind: type[T], payload: Any) -> T | None:
    """The typed result a payload holds, or None when it is not one (an entry of an older format)."""
    try:
        result: T = _read(kind, payload)
    except (PayloadError, ArithmeticError, ValueError, TypeError, KeyError):
        return None
    return result


@functools.cache
def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)


def _read(kind: Any, data: Any) -> Any:
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        options = typing.get_args(kind)
        if data is None and type(None) in options:
            return None
        for option in options:
            if option is type(None):
                continue
            try:
                return _read(option, data)
            except PayloadError:
                continue
        raise PayloadError(f"{data!r} is none of {kind}")
    if origin is tuple:
        args = typing.get_args(kind)
        if not isinstance(data, list):
            raise PayloadError("a tuple is written as a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_read(args[0], item) for item in data)
        if len(args) != len(data):
            raise PayloadError("a tuple of the wrong length")
        return tuple(_read(arg, item) for arg, item in zip(args, data))
    if origin is dict:
        key_type, value_type = typing.get_args(kind)
        if not isinstance(data, dict):
            raise PayloadError("a mapping is written as an object")
        return {_read(key_type, key): _read(value_type, value) for key, value in data.items()}
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        if not isinstance(data, dict):
            raise PayloadError(f"{kind.__name__} is written as an object")
        names = {f.name for f in dataclasses.fields(kind) if f.init}
        if set(data) != names:
            raise PayloadError(f"{kind.__name__}: fields {sorted(set(data) ^ names)} differ")
        hints = _hints(kind)
        return kind(**{name: _read(hints[name], data[name]) for name in names})
    if kind is Fraction:
        if not isinstance(data, str):
            raise PayloadError("a fraction is written as text")
        return Fraction(data)
    if kind is Decimal:
        if not isinstance(data, str):
            raise PayloadError("an amount is written as text")
        return Decimal(data)
    if kind is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise PayloadError("not a number")
        return float(data)
    if kind in (int, str, bool):
        if type(data) is not kind:
            raise PayloadError(f"not {kind.__name__}")
        return data
    raise PayloadError(f"{kind} is not a math result type")
