"""What people read: the pages of an event, printed, posted or projected.

``terminal`` (tables at the terminal, readable at 80 columns), ``display`` (the standings as
people read them: headers, W-D-L, the ranking columns first), ``report`` (the HTML page, the
projector page, the JSON and CSV exports, the replay pages beside the report), ``sheets`` (each
table's pre-filled .dgn file and printable score sheets).  Pages read an event through the
operations of :mod:`tournament.event`, never through SQL of their own.
"""
