"""The hub's pages and feed, made from what a venue sends (issue 41), without a NATS server: the
messages :func:`tournament.web.upstream.outgoing` makes, taken by :class:`tournament.web.hub.EventCache`,
give the venue's own pages (the same bytes, but for the links under ``/e/ID``), its feed, its change log,
each confirmed game's record; nothing private is in them; a message sent twice changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournament import enter_manual, open_event, pair_next_round
from tournament.event import feed
from tournament.event.public import public_data
from tournament.event.simulate import simulate_event
from tournament.event.venue import links
from tournament.pages import public as pages
from tournament.web import relay
from tournament.web.hub import EventCache
from tournament.web.upstream import outgoing


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hub") / "club.db"
    simulate_event(path, "competitive", "rotating", 16, 1, seed=5)
    with open_event(path) as store:
        pair_next_round(store)
        links(store, "http://127.0.0.1:8000")  # the venue's keys and PINs: made, and never sent
        enter_manual(store, 2, {"NS": 150, "EW": 90})
    return path


def fed(path: Path, event: str, sent: int = 0, revision: int | None = None) -> tuple[EventCache, list]:
    cache = EventCache(event)
    with open_event(path) as store:
        sent_messages = list(outgoing(store, event, sent, revision, {"club": "Club", "federation": "FED"}))
    for m in sent_messages:
        cache.take(m.subject, m.body, m.headers)
    return cache, sent_messages


def test_the_hub_makes_the_venues_pages_and_feed(event: Path) -> None:
    with open_event(event) as store:
        uuid = relay.event_id(store.uuid)
        data = public_data(store, hall=True)
        everything = feed.all_changes(store)
        standings = feed.standings(store)
        rounds = feed.rounds(store, withhold=True)
        record = feed.game(store, 1, 1)
    cache, _ = fed(event, uuid)
    assert [cache.changes[s] for s in sorted(cache.changes)] == everything
    assert cache.changes_after(0, None)["changes"] == everything
    assert cache.feed_doc("standings") == json.loads(json.dumps(standings))
    assert cache.feed_doc("rounds") == json.loads(json.dumps(rounds))
    assert json.loads(cache.games[(1, 1)][0]) == record
    recorded = frozenset((r["round"], t["table"]) for r in data["rounds"] for t in r["tables"]
                         if t["result"] is not None and t["result"]["kind"] == "record")
    venue_site = pages.Site(served=True, recorded=recorded)
    hub_site = cache.site()
    assert hub_site.recorded == recorded and hub_site.root == f"/e/{uuid}"
    for page in ("index", "standings", "tables", "games", "crosstable"):
        venue = pages.page_html({**data, "seq": 7}, venue_site, page)
        hub = pages.page_html({**cache.data(), "seq": 7}, hub_site, page)
        assert hub.replace(f' data-live="/e/{uuid}/live"', '').replace(f'/e/{uuid}/', '/') == venue, page
    assert f'href="/e/{uuid}/players/' in pages.page_html({**cache.data(), "seq": 7}, hub_site, "standings")


def test_nothing_private_leaves_the_venue(event: Path) -> None:
    with open_event(event) as store:
        uuid = relay.event_id(store.uuid)
        secrets = [t["url"].rsplit("/", 1)[-1] for t in links(store, "http://127.0.0.1:8000")["tables"]]
        secrets.append(links(store, "http://127.0.0.1:8000")["director"].rsplit("/", 1)[-1])
    _, sent = fed(event, uuid)
    text = b"".join(m.body if not m.subject.endswith(".public") else json.dumps(relay.unpack(m.body)).encode()
                    for m in sent)
    assert secrets and not any(s.encode() in text for s in secrets)
    assert all(m.subject.startswith(f"domrec.event.{uuid}.") for m in sent)


def test_a_message_twice_is_taken_once_and_a_resend_sends_only_what_is_missing(event: Path) -> None:
    with open_event(event) as store:
        uuid = relay.event_id(store.uuid)
    cache, sent = fed(event, uuid)
    changes = [m for m in sent if m.change]
    assert not any(cache.take(m.subject, m.body, m.headers) for m in changes)
    assert len(cache.changes) == len(changes) == cache.latest
    last = changes[-1].seq
    with open_event(event) as store:
        assert list(outgoing(store, uuid, last, cache.revision)) == []  # the stream has it all
        enter_manual(store, 3, {"NS": 60, "EW": 200})
        more = list(outgoing(store, uuid, last, cache.revision))
    assert [m.seq for m in more if m.change] == list(range(last + 1, last + 1 + sum(m.change for m in more)))
    assert more[-1].subject.endswith(".public")


def test_a_message_of_another_event_is_refused() -> None:
    cache = EventCache("0123456789abcdef")
    with pytest.raises(relay.BadMessage):
        cache.take("domrec.event.fedcba9876543210.change.1", b'{"seq": 1}')
    with pytest.raises(relay.BadMessage):
        cache.take("domrec.event.0123456789abcdef.change.2", b'{"seq": 1}')
    assert cache.changes == {}


def test_the_pages_data_keeps_its_numbered_keys() -> None:
    doc = {"unit_of": {1: 2, 3: 3}, "paired_at": {1: "x"}, "rounds": [{"a": (1, 2)}], "_cache": {}}
    assert relay.unpack(relay.pack(doc)) == {"unit_of": {1: 2, 3: 3}, "paired_at": {1: "x"}, "rounds": [{"a": [1, 2]}]}


def test_a_league_adds_up_its_venues_events_on_the_hub(event: Path, tmp_path: Path) -> None:
    """Two venues' events in one league: the hub's league table sums each player's games over both
    (the same name, the same player), ranked by the league's tie-breaks; its page, in Spanish too."""
    from starlette.testclient import TestClient

    from tournament.event import league
    from tournament.web.hub import Hub

    other = tmp_path / "other.db"
    simulate_event(other, "competitive", "rotating", 16, 2, seed=9)
    hub = Hub("nats://127.0.0.1:1")
    docs = []
    for path in (event, other):
        with open_event(path) as store:
            uuid = relay.event_id(store.uuid)
            docs.append((uuid, feed.standings(store)))
            messages = list(outgoing(store, uuid, 0, None, {"league": "Liga Norte", "club": path.stem}))
        cache = hub.reader.events[uuid] = EventCache(uuid)
        for m in messages:
            cache.take(m.subject, m.body, m.headers)
    client = TestClient(hub)  # no lifespan: the hub serves what it holds, no NATS needed
    got = client.get("/api/v1/leagues/Liga Norte").json()
    assert got == json.loads(json.dumps(league.standings("Liga Norte", docs)))
    first = {r["player"]: r for r in docs[0][1]["players"]}
    second = {r["player"]: r for r in docs[1][1]["players"]}
    row = next(r for r in got["players"] if r["player"] in first and r["player"] in second)
    assert row["events"] == 2 and row["played"] == first[row["player"]]["played"] + second[row["player"]]["played"]
    assert [r["rank"] for r in got["players"]] == list(range(1, len(got["players"]) + 1))
    keys = [(r["won"], r["points_for"] - r["points_against"], r["points_for"]) for r in got["players"]]
    assert keys == sorted(keys, reverse=True)
    assert client.get("/api/v1/leagues").json()["leagues"][0]["events"] == sorted(d[0] for d in docs)
    assert client.get("/api/v1/leagues/Liga Norte?by=played,won").json()["tiebreaks"] == ["played", "won"]
    assert client.get("/api/v1/leagues/Liga Norte?by=luck").status_code == 422
    # A row a club: each venue's club (serve --club), its event's rows added up.
    clubs = client.get("/api/v1/leagues/Liga Norte?group=club").json()
    assert clubs["by"] == "club" and {r["player"] for r in clubs["players"]} == {event.stem, other.stem}
    for club, (_, doc) in zip((event.stem, other.stem), docs):
        club_row = next(r for r in clubs["players"] if r["player"] == club)
        assert club_row["events"] == 1 and club_row["won"] == sum(r["won"] for r in doc["players"])
    assert "<th>Club</th>" in client.get("/l/Liga Norte?group=club").text
    assert client.get("/api/v1/leagues/Liga Norte?group=town").status_code == 422
    # The federation names a league's tie-breaks; a reader may still ask for others.
    named = Hub("nats://127.0.0.1:1", league_tiebreaks=league.named_tiebreaks(["Liga Norte=played,diff"]))
    named.reader.events = hub.reader.events
    named_client = TestClient(named)
    assert named_client.get("/api/v1/leagues/Liga Norte").json()["tiebreaks"] == ["played", "diff"]
    assert named_client.get("/api/v1/leagues/Liga Norte?by=won").json()["tiebreaks"] == ["won"]
    with pytest.raises(Exception, match="NAME=won,diff,for"):
        league.named_tiebreaks(["Liga Norte"])
    # A pairs event's league, a row a pair: each pair's games as its event counts them.
    pairs = tmp_path / "pairs.db"
    simulate_event(pairs, "competitive", "pairs", 8, 2, seed=3)
    with open_event(pairs) as store:
        uuid = relay.event_id(store.uuid)
        doc = feed.standings(store)
        messages = list(outgoing(store, uuid, 0, None, {"league": "Liga Sur", "club": "Sur"}))
    cache = hub.reader.events[uuid] = EventCache(uuid)
    for m in messages:
        cache.take(m.subject, m.body, m.headers)
    by_pair = client.get("/api/v1/leagues/Liga Sur?group=pair").json()
    assert by_pair["by"] == "pair" and len(by_pair["players"]) == len(doc["pairs"]) == 4
    assert {r["player"]: r["won"] for r in by_pair["players"]} == {r["pair"]: r["won"] for r in doc["pairs"]}
    assert "<th>Pair</th>" in client.get("/l/Liga Sur?group=pair").text
    assert client.get("/api/v1/leagues/Nadie").status_code == 404
    page = client.get("/l/Liga Norte?lang=es").text
    assert "Partidas jugadas" in page and row["player"] in page
    assert "Ligas" in client.get("/?lang=es").text
    # the event's pages and feed from the same hub, without NATS
    uuid = docs[0][0]
    assert client.get(f"/e/{uuid}/standings").status_code == 200
    assert client.get(f"/api/v1/e/{uuid}/standings").json() == json.loads(json.dumps(docs[0][1]))
    assert client.get(f"/e/{uuid}/players/999").status_code == 404
    assert client.get("/e/0123456789abcdef/").status_code == 404


