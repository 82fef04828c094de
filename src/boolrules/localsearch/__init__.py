"""The native local rule learner: random rules, local moves, simulated annealing, a scikit-learn classifier."""

from .annealing import RuleScorer, StartResult, Trajectory, anneal
from .classifier import RuleClassifier
from .moves import LocalMoves, SearchSpace, random_rule

__all__ = [
    "LocalMoves",
    "RuleClassifier",
    "RuleScorer",
    "SearchSpace",
    "StartResult",
    "Trajectory",
    "anneal",
    "random_rule",
]
