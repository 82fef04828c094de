"""`--num-bins` and `--thresholds`: the commands binarize their training rows as asked."""

import json

import pytest
from sklearn.model_selection import train_test_split

from boolrules import QuantileBinarizer, load_dataset
from boolrules.cli import main

FAST = ["--dataset", "parkinsons", "--max-complexity", "3", "--num-starts", "1", "--num-iterations", "300"]


def run_json(capsys, argv):
    assert main([*argv, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def feature_names(thresholds, num_bins):
    """The binary features' names of the default split's training rows (--test-size 0.3, --seed 0)."""
    data = load_dataset("parkinsons", num_bins=num_bins)
    X_train, _, y_train, _ = train_test_split(data.raw, data.y, test_size=0.3, stratify=data.y, random_state=0)
    binarizer = QuantileBinarizer(num_bins=num_bins, thresholds=thresholds).fit(X_train, y_train)
    return set(binarizer.get_feature_names_out())


@pytest.mark.parametrize("thresholds", ["quantile", "tree"])
def test_fit_cuts_the_training_rows_where_thresholds_and_num_bins_say(capsys, thresholds):
    result = run_json(capsys, ["fit", *FAST, "--num-bins", "4", "--thresholds", thresholds])
    ours, other = feature_names(thresholds, 4), feature_names("tree" if thresholds == "quantile" else "quantile", 4)
    used = {name for name in ours | other if name in result["rule"]}
    assert used and used <= ours and not used - ours and (used - other or thresholds == "quantile")


def test_solve_and_inspect_take_a_supervised_binarizer(capsys):
    solved = run_json(capsys, ["solve", "--dataset", "parkinsons", "--thresholds", "tree", "--num-bins", "4",
                               "--max-num-literals", "2", "--operator", "Or"])
    assert any(name in solved["rule"] for name in feature_names("tree", 4) - feature_names("quantile", 4))
    for thresholds in ("tree", "quantile"):  # 60 and 61 binary features on these rows
        inspected = run_json(capsys, ["inspect", "--dataset", "parkinsons", "--thresholds", thresholds, "--num-bins",
                                      "4", "--shape", "DNF", "--max-samples", "30"])
        assert inspected["formulation"]["features"] == len(feature_names(thresholds, 4))


def test_num_bins_below_two_is_a_usage_error(capsys):
    assert main(["fit", "--num-bins", "1"]) == 2
    assert "--num-bins: must be an integer >= 2" in capsys.readouterr().err
    assert main(["fit", "--num-bins", "lots"]) == 2
    assert "--num-bins: must be an integer >= 2 or auto, got 'lots'" in capsys.readouterr().err


def test_num_bins_auto_cuts_a_quantile_per_100_training_rows(capsys):
    data = load_dataset("customer_churn", num_bins="auto")
    X_train, _, y_train, _ = train_test_split(data.raw, data.y, test_size=0.3, stratify=data.y, random_state=0)
    expected = QuantileBinarizer(num_bins=30).fit(X_train).get_feature_names_out()  # 4930 training rows
    inspected = run_json(capsys, ["inspect", "--dataset", "customer_churn", "--num-bins", "auto", "--max-samples", "30",
                                  "--operator", "Or", "--max-num-literals", "2"])
    paper = QuantileBinarizer(num_bins=10).fit(X_train).get_feature_names_out()
    assert inspected["formulation"]["features"] == len(expected) > len(paper)


def test_the_learners_default_to_auto_and_the_depth_one_commands_to_the_papers_10(capsys):
    data = load_dataset("customer_churn")  # 7043 rows: "auto" cuts 30 quantiles where the paper cuts 10
    auto = len(QuantileBinarizer(num_bins="auto").fit(data.raw).get_feature_names_out())
    assert auto > data.X.shape[1]
    fitted = run_json(capsys, ["fit", "--dataset", "customer_churn", "--max-complexity", "3", "--num-starts", "1",
                               "--num-iterations", "100", "--test-size", "0"])
    assert fitted["binary_features"] == auto
    inspected = run_json(capsys, ["inspect", "--dataset", "customer_churn", "--max-samples", "30", "--operator", "Or",
                                  "--max-num-literals", "2", "--test-size", "0"])
    assert inspected["binary_features"] == inspected["formulation"]["features"] == data.X.shape[1]
