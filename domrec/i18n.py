"""The languages of the pages people read: English and Spanish, from gettext catalogs.

Most clubs that play Competitive (Latin) dominoes play in Spanish, so every page a player sees
(the venue's table and public pages, the score sheets, the report and its projector page, the
replay page) exists in both.  The words are never in code: a page's text is an English msgid
in its template or module, and its Spanish is the ``msgstr`` of a ``.po`` catalog shipped in
the package (``domrec/locale/es/LC_MESSAGES/domrec.po``, and the tournament tool's own beside
its code).  Catalogs are read when first needed (Babel's ``read_po``) and kept, so a plain
``pip install`` needs no compile step: the ``.po`` files are the package data.

What this module gives the pages above it:

* :data:`LANGUAGES` and :func:`language` (a code checked, for ``--lang``);
* :func:`translations` (the gettext object of a language: one or more catalog folders merged);
* :func:`negotiate` (a browser's ``Accept-Language`` against the languages, then a default);
* :func:`environment` (a Jinja2 environment with the ``i18n`` extension installed: templates
  write ``{{ _("Undo") }}`` and ``{% trans %}``, autoescaped);
* :func:`script_strings` (the translated strings a page's script looks up, which the page embeds
  as JSON: no English left in a script's code paths);
* :func:`N_` (marks a string for the catalog without translating it: a list of phrases).

The sentences the engines and the recorder build at run time (a refusal such as "W does not
hold 6-4") are not msgids of code: they are matched against the listed patterns of
:mod:`domrec.phrases`, whose Spanish comes from the same catalog.
"""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from domrec.errors import InputError

# Babel reads the catalogs and language tags where it is installed (the server, the commands).  The
# table's phone runs domrec's engines in the browser without it (Pyodide, no compiled or large
# dependencies: docs/venue.md, "The engine in the phone"): there a language code and the ``.po``
# catalogs are read by the small readers of this module, which give the same words (a test
# compares the two, catalog by catalog).
try:
    from babel import Locale, UnknownLocaleError, negotiate_locale
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import NullTranslations, Translations
except ImportError:  # the phone's engine
    Locale = None  # type: ignore[assignment,misc]
    from gettext import NullTranslations  # type: ignore[assignment]

#: The languages of the pages, English first (the language of every msgid).
LANGUAGES: tuple[str, ...] = ("en", "es")
DEFAULT = "en"
#: How each language names itself, for the switch on a page ("Español | English").
NAMES: Mapping[str, str] = {"en": "English", "es": "Español"}
#: domrec's catalogs: ``locale/LANG/LC_MESSAGES/domrec.po``.
LOCALE = Path(__file__).resolve().parent / "locale"
#: The longest ``Accept-Language`` header read (a browser's is a few dozen bytes).
MAX_HEADER = 512


class UnknownLanguage(InputError):
    """A language code with no pages (``--lang fr``)."""


def N_(text: str) -> str:
    """``text`` itself: marks it for the catalog where it is listed, not yet translated."""
    return text


def language(code: str) -> str:
    """``code`` as one of :data:`LANGUAGES` (``es``, ``es-MX``, ``ES_es`` -> ``es``), or
    :class:`UnknownLanguage` naming the languages there are."""
    found = known(code)
    if found is None:
        shown = str(code)[:20]
        raise UnknownLanguage(f"no pages in {shown!r}: the languages are {', '.join(LANGUAGES)}")
    return found


def known(code: Any) -> str | None:
    """``code`` as one of :data:`LANGUAGES`, or ``None`` (not a language code, or one without pages)."""
    if not isinstance(code, str) or not code or len(code) > 35:
        return None
    if Locale is None:  # without Babel: the language part of a tag (``es``, ``es-MX``, ``ES_es``)
        found = re.fullmatch(r"([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*", code.strip())
        return found.group(1).lower() if found and found.group(1).lower() in LANGUAGES else None
    try:
        parsed = Locale.parse(code.strip().replace("-", "_"))
    except (ValueError, TypeError, LookupError, UnknownLocaleError):
        return None
    return parsed.language if parsed.language in LANGUAGES else None


