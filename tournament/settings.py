"""An event's settings: what a director chose when creating it, checked against the game's engine.

The settings decide everything a director chose when creating the event (format, table size,
bye scores, placement points, tie-breaks, time limit, forfeit score, schedule); they are
written once (``tournament new``) and never change afterwards, so that a round paired today can
be checked tomorrow by the same rules.  The constants here (the formats, the tie-break keys) are
the vocabulary of every layer above.  The values an event holds (players, tables, results) are
in :mod:`tournament.values`.
"""

from __future__ import annotations

import functools
import json
import math
from typing import Any

import attrs

from domrec import games
from domrec.games.base import effective_options
from domrec.errors import DomrecError, InputError
from domrec.i18n import DEFAULT as DEFAULT_LANGUAGE, UnknownLanguage, language
from domrec.record import Player as RecordPlayer, Record, Rules, unstructure
from domrec.reader import load_dict

from tournament.errors import SettingsError

#: Fixed partnerships, paired Swiss by standings (a unit of play is a pair).
PAIRS = "pairs"
#: Individuals in a partnership game, a new partner every round.
ROTATING = "rotating"
#: Individuals at tables of an individual game (everyone for themselves).
INDIVIDUAL = "individual"
FORMATS = (PAIRS, ROTATING, INDIVIDUAL)
#: Teams of pairs meeting in matches: chosen at ``tournament new --format teams``, stored as a pairs
#: event with :attr:`Settings.team_size` set (its pairs are paired, seated and scored as in a pairs event).
TEAMS = "teams"
#: The sizes of a team (players, reserves apart): two pairs (cuartetas) or three.
TEAM_SIZES = (4, 6)
#: The most game points a set (``--team-set``) is played to.
MAX_TEAM_SET = 500
#: The games of a set after which a team's captain may make their one change (a substitution or
#: the draw cross): international team pairs' rule.
SET_CHANGE_AFTER = 6
#: The most reserves a team registers.
MAX_RESERVES = 2
#: How a team event's rounds are paired.
TEAM_SCHEDULES = ("swiss", "round-robin")
#: The team standings' keys, and what each is.
TEAM_KEYS: dict[str, str] = {
    "games": "games won by the team's pairs (a drawn game a half)",
    "efectividad": "efectividad: the team's points for minus points against",
    "match-points": "match points: 2 a match won, 1 a match drawn",
    "for": "total points for",
    "head-to-head": "the matches between the tied teams only (match points, then games)",
}
DEFAULT_TEAM_TIEBREAKS = ("games", "efectividad")
#: Duplicate pairs (issue 38, docs/duplicate.md): every table plays the same boards (deals), each pair
#: scored against the others who held the same tiles.  Chosen at ``tournament new --format duplicate``,
#: stored as a pairs event with :attr:`Settings.movement` set (its partnerships are its pairs).
DUPLICATE = "duplicate"
#: A duplicate event's movements (:mod:`tournament.pairing.movements`).
MOVEMENTS = ("mitchell", "howell")
#: How a Mitchell of an even number of tables keeps the EW pairs off boards they have played: bridge's
#: share and relay (the default), or the skip (after round T/2 the EW pairs move up two tables).
MITCHELL_EVEN = ("relay", "skip")
#: ``--movement`` as a director says it: a skip Mitchell is ``mitchell-skip`` (stored as the movement
#: ``mitchell`` with :attr:`Settings.even` ``skip``).
MOVEMENT_CHOICES = ("mitchell", "mitchell-skip", "howell")
#: What ranks a duplicate event's pairs: the matchpoint percentage or the IMPs (the other breaks ties).
DUPLICATE_RANKINGS = ("matchpoints", "imps")
#: The boards a duplicate round may have (bridge clubs play 2 to 4 a round).
MIN_BOARDS_PER_ROUND, MAX_BOARDS_PER_ROUND = 2, 4


@attrs.frozen
class Preset:
    """What a federation's rules set for an event: each a default the director may still override
    on ``tournament new`` (``--tiebreak``, ``--time-limit``, ``--forfeit-score``)."""

    name: str
    #: Who plays it this way, in a line (``tournament info``, docs/tournament.md).
    source: str
    #: The points a game is played to, where the game's rules take a target (``--option target``);
    #: None: the game's own.  A forfeit scores this (a game won to the target against nothing).
    target: int | None
    time_limit: int | None
    #: The order of the pairs' (and players') standings.
    tiebreaks: tuple[str, ...]
    #: The order of the team standings (:data:`TEAM_KEYS`).
    team_tiebreaks: tuple[str, ...]
    #: A team event's matches as sets to this many game points (:attr:`Settings.team_set`), or None.
    team_set: int | None = None
    #: A knockout of teams' semi-finals and final as sets to this many game points (the stage's
    #: ``--final-set``), or None: the event's ``team_set``.
    final_set: int | None = None


PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("femundo-teams", "FEMUNDO cuartetas: teams ranked by games won, then efectividad", None, None,
           ("wins", "efectividad"), ("games", "efectividad")),
    Preset("fid-teams", "FID world team championship: games to 300 points, 55 minutes a game, ranked by "
           "wins, then total points", 300, 55, ("wins", "for"), ("games", "for")),
    Preset("team-pairs", "international team pairs: scores count a team, a game 1 point, a match a set won by the "
           "first team to 50 game points (2 match points), 75 in semi-finals and finals; the captain's change "
           "after 6 games", None, None, ("wins", "efectividad"), ("match-points", "games", "efectividad"), 50, 75),
    Preset("dominousa", "Dominousa: games to 200 points or 40 minutes, ranked by games won, then efectividad",
           200, 40, ("wins", "efectividad"), ("games", "efectividad")),
    Preset("fed-spain", "Spanish federation: games to 300 points, ranked by games won, then efectividad",
           300, None, ("wins", "efectividad"), ("games", "efectividad")),
)}
#: How the rounds of a rotating-partner event are seated: by the standings, round by round (the
#: default), or from a schedule fixed when round 1 is paired (tournament/pairing/schedule.py).
STANDINGS_SCHEDULE = "standings"
BALANCED = "balanced"
SCHEDULES = (STANDINGS_SCHEDULE, BALANCED)
PARTNERSHIP_FORMATS = (PAIRS, ROTATING)
PARTNERSHIP_SIDES = ("NS", "EW")

#: Standing keys that can break ties, and whether more is better.
TIEBREAK_KEYS: dict[str, str] = {
    "wins": "games won (a draw counts half; a bye counts as the settings say)",
    "diff": "point difference: points for minus points against",
    "for": "points for",
    "against": "points against (fewer is better)",
    "placement": "placement points (multi-player tables)",
    "score": "total score (multi-player tables)",
    "firsts": "tables won outright or shared first (multi-player tables)",
    "buchholz": "sum of the opponents' wins (or placement points)",
    "median-buchholz": "Buchholz without the best and the worst game's opponents (with 9 or more games, "
                       "the two best and two worst)",
    "sonneborn-berger": "Sonneborn-Berger: sum of the wins (or placement points) of the opponents beaten, "
                        "half of those drawn with",
    "best-round": "the best single game: its margin (points for minus against; multi-player tables: its score)",
    "average": "games won (or placement points) a game played: byes and sit-outs aside, for fields where "
               "the games played differ",
    "head-to-head": "the results between the tied units only (--head-to-head two: only when exactly two are "
                    "tied, the default; mini-league: a mini-table of all the tied, a cycle falls to the next key)",
    "efectividad": "efectividad, as Latin federations name it: points for minus points against",
    "effectiveness": "efectividad (the English name): points for minus points against",
}
#: Federation names of existing keys: the same value, printed as the event named it.
TIEBREAK_ALIASES = {"efectividad": "diff", "effectiveness": "diff"}
HEAD_TO_HEAD = "head-to-head"
#: The two conventions of head-to-head (``--head-to-head``): between exactly two tied units only
#: (the default; three or more level fall to the next key, as most federations' rules have it),
#: or a mini-league of the results among all the units tied.
HEAD_TO_HEAD_TWO, HEAD_TO_HEAD_LEAGUE = "two", "mini-league"
HEAD_TO_HEAD_RULES = {HEAD_TO_HEAD_TWO: "only between exactly two tied; three or more fall to the next key",
                      HEAD_TO_HEAD_LEAGUE: "a mini-league of the results among all the tied"}
LOWER_IS_BETTER = frozenset({"against"})
DEFAULT_TIEBREAKS = {PAIRS: ("wins", "diff", "for"), ROTATING: ("wins", "diff", "for"),
                     INDIVIDUAL: ("placement", "score")}
#: The federation tie-breaks computed from a unit's games one by one (issue 39): named columns
#: wherever an event ranks by them (docs/tournament.md, "Federation tie-breaks").
FEDERATION_KEYS = ("median-buchholz", "sonneborn-berger", "best-round")
PARTNERSHIP_KEYS = ("wins", "average", "diff", "for", "against", "buchholz", HEAD_TO_HEAD, "efectividad",
                    "effectiveness") + FEDERATION_KEYS
INDIVIDUAL_KEYS = ("placement", "average", "score", "firsts", "buchholz", HEAD_TO_HEAD) + FEDERATION_KEYS


def default_placement(size: int) -> tuple[float, ...]:
    """1st gets n-1, 2nd n-2, … last 0 (ties share the points of the places they cover)."""
    return tuple(float(size - 1 - i) for i in range(size))


