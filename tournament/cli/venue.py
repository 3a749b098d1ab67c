"""Commands of the venue: ``serve`` (the web server for phones at the tables), ``links``, ``keys``
(which keys there are; new keys for old), ``pins``, ``correct`` (one hand of a table's game, as the
director's page corrects it)."""

from __future__ import annotations

import errno
import json
import socket
import sys
from pathlib import Path
from typing import Any, List, Optional

import typer

from tournament.cli.app import MAX_COUNT, guarded, open_for_command
from tournament.errors import UnusableInput
from tournament.event import players as pl, venue as vn
from tournament.store import serving
from tournament.store.event_store import EventStore
from tournament.store.sqlite import now

HALL_URL_HELP = ("The address phones reach the hall's pages at, when it is not --url's host on --hall-port (a "
                 "reverse proxy sending the hall's paths to --hall-port); kept with the event as --url is.")
URL_HELP = ("The address phones reach the server at, for the links and QR codes (default: the one "
            "`tournament serve` last used, else http://127.0.0.1:8000).")


@guarded
def links(
    event: Path = typer.Argument(..., help="The event file."),
    url: Optional[str] = typer.Option(None, "--url", help=URL_HELP),
    as_json: bool = typer.Option(False, "--json", help="JSON: {director, director_pin, public, tables: [{round, "
                                                       "table, url, token}]}."),
) -> None:
    """Print the venue's links: each table's page (its own key), the director's page and PIN, the public
    page. The keys and the PIN are made the first time and stay the same (print them again at any
    time) until `tournament keys --rotate…` changes the keys."""
    with open_for_command(event) as store:
        base = vn.venue_url(store, _checked_url(url))
        found = vn.links(store, base)
        say_where_links_point(store, base, url is not None)
        vn.remember_printed(store, base)
    if as_json:
        sys.stdout.write(json.dumps(found, indent=1) + "\n")
        return
    typer.echo(f"public page:     {found['public']}")
    typer.echo(f"projector:       {found['public']}projector  (full screen on the hall's projector)")
    typer.echo(f"director's page: {found['director']}  (keep it to yourself)")
    typer.echo(f"director's PIN:  {found['director_pin']}  (typed on a table's page, under Director, to correct "
               f"that table's game there; keep it to yourself)")
    _say_tables(found)


def _say_tables(found: dict[str, Any]) -> None:
    """A line a table's link; a duplicate round's sit-out table named too (it has no link), in its
    place in table order, where the director reading down the tables looks for it (it came last,
    after tables it stands before)."""
    lines = [((t["round"], t["table"]), f"round {t['round']} table {t['table']}: {t['url']}")
             for t in found["tables"]]
    if "sits_out" in found:
        gone = found["sits_out"]
        lines.append(((gone["round"], gone["table"]), f"round {gone['round']} table {gone['table']}: not played "
                                                      f"(pair {gone['pair']} {gone['name']} sits out this round)"))
    for _, line in sorted(lines, key=lambda x: x[0]):
        typer.echo(line)


