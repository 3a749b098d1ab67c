"""The tournament tool's pages in the players' language: its catalogs beside domrec's.

The machinery is :mod:`domrec.i18n` (the languages, reading catalogs, a browser's language, the
Jinja2 environment); this names the tournament's own catalog
(``tournament/locale/LANG/LC_MESSAGES/tournament.po``: the venue's pages, the score sheets, the
report) and merges it with domrec's (the replay page, the engines' and recorder's sentences),
so that a page of the tool finds every word it shows in one gettext object.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from domrec import i18n
from domrec.i18n import DEFAULT, LANGUAGES, N_, NAMES, known, language, negotiate  # noqa: F401  (the names pages use)
from domrec.i18n import moment_words  # noqa: F401  (a stored time as people read it: the pages, the messages)

#: The tournament tool's catalogs.
LOCALE = Path(__file__).resolve().parent / "locale"
#: Every catalog a page of the tool reads, its own first.
FOLDERS = (LOCALE, i18n.LOCALE)


def translations(lang: str) -> Any:
    """The gettext object of ``lang`` for the tool's pages (its catalog and domrec's)."""
    return i18n.translations(lang, FOLDERS)


def environment(loader: Any, lang: str, **options: Any) -> Any:
    """A Jinja2 environment for the tool's templates in ``lang`` (see :func:`domrec.i18n.environment`)."""
    return i18n.environment(loader, lang, FOLDERS, **options)


def page_language(asked: str | None, default: str) -> str:
    """The language of a page written as a file: ``--lang`` if given (checked), else the event's."""
    return language(asked) if asked is not None else default
