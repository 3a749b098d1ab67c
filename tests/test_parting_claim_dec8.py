"""A Horse Race sheet copied without its ends whose hand 2 claims 51 for the 15 its play gives (two
digits swapped, the commonest slip of a sheet), as a club's tester typed it:

* the problem named a choice both of whose options were told the same scores ("5-0@5-5 gives N 0,
  E 15, S 0, W 2; 5-0@6-5 gives N 0, E 15, S 0, W 2"), where the scores turn on a later tile
  (5-4); writing that end left the question open.  Now the first legal reading and the first with
  other scores are set side by side at the choices where they part, each with its scores, and the
  claim no reading gives is said too;
* hand 2, counted by its claimed scores once its readings parted, was also counted by the reading
  the verdict stopped at (E 3 + 51 + 15 = 69): hand 3 was refused, "the game is over".  Now it is
  counted once, by its claim, as the note says."""

from __future__ import annotations

import json
import subprocess
import sys

SHEET = """[Game "horse-race"]
[N "Íñigo Muñoz"]
[E "Begoña Alcántara"]
[S "Ramón Cañete"]
[W "Lucía Peñalver"]

hand 1 lead S
6-0 2-0 6-4 4-4 5-2 4-2 43 5-5
5-1 2-1 4-1 3-0 6-5 4-0 5-3 {dominó de Lucía}
left N 6-6 0-0; E 2-2; S 6-2 1-1
end out N 1 E 3 S 0 W 10

hand 2
5-5 5-1 6-1 6-5 5-0 6-0 6-3 3-2
5-4 4-3 3-1
left N 6-4 4-1 0-0; S 4-0 2-0 1-0 5-3; W 1-1 6-6
end out N 0 E {claim} S 0 W 2

hand 3 lead E
6-4 6-2 4-1 1-1 4-2 4-3 2-1 5-1
1-0 6-3
left E 3-2 2-2 6-0; S 2-0 5-4 3-0 4-0; W 3-3 6-1 6-6
end out N 18 E 2 S 0 W 0
"""


def _verdict(tmp_path, claim: str) -> dict:
    """``domrec validate --json`` of the sheet with hand 2 claiming ``claim`` for E."""
    path = tmp_path / "sheet.dgn"
    path.write_text(SHEET.replace("{claim}", claim), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "domrec.cli", "validate", "--json", str(path)],
                          capture_output=True, text=True, timeout=120)
    doc = json.loads(done.stdout)
    return doc["records"][0] if "records" in doc else doc


def test_the_choice_the_scores_turn_on_is_named_with_both_scores_and_the_claim_no_reading_gives(tmp_path):
    report = _verdict(tmp_path, "51")
    messages = [f"{p['line']}:{p['column']}: {p['message']}" for p in report["problems"]]
    assert len(messages) == 1, messages
    said = messages[0]
    assert said.startswith("15:1: 5-4 at 15:1 fits more than one open tile, and the readings give this hand "
                           "different scores ("), said
    assert "gives N 0, E 15, S 0, W 2" in said and "gives N 0, E 14, S 0, W 2" in said, said
    assert said.endswith("no reading gives the scores its end line claims (N 0, E 51, S 0, W 2): check them too"), said


def test_the_hand_counted_by_its_claim_is_counted_once(tmp_path):
    report = _verdict(tmp_path, "51")
    assert not any("the game is over" in p["message"] for p in report["problems"]), report["problems"]
    assert "hand 2 was counted by the scores its end line claims" in report["note"]


def test_with_a_claim_some_reading_gives_no_claim_is_said_wrong(tmp_path):
    for claim in ("15", "14"):
        report = _verdict(tmp_path, claim)
        assert not any("end line claims" in p["message"] for p in report["problems"]), report["problems"]
