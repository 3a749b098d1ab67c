"""The translation catalogs: what the code asks for, checked against what the ``.po`` files give.

    python tools/catalogs.py check            # every language: a line a missing or wrong entry; exit 1 if any
    python tools/catalogs.py update [LANG]    # add what the code now asks for (empty), drop what it no longer does

Two catalogs, one a package: ``domrec/locale/LANG/LC_MESSAGES/domrec.po`` (the replay page, and the
engines' and the recorder's sentences listed in ``domrec/phrases.py``) and
``tournament/locale/LANG/LC_MESSAGES/tournament.po`` (the venue's pages and their scripts, the score
sheets, the report, the venue's own refusals).  The msgids are taken from the code with Babel's
extraction: ``_("…")``, ``gettext("…")`` and ``N_("…")`` in Python, ``{{ _("…") }}`` and ``{% trans %}``
in the Jinja2 templates, ``t("…")`` in the pages' scripts.

A language is added by making its ``.po`` files (``update LANG`` makes them with every msgid and no
translation), translating every entry, and adding its code to ``domrec.i18n.LANGUAGES``; ``check``
(which ``tests/test_i18n.py`` runs) then finds any entry left out, and any whose placeholders
(``%(seat)s``) differ from the English.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Iterator

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
#: domain -> (its package folder, how each kind of file is read, and what is not read).
DOMAINS = {
    "domrec": ROOT / "domrec",
    "tournament": ROOT / "tournament",
}
#: How each kind of file is read, and the calls whose first argument is a msgid there.
READINGS = [
    ([("**.py", "python"), ("**.j2", "jinja2.ext:babel_extract")], {"_": None, "gettext": None, "N_": None}),
    ([("**/static/**.js", "javascript")], {"t": None}),
]
OPTIONS = {"**.j2": {"trim_blocks": "true", "lstrip_blocks": "true"}}
#: The languages with catalogs besides English, the language of the msgids.
LANGUAGES = ("es",)
PLACEHOLDER = re.compile(r"%\((\w+)\)s|%%")


def po_path(domain: str, lang: str) -> Path:
    return DOMAINS[domain] / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"


def _skip(path: str) -> bool:
    return "locale" in Path(path).parts or "__pycache__" in path


def extract(domain: str) -> Catalog:
    """Every msgid the code of ``domain`` asks for, where it is asked for."""
    folder = DOMAINS[domain]
    catalog = Catalog(domain=domain, project=domain, fuzzy=False)
    for methods, keywords in READINGS:
        for filename, lineno, message, comments, context in extract_from_dir(
                folder, methods, OPTIONS, keywords, directory_filter=lambda d: not _skip(d)):
            if isinstance(message, str) and message:
                catalog.add(message, locations=[(f"{folder.name}/{filename}", lineno)], auto_comments=comments,
                            context=context)
    return catalog


def _read(path: Path, lang: str) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def placeholders(text: str) -> set[str]:
    return {m.group(1) for m in PLACEHOLDER.finditer(text) if m.group(1)}


def problems(domain: str, lang: str) -> Iterator[str]:
    """What is wrong with ``lang``'s catalog of ``domain``: a line each (nothing when it is whole)."""
    path = po_path(domain, lang)
    wanted = extract(domain)
    if not path.is_file():
        yield f"{path.relative_to(ROOT)}: missing ({len(wanted)} msgids to translate: tools/catalogs.py update {lang})"
        return
    have = _read(path, lang)
    for message in wanted:
        if not message.id:
            continue
        where = f"{message.locations[0][0]}:{message.locations[0][1]}" if message.locations else "?"
        found = have.get(message.id, message.context)
        if found is None or not found.string:
            yield f"{path.relative_to(ROOT)}: no {lang} for {message.id!r} ({where})"
        elif found.fuzzy:
            yield f"{path.relative_to(ROOT)}: the {lang} for {message.id!r} is marked fuzzy ({where})"
        elif placeholders(found.string) != placeholders(message.id):
            yield (f"{path.relative_to(ROOT)}: the {lang} for {message.id!r} has the placeholders "
                   f"{sorted(placeholders(found.string))}, not {sorted(placeholders(message.id))} ({where})")
    for message in have:
        if message.id and wanted.get(message.id, message.context) is None:
            yield f"{path.relative_to(ROOT)}: {message.id!r} is asked for nowhere (tools/catalogs.py update {lang})"


def update(domain: str, lang: str) -> Path:
    """``lang``'s catalog of ``domain`` made to hold every msgid the code asks for (new ones empty,
    old ones kept, those no longer asked for dropped)."""
    path = po_path(domain, lang)
    template = extract(domain)
    catalog = _read(path, lang) if path.is_file() else Catalog(locale=lang, domain=domain, project=domain, fuzzy=False)
    catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
    catalog.obsolete.clear()
    write(catalog, path, domain)
    return path


def write(catalog: Catalog, path: Path, domain: str) -> None:
    """The catalog as a ``.po`` file: a header of its own, each entry with the files that ask for
    it (no line numbers, which would change the file at every edit of the code)."""
    catalog.header_comment = (f"# The {catalog.locale} words of {domain}'s pages and sentences "
                              f"(tools/catalogs.py: how to check and update them).\n#")
    catalog.project, catalog.version = domain, "1"
    catalog.msgid_bugs_address = catalog.last_translator = catalog.language_team = ""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    with part.open("wb") as f:
        write_po(f, catalog, width=100, sort_output=False, omit_header=False, include_previous=False,
                 include_lineno=False)
    part.replace(path)  # whole or not at all


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("check", "update"):
        print(__doc__.strip().splitlines()[0])
        print("usage: tools/catalogs.py check | update [LANG]")
        return 2
    langs = tuple(argv[1:]) or LANGUAGES
    if argv[0] == "update":
        for lang in langs:
            for domain in DOMAINS:
                print(f"wrote {update(domain, lang).relative_to(ROOT)}")
        return 0
    found = [line for lang in langs for domain in DOMAINS for line in problems(domain, lang)]
    for line in found:
        print(line)
    if not found:
        print(f"every msgid has its translation ({', '.join(langs)})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
