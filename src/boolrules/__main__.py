"""`python -m boolrules`: the command line."""

import sys

from .command import main

sys.exit(main())
