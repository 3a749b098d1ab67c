"""The ``tournament`` command: a thin layer over the library's operations (:mod:`tournament.event`).

Exit codes: 0 done; 1 refused (an invalid record, a record of no table of the
round, a second result for a table without --replace, a round that cannot be
paired, ``check`` found errors); 2 unusable input or usage (missing file, not
an event file, damaged database, unknown game, bad option).  Nothing is ever
half written: every write is one transaction.

One module a subject: ``app`` (the application and what every command shares), ``event`` (the
event and its players), ``rounds`` (pairing, tables, results, amendments, recording a table),
``stages`` (standings, knockouts, round robins, finals, brackets), ``pages`` (score sheets, the
report, exports), ``checks`` (check, history), ``ratings``, ``venue`` (serve, links, keys, pins, correct),
``desk`` (changing a paired round: unpair, swap, move, pin, apart), ``roster`` (fixing the player
list: rename, remove, sit-out, return, player-id), ``teams`` (a team event's teams), ``duplicate`` (a duplicate event's boards, tables, results and standings).  A command parses its arguments, calls
the operations and prints what they return; what a venue server would need too belongs in
:mod:`tournament.event`, not here.  The commands are registered below, in the order ``--help``
lists them.
"""

from tournament.cli import checks, desk, duplicate, event, hub, pages, ratings, roster, rounds, stages, teams, venue
from tournament.cli.app import PairedBest, app, main

for _command in (event.new, event.add, event.players, event.withdraw, rounds.pair, rounds.balance, rounds.tables,
                 rounds.result, pages.sheets, rounds.record, stages.standings, teams.team, duplicate.boards):
    app.command()(_command)
for _command in (desk.unpair, desk.swap, desk.move, desk.pin, desk.apart, roster.rename, roster.remove,
                 desk.accept):
    app.command()(_command)
app.command(name="sit-out")(roster.sit_out)
app.command(name="return")(roster.return_)
app.command(name="player-id")(roster.player_id)
app.command(name="check")(checks.check_cmd)
for _command in (pages.report, pages.export):  # --best pairs with the --by next to it
    app.command(cls=PairedBest)(_command)
for _command in (event.info, event.simulate, stages.knockout, stages.roundrobin, stages.final, stages.bracket,
                 ratings.ratings, rounds.amend, rounds.clear, checks.history, venue.serve,
                 venue.links, venue.keys, venue.pins, venue.correct, hub.hub, hub.archive, hub.stream):
    app.command()(_command)

__all__ = ["app", "main"]
