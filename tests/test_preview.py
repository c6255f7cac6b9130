"""`rulegen preview`'s app (rulegen/web/preview) through Starlette's TestClient, and the refresh it runs
(rulegen.assemble.preview): what a save shows, that no offering brings the server down, that untrusted text is
escaped, that only the shipped fonts are served and only to requests addressed to 127.0.0.1. The page in a real
browser, following saves, is tests/test_preview_browser.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from markupsafe import escape
from starlette.testclient import TestClient
from typer.testing import CliRunner

from rulegen.assemble import preview as previews
from rulegen.cli import app as cli
from rulegen.resources import samples_dir
from rulegen.web.preview.app import create_app

SAMPLE = samples_dir() / "nj-bonus-spin.yaml"


@pytest.fixture
def offering(tmp_path) -> Path:
    path = tmp_path / "offering.yaml"
    path.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    return path


def client_for(path: Path) -> tuple[TestClient, object]:
    application = create_app(path, path.name)
    return TestClient(application, base_url="http://127.0.0.1"), application


def test_a_save_that_builds_shows_both_documents_with_their_fonts_served_here(offering):
    client, application = client_for(offering)
    with client:
        state = client.get("/state").json()
        assert state["status"] == "built" and state["generation"] == 1
        page = client.get("/")
        assert page.status_code == 200
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert 'id="rules-frame"' in page.text and 'id="sign-frame"' in page.text
        assert 'sandbox="allow-same-origin"' in page.text  # the documents run no script
        assert "rulegen-asset:" not in page.text and "/asset/fonts/DejaVuSans.ttf" in page.text
        font = client.get("/asset/fonts/DejaVuSans.ttf")
        assert font.status_code == 200 and font.content.startswith(b"\x00\x01\x00\x00")
        assert font.content == (samples_dir().parent.parent / "templates/assets/fonts/DejaVuSans.ttf").read_bytes()


def test_only_the_shipped_assets_are_served(offering):
    client, _ = client_for(offering)
    with client:
        for name in ("../../pyproject.toml", "fonts/..%2F..%2F..%2Fpyproject.toml", "icc/README.md", "nothing.ttf",
                     str(offering)):
            assert client.get("/asset/" + name).status_code == 404, name


def test_a_request_not_addressed_to_this_machine_is_refused(offering):
    client, _ = client_for(offering)
    with client:
        assert client.get("/", headers={"host": "attacker.example"}).status_code == 400
        assert client.get("/state", headers={"host": "127.0.0.1:8765"}).status_code == 200


def test_a_broken_save_shows_its_findings_and_keeps_the_last_documents_marked(offering):
    client, application = client_for(offering)
    with client:
        text = offering.read_text(encoding="utf-8")
        offering.write_text(text.replace("ante: {minimum: 10, maximum: 500}", "ante: {minimum: 10, maximum: lots}"),
                            encoding="utf-8")
        client.portal.call(application.state.refresh)
        state = client.get("/state").json()
        assert state["status"] == "invalid" and state["generation"] == 2
        assert [f["field"] for f in state["findings"] if f["level"] == "error"] == ["limits.ante.maximum"]
        page = client.get("/").text
        assert 'id="stale"' in page and 'data-field="limits.ante.maximum"' in page
        assert "maximum: lots" in page  # the line of the finding, quoted

        offering.write_bytes(b"\xff\xfe not text")
        client.portal.call(application.state.refresh)
        assert client.get("/state").json()["status"] == "invalid"
        offering.unlink()
        client.portal.call(application.state.refresh)
        assert client.get("/state").json()["status"] == "invalid"
        assert client.get("/healthz").text == "ok"


@pytest.mark.parametrize("broken", [
    "\nlimits: [\n",  # the file ends inside a list
    "\ttable: 1\n",  # a tab
])
def test_a_yaml_syntax_error_shows_the_hint_validate_gives(offering, broken):
    from rulegen.validate import validate_file

    offering.write_text(offering.read_text(encoding="utf-8") + broken, encoding="utf-8")
    expected = [f.message for f in validate_file(offering, offering.name).findings]
    assert len(expected) == 1 and "; " in expected[0].removeprefix("YAML syntax error: ")  # a hint follows the error
    client, _application = client_for(offering)
    with client:
        shown = [f["message"] for f in client.get("/state").json()["findings"]]
        assert shown == expected
        page = client.get("/").text
    hint = expected[0].split("; ", 1)[1]
    assert escape(hint) in page


def test_untrusted_text_in_the_file_is_escaped_on_the_page(offering):
    client, application = client_for(offering)
    with client:
        hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>"
        text = offering.read_text(encoding="utf-8")
        offering.write_text(text.replace("name: Boardwalk Regent Casino Hotel", f"name: '{hostile}'")
                            + f"\n# {hostile}\nunknown_key: '{hostile}'\n", encoding="utf-8")
        client.portal.call(application.state.refresh)
        page = client.get("/").text
        assert client.get("/state").json()["findings"]
        assert "<script>alert" not in page and "<img src=x" not in page
        assert "&lt;script&gt;alert(1)" in page


def test_a_failure_while_rendering_is_a_finding_not_a_dead_server(offering, monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("the renderer fell over")

    monkeypatch.setattr(previews.documents, "rules_html", broken)
    result = previews.preview(offering, "offering.yaml", lambda url: url)
    assert result.documents is None and result.status == "invalid"
    assert [f.message for f in result.findings] == [
        "the documents could not be made: RuntimeError: the renderer fell over"]


def test_a_change_of_words_shows_in_both_documents(offering):
    first = previews.preview(offering, "offering.yaml", lambda url: url)
    offering.write_text(offering.read_text(encoding="utf-8").replace("Boardwalk Regent", "Seaside Regent"),
                        encoding="utf-8")
    second = previews.preview(offering, "offering.yaml", lambda url: url)
    assert first.documents is not None and second.documents is not None
    assert "Seaside Regent" in second.documents.rules_html and "Seaside Regent" in second.documents.sign_html
    assert "Seaside Regent" not in first.documents.rules_html


def test_the_command_refuses_a_missing_file_and_a_bad_port(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["preview", str(tmp_path / "missing.yaml")])
    assert result.exit_code == 2 and "no such file" in result.stderr
    result = runner.invoke(cli, ["preview", str(SAMPLE), "--port", "70000"])
    assert result.exit_code == 2 and "--port is 70000" in result.stderr
