"""domrec's engine without its compiled (and large) dependencies: the path the phone's browser runs.

In the table's phone (Pyodide) there is no orjson, no jsonschema with its Rust parts (rpds), and
no Babel (its locale data alone is tens of megabytes).  The modules the phone needs (the reader,
the five engines, the validator, the DGN reader and writer, the recorder's session, the phrases in
Spanish, the venue's table log) must import and judge without them, and judge exactly as they do
with them.  The same checks run twice in a fresh interpreter, once as installed and once with
those modules blocked (an import of them fails, as it would in the browser); their verdicts,
scores, refusals and Spanish sentences must be the same."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BLOCKED = ("orjson", "jsonschema", "jsonschema_specifications", "rpds", "referencing", "babel")

CHECKS = r'''
import json, sys
BLOCKED = %(blocked)r
if BLOCKED:
    class Blocker:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ImportError(f"{name} is blocked (the phone's browser has no such module)")
            return None
    sys.meta_path.insert(0, Blocker())

from domrec import games, phrases
from domrec.convert import text_of
from domrec.notation import dumps as dgn_dumps, loads as dgn_loads
from domrec.session import RequestRefused, Session, requests_for
from domrec.simulate import simulate, make_record
from domrec.validate import validate, validate_text
from tournament.event import table_log
import attrs

out = {}
for game in sorted(games.MODULES):
    seen = []
    for record in simulate(game, 2, 11):
        report = validate(record)
        text_report = validate_text(text_of([record], "json"))
        entry = {"status": report.status, "scores": report.scores, "winner": report.winner,
                 "problems": [p.message for p in report.problems],
                 "es": [phrases.translate(p.message, "es") for p in report.problems],
                 "text": [text_report.status, text_report.scores, [p.message for p in text_report.problems]]}
        doc = json.loads(text_of([record], "json"))  # a move played twice: a broken record
        moves = doc["hands"][0]["moves"]
        moves.insert(1, moves[0])
        broken = validate_text(json.dumps(doc))
        entry["broken"] = [broken.status, [p.message for p in broken.problems],
                           [phrases.translate(p.message, "es") for p in broken.problems]]
        try:
            dgn = dgn_dumps(record)
            back = validate(dgn_loads(dgn))
            entry["dgn"] = [back.status, back.scores, [p.message for p in back.problems]]
        except Exception as e:
            entry["dgn"] = type(e).__name__ + ": " + str(e)
        if report.status == "valid":
            template = attrs.evolve(record, hands=())
            session = Session(template)
            said = []
            for request in requests_for(record):
                said += session.take(request)
            for bad in ("6-6@9-9", "hand 99", "zz 9-9", "end NS 999 EW 0"):
                try:
                    session.take(bad)
                except RequestRefused as e:
                    said.append(e.refusal.message)
                    said.append(phrases.translate(e.refusal.message, "es"))
            state = session.state()
            entry["session"] = {"totals": state["totals"], "over": session.over, "said": said,
                                "es": [phrases.translate(x, "es") for x in said]}
            live = table_log.replay(template, [(k + 1, "dgn", r, "t") for k, r in enumerate(requests_for(record))])
            entry["replayed"] = live.session.state()["totals"]
        seen.append(entry)
    out[game] = seen
loaded = sorted({m.split(".")[0] for m in sys.modules} & set(%(all)r))
print(json.dumps({"games": out, "loaded": loaded}, sort_keys=True, default=str))
'''


def _run(blocked: tuple[str, ...]) -> dict:
    script = CHECKS % {"blocked": blocked, "all": BLOCKED}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.mark.slow
def test_the_engine_judges_the_same_without_compiled_dependencies():
    plain, pure = _run(()), _run(BLOCKED)
    assert pure["loaded"] == []  # none of them was imported on the way
    assert set(pure["games"]) == {"broadway", "castle-rock", "competitive", "horse-race", "domino-roads"}
    for game in plain["games"]:
        assert pure["games"][game] == plain["games"][game], game
    # the checks saw what they are for: refusals, Spanish, finished games
    entries = [e for g in pure["games"].values() for e in g]
    assert any(e["status"] == "valid" and "session" in e for e in entries)
    assert all(e["broken"][0] == "invalid" and e["broken"][1] != e["broken"][2] for e in entries)
    assert any(x != y for e in entries if "session" in e for x, y in zip(e["session"]["said"], e["session"]["es"]))
