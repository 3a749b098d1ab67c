"""Shared test helpers: where the samples are, and a schema validator."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, settings as hypothesis_settings

# Property tests judge verdicts, never speed: on a busy machine an example may take seconds,
# and neither a deadline nor the "too slow" health check may turn that into a failure.  Under
# CI (CI set, as .ci/run sets it) the examples are also drawn from a fixed seed, so a
# run's outcome depends on the code alone; a developer's run draws new ones each time and
# reports any failing example with the seed that reproduces it.
_PROPERTIES = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
hypothesis_settings.register_profile("domrec", **_PROPERTIES)
hypothesis_settings.register_profile("domrec-ci", derandomize=True, database=None, **_PROPERTIES)
hypothesis_settings.load_profile("domrec-ci" if os.environ.get("CI") else "domrec")

# Tables printed at a terminal are laid out for COLUMNS when it is set: a value exported by the
# shell (or a test runner's worker) would change what the tests read.  Tests that want a width
# set it themselves; every other test sees the same layout wherever it runs.
for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)

#: The event loops (anyio blocking portals) kept by the test clients of the running test, closed
#: when it ends: (client, the context that started the portal).
_PORTALS: list[tuple[object, contextlib.AbstractContextManager]] = []


def _one_portal_a_test_client() -> None:
    """Starlette's TestClient, used outside a ``with`` block (as most tests here use it), starts a
    new thread and event loop for every request and stops them after it: two portals a request,
    a fifth of the CPU of a game sent move by move through the venue.  Here a client keeps the
    first one it starts, for the rest of the test, as ``with TestClient(app)`` does (without the
    lifespan messages, which these tests never sent); the portal is stopped as before, waiting
    for whatever the app left running, when the test ends (:func:`_stop_kept_portals`).  What the
    app sees is the same: each request on an event loop of the client's, as under a real server.
    Done once the test modules have imported Starlette's client (never imported here for them)."""
    import anyio.from_thread
    from starlette.testclient import TestClient

    @contextlib.contextmanager
    def portal_factory(self):
        if self.portal is not None:  # inside ``with client:``: its own portal, as Starlette does
            yield self.portal
            return
        kept = self.__dict__.get("_kept_portal")
        if kept is None:
            started = anyio.from_thread.start_blocking_portal(**self.async_backend)
            kept = self._kept_portal = started.__enter__()
            _PORTALS.append((self, started))
        yield kept

    TestClient._portal_factory = portal_factory


def _one_command_an_app() -> None:
    """Typer's test runner makes the Click command of the app it is given again at every
    invocation (typer.testing calls ``typer.main.get_command`` each time): for the tournament
    command line, most of a short command's time, and most of the command-line fuzzers'.  A
    command run for real makes it once a process, then parses its arguments; here it is made once
    for each app, and made again if commands were added to the app since (what a command does,
    reads and prints is the same: the command made is what ``get_command`` makes, and Click parses
    every invocation afresh, as it does for a command it is handed).  Done once the test modules
    have imported Typer's runner (never imported here for them)."""
    import typer.testing

    make = typer.testing._get_command
    made: dict[int, tuple[object, tuple, object]] = {}

    def one_command(app):
        shape = (len(app.registered_commands), len(app.registered_groups), app.registered_callback)
        kept = made.get(id(app))
        if kept is None or kept[0] is not app or kept[1] != shape:
            kept = made[id(app)] = (app, shape, make(app))
        return kept[2]

    typer.testing._get_command = one_command


def _one_engine_files_a_process() -> None:
    """Each venue server (``VenueServer``) keeps an ``EngineFiles``: the phone's engine as it serves
    it, made on first request and kept in memory (the bundle of domrec's modules, zipped, at the
    first table page it serves, a third of a second of a core; Pyodide's WebAssembly gzipped, at a
    page that loads the engine, two seconds more).  A real server makes them once a process; the
    tests start a server of their own for nearly every table page they open, and made them again
    each time, from the same files.  Here the servers of a test process share one ``EngineFiles``
    (its lock guards what it makes): the same bytes, the same addresses, made once.  Done once the
    test modules have imported the venue's app (never imported here for them)."""
    from tournament.web import app
    from tournament.web.engine_bundle import EngineFiles

    shared: dict[tuple, EngineFiles] = {}

    def engine_files(phrases):
        phrases = tuple(phrases)
        if phrases not in shared:
            shared[phrases] = EngineFiles(phrases)
        return shared[phrases]

    app.EngineFiles = engine_files