@guarded
def keys(
    event: Path = typer.Argument(..., help="The event file."),
    rotate: bool = typer.Option(False, "--rotate", help="New keys for every link: the director's and every "
                                                        "table's (every link and QR code made before stops "
                                                        "working)."),
    rotate_director: bool = typer.Option(False, "--rotate-director", help="A new key for the director's page "
                                                                          "(its old link stops working)."),
    rotate_table: List[str] = typer.Option([], "--rotate-table", metavar="ROUND/TABLE",
                                           help="A new key for one table's page, such as 2/5 (round 2, table 5); "
                                                "again for another table."),
    url: Optional[str] = typer.Option(None, "--url", help=URL_HELP),
    by: Optional[str] = typer.Option(None, "--by", help="Who changes the keys, for the audit trail (default: "
                                                        "your login name)."),
    as_json: bool = typer.Option(False, "--json", help="Without a --rotate option: JSON, [{kind, round, table, "
                                                       "since}]."),
) -> None:
    """The venue's keys. Without options: which keys there are and since when each holds (never a key
    itself). With --rotate, --rotate-director or --rotate-table: new keys for old, at once, even for a
    `serve` running beside it (the old links answer 403 from their next request on); each change goes
    into the audit trail (`tournament history`), and the new links are printed."""
    from tournament.event import keys as keys_of
    from tournament.event.audit import clean_text, default_author

    tables = [_round_table(x) for x in rotate_table]
    rotating = rotate or rotate_director or bool(tables)
    with open_for_command(event) as store:
        if not rotating:
            found = keys_of.keys(store)
        else:
            who = clean_text(by, "--by") or default_author() or "unknown"
            base = vn.venue_url(store, _checked_url(url))
            changed = keys_of.rotate_keys(store, f"{who} (command line)", director=rotate_director, tables=tables,
                                     every=rotate)
            director = keys_of.director_link(store, base)
            director_pin = keys_of.director_pin(store)
            new_links = {(k.round, k.table): keys_of.table_link(store, base, k.round, k.table)
                         for k in changed if k.kind == "table"}
    if not rotating:
        if as_json:
            sys.stdout.write(json.dumps([k.to_dict() for k in found], indent=1) + "\n")
        elif not found:
            typer.echo(f"{event}: no key yet (`tournament links` or `tournament serve` makes them)")
        else:
            for k in found:
                typer.echo(k.text())
        return
    if rotate:
        typer.echo(f"every key is new ({len(changed)}): every link and QR code made before stops working")
        typer.echo(f"director's page: {director}  (keep it to yourself)")
        if director_pin:
            typer.echo(f"director's PIN: {director_pin}  (a new one)")
        typer.echo("the tables' new links: `tournament links`; their score sheets again: `tournament sheets "
                   "--force`")
        return
    if rotate_director:
        typer.echo(f"director's page: {director}  (a new key; keep it to yourself)")
        if director_pin:
            typer.echo(f"director's PIN: {director_pin}  (a new one)")
    for (rnd, number), link in sorted(new_links.items()):
        typer.echo(f"round {rnd} table {number}: {link}  (a new key; its score sheet again: `tournament sheets "
                   f"--round {rnd} --table {number} --force`)")


def _round_table(text: str, option: str = "--rotate-table", form: str = "ROUND/TABLE") -> tuple[int, int]:
    """``2/5``: round 2, table 5, in digits 0-9 (int() reads any script's: ``٣/1`` would be 3/1)."""
    parts = text.strip().split("/")
    if len(parts) != 2 or not all(x.isascii() and x.isdigit() and 0 < len(x) < 7 and int(x) >= 1 for x in parts):
        raise UnusableInput(f"{option} is {form}, a round and a table numbered from 1 in digits 0-9, such as 2/5 "
                            f"(round 2, table 5), not {text[:20]!r}")
    return int(parts[0]), int(parts[1])


