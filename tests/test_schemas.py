"""The schemas: valid Draft 2020-12, joined by $ref, and every jurisdiction constraint cited."""

import json
import re

import pytest
from jsonschema import Draft202012Validator

from rulegen.resources import schemas_dir

SCHEMAS = sorted(schemas_dir().glob("*.schema.json"))
CONSTRAINTS = {"const", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "required", "not",
               "dependentRequired", "pattern", "minItems", "maxItems"}


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_schema_is_valid_draft_2020_12(path):
    schema = json.loads(path.read_text())
    Draft202012Validator.check_schema(schema)
    assert "$id" not in schema  # relative references resolve beside the file, offline, in any tool


def _constraint_nodes(node, trail=()):
    if isinstance(node, dict):
        if CONSTRAINTS & node.keys() and not (trail and trail[-1] == "properties"):
            yield trail, node
        for key, child in node.items():
            if key in ("if",):  # conditions are not constraints
                continue
            yield from _constraint_nodes(child, trail + (key,))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _constraint_nodes(child, trail + (index,))


@pytest.mark.parametrize("path", [p for p in SCHEMAS
                                  if p.name not in ("offering.schema.json", "jurisdiction.schema.json")],
                         ids=lambda p: p.name)
def test_every_jurisdiction_constraint_carries_its_citation_and_words(path):
    schema = json.loads(path.read_text())
    nodes = list(_constraint_nodes(schema))
    assert nodes
    for trail, node in nodes:
        assert node.get("x-citation"), f"{path.name}: {'/'.join(map(str, trail))} has no x-citation"
        assert node.get("x-message"), f"{path.name}: {'/'.join(map(str, trail))} has no x-message"
        assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", node.get("x-rule") or ""), (
            f"{path.name}: {'/'.join(map(str, trail))} has no x-rule slug (its rule code)")


def test_the_checker_above_can_fail():
    uncited = {"allOf": [{"properties": {"table": {"properties": {"positions": {"const": 6}}}}}]}
    assert [node for _trail, node in _constraint_nodes(uncited) if not node.get("x-citation")]
