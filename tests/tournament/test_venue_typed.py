"""A table of the venue, through the server's app in-process, takes every typed form of a game
that ``domrec validate`` reads: canonical DGN (every forced pass written, which the table has
made by itself already) and the typed form without the deal and without seats, posted a line
at a time and as one post, with the scores the game has (tests/test_every_way_typed.py holds
the library under it, the Session, to the same over every game and option set)."""

from __future__ import annotations

import pytest

from domrec import notation
from domrec.validate import validate

from tests.tournament.test_venue import EVENTS, _auth, _event, _game_of, _server, _table_one, starlette_testclient


def _forms(record) -> dict[str, str]:
    return {"canonical": notation.dumps(record),
            "typed without the deal or seats": notation.dumps_typed(record, keep_deal=False, seats=False)}


def _post_all(client, token: str, requests: list[str]) -> dict:
    url = "/api/v1/tables/1/1"
    state = client.get(url, headers=_auth(token)).json()
    for text in requests:
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
        assert r.status_code == 200, (text, r.json())
        state = r.json()
    if state["game"]["in_hand"]:  # the page's button closing the last hand
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "y"})
        assert r.status_code == 200, r.json()
        state = r.json()
    return state


@pytest.mark.parametrize("key", list(EVENTS))
@pytest.mark.parametrize("whole", [False, True], ids=["line-by-line", "one-post"])
def test_a_table_takes_every_form_validate_reads(tmp_path, key, whole):
    for name in ("canonical", "typed without the deal or seats"):
        folder = tmp_path / name.replace(" ", "-")
        folder.mkdir()
        path = _event(folder, key)
        record = _game_of(path, 1, 1, seed=5)
        text = _forms(record)[name]
        (read,) = notation.read_games(text)
        assert read.report.status == "valid", name
        lines = [line for line in text.splitlines() if line.strip() and not line.startswith("[")]
        server = _server(path)
        try:
            client = starlette_testclient.TestClient(server.asgi)
            token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
            state = _post_all(client, token, ["\n".join(lines)] if whole else lines)
            assert state["game"]["over"], name
            assert state["game"]["totals"] == validate(record).scores, name
        finally:
            server.close()


# --- a lead the deal rules out, typed before or after the deal ----------------------------------


def _hand_parts(texts: list[str], number: int) -> tuple[int, int]:
    """Where hand ``number``'s line is in ``texts``, and where its deal lines end."""
    start = next(k for k, t in enumerate(texts) if t.startswith(f"hand {number}"))
    end = start + 1
    while texts[end].split()[0] in ("deal", "row", "boneyard", "pile", "leaddraw", "redeal"):
        end += 1
    return start, end


@pytest.mark.parametrize("key", list(EVENTS))
@pytest.mark.parametrize("order", ["deal-first", "hand-first"])
def test_a_lead_the_rules_rule_out_is_refused_at_once(tmp_path, key, order, request):
    """Every game: ``hand N lead X`` where the rules (with the deal, where they need it: the lead
    draw, Broadway's double) give hand N's lead to another seat.  Typed after its deal, the hand
    line is refused (422 naming line 1, nothing kept); typed before it, the hand line is refused
    if the rules tell without the deal, else the deal line that rules the lead out is, naming
    ``hand N lead X``.  Either way the table then takes the right hand line and the game
    (the old server took the deal and refused the first move): hand N a line a request, the
    hands after it a hand a request (every line alone with --long), to the game's end."""
    from tests.tournament.helpers import hand_by_hand
    from domrec.session import requests_for
    from tests.test_hand_lines import wrong_leads

    path = _event(tmp_path, key)
    record = _game_of(path, 1, 1, seed=5)
    texts = requests_for(record, keep_deal=True)
    number, seat = next((n, s) for n in (1, 2) if len(record.hands) >= n for s in wrong_leads(record, n))
    start, end = _hand_parts(texts, number)
    right, parts, bad = texts[start], texts[start + 1:end], f"hand {number} lead {seat}"
    lines = ([*texts[:start], *parts, bad, right, *texts[end:]] if order == "deal-first" else
             [*texts[:start], bad, *parts, *texts[end:]])
    server, client, token = _table_one(path)
    try:
        url = "/api/v1/tables/1/1"
        state = client.get(url, headers=_auth(token)).json()
        refused = None
        k = 0
        whole_hands = not request.config.getoption("--long")
        while k < len(lines):
            text = lines[k]
            if whole_hands and refused is not None and text.split()[:2] == ["hand", str(number + 1)]:
                lines[k:] = hand_by_hand(lines[k:])  # (the rest of the game is not what is tested)
                whole_hands = False
                text = lines[k]
            r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
            if r.status_code == 422 and refused is None:
                refused = (k, text, r.json()["error"])
                assert client.get(url, headers=_auth(token)).json()["rev"] == state["rev"]  # nothing kept
                if order == "hand-first":  # the hand line again, right, then the refused line
                    lines[k:k] = [right] if text != bad else []
                    if text == bad:
                        lines[k] = right
                k += 1 if order == "deal-first" else 0
                continue
            assert r.status_code == 200, (text, r.text)
            state = r.json()
            k += 1
        assert refused is not None, "the wrong lead was taken"
        at, text, error = refused
        at = len(bad) - len(seat) + 1 if text == bad else 1  # (the hand line at its lead's seat; a deal line)
        assert error.startswith(f"1:{at}: hand {number}") and f" {seat} " in error, error
        if order == "deal-first":
            assert text == bad
        else:
            assert text == bad or text in parts and error.startswith(f"1:1: {bad}, typed before the deal"), error
        if state["game"]["in_hand"]:
            state = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "y"}).json()
        assert state["game"]["over"] and state["game"]["totals"] == validate(record).scores
    finally:
        server.close()


@pytest.mark.parametrize("key", ["competitive", "broadway"])
def test_a_post_of_the_hand_line_and_the_deal_is_refused_at_the_lead(tmp_path, key):
    """One post holding ``hand 1 lead X`` and then the deal lines that give the lead to another
    seat (Competitive's lead draw, Broadway's double): refused (422, nothing kept) at the lead's
    own line and column, the seat after ``lead``, not at the last deal line of the post as the
    old session placed it; the post with the right hand line is then taken."""
    from domrec.session import requests_for
    from tests.test_hand_lines import wrong_leads

    path = _event(tmp_path, key)
    record = _game_of(path, 1, 1, seed=5)
    texts = requests_for(record, keep_deal=True)
    start, end = _hand_parts(texts, 1)
    seat = wrong_leads(record, 1)[0]
    bad = f"  hand 1 lead {seat}"  # (indented: the column counts the indent)
    server, client, token = _table_one(path)
    try:
        url = "/api/v1/tables/1/1"
        state = client.get(url, headers=_auth(token)).json()
        r = client.post(f"{url}/dgn", headers=_auth(token),
                        json={"rev": state["rev"], "text": "\n".join([*texts[:start], bad, *texts[start + 1:end]])})
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert error.startswith(f"{start + 1}:{len(bad) - len(seat) + 1}: hand 1 lead {seat}, typed before the deal"
                                ), error
        assert client.get(url, headers=_auth(token)).json()["rev"] == state["rev"]  # nothing kept
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "\n".join(texts[:end])})
        assert r.status_code == 200, r.text
    finally:
        server.close()
