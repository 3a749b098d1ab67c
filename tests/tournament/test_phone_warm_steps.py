"""The phone's engine is warmed a step at a time (``phone.warm_steps``, ``phone.warm(step)``), so that
the table's page answers taps between the steps of its boot instead of after all of it: every
step taken one by one leaves the same engines imported and catalogs read as ``warm()`` at once."""

from __future__ import annotations

from domrec import games
from tournament.event import phone


def test_the_steps_are_each_game_then_the_catalogs():
    assert phone.warm_steps() == [*games.MODULES, "catalogs"]


def test_each_step_warms_its_own_part(monkeypatch):
    seen: list[str] = []
    monkeypatch.setattr(games, "engine", lambda game: seen.append(game))
    read: list[str] = []
    monkeypatch.setattr(phone.phrases, "translate", lambda text, lang, *args: read.append(lang))
    monkeypatch.setattr(phone, "_server_phrases", lambda: ())  # (the bundle's list, made with it)
    for step in phone.warm_steps():
        phone.warm(step)
    assert seen == list(games.MODULES) and read == ["es"]
    seen.clear(), read.clear()
    phone.warm()  # (all of it at once, as before)
    assert seen == list(games.MODULES) and read == ["es"]
