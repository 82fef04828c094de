"""Tests of boolrules.datasets: counts of SOURCES.md, readable names, where files are looked for, CSV files."""

import dataclasses
import gzip
import hashlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from boolrules import QuantileBinarizer, datasets
from boolrules.datasets import DATASETS, Dataset, load_csv, load_dataset

# name -> (rows after row handling, positives, raw feature columns), from SOURCES.md and the paper.
EXPECTED = {
    "breast_cancer": (569, 212, 30),
    "credit_risk": (1000, 300, 20),
    "customer_churn": (7032, 1869, 19),
    "parkinsons": (195, 147, 22),
    "home_equity": (3364, 300, 12),
    "online_shoppers": (12330, 1908, 17),
    "direct_marketing": (41188, 4640, 20),
    "credit_card_default": (30000, 6636, 23),
}


def test_every_dataset_has_expected_counts():
    assert set(EXPECTED) == set(DATASETS)


@pytest.mark.parametrize("name", DATASETS)
def test_load(name):
    rows, positives, columns = EXPECTED[name]
    data = load_dataset(name)
    assert isinstance(data, Dataset) and data.name == name
    assert data.X.dtype == np.uint8 and data.y.dtype == np.uint8
    assert data.X.shape == (rows, len(data.feature_names))
    assert set(np.unique(data.X)) <= {0, 1} and set(np.unique(data.y)) == {0, 1}
    assert int(data.y.sum()) == positives
    assert data.raw.shape == (rows, columns)
    assert not data.raw.isna().any().any()
    assert len(set(data.feature_names)) == len(data.feature_names)
    columns = tuple(str(c) for c in data.raw.columns)
    assert all(f.startswith(columns) for f in data.feature_names)
    # no constant feature, none equal to another or to another's negation
    assert data.X.any(axis=0).all() and not data.X.all(axis=0).any()
    canonical = data.X ^ data.X[:1]  # a column and its negation become equal
    assert len({column.tobytes() for column in np.packbits(canonical, axis=0).T}) == data.X.shape[1]
    paper = load_dataset(name, paper_layout=True)
    assert paper.X.shape[1] > data.X.shape[1] and set(data.feature_names) < set(paper.feature_names)
    np.testing.assert_array_equal(data.X, paper.X[:, [paper.feature_names.index(f) for f in data.feature_names]])


def test_breast_cancer_matches_paper():
    data = load_dataset("breast_cancer", paper_layout=True)
    assert data.X.shape == (569, 300)
    assert int(data.y.sum()) == 212  # malignant is positive
    assert "worst area >= 686.5" in data.feature_names


def test_readable_names():
    churn = load_dataset("customer_churn")
    assert "Contract == Month-to-month" in churn.feature_names
    assert "SeniorCitizen" in churn.feature_names and "gender == Male" in churn.feature_names
    assert "customerID" not in churn.raw.columns
    credit = load_dataset("credit_risk")
    assert list(credit.raw.columns[:3]) == ["checking_status", "duration", "credit_history"]
    assert "checking_status == A11" in credit.feature_names
    assert "name" not in load_dataset("parkinsons").raw.columns


def test_num_bins_is_passed_on():
    assert load_dataset("parkinsons", num_bins=4).X.shape[1] <= 22 * 4


def test_incomplete_rows_are_counted():
    assert load_dataset("home_equity").dropped_rows == 5960 - 3364
    assert load_dataset("breast_cancer").dropped_rows == 0


def test_missing_values_as_indicators_keep_every_row():
    data = load_dataset("home_equity", missing="indicator")
    assert data.dropped_rows == 0 and data.X.shape[0] == 5960 and data.raw.isna().any().any()
    for column in ("DEBTINC", "JOB"):
        feature = data.X[:, data.feature_names.index(f"{column} is missing")]
        np.testing.assert_array_equal(feature, data.raw[column].isna().to_numpy())
    assert data.binarizer.missing == "indicator"
    with pytest.raises(ValueError, match="missing must be 'drop' or 'indicator'"):
        load_dataset("home_equity", missing="impute")


def test_repr_is_one_short_line():
    text = repr(load_dataset("home_equity"))
    assert text == ("Dataset('home_equity': 3364 rows, 12 columns -> 83 binary features, 8.9% positive, "
                    "2596 incomplete rows dropped)")


def test_dataset_is_frozen():
    data = load_dataset("parkinsons")
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.name = "other"


def test_unknown_name_lists_known_names():
    known = "breast_cancer, credit_risk, .*, credit_card_default"
    with pytest.raises(ValueError, match=f"unknown dataset name 'iris'; known names: {known}"):
        load_dataset("iris")


def test_explicit_data_dir(tmp_path):
    found = datasets._find_file("german.data.gz", None)
    assert load_dataset("credit_risk", data_dir=found.parent).X.shape[0] == 1000
    assert load_dataset("credit_risk", data_dir=str(found.parent)).X.shape[0] == 1000
    with pytest.raises(FileNotFoundError, match="BOOLRULES_DATA") as error:
        load_dataset("credit_risk", data_dir=tmp_path)
    assert str(tmp_path / "german.data.gz") in str(error.value)