def test_the_archive_holds_the_records_that_count_now(event: Path, tmp_path: Path) -> None:
    # The stream keeps every record a venue sent.  A result cleared since, or amended to a typed
    # score, no longer counts: the archive leaves its record out, as the hub's pages do.
    import shutil

    from tournament.event.results import amend_manual, clear_result
    from tournament.web.hub import archive_lines

    path = tmp_path / "copy.db"
    shutil.copy(event, path)
    with open_event(path) as store:
        uuid = relay.event_id(store.uuid)
    cache, sent = fed(path, uuid)
    before = set(cache.site().recorded)
    assert len(list(archive_lines({uuid: cache}))) == len(before) >= 3
    (r1, t1), (r2, t2) = sorted(before)[:2]
    last = max(m.seq for m in sent if m.change)
    with open_event(path) as store:
        clear_result(store, r1, t1, "the wrong table")
        amend_manual(store, r2, t2, {"NS": 200, "EW": 10}, reason="misread")
        for m in outgoing(store, uuid, last, cache.revision):
            cache.take(m.subject, m.body, m.headers)
    assert (r1, t1) in cache.games and (r2, t2) in cache.games  # (the stream still holds both records)
    lines = list(archive_lines({uuid: cache}))
    assert len(lines) == len(before) - 2
    with open_event(path) as store:
        kept = {json.dumps(feed.game(store, r, t), sort_keys=True) for r, t in before - {(r1, t1), (r2, t2)}}
    assert {json.dumps(json.loads(line), sort_keys=True) for line in lines} == kept


