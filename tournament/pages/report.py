"""Reports people can read: one self-contained HTML page per event, and the data behind it.

:func:`event_data` gathers everything about an event as plain values
(settings, players, standings, every round's tables and results, every
stage's draw and how it stands); :func:`html_page` renders it as one HTML
file with inline CSS, no script and nothing fetched from elsewhere, laid out
for a phone, a desktop and print (see :data:`CSS`), and :func:`screen_page` as
the projector page (``report --screen``).  Every name goes through
:func:`html.escape`: a player's name is data, never markup.

Each section of a page is one small function (``_standings_html``, ``_stage_html``,
``_round_html``, …) and one line in :func:`html_page`: a new section is a new function.  No
template engine: the sections are a few lines each and escape every value through one helper,
so Jinja2's autoescaping would add a dependency and buy little; a template file per section
would also split each section's markup from the code that chooses what goes in it.

Each output carries the mark by which a later ``report``/``export`` knows it may replace
the file without ``--force`` (:mod:`domrec.output`): a generator meta tag in the page, a
``generator`` key first in the JSON export, and each CSV file's exact header.
"""

from __future__ import annotations

import csv
import datetime
import html
import json
from pathlib import Path
from typing import IO, Any, Iterable

from domrec import phrases
from domrec.output import Kind, first_line, marked

from tournament.event import feed, finals, stages
from tournament.i18n import FOLDERS, N_, translations
from tournament.pages import display
from tournament.pairing import brackets
from tournament.store.event_store import EventStore


REPORT_MARK = '<meta name="generator" content="domrec tournament report">'
#: ``tournament report``'s page.
REPORT = Kind("a page written by tournament report", marked(REPORT_MARK))
EXPORT_MARK = '"generator": "domrec tournament export"'
#: ``tournament export``'s JSON file.
EXPORT = Kind("a file written by tournament export", marked(EXPORT_MARK))


#: The words of the event's data that the pages show (round and bracket labels, a match's state,
#: where a bracket's place comes from, the standings' columns), as patterns
#: (:mod:`domrec.phrases`): the data and the exports keep them in English, a page in Spanish shows
#: them translated.
LABELS = (
    N_("Swiss round %(n)s"), N_("round %(n)s"), N_("final"), N_("semi-final"), N_("quarter-final"),
    N_("third-place game"), N_("losers' final"), N_("losers' round %(n)s"), N_("grand final"),
    N_("grand final reset"), N_("final table"), N_("final tables, game %(n)s"), N_("final, game %(n)s"),
    N_("round-robin round %(n)s"), N_("round-robin round %(n)s (leg %(n2)s)"), N_("places %(n)s-%(n2)s"),
    N_("waiting"), N_("due"), N_("decided"), N_("walkover"), N_("void"),
    N_("seed %(n)s"), N_("winner of %(word)s"), N_("loser of %(word)s"), N_("%(n)sst of %(word)s"),
    N_("%(n)snd of %(word)s"), N_("%(n)srd of %(word)s"), N_("%(n)sth of %(word)s"),
    N_("rank"), N_("name"), N_("no."), N_("W-D-L"), N_("diff"), N_("Buchholz"), N_("status"), N_("forfeits"),
    N_("byes"), N_("against"), N_("for"), N_("played"), N_("firsts"), N_("placement"), N_("score"), N_("wins"),
    N_("head-to-head"), N_("pair"), N_("place"), N_("id"), N_("place in the rounds"), N_("active"),
    N_("withdrawn"), N_("game"), N_("round / table"), N_("result"), N_("Group %(word)s"), N_("Round robin"),
)
#: How a ranking key reads under the standings ("ranked by wins, then diff").
RANKED_BY = {"efectividad": N_("efectividad (points for minus against)"),
             "effectiveness": N_("effectiveness (efectividad: points for minus against)"),
             "head-to-head": N_("head-to-head (results among the tied only)")}


