"""The replay page, read back as HTML: every hand and every position in it, nothing fetched,
every text from the record escaped, an invalid record opening at its first problem, and each
hand's final position shown without a script.  (In a real browser: test_replay_browser.py.)"""

from __future__ import annotations

import copy
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from typer.testing import CliRunner

from domrec import reader, replay_page, simulate as sim
from domrec.cli import app
from domrec.output import REPLAY_MARK
from domrec.pictures import MODULES
from domrec.pictures.positions import replay

from tests.conftest import SAMPLES

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


def svg_pictures(page: str) -> list[ET.Element]:
    """Every picture of the page parsed as XML on its own (it is the picture module's SVG, intact)."""
    return [ET.fromstring(m.group(0)) for m in re.finditer(r'<svg xmlns="http://www.w3.org/2000/svg".*?</svg>',
                                                            page, re.S)]


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
        for section, hand, replayed in zip(sections, record.hands, hands):
            figures = section.find_all("figure", "pos")
            if replayed.sheet:
                assert not figures and "scores alone" in section.all_text()
                continue
            assert [f.attrs["data-move"] for f in figures] == [str(m) for m in range(len(hand.moves) + 1)], path
            items = section.find_all("ol", "moves")[0].find_all("li")
            assert [i.attrs["data-move"] for i in items] == [str(m) for m in range(len(hand.moves) + 1)]
            counter = section.find_all("span", "counter")[0].all_text()
            assert counter == f"move {len(hand.moves)} of {len(hand.moves)}"
        assert len(svg_pictures(page)) == sum(len(h.positions) for h in hands)


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


def test_each_position_carries_its_counter_and_running_scores_for_the_script():
    from domrec.pictures.positions import position

    record = reader.load(str(VALID / "competitive" / "game-to-200.json"))
    tree = parse(replay_page.page(record))
    figures = {f.attrs["id"]: f for f in tree.find_all("figure", "pos")}
    for hand, move in ((1, 0), (2, 12), (3, 5)):
        found, _ = position(record, hand, move)
        f = figures[f"h{hand}-m{move}"]
        assert f.attrs["data-counter"].startswith(f"move {move} of {found.moves}")
        assert f.attrs["data-scores"] == "Scores: " + " · ".join(f"{s} {n}" for s, n in found.scores.items())


def test_without_a_script_every_hand_shows_its_final_position():
    record = reader.load(str(VALID / "competitive" / "first-lead-double-six.json"))
    page = replay_page.page(record)
    tree = parse(page)
    assert "nojs" in tree.find_all("html")[0].classes
    for section in tree.find_all("section", "hand"):
        figures = section.find_all("figure", "pos")
        shown = [f for f in figures if "current" in f.classes]
        assert shown == [figures[-1]]
    css = tree.find_all("style")[0].all_text()
    assert ".pos{margin:0;display:none}" in css and ".pos.current{display:block}" in css
    # The script is what takes the class away: nothing else hides the final position.
    script = tree.find_all("script")[0].all_text()
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
    hrefs = [a.attrs["href"] for a in tree.find_all("a")]
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
    assert page.count("<script") == 1 and "<b onmouseover" not in page and "</title><script>" not in page
    tree = parse(page)
    texts = [n.text for n in tree.iter() if n.tag == "#text"]
    assert sum(EVIL in t for t in texts) > 60  # names, event, comments: there as text, never as markup
    assert EVIL in tree.find_all("head")[0].find_all("title")[0].all_text()
    assert [n.tag for n in tree.iter() if n.tag in ("b", "script")] == ["script"]
    # The pictures are XML of their own and carry the names as text too.
    for svg in svg_pictures(page)[:5]:
        assert any(EVIL in "".join(t.itertext()) for t in svg.iter())


def test_an_evil_seat_in_a_problem_sentence_is_escaped():
    doc = json.loads((INVALID / "competitive" / "unknown-seat.json").read_text())
    doc["hands"][0]["moves"][3]["seat"] = "<script>x</script>"
    page = replay_page.page(reader.load_dict(doc))
    assert page.count("<script") == 1
    problem = parse(page).find_all("div", "problem")[0].all_text()
    assert "<script>x</script> is not a seat at this table" in problem


