"""The venue: tables recording their own games on phones, and the director's desk over them.

What the web server (``tournament serve``) does, as operations on an open event, so that the
server is a thin layer and a test (or another front end) drives the very same code.  Every
write follows one pattern, inside one transaction of the event file (the web server may take
several tables' writes in one group, :meth:`~tournament.store.event_store.EventStore.group`:
each write then a savepoint of the group's transaction, all or nothing on its own, and answered
once the group is committed):

1. the table's revision is read under the write lock; a write that names another revision is
   refused with the table's current state (:class:`Stale`: "the table has moved on");
2. the write is judged: DGN lines through the table's :class:`~domrec.session.Session` (the
   recorder, so the engine checks every move), a confirmation against the finished game;
3. it is appended to the table's log with the next revision, and only then acknowledged.

A table's state is its log replayed, so a server killed at any moment and started again finds
every acknowledged write and nothing else; the primary key (table, revision) stores a write
once or not at all.  A live :class:`~domrec.session.Session` per table is kept in memory while
its revision is the file's, so a move costs one request through the recorder, not a replay.

The result of a game enters the event exactly as ``tournament result`` enters it
(:func:`tournament.event.results.enter_record`: validated, idempotent), in the same transaction
as the confirmation that completes it, marked as entered from the table's page.  From then on
only the director changes it (``amend``, or the director's page, audited).
"""

from __future__ import annotations

import datetime
import json
import logging
import math
import re
import secrets
import threading
from pathlib import Path
from typing import Any, Callable

import attrs

from domrec.convert import text_of
from domrec.errors import DomrecError, one_line
from domrec.i18n import N_
from domrec.session import Session

from tournament.errors import EventFileError, LevelAtTop, TournamentError, WinnerContradicts
from tournament.event import (audit, changes, corrections, desk, duplicate, duplicate_hall, duplicate_teams, results,
                              rounds, table_log, teams)
from tournament.event import progress as event_progress
from tournament.event.results import Entry
from tournament.event.table_log import (CID, CID_REFUSAL, MADE_AT_REFUSAL, MODES, Facts, Live,  # noqa: F401
                                        Locked, Stale, Unprocessable, VenueError, in_words)
from tournament.event.table_log import apply as _apply, progress as _progress, replay as _replay
from tournament.event.tables import table_record
from tournament.pairing import boards as bd
from tournament.pairing import seeding as seed_rules
from tournament.store import boards as board_sql
from tournament.store import fields
from tournament.store import venue as venue_sql
from tournament.store.event_store import EventStore
from tournament.store.sqlite import now
from tournament.values import SCORES_ONLY_NOTE, Player, SeatAssignment, Table

log = logging.getLogger("tournament.venue")

#: Pairing the next round refuses in these words (:func:`tournament.event.rounds.pair_next_round` and
#: what it calls: the seeding, the stages, a duplicate movement, the teams, the Swiss and balanced
#: pairings, the director's pins and keep-apart): the director's "next round" shows them in the page's
#: language.  ``tests/tournament/test_venue_spanish.py`` reads every refusal raised on that way from
#: the code and fails on one not listed here.
PAIRING_REFUSALS = (
    N_("--seed orders a round 1 paired on the standings: a team, duplicate or balanced event's round 1 is "
       "set by its own draw"),
    N_("--seed orders round 1 only: round %(n)s is paired on the standings"),
    N_("--seed is draw, rating, column:NAME (a column of the players CSV) or ratings:FILE (a ratings file), "
       "not %(text)s"),
    N_("player %(name)s (no. %(n)s): %(column)s %(value)s is not a number (the players CSV's %(column2)s "
       "column seeds round 1: a number, or empty for a player without one)"),
    N_("no player has a %(column)s column to seed round 1 by: add the players from a CSV with one "
       "(tournament add EVENT --csv players.csv)"),
    N_("no player has a %(column)s column to seed round 1 by: add the players from a CSV with one "
       "(tournament add EVENT --csv players.csv); the players' columns are %(list)s"),
    N_("round %(n)s is not finished: table %(n2)s has no result yet"),
    N_("round %(n)s is not finished: tables %(list)s have no result yet"),
    N_("pins, keep-apart and sit-outs are not kept in a team event: set the team's line-up (tournament team "
       "EVENT lineup) or withdraw the team"),
    # (the stages: tournament.event.stages.refuse_swiss; a stage's name as the tool gives it when the director
    # gave none)
    N_("this event's final (%(stage)s) was drawn after round %(n)s; no more rounds can be paired — results "
       "of the final's games move it on"),
    N_("this event is in its %(stage)s stage (from round %(n)s); Swiss rounds cannot be paired any more — "
       "results advance the stage"),
    N_("single elimination"),
    N_("double elimination"),
    N_("multi-player knockout"),
    N_("round robin"),
    N_("groups"),
    N_("final table"),
    N_("final tables (%(n)s)"),
    # (a duplicate event: tournament.event.duplicate.pair_round, tournament.pairing.movements; a team match's
    # boards: tournament.event.duplicate_teams.check_boards_for)
    N_("round 1 has not been seated yet: the movement is drawn for the pairs there are then"),
    N_("a duplicate movement needs at least %(n)s pairs (%(n2)s tables); %(n3)s are entered"),
    N_("the %(n)s-table %(kind)s plays boards 1 to %(n2)s; the event has %(n3)s: store all of them (tournament"
       " boards EVENT --boards %(n2)s --seed %(seed)s --replace: that seed deals the event's %(n4)s again as they"
       " are)"),
    N_("the %(n)s-table %(kind)s plays boards 1 to %(n2)s; the event has %(n3)s: store all of them (tournament"
       " boards EVENT --from FILE --replace, a file of all %(n4)s)"),
    N_("the %(n)s-table %(kind)s plays boards 1 to %(n2)s; the event has none: make them first (tournament "
       "boards EVENT --boards %(n2)s)"),
    N_("the %(n)s-table %(kind)s has %(n2)s rounds, and all are seated"),
    N_("a round robin of %(n)s teams has %(n2)s rounds, and all are seated"),
    N_("a duplicate movement is drawn for %(n)s to %(n2)s tables, not %(n3)s"),
    N_("a round has %(n)s to %(n2)s boards, not %(n3)s"),
    N_("--movement mitchell-skip is for an even number of tables: %(n)s pairs play on %(n2)s tables, an odd "
       "number, which a Mitchell plays without a skip or relay (enter pairs for %(n3)s or %(n4)s tables, or "
       "make the event with --movement mitchell)"),
    N_("--rounds %(n)s: a %(n2)s-table %(kind)s (%(n3)s pairs) has 1 to %(n4)s rounds, not %(n5)s (enter more "
       "pairs, or make the event with --rounds %(n6)s or fewer)"),
    N_("round %(n)s plays boards %(n2)s to %(n3)s; the event has boards 1 to %(n4)s (deal them before round "
       "1: tournament boards EVENT --boards %(n3)s or more)"),
    N_("round %(n)s plays boards %(n2)s to %(n3)s; the event has none (deal them before round 1: tournament "
       "boards EVENT --boards %(n3)s or more)"),
    # (one board, said as one: duplicate.boards_span)
    N_("round %(n)s plays boards %(n2)s to %(n3)s; the event has board 1 (deal them before round 1: tournament "
       "boards EVENT --boards %(n3)s or more)"),
    N_("round %(n)s plays board %(n2)s; the event has boards 1 to %(n3)s (deal them before round 1: tournament "
       "boards EVENT --boards %(n2)s or more)"),
    N_("round %(n)s plays board %(n2)s; the event has board 1 (deal them before round 1: tournament boards "
       "EVENT --boards %(n2)s or more)"),
    N_("round %(n)s plays board %(n2)s; the event has none (deal them before round 1: tournament boards EVENT "
       "--boards %(n2)s or more)"),
    # (a Swiss or rotating round: tournament.pairing.swiss; the director's pins and keep-apart:
    # tournament.pairing.constraints)
    N_("round %(n)s needs at least %(n2)s active players; there are %(n3)s"),
    N_("round %(n)s cannot be seated so that every player has a new partner (%(n2)s players; tried %(n3)s "
       "fair choices of byes)"),
    N_("round %(n)s needs at least two active pairs; there are %(n2)s"),
    N_("round %(n)s cannot be paired without two pairs meeting again (%(n2)s pairs)"),
    N_("round %(n)s cannot keep %(name)s and %(name2)s apart (every pairing seats them together); lift it "
       "with `tournament apart EVENT A B --lift` and pair again"),
    N_("round %(n)s has %(n2)s tables: %(name)s cannot sit at table %(n3)s as pinned"),
    N_("round %(n)s has %(n2)s table: %(name)s cannot sit at table %(n3)s as pinned"),
    N_("round %(n)s seats %(name)s and %(name2)s together, pinned to tables %(n2)s and %(n3)s: unpin one"),
    N_("round %(n)s: %(name)s and %(name2)s are both pinned to table %(n2)s but seated apart: unpin one"),
    # (a balanced schedule: tournament.pairing.schedule)
    N_("a balanced schedule needs at least 4 players; there are %(n)s"),
    N_("%(n)s players can play at most %(n2)s rounds without anyone partnering anyone twice, not %(n3)s; "
       "%(n3)s rounds need %(n4)s players"),
    N_("no schedule of %(n)s rounds without a repeated partner was found for %(n2)s players (the search "
       "reached %(n3)s rounds)"),
    N_("the balanced schedule of this event has %(n)s rounds, all paired"),
    N_("the field changed before round %(n)s (late entries or withdrawals), and the %(n2)s rounds left "
       "cannot be re-planned for it: %(problem)s"),
    # (a team event: tournament.pairing.teams)
    N_("team %(name)s has %(n)s pairs to play in round %(n2)s, not %(n3)s: %(why)s, so bring a reserve into "
       "the pair that left (tournament team EVENT sub) or withdraw the team"),
    N_("team %(name)s has %(n)s pair to play in round %(n2)s, not %(n3)s: %(why)s, so bring a reserve into "
       "the pair that left (tournament team EVENT sub) or withdraw the team"),
    N_("a set is played by all of a team's pairs"),
    N_("a duplicate match plays its boards at both tables, with both of a team's pairs"),
    N_("team %(name)s has %(n)s pairs to play in round %(n2)s, not %(n3)s: enter its pairs (or withdraw the "
       "team) first"),
    N_("team %(name)s has %(n)s pair to play in round %(n2)s, not %(n3)s: enter its pairs (or withdraw the "
       "team) first"),
    N_("round %(n)s needs at least two active teams; there are %(n2)s"),
    N_("round %(n)s cannot be paired without two teams meeting again (%(n2)s teams)"),
    N_("a round robin of %(n)s teams has %(n2)s rounds; round %(n3)s is one too many"),
)

#: What the venue says and refuses in its own words, as patterns (:mod:`domrec.phrases`), so
#: that the web layer can show them in a player's language; the engines' and the recorder's
#: sentences are listed in domrec.
#: The director's page seeds round 1 as ``pair --seed`` does, but for a ratings file.
SEED_REFUSAL = N_('"seed" is draw, rating or column:NAME (round 1 only; a ratings file is seeded from the command '
                'line: tournament pair EVENT --seed ratings:FILE)')

#: The director's page entering a first result at a table whose phone has a game in progress,
#: without a reason (:meth:`Venue.director_result`; the command line's words name ``--replace``).
GAME_ON_PHONE = N_("round %(n)s table %(n2)s has a game in progress on its table phone: let the table finish it "
                   "and confirm it there, or give the reason for entering this result over it; nothing was stored")

#: The director's page entering a duplicate board's first result (:meth:`Venue.director_result`, the
#: command line's ``tournament result --board B --score``) while the table's phone is playing that
#: board, or at a table where it is marked not played, without a reason (the command line's words
#: name ``--replace``).
BOARD_ON_PHONE = N_("table %(n)s's phone is playing board %(n2)s: let the table finish it and confirm it there, "
                    "or give the reason for entering this result over it; nothing was stored")
BOARD_MARKED = N_("round %(n)s table %(n2)s board %(n3)s is marked not played: give the reason for entering its "
                  "result instead; nothing was stored")

#: The director's refusal of an ``ended`` that is not a way a board's hand can end under the
#: event's rules (:func:`tournament.event.duplicate.board_ends`, the one list every path offers):
#: a sentence for each list the engines give, and one for any other.
ENDED_MUST = {("out",): N_('"ended" must be "out"'),
              ("out", "blocked"): N_('"ended" must be "out" or "blocked"'),
              ("out", "blocked", "target"): N_('"ended" must be "out", "blocked" or "target"')}
ENDED_MUST_ANY = N_('"ended" must be one of %(list)s')


def ended_refusal(ends: tuple[str, ...]) -> str:
    """Why an ``ended`` outside ``ends`` is refused, in one line naming the ways allowed."""
    return ENDED_MUST.get(ends) or ENDED_MUST_ANY % {"list": ", ".join(f'"{e}"' for e in ends)}


#: A table's last confirmation finding the table's result stored already (the director's, landed
#: after the confirmation read the table): the phone's game is not stored (:meth:`Venue._enter`;
#: the command line's words name ``--replace``).
HAS_RESULT = N_("round %(n)s table %(n2)s already has a result (%(scores)s): this game was not stored; call the "
                "director")

#: A duplicate table's last confirmation of a board finding the board's result stored already (the
#: director's, landed after the confirmation read the table): the phone's hand is not stored
#: (:meth:`Venue._enter_board`; the command line's words name ``--replace``).  A 422, said as it
#: is: a 409 is taken by the phone for a table another phone moved on.
BOARD_HAS_RESULT = N_("the director entered board %(n)s's result meanwhile (%(scores)s): this hand was not stored; "
                      "call the director")

#: The director's page's word for a table whose result the director entered over the game its
#: phone had started (:meth:`Venue.overview`: its progress; the table's page, table.js, says the same).
DIRECTORS_RESULT = N_("result entered by the director")

#: The director's page at the end of a duplicate session: the movement's rounds all seated and
#: played (:meth:`Venue.overview`, ``finished``), said where "Pair the next round" is greyed.
SESSION_OVER = N_("The session is over: %(why)s.")
#: A team round robin's last round played (:meth:`Venue._finished_words`).
EVENT_OVER = N_("The event is over: %(why)s.")

#: The director's page taking back a result that is not there (:meth:`Venue.director_clear`; the
#: command line's words name ``tournament result``): how the page enters one instead.
NO_RESULT_TO_CLEAR = N_("round %(n)s table %(n2)s has no result to take back: enter one with Save the result; "
                        "nothing was changed")

