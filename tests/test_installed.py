"""The tests run against the installed package: its data folders must be inside it."""

import os
from pathlib import Path

import pytest

import rulegen
from rulegen.resources import data_root, jurisdictions_dir, samples_dir, schemas_dir, templates_dir


def test_data_folders_exist():
    for folder in (schemas_dir(), templates_dir(), jurisdictions_dir(), samples_dir()):
        assert folder.is_dir(), folder
    assert sorted(p.name for p in schemas_dir().glob("*.schema.json")) == [
        "house.schema.json", "jurisdiction.schema.json", "md.schema.json", "nj.schema.json", "offering.schema.json",
        "pa.schema.json"]
    for code in ("md", "nj", "pa", "house"):
        assert (jurisdictions_dir() / f"{code}.yaml").is_file()


@pytest.mark.skipif(not os.environ.get("RULEGEN_REQUIRE_INSTALLED"), reason="only where the package is installed")
def test_imported_from_the_installed_package():
    package = Path(rulegen.__file__).resolve().parent
    assert "site-packages" in package.parts, package
    assert data_root() == package / "_data"
