"""boolrules: expressive Boolean rules as interpretable classifiers.

Rules (`boolrules.rules`) are learned by a native simulated-annealing search
(`boolrules.localsearch`) or, one depth-one problem at a time, by formulations stated in Pyomo
(`boolrules.formulations`) and solved by backends (`boolrules.backends`), on binarized data
(`boolrules.data`, `boolrules.datasets`).

The names below are imported when first used, so `import boolrules` is quick and the command line
can report a Ctrl-C while it loads (`boolrules.command`).
"""

import importlib

__version__ = "0.1.0"

# Each public name and the module that defines it.
_MODULES = {
    "QuantileBinarizer": "data",
    "Dataset": "datasets", "load_csv": "datasets", "load_dataset": "datasets",
    "DepthOneClassifier": "depth_one_classifier",
    **{name: "exceptions" for name in ("Error", "InputError", "InputTypeError", "FormatError", "ConfigError",
                                       "MissingFileError", "SolverError")},
    "load_problem": "formats",
    "RuleClassifier": "localsearch",
    "RuleClassifierCV": "model_selection",
    **{name: "rules" for name in ("And", "AtLeast", "AtMost", "Choose", "Literal", "One", "Operator", "Or", "Rule",
                                  "Zero", "from_dict", "from_json", "parse")},
}

__all__ = sorted(_MODULES, key=str.lower)


def __getattr__(name: str):
    if name not in _MODULES:  # a subpackage, as `boolrules.rules` after `import boolrules`
        try:
            return importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as err:
            if err.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module 'boolrules' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f".{_MODULES[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_MODULES})