REFUSALS = (
    GAME_ON_PHONE,
    NO_RESULT_TO_CLEAR,
    HAS_RESULT,
    BOARD_HAS_RESULT,
    BOARD_ON_PHONE,
    BOARD_MARKED,
    SESSION_OVER,
    EVENT_OVER,
    N_("round %(n)s table %(n2)s has no game to show: its result is a forfeit"),
    N_("round %(n)s table %(n2)s has no game to show: its result is a score typed by hand"),
    N_("round %(n)s table %(n2)s plays no boards: its replay is its game's"),
    N_("round %(n)s table %(n2)s plays boards %(list)s, not board %(n3)s"),
    N_("round %(n)s table %(n2)s has no board played move by move yet: a typed score has no game to show"),
    N_("round %(n)s table %(n2)s board %(n3)s is not played yet"),
    N_("round %(n)s table %(n2)s board %(n3)s has a typed score: there is no game to show"),
    N_("round %(n)s has not been paired (the last round is %(n2)s)"),
    N_("round %(n)s has not been paired"),
    N_("round %(n)s has no table %(n2)s"),
    # (a duplicate round: tournament.event.duplicate.no_table; a sit-out's table, or the round's tables
    # where a sit-out leaves a gap)
    N_("round %(n)s has no table %(n2)s: pair %(n3)s (%(name)s) sits out this round, table %(n4)s is not played"),
    N_("round %(n)s has no table %(n2)s (it has tables %(list)s)"),
    N_("round %(n)s table %(n2)s: %(problem)s"),
    N_("%(problem)s; nothing was stored"),
    # A score typed by the director (tournament.event.results: _manual_scores, Entry.summary).
    N_("the score of %(side)s, %(n)s, is below zero, which no game of %(game)s can end with (%(why)s)"),
    N_("the score of %(side)s, %(text)s, is past the limit of %(limit)s points a side"),
    N_("table %(n)s has sides %(list)s; a score is needed for each of them, and nothing else (given: %(list2)s)"),
    N_("table %(n)s has sides %(list)s; a score is needed for each of them, and nothing else (given: none)"),
    N_("%(list)s and %(side)s are level on %(n)s at the top of table %(n2)s: say who won by the game's rules with "
       "--winner %(side2)s (or another of them)"),
    # (the director's page and the API: no flag; the level sides come as the refusal's "level")
    N_("%(list)s and %(side)s are level on %(n)s at the top of table %(n2)s: say who won by the game's rules"),
    N_("%(side)s is not a side of table %(n)s (%(list)s)"),
    # (the director's page and the API: "winner" named, no flag)
    N_("the winner named, %(side)s, contradicts the scores: %(list)s scored more (%(n)s to %(n2)s); name a winner "
       "only when the highest scores are level"),
    N_("the winner named, %(side)s, contradicts the scores: %(list)s and %(side2)s scored more (%(n)s to %(n2)s); "
       "name a winner only when the highest scores are level"),
    N_("--winner %(side)s contradicts the scores: %(list)s scored more (%(n)s to %(n2)s); give --winner only "
       "when the highest scores are level"),
    N_("--winner %(side)s contradicts the scores: %(list)s and %(side2)s scored more (%(n)s to %(n2)s); give "
       "--winner only when the highest scores are level"),
    N_("give the reason for changing a result (it goes into the audit trail)"),
    N_('"scores" must be an object of whole numbers, one per side: {"NS": 120, "EW": 80}'),
    N_("round %(n)s table %(n2)s: %(scores)s; winner %(side)s (manual entry, unverified) — stored"),
    N_("round %(n)s table %(n2)s: %(scores)s; a draw (manual entry, unverified) — stored"),
    N_("round %(n)s table %(n2)s: %(scores)s; winner %(side)s (manual entry, unverified) — amended (the old "
       "result is kept: `tournament history`)"),
    N_("round %(n)s table %(n2)s: %(scores)s; a draw (manual entry, unverified) — amended (the old result is "
       "kept: `tournament history`)"),
    N_("this link's key is not one of this event's: ask the director for the table's link"),
    N_("a table's link opens its own table only"),
    N_("this link opens another table, or another round: use the link of this table"),
    N_("this link's key is not one of this event's tables: ask the director for the table's link"),
    N_("this link's table is no longer in the event"),
    N_("name a tile, such as 6-4"),
    N_('"rev" must be the table\'s revision, a whole number'),
    N_("the table has moved on (revision %(n)s, not %(n2)s): nothing was changed; here is the table now"),
    N_("another phone of this table recorded this same line first: it is in the game once"),
    N_("round %(n)s table %(n2)s is confirmed: only the director can change its result now"),
    N_('"text" must be DGN text: one or more lines'),
    N_("this event has no time limit: a game ends by its rules"),
    N_("the text holds a control character (U+%(code)s): type letters, digits and signs only"),
    N_('"mode" is "play" (play by play) or "sheet" (scores only)'),
    N_("this table records play by play"),
    N_("this table records scores only"),
    N_("the director has been called"),
    N_("the call is cleared"),
    N_("the director was not called to this table"),
    # (a table's calls and mode switches past their cap, and a table's writes once its round is over:
    # tournament.event.table_log.judge_call, judge_mode, check_open)
    N_("this table has called the director %(n)s times, the most a table may: go to the director in person"),
    N_("this table has switched between play by play and scores only %(n)s times, the most a table may: ask the "
       "director"),
    N_("round %(n)s is over: call the director from the table you play at now"),
    N_("round %(n)s is over: this table's phone records nothing more (the director enters what is still missing)"),
    N_("confirm for one of %(list)s"),
    N_("the game is not over yet: it is confirmed once it is finished"),
    N_("%(side)s has confirmed already"),
    N_("type your 4-digit PIN (from your slip) to confirm"),
    N_("that PIN is not the PIN of a player of %(side)s"),
    N_("that PIN is not the PIN of a player of %(side)s: after %(n)s wrong PINs, this table's confirmations wait "
       "%(n2)s seconds (the director can clear them)"),
    N_("that is not the director's PIN: after %(n)s wrong PINs, this table's confirmations and the director's PIN "
       "wait %(n2)s seconds (the director can clear them)"),
    N_("that is not the director's PIN: after %(n)s wrong director's PINs at the tables, the director's PIN waits "
       "%(n2)s seconds at every table (the director's page clears it)"),
    N_("that is not the director's PIN: after %(n)s wrong director's PINs at the tables, the director's PIN waits "
       "%(n2)s seconds at every table, and this table's confirmations %(n3)s seconds (the director's page clears "
       "them)"),
    N_("too many wrong PINs at this table: confirmations wait %(n)s seconds more (the director can clear them)"),
    N_("too many wrong PINs at this table: confirmations wait 1 second more (the director can clear them)"),
    N_("too many wrong PINs at this table: its confirmations and the director's PIN wait %(n)s seconds more (the "
       "director's page clears them)"),
    N_("too many wrong PINs at this table: its confirmations and the director's PIN wait 1 second more (the "
       "director's page clears them)"),
    N_("the director's PIN is 6 digits, as the director's page shows it"),
    N_("too many wrong director's PINs at the tables: the director's PIN waits %(n)s seconds more at every table "
       "(the director's page clears it)"),
    N_("too many wrong director's PINs at the tables: the director's PIN waits 1 second more at every table "
       "(the director's page clears it)"),
    N_("round %(n)s table %(n2)s has had no wrong PIN: there is nothing to clear"),
    N_("round %(n)s table %(n2)s: %(n3)s wrong PINs cleared; its confirmations wait no more"),
    N_("round %(n)s table %(n2)s: 1 wrong PIN cleared; its confirmations wait no more"),
    N_("%(n)s wrong director's PINs at the tables cleared: the director's PIN waits at no table"),
    N_("1 wrong director's PIN at the tables cleared: the director's PIN waits at no table"),
    N_("no wrong director's PIN has been typed at the tables: there is nothing to clear"),
    N_("%(side)s confirmed"),
    N_("round %(n)s table %(n2)s: %(scores)s; winner %(side)s (verified record) — stored"),
    N_("round %(n)s table %(n2)s: %(scores)s; a draw (verified record) — stored"),
    N_("round %(n)s table %(n2)s: %(scores)s; winner %(side)s (scores only) — stored"),
    N_("round %(n)s table %(n2)s: %(scores)s; a draw (scores only) — stored"),
    N_("round %(n)s table %(n2)s: hand %(n3)s corrected; the game is recorded again"),
    N_("round %(n)s table %(n2)s: %(scores)s; winner %(side)s (verified record) — amended (the old result is kept: "
       "`tournament history`)"),
    N_("round %(n)s table %(n2)s: %(scores)s; a draw (verified record) — amended (the old result is kept: "
       "`tournament history`)"),
    N_("round %(n)s table %(n2)s: %(scores)s; winner %(side)s (scores only) — amended (the old result is kept: "
       "`tournament history`)"),
    N_("round %(n)s table %(n2)s: %(scores)s; a draw (scores only) — amended (the old result is kept: "
       "`tournament history`)"),
    N_("give the reason for the correction (it goes into the audit trail)"),
    N_("the correction changes nothing"),
    N_("there is no hand %(n)s: the game has %(n2)s hands"),
    N_("there is no hand %(n)s: the game has %(n2)s hand"),
    N_("hand %(n)s has no line %(n2)s: it has %(n3)s"),
    N_("this table has recorded nothing yet: there is nothing to correct"),
    N_("hand %(n)s, line %(n2)s (%(text)s): %(problem)s; nothing was changed"),
    N_("round %(n)s table %(n2)s has its result: a correction must leave its game finished (this one leaves it "
       "in play); nothing was changed"),
    N_("round %(n)s table %(n2)s: %(scores)s; winner %(side)s (verified record, ended on time: the side ahead "
       "wins) — stored"),
    N_("round %(n)s table %(n2)s: %(scores)s; a draw (verified record, ended on time: the side ahead wins) — "
       "stored"),
    N_("only the director's link may do this"),
    SEED_REFUSAL,
    N_("type the director's PIN"),
    N_("that is not the director's PIN"),
    N_("this is not the director's link of this event"),
    N_("this waits for the connection to the server: it is sent as soon as the table reaches it"),
    N_("the server could not take this (a fault of its own): nothing was stored; the table is as it was, and "
       "the director can find the detail in the server's log"),
    N_('"cid" must be the write\'s own id from the phone: 8 to 100 letters, digits and - _ . :'),
    # (an id sent again with another write than the one it was first sent with: Venue.once)
    N_('"cid" is the id of another write already: send this write with an id of its own'),
    N_('"at" must be when the write was made on the phone, as an ISO 8601 time such as 2026-12-02T20:15:00Z'),
    # A duplicate table (docs/duplicate.md: at the venue).
    N_("this table has played all its boards of the round"),
    N_("a duplicate event's results are entered board by board: tournament result EVENT --round R --table T "
       "--board B --score NS=..,EW=.. (or the hand's record)"),
    N_("board %(n)s is one hand: it is confirmed before the next board starts"),
    N_("board %(n)s deals %(tile)s to %(seat)s, not to %(seat2)s: this table plays the board's deal"),
    N_("board %(n)s deals %(tile)s to no seat, not to %(seat)s: this table plays the board's deal"),
    N_("hand %(n)s is not board %(n2)s's deal: board %(n3)s is led by %(seat)s, the record's hand %(n4)s by "
       "%(seat2)s"),
    N_("hand %(n)s is not board %(n2)s's deal: board %(n3)s deals %(tile)s to %(seat)s; the record deals it to "
       "%(seat2)s (and %(tile2)s to %(seat3)s)"),
    N_("hand %(n)s is not board %(n2)s's deal: the record deals %(tile)s to %(seat)s; board %(n3)s does not"),
    N_("round %(n)s table %(n2)s board %(n3)s: NS %(n4)s, EW %(n5)s (verified record) — stored"),
    N_("round %(n)s table %(n2)s board %(n3)s: NS %(n4)s, EW %(n5)s (verified record) — already stored; nothing "
       "changed"),
    N_("round %(n)s table %(n2)s board %(n3)s: NS %(n4)s, EW %(n5)s (typed score, unverified) — stored"),
    N_("round %(n)s table %(n2)s board %(n3)s: NS %(n4)s, EW %(n5)s (typed score, unverified) — replaced"),
    # (a board's result at a duplicate-teams table whose match's other table has it marked not played:
    # BoardEntry.sentences)
    N_("it does not count while board %(n)s is marked not played at table %(n2)s, the match's other table (the "
       "board is not scored in the match): it counts once that mark is taken back"),
    N_("round %(n)s table %(n2)s board %(n3)s has no result yet: there is nothing to correct"),
    # The director's page and API: their own refusals of a body, and those of the operations they
    # call (a result cleared: tournament.event.results.clear_result; a board's score corrected:
    # tournament.event.duplicate.correct_score; the reason checked: tournament.event.audit.clean_text).
    N_('"reason" must be text'),
    N_('"winner" must be a side or seat'),
    N_('"board" must be the number of the board to correct'),
    *ENDED_MUST.values(), ENDED_MUST_ANY,
    N_("give the reason for clearing a result (it goes into the audit trail)"),
    N_('"hand" must be the number of the hand to correct'),
    N_('"line" must be the number of the line to correct (or null: the whole hand)'),
    N_('"text" must be the corrected line (empty: remove it)'),
    N_("%(problem)s; nothing was changed"),
    N_("round %(n)s is not finished: table %(n2)s has no confirmed result yet"),
    N_("round %(n)s is not finished: tables %(list)s have no confirmed result yet"),
    N_("round %(n)s is not finished: table %(n2)s has a board with no result yet"),
    N_("round %(n)s is not finished: tables %(list)s have boards with no result yet"),
    N_("round %(n)s is paired"),
    N_("round %(n)s table %(n2)s has no result to clear (enter it with `tournament result`)"),
    # (a result cleared: tournament.event.results.Cleared.summary, one a kind of result)
    N_("round %(n)s table %(n2)s: the result (%(scores)s; record) is cleared — kept in the audit trail "
       "(`tournament history`); the table is to play again"),
    N_("round %(n)s table %(n2)s: the result (%(scores)s; manual) is cleared — kept in the audit trail "
       "(`tournament history`); the table is to play again"),
    N_("round %(n)s table %(n2)s: the result (%(scores)s; forfeit) is cleared — kept in the audit trail "
       "(`tournament history`); the table is to play again"),
    N_("round %(n)s does not exist (the last round is %(n2)s)"),
    N_("no round has been paired yet; there is no result to clear"),
    N_("round %(n)s has no table %(n2)s (it has %(n3)s tables)"),
    N_("round %(n)s has no table %(n2)s (it has 1 table)"),
    N_("round %(n)s table %(n2)s was confirmed at the table on the venue's phones: correct its game there "
       "(tournament correct) or with tournament amend"),
    N_("round %(n)s is a stage's round (a knockout, a round robin, a final), whose draw moves on with each result: "
       "correct table %(n2)s with tournament amend"),
    N_("a team match in sets seats its next games from each result: correct it with tournament amend"),
    N_("a duplicate table's results are its boards': take one back with tournament clear EVENT --round R --table T "
       "--board B --reason TEXT (or correct it: tournament result EVENT --round R --table T --board B "
       "--score NS=..,EW=.. --replace)"),
    N_("give the reason for correcting a board's result (it goes into the audit trail)"),
    # A board marked not played, or its result taken back, from the director's page: the page's own
    # refusals, then tournament.event.duplicate.mark_not_played's and clear_board's (BoardMark.summary).
    N_('"board" must be the number of the board'),
    N_("give the reason for marking a board not played (it goes into the audit trail)"),
    N_("give the reason for taking a board's result back (it goes into the audit trail)"),
    N_("round %(n)s table %(n2)s board %(n3)s: not played — no score there; the board is scored over the tables "
       "that played it"),
    N_("round %(n)s table %(n2)s board %(n3)s: no longer marked not played; its result is to be entered"),
    # (taken back while the table's phone, past the board, plays a later one: duplicate._refuse_phone_past)
    N_("table %(n)s's phone is playing board %(n2)s, after board %(n3)s: let the table finish that hand first "
       "(taken back now, the hand would count as the earlier board's); nothing was changed"),
    # (marked over the hand the table's phone was playing: "replace")
    N_("table %(n)s's phone no longer plays board %(n2)s (its moves stay in the venue's log)"),
    # (a mark taken back where a mark over play had closed the board on a phone: BoardMark.to_enter)
    N_("table %(n)s's phone does not play board %(n2)s again (it was closed there): its result is to be entered by "
       "the director"),
    N_("round %(n)s table %(n2)s board %(n3)s was already marked not played, %(when)s by %(who)s — %(reason)s; "
       "nothing was changed"),
    # (the same, marked from this page: its author's words are the page's, said in the page's language)
    N_("round %(n)s table %(n2)s board %(n3)s was already marked not played, %(when)s by the director's page — "
       "%(reason)s; nothing was changed"),
    N_("round %(n)s table %(n2)s board %(n3)s: result NS %(n4)s, EW %(n5)s taken back (kept in the history); the "
       "board is to be entered again"),
    # (and after it, when the last round, unplayed, was paired on standings it changed: the command
    # line's note, tournament.event.desk.stale_board_pairing)
    N_("note: round %(n)s was paired on team standings this correction has changed, and none of it is played "
       "yet: `tournament unpair %(event)s` then `tournament pair %(event)s` pairs it again"),
    N_("note: round %(n)s was paired on standings this correction has changed, and none of it is played yet: "
       "`tournament unpair %(event)s` then `tournament pair %(event)s` pairs it again"),
    # (the page's own advice for two of them: _director_board)
    N_("round %(n)s table %(n2)s board %(n3)s has a result (NS %(n4)s, EW %(n5)s): take it back first (Take the "
       "board's result back)"),
    N_("table %(n)s's phone is playing board %(n2)s: finish the hand there and confirm it (this page then corrects "
       "its score: Save the result), or enter its score at the command line (tournament result EVENT --round %(n3)s "
       "--table %(n4)s --board %(n5)s --score NS=..,EW=.. --replace)"),
    N_("round %(n)s table %(n2)s board %(n3)s has no result: there is nothing to take back"),
    N_("a board not played is for a duplicate event (tournament new --format duplicate); this event is "
       "%(format)s"),
    N_("taking back a board's result is for a duplicate event (tournament new --format duplicate); this event is "
       "%(format)s"),
    N_("round %(n)s table %(n2)s board %(n3)s: not played — the board is not scored in the match of tables "
       "%(n4)s-%(n5)s (a result at the other table does not count)"),
    N_("round %(n)s table %(n2)s board %(n3)s: result NS %(n4)s, EW %(n5)s taken back (kept in the history); the "
       "board is not scored in the match (not played at table %(n6)s)"),
    N_("table %(n)s of round %(n2)s plays board %(n3)s, not board %(n4)s"),
    N_("table %(n)s of round %(n2)s plays boards %(list)s, not board %(n3)s"),
    N_("the tables of round %(n)s play boards %(list)s, not board %(n2)s"),  # (duplicate teams)
    N_("board %(n)s: %(problem)s"),
    N_("the reason is %(n)s characters long; at most %(n2)s are kept in the audit trail"),
    N_("the reason contains a line break or control character (U+%(code)s); the audit trail keeps one line of "
       "text"),
    N_("the reason contains direction-control characters (%(list)s): type the text as it reads; right-to-left "
       "words show in their own order without them"),
    *PAIRING_REFUSALS,
)

#: An id sent again with another write than its own (:meth:`Venue.once`).
ID_OF_ANOTHER_WRITE = '"cid" is the id of another write already: send this write with an id of its own'

#: What a write that met a fault of the server's own is answered (nothing of it stored).
FAULT = ("the server could not take this (a fault of its own): nothing was stored; the table is as it was, and "
         "the director can find the detail in the server's log")


def _not_finished(round_no: int, open_tables: list[int], boards: bool) -> str:
    """Why the next round cannot be paired yet, in the director's page's words: the refusal of
    its tap, and the line beside the greyed button before any tap (``boards``: a duplicate table's
    result is its boards')."""
    shown = ", ".join(map(str, open_tables[:10])) + ("…" if len(open_tables) > 10 else "")
    many = len(open_tables) > 1
    if boards:
        return f"round {round_no} is not finished: " + (f"tables {shown} have boards with no result yet" if many
                                                        else f"table {shown} has a board with no result yet")
    return (f"round {round_no} is not finished: table{'s' if many else ''} {shown} ha{'ve' if many else 's'} "
            f"no confirmed result yet")


def _withheld_rows(rows: list[tuple[int, str, str, str]], shown: set[int]) -> list[tuple[int, str, str, str]]:
    """A duplicate table's log with the play of each board not in ``shown`` (its moves, the
    director's corrections) read as :data:`~tournament.event.table_log.WITHHELD` rows of the same
    revision and time.  A board's play is the rows before the ``board`` row that closes it (which
    names it); the rows after the last such row are a board's still open, withheld unless every
    board is shown (the caller asks only then: :meth:`Venue._withheld_view`)."""
    out = list(rows)
    open_play: list[int] = []
    for k, (rev, kind, body, at) in enumerate(rows):
        if kind in ("dgn", "correct"):
            open_play.append(k)
        elif kind == "board":
            try:
                closed: int | None = int(json.loads(body)["board"])
            except (ValueError, KeyError, TypeError):
                closed = None
            if closed not in shown:
                for j in open_play:
                    out[j] = (rows[j][0], table_log.WITHHELD, "", rows[j][3])
            open_play = []
    for j in open_play:
        out[j] = (rows[j][0], table_log.WITHHELD, "", rows[j][3])
    return out


def _for_the_table(row: tuple[int, str, str, str]) -> list[Any]:
    """A log row as the table's phones are sent it: a correction's row without who made it and
    why (files written before this kept them in the row; the director's trail holds them)."""
    rev, kind, body, at = row
    if kind == "correct":
        try:
            data = json.loads(body)
        except ValueError:
            data = None
        if isinstance(data, dict) and ("by" in data or "reason" in data):
            data.pop("by", None)
            data.pop("reason", None)
            body = json.dumps(data, ensure_ascii=False)
    return [rev, kind, body, at]


