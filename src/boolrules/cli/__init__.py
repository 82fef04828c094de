"""The `boolrules` command line: learn rules, and solve, inspect or export depth-one problems
(inspect depth-two ones too), and decode samples of an export solved elsewhere.

`parser.py` builds the command line without loading the library, `main.py` runs it, one module
per command does the work (`fit.py`, `explain.py`, `solve.py`, `inspect.py`, `export.py`,
`decode.py`, `datasets.py`) and `report.py` prints what they found.

Exit status: 0 success, 1 a solver or backend failed at run time, 2 bad usage or bad input,
130 interrupted. Errors are one line on stderr, `boolrules: error: ...`, without a traceback.
"""

from .choices import EXPORT_FORMATS
from .main import main
from .parser import build_parser

__all__ = ["EXPORT_FORMATS", "build_parser", "main"]
