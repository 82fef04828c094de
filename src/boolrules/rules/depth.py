"""How deep rules are walked: by recursion up to `SHALLOW_DEPTH` (the fast path, a few Python frames
per level), deeper ones with an explicit stack, so every operation works at any depth a rule can be
built to; listing nodes with their paths stops at `MAX_WALK_DEPTH`."""

__all__ = ["SHALLOW_DEPTH", "MAX_WALK_DEPTH"]

SHALLOW_DEPTH = 100
# `walk` lists every node with its path from the root: for a rule of depth d that is about d**2 / 2
# positions (5 * 10**9 at depth 10**5), so walk, describe, explain and graphs refuse deeper rules.
MAX_WALK_DEPTH = 2000
