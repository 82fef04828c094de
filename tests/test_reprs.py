"""Short reprs: problems, QUBOs, datasets and results print as a line (and a small HTML table), and
results print their rule with the problem's feature names."""

import re

import numpy as np
import pandas as pd
import pytest

from boolrules import DepthOneClassifier, load_dataset
from boolrules.backends import get_backend
from boolrules.formats import export_qubo
from boolrules.formulations import depth_one


@pytest.fixture(scope="module")
def data():
    return load_dataset("breast_cancer")


@pytest.fixture(scope="module")
def problem(data):
    return depth_one(data.X[:80], data.y[:80], "AtLeast", max_num_literals=3, feature_names=data.feature_names)


def test_problem_and_qubo_reprs_are_one_short_line(problem):
    text = repr(problem)
    assert text == f"DepthOneProblem(AtLeast, 80 samples ({int(problem.y.sum())} positive), 269 features, " \
                   "0..3 literals, λ = 0)"
    assert str(problem) == text
    qubo = repr(problem.to_qubo(eta=False))
    assert qubo.startswith("QuboProblem(AtLeast, ") and "b 269, bt 269" in qubo and "without η" in qubo
    assert len(qubo) < 300 and "object at" not in qubo and "\n" not in qubo


def test_dataset_repr_does_not_list_the_features(data):
    assert repr(data) == "Dataset('breast_cancer': 569 rows, 30 columns -> 269 binary features, 37.3% positive)"


def test_results_print_the_rule_with_the_problems_names(problem, data):
    result = get_backend("native").solve(problem)
    names = re.findall(r"[a-z ]+ [<>]=? [\d.]+", result.rule_text)
    assert result.rule_text == result.rule.to_str(data.feature_names) and len(names) == 3
    text = repr(result)
    assert text.startswith("Result(native: status optimal (raw); rule AtLeast") and result.rule_text in text
    assert "size 4 (operators + literals), 3 literals, root AtLeast" in text and "\n" not in text
    html = result._repr_html_()
    assert "<table>" in html and "&gt;=" in html and f"{result.objective:.6g}" in html
    sampled = get_backend("sa", num_reads=4, num_sweeps=40, seed=0).solve(problem)
    assert "stages raw" in repr(sampled) and "sample " in repr(sampled)
    unnamed = get_backend("native").solve(depth_one(data.X[:80], data.y[:80], "AtLeast", max_num_literals=3))
    assert unnamed.feature_names is None and re.search(r"\bf\d+\b", unnamed.rule_text)


def test_failed_result_repr_says_why():
    from boolrules.backends.base import failed

    text = repr(failed("sa", 0.0, "it broke"))
    assert text.startswith("Result(sa: status error;") and "message backend 'sa': it broke" in text


def test_a_dataframes_columns_name_the_problem_and_names_are_checked(data):
    frame = pd.DataFrame(data.X[:60], columns=data.feature_names)
    problem = depth_one(frame, data.y[:60], "Or", max_num_literals=2)
    assert problem.feature_names == data.feature_names
    with pytest.raises(ValueError, match="feature_names has 2 names but X has 269 columns"):
        depth_one(data.X, data.y, "Or", max_num_literals=2, feature_names=["a", "b"])


def test_depth_one_classifier_result_prints_names(data):
    clf = DepthOneClassifier(max_samples=60, max_num_literals=2, backend="native").fit(data.raw, data.y)
    assert clf.result_.rule_text == clf.best_rule_.to_str(clf.feature_names_)
    assert not re.search(r"\bf\d+\b", repr(clf.result_))
    assert np.isfinite(clf.result_.objective)


def test_an_exported_problem_keeps_its_names_through_the_sidecar(problem, data, tmp_path):
    from boolrules import load_problem
    from boolrules.formats import sidecar_path

    export_qubo(problem.to_qubo(eta=False), tmp_path / "q.bqm", "bqm")  # no feature_names passed
    loaded = load_problem(sidecar_path(tmp_path / "q.bqm"))
    assert loaded.feature_names == data.feature_names == loaded.problem.feature_names
    result = get_backend("native").solve(loaded.problem)
    assert result.rule_text == result.rule.to_str(data.feature_names)