def _hub_of(cache: EventCache):
    """A hub serving ``cache`` alone, its streams not read (no NATS: its lifespan is not run)."""
    from starlette.testclient import TestClient

    from tournament.web.hub import Hub

    hub = Hub("nats://127.0.0.1:4333")
    hub.reader.events[cache.event] = cache
    return TestClient(hub)


def test_an_unreadable_public_message_leaves_the_event_listed_with_its_problem(event: Path) -> None:
    """A stream whose pages' data is unreadable (``garbage{`` published in the venue's stead, or a
    message of a later version): a hub started afterwards keeps the event, its change log served,
    its pages answering 503 with the problem, /healthz and /api/v1/events naming it."""
    with open_event(event) as store:
        uuid = relay.event_id(store.uuid)
        everything = feed.all_changes(store)
        sent = list(outgoing(store, uuid, 0, None, {}))
    cache = EventCache(uuid)
    for seq, m in enumerate(sent, 1):
        cache.read(seq, m.subject, b"garbage{" if m.subject.endswith(".public") else m.body, m.headers)
    assert cache.snapshot is None and cache.problem is not None and "cannot be read" in cache.problem
    client = _hub_of(cache)
    listed = client.get("/api/v1/events").json()["events"]
    assert [e["id"] for e in listed] == [uuid] and "not gzipped JSON" in listed[0]["problem"]
    page = client.get(f"/e/{uuid}/standings")
    assert page.status_code == 503 and "cannot show its pages" in page.text and "not gzipped JSON" in page.text
    assert client.get(f"/api/v1/e/{uuid}/standings").status_code == 503
    assert client.get(f"/api/v1/e/{uuid}/changes?since=0").json()["changes"] == everything
    health = client.get("/healthz").json()
    assert uuid in health["unreadable"] and "not gzipped JSON" in health["unreadable"][uuid]
    assert client.get("/").status_code == 200


