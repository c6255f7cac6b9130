"""The side wagers: each a fixed-odds wager settled on a set of the round's cards, described once.

A side wager is a `SideWagerKind`: its key (the offering's and the jurisdiction data's name for it), its name in
the documents, which of the round's cards make its hand, its pay classes and how a set of cards falls in one. The
generic code (resolving an offering, settling a round, the exact bonus table, the schema of the offering, the
rules and the sign) iterates over `registered()` rather than naming each wager.

The shipped wagers are modules of this package (`five_card_bonus`, `six_card_bonus`). A data folder of
`RULEGEN_DATA_PATH` adds one with a file `wagers/<key>.yaml` naming the module that defines it (`module:`, an
importable module whose `WAGER` is the `SideWagerKind`): rulegen imports it from the Python path, never runs
code from a data folder by itself. Its authorizations, tables and limits (per jurisdiction) sit in the same
file (read by `rulegen.jurisdiction`), its texts in the folder's `templates/wagers/<key>/`.
"""

from __future__ import annotations

import importlib

from rulegen.errors import InputError
from rulegen.resources import read_wager_file, wager_files
from rulegen.wagers.kind import RoundCards, SideWagerKind

__all__ = ["RoundCards", "SideWagerKind", "kind", "keys", "registered"]


def _shipped() -> tuple[SideWagerKind, ...]:
    from rulegen.wagers import five_card_bonus, six_card_bonus

    return five_card_bonus.WAGER, six_card_bonus.WAGER


def registered() -> tuple[SideWagerKind, ...]:
    """Every side wager rulegen knows: the shipped ones first, then those the data folders' `wagers/*.yaml`
    name, in the order of their files. Read on every call, as the data folders are."""
    found = list(_shipped())
    for key, path in wager_files().items():
        if any(kind.key == key for kind in found):
            raise InputError(f"{path}: the side wager {key} is already defined")
        found.append(_imported(key, path))
    return tuple(found)


def keys() -> tuple[str, ...]:
    return tuple(kind.key for kind in registered())


def kind(key: str) -> SideWagerKind:
    for wager in registered():
        if wager.key == key:
            return wager
    raise InputError(f"no side wager {key!r}; rulegen knows {', '.join(keys())}")


def _imported(key: str, path) -> SideWagerKind:
    try:
        module_name = read_wager_file(path).get("module")
    except (OSError, ValueError) as exc:
        raise InputError(str(exc)) from None
    if not isinstance(module_name, str) or not module_name:
        raise InputError(f"{path}: a side wager's file names the module that defines it (module: NAME)")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise InputError(f"{path}: the module {module_name} of the side wager {key} cannot be imported ({exc}); "
                         "it must be on the Python path") from None
    wager = getattr(module, "WAGER", None)
    if not isinstance(wager, SideWagerKind) or wager.key != key:
        raise InputError(f"{path}: the module {module_name} defines no side wager {key} (WAGER)")
    return wager
