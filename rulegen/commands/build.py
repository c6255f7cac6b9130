"""`rulegen build [PATH...] [--out DIR] [--final] [--sign ID.p12] [--previous OLD.yaml]`: the whole submission, for
one offering or several (files, or folders searched for offerings), several built in parallel."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from rulegen import terminal
from rulegen.commands._common import report_error
from rulegen.commands._sign_size import sign_size_option
from rulegen.errors import ExitCode, RulegenError, UsageError
from rulegen.terminal import printable_line


def _progress_display(enabled: bool):
    """A rich progress bar on stderr (silent when stderr is not a terminal and RULEGEN_PROGRESS is unset)."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(file=terminal.raw(sys.stderr), force_terminal=None)
    show = enabled and (console.is_terminal or os.environ.get("RULEGEN_PROGRESS"))
    return Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[step]}"),
                    TimeElapsedColumn(), console=console, transient=True, disable=not show)


def build_line(display: str, built) -> str:
    """`FILE: built build/<id>/ (DRAFT; ...) in 12.3 s`, naming the signer of a signed build."""
    status = "DRAFT" if built.draft else "final"
    if built.signer:
        status += f", signed by {built.signer}"
    return f"{display}: built {built.folder}/ ({status}; {', '.join(built.files)}) in {built.seconds:.1f} s"


def report_built(display: str, outcome, quiet: bool = False) -> int:
    """Print one build's outcome as a build of it alone prints it (with `quiet`, a failed build's findings without
    its notes); return its exit status."""
    if isinstance(outcome, RulegenError):
        if quiet:
            outcome.findings = [finding for finding in outcome.findings if finding.level != "note"]
        return report_error(outcome)
    if isinstance(outcome, BaseException):  # not ours: a message, never a traceback, and the other builds go on
        typer.echo(printable_line(f"rulegen: error: {display}: internal error: {type(outcome).__name__}: {outcome}"),
                   err=True)
        return int(ExitCode.UNUSABLE)
    for finding in outcome.findings:
        if finding.level == "warning":
            typer.echo(printable_line(finding.format()), err=True)
    typer.echo(printable_line(build_line(display, outcome)))
    return int(ExitCode.OK)


def build_one(path: Path, display: str, options, progress, quiet: bool = False) -> int:
    from rulegen import assemble as pipeline
    from rulegen.assemble.many import built

    task = progress.add_task(f"build {display}", total=len(pipeline.STEPS), step="")

    def advance(step: str) -> None:
        progress.update(task, advance=1, step=step)

    try:
        result = pipeline.build(path, options, display=display, progress=advance)
    except RulegenError as exc:
        progress.remove_task(task)
        return report_built(display, exc, quiet)
    progress.update(task, completed=len(pipeline.STEPS), step="done")
    return report_built(display, built(result), quiet)


def build_several(files: list[tuple[Path, str]], options, progress, quiet: bool = False) -> int:
    """Each offering built once, in parallel up to the cores; each outcome printed as a build of it alone prints
    it, in the order given; then one summary line. The status is the worst of them."""
    from rulegen.assemble.many import build_each, distinct

    todo, refused = distinct(files)
    statuses: dict[str, int] = {}
    for display, error in refused:
        statuses[display] = report_error(error)
    task = progress.add_task(f"build {len(todo)} offerings", total=len(todo), step="")
    for index, outcome in build_each(todo, options):
        display = todo[index][1]
        statuses[display] = report_built(display, outcome, quiet)
        progress.update(task, advance=1, step=display)
    failed = [f"{display}: exit {status}" for display, status in statuses.items() if status]
    total = len(statuses)
    summary = f"{total} offering{'' if total == 1 else 's'}: {total - len(failed)} built, {len(failed)} not built"
    typer.echo(printable_line(summary + (f" ({'; '.join(failed)})" if failed else "")))
    return max(statuses.values(), default=0)


