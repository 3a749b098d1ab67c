"""The venue's and the hub's own files (scripts, styles, pictures), served whole."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.staticfiles import StaticFiles


class WholeFiles(StaticFiles):
    """Starlette's static files, whole: a ``Range`` (and ``If-Range``) is not read.  Starlette
    answered a range it could not read or meet in its own plain text, in English (400 "Range header:
    range must be requested", 416 with no body), never the venue's one line; and a page, a script
    or a style of the venue is always fetched whole (a client that asks for part of it may be sent
    all of it: RFC 9110, 14.2)."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            scope = {**scope, "headers": [(name, value) for name, value in scope["headers"]
                                          if name not in (b"range", b"if-range")]}
        await super().__call__(scope, receive, send)

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        if "accept-ranges" in response.headers:  # (none offered)
            del response.headers["accept-ranges"]
        return response
