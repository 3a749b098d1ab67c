"""``tournament hub``: a federation's hub, serving every venue's public pages from NATS JetStream (docs/hub.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

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
    leagues: list[str] = typer.Option([], "--league", help="A league's tie-breaks, NAME=won,diff,for (repeatable; "
                                                            "default won,diff,for)."),
    per_device: int = typer.Option(64, "--connections-per-device", min=1, max=1_000_000,
                                   help="Connections one device (an IPv4 address; an IPv6 client from another "
                                        "network, by its /64) may hold open at once (a proxy's on this computer "
                                        "are not counted)."),
) -> None:
    """Serve a federation's hub: every event the venues publish (tournament serve --upstream), its
    public pages, live stream and JSON feed, rebuilt from the streams alone. Ctrl-C stops it."""
    import logging

    try:
        import nats  # noqa: F401
    except ImportError:
        raise UnusableInput("the hub needs the NATS client: pip install nats-py") from None
    from tournament.web.hub import Hub
    from tournament.web.upstream import connect_options

    from tournament.event.league import named_tiebreaks

    from tournament.cli.venue import listening_or_refused
    from tournament.web import connections

    named = named_tiebreaks(leagues)
    options = connect_options(nats_url, creds, "--nats", "--creds")
    options.pop("servers")
    # Bound before anything is said: a port already taken is one line, not a hub announced and
    # then uvicorn's own error.
    sock = listening_or_refused(host, port, "give another port with --port")
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    server = Hub(nats_url, options, league_tiebreaks=named)
    typer.echo(f"hub: http://{host}:{port}/  (events from {nats_url})", err=False)
    # The venue's guarded connections (docs/hub.md, "Refusals"): a request that is not HTTP told in
    # one JSON line, a header deadline, a count of the connections per address; this computer's
    # addresses (the TLS proxy's, whether or not its forwarded headers are believed) uncounted, or
    # a proxy's connections for all the world would be one address's.  The lifespan starts the
    # streams' reader.  SIGTERM (a service manager's stop) ends as exit 143 after the finally below.
    config = connections.config(server, host=host, port=port, proxy_headers=proxy_headers, per_address=per_device,
                                uncounted=frozenset(connections.PROXIES), lifespan="on", timeout_graceful_shutdown=3)
    try:
        connections.QuietServer(config, stopping=server.stop_streams).run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # uvicorn has shut down gracefully and passes Ctrl-C on: stopping is what was asked
    finally:
        sock.close()
        typer.echo("stopped")


@guarded
def archive(
    nats_url: str = typer.Option(..., "--nats", help="The federation's NATS JetStream server (nats://HOST:4222)."),
    output: Path = typer.Option(..., "-o", "--output", help="The archive to write: JSON Lines, a record a line "
                                                            "(refused if it exists)."),
    creds: Optional[Path] = typer.Option(None, "--creds", help="NATS credentials: a credentials file, or a line "
                                                               "USER:PASSWORD (the hub's read-only user will do)."),
    validate: bool = typer.Option(False, "--validate", help="Then check every record of it on every core "
                                                            "(domrec validate -j 0 -q): its problems, its summary "
                                                            "and its exit code."),
) -> None:
    """Write the federation's archive: every confirmed game record of every event the venues
    published, read from the streams, one JSON line each, for `domrec validate -j 0 ARCHIVE` (docs/hub.md);
    with --validate, check it too: a season re-validated in one command."""
    import asyncio

    try:
        import nats  # noqa: F401
    except ImportError:
        raise UnusableInput("the archive needs the NATS client: pip install nats-py") from None
    from tournament.web.hub import archive_lines, read_all
    from tournament.web.upstream import connect_options

    options = connect_options(nats_url, creds, "--nats", "--creds")
    options.pop("servers")
    if output.exists() or output.is_symlink():  # (said before the streams are read, which takes a while)
        raise UnusableInput(f"{output} exists: give a new file (-o)")
    from tournament.web.link import Refused, Unreachable

    try:
        events = asyncio.run(read_all(nats_url, options))
    except Refused as e:  # (said by the server at once: a venue's credentials, not the hubs' reader's)
        raise UnusableInput(f"nats at {nats_url} refused these credentials: {e}") from None
    except Unreachable as e:  # (the address tried and why, in words)
        raise UnusableInput(str(e)) from None
    except (OSError, TimeoutError) as e:
        raise UnusableInput(f"cannot read the streams at {nats_url}: {str(e) or 'no answer'}") from None
    except Exception as e:  # nats-py's own errors: no servers, refused, a timeout
        raise UnusableInput(f"cannot read the streams at {nats_url}: {type(e).__name__} {e}".rstrip()) from None
    from domrec import output as outputs

    count = 0
    try:  # (written beside it and renamed into place: an archive stopped half way leaves no half file)
        if output.exists() or output.is_symlink():
            raise UnusableInput(f"{output} exists: give a new file (-o)")
        with outputs.writing(output, outputs.RECORDS) as out:
            for line in archive_lines(events):
                out.write(line + "\n")
                count += 1
    except outputs.OutputError as e:
        raise UnusableInput(e.message) from None
    typer.echo(f"{output}: {count} records of {len(events)} events")
    # A message the hub could not read (one no venue of this version sends, or forged with a venue's
    # credentials) may have held what the archive should: said, a line each, and the exit code is 1
    # (the archive is written, and may lack those events' games: not a whole season to rely on).
    unread = [(event, problem) for event in sorted(events) for problem in events[event].unreadable.values()]
    for event, problem in unread:
        typer.echo(f"error: event {event}: {problem}: the archive may lack what it held", err=True)
    worst = 1 if unread else 0
    if validate:  # domrec's own command, as a user would run it next: the same lines and exit code
        import subprocess
        import sys

        worst = max(worst, subprocess.run([sys.executable, "-m", "domrec.cli", "validate", "-j", "0", "-q",
                                           str(output)]).returncode)
    raise typer.Exit(worst)


#: A size's units, as ``--max-bytes`` and ``--max-message`` take them (KB: a thousand; KiB: 1,024).
_UNITS = {"": 1, "B": 1, "KB": 1000, "MB": 1000 ** 2, "GB": 1000 ** 3, "TB": 1000 ** 4,
          "KIB": 1024, "MIB": 1024 ** 2, "GIB": 1024 ** 3, "TIB": 1024 ** 4}


def size_of(text: str, option: str) -> int:
    """A size as a federation writes one (``500MB``, ``1GiB``, ``8388608``), in bytes; refused in one
    line when it is none, or nothing."""
    import re

    found = re.fullmatch(r"\s*(\d{1,15})\s*([A-Za-z]{0,3})\s*", text)
    unit = found[2].upper() if found else ""
    if found is None or unit not in _UNITS or int(found[1]) == 0:
        raise UnusableInput(f"{option} {text!r}: a size in bytes, such as 500MB, 1GiB or 8388608 (more than 0)")
    return int(found[1]) * _UNITS[unit]


@guarded
def stream(
    event: str = typer.Argument(..., help="The event's id (its uuid: printed by serve --upstream)."),
    nats_url: str = typer.Option(..., "--nats", help="The federation's NATS JetStream server (nats://HOST:4222)."),
    creds: Optional[Path] = typer.Option(None, "--creds", help="The federation's own NATS credentials (a user that "
                                                               "may make and change streams): a credentials file, "
                                                               "or a line USER:PASSWORD."),
    max_bytes: str = typer.Option("1GiB", "--max-bytes", help="The most the event's stream holds (a 250-table "
                                                              "event sends some 60 MB; docs/hub.md)."),
    max_message: str = typer.Option("8MiB", "--max-message", help="The largest message it takes (a game's record: "
                                                                  "some 22 KB)."),
) -> None:
    """Make an event's stream before its venue sends, or change its limits: the most it holds, and its
    largest message (docs/hub.md, "Limits of a stream"). A venue then needs no right to make streams."""
    import asyncio

    try:
        import nats  # noqa: F401
    except ImportError:
        raise UnusableInput("the stream command needs the NATS client: pip install nats-py") from None
    from tournament.web import relay
    from tournament.web.link import Refused
    from tournament.web.upstream import connect_options

    try:
        uuid = relay.event_id(event)
    except relay.BadMessage:
        raise UnusableInput(f"{event!r} is not an event's id: its uuid, as serve --upstream prints it") from None
    limits = size_of(max_bytes, "--max-bytes"), size_of(max_message, "--max-message")
    options = connect_options(nats_url, creds, "--nats", "--creds")
    try:
        made, info = asyncio.run(_stream(nats_url, options, uuid, *limits))
    except Refused as e:
        raise UnusableInput(f"nats at {nats_url} refused these credentials: {e}") from None
    except UnusableInput:
        raise
    except (OSError, TimeoutError) as e:
        raise UnusableInput(f"cannot reach nats at {nats_url}: {str(e) or 'no answer'}") from None
    except Exception as e:  # nats-py's own errors: no servers, refused, a JetStream refusal
        raise UnusableInput(f"nats at {nats_url}: {type(e).__name__} {e}".rstrip()) from None
    typer.echo(f"{info.config.name}: {'made' if made else 'changed'}: it holds at most "
               f"{info.config.max_bytes:,} bytes, "
               f"a message at most {info.config.max_msg_size:,} bytes, the newest refused once full; it holds "
               f"{info.state.bytes:,} bytes in {info.state.messages:,} messages")


async def _stream(url: str, options: dict, event: str, max_bytes: int, max_message: int) -> tuple[bool, Any]:
    """The event's stream made with these limits (True), or its limits changed (False); its state.
    A limit below what the stream holds is refused: JetStream would drop its oldest messages to meet
    it, the event's first changes, whatever the stream's discard policy."""
    from nats.js.api import DiscardPolicy
    from nats.js.errors import NotFoundError

    from tournament.web import relay
    from tournament.web.link import Answered, Heard, describe
    from tournament.web.upstream import connect

    heard = Heard()
    try:
        nc = await connect(options, "domrec stream", heard)
    except Exception as e:  # (nats-py's connect waits on while refused: what it heard is why, in words)
        raise UnusableInput(describe(e, url, heard, False)) from None
    try:
        js = Answered(nc.jetstream(timeout=10), heard)
        name = relay.stream_name(event)
        try:
            info = await js.stream_info(name)
        except NotFoundError:
            return True, await js.add_stream(**relay.stream_limits(event, max_bytes, max_message))
        if max_bytes < info.state.bytes:
            raise UnusableInput(f"{name} holds {info.state.bytes:,} bytes already: give a --max-bytes above that "
                                f"(a lower limit would drop the event's first messages)")
        config = info.config.evolve(max_bytes=max_bytes, max_msg_size=max_message, discard=DiscardPolicy.NEW)
        return False, await js.update_stream(config)
    finally:
        await nc.close()