class Words:
    """A page's words in one language: ``_`` the catalog's gettext (for the page's own text),
    ``label`` a label of the data (see :data:`LABELS`)."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self._ = translations(lang).gettext

    def label(self, text: Any) -> str:
        return phrases.translate(str(text), self.lang, LABELS, FOLDERS)


def csv_kind(text: str) -> Kind:
    """An export CSV file: recognised by its header, exactly the one about to be written."""
    return Kind("a CSV file written by tournament export with the same columns", first_line(text.partition("\n")[0]))


def export_json(data: dict[str, Any]) -> str:
    """The JSON export: :func:`event_data` under a first ``generator`` key."""
    return json.dumps({"generator": "domrec tournament export", **data}, ensure_ascii=False, indent=1) + "\n"


def event_data(store: EventStore) -> dict[str, Any]:
    """Everything about the event, as JSON-ready values (also the JSON export).  The parts the
    venue's feed serves too (the standings, the rounds) are made by the feed's own functions
    (:mod:`tournament.event.feed`), so the two are the same data; the export adds the whole
    change log (``changes``) and the number of its last change (``latest_seq``).  Read in one
    read transaction: a write made meanwhile (the venue's, another command's) is in all of it or
    in none, so the log ends exactly where the rest of the data stands."""
    with store.reading():
        return _event_data(store)


def _event_data(store: EventStore) -> dict[str, Any]:
    s = store.settings
    players = store.players()
    teams = store.teams()
    team_names = {t.id: t.name for t in teams}
    stage_list = stages.load(store)
    rounds = feed.rounds(store)
    log = feed.all_changes(store)
    # A rotating event's final is not added into the standings of its rounds: both are shown.
    standings = feed.standings(store)
    stage_docs = []
    for x in stage_list:
        unit_names = stages.side_names(store, x)
        doc: dict[str, Any] = {"id": x.id, "name": x.name, "format": x.format, "first_round": x.offset + 1,
                               "seeds": [{"seed": i + 1, "id": u, "name": unit_names.get(u, str(u)),
                                          **({"players": list(x.sides[u - 1])} if x.sides else {})}
                                         for i, u in enumerate(x.seeds)], "options": {
                                   k: v for k, v in x.options.items() if k not in ("seeds", "counts")}}
        if x.knockout:
            state = stages.state_of(store, x)
            doc["matches"] = [{"key": m.match.key, "round": x.event_round(m.match.round),
                               "label": state.bracket.round_labels[m.match.round - 1], "status": m.status,
                               "sides": [None if u is None else ("bye" if u == brackets.NOBODY else
                                                                 unit_names.get(u, str(u))) for u in m.sides],
                               # A side may be *named* "bye": whether a place is a bye is this flag.
                               "byes": [u == brackets.NOBODY for u in m.sides],
                               "from": [src.text() for src in m.match.sources],
                               "wins": list(m.wins),
                               "order": [unit_names.get(u, str(u)) for u in m.order]} for m in state.matches]
            doc["text"] = brackets.draw_text(state, unit_names)
            places = brackets.placings(state)
            doc["placings"] = [{"place": p, "id": u, "name": unit_names.get(u, str(u))}
                               for u, p in sorted(places.items(), key=lambda kv: (kv[1], kv[0]))]
            doc["champion"] = unit_names.get(state.champion) if state.champion is not None else None
        elif x.format == stages.ROUND_ROBIN:
            sched = x.schedule()
            doc["groups"] = []
            for gi, members in enumerate(sched.groups):
                gt = stages.group_standings(store, x, gi)
                doc["groups"].append({"group": group_label(gi, len(sched.groups)),
                                      "standings": [gt.row_dict(r) for r in gt.rows]})
        if x.format == stages.FINAL_TABLE or x.sides:
            doc.update(finals.stage_doc(store, x))
        stage_docs.append(doc)
    return {"event": {"name": s.name, "uuid": store.uuid, "game": s.game, "variant": s.variant,
                      "options": s.options, "format": s.format, "table_size": s.table_size, "seed": s.seed,
                      "time_limit": s.time_limit, "forfeit_score": s.forfeit_score, "tiebreaks": list(s.tiebreaks)},
            "generated_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "players": [{"id": p.id, "name": p.name, "pair": team_names.get(p.team) if p.team else None,
                         "from_round": p.entered, "withdrawn_from": p.withdrawn} for p in players],
            "standings": standings, "rounds": rounds, "stages": stage_docs,
            "feed_version": feed.FEED_VERSION, "latest_seq": log[-1]["seq"] if log else 0, "changes": log}


def group_label(index: int, count: int) -> str:
    from tournament.pairing.roundrobin import group_name
    return f"Group {group_name(index)}" if count > 1 else "Round robin"


#: The page's style.  Three layouts from one page: a screen (a table scrolls sideways in its own
#: box, never the page), a phone (the standings keep rank, name and the ranking columns; the others
#: are hidden there, and shown on a wider screen and in print), and print (A4 or Letter: every
#: column, a smaller type, no sticky or scrolling boxes, rows never split across pages).
CSS = """
*{box-sizing:border-box}
body{font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;padding:12px;color:#1b1b1b;
background:#fafafa;max-width:72rem;margin-inline:auto}
h1{font-size:1.5rem;margin:.2em 0}h2{font-size:1.2rem;margin:1.4em 0 .4em;border-bottom:2px solid #246}
h3{font-size:1rem;margin:1em 0 .3em}
.meta{color:#555;font-size:.9rem}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:.3em 0 1em}
table{border-collapse:collapse;font-size:.9rem;min-width:100%}
th,td{padding:.3em .5em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
th{background:#e8eef4;position:sticky;top:0}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.name{overflow-wrap:anywhere;min-width:6em}
.sc{display:block;font-variant-numeric:tabular-nums;white-space:nowrap;color:#246}
td.res{white-space:nowrap}
.prov{background:#fff3cd;padding:.4em .6em;border-radius:4px}
.bracket{display:flex;gap:.8em;overflow-x:auto;padding-bottom:.5em}
.col{min-width:11rem;flex:0 0 auto}
.match{background:#fff;border:1px solid #bcd;border-radius:4px;margin:.4em 0;padding:.3em .4em;font-size:.85rem;
overflow-wrap:anywhere}
.match .key{color:#777;font-size:.75rem}
.win{font-weight:700}.bye{color:#999;font-style:italic}
.champ{font-size:1.1rem;background:#e6f4ea;padding:.4em .6em;border-radius:4px}
.unv{color:#a60}
.narrow{display:none}
@media screen and (max-width:600px){body{padding:8px;font-size:15px}th,td{padding:.25em .35em}
th.n{white-space:normal;overflow-wrap:normal}
table.std .o{display:none}.narrow{display:block}}
@media print{@page{margin:12mm}
body{font-size:9pt;background:#fff;max-width:none;padding:0}nav,.narrow{display:none}
.scroll{overflow:visible}table{font-size:8.5pt;min-width:0;width:100%}th{position:static}
th,td{padding:.15em .3em}tr,.match{break-inside:avoid}h2,h3{break-after:avoid}
.bracket{flex-wrap:wrap;overflow:visible}.col{min-width:9rem}
td.name,.match{overflow-wrap:normal;word-break:normal;hyphens:manual}}
"""

#: The projector page (``report --screen``): large type, read from the back of the room.
SCREEN_CSS = """
*{box-sizing:border-box}
body{font:28px/1.35 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;padding:.6em 1em;color:#111;
background:#fff}
h1{font-size:1.6em;margin:0 0 .2em}h2{font-size:1.25em;margin:1em 0 .3em;border-bottom:4px solid #246}
.meta{color:#444;font-size:.8em}
.find{columns:22em auto;column-gap:2em;list-style:none;padding:0;margin:0}
.find li{break-inside:avoid;padding:.15em 0;border-bottom:1px solid #ccc;overflow-wrap:anywhere}
.find .who{font-weight:700}.find .where{white-space:nowrap}.find .with{color:#444;font-size:.85em}
table{border-collapse:collapse;width:100%}
th,td{padding:.15em .5em;border-bottom:1px solid #ccc;text-align:left}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.name{overflow-wrap:anywhere}
.prov{background:#fff3cd;padding:.2em .5em}
.scroll{overflow-x:auto}
@media (max-width:800px){body{font-size:18px;padding:.4em}.o{display:none}th,td{padding:.15em .3em}}
.champ{background:#e6f4ea;padding:.2em .4em;border-radius:6px;border-bottom:0}
"""


def _e(x: Any) -> str:
    return html.escape("" if x is None else str(x), quote=True)


def _table(columns: list[str], rows: list[list[Any]], numeric: set[str] = frozenset(),  # type: ignore[assignment]
           optional: set[str] = frozenset(), css: str = "",  # type: ignore[assignment]
           words: Words | None = None, rules: list[str] | None = None) -> str:
    """A table in its own scrolling box.  ``numeric`` columns are right-aligned and never wrap;
    ``optional`` ones may be hidden on a phone (class ``o``); a ``name`` column wraps anywhere.
    The headers are shown in the language of ``words``.

    With ``rules`` (the standings: a row a player, a thousand rows in a big event) the body's
    cells carry no class: the table gets a class of its own and ``rules`` the CSS that styles its
    columns by position, for the page's head.  A row is then its values and little else."""
    words = words or Words()

    def names(c: str) -> list[str]:
        return (["n"] if c in numeric else []) + (["o"] if c in optional else []) + (["name"] if c == "name" else [])

    def cls(c: str) -> str:
        return f' class="{" ".join(names(c))}"' if names(c) else ""

    head = "".join(f"<th{cls(c)}>{_e(words.label(c))}</th>" for c in columns)
    cell = (lambda c: "") if rules is not None else cls
    body = "".join("<tr>" + "".join(f"<td{cell(c)}>{_e(words.label(v) if c == 'status' else v)}</td>"
                                    for c, v in zip(columns, r)) + "</tr>" for r in rows)
    classes = [css] if css else []
    if rules is not None:
        own = f"t{len(rules) + 1}"
        classes.append(own)
        rules.append(_column_rules(own, [names(c) for c in columns]))
    table_cls = f' class="{" ".join(classes)}"' if classes else ""
    return f'<div class="scroll"><table{table_cls}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _column_rules(table: str, kinds: list[list[str]]) -> str:
    """The CSS giving the cells of ``table``'s columns what the classes ``n``, ``name`` and ``o``
    give a cell (see :data:`CSS`): the columns by their place (``td:nth-child(3)``)."""
    def cells(kind: str) -> str:
        return ",".join(f":nth-child({i})" for i, k in enumerate(kinds, start=1) if kind in k)

    out = []
    if cells("n"):
        out.append(f"table.{table} td:is({cells('n')}){{text-align:right;font-variant-numeric:tabular-nums;"
                   f"white-space:nowrap}}")
    if cells("name"):
        out.append(f"table.{table} td:is({cells('name')}){{overflow-wrap:anywhere;min-width:6em}}")
        out.append(f"@media print{{table.{table} td:is({cells('name')}){{overflow-wrap:normal;word-break:normal;"
                   f"hyphens:manual}}}}")
    if cells("o"):
        out.append(f"@media screen and (max-width:600px){{table.std.{table} td:is({cells('o')}){{display:none}}}}")
    return "\n".join(out)


def _document(title: str, css: str, body: list[str], lang: str = "en") -> str:
    return "\n".join(["<!DOCTYPE html>", f'<html lang="{_e(lang)}"><head><meta charset="utf-8">',
                      '<meta name="viewport" content="width=device-width, initial-scale=1">', REPORT_MARK,
                      f"<title>{_e(title)}</title><style>{css}</style></head><body>", *body, "</body></html>"])


#: An event's format as the report names it.
FORMAT_NAMES = {"pairs": N_("pairs, Swiss rounds"), "individual": N_("individual tables"),
                "rotating": N_("rotating partners")}


def _event_line(data: dict[str, Any], words: Words | None = None, format_name: str | None = None) -> str:
    words = words or Words()
    _ = words._
    ev = data["event"]
    parts = [_e(ev["game"]) + (" (" + _e(ev["variant"]) + ")" if ev["variant"] else ""),
             _e(format_name if format_name is not None else _(FORMAT_NAMES.get(ev["format"], ev["format"]))),
             _e(_("tables of %(n)s") % {"n": ev["table_size"]}), _e(_("%(n)s players") % {"n": len(data["players"])})]
    if ev.get("time_limit"):
        parts.append(_e(_("time limit %(n)s minutes a game") % {"n": ev["time_limit"]}))
    parts.append(_e(_("report of %(when)s") % {"when": data["generated_at"]}))
    return f'<p class="meta">{" · ".join(parts)}</p>'


def html_page(data: dict[str, Any], replays: dict[tuple[int, int], str] | None = None,
              rounds: dict[int, str] | None = None, lang: str = "en") -> str:
    """The report in ``lang``: one section a part of the event (header, standings, stages, rounds),
    each made by its own function below, so that a new section is a new function and one line here.
    ``replays`` links a table's result to its replay page ((round, table) -> address); with
    ``rounds`` (round -> address, see :func:`write_rounds`) each round is a link to its own page
    instead of its table."""
    words = Words(lang)
    _ = words._
    ev = data["event"]
    rules: list[str] = []  # the standings tables' column styles, for the head
    out = [f"<h1>{_e(ev['name'])}</h1>", _event_line(data, words, ev["format"] if lang == "en" else None)]
    standings, rounds_title = _("Standings"), _("Rounds")
    nav = [f'<a href="#standings">{_e(standings)}</a>']
    if data["stages"]:
        nav.append(f'<a href="#stages">{_e(stages_title(data["stages"], words))}</a>')
    nav.append(f'<a href="#rounds">{_e(rounds)}</a>')
    out.append(f'<nav class="meta">{" · ".join(nav)}</nav>')
    for stage in data["stages"]:
        if stage.get("champion"):
            champion = _("Champion (%(stage)s):") % {"stage": stage["name"]}
            out.append(f'<p class="champ">{_e(champion)} <strong>{_e(stage["champion"])}</strong></p>')
    out.append(_standings_html(data["standings"], words=words, rules=rules))
    if data["stages"]:
        out.append(f'<h2 id="stages">{_e(stages_title(data["stages"], words))}</h2>')
        for stage in data["stages"]:
            out.append(_stage_html(stage, words, rules))
    out.append(f'<h2 id="rounds">{_e(rounds_title)}</h2>')
    if rounds is not None:
        out.append(_rounds_list(data["rounds"], rounds, words))
    else:
        for r in reversed(data["rounds"]):
            out.append(_round_html(r, replays, words))
    out.append("</body></html>")
    head = ["<!DOCTYPE html>", f'<html lang="{_e(lang)}"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">', REPORT_MARK,
            f"<title>{_e(ev['name'])}</title><style>{CSS}{chr(10).join(rules)}\n</style></head><body>"]
    return "\n".join(head + out)


def _round_heading(r: dict[str, Any], words: Words) -> str:
    """"Round 3", or "Round 5 · Final" for a round of a later stage, in the page's language."""
    return words._("Round %(n)s") % {"n": r["round"]} + ("" if r["stage"] == 1 else f" · {words.label(r['label'])}")


def _rounds_list(rounds: list[dict[str, Any]], links: dict[int, str], words: Words | None = None) -> str:
    """The rounds as links to their pages (the latest first), each with its count of tables and results."""
    words = words or Words()
    items = []
    for r in reversed(rounds):
        heading = _round_heading(r, words)
        done = sum(1 for t in r["tables"] if t["result"] is not None)
        count = len(r["tables"])
        what = (words._("%(n)s table, %(done)s with a result") if count == 1
                else words._("%(n)s tables, %(done)s with a result")) % {"n": count, "done": done}
        items.append(f'<li><a href="{_e(links[r["round"]])}">{_e(heading)}</a> <span class="meta">{_e(what)}</span></li>')
    return f'<ul class="rounds">{"".join(items)}</ul>'


#: Past this many bytes of rounds' tables, ``tournament report`` gives each round a page of its own
#: (:func:`write_rounds`): a club's evening stays one page; a thousand players' report stays light.
ROUNDS_ON_THE_PAGE = 100_000


def rounds_apart(data: dict[str, Any], replays: dict[tuple[int, int], str] | None = None) -> bool:
    """Would the rounds' tables weigh more than :data:`ROUNDS_ON_THE_PAGE` on the report's page?"""
    return sum(len(_round_html(r, replays).encode("utf-8")) for r in data["rounds"]) > ROUNDS_ON_THE_PAGE


def rounds_folder(report: Path) -> Path:
    """Where a report's round pages go: beside it, in a folder named after it (``club-rounds/``)."""
    return report.with_name(f"{report.stem}-rounds")


def round_page(data: dict[str, Any], r: dict[str, Any], replays: dict[tuple[int, int], str] | None = None,
               report: str = "", lang: str = "en") -> str:
    """One round's tables as a page of its own, with a link back to the report (``report``, its
    address from the round's page) and its results' links to their replay pages."""
    words = Words(lang)
    ev = data["event"]
    back = words._("The report: standings and rounds")
    body = [f"<h1>{_e(ev['name'])}</h1>", f'<nav class="meta"><a href="{_e(report)}">{_e(back)}</a></nav>',
            _round_html(r, replays, words), "</body></html>"]
    return _document(f"{ev['name']} · {_round_heading(r, words)}", CSS, body, lang)


def write_rounds(data: dict[str, Any], report: Path, replays: dict[tuple[int, int], str],
                 force: bool = False, lang: str = "en") -> dict[int, str]:
    """Each round's page (:func:`round_page`) written beside ``report``; returns round -> the link
    from the report to it.  As :func:`write_replays`: every file checked before any is written
    (one domrec did not write is replaced only with ``force``; a link, a folder or a device never)."""
    from urllib.parse import quote

    from domrec import output as outputs

    folder = rounds_folder(report)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise outputs.NotReplaced(f"{folder} is not a folder: the round pages cannot be written there; "
                                  f"nothing was written")
    targets = [(r, folder / f"round-{r['round']}.html") for r in data["rounds"]]
    for _, path in targets:
        try:
            outputs.check(path, REPORT, force)
        except outputs.OutputError as e:
            raise type(e)(f"{e.message}; nothing was written") from None
    try:
        folder.mkdir(exist_ok=True)
    except OSError as e:
        raise outputs.WriteFailed(f"cannot make {folder}: {e.strerror}; nothing was written") from None
    from_round = {key: f"../{link}" for key, link in (replays or {}).items()}  # the replays' folder is the report's sibling
    back = f"../{quote(report.name)}"
    links = {}
    for r, path in targets:
        outputs.write_text(path, round_page(data, r, from_round, back, lang), REPORT, force)
        links[r["round"]] = f"{quote(folder.name)}/{quote(path.name)}"
    return links


def _standings_rows(table: dict[str, Any], keep: Iterable[str] | None = None) -> tuple[list[str], list[list[Any]]]:
    """The standings as people read them (:func:`tournament.pages.display.display_row`); ``keep``: only
    these columns (the projector page)."""
    shown = [display.display_row(r, table["tiebreaks"]) for r in table["standings"]]
    columns = list(shown[0])
    if keep is not None:
        wanted = set(keep)
        columns = [c for c in columns if c in wanted]
    return columns, [[r[c] for c in columns] for r in shown]


def _ranking_columns(table: dict[str, Any]) -> set[str]:
    return display.ranking_columns(table["tiebreaks"])


def _standings_html(table: dict[str, Any], heading: str = "h2", words: Words | None = None,
                    rules: list[str] | None = None) -> str:
    words = words or Words()
    _ = words._
    rows = table["standings"]
    title = _("Standings after round %(n)s") % {"n": table["through_round"]}
    parts = [f'<{heading} id="standings">{_e(title)}</{heading}>']
    if table["provisional"]:
        missing = ", ".join(_("round %(n)s: %(missing)s") % {"n": r, "missing": n} for r, n in table["missing"].items())
        line = _("Provisional: results still missing (%(missing)s)") % {"missing": missing}
        parts.append(f'<p class="prov">{_e(line)}</p>')
    if not rows:
        nobody = _("No players yet.")
        parts.append(f"<p>{_e(nobody)}</p>")
        return "".join(parts)
    columns, cells = _standings_rows(table)
    ranking = _ranking_columns(table)
    numeric = {c for c in columns if not display.is_text_column(c)}
    parts.append(_table(columns, cells, numeric, {c for c in columns if c not in ranking}, "std", words, rules))
    hidden = [words.label(c) for c in columns if c not in ranking]
    if hidden:
        line = _("On a wider screen and in print: %(columns)s.") % {"columns": ", ".join(hidden)}
        parts.append(f'<p class="meta narrow">{_e(line)}</p>')
    if words.lang == "en":
        ranked = table.get("ranked_by") or "ranked by " + ", then ".join(table["tiebreaks"])
    else:
        ranked = _("ranked by %(keys)s") % {"keys": _(", then ").join(
            _(RANKED_BY[k]) if k in RANKED_BY else words.label(k) for k in table["tiebreaks"])}
    record = " " + _("W-D-L: games won, drawn, lost.") if display.RECORD in columns else ""
    parts.append(f'<p class="meta">{_e(ranked[:1].upper() + ranked[1:])}.{_e(record)}</p>')
    return "".join(parts)


def stages_title(stages: list[dict[str, Any]], words: Words | None = None) -> str:
    """The heading over an event's stages, naming what they are: a final of a rotating event is
    not a "knockout and round robin"."""
    _ = (words or Words())._
    kinds = []
    for stage in stages:
        kind = ("Final" if stage.get("final") or "final_tables" in stage
                else "Knockout" if "matches" in stage else "Round robin")
        if kind not in kinds:
            kinds.append(kind)
    names = {"Final": (_("Final"), _("final")), "Knockout": (_("Knockout"), _("knockout")),
             "Round robin": (_("Round robin"), _("round robin"))}
    if len(kinds) == 1:
        return names[kinds[0]][0]
    return _("%(kinds)s and %(last)s") % {"kinds": ", ".join(names[k][0] for k in kinds[:-1]),
                                          "last": names[kinds[-1]][1]}


def _stage_html(stage: dict[str, Any], words: Words | None = None, rules: list[str] | None = None) -> str:
    words = words or Words()
    _ = words._
    title = _("%(stage)s (from round %(n)s)") % {"stage": stage["name"], "n": stage["first_round"]}
    parts = [f'<h3>{_e(title)}</h3>']
    if "matches" in stage:
        bye = _("bye")
        cols: dict[str, list[dict[str, Any]]] = {}
        for m in stage["matches"]:
            cols.setdefault(m["label"], []).append(m)
        parts.append('<div class="bracket">')
        for label, ms in cols.items():
            parts.append(f'<div class="col"><strong>{_e(words.label(label))}</strong>')
            for m in ms:
                lines = []
                byes = m.get("byes") or [side == "bye" for side in m["sides"]]
                for i, (side, src, is_bye) in enumerate(zip(m["sides"], m["from"], byes)):
                    if side is None:
                        lines.append(f'<div class="bye">{_e(words.label(src))}</div>')
                    elif is_bye:
                        lines.append(f'<div class="bye">{_e(bye)}</div>')
                    else:
                        won = m["order"] and m["order"][0] == side and m["status"] == "decided"
                        score = f" ({m['wins'][i]})" if len(m["wins"]) == 2 and max(m["wins"]) > 1 else ""
                        place = ""
                        if len(m["sides"]) > 2 and side in m["order"]:
                            place = f"{m['order'].index(side) + 1}. "
                        lines.append(f'<div class="{"win" if won else ""}">{place}{_e(side)}{_e(score)}</div>')
                status = words.label(m["status"])
                parts.append(f'<div class="match"><span class="key">{_e(m["key"])} · {_e(status)}</span>'
                             f'{"".join(lines)}</div>')
            parts.append("</div>")
        parts.append("</div>")
        if stage.get("placings") and not stage.get("final"):
            parts.append(_table(["place", "name"], [[p["place"], p["name"]] for p in stage["placings"]], {"place"},
                                words=words))
    if stage.get("final"):
        parts.append(_final_html(stage, words))
    for g in stage.get("groups", []):
        parts.append(f"<h3>{_e(words.label(g['group']))}</h3>")
        if g["standings"]:  # as the standings read: W-D-L, the ranking columns first (the rest hidden on a phone)
            keys = g.get("tiebreaks") or [k for k in ("wins", "diff", "for", "placement", "score")
                                          if k in g["standings"][0]]
            table = {"standings": g["standings"], "tiebreaks": keys}
            columns, cells = _standings_rows(table)
            parts.append(_table(columns, cells, {c for c in columns if not display.is_text_column(c)},
                                {c for c in columns if c not in _ranking_columns(table)}, "std", words, rules))
    return "".join(parts)


def _final_html(stage: dict[str, Any], words: Words | None = None) -> str:
    """A rotating event's final: each final table's games and ranking, or the placings of a
    knockout of pairs (its bracket is drawn like any other)."""
    words = words or Words()
    _ = words._
    parts = []
    for t in stage.get("final_tables", []):
        title = _("Final table %(n)s (%(places)s)") % {"n": t["table"], "places": words.label(t["places"])}
        if not t["complete"]:
            title += _(" — provisional")
        parts.append(f"<h3>{_e(title)}</h3>")
        games = []
        for g in t["games"]:
            res = g["result"]
            if res is None:
                how = _("to play")
            else:
                how = f"NS {res['scores'].get('NS')}, EW {res['scores'].get('EW')}"
                how += " · " + (_("winner %(side)s") % {"side": res["winner"]} if res["winner"] else _("draw"))
                how += "" if res["verified"] else " " + _("(manual)")
            games.append([g["game"], f"{g['round']} / {g['table']}", g["NS"], g["EW"], how])
        parts.append(_table(["game", "round / table", "NS", "EW", "result"], games, {"game"}, words=words))
        keys = ["place", "id", "name", "played", "wins", "for", "against", "diff", "rounds_place"]
        columns = keys[:-1] + ["place in the rounds"]
        parts.append(_table(columns, [[r[c] for c in keys] for r in t["ranking"]], set(columns) - {"name"},
                            words=words))
    if "final_tables" not in stage and stage.get("placings"):
        parts.append(_table(["place", "id", "name", "pair"],
                            [[p["place"], p["id"], p["name"], p.get("pair", "")] for p in stage["placings"]],
                            {"place", "id"}, words=words))
    if stage.get("rounds_places"):
        parts.append('<p class="meta">' + _e(_("Drawn from the standings of the rounds: %(places)s.") % {
            "places": ", ".join(f"{p['place']}. #{p['id']} {p['name']}" for p in stage["rounds_places"])}) + "</p>")
    return "".join(parts)


def replays_folder(report: Path) -> Path:
    """Where a report's replay pages go: beside it, in a folder named after it
    (``club.html`` -> ``club-replays/``), so that two reports in one folder keep theirs apart."""
    return report.with_name(f"{report.stem}-replays")


def replay_name(round_no: int, table_no: int) -> str:
    return f"round-{round_no}-table-{table_no}.html"


def write_replays(store: EventStore, report: Path, force: bool = False,
                  lang: str = "en") -> dict[tuple[int, int], str]:
    """The replay page of every verified result (a result entered with its record), written
    beside ``report``; returns (round, table) -> the link from the report to it.

    Forfeits and scores typed in by hand have no record, so no page.  Every file is checked
    before any is written (:func:`domrec.output.check`: a file domrec did not write is replaced
    only with ``force``; a link, a folder or a device never), so a refusal writes nothing; the
    pages are then written one at a time (an event's pages are not held in memory together), in
    ``lang``.
    A page whose result has since been replaced or amended to a typed score is left in the
    folder, not deleted (nothing is destroyed); the report no longer links it."""
    from urllib.parse import quote

    from domrec import output as outputs, replay_page
    from domrec.errors import DomrecError
    from domrec.reader import loads

    folder = replays_folder(report)
    results = store.results()
    wanted = []
    for t in store.tables():
        res = results.get(t.id)
        if res is not None and res.kind == "record" and res.verified:
            wanted.append((t, res))
    if not wanted:
        return {}
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise outputs.NotReplaced(f"{folder} is not a folder: the replay pages cannot be written there; "
                                  f"nothing was written")
    targets = [(t, res, folder / replay_name(t.round, t.number)) for t, res in wanted]
    for _, _, path in targets:
        try:
            outputs.check(path, outputs.REPLAY, force)
        except outputs.OutputError as e:
            raise type(e)(f"{e.message}; nothing was written") from None
    try:
        folder.mkdir(exist_ok=True)
    except OSError as e:
        raise outputs.WriteFailed(f"cannot make {folder}: {e.strerror}; nothing was written") from None
    links = {}
    for t, res, path in targets:
        link = f"{quote(folder.name)}/{quote(path.name)}"
        if res.record_hash and _already_written(path, replay_page.identity_mark(res.record_hash, lang)):
            links[(t.round, t.number)] = link  # the same record, drawn by the same edition: kept
            continue
        text = store.record_text(res.id)
        if text is None:
            continue
        try:
            record = loads(text)
        except DomrecError:  # a damaged stored record: `tournament check` reports it; no page
            continue
        page = replay_page.page(record, f"round {t.round} table {t.number}", res.record_hash, lang=lang)
        outputs.write_text(path, page, outputs.REPLAY, force)
        links[(t.round, t.number)] = link
    return links


def _already_written(path: Path, mark: str) -> bool:
    """``path`` is a replay page domrec wrote of the record ``mark`` names, by this edition."""
    from domrec import output as outputs

    try:
        return path.is_file() and not path.is_symlink() and outputs.REPLAY.own is not None and \
            outputs.REPLAY.own(path) and outputs.marked(mark)(path)
    except OSError:
        return False


def _round_html(r: dict[str, Any], replays: dict[tuple[int, int], str] | None = None,
                words: Words | None = None) -> str:
    """A round: a row a table, a column a side (in seating order) with its players and score; a
    result entered with its record links to its replay page (:func:`write_replays`)."""
    words = words or Words()
    _ = words._
    parts = [f"<h3>{_e(_round_heading(r, words))}</h3>"]
    sides: list[str] = []
    for t in r["tables"]:
        for side in sides_in_seating_order(t["seats"]):
            if side not in sides:
                sides.append(side)
    has_match = any(t["match"] for t in r["tables"])
    table_word, match_word, result_word = _("table"), _("match"), _("result")
    head = "".join([f"<th class=\"n\">{_e(table_word)}</th>", f"<th>{_e(match_word)}</th>" if has_match else "",
                    *(f"<th>{_e(side)}</th>" for side in sides), f"<th>{_e(result_word)}</th>"])
    body = []
    for t in r["tables"]:
        res = t["result"]
        cells = [f'<td class="n">{_e(t["table"])}</td>']
        if has_match:
            cells.append(f"<td>{_e(t['match'] or '')}</td>")
        for side in sides:
            who = [s for s in t["seats"] if s["side"] == side]
            names = "<br>".join(f'{_e(s["seat"])} {_e(s["name"])}' if len(who) > 1 or s["seat"] != side
                                else _e(s["name"]) for s in who)
            score = ""
            if res is not None and side in res["scores"]:
                score = f'<span class="sc">{_e(res["scores"][side])}</span>'
            won = res is not None and res["winner"] == side
            cells.append(f'<td class="name{" win" if won else ""}">{names}{score}</td>')
        if res is None:
            result = _("to play")
        else:
            result = _("%(side)s won") % {"side": res["winner"]} if res["winner"] else _("draw")
            if res.get("forfeit"):
                result += " " + _("(forfeit: %(absent)s did not play)") % {"absent": ", ".join(res["forfeit"])}
            elif not res["verified"]:
                result += " " + _("(manual)")
        link = (replays or {}).get((r["round"], t["table"]))
        replay_word = _("replay")
        replay = f' <a class="replay" href="{_e(link)}">{_e(replay_word)}</a>' if link else ""
        cells.append(f'<td class="res">{_e(result)}{replay}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    parts.append(f'<div class="scroll"><table class="rnd"><thead><tr>{head}</tr></thead>'
                 f'<tbody>{"".join(body)}</tbody></table></div>')
    if r["byes"]:
        line = _("Bye: %(names)s") % {"names": ", ".join(b["name"] for b in r["byes"])}
        parts.append(f'<p class="meta">{_e(line)}</p>')
    return "".join(parts)


def sides_in_seating_order(seats: list[dict[str, Any]]) -> list[str]:
    """A table's sides in the order they sit (N before E: NS before EW), not alphabetically."""
    return list(dict.fromkeys(s["side"] for s in seats))


def find_your_table(r: dict[str, Any]) -> list[dict[str, Any]]:
    """A round's seating by player name: name, table, seat, partners (and byes), sorted by name
    the way people look themselves up (case and accents aside)."""
    import unicodedata

    out = []
    for t in r["tables"]:
        for s in t["seats"]:
            partners = [o["name"] for o in t["seats"] if o["side"] == s["side"] and o["id"] != s["id"]]
            out.append({"name": s["name"], "table": t["table"], "seat": s["seat"], "partners": partners,
                        "match": t["match"]})
    for b in r["byes"]:
        out.append({"name": b["name"], "table": None, "seat": None, "partners": [], "match": None})

    def key(row: dict[str, Any]) -> tuple[str, str]:
        plain = "".join(c for c in unicodedata.normalize("NFKD", row["name"]) if not unicodedata.combining(c))
        return plain.casefold(), row["name"]

    return sorted(out, key=key)


def current_round(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The round being played now: the first with a table still to play (a final seats all its
    games at once, in rounds of their own, so the last round paired may not have begun), else
    the last round."""
    return next((r for r in rounds if any(t["result"] is None for t in r["tables"])), rounds[-1])


def screen_page(data: dict[str, Any], lang: str = "en") -> str:
    """The projector page (``report --screen``) in ``lang``: the current round's seating in large
    type, sorted by player name ("find your table"), then the standings."""
    words = Words(lang)
    _ = words._
    ev = data["event"]
    out = [f"<h1>{_e(ev['name'])}</h1>"]
    # The end of the evening: once a final (or a knockout) has its champion, the room reads that first.
    for stage in data.get("stages", ()):
        if stage.get("champion"):
            champion = _("Champion (%(stage)s):") % {"stage": stage["name"]}
            out.append(f'<h2 class="champ">{_e(champion)} {_e(stage["champion"])}</h2>')
    if not data["rounds"]:
        nothing = _("No round has been paired yet.")
        out.append(f"<p>{_e(nothing)}</p>")
    else:
        r = current_round(data["rounds"])
        label = _("Round %(n)s") % {"n": r["round"]} + ("" if r["stage"] == 1 else f" · {words.label(r['label'])}")
        heading = _("%(round)s: find your table") % {"round": label}
        out.append(f"<h2>{_e(heading)}</h2>")
        items = []
        for row in find_your_table(r):
            if row["table"] is None:
                where, partner = _("bye"), ""
            else:
                where = _("table %(n)s · %(seat)s") % {"n": row["table"], "seat": row["seat"]}
                with_them = _("with %(names)s") % {"names": " & ".join(row["partners"])}
                partner = f'<span class="with"> {_e(with_them)}</span>' if row["partners"] else ""
            items.append(f'<li><span class="who">{_e(row["name"])}</span> → <span class="where">{_e(where)}</span>'
                         f"{partner}</li>")
        out.append(f'<ul class="find">{"".join(items)}</ul>')
    table = data["standings"]
    if table["standings"]:
        heading = _("Standings after round %(n)s") % {"n": table["through_round"]}
        out.append(f'<h2>{_e(heading)}</h2>')
        if table["provisional"]:
            line = _("Provisional: some results are still missing.")
            out.append(f'<p class="prov">{_e(line)}</p>')
        keep = _ranking_columns(table) | {"played", display.RECORD}
        columns, cells = _standings_rows(table, keep)
        out.append(_table(columns, cells, {c for c in columns if not display.is_text_column(c)},
                          {c for c in columns if c not in _ranking_columns(table)}, words=words))
    out.append(_event_line(data, words))
    return _document(ev["name"], SCREEN_CSS, out, lang)


#: What makes a spreadsheet read a CSV cell as a formula (or hide what follows): OWASP's list.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A cell as written to CSV: text a spreadsheet would run as a formula (a player named
    ``=HYPERLINK(…)``, ``+x``, ``-x``, ``@x``, or starting with a tab or carriage return) gets a
    leading single quote, so that it is shown as text.  Numbers are left alone: ``-12`` in a
    ``diff`` column is a number, not a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def write_csv(stream: IO[str], columns: list[str], rows: Iterable[dict[str, Any]]) -> None:
    """Every CSV the tool writes (``standings``/``tables``/``players``/``ratings --csv``, ``export
    --csv``) goes through here, so that no cell of one can carry a formula."""
    writer = csv.DictWriter(stream, fieldnames=columns, lineterminator="\n", extrasaction="ignore")
    writer.writerow({c: csv_cell(c) for c in columns})
    for row in rows:
        writer.writerow({k: csv_cell(v) for k, v in row.items()})


def csv_tables(data: dict[str, Any]) -> dict[str, tuple[list[str], list[dict[str, Any]]]]:
    """The export as CSV tables: file stem -> (columns, rows)."""
    out: dict[str, tuple[list[str], list[dict[str, Any]]]] = {}
    out["players"] = (["id", "name", "pair", "from_round", "withdrawn_from"], data["players"])
    st_rows = data["standings"]["standings"]
    out["standings"] = (list(st_rows[0]) if st_rows else ["rank", "id", "name"], st_rows)
    seat_rows = []
    for r in data["rounds"]:
        for t in r["tables"]:
            res = t["result"] or {}
            for s in t["seats"]:
                seat_rows.append({"round": r["round"], "stage": r["stage"], "label": r["label"], "table": t["table"],
                                  "match": t["match"] or "", "game": t["game"] or "", "seat": s["seat"],
                                  "side": s["side"], "id": s["id"], "name": s["name"],
                                  "score": (res.get("scores") or {}).get(s["side"], ""),
                                  "winner": res.get("winner") or "", "verified": res.get("verified", ""),
                                  "result": ("forfeit" if res.get("forfeit") else "in") if res else ""})
        for b in r["byes"]:
            seat_rows.append({"round": r["round"], "stage": r["stage"], "label": r["label"], "table": "bye",
                              "match": "", "game": "", "seat": "", "side": "", "id": b["id"], "name": b["name"],
                              "score": "", "winner": "", "verified": "", "result": ""})
    out["tables"] = (["round", "stage", "label", "table", "match", "game", "seat", "side", "id", "name", "score",
                      "winner", "verified", "result"], seat_rows)
    match_rows = []
    place_rows = []
    for stage in data["stages"]:
        for m in stage.get("matches", []):
            match_rows.append({"stage": stage["id"], "match": m["key"], "round": m["round"], "label": m["label"],
                               "status": m["status"], "sides": " | ".join("" if x is None else x for x in m["sides"]),
                               "from": " | ".join(m["from"]), "wins": "-".join(map(str, m["wins"])),
                               "order": " | ".join(m["order"])})
        for p in stage.get("placings", []):
            place_rows.append({"stage": stage["id"], **p})
    out["matches"] = (["stage", "match", "round", "label", "status", "sides", "from", "wins", "order"], match_rows)
    out["placings"] = (["stage", "place", "id", "name"], place_rows)
    # The change log, a row a change; its data as JSON text (each kind's data has its own fields).
    out["changes"] = (["seq", "at", "kind", "round", "table", "data"],
                      [{**c, "round": "" if c["round"] is None else c["round"],
                        "table": "" if c["table"] is None else c["table"],
                        "data": json.dumps(c["data"], ensure_ascii=False, sort_keys=True)}
                       for c in data.get("changes", [])])
    return out