@attrs.frozen
class Settings:
    """What the director chose at ``tournament new``."""

    name: str
    game: str
    format: str
    table_size: int
    seed: int = 0
    variant: str | None = None
    options: dict[str, Any] = attrs.field(factory=dict)
    #: What a bye scores.  Partnership formats: ``wins`` (1 = a game won), ``for``, ``against``.
    #: Individual tables: ``placement`` and ``score``.
    bye: dict[str, float] = attrs.field(factory=dict)
    #: What a round a player asked to sit out scores (``tournament sit-out``), in the keys of
    #: ``bye``: nothing unless ``--sit-out-score`` says otherwise (a pairing's bye is not chosen;
    #: a sit-out is).  An event made before it scored a sit-out as a bye, and still does.
    sit_out: dict[str, float] = attrs.field(factory=dict)
    #: Placement points by finishing place at a full table (individual tables).
    placement: tuple[float, ...] = ()
    tiebreaks: tuple[str, ...] = ()
    #: The event's time limit a game, in minutes (informational: on the sheets and the report; a
    #: game the clock stopped is a record with ``"ended": "time"``, judged by domrec).
    time_limit: int | None = None
    #: What the side that played scores when the other did not (a forfeit): ``forfeit_score``-0.
    forfeit_score: int = 0
    #: ``standings`` or ``balanced`` (rotating partners only); a balanced event has ``rounds`` rounds.
    schedule: str = STANDINGS_SCHEDULE
    rounds: int = 0
    #: The language of the pages players read when their browser asks for none the pages have
    #: (and of ``report`` and ``sheets`` without ``--lang``): ``en`` or ``es`` (domrec.i18n).
    lang: str = "en"
    #: A team event (``--format teams``): players in teams of ``team_size`` (4: two pairs, 6: three
    #: pairs), paired team against team; stored as a pairs event (the pairs are its units of play)
    #: with this set.  0: not a team event.
    team_size: int = 0
    #: How a team event's rounds are paired: ``swiss`` on the team standings, or ``round-robin``.
    team_schedule: str = "swiss"
    #: The order of the team standings' keys (:data:`TEAM_KEYS`).
    team_tiebreaks: tuple[str, ...] = ()
    #: A team event played in sets (``--team-set N``): a match is won by the first team to N game
    #: points, a game 1 point to its winner; its games are seated one after another at the match's
    #: tables as their results come in (:mod:`tournament.event.teams`).  None: a match is one game
    #: a table.
    team_set: int | None = None
    #: The federation preset the event was made with (:data:`tournament.presets.PRESETS`), or None.
    preset: str | None = None
    #: A duplicate event (``--format duplicate``): its movement (:data:`MOVEMENTS`); None: not duplicate.
    movement: str | None = None
    #: A duplicate event's boards a round (2 to 4).
    boards_per_round: int = 0
    #: A Mitchell's cure at an even number of tables (:data:`MITCHELL_EVEN`): ``relay`` (the default)
    #: or ``skip`` (``--movement mitchell-skip``).
    even: str = "relay"
    #: A duplicate session cut short (``--rounds N``, a curtailed movement): the movement's first N
    #: rounds.  0: the movement's whole length (a Howell beyond 8 tables: its three quarters).
    movement_rounds: int = 0
    #: A duplicate event's ranking (:data:`DUPLICATE_RANKINGS`).
    ranking: str | None = None
    #: Duplicate teams (``--format teams --team-size 4 --duplicate``, docs/duplicate.md): each match
    #: plays the round's boards at both its tables, the team's pairs in opposite directions, and
    #: is scored by the team's net on each board in IMPs (:mod:`tournament.event.duplicate_teams`).
    team_duplicate: bool = False
    #: A duplicate-teams match's IMPs turned into victory points (0-20), which rank the teams.
    victory_points: bool = False
    #: Which head-to-head (:data:`HEAD_TO_HEAD_RULES`) ranks a tie, where the tie-breaks name it.
    head_to_head: str = HEAD_TO_HEAD_TWO
    #: Accelerated pairings (``--accelerated N``, Baku): in the first N rounds the top half of the
    #: seeded field is paired as if it had virtual points more (:mod:`tournament.pairing.seeding`);
    #: never in the standings.  0: not accelerated.
    accelerated: int = 0

    @property
    def duplicate(self) -> bool:
        """A duplicate event: the same boards at every table, scored board by board
        (:mod:`tournament.event.duplicate`)."""
        return self.movement is not None

    @property
    def movement_choice(self) -> str | None:
        """The movement as ``--movement`` names it (:data:`MOVEMENT_CHOICES`): ``mitchell-skip`` for a
        skip Mitchell; None: not duplicate pairs."""
        if self.movement is None:
            return None
        return f"{self.movement}-skip" if self.movement == "mitchell" and self.even == "skip" else self.movement

    @property
    def movement_words(self) -> str:
        """The movement as ``new`` and ``info`` say it: ``mitchell-skip movement, curtailed to 9 rounds``."""
        return f"{self.movement_choice} movement" + (f", curtailed to {self.movement_rounds} rounds"
                                                     if self.movement_rounds else "")

    @property
    def teams(self) -> bool:
        """A team event: teams of pairs meet in matches (:mod:`tournament.pairing.teams`)."""
        return self.team_size > 0

    @property
    def pairs_a_team(self) -> int:
        return self.team_size // 2

    @property
    def format_name(self) -> str:
        """The format as the director chose it: ``teams`` or ``duplicate`` (both stored as pairs)."""
        return TEAMS if self.teams else DUPLICATE if self.duplicate else self.format

    @property
    def partnership(self) -> bool:
        return self.format in PARTNERSHIP_FORMATS

    def seats(self) -> tuple[str, ...]:
        return tuple(games.engine(self.game).seats_for(self.table_size, self.resolved_options()))

    def seats_for(self, size: int) -> tuple[str, ...]:
        """The seats of a table of ``size`` players (an individual event's smaller tables)."""
        if size == self.table_size:
            return self.seats()
        return tuple(games.engine(self.game).seats_for(size, self.resolved_options()))

    def table_counts(self) -> tuple[int, ...]:
        """The table sizes a round may use: at individual tables, every count of players the game
        allows up to the event's table size (its largest; tournament/pairing/seating.py); a
        partnership table is always four."""
        if self.format != INDIVIDUAL:
            return (self.table_size,)
        counts = solo_counts(self.game, self.variant, self.options)
        return tuple(sorted(c for c in counts if c <= self.table_size))

    def resolved_options(self) -> dict[str, Any]:
        return effective_options(games.engine(self.game), self.variant, self.options)

    def rules(self) -> Rules | None:
        if not self.options and not self.variant:
            return None
        return Rules(variant=self.variant, options=dict(self.options) if self.options else None)

    def to_json(self) -> str:
        data = attrs.asdict(self)
        data["placement"] = list(self.placement)
        data["tiebreaks"] = list(self.tiebreaks)
        if self.schedule == STANDINGS_SCHEDULE and not self.rounds:
            del data["schedule"], data["rounds"]  # the settings of every event before schedules, unchanged
        if not self.team_size:  # every event that is not a team event: its settings unchanged
            for key in ("team_size", "team_schedule", "team_tiebreaks", "team_set"):
                del data[key]
        else:
            data["team_tiebreaks"] = list(self.team_tiebreaks)
            if self.team_set is None:
                del data["team_set"]  # a team event's settings before sets, unchanged
        if self.preset is None:
            del data["preset"]
        if self.movement is None:  # every event that is not duplicate: its settings unchanged
            for key in ("movement", "ranking") + (() if self.team_duplicate else ("boards_per_round",)):
                del data[key]
        # The settings of every event before skip Mitchells and curtailed sessions, unchanged; an event
        # with either cannot be read by a tool from before them (it refuses the file, naming the key,
        # rather than play the whole relay movement the event did not choose).
        if self.even == "relay":
            del data["even"]
        if not self.movement_rounds:
            del data["movement_rounds"]
        if not self.team_duplicate:
            del data["team_duplicate"], data["victory_points"]
        if self.lang == "en":
            del data["lang"]  # an English event's settings are those of every event before languages
        if not self.accelerated:
            del data["accelerated"]  # the settings of every event before acceleration, unchanged
        if HEAD_TO_HEAD not in self.tiebreaks:
            del data["head_to_head"]  # it ranks nothing there: the settings of every event before it
        return json.dumps(data, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "Settings":
        """The settings :meth:`to_json` wrote.  Anything else (a damaged event file) raises
        ValueError, TypeError or KeyError, never another exception: JSON nested past the
        interpreter's depth, or a JSON value that is not an object, is a ValueError."""
        try:
            data = json.loads(text)
        except RecursionError:
            raise ValueError("they are nested too deeply") from None
        if not isinstance(data, dict):
            kind = {type(None): "null", bool: "true or false", int: "a number", float: "a number", str: "a text",
                    list: "a list"}[type(data)]
            raise ValueError(f"they are {kind}, not an object {{…}} of settings")
        data["placement"] = tuple(data.get("placement") or ())
        data["tiebreaks"] = tuple(data.get("tiebreaks") or ())
        data["team_tiebreaks"] = tuple(data.get("team_tiebreaks") or ())
        if "sit_out" not in data:
            data["sit_out"] = dict(data.get("bye") or {})
        if "head_to_head" not in data and HEAD_TO_HEAD in data["tiebreaks"]:
            # An event made before the two conventions was ranked by a mini-league: it still is
            # (its rounds were paired on those standings), unless the director changes it.
            data["head_to_head"] = HEAD_TO_HEAD_LEAGUE
        unknown = sorted(set(data) - {f.name for f in attrs.fields(cls)})
        if unknown:  # (a tool from before a setting reads no further: it would ignore what the event chose)
            raise ValueError(f"they hold {', '.join(map(repr, unknown[:5]))}, which this tool does not know: "
                             f"the file was probably written by a newer tournament tool")
        # Events made before time limits and forfeits: no limit, and the game's default forfeit score.
        if "forfeit_score" not in data:
            data["forfeit_score"] = default_forfeit_score(data["game"], data.get("variant"),
                                                          data.get("options") or {}, data["table_size"])
        return cls(**data)


def _round_score(what: str, format: str, default: dict[str, float], given: dict[str, float] | None) -> dict[str, float]:
    """What a round without a game scores (a bye, a sit-out): ``given`` over ``default``, in its keys."""
    out = dict(default)
    for key, value in (given or {}).items():
        if key not in default:
            raise SettingsError(f"a {what} in a {format} event sets {', '.join(default)}, not {key!r}")
        out[key] = float(value)
        if not math.isfinite(out[key]):
            raise SettingsError(f"a {what}'s {key} must be a finite number, not {value!r}")
    return out


def default_forfeit_score(game: str, variant: str | None, options: dict[str, Any], table_size: int) -> int:
    """A forfeit's default score: the game's target, read from its engine (Competitive 200, Horse
    Race its target option, Castle Rock 50, Domino Roads 2000 or 1000), as federations award a
    forfeit as a game won to the target against nothing.  Broadway has no target (seven hands
    decide), so it gives 0: the forfeit is a win without points unless the event sets one."""
    from domrec.games import castlerock, competitive

    engine = games.engine(game)
    resolved = effective_options(engine, variant, options)
    if game == "competitive":
        return competitive.TARGET
    if game == "castle-rock":
        return castlerock.TARGET
    if game == "horse-race":
        return int(resolved.get("target") or 0)
    if game == "domino-roads":
        from domrec.games import roads
        return roads.TARGET.get(table_size, max(roads.TARGET.values()))
    return 0


#: The most rounds accelerated pairings may last (Baku acceleration is for the first rounds).
MAX_ACCELERATED = 20


#: The longest event name: a player's name has the same limit (tournament.event.players).
MAX_EVENT_NAME = 200


def check_event_name(name: str) -> None:
    """Refuse an event name that could not head a page or a printout on one line: longer than
    :data:`MAX_EVENT_NAME` characters, or holding line breaks, control characters or direction
    controls (which would make it show in another order than it reads)."""
    import unicodedata

    from tournament.names import bidi_controls

    if len(name) > MAX_EVENT_NAME:
        raise SettingsError(f"the event's name is limited to {MAX_EVENT_NAME} characters, not {len(name):,}: "
                            f"{name[:40]!r}…")
    if any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") for ch in name):
        raise SettingsError(f"the event's name cannot hold line breaks, tabs or other control characters: {name[:60]!r}")
    controls = bidi_controls(name)
    if controls:
        raise SettingsError(f"the event's name cannot hold direction-control characters ({', '.join(controls)}): "
                            f"{name[:60]!r}")


def make_settings(name: str, game: str, format: str, table_size: int | None = None, seed: int = 0,
                  variant: str | None = None, options: dict[str, Any] | None = None,
                  bye: dict[str, float] | None = None, placement: tuple[float, ...] | None = None,
                  tiebreaks: tuple[str, ...] | None = None, time_limit: int | None = None,
                  forfeit_score: int | None = None, schedule: str | None = None,
                  rounds: int | None = None, lang: str | None = None, team_size: int | None = None,
                  team_schedule: str | None = None, team_tiebreaks: tuple[str, ...] | None = None,
                  preset: str | None = None, team_set: int | None = None, movement: str | None = None,
                  boards_per_round: int | None = None, ranking: str | None = None,
                  team_duplicate: bool = False, victory_points: bool = False,
                  head_to_head: str | None = None, sit_out: dict[str, float] | None = None,
                  accelerated: int | None = None) -> Settings:
    """Check every choice against the game's engine and fill in the documented defaults.

    The engine decides (generically, through the protocol) whether the game is
    played in partnerships for these options: a started match whose sides are
    NS and EW is a partnership game; one whose sides are its seats is not.
    """
    if not name.strip():
        raise SettingsError("the event needs a name")
    if any("\ud800" <= ch <= "\udfff" for ch in name):  # undecodable bytes on the command line
        raise SettingsError(f"the event's name must be UTF-8 text: {name!r}")
    check_event_name(name)
    # Ranking keys given but none named (``--tiebreak ""`` or ``","``): refused below, naming the keys.
    no_keys = tiebreaks is not None and not tuple(tiebreaks)
    no_team_keys = team_tiebreaks is not None and not tuple(team_tiebreaks)
    chosen = None
    preset_forfeit = None  # the preset's target, where it gives the forfeit score (not the director)
    # (before a preset fills them in)
    team_choices = bool(team_size or team_schedule or team_tiebreaks or no_team_keys or team_set)
    if preset is not None:
        chosen = PRESETS.get(preset)
        if chosen is None:
            raise SettingsError(f"unknown preset {preset!r}; presets: {', '.join(PRESETS)}")
        tiebreaks = tiebreaks or chosen.tiebreaks
        team_tiebreaks = team_tiebreaks or chosen.team_tiebreaks
        if format == TEAMS and team_set is None:
            team_set = chosen.team_set
        time_limit = time_limit if time_limit is not None else chosen.time_limit
        if chosen.target is not None:
            if forfeit_score is None:
                forfeit_score = preset_forfeit = chosen.target
            known = effective_options(games.engine(game), variant, {}) if game in games.available() else {}
            if "target" in known and "target" not in (options or {}):
                options = {**(options or {}), "target": chosen.target}
    if format == TEAMS:
        if team_size not in TEAM_SIZES:
            raise SettingsError(f"a team has {' or '.join(map(str, TEAM_SIZES))} players (two or three pairs): "
                                f"give --team-size 4 or 6" + (f", not {team_size}" if team_size else ""))
        team_schedule = team_schedule or "swiss"
        if team_schedule not in TEAM_SCHEDULES:
            raise SettingsError(f"a team event is paired {' or '.join(TEAM_SCHEDULES)}, not {team_schedule!r}")
        if no_team_keys:
            raise SettingsError(f"--team-tiebreak names no key; give one or more of {', '.join(TEAM_KEYS)}, in "
                                f"order, separated by commas")
        team_tiebreaks = tuple(team_tiebreaks) if team_tiebreaks else DEFAULT_TEAM_TIEBREAKS
        for key in team_tiebreaks:
            if key not in TEAM_KEYS:
                raise SettingsError(f"{key!r} cannot rank teams; use {', '.join(TEAM_KEYS)}")
        if len(set(team_tiebreaks)) != len(team_tiebreaks):
            raise SettingsError("a team tie-break is named twice")
        if team_set is not None and not 1 <= team_set <= MAX_TEAM_SET:
            raise SettingsError(f"a set is won at 1 to {MAX_TEAM_SET} game points, not {team_set}")
        if team_duplicate:
            boards_per_round = _duplicate_teams_choices(team_size, team_set, boards_per_round)
        elif boards_per_round is not None or victory_points:
            raise SettingsError("--boards-per-round and --victory-points in a team event are for duplicate teams "
                                "(--duplicate)")
        format = PAIRS
    elif team_duplicate or victory_points:
        raise SettingsError("--duplicate and --victory-points are for --format teams --team-size 4 "
                            "(duplicate pairs: --format duplicate)")
    elif team_choices:
        raise SettingsError("--team-size, --team-pairing, --team-tiebreak and --team-set are for --format teams")
    else:
        team_size, team_schedule, team_tiebreaks, team_set = 0, "swiss", (), None
    even, movement_rounds = "relay", 0
    if format == DUPLICATE:
        movement, even, boards_per_round, ranking = _duplicate_choices(movement, boards_per_round, ranking)
        movement_rounds, rounds = _duplicate_rounds(movement, even, rounds), None
        format = PAIRS
    elif movement is not None or (boards_per_round is not None and not team_duplicate) or ranking is not None:
        raise SettingsError("--movement, --boards-per-round and --ranking are for --format duplicate")
    if format not in FORMATS:
        raise SettingsError(f"unknown format {format!r}; formats: {', '.join(FORMATS + (TEAMS, DUPLICATE))}")
    try:
        engine = games.engine(game)
    except DomrecError as e:
        raise SettingsError(getattr(e, "message", str(e))) from None
    options = dict(options or {})
    resolved = effective_options(engine, variant, options)
    counts = tuple(engine.player_counts(resolved))
    if format in PARTNERSHIP_FORMATS:
        if table_size not in (None, 4):
            raise SettingsError(f"a {format} event sits four players at a table, not {table_size}")
        table_size = 4
    elif table_size is None:
        # (the largest count played each on their own: Domino Roads' four play in partnerships)
        table_size = max(solo_counts(game, variant, options), default=counts[-1])
    if table_size not in counts:
        raise SettingsError(f"{game} is played by {_counts(counts)} players, not {table_size}")
    if format == INDIVIDUAL and table_size not in solo_counts(game, variant, options) \
            and solo_counts(game, variant, options):
        alone = solo_counts(game, variant, options)
        raise SettingsError(f"{game} at tables of {table_size} is played in partnerships: an individual event of "
                            f"it sits {_counts(alone)} at a table (--table-size {alone[-1]}); for partnerships use "
                            f"--format pairs or --format rotating")
    seats = tuple(engine.seats_for(table_size, resolved))
    template = _table_record(game, variant, options, seats)
    try:
        load_dict(unstructure(template))  # unknown options, bad variant: the record format's own checks
        match = engine.start(template)
    except InputError as e:
        raise SettingsError(f"{game}: {e.message}") from None
    except DomrecError as e:
        raise SettingsError(f"{game}: {getattr(e, 'message', e)}") from None
    sides = tuple(match.sides)
    if format in PARTNERSHIP_FORMATS and sides != PARTNERSHIP_SIDES:
        # (a game with a partnership option, Horse Race's: the way to keep the format asked for)
        option = "partnerships" in getattr(engine, "defaults", {}) and not resolved.get("partnerships")
        raise SettingsError(f"{game} with these options is not a partnership game (its sides are "
                            f"{', '.join(sides)}); use --format individual"
                            + (", or play it in partnerships: --option partnerships=true (four players)"
                               if option else ""))
    if format == INDIVIDUAL and sides != seats:
        raise SettingsError(f"{game} with these options is played in partnerships ({', '.join(sides)}); "
                            f"use --format pairs or --format rotating")
    if format in PARTNERSHIP_FORMATS:
        bye_default = {"wins": 1.0, "for": 0.0, "against": 0.0}
        allowed = PARTNERSHIP_KEYS
    else:
        bye_default = {"placement": sum(default_placement(table_size)) / table_size, "score": 0.0}
        allowed = INDIVIDUAL_KEYS
    bye_out = _round_score("bye", format, bye_default, bye)
    sit_out_score = _round_score("sit-out", format, dict.fromkeys(bye_default, 0.0), sit_out)
    if format == INDIVIDUAL:
        placement = tuple(float(p) for p in placement) if placement else default_placement(table_size)
        if not all(math.isfinite(p) for p in placement):
            raise SettingsError(f"placement points must be finite numbers, not {', '.join(map(str, placement))}")
        if len(placement) != table_size:
            raise SettingsError(f"placement points need one number for each of the {table_size} places, "
                                f"not {len(placement)}")
        if list(placement) != sorted(placement, reverse=True):
            raise SettingsError("placement points must not grow from one place to the next")
    elif placement:
        raise SettingsError("placement points apply to individual tables only")
    else:
        placement = ()
    if no_keys:
        raise SettingsError(f"--tiebreak names no key; give one or more of {', '.join(allowed)}, in order, "
                            f"separated by commas")
    tiebreaks = tuple(tiebreaks) if tiebreaks else DEFAULT_TIEBREAKS[format]
    for key in tiebreaks:
        if key not in allowed:
            raise SettingsError(f"{key!r} cannot rank a {format} event; use {', '.join(allowed)}")
    if len(set(tiebreaks)) != len(tiebreaks):
        raise SettingsError("a tie-break is named twice")
    same = [k for k in tiebreaks if TIEBREAK_ALIASES.get(k, k) == "diff"]
    if len(same) > 1:
        raise SettingsError(f"{' and '.join(same)} are the same tie-break (points for minus points against): "
                            f"name it once")
    head_to_head = head_to_head or HEAD_TO_HEAD_TWO
    if head_to_head not in HEAD_TO_HEAD_RULES:
        raise SettingsError(f"head-to-head is {' or '.join(HEAD_TO_HEAD_RULES)}, not {head_to_head!r}")
    if time_limit is not None and not 1 <= time_limit <= 24 * 60:
        raise SettingsError(f"a time limit is a number of minutes from 1 to 1440, not {time_limit}")
    if forfeit_score is None:
        forfeit_score = default_forfeit_score(game, variant, options, table_size)
    elif not 0 <= forfeit_score <= 1_000_000:
        raise SettingsError(f"a forfeit score is a whole number from 0 to 1000000, not {forfeit_score}")
    else:
        _check_forfeit_score(engine, game, variant, resolved, table_size, sides, int(forfeit_score),
                             preset if preset_forfeit is not None else None)
    schedule = schedule or STANDINGS_SCHEDULE
    if schedule not in SCHEDULES:
        raise SettingsError(f"unknown schedule {schedule!r}; schedules: {', '.join(SCHEDULES)}")
    if schedule == BALANCED:
        if format != ROTATING:
            raise SettingsError(f"a balanced schedule is for --format rotating (new partners every round), "
                                f"not {format}")
        if not rounds:
            raise SettingsError("a balanced schedule is fixed in advance: say how many rounds (--rounds N)")
    elif rounds:
        raise SettingsError("--rounds fixes the length of a balanced schedule (--schedule balanced) or of a "
                            "duplicate session (--format duplicate); a standings-based event has as many rounds "
                            "as are paired")
    accelerated = int(accelerated or 0)
    if accelerated:
        if not 1 <= accelerated <= MAX_ACCELERATED:
            raise SettingsError(f"accelerated pairings last 1 to {MAX_ACCELERATED} rounds, not {accelerated}")
        if team_size or movement is not None or schedule == BALANCED:
            raise SettingsError("accelerated pairings are for rounds paired on the standings (pairs, rotating "
                                "partners, individual tables): not for team, duplicate or balanced events")
    try:
        lang = language(lang) if lang is not None else DEFAULT_LANGUAGE
    except UnknownLanguage as e:
        raise SettingsError(e.message) from None
    return Settings(name=name.strip(), game=game, format=format, table_size=table_size, seed=seed,
                    variant=variant, options=options, bye=bye_out, placement=placement, tiebreaks=tiebreaks,
                    time_limit=time_limit, forfeit_score=int(forfeit_score), schedule=schedule,
                    rounds=int(rounds or 0), lang=lang, team_size=int(team_size or 0),
                    team_schedule=team_schedule or "swiss", team_tiebreaks=tuple(team_tiebreaks or ()),
                    preset=preset, team_set=team_set, movement=movement,
                    boards_per_round=int(boards_per_round or 0), even=even, movement_rounds=movement_rounds,
                    ranking=ranking, team_duplicate=bool(team_duplicate), victory_points=bool(victory_points),
                    head_to_head=head_to_head, sit_out=sit_out_score, accelerated=accelerated)


def _check_forfeit_score(engine: Any, game: str, variant: str | None, resolved: dict[str, Any], table_size: int,
                         sides: tuple[str, ...], points: int, preset: str | None) -> None:
    """Refuse a forfeit score no game of the event can end with.  A forfeit is scored as a game won
    against nothing (the side there ``points``, every other side 0), so ``points`` must be a total
    the game's engine lets a side end a game with while the others end on 0 (``final_scores``:
    :meth:`~domrec.games.base.ScoreRange.most`), the bound a typed total is held to: Competitive
    336, Horse Race to 61: 94 (checked after every peg; after every hand 850), Castle Rock 77 (104,
    140 with the larger sets), Domino Roads 2996 (three players 1820).  Broadway has no target
    (seven hands, then sudden death), so its engine bounds no game's total and only the limit of
    1,000,000 holds.  ``preset``: the preset whose target gave the score (the director gave none),
    named in the refusal."""
    span = engine.final_scores(variant or "standard", resolved, table_size)
    side = sides[0]
    most = span.most(side, {**dict.fromkeys(sides, 0), side: points})
    if most is None or points <= most[0]:
        return
    said = (f"the preset {preset} scores a forfeit {points} (its games' target), more" if preset
            else f"a forfeit score of {points} is more")
    raise SettingsError(f"{said} than a game of {game} can end with against nothing: a game to "
                        f"{span.target} cannot end above {most[0]} ({most[1]}); give --forfeit-score {most[0]} "
                        f"or less")


def _duplicate_teams_choices(team_size: int | None, team_set: int | None, boards_per_round: int | None) -> int:
    """Duplicate teams' boards a round, checked (default 2): a team of two pairs, one at each of the
    match's two tables, and a match of boards, not a set of games."""
    if team_size != 4:
        raise SettingsError(f"duplicate teams are teams of 4 (two pairs: one at each of the match's two tables), "
                            f"not {team_size}")
    if team_set is not None:
        raise SettingsError("a duplicate-teams match is its boards, not a set: --team-set is for games")
    boards_per_round = 2 if boards_per_round is None else boards_per_round
    if not MIN_BOARDS_PER_ROUND <= boards_per_round <= MAX_BOARDS_PER_ROUND:
        raise SettingsError(f"a duplicate round has {MIN_BOARDS_PER_ROUND} to {MAX_BOARDS_PER_ROUND} boards, "
                            f"not {boards_per_round}")
    return boards_per_round


def _duplicate_choices(movement: str | None, boards_per_round: int | None,
                       ranking: str | None) -> tuple[str, str, int, str]:
    """A duplicate event's movement, its even-tables cure, boards a round and ranking, checked, with
    their defaults (a Mitchell with share and relay, 2 boards a round, ranked by matchpoints).  The
    game must deal boards: every game whose hands start from a deal does
    (:mod:`tournament.pairing.boards`); whether it is played in partnerships, as duplicate pairs
    need, is checked with the pairs format's own check."""
    movement = movement or MOVEMENTS[0]
    if movement not in MOVEMENT_CHOICES:
        if movement.startswith("howell-"):
            raise SettingsError(f"a Howell has no {movement[7:]}: everybody moves, and no pair meets a board twice "
                                f"at any number of tables (--movement howell; a skip is for a Mitchell, "
                                f"--movement mitchell-skip)")
        raise SettingsError(f"a duplicate movement is {' or '.join(MOVEMENTS)} (a Mitchell with the skip at an even "
                            f"number of tables: mitchell-skip), not {movement!r}")
    movement, _, even = movement.partition("-")
    even = even or MITCHELL_EVEN[0]
    boards_per_round = 2 if boards_per_round is None else boards_per_round
    if not MIN_BOARDS_PER_ROUND <= boards_per_round <= MAX_BOARDS_PER_ROUND:
        raise SettingsError(f"a duplicate round has {MIN_BOARDS_PER_ROUND} to {MAX_BOARDS_PER_ROUND} boards, "
                            f"not {boards_per_round}")
    ranking = ranking or DUPLICATE_RANKINGS[0]
    if ranking not in DUPLICATE_RANKINGS:
        raise SettingsError(f"duplicate pairs are ranked by {' or '.join(DUPLICATE_RANKINGS)}, not {ranking!r}")
    return movement, even, boards_per_round, ranking


def _duplicate_rounds(movement: str, even: str, rounds: int | None) -> int:
    """A curtailed session's rounds (``--rounds N``), checked as far as they can be before the
    pairs are known (1 to the longest such movement; the table count's own range is checked when
    round 1 is seated: :func:`tournament.pairing.movements.for_event`); 0: the whole movement."""
    if rounds is None:
        return 0
    # (the longest of each at 30 tables, the most a movement has: a Mitchell 30, a skip Mitchell 29,
    # a Howell 2 × 30 - 1)
    most = 59 if movement == "howell" else 29 if even == "skip" else 30
    name = "skip Mitchell" if even == "skip" else movement.capitalize()
    if not 1 <= rounds <= most:
        raise SettingsError(f"--rounds {rounds}: a {name} has 1 to {most} rounds ({most} at 30 tables, the most; "
                            f"fewer tables, fewer rounds)")
    return int(rounds)


def solo_counts(game: str, variant: str | None, options: dict[str, Any] | None) -> tuple[int, ...]:
    """The table sizes at which ``game`` under these options is played each on their own (its
    sides are its seats), smallest first: the sizes an individual event's tables may have.  Asked
    of the engine, a match started at each of its player counts: Domino Roads is played by three
    each on their own and by four in partnerships (NS, EW), so its individual tables seat three."""
    return _solo_counts(game, variant, json.dumps(options or {}, sort_keys=True))


@functools.lru_cache(maxsize=64)
def _solo_counts(game: str, variant: str | None, options_json: str) -> tuple[int, ...]:
    options = json.loads(options_json)
    try:
        engine = games.engine(game)
        resolved = effective_options(engine, variant, options)
        out = []
        for count in engine.player_counts(resolved):
            seats = tuple(engine.seats_for(count, resolved))
            if tuple(engine.start(_table_record(game, variant, options, seats)).sides) == seats:
                out.append(count)
    except DomrecError:
        return ()  # (options the engine refuses: said where the settings are made)
    return tuple(sorted(out))


def _table_record(game: str, variant: str | None, options: dict[str, Any] | None, seats: tuple[str, ...]) -> Record:
    """A record of a table of ``seats`` under these rules, without hands: what the engine starts a
    match from to say the game's sides (and the record format checks the options by)."""
    return Record(game=game, rules=Rules(variant=variant, options=options or None) if (options or variant) else None,
                  players=tuple(RecordPlayer(seat=s, name=f"player {i + 1}") for i, s in enumerate(seats)))


def _counts(counts: tuple[int, ...]) -> str:
    if len(counts) == 1:
        return str(counts[0])
    if list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts))
