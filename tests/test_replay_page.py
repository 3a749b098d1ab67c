"""The replay page, read back as HTML: every hand and every position in it (the positions as the
page carries them, rebuilt from their changes), nothing fetched, every text from the record
escaped, an invalid record opening at its first problem, a page light enough for a phone, and
without a script everything but the table.  (In a real browser: test_replay_browser.py, and
test_replay_drawing.py for the pictures the script draws.)"""

from __future__ import annotations

import copy
import itertools
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from typer.testing import CliRunner

from domrec import reader, replay_page
from domrec.cli import app
from domrec.output import REPLAY_MARK
from domrec.pictures import MODULES
from domrec.pictures.changes import apply
from domrec.pictures.positions import replay

from tests.conftest import SAMPLES
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

VALID = SAMPLES / "valid"
INVALID = SAMPLES / "invalid"
VOID = {"meta", "br", "img", "input", "link", "hr", "col", "source", "wbr", "area", "base", "embed", "track"}


class Node:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: "Node | None") -> None:
        self.tag, self.attrs, self.parent, self.children, self.text = tag, attrs, parent, [], ""

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def iter(self):
        yield self
        for c in self.children:
            yield from c.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None) -> list["Node"]:
        return [n for n in self.iter() if (tag is None or n.tag == tag) and (cls is None or cls in n.classes)]

    def all_text(self) -> str:
        return self.text + "".join(c.all_text() for c in self.children)

    def ancestor(self, tag: str) -> "Node | None":
        n = self.parent
        while n is not None and n.tag != tag:
            n = n.parent
        return n


