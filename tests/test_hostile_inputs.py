"""Hostile input beyond the offering file: a card room's data folder, a register's contents, a logo that
multiplies work, the math cache, the environment and paths. Each gets a clear answer, never a hang, a
traceback or code run on the attacker's behalf."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from typer.testing import CliRunner

from rulegen.cli import app

HOSTILE = Path(__file__).parent / "data" / "hostile"
DATA = Path(__file__).parent / "data"

FORMULA = '=HYPERLINK("http://x","y")'


def _register_with(db: Path, **fields) -> None:
    """A register holding one filing whose recorded text is what `fields` says (as a hostile filing would carry)."""
    from rulegen.filing.register import record
    from rulegen.filing.register_store import open_register
    from rulegen.filing.verify import VerifyReport

    engine = open_register(str(db))
    try:
        record(engine, VerifyReport(path="incoming/rules.pdf", offering_id="hostile-ccp", revision=1, **fields))
    finally:
        engine.dispose()


def test_register_csv_cells_that_a_spreadsheet_would_run_are_quoted(tmp_path):
    db = tmp_path / "register.sqlite"
    _register_with(db, operator=FORMULA, signer="+SUM(1,2)", jurisdiction="@PA", effective_date="-2+3",
                   signer_fingerprint="ab" * 32)
    result = CliRunner().invoke(app, ["register", "list", "--db", str(db), "--format", "csv"])
    assert result.exit_code == 0, result.output
    [header, row] = list(csv.reader(io.StringIO(result.stdout)))
    cells = dict(zip(header, row))
    assert cells["operator"] == "'" + FORMULA
    assert cells["signer"] == "'+SUM(1,2)"
    assert cells["jurisdiction"] == "'@PA"
    assert cells["effective_date"] == "'-2+3"
    assert cells["entry"] == "1" and cells["offering_id"] == "hostile-ccp"  # plain cells are left as they are
    for cell in row:
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), row

    # JSON is data, not a spreadsheet: the name as recorded; the HTML page escapes it
    result = CliRunner().invoke(app, ["register", "list", "--db", str(db), "--format", "json"])
    assert json.loads(result.stdout)[0]["operator"] == FORMULA
    page = tmp_path / "report.html"
    result = CliRunner().invoke(app, ["register", "report", "--db", str(db), "--html", str(page)])
    assert result.exit_code == 0, result.output
    text = page.read_text()
    assert FORMULA not in text and "=HYPERLINK(&#34;http://x&#34;,&#34;y&#34;)" in text


def test_register_csv_tab_and_carriage_return_at_the_start_are_quoted(tmp_path):
    from rulegen.commands.register import csv_cell

    assert csv_cell("\t=1+1") == "'\t=1+1"
    assert csv_cell("\r=1+1") == "'\r=1+1"
    assert csv_cell("\uff1dHYPERLINK()") == "'\uff1dHYPERLINK()"
    assert csv_cell("Harbor Point = best") == "Harbor Point = best"
    assert csv_cell(-3) == -3 and csv_cell(None) == ""


# --- templates of a data folder (RULEGEN_DATA_PATH) render in the sandbox -------------------------------------------

def _payloads(marker: Path) -> list[str]:
    command = f"touch {marker}"
    return [
        f"{{{{ cycler.__init__.__globals__.os.popen('{command}').read() }}}}",
        "{{ ''.__class__.__mro__[1].__subclasses__() }}",
        f"{{% for c in ''.__class__.__mro__[1].__subclasses__() %}}{{% if c.__name__ == 'Popen' %}}"
        f"{{{{ c('{command}', shell=True) }}}}{{% endif %}}{{% endfor %}}",
        f"{{{{ self.__init__.__globals__.__builtins__.__import__('os').system('{command}') }}}}",
        f"{{{{ lipsum.__globals__['os'].popen('{command}').read() }}}}",
        f"{{{{ namespace.__init__.__globals__.os.system('{command}') }}}}",
        f"{{{{ ''|attr('__class__') }}}}{{{{ asset_url.__globals__['os'].system('{command}') }}}}",
        "{{ money.__globals__ }}",
        "{% set x = [] %}{{ x.append(1) }}",
        "{{ 'x' * 100000000 }}",
        "{{ 10 ** 100000000 }}",
    ]


def _data_folder(root: Path, template: str, text: str) -> Path:
    (root / "templates" / Path(template).parent).mkdir(parents=True, exist_ok=True)
    (root / "templates" / template).write_text(text, encoding="utf-8")
    return root


def test_a_data_folders_template_cannot_run_python(tmp_path, monkeypatch):
    from rulegen.errors import RenderError
    from rulegen.render.environment import render_template

    marker = tmp_path / "pwned"
    for number, payload in enumerate(_payloads(marker)):
        root = _data_folder(tmp_path / f"data{number}", "probe.html", payload)
        monkeypatch.setenv("RULEGEN_DATA_PATH", str(root))
        try:
            render_template("probe.html")
        except RenderError as exc:
            assert "probe.html" in exc.message and str(root) in exc.message, exc.message
        else:
            raise AssertionError(f"rendered: {payload}")
        assert not marker.exists(), payload


def test_a_data_folders_broken_template_is_a_clear_error(tmp_path, monkeypatch):
    from rulegen.errors import RenderError
    from rulegen.render.environment import render_template

    monkeypatch.setenv("RULEGEN_DATA_PATH", str(_data_folder(tmp_path, "probe.html", "{% for %}")))
    try:
        render_template("probe.html")
    except RenderError as exc:
        assert "probe.html" in exc.message and "TemplateSyntaxError" in exc.message
    else:
        raise AssertionError("rendered")


def test_build_with_a_hostile_data_folder_template_exits_2_and_runs_nothing(tmp_path, monkeypatch):
    from rulegen.resources import templates_dir

    marker = tmp_path / "pwned"
    shipped = (templates_dir() / "signage.html").read_text(encoding="utf-8")
    payload = f"{{{{ cycler.__init__.__globals__.os.popen('touch {marker}').read() }}}}"
    root = _data_folder(tmp_path / "data", "signage.html", payload + shipped)
    monkeypatch.setenv("RULEGEN_DATA_PATH", str(root))
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", str(DATA / "correct_pa.yaml"), "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert "signage.html" in result.stderr and "tried something templates may not do" in result.stderr
    assert "Traceback" not in result.output
    assert not marker.exists()
    assert not out.exists() or not any(out.iterdir())
