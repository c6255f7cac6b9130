"""`rulegen register add|list|show|reverify|report|init`: the register of received filings (SQLite file or
PostgreSQL)."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from rulegen.commands._common import OutputFormat, exits_cleanly, format_option
from rulegen.errors import ExitCode, InputError, UsageError
from rulegen.terminal import printable_line

DB_HELP = ("The register: a SQLite file, or postgresql://USER@HOST:PORT/DB for a shared one. Default: "
           "RULEGEN_REGISTER_DB, else register.sqlite in the user's data folder.")
Db = Annotated[str | None, typer.Option("--db", help=DB_HELP, show_default=False)]


@contextlib.contextmanager
def _open(db: str | None) -> Iterator:
    """The register's engine for one command, its connections closed at the end."""
    from sqlalchemy.exc import SQLAlchemyError

    from rulegen.filing.register_store import open_register

    engine = open_register(db)
    try:
        yield engine
    except (SQLAlchemyError, OverflowError) as exc:  # the database refused a value or a statement midway
        detail = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        raise InputError(f"the register at {engine.url.render_as_string(hide_password=True)} cannot be used: "
                         f"{detail[0] if detail else type(exc).__name__}") from None
    finally:
        engine.dispose()


def _fail_format(format: str, allowed: tuple[str, ...]) -> None:
    if format not in allowed:
        raise UsageError(f"--format is {format!r}; it is {', '.join(allowed[:-1])} or {allowed[-1]}")


def _add_line(result) -> str:
    where = f"entry {result.entry}" if result.entry is not None else "not recorded"
    line = printable_line(f"{result.path}: {where}: "
                          + (f"REFUSED: {result.refused}" if result.refused else result.report.verdict))
    for flag in result.flags:
        if flag.kind != "duplicate":
            line += "\n" + printable_line(f"  flag {flag.kind}: {flag.message}")
    return line


def _table(rows: list[dict]) -> str:
    columns = ("entry", "received", "offering_id", "revision", "jurisdiction", "operator", "status", "flags",
               "first_problem")
    cells = [[str(c) for c in ("#", "received", "offering", "rev", "jur.", "operator", "status", "flags",
                               "first problem")]]
    for row in rows:
        values = {**row, "flags": ",".join(f["kind"] for f in row["flags"]) or "-"}
        if row["rechecked"] is not None:  # the current status, the one on receipt beside it where it differs
            values["status"] = row["current_status"] + (f" (received {row['status']})"
                                                         if row["current_status"] != row["status"] else " (again)")
            values["first_problem"] = row["rechecked"]["first_problem"]
        cells.append([_cut(printable_line("-" if values[c] is None else str(values[c])), 60) for c in columns])
    widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
    return "\n".join("  ".join(value.ljust(widths[i]) for i, value in enumerate(line)).rstrip() for line in cells)


