"""What non-local moves pay in one fit, and the oracle time share they earn (`nonlocal_time_share="auto"`).

Under a time budget an oracle call's seconds are seconds the local search does not get. `Payoff`
counts, from when a start's oracle may first be called, how much each kind of move raised the
start's best objective (to the oracle: its move's raise, and the local climb from that move until
the next call, which it made possible) and the seconds spent on each, summed over the starts on
one process. The share it earns is today's fixed one while calls raise the best per second at
least as fast as local iterations, and shrinks toward 0 by the ratio of those rates where they do not.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

__all__ = ["AUTO_SHARE", "PRIOR_CALLS", "Payoff"]

# nonlocal_time_share="auto": the share while calls pay (the fixed default's value, where moves won per
# second: benchmarks/README.md, "Oracle time that pays").
AUTO_SHARE = 0.25
# Before evidence, the oracle is taken to pay as well as local moves over this many mean calls, so one
# fruitless call does not stop the oracle, and the share follows the rates as calls add up.
PRIOR_CALLS = 5


@dataclass
class Payoff:
    """Best-objective gains and seconds of oracle calls and of local iterations since the oracle's
    phase began, over the starts on one process (`add` each start's, thread-safe)."""

    oracle_gain: float = 0.0
    oracle_seconds: float = 0.0
    local_gain: float = 0.0
    local_seconds: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def credit(self, oracle: bool, gain: float) -> None:
        """Count `gain`, a raise of the best objective, to an oracle move or a local one."""
        if oracle:
            self.oracle_gain += gain
        else:
            self.local_gain += gain

    def add(self, other: Payoff) -> None:
        """Count `other`'s gains and seconds too (a start that ended)."""
        with self.lock:
            self.oracle_gain += other.oracle_gain
            self.oracle_seconds += other.oracle_seconds
            self.local_gain += other.local_gain
            self.local_seconds += other.local_seconds

    def share(self, mean_call: float, current: Payoff | None = None, base: float = AUTO_SHARE) -> float:
        """The oracle's time share earned so far (with the running start's `current` counts): `base`
        while calls raise the best per second at least as fast as local iterations, or local ones
        raised nothing; else `base` times the ratio of the rates, the oracle's taken as paying like
        local moves over `PRIOR_CALLS` calls of `mean_call` seconds before its own."""
        gain, seconds = self.local_gain, self.local_seconds
        oracle_gain, oracle_seconds = self.oracle_gain, self.oracle_seconds
        if current is not None:
            gain, seconds = gain + current.local_gain, seconds + current.local_seconds
            oracle_gain, oracle_seconds = oracle_gain + current.oracle_gain, oracle_seconds + current.oracle_seconds
        if gain <= 0 or seconds <= 0:
            return base
        local_rate = gain / seconds
        prior = PRIOR_CALLS * mean_call
        if prior + oracle_seconds <= 0:
            return base
        oracle_rate = (oracle_gain + local_rate * prior) / (oracle_seconds + prior)
        return base * min(1.0, oracle_rate / local_rate)
