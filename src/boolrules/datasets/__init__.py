"""Load the paper's benchmark datasets (Table 3), or any labelled CSV file, as 0/1 matrices with
readable feature names.

Breast Cancer comes from scikit-learn; the other seven are gzipped files shipped in the package
(``boolrules/datasets/data``; their origins, licences and checksums are in ``SOURCES.md`` there).
``data_dir`` or the ``BOOLRULES_DATA`` environment variable names another folder to read them from.
``load_csv`` reads a CSV file with a header row and a label column. Rows with missing values are
dropped before binarizing, as in the paper (Section 6.2), or kept with ``missing="indicator"``, which
gives each column with missing values a ``name is missing`` feature (``QuantileBinarizer``'s option).
Constant and duplicate features are left out unless ``paper_layout=True`` (the paper's layout: 300
features on Breast Cancer, as its Table 2 counts them).
"""

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer

from boolrules.data import QuantileBinarizer
from boolrules.validation import check_path

from ..exceptions import InputError, MissingFileError

DATASETS = (
    "breast_cancer",
    "credit_risk",
    "customer_churn",
    "parkinsons",
    "home_equity",
    "online_shoppers",
    "direct_marketing",
    "credit_card_default",
)

# The seven files of SOURCES.md, as installed with the package (a real folder: the package is not zipped).
BUNDLED = Path(str(resources.files(__name__) / "data"))

_GERMAN_COLUMNS = [
    "checking_status", "duration", "credit_history", "purpose", "credit_amount",
    "savings_status", "employment", "installment_commitment", "personal_status",
    "other_parties", "residence_since", "property_magnitude", "age", "other_payment_plans",
    "housing", "existing_credits", "job", "num_dependents", "own_telephone", "foreign_worker",
]


@dataclass(frozen=True, eq=False)  # eq=False: comparing array fields with == is ambiguous
class Dataset:
    """A dataset: 0/1 features ``X``, labels ``y`` (1 = positive) and the raw columns of the rows kept.

    ``dropped_rows`` rows with missing values were left out; ``positive`` is the label value read as
    the positive class (``load_csv``; None for the named datasets, whose classes are fixed);
    ``binarizer`` is the fitted ``QuantileBinarizer`` that made ``X`` from ``raw`` (clone it to
    binarize a split the same way).
    """

    X: np.ndarray
    y: np.ndarray
    feature_names: list[str]
    raw: pd.DataFrame
    name: str
    positive: object = None
    dropped_rows: int = 0
    binarizer: object = None

    def __repr__(self) -> str:
        dropped = f", {self.dropped_rows} incomplete rows dropped" if self.dropped_rows else ""
        return (f"Dataset({self.name!r}: {len(self.y)} rows, {self.raw.shape[1]} columns -> "
                f"{self.X.shape[1]} binary features, {self.y.mean():.1%} positive{dropped})")


def load_dataset(name, data_dir=None, num_bins=10, *, paper_layout=False, missing="drop"):
    """Load dataset ``name`` (one of ``DATASETS``), drop incomplete rows (``missing="drop"``) or mark
    missing values (``"indicator"``), and binarize it."""
    _check_missing(missing)
    if name not in DATASETS:
        raise InputError(f"unknown dataset name {name!r}; known names: {', '.join(DATASETS)}")
    if name == "breast_cancer":
        bunch = load_breast_cancer(as_frame=True)
        frame, positive = bunch.data, bunch.target == 0  # sklearn codes malignant as 0
    else:
        filename, read = _READERS[name]
        path = _find_file(filename, data_dir)
        try:
            frame, positive = read(path)
        except (OSError, EOFError, ValueError, KeyError, pd.errors.ParserError) as err:  # gzip, CSV, columns
            raise InputError(f"dataset file {path} is not a valid {name} file: {type(err).__name__}: {err}") from err
    complete = _kept_rows(frame, missing)
    if not complete.any():
        raise InputError(f"dataset {name!r} has no complete rows" + ("" if name == "breast_cancer" else f" in {path}"))
    binarizer = QuantileBinarizer(num_bins=num_bins, paper_layout=paper_layout, missing=_binarizer_missing(missing))
    return _binarized(frame[complete], np.asarray(positive)[complete], name, binarizer, dropped=(~complete).sum())


def load_csv(path, label, positive=None, num_bins=10, *, positive_name="positive", paper_layout=False,
             missing="drop"):
    """Load a CSV file with a header row: drop incomplete rows, label rows ``label == positive`` 1 and
    binarize the other columns (``missing`` and ``paper_layout`` as for ``load_dataset``; rows with no label
    are dropped either way).

    ``positive`` defaults to the second of the label's two values in sorted order (more values need
    it); it names a value by its text too, or as a number (``"1"`` names 1.0). Errors name the
    argument as ``positive_name`` (a caller's own name for it, such as a command-line option).
    """
    _check_missing(missing)
    path = check_path(path, "path")
    if not path.is_file():
        raise MissingFileError(f"CSV file {path} " + ("is a folder" if path.is_dir() else "does not exist"))
    try:
        frame = pd.read_csv(path)
    except (OSError, EOFError, ValueError) as err:  # unreadable, corrupt gzip, not CSV
        raise InputError(f"cannot read CSV file {path}: {str(err).strip()}") from err
    if label not in frame.columns:
        raise InputError(f"column {label!r} is not in {path}; its columns: {', '.join(map(str, frame.columns))}")
    if frame.shape[1] < 2:
        raise InputError(f"{path} has no feature columns besides the label {label!r}")
    complete = _kept_rows(frame, missing) & frame[label].notna().to_numpy()
    frame = frame[complete]
    values = _sorted_values(frame[label])
    if len(values) < 2:
        raise InputError(f"column {label!r} of {path} holds {len(values)} distinct value(s) in complete rows; "
                         "a classifier needs two classes")
    if positive is None:
        if len(values) != 2:
            raise InputError(f"column {label!r} has {len(values)} distinct values, not 2: pass {positive_name} VALUE "
                             f"to name the positive class (values: {_some(values)})")
        chosen = values[1]
    else:
        matches = [value for value in values if _names(positive, value)]
        if not matches:
            raise InputError(f"{positive_name} {positive!r} is not a value of column {label!r} "
                             f"(values: {_some(values)})")
        chosen = matches[0]
    binarizer = QuantileBinarizer(num_bins=num_bins, paper_layout=paper_layout, missing=_binarizer_missing(missing))
    return _binarized(frame.drop(columns=label), frame[label] == chosen, str(path), binarizer, chosen,
                      (~complete).sum())


