"""The project's own documents are complete and stand alone (issue 13, point 1).

* Every rule name an engine or the validator can cite in a message (the
  ``[game: rule]`` at the end of a problem line) is a bold label in the right
  page of ``docs/rules/``, so a reader finds it by grepping for what the
  message printed.  The names are read from the source, not from a list kept
  here: a new rule without documentation fails this test.
* No tracked file points outside the repository, at the private contract a
  clone does not have.
"""

from __future__ import annotations

import ast
import functools
import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "docs" / "rules"
GAMES = ("broadway", "competitive", "horse-race", "castle-rock", "domino-roads")

#: The calls that carry a rule name, and the position of that argument (``rule=`` also counts).
RULE_ARGUMENT = {"RuleViolation": 1, "IllegalMove": 1, "DealError": 1, "SetupError": 1, "Problem": 2}
#: A string that is a game's rule name: "<game>: <rule>".
GAME_RULE = re.compile(rf"^({'|'.join(map(re.escape, GAMES))}): \S")


def _sources() -> list[Path]:
    return sorted((ROOT / "domrec").rglob("*.py"))


def _module_constants(tree: ast.Module) -> dict[str, str]:
    """Module-level ``NAME = "text"``: where the engines keep their rule names (``R_FORCED = ...``)."""
    out: dict[str, str] = {}
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        value = getattr(node, "value", None)
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            for t in targets:
                if isinstance(t, ast.Name):
                    out[t.id] = value.value
    return out


def _rule_argument(call: ast.Call) -> ast.expr | None:
    f = call.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
    if name not in RULE_ARGUMENT:
        return None
    for k in call.keywords:
        if k.arg == "rule":
            return k.value
    i = RULE_ARGUMENT[name]
    return call.args[i] if len(call.args) > i else None


def _names_in(expr: ast.expr, local: dict[str, str], everywhere: dict[str, dict[str, str]]) -> Iterator[str]:
    """The rule names an argument expression can stand for, as far as they can be read statically."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        yield expr.value
    elif isinstance(expr, ast.Name) and expr.id in local:
        yield local[expr.id]
    elif isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id in everywhere:
        value = everywhere[expr.value.id].get(expr.attr)  # deals.RULE
        if value is not None:
            yield value
    elif isinstance(expr, ast.IfExp):
        yield from _names_in(expr.body, local, everywhere)
        yield from _names_in(expr.orelse, local, everywhere)
    elif isinstance(expr, ast.JoinedStr):
        # f"{game}: players": one name per game.
        pattern = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in expr.values)
        if pattern.startswith("{}: ") and pattern.count("{}") == 1:
            for game in GAMES:
                yield pattern.format(game)
        else:
            raise AssertionError(f"a rule name built as {ast.unparse(expr)} cannot be checked against docs/rules/: "
                                 f"build it from a named constant")


@functools.cache
def cited_rule_names() -> dict[str, set[str]]:
    """Every rule name the code can cite, with the source files that cite it.  Read once a
    process (every source parsed and walked: seconds): the parametrized tests below are made
    from it when the module is collected, and the test of the collector reads it again."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in _sources()}
    constants = {path: _module_constants(tree) for path, tree in trees.items()}
    by_module = {path.stem: consts for path, consts in constants.items()}
    found: dict[str, set[str]] = {}

    def add(name: str, path: Path) -> None:
        if name:  # problems that are not about a rule (unusable input) carry none
            found.setdefault(name, set()).add(str(path.relative_to(ROOT)))

    for path, tree in trees.items():
        local = constants[path]
        for name, value in local.items():
            if name.startswith("R_") or name == "RULE" or GAME_RULE.match(value):
                add(value, path)
        in_fstring = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                arg = _rule_argument(node)
                if arg is not None:
                    for value in _names_in(arg, local, by_module):
                        add(value, path)
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in in_fstring
                  and GAME_RULE.match(node.value) and "\n" not in node.value and len(node.value) < 100):
                add(node.value, path)
    return found


def page_for(rule: str) -> Path:
    """A game's rules are in its own page; names without a game are shared by all (README.md)."""
    game, sep, _ = rule.partition(": ")
    return RULES_DIR / (f"{game}.md" if sep and game in GAMES else "README.md")