def pytest_collection_finish(session: pytest.Session) -> None:
    """Once the test modules are imported: their clients keep a portal (if one imported Starlette's),
    Typer's runner makes an app's command once (if one imported it), and the venue's servers share
    the engine's files (if one imported the venue's app)."""
    if "starlette.testclient" in sys.modules:
        _one_portal_a_test_client()
    if "typer.testing" in sys.modules:
        _one_command_an_app()
    if "tournament.web.app" in sys.modules:
        _one_engine_files_a_process()


@pytest.fixture(autouse=True)
def _stop_kept_portals():
    """The portals the test's clients kept, stopped when it ends, as each request's own was
    stopped before."""
    yield
    while _PORTALS:
        client, started = _PORTALS.pop()
        client.__dict__.pop("_kept_portal", None)
        started.__exit__(None, None, None)


ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SCHEMA_PATH = ROOT / "schemas" / "domrec-1.schema.json"

#: README's typed Competitive hand: no seats, no passes, no deal (worked out from ``left``).
TYPED_HAND = """[Game "competitive"]
[N "Ana"]
[E "Bo"]
[S "Cy"]
[W "Di"]

hand 1 lead S
4-2 6-4 3-2 6-2 3-3 6-3 6-6 6-0
4-0 4-1 6-1 2-2 5-2 5-1 1-1 2-1
6-5 2-0 3-0 5-0 4-3 1-0 4-4 5-4
5-3
left N 0-0; E 3-1; W 5-5
"""


def _ecma_pattern(validator, pattern, instance, schema):
    """``pattern`` as JSON Schema defines it (ECMA-262 regular expressions).

    python-jsonschema runs patterns through Python's ``re``, where ``$`` also
    matches before a final newline (``"6-3\\n"`` would pass as a tile) and
    ``\\d`` takes any Unicode digit.  In ECMA-262, without the m flag, ``$``
    is the end of the text and ``\\d`` is 0-9: the contract the schema states.
    """
    if validator.is_type(instance, "string"):
        ecma = re.sub(r"(?<!\\)\$", r"\\Z", pattern)
        if not re.search(ecma, instance, re.ASCII):
            yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


SchemaValidator = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _ecma_pattern})


@pytest.fixture(scope="session")
def schema_validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return SchemaValidator(schema)


def check(doc: dict):
    """Validate a record given as a dict (shape check included)."""
    from domrec.reader import load_dict
    from domrec.validate import validate

    return validate(load_dict(doc))


def problem_at(report, pointer: str):
    """The first problem reported at ``pointer`` (the test fails if there is none)."""
    found = [p for p in report.problems if p.pointer == pointer]
    assert found, [p.text() for p in report.problems]
    return found[0]


def state_before(doc: dict, hand: int, move: int | None = None):
    """The engine's state of hand ``hand`` just before its move ``move`` (``None``: after all its
    moves), replayed through the game's own engine from the start of the record."""
    from domrec import games
    from domrec.reader import load_dict

    rec = load_dict(doc)
    match = games.engine(rec.game).start(rec)
    for k, h in enumerate(rec.hands):
        state = match.start_hand(h)
        for n, m in enumerate(h.moves):
            if (k, n) == (hand, move):
                return state
            state.apply(m)
        if k == hand:
            return state
        match.finish_hand(state)
    raise AssertionError(f"the record has no hand {hand}")