def _check_missing(missing):
    if missing not in ("drop", "indicator"):
        raise InputError(f"missing must be 'drop' or 'indicator', got {missing!r}")


def _kept_rows(frame, missing) -> np.ndarray:
    """The rows kept: the complete ones when ``missing == "drop"``, else all."""
    if missing == "drop":
        return frame.notna().all(axis=1).to_numpy()
    return np.ones(len(frame), dtype=bool)


def _binarizer_missing(missing) -> str:
    return "indicator" if missing == "indicator" else "error"


def _binarized(frame, positive, name, binarizer, chosen=None, dropped=0) -> Dataset:
    """The `Dataset` of the rows `frame` with labels `positive` (a boolean mask), binarized by `binarizer`."""
    raw = frame.reset_index(drop=True)
    X = binarizer.fit_transform(raw)
    y = np.asarray(positive).astype(np.uint8)
    return Dataset(X, y, binarizer.get_feature_names_out().tolist(), raw, name, chosen, int(dropped), binarizer)


def _sorted_values(column: pd.Series) -> list:
    values = column.unique().tolist()
    try:
        return sorted(values)
    except TypeError:  # mixed types: order by text
        return sorted(values, key=str)


def _names(positive, value) -> bool:
    """Does `positive` name the label value `value`? By its text, or as a number for numeric values (1 == 1.0)."""
    if str(value) == str(positive):
        return True
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return float(positive) == value
        except (TypeError, ValueError):
            return False
    return False


def _some(values: list, limit: int = 10) -> str:
    shown = ", ".join(map(str, values[:limit]))
    return shown + (f", ... ({len(values)} in all)" if len(values) > limit else "")


def _find_file(filename, data_dir):
    """Return the path of ``filename`` in the data folder (``_data_dir``)."""
    path = _data_dir(data_dir) / filename
    if not path.is_file():
        raise MissingFileError(
            f"dataset file {filename!r} not found; looked in: {path}. "
            "Pass data_dir=... or set the BOOLRULES_DATA environment variable to its folder."
        )
    return path


def _data_dir(data_dir):
    """Where to look: ``data_dir``, else ``$BOOLRULES_DATA``, else the files shipped in the package."""
    if data_dir is not None:
        return check_path(data_dir, "data_dir")
    if os.environ.get("BOOLRULES_DATA"):
        return Path(os.environ["BOOLRULES_DATA"])
    return BUNDLED


def _credit_risk(path):
    """Statlog German credit: space separated, no header; class 2 (bad risk) is positive."""
    frame = pd.read_csv(path, sep=" ", header=None, names=[*_GERMAN_COLUMNS, "class"])
    return frame[_GERMAN_COLUMNS], frame["class"] == 2


def _customer_churn(path):
    """Telco churn without ``customerID``; a blank ``TotalCharges`` (11 rows) counts as missing."""
    frame = pd.read_csv(path, na_values=[" "])
    return frame.drop(columns=["customerID", "Churn"]), frame["Churn"] == "Yes"


def _parkinsons(path):
    """Parkinson's voice measurements without the recording ``name``; ``status`` 1 is positive."""
    frame = pd.read_csv(path)
    return frame.drop(columns=["name", "status"]), frame["status"] == 1


def _home_equity(path):
    """HMEQ loans; ``BAD`` 1 (default) is positive; 3364 of 5960 rows are complete."""
    frame = pd.read_csv(path)
    return frame.drop(columns="BAD"), frame["BAD"] == 1


def _online_shoppers(path):
    """Online shoppers' sessions; ``Revenue`` TRUE is positive."""
    frame = pd.read_csv(path)
    return frame.drop(columns="Revenue"), frame["Revenue"].astype(str).str.upper() == "TRUE"


def _direct_marketing(path):
    """Bank marketing (full "additional" version); ``y`` yes is positive.

    All 20 inputs are kept, as in the paper, although ``duration`` (call length) leaks the label:
    it is only known after the call, so UCI advises dropping it for realistic prediction.
    """
    frame = pd.read_csv(path, sep=";")
    return frame.drop(columns="y"), frame["y"] == "yes"


def _credit_card_default(path):
    """Taiwan credit card clients without ``ID``; next month's default (1) is positive."""
    frame = pd.read_csv(path)
    label = "default.payment.next.month"
    return frame.drop(columns=["ID", label]), frame[label] == 1


_READERS = {
    "credit_risk": ("german.data.gz", _credit_risk),
    "customer_churn": ("WA_Fn-UseC_-Telco-Customer-Churn.csv.gz", _customer_churn),
    "parkinsons": ("parkinsons.data.gz", _parkinsons),
    "home_equity": ("hmeq.csv.gz", _home_equity),
    "online_shoppers": ("online_shoppers_intention.csv.gz", _online_shoppers),
    "direct_marketing": ("bank-additional-full.csv.gz", _direct_marketing),
    "credit_card_default": ("UCI_Credit_Card.csv.gz", _credit_card_default),
}
