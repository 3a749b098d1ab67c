"""The venue's JSON API described in OpenAPI 3.1 (served at ``/api/v1/openapi.json``).

Kept beside the routes it describes; a test checks that every route of the application is
described here and every path described is a route, so the two cannot drift apart."""

from __future__ import annotations

from typing import Any

_ERROR = {"type": "object", "required": ["error", "request_id"],
          "properties": {"error": {"type": "string", "description": "One line saying what was refused and why, in the "
                                                            "client's language (the lang cookie, else "
                                                            "Accept-Language, else the event's: en or es)."},
                         "request_id": {"type": "string"},
                         "state": {"$ref": "#/components/schemas/TableState"},
                         "line": {"type": "integer"}, "column": {"type": "integer"},
                         "level": {"type": "array", "items": {"type": "string"},
                                   "description": "A typed result refused for sides level at the top of a "
                                                  "multi-player table: those sides; send the result again with "
                                                  "`winner`, the one of them who won by the game's rules."}}}


def _refusals(*codes: int) -> dict[str, Any]:
    words = {400: "The body is not a JSON object.", 403: "The key does not open this.",
             404: "No such round or table (a game: or no recorded game to show there, as it is still in play).", 409: "The table has moved on (an old rev: `state` is the table now), "
             "or its result is confirmed.", 408: "The body did not arrive whole within 10 seconds: nothing taken.", 413: "The body is too large.",
             415: "The body is not declared JSON (`Content-Type: application/json`): nothing taken.",
             422: "Refused by the rules or unreadable, or a fault of the server's own: nothing stored (`line`, "
                  "`column` for DGN); the feed: a bad `since`, `limit` or `format`.",
             429: "Too many requests from this device; or (a confirmation) the table waits after too many "
                  "wrong PINs (its body's `pin_wait`, the seconds, tells it from the device's limit; "
                  "`pin_wait_every_table`: the director's PIN waits at every table, after too many wrong "
                  "director's PINs at the event's tables together): `Retry-After` says how many seconds more.",
             503: "A write: another program held the event file longer than the venue waits for it (5 s), or the "
                  "server is shutting down: nothing stored; send it again, its same `cid`, after `Retry-After` "
                  "seconds (it is stored once)."}
    return {str(c): {"description": words[c], "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            for c in codes}


#: What every write to a table's log may carry besides its own fields (issue 36).
_WRITE_IDS = {
    "cid": {"type": "string", "pattern": "^[A-Za-z0-9_.:-]{8,100}$",
            "description": "The write's own id, unique per phone and write (the table pages send a random "
                           "128-bit id of the phone's and a counter). The server keeps what it answered, in the "
                           "same transaction as the write: the same cid sent again (a retry after a lost answer, "
                           "a queued write sent twice) is answered that again, whatever its rev, and nothing is "
                           "applied twice; a refusal is kept too (the same refusal again; a fault of the "
                           "server's own is not kept), up to 1,000 refusals a table: past them a refusal is not "
                           "kept, and the same write sent again is judged again and refused again (an accepted "
                           "write is always kept). An accepted write's repeat answers what was said of it with "
                           "the table as it is now (the first answer exactly, while nothing was written after it). "
                           "Without cid a write is taken as it always was."},
    "at": {"type": "string", "format": "date-time",
           "description": "When a write queued on the phone while it was offline was made, by the phone's clock "
                          "(ISO 8601). Kept beside the write as sent and never used to order anything: a queued write "
                          "is judged as a live one, against its rev; the director's page counts the writes that "
                          "came with it (a table whose phone sent moves made offline)."},
}


#: What the director's writes that are no write of a table's log may carry (a result entered or taken
#: back, wrong PINs cleared, a new key, the next round paired): their own id, kept as a table's writes' are.
_DIRECTOR_ID = {
    "cid": {**_WRITE_IDS["cid"],
            "description": "The write's own id, made once per tap (the director's page sends a random 128-bit id "
                           "of the browser's and a counter, and sends the write again with it until answered). The "
                           "server keeps what it answered, in the same transaction as the write: the same cid sent "
                           "again (a retry after a lost answer, a server killed and started again) is answered "
                           "that again and nothing is done twice: a new key's repeat gives the same link and QR "
                           "code (no third key), a pairing's repeat the same round (no other round paired), wrong "
                           "PINs cleared the same answer; a result entered or taken back answers what was said of "
                           "it with the table as it is now, and overwrites or clears nothing done since. A refusal "
                           "is kept too (the same refusal again; a fault of the server's own is not kept). A cid "
                           "kept with another write is refused (422). Without cid a write is made as it always "
                           "was."},
}


def _ids(body: dict[str, Any]) -> dict[str, Any]:
    return {**body, "properties": {**body["properties"], **_WRITE_IDS}}


def _director_id(body: dict[str, Any]) -> dict[str, Any]:
    return {**body, "properties": {**body.get("properties", {}), **_DIRECTOR_ID}}


def _write(summary: str, body: dict[str, Any], director: bool = False) -> dict[str, Any]:
    return {"post": {"summary": summary, "security": [{"key": []}],
                     "requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
                     "responses": {"200": {"description": "Accepted: the table's new state.",
                                           "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TableState"}}}},
                                   **_refusals(400, 403, 404, 408, 409, 413, 415, 422, 429, 503)}}}


