"""A filing records the figures its documents print; verify --rebuild computes them afresh and compares.

The math cache is a speed-up that anyone who can write its folder can fill: a draft may read it, but a figure
recorded from a poisoned entry is caught by the fresh computation of verify --rebuild.
"""

from __future__ import annotations

import json

import pytest

import rulegen.assemble as build_module
from rulegen.math import cache as disk
from rulegen.resources import samples_dir

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)


def _poison_every_entry(folder) -> int:
    """Edit the main game's exact expected value in every cache entry that holds one, checksum recomputed."""
    poisoned = 0
    for path in folder.glob("*.json"):
        document = json.loads(path.read_text())

        def edit(node):
            nonlocal poisoned
            if isinstance(node, dict):
                for key, value in node.items():
                    if key == "ev_per_ante" and isinstance(value, str) and "/" in value:
                        node[key] = "-1/1000"
                        poisoned += 1
                    else:
                        edit(value)
            elif isinstance(node, list):
                for value in node:
                    edit(value)

        edit(document["payload"])
        disk.store(document["key"], document["payload"])
    return poisoned


def test_a_poisoned_figure_in_a_filing_is_caught_by_the_fresh_computation(tmp_path, monkeypatch, math_cache,
                                                                          sample_build):
    import shutil

    sample = samples_dir() / "pa-five-card-bonus.yaml"
    honest = sample_build(sample)  # the run's draft build of the sample (tests/conftest.py), from the session's cache
    shutil.copytree(math_cache, tmp_path / "cache")  # the session's entries, copied: poisoning them here is private
    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(tmp_path / "cache"))
    manifest = json.loads((honest / "manifest.json").read_bytes())
    assert manifest["figures"]["main_game.ev_per_ante_exact"] == "-579091/6689228"  # pinned independently

    assert _poison_every_entry(tmp_path / "cache") >= 1
    poisoned = build_module.build(sample, build_module.BuildOptions(out_dir=tmp_path / "poisoned"))
    forged = json.loads(poisoned.files["manifest.json"])
    assert forged["figures"]["main_game.ev_per_ante_exact"] == "-1/1000"  # a draft trusted the cache: the test bites
    with pytest.raises(build_module.FiguresDiffer, match=r"main_game.ev_per_ante_exact records '-1/1000', computed "
                                                         r"afresh '-579091/6689228'"):
        build_module.render_rules_pdf_for_verify(source=sample.read_bytes(), name=sample.name, logo=None,
                                                 manifest=forged, signer=None)