def negotiate(accept_language: str | None, default: str = DEFAULT) -> str:
    """The language to answer a browser in: its ``Accept-Language`` preferences (in the order of
    their weights; ``q=0`` refused) against :data:`LANGUAGES`, else ``default``."""
    if not accept_language or len(accept_language) > MAX_HEADER:
        return default
    weighted = []
    for k, part in enumerate(accept_language.split(",")):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip()
        if not tag or tag == "*":
            continue
        q = 1.0
        if params.strip():
            found = re.fullmatch(r"\s*q\s*=\s*([01](?:\.[0-9]{0,3})?)\s*", params)
            if found is None:  # a weight that cannot be read: the entry is left out
                continue
            q = float(found.group(1))
        if q > 0:
            weighted.append((-q, k, tag))
    preferred = [tag.replace("_", "-") for _, _, tag in sorted(weighted)]
    found_lang = negotiate_locale(preferred, LANGUAGES, sep="-", aliases={})
    return known(found_lang) or default


def moment_words(at: str, lang: str = DEFAULT) -> str:
    """An ISO 8601 time (as the tools store them, UTC) as people of ``lang`` write it, through
    Babel's date formats: "Dec 2, 2026, 3:17:04 PM UTC", "2 dic 2026, 15:17:04 UTC" (what every
    page and message shows a person, never ``2026-12-02T15:17:04+00:00``).  A time without its
    zone is UTC; where Babel is not installed (the phone's engine), "2026-12-02 15:17:04 UTC"."""
    import datetime

    moment = datetime.datetime.fromisoformat(at)
    moment = moment.replace(tzinfo=datetime.UTC) if moment.tzinfo is None else moment.astimezone(datetime.UTC)
    try:
        from babel.dates import format_datetime
    except ImportError:
        return f"{moment:%Y-%m-%d %H:%M:%S} UTC"
    return f"{format_datetime(moment, 'medium', tzinfo=datetime.UTC, locale=lang)} UTC"


#: An English time as :func:`moment_words` writes it ("Dec 2, 2026, 3:17:04 PM UTC": Babel puts a
#: narrow no-break space before the AM or PM), which a sentence in another language writes again.
_ENGLISH_MOMENT = re.compile(r"([A-Z][a-z]{2}) (\d{1,2}), (\d{4}), (\d{1,2}):(\d{2}):(\d{2})[\s\u202f]?([AP]M) UTC")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def moment_in(text: str, lang: str) -> str:
    """An English time of :func:`moment_words` (``text``) as ``lang`` writes it; any other text as it is."""
    found = _ENGLISH_MOMENT.fullmatch(text)
    if lang == DEFAULT or found is None or found.group(1) not in _MONTHS:
        return text
    month, day, year, hour, minute, second, half = found.groups()
    hour24 = int(hour) % 12 + (12 if half == "PM" else 0)
    iso = (f"{int(year):04d}-{_MONTHS.index(month) + 1:02d}-{int(day):02d}T{hour24:02d}:{int(minute):02d}:"
           f"{int(second):02d}+00:00")
    try:
        return moment_words(iso, lang)
    except ValueError:  # (no such day: as it is)
        return text


def catalog_paths(lang: str, folders: Sequence[Path] = (LOCALE,)) -> list[Path]:
    """Every ``.po`` file of ``lang`` in ``folders`` (``FOLDER/LANG/LC_MESSAGES/*.po``)."""
    return [p for folder in folders for p in sorted((Path(folder) / lang / "LC_MESSAGES").glob("*.po"))]


class _Catalog(NullTranslations):
    """A language's words read without Babel (the phone's engine): msgid -> msgstr."""

    def __init__(self, catalog: dict[str, str]) -> None:
        super().__init__()
        self._catalog = catalog

    def gettext(self, message: str) -> str:
        return self._catalog.get(message, message)