_FEED_HEADERS = {"ETag": {"schema": {"type": "string"}, "description": "Send it back as If-None-Match: 304 "
                                                                        "while nothing has changed (the gzipped "
                                                                        "answer has a tag of its own)."},
                 "Vary": {"schema": {"type": "string"}, "description": "Accept-Encoding: gzipped where asked, "
                                                                       "q-values honoured."}}


def _feed_get(summary: str, schema: str, *refusals: int) -> dict[str, Any]:
    return {"get": {"summary": summary + " (public: no key)", "security": [],
                    "responses": {"200": {"description": "The data now.", "headers": _FEED_HEADERS,
                                          "content": {"application/json": {
                                              "schema": {"$ref": f"#/components/schemas/{schema}"}}}},
                                  "304": {"description": "Not modified (If-None-Match)."},
                                  **_refusals(*refusals, 429)}}}


_RESULT = {"type": ["object", "null"], "required": ["scores", "winner", "verified", "kind"],
           "properties": {"scores": {"type": "object", "additionalProperties": {"type": "integer"}},
                          "winner": {"type": ["string", "null"]}, "verified": {"type": "boolean"},
                          "kind": {"enum": ["record", "manual", "forfeit"]},
                          "forfeit": {"type": "array", "items": {"type": "string"},
                                      "description": "A forfeit's sides that did not play."}}}
_CHANGE = {"type": "object", "required": ["seq", "at", "kind", "round", "table", "data"],
           "properties": {"seq": {"type": "integer", "minimum": 1}, "at": {"type": "string"},
                          "kind": {"type": "string", "description": "event_created, log_started, player_added, "
                                   "player_withdrawn, pair_added, pair_withdrawn, round_paired, stage_created, "
                                   "table_seated, table_reseated, result_entered, result_amended, table_status, "
                                   "event_finished (docs/venue.md)"},
                          "round": {"type": ["integer", "null"]}, "table": {"type": ["integer", "null"]},
                          "data": {"type": "object"}}}