def _cut(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


# A spreadsheet reads a cell that begins with one of these as a formula (=HYPERLINK(...) sends a click away,
# =cmd|... ran programs in older ones); OWASP's advice: begin such a cell with a single quote, read as text.
# The fullwidth forms are read as formulas by some spreadsheets too.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def csv_cell(value: object) -> object:
    """A value as a CSV cell a spreadsheet shows as text: a string a formula could begin with is quoted with '."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def _login() -> str:
    """Who runs the command, as the register records a re-verification's author."""
    import getpass

    try:
        return f"command line user {getpass.getuser()}"
    except Exception:  # no user name in the environment or the password database
        return "command line"


def _write_atomically(target: Path, data: str) -> None:
    from rulegen.assemble.publish import publish_file

    publish_file(target, data.encode("utf-8"))


def register(app: typer.Typer) -> None:
    group = typer.Typer(name="register", no_args_is_help=True,
                        help="The register of received filings: add (verify and record), list, show, reverify, report.")
    app.add_typer(group, name="register")

    @group.command("init")
    def init(
        db: Db = None,
        jurisdiction: Annotated[str | None, typer.Option(
            "--jurisdiction", help="The jurisdiction this register holds filings for; others are flagged.",
            show_default=False)] = None,
    ) -> None:
        """Create the register (or upgrade its schema) and set the jurisdiction it holds filings for."""
        from rulegen.filing.register import register_jurisdiction, set_jurisdiction

        with exits_cleanly(), _open(db) as engine:
            if jurisdiction is not None:
                set_jurisdiction(engine, jurisdiction)
            code = register_jurisdiction(engine)
            where = engine.url.render_as_string(hide_password=True)
        typer.echo(printable_line(f"register ready at {where}"
                                  + (f"; it holds {code} filings" if code else "; no jurisdiction set")))

    @group.command("add")
    def add(
        paths: Annotated[list[Path], typer.Argument(metavar="PATH...", show_default=False,
                                                    help="Filings and folders, as rulegen verify takes them.")],
        db: Db = None,
        trust: Annotated[list[Path] | None, typer.Option(
            "--trust", help="A CA certificate a signer may chain to; repeatable (RULEGEN_TRUST: a folder of them).",
            show_default=False)] = None,
        format: Annotated[OutputFormat, format_option()] = OutputFormat.TEXT,
    ) -> None:
        """Verify each filing in full (every byte reproduced from its signed offering, as `rulegen verify` does)
        and record it with its verdict, flags and the diff to its previous revision.

        Exit 0: every filing recorded, verified and unflagged; 1: any failed, was refused (the same offering id
        and revision twice) or is flagged; 2: a path, the trust roots or the register cannot be used.
        """
        from rulegen.assemble import reproduce_filing_for_verify
        from rulegen.filing.register import add_filings

        _fail_format(format, ("text", "json"))
        began = time.perf_counter()
        with exits_cleanly(), _open(db) as engine:
            show = None if format == "json" else (lambda result: typer.echo(_add_line(result)))
            results = add_filings(engine, paths, trust=trust or None, progress=show,
                                  reproduce=reproduce_filing_for_verify)
        seconds = time.perf_counter() - began
        code = max((r.exit_code for r in results), default=int(ExitCode.UNUSABLE))
        recorded = sum(1 for r in results if r.entry is not None)
        counts = {"recorded": recorded, "refused": sum(1 for r in results if r.refused),
                  "verified": sum(1 for r in results if r.entry is not None and r.status == "verified"),
                  "flagged": sum(1 for r in results if r.flags and not r.refused),
                  "not usable": sum(1 for r in results if r.report.error is not None)}
        if format == "json":
            typer.echo(json.dumps({"results": [r.to_json() for r in results],
                                   "summary": {**counts, "exit_code": code, "seconds": round(seconds, 3)}},
                                  indent=2, ensure_ascii=False))
        else:
            typer.echo(f"{len(results)} path(s): " + ", ".join(f"{n} {label}" for label, n in counts.items())
                       + f" ({seconds:.1f} s)")
        raise typer.Exit(code=code)

    @group.command("list")
    def list_(
        db: Db = None,
        format: Annotated[str, typer.Option("--format", help="table, json or csv.")] = "table",
    ) -> None:
        """Every filing in the register, oldest first."""
        from rulegen.filing.register import LIST_COLUMNS, entries

        _fail_format(format, ("table", "json", "csv"))
        with exits_cleanly(), _open(db) as engine:
            rows = entries(engine)
        if format == "json":
            typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        elif format == "csv":
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(LIST_COLUMNS)
            for row in rows:
                values = {**row, "flags": ";".join(f["kind"] for f in row["flags"])}
                writer.writerow([csv_cell(values[c]) for c in LIST_COLUMNS])
            typer.echo(buffer.getvalue(), nl=False)
        else:
            typer.echo(_table(rows) if rows else "The register is empty.")

    @group.command("show")
    def show_(
        key: Annotated[str, typer.Argument(metavar="ID", help="An entry number, an offering id (every revision), "
                                                              "or offering-id@revision.", show_default=False)],
        db: Db = None,
        format: Annotated[OutputFormat, format_option()] = OutputFormat.TEXT,
    ) -> None:
        """One filing in full: every check, every flag, the changes from its previous revision."""
        from rulegen.filing.register import show

        _fail_format(format, ("text", "json"))
        with exits_cleanly(), _open(db) as engine:
            found = show(engine, key)
        if format == "json":
            typer.echo(json.dumps(found, indent=2, ensure_ascii=False))
            return
        for entry in found:
            typer.echo(printable_line(f"entry {entry['entry']}: {entry['offering_id'] or entry['path']} revision "
                                      f"{entry['revision']} — {entry['current_status']}"))
            if entry["rechecked"] is not None:
                again = entry["rechecked"]
                typer.echo(printable_line(f"  verified again: {again['at']} by {again['by'] or 'unknown'}, "
                                          f"{again['status']} (trust {again['trust'] or '-'}); when received: "
                                          f"{entry['status']} (trust {entry['trust'] or '-'})"))
            for label in ("received", "path", "operator", "jurisdiction", "effective_date", "signer",
                          "signer_fingerprint", "signing_time", "pades_level", "timestamp", "revocation", "trust",
                          "rules_sha256", "previous_entry",
                          "first_problem"):
                if entry.get(label) is not None:
                    typer.echo(printable_line(f"  {label.replace('_', ' ')}: {entry[label]}"))
            findings = entry["findings"]
            typer.echo(f"  findings at the build: {findings['errors']} error(s), {findings['warnings']} "
                       f"warning(s), {findings['notes']} note(s)")
            for flag in entry["flags"]:
                typer.echo(printable_line(f"  flag {flag['kind']}: {flag['message']}"))
            for check in entry["checks"]:
                typer.echo(printable_line(f"  {check['status']:<4}  {check['name']}: {check['detail']}"))
            changes = entry.get("changes")
            if changes:
                for item in changes.get("math") or []:
                    typer.echo(printable_line(f"  math: {item['text']}"))
                for section in changes.get("sections") or []:
                    for change in section["changes"]:
                        typer.echo(printable_line(f"  change ({section['title']}): {change['text']}"))

    @group.command("reverify")
    def reverify(
        entry: Annotated[int, typer.Argument(metavar="ID", help="The entry number.", show_default=False)],
        db: Db = None,
        trust: Annotated[list[Path] | None, typer.Option(
            "--trust", help="A CA certificate a signer may chain to today; repeatable (RULEGEN_TRUST: a folder of "
                            "them).", show_default=False)] = None,
        source: Annotated[Path | None, typer.Option(
            "--from", help="The filing's folder or rules.pdf where it is now, if it moved since it was received "
                           "(its rules.pdf must be the bytes received).", show_default=False)] = None,
        by: Annotated[str | None, typer.Option(
            "--by", help="Who asks for it, as recorded. Default: the user name of this login.",
            show_default=False)] = None,
        format: Annotated[OutputFormat, format_option()] = OutputFormat.TEXT,
    ) -> None:
        """Verify a recorded filing again, in full, with today's trust roots, and record the result beside the entry
        (its verdict on receipt stays; list and show give the latest as its current status).

        Exit 0: verified; 1: not verified, or no such entry; 2: the filing, the trust roots or the register cannot
        be used (nothing is recorded then).
        """
        from rulegen.assemble import reproduce_filing_for_verify
        from rulegen.filing.register_reverify import reverify_entry

        who = by.strip() if by and by.strip() else _login()
        with exits_cleanly(), _open(db) as engine:
            result = reverify_entry(engine, entry, reproduce=reproduce_filing_for_verify, trust=trust or None,
                                    source=source, by=who)
        if format == "json":
            typer.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
        else:
            typer.echo(printable_line(f"entry {result.entry}: {result.path}: {result.verdict}"))
            typer.echo(printable_line(f"  recorded as verified again by {who} with {result.trust_roots} trust "
                                      f"root(s): {result.status} (was {result.was}; on receipt "
                                      f"{result.received_status})"))
        raise typer.Exit(code=result.exit_code)

    @group.command("report")
    def report(
        html: Annotated[Path, typer.Option("--html", help="The HTML page to write.", show_default=False)],
        db: Db = None,
    ) -> None:
        """A page a reviewer opens: one row per filing, its status, first problem and flags, linked to details."""
        from rulegen.filing.register import report_rows
        from rulegen.render.register_page import register_page

        with exits_cleanly(), _open(db) as engine:
            page = register_page(report_rows(engine))
            _write_atomically(html, page)
        typer.echo(printable_line(f"wrote {html}"))
