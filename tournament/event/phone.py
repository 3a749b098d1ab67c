"""The phone's engine: a table's write answered in the table's own browser, JSON in and JSON out.

When the laptop is out of reach, the table's page asks this module (run by Pyodide: see
``tournament/web/static/engine.js`` and :mod:`tournament.web.engine_bundle`) what the server
would answer.  It is a thin shell over :mod:`tournament.event.table_log`, the code the server's
own writes run: the table is its template record and its log rows (what ``GET
/api/v1/tables/R/T?log=1`` gives, under ``"log"``), replayed through domrec's session; a write is
judged by the same functions in the same order; the answer is translated into the page's
language by the same function, with the same list of sentences as the server's (written beside
this module as ``phone_phrases.json`` when the engine's bundle is made).  So the refusal, the
state and the scores are the server's, word for word.

Only what a table does by itself is answered here (``dgn``, ``mode``, ``call``; and the reads
``state`` and ``options``).  A confirmation and the director's writes need the event file: they
are refused with :data:`~tournament.event.table_log.SERVER_ONLY` (status 503) and wait for the
connection.  Nor does a state made here say the wait after wrong PINs (the server's ``pin_wait``,
:meth:`tournament.event.venue.Venue._with_pin_wait`): only the event file knows it, and the page
counts down the wait it last heard of from the server.

A replayed table is kept between calls, so a move costs one request through the recorder, as on
the server: the next call whose rows extend the kept ones takes only the new rows.  After a
refused write it is made again from its rows, as the server makes its live table again after one.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any, Callable

from domrec import phrases
from domrec.errors import DomrecError, one_line
from domrec.reader import loads

from tournament import i18n
from tournament.errors import TournamentError
from tournament.event import table_log
from tournament.event.table_log import Facts, Live, VenueError

#: The server's sentences (every pattern its answers are translated with), written beside this
#: module when the engine's bundle is made; read once.
PHRASES_FILE = Path(__file__).resolve().with_name("phone_phrases.json")

_phrases: tuple[str, ...] | None = None
#: The tables replayed so far: key -> (rows taken, the table as they leave it).
_kept: dict[str, tuple[list[list[Any]], Live]] = {}


def _server_phrases() -> tuple[str, ...]:
    global _phrases
    if _phrases is None:
        _phrases = tuple(json.loads(PHRASES_FILE.read_text(encoding="utf-8")))
    return _phrases


def _now() -> str:
    """The time a write is logged with, written as the server writes it."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def _live(table: dict[str, Any]) -> Live:
    """The table as its rows leave it: the kept one carried forward when the rows extend the ones
    it took (each new row taken as the server takes a write), else replayed from the start as the
    server replays a table (:func:`~tournament.event.table_log.replay`)."""
    rows = [list(r) for r in table["rows"]]
    facts = table["facts"]
    key = json.dumps([facts["event"], facts["round"], facts["table"], table["template"]], sort_keys=True)
    kept = _kept.get(key)
    if kept is not None and kept[0] == rows[:len(kept[0])]:
        taken, live = kept
        try:
            for rev, kind, body, at in rows[len(taken):]:
                if kind in ("correct", "board"):  # a board confirmed: the next board's game starts afresh
                    raise LookupError("a correction, or a duplicate table's next board: replayed from the start")
                if kind == "dgn":
                    live.session.take(body)
                table_log.apply(live, kind, body, at)
                live.rev = rev
            _kept[key] = (rows, live)
            return live
        except Exception:  # noqa: BLE001 - whatever it was, the whole replay decides, as the server's
            _kept.pop(key, None)
    template = loads(json.dumps(table["template"]))
    live = table_log.replay(template, [tuple(r) for r in rows])
    _kept[key] = (rows, live)
    return live


def answer(table: dict[str, Any], write: dict[str, Any], lang: str = "en", at: str | None = None,
           sentences: tuple[str, ...] | None = None) -> dict[str, Any]:
    """``{"status", "body", "row"}``: the server's status and JSON body for ``write`` (``{"path":
    "dgn"|"mode"|"call"|"state"|"options", "body": the POST's object, "hands": the page's
    ``?hands=`` key, "tile": for options}``) on ``table`` (the state's ``"log"``), in ``lang``;
    ``row``: the log row an accepted write adds (the page keeps it, and sends the write later), else
    ``None``.  ``at``: the write's time (default now); ``sentences``: the patterns to translate with
    (default the server's, from :data:`PHRASES_FILE`)."""
    patterns = sentences if sentences is not None else _server_phrases()
    say: Callable[[str], str] = lambda text: phrases.translate(text, lang, patterns, i18n.FOLDERS)
    path = write.get("path")
    known = write.get("hands")
    if path not in (*table_log.OFFLINE, "state", "options"):  # a confirmation, the director's: the server's
        return {"status": table_log.ServerOnly.status, "row": None,
                "body": {"error": say(table_log.SERVER_ONLY), "request_id": ""}}
    facts = Facts.from_json(table["facts"])
    live = _live(table)
    row = None
    try:
        if path == "state":
            out: Any = table_log.state(facts, live, [])
        elif path == "options":
            out = table_log.options(live, write.get("tile"))
        else:
            body = write.get("body") if isinstance(write.get("body"), dict) else {}
            rev = body.get("rev")
            # (the log's row after an old revision the write names: a line another phone recorded
            # first is answered taken, adding no row, as the server answers it)
            logged = next((r for r in table["rows"] if isinstance(rev, int) and r[0] == rev + 1), None)
            out, made = table_log.write(facts, live, str(path), body, at or _now(), logged)
            if made is not None:
                row = list(made)
                key = next(k for k, (_, kept) in _kept.items() if kept is live)
                _kept[key] = (_kept[key][0] + [row], live)
        status, data = 200, table_log.translated(table_log.since(out, known), lang, say, i18n.DEFAULT)
    except VenueError as e:
        if path not in ("state", "options"):
            # As the server does after a refused write: the table is made again from its rows (a
            # refused request leaves nothing of itself in the game, but the session's working
            # state is not promised to be as it was: the server never carries it forward either).
            _forget(live)
        refused = table_log.refusal_body(e, "", known)
        status, data = e.status, table_log.translated({**refused, "error": say(refused["error"])}, lang, say,
                                                      i18n.DEFAULT)
    except (TournamentError, DomrecError) as e:  # the operations' own refusals, answered as the server does
        _forget(live)
        status, data = 422, table_log.translated({"error": say(one_line(str(e))), "request_id": ""}, lang, say,
                                                 i18n.DEFAULT)
    except Exception:
        _forget(live)  # whatever the write left, the next answer replays the table from its rows
        raise
    return {"status": status, "body": data, "row": row}


def _forget(live: Live) -> None:
    for key in [k for k, (_, kept) in _kept.items() if kept is live]:
        del _kept[key]


def warm() -> None:
    """Import every engine and read the Spanish catalogs now (as the engine's worker boots), so that
    the first move answered offline costs a move, not the imports."""
    from domrec import games

    for game in games.MODULES:
        games.engine(game)
    phrases.translate("W passes", "es", _server_phrases(), i18n.FOLDERS)  # the catalogs read, the patterns made


def answer_json(table: str, write: str, lang: str = "en") -> str:
    """:func:`answer` with JSON text in and out: what the page's script calls."""
    return json.dumps(answer(json.loads(table), json.loads(write), lang), ensure_ascii=False)
