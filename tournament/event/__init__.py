"""What a director does to an event: each operation one transaction over the store.

``files`` (create and open an event file, with what people browse kept up to date),
``players`` (entries, late entries, withdrawals), ``rounds`` (pair and store the next round),
``results`` (records checked by domrec, manual scores, forfeits, amendments), ``audit`` (the
trail of replaced results), ``stages`` (knockouts and round robins, advanced by results),
``finals`` (a rotating event's final), ``standings`` (the standings of an event, and the
snapshot people browse), ``check`` (recompute and compare everything), ``ratings`` (openskill
across events), ``simulate`` (whole events played with simulated games), ``venue`` (tables
recording on phones), ``changes`` (the log of every change people can see, written by the
operations above in their own transactions), ``progress`` (how far the event is), ``feed`` (the
public JSON feed and the export's data), ``desk`` (changing a paired round: unpair, swap, move,
pins, keep-apart), ``roster`` (fixing the player list: rename, remove, sit out, return, ids).

The pure algorithms are in :mod:`tournament.pairing`, the SQL in :mod:`tournament.store`; a
front end (the ``tournament`` command, a venue server) calls these operations and prints or
serves what they return.
"""
