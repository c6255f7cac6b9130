"""`rulegen signage FILE [--sign-size letter|tabloid|a4|a3] [--print] [--final] [-o OUT.pdf]`: the table sign alone."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulegen.commands._common import report_error
from rulegen.errors import ExitCode, RulegenError

SIZES = ("letter", "tabloid", "a4", "a3")


def register(app: typer.Typer) -> None:
    @app.command("signage")
    def signage(
        file: Annotated[Path, typer.Argument(help="The offering file.", show_default=False)],
        sign_size: Annotated[str, typer.Option("--sign-size", help="letter, tabloid, a4 or a3.")] = "letter",
        print_proof: Annotated[bool, typer.Option("--print", help="A printer's proof: 0.125 in bleed and crop marks.")] = False,
        final: Annotated[bool, typer.Option("--final", help="No DRAFT marks; needs every sign-off role.")] = False,
        output: Annotated[Path | None, typer.Option("-o", "--output", help="Where to write the PDF (default: <id>-signage.pdf).",
                                                    show_default=False)] = None,
    ) -> None:
        """Render the table sign for a sign printer: every paytable offered, the ante limits, the payout limit."""
        from rulegen.build import build_signage
        from rulegen.build.publish import publish_file

        if sign_size not in SIZES:
            typer.echo(f"rulegen: error: --sign-size is {sign_size!r}; it is one of {', '.join(SIZES)}", err=True)
            raise typer.Exit(code=int(ExitCode.UNUSABLE))
        try:
            pdf, offering, findings = build_signage(file, size=sign_size, print_proof=print_proof, final=final,
                                                    display=str(file))
            target = output or Path(f"{offering.data['offering']['id']}-signage.pdf")
            publish_file(target, pdf)
        except RulegenError as exc:
            raise typer.Exit(code=report_error(exc)) from None
        for finding in findings:
            if finding.level == "warning":
                typer.echo(finding.format(), err=True)
        typer.echo(f"{file}: wrote {target} ({sign_size}{', printer proof' if print_proof else ''}"
                   f"{'' if final else ', DRAFT'})")
