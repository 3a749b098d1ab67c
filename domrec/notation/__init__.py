"""DGN, the domino game notation: a reader that takes what people type, and one canonical writer.

A DGN text holds one or more games (a header of ``[Tag "value"]`` lines, then
``hand N`` sections); ``docs/notation.md`` is the full grammar.  Like
python-chess's PGN reader, the reader never dies on the first problem of an
archive: each game is read on its own, and a game that cannot be read is
reported with the line and column of the fault while the others are checked.

Reading is layered as for JSON: DGN text -> the record's JSON data -> the
same shape check -> :class:`~domrec.record.Record` -> the same replay.  Two
ways lead to the JSON data:

* **as written**, when every hand has its deal and every move its seat (the
  canonical form the writer produces): no engine is needed to read it;
* **through the Game API** (:mod:`domrec.game`), when moves leave out their
  seats or hands leave out their deal: the engine says whose turn it is,
  forced passes are inserted where the deal is known, and the deal is worked
  out from the moves and the ``left`` tiles.

A record read as written that breaks a rule is read again the second way, so
that a forced pass left out by a move written *with* its seat is inserted as
well (a JSON record must write it; DGN lets it be left out).

Every value read keeps its position, so each problem the validator finds
(a JSON Pointer) is also given as ``line:column`` in the text.

Where each job lives (each module imports the ones it needs directly, never
through this package):

* :mod:`~domrec.notation.tokens` -- the vocabulary (tile and move patterns,
  keywords), :class:`NotationError`, the tokenizer, comments, and an archive
  cut into games (:func:`split_games`, :func:`decode`);
* :mod:`~domrec.notation.positions` -- JSON Pointer -> ``line:column``, down to
  the field inside a move word;
* :mod:`~domrec.notation.header` -- the ``[Tag "value"]`` lines and their values;
* :mod:`~domrec.notation.parts` -- a hand's lines other than its moves (hand,
  deal parts, ``left``, ``end``);
* :mod:`~domrec.notation.moves` -- one move word as a move's JSON data;
* :mod:`~domrec.notation.reading` -- the reader of one game's text (``_Reader``),
  built from the three above, with the canonical form's fast path;
* :mod:`~domrec.notation.through_game` -- the JSON data as written, or through
  the Game API where seats, forced passes or the deal are left out;
* :mod:`~domrec.notation.readings` -- where the text leaves a choice (which tile
  a tile went on, a seat), the hand's readings tried on the engine (the tie
  rule, the limit); the tiles still checked after a broken rule;
* :mod:`~domrec.notation.loading` -- :func:`read_games` and :func:`loads`: each
  game read, loaded, validated, its problems placed;
* :mod:`~domrec.notation.seat_hints` -- where a seat was left out, a rule problem's
  likely slip named (a seat to write, the moves whose seats the turn gave);
* :mod:`~domrec.notation.writer` -- :func:`dumps`, the canonical writer;
* :mod:`~domrec.notation.typed` -- :func:`dumps_typed`, the short form people type;
* :mod:`~domrec.notation.pieces` -- a move word, a hand line, a header, read
  one at a time for the recorder.
"""

from domrec.notation.loading import DgnGame, loads, read_games, read_source
from domrec.notation.pieces import parse_hand_line, parse_header, parse_moves
from domrec.notation.through_game import deal_from_parts
from domrec.notation.tokens import DGN_VERSION, HAND_ENDS, Chunk, NotationError, decode, split_games
from domrec.notation.typed import dumps_typed
from domrec.notation.writer import WriteError, dumps

__all__ = [
    "DGN_VERSION", "HAND_ENDS", "Chunk", "DgnGame", "NotationError", "WriteError", "deal_from_parts", "decode",
    "dumps", "dumps_typed", "loads", "parse_hand_line", "parse_header", "parse_moves", "read_games", "read_source",
    "split_games",
]