#: (game, players, options, variant): every game, and each option set and player count that
#: changes how a game is written, read or recorded (shared by the notation and recorder tests).
CONFIGS = [
    ("competitive", None, {"first_lead": "any"}, None),
    ("competitive", None, {"first_lead": "double-six"}, None),
    ("horse-race", 2, None, None),
    ("horse-race", 3, None, None),
    ("horse-race", 4, None, None),
    ("horse-race", 4, {"partnerships": True}, None),
    ("horse-race", 4, {"partnerships": True, "count_partner": True}, None),
    ("horse-race", 3, {"chain_draw": False}, None),
    ("horse-race", 4, {"chain_draw": False}, None),
    ("horse-race", 4, {"win_check": "end_of_hand"}, None),
    ("horse-race", 4, None, "celko"),
    ("broadway", None, None, None),
    ("castle-rock", 2, None, None),
    ("castle-rock", 3, None, None),
    ("castle-rock", 4, None, None),
    ("castle-rock", 5, None, None),
    ("castle-rock", 6, None, None),
    ("castle-rock", 4, {"set": "double-nine"}, None),
    ("castle-rock", 6, {"set": "double-twelve"}, None),
    ("castle-rock", 3, {"start_tiles": 3}, None),
    ("domino-roads", 3, None, None),
    ("domino-roads", 4, None, None),
    ("domino-roads", 4, {"block_match": "sum"}, None),
]
IDS = [f"{g}-{n or 'default'}-{'-'.join(f'{k}={v}' for k, v in (o or {}).items()) or 'std'}{'-' + v if v else ''}"
       for g, n, o, v in CONFIGS]


def first_of_each_game() -> list:
    """Every configuration as a parameter: the first of each game in the default run, the rest
    ``pytest --long``'s (a test whose every case costs a whole game or more)."""
    firsts = {next(i for i, c in enumerate(CONFIGS) if c[0] == game) for game, *_ in CONFIGS}
    return [pytest.param(c, id=ident, marks=() if i in firsts else pytest.mark.long)
            for i, (c, ident) in enumerate(zip(CONFIGS, IDS))]


def without_claims(moves: list[dict]) -> list[dict]:
    """Moves as JSON, without their claimed scores (a typed text may leave them out)."""
    return [{k: v for k, v in m.items() if k != "score"} for m in moves]


def comparable_moves(theirs: dict, mine: dict, keep_deal: bool) -> list[dict]:
    """The original hand's moves without claims, as a reading of its typed form gives them back:
    without the deal, a draw in boneyard order is written with its tile where the boneyard is not
    kept."""
    moves = without_claims(theirs["moves"])
    if keep_deal or "boneyard" in mine["deal"]:
        return moves
    order = iter(theirs["deal"].get("boneyard", ()))
    return [{**m, "draw": next(order)} if m.get("draw") is True else m for m in moves]


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): a worker a core, and one more.  Much of the run waits
    rather than computes (a page waiting on its server and on its own timers, a server or a
    recorder started and killed, tmux's screen read): with a worker a core the two cores were busy
    about half the time (2026-12-07, on two cores, idle: 941 s of CPU in an 891 s run), and a third
    worker fills some of those waits (the same code in 844 s, 1,016 s of CPU: a twentieth less time,
    not more; README, "Setup, tests").  Earlier measures on this machine found three no faster
    than two: the gain is small, and the run's verdict does not depend on it."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores + 1


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--long", action="store_true", default=False,
                     help="also run the tests marked long (thorough property runs, tens of minutes)")


def pytest_configure(config: pytest.Config) -> None:
    """``pytest --long`` said before the test modules are imported, so that :func:`examples` (read
    when a module's property tests are decorated) gives the long run's counts."""
    if config.getoption("--long"):
        os.environ["DOMREC_LONG_TESTS"] = "1"


def examples(default: int, long: int) -> int:
    """A property's example count: ``default`` in the default run, ``long`` under ``pytest --long``
    (or ``DOMREC_LONG_TESTS=1``).  For properties whose default run draws fewer examples of the same
    strategy, so that the suite stays under ten minutes; the long run draws the full count."""
    return long if os.environ.get("DOMREC_LONG_TESTS") == "1" else default