_FEED_SCHEMAS: dict[str, Any] = {
    "Event": {"type": "object", "required": ["feed_version", "uuid", "name", "game", "status", "latest_seq"],
              "properties": {"feed_version": {"type": "integer"}, "uuid": {"type": "string"},
                             "name": {"type": "string"}, "game": {"type": "string"},
                             "variant": {"type": ["string", "null"]}, "options": {"type": "object"},
                             "format": {"enum": ["pairs", "rotating", "individual", "duplicate", "duplicate-teams"]},
                             "ranking": {"enum": ["matchpoints", "imps", "victory-points", "match-points"],
                                         "description": "A duplicate event only: what ranks it (its tiebreaks "
                                                        "are then empty)."},
                             "table_size": {"type": "integer"}, "tiebreaks": {"type": "array"},
                             "time_limit": {"type": ["integer", "null"], "description": "Minutes a game."},
                             "planned_rounds": {"type": ["integer", "null"]},
                             "status": {"enum": ["not started", "in progress", "finished"]},
                             "current_round": {"type": "integer"}, "rounds_paired": {"type": "integer"},
                             "players": {"type": "integer"},
                             "rounds": {"type": "array", "items": {"type": "object"},
                                        "description": "Each round's tables and results: the tables with a "
                                                       "result (a duplicate event: with every board settled)."},
                             "stages": {"type": "array", "items": {"type": "object"}},
                             "stage": {"type": ["object", "null"], "description": "The last stage (a final, a "
                                       "knockout, a round robin), if any."},
                             "champion": {"type": ["string", "null"]},
                             "latest_seq": {"type": "integer", "description": "Follow from here: /changes?since="}}},
    "Standings": {"type": "object", "required": ["tiebreaks", "standings", "columns"],
                  "properties": {"tiebreaks": {"type": "array", "items": {"type": "string"}},
                                 "ranked_by": {"type": "string"}, "through_round": {"type": "integer"},
                                 "provisional": {"type": "boolean"}, "missing": {"type": "object"},
                                 "fields": {"type": "array", "items": {"enum": ["NS", "EW"]},
                                            "description": "A duplicate pairs event in a Mitchell: NS, EW; its "
                                                           "rows are each direction's pairs together, NS first, "
                                                           "each ranked on its own (rank 1 a direction). A "
                                                           "Howell: empty, one list."},
                                 "columns": {"type": "array", "items": {"type": "object"}},
                                 "standings": {"type": "array", "items": {"type": "object"},
                                               "description": "The rows, best first. A team event: its teams "
                                                              "(the same rows as teams; its pairs under "
                                                              "pairs), as standings --json. A duplicate pairs "
                                                              "event: only the pairs with a board scored, ranked "
                                                              "among themselves (its pairs, the same rows; "
                                                              "members names every pair's players)."},
                                 "teams": {"type": "array", "items": {"type": "object"},
                                           "description": "A team event's team standings, best first."},
                                 "pairs": {"type": "array", "items": {"type": "object"},
                                           "description": "A pairs or team event's pairs, best first (a team "
                                                          "event's ranked as pair_tiebreaks says)."},
                                 "pair_tiebreaks": {"type": "array", "items": {"type": "string"}},
                                 "team_tiebreaks": {"type": "array", "items": {"type": "string"}}}},
    "Round": {"type": "object", "required": ["round", "label", "tables", "byes"],
              "properties": {"round": {"type": "integer"}, "stage": {"type": "integer"}, "label": {"type": "string"},
                             "tables": {"type": "array", "items": {
                                 "type": "object", "properties": {
                                     "table": {"type": "integer"}, "match": {"type": ["string", "null"]},
                                     "game": {"type": ["integer", "null"]}, "seats": {"type": "array"},
                                     "result": _RESULT,
                                     "status": {"enum": ["not started", "playing", "waiting", "confirmed"]}}}},
                             "byes": {"type": "array"},
                             "sits_out": {"type": "object", "description": "A duplicate pairs event of an odd "
                                          "number of pairs: the pair sitting this round out (pair, name, the "
                                          "table it would have sat at, players); absent where every pair plays."}}},
    "Changes": {"type": "object", "required": ["since", "limit", "latest", "next", "changes"],
                "properties": {"feed_version": {"type": "integer"}, "uuid": {"type": "string"},
                               "since": {"type": "integer"}, "limit": {"type": "integer"},
                               "latest": {"type": "integer"},
                               "next": {"type": "integer", "description": "The since to ask next."},
                               "changes": {"type": "array", "items": _CHANGE}}},
}

