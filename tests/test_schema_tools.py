"""Standard JSON Schema tools accept the shipped schemas and resolve them offline.

check-jsonschema (a test dependency) checks every schema against the Draft 2020-12 metaschema, with ECMA-262
regular expressions as JSON Schema requires, and validates every bundled sample with the offering schema (whose
references to the jurisdiction schemas resolve beside the file, never over the network) and with its
jurisdiction's combined schema.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulegen.offering import load_offering
from rulegen.resources import samples_dir, schemas_dir

TOOL = shutil.which("check-jsonschema") or str(Path(sys.executable).parent / "check-jsonschema")
SCHEMAS = sorted(schemas_dir().glob("*.schema.json")) + sorted((schemas_dir() / "combined").glob("*.schema.json"))
SAMPLES = sorted(samples_dir().glob("*.yaml"))


def _run(*arguments: str) -> subprocess.CompletedProcess:
    # --no-cache and no network: a reference that would need fetching fails here
    return subprocess.run([TOOL, "--no-cache", *arguments], capture_output=True, text=True, timeout=300)


def test_every_schema_passes_the_metaschema_with_ecma_patterns():
    result = _run("--check-metaschema", "--regex-variant", "default", *map(str, SCHEMAS))
    assert result.returncode == 0, result.stdout + result.stderr


def test_schemas_carry_no_id_that_points_at_a_host():
    """Editors and tools resolve a schema's relative references against its `$id`: none names a host, so they
    resolve beside the file, offline."""
    for path in SCHEMAS:
        assert '"$id"' not in path.read_text(encoding="utf-8"), path.name


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_every_sample_validates_with_the_standard_tool(sample):
    code = load_offering(sample).data["offering"]["jurisdiction"].lower()
    for schema in (schemas_dir() / "offering.schema.json", schemas_dir() / "combined" / f"{code}.schema.json"):
        result = _run("--schemafile", str(schema), str(sample))
        assert result.returncode == 0, (schema.name, result.stdout + result.stderr)