def test_environment_variable(tmp_path, monkeypatch):
    monkeypatch.setenv("BOOLRULES_DATA", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="BOOLRULES_DATA") as error:
        load_dataset("parkinsons")
    assert str(tmp_path / "parkinsons.data.gz") in str(error.value)


def test_default_place_is_the_package(tmp_path, monkeypatch):
    """Without data_dir or $BOOLRULES_DATA the files come from the package, wherever the work is."""
    monkeypatch.delenv("BOOLRULES_DATA", raising=False)
    monkeypatch.chdir(tmp_path)
    assert datasets._data_dir(None) == Path(datasets.__file__).parent / "data"
    assert load_dataset("parkinsons").X.shape[0] == 195


def test_missing_file_names_its_place(tmp_path, monkeypatch):
    monkeypatch.delenv("BOOLRULES_DATA", raising=False)
    with pytest.raises(FileNotFoundError, match="BOOLRULES_DATA") as error:
        datasets._find_file("no-such-file.csv.gz", None)
    assert str(datasets.BUNDLED / "no-such-file.csv.gz") in str(error.value)


def sources_table(section):
    """The rows of a table in SOURCES.md's `section`, as lists of cells."""
    text = (datasets.BUNDLED / "SOURCES.md").read_text().split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.strip("|").split("|") for line in text.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in row] for row in rows[2:]]  # no header, no rule below it


def test_bundled_files_are_the_ones_sources_describes():
    """Every file the readers name is shipped, with the sha256 SOURCES.md records (of the .gz and of its content)."""
    checksums = {name: (packed, unpacked) for name, packed, unpacked in sources_table("sha256")}
    assert set(checksums) == {filename for filename, _ in datasets._READERS.values()}
    for name, (packed, unpacked) in checksums.items():
        content = (datasets.BUNDLED / name).read_bytes()
        assert hashlib.sha256(content).hexdigest() == packed, name
        assert hashlib.sha256(gzip.decompress(content)).hexdigest() == unpacked, name


# CSV files


@pytest.fixture
def churn_csv(tmp_path):
    """40 rows: a number, a text column, a four-valued grade and the yes/no label churn; row 3 lacks `a`."""
    rng = np.random.default_rng(0)
    a = rng.normal(size=40)
    frame = pd.DataFrame({"a": a, "color": rng.choice(["red", "blue", "green"], 40), "grade": rng.integers(0, 4, 40),
                          "churn": np.where(a > 0, "yes", "no")})
    frame.loc[3, "a"] = np.nan
    path = tmp_path / "churn.csv"
    frame.to_csv(path, index=False)
    return path, frame.drop(index=3).reset_index(drop=True)


def test_load_csv_binarizes_the_complete_rows(churn_csv):
    path, complete = churn_csv
    data = load_csv(path, "churn")
    assert isinstance(data, Dataset) and data.name == str(path)
    assert data.positive == "yes" and data.dropped_rows == 1  # the second of the two values in sorted order
    np.testing.assert_array_equal(data.y, (complete["churn"] == "yes").to_numpy())
    assert data.y.dtype == np.uint8 and data.X.dtype == np.uint8
    raw = complete.drop(columns="churn")
    pd.testing.assert_frame_equal(data.raw, raw)
    binarizer = QuantileBinarizer()
    np.testing.assert_array_equal(data.X, binarizer.fit_transform(raw))
    assert data.feature_names == binarizer.get_feature_names_out().tolist()


def test_load_csv_keeps_incomplete_rows_with_indicators(churn_csv):
    path, complete = churn_csv
    data = load_csv(path, "churn", missing="indicator")
    assert data.dropped_rows == 0 and len(data.y) == len(complete) + 1
    assert any(name.endswith(" is missing") for name in data.feature_names)


@pytest.mark.parametrize("positive, expected", [("no", "no"), ("3.0", 3), (3, 3), ("2", 2)])
def test_load_csv_positive_names_a_value_by_text_or_number(churn_csv, positive, expected):
    path, complete = churn_csv
    label = "churn" if expected == "no" else "grade"
    data = load_csv(path, label, positive)
    assert data.positive == expected and type(data.positive) is type(expected)
    np.testing.assert_array_equal(data.y, (complete[label] == expected).to_numpy())
    assert label not in data.raw.columns


def test_load_csv_passes_num_bins_on(churn_csv):
    path, _ = churn_csv
    assert load_csv(path, "churn", num_bins=2).X.shape[1] < load_csv(path, "churn").X.shape[1]


def test_load_csv_reads_gzip(churn_csv, tmp_path):
    path, _ = churn_csv
    packed = tmp_path / "churn.csv.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    np.testing.assert_array_equal(load_csv(packed, "churn").X, load_csv(path, "churn").X)