def test_the_collector_finds_the_rules_it_must():
    """Not an empty set by accident: rules kept in constants, inline, across modules and built per game."""
    names = cited_rule_names()
    for expected in ("competitive: must play if able", "broadway: exposed tile", "horse-race: hand end",
                     "castle-rock: capture of three", "domino-roads: a 0-0 is only ever a bridge",
                     "scoring", "end of game", "seats", "the deal", "castle-rock: players"):
        assert expected in names, expected
    assert len(names) > 60


@pytest.mark.parametrize("rule", sorted(cited_rule_names()))
def test_every_cited_rule_is_a_bold_label_in_its_page(rule):
    page = page_for(rule)
    text = page.read_text(encoding="utf-8")
    label = f"**[{rule}]**"
    assert label in text, (f"{label} (cited in {', '.join(sorted(cited_rule_names()[rule]))}) "
                           f"is not a bold label in {page.relative_to(ROOT)}")


def test_the_rules_named_by_the_invalid_samples_are_documented():
    """The same, from the other end: what the validator really printed for the samples."""
    expects = sorted((ROOT / "samples" / "invalid").rglob("*.expect"))
    rules = {json.loads(p.read_text(encoding="utf-8")).get("rule") for p in expects} - {None, ""}
    assert rules
    for rule in rules:
        assert f"**[{rule}]**" in page_for(rule).read_text(encoding="utf-8"), rule


def test_every_rules_page_is_linked_from_the_index():
    index = (RULES_DIR / "README.md").read_text(encoding="utf-8")
    for game in GAMES:
        assert (RULES_DIR / f"{game}.md").is_file()
        assert f"({game}.md)" in index, game


@pytest.mark.parametrize("page", [*(f"rules/{g}.md" for g in GAMES), "rules/README.md", "format.md"])
def test_options_without_effect_are_documented_everywhere(page):
    """Issue 13, point 5: an option with no effect under the record's variant or player count is accepted and ignored."""
    text = " ".join((ROOT / "docs" / page).read_text(encoding="utf-8").split())
    assert "accepted and ignored" in text
    assert "## Rule options" in text or "**All the options.**" in text or "| option |" in text or page == "format.md"


def test_broadway_states_the_unplayable_exposure_ruling():
    text = " ".join((RULES_DIR / "broadway.md").read_text(encoding="utf-8").split())
    assert ("an exposed tile that fitted nowhere stays face up in its owner's hand; "
            "it cannot be exposed again (it already is)") in text.lower()


def _tracked_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [ROOT / name for name in out.decode("utf-8", "surrogateescape").split("\0") if name]


#: Written in pieces so that this file does not name them itself.
OUTSIDE = ("../" + "shared", "RULES" + ".md", "FORMAT" + ".md", "NOTATION" + ".md")


def test_no_tracked_file_points_outside_the_repository():
    files = _tracked_files()
    assert files
    offenders = []
    for path in files:
        if not path.is_file():
            continue  # deleted in the work tree
        text = path.read_bytes().decode("utf-8", "replace")
        offenders += [f"{path.relative_to(ROOT)}: {word}" for word in OUTSIDE if word in text]
    assert not offenders, offenders


def test_every_docs_path_named_in_the_project_exists():
    """A comment or a message that sends the reader to docs/… sends them to a page that is there."""
    missing = set()
    for path in _tracked_files():
        if path.suffix in (".py", ".md", ".toml", ".json", ".txt") and path.is_file():
            for named in re.findall(r"docs/[A-Za-z0-9_/.-]+?\.md", path.read_text(encoding="utf-8", errors="replace")):
                if not (ROOT / named).is_file():
                    missing.add(f"{path.relative_to(ROOT)}: {named}")
    assert not missing, sorted(missing)


def _anchors(markdown: str) -> set[str]:
    """The anchors a Markdown renderer (GitHub's rules) gives the headings of a page."""
    out: set[str] = set()
    in_code = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return out


def test_links_between_the_documents_resolve():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    broken = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            file, _, anchor = target.partition("#")
            linked = (page.parent / file).resolve() if file else page
            if not linked.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked.read_text(encoding="utf-8")):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, broken