_REV = {"type": "integer", "description": "The table's revision, as the last state said."}
_TABLE_PARAMS = [{"name": "round", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}},
                 {"name": "table", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}},
                 {"name": "hands", "in": "query", "required": False, "schema": {"type": "string"},
                  "example": "3f0c9a1be2d4a6c8.4",
                  "description": "KEY.N: the closed hands the asker already holds, N of them, KEY the last one's "
                                 "entry in game.hands_keys.  When the game's N-th key is KEY, the answer's "
                                 "game.hands and game.hands_keys hold only the hands after them and "
                                 "game.hands_from is N; otherwise the whole game."}]
#: The director at a table: the table's own key, and the director's PIN in this header.
_PIN_PARAM = {"name": "X-Director-PIN", "in": "header", "required": False, "schema": {"type": "string"},
              "description": "The director's PIN (`tournament links`, the director's page), with the table's own "
                             "key: the director at the table.  Not needed with the director's key."}

OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "domrec venue API", "version": "1",
             "description": "Tables record their games and confirm results; the director's desk; the event's "
                            "public feed and its change log. See docs/venue.md."},
    "components": {
        "securitySchemes": {"key": {"type": "http", "scheme": "bearer",
                                    "description": "A table's key (its own table of its own round) or the director's."}},
        "schemas": {
            "Error": _ERROR,
            "TableState": {"type": "object", "required": ["rev", "round", "table", "status", "game"],
                           "properties": {
                               "rev": _REV, "event": {"type": "string"}, "round": {"type": "integer"},
                               "table": {"type": "integer"}, "mode": {"enum": ["play", "sheet", None]},
                               "status": {"enum": ["not started", "playing", "waiting", "called", "confirmed"]},
                               "sides": {"type": "array", "items": {"type": "string"}},
                               "units": {"type": "object", "description": "A pairs or team event: who each of "
                                         "the table's sides is, {side: {pair, team}} (team null outside a team "
                                         "event); absent where the sides are not pairs."},
                               "by_seat": {"type": "boolean"}, "confirmations": {"type": "object"},
                               "called": {"type": "boolean"}, "pins": {"type": "boolean"},
                               "pin_wait": {"type": "integer", "description": "With --pins, while the table's "
                                            "confirmations wait after wrong PINs: the seconds left (absent "
                                            "otherwise)."},
                               "director_pin_wait": {"type": "object", "description": "While the director's PIN "
                                                     "waits at this table after wrong ones: {seconds, every_table} "
                                                     "(every_table: the event's wait, after too many wrong "
                                                     "director's PINs at its tables together); absent otherwise."},
                               "last_at": {"type": ["string", "null"]}, "said": {"type": "array", "items": {"type": "string"}},
                               "game": {"type": "object", "description": "Players, seats, hands and moves so far, running "
                                        "totals, who is to move, the legal moves where the deal is known; "
                                        "hands_keys: each closed hand's key (a digest of it and the hands "
                                        "before it), hands_from: with ?hands=KEY.N, how many closed hands "
                                        "were left out."},
                               "result": {"type": ["object", "null"], "description": "Once in the event: scores, "
                                          "winner, kind, verified, scores_only (hand scores only: never "
                                          "verified), via.  A duplicate table: boards, {board, NS, EW} a "
                                          "board; read with the table's key once its round is over, a board "
                                          "the hall does not show yet is {board, withheld: true} and scores "
                                          "is null (docs/duplicate.md)."},
                               "next": {"type": ["object", "null"], "description": "Once the result is in: the "
                                        "next round, whether it is paired, and each seat's player's table and "
                                        "seat there ({round, paired, seats: {seat: {table, seat} or {bye: true}}}); "
                                        "after the event's last round (a duplicate session's movement, a team round "
                                        "robin) ``over``: the sentence that says so, and no seats."},
                               "set_aside": {"type": "array", "items": {"type": "integer"},
                                             "description": "Revisions of the table's log that no longer "
                                                            "replay (written by another version), left out "
                                                            "of the table shown; the file keeps them."},
                               "corrected": {"type": ["object", "null"],
                                             "description": "While the game's last change is the director's "
                                                            "correction: {hand, at} (null once a move is "
                                                            "recorded after it)."},
                               "call_closed": {"type": "boolean",
                                               "description": "Its round is over (a later round is paired) "
                                                              "and a call of the director from this table is "
                                                              "refused (its result in, or a duplicate table): "
                                                              "the page greys its Call the director."},
                               "board": {"type": ["integer", "null"],
                                         "description": "A duplicate table only: the board in play (hand 1 "
                                                        "starts its deal); null once every board is confirmed."},
                               "boards": {"type": "array", "items": {"type": "integer"},
                                          "description": "A duplicate table only: the round's boards, in the "
                                                         "order it plays them."},
                               "boards_played": {"type": "integer",
                                                 "description": "A duplicate table only: its boards done "
                                                                "so far (each one's result in the event, or "
                                                                "marked not played there)."},
                               "not_played": {"type": "array", "items": {"type": "integer"},
                                              "description": "A duplicate table only: its boards marked not "
                                                             "played (not among the boards it plays); in "
                                                             "duplicate teams also those marked so at its "
                                                             "match's other table (not scored in the match)."},
                               "to_enter": {"type": "array", "items": {"type": "integer"},
                                            "description": "A duplicate table only: its boards the director "
                                                           "closed on its phone (a result, or a mark not played, "
                                                           "over its play) that now have neither a result nor "
                                                           "a mark: the phone never plays them again, so the "
                                                           "director enters their result (not counted in "
                                                           "boards_played)."},
                               "entered": {"type": ["object", "null"],
                                           "description": "A duplicate table only: while the table's last "
                                                          "change is a board's result entered by the director "
                                                          "over its play of that board: {board, at} (the "
                                                          "table goes on with its next board; null once "
                                                          "anything is recorded after it)."}}},
            **_FEED_SCHEMAS,
        },
    },
    "paths": {
        "/api/v1/tables/{round}/{table}": {
            "parameters": _TABLE_PARAMS + [
                {"name": "log", "in": "query", "required": False, "schema": {"enum": ["1", "only"]},
                 "description": "Also what the phone's engine replays the table from, under `log`: `template` "
                                "(the table's record before its first hand), `facts` (event, round, table, sides, "
                                "by_seat, time_limit, pins, result, next) and `rows` ([rev, kind, body, time]). "
                                "`only`: that and `rev`, without the table's state."},
                {"name": "after", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 0},
                 "description": "With log=1: only the log's rows after this revision."}],
            "get": {"summary": "A table's state", "security": [{"key": []}],
                    "responses": {"200": {"description": "The table now.  With the director's key at a duplicate "
                                                         "table, also board_results ([{board, NS, EW, ended}]: each "
                                                         "board's stored result there, ended null where nobody "
                                                         "said), ends (how a hand of the game may end) and "
                                                         "marked_at_other ([{board, table}]: in duplicate teams, "
                                                         "the boards marked not played at the match's other "
                                                         "table, where a result saved here counts only once "
                                                         "that mark is taken back).",
                                          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TableState"}}}},
                                  **_refusals(403, 404, 429)}}},
        "/api/v1/tables/{round}/{table}/options": {
            "parameters": _TABLE_PARAMS + [{"name": "tile", "in": "query", "required": True,
                                            "schema": {"type": "string"}, "example": "6-4"}],
            "get": {"summary": "Where a tile may go now for the player to move (tried by the engine, "
                               "with or without the deal)", "security": [{"key": []}],
                    "responses": {"200": {"description": '{"rev", "tile", "options": [{"seat", "text", "tile", '
                                                         '"label", "at"}]}'}, **_refusals(403, 404, 422, 429)}}},
        "/api/v1/tables/{round}/{table}/dgn": {
            "parameters": _TABLE_PARAMS,
            **_write("Record DGN lines (moves, hand lines, deal, left, end, undo, y): all or nothing",
                     _ids({"type": "object", "required": ["rev", "text"],
                      "properties": {"rev": _REV, "text": {"type": "string"}}}))},
        "/api/v1/tables/{round}/{table}/mode": {
            "parameters": _TABLE_PARAMS,
            **_write("Choose how the table records: play by play, or scores only (at most 100 switches a "
                     "table: past that, 422)",
                     _ids({"type": "object", "required": ["rev", "mode"],
                      "properties": {"rev": _REV, "mode": {"enum": ["play", "sheet"]}}}))},
        "/api/v1/tables/{round}/{table}/confirm": {
            "parameters": _TABLE_PARAMS,
            **_write("A side (or, in games without sides, a seat) confirms the finished game",
                     _ids({"type": "object", "required": ["rev"],
                      "properties": {"rev": _REV, "side": {"type": "string"}, "seat": {"type": "string"},
                                     "pin": {"type": "string", "description": "With serve --pins."}}}))},
        "/api/v1/tables/{round}/{table}/call": {
            "parameters": _TABLE_PARAMS,
            **_write("Call the director to the table (never refused for an old view: rev is not checked, "
                     "and may be left out; at most 100 calls a table: past that, 422; refused, 409, once the "
                     "table's round is over and it has its result)", _ids({"type": "object", "properties": {"rev": _REV}}))},
        "/api/v1/tables/{round}/{table}/clear": {
            "parameters": _TABLE_PARAMS + [_PIN_PARAM],
            **_write("The director clears a call (director's key, or the table's key with the director's PIN)", _ids({"type": "object", "required": ["rev"],
                                                                     "properties": {"rev": _REV}}))},
        "/api/v1/tables/{round}/{table}/pins/clear": {
            "parameters": _TABLE_PARAMS,
            "post": {"summary": "The director clears a table's wrong PINs: its confirmations wait no more (director's "
                                "key; into the audit trail)", "security": [{"key": []}],
                     "requestBody": {"required": True, "content": {"application/json": {"schema": _director_id(
                         {"type": "object"})}}},
                     "responses": {"200": {"description": "`said`, and the table's `wrong` PINs and `wait` (both 0 "
                                                          "now); the wrong director's PINs of all the tables "
                                                          "together are cleared with them, `said` saying so (a "
                                                          "table with none of its own clears those alone; 422 "
                                                          "when there is nothing to clear)."},
                                   **_refusals(400, 403, 404, 415, 422, 429)}}},
        "/api/v1/tables/{round}/{table}/result": {
            "parameters": _TABLE_PARAMS,
            **_write("The director enters or corrects a table's result (director's key)",
                     _director_id({"type": "object", "required": ["scores"],
                      "properties": {"scores": {"type": "object", "additionalProperties": {"type": "integer"}},
                                     "reason": {"type": ["string", "null"]},
                                     "winner": {"type": ["string", "null"],
                                                "description": "who won, when the highest scores are level at a "
                                                               "multi-player table (one of the refusal's `level`)"},
                                     "board": {"type": ["integer", "null"],
                                               "description": "a duplicate table: the board whose result is entered "
                                                              "(none yet: `tournament result --board B --score`; over "
                                                              "the board its phone is playing, or one marked not "
                                                              "played, only with a reason) or corrected"},
                                     "ended": {"enum": ["out", "blocked", "target", None],
                                               "description": "a board's hand: how it ended (left out: as the "
                                                              "table said), one of the ways the event's rules "
                                                              "let it end (the table's state's `ends`); the "
                                                              "score is checked against it"}}}))},
        "/api/v1/tables/{round}/{table}/result/clear": {
            "parameters": _TABLE_PARAMS,
            **_write("The director takes a table's result back, with the reason (director's key; the old result "
                     "into the audit trail, as tournament clear)",
                     _director_id({"type": "object", "required": ["reason"],
                                   "properties": {"reason": {"type": "string"},
                                                  "board": {"type": ["integer", "null"],
                                                            "description": "a duplicate pairs table: the board whose "
                                                                           "result (or mark \"not played\") is taken "
                                                                           "back (tournament clear --board)"}}}))},
        "/api/v1/tables/{round}/{table}/result/not-played": {
            "parameters": _TABLE_PARAMS,
            **_write("The director marks a duplicate pairs table's board not played, with the reason (director's "
                     "key; into the audit trail, as tournament result --board B --not-played)",
                     _director_id({"type": "object", "required": ["board", "reason"],
                                   "properties": {"board": {"type": "integer"}, "reason": {"type": "string"},
                                                  "replace": {"type": "boolean",
                                                              "description": "over the hand the table's phone "
                                                                             "is playing (--not-played "
                                                                             "--replace)"}}}))},
        "/api/v1/tables/{round}/{table}/lines": {
            "parameters": _TABLE_PARAMS + [_PIN_PARAM],
            "get": {"summary": "The table's game hand by hand, one line a move, as a correction numbers them "
                               "(director's key, or the table's key with the director's PIN)",
                    "security": [{"key": []}],
                    "responses": {"200": {"description": "`rev`, and `hands`: each hand's lines (its hand line, "
                                                         "its public parts, a move a line, left, end).",
                                          "content": {"application/json": {"schema": {
                                              "type": "object", "required": ["rev", "hands"],
                                              "properties": {"rev": _REV, "round": {"type": "integer"},
                                                             "table": {"type": "integer"},
                                                             "hands": {"type": "array", "items": {
                                                                 "type": "array", "items": {"type": "string"}}}}}}}},
                                  **_refusals(403, 404, 429)}}},
        "/api/v1/tables/{round}/{table}/correct": {
            "parameters": _TABLE_PARAMS + [_PIN_PARAM],
            **_write("The director corrects one line of one hand (a move, the tiles left, a hand's score), or "
                     "replaces or takes back a whole hand (`line` null), with a reason; the rest of the game is "
                     "recorded again, and a confirmed game's result amended (director's key, or the table's key with the "
                     "director's PIN)",
                     _ids({"type": "object", "required": ["rev", "hand", "text", "reason"],
                      "properties": {"rev": _REV, "hand": {"type": "integer", "minimum": 1},
                                     "line": {"type": ["integer", "null"], "minimum": 1},
                                     "text": {"type": "string", "description": "The corrected line (or lines); "
                                                                               "empty: removed."},
                                     "reason": {"type": "string"}}}))},
        "/api/v1/tables/{round}/{table}/key": {
            "parameters": _TABLE_PARAMS,
            "post": {"summary": "A new key for the table (director's key): its old link and QR code open nothing "
                                "from the next request on; recorded in the audit trail",
                     "security": [{"key": []}],
                     "requestBody": {"required": True, "content": {"application/json": {"schema": _director_id(
                         {"type": "object"})}}},
                     "responses": {"200": {"description": "The table's new link.",
                                           "content": {"application/json": {"schema": {
                                               "type": "object", "required": ["round", "table", "url", "qr", "said"],
                                               "properties": {"round": {"type": "integer"},
                                                              "table": {"type": "integer"},
                                                              "url": {"type": "string",
                                                                      "description": "The table's page, its new key "
                                                                                     "in it."},
                                                              "qr": {"type": "string",
                                                                     "description": "The link as a QR code: an SVG "
                                                                                    "picture as a data: address."},
                                                              "said": {"type": "array",
                                                                       "items": {"type": "string"}}}}}}},
                                   **_refusals(400, 403, 404, 408, 413, 415, 429)}}},
        "/api/v1/director": {
            "get": {"summary": "Every table of the round at a glance (director's key)", "security": [{"key": []}],
                    "responses": {"200": {"description": "The round's tables: each one's status (not started, playing, "
                                                          "waiting, confirmed) and, apart from it, called (the "
                                                          "director is called), idle, wrong_pins (wrong PINs so "
                                                          "far), pin_wait (the seconds its confirmations "
                                                          "still wait), contact_at (when its phone was last heard "
                                                          "from: any request with its key, or its last write) and "
                                                          "offline ({taken, refused, at}: the writes its phone made "
                                                          "offline, sent with `at`; null while none came), last_at "
                                                          "(its last write) and moved_at (its last but a call of the "
                                                          "director or its clearing: the page's Last move), reached "
                                                          "({board, move} at a duplicate table; {boards_in, boards} "
                                                          "between its boards, a director's entered result "
                                                          "counted as a confirmed one), to_enter (a duplicate "
                                                          "table's boards its phone closed and no longer plays, "
                                                          "with nothing in: the director enters them); finished (a "
                                                          "duplicate session's every round seated and played: why "
                                                          "no round is left to pair, in words; else null); waits "
                                                          "(while a table of the round is not confirmed: why the "
                                                          "next round cannot be paired yet, in the words "
                                                          "/director/pair is refused with; else null); "
                                                          "upstream (`serve --upstream`: "
                                                          "{url, event, connected, problem, stopped, sent, messages, "
                                                          "warning}, the sending to the federation's hub and, in "
                                                          "words, why it does not reach it (stopped: for good, two "
                                                          "histories of one event; warning: changes on its stream it "
                                                          "did not write, while it sends on); null without --upstream); "
                                                          "director_pins ({wrong, wait}: the wrong director's PINs "
                                                          "at all the tables together, and the seconds the "
                                                          "director's PIN still waits at every table after them, 0 "
                                                          "when it does not)."},
                                  **_refusals(403, 429)}}},
        "/api/v1/director/pins/clear": {
            "post": {"summary": "The director clears the wrong director's PINs of all the tables together: the "
                                "director's PIN waits at no table (director's key; into the audit trail; each "
                                "table's own wrong PINs stay: its own clear clears them, and this count with them)",
                     "security": [{"key": []}],
                     "requestBody": {"required": True, "content": {"application/json": {"schema": _director_id(
                         {"type": "object"})}}},
                     "responses": {"200": {"description": "`said`, and the event's `wrong` director's PINs and "
                                                          "`wait` (both 0 now)."},
                                   **_refusals(400, 403, 415, 422, 429)}}},
        "/api/v1/director/pair": {
            "post": {"summary": "Pair the next round once every table is confirmed (director's key); round 1 "
                                "seeded as `tournament pair --seed` seeds it (`seed`: draw, the default, rating or "
                                "column:NAME, a column the overview's seed_columns lists)",
                     "security": [{"key": []}],
                     "requestBody": {"required": True, "content": {"application/json": {"schema": {
                         **_director_id({"type": "object",
                                         "properties": {"seed": {"type": "string", "default": "draw"}}})}}}},
                     "responses": {"200": {"description": "The new round."}, **_refusals(400, 403, 415, 422, 429)}}},
        "/api/v1/openapi.json": {"get": {"summary": "This description", "responses": {"200": {"description": "OpenAPI 3.1"}}}},
        "/api/v1/event": _feed_get("The event: settings, status, rounds, stages, the last change's number",
                                   "Event"),
        "/api/v1/standings": _feed_get("The standings, with the event's ranking columns named", "Standings"),
        "/api/v1/rounds/{round}": {
            "parameters": _TABLE_PARAMS[:1],
            **_feed_get("A round's tables: seats, result if any, status (a game in play: its status only)",
                        "Round", 404)},
        "/api/v1/games/{round}/{table}": {
            "parameters": _TABLE_PARAMS + [{"name": "format", "in": "query", "required": False,
                                            "schema": {"enum": ["json", "dgn"], "default": "json"}}],
            "get": {"summary": "A finished table's game: the record its result was entered with (JSON as stored, "
                               "or canonical DGN); a game still in play is never shown", "security": [],
                    "responses": {"200": {"description": "The record.", "headers": _FEED_HEADERS,
                                          "content": {"application/json": {"schema": {"type": "object"}},
                                                      "text/plain": {"schema": {"type": "string"}}}},
                                  "304": {"description": "Not modified (If-None-Match)."},
                                  **_refusals(404, 422, 429)}}},
        "/api/v1/changes": {
            "parameters": [{"name": "since", "in": "query", "required": False,
                            "schema": {"type": "integer", "minimum": 0, "default": 0},
                            "description": "The last change's number already seen (0: from the first)."},
                           {"name": "limit", "in": "query", "required": False,
                            "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 1000},
                            "description": "At most this many changes (more is capped at 1000)."}],
            **_feed_get("Every change of the event after `since`, oldest first: an append-only log", "Changes",
                        422)},
    },
}