def test_an_invalid_record_opens_at_the_position_before_the_move_that_broke_it():
    record = reader.load(str(INVALID / "competitive" / "pass-while-able.json"))
    tree = parse(replay_page.page(record, "pass-while-able.json"))
    section = tree.find_all("section", "hand")[0]
    assert "data-first-problem" in section.attrs
    figures = section.find_all("figure", "pos")
    opened = figures[int(section.attrs["data-open"])]
    assert opened.attrs["data-move"] == "1"  # move 2 broke the rules: the table W faced
    bad = [li for li in section.find_all("ol", "moves")[0].find_all("li") if "bad" in li.classes]
    assert [li.attrs["data-move"] for li in bad] == ["2"]
    problem = bad[0].find_all("div", "problem")[0]
    assert "first" in problem.classes and problem.attrs["id"] == "problem-1"
    text = problem.all_text()
    assert "W cannot pass: W must play, 6-5 fits on 5-2" in text and "Rule: competitive: must play if able" in text
    assert tree.find_all("p", "first-link")[0].find_all("a")[0].attrs["href"] == "#problem-1"
    # The moves after it are listed as written, not replayed (no position to show).
    later = section.find_all("ol", "moves")[0].find_all("li")[3]
    assert later.find_all("span", "unreplayed-move") and not later.find_all("a")


def test_a_wrong_claimed_hand_score_is_shown_at_the_hands_end():
    record = reader.load(str(INVALID / "competitive" / "wrong-hand-score.json"))
    tree = parse(replay_page.page(record))
    section = tree.find_all("section", "hand")[0]
    result = section.find_all("div", "result")[0]
    assert "NS is claimed 30 for hand 1, but scores 23" in result.find_all("div", "problem")[0].all_text()
    assert int(section.attrs["data-open"]) == len(section.find_all("figure", "pos")) - 1


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
    assert not section.find_all("figure") and "Not replayed" in section.all_text()
    assert len(section.find_all("ol", "moves")[0].find_all("li")) == len(record.hands[0].moves)


def test_a_hand_whose_deal_breaks_a_rule_says_so_at_its_top_and_later_hands_are_not_replayed():
    record = reader.load(str(INVALID / "competitive" / "wrong-leader.json"))
    tree = parse(replay_page.page(record))
    first, second, third = tree.find_all("section", "hand")
    assert first.find_all("figure") and not second.find_all("figure") and not third.find_all("figure")
    assert "data-first-problem" in second.attrs and "data-open" not in second.attrs
    assert "N cannot lead this hand" in second.find_all("div", "problem")[0].all_text()
    assert "Not replayed" in third.all_text()


def test_score_sheet_hands_show_their_scores_only():
    record = load(VALID / "competitive" / "mixed-played-and-score-sheet.dgn")
    tree = parse(replay_page.page(record))
    hands, _ = replay(record)
    for section, hand in zip(tree.find_all("section", "hand"), hands):
        if hand.sheet:
            assert "sheet" in section.classes and not section.find_all("figure") and not section.find_all("ol")
            assert f"Totals after hand {hand.number}" in section.all_text()
        else:
            assert section.find_all("figure")


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
    assert ".pos svg{display:block;max-width:100%;height:auto}" in css
    assert re.search(r"button\{min-width:48px;min-height:48px", css)  # at least 44 px to tap
    assert "@media (max-width:800px){.stage{grid-template-columns:minmax(0,1fr)}}" in css  # list below


def test_the_longest_sample_inlines_each_picture_once_and_stays_reasonable():
    record = reader.load(str(VALID / "competitive" / "first-lead-double-six.json"))
    page = replay_page.page(record)
    hands, _ = replay(record)
    positions = sum(len(h.positions) for h in hands)
    assert len(svg_pictures(page)) == positions == 233
    # About 23 KB a position (the picture itself); the page adds a few KB, not a copy of anything.
    pictures = sum(len(p.svg()) for h in hands for p in h.positions)
    assert len(page.encode("utf-8")) < pictures * 1.1 + 60_000


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_simulated_games_have_a_position_for_every_move(seed):
    record = next(iter(sim.simulate("competitive", 1, seed)))
    tree = parse(replay_page.page(record))
    figures = tree.find_all("figure", "pos")
    assert len(figures) == sum(len(h.moves) + 1 for h in record.hands)
    assert len(tree.find_all("section", "hand")) == len(record.hands)


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
