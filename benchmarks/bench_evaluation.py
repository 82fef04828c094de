"""Rule evaluation speed: bit-packed evaluation against a plain numpy reference, and the two
counting paths of `boolrules.rules.bitset` (unpack-and-sum vs bit-sliced counter) by data width.

Run: .venv/bin/python benchmarks/bench_evaluation.py
"""

import timeit

import numpy as np

from boolrules.rules import AtLeast, BitMatrix, Literal, Or


def reference(rule, X):
    """Plain vectorised numpy evaluation on a bool matrix, one column per literal."""
    cols = np.column_stack([X[:, lit.index] != lit.negated for lit in rule.subrules])
    if isinstance(rule, Or):
        return cols.any(axis=1)
    return cols.sum(axis=1) >= rule.k


def per_call(fn, seconds=0.3):
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    best = min(timer.repeat(5, max(1, int(number * seconds / 0.2))))
    return best / max(1, int(number * seconds / 0.2))


def main():
    rng = np.random.default_rng(0)
    print("| rows | literals | operator | reference µs | bitset µs | speed-up | unpack µs | sliced µs | sliced/unpack |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    for n in (569, 4096, 8192, 41188):
        X = rng.integers(0, 2, (n, 300), dtype=np.uint8)
        Xb = X.astype(bool)
        bits = BitMatrix(X)
        unpack_bits = BitMatrix(X, sliced_count_min_words=10**9)
        sliced_bits = BitMatrix(X, sliced_count_min_words=0)
        for d in (3, 6):
            lits = [Literal(int(j), bool(rng.integers(2))) for j in rng.choice(300, d, replace=False)]
            for rule in (Or(*lits), AtLeast(2, *lits)):
                ref = per_call(lambda: reference(rule, Xb))
                fast = per_call(lambda: bits.evaluate(rule))
                row = f"| {n} | {d} | {type(rule).__name__} | {ref * 1e6:.1f} | {fast * 1e6:.1f} | {ref / fast:.1f}x |"
                if isinstance(rule, AtLeast):
                    unpack = per_call(lambda: unpack_bits.evaluate(rule))
                    sliced = per_call(lambda: sliced_bits.evaluate(rule))
                    row += f" {unpack * 1e6:.1f} | {sliced * 1e6:.1f} | {sliced / unpack:.2f} |"
                else:
                    row += " | | |"
                print(row)


if __name__ == "__main__":
    main()
