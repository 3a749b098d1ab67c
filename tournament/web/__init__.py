"""The venue server (``tournament serve``): table pages on phones, the director's page, a public
page, and the JSON API they all use.

A thin layer over :mod:`tournament.event.venue` (the operations) and :mod:`tournament.pages`
(what people read): it never holds SQL or rules of its own.  ``app`` builds the ASGI
application and guards every request; ``openapi`` describes the API; ``templates/`` and
``static/`` are the pages, their script and their styles, served from the package so that
the hall needs no internet.
"""
