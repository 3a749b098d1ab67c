"""Pure algorithms over an event's values: no database, no store.

``swiss`` (pairing a round by the standings: pairs Swiss, rotating partners, individual
tables, byes), ``plan`` (a paired round, and what earlier rounds constrain), ``schedule``
(balanced schedules for rotating partners, fixed in advance), ``roundrobin`` (circle method,
groups), ``brackets`` (single and double elimination, multi-player knockout), ``standings``
(the ranking and its tie-breaks), ``constraints`` (the director's pins, keep-apart and
sit-outs a pairing honours).  Each takes settings, players, tables and results as values
(:mod:`tournament.settings`, :mod:`tournament.values`) and returns values; the event layer
(:mod:`tournament.event`) reads them from the store and writes what they decide.
"""