class Tree(HTMLParser):
    """The page as a tree (stdlib only), every text node kept in order."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {}, None)
        self.at = self.root
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.at)
        self.at.children.append(node)
        if tag not in VOID:
            self.at = node

    def handle_startendtag(self, tag, attrs):
        self.at.children.append(Node(tag, dict(attrs), self.at))

    def handle_endtag(self, tag):
        n = self.at
        while n is not None and n.tag != tag:
            n = n.parent
        assert n is not None, f"</{tag}> closes nothing"
        self.at = n.parent

    def handle_data(self, data):
        text = Node("#text", {}, self.at)
        text.text = data
        self.at.children.append(text)


def parse(page: str) -> Node:
    return Tree(page).root


def page_data(page: str) -> dict:
    """The positions the page carries (its ``replay-data`` script element), each hand's keys read
    back from their aliases and its positions rebuilt from their changes, as the script does."""
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    assert found is not None
    data = json.loads(found.group(1))
    names = data["keys"]

    def restore(value):
        if isinstance(value, dict):
            return {names[k]: restore(v) for k, v in value.items()}
        if isinstance(value, list):
            return [restore(v) for v in value]
        return value

    for hand in data["hands"]:
        positions = [restore(hand["first"])]
        for edits in hand["changes"]:
            edits = [[[int(k) if k.isdigit() else names[k] for k in e[0].split(".")] if e[0] else [], *restore(e[1:])]
                 for e in edits]
            positions.append(apply(positions[-1], edits))
        hand["positions"] = positions
    return data


def positions_of(page: str) -> dict[int, list[dict]]:
    """Hand number -> its positions as the page carries them."""
    return {h["hand"]: h["positions"] for h in page_data(page)["hands"]}


def load(path: Path):
    if path.suffix == ".dgn":
        from domrec import notation

        game = next(iter(notation.read_games(path.read_text(encoding="utf-8"), str(path))))
        return game.record
    return reader.load(str(path))


def samples_of(game: str) -> list[Path]:
    return sorted((VALID / game).glob("*.json")) + sorted((VALID / game).glob("*.dgn"))


def _need_pictures(game: str) -> None:
    pytest.importorskip(MODULES[game], reason=f"the {game} picture module has not landed yet")


@pytest.mark.parametrize("game", sorted(MODULES))
def test_every_hand_and_every_position_of_small_samples(game):
    """The four smallest samples of each game in the default run; every sample with --long."""
    _check_samples(game, sorted(samples_of(game), key=lambda p: p.stat().st_size)[:4])


@pytest.mark.long
@pytest.mark.parametrize("game", sorted(MODULES))
def test_every_hand_and_every_position_of_every_sample(game):
    _check_samples(game, samples_of(game))


def _check_samples(game, paths):
    _need_pictures(game)
    for path in paths:
        record = load(path)
        page = replay_page.page(record, str(path))
        tree = parse(page)
        sections = tree.find_all("section", "hand")
        assert [s.attrs["data-hand"] for s in sections] == [str(k) for k in range(1, len(record.hands) + 1)], path
        hands, report = replay(record, str(path))
        assert report.valid, path
        carried = positions_of(page)
        for section, hand, replayed in zip(sections, record.hands, hands):
            if replayed.sheet:
                assert not section.find_all("div", "picture") and "scores alone" in section.all_text()
                assert replayed.number not in carried
                continue
            # Every position, rebuilt from the first and each move's changes, is the replay's own.
            assert carried[replayed.number] == [p.data() for p in replayed.positions], path
            assert len(replayed.positions) == len(hand.moves) + 1
            items = section.find_all("ol", "moves")[0].find_all("li")
            assert len(items) == len(hand.moves) + 1 and "deal" in items[0].classes
            counter = section.find_all("span", "counter")[0].all_text()
            assert counter == f"move {len(hand.moves)} of {len(hand.moves)}"
            assert section.find_all("div", "picture")


def test_the_page_shows_the_players_the_working_and_the_totals_after_each_hand():
    record = reader.load(str(VALID / "competitive" / "game-to-200.json"))
    tree = parse(replay_page.page(record, "game-to-200.json"))
    players = [li.all_text() for li in tree.find_all("ul", "players")[0].find_all("li")]
    assert players == ["NAna", "EBo", "SCy", "WDi"]
    assert "NS: Ana (N) & Cy (S) · EW: Bo (E) & Di (W)" in tree.find_all("p", "sides")[0].all_text()
    rows = [[td.all_text() for td in tr.find_all("td")] for tr in tree.find_all("table", "totals")[0].find_all("tr")[1:]]
    assert rows == [["hand 1", "0", "70"], ["hand 2", "0", "132"], ["hand 3", "0", "208"]]
    first = tree.find_all("section", "hand")[0]
    result = first.find_all("div", "result")[0].all_text()
    assert "EW has fewer pips and scores all four hands: 44 + 26 = 70" in result
    assert "Totals after hand 1: NS 0, EW 70" in result
    assert "Totals after the hand: NS 0 · EW 70 (this hand: EW +70)" == first.find_all("span", "scores")[0].all_text()
    assert tree.find_all("p", "verdict")[0].all_text() == "valid competitive, 3 hands, NS 0, EW 208; winner EW"


def test_each_position_carries_its_running_scores_for_the_script():
    from domrec.pictures.positions import position

    record = reader.load(str(VALID / "competitive" / "game-to-200.json"))
    carried = positions_of(replay_page.page(record))
    for hand, move in ((1, 0), (2, 12), (3, 5)):
        found, _ = position(record, hand, move)
        assert carried[hand][move]["scores"] == [[s, n] for s, n in found.scores.items()]
        assert carried[hand][move] == found.data()


def test_without_a_script_every_hand_says_so_and_shows_everything_but_the_table():
    record = reader.load(str(VALID / "competitive" / "first-lead-double-six.json"))
    page = replay_page.page(record)
    tree = parse(page)
    assert "nojs" in tree.find_all("html")[0].classes
    hands, _ = replay(record)
    note = tree.find_all("header")[0].find_all("p", "nojs-note")[0].all_text()
    assert "drawn by the page's script, which is not running" in note
    for section, hand in zip(tree.find_all("section", "hand"), hands):
        n = len(hand.positions) - 1
        assert section.find_all("span", "counter")[0].all_text() == f"move {n} of {n}"
        assert section.find_all("span", "scores")[0].all_text() == hand.positions[-1].header_lines()[2]
        assert len(section.find_all("ol", "moves")[0].find_all("li")) == n + 1
        assert section.find_all("div", "result")
        assert not section.find_all("button")  # the script copies the buttons in: nothing to press without it
    css = tree.find_all("style")[0].all_text()
    assert ".js .nojs-note{display:none}" in css
    script = tree.find_all("script")[-1].all_text()
    assert 'root.classList.remove("nojs")' in script


def test_nothing_is_fetched():
    record = reader.load(str(VALID / "competitive" / "game-to-200.json"))
    page = replay_page.page(record)
    # The only address in the page is SVG's namespace name, which is never fetched.
    assert set(re.findall(r"https?://[^\s\"'<>)]*", page)) == {"http://www.w3.org/2000/svg"}
    for needle in ("src=", "<link", "@import", "url(", "@font-face", "<iframe", "<img", "fetch(", "XMLHttpRequest"):
        assert needle not in page, needle
    tree = parse(page)
    assert all("src" not in s.attrs for s in tree.find_all("script"))
    hrefs = [a.attrs["href"] for a in tree.find_all("a") if "href" in a.attrs]
    assert hrefs and all(h.startswith("#") for h in hrefs)


EVIL = '</title><script>alert("x")</script><b onmouseover="x()">&amp;'


def _everything_evil(doc: dict) -> dict:
    doc = copy.deepcopy(doc)
    for p in doc["players"]:
        p["name"] = EVIL + p["seat"]
        p["id"] = EVIL
    doc["event"] = {"name": EVIL, EVIL: EVIL, "comment": EVIL + "\nsecond line", "site": EVIL, "notes": [EVIL], "round": EVIL}
    for hand in doc["hands"]:
        hand["comment"] = EVIL
        for move in hand["moves"]:
            move["comment"] = EVIL
    doc["version"] = "1.1"
    return doc


def test_every_text_from_the_record_is_escaped():
    doc = json.loads((VALID / "competitive" / "game-to-200.json").read_text())
    record = reader.load_dict(_everything_evil(doc))
    page = replay_page.page(record, EVIL)
    assert page.count("<script") == 2 and "<b onmouseover" not in page and "</title><script>" not in page
    tree = parse(page)
    texts = [n.text for n in tree.iter() if n.tag == "#text"]
    assert sum(EVIL in t for t in texts) > 60  # names, event, comments: there as text, never as markup
    assert EVIL in tree.find_all("head")[0].find_all("title")[0].all_text()
    assert [n.tag for n in tree.iter() if n.tag in ("b", "script")] == ["script", "script"]
    # The names reach the script as JSON strings, with no < or > to close its element.
    data = page[page.index('id="replay-data">'):]
    data = data[:data.index("</script>")]
    assert "<" not in data[len('id="replay-data">'):] and ">" not in data[len('id="replay-data">'):]
    assert [[p.seat, p.name] for p in record.players] == page_data(page)["names"]


def test_an_evil_seat_in_a_problem_sentence_is_escaped():
    doc = json.loads((INVALID / "competitive" / "unknown-seat.json").read_text())
    doc["hands"][0]["moves"][3]["seat"] = "<script>x</script>"
    page = replay_page.page(reader.load_dict(doc))
    assert page.count("<script") == 2
    problem = parse(page).find_all("div", "problem")[0].all_text()
    assert "<script>x</script> is not a seat at this table" in problem


def test_an_invalid_record_opens_at_the_position_before_the_move_that_broke_it():
    record = reader.load(str(INVALID / "competitive" / "pass-while-able.json"))
    page = replay_page.page(record, "pass-while-able.json")
    tree = parse(page)
    section = tree.find_all("section", "hand")[0]
    assert "data-first-problem" in section.attrs
    assert section.attrs["data-open"] == "1"  # move 2 broke the rules: the table W faced
    assert len(positions_of(page)[1]) == 2  # the deal and move 1: the replay stopped at move 2
    # The problem comes first, above the table; its move is marked in the list and points to it.
    problem = section.find_all("div", "problem")[0]
    assert "first" in problem.classes and problem.attrs["id"] == "problem-1"
    assert section.children.index(problem) < section.children.index(section.find_all("div", "stage")[0])
    text = problem.all_text()
    assert "W cannot pass: W must play, 6-5 fits on 5-2" in text and "Rule: competitive: must play if able" in text
    items = section.find_all("ol", "moves")[0].find_all("li")
    bad = [li for li in items if "bad" in li.classes]
    assert bad == [items[2]] and bad[0].find_all("a", "see")[0].attrs["href"] == "#problem-1"
    assert tree.find_all("p", "first-link")[0].find_all("a")[0].attrs["href"] == "#problem-1"
    # The moves after it are listed as written, not replayed (no position to show).
    later = items[3]
    assert later.find_all("span", "unreplayed-move") and not later.find_all("a")


def test_a_wrong_claimed_hand_score_opens_at_the_hands_end_with_the_problem_first():
    record = reader.load(str(INVALID / "competitive" / "wrong-hand-score.json"))
    page = replay_page.page(record)
    section = parse(page).find_all("section", "hand")[0]
    problem = section.find_all("div", "problem")[0]
    assert "first" in problem.classes and "NS is claimed 30 for hand 1, but scores 23" in problem.all_text()
    assert section.children.index(problem) < section.children.index(section.find_all("div", "stage")[0])
    assert int(section.attrs["data-open"]) == len(positions_of(page)[1]) - 1


def test_a_problem_with_the_whole_game_is_at_the_top():
    record = reader.load(str(INVALID / "competitive" / "wrong-winner.json"))
    tree = parse(replay_page.page(record))
    header = tree.find_all("header")[0]
    assert "the winner is claimed to be NS, but it is EW" in header.find_all("div", "problem")[0].all_text()
    assert not any("data-first-problem" in s.attrs for s in tree.find_all("section", "hand"))


def test_a_setup_that_breaks_a_rule_shows_the_moves_as_written():
    record = reader.load(str(INVALID / "competitive" / "three-players.json"))
    tree = parse(replay_page.page(record))
    assert "needs exactly four players" in tree.find_all("header")[0].all_text()
    section = tree.find_all("section", "hand")[0]
    assert not section.find_all("div", "picture") and "Not replayed" in section.all_text()
    assert len(section.find_all("ol", "moves")[0].find_all("li")) == len(record.hands[0].moves)


def test_a_hand_whose_deal_breaks_a_rule_says_so_at_its_top_and_later_hands_are_not_replayed():
    record = reader.load(str(INVALID / "competitive" / "wrong-leader.json"))
    tree = parse(replay_page.page(record))
    first, second, third = tree.find_all("section", "hand")
    assert first.find_all("div", "picture") and not second.find_all("div", "picture")
    assert not third.find_all("div", "picture")
    assert "data-first-problem" in second.attrs and "data-open" not in second.attrs
    assert "N cannot lead this hand" in second.find_all("div", "problem")[0].all_text()
    assert "Not replayed" in third.all_text()


def test_score_sheet_hands_show_their_scores_only():
    record = load(VALID / "competitive" / "mixed-played-and-score-sheet.dgn")
    tree = parse(replay_page.page(record))
    hands, _ = replay(record)
    for section, hand in zip(tree.find_all("section", "hand"), hands):
        if hand.sheet:
            assert "sheet" in section.classes and not section.find_all("div", "picture")
            assert not section.find_all("ol") and f"Totals after hand {hand.number}" in section.all_text()
        else:
            assert section.find_all("div", "picture")


def test_comments_are_shown_beside_their_moves_and_hands():
    record = load(VALID / "competitive" / "comments.dgn")
    tree = parse(replay_page.page(record))
    section = tree.find_all("section", "hand")[0]
    assert section.find_all("p", "comment")[0].all_text() == "Ana led from a hand of three fives."
    fourth = section.find_all("ol", "moves")[0].find_all("li")[4]
    assert fourth.find_all("p", "comment")[0].all_text() == "on the two: the six end was open too"
    assert "Typed from the table sheet by Bo" in tree.find_all("dl", "event")[0].all_text()


def test_phone_layout_rules():
    page = replay_page.page(reader.load(str(VALID / "competitive" / "domino.json")))
    css = parse(page).find_all("style")[0].all_text()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert ".picture svg{display:block;max-width:100%;height:auto}" in css
    assert ".picture.narrow svg{max-width:none;width:100%}" in css  # a phone: as wide as the screen
    assert re.search(r"button\{min-width:48px;min-height:48px", css)  # at least 44 px to tap
    assert "@media (max-width:800px){.stage{grid-template-columns:minmax(0,1fr)}}" in css  # list below


#: The sample of each game whose page is the largest.
LARGEST_SAMPLES = {"competitive": "first-lead-double-six.json", "broadway": "sudden-death-mid-hand.json",
                   "horse-race": "mixed-played-and-score-sheet.dgn", "castle-rock": "two-players-game-to-50.json",
                   "domino-roads": "simulated-game-4-players.json"}
#: The simulated game of each game whose page is the largest of the first 30 of ``simulate(game, 30, 1)``
#: (its place in that run): 466 moves of Competitive dominoes, 790 of Castle Rock (16 hands), 412 of Domino Roads.
LONGEST_SIMULATED = {"competitive": 8, "broadway": 7, "horse-race": 2, "castle-rock": 26, "domino-roads": 20}


@pytest.mark.parametrize("game", sorted(MODULES))
def test_a_whole_games_page_is_under_150_kb(game):
    """The page carries each hand's first position and then each move's changes, and draws each
    tile face once: no picture is in it, and a long game stays light enough for a phone."""
    _need_pictures(game)
    sample = replay_page.page(load(VALID / game / LARGEST_SAMPLES[game]))
    assert len(sample.encode("utf-8")) < 150_000
    markup = sample[:sample.index('<script type="application/json"')]
    assert "<circle" not in markup and "data-tile" not in markup  # nothing drawn: the script draws
    k = LONGEST_SIMULATED[game]
    record = next(itertools.islice(made_once.simulate(game, k + 1, 1), k, None))
    page = replay_page.page(record)
    assert len(page.encode("utf-8")) < 150_000, (game, sum(len(h.moves) for h in record.hands))
    assert sum(len(p) for p in positions_of(page).values()) == sum(len(h.moves) + 1 for h in record.hands)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_simulated_games_have_a_position_for_every_move(seed):
    record = next(iter(made_once.simulate("competitive", 1, seed)))
    page = replay_page.page(record)
    carried = positions_of(page)
    assert [len(carried[k]) for k in sorted(carried)] == [len(h.moves) + 1 for h in record.hands]
    assert len(parse(page).find_all("section", "hand")) == len(record.hands)


# --- the command ------------------------------------------------------------------------------

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_explain_html_writes_the_page_and_replaces_only_its_own(tmp_path):
    out = tmp_path / "game.html"
    r = run("explain", VALID / "competitive" / "game-to-200.json", "--html", out)
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert REPLAY_MARK in page[:4096] and page.startswith("<!DOCTYPE html>")
    assert f"wrote {out}" in r.output
    assert run("explain", VALID / "competitive" / "domino.json", "--html", out).exit_code == 0  # its own: replaced
    other = tmp_path / "notes.html"
    other.write_text("<p>my notes</p>")
    r = run("explain", VALID / "competitive" / "domino.json", "--html", other)
    assert r.exit_code == 2 and "not replaced (use --force" in r.output
    assert other.read_text() == "<p>my notes</p>"
    assert run("explain", VALID / "competitive" / "domino.json", "--html", other, "--force").exit_code == 0
    assert REPLAY_MARK in other.read_text()


def test_explain_html_of_an_invalid_record_exits_1_and_says_where_it_opens(tmp_path):
    out = tmp_path / "bad.html"
    r = run("explain", INVALID / "competitive" / "pass-while-able.json", "--html", out)
    assert r.exit_code == 1 and out.exists()
    assert "(it opens at the first problem: hand 1, move 2)" in r.output
    assert "W cannot pass" in r.output


def test_explain_html_to_stdout():
    r = run("explain", VALID / "competitive" / "domino.json", "--html", "-")
    assert r.exit_code == 0 and "<!DOCTYPE html>" in r.stdout and "wrote" not in r.output


@pytest.mark.parametrize("name", ["truncated.json", "version-2.json", "unknown-game.json"])
def test_explain_html_of_an_unusable_record_is_one_line_and_writes_nothing(tmp_path, name):
    out = tmp_path / "x.html"
    r = run("explain", INVALID / "competitive" / name, "--html", out)
    assert r.exit_code == 2 and not out.exists()
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in r.output
    assert list(tmp_path.iterdir()) == []


def test_explain_html_and_svg_together_is_a_usage_error(tmp_path):
    r = run("explain", VALID / "competitive" / "domino.json", "--html", tmp_path / "a.html", "--svg",
            tmp_path / "a.svg")
    assert r.exit_code == 2 and list(tmp_path.iterdir()) == []


def test_the_events_fields_the_format_names_are_shown_in_the_pages_language():
    """A Spanish page says nombre, ronda, mesa (it said name, round, table amid Spanish); a field
    of the record's own is shown by its own name, as written."""
    doc = json.loads((SAMPLES / "valid" / "competitive" / "game-to-200.json").read_text())
    doc["event"] = {"name": "Club", "round": 2, "table": "3", "board": 7, "Mesa VIP": "sí"}
    record = reader.load_dict(doc)
    fields = lambda lang: re.findall(r"<dt>(.*?)</dt>", replay_page.page(record, "x", lang=lang))
    assert fields("es") == ["nombre", "ronda", "mesa", "tablero", "Mesa VIP"]
    assert fields("en") == ["name", "round", "table", "board", "Mesa VIP"]