@guarded
def pins(
    event: Path = typer.Argument(..., help="The event file."),
    slips: bool = typer.Option(False, "--slips", help="Write the PINs as a printable page of slips (-o), one a "
                                                      "player: the name and the PIN, cut lines between them."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="With --slips: the HTML file to write."),
    force: bool = typer.Option(False, "--force", help="With --slips: replace a file that is not an earlier page "
                                                      "of slips."),
    lang: Optional[str] = typer.Option(None, "--lang", help="With --slips: the page's language, en or es "
                                                            "(default: the event's)."),
    clear: Optional[str] = typer.Option(None, "--clear", metavar="R/T", help="Clear the wrong PINs of round R "
                                                                             "table T: its confirmations wait no "
                                                                             "more (into the audit trail)."),
    clear_director: bool = typer.Option(False, "--clear-director", help="Clear the wrong director's PINs of all "
                                        "the tables: the director's PIN waits at no table (into the audit trail)."),
    by: Optional[str] = typer.Option(None, "--by", help="With --clear or --clear-director: who clears them "
                                                        "(default: your login name)."),
    waits: bool = typer.Option(False, "--waits", help="Print the waits after wrong PINs, clearing nothing: a line "
                               "a table that has had one, one for the wrong director's PINs at the tables."),
) -> None:
    """Print each player's 4-digit PIN, for confirming results with `serve --pins` (made once; a slip
    each at check-in, never on the table's sheet). --slips -o FILE writes them as slips to print and
    cut; --clear R/T lets a table confirm again after too many wrong PINs, --clear-director the
    director's PIN be typed again at every table (--clear R/T does both); --waits shows what waits. Safe
    beside `serve`."""
    from tournament.cli import pin_tries

    if waits:
        if clear is not None or clear_director or slips or force or any(x is not None for x in (output, lang, by)):
            raise UnusableInput("--waits only reads the waits after wrong PINs: give it alone")
        return pin_tries.say_waits(event)
    if clear is not None or clear_director:
        if clear is not None and clear_director:
            raise UnusableInput("--clear R/T clears the wrong director's PINs too: give it or --clear-director")
        if slips or output is not None:
            raise UnusableInput("--clear and --clear-director clear wrong PINs; give --slips apart")
        return pin_tries.clear_pins(event, _round_table(clear, "--clear", "R/T") if clear is not None else None, by)
    if by is not None:
        raise UnusableInput("--by names who clears wrong PINs: give it with --clear R/T or --clear-director")
    if not slips and (output is not None or force or lang is not None):
        raise UnusableInput("-o, --force and --lang are for the page of slips: give --slips")
    if slips and output is None:
        raise UnusableInput("--slips writes a page to print: give the file with -o (pins.html)")
    if slips and output is not None and str(output) != "-":  # a file not to be replaced: refused before anything
        from domrec import output as outputs
        from tournament.pages import slips as sl

        try:
            outputs.check(output, sl.SLIPS, force)
        except outputs.OutputError as e:
            raise UnusableInput(e.message) from None
    with open_for_command(event) as store:
        made = vn.make_pins(store)
        players = store.players()
        settings = store.settings
        numbers = pl.shown_numbers(store)  # a pair's number in a pairs event, as every printout gives it
    if slips:
        from domrec.i18n import UnknownLanguage
        from tournament.cli.app import write_output
        from tournament.i18n import page_language
        from tournament.pages import slips as sl

        assert output is not None
        try:
            language = page_language(lang, settings.lang)
        except UnknownLanguage as e:
            raise UnusableInput(e.message) from None
        page = sl.slips_page(settings, players, made, language)
        write_output(output, page, sl.SLIPS, force)
        if str(output) != "-":
            typer.echo(f"wrote {output} ({len(players)} slip{'s' if len(players) != 1 else ''})")
        return
    from tournament.pages.terminal import printable

    for p in players:
        typer.echo(f"#{numbers.get(p.id, p.id)}\t{printable(p.name)}\t{made[p.id]}")