def test_a_running_hub_keeps_what_it_read_before_an_unreadable_message_and_mends_with_the_next(event: Path) -> None:
    with open_event(event) as store:
        uuid = relay.event_id(store.uuid)
        sent = list(outgoing(store, uuid, 0, None, {}))
    cache = EventCache(uuid)
    for seq, m in enumerate(sent, 1):
        cache.read(seq, m.subject, m.body, m.headers)
    held = cache.snapshot
    public = [m for m in sent if m.subject.endswith(".public")][0]
    assert cache.read(len(sent) + 1, public.subject, b"garbage{") is False
    assert cache.snapshot is held and cache.problem is not None
    client = _hub_of(cache)
    assert client.get(f"/e/{uuid}/standings").status_code == 200  # what it held, still served
    assert uuid in client.get("/healthz").json()["unreadable"]
    cache.read(len(sent) + 2, public.subject, public.body, public.headers)  # the venue sends its data again
    assert cache.problem is None and client.get("/healthz").json()["unreadable"] == {}


def test_a_changes_digest_is_its_row_and_rides_with_it(event: Path) -> None:
    """``Domrec-Digest``: the same row gives the same digest on any laptop; another time (the same
    result entered elsewhere) another; a field a later version adds to the feed's change none."""
    with open_event(event) as store:
        uuid = relay.event_id(store.uuid)
        first = feed.all_changes(store)[0]
        sent = [m for m in outgoing(store, uuid, 0, None) if m.change]
    digest = relay.change_digest(first)
    assert digest == relay.change_digest(json.loads(json.dumps(first))) and len(digest) == 64
    assert relay.change_digest({**first, "at": first["at"] + "1"}) != digest
    assert relay.change_digest({**first, "later": 1}) == digest
    assert sent[0].headers[relay.DIGEST_HEADER] == digest
    assert all(m.headers[relay.EXPECTED_HEADER] == "0" for m in sent)  # a change's subject is taken once
    assert all(relay.change_digest(json.loads(m.body)) == m.headers[relay.DIGEST_HEADER] for m in sent)
