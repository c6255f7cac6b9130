"""`rulegen build` of several offerings: each built once, in parallel up to the cores, each outcome printed as a
build of it alone prints it and in the order given, then one summary; one bad offering does not stop the
others, and the exit status is the worst.

The tests of the order, the summary and the refusals stand in for the build (in this process,
RULEGEN_PROCESSES=1); one test builds for real in the worker processes and compares the bytes with a build of the
offering alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulegen import assemble as pipeline
from rulegen.assemble.many import build_each
from rulegen.cli import app
from rulegen.errors import InputError
from rulegen.resources import samples_dir

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)

SAMPLES = sorted(samples_dir().glob("*.yaml"))
OUTPUTS = ("manifest.json", "math-appendix.pdf", "rules.html", "rules.pdf", "signage.pdf")


def copy(folder: Path, sample: Path, name: str | None = None, replace: dict[str, str] | None = None) -> Path:
    text = sample.read_text()
    for old, new in (replace or {}).items():
        assert old in text
        text = text.replace(old, new)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (name or sample.name)
    path.write_text(text)
    return path


@pytest.fixture
def stand_in(monkeypatch, tmp_path):
    """The build replaced by one that records its calls, fails an offering whose file name says so and otherwise
    returns at once; everything in this process."""
    monkeypatch.setenv("RULEGEN_PROCESSES", "1")
    calls: list[str] = []

    def fake(path, options, *, display=None, **_kw):
        calls.append(display)
        if "broken" in Path(path).name:
            raise pipeline.OfferingInvalid(f"{display}: 1 error; nothing was built", [])
        if "unusable" in Path(path).name:
            raise InputError(f"{display} cannot be used")
        folder = options.out_dir / Path(path).stem
        return pipeline.BuildResult(folder, None, [], {name: b"" for name in OUTPUTS}, None, {"all": 1.0})

    monkeypatch.setattr(pipeline, "build", fake)
    return calls


def test_several_files_and_folders_each_built_once_in_order_with_one_summary(tmp_path, stand_in):
    folder = tmp_path / "offerings"
    md = copy(folder, SAMPLES[1])
    copy(folder, SAMPLES[2])
    other = copy(tmp_path / "other", SAMPLES[3])
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", str(folder), str(other), str(md), "--out", str(out)])
    assert result.exit_code == 0, result.output
    displays = [str(folder / SAMPLES[1].name), str(folder / SAMPLES[2].name), str(other)]
    assert stand_in == displays  # md.yaml, given again after its folder, is built once
    lines = result.stdout.splitlines()
    assert [line.split(": built ")[0] for line in lines[:-1]] == displays
    assert lines[-1] == "3 offerings: 3 built, 0 not built"


def test_one_bad_offering_does_not_stop_the_others_and_the_status_is_the_worst(tmp_path, stand_in):
    first = copy(tmp_path, SAMPLES[0], "a-broken.yaml")
    second = copy(tmp_path, SAMPLES[1], "b.yaml")
    third = copy(tmp_path, SAMPLES[2], "c-unusable.yaml")
    fourth = copy(tmp_path, SAMPLES[3], "d.yaml")
    result = CliRunner().invoke(app, ["build", str(tmp_path), "--out", str(tmp_path / "out")])
    assert stand_in == [str(p) for p in (first, second, third, fourth)]
    assert result.exit_code == 2, result.output
    assert f"rulegen: error: {first}: 1 error; nothing was built" in result.stderr
    assert f"rulegen: error: {third} cannot be used" in result.stderr
    assert [line.split(": built ")[0] for line in result.stdout.splitlines()[:-1]] == [str(second), str(fourth)]
    assert result.stdout.splitlines()[-1] == (f"4 offerings: 2 built, 2 not built ({first}: exit 1; {third}: exit 2)")


def test_two_files_of_one_offering_id_build_the_first_and_refuse_the_second(tmp_path, stand_in):
    first = copy(tmp_path, SAMPLES[1], "a.yaml")
    second = copy(tmp_path, SAMPLES[1], "b.yaml")
    result = CliRunner().invoke(app, ["build", str(first), str(second), "--out", str(tmp_path / "out")])
    assert stand_in == [str(first)]
    assert result.exit_code == 2
    offering_id = pipeline.load_and_validate(first)[0].data["offering"]["id"]
    assert (f"rulegen: error: {second}: not built: its offering id '{offering_id}' is that of {first}, built in "
            "this run to the same folder; give each offering its own id") in result.stderr
    assert result.stdout.splitlines()[-1] == f"2 offerings: 1 built, 1 not built ({second}: exit 2)"


def test_previous_with_several_offerings_is_refused_before_anything_is_built(tmp_path, stand_in):
    result = CliRunner().invoke(app, ["build", str(SAMPLES[0]), str(SAMPLES[1]), "--previous", str(SAMPLES[0]),
                                      "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and stand_in == []
    assert "--previous names the revision one offering follows; build that offering alone" in result.stderr


def test_a_folder_with_no_offering_is_a_usage_error(tmp_path, stand_in):
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(app, ["build", str(tmp_path / "empty"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and stand_in == []
    assert "no *.yaml or *.yml offering files found" in result.stderr


def test_the_outcomes_come_in_the_order_given_from_the_worker_processes(tmp_path, monkeypatch, sample_build):
    """Real builds in two worker processes: the good offering's files are byte for byte those of a build of it
    alone (the run's shared build of the sample, tests/conftest.py); the invalid one comes back with its exit code
    and findings and leaves nothing behind."""
    monkeypatch.delenv("RULEGEN_PROCESSES", raising=False)
    sample = next(s for s in SAMPLES if s.stem.startswith("nj"))
    alone = sample_build(sample)
    broken = copy(tmp_path / "in", next(s for s in SAMPLES if s.stem.startswith("md")), "broken.yaml",
                  {"positions: 6": "positions: 9"})
    out = tmp_path / "out"
    outcomes = list(build_each([(broken, "broken.yaml"), (sample, "nj.yaml")], pipeline.BuildOptions(out_dir=out),
                               processes=2))
    assert [index for index, _outcome in outcomes] == [0, 1]
    failure, built = outcomes[0][1], outcomes[1][1]
    assert isinstance(failure, pipeline.OfferingInvalid) and failure.exit_code == 1
    assert any(f.field == "table.positions" and f.level == "error" for f in failure.findings)
    assert not isinstance(built, BaseException), built
    assert built.folder == out / alone.name and built.draft and built.signer is None
    assert sorted(p.name for p in out.iterdir()) == [built.folder.name]  # nothing of the broken one, no temporaries
    for name in OUTPUTS:
        assert (built.folder / name).read_bytes() == (alone / name).read_bytes(), name


def test_quiet_leaves_the_notes_out_of_a_failed_builds_findings(tmp_path):
    broken = copy(tmp_path / "in", next(s for s in SAMPLES if s.stem.startswith("md")), "broken.yaml",
                  {"positions: 6": "positions: 9"})
    loud = CliRunner().invoke(app, ["build", str(broken), "--out", str(tmp_path / "out")])
    quiet = CliRunner().invoke(app, ["build", "--quiet", str(broken), "--out", str(tmp_path / "out")])
    assert loud.exit_code == quiet.exit_code == 1
    assert ": note: " in loud.stdout and ": note: " not in quiet.stdout
    assert quiet.stdout.splitlines() == [line for line in loud.stdout.splitlines() if ": note: " not in line]
    assert quiet.stderr == loud.stderr == f"rulegen: error: {broken}: 1 error; nothing was built\n"
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())