class NotFound(VenueError):
    status = 404


class Forbidden(VenueError):
    status = 403


class WrongPin(Forbidden):
    """A confirmation with a PIN that is none of the side's players': counted against the table
    (:meth:`Venue.confirm`) once the refused write is undone."""

    def __init__(self, message: str, table: Table, side: str) -> None:
        super().__init__(message)
        self.table, self.side = table, side


class Waiting(VenueError):
    """The table has had too many wrong PINs: its confirmations wait ``retry_after`` seconds more
    (the right PIN too), whatever device sends them.  ``every_table``: the wait is the event's
    (too many wrong director's PINs at its tables together), not this table's own: the page that
    counts it down says so in its own words (the API's ``pin_wait_every_table``)."""

    status = 429

    def __init__(self, message: str, retry_after: int, every_table: bool = False) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.every_table = every_table


class Replayed(Unprocessable):
    """A write sent again with the id of one already refused: the same refusal, its status too
    (``status`` is the first refusal's: 409 for a table that had moved on, 422 for a rule)."""

    def __init__(self, message: str, status: int, line: int | None = None, column: int | None = None,
                 state: dict | None = None, level: list[str] | None = None) -> None:
        super().__init__(message, line, column, state, level)
        self.status = status


def _deal_lines(board: bd.Board) -> str:
    """A board's hand line and deal as DGN lines (``hand 1 lead N``, ``deal N 6-4 …``, the boneyard,
    row or piles): what a duplicate table's ``hand`` line starts."""
    from domrec import notation

    text = notation.dumps(attrs.evolve(board.template(), hands=(board.hand(),)))
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("[")]
    start = next(k for k, line in enumerate(lines) if line.split()[0].lower() == "hand")
    return "\n".join(lines[start:])


#: A line that starts a hand or gives its deal or leader (``hand 1 lead N``, ``deal N 6-6 …``).
_HAND_LINE = re.compile(r"(?im)^\s*(hand|deal|lead)\b")


def _check_deal_lines(board: bd.Board, seats: tuple[str, ...], text: str) -> None:
    """A duplicate table's own ``deal`` lines are the board's: each seat's tiles, line by line, as
    soon as they are sent (seats matched by their order at the table, tiles as tiles).  The first
    tile that differs is named; the rest of the deal is checked whole once the hand is read."""
    from domrec import tiles as T
    from domrec.errors import DomrecError

    where = {seat: board.seats[k] for k, seat in enumerate(seats) if k < len(board.seats)}
    owner = {str(T.tile(t)): s for s, ts in board.deal.hands.items() for t in ts}
    for number, line in enumerate(text.split("\n"), 1):
        words = line.split()
        if len(words) < 2 or words[0].lower() != "deal" or words[1] not in where:
            continue
        for word in words[2:]:
            try:
                tile = str(T.tile(word))
            except DomrecError:
                continue  # not a tile: the recorder says so
            if owner.get(tile) != where[words[1]]:
                held = owner.get(tile)
                column = len(line) - len(line.lstrip()) + 1
                to = f"to {held}" if held is not None else "to no seat"
                raise Unprocessable(f"{number}:{column}: board {board.number} deals {tile} {to}, not to {words[1]}: "
                                    f"this table plays the board's deal", number, column)


def ensure_tokens(store: EventStore, round_no: int | None = None) -> None:
    """The director's key and PIN, and a key for each table of ``round_no`` (default: the last
    paired); those already made are kept (a printed QR code stays good)."""
    rnd = round_no if round_no is not None else store.last_round()
    if rnd and not 1 <= rnd <= store.last_round():
        raise NotFound(f"round {rnd} has not been paired (the last round is {store.last_round()})")
    with store.write():
        venue_sql.upgrade_for_venue(store)
        if venue_sql.director_token(store) is None:
            venue_sql.insert_token(store, "director", None, now())
        if venue_sql.director_pin(store) is None:
            venue_sql.insert_director_pin(store, now())
        if rnd:
            tables = store.tables(rnd)
            have = venue_sql.table_tokens(store, [t.id for t in tables])
            for t in tables:
                if t.id not in have:
                    venue_sql.insert_token(store, "table", t.id, now())


def links(store: EventStore, base: str, round_no: int | None = None, hall: str | None = None) -> dict[str, Any]:
    """Every link of the venue: ``{"director", "director_pin", "public", "tables": [{round, table,
    url, token}]}`` for ``round_no`` (default: the last paired), its keys (and the director's PIN)
    made where they were missing.  The public page is at ``hall`` if given, else at the hall's
    address ``serve`` remembered with ``base`` (:func:`hall_url`)."""
    ensure_tokens(store, round_no)
    rnd = round_no if round_no is not None else store.last_round()
    base = base.rstrip("/")
    public = (hall if hall is not None else hall_url(store, base)).rstrip("/")
    tables = store.tables(rnd) if rnd else []
    tokens = venue_sql.table_tokens(store, [t.id for t in tables])
    found: dict[str, Any] = {
        "director": f"{base}/d/{venue_sql.director_token(store)}", "director_pin": venue_sql.director_pin(store),
        "public": f"{public}/",
        "tables": [{"round": t.round, "table": t.number, "url": f"{base}/t/{tokens[t.id]}", "token": tokens[t.id]}
                   for t in tables]}
    # A duplicate round of an odd number of pairs: its sit-out table has no link, and is named so that
    # the gap in the tables' numbers is not taken for a link missing.
    gone = duplicate.sits_out(store, rnd) if rnd and store.settings.duplicate else None
    if gone is not None:
        found["sits_out"] = {"round": rnd, "table": gone.table, "pair": gone.pair, "name": gone.name}
    return found


#: Where the links point when neither ``--url`` nor an earlier ``serve`` said otherwise.
DEFAULT_URL = "http://127.0.0.1:8000"


def venue_url(store: EventStore, url: str | None = None) -> str:
    """The address links are made with: ``url`` if given, else the one ``serve`` last used."""
    if url is not None:
        return url.rstrip("/")
    return venue_sql.remembered_url(store) or DEFAULT_URL


def served_before(store: EventStore) -> bool:
    """``tournament serve`` has run on this event (so its sheets get the tables' QR codes)."""
    return venue_sql.remembered_url(store) is not None


def remember_url(store: EventStore, url: str, given: bool = False, hall: str | None = None,
                 hall_given: bool = False) -> None:
    """``serve`` listens at ``url`` (``given``: named with ``--url``, so a later ``serve`` without
    it keeps to it while it serves on the same port), its hall at ``hall`` (a process of its own,
    on a port of its own; None: at ``url`` itself; ``hall_given``: named with ``--hall-url``, kept
    as ``--url`` is)."""
    with store.write():
        venue_sql.remember_url(store, url.rstrip("/"))
        venue_sql.remember_hall_url(store, (hall or url).rstrip("/"))
        if given:
            venue_sql.remember_given_url(store, url.rstrip("/"))
            venue_sql.remember_hall_url(store, hall.rstrip("/") if hall and hall_given else "", given=True)


def hall_url(store: EventStore, base: str) -> str:
    """The hall's address (the public pages, the live stream, the feed) for links made with
    ``base``: the one ``serve`` remembered beside ``base`` (the hall's own process, on its own
    port), else ``base`` itself (one process; the tables' port sends a phone on anyway)."""
    base = base.rstrip("/")
    hall = venue_sql.remembered_hall_url(store)
    return hall if hall is not None and venue_sql.remembered_url(store) == base else base


def serve_hall_url(store: EventStore, hall: str | None, base: str, port: int) -> str:
    """The hall's address ``serve`` prints: ``hall`` if given (``--hall-url``); else the one an
    earlier ``serve --url --hall-url`` gave beside ``base``; else ``base`` on the hall's ``port``."""
    if hall is not None:
        return hall.rstrip("/")
    given = venue_sql.remembered_hall_url(store, given=True)
    if given and venue_sql.given_url(store) == base.rstrip("/"):
        return given
    return hall_address(base, port)


def hall_address(url: str, port: int) -> str:
    """``url`` on another ``port`` (the hall's): ``http://10.0.0.5:8000`` → ``http://10.0.0.5:8001``."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url.rstrip("/"))
    host = parts.hostname or "127.0.0.1"
    host = f"[{host}]" if ":" in host else host
    return urlunsplit((parts.scheme, f"{host}:{port}", parts.path, "", ""))


def serve_url(store: EventStore, url: str | None, worked_out: str, port: int) -> str:
    """The address ``serve`` prints its links with: ``url`` if given; else the one an earlier
    ``serve --url`` gave, while the server listens on that address's port (a name or address
    for the hall's phones that this computer cannot work out by itself); else ``worked_out``
    (from ``--host`` and ``--port``)."""
    if url is not None:
        return url.rstrip("/")
    given = venue_sql.given_url(store)
    if given is not None and _port(given) == port:
        return given
    return worked_out


def _port(url: str) -> int | None:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        return parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    except ValueError:
        return None


def remember_printed(store: EventStore, url: str) -> None:
    """The links (``links``) or score sheets with QR codes (``sheets``) were made for ``url``."""
    with store.write():
        venue_sql.remember_printed_url(store, url.rstrip("/"))


def printed_elsewhere(store: EventStore, url: str) -> str | None:
    """The address the links and sheets made earlier point to, if it is not ``url`` (so phones that
    scan them would not reach a server at ``url``)."""
    printed = venue_sql.printed_url(store)
    return printed if printed is not None and printed != url.rstrip("/") else None


def elsewhere_warning(printed: str, url: str) -> str:
    """What ``serve`` at ``url`` warns of, before its links, when the links and sheets made before
    point to ``printed`` (:func:`printed_elsewhere`): the two ways to mend it, the second in the
    options that serve at ``printed``.  Where only the port differs, that is ``--port``: ``--url``
    alone makes the links name that address while the server still listens on its own port, so
    they led nowhere; ``--url`` where the address differs otherwise (another name or host, kept
    with the event), with ``--port`` where the port differs too.  Links printed as ``https://``
    are a proxy's in front (the server itself speaks plain HTTP): the way is ``--url`` alone, the
    proxy's port none of the server's (it advised ``--port 443``)."""
    from urllib.parse import urlsplit

    try:
        there, here = urlsplit(printed), urlsplit(url)
        same = (there.scheme, there.hostname, there.path.rstrip("/")) == (here.scheme, here.hostname,
                                                                         here.path.rstrip("/"))
        proxied = there.scheme == "https"
    except ValueError:
        same = proxied = False
    port = None if proxied else _port(printed)
    ways = ([] if same and not proxied else [f"--url {printed}"]) + (
        [f"--port {port}"] if port is not None and port != _port(url) else [])
    return (f"the links and score sheets made before point to {printed}, not to this server ({url.rstrip('/')}): "
            f"phones that scan them will not reach it; print them again (tournament sheets, tournament links, "
            f"or the director's page), or serve at that address ({' '.join(ways or [f'--url {printed}'])})")


#: How many digits a player's PIN has (its slip prints it so).
PIN_DIGITS = 4


def make_pins(store: EventStore) -> dict[int, str]:
    """Each player's 4-digit PIN for ``serve --pins`` (made once; the same ones printed again)."""
    with store.write():
        venue_sql.upgrade_for_venue(store)
        have = venue_sql.pins(store)
        for p in store.players():
            if p.id not in have:
                have[p.id] = f"{secrets.randbelow(10 ** PIN_DIGITS):0{PIN_DIGITS}d}"
                venue_sql.insert_pin(store, p.id, have[p.id])
    return have


#: Wrong PINs a table may make before its confirmations wait; the first wait (seconds), doubled
#: at each further wrong PIN made after it; the longest wait.  A PIN is one of 10,000, a side has
#: one or two players: at one try an hour once waits reach the longest, a side's PIN holds for
#: months, and an honest slip costs half a minute.
FREE_PIN_TRIES = 5
FIRST_PIN_WAIT = 30
LONGEST_PIN_WAIT = 3600


#: Wrong director's PINs, at all the event's tables together, before every table's director's PIN
#: waits (30 s, doubling, as a table's do).  Each table's key holds 5 tries of its own, and every
#: table of every round keeps its key (its QR code lies on the table): without a count for the
#: whole event, someone who photographed the sheets would get 5 tries a key, and more each hour.
EVENT_FREE_DIRECTOR_PINS = 10


def pin_wait(wrong: int) -> int:
    """Seconds a table's confirmations wait after its ``wrong``-th wrong PIN (0: none)."""
    if wrong < FREE_PIN_TRIES:
        return 0
    return min(LONGEST_PIN_WAIT, FIRST_PIN_WAIT * 2 ** min(wrong - FREE_PIN_TRIES, 16))


def _utc_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


def _seconds_until(until: str | None, at: datetime.datetime) -> int:
    """Whole seconds from ``at`` to ``until`` (a stored UTC time), rounded up; 0 once it has passed."""
    if not until:
        return 0
    try:
        then = datetime.datetime.fromisoformat(until)
    except ValueError:
        return 0
    left = (then - at).total_seconds()
    return max(0, math.ceil(left))


def _seconds(n: int) -> str:
    return f"{n} second{'s' if n != 1 else ''}"


@attrs.frozen
class TablePinTries:
    """One table's wrong PINs (a player's or the director's, typed on its phone) and the seconds
    its confirmations and the director's PIN there still wait (0: they do not)."""

    round: int
    table: int
    wrong: int
    wait: int

    def line(self) -> str:
        said = f"round {self.round} table {self.table}: {self.wrong} wrong PIN{'s' if self.wrong != 1 else ''}; "
        if not self.wait:
            return said + "its confirmations do not wait"
        return (said + f"its confirmations and the director's PIN there wait {_seconds(self.wait)} more "
                       f"(tournament pins --clear {self.round}/{self.table})")


@attrs.frozen
class PinWaits:
    """The waits after wrong PINs, read without clearing them (``tournament pins --waits``): each
    table that has had a wrong PIN, and the event's wrong director's PINs at all its tables
    together (:data:`EVENT_FREE_DIRECTOR_PINS`) and how long the director's PIN still waits at
    every table.  Only clearing them showed them from the command line, and the director who
    asked whether a table still waits had to lift its wait to learn it."""

    tables: tuple[TablePinTries, ...]
    director_wrong: int
    director_wait: int

    def lines(self) -> list[str]:
        """A line a table with wrong PINs (or that none has had one), then the director's PIN's."""
        out = [t.line() for t in self.tables] or ["no wrong PIN at any table"]
        if not self.director_wrong:
            out.append("director's PIN: no wrong PIN at the tables")
        elif not self.director_wait:
            out.append(f"director's PIN: {self.director_wrong} wrong at the tables together; it waits at no table")
        else:
            out.append(f"director's PIN: {self.director_wrong} wrong at the tables together; it waits "
                       f"{_seconds(self.director_wait)} more at every table (tournament pins --clear-director)")
        return out


def pin_waits(store: EventStore, at: datetime.datetime | None = None) -> PinWaits:
    """The event's waits after wrong PINs as they stand at ``at`` (default: now), read only: every
    round's tables that have had a wrong PIN since the director last cleared theirs, in order."""
    at = at or _utc_now()
    tables = store.tables()
    tries = venue_sql.every_pin_tries(store, [t.id for t in tables])
    found = tuple(sorted((TablePinTries(t.round, t.number, tries[t.id][0], _seconds_until(tries[t.id][1], at))
                          for t in tables if tries.get(t.id, (0, None))[0]), key=lambda x: (x.round, x.table)))
    misses, every = venue_sql.director_pin_misses(store)
    return PinWaits(found, misses, _seconds_until(every, at) if misses else 0)


#: A table in play with no write for this many minutes is flagged on the director's page
#: (``tournament serve --idle N``).
IDLE_MINUTES = 10


def _minutes_since(at: str | None) -> float | None:
    """Minutes from ``at`` (a stored UTC time) to now, by the server's clock."""
    if not at:
        return None
    try:
        then = datetime.datetime.fromisoformat(at)
    except ValueError:
        return None
    return (datetime.datetime.now(datetime.timezone.utc) - then).total_seconds() / 60


#: A write's judge: given the table, its live game and its facts as the write read them (once a
#: write), what to log (kind, body) and what to say of it.
Judge = Callable[[Table, Live, Facts], tuple[str, str, list[str]]]


