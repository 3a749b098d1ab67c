"""The phone's engine is warmed once its worker has booted (``phone.warm``): every game's engine
imported and the Spanish catalogs read, so that the first move answered offline costs a move, not
the imports."""

from __future__ import annotations

from domrec import games
from tournament.event import phone


def test_warm_imports_every_engine_and_reads_the_catalogs(monkeypatch):
    seen: list[str] = []
    monkeypatch.setattr(games, "engine", lambda game: seen.append(game))
    read: list[str] = []
    monkeypatch.setattr(phone.phrases, "translate", lambda text, lang, *args: read.append(lang))
    monkeypatch.setattr(phone, "_server_phrases", lambda: ())  # (the bundle's list, made with it)
    phone.warm()
    assert seen == list(games.MODULES) and read == ["es"]
