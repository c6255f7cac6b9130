"""Where the shipped data lives: schemas, templates, jurisdiction data and samples.

Installed, they sit inside the package (`rulegen/_data/...`, carried there by the wheel build). Run from a
source checkout (an editable install), they are the folders at the top of the repository. Nothing else is
looked at, so a file left out of the wheel is missing in the installed package and its tests fail.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_root() -> Path:
    installed = _PACKAGE / "_data"
    if installed.is_dir():
        return installed
    checkout = _PACKAGE.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "schemas").is_dir():
        return checkout
    raise FileNotFoundError(f"rulegen's data folders are missing from {installed}")


def schemas_dir() -> Path:
    return data_root() / "schemas"


def templates_dir() -> Path:
    return data_root() / "templates"


def jurisdictions_dir() -> Path:
    return data_root() / "jurisdictions"


def samples_dir() -> Path:
    return jurisdictions_dir() / "samples"


def assets_dir() -> Path:
    """Fonts, stylesheets and images the renderer may read (inside templates/)."""
    return templates_dir() / "assets"
