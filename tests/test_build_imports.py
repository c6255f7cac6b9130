"""Each command loads only what it needs: `rulegen validate` never loads WeasyPrint, and with the math cache
warm it does not load numba either (the payout-limit floor it checks comes from the cache)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from rulegen.resources import samples_dir

PROBE = """
import json, sys
from rulegen.cli import main
try:
    main()
except SystemExit as end:
    code = end.code
print(json.dumps({"exit": code, "loaded": sorted({m.split(".")[0] for m in sys.modules})}), file=sys.stderr)
"""


def loaded_by(*arguments: str, cache: str) -> tuple[int, set[str]]:
    env = {**os.environ, "RULEGEN_CACHE_DIR": cache}
    done = subprocess.run([sys.executable, "-c", PROBE, *arguments], env=env, capture_output=True, text=True,
                          check=False)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return report["exit"], set(report["loaded"])


def test_validate_loads_neither_weasyprint_nor_numba_nor_numpy_with_a_warm_cache(math_cache):
    sample = str(samples_dir() / "pa-five-card-bonus.yaml")
    first, _ = loaded_by("validate", sample, cache=str(math_cache))  # warms the cache if this test runs first
    assert first == 0
    code, loaded = loaded_by("validate", sample, cache=str(math_cache))
    assert code == 0
    assert "weasyprint" not in loaded
    assert not loaded & {"numba", "numpy"}
    assert "jsonschema" in loaded  # the probe sees what validate loads


def test_the_command_line_starts_without_the_renderer_or_the_kernels(math_cache):
    code, loaded = loaded_by("--version", cache=str(math_cache))
    assert code == 0
    assert not loaded & {"weasyprint", "numba", "jinja2", "pyhanko", "fontTools"}


def test_a_build_with_a_warm_cache_loads_neither_numba_nor_numpy(math_cache, tmp_path):
    sample = str(samples_dir() / "pa-five-card-bonus.yaml")
    code, _ = loaded_by("math", sample, cache=str(math_cache))  # every figure the build needs, into the cache
    assert code == 0
    code, loaded = loaded_by("build", sample, "--out", str(tmp_path), cache=str(math_cache))
    assert code == 0
    assert "weasyprint" in loaded
    assert "numba" not in loaded
    assert "numpy" not in loaded  # the figures come from the cache; the arrays are the kernels' business


def test_math_with_a_warm_cache_loads_neither_the_renderer_nor_the_kernels(math_cache):
    sample = str(samples_dir() / "pa-five-card-bonus.yaml")
    first, _ = loaded_by("math", sample, cache=str(math_cache))  # warms the cache if this test runs first
    assert first == 0
    for arguments in (("math", sample), ("math", "--json", sample)):
        code, loaded = loaded_by(*arguments, cache=str(math_cache))
        assert code == 0
        assert not loaded & {"weasyprint", "jinja2", "pyhanko", "fontTools", "dask", "distributed"}
        assert not loaded & {"numba", "numpy"}  # every figure from the cache
