"""A duplicate pair's card on the hall says "1 IMP" (and "-1 IMP"), never "1 IMPs"; other counts
keep the plural."""

from __future__ import annotations

import types

import pytest

from tournament.pages.public import render


class _Site:
    def url(self, page: str) -> str:
        return f"/{page}"


def _card(imps, lang="en") -> str:
    standing = types.SimpleNamespace(rank=1, matchpoints=10, top=12, percent=83.33, imps=imps)
    view = types.SimpleNamespace(pair=3, name="Ana & Bo", standing=standing, field="", sat_out=(), rows=())
    return render("pair.html.j2", {"event": types.SimpleNamespace(name="Club"), "view": view, "site": _Site()},
                  part="main", lang=lang)


@pytest.mark.parametrize("imps, said", [(1, "· 1 IMP ·"), (-1, "· -1 IMP ·"), (0, "· 0 IMPs ·"), (2.5, "· 2.5 IMPs ·"),
                                        (7, "· 7 IMPs ·")])
def test_one_imp_is_singular(imps, said):
    assert said in " ".join(_card(imps).split())


def test_in_spanish_too():
    assert "· 1 IMP ·" in " ".join(_card(1, "es").split())
