"""A backend that records each problem and option it is given, then solves with HiGHS: what a
caller hands its backend (which rows, which time limit) is checked on what the backend received."""

from boolrules.backends import Backend, get_backend


class Recording(Backend):
    """HiGHS behind a log of `(problem, options)` per solve; it takes a time limit, not a seed."""

    name = "recording"

    def __init__(self, time_limit=None):
        self.time_limit = time_limit
        self.calls = []

    def solve(self, problem, **options):
        self.calls.append((problem, options))
        return get_backend("highs", time_limit=options.get("time_limit", self.time_limit)).solve(problem)
