"""boolrules: expressive Boolean rules as interpretable classifiers.

Rules (`boolrules.rules`) are learned by a native simulated-annealing search
(`boolrules.localsearch`) or, one depth-one problem at a time, by formulations stated in Pyomo
(`boolrules.formulations`) and solved by backends (`boolrules.backends`), on binarized data
(`boolrules.data`, `boolrules.datasets`).
"""

from .data import QuantileBinarizer
from .datasets import Dataset, load_csv, load_dataset
from .depth_one_classifier import DepthOneClassifier
from .formats import load_problem
from .localsearch import RuleClassifier
from .model_selection import RuleClassifierCV
from .rules import (
    And,
    AtLeast,
    AtMost,
    Choose,
    Literal,
    One,
    Operator,
    Or,
    Rule,
    Zero,
    from_dict,
    from_json,
    parse,
)

__version__ = "0.1.0"

__all__ = [
    "And",
    "AtLeast",
    "AtMost",
    "Choose",
    "Dataset",
    "DepthOneClassifier",
    "Literal",
    "One",
    "Operator",
    "Or",
    "QuantileBinarizer",
    "Rule",
    "RuleClassifier",
    "RuleClassifierCV",
    "Zero",
    "from_dict",
    "from_json",
    "load_csv",
    "load_dataset",
    "load_problem",
    "parse",
]