class Venue:
    """The venue's operations on one open event: one per server, shared by its requests.

    Calls are serialised by a lock: SQLite takes one writer at a time anyway, and a table's
    live game is never read while it is being changed."""

    def __init__(self, store: EventStore, pins: bool = False, idle_minutes: int = IDLE_MINUTES,
                 clock: Callable[[], datetime.datetime] = _utc_now) -> None:
        self.store = store
        self.pins = pins
        #: The time (UTC) by which a table's wait after wrong PINs is measured (a test sets its own).
        self.clock = clock
        self.idle_minutes = idle_minutes
        self._next_rounds: dict[int, tuple[int, dict[int, tuple[int, str]], set[int]]] = {}
        self._finished: tuple[int, str | None] | None = None  # (the change seq, _finished_words then)
        self.lock = threading.RLock()
        self._live: dict[int, Live] = {}
        self._seated: dict[int, tuple[SeatAssignment, ...]] = {}  # the seats each live game was made for
        self._templates: dict[int, tuple[tuple, Any]] = {}  # each table's template as JSON, and what it was made of
        self._deals: dict[int, tuple[tuple, tuple]] = {}  # a duplicate table's boards' deals, and what they were made of
        self._withheld: dict[int, tuple[tuple, Live]] = {}  # a table as an old key reads it (_withheld_view)
        self._refusals_full: set[int] = set()  # the tables whose refusals are no longer kept, said once in the log
        self._units: dict[int, tuple[tuple, tuple]] = {}  # each table's sides' pairs and teams (_units_of)
        #: When each table's phone was last heard from (any request with the table's key), by table id:
        #: kept in memory only (a dict write a request); after a restart, the table's last write stands in.
        self.contact: dict[int, str] = {}
        #: The keys and tables read by :meth:`_authorized`, kept while the file is as it was when they
        #: were read (:attr:`_stamp`; a move's own rows excepted, see :meth:`_write`): a table's move
        #: read its key and its table from the file at every request.
        #: (every key of the file, read at once: see :func:`venue_sql.token_rows`; ``None``: not read since)
        self._keys: dict[str, tuple[str, int | None]] | None = None
        self._tables: dict[tuple[int, int], Table] = {}
        self._stamp: tuple[int, int] | None = None
        #: Each table's result as its last move made here read it (None: in play), kept as the keys
        #: are (forgotten whenever the stamp says anything else was written): while it is kept,
        #: nothing but this server's own moves was written since, and the table's live game and
        #: result are the file's without asking it (a move asked the file for the table's revision
        #: and its result at every move: see :meth:`_write`).
        self._checked: dict[int, Any] = {}
        store.defer_browsing = True  # what people browse is refreshed when a result lands, not per move
        #: What people browse (the file's ``standings`` snapshot) is refreshed by someone else once a
        #: result is committed (the server's :class:`tournament.web.app.BrowsingThread`): a table's
        #: confirmation only says so (:attr:`results_landed`), and the ranking, 50 to 100 ms of a
        #: hall's event, no longer holds up the tables' moves queued behind it.  False: refreshed
        #: here, in the write's own group, as every command does.
        self.browsing_apart = False
        self.results_landed = False

    def forget(self) -> None:
        """The file did not take the writes just made (their group was not committed): every live
        game is made again from the file when next asked for."""
        with self.lock:
            self._live.clear()
            self._checked.clear()
            self._stamp = None

    # --- finding a table ----------------------------------------------------------------------

    def table(self, round_no: int, table_no: int) -> Table:
        found = self.store.table(round_no, table_no)
        if found is not None:
            return found
        if not 1 <= round_no <= self.store.last_round():
            raise NotFound(f"round {round_no} has not been paired")
        raise NotFound(f"round {round_no} has no table {table_no}")

    def _players(self) -> dict[int, Player]:
        return {p.id: p for p in self.store.players()}

    def _current(self, table: Table) -> Live:
        """The table's live game at the file's revision (made again from the log if the file moved
        on without this server, or after a restart)."""
        rev = venue_sql.revision(self.store, table.id)
        live = self._live.get(table.id)
        # A table's players may change while its game has not started (``tournament swap``,
        # ``move``): a live game made for other players is made again.
        if live is None or live.rev != rev or self._seated.get(table.id) != table.seats:
            # The table's own players only (a hall's event has a thousand).
            template = table_record(self.store.settings, table,
                                    self.store.players_by_id([s.player for s in table.seats]))
            live = _replay(template, venue_sql.log(self.store, table.id))
            self._live[table.id] = live
            self._seated[table.id] = table.seats
        return live

    # --- tokens and links -------------------------------------------------------------------

    def authorize(self, token: str | None, round_no: int | None = None, table_no: int | None = None) -> str:
        """What ``token`` may do here: ``director`` (everything) or ``table`` (its own table of its
        own round only).  Anything else is refused, saying no more than that."""
        with self.lock:  # the keys and tables it keeps are shared
            return self._authorized(token, round_no, table_no)[0]

    def _authorized(self, token: str | None, round_no: int | None, table_no: int | None) -> tuple[str, Table | None]:
        """:meth:`authorize`, and the table a table's key opens as read to check it (None for the
        director's key, which reads none): a request that goes on to that table reads it once."""
        self._fresh()
        found = self._key(token)
        if found is None:
            raise Forbidden("this link's key is not one of this event's: ask the director for the table's link")
        kind, table_id = found
        if kind == "director":
            return kind, None
        if table_id is not None:
            self.contact[table_id] = now()  # the table's phone is in touch, whatever it asks
        if round_no is None or table_no is None:
            raise Forbidden("a table's link opens its own table only")
        table = self._tables.get((round_no, table_no))
        if table is None:
            table = self._tables[(round_no, table_no)] = self.table(round_no, table_no)
        if table.id != table_id:
            raise Forbidden("this link opens another table, or another round: use the link of this table")
        return kind, table

    def authorized_record(self, token: str | None, round_no: int, table_no: int, rev: Any, text: Any,
                          cid: Any = None, made_at: Any = None) -> dict[str, Any]:
        """The key checked (:meth:`authorize`), then :meth:`record`, in one call: a table's move is
        the request a hall makes most, and its table is read once, not once for each."""
        with self.lock:
            _, table = self._authorized(token, round_no, table_no)
            return self.record(round_no, table_no, rev, text, cid, made_at, found=table, stamped=True)

    def authorized_state(self, token: str | None, round_no: int, table_no: int) -> dict[str, Any]:
        """The key checked (:meth:`authorize`), then :meth:`state`, the table read once."""
        with self.lock:
            kind, table = self._authorized(token, round_no, table_no)
            answer = self.state(round_no, table_no, found=table, table_key=kind == "table")
            if kind == "director" and self._plays_boards:
                answer.update(self._board_results(table if table is not None else self.table(round_no, table_no)))
            return answer

    def _board_results(self, table: Table) -> dict[str, Any]:
        """What the director's page shows of a duplicate table's boards, to enter or correct one
        (the director's key alone reads it): each board's stored result there, with how its hand
        ended (``board_results``: ``{"board", "NS", "EW", "ended"}``, ``ended`` None where nobody
        said), and the ways a board's hand may end (``ends``: :func:`~tournament.event.duplicate.board_ends`,
        what the table's phone, the score sheets and the check of ``ended`` use too).  In duplicate
        teams, the boards marked not played at the match's other table (``marked_at_other``:
        ``[{"board", "table"}]``): a result saved here is kept but counts only once that mark is taken
        back, which the page says before the save, not after."""
        rows = []
        for number in self._boards_of(table):
            done = duplicate.entered(self.store, table.id, number)
            if done is not None:
                rows.append({"board": number, "NS": done["ns_points"], "EW": done["ew_points"],
                             "ended": done["ended"]})
        elsewhere = duplicate.marked_at_other(self.store, table)
        return {"board_results": rows, "ends": list(duplicate.board_ends(self.store.settings)),
                "marked_at_other": [{"board": b, "table": t} for b, t in sorted(elsewhere.items())]}

    def _fresh(self) -> None:
        """Forget the keys, tables and results kept if anything was written to the file since they
        were read (its stamp moved): they are read again when next asked."""
        stamp = venue_sql.file_stamp(self.store)
        if stamp != self._stamp:
            self._keys = None
            self._tables.clear()
            self._checked.clear()
            self._stamp = stamp

    def _key(self, token: str | None) -> tuple[str, int | None] | None:
        """What ``token`` opens, (kind, table id), or ``None``: looked up among every key of the
        file, read at once while the file is as it was (:meth:`_fresh`), never by the key in SQL."""
        if not token:
            return None
        if self._keys is None:
            self._keys = venue_sql.token_rows(self.store)
        return self._keys.get(token)

    def table_of_token(self, token: str) -> Table:
        with self.lock:
            self._fresh()
            found = self._key(token)
        if found is None or found[0] != "table":
            raise Forbidden("this link's key is not one of this event's tables: ask the director for the table's link")
        table = self.store.table_by_id(found[1])
        if table is None:
            raise NotFound("this link's table is no longer in the event")
        self.contact[table.id] = now()
        return table

    def ensure_tokens(self, round_no: int | None = None) -> None:
        with self.lock:
            ensure_tokens(self.store, round_no)

    def links(self, base: str, round_no: int | None = None, hall: str | None = None) -> dict[str, Any]:
        with self.lock:
            return links(self.store, base, round_no, hall)

    # --- reading a table --------------------------------------------------------------------

    def state(self, round_no: int, table_no: int, said: list[str] | None = None, *,
              found: Table | None = None, table_key: bool = False) -> dict[str, Any]:
        """The table's state; ``found``: the table as just read under the lock (else read here);
        ``table_key``: as the table's own key reads it (:meth:`_key_state`)."""
        with self.lock:
            table = found if found is not None else self.table(round_no, table_no)
            shown = self._key_state if table_key else self._state
            return self._with_pin_wait(table, shown(table, self._current(table), said or []))

    def state_with_log(self, round_no: int, table_no: int, after: int = 0, state: bool = True,
                       table_key: bool = False) -> dict[str, Any]:
        """The table's state, and under ``"log"`` what the phone's engine replays the table from when
        the server is out of reach (:mod:`tournament.event.phone`): the table's template record (its
        players, game and rules, as JSON), its :class:`~tournament.event.table_log.Facts`, and its
        log's rows after revision ``after`` (``[rev, kind, body, time]``; a phone holding the rows
        up to ``after`` asks only for the new ones).  ``state`` False: the log and the revision
        only (what the phone's engine asks for as the table moves on: no game state made).
        ``table_key``: asked with the table's own key, which once the round is over reads a
        duplicate table as the hall shows it (:meth:`_withheld_view`)."""
        with self.lock:
            table = self.table(round_no, table_no)
            live = self._current(table)
            result = self.store.result_for(table.id)
            facts = self._facts(table, result)
            view = self._withheld_view(table, live, facts) if table_key else None
            if view is None:
                rows = [_for_the_table(row) for row in venue_sql.log(self.store, table.id, after)]
            else:
                facts, live, logged = view
                rows = [_for_the_table(row) for row in logged if row[0] > after]
            answer = self._with_pin_wait(table, table_log.state(facts, live, [])) if state else {"rev": live.rev}
            answer["log"] = {"template": self._template_json(table), "facts": facts.to_json(),
                             "after": after, "rows": rows}
            return answer

    def _template_json(self, table: Table) -> Any:
        """The table's template record as JSON, made once for its players as they are named now: a
        phone's engine asks for the table's new rows after each move, and the record's JSON cost
        more than the rest of the answer."""
        players = self.store.players_by_id([s.player for s in table.seats])
        key = (table, tuple(players[i] for i in sorted(players)))
        kept = self._templates.get(table.id)
        if kept is None or kept[0] != key:
            kept = (key, json.loads(text_of([table_record(self.store.settings, table, players)], "json")))
            self._templates[table.id] = kept
        return kept[1]

    def _facts(self, table: Table, result: Any = False, writing: bool = False) -> Facts:
        """What the table's state shows besides its log (:class:`~tournament.event.table_log.Facts`);
        ``result``: its result as the caller has just read it (False: read it); ``writing``: for a
        table's write (:meth:`_write`), its sides' names as last read (:meth:`_units_of`)."""
        settings = self.store.settings
        if self._plays_boards:
            return self._board_facts(table, writing)
        if result is False:
            result = self.store.result_for(table.id)
        return Facts(event=settings.name, round=table.round, table=table.number, sides=table.sides(),
                     by_seat=not settings.partnership, time_limit=settings.time_limit, pins=self.pins,
                     over=table.round < self.store.last_round(), units=self._units_of(table, writing),
                     next=self._next_seats(table) if result is not None else None,
                     result=None if result is None else {
                         "scores": dict(result.scores), "winner": result.winner, "kind": result.kind,
                         # Hand scores only (a score sheet): checked hand by hand, but no play verified.
                         "verified": result.verified and result.note != SCORES_ONLY_NOTE,
                         "scores_only": result.kind == "record" and result.note == SCORES_ONLY_NOTE,
                         "via": venue_sql.entered_via(self.store, table.id)})

    def _board_facts(self, table: Table, writing: bool = False) -> Facts:
        """A duplicate table's facts: its round's boards (each with its hand line and deal, what its
        ``hand`` line starts) and, once every one has its result, those results as the table's
        (confirmed: only the director changes them now) and where its pairs go next."""
        settings = self.store.settings
        numbers = self._boards_of(table)
        key = (table.id, numbers)
        kept = self._deals.get(table.id)
        if kept is None or kept[0] != key:
            kept = (key, tuple({"board": n, "deal": _deal_lines(duplicate.board(self.store, n))} for n in numbers))
            self._deals[table.id] = kept
        done = {n: duplicate.entered(self.store, table.id, n) for n in numbers}
        # A board marked not played there (``tournament result --not-played``) is skipped as one entered.
        skipped = set(duplicate.not_played_boards(self.store).get(table.id, ()))
        boards = tuple({**b, "entered": done[b["board"]] is not None or b["board"] in skipped,
                        "not_played": b["board"] in skipped and done[b["board"]] is None} for b in kept[1])
        result = None
        if numbers and all(done[n] is not None or n in skipped for n in numbers):
            numbers = tuple(n for n in numbers if done[n] is not None)
            rows = [{"board": n, "NS": done[n]["ns_points"], "EW": done[n]["ew_points"]} for n in numbers]
            result = {"scores": {"NS": sum(r["NS"] for r in rows), "EW": sum(r["EW"] for r in rows)},
                      "winner": None, "kind": "boards", "boards": rows,
                      "verified": all(bool(done[n]["verified"]) for n in numbers),
                      "scores_only": not all(bool(done[n]["verified"]) for n in numbers),
                      "via": venue_sql.entered_via(self.store, table.id)}
        return Facts(event=settings.name, round=table.round, table=table.number, sides=table.sides(),
                     by_seat=False, time_limit=settings.time_limit, pins=self.pins,
                     next=self._next_seats(table) if result is not None else None, result=result,
                     boards=boards, over=table.round < self.store.last_round(),
                     units=self._units_of(table, writing), ends=duplicate.board_ends(settings))

    def _units_of(self, table: Table, writing: bool = False) -> tuple[tuple[str, str, str | None], ...]:
        """Who each of this table's sides is where a side is a pair (a pairs or team event): its
        pair's name and, in a team event, its team's (:attr:`Facts.units`), as the director's page
        names them; the table's own sides only (its key reads nothing of another table's).  Made
        again only when the event changed (a pair renamed, a reserve brought in), not at every
        refresh of every table's page.  ``writing`` (a table's move, the hall's most common
        request): as last made for the same seats, without asking the change log whether the event
        changed (a move never reads it: ``tests/tournament/test_hall.py``); the phone's next refresh,
        a few seconds on, names a pair renamed meanwhile."""
        settings = self.store.settings
        if not settings.partnership:
            return ()
        kept = self._units.get(table.id)
        if writing and kept is not None and kept[0][0] == table.seats:
            return kept[1]
        key = (table.seats, changes.latest_seq(self.store))
        if kept is None or kept[0] != key:
            players = self.store.players_by_id([s.player for s in table.seats])
            mine = {players[s.player].team for s in table.seats if s.player in players}
            pair_names = {x.id: x.name for x in self.store.teams() if x.id in mine}
            team_of_pair = ({pid: sq.name for sq in teams.squads(self.store) for pid in sq.pairs if pid in mine}
                            if settings.teams else {})
            units: dict[str, tuple[str, str, str | None]] = {}
            for s in table.seats:
                pair = players[s.player].team if s.player in players else None
                if pair in pair_names and s.side not in units:
                    units[s.side] = (s.side, pair_names[pair], team_of_pair.get(pair))
            kept = (key, tuple(units[side] for side in table.sides() if side in units))
            self._units[table.id] = kept
        return kept[1]

    def _withheld_view(self, table: Table, live: Live, facts: Facts
                       ) -> tuple[Facts, Live, list[tuple[int, str, str, str]]] | None:
        """A duplicate table as its own key reads it once its round is over (a later round is
        paired: its players sit elsewhere, and its printed link may be read by anyone at that table
        now): a board's deal, its play in the table's log and its result here only once the hall
        shows them, every table due to play the board having played it (or being marked not to:
        :func:`tournament.event.duplicate_hall.complete_boards`, or the duplicate teams' own).
        The facts, the table (replayed from its log as read so) and the log's rows, each row of a
        withheld board's play (a move, a correction) read as a :data:`~table_log.WITHHELD` row of
        the same revision and time; ``None`` where the key reads the table whole (its round is
        not over, every board of it is shown, or the table plays no boards).  During its own round
        a table reads everything, its phone's offline engine and a reloaded page included."""
        if facts.boards is None or not facts.over:
            return None
        complete = (duplicate_teams.complete_boards(self.store) if self.store.settings.team_duplicate else
                    duplicate_hall.complete_boards(self.store))
        mine = [b["board"] for b in facts.boards]
        if all(n in complete for n in mine):
            return None
        rows = venue_sql.log(self.store, table.id)
        logged = _withheld_rows(rows, complete)
        result = facts.result
        if result is not None and result.get("boards") is not None:
            shown = [r if r["board"] in complete else {"board": r["board"], "withheld": True} for r in result["boards"]]
            result = {**result, "boards": shown, "scores": None}  # (a total would tell the board withheld)
        facts = attrs.evolve(facts, result=result, boards=tuple(
            b if b["board"] in complete else {**b, "deal": None, "withheld": True} for b in facts.boards))
        if logged == rows:
            return facts, live, logged
        key = (tuple(logged), table.seats)
        kept = self._withheld.get(table.id)
        if kept is None or kept[0] != key:
            template = table_record(self.store.settings, table,
                                    self.store.players_by_id([s.player for s in table.seats]))
            kept = (key, _replay(template, logged))
            self._withheld[table.id] = kept
        return facts, kept[1], logged

    def _key_state(self, table: Table, live: Live, said: list[str], facts: Facts | None = None) -> dict[str, Any]:
        """The table's state as its own key reads it (:meth:`_withheld_view`)."""
        facts = facts if facts is not None else self._facts(table)
        view = self._withheld_view(table, live, facts)
        if view is not None:
            facts, live, _ = view
        return table_log.state(facts, live, said)

    @property
    def _plays_boards(self) -> bool:
        """The event's tables play boards, confirmed board by board: duplicate pairs or teams."""
        return self.store.settings.duplicate or self.store.settings.team_duplicate

    def _boards_of(self, table: Table) -> tuple[int, ...]:
        """The boards a duplicate table plays, in order: its movement's (duplicate pairs), or its
        round's, the same at every table (duplicate teams: :mod:`tournament.event.duplicate_teams`)."""
        return duplicate.boards_of(self.store, table)

    def _state(self, table: Table, live: Live, said: list[str], result: Any = False) -> dict[str, Any]:
        """The table's state (:func:`tournament.event.table_log.state`); ``result``: its result as the
        caller has just read it (False: read it)."""
        return table_log.state(self._facts(table, result), live, said)

    def _with_pin_wait(self, table: Table, answer: dict[str, Any]) -> dict[str, Any]:
        """A table's state as read (:meth:`state`, :meth:`state_with_log`) with ``pin_wait``, the
        seconds its confirmations still wait after wrong PINs (:meth:`_check_pin`; the 429's
        ``pin_wait``), while they wait (else none: no wait, or no ``--pins``).  The table's page
        counts it down, and its refresh (every 5 seconds) finds it gone once the director clears
        the wrong PINs.  A write's answer does not carry it (a move costs no read more: the page's
        refresh says it).  Not one of the table's :class:`~tournament.event.table_log.Facts`: the
        phone's engine replays those offline and cannot know a wait (its states have none)."""
        own = _seconds_until(venue_sql.pin_tries(self.store, table.id)[1], self.clock())
        if self.pins and own:
            answer["pin_wait"] = own
        # The director's PIN waits after wrong ones with or without ``--pins`` (the table's own wait,
        # or the event's, whichever is longer): the director's box on the table's page counts it
        # down as the table's page counts ``pin_wait`` down, and a read finds it gone once over or
        # cleared.  (None while it does not wait.)
        left, every_table = self._director_pin_wait(table, own)
        if left:
            answer["director_pin_wait"] = {"seconds": left, "every_table": every_table}
        return answer

    def _director_pin_wait(self, table: Table | None, own: int | None = None) -> tuple[int, bool]:
        """The seconds the director's PIN still waits at ``table`` (0: it does not), and whether
        that is the event's wait (:data:`EVENT_FREE_DIRECTOR_PINS`) rather than the table's own:
        the longer of the two, so that the seconds said are the seconds until the right PIN
        opens the table again (the table's own wait said first, its words naming the
        confirmations too, while it is the longer)."""
        at = self.clock()
        if own is None:  # (``own``: the table's own wait, read already by the caller)
            own = _seconds_until(venue_sql.pin_tries(self.store, table.id)[1], at) if table is not None else 0
        every = _seconds_until(venue_sql.director_pin_misses(self.store)[1], at)
        return (every, True) if every > own else (own, False)

    def _finished_words(self) -> str | None:
        """Where the event's rounds are all seated and played and nothing is left to pair (a duplicate
        session past its movement's last round, a team round robin past its circle's), the line
        that says so, in the words ``tournament pair`` refuses the next round with
        (:func:`duplicate.pair_round`, :func:`tournament.pairing.teams.check_round_robin_round`);
        else None.  The director's page says it where the greyed *Pair the next round* is, and a
        confirmed table's phone instead of "where to go next"."""
        s = self.store.settings
        if not (s.duplicate or (s.teams and s.team_schedule == "round-robin")):
            return None
        # Worked out once per change of the event (a result, a round paired), not at every refresh
        # of every confirmed table's page of the last round (the event's status reads every table).
        seq = changes.latest_seq(self.store)
        if self._finished is None or self._finished[0] != seq:
            self._finished = (seq, self._finished_now())
        return self._finished[1]

    def _finished_now(self) -> str | None:
        """:meth:`_finished_words`, worked out from the file."""
        s = self.store.settings
        if event_progress.status(self.store) != event_progress.FINISHED:
            return None
        if s.duplicate:
            moving = duplicate.movement(self.store)
            return SESSION_OVER % {"why": f"the {moving.tables}-table {moving.kind} has {moving.rounds} "
                                          f"rounds, and all are seated"}
        count = sum(1 for q in teams.squads(self.store) if q.entered <= 1)
        return EVENT_OVER % {"why": f"a round robin of {count} teams has {event_progress.last_round_of(self.store)} "
                                    f"rounds, and all are seated"}

    def _next_seats(self, table: Table) -> dict[str, Any]:
        """Where each player of a confirmed table goes next: ``{"round", "paired", "seats": {seat:
        {"table", "seat"} or {"bye": true}}}``; ``paired`` false (and no seats) until the next round
        is paired.  The table's page asks again every few seconds, so it shows them once paired."""
        following = table.round + 1
        later = self._set_next_game(table)
        if later:  # a set's next game, seated at once in this same round: go there, not to the next round
            return {"round": table.round, "paired": True, "same_round": True, "seats": later}
        if self.store.last_round() < following:
            # (none to come: the event's last round is played, said instead of "not paired yet")
            over = self._finished_words() if self.store.last_round() == table.round else None
            return {"round": following, "paired": False, "seats": {}, **({"over": over} if over else {})}
        # Made once per change of the event (a round paired, seats swapped), not at every refresh
        # of every confirmed table's page.
        seq = changes.latest_seq(self.store)
        kept = self._next_rounds.get(following)
        if kept is None or kept[0] != seq:
            kept = (seq, {s.player: (t.number, s.seat) for t in self.store.tables(following) for s in t.seats},
                    set(self.store.byes(following).get(following, [])))
            self._next_rounds = {following: kept}
        _, where, byes = kept
        out = duplicate.sits_out(self.store, following) if self.store.settings.duplicate else None
        sitting_out = (set(next((t.players for t in self.store.teams() if t.id == out.pair_id), ()))
                       if out is not None else set())
        seats: dict[str, Any] = {}
        for s in table.seats:
            if s.player in where:
                seats[s.seat] = {"table": where[s.player][0], "seat": where[s.player][1]}
            elif s.player in byes:
                seats[s.seat] = {"bye": True}
            elif s.player in sitting_out:  # a duplicate pair sitting the round out: said, not "no table"
                seats[s.seat] = {"sits_out": True}
            else:
                seats[s.seat] = {"out": True}  # withdrawn, or no table of the next round (a stage's)
        if self._plays_boards:  # and which boards come there
            boards = ({t.number: list(duplicate_teams.round_boards(self.store, following))
                       for t in self.store.tables(following)} if self.store.settings.team_duplicate else
                      {t.table: list(t.boards) for t in duplicate.table_boards(self.store, following)})
            for seat in seats.values():
                if "table" in seat:
                    seat["boards"] = boards.get(seat["table"], [])
        return {"round": following, "paired": True, "seats": seats}

    def _set_next_game(self, table: Table) -> dict[str, Any]:
        """In an event of sets (a team event's ``--team-set``, a stage's set): where each player of
        this table plays the line's next game, a table of the same round seated after this one (the
        first of them still without its result); empty where no such game waits."""
        if not self.store.settings.teams:
            return {}
        results = self.store.results()
        later = sorted((t for t in self.store.tables(table.round) if t.number > table.number and t.id not in results),
                       key=lambda t: t.number)
        seats: dict[str, Any] = {}
        for s in table.seats:
            there = next(((t.number, o.seat) for t in later for o in t.seats if o.player == s.player), None)
            if there is not None:
                seats[s.seat] = {"table": there[0], "seat": there[1]}
        return seats

    def options(self, round_no: int, table_no: int, tile: Any, table_key: bool = False) -> dict[str, Any]:
        """Where ``tile`` may go now (see :meth:`domrec.session.Session.options`), and the table's
        revision they were worked out at.  ``table_key``: asked with the table's own key (the game
        as :meth:`_withheld_view` reads it)."""
        if not isinstance(tile, str) or len(tile) > 8:
            raise Unprocessable("name a tile, such as 6-4")
        with self.lock:
            table = self.table(round_no, table_no)
            live = self._current(table)
            view = self._withheld_view(table, live, self._facts(table)) if table_key else None
            return table_log.options(live if view is None else view[1], tile)

    # --- writing -----------------------------------------------------------------------------

    def _write(self, round_no: int, table_no: int, rev: Any, judge: Judge,
               locked_ok: bool = False, any_view: bool = False, cid: Any = None, made_at: Any = None,
               found: Table | None = None, stamped: bool = False, over_calls: bool = False,
               path: str | None = None, text: str | None = None) -> dict[str, Any]:
        """The one write path: revision checked under the write lock, the write judged, logged with
        the next revision; the state after it.  Nothing is stored unless all of it is.
        ``any_view``: the write means the same on any view of the table (a call of the director),
        so the revision it names is not checked.  ``over_calls``: a move or the mode, taken on a
        view that only calls of the director (or their clearing) have followed
        (:func:`~tournament.event.table_log.check_current`).

        ``cid``: the write's own id from the phone.  What it is answered is kept with it, in the
        same transaction as the write (a refusal in a transaction of its own, once the write is
        undone), and a write whose id was seen is answered that again, whatever its revision,
        and nothing is applied twice (:meth:`_answered_before`).  ``made_at``: when the phone made
        it (a write queued while the phone was offline), kept beside it as sent.  ``found``: the
        table as the caller has just read it, under the lock (else it is read here); ``stamped``:
        and the file's stamp read with it (:meth:`_authorized`), so that a move after a move made
        here, nothing else written between, takes the table's live game and result as that move
        left them (:attr:`_checked`) instead of asking the file for its revision and its result.
        ``path``: a table's own write (``dgn``, ``mode``, ``call``, ``confirm``), refused at a table
        whose round is over as the phone's engine refuses it (:func:`~table_log.check_open`), and
        answered, sent again, as the table's key reads the table (:meth:`_key_state`).  ``text``: a
        ``dgn`` write's lines: named on an old revision, and exactly the log's next row after it (the
        same line recorded first by another phone of the table), the write is answered taken, that row
        standing for it, nothing stored, its id not kept (:func:`~tournament.event.table_log.twin_logged`)."""
        table_log.check_write_id(cid, made_at)
        table_log.check_rev(rev, any_view)
        with self.lock:
            table = found if found is not None else self.table(round_no, table_no)
            if cid is not None:
                seen = venue_sql.answered(self.store, table.id, cid)
                if seen is not None:
                    return self._answered_before(table, seen, path is not None)
            try:
                with self.store.write():
                    written = self.store.conn.total_changes
                    venue_sql.upgrade_for_venue(self.store)
                    if stamped and table.id in self._checked and table.id in self._live \
                            and self._seated.get(table.id) == table.seats:
                        live, result = self._live[table.id], self._checked[table.id]  # as our last move left them
                    else:
                        live = self._current(table)
                        result = self.store.result_for(table.id)
                    facts = self._facts(table, result, writing=True)
                    if path is not None:
                        table_log.check_open(facts, path)
                    try:
                        over = table_log.check_current(facts, live, rev, locked_ok, any_view, over_calls)
                    except Stale:
                        if text is None or not table_log.twin_logged(live, rev, text, venue_sql.row(
                                self.store, table.id, rev + 1 if isinstance(rev, int) else 0)):
                            raise
                        # (its id not kept: sent again, it is the same twin of the same row, which the
                        # log keeps for good; so no number of them grows the file)
                        return table_log.twin_answer(facts, live)
                    try:
                        kind, body, said = judge(table, live, facts)
                        at = now()
                        venue_sql.append(self.store, table.id, live.rev + 1, kind, body, at)
                        if kind != "dgn":  # a confirmation (or the director's write) may have entered the result
                            result = self.store.result_for(table.id)
                            facts = self._facts(table, result, writing=True)  # and a board's entry changes a duplicate table's
                        self._log_status(table, live, result, facts)
                        _apply(live, kind, body, at)
                        live.rev += 1
                        # The answer is made before the write is kept: a write after which the table
                        # could not be shown is not kept either (a table is never stuck on it).  A move
                        # changes none of the facts read before it (its result, its boards' entries).
                        state = table_log.stepped_over(table_log.state(facts, live, said), over)
                        if cid is not None:
                            kept = {"said": said, "over_calls": over} if over else {"said": said}
                            venue_sql.remember_answer(self.store, table.id, cid, live.rev, 200,
                                                      json.dumps(kept, ensure_ascii=False), made_at, at)
                        if kind == "dgn" and self._stamp is not None and self._stamp[1] == written:
                            # A move writes its log's rows only (no key, no seat): the keys and tables
                            # read before it still stand.  Any other write, here or elsewhere, moves
                            # the stamp and they are read again.
                            self._stamp = (self._stamp[0], self.store.conn.total_changes)
                            self._checked[table.id] = result  # (a move enters no result)
                    except (TournamentError, DomrecError):  # the operations' own refusals, as they are
                        raise
                    except Exception:  # noqa: BLE001 - a fault of the server's own: nothing kept, one line
                        log.exception("round %s table %s: a write failed and was not kept", table.round,
                                      table.number)
                        raise Unprocessable(FAULT) from None
            except (WrongPin, Waiting):  # refused before the game was looked at: the live game is as it was
                raise
            except BaseException as e:
                self._live.pop(table.id, None)  # whatever the session took is made again from the file
                self._checked.pop(table.id, None)
                if cid is not None and isinstance(e, VenueError) and e.message != FAULT and e.remembered:
                    self._remember_refusal(table, cid, made_at, e)
                raise
            if kind != "dgn" and (result is not None or kind == "board"):  # a result (a board's) landed
                if self.browsing_apart:  # ranked again on a thread of its own once this is committed
                    self.results_landed = True
                else:
                    self.store.bring_browsing_up_to_date()
            return state

    def _remember_refusal(self, table: Table, cid: str, made_at: str | None, e: VenueError) -> None:
        """A refused write's id and its refusal, kept in a write of their own (the refused write
        was undone), so that the same write sent again gets the same refusal.  A fault of the
        server's own is not kept: sent again, the write is judged again.

        At most :data:`~tournament.event.table_log.MAX_REFUSALS` refusals are kept a table (counted
        in the file, within this write, so that two servers of the file keep no more either): past
        that a refusal is not kept, only counted
        (:func:`~tournament.store.venue.add_unkept_refusal`, in the same write: the director's count
        of a table's refused offline writes stays true), and the same write sent again is judged
        again, and refused again (and counted again).  A refusal kept stands for what the write was
        judged on, and judged again that still holds: a revision the table has moved on from stays
        behind (its log only grows, and a write over calls of the director alone is judged on the
        same game); the same line on the same revision is the same move on the same game, refused by
        the same rule in the same words; a table past its cap of calls or of switches, or whose
        round is over, refuses it again (those were never kept).  A confirmed table's refusal holds
        while its result stands: taken back by the director, a write refused for it, never seen
        refused by the phone that sent it (its answer lost), may be taken when sent again, as it
        would have been had it come then."""
        answer = {"error": e.message, "state": e.state is not None}
        if isinstance(e, Unprocessable) and e.line is not None:
            answer.update(line=e.line, column=e.column)
        try:
            with self.store.write():
                if venue_sql.refusals_kept(self.store, table.id) >= table_log.MAX_REFUSALS:
                    venue_sql.add_unkept_refusal(self.store, table.id, made_at, now())  # counted still
                    if table.id not in self._refusals_full:
                        self._refusals_full.add(table.id)
                        log.warning("round %s table %s: %s refused writes kept, the most a table may: its "
                                    "refusals are no longer kept (sent again, a write is judged again)",
                                    table.round, table.number, table_log.MAX_REFUSALS)
                    return
                venue_sql.remember_answer(self.store, table.id, cid, None, e.status,
                                          json.dumps(answer, ensure_ascii=False), made_at, now())
        except Exception:  # noqa: BLE001 - not kept: the same write sent again is judged again, as before
            log.exception("round %s table %s: a refused write's id could not be kept", table.round, table.number)

    def _answered_before(self, table: Table, seen: tuple[int | None, int, str], table_key: bool = False
                         ) -> dict[str, Any]:
        """The answer to a write whose id was seen: a write taken is answered what was said of it
        with the table as it is (the very first answer while nothing was written after it); a
        refused one, the same refusal (with the table now, where the first had the table).
        ``table_key``: a table's own write, answered with the table as its key reads it."""
        rev, status, text = seen
        answer = json.loads(text)
        if "write" in answer:  # the id of one of the director's writes at this table (once)
            raise Unprocessable(ID_OF_ANOTHER_WRITE)
        live = self._current(table)
        shown = self._key_state if table_key else self._state
        if rev is not None:
            return table_log.stepped_over(shown(table, live, [str(x) for x in answer.get("said", [])]),
                                          int(answer.get("over_calls", 0)))
        state = shown(table, live, []) if answer.get("state") else None
        raise Replayed(str(answer.get("error", "")), status, answer.get("line"), answer.get("column"), state)

    def once(self, what: str, cid: Any, work: Callable[[], dict[str, Any]], table: Table | None = None,
              shows_table: bool = False) -> dict[str, Any]:
        """One of the director's writes that is no write of a table's log (a result entered or taken
        back, wrong PINs cleared, a new key, the next round paired), taken once by its id as a
        table's writes are (:meth:`_write`): ``work()`` made and what it answered kept with ``cid``
        in ``venue_writes``, all in one transaction (:meth:`EventStore.together`: the operation's
        own writes and the answer land together, or none of them), so that the same write sent
        again, after a lost answer or a server killed and started again, is answered that again
        and done nothing twice: a second "pair the next round" pairs no other round, a second "new
        key" makes no third key.  A refusal is kept too (in a write of its own, once the write is
        undone), and answered again; a fault of the server's own, or of the file, is not.

        ``what`` names the write, kept in its answer: an id sent again with another write is
        refused.  ``table``: the table it is kept with (else the next round paired, kept with the
        first table of the round it made; refused, with the last round's: :meth:`_pairing_home`).
        ``shows_table``: the answer is the table's state (a result entered or taken back): what
        was said of it is kept, and answered again with the table as it is then, as a table's
        write is.  Without ``cid``, the write is made as it always was."""
        table_log.check_write_id(cid, None)
        if cid is None:
            return work()
        with self.lock:
            seen = (venue_sql.answered(self.store, table.id, cid) if table is not None
                    else venue_sql.answered_by_a_round(self.store, cid))
            if seen is not None:
                return self._answered_again(what, table, seen)
            done = False
            try:
                with self.store.together():
                    answer = work()
                    done = True
                    home = table if table is not None else self._pairing_home()
                    if home is not None:
                        kept = {"write": what, "said": list(answer.get("said", []))} if shows_table else \
                            {"write": what, "answer": answer}
                        venue_sql.remember_answer(self.store, home.id, cid, None, 200,
                                                  json.dumps(kept, ensure_ascii=False), None, now())
            except BaseException as e:
                if done:  # made, but not kept with its answer: nothing of it is in the file
                    self.forget()
                elif isinstance(e, (TournamentError, DomrecError)) and not isinstance(e, EventFileError) and \
                        not (isinstance(e, VenueError) and e.message == FAULT):
                    home = table if table is not None else self._pairing_home()
                    if home is not None:
                        self._remember_director_refusal(home, cid, what, e)
                raise
            return answer

    def _pairing_home(self) -> Table | None:
        """The table the next round's pairing is kept with (:meth:`once`): the last round's first
        (its lowest id; none before round 1)."""
        rnd = self.store.last_round()
        tables = self.store.tables(rnd) if rnd else []
        return min(tables, key=lambda t: t.id) if tables else None

    def _remember_director_refusal(self, table: Table, cid: str, what: str, e: Exception) -> None:
        """:meth:`_remember_refusal` for one of the director's writes (:meth:`once`)."""
        message = one_line(e.message if isinstance(e, TournamentError) else str(e))
        status = e.status if isinstance(e, VenueError) else 422
        kept: dict[str, Any] = {"write": what, "error": message}
        if isinstance(e, Unprocessable) and e.level is not None:
            kept["level"] = list(e.level)  # (the choice the director's page offers, answered again too)
        try:
            with self.store.write():
                venue_sql.remember_answer(self.store, table.id, cid, None, status,
                                          json.dumps(kept, ensure_ascii=False), None, now())
        except Exception:  # noqa: BLE001 - not kept: the same write sent again is judged again, as before
            log.exception("round %s table %s: a refused write's id could not be kept", table.round, table.number)

    def _answered_again(self, what: str, table: Table | None, seen: tuple[int | None, int, str]) -> dict[str, Any]:
        """The answer to one of the director's writes whose id was seen (:meth:`once`): the first
        answer (a table's state: what was said of it, with the table as it is now), or the same
        refusal; an id kept with another write is refused."""
        _, status, text = seen
        kept = json.loads(text)
        if kept.get("write") != what:
            raise Unprocessable(ID_OF_ANOTHER_WRITE)
        if "error" in kept:
            level = kept.get("level")
            raise Replayed(str(kept["error"]), status,
                           level=[str(x) for x in level] if isinstance(level, list) else None)
        if "said" in kept and table is not None:
            return self._state(table, self._current(table), [str(x) for x in kept["said"]])
        return kept["answer"]

    def _log_status(self, table: Table, live: Live, result: Any, facts: Facts) -> None:
        """Within a write: a ``table_status`` change when the write moved the table's public status
        (not started, playing, waiting for confirmation; a confirmed result logs its own, as every
        result does).  Compared with the last one logged, so a file whose log started mid-game
        catches up at its next write.  A duplicate table's boards in count as its phone's hand does
        (:func:`table_log.hall_status`, ``facts``: the table's as the write leaves them)."""
        if result is not None:
            return
        status = table_log.hall_status(live, facts, facts.boards is not None)
        if live.logged is None:  # read once a live game; a write that fails takes the live game with it
            live.logged = changes.table_status(self.store, table.round, table.number)
        if status != live.logged:
            changes.record(self.store, changes.TABLE_STATUS, table.round, table.number, {"status": status})
            live.logged = status

    def _log_board_status(self, table: Table) -> None:
        """Within a write: a duplicate table's status in play, logged after the director's page
        entered a board's result, marked a board not played or took either back (none of them a
        write of the table's log, whose writes log their own: :meth:`_write`), the boards counted
        as the phone's confirmed ones are (:func:`table_log.hall_status`).  Before, the hall went
        by the phone's hand alone: a table whose boards the director entered stayed *not started*.
        Compared with the change log itself, and the status the live game keeps forgotten (read
        again at the table's next write): this write may yet be undone with the group it is in."""
        live = self._current(table)
        live.logged = None
        status = table_log.hall_status(live, self._board_facts(table), True)
        if status != changes.table_status(self.store, table.round, table.number):
            changes.record(self.store, changes.TABLE_STATUS, table.round, table.number, {"status": status})

    def record(self, round_no: int, table_no: int, rev: Any, text: Any, cid: Any = None,
               made_at: Any = None, *, found: Table | None = None, stamped: bool = False) -> dict[str, Any]:
        """DGN lines recorded at the table (moves, hand parts, ``undo``): all taken, or none.
        ``found``, ``stamped``: the table as just read under the lock, and the file's stamp with it
        (see :meth:`_write`)."""
        table_log.check_dgn(text, self.store.settings.time_limit)
        if not self._plays_boards:
            return self._write(round_no, table_no, rev, lambda table, live, facts: table_log.judge_dgn(live, text),
                               cid=cid, made_at=made_at, found=found, stamped=stamped, over_calls=True, path="dgn",
                               text=text)

        def judge(table: Table, live: Live, facts: Facts) -> tuple[str, str, list[str]]:
            board = None  # ``facts``: the table's boards as the write read them, once a move
            at = table_log.board_index(facts, live)
            if facts.boards and at < len(facts.boards):
                board = duplicate.board(self.store, facts.boards[at]["board"])
                _check_deal_lines(board, live.session.game.seats, text)
            kind, body, said = table_log.judge_dgn(live, text, facts)
            record = live.session.record()
            # Checked whenever this write starts the hand or types its deal, moves with it or not.
            if board is not None and record.hands and not record.hands[0].score_sheet and \
                    (not record.hands[0].moves or _HAND_LINE.search(text)):
                try:  # a deal the table typed itself must be the board's, whole (its leader too)
                    bd.check_hand(board, record, 1)
                except bd.NotTheBoardsDeal as e:
                    raise Unprocessable(e.message) from None
            return kind, body, said

        return self._write(round_no, table_no, rev, judge, cid=cid, made_at=made_at, found=found, stamped=stamped,
                           over_calls=True, path="dgn", text=text)

    def set_mode(self, round_no: int, table_no: int, rev: Any, mode: Any, cid: Any = None,
                 made_at: Any = None) -> dict[str, Any]:
        table_log.check_mode(mode)
        return self._write(round_no, table_no, rev, lambda table, live, facts: table_log.judge_mode(live, mode),
                           cid=cid, made_at=made_at, over_calls=True, path="mode")

    def call(self, round_no: int, table_no: int, rev: Any = None, cid: Any = None,
             made_at: Any = None) -> dict[str, Any]:
        """A call of the director.  Never refused for an old view: a player who taps *Call the
        director* on a page the other phone has moved on from still wants the director, so
        ``rev`` (sent by the pages as every write's) is not checked."""

        return self._write(round_no, table_no, rev, lambda table, live, facts: table_log.judge_call(live),
                           locked_ok=True, any_view=True, cid=cid, made_at=made_at, path="call")

    def clear_call(self, round_no: int, table_no: int, rev: Any, cid: Any = None,
                   made_at: Any = None) -> dict[str, Any]:
        return self._write(round_no, table_no, rev, lambda table, live, facts: table_log.judge_clear(live),
                           locked_ok=True,
                           cid=cid, made_at=made_at)

    def confirm(self, round_no: int, table_no: int, rev: Any, who: Any, pin: Any = None, cid: Any = None,
                made_at: Any = None) -> dict[str, Any]:
        """One side (or seat) confirms the finished game; the last one enters it into the event, in the
        same transaction, as ``tournament result`` enters a record."""

        def judge(table: Table, live: Live, facts: Facts) -> tuple[str, str, list[str]]:
            sides = list(table.sides())
            if who not in sides:
                raise Unprocessable(f"confirm for one of {', '.join(sides)}")
            dup = self._plays_boards
            if not table_log.finished(live, dup):
                raise Unprocessable("the game is not over yet: it is confirmed once it is finished")
            if who in live.confirmed:
                raise Unprocessable(f"{who} has confirmed already")
            author = f"the phone at round {table.round} table {table.number}"
            if self.pins:
                player = self._check_pin(table, who, pin)
                author = f"{player.name}'s PIN at round {table.round} table {table.number}"
                from tournament.store import desk as desk_sql

                desk_sql.log(self.store, "result_confirmed", table.round,
                             {"table": table.number, "side": who, "player": player.id}, author, None)
            said = [f"{who} confirmed"]
            if set(live.confirmed) | {who} >= set(sides):
                if dup:  # the board's result enters the event; the table moves on to its next board
                    number = self._enter_board(table, live, author, said)
                    return "board", json.dumps({"board": number, "side": who}), said
                entry = self._enter(table, live, author)
                said.append(entry.summary())
            return "confirm", who, said

        with self.lock:
            try:
                return self._write(round_no, table_no, rev, judge, cid=cid, made_at=made_at, path="confirm")
            except WrongPin as e:  # the refused write is undone; the wrong PIN is counted in a write of its own
                raise self._count_wrong_pin(e.table, e.side, cid, made_at) from None

    def _check_pin(self, table: Table, who: str, pin: Any) -> Player:
        """Within the confirmation's write: the player of ``who`` whose PIN ``pin`` is.  While the
        table waits after wrong PINs, every PIN is refused unread (:class:`Waiting`)."""
        _, until = venue_sql.pin_tries(self.store, table.id)
        left = _seconds_until(until, self.clock())
        if left:
            raise Waiting(self._waiting_words(left), left)
        # (a PIN of another shape, letters or not four digits, is no PIN a slip gives: refused uncounted,
        # as a typo of its length is no guess; the shape is no secret)
        if not isinstance(pin, str) or not pin.isascii() or not pin.isdigit() or len(pin) != PIN_DIGITS:
            raise Unprocessable("type your 4-digit PIN (from your slip) to confirm")
        pins = venue_sql.pins(self.store)
        players = [s.player for s in table.seats if s.side == who or s.seat == who]
        # Every player's PIN compared, in the same time whichever matches.
        matches = [p for p in players if secrets.compare_digest(pins.get(p, "").encode(), pin.encode())]
        if not matches:
            raise WrongPin(f"that PIN is not the PIN of a player of {who}", table, who)
        return self.store.players_by_id([matches[0]])[matches[0]]

    @staticmethod
    def _waiting_words(left: int, director: bool = False, every_table: bool = False) -> str:
        if every_table:  # (the event's wait: the director's PIN at every table, confirmations as ever)
            return (f"too many wrong director's PINs at the tables: the director's PIN waits {left} "
                    f"second{'s' if left != 1 else ''} more at every table (the director's page clears it)")
        if director:  # (the director's PIN typed at a table that waits: not only confirmations wait)
            return (f"too many wrong PINs at this table: its confirmations and the director's PIN wait {left} "
                    f"second{'s' if left != 1 else ''} more (the director's page clears them)")
        if left == 1:
            return "too many wrong PINs at this table: confirmations wait 1 second more (the director can clear them)"
        return (f"too many wrong PINs at this table: confirmations wait {left} seconds more (the director can "
                f"clear them)")

    def _count_wrong_pin(self, table: Table, who: str, cid: Any = None, made_at: Any = None,
                         director: bool = False) -> VenueError:
        """A wrong PIN counted against the table (``director``: and against the event's tables
        together, :data:`EVENT_FREE_DIRECTOR_PINS`), committed (with the group it is in) before it
        is answered, so that a server killed and started again still makes the table, and every
        table, wait; the refusal to answer with.  ``cid``: the confirmation's id, kept with its
        refusal in the same write, so that the same confirmation sent again (the phone sends a
        confirmation the server did not answer again, and a try given up may still arrive) is
        answered that refusal again and its wrong PIN counted once."""
        try:
            with self.lock, self.store.write():
                venue_sql.upgrade_for_venue(self.store)
                refusal = self._add_wrong_pin(table, who, cid, made_at, director)
        except TournamentError:  # a damaged file, as every write refuses it
            raise
        except Exception:  # noqa: BLE001 - not counted, so not answered as counted: nothing stored, one line
            log.exception("round %s table %s: a wrong PIN could not be counted", table.round, table.number)
            return Unprocessable(FAULT)
        return refusal

    def _add_wrong_pin(self, table: Table, who: str, cid: Any = None, made_at: Any = None,
                       director: bool = False) -> VenueError:
        """Within a write: a wrong PIN counted (:meth:`_count_wrong_pin`); the refusal to answer with."""
        wrong = venue_sql.add_wrong_pin(self.store, table.id)
        wait = pin_wait(wrong)
        if wait:
            until = self.clock() + datetime.timedelta(seconds=wait)
            venue_sql.set_pin_wait(self.store, table.id, until.isoformat())
        misses = event_wait = 0
        if director:
            misses = venue_sql.add_director_pin_miss(self.store)
            event_wait = pin_wait(misses - EVENT_FREE_DIRECTOR_PINS + FREE_PIN_TRIES)
            if event_wait:
                every = self.clock() + datetime.timedelta(seconds=event_wait)
                venue_sql.set_director_pin_wait(self.store, every.isoformat())
        refusal = self._wrong_pin_words(who, wrong, wait)
        if director and isinstance(refusal, Forbidden):
            refusal = Forbidden(self._wrong_director_pin_words(wrong, wait, misses, event_wait))
        if cid is not None:
            venue_sql.remember_answer(self.store, table.id, cid, None, refusal.status,
                                      json.dumps({"error": refusal.message, "state": False},
                                                 ensure_ascii=False), made_at, now())
        log.warning("round %s table %s: a wrong PIN for %s (%s wrong so far)", table.round, table.number, who, wrong)
        return refusal

    @staticmethod
    def _wrong_director_pin_words(wrong: int, wait: int, misses: int, event_wait: int) -> str:
        """A wrong director's PIN's refusal: the longer wait it has just started said, the event's
        (at every table) where that one is longer (its 10th wrong director's PIN at the tables
        together also starts the table's own shorter wait: the phone was told only the table's,
        half the seconds, as if the other tables were open)."""
        said = "that is not the director's PIN"
        if event_wait and event_wait >= wait:
            said += (f": after {misses} wrong director's PINs at the tables, the director's PIN waits {event_wait} "
                     f"seconds at every table")
            return said + (f", and this table's confirmations {wait} seconds (the director's page clears them)"
                           if wait else " (the director's page clears it)")
        if wait:
            said += (f": after {wrong} wrong PINs, this table's confirmations and the director's PIN wait {wait} "
                     f"seconds (the director can clear them)")
        return said

    @staticmethod
    def _wrong_pin_words(who: str, wrong: int, wait: int) -> VenueError:
        if wait:
            return Forbidden(f"that PIN is not the PIN of a player of {who}: after {wrong} wrong PINs, this table's "
                             f"confirmations wait {wait} seconds (the director can clear them)")
        return Forbidden(f"that PIN is not the PIN of a player of {who}")

    def pin_tries(self, round_no: int, table_no: int) -> dict[str, Any]:
        """A table's wrong PINs so far, and the seconds its confirmations still wait (0: none)."""
        with self.lock:
            table = self.table(round_no, table_no)
            wrong, until = venue_sql.pin_tries(self.store, table.id)
            return {"round": table.round, "table": table.number, "wrong": wrong,
                    "wait": _seconds_until(until, self.clock())}

    def clear_pin_tries(self, round_no: int, table_no: int, by: str = "the director's page",
                        cid: Any = None) -> dict[str, Any]:
        """The director forgets a table's wrong PINs (its confirmations wait no more), into the audit
        trail: a player who slipped five times, or once the director has seen who was trying.  The
        event's count of wrong director's PINs goes with them, said so (the director is at the
        page: :meth:`clear_director_pins`); a table with no wrong PIN of its own clears that count
        alone, so that the director who clears the table whose phone said "the director's PIN
        waits" is never answered "nothing to clear" while it waits.  ``cid``: the write's id,
        taken once by it (:meth:`once`)."""
        with self.lock:
            table = self.table(round_no, table_no)
            return self.once("pins/clear", cid, lambda: self._clear_pin_tries(table, by), table)

    def _clear_pin_tries(self, table: Table, by: str) -> dict[str, Any]:
        from tournament.store import desk as desk_sql

        with self.lock:
            where = f"round {table.round} table {table.number}"
            with self.store.write():
                wrong, until = venue_sql.pin_tries(self.store, table.id)
                misses, every = venue_sql.director_pin_misses(self.store)
                if not wrong and not misses:
                    raise Unprocessable(f"{where} has had no wrong PIN: there is nothing to clear")
                said = []
                if wrong:
                    venue_sql.clear_pin_tries(self.store, table.id)
                    desk_sql.log(self.store, "wrong_pins_cleared", table.round,
                                 {"table": table.number, "wrong": wrong,
                                  "waited": _seconds_until(until, self.clock())}, by, None)
                    said.append(f"{where}: 1 wrong PIN cleared; its confirmations wait no more" if wrong == 1 else
                                f"{where}: {wrong} wrong PINs cleared; its confirmations wait no more")
                if misses:
                    said.append(self._forget_director_pins(misses, every, by))
            return {"round": table.round, "table": table.number, "wrong": 0, "wait": 0, "said": said}

    def clear_director_pins(self, by: str = "the director's page", cid: Any = None) -> dict[str, Any]:
        """The director forgets the wrong director's PINs typed at the tables together (the event's
        count, :data:`EVENT_FREE_DIRECTOR_PINS`): the director's PIN waits at no table any more,
        each table's own wrong PINs left as they are (their tables' confirmations still wait),
        into the audit trail.  Refused in one line when there is none.  ``cid``: the write's id,
        taken once by it (:meth:`once`, kept with the last round's first table)."""
        return self.once("director-pins/clear", cid, lambda: self._clear_director_pins(by))

    def _clear_director_pins(self, by: str) -> dict[str, Any]:
        with self.lock:
            with self.store.write():
                misses, every = venue_sql.director_pin_misses(self.store)
                if not misses:
                    raise Unprocessable("no wrong director's PIN has been typed at the tables: there is nothing to "
                                        "clear")
                said = self._forget_director_pins(misses, every, by)
            return {"wrong": 0, "wait": 0, "said": [said]}

    def _forget_director_pins(self, misses: int, every: str | None, by: str) -> str:
        """Within a write: the event's count of wrong director's PINs forgotten, into the audit
        trail; what to say of it."""
        from tournament.store import desk as desk_sql

        venue_sql.clear_director_pin_misses(self.store)
        desk_sql.log(self.store, "wrong_director_pins_cleared", None,
                     {"wrong": misses, "waited": _seconds_until(every, self.clock())}, by, None)
        if misses == 1:
            return "1 wrong director's PIN at the tables cleared: the director's PIN waits at no table"
        return f"{misses} wrong director's PINs at the tables cleared: the director's PIN waits at no table"

    def _enter_board(self, table: Table, live: Live, author: str, said: list[str]) -> int:
        """Within the confirmation's transaction: the board's hand as the board's result at the
        table (its deal checked against the board's, as ``tournament result --board`` checks it);
        the table's game starts afresh for its next board.  The board's number."""
        from domrec.convert import fill

        facts = self._board_facts(table)
        at = table_log.board_index(facts, live)
        if at >= len(facts.boards or ()):
            raise Unprocessable("this table has played all its boards of the round")
        number = facts.boards[at]["board"]
        record = live.session.record()
        record = attrs.evolve(record, event={**(record.event or {}), "board": number})
        where = f"round {table.round} table {table.number} board {number} (table page)"
        record, report = fill(record, where)  # the hand's result written in, as the engine computed it
        try:
            find = duplicate_teams.find_table if self.store.settings.team_duplicate else None
            hand = record.hands[0] if record.hands else None
            if hand is not None and hand.score_sheet and hand.result is not None:  # scores only: the typed score
                entry = duplicate.enter_score(self.store, table.round, table.number, number,
                                              {s: int((report.scores or {}).get(s, 0)) for s in table.sides()},
                                              by=author, within=True, ended=hand.result.end, find=find,
                                              from_phone=True)
            else:
                entry = duplicate.enter_record(self.store, record, report, table.round, table.number, number,
                                               by=author, within=True, find=find, from_phone=True)
        except duplicate.BoardAlreadyEntered as e:  # in the players' words: the command line's name --replace
            raise Unprocessable(BOARD_HAS_RESULT % {"n": e.board, "scores": f"NS {e.ns}, EW {e.ew}"}) from None
        except TournamentError as e:
            raise Unprocessable(e.message) from None
        venue_sql.set_entered_via(self.store, table.id, "table")
        said.append(entry.summary())
        live.session = Session(live.session.template)
        return number

    def _enter(self, table: Table, live: Live, author: str) -> Entry:
        """Within the confirmation's transaction: the game as the event's result, checked by domrec;
        ``author``: whose confirmation entered it (a player's PIN, or the table's phone)."""
        record = live.session.record()
        text = text_of([record], "json")
        self.store.author = author
        try:
            entry = results.enter_record(self.store, text, f"round {table.round} table {table.number} (table page)",
                                         table.round, within=True, from_phone=True)
        except results.HasResult as e:  # in the players' words: once the table, no flag; the table as it is now
            raise Locked(HAS_RESULT % {"n": e.round, "n2": e.table, "scores": e.scores},
                         table_log.state(self._facts(table), live, [])) from None
        finally:
            self.store.author = None
        venue_sql.set_entered_via(self.store, table.id, "table")
        return entry

    # --- the director's desk ----------------------------------------------------------------

    def check_director_pin(self, pin: Any, round_no: int | None = None, table_no: int | None = None) -> None:
        """``pin`` is the director's PIN, typed on a table's phone (the table's key was checked
        first); anything else is refused in one line (403), saying no more.  A wrong one counts
        against that table as a wrong player's PIN does (after 5, the table waits: 30 s, doubling;
        the director clears it), so a table's phone cannot try the million PINs one by one; while
        the table waits, every PIN is refused unread (429)."""
        with self.lock:
            table = self.table(round_no, table_no) if round_no is not None and table_no is not None else None
            if table is not None:
                left, every_table = self._director_pin_wait(table)
                if left:
                    raise Waiting(self._waiting_words(left, director=True, every_table=every_table), left,
                                  every_table)
            if not isinstance(pin, str) or not pin.strip():
                raise Forbidden("type the director's PIN")
            # (letters, or not the six digits the director's page shows: no guess, refused uncounted)
            if not pin.strip().isascii() or not pin.strip().isdigit() or len(pin.strip()) != venue_sql.DIRECTOR_PIN_DIGITS:
                raise Forbidden("the director's PIN is 6 digits, as the director's page shows it")
            if table is None:
                if not self._director_pin_is(pin):
                    raise Forbidden("that is not the director's PIN")
                return
            # At a table, the file is taken before the PIN is compared, and a wrong one counted in
            # that same write: while another program holds the file, every PIN is refused alike
            # and unread (503: the file is held, sent again shortly), so that nobody can try PINs
            # uncounted meanwhile and tell the right one by its different answer.
            with self.store.write():
                venue_sql.upgrade_for_venue(self.store)
                if self._director_pin_is(pin):
                    return
                refusal = self._add_wrong_pin(table, "the director", director=True)
            raise refusal

    def _director_pin_is(self, pin: str) -> bool:
        kept = venue_sql.director_pin(self.store)
        return kept is not None and secrets.compare_digest(kept.encode(), pin.strip().encode("utf-8", "replace"))

    def director_pin(self) -> str:
        """The director's PIN (made with the director's key, once), for the director's page."""
        with self.lock:
            pin = venue_sql.director_pin(self.store)
            if pin is None:
                ensure_tokens(self.store, 0)
                pin = venue_sql.director_pin(self.store)
            assert pin is not None
            return pin

    def authorize_director(self, token: str | None) -> None:
        with self.lock:
            self._fresh()
            found = self._key(token)
        if found is None or found[0] != "director":
            raise Forbidden("this is not the director's link of this event")

    def overview(self, lang: str = "en") -> dict[str, Any]:
        """Every table of the last round at a glance: who sits there, how far it is (``status``: not
        started, playing, waiting for confirmation, confirmed), when it last moved, and whether it
        called the director (``called``, apart from the status); when its phone was last heard
        from (``contact_at``: any request with the table's key, or its last write), and what its
        phone sent that was made offline (``offline``: ``{"taken", "refused", "at"}``, the last
        such write's arrival; ``None`` while it has sent none).  A team event's matches, each
        with how it ended once its tables are in, in ``lang``."""
        with self.lock:
            rnd = self.store.last_round()
            players = self._players()
            tables = []
            round_tables = self.store.tables(rnd) if rnd else []
            tries = venue_sql.every_pin_tries(self.store, [t.id for t in round_tables])
            misses, every = venue_sql.director_pin_misses(self.store)
            queued = venue_sql.queued_writes(self.store, [t.id for t in round_tables])
            at = self.clock()
            # Who each side is, where a side is a pair (a pairs or team event): the pair's name, and in a
            # team event its team's (``units``: side -> {"pair", "team"}), as the hall's tables say.
            pair_names = {x.id: x.name for x in self.store.teams()} if self.store.settings.partnership else {}
            team_of_pair = ({pid: sq.name for sq in teams.squads(self.store) for pid in sq.pairs}
                            if self.store.settings.teams else {})
            for t in round_tables:
                live = self._current(t)
                state = self._state(t, live, [])
                game = state["game"]
                hand = game["hands"][-1] if game["hands"] else None
                # The same, as numbers, for a page that says it in its own language.
                reached = ({"hand": hand["number"], "move": len(hand["moves"])} if hand and game["in_hand"]
                           else {"hands": len(game["hands"])} if hand else None)
                progress = (f"hand {hand['number']}, move {len(hand['moves'])}" if hand and game["in_hand"]
                            else f"{len(game['hands'])} hand{'s' if len(game['hands']) != 1 else ''}" if hand else "")
                # The first hand's line alone (a lead draw, part of a deal): a table under way, as its
                # status says (table_log.started), at its hand's move 0.
                begun = live.session.begun
                if hand is None and begun:
                    reached, progress = {"hand": game["hand"] + 1, "move": 0}, f"hand {game['hand'] + 1}, move 0"
                # A duplicate table plays one hand a board: the board it is on names where it is.
                on_board = state.get("board") if self._plays_boards else None
                if on_board is not None and (hand is not None or begun):
                    reached = ({"board": on_board, "move": len(hand["moves"])} if hand and game["in_hand"]
                               else {"board": on_board})
                    progress = (f"board {on_board}, move {len(hand['moves'])}" if hand and game["in_hand"]
                                else f"board {on_board}")
                # ... and between its boards, how many have their result: confirmed at its phone or
                # entered by the director (the page, ``tournament result --board``) alike.
                boards_in = state.get("boards_played", 0) if self._plays_boards else 0
                if boards_in and not begun and state["result"] is None:
                    reached = {"boards_in": boards_in, "boards": len(state["boards"])}
                    progress = f"{boards_in} of {len(state['boards'])} boards in"
                # A result the director entered (the director's page, or the command line) over a game
                # the phone had started: the table's result is the director's, not where its phone
                # got to (the table's page says it in the same words).
                entered = (begun and state["result"] is not None and not self._plays_boards
                           and state["result"].get("via") != "table")
                if entered:
                    progress, reached = DIRECTORS_RESULT, None
                # The call is a field of its own here, so that the director sees both: a table that
                # called while waiting for confirmation is still waiting (the table's state says "called").
                status = _progress(state["result"] is not None, live, self._plays_boards, boards_in)
                quiet = _minutes_since(live.last_at)
                idle = status in ("playing", "waiting") and quiet is not None and quiet >= self.idle_minutes
                tables.append({"round": t.round, "table": t.number, "status": status, "progress": progress,
                               "reached": reached, "entered": entered,
                               # (a duplicate table's boards its phone closed and no longer plays, with
                               # nothing in: the director enters them, table_log.to_enter)
                               "to_enter": state.get("to_enter", []),
                               "last_at": live.last_at, "moved_at": live.moved_at,
                               "rev": live.rev, "called": state["called"],
                               "idle": idle, "idle_minutes": int(quiet) if idle and quiet is not None else None,
                               "players": {s.seat: players[s.player].name for s in t.seats},
                               "units": {s.side: {"pair": pair_names[players[s.player].team],
                                                  "team": team_of_pair.get(players[s.player].team)}
                                         for s in t.seats if players[s.player].team in pair_names},
                               "totals": game["totals"], "result": state["result"],
                               # wrong PINs so far, and the seconds its confirmations still wait
                               "wrong_pins": tries.get(t.id, (0, None))[0],
                               "pin_wait": _seconds_until(tries.get(t.id, (0, None))[1], at),
                               "contact_at": max(filter(None, (self.contact.get(t.id), live.last_at)), default=None),
                               "offline": ({"taken": queued[t.id][0], "refused": queued[t.id][1],
                                            "at": queued[t.id][2]} if t.id in queued else None)})
            complete = bool(tables) and all(x["status"] == "confirmed" for x in tables)
            waiting = [x["table"] for x in tables if x["status"] != "confirmed"]
            # A team event's matches, each as its tables' confirmed results add up so far.
            # A match of games all in says how it ended, in the page's language, in the words
            # ``tournament tables`` prints (``outcome``: teams.match_outcome).
            matches = (duplicate_teams.director_matches(self.store, rnd, lang)
                       if rnd and self.store.settings.team_duplicate
                       else [{**m, "outcome": teams.match_outcome(self.store, rnd, m, lang)}
                             for m in teams.match_docs(self.store, rnd)] if rnd and self.store.settings.teams else [])
            # A duplicate session ends with its movement's last round, a team round robin with its
            # circle's: nothing is left to pair.
            finished = self._finished_words()
            over = finished is not None
            # An odd number of duplicate pairs: the pair sitting this round out, whose table is no
            # table of the round (the feed's round says it so: ``sits_out``).
            out = duplicate.sits_out(self.store, rnd) if rnd and self.store.settings.duplicate else None
            members = next((team.players for team in self.store.teams() if out and team.id == out.pair_id), ())
            sits_out = None if out is None else {
                "pair": out.pair, "name": out.name, "table": out.table,
                "players": [players[p].name for p in members if p in players]}
            # A team event's teams with a bye this round, by name (the director's page says so under the
            # matches, as the hall and ``tournament tables`` do).
            team_byes: list[str] = []
            if rnd and self.store.settings.teams:
                resting = set(self.store.byes(rnd).get(rnd, []))
                pair_players = {x.id: set(x.players) for x in self.store.teams()}
                team_byes = [sq.name for sq in teams.squads(self.store)
                             if any(pair_players.get(pid, set()) & resting for pid in sq.pairs)]
            return {"event": self.store.settings.name, "round": rnd, "tables": tables, "sits_out": sits_out,
                    "team_byes": team_byes,
                    "can_pair": (complete or not rnd) and not over, "finished": finished,
                    # Why *Pair the next round* is greyed while the round is played: the words its
                    # tap is refused with (the tables not confirmed yet), said beside it beforehand.
                    "waits": _not_finished(rnd, waiting, self._plays_boards) if rnd and waiting and not over
                    else None,
                    # Round 1 not paired yet: the players' columns it may be seeded by (as
                    # ``pair --seed rating|column:NAME``); None once it is paired.
                    "seed_columns": None if rnd else fields.field_names(self.store),
                    "idle_after": self.idle_minutes, "matches": matches,
                    # The wrong director's PINs at all the tables together, and the seconds the
                    # director's PIN still waits at every table after them: the event's, in no
                    # table's row (each row's ``pin_wait`` is its own confirmations').
                    "director_pins": {"wrong": misses, "wait": _seconds_until(every, at)}}

    def director_result(self, round_no: int, table_no: int, scores: Any, reason: Any, winner: Any = None,
                        board: Any = None, ended: Any = None, cid: Any = None) -> dict:
        """A result entered or corrected from the director's page: a score by hand (unverified), with
        a reason when it replaces one (into the audit trail, as ``tournament amend``).  At a
        duplicate table, ``board``: that board's result corrected (:func:`duplicate.correct_score`),
        ``ended``: how its hand ended (left out: as the table said).  ``cid``: the write's id, taken
        once by it (:meth:`once`): sent again, it neither enters the result again nor overwrites
        what was entered since."""
        with self.lock:
            table = self.table(round_no, table_no)
            return self.once("result", cid, lambda: self._director_result(round_no, table_no, scores, reason, winner,
                                                                           board, ended), table, shows_table=True)

    def _director_result(self, round_no: int, table_no: int, scores: Any, reason: Any, winner: Any,
                         board: Any, ended: Any) -> dict:
        if not isinstance(scores, dict) or not scores or not all(
                isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in scores.items()):
            raise Unprocessable('"scores" must be an object of whole numbers, one per side: {"NS": 120, "EW": 80}')
        if reason is not None and not isinstance(reason, str):
            raise Unprocessable('"reason" must be text')
        if winner is not None and not isinstance(winner, str):
            raise Unprocessable('"winner" must be a side or seat')
        if board is not None and (isinstance(board, bool) or not isinstance(board, int)):
            raise Unprocessable('"board" must be the number of the board to correct')
        ends = duplicate.board_ends(self.store.settings)
        if ended is not None and ended not in ends:
            raise Unprocessable(ended_refusal(ends))
        if self._plays_boards and board is not None:  # a board's score entered, or corrected
            return self._director_board_result(round_no, table_no, board, scores, reason, ended)
        if self._plays_boards:  # a table's result there is its boards', each its own
            raise Unprocessable(results.BOARD_BY_BOARD)
        return self._in_one_step(lambda: self._director_game_result(round_no, table_no, scores, reason, winner))

    def _in_one_step(self, work: Callable[[], dict]) -> dict:
        """The director's entry of a result (or a board's mark "not played", or its taking back:
        :meth:`_director_board`), ``work()``, made in one write transaction under the
        lock (:meth:`EventStore.together`), so that whether the table (or the board) has a result
        is read in the same transaction as the write that acts on it: a result stored meanwhile by
        another writer of the file (the table's phone, ``tournament result`` beside the server)
        makes the entry a correction, never a first result put over it.  Within :meth:`once` (a
        write sent with its id) the transaction is that one's."""
        done = False
        try:
            with self.lock, self.store.together():
                answer = work()
                done = True
        except BaseException:
            if done:  # made, but its transaction was not committed: the live games are made again
                self.forget()
            raise
        return answer

    def _director_game_result(self, round_no: int, table_no: int, scores: dict, reason: Any,
                              winner: Any) -> dict:
        """A whole game's result typed on the director's page (:meth:`director_result`): entered
        where the table has none (:func:`results.enter_manual`), else a correction, with a reason
        (:func:`results.amend_manual`).  Made in one step (:meth:`_in_one_step`): before, without
        an id, the table's result was read before the entry's write was taken, and one stored
        between by another writer of the file met the entry, not the correction, and was refused
        in the command line's words (``give --replace``) instead of as a correction."""
        with self.lock:
            table = self.table(round_no, table_no)
            try:
                if self.store.result_for(table.id) is None:
                    # Over a game in progress on the table's phone only with a reason, the page's
                    # --replace: else refused in the page's words (results.refuse_game_on_phone).
                    # The reason is the trail's as a change's is: one line of text, no control or
                    # direction character, of a length the trail keeps.
                    reason = audit.clean_text(reason, "the reason")
                    self.store.author = "the director's page"
                    try:
                        entry = results.enter_manual(self.store, table_no, scores, round_no, winner=winner,
                                                     note=reason or None, over_phone=bool(reason and reason.strip()))
                    except results.GameOnPhone as e:
                        raise Unprocessable(GAME_ON_PHONE % {"n": e.round, "n2": e.table}) from None
                    finally:
                        self.store.author = None
                else:
                    if not reason or not reason.strip():
                        raise Unprocessable("give the reason for changing a result (it goes into the audit trail)")
                    entry = results.amend_manual(self.store, round_no, table_no, scores, winner,
                                                 by="director's page", reason=reason)
            except LevelAtTop as e:
                # The command line's words name ``--winner``; here the page offers the level sides
                # to choose from (``level``), and an API client sends ``"winner"``.
                raise Unprocessable(f"{results._and(list(e.level))} are level on {e.score} at the top of table "
                                    f"{e.table}: say who won by the game's rules; nothing was stored",
                                    level=list(e.level)) from None
            except WinnerContradicts as e:
                raise Unprocessable(f"the winner named, {e.winner}, contradicts the scores: "
                                    f"{results._and(list(e.ahead))} scored more ({e.best} to {e.theirs}); name a "
                                    f"winner only when the highest scores are level") from None
            with self.store.write():
                venue_sql.upgrade_for_venue(self.store)
                venue_sql.set_entered_via(self.store, table.id, "director")
            self.store.bring_browsing_up_to_date()
            state = self._state(table, self._current(table), [entry.summary()])
            return state

    def _director_board_result(self, round_no: int, table_no: int, board: int, scores: dict, reason: Any,
                               ended: str | None) -> dict:
        """A board's score typed on the director's page: entered if the board has no result at the
        table yet (:meth:`_director_enter_board`), else corrected, with a reason (:meth:`_correct_board`).
        Whether it has one is read in the write's own transaction, under the lock: a result stored
        meanwhile (the table's phone confirming the board, ``tournament result --board`` beside the
        server) makes this a correction, refused without a reason, never a first result put over it.
        Before, it was read before the write's transaction was taken, and a result that landed
        between was replaced as an entry (a ``board_replaced`` line where a correction says why) or
        refused in the command line's words (``--replace``)."""
        def work() -> dict:
            table = self.table(round_no, table_no)
            # (the standings the last round was paired on, before: its note is this change's, as
            # amend's and result --replace's are; an earlier correction's is not said again)
            before = desk.pairing_basis(self.store) if self.store.settings.team_duplicate else None
            if duplicate.entered(self.store, table.id, board) is None:
                return self._director_enter_board(round_no, table_no, board, scores, reason, ended, before)
            return self._correct_board(round_no, table_no, board, scores, reason, ended, before)

        return self._in_one_step(work)

    def _director_enter_board(self, round_no: int, table_no: int, board: int, scores: dict, reason: Any,
                     ended: str | None, before: Any = None) -> dict:
        """A board's first result at a duplicate table (pairs or teams), typed on the director's page:
        the command line's own operation, ``tournament result EVENT --round R --table T --board B
        --score NS=..,EW=..`` (:func:`duplicate.enter_score`; duplicate teams' finds the round's
        table), refused as there, in one line.  ``ended``: how the hand ended, as the director says.
        Over the board the table's phone is playing, or one marked not played there, only with a
        reason (the command line's ``--replace --reason``), kept in the trail with it.  One marked at
        the match's other table only (duplicate teams) is entered without one, as nothing here is
        replaced; the answer says it does not count until that mark is taken back
        (:attr:`duplicate.BoardEntry.uncounted_at`)."""
        reason = audit.clean_text(reason, "the reason") if isinstance(reason, str) else None
        with self.lock:
            table = self.table(round_no, table_no)
            # (marked at this table only: a board marked at the match's other table is entered here
            # without one, and the answer says the result counts once that mark is taken back)
            if duplicate.marked_here(self.store, table.id, board) and not reason:
                raise Unprocessable(BOARD_MARKED % {"n": round_no, "n2": table_no, "n3": board})
            find = duplicate_teams.find_table if self.store.settings.team_duplicate else None
            if find is not None:
                duplicate_teams.check(self.store, "a board's result")
            try:
                entry = duplicate.enter_score(self.store, round_no, table_no, board, scores, replace=bool(reason),
                                              by="the director's page", find=find, ended=ended, reason=reason)
            except results.GameOnPhone:
                raise Unprocessable(BOARD_ON_PHONE % {"n": table_no, "n2": board}) from None
            except TournamentError as e:
                raise Unprocessable(e.message) from None
            return self._entered_by_director(table, entry, before)

    def _correct_board(self, round_no: int, table_no: int, board: int, scores: dict, reason: Any,
                       ended: str | None = None, before: Any = None) -> dict:
        """The director's typed correction of a board's result at a duplicate table, with its reason."""
        if not isinstance(reason, str) or not reason.strip():
            raise Unprocessable("give the reason for changing a result (it goes into the audit trail)")
        with self.lock:
            table = self.table(round_no, table_no)
            find = duplicate_teams.find_table if self.store.settings.team_duplicate else None
            try:
                if find is not None:
                    duplicate_teams.check(self.store, "a board's correction")
                entry = duplicate.correct_score(self.store, round_no, table_no, board, scores, reason,
                                                "the director's page", ended, find=find)
            except TournamentError as e:
                raise Unprocessable(e.message) from None
            return self._entered_by_director(table, entry, before)

    def _entered_by_director(self, table: Table, entry: Any, before: Any = None) -> dict:
        """After a board's result entered or corrected from the director's page: the table's result
        said as the director's, the pages brought up to date, the table's state with what was done
        (``before``: :func:`desk.pairing_basis` taken before the change, for its note)."""
        with self.store.write():
            venue_sql.upgrade_for_venue(self.store)
            venue_sql.set_entered_via(self.store, table.id, "director")
            self._log_board_status(table)
        self.store.bring_browsing_up_to_date()
        return self._state(table, self._current(table), self._with_stale_note(entry.sentences(), before))

    def _with_stale_note(self, said: list[str], before: Any = None) -> list[str]:
        """``said``, and the note the command line prints after a board's change when the last round,
        unplayed, was paired on standings it changed (:func:`desk.stale_board_pairing`): the page
        says it as ``tournament result`` and ``tournament clear --board`` do.  ``before``: the
        standings :func:`desk.pairing_basis` gave before the change, so that a change that left them
        as they were does not repeat an earlier correction's note."""
        note = desk.stale_board_pairing(self.store, str(self.store.path), before)
        return [*said, note] if note else said

    def director_clear(self, round_no: int, table_no: int, reason: Any, cid: Any = None, board: Any = None) -> dict:
        """A result taken back from the director's page: :func:`tournament.event.results.clear_result`
        (as ``tournament clear``), the reason required, the old result into the audit trail.  At a
        duplicate table (pairs or teams), ``board``: that board's result (or its mark "not played") taken back,
        :func:`tournament.event.duplicate.clear_board` (as ``tournament clear --board``).
        ``cid``: the write's id, taken once by it (:meth:`once`): sent again, it clears no result
        entered since."""
        with self.lock:
            table = self.table(round_no, table_no)
            return self.once("result/clear", cid, lambda: self._director_clear(round_no, table_no, reason, board),
                             table, shows_table=True)

    def _director_clear(self, round_no: int, table_no: int, reason: Any, board: Any = None) -> dict:
        if reason is not None and not isinstance(reason, str):
            raise Unprocessable('"reason" must be text')
        if board is not None:
            return self._director_board(round_no, table_no, board, reason, duplicate.clear_board)
        if not reason or not reason.strip():
            raise Unprocessable("give the reason for clearing a result (it goes into the audit trail)")
        with self.lock:
            table = self.table(round_no, table_no)
            try:
                done = results.clear_result(self.store, round_no, table_no, reason, by="director's page")
            except results.NoResult as e:
                raise Unprocessable(NO_RESULT_TO_CLEAR % {"n": e.round, "n2": e.table}) from None
            self.store.bring_browsing_up_to_date()
            return self._state(table, self._current(table), [done.summary()])

    def director_not_played(self, round_no: int, table_no: int, board: Any, reason: Any, cid: Any = None,
                            replace: Any = False) -> dict:
        """A board the table did not play, marked from the director's page:
        :func:`tournament.event.duplicate.mark_not_played` (as ``tournament result --board B
        --not-played --reason``), the reason required, into the audit trail.  ``cid``: the write's
        id, taken once by it (:meth:`once`).  ``replace`` (``"replace": true``): over the hand the
        table's phone is playing, as ``--not-played --replace``."""
        if not isinstance(replace, bool):
            raise Unprocessable('"replace" must be true or false')
        with self.lock:
            table = self.table(round_no, table_no)
            return self.once("result/not-played", cid,
                             lambda: self._director_board(round_no, table_no, board, reason,
                                                          duplicate.mark_not_played, replace), table,
                             shows_table=True)

    def _director_board(self, round_no: int, table_no: int, board: Any, reason: Any,
                        operation: Callable[..., Any], replace: bool = False) -> dict:
        """A duplicate board (pairs or teams) marked not played, or its result taken back, from the
        director's page: the command line's own operation (``operation``: :func:`duplicate.mark_not_played`,
        :func:`duplicate.clear_board`), refused as there, in one line.  Then as after the director's
        correction of a board (:meth:`_correct_board`): what people browse is brought up to date,
        and the answer is the table as it now is (the server tells the hall, as after every write
        that logs a change; the table's phones see the board they are on move at their next read).
        The operation and the tables' status logged after it are one step (:meth:`_in_one_step`):
        before, two transactions without an id, and the file held at the second answered an error
        for a mark that was made, which sent again was refused as already marked."""
        if isinstance(board, bool) or not isinstance(board, int):
            raise Unprocessable('"board" must be the number of the board')
        if reason is not None and not isinstance(reason, str):
            raise Unprocessable('"reason" must be text')
        if not reason or not reason.strip():
            raise Unprocessable("give the reason for marking a board not played (it goes into the audit trail)"
                                if operation is duplicate.mark_not_played else
                                "give the reason for taking a board's result back (it goes into the audit trail)")
        return self._in_one_step(lambda: self._director_board_step(round_no, table_no, board, reason, operation,
                                                                   replace))

    def _director_board_step(self, round_no: int, table_no: int, board: int, reason: str,
                             operation: Callable[..., Any], replace: bool) -> dict:
        """:meth:`_director_board`'s work, in its one step."""
        with self.lock:
            table = self.table(round_no, table_no)
            # (the standings the last round was paired on, before: the note is this change's own)
            before = desk.pairing_basis(self.store) if self.store.settings.team_duplicate else None
            try:
                done = operation(self.store, round_no, table_no, board, reason, "the director's page",
                                 **({"replace": True} if replace else {}))
            except duplicate.BoardHasResult as e:  # the same refusal, its advice in the page's terms
                raise Unprocessable(f"round {e.round} table {e.table} board {e.board} has a result (NS {e.ns}, "
                                    f"EW {e.ew}): take it back first (Take the board's result back)") from None
            except duplicate.BoardOnPhone as e:  # (the page's save corrects a board's result, enters none)
                raise Unprocessable(f"table {e.table}'s phone is playing board {e.board}: finish the hand there and "
                                    f"confirm it (this page then corrects its score: Save the result), or enter its "
                                    f"score at the command line (tournament result EVENT --round {e.round} --table "
                                    f"{e.table} --board {e.board} --score NS=..,EW=.. --replace)") from None
            except TournamentError as e:
                raise Unprocessable(e.message) from None
            # The hall's status of the table (a board in, or none again) and, in duplicate teams, of
            # its match's other table, whose board a mark (or its taking back) takes with it.
            # (found among the round's tables, which hold its match: not the event's every table)
            round_tables = self.store.tables(table.round)
            other = (board_sql.match_tables(self.store, round_tables).get(table.id)
                     if self.store.settings.team_duplicate else None)
            with self.store.write():
                for each in (table, *(t for t in round_tables if t.id == other)):
                    self._log_board_status(each)
            self.store.bring_browsing_up_to_date()
            said = done.sentences() if isinstance(done, duplicate.BoardMark) else [done.summary()]
            return self._state(table, self._current(table), self._with_stale_note(said, before))

    def lines(self, round_no: int, table_no: int) -> dict[str, Any]:
        """The table's game hand by hand, one line a move, as a correction numbers them
        (:func:`tournament.event.corrections.game_lines`), at the table's revision."""
        with self.lock:
            table = self.table(round_no, table_no)
            live = self._current(table)
            try:
                hands = corrections.game_lines(live.session)
            except corrections.CorrectionRefused as e:
                raise Unprocessable(e.message) from None
            return {"rev": live.rev, "round": table.round, "table": table.number, "hands": hands}

    def correct(self, round_no: int, table_no: int, rev: Any, hand: Any, line: Any, text: Any, reason: Any,
                by: str = "the director's page", cid: Any = None, made_at: Any = None) -> dict[str, Any]:
        """The director corrects one line of one hand of the table's game (a move, the tiles left, a
        hand's score), or the whole hand (``line`` ``None``; empty ``text``: the hand taken back), with
        a reason; the rest of the game is recorded again by the engine, so it stays a verified record.
        One write of the table's log (the whole corrected game in it), with the trail's line and the
        change log's ``game_corrected``; a confirmed game's result is amended in the same transaction,
        as ``tournament amend`` amends it."""
        from tournament.event.audit import clean_text
        from tournament.store import desk as desk_sql

        if isinstance(hand, bool) or not isinstance(hand, int):
            raise Unprocessable('"hand" must be the number of the hand to correct')
        if line is not None and (isinstance(line, bool) or not isinstance(line, int)):
            raise Unprocessable('"line" must be the number of the line to correct (or null: the whole hand)')
        if not isinstance(text, str):
            raise Unprocessable('"text" must be the corrected line (empty: remove it)')
        table_log.check_dgn(text, self.store.settings.time_limit)  # (what a table may type, the director may)
        if not isinstance(reason, str) or not reason.strip():
            raise Unprocessable("give the reason for the correction (it goes into the audit trail)")
        try:
            reason = clean_text(reason, "the reason")
        except TournamentError as e:
            raise Unprocessable(e.message) from None

        def judge(table: Table, live: Live, facts: Facts) -> tuple[str, str, list[str]]:
            try:
                fixed = corrections.correct(live.session, hand, line, text)
            except corrections.CorrectionRefused as e:
                raise Unprocessable(e.message) from None
            result = self.store.result_for(table.id)
            where = f"round {table.round} table {table.number}"
            said = [f"{where}: hand {fixed.hand} corrected; the game is recorded again"]
            if result is not None:
                if not fixed.session.over:
                    raise Unprocessable(f"{where} has its result: a correction must leave its game finished "
                                        f"(this one leaves it in play); nothing was changed")
                try:
                    entry = results.amend_record(self.store, text_of([fixed.session.record()], "json"),
                                                 f"{where} (corrected by {by})", table.round,
                                                 table.number, by=by, reason=reason, within=True)
                except TournamentError as e:
                    raise Unprocessable(f"{e.message}; nothing was changed") from None
                venue_sql.set_entered_via(self.store, table.id, "director")
                said.append(entry.summary())
            desk_sql.log(self.store, "hand_corrected", table.round,
                         {"table": table.number, "hand": fixed.hand, "line": line, "was": fixed.was,
                          "now": fixed.now}, by, reason)
            changes.record(self.store, changes.GAME_CORRECTED, table.round, table.number, {"hand": fixed.hand})
            live.session = fixed.session
            # (who and why go into the director's trail above, not the table's log, which the table's
            # phones read: the reason is the director's note)
            body = json.dumps({"hand": fixed.hand, "line": line, "was": fixed.was, "now": fixed.now,
                               "requests": list(fixed.requests)}, ensure_ascii=False)
            return "correct", body, said

        return self._write(round_no, table_no, rev, judge, locked_ok=True, cid=cid, made_at=made_at)

    def pair_next(self, seed: Any = None, cid: Any = None) -> dict[str, Any]:
        """The next round, once every table of this one is confirmed; and its tables' keys.
        ``seed``: round 1's seeding as ``tournament pair --seed`` takes it (``draw``, ``rating``,
        ``column:NAME``), through the same operation; a ratings file is the command line's alone
        (a page must not name a file on the server's disk).  ``cid``: the write's id, taken once by
        it (:meth:`once`): sent again, it is answered the round it paired, and pairs no other."""
        return self.once("pair", cid, lambda: self._pair_next(seed))

    def _pair_next(self, seed: Any) -> dict[str, Any]:
        if seed is not None and (not isinstance(seed, str) or seed_rules.ratings_path(seed) is not None):
            raise Unprocessable(SEED_REFUSAL)
        with self.lock:
            rnd = self.store.last_round()
            if rnd and self._plays_boards:
                left = (duplicate_teams.missing if self.store.settings.team_duplicate else duplicate.missing)(
                    self.store, rnd)
                open_tables = sorted({t for t, _ in left})
                if open_tables:  # (the page's words, as an ordinary round's below; the command line names each board)
                    raise Unprocessable(_not_finished(rnd, open_tables, boards=True))
            elif rnd:
                open_tables = [t.number for t in self.store.tables(rnd) if self.store.result_for(t.id) is None]
                if open_tables:
                    raise Unprocessable(_not_finished(rnd, open_tables, boards=False))
            rounds.pair_next_round(self.store, seed or None)
            self.store.bring_browsing_up_to_date()
            self.ensure_tokens()
            return {"round": self.store.last_round(), "said": [f"round {self.store.last_round()} is paired"],
                    "tables": len(self.store.tables(self.store.last_round()))}

    def replay_html(self, round_no: int, table_no: int, lang: str = "en", board: int | None = None) -> str:
        """The table's game so far (or its stored result's record) as domrec's replay page.  A
        duplicate table's games are its boards': ``board`` (else the board in play, or else the
        last one played move by move).  A result with no game behind it (a forfeit, a score typed
        by hand) is refused as having no game to show, never drawn as an empty game "not finished"."""
        from domrec import replay_page
        from domrec.reader import loads

        with self.lock:
            table = self.table(round_no, table_no)
            where = f"round {table.round} table {table.number}"
            live = self._current(table).session.record()
            if self._plays_boards:
                record, board = self._board_replay(table, live, board, where)
                # (the page names the board it shows, among its event's lines)
                named = {"round": table.round, "table": table.number, **(record.event or {}), "board": board}
                return replay_page.page(attrs.evolve(record, event=named), f"{where} board {board}", lang=lang)
            if board is not None:
                raise NotFound(f"{where} plays no boards: its replay is its game's")
            result = self.store.result_for(table.id)
            text = self.store.record_text(result.id) if result is not None and result.kind == "record" else None
            if text is not None:
                record = loads(text)
            elif result is not None and not live.hands:
                what = "a forfeit" if result.kind == "forfeit" else "a score typed by hand"
                raise NotFound(f"{where} has no game to show: its result is {what}")
            else:
                record = live
            return replay_page.page(record, where, lang=lang)

    def _board_replay(self, table: Table, live: Any, board: int | None, where: str) -> tuple[Any, int]:
        """The record a duplicate table's replay shows, and its board (see :meth:`replay_html`)."""
        from domrec.reader import loads

        boards = self._boards_of(table)
        if board is not None and board not in boards:
            shown = ", ".join(map(str, boards)) or "none"
            raise NotFound(f"{where} plays boards {shown}, not board {board}")
        texts = {b: board_sql.record_text(self.store, table.id, b) for b in boards}
        in_play = next((b for b in boards if duplicate.entered(self.store, table.id, b) is None), None)
        if board is None:
            if live.hands and in_play is not None:
                board = in_play
            else:
                board = next((b for b in reversed(boards) if texts[b] is not None), None)
                if board is None:
                    raise NotFound(f"{where} has no board played move by move yet: a typed score has no game "
                                   f"to show")
        if texts[board] is not None:
            return loads(texts[board]), board
        if board == in_play and live.hands:
            return live, board
        said = "is not played yet" if duplicate.entered(self.store, table.id, board) is None else \
            "has a typed score: there is no game to show"
        raise NotFound(f"{where} board {board} {said}")


def hand_edited(event: Path) -> str | None:
    """What ``serve`` warns of at its start when the event file holds a value the tool never
    writes (a row changed by hand, :func:`tournament.store.damage.never_written`): the pages and
    tables that read it will fail, each with its one-line 500.  A warning, not a refusal: the
    tables that do not read it can still record their games.  None for a sound file."""
    from tournament.store.damage import never_written

    named = never_written(event)
    if named is None:
        return None
    return (f"{named}: the pages and tables that read it will fail; run `tournament check {event}` and restore the "
            f"event from a copy")
