"""DGN, the domino game notation (being split into one module per job; see reading.py for now)."""

from domrec.notation.reading import (  # noqa: F401
    DGN_VERSION, HAND_ENDS, Chunk, DgnGame, NotationError, WriteError, _as_written, _complete, _full_tokens,
    _move_text, _near, _needs_game, _Reader, _Text, _tile_text, _unescape_comment, deal_from_parts, decode, dumps,
    dumps_typed, loads, parse_hand_line, parse_header, parse_moves, read_games, split_games,
)
