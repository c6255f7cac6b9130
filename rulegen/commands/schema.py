"""`rulegen schema`: where the installed schemas are, or one jurisdiction's combined schema as one file."""

from __future__ import annotations

from typing import Annotated

import typer

from rulegen.errors import UsageError


def register(app: typer.Typer) -> None:
    @app.command("schema")
    def schema(
        path: Annotated[bool, typer.Option("--path", help="Print the folder of the installed schemas.")] = False,
        jurisdiction: Annotated[str | None, typer.Option(
            "--jurisdiction", "-j", help="Print the combined schema of MD, NJ, PA or HOUSE as one file.")] = None,
        reference: Annotated[bool, typer.Option("--reference", help="Print the field reference (Markdown), as "
                                                                    "the README carries it.")] = False,
    ) -> None:
        """The installed JSON Schemas: their folder, or one jurisdiction's combined schema for tools that want
        one file."""
        from rulegen.resources import schemas_dir
        from rulegen.starter import combined_schema_text, field_reference

        if int(path) + int(reference) + int(jurisdiction is not None) != 1:
            raise UsageError("give one of --path, --jurisdiction CODE or --reference")
        if reference:
            typer.echo(field_reference(), nl=False)
            return
        if path:
            typer.echo(str(schemas_dir()))
            return
        typer.echo(combined_schema_text(jurisdiction or ""), nl=False)  # a StarterError is a UsageError
