"""Hypothesis strategies shared by the tests: random rules and binary matrices."""

from hypothesis import strategies as st

from boolrules.rules import OPERATORS, Literal

NUM_FEATURES = 6


def literals(num_features: int = NUM_FEATURES):
    return st.builds(Literal, st.integers(0, num_features - 1), st.booleans())


@st.composite
def operators(draw, children):
    cls = draw(st.sampled_from(list(OPERATORS.values())))
    subrules = draw(st.lists(children, min_size=1, max_size=5))
    negated = draw(st.booleans())
    if cls.parameterized:
        return cls(draw(st.integers(0, len(subrules))), *subrules, negated=negated)
    return cls(*subrules, negated=negated)


def rules(num_features: int = NUM_FEATURES):
    return st.recursive(literals(num_features), lambda children: operators(children), max_leaves=12)