@guarded
def correct(
    event: Path = typer.Argument(..., help="The event file."),
    round_no: int = typer.Option(..., "--round", "-r", min=1, max=MAX_COUNT, help="The round of the table."),
    table: int = typer.Option(..., "--table", "-t", min=1, max=MAX_COUNT, help="The table."),
    hand: Optional[int] = typer.Option(None, "--hand", min=1, max=MAX_COUNT, help="The hand to correct (without it: the game's "
                                                                   "lines are printed, numbered)."),
    line: Optional[int] = typer.Option(None, "--line", min=1, max=MAX_COUNT, help="The line of the hand to correct."),
    whole: bool = typer.Option(False, "--whole-hand", help="Replace the whole hand (with an empty --text: take it "
                                                           "back, the later hands move up)."),
    text: Optional[str] = typer.Option(None, "--text", help="The line as it should be (several lines: \\n "
                                                            "between them; empty: the line removed)."),
    reason: Optional[str] = typer.Option(None, "--reason", help="Why (kept in the audit trail)."),
    by: Optional[str] = typer.Option(None, "--by", help="Who corrects it (default: your login name)."),
) -> None:
    """Correct one hand of a table's game recorded at the venue (a move, the tiles left, a hand's score,
    or the hand taken back), as the director's page does: the rest of the game is recorded again and
    stays a verified record; a confirmed result is amended. Safe beside a running `serve`."""
    from tournament.event.audit import clean_text, default_author

    with open_for_command(event) as store:
        venue = vn.Venue(store)
        found = venue.lines(round_no, table)
        if hand is None:
            for k, lines in enumerate(found["hands"], 1):
                typer.echo(f"hand {k}:")
                for j, x in enumerate(lines, 1):
                    typer.echo(f"  {j:3}  {x}")
            if not found["hands"]:
                typer.echo(f"round {round_no} table {table} has recorded nothing yet")
            return
        if whole == (line is not None):
            raise UnusableInput("name the line to correct (--line N), or the whole hand (--whole-hand)")
        if text is None:
            raise UnusableInput('give the corrected line with --text ("" removes it)')
        who = clean_text(by, "--by") or default_author() or "unknown"
        state = venue.correct(round_no, table, found["rev"], hand, None if whole else line,
                              text.replace("\\n", "\n"), reason, by=f"{who} (command line)")
    for said in state["said"]:
        typer.echo(said)


#: Seconds a thread of the server runs before another may take the interpreter (Python's default
#: is 0.005).  Measured at a championship's load (bench_venue.py, 250 tables, 500 phones live):
#: 0.005 gave a move's p99 at 660-860 ms, 0.001 at 223 ms and a server CPU no higher.
SWITCH_INTERVAL = 0.001