def _run_first(item: pytest.Item) -> tuple[bool, bool]:
    """Where a test runs in the order (smallest first): the page tests (the ``browser`` fixture),
    then the other tests marked ``slow``, then the rest, each group in the order collected."""
    return "browser" not in getattr(item, "fixturenames", ()), item.get_closest_marker("slow") is None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The page tests first, one after the other, then the other slow tests, then the rest (no test
    depends on another or on the order they run in).  In the order collected, the page modules of
    tests/tournament/ lie between modules of other tests: a worker closed its Chromium before each
    of those (:func:`pytest_runtest_setup`) and launched it again at the next page module, some
    twenty times a worker, seconds of both cores each time; now once a worker.  The slow tests run
    before the quick ones, so that the run does not end with one worker on a long test while the
    other waits.  (The same order in every worker: pytest-xdist requires it.  Its first batch to a
    worker is a quarter of the worker's share, every page test among them for the first worker,
    unless ``--maxschedchunk`` bounds it: pyproject's addopts give 50, so that the page tests are
    shared out between the workers as they go.)

    Tests marked ``long`` draw thousands of simulated positions; the default run stays under ten
    minutes by leaving them to ``pytest --long`` (or ``DOMREC_LONG_TESTS=1``)."""
    import os

    items[:] = sorted(items, key=_run_first)
    if config.getoption("--long") or os.environ.get("DOMREC_LONG_TESTS") == "1":
        return
    skip = pytest.mark.skip(reason="a long property run: pytest --long runs it")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)


#: The worker's Chromium under Playwright while page modules run one after another: (the context
#: manager that started it, the browser), or None.  See :func:`browser`.
_CHROMIUM: list = []


def _chromium():
    """The worker's Chromium (tests/browser.py), launched when a page module first asks for it."""
    from tests.browser import launched

    if not _CHROMIUM:
        started = launched()
        _CHROMIUM.append((started, started.__enter__()))
    return _CHROMIUM[0][1]


def _close_chromium() -> None:
    while _CHROMIUM:
        started, _ = _CHROMIUM.pop()
        started.__exit__(None, None, None)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Chromium kept from one page module to the next only while page modules follow each other in
    the worker: Playwright's synchronous API holds an event loop running in the test's thread, where
    a test of anything else may run its own (``asyncio.run``), so it is closed before such a test."""
    if _CHROMIUM and "browser" not in getattr(item, "fixturenames", ()):
        _close_chromium()


def pytest_sessionfinish(session: pytest.Session) -> None:
    _close_chromium()


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest):
    """Chromium driven by Playwright (tests/browser.py), one for a module's tests; each test opens
    pages of its own.  The modules that use it skip themselves where it is missing.  Chromium itself
    is launched once for page modules that follow each other in a worker (a launch and a close are a
    second and more of both cores; :func:`pytest_runtest_setup` closes it before any other test);
    when a module's tests are done, every browser context opened in it (its pages, their timers and
    connections, its service workers) is closed, as closing the browser closed them, so nothing of
    one module's pages runs on into the next.

    A table's page loads the phone's engine (Pyodide) once it is idle, several seconds of both
    cores; only the modules marked ``phone_engine`` ask it anything.  Elsewhere the pages opened
    refuse its files (:class:`tests.browser.WithoutEngine`), so that a page driven online does not
    share the machine with an engine booting behind it for nothing; in those modules an action waits
    longer for a page busy booting it (:class:`tests.browser.WithEngine`)."""
    from tests.browser import WithEngine, WithoutEngine, playwright_or_skip

    playwright_or_skip()  # (a test that asks for it where Chromium or Playwright is missing is skipped)
    chromium = _chromium()
    try:
        yield WithEngine(chromium) if request.node.get_closest_marker("phone_engine") else WithoutEngine(chromium)
    finally:
        if _CHROMIUM and _CHROMIUM[0][1] is chromium:
            for context in list(chromium.contexts):
                context.close()
