"""``tournament hub``: a federation's hub, serving every venue's public pages from NATS JetStream (docs/hub.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from tournament.cli.app import guarded
from tournament.errors import UnusableInput


@guarded
def hub(
    nats_url: str = typer.Option(..., "--nats", help="The federation's NATS JetStream server (nats://HOST:4222)."),
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on (behind a TLS proxy: 127.0.0.1)."),
    port: int = typer.Option(8080, "--port", min=1, max=65535, help="The port to listen on."),
    creds: Optional[Path] = typer.Option(None, "--creds", help="The hub's NATS credentials: a credentials file, or "
                                                               "a line USER:PASSWORD (a user that may only read)."),
    proxy_headers: bool = typer.Option(False, "--proxy-headers", help="Behind a reverse proxy on this computer: "
                                                                      "believe the address and scheme it forwards."),
) -> None:
    """Serve a federation's hub: every event the venues publish (tournament serve --upstream), its
    public pages, live stream and JSON feed, rebuilt from the streams alone. Ctrl-C stops it."""
    import logging

    import uvicorn

    try:
        import nats  # noqa: F401
    except ImportError:
        raise UnusableInput("the hub needs the NATS client: pip install nats-py") from None
    from tournament.web.hub import Hub
    from tournament.web.upstream import connect_options

    options = connect_options(nats_url, creds)
    options.pop("servers")
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    server = Hub(nats_url, options)
    typer.echo(f"hub: http://{host}:{port}/  (events from {nats_url})", err=False)
    uvicorn.run(server, host=host, port=port, proxy_headers=proxy_headers, log_level="warning",
                timeout_graceful_shutdown=3)
    typer.echo("stopped")
