"""Properties: no input makes validation crash, print a traceback or exit other than 0, 1 or 2; any mutation
of a valid offering either validates or yields findings that point into the file."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from ruamel.yaml import YAML
from typer.testing import CliRunner

from rulegen.cli import app
from rulegen.offering import OfferingLoadError, parse_offering
from rulegen.validate import validate_file

DATA = Path(__file__).parent / "data"
BASES = ("md", "nj", "pa", "house")
PROFILE = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-10**6, max_value=10**9),
    st.decimals(allow_nan=False, allow_infinity=False, places=3, min_value=-10**6, max_value=10**6),
    st.text(max_size=40), st.sampled_from(["push", "standard", "A", "3", "hand", "sign", "2027-13-45", "<b>x</b>"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                        st.dictionaries(st.text(max_size=12), inner, max_size=3)),
                      max_leaves=6)


def _nodes(node, trail=()):
    yield trail
    if isinstance(node, dict):
        for key, child in node.items():
            yield from _nodes(child, trail + (key,))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _nodes(child, trail + (index,))


def _plain(value):
    if isinstance(value, Decimal):
        return float(value) if value != value.to_integral_value() else int(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


@st.composite
def mutated_offerings(draw):
    yaml = YAML(typ="rt")
    base = draw(st.sampled_from(BASES))
    data = yaml.load((DATA / f"correct_{base}.yaml").read_text())
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        nodes = [n for n in _nodes(data) if n]
        node = draw(st.sampled_from(nodes))
        parent = data
        for key in node[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "delete":
            del parent[node[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=12))] = _plain(draw(values))
        else:
            parent[node[-1]] = _plain(draw(values))
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


@PROFILE
@given(text=mutated_offerings())
def test_any_mutation_validates_or_yields_findings_in_the_file(tmp_path, text):
    path = tmp_path / "offering.yaml"
    path.write_text(text)
    report = validate_file(path)
    assert report.status in (0, 1, 2)
    lines = text.count("\n") + 1
    for finding in report.findings:
        assert 1 <= finding.line <= lines and finding.column >= 1, finding.format()
    if report.status == 0:
        assert not [f for f in report.findings if f.level == "error"]
    else:
        assert [f for f in report.findings if f.level == "error"]


@settings(max_examples=200, deadline=None)
@given(source=st.one_of(st.binary(max_size=300), st.text(max_size=300).map(str.encode)))
def test_no_bytes_crash_the_loader(source):
    try:
        parse_offering(source, "x.yaml")
    except OfferingLoadError as exc:
        assert exc.exit_code in (1, 2) and exc.findings


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source=st.binary(max_size=200))
def test_no_bytes_make_any_command_exit_other_than_0_1_2(tmp_path, source):
    path = tmp_path / "x.yaml"
    path.write_bytes(source)
    out = tmp_path / "out"
    for arguments in (["validate", str(path)], ["math", str(path), "--json"], ["diff", str(path), str(path)],
                      ["signage", str(path), "-o", str(out / "sign.pdf")], ["build", str(path), "--out", str(out)],
                      ["verify", str(path)]):
        result = CliRunner().invoke(app, arguments)
        assert result.exit_code in (0, 1, 2), arguments
        assert result.exception is None or isinstance(result.exception, SystemExit), (arguments, result.exception)
        assert "Traceback" not in result.stdout + result.stderr, arguments


@settings(max_examples=15, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=mutated_offerings())
def test_any_mutation_either_builds_or_yields_findings_and_writes_nothing(tmp_path_factory, text):
    """The build gives validate's verdict: a complete build folder, or the findings and no output at all."""
    from rulegen.errors import RulegenError
    from rulegen import assemble as pipeline

    folder = tmp_path_factory.mktemp("mutation")
    path = folder / "offering.yaml"
    path.write_text(text)
    status = validate_file(path).status
    out = folder / "out"
    try:
        result = pipeline.build(path, pipeline.BuildOptions(out_dir=out))
    except RulegenError as error:
        assert status != 0 and int(error.exit_code) == status, (status, error)
        assert getattr(error, "findings", None), error
        assert not out.exists() or not any(out.iterdir())
    else:
        assert status == 0
        assert sorted(p.name for p in result.folder.iterdir()) == sorted(
            ["manifest.json", "math-appendix.pdf", "rules.html", "rules.pdf", "signage.pdf"])
        assert [p.name for p in out.iterdir()] == [result.folder.name]


number_texts = st.one_of(
    st.from_regex(r"\A[-+]?[0-9]{1,40}(\.[0-9]{0,40})?([eE][-+]?[0-9]{1,8})?\Z", fullmatch=True),
    st.sampled_from(["1e999999", "1e-999999", "0x" + "f" * 40, "0o" + "7" * 40, ".inf", "-.inf", ".nan", "-0",
                     "50000.0000000000000000000000001", "1_000", "1e26"]),
)
date_texts = st.one_of(st.dates().map(lambda d: d.isoformat()),
                       st.from_regex(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}\Z", fullmatch=True))
FIELDS = ("limits:\n  ante: {minimum: %s, maximum: 100}", "payout_limit:\n  amount: %s",
          "cards:\n  deck_change_hours: %s")


@settings(max_examples=80, deadline=None)
@given(number=number_texts, field=st.sampled_from(FIELDS), date=date_texts,
       name=st.text(alphabet=st.characters(codec="utf-8"), max_size=30))
def test_numbers_dates_and_characters_get_a_verdict_on_their_text(number, field, date, name):
    """Any number text at a money field, any date, any characters in a printed name: a verdict (0, 1 or 2) with a
    located finding, no exception (how fast each answer comes is the hostile benchmark's to measure)."""
    import json
    import re

    text = (DATA / "correct_pa.yaml").read_text()
    head = field.split("\n")[0]
    text = re.sub(rf"(?m)^{head}\n(?:  .*\n)*", "", text) + field % number + "\n"
    text = re.sub(r"effective_date: \S+", f"effective_date: {date}", text)
    text = text.replace("name: Test Pennsylvania Casino", f"name: {json.dumps(name)}")
    try:
        offering = parse_offering(text.encode("utf-8"), "p.yaml")
    except OfferingLoadError as exc:
        assert exc.findings and all(f.line >= 1 for f in exc.findings)
        return
    from rulegen.validate import validate_offering

    findings = validate_offering(offering)
    assert all(f.line >= 1 and f.column >= 1 for f in findings)
