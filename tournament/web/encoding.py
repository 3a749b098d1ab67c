"""Which body an answer sends, gzipped or plain, by the request's ``Accept-Encoding``.

Every public answer kept in memory has both bodies made once (a page, a feed's answer, a file of
the phone's engine); this says which one a request takes, the same way for the hall's pages (the
route and the hall's own connection alike), the hub's, the public feed and the engine's files.
Finding ``gzip`` anywhere in the header took ``gzip;q=0`` ("anything but gzip") for a yes; RFC 9110
(section 12.5.3) weighs each coding by its ``q``:

* ``q=0`` refuses a coding; ``*`` stands for every coding the header does not name (``identity``
  included);
* ``identity`` (the plain body) is acceptable unless refused by name or by ``*;q=0``, and is
  chosen whenever gzip is not, or is weighed lower than it (gzip wins a tie: it is smaller);
* no header at all: the plain body (a program reading the feed with no header may not unpack
  gzip); an empty one asks for no coding at all;
* an element whose ``q`` is not a qvalue (``gzip;q=high``) is left out, as if not written.

Where both are refused (``identity;q=0, gzip;q=0``) the plain body is sent: the server may
disregard the header rather than answer 406, and a body the client can always read is the
kinder failure.
"""

from __future__ import annotations

import re

#: A qvalue as RFC 9110 writes it: 0 to 1, at most three decimals.
_QVALUE = re.compile(r"0(\.[0-9]{0,3})?|1(\.0{0,3})?")

#: The names of gzip (``x-gzip``: its old name, which RFC 9110 says to read as gzip).
_GZIP = ("gzip", "x-gzip")


def weights(header: str | bytes) -> dict[str, float]:
    """Each coding the header names (lower case) -> its ``q`` (1 where none is given); the first
    mention of a coding counts, and an element with a malformed ``q`` is left out."""
    if isinstance(header, bytes):
        header = header.decode("latin-1")
    found: dict[str, float] = {}
    for element in header.split(","):
        coding, *params = element.split(";")
        coding = coding.strip().lower()
        if not coding:
            continue
        q: float | None = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                value = value.strip()
                q = float(value) if _QVALUE.fullmatch(value) else None
        if q is not None:
            found.setdefault(coding, q)
    return found


def gzip_taken(header: str | bytes | None) -> bool:
    """Whether to send the gzipped body to a request with this ``Accept-Encoding`` (None: it has
    none): gzip acceptable (``q`` above 0) and weighed at least as high as the plain body."""
    if header is None:
        return False
    q = weights(header)
    wanted = next((q[name] for name in _GZIP if name in q), q.get("*", 0.0))
    if wanted <= 0:
        return False
    plain = q.get("identity", q.get("*"))
    return plain is None or wanted >= plain
