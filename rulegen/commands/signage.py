"""`rulegen signage FILE [--sign-size SIZE] [--print] [--final] [-o OUT.pdf]`: the table sign alone.

SIZE: letter, tabloid, a4, a3 (each also NAME-landscape), limit-card, or WxH in inches or millimetres.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulegen.commands._sign_size import sign_size_option
from rulegen.terminal import printable_line

SIZE_HELP = ("letter, tabloid, a4, a3 (each also NAME-landscape), limit-card (4x6 in: the limits only), or WxH in "
             "inches or millimetres such as 24x36in or 600x900mm.")


def register(app: typer.Typer) -> None:
    @app.command("signage")
    def signage(
        file: Annotated[Path, typer.Argument(help="The offering file.", show_default=False)],
        sign_size: Annotated[str, sign_size_option(SIZE_HELP)] = "letter",
        print_proof: Annotated[bool, typer.Option(
            "--print", help="The printer's file: PDF/X-4, CMYK, 0.125 in bleed, crop marks in a slug.")] = False,
        icc: Annotated[Path | None, typer.Option(
            "--icc", help="With --print: the print shop's CMYK profile (GRACoL, SWOP...), embedded as the output "
                          "intent and used to convert colour (default: the shipped ISO Coated v2).",
            show_default=False)] = None,
        final: Annotated[bool, typer.Option("--final", help="No DRAFT marks; needs every sign-off role.")] = False,
        output: Annotated[Path | None, typer.Option(
            "-o", "--output", help="Where to write the PDF (default: <id>-signage-<size>.pdf).",
            show_default=False)] = None,
    ) -> None:
        """Render the table sign for a sign printer: every paytable offered, the ante limits, the payout limit."""
        from rulegen.assemble import build_signage
        from rulegen.assemble.publish import publish_file

        pdf, offering, findings = build_signage(file, size=sign_size, print_proof=print_proof, final=final,
                                                display=str(file), icc=icc)
        target = output or Path(default_name(offering.data["offering"]["id"], sign_size))
        publish_file(target, pdf)
        for finding in findings:
            if finding.level == "warning":
                typer.echo(printable_line(finding.format()), err=True)
        kind = ", the printer's file" if print_proof else ""
        typer.echo(printable_line(f"{file}: wrote {target} ({sign_size}{kind}{'' if final else ', DRAFT'})"))


def default_name(offering_id: str, size: str) -> str:
    """`<id>-signage-<size>.pdf`: a second size never replaces the first (`tabloid`, `24x36in`, `a3-landscape`)."""
    from rulegen.render.signage import sign_size as parse

    return f"{offering_id}-signage-{parse(size).name}.pdf"
