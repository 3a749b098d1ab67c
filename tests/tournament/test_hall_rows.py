"""The hall's standings made from kept rows: the same markup as the ``grid`` macro's own loop made,
whatever the values, however often a row is made again; and a public read's players and tables
read once, the same as read apart."""

from __future__ import annotations

from pathlib import Path

from markupsafe import Markup

from tournament import add_players, create_event, enter_manual, make_settings, pair_next_round
from tournament.event.public import public_data
from tournament.pages import public as pages

#: The rows of the ``grid`` macro as it made them before its rows were kept (one template loop).
LOOP = """
{%- for r in rows %}{% set link = links[loop.index0] if links else none %}<tr>
{%- for v in r %}<td{% if not compact %}{{ classes[loop.index0] }}{% endif %}>
{%- if link and loop.index0 == name_at %}<a href="{{ link }}">{{ v }}</a>{% elif loop.index0 == status_at %}{{ v|label }}{% else %}{{ v }}{% endif -%}
</td>{% endfor %}</tr>{% endfor -%}
"""


def _loop(lang: str, **values: object) -> str:
    env = pages.environment(lang)
    return env.from_string(LOOP).render(values)


def test_kept_rows_read_as_the_macros_loop_made_them() -> None:
    classes = [Markup(' class="n"'), Markup(""), Markup(' class="o name"'), Markup(' class="o"'), Markup("")]
    rows = [[1, "Ana <b>", 3.5, None, "active"], [2, "Bo & Co", 1, True, "withdrawn"],
            [2, "Bo & Co", 1.0, 1, "withdrawn"], [3, "\u202eeva", Markup("<i>x</i>"), 0, "active"],
            [4, "Zoe", 2, False, "active"]]
    links = ["/p/1?a=1&b=2", None, "/p/3", "/p/\"4\"", ""]
    for lang in ("en", "es"):
        label = pages.environment(lang).filters["label"]
        for compact in (False, True):
            for name_at, status_at in ((1, 4), (1, -1), (-1, -1), (2, 4)):
                for linked in (links, None):
                    want = _loop(lang, rows=rows, links=linked, classes=classes, compact=compact,
                                 name_at=name_at, status_at=status_at)
                    for _ in range(2):  # made, then taken from what is kept
                        got = pages.grid_rows(rows, linked, classes, compact, name_at, status_at, label, lang)
                        assert str(got) == want
    # 1, 1.0 and True are equal keys: each row still shows its own.
    got = str(pages.grid_rows([[1, 1], [1, 1.0], [1, True]], None, [], True, -1, -1, str, "en"))
    assert got == "<tr><td>1</td><td>1</td></tr><tr><td>1</td><td>1.0</td></tr><tr><td>1</td><td>True</td></tr>"


def test_a_rank_that_moves_is_shown_with_the_rows_kept(tmp_path: Path) -> None:
    store = create_event(tmp_path / "e.db", make_settings("Rows", "competitive", "rotating", seed=1))
    add_players(store, [f"P{i}" for i in range(16)])
    pair_next_round(store)
    site = pages.Site(served=True, recorded=frozenset())
    for k, scores in enumerate(({"NS": 100, "EW": 80}, {"NS": 60, "EW": 150}, {"NS": 100, "EW": 100}), 1):
        enter_manual(store, k, scores)
        data = public_data(store, hall=True)
        kept = pages.page_html({**data, "seq": k}, site, "standings", lang="en")  # rows kept from the last result
        pages._rows_made.clear()
        fresh = pages.page_html({**data, "seq": k}, site, "standings", lang="en")
        assert kept == fresh
    store.close()


def test_a_public_read_reads_players_and_tables_once_and_alike(tmp_path: Path) -> None:
    store = create_event(tmp_path / "e.db", make_settings("Once", "competitive", "rotating", seed=1))
    add_players(store, [f"P{i}" for i in range(8)])
    pair_next_round(store)
    enter_manual(store, 1, {"NS": 100, "EW": 80})
    apart = (store.players(), store.tables(), store.tables(1))
    with store.read_once():
        first = (store.players(), store.tables(), store.tables(1))
        first[0].append("changed by a caller")  # a copy each time: a caller's change stays its own
        again = (store.players(), store.tables(), store.tables(1))
    assert again == apart and first[1:] == apart[1:]
    assert store._once is None and not store.conn.in_transaction
    store.close()