@guarded
def serve(
    event: Path = typer.Argument(..., help="The event file."),
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on: 127.0.0.1 (this computer "
                                                          "only) or 0.0.0.0 (every device on the network)."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="The port to listen on."),
    url: Optional[str] = typer.Option(None, "--url", help="The address phones reach the server at, printed in "
                                                          "the links and QR codes, and kept with the event "
                                                          "(default: the one an earlier serve --url gave, when "
                                                          "serving on its port; else worked out from --host "
                                                          "and --port)."),
    use_pins: bool = typer.Option(False, "--pins", help="A confirmation takes the player's own PIN "
                                                        "(`tournament pins`)."),
    rate: float = typer.Option(20.0, "--rate", min=0.1, max=1_000_000, help="Requests a second each device may "
                                                                           "make on average (more are slowed "
                                                                           "down, 429)."),
    idle: int = typer.Option(10, "--idle", min=1, max=24 * 60, help="Minutes without a move after which the "
                                                                    "director's page flags a table in play."),
    proxy_headers: bool = typer.Option(False, "--proxy-headers", help="Behind a reverse proxy on this computer "
                                                                      "(HTTPS): believe the device's address and "
                                                                      "scheme it forwards (X-Forwarded-For, "
                                                                      "X-Forwarded-Proto). Off: anyone could "
                                                                      "make up an address for each request."),
    per_device: int = typer.Option(64, "--connections-per-device", min=1, max=1_000_000,
                                   help="Connections one device (an IPv4 address; an IPv6 client from another "
                                        "network, by its /64) may hold open at once."),
    hall_port: Optional[int] = typer.Option(None, "--hall-port", min=0, max=65535,
                                            help="The port of the hall's pages (public pages, live stream, "
                                                 "feed), served by a process of their own so the tables never "
                                                 "wait on the hall (default: --port + 1; 0: one process)."),
    hall_url_option: Optional[str] = typer.Option(None, "--hall-url", help=HALL_URL_HELP),
    one_process: bool = typer.Option(False, "--one-process", help="Serve the hall's pages from the tables' "
                                                                  "process too, on --port (as --hall-port 0)."),
    certfile: Optional[Path] = typer.Option(None, "--certfile", help="Serve https with this certificate (PEM; "
                                                                     "with --keyfile): the phones' browsers then "
                                                                     "keep the table page for a tab opened again "
                                                                     "offline (docs/venue.md, \"When the Wi-Fi "
                                                                     "drops\")."),
    keyfile: Optional[Path] = typer.Option(None, "--keyfile", help="The certificate's private key (PEM)."),
    upstream: Optional[str] = typer.Option(None, "--upstream", help="Feed a federation's hub: send the event's "
                                                                    "public change log to this NATS JetStream "
                                                                    "server (nats://HOST:4222; docs/hub.md)."),
    upstream_creds: Optional[Path] = typer.Option(None, "--upstream-creds", help="The venue's NATS credentials: a "
                                                                                 "credentials file, or a line "
                                                                                 "USER:PASSWORD."),
    club: Optional[str] = typer.Option(None, "--club", help="With --upstream: the club the hub lists the event "
                                                            "under."),
    federation: Optional[str] = typer.Option(None, "--federation", help="With --upstream: the federation the hub "
                                                                        "lists the event under."),
    league: Optional[str] = typer.Option(None, "--league", help="With --upstream: the league across venues the "
                                                                "event counts in (the hub's /l/LEAGUE)."),
) -> None:
    """Serve the venue: a page per table to record its game on a phone, the director's page, a public
    page, and their JSON API (docs/venue.md). The hall's pages run in a second process on their own
    port (--hall-port). Ctrl-C stops it; nothing acknowledged is lost."""
    given = _checked_url(url)
    tls = _checked_tls(certfile, keyfile)
    if upstream is None and (upstream_creds is not None or club or federation or league):
        raise UnusableInput("--upstream-creds, --club, --federation and --league go with --upstream (the hub's NATS "
                            "server)")
    feeder = _upstream(event, upstream, upstream_creds, club, federation, league) if upstream else None
    scheme = "https" if tls else "http"
    hall_given = _checked_url(hall_url_option, "--hall-url")
    if hall_given is not None and (one_process or hall_port == 0):
        raise UnusableInput("--hall-url is the address of the hall's own process: not with --one-process")
    if hall_port is None:
        hall_port = 0 if one_process else (port + 1 if port < 65535 else port - 1)
    elif one_process and hall_port:
        raise UnusableInput("--one-process serves the hall on --port: give --hall-port without it")
    if hall_port == port:
        raise UnusableInput(f"--hall-port is the hall's own port: give another than --port ({port})")
    # Claimed first: a second server on this event is refused before it writes anything (its
    # address over the first's) or listens anywhere (tournament.store.serving).
    # (A path that is no file is refused as every command refuses it, with nothing made beside it.)
    served = serving.claim(event, given or f"{scheme}://{_reachable(host)}:{port}", now()) \
        if Path(event).is_file() else serving.Claim(None, None)
    try:
        _serve_claimed(event, served, given, host, port, hall_port, hall_given, scheme, tls, rate, use_pins, idle,
                       proxy_headers, per_device, feeder, upstream)
    finally:
        served.release()


