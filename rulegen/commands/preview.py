"""`rulegen preview FILE [--port N]`: the rules document, the sign and the findings in a browser, refreshed at each
save of the file (rulegen/web/preview)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulegen.errors import InputError, UsageError
from rulegen.terminal import printable_line

HOST = "127.0.0.1"  # the preview shows the file's contents: it is served to this machine alone


def register(app: typer.Typer) -> None:
    @app.command("preview")
    def preview(
        file: Annotated[Path, typer.Argument(help="The offering file to follow.", show_default=False)],
        port: Annotated[int, typer.Option("--port", help="The port to listen on (on 127.0.0.1).")] = 8765,
    ) -> None:
        """Serve a page with the rules document, the sign and the findings of FILE; it refreshes at each save."""
        import uvicorn

        from rulegen.web.preview.app import create_app

        if not 1 <= port <= 65535:
            raise UsageError(f"--port is {port}; a port is a number from 1 to 65535")
        if not file.is_file():
            raise InputError(f"{file}: no such file" if not file.exists() else f"{file}: not a file")
        typer.echo(printable_line(f"preview of {file} on http://{HOST}:{port}/ (it follows each save; Ctrl-C stops)"))
        uvicorn.run(create_app(file, str(file)), host=HOST, port=port, log_level="warning", proxy_headers=False,
                    timeout_graceful_shutdown=1)
