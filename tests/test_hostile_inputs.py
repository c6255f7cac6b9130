"""Hostile input beyond the offering file: a card room's data folder, a register's contents, a logo that
multiplies work, the math cache, the environment and paths. Each gets a clear answer, never a hang, a
traceback or code run on the attacker's behalf."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulegen.cli import app

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)

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


# Templates that would take all the memory or all the time there is: each is stopped with a RenderError naming it.
BOUNDED_PAYLOADS = {
    "replace filter": ("{{ ('x' * 1000000)|replace('x', 'x' * 1000000)|length }}", "by replacing"),
    "replace method": ("{{ ('x' * 1000000).replace('x', 'x' * 1000000)|length }}", "by replacing"),
    "join filter": ("{{ range(100000)|join('x' * 1000000)|length }}", "by joining"),
    "join method": ("{{ ('x' * 1000000).join(range(100000))|length }}", "by joining"),
    "doubling with ~": ("{% macro f(s) %}{{ f(s ~ s) }}{% endmacro %}{{ f('x') }}", "by joining with ~"),
    "doubling with +": ("{% macro f(s) %}{{ f(s + s) }}{% endmacro %}{{ f('x') }}", "by adding"),
    "padding": ("{{ 'x'.ljust(1000000000)|length }}", "by padding"),
    "tabs": ("{{ ('\t' * 1000000).expandtabs(1000000)|length }}", "by expanding tabs"),
    "printf width": ("{{ ('%999999999d' % 1)|length }}", "width or precision"),
    "printf width from an argument": ("{{ ('%*d' % (999999999, 1))|length }}", "width or precision"),
    "format width": ("{{ '{:>999999999}'.format(1)|length }}", "width or precision"),
    "format width from an argument": ("{{ '{:>{}}'.format(1, 999999999)|length }}", "width or precision"),
    "format_map": ("{{ '{0}'.format_map({}) }}", "may not call format_map"),
    "translate": ("{{ ('x' * 1000000).translate({120: 'y' * 1000000})|length }}", "may not call translate"),
    "a gigabyte written": ("{% set s = 'x' * 1000000 %}{% for i in range(100000) %}{{ s }}{% endfor %}",
                           "may write at most"),
    "a million megabytes upper-cased": ("{{ (['x' * 1000000] * 1000000)|map('upper')|list|length }}",
                                        "may take at most 1,024 MiB of memory"),
    "ten billion turns of a loop": (
        "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", "took longer than 2 s"),
    "an index out of range": ("{{ [][0] }}", "cannot be rendered"),
    "a private attribute": ("{{ asset_url._private }}{{ range|attr('_x') }}", "cannot be rendered"),
}

BOUNDED_PROBE = """
import json, os, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))  # a bound that fails: a MemoryError, not the machine's
from rulegen.errors import RenderError
from rulegen.render.environment import render_template
answers = {}
for name in json.loads(sys.argv[1]):
    os.environ["RULEGEN_DATA_PATH"] = os.path.join(sys.argv[2], str(len(answers)))
    # the loop is stopped by the time bound; the others by their own bound, long before it
    os.environ["RULEGEN_RENDER_SECONDS"] = "2" if "loop" in name else "120"
    try:
        render_template("probe.html")
        answers[name] = "rendered"
    except RenderError as exc:
        answers[name] = exc.message
    except BaseException as exc:
        answers[name] = "not a RenderError: " + repr(exc)[:200]