def _serve_claimed(event: Path, served: serving.Claim, given: Optional[str], host: str, port: int, hall_port: int,
                   hall_given: Optional[str], scheme: str, tls: dict, rate: float, use_pins: bool, idle: int,
                   proxy_headers: bool, per_device: int, feeder, upstream: Optional[str]) -> None:
    """:func:`serve`, once the event is claimed by this process (``served``)."""
    import logging

    from tournament.web import connections
    from tournament.web.app import VenueServer
    from tournament.web.hall import HallProcess, listening

    # Both ports bound first: a port already taken is said in one line before anything is printed
    # or written (the address served kept in the event file, the links printed for a server that
    # would never answer them).
    tables_socket = listening_or_refused(host, port, "give another port with --port")
    hall_socket = None
    if hall_port:
        try:
            hall_socket = listening(host, hall_port)
        except OSError as e:
            tables_socket.close()
            raise UnusableInput(f"cannot listen on {host}:{hall_port} for the hall's pages ({e.strerror or e}): "
                                f"give another port with --hall-port, or --one-process") from None
    try:
        with open_for_command(event) as store:  # refuses what is not an event file, in one line
            base = vn.serve_url(store, given, f"{scheme}://{_reachable(host)}:{port}", port)
            hall_url = vn.serve_hall_url(store, hall_given, base, hall_port) if hall_port else None
            vn.remember_url(store, base, given=given is not None, hall=hall_url, hall_given=hall_given is not None)
            served.say(base, now())
            found = vn.links(store, base)
            elsewhere = vn.printed_elsewhere(store, base)
        # The interpreter lets a thread run 5 ms before another may take over: a standings page made
        # for a hall of a thousand players would hold the tables' moves that long at every hand-off
        # (a move passes between the network's thread and the tables' thread twice).
        sys.setswitchinterval(SWITCH_INTERVAL)
        server = VenueServer(event, pins=use_pins, base_url=base, rate=rate, burst=max(60, int(rate * 3)),
                             idle_minutes=idle, also_at=connections.served_origins(host, port, scheme),
                             hall_port=hall_port or None,
                             hall_url=hall_url if hall_url and hall_url != vn.hall_address(base, hall_port) else None)
    except BaseException:
        tables_socket.close()
        if hall_socket is not None:
            hall_socket.close()
        raise
    hall = None
    if hall_socket is not None and hall_url is not None:
        hall = HallProcess(event, hall_socket, host, hall_url, rate=rate, burst=max(60, int(rate * 3)),
                           proxy_headers=proxy_headers, per_address=per_device, tls=tls,
                           say=lambda text: typer.echo(f"warning: {text}", err=True))
        server.poke_hall = hall.poke
    edited = vn.hand_edited(event)  # (read before the links: nothing slow between them and the warnings)
    if elsewhere is not None:  # (before the links, which it says lead elsewhere than the sheets: docs/venue.md)
        typer.echo(f"warning: {vn.elsewhere_warning(elsewhere, base)}", err=True)
    typer.echo(f"public page:     {found['public']}" + (f"  (the hall's own process, port {hall_port})" if hall else ""))
    typer.echo(f"projector:       {found['public']}projector  (full screen on the hall's projector)")
    typer.echo(f"director's page: {found['director']}  (keep it to yourself)")
    typer.echo(f"director's PIN:  {found['director_pin']}  (to correct a hand at a table: Director, on its page)")
    _say_tables(found)
    if edited is not None:
        typer.echo(f"warning: {edited}", err=True)
    if host not in ("127.0.0.1", "localhost", "::1"):
        ports = f"ports {port} and {hall_port} (the hall's)" if hall else f"port {port}"
        typer.echo(f"warning: open to every device that can reach this computer on {ports}; the table and "
                   f"director pages need their keys", err=True)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    config = connections.config(server.asgi, host=host, port=port, timeout_graceful_shutdown=5,
                                proxy_headers=proxy_headers, per_address=per_device, **tls)

    if feeder is not None:
        server.on_change.append(feeder.poke)  # a change logged here is sent at once, not at the next look
        server.upstream_state = feeder.state  # the director's API says whether the hub is fed, and why not
        feeder.start()
        typer.echo(f"upstream:        {upstream}  (event {feeder.event_uuid}: its public pages and feed, for the hub)")
    connections.collect_less()
    try:
        connections.QuietServer(config, stopping=server.stop_streams).run(sockets=[tables_socket])
    except KeyboardInterrupt:
        pass  # uvicorn has shut down gracefully and passes Ctrl-C on: stopping is what was asked
    finally:
        if feeder is not None:
            feeder.close()
        if hall is not None:
            hall.close()
        server.close()
    typer.echo("stopped; every acknowledged move is in the event file")


