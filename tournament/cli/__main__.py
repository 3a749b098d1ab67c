"""``python -m tournament.cli``: the ``tournament`` command."""

from tournament.cli import main

main()
