"""Baselines of the paper's benchmarks (Section 6.2): the best single literal, and tree complexity.

The other two baselines are scikit-learn's own and are not re-implemented here: "most frequent" is
``sklearn.dummy.DummyClassifier(strategy="most_frequent")`` and the decision tree is
``sklearn.tree.DecisionTreeClassifier(class_weight="balanced")`` with a varying ``max_depth``;
``decision_tree_complexity`` measures the latter as the paper does (Section 3.4).
"""

import numpy as np

from .estimator import RuleEstimator
from .exceptions import InputTypeError
from .metrics import get_metric
from .rules import Literal

__all__ = ["SingleLiteralClassifier", "decision_tree_complexity"]


class SingleLiteralClassifier(RuleEstimator):
    """Predict with the single feature or negated feature that scores best on the training data.

    Parameters
    ----------
    metric : name of a `boolrules.metrics` metric to maximise. Ties go to the lowest
        feature index, un-negated first.
    binarizer : "auto", None or a transformer, as for `RuleClassifier`.

    Attributes
    ----------
    best_rule_ : the chosen `Literal`; where it is true the prediction is `classes_[1]`.
    best_score_ : its training score. Also `rule_` (the same literal), `classes_`,
    `feature_names_`, `rule_text_`, `rule_description_`.
    """

    def __init__(self, metric="balanced_accuracy", binarizer="auto"):
        self.metric = metric
        self.binarizer = binarizer

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True  # one literal per class cannot fit sklearn's 3-blob test
        return tags

    def _fit_binary(self, X, y, rng):
        """Score every literal with one matrix product and keep the best."""
        positives = int(np.count_nonzero(y))
        negatives = len(y) - positives
        fp, tp = np.stack([y == 0, y == 1]).astype(np.float64) @ X  # per feature, where it is true
        tp = np.stack([tp, positives - tp], axis=1)  # column 0 the feature, column 1 its negation
        fp = np.stack([fp, negatives - fp], axis=1)
        scores = get_metric(self.metric)(tp, fp, positives - tp, negatives - fp)
        best = int(np.argmax(scores))
        self.best_rule_ = Literal(best // 2, bool(best % 2))
        self.best_score_ = float(scores.flat[best])


def decision_tree_complexity(tree):
    """Number of split nodes of a fitted sklearn decision tree: its complexity (Section 3.4)."""
    if not hasattr(tree, "get_n_leaves"):
        raise InputTypeError(f"tree must be a scikit-learn decision tree, got {type(tree).__name__}")
    leaves = tree.get_n_leaves()  # raises NotFittedError on an unfitted tree
    return int(tree.tree_.node_count - leaves)