def _upstream(event: Path, url: str, creds: Optional[Path], club: Optional[str], federation: Optional[str],
              league: Optional[str]):
    """The thread that feeds the hub (started once the venue is about to serve)."""
    from tournament.web.upstream import Upstream

    try:
        import nats  # noqa: F401
    except ImportError:  # nats-py not installed
        raise UnusableInput("--upstream needs the NATS client: pip install nats-py") from None
    return Upstream(event, url, creds, club=club, federation=federation, league=league)


def listening_or_refused(host: str, port: int, advice: str) -> socket.socket:
    """A socket bound to ``host:port`` for a server about to start, or the one line saying why
    not: a server must not print its links, nor keep its address with the event, and only then
    find its port taken.  Bound and listening at once: two sockets with ``SO_REUSEADDR`` may both
    be bound to one port while neither listens, so only listening claims it (a second ``serve``
    or a ``hub`` started at the same moment is refused here, in one line).  A connection made
    before the server runs waits in the backlog and is answered once it does: a client takes an
    answer, not an open port, for a server ready."""
    if not host.strip():  # bound as every address of every network, which no link can name (http://:8000)
        raise UnusableInput(f"--host is an address of this machine, such as 127.0.0.1 (this computer only) or "
                            f"0.0.0.0 (every device on the network), not {host!r}")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn's own (a port in TIME_WAIT)
        sock.bind((host, port))
        sock.listen(2048)  # uvicorn's own backlog
    except OSError as e:
        sock.close()
        raise UnusableInput(f"cannot listen on {host}:{port}: {e.strerror or e} ({_host_advice(e) or advice})") \
            from None
    return sock


def _host_advice(e: OSError) -> str | None:
    """What to give instead when the host, not the port, is why a server cannot listen: a name
    that does not resolve (``999.1.1.1``), or an address that is not this machine's."""
    if isinstance(e, socket.gaierror):
        return "the host cannot be found: give an address of this machine with --host, e.g. 0.0.0.0 for all of them"
    if e.errno == errno.EADDRNOTAVAIL:
        return ("the host is not an address of this machine: give one of its own with --host, e.g. 0.0.0.0 for "
                "all of them")
    return None


def say_where_links_point(store: EventStore, base: str, given: bool) -> None:
    """Before links or QR codes are made for ``base``: a line (on stderr) when the server is not
    where they point, so that sheets are not printed for an address no phone will reach."""
    served = vn.venue_url(store) if vn.served_before(store) else None
    if served is not None and served != base:
        typer.echo(f"note: the venue was last served at {served}; these point to {base}: phones will reach them "
                   f"only if `tournament serve` runs there (--url {base})", err=True)
    elif served is None and not given:
        typer.echo(f"note: the venue has not been served yet: these point to {base}, this computer alone; for "
                   f"the hall's phones give --url http://ADDRESS:PORT, or make them once `tournament serve "
                   f"--host 0.0.0.0` runs (it says so if they point elsewhere)", err=True)


def _checked_tls(certfile: Optional[Path], keyfile: Optional[Path]) -> dict[str, str]:
    """uvicorn's TLS options for ``--certfile`` and ``--keyfile`` (both, or neither: plain http)."""
    if certfile is None and keyfile is None:
        return {}
    if certfile is None or keyfile is None:
        raise UnusableInput("--certfile and --keyfile go together: the server's certificate and its private key")
    for given, what in ((certfile, "--certfile"), (keyfile, "--keyfile")):
        if not given.is_file():
            raise UnusableInput(f"{what}: there is no file {given}")
    _usable_tls(certfile, keyfile)
    return {"ssl_certfile": str(certfile), "ssl_keyfile": str(keyfile)}


