"""Exception classes of the tournament tool.

Two families, as in domrec, because a director must be told two different things:

* :class:`UnusableInput` — the event file, a CSV file or the command line cannot
  be used at all (missing file, not SQLite, a database of another kind, an
  unknown game).  The command exits with 2.
* :class:`Refused` — the input is readable but the tournament refuses it (an
  invalid record, a record of another table, a second result for a table, a
  round that cannot be paired).  Nothing is written.  The command exits with 1.
"""

from __future__ import annotations


class TournamentError(Exception):
    """Base of every error the tournament tool raises on purpose."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class UnusableInput(TournamentError):
    """Input that cannot be used: the director must fix the file or the command."""

    exit_code = 2


class EventFileError(UnusableInput):
    """The event file is missing, not SQLite, damaged, or not a tournament event."""


class DamagedEventFile(EventFileError):
    """An event file that SQLite or the tool finds damaged: ``tournament check`` says what is."""


class FederationFileError(UnusableInput):
    """A federation report (``tournament ratings --from``) that cannot be read: the message starts
    ``FILE:line:column:``."""


class SettingsError(UnusableInput):
    """Event settings the game or the format do not allow (unknown game, table size, option)."""


class PlayerInputError(UnusableInput):
    """A player list (command line or CSV file) that cannot be read."""


class SeedingError(UnusableInput):
    """A seeding of round 1 that cannot be read (``pair --seed``): an unknown choice, no player with
    the rating column, a rating that is not a number, or a seeding asked for after round 1."""


class Refused(TournamentError):
    """A readable request the tournament refuses; the database is left as it was."""

    exit_code = 1


class AlreadyEntered(Refused):
    """A name (a player's, a pair's, a team's) or a federation id the event already has, or that
    looks the same as one it has.  ``what``: ``player``, ``partnership``, ``team`` or ``id``;
    ``value``: the one entered, as checked (a name normalised), so that a players CSV's reader
    names the line that gave it (:func:`tournament.event.players.said_at_line`)."""

    def __init__(self, message: str, what: str, value: str) -> None:
        super().__init__(message)
        self.what, self.value = what, value


class ResultRefused(Refused):
    """A result that cannot be stored: invalid record, wrong table, a conflicting result."""

    def __init__(self, message: str, problems: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        #: domrec's problem lines, when the record failed validation.
        self.problems = problems


class LevelAtTop(ResultRefused):
    """A typed result that leaves two or more sides level at the top of a multi-player table: the
    game's own rules name the winner (who went out first, the youngest…), which scores cannot show,
    so the director must.  ``level``: those sides, in the table's order; ``score``: their score;
    ``table``: the table's number.  Its message is the command line's (``with --winner P1``); the
    venue's director page words it without the flag and offers the choice among ``level``."""

    def __init__(self, message: str, level: tuple[str, ...], score: int, table: int) -> None:
        super().__init__(message)
        self.level, self.score, self.table = level, score, table


class WinnerContradicts(ResultRefused):
    """A winner named for a typed result who scored less than another side (a swapped side is the
    likelier slip than a game won with fewer points).  ``winner``; ``ahead``: the sides with the
    highest score, ``best``; ``theirs``: the winner's score.  Its message is the command line's
    (``--winner``); the venue's director page words it without the flag."""

    def __init__(self, message: str, winner: str, ahead: tuple[str, ...], best: int, theirs: int) -> None:
        super().__init__(message)
        self.winner, self.ahead, self.best, self.theirs = winner, ahead, best, theirs


class ScoreSides(UnusableInput):
    """A typed score that does not give one score to each side of the table and nothing else (a
    side missing, or named otherwise, ``ns`` for ``NS``): the command is mistyped, exit 2, as a
    score that is not a number is."""


class NoSuchSide(UnusableInput):
    """A side named that the table does not have (``--forfeit XY``, ``--winner XY``): mistyped,
    exit 2, as a typed score naming such a side is (:class:`ScoreSides`)."""


class PairingError(Refused):
    """The next round cannot be paired (results missing, a hard constraint cannot be kept)."""


class UnknownPlayer(UnusableInput):
    """A name or number that is not a player of the event: input that cannot be used (exit 2),
    told with the closest names entered ("did you mean …"), so the director retypes one name."""


class AmbiguousPlayer(Refused):
    """A text that names one player and numbers another (a player named "#5"): which is meant?"""
