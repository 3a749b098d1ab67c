"""domrec: domino game records, checked by replaying them through the rules.

The public API, for programs that want what the ``domrec`` command does::

    import domrec
    record = domrec.load("game.json")           # parse + shape check
    report = domrec.validate(record)            # replay through the rules
    print(report.valid, report.scores, report.problems)

See README.md for a tour of the modules.
"""

from domrec.errors import (DealError, DomrecError, IllegalMove, InputError, NotJSONError, RuleViolation,
                           SetupError, ShapeError, UnknownGameError, UnsupportedVersionError)
from domrec.reader import load, load_dict, loads
from domrec.record import Record, unstructure
from domrec.validate import Problem, Report, validate, validate_text

__version__ = "0.1.0"

__all__ = [
    "DealError", "DomrecError", "IllegalMove", "InputError", "NotJSONError", "Problem", "Record", "Report",
    "RuleViolation", "SetupError", "ShapeError", "UnknownGameError", "UnsupportedVersionError", "load",
    "load_dict", "loads", "unstructure", "validate", "validate_text",
]