def register(app: typer.Typer) -> None:
    @app.command("build")
    def build(
        paths: Annotated[list[Path] | None, typer.Argument(
            help="Offering files, or folders to search for *.yaml / *.yml; without any, every bundled sample. "
                 "Several are built in parallel, each once.", show_default=False)] = None,
        out: Annotated[Path, typer.Option(
            "--out", help="The folder that receives <id>/ for each build.")] = Path("build"),
        final: Annotated[bool, typer.Option(
            "--final", help="A final build: no DRAFT marks; needs every sign-off role.")] = False,
        sign: Annotated[Path | None, typer.Option(
            "--sign", help="Sign rules.pdf with this PKCS#12 identity (passphrase from RULEGEN_SIGN_PASSPHRASE).",
            show_default=False)] = None,
        previous: Annotated[Path | None, typer.Option(
            "--previous", help="The previous revision's offering file: adds a \"changes from revision N\" section.",
            show_default=False)] = None,
        sign_size: Annotated[str, sign_size_option(
            "Table sign size: letter, tabloid, a4, a3 (each also NAME-landscape), limit-card, or WxH such as "
            "24x36in.")] = "letter",
        print_proof: Annotated[bool, typer.Option(
            "--print", help="The table sign as the printer's file: PDF/X-4, CMYK, 0.125 in bleed, crop marks in a "
                            "slug.")] = False,
        icc: Annotated[Path | None, typer.Option(
            "--icc", help="With --print: the print shop's CMYK profile (GRACoL, SWOP...), embedded as the sign's "
                          "output intent and used to convert colour (default: the shipped ISO Coated v2).",
            show_default=False)] = None,
        tsa: Annotated[str | None, typer.Option(
            "--tsa", help="With --sign: an RFC 3161 timestamp authority's URL; the signature carries its timestamp "
                          "and the revocation data of both chains (PAdES B-LT), fetched from the authority and the "
                          "CRL and OCSP sources the certificates name: the only network access a build makes.",
            show_default=False)] = None,
        docx: Annotated[bool, typer.Option(
            "--docx", help="Also rules.docx: the rules document as Word text to redline, marked on every page as an "
                           "editable copy, not the filed document.")] = False,
        quiet: Annotated[bool, typer.Option(
            "--quiet", "-q", help="Leave notes out of the findings of an offering that fails.")] = False,
    ) -> None:
        """Validate, compute the math and render rules.pdf, rules.html, signage.pdf, math-appendix.pdf,
        manifest.json."""
        from rulegen.assemble import BuildOptions
        from rulegen.resources import samples_dir

        from rulegen.commands.validate import offering_files

        if paths:
            files = offering_files(paths)
            if not files:
                raise UsageError("no *.yaml or *.yml offering files found under " + ", ".join(str(p) for p in paths))
        else:
            files = [(path, path.name) for path in sorted(samples_dir().glob("*.yaml"))]
            if not files:
                raise UsageError("no bundled sample offerings were found")
        if tsa is not None and sign is None:
            raise UsageError("--tsa timestamps a signature; give --sign ID.p12 too")
        if previous is not None and len(files) > 1:
            raise UsageError("--previous names the revision one offering follows; build that offering alone")
        if sign is not None and not final:
            typer.echo("rulegen: warning: --sign without --final signs a DRAFT: every page says DRAFT, and `rulegen "
                       "verify` accepts only a signed final filing; to file it, build with --final (every sign-off "
                       "role given) and --sign", err=True)
        options = BuildOptions(out_dir=out, final=final, sign=sign, previous=previous, sign_size=sign_size,
                               print_proof=print_proof, tsa=tsa, icc=icc, docx=docx)
        with _progress_display(sys.stderr is not None) as progress:
            if len(files) == 1:
                status = build_one(*files[0], options, progress, quiet)
            else:
                status = build_several(files, options, progress, quiet)
        raise typer.Exit(code=status)
