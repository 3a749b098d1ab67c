"""domrec: domino game records, checked by replaying them through the rules.

The public API, for programs that want what the ``domrec`` command does::

    import domrec
    record = domrec.load("game.json")           # parse + shape check
    report = domrec.validate(record)            # replay through the rules
    print(report.valid, report.scores, report.problems)

See README.md for a tour of the modules.
"""

try:  # (the library, a tenth of a second: the ``domrec`` command's entry point is imported after it)
    from domrec.errors import (DealError, DomrecError, IllegalMove, InputError, NotJSONError, RuleViolation,
                               SetupError, ShapeError, UnknownGameError, UnsupportedVersionError)
    from domrec.reader import load, load_dict, loads
    from domrec.record import Record, unstructure
    from domrec.validate import Problem, Report, validate, validate_text
except KeyboardInterrupt:
    import os as _os
    import sys as _sys

    # Ctrl-C as the ``domrec`` command starts (its script imports this package before the guard of
    # domrec.entry): the entry's one line, not a traceback.  A program importing domrec gets the
    # KeyboardInterrupt as ever.
    if _os.path.basename(getattr(_sys.modules.get("__main__"), "__file__", None) or "") == "domrec":
        _sys.stderr.write("error: interrupted before the command began; nothing was read or written\n")
        raise SystemExit(2) from None
    raise

__version__ = "0.1.0"

__all__ = [
    "DealError", "DomrecError", "IllegalMove", "InputError", "NotJSONError", "Problem", "Record", "Report",
    "RuleViolation", "SetupError", "ShapeError", "UnknownGameError", "UnsupportedVersionError", "load",
    "load_dict", "loads", "unstructure", "validate", "validate_text",
]
