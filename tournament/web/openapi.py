"""The venue's JSON API described in OpenAPI 3.1 (served at ``/api/v1/openapi.json``).

Kept beside the routes it describes; a test checks that every route of the application is
described here and every path described is a route, so the two cannot drift apart."""

from __future__ import annotations

from typing import Any

_ERROR = {"type": "object", "required": ["error", "request_id"],
          "properties": {"error": {"type": "string", "description": "One line saying what was refused and why."},
                         "request_id": {"type": "string"},
                         "state": {"$ref": "#/components/schemas/TableState"},
                         "line": {"type": "integer"}, "column": {"type": "integer"}}}


def _refusals(*codes: int) -> dict[str, Any]:
    words = {400: "The body is not a JSON object.", 403: "The key does not open this.",
             404: "No such round or table.", 409: "The table has moved on (an old rev: `state` is the table now), "
             "or its result is confirmed.", 413: "The body is too large.",
             422: "Refused by the rules or unreadable: nothing stored (`line`, `column` for DGN).",
             429: "Too many requests from this device."}
    return {str(c): {"description": words[c], "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            for c in codes}


def _write(summary: str, body: dict[str, Any], director: bool = False) -> dict[str, Any]:
    return {"post": {"summary": summary, "security": [{"key": []}],
                     "requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
                     "responses": {"200": {"description": "Accepted: the table's new state.",
                                           "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TableState"}}}},
                                   **_refusals(400, 403, 404, 409, 413, 422, 429)}}}


_REV = {"type": "integer", "description": "The table's revision, as the last state said."}
_TABLE_PARAMS = [{"name": "round", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}},
                 {"name": "table", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}]

OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "domrec venue API", "version": "1",
             "description": "Tables record their games and confirm results; the director's desk. "
                            "See docs/venue.md."},
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
                               "by_seat": {"type": "boolean"}, "confirmations": {"type": "object"},
                               "called": {"type": "boolean"}, "pins": {"type": "boolean"},
                               "last_at": {"type": ["string", "null"]}, "said": {"type": "array", "items": {"type": "string"}},
                               "game": {"type": "object", "description": "Players, seats, hands and moves so far, running "
                                        "totals, who is to move, the legal moves where the deal is known."},
                               "result": {"type": ["object", "null"]}}},
        },
    },
    "paths": {
        "/api/v1/tables/{round}/{table}": {
            "parameters": _TABLE_PARAMS,
            "get": {"summary": "A table's state", "security": [{"key": []}],
                    "responses": {"200": {"description": "The table now.",
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
                     {"type": "object", "required": ["rev", "text"],
                      "properties": {"rev": _REV, "text": {"type": "string"}}})},
        "/api/v1/tables/{round}/{table}/mode": {
            "parameters": _TABLE_PARAMS,
            **_write("Choose how the table records: play by play, or scores only",
                     {"type": "object", "required": ["rev", "mode"],
                      "properties": {"rev": _REV, "mode": {"enum": ["play", "sheet"]}}})},
        "/api/v1/tables/{round}/{table}/confirm": {
            "parameters": _TABLE_PARAMS,
            **_write("A side (or, in games without sides, a seat) confirms the finished game",
                     {"type": "object", "required": ["rev"],
                      "properties": {"rev": _REV, "side": {"type": "string"}, "seat": {"type": "string"},
                                     "pin": {"type": "string", "description": "With serve --pins."}}})},
        "/api/v1/tables/{round}/{table}/call": {
            "parameters": _TABLE_PARAMS,
            **_write("Call the director to the table", {"type": "object", "required": ["rev"],
                                                        "properties": {"rev": _REV}})},
        "/api/v1/tables/{round}/{table}/clear": {
            "parameters": _TABLE_PARAMS,
            **_write("The director clears a call (director's key)", {"type": "object", "required": ["rev"],
                                                                     "properties": {"rev": _REV}})},
        "/api/v1/tables/{round}/{table}/result": {
            "parameters": _TABLE_PARAMS,
            **_write("The director enters or corrects a table's result (director's key)",
                     {"type": "object", "required": ["scores"],
                      "properties": {"scores": {"type": "object", "additionalProperties": {"type": "integer"}},
                                     "reason": {"type": ["string", "null"]}, "winner": {"type": ["string", "null"]}}})},
        "/api/v1/director": {
            "get": {"summary": "Every table of the round at a glance (director's key)", "security": [{"key": []}],
                    "responses": {"200": {"description": "The round's tables: each one's status (not started, playing, "
                                                          "waiting, confirmed) and, apart from it, called (the "
                                                          "director is called)."}, **_refusals(403, 429)}}},
        "/api/v1/director/pair": {
            "post": {"summary": "Pair the next round once every table is confirmed (director's key)",
                     "security": [{"key": []}],
                     "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}},
                     "responses": {"200": {"description": "The new round."}, **_refusals(400, 403, 422, 429)}}},
        "/api/v1/openapi.json": {"get": {"summary": "This description", "responses": {"200": {"description": "OpenAPI 3.1"}}}},
    },
}
