"""`rulegen build [FILE] [--out DIR] [--final] [--sign ID.p12] [--previous OLD.yaml]`: the whole submission."""

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


def build_one(path: Path, display: str, options, progress) -> int:
    from rulegen import assemble as pipeline

    task = progress.add_task(f"build {display}", total=len(pipeline.STEPS), step="")

    def advance(step: str) -> None:
        progress.update(task, advance=1, step=step)

    try:
        result = pipeline.build(path, options, display=display, progress=advance)
    except RulegenError as exc:
        progress.remove_task(task)
        return report_error(exc)
    progress.update(task, completed=len(pipeline.STEPS), step="done")
    warnings = [f for f in result.findings if f.level == "warning"]
    for finding in warnings:
        typer.echo(printable_line(finding.format()), err=True)
    status = "DRAFT" if result.draft is None or result.draft.draft else "final"
    seconds = sum(result.timings.values())
    typer.echo(printable_line(f"{display}: built {result.folder}/ ({status}; {', '.join(sorted(result.files))}) in "
                              f"{seconds:.1f} s"))
    return int(ExitCode.OK)


def register(app: typer.Typer) -> None:
    @app.command("build")
    def build(
        file: Annotated[Path | None, typer.Argument(help="The offering file; without it, every bundled sample.",
                                                    show_default=False)] = None,
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
    ) -> None:
        """Validate, compute the math and render rules.pdf, rules.html, signage.pdf, math-appendix.pdf,
        manifest.json."""
        from rulegen.assemble import BuildOptions
        from rulegen.resources import samples_dir

        if file is not None:
            files = [(file, str(file))]
        else:
            files = [(path, path.name) for path in sorted(samples_dir().glob("*.yaml"))]
            if not files:
                raise UsageError("no bundled sample offerings were found")
        if tsa is not None and sign is None:
            raise UsageError("--tsa timestamps a signature; give --sign ID.p12 too")
        options = BuildOptions(out_dir=out, final=final, sign=sign, previous=previous, sign_size=sign_size,
                               print_proof=print_proof, tsa=tsa, icc=icc)
        status = 0
        with _progress_display(sys.stderr is not None) as progress:
            for path, display in files:
                status = max(status, build_one(path, display, options, progress))
        raise typer.Exit(code=status)