class _Protected(Exception):
    """The private key asked for its password."""


def _no_password() -> bytes:
    raise _Protected


def _usable_tls(certfile: Path, keyfile: Path) -> None:
    """Load the certificate and its key as uvicorn will, before anything is claimed or printed:
    uvicorn loads them only once it serves, after the links are out, and stops both processes
    with an SSL traceback (``PEM lib``); and a key protected by a password has OpenSSL ask for it
    on the terminal, once for each process, or fail the same way without one."""
    import ssl

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_verify_locations(cafile=str(certfile))
    except (ssl.SSLError, ValueError):
        raise UnusableInput(f"--certfile: {certfile} is not a certificate in PEM form (a text file that "
                            f"starts -----BEGIN CERTIFICATE-----)") from None
    except OSError as e:
        raise UnusableInput(f"--certfile: cannot read {certfile}: {e.strerror}") from None
    try:
        context.load_cert_chain(str(certfile), str(keyfile), _no_password)
    except _Protected:
        raise UnusableInput(f"--keyfile: {keyfile} is protected by a password, which the server cannot ask for; "
                            f"give the key without one (openssl pkey -in {keyfile} -out key.pem)") from None
    except ssl.SSLError as e:
        if e.reason == "KEY_VALUES_MISMATCH":
            raise UnusableInput(f"--keyfile: {keyfile} is not the private key of the certificate "
                                f"{certfile}") from None
        raise UnusableInput(f"--keyfile: {keyfile} is not a private key in PEM form (a text file that "
                            f"starts -----BEGIN PRIVATE KEY-----)") from None
    except OSError as e:
        raise UnusableInput(f"--keyfile: cannot read {keyfile}: {e.strerror}") from None


def _checked_url(url: Optional[str], option: str = "--url") -> Optional[str]:
    """An address the venue is reached at, as given (``--url``, ``--hall-url``): http(s), and the
    root of its host and port.  The pages link to themselves, their scripts and the API from the
    root (``/standings``, ``/static/live.js``, ``/api/v1/…``) and the server routes them there, so
    a path under which a reverse proxy would put them (``https://club.example/hall``) is refused
    (exit 2) rather than printed on the QR codes and links, where every page would answer 404 or
    lose its links (docs/venue.md, "Behind a reverse proxy")."""
    if url is None:
        return None
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        parts.port  # (a port that is no number, or past 65535, is a ValueError here)
    except ValueError:
        parts = None
    if parts is None or not url.startswith(("http://", "https://")) or any(c.isspace() for c in url) \
            or not parts.hostname:
        raise UnusableInput(f"{option} is an address such as http://192.168.1.20:8000, not {url!r}")
    if parts.username is not None or parts.password is not None:
        raise UnusableInput(f"{option} {url}: an address for the phones holds no user name or password (it is "
                            f"printed on every table's link and QR code)")
    if parts.path.rstrip("/") or parts.query or parts.fragment:
        raise UnusableInput(f"{option} {url}: the venue is served at the root of an address (a scheme, a host and "
                            f"a port, no path): behind a reverse proxy, give it a host name or a port of its own "
                            f"(https://hall.club.example), not a path under another site")
    return url.rstrip("/")


def _reachable(host: str) -> str:
    """The address other devices use for this computer when listening on every address: its name's
    address if that is not a loopback one (no packet is sent to find it), else the name itself."""
    if host not in ("0.0.0.0", "::"):
        return f"[{host}]" if ":" in host else host  # (an IPv6 address is bracketed in a URL: http://[::1]:8000)
    name = socket.gethostname()
    try:
        for info in socket.getaddrinfo(name, None, socket.AF_INET):
            address = info[4][0]
            if not address.startswith("127."):
                return address
    except OSError:
        pass
    return name
