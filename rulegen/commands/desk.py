"""`rulegen desk init|user add|serve`: the regulator's desk, a web app over the register (rulegen/web/desk)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from rulegen.commands.register import Db
from rulegen.errors import InputError, UsageError

PASSWORD_ENV = "RULEGEN_DESK_PASSWORD"


def _engine(db: str | None):
    from rulegen.filing.register_store import open_register
    from rulegen.web.desk.store import create_tables

    engine = open_register(db)
    create_tables(engine)
    return engine


def register(app: typer.Typer) -> None:
    group = typer.Typer(name="desk", no_args_is_help=True,
                        help="The regulator's desk: upload, verify, review and decide filings in a browser.")
    users = typer.Typer(name="user", no_args_is_help=True, help="The desk's users.")
    group.add_typer(users, name="user")
    app.add_typer(group, name="desk")

    @group.command("init")
    def init(db: Db = None) -> None:
        """Create the desk's tables in the register (and the register, if it is new)."""
        engine = _engine(db)
        typer.echo(f"desk ready in {engine.url.render_as_string(hide_password=True)}")
        engine.dispose()

    @users.command("add")
    def user_add(
        name: Annotated[str, typer.Argument(help="The user's name (what they log in with).")],
        role: Annotated[str, typer.Option("--role", help="analyst, supervisor or admin.")],
        db: Db = None,
    ) -> None:
        """Add a user. The password is RULEGEN_DESK_PASSWORD, else asked twice."""
        from rulegen.web.desk.store import DeskError, add_user

        password = os.environ.get(PASSWORD_ENV)
        if not password:
            password = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
        engine = _engine(db)
        try:
            user = add_user(engine, name, role, password)
        except DeskError as exc:
            raise UsageError(str(exc)) from None
        finally:
            engine.dispose()
        typer.echo(f"user {user.name} added ({user.role})")

    @group.command("serve")
    def serve(
        db: Db = None,
        archive: Annotated[Path | None, typer.Option(
            "--archive", help="Where the received files are kept by SHA-256 (never rewritten). Default: "
                              "desk-archive in the user's data folder.", show_default=False)] = None,
        host: Annotated[str, typer.Option("--host", help="The address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", help="The port to listen on.")] = 8000,
        trust: Annotated[list[Path] | None, typer.Option(
            "--trust", help="A CA certificate a signer may chain to; repeatable (RULEGEN_TRUST as for verify).",
            show_default=False)] = None,
        certfile: Annotated[Path | None, typer.Option("--tls-cert", help="Serve HTTPS with this certificate.",
                                                      show_default=False)] = None,
        keyfile: Annotated[Path | None, typer.Option("--tls-key", help="The TLS certificate's key.",
                                                     show_default=False)] = None,
        max_mb: Annotated[int, typer.Option("--max-upload-mb", help="The largest upload, in MB.")] = 64,
    ) -> None:
        """Serve the desk. It verifies every upload in full, as `rulegen verify` does."""
        import platformdirs
        import uvicorn

        from rulegen.assemble import reproduce_filing_for_verify
        from rulegen.filing.verify import load_trust_roots, trust_paths
        from rulegen.web.desk.app import Desk, create_app
        from rulegen.web.desk.intake import Limits

        if (certfile is None) != (keyfile is None):
            raise UsageError("--tls-cert and --tls-key go together")
        if not 1 <= port <= 65535:
            raise UsageError(f"--port is {port}; a port is a number from 1 to 65535")
        if host not in ("127.0.0.1", "::1", "localhost") and certfile is None:
            typer.echo(f"rulegen: warning: serving on {host} without --tls-cert: passwords and session cookies "
                       "cross the network in clear unless a TLS proxy stands in front", err=True)
        folder = archive or Path(platformdirs.user_data_dir("rulegen")) / "desk-archive"
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"--archive {folder}: {exc.strerror or exc}") from None
        roots = load_trust_roots(trust_paths(trust or None, None))
        engine = _engine(db)
        desk = Desk(engine=engine, archive=folder, roots=roots, reproduce=reproduce_filing_for_verify,
                    limits=Limits(max_bytes=max_mb * 1024 * 1024),
                    # a re-verification reads the roots again: today's, as the agency's folder now holds them
                    trust_loader=lambda: load_trust_roots(trust_paths(trust or None, None)))
        typer.echo(f"desk on http{'s' if certfile else ''}://{host}:{port}/ ({len(roots)} trust root(s), "
                   f"archive {folder})")
        uvicorn.run(create_app(desk), host=host, port=port, log_level="warning", proxy_headers=False,
                    ssl_certfile=str(certfile) if certfile else None, ssl_keyfile=str(keyfile) if keyfile else None)
