"""The words of the event's data as a page in another language shows them.

The event's data and its exports keep their labels in English (a round's label "final, game 2",
a match's state "decided", the standings' columns "wins", "diff"); a page in Spanish shows them
translated, each matched against the patterns of :data:`LABELS` (:mod:`domrec.phrases`).  The
report, the public pages and the projector all read their words through one :class:`Words`.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from domrec import phrases

from tournament.i18n import FOLDERS, N_, translations

#: The words of the event's data that the pages show (round and bracket labels, a match's state,
#: where a bracket's place comes from, the standings' columns), as patterns
#: (:mod:`domrec.phrases`): the data and the exports keep them in English, a page in Spanish shows
#: them translated.
LABELS = (
    N_("Swiss round %(n)s"), N_("round %(n)s"), N_("final"), N_("semi-final"), N_("quarter-final"),
    N_("third-place game"), N_("losers' final"), N_("losers' round %(n)s"), N_("grand final"),
    N_("grand final reset"), N_("final table"), N_("final tables, game %(n)s"), N_("final, game %(n)s"),
    N_("round-robin round %(n)s"), N_("round-robin round %(n)s (leg %(n2)s)"), N_("places %(n)s-%(n2)s"),
    N_("waiting"), N_("due"), N_("decided"), N_("walkover"), N_("void"),
    N_("seed %(n)s"), N_("winner of %(word)s"), N_("loser of %(word)s"), N_("%(n)sst of %(word)s"),
    N_("%(n)snd of %(word)s"), N_("%(n)srd of %(word)s"), N_("%(n)sth of %(word)s"),
    N_("rank"), N_("name"), N_("no."), N_("W-D-L"), N_("diff"), N_("Buchholz"), N_("status"), N_("forfeits"),
    N_("byes"), N_("against"), N_("for"), N_("played"), N_("firsts"), N_("placement"), N_("score"), N_("wins"),
    N_("event"), N_("counted"), N_("players"), N_("club"),
    N_("head-to-head"), N_("pair"), N_("place"), N_("id"), N_("place in the rounds"), N_("active"),
    N_("withdrawn"), N_("team"), N_("games won"), N_("games lost"), N_("efectividad"), N_("match points"),
    N_("matches W-D-L"), N_("game"), N_("round / table"), N_("result"), N_("Group %(word)s"), N_("Round robin"),
    N_("VP"), N_("IMPs"), N_("IMPs for"), N_("IMPs against"),
    N_("median Buchholz"), N_("Sonneborn-Berger"), N_("best round"),
    # A late entry's status in standings before its first round (tournament.pairing.standings.status_word).
    N_("from round %(n)s"),
    # A stage's name when the director gave it none (tournament.event.stages.create_stage).
    N_("single elimination"), N_("double elimination"), N_("multi-player knockout"), N_("round robin"),
    N_("groups"),
)
#: A standings column's short header where the language's word is long (the Spanish "en contra",
#: "incomparecencias"): the page shows it in an ``<abbr>`` whose title is the whole word, so that a
#: thousand players' standings fit a desktop's width without squeezing the names.  The msgids are
#: never shown in English (its headers are short already): each is the catalog's key of a short form.
SHORT_HEADERS = {
    "rank": N_("short header: rank"), "wins": N_("short header: wins"), "for": N_("short header: for"),
    "against": N_("short header: against"), "played": N_("short header: played"),
    "byes": N_("short header: byes"), "forfeits": N_("short header: forfeits"),
    "firsts": N_("short header: firsts"), "placement": N_("short header: placement"),
    "score": N_("short header: score"), "games won": N_("short header: games won"),
    "games lost": N_("short header: games lost"), "match points": N_("short header: match points"),
    "efectividad": N_("short header: efectividad"), "Buchholz": N_("short header: Buchholz"),
}

#: What a column's header means, where its word alone says too little (the placement points of a
#: game played each for himself: "placement", "pts. puesto"): the header's ``<abbr>`` title, in
#: every language, so that a reader who wonders can point at it.
HEADER_TITLES = {"placement": N_("placement points: what each place at the table earns, added up")}

#: A crosstable's letter of a game's or match's outcome (the data's ``W``, ``D``, ``L``), as the
#: language writes it (the Spanish G, E, P of its G-E-P).  The msgids are never shown in English:
#: each is the catalog's key of one letter.
OUTCOME_LETTERS = {"W": N_("outcome letter: W (won)"), "D": N_("outcome letter: D (drawn)"),
                   "L": N_("outcome letter: L (lost)")}

#: The games' names as a page shows them (the event stores the game's id, ``competitive``).
GAME_NAMES = {"competitive": N_("competitive"), "horse-race": N_("Horse Race"), "broadway": N_("Broadway"),
              "castle-rock": N_("Castle Rock"), "domino-roads": N_("Domino Roads")}


def game_name(game: str, lang: str) -> str:
    """The name of ``game`` (its id) in ``lang``: *competitivo* on a Spanish page."""
    known = GAME_NAMES.get(game)
    return translations(lang).gettext(known) if known else game


#: How a ranking key reads under the standings ("ranked by wins, then diff").
RANKED_BY = {"efectividad": N_("efectividad (points for minus against)"),
             "effectiveness": N_("effectiveness (efectividad: points for minus against)"),
             "head-to-head": N_("head-to-head (results among the tied only)"),
             "median-buchholz": N_("median Buchholz (the best and worst games' opponents left out)"),
             "sonneborn-berger": N_("Sonneborn-Berger (the opponents beaten, half those drawn with)"),
             "best-round": N_("best round (the best single game)")}


class Words:
    """A page's words in one language: ``_`` the catalog's gettext (for the page's own text),
    ``label`` a label of the data (see :data:`LABELS`)."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self._ = translations(lang).gettext

    def label(self, text: Any) -> str:
        return phrases.translate(str(text), self.lang, LABELS, FOLDERS)

    def header(self, column: Any) -> Markup:
        """A table's column header: its label (:meth:`label`), or in a language whose word is long
        its short form (:data:`SHORT_HEADERS`) in an ``<abbr>`` titled with the whole word."""
        full = self.label(column)
        short = SHORT_HEADERS.get(str(column))
        meant = HEADER_TITLES.get(str(column))
        if meant is not None:
            brief = self._(short) if short is not None and self.lang != "en" else full
            brief = full if brief == short or len(brief) >= len(full) else brief
            return Markup('<abbr title="{}">{}</abbr>').format(self._(meant), brief)
        if short is None or self.lang == "en":
            if len(full) <= 6 and "-" in full:  # "W-D-L" is one sign: a narrow column never splits it
                return Markup('<span class="nw">{}</span>').format(full)
            return escape(full)
        brief = self._(short)
        if brief == short or len(brief) >= len(full):
            return escape(full)
        return Markup('<abbr title="{}">{}</abbr>').format(full, brief)

    def outcome(self, letter: Any) -> str:
        """A crosstable's outcome letter (``W``, ``D``, ``L``) in the language; any other (a place
        at the table, ``2``) as it is."""
        key = OUTCOME_LETTERS.get(str(letter))
        if key is None or self.lang == "en":
            return str(letter)
        said = self._(key)
        return str(letter) if said == key else said

    def format_name(self, fmt: str) -> str:
        """An event's format as the page names it ("rotating partners")."""
        return fmt if self.lang == "en" else self._(FORMAT_NAMES.get(fmt, fmt))

    def when(self, at: str | None) -> str:
        """An ISO 8601 time (the data's, UTC) as people of the language write it, through Babel's
        date formats: "Dec 2, 2026, 3:17:04 PM UTC", "2 dic 2026, 15:17:04 UTC"."""
        if not at:
            return ""
        from tournament.i18n import moment_words

        return moment_words(at, self.lang)  # (the messages' own: "already marked not played, Dec 2, 2026, …")

    def round_heading(self, r: dict[str, Any]) -> str:
        """"Round 3", or "Round 4 · final, game 1" for a round of a later stage."""
        return self._("Round %(n)s") % {"n": r["round"]} + ("" if r["stage"] == 1 else f" · {self.label(r['label'])}")

    def ranked_text(self, table: dict[str, Any]) -> str:
        """"Ranked by wins, then diff, then for": the order of the standings' keys."""
        _ = self._
        if self.lang == "en":
            ranked = table.get("ranked_by") or "ranked by " + ", then ".join(table["tiebreaks"])
        else:
            ranked = _("ranked by %(keys)s") % {"keys": _(", then ").join(
                _(RANKED_BY[k]) if k in RANKED_BY else self.label(k) for k in table["tiebreaks"])}
        return ranked[:1].upper() + ranked[1:]

    def stages_title(self, stages: list[dict[str, Any]]) -> str:
        """The heading over an event's stages, naming what they are: a final of a rotating event is
        not a "knockout and round robin"."""
        _ = self._
        kinds: list[str] = []
        for stage in stages:
            kind = ("Final" if stage.get("final") or "final_tables" in stage
                    else "Knockout" if "matches" in stage else "Round robin")
            if kind not in kinds:
                kinds.append(kind)
        if not kinds:
            return ""
        names = {"Final": (_("Final"), _("final")), "Knockout": (_("Knockout"), _("knockout")),
                 "Round robin": (_("Round robin"), _("round robin"))}
        if len(kinds) == 1:
            return names[kinds[0]][0]
        return _("%(kinds)s and %(last)s") % {"kinds": ", ".join(names[k][0] for k in kinds[:-1]),
                                              "last": names[kinds[-1]][1]}


#: An event's format as the pages name it.
FORMAT_NAMES = {"pairs": N_("pairs, Swiss rounds"), "individual": N_("individual tables"),
                "rotating": N_("rotating partners"),
                # (what the report's header names a team or duplicate event by: its stored format is pairs)
                "teams": N_("teams"), "duplicate pairs": N_("pairs, duplicate boards"),
                "duplicate teams": N_("teams, duplicate boards")}
