"""Where the data lives: schemas, templates, jurisdiction data and samples.

Installed, the shipped data sits inside the package (`rulegen/_data/...`, carried there by the wheel build).
Run from a source checkout (an editable install), it is the folders at the top of the repository. A file
left out of the wheel is missing in the installed package and its tests fail.

`RULEGEN_DATA_PATH=DIR[:DIR...]` names extra data folders laid out like the repository's top
(`jurisdictions/`, `schemas/`, `templates/`). They come before the shipped data, the first folder first: a
jurisdiction, schema or template whose file name is new is added; one whose name exists replaces the
shipped one. The environment is read on every call, so a test or a command may set it at any time.
"""

from __future__ import annotations

import os
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


DATA_PATH_VARIABLE = "RULEGEN_DATA_PATH"


def extra_roots() -> list[Path]:
    """The folders `RULEGEN_DATA_PATH` names, in its order (empty entries ignored)."""
    value = os.environ.get(DATA_PATH_VARIABLE, "")
    return [Path(entry).expanduser().resolve() for entry in value.split(os.pathsep) if entry.strip()]


def data_roots() -> list[Path]:
    """Every data folder, first the extra ones in `RULEGEN_DATA_PATH`'s order, then the shipped one."""
    return [*extra_roots(), data_root()]


def _files(folder: str, pattern: str) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for root in data_roots():
        directory = root / folder
        if directory.is_dir():
            for path in sorted(directory.glob(pattern)):
                if path.is_file():
                    found.setdefault(path.name, path)  # an earlier folder wins
    return dict(sorted(found.items()))


def jurisdiction_files() -> dict[str, Path]:
    """Each jurisdiction's data file by its code: the file's name, without `.yaml`, in upper case."""
    return {name[: -len(".yaml")].upper(): path for name, path in _files("jurisdictions", "*.yaml").items()}


def schema_files() -> dict[str, Path]:
    """Every schema by its file name (`offering.schema.json`, `pa.schema.json`, ...)."""
    return _files("schemas", "*.schema.json")


def template_dirs() -> list[Path]:
    """The templates folders to search, the extra ones first (for a new jurisdiction's `rules/<code>.html`)."""
    return [root / "templates" for root in data_roots() if (root / "templates").is_dir()]


def wager_files() -> dict[str, Path]:
    """Each side wager a data folder adds, by its key: the file `wagers/<key>.yaml` (rulegen.wagers)."""
    return {name[: -len(".yaml")]: path for name, path in _files("wagers", "*.yaml").items()}


MAX_WAGER_FILE_BYTES = 1024 * 1024


def read_wager_file(path: Path) -> dict:
    """A side wager's data file as plain YAML data (a mapping), or ValueError naming the file. Its module and
    names are read by `rulegen.wagers`, its authorizations by `rulegen.jurisdiction`."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    source = path.read_bytes()
    if len(source) > MAX_WAGER_FILE_BYTES:
        raise ValueError(f"{path}: a side wager's data file is at most {MAX_WAGER_FILE_BYTES} bytes")
    try:
        data = YAML(typ="safe").load(source)
    except YAMLError as exc:
        raise ValueError(f"{path}: not readable YAML: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a side wager's data file is a mapping")
    return data