print(json.dumps(answers))
"""


def test_a_data_folders_template_cannot_take_all_the_memory_or_time(tmp_path):
    names = list(BOUNDED_PAYLOADS)
    for number, name in enumerate(names):
        _data_folder(tmp_path / str(number), "probe.html", BOUNDED_PAYLOADS[name][0])
    # The timeout only catches a hang (a bound that no longer holds).
    result = subprocess.run([sys.executable, "-c", BOUNDED_PROBE, json.dumps(names), str(tmp_path)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    answers = json.loads(result.stdout)
    for name in names:
        words = BOUNDED_PAYLOADS[name][1]
        assert "probe.html" in answers[name] and words in answers[name], (name, answers[name])


def test_a_data_folders_template_may_still_use_strings_and_loops_within_bounds(tmp_path, monkeypatch):
    from rulegen.render.environment import render_template

    text = ("{% for i in range(3) %}{{ ('ab' ~ i)|replace('b', 'c') }}{% endfor %}|{{ ['x', 'y']|join('-') }}|"
            "{{ 'q'.ljust(3, '.') }}|{{ '%05.1f' % 2.25 }}|{{ '{:>4}'.format(7) }}|{{ 'a' + 'b' }}|{{ 'a b'.split() }}")
    monkeypatch.setenv("RULEGEN_DATA_PATH", str(_data_folder(tmp_path, "probe.html", text)))
    assert render_template("probe.html") == "ac0ac1ac2|x-y|q..|002.2|   7|ab|[&#39;a&#39;, &#39;b&#39;]"


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


# --- SVG logos that multiply the renderer's work are refused at validation --------------------------------------------

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 100">'
       '%s</svg>')


def _nested(kind: str, attribute: str, levels: int = 12, fan: int = 4) -> str:
    """`levels` of `kind` (clipPath, mask, pattern), each drawing `fan` shapes that each use the level below:
    fan ** levels shapes drawn (sixteen million here) from a file of 3 kB."""
    tile = ' width="10" height="10" patternUnits="userSpaceOnUse"' if kind == "pattern" else ""
    parts = [f'<{kind} id="k0"{tile}><rect width="10" height="10"/></{kind}>']
    for level in range(1, levels + 1):
        shapes = f'<rect width="10" height="10" {attribute}="url(#k{level - 1})"/>' * fan
        parts.append(f'<{kind} id="k{level}"{tile}>{shapes}</{kind}>')
    return SVG % ("<defs>" + "".join(parts) + f'</defs><rect width="100" height="100" {attribute}="url(#k{levels})"/>')


def _gradient(kind: str, extra: str, stops: int = 2) -> str:
    body = "".join(f'<stop offset="{i / max(stops - 1, 1)}" stop-color="red"/>' for i in range(stops))
    return SVG % (f'<defs><{kind} id="g" {extra}>{body}</{kind}></defs><rect width="100" height="100" fill="url(#g)"/>')


SVG_BOMBS = {
    "nested clip paths": (_nested("clipPath", "clip-path"), "more than 20,000 elements"),
    "nested masks": (_nested("mask", "mask"), "more than 20,000 elements"),
    "nested patterns": (_nested("pattern", "fill"), "more than 20,000 elements"),
    "a gradient inherited by many": (
        SVG % ('<defs><linearGradient id="g0">' + '<stop offset="0"/>' * 200 + '</linearGradient>'
               + "".join(f'<linearGradient id="g{i}" href="#g{i - 1}"/>' for i in range(1, 40))
               + '</defs>' + '<rect width="1" height="1" fill="url(#g39)" stroke="url(#g39)"/>' * 300),
        "more than 20,000 elements"),
    "a chain of clip paths 2,400 deep": (
        SVG % ("<defs>" + '<clipPath id="c0"><rect width="1" height="1"/></clipPath>'
               + "".join(f'<clipPath id="c{i}"><rect width="1" height="1" clip-path="url(#c{i - 1})"/></clipPath>'
                         for i in range(1, 2400)) + '</defs><rect width="9" height="9" clip-path="url(#c2399)"/>'),
        "nests more than 48 levels"),
    "groups 250 deep": (SVG % ("<g>" * 250 + '<rect width="1" height="1"/>' + "</g>" * 250), "nests more than 48"),
    "masks that refer to each other": (
        SVG % ('<mask id="a"><rect width="1" height="1" mask="url(#b)"/></mask>'
               '<mask id="b"><rect width="1" height="1" mask="url(#a)"/></mask><rect mask="url(#a)"/>'), "loop"),
    "a pattern that fills itself": (
        SVG % ('<pattern id="p" width="1" height="1"><rect width="1" height="1" fill="url(#p)"/></pattern>'
               '<rect width="9" height="9" fill="url(#p)"/>'), "loop"),
    "a repeated linear gradient": (_gradient("linearGradient", 'x1="0" x2="0.0000001" spreadMethod="repeat"'),
                                   'spreadMethod="repeat"'),
    "a reflected radial gradient": (_gradient("radialGradient", 'r="0.0000001" spreadMethod="reflect"'),
                                    'spreadMethod="reflect"'),
    "a gradient of 4,000 stops": (_gradient("linearGradient", "", stops=4000), "4,000 stops"),
    "path data drawn ten times": (
        SVG % ('<defs><path id="p" d="M0 0 ' + "l1 1 " * 100_000 + '"/></defs>' + '<use href="#p"/>' * 10),
        "more than 1,000,000 characters of path data"),
    "markers at every vertex": (
        SVG % ('<marker id="m"><circle r="1"/></marker><path marker-mid="url(#m)" d="M0 0 ' + "l1 1 " * 50_000 + '"/>'),
        "<marker>"),
    "a filter": (SVG % ('<filter id="f"><feGaussianBlur stdDeviation="99"/></filter><rect filter="url(#f)"/>'),
                 "<filter>"),
}


SVG_TEXT = {
    "long text": SVG % f'<text x="0" y="10">{"W" * 200_000}</text>',
    "many tspans": SVG % ("<text>" + "<tspan>ab</tspan>" * 4900 + "</text>"),
    "text used many times": SVG % ('<defs><text id="t">Harbor Point Casino</text></defs>' + '<use href="#t"/>' * 100),
    "long textPath": SVG % ('<defs><path id="p" d="M0 0 ' + "l1 1 " * 1000 + '"/></defs><text><textPath href="#p">'
                            + "x" * 100_000 + "</textPath></text>"),
    "a text position list of 50,000": SVG % ('<text x="' + " ".join(str(i % 100) for i in range(50_000))
                                             + '" y="10">' + "i" * 900 + "</text>"),
    "an empty text": SVG % '<text x="0" y="10"/>',
    "flowed text (Inkscape 0.92)": SVG % '<flowRoot><flowRegion><rect width="9" height="9"/></flowRegion>'
                                         '<flowPara>Harbor</flowPara></flowRoot>',
}


def test_svg_text_of_every_kind_is_refused_with_the_fix_to_make():
    """Text in a logo is set in the building machine's fonts (the bytes of a PDF would depend on them): refused at
    once, whatever its size or kind, with the rule and what to do in the drawing program."""
    from rulegen.logo import LogoRefused, check_logo

    for name, svg in SVG_TEXT.items():
        with pytest.raises(LogoRefused) as refused:
            check_logo("logo.svg", svg.encode())
        assert refused.value.rule == "logo-text", name
        assert "Inkscape: Path > Object to Path" in str(refused.value), name
        assert "different PDFs on different machines" in str(refused.value), name
        assert len(str(refused.value)) < 400, name  # the text is quoted in short, never in full


def test_each_svg_construct_that_multiplies_work_is_refused_at_once():
    """Each of these rendered for more than 60 s (or without end) before; the check answers in milliseconds
    (measured when the bound was set; no timing is asserted here)."""
    from rulegen.logo import LogoRefused, check_logo

    for name, (svg, words) in SVG_BOMBS.items():
        try:
            check_logo("logo.svg", svg.encode())
        except LogoRefused as exc:
            assert words in str(exc), (name, str(exc))
        else:
            raise AssertionError(f"accepted: {name}")


PLAUSIBLE_LOGO = SVG % (
    '<title>Harbor Point Casino</title>'
    '<defs>'
    '<linearGradient id="gold" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f7e08a"/>'
    '<stop offset="0.5" stop-color="#d4a935"/><stop offset="1" stop-color="#8a6512"/></linearGradient>'
    '<radialGradient id="glow" href="#gold" cx="0.5" cy="0.4" r="0.6"/>'
    '<clipPath id="disc"><circle cx="50" cy="50" r="45"/></clipPath>'
    '<mask id="fade"><rect width="100" height="100" fill="white"/><circle cx="50" cy="50" r="20" fill="black"/></mask>'
    '<pattern id="felt" width="4" height="4" patternUnits="userSpaceOnUse"><rect width="2" height="2" fill="#0a5"/>'
    '</pattern>'
    '<symbol id="suit" viewBox="0 0 10 10"><path d="M5 0 C7 3 10 4 10 6 C10 8 8 9 6 8 L7 10 H3 L4 8 C2 9 0 8 0 6 '
    'C0 4 3 3 5 0Z"/></symbol>'
    '<path id="arc" d="M15 55 A35 35 0 0 1 85 55"/>'
    '</defs>'
    '<g clip-path="url(#disc)"><rect width="100" height="100" fill="url(#felt)"/>'
    '<circle cx="50" cy="50" r="40" fill="url(#glow)" mask="url(#fade)" opacity="0.8"/></g>'
    + "".join(f'<use href="#suit" x="{x}" y="60" width="10" height="10" fill="url(#gold)"/>' for x in (20, 35, 55, 70))
    # the lettering, converted to paths as a drawing program does (no <text>: no machine's fonts are used)
    + '<g fill="#8a6512" transform="translate(30 88) scale(0.5)">'
      '<path d="M0 0V-10H2V-6H6V-10H8V0H6V-4H2V0Z"/>'
      '<path transform="translate(10 0)" d="M0 0L4 -10L8 0H6L5 -3H3L2 0Z"/>'
      '<path transform="translate(20 0)" d="M0 0V-10H5C8 -10 8 -5 5 -5H2V0Z"/></g>'
    + '<path fill="url(#gold)" d="' + " ".join(f"M{i % 97} {i % 89} l1 2 l2 -1 z" for i in range(3000)) + '"/>'
)


def test_a_plausible_casino_logo_with_every_construct_passes():
    from rulegen.logo import check_logo

    check_logo("logo.svg", PLAUSIBLE_LOGO.encode())


def _offering_with_logo(tmp_path):
    """A valid PA offering in its own folder that names `logo.svg` (which the test writes): (folder, its text)."""
    folder = tmp_path / "offering"
    folder.mkdir()
    text = (DATA / "correct_pa.yaml").read_text().replace(
        "    licence: Certificate holder 1234\n", "    licence: Certificate holder 1234\n    logo: logo.svg\n")
    (folder / "pa.yaml").write_text(text)
    return folder, text


def test_validate_refuses_a_mask_bomb_logo_with_exit_1(tmp_path):
    folder, text = _offering_with_logo(tmp_path)
    (folder / "logo.svg").write_text(_nested("mask", "mask"))
    result = CliRunner().invoke(app, ["validate", str(folder / "pa.yaml")])
    assert result.exit_code == 1, result.output
    assert "more than 20,000 elements" in result.stdout and "Traceback" not in result.output


def test_validate_refuses_a_logo_with_text_at_the_logo_field_with_its_rule_and_the_fix(tmp_path):
    folder, text = _offering_with_logo(tmp_path)
    (folder / "logo.svg").write_text(SVG % '<text x="50" y="50">Harbor <tspan>Point</tspan></text>')
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if row.strip() == "logo: logo.svg")
    result = CliRunner().invoke(app, ["validate", str(folder / "pa.yaml")])
    assert result.exit_code == 1, result.output
    finding = next(row for row in result.stdout.splitlines() if "FORMAT-logo-text" in row)
    assert f"pa.yaml:{line}:" in finding and "'Harbor Point'" in finding
    assert "convert the text to paths in your drawing program, e.g. Inkscape: Path > Object to Path" in finding


# --- the math cache is read as every input file is ------------------------------------------------------------------

def _rulegen() -> list[str]:
    exe = Path(sys.executable).parent / "rulegen"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "rulegen"]


def test_a_fifo_or_an_oversized_entry_in_the_math_cache_is_a_miss_not_a_hang(tmp_path, math_cache):
    from rulegen.math import cache as disk

    sample = DATA / "correct_pa.yaml"
    first = CliRunner().invoke(app, ["math", str(sample), "--json"])  # the session's cache now holds PA's entries
    assert first.exit_code == 0, first.output
    planted = tmp_path / "cache"
    shutil.copytree(math_cache, planted)
    fifos, oversized = [], []
    for entry in sorted(planted.glob("*.json")):
        payload = json.loads(entry.read_text(encoding="utf-8"))["payload"]
        if isinstance(payload, list):  # a bonus's class counts
            entry.unlink()
            os.mkfifo(entry)  # nobody ever writes to it: reading it would wait for ever
            fifos.append(entry)
        elif isinstance(payload, dict) and "amount" in payload:  # a maximum win
            entry.unlink()
            with open(entry, "wb") as handle:
                handle.truncate(disk.MAX_ENTRY_BYTES + 1)  # sparse: over the bound without using the disk
            oversized.append(entry)
    assert fifos and oversized
    # The timeout only catches a hang; the entries planted are recomputed (seconds).
    result = subprocess.run(_rulegen() + ["math", str(sample), "--json"], capture_output=True, text=True,
                            timeout=600, env={**os.environ, "RULEGEN_CACHE_DIR": str(planted)})
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    again, before = json.loads(result.stdout), json.loads(first.stdout)
    for key in ("main_game", "five_card_bonus", "max_win_per_round_at_minimum", "max_win"):
        assert again[key] == before[key], key
    # what the run needed was computed and written again, as regular files over the planted ones
    assert any(not entry.is_fifo() for entry in fifos)
    assert any(entry.stat().st_size < disk.MAX_ENTRY_BYTES for entry in oversized)


def test_cache_entries_that_are_links_fifos_or_too_large_are_misses(tmp_path, monkeypatch):
    from rulegen.math import cache as disk

    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(tmp_path))
    assert disk.store(disk.key("probe"), {"answer": 42})
    assert disk.load(disk.key("probe")) == {"answer": 42}
    elsewhere = tmp_path / "elsewhere.json"
    shutil.move(tmp_path / f"{disk.key('probe')}.json", elsewhere)
    os.symlink(elsewhere, tmp_path / f"{disk.key('probe')}.json")
    assert disk.load(disk.key("probe")) is None  # a link is not followed
    with open(tmp_path / f"{disk.key('big')}.json", "wb") as handle:
        handle.truncate(disk.MAX_ENTRY_BYTES + 1)
    assert disk.load(disk.key("big")) is None
    (tmp_path / f"{disk.key('bytes')}.json").write_bytes(b"\xff\xfe not UTF-8")
    assert disk.load(disk.key("bytes")) is None
    assert disk.store(disk.key("big"), [1]) and disk.load(disk.key("big")) == [1]  # the next store replaces it


# --- the register: bad URLs, numbers too large, a schema from elsewhere -----------------------------------------------

def _no_traceback(result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output


def test_a_register_url_with_a_bad_port_is_a_clear_error(tmp_path):
    for url, words in (("postgresql://u@127.0.0.1:99999999/x", "the port is 99999999"),
                       ("postgresql://u@127.0.0.1:0/x", "the port is 0"),
                       ("postgresql://u:secret@127.0.0.1:abc/x", "not a usable postgresql:// URL"),
                       ("postgresql://u@[::1/x", "not a usable postgresql:// URL"),
                       ("postgres://u@127.0.0.1:5432/x\nforged", "control character")):
        for command in (["register", "list"], ["register", "init"], ["register", "show", "1"]):
            result = CliRunner().invoke(app, [*command, "--db", url])
            _no_traceback(result)
            assert result.exit_code == 2, (url, result.output)
            assert words in result.stderr and "secret" not in result.stderr, (url, result.stderr)
            assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_numbers_too_large_for_the_database_are_no_match_and_no_crash(tmp_path):
    db = tmp_path / "register.sqlite"
    _register_with(db, operator="Harbor Point Casino")
    for key in ("99999999999999999999999", "hostile-ccp@99999999999999999999999", "9223372036854775808"):
        result = CliRunner().invoke(app, ["register", "show", key, "--db", str(db)])
        _no_traceback(result)
        assert result.exit_code == 1 and "no such entry" in result.stderr, result.output
    # a filing claiming a revision no SQL INTEGER holds is recorded without one
    from rulegen.filing.register import record
    from rulegen.filing.register_store import open_register
    from rulegen.filing.verify import VerifyReport

    engine = open_register(str(db))
    try:
        for revision in (10**30, 2**63, -(2**70)):
            result = record(engine, VerifyReport(path="big/rules.pdf", offering_id="big-ccp", revision=revision))
            assert result.entry is not None and result.refused is None
    finally:
        engine.dispose()
    listing = CliRunner().invoke(app, ["register", "list", "--db", str(db), "--format", "json"])
    assert [row["revision"] for row in json.loads(listing.stdout) if row["offering_id"] == "big-ccp"] == [None] * 3


def test_a_register_at_a_schema_revision_we_do_not_know_is_a_clear_error(tmp_path):
    import sqlite3

    db = tmp_path / "register.sqlite"
    assert CliRunner().invoke(app, ["register", "init", "--db", str(db)]).exit_code == 0
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    for command in (["register", "list"], ["register", "init"], ["register", "report", "--html",
                                                                  str(tmp_path / "r.html")]):
        result = CliRunner().invoke(app, [*command, "--db", str(db)])
        _no_traceback(result)
        assert result.exit_code == 2, result.output
        assert "9999_from_the_future" in result.stderr and "does not know" in result.stderr


# --- the environment: undecodable bytes, values that are not numbers --------------------------------------------------

def test_undecodable_bytes_in_the_environment_are_no_internal_error(tmp_path, math_cache):
    """RULEGEN_CACHE_DIR and RULEGEN_DATA_PATH naming folders whose names are not UTF-8 (Python sees '\\udcff')."""
    folder = os.fsencode(tmp_path) + b"/caf\xff"
    os.makedirs(folder + b"/templates")
    shutil.copytree(math_cache, os.fsdecode(folder + b"/cache"))  # the session's entries: nothing computed again
    shutil.copy(_shipped_template("signage.html"), os.fsdecode(folder + b"/templates/signage.html"))
    env = {**os.environb, b"RULEGEN_CACHE_DIR": folder + b"/cache", b"RULEGEN_DATA_PATH": folder}
    env.pop(b"RULEGEN_SIGN_PASSPHRASE", None)
    sample = str(DATA / "correct_pa.yaml")
    for arguments in (["validate", sample], ["math", sample, "--json"],
                      ["signage", sample, "-o", str(tmp_path / "sign.pdf")]):
        result = subprocess.run(_rulegen() + arguments, capture_output=True, env=env, timeout=600)
        output = (result.stdout + result.stderr).decode("utf-8", "replace")
        assert result.returncode == 0, (arguments, output)
        assert "Traceback" not in output and "internal error" not in output, output
    assert (tmp_path / "sign.pdf").read_bytes().startswith(b"%PDF")


def _shipped_template(name: str) -> Path:
    from rulegen.resources import templates_dir

    return templates_dir() / name


def test_a_passphrase_that_is_not_utf8_is_passed_on_as_its_bytes(monkeypatch):
    from rulegen.filing.signing import PASSPHRASE_ENV, passphrase_from_env

    monkeypatch.setitem(os.environb, PASSPHRASE_ENV.encode(), b"pass\xff\xfeword")
    assert passphrase_from_env() == b"pass\xff\xfeword"
    monkeypatch.setenv(PASSPHRASE_ENV, "change-me")
    assert passphrase_from_env() == b"change-me"


def test_a_render_time_bound_that_is_not_a_number_is_a_clear_error(tmp_path, monkeypatch):
    for value in ("abc", "nan", "-5", "inf", "\udcff"):
        monkeypatch.setenv("RULEGEN_RENDER_SECONDS", value)
        result = CliRunner().invoke(app, ["signage", str(DATA / "correct_pa.yaml"), "-o", str(tmp_path / "s.pdf")])
        _no_traceback(result)
        assert result.exit_code == 2 and "RULEGEN_RENDER_SECONDS is" in result.stderr, (value, result.output)
        assert not (tmp_path / "s.pdf").exists()


# --- a path or name cannot print a line of its own --------------------------------------------------------------------

FORGED = "\nFORGED: verified, signed by the regulator\r\x1b[2K"


def test_a_new_line_in_a_filings_path_cannot_forge_a_line_of_verify_or_register(tmp_path):
    folder = tmp_path / f"incoming{FORGED}"
    folder.mkdir()
    (folder / "rules.pdf").write_bytes(b"%PDF-1.7\nnot really a PDF\n")
    for arguments in (["verify", str(folder / "rules.pdf")], ["verify", str(folder / "rules.pdf"), "--details"],
                      ["register", "add", str(folder / "rules.pdf"), "--db", str(tmp_path / "r.sqlite")],
                      ["register", "show", "1", "--db", str(tmp_path / "r.sqlite")],
                      ["register", "list", "--db", str(tmp_path / "r.sqlite")]):
        result = CliRunner().invoke(app, arguments)
        _no_traceback(result)
        assert result.exit_code in (0, 1, 2), result.output
        lines = result.output.splitlines()
        assert not any(line.startswith("FORGED") for line in lines), (arguments, lines)
        assert "\x1b" not in result.output and "\r" not in result.output
        if "FORGED" in result.output:
            assert "\\nFORGED" in result.output, (arguments, result.output)


def test_a_new_line_in_an_offerings_path_stays_in_its_finding(tmp_path):
    folder = tmp_path / f"offering{FORGED}"
    folder.mkdir()
    path = folder / "pa.yaml"
    path.write_text((DATA / "correct_pa.yaml").read_text().replace("positions: 6", "positions: seven"))
    for arguments in (["validate", str(path)], ["math", str(path)], ["diff", str(DATA / "correct_pa.yaml"), str(path)]):
        result = CliRunner().invoke(app, arguments)
        _no_traceback(result)
        lines = result.output.splitlines()
        assert not any(line.startswith("FORGED") for line in lines), (arguments, lines)
        assert any("\\nFORGED" in line for line in lines), (arguments, lines)


# --- temporaries of a killed build are cleared, even when its process number is in use again --------------------------

def test_a_killed_builds_temporaries_are_cleared_even_when_its_pid_is_reused(tmp_path, monkeypatch):
    import time

    from rulegen.assemble import publish

    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        leftovers = [tmp_path / f".offer.new-{live.pid}", tmp_path / f".offer.old-{live.pid}"]
        for folder in leftovers:
            folder.mkdir()
            (folder / "rules.pdf").write_bytes(b"half")
        (tmp_path / "offer").mkdir()
        # the live process started before the folders were made: it may be their owner, they are left alone
        assert publish.clean_stale(tmp_path, "offer") == []
        assert all(folder.exists() for folder in leftovers)
        # the same number, now a process that started after the folders were made: a killed run's, cleared
        monkeypatch.setattr(publish, "_process_start", lambda pid: time.time() + 60)
        publish.publish_folder(tmp_path / "offer", {"rules.pdf": b"whole"})
        assert sorted(p.name for p in tmp_path.iterdir()) == ["offer"]
        assert (tmp_path / "offer" / "rules.pdf").read_bytes() == b"whole"
    finally:
        live.kill()
        live.wait()


def test_the_start_of_a_process_is_read_from_proc():
    import time

    from rulegen.assemble.publish import _process_start

    started = _process_start(os.getpid())
    if started is not None:  # Linux
        assert time.time() - 7 * 86400 < started <= time.time() + 2


def test_a_fifo_as_a_data_folders_template_is_refused_at_once(tmp_path):
    root = tmp_path / "data"
    (root / "templates").mkdir(parents=True)
    os.mkfifo(root / "templates" / "signage.html")  # nobody writes to it: reading it would wait for ever
    env = {**os.environ, "RULEGEN_DATA_PATH": str(root)}
    # The timeout only catches a hang.
    result = subprocess.run(_rulegen() + ["signage", str(DATA / "correct_pa.yaml"), "-o", str(tmp_path / "s.pdf")],
                            capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 2, result.stderr
    assert "signage.html" in result.stderr and "named pipe" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "s.pdf").exists()


def test_a_repeated_id_cannot_hide_the_heavy_element_a_reference_draws():
    """WeasyPrint draws the first element with an id; the check counts every element that has it."""
    from rulegen.logo import LogoRefused, check_logo

    heavy = '<g id="x">' + '<rect width="1" height="1"/>' * 1000 + "</g>"
    svg = SVG % ("<defs>" + heavy + '<rect id="x" width="1" height="1"/></defs>' + '<use href="#x"/>' * 40)
    try:
        check_logo("logo.svg", svg.encode())
    except LogoRefused as exc:
        assert "more than 20,000 elements" in str(exc)
    else:
        raise AssertionError("accepted")
