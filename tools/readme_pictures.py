"""Make the pictures shown in the README and docs/pictures.md, with domrec's own command.

    python tools/readme_pictures.py

Each picture is ``domrec explain SAMPLE --hand K --move M --svg docs/pictures/GAME.svg``;
tests/pictures/test_readme_pictures.py fails when a committed picture is no
longer what the command draws, and says to run this again.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: game -> (sample under samples/valid, hand, move): a position that shows what the game's picture draws.
PICTURES = {
    "competitive": ("competitive/game-to-200.json", 2, 16),
    "horse-race": ("horse-race/spinner-four-arms.json", 1, None),
    "castle-rock": ("castle-rock/strategy-example.json", 1, 13),
    "domino-roads": ("domino-roads/figure-4-bridge-total-10.json", 1, 14),
    "broadway": ("broadway/exposed-tiles.json", 1, 17),
}


def command(game: str, out: str) -> list[str]:
    sample, hand, move = PICTURES[game]
    args = [sys.executable, "-m", "domrec.cli", "explain", str(ROOT / "samples" / "valid" / sample),
            "--hand", str(hand), "--svg", out]
    return args + (["--move", str(move)] if move is not None else [])


def main() -> None:
    for game in PICTURES:
        target = ROOT / "docs" / "pictures" / f"{game}.svg"
        subprocess.run(command(game, str(target)), check=True, stdout=subprocess.DEVNULL)
        print(f"wrote {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