def _po_entries(text: str) -> Iterable[tuple[str, str, bool]]:
    """Each entry of a ``.po`` catalog as (msgid, msgstr, fuzzy): the plain catalogs of this project
    (no context, no plural forms), their strings in C's escapes, continued on the lines after."""
    import ast

    entry: dict[str, str] = {}
    part: str | None = None
    fuzzy = False

    def done() -> Iterable[tuple[str, str, bool]]:
        if "msgid" in entry:
            yield entry["msgid"], entry.get("msgstr", ""), fuzzy

    for line in text.splitlines() + [""]:
        line = line.strip()
        if not line or (line.startswith("#") and entry.get("msgstr") is not None):
            yield from done()
            entry, part, fuzzy = {}, None, False
            if not line:
                continue
        if line.startswith("#,"):
            fuzzy = fuzzy or "fuzzy" in (f.strip() for f in line[2:].split(","))
        elif line.startswith("#"):
            continue
        elif line.startswith('"') and part is not None:
            entry[part] += ast.literal_eval(line)
        else:
            part, _, value = line.partition(" ")
            entry[part] = ast.literal_eval(value.strip())


def _read_catalog(path: Path) -> dict[str, str]:
    """A ``.po`` file's translated entries as Babel compiles them (the fuzzy and the empty left out)."""
    return {msgid: msgstr for msgid, msgstr, fuzzy in _po_entries(path.read_text(encoding="utf-8"))
            if msgid and msgstr and not fuzzy}


@functools.lru_cache(maxsize=16)
def _translations(lang: str, folders: tuple[Path, ...]) -> NullTranslations:
    if Locale is None:  # without Babel: the same merge (a later folder's word replaces an earlier one's)
        catalog: dict[str, str] = {}
        for path in catalog_paths(lang, folders):
            catalog.update(_read_catalog(path))
        return _Catalog(catalog)
    merged: Translations | None = None
    for path in catalog_paths(lang, folders):
        with path.open("rb") as f:
            catalog = read_po(f, locale=lang)
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        buffer.seek(0)
        one = Translations(buffer)
        merged = one if merged is None else merged.merge(one)
    return merged if merged is not None else NullTranslations()


def translations(lang: str, folders: Iterable[Path] = (LOCALE,)) -> NullTranslations:
    """The gettext object of ``lang``: the catalogs of ``folders`` merged (the first folder's
    word wins), read once.  English, the language of the msgids, translates nothing."""
    lang = language(lang)
    if lang == DEFAULT:
        return NullTranslations()
    return _translations(lang, tuple(Path(f) for f in folders))


def environment(loader: Any, lang: str, folders: Iterable[Path] = (LOCALE,), **options: Any) -> Any:
    """A Jinja2 environment for pages in ``lang``: autoescaped, the ``i18n`` extension installed
    with the new style (``_("Round %(n)s", n=3)`` formats and escapes)."""
    import jinja2

    env = jinja2.Environment(loader=loader, autoescape=True, extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_translations(translations(lang, folders), newstyle=True)  # type: ignore[attr-defined]
    env.globals["lang"] = language(lang)
    return env


#: The function a page's script looks its strings up with: ``t("Undo")``, ``t("Hand %(n)s", {n})``.
SCRIPT_KEYWORD = "t"


@functools.lru_cache(maxsize=32)
def _script_msgids(path: Path, mtime: float) -> tuple[str, ...]:
    from babel.messages.extract import extract

    with path.open("rb") as f:
        found = extract("javascript", f, keywords={SCRIPT_KEYWORD: None}, options={})
        return tuple(dict.fromkeys(message for _, message, _, _ in found if isinstance(message, str)))


def script_msgids(path: Path) -> tuple[str, ...]:
    """The strings a page's script looks up (every ``t("…")`` in it), as Babel extracts them."""
    path = Path(path)
    return _script_msgids(path, path.stat().st_mtime)


def script_strings(paths: Iterable[Path], lang: str, folders: Iterable[Path] = (LOCALE,)) -> dict[str, str]:
    """msgid -> its words in ``lang``, for every string the scripts ``paths`` look up: what a page
    embeds as ``<script type="application/json" id="strings">`` for them."""
    gettext = translations(lang, folders).gettext
    return {m: gettext(m) for path in paths for m in script_msgids(Path(path))}
