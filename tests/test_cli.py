import contextlib
import io
import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import dimod
import highspy
import numpy as np
import pandas as pd
import pytest
from dwave.samplers.sa.sampler import default_beta_range
from ommx.artifact import Artifact

from boolrules import cli, load_dataset
from boolrules.backends import Result
from boolrules.backends.hardware import best_mode
from boolrules.backends.ilp import IlpBackend
from boolrules.cli import main
from boolrules.datasets import DATASETS
from boolrules.formats import (
    LOAD_FORMATS,
    PROBLEM_FORMATS,
    QUBO_FORMATS,
    load_problem,
    load_qubo_file,
    sidecar_path,
)
from boolrules.formulations import depth_one
from boolrules.rules import parse

CONFIGS = Path(__file__).resolve().parents[1] / "examples" / "configs"
SMALL = ["--max-samples", "100"]


@pytest.fixture(scope="module")
def csv(tmp_path_factory):
    """60 rows: churn (yes/no) is Or(a > 0, color == red); grade has four values; one row lacks `b`."""
    rng = np.random.default_rng(0)
    n = 60
    a = rng.normal(size=n)
    color = rng.choice(["red", "blue"], n)
    frame = pd.DataFrame({
        "a": a, "b": rng.integers(0, 3, n).astype(float), "color": color,
        "churn": np.where((a > 0) | (color == "red"), "yes", "no"), "grade": rng.integers(0, 4, n),
    })
    frame.loc[5, "b"] = np.nan
    path = tmp_path_factory.mktemp("data") / "churn.csv"
    frame.to_csv(path, index=False)
    return str(path)


def run_json(capsys, argv):
    assert main([*argv, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


# fit


def test_fit_prints_rule_scores_and_time(capsys):
    assert main(["fit", "--num-starts", "2", "--num-iterations", "200", "--max-complexity", "5"]) == 0
    out = capsys.readouterr().out
    assert "rule:" in out and "complexity:" in out and "balanced accuracy: train" in out and "time:" in out
    assert ">=" in out or "<" in out  # thresholds of named features, not f12


def test_fit_json_with_nonlocal_moves(capsys):
    assert main(["fit", "--num-starts", "1", "--num-iterations", "60", "--max-complexity", "5",
                 "--nonlocal-backend", "highs", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["dataset"] == "breast_cancer" and result["complexity"] <= 5
    assert 0.5 <= result["test_balanced_accuracy"] <= 1
    assert result["nonlocal"]["calls"] >= 1


def test_fit_with_depth_two_moves(capsys):
    """--nonlocal-shapes DNF adds depth-two moves, on HiGHS and on native."""
    argv = ["fit", "--num-starts", "1", "--num-iterations", "60", "--max-complexity", "7", "--operators", "Or", "And",
            "--nonlocal-shapes", "DNF", "--max-samples", "40"]
    for backend in ("highs", "native"):
        result = run_json(capsys, [*argv, "--nonlocal-backend", backend])
        assert result["nonlocal"]["calls"] >= 1 and result["complexity"] <= 7


def test_fit_with_keep_moves(capsys, monkeypatch):
    """--nonlocal-shapes keep makes keep moves (and only them beside the operators)."""
    from boolrules.localsearch.oracle import NonLocalOracle

    kept, keep = [], NonLocalOracle.keep
    monkeypatch.setattr(NonLocalOracle, "keep", lambda self, *args: (kept.append(args[1]), keep(self, *args))[1])
    result = run_json(capsys, ["fit", "--num-starts", "1", "--num-iterations", "100", "--max-complexity", "7",
                               "--nonlocal-shapes", "keep", "--max-samples", "40", "--nonlocal-backend", "native"])
    assert kept and result["nonlocal"]["calls"] >= len(kept)


def test_nonlocal_shapes_auto_follows_the_classifier_and_stands_alone(capsys):
    """--nonlocal-shapes auto (the default) gives the classifier's auto moves on native whose operators
    are searched; none gives none; auto or none beside a shape is refused."""
    from boolrules.backends import get_backend
    from boolrules.cli.fit import nonlocal_shapes
    from boolrules.localsearch.classifier import AUTO_MOVES
    from boolrules.rules import KEEP

    native, every = get_backend("native"), ("Or", "And", "AtLeast")
    assert nonlocal_shapes(["auto"], every, native, "random") == AUTO_MOVES
    assert nonlocal_shapes(["auto"], ("Or", "AtLeast"), native, "random") == (KEEP,)
    assert nonlocal_shapes(["auto"], ("AtLeast", "Choose"), native, "random") == ()
    assert nonlocal_shapes(["auto"], every, get_backend("highs"), "random") == nonlocal_shapes(["none"], every, native,
                                                                                               "random") == ()
    assert nonlocal_shapes(["DNF", "DNF", "keep"], every, None, "random") == ("DNF", "keep")
    assert main(["fit", "--num-starts", "1", "--num-iterations", "10", "--nonlocal-shapes", "auto", "DNF"]) == 2
    assert "auto and none stand alone" in capsys.readouterr().err


def test_fit_takes_the_classifiers_non_local_options_with_its_defaults(capsys):
    """--nonlocal-time-limit/-time-share/-policy and --scan-moves reach RuleClassifier; their CLI
    defaults are the classifier's; a bad value is refused naming the parameter."""
    from boolrules import RuleClassifier

    args = cli.build_parser().parse_args(["fit"])
    defaults = RuleClassifier().get_params()
    for name in ("nonlocal_time_limit", "nonlocal_time_share", "nonlocal_policy", "scan_moves", "max_complexity",
                 "max_depth", "num_starts", "num_iterations", "time_budget", "lam", "metric", "n_jobs", "max_samples", "quench"):
        assert getattr(args, name) == defaults[name], name
    assert tuple(args.operators) == tuple(defaults["operators"]) and defaults["nonlocal_operators"] == "auto"
    assert args.nonlocal_shapes == ["auto"]  # non-local operators: the operators, and the classifier's auto shapes
    result = run_json(capsys, ["fit", "--num-starts", "1", "--num-iterations", "80", "--max-complexity", "5",
                               "--nonlocal-backend", "native", "--nonlocal-policy", "gain", "--scan-moves", "0.2",
                               "--nonlocal-time-limit", "0.1"])
    assert result["nonlocal"]["calls"] >= 1
    assert main(["fit", "--num-starts", "1", "--num-iterations", "10", "--scan-moves", "2"]) == 2
    assert "--scan-moves" in capsys.readouterr().err


def test_fit_reports_each_starts_quench_and_no_quench_turns_it_off(capsys):
    """A short hot search ends away from a local optimum: the quench climbs; --no-quench keeps it."""
    base = ["fit", "--num-starts", "3", "--num-iterations", "30", "--seed", "1"]
    quenched = run_json(capsys, base)
    plain = run_json(capsys, [*base, "--no-quench"])
    assert len(quenched["quench_steps"]) == 3 and sum(quenched["quench_steps"]) > 0
    assert plain["quench_steps"] == [0, 0, 0]
    assert quenched["train_balanced_accuracy"] >= plain["train_balanced_accuracy"]


def test_fit_with_a_time_budget(capsys):
    """--time-budget with --num-iterations none: only the budget ends the starts; the output says
    how many iterations each start ran."""
    argv = ["fit", "--num-starts", "2", "--num-iterations", "none", "--time-budget", "0.5", "--max-complexity", "5"]
    result = run_json(capsys, argv)
    assert result["time_budget"] == 0.5 and len(result["iterations"]) == 2 and min(result["iterations"]) >= 1
    assert result["seconds"] < 10
    assert main(argv) == 0
    assert "budget 0.5 s; 2 starts ran" in capsys.readouterr().out


def test_fit_help_shows_the_time_budget(capsys):
    assert main(["fit", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--time-budget SECONDS" in out and "--no-progress" in out


def test_fit_progress_on_a_terminal_unless_no_progress(capsys, monkeypatch):
    """On a terminal, fit shows its progress (with the oracle calls) on stderr; --no-progress
    silences it. A non-local fit without a budget says how to set one."""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    argv = ["fit", "--num-starts", "1", "--num-iterations", "20", "--max-complexity", "5",
            "--nonlocal-backend", "native"]  # an oracle call or two
    assert main([*argv, "--json"]) == 0
    captured = capsys.readouterr()
    result, err = json.loads(captured.out), captured.err
    assert "1/1" in err and f"oracle calls {result['nonlocal']['calls']}" in err and "--time-budget" in err
    assert main([*argv, "--json", "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


def test_fit_operators_metric_and_config_on_a_csv(capsys, csv):
    argv = ["fit", "--csv", csv, "--label", "churn", "--num-starts", "2", "--num-iterations", "100",
            "--max-complexity", "5", "--operators", "And", "Or", "--metric", "f1",
            "--config", str(CONFIGS / "highs.toml"), "--max-samples", "30"]
    result = run_json(capsys, argv)
    assert result["nonlocal"]["backend"] == "highs" and result["nonlocal"]["calls"] >= 1
    assert result["metric"] == "f1" and 0 <= result["test_score"] <= 1
    assert not any(op in result["rule"] for op in ("AtLeast", "AtMost", "Choose"))
    assert result["label"] == {"column": "churn", "positive": "yes", "default": True}
    assert result["rows"] == 59 and result["dropped_rows"] == 1
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "churn == yes is positive (the second of its 2 values" in out and "f1: train" in out
    assert "dropped:    1 rows with missing values (--missing indicator keeps them)" in out
    assert "non-local:" in out and "to highs" in out


def test_missing_indicator_keeps_every_row_in_fit_and_solve(capsys, csv):
    """`--missing indicator` is the CLI's spelling of the loaders' and the binarizer's option: no row is
    dropped and the column with a missing value gains a `COLUMN is missing` feature."""
    argv = ["--csv", csv, "--label", "churn", "--missing", "indicator", "--max-samples", "30"]
    fit = run_json(capsys, ["fit", *argv, "--num-starts", "1", "--num-iterations", "30", "--max-complexity", "3"])
    solve = run_json(capsys, ["solve", *argv, "--backend", "highs", "--max-num-literals", "2"])
    for result in (fit, solve):
        assert result["rows"] == 60 and result["dropped_rows"] == 0
    assert main(["fit", *argv, "--num-starts", "1", "--num-iterations", "30", "--max-complexity", "3"]) == 0
    assert "dropped:" not in capsys.readouterr().out
    assert main(["fit", "--csv", csv, "--label", "churn", "--missing", "guess"]) == 2


def test_fit_nonlocal_backend_takes_a_toml_path(capsys, csv, tmp_path):
    config = tmp_path / "sa.toml"
    config.write_text('[backend]\nname = "sa"\nnum_reads = 5\nnum_sweeps = 100\n\n[qubo]\neta = false\n')
    result = run_json(capsys, ["fit", "--csv", csv, "--label", "churn", "--num-starts", "1", "--num-iterations",
                               "60", "--max-complexity", "4", "--nonlocal-backend", str(config),
                               "--max-samples", "20"])
    assert result["nonlocal"]["backend"] == "sa" and result["nonlocal"]["calls"] >= 1
    stats = result["nonlocal"]  # what the sampler did itself, beside the classical clean-up
    assert 0 <= stats["raw_feasible"] <= stats["solved"] <= stats["calls"]
    assert sum(stats["moves_by_stage"].values()) == stats["proposed"]
    assert main(["fit", "--csv", csv, "--label", "churn", "--num-starts", "1", "--num-iterations", "60",
                 "--max-complexity", "4", "--nonlocal-backend", str(config), "--max-samples", "20"]) == 0
    assert re.search(r"the solver's own answer valid in \d+ of \d+ answered calls; moves by the stage that made "
                     r"them: ", capsys.readouterr().out)


def test_fit_prints_the_canonical_rule_and_describes_it(capsys):
    argv = ["fit", "--num-starts", "2", "--num-iterations", "200", "--max-complexity", "7", "--describe"]
    result = run_json(capsys, argv)
    rule = parse(result["rule_indices"])
    assert rule.simplify() == rule and result["complexity"] == rule.complexity <= result["search_complexity"]
    assert len(result["description"].splitlines()) == len(rule.walk())
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"rule:       {result['rule']}\n" in out
    assert "in words:\n  " + result["description"].splitlines()[0] in out
    assert ("as found:   " + result["search_rule"] in out) == (result["search_rule"] != result["rule"])


def explained_row(capsys, argv):
    """The JSON of `explain`, with its reason checked against the rule: fixing the reason's feature
    values gives the prediction on every assignment of the rule's other features."""
    result = run_json(capsys, argv)
    rule, explanation = parse(result["rule_indices"]), result["explanation"]
    features = sorted({lit.index for lit in rule.literals()})
    fixed = {r["feature"]: r["value"] for r in explanation["reason"]}
    free = [j for j in features if j not in fixed]
    rows = np.zeros((2 ** len(free), max(features) + 1), np.uint8)
    rows[:, free] = list(itertools.product((0, 1), repeat=len(free)))
    rows[:, list(fixed)] = list(fixed.values())
    assert (rule.evaluate(rows) == explanation["prediction"]).all()
    assert explanation["rule"] == result["rule"] and explanation["label"] == int(explanation["prediction"])
    return result


def test_explain_fits_then_explains_a_row(capsys):
    argv = ["explain", "--row", "3", "--num-starts", "2", "--num-iterations", "200", "--max-complexity", "6"]
    result = explained_row(capsys, argv)
    label = int(load_dataset("breast_cancer").y[3])
    assert result["row"] == 3 and result["split"] in ("training", "test") and result["label"] == label
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"row:        3 (of the {result['split']} split), label {label}" in out
    assert "prediction: " in out and "because (a smallest set of " in out
    for reason in result["explanation"]["reason"]:
        assert f"  - {reason['condition']}\n" in out


def test_explain_a_csv_row_and_a_row_out_of_range(capsys, csv):
    argv = ["explain", "--csv", csv, "--label", "churn", "--row", "58", "--num-starts", "2", "--num-iterations", "100",
            "--max-complexity", "4"]
    result = explained_row(capsys, argv)
    assert result["rows"] == 59 and result["row"] == 58
    assert main(["explain", "--csv", csv, "--label", "churn", "--row", "59"]) == 2
    assert "--row: 59 is not a row of" in capsys.readouterr().err
    assert main(["explain"]) == 2  # --row is required


# solve


def test_solve_prints_rule_status_objective_and_scores(capsys):
    # 50 rows: HiGHS proves optimality in a fraction of the limit (on 100 it ran the 5 s out)
    assert main(["solve", "--operator", "AtLeast", "--max-num-literals", "2", "--max-samples", "50",
                 "--time-limit", "5"]) == 0
    out = capsys.readouterr().out
    for field in ("dataset:", "problem:", "backend:    highs", "rule:       AtLeast", "status:", "objective:",
                  "balanced accuracy: train", "time:"):
        assert field in out
    assert "bound" in out and "gap" in out and ">=" in out
    assert ("rows:       the problem takes 50 of the 398 training rows, drawn stratified with seed 0 (split: 171 test "
            "rows held out, test size 0.3, seed 0)\n") in out


def test_solve_json(capsys):
    result = run_json(capsys, ["solve", "--operator", "Or", "--max-num-literals", "2", "--negated", *SMALL,
                               "--time-limit", "20", "--seed", "1"])
    assert result["backend"] == "highs" and result["operator"] == "~Or"
    assert result["status"] in ("optimal", "time_limit") and result["rule"].startswith("~")
    assert result["train_rows"] == 398 and result["test_rows"] == 171 and result["problem_rows"] == 100
    assert result["bound"] <= result["objective"] + 1e-6 and result["gap"] >= 0
    assert 0.5 <= result["test_balanced_accuracy"] <= 1 and result["num_literals"] <= 2
    assert result["backend_options"]["time_limit"] == 20


def test_solve_on_a_csv_with_a_qubo_config(capsys, csv):
    result = run_json(capsys, ["solve", "--csv", csv, "--label", "churn", "--operator", "Or",
                               "--max-num-literals", "2", "--config", str(CONFIGS / "sa.toml")])
    assert result["backend"] == "sa" and result["status"] == "feasible"
    assert result["backend_options"]["seed"] == 0  # --seed reaches a backend that takes one
    assert result["bound"] is None and result["gap"] is None
    assert result["train_balanced_accuracy"] >= 0.9  # near the planted rule
    assert main(["solve", "--csv", csv, "--label", "churn", "--operator", "Or", "--max-num-literals", "2",
                 "--backend", str(CONFIGS / "tabu.toml")]) == 0
    out = capsys.readouterr().out
    assert "backend:    tabu" in out and "status:     feasible" in out and "bound" not in out


def test_solve_csv_positive_value(capsys, csv):
    result = run_json(capsys, ["solve", "--csv", csv, "--label", "grade", "--positive", "3.0", "--operator", "Or",
                               "--max-num-literals", "2"])
    assert result["label"] == {"column": "grade", "positive": 3, "default": False}
    assert "grade" not in result["rule"]  # the label is not a feature


def test_solve_no_polish_reports_the_repaired_rule_and_every_stage(capsys, tmp_path):
    """A sampler stopped short: the same samples give the polished rule by default and the repaired
    one with --no-polish; both print every stage's objective and the time of each step."""
    config = tmp_path / "sa.toml"
    config.write_text('[backend]\nname = "sa"\nnum_reads = 5\nnum_sweeps = 10\n')
    argv = ["solve", "--config", str(config), "--max-samples", "60", "--seed", "2", "--paper-layout"]
    polished, repaired = run_json(capsys, argv), run_json(capsys, [*argv, "--no-polish"])
    assert polished["backend_options"]["polish"] is True and repaired["backend_options"]["polish"] is False
    assert polished["stage"] == "polished" and list(polished["stages"]) == ["raw", "repaired", "polished"]
    assert repaired["stage"] == "repaired" and list(repaired["stages"]) == ["raw", "repaired"]
    assert repaired["stages"]["repaired"] == polished["stages"]["repaired"]  # the same samples
    assert polished["objective"] < repaired["objective"] - 1e-9  # polish changed the rule here
    assert repaired["rule"] == repaired["stages"]["repaired"]["rule"] and repaired["objective"] == pytest.approx(
        repaired["stages"]["repaired"]["objective"])
    assert set(polished["timing"]) == {"compile", "sample", "decode", "polish"} and "polish" not in repaired["timing"]
    assert "beta_range" in polished["solver_info"]
    assert main([*argv, "--no-polish"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"status: +feasible \(5 samples; \d feasible; objective: raw \(lowest energy\) [^,]+, repaired "
                     r"[\d.]+ \(the rule\)\)", out), out
    assert re.search(r"time: .*\(solver [\d.]+ s, compile [\d.]+, sample [\d.]+, decode [\d.]+\)", out), out


def test_fit_no_polish_reaches_the_nonlocal_backend(capsys, monkeypatch, tmp_path):
    from boolrules.localsearch import RuleClassifier

    config = tmp_path / "sa.toml"
    config.write_text('[backend]\nname = "sa"\nnum_reads = 2\nnum_sweeps = 50\n')
    seen, fit = [], RuleClassifier.fit

    def spy(self, X, y):
        seen.append(self.nonlocal_backend.options()["polish"])
        return fit(self, X, y)
    monkeypatch.setattr(RuleClassifier, "fit", spy)
    argv = ["fit", "--num-starts", "1", "--num-iterations", "30", "--max-complexity", "4", "--max-samples", "20"]
    for flags in (["--nonlocal-backend", str(config)], ["--config", str(config), "--no-polish"]):
        run_json(capsys, [*argv, *flags])
    assert seen == [True, False]


# inspect


def test_inspect_text(capsys):
    assert main(["inspect", "--operator", "Or", "--max-num-literals", "4", "--min-num-literals", "1", *SMALL,
                 "--paper-layout"]) == 0
    out = capsys.readouterr().out
    assert "variables:   700 (paper: 700): b 300, bt 300, eta 100" in out
    assert "constraints: 402: max_literals 1, min_literals 1, exclusive_literals 300" in out
    assert "nonzeros:" in out and "|coefficients| in [1, 4]" in out
    assert "QUBO:" in out and "with η, sufficient penalties" in out and "\n  ground state: the ILP optimum\n" in out
    # paired slack: the positives' η are gone (error rows), the negatives keep theirs
    assert "paired slack" in out and "dynamic range" in out
    assert "blocks:    b 300, bt 300, eta 63, slack max_literals 1, slack positive_rows 37" in out


def test_inspect_json_without_eta(capsys):
    result = run_json(capsys, ["inspect", "--operator", "Or", "--max-num-literals", "4", *SMALL, "--no-eta",
                               "--penalty", "calibrated", "--min-num-literals", "0", "--paper-layout"])
    formulation, qubo = result["formulation"], result["qubo"]
    assert result["problem_rows"] == 100 and formulation["samples"] == 100
    assert formulation["num_variables"] == formulation["paper_num_variables"] == 700
    assert "min_literals" not in formulation["constraints"]
    assert formulation["coefficient_range"] == [1.0, 4.0]
    assert qubo["eta"] is False and "eta" not in qubo["blocks"]
    assert qubo["num_variables"] == sum(qubo["blocks"].values())
    sufficient = run_json(capsys, ["inspect", "--operator", "Or", "--max-num-literals", "4", *SMALL, "--no-eta",
                                   "--penalty", "sufficient", "--min-num-literals", "0", "--paper-layout"])["qubo"]
    assert (sufficient["num_variables"], sufficient["blocks"]) == (qubo["num_variables"], qubo["blocks"])
    assert qubo["penalties"]["hard"] < sufficient["penalties"]["hard"]  # --penalty reaches the compiler
    assert qubo["dynamic_range"] == pytest.approx(qubo["max_abs_bias"] / qubo["min_abs_bias"])


def test_inspect_a_depth_two_problem(capsys):
    argv = ["inspect", "--shape", "DNF", "--max-terms", "2", "--max-literals-per-term", "3", "--max-complexity", "9",
            "--dataset", "breast_cancer", "--max-samples", "50", "--paper-layout"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "problem:     DNF of 0..2 terms of at most 3 literals, at most 9 nodes" in out
    assert "variables:   " in out and "z 1200, u 2, s 2, a " in out and "QUBO:" in out
    result = run_json(capsys, [*argv, "--shape", "CNF"])
    formulation = result["formulation"]
    assert formulation["shape"] == "CNF" and formulation["variables"]["z"] == 1200
    assert formulation["num_variables"] == sum(formulation["variables"].values())
    assert formulation["constraints"]["max_complexity"] == 1
    assert result["qubo"]["num_variables"] == sum(result["qubo"]["blocks"].values())


@pytest.mark.parametrize(("argv", "rows"), [([], 400), (["--max-samples", "30"], 30),
                                            (["--config", str(CONFIGS / "exact.toml")], 4)])
def test_fit_max_samples_auto_follows_the_backend(capsys, monkeypatch, argv, rows):
    """fit's --max-samples (default auto) reaches the oracle: 400 rows on native, a number as
    given, and a .toml backend's [problem] max_samples (the CLI builds the backend itself)."""
    from boolrules.localsearch import classifier

    seen = []
    oracle = classifier.NonLocalOracle
    monkeypatch.setattr(classifier, "NonLocalOracle",
                        lambda *args, **kwargs: seen.append(kwargs["max_samples"]) or oracle(*args, **kwargs))
    backend = [] if "--config" in argv else ["--nonlocal-backend", "native"]
    run_json(capsys, ["fit", "--num-starts", "1", "--num-iterations", "5", "--max-complexity", "4", *backend, *argv])
    assert seen == [rows]


def test_problem_caps_take_auto_as_the_classifier_does(capsys, tmp_path):
    """--max-samples/--max-features auto (the default): every row and feature for export and
    inspect, a .toml backend's [problem] caps for solve; a number overrides them."""
    exact = str(CONFIGS / "exact.toml")
    base = ["--dataset", "credit_risk", "--operator", "Or", "--max-num-literals", "2"]
    solved = run_json(capsys, ["solve", *base, "--config", exact, "--max-samples", "auto"])
    assert (solved["problem_rows"], solved["max_features"]) == (4, 2)
    given = run_json(capsys, ["solve", *base, "--config", exact, "--max-features", "2", "--max-samples", "5"])
    assert given["problem_rows"] == 5
    counts = run_json(capsys, ["inspect", *base, "--max-samples", "auto", "--max-features", "auto"])
    assert counts == run_json(capsys, ["inspect", *base])
    assert main(["inspect", *base, "--max-samples", "none"]) == 2 and "auto" in capsys.readouterr().err


def test_max_samples_draws_the_same_rows_for_the_same_seed(capsys):
    """A seed draws the same rows each time, another seed others; the draw is stratified, so each
    holds the data's share of positive rows (212 of 569 in 60: 22)."""
    runs = [run_json(capsys, ["inspect", "--operator", "AtMost", "--max-num-literals", "2", "--max-samples", "60",
                              "--no-eta", "--penalty", "calibrated", "--seed", str(seed)]) for seed in (3, 3, 4, 5)]
    biases = [run["qubo"]["min_abs_bias"] for run in runs]  # the QUBO of the rows drawn
    assert biases[0] == biases[1] and len(set(biases)) > 1
    assert {run["formulation"]["positive_samples"] for run in runs} == {22}


def test_problem_and_qubo_defaults_are_pythons():
    """solve, inspect and export take the defaults of depth_one, DepthOneClassifier (where
    depth_one has none) and to_qubo, which agree with each other where both have one."""
    import inspect

    from boolrules import DepthOneClassifier
    from boolrules.formulations import DepthOneProblem

    def defaults(function):
        return {k: p.default for k, p in inspect.signature(function).parameters.items() if p.default is not p.empty}

    problem, classifier = defaults(depth_one), DepthOneClassifier().get_params()
    qubo = defaults(DepthOneProblem.to_qubo)
    shared = ["min_num_literals", "lam", "negated", "feature_score"]
    assert {k: problem[k] for k in shared} == {k: classifier[k] for k in shared}
    expected = {**{k: problem[k] for k in shared}, "operator": classifier["operator"],
                "max_num_literals": classifier["max_num_literals"], "max_samples": classifier["max_samples"],
                "max_features": classifier["max_features"]}
    for argv in (["solve"], ["inspect"], ["export", "--format", "bqm", "-o", "x.bqm"]):
        args = vars(cli.build_parser().parse_args(argv))
        assert {k: args[k] for k in expected} == expected, argv
        if argv[0] != "solve":
            assert (args["eta"], args["penalty"]) == (qubo["eta"], qubo["penalty"])


def test_inspect_gives_pythons_variable_count(capsys):
    """`inspect --operator Or --no-eta` and Python's `depth_one(X, y, "Or", max_num_literals=4)
    .to_qubo(eta=False)` are the same QUBO: 814 variables on Breast Cancer with the default paired
    slack (docs/formulations.md, "Without η")."""
    from boolrules import load_dataset

    data = load_dataset("breast_cancer", paper_layout=True)
    python = depth_one(data.X, data.y, "Or", max_num_literals=4).to_qubo(eta=False).num_variables
    result = run_json(capsys, ["inspect", "--operator", "Or", "--no-eta", "--paper-layout", "--test-size", "0"])
    assert result["qubo"]["num_variables"] == python == 814


def test_inspect_reports_the_qubo_against_each_backends_limit(capsys):
    argv = ["inspect", "--operator", "Or", "--max-num-literals", "2", "--max-samples", "8", "--max-features", "2",
            "--no-eta"]
    hardware = run_json(capsys, argv)["hardware"]
    n = hardware["variables"]
    assert n <= 20 and {limit["backend"]: limit["fits"] for limit in hardware["limits"]} == {
        "exact": True, "qaoa": True, "dwave-qpu": True}
    assert "embedding" not in hardware
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"hardware:    {n} variables, {hardware['interactions']} interactions, density " in out
    assert "  exact:     fits: max_variables 25" in out and "  qaoa:      fits: max_qubits 20" in out
    assert "  dwave-qpu: fits: qubits 5640, couplers 40484 of Advantage, Pegasus P16" in out
    assert "--embed pegasus or zephyr" in out
    assert "(--modes compares the compile modes for a QPU" in out and "modes" not in hardware
    big = run_json(capsys, ["inspect", "--operator", "Or", "--max-samples", "30", "--no-eta"])["hardware"]
    assert [limit["fits"] for limit in big["limits"][:2]] == [False, False]  # 30 rows x 300 features


def test_inspect_says_what_a_qpu_leaves_to_the_objective_and_which_mode_suits_it(capsys):
    """inspect reports the QPU scaling of the QUBO it compiled and compares the compile modes, each
    as compiling it in Python gives, naming the one `best_mode` picks."""
    argv = ["inspect", "--dataset", "credit_risk", "--operator", "AtLeast", "--max-num-literals", "3",
            "--max-samples", "40", "--modes"]
    result = run_json(capsys, argv)
    hardware = result["hardware"]
    assert hardware["precision"]["soft_share"] > 0 and hardware["precision"]["scale"] > 0
    modes = hardware["modes"]
    assert [(mode["eta"], mode["slack"]) for mode in modes] == [(True, "paired"), (False, "paired"), (True, "minimal"),
                                                                 (False, "minimal")]
    default = modes[1]  # AtLeast compiles without η by default
    assert (default["variables"], default["interactions"]) == (result["qubo"]["num_variables"],
                                                               result["qubo"]["num_interactions"])
    assert default["soft_share"] == pytest.approx(hardware["precision"]["soft_share"])
    assert hardware["best_mode"] == best_mode(modes)
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert (f"  QPU scale: divided by {hardware['precision']['scale']:.4g} to fit h in ±4 and J in ±1, the objective "
            f"and sample rows keep {100 * default['soft_share']:.3g}% of the range") in out
    assert out.count("             no   minimal ") == 1 and "  modes:     η    slack    variables" in out
    best = hardware["best_mode"]
    assert f"  for a QPU: {'--eta' if best['eta'] else '--no-eta'} --slack {best['slack']} (" in out


def test_inspect_embed_searches_an_embedding_with_the_seed(capsys):
    argv = ["inspect", "--operator", "Or", "--max-num-literals", "2", "--max-samples", "8", "--max-features", "3",
            "--no-eta", "--embed", "zephyr", "--embed-timeout", "20", "--seed", "4"]
    embedding = run_json(capsys, argv)["hardware"]["embedding"]
    assert embedding["found"] is True and embedding["seed"] == 4 and embedding["timeout"] == 20
    assert embedding["topology"] == "zephyr" and embedding["qubits"] >= 1
    assert main(argv) == 0
    assert (f"  embedding: found into zephyr (Advantage2, Zephyr Z12): {embedding['qubits']} qubits, longest chain "
            f"{embedding['max_chain']}") in capsys.readouterr().out
    # 30 rows already couple more pairs of literals than Pegasus has couplers (as all 569 do)
    assert main(["inspect", "--operator", "Or", "--no-eta", "--embed", "pegasus", "--max-samples", "30"]) == 0
    assert ("embedding: none into pegasus (Advantage, Pegasus P16): more interactions than the 40484 couplers "
            "(seed 0); shrink with --max-samples, --max-features\n") in capsys.readouterr().out
    assert main(["inspect", "--operator", "Or", "--embed", "pegasus", "--max-samples", "30"]) == 0
    assert "shrink with --max-samples, --max-features or --no-eta\n" in capsys.readouterr().out


def test_max_features_builds_the_problem_on_the_best_features_and_names_them(capsys):
    result = run_json(capsys, ["inspect", "--operator", "Or", "--max-features", "5", "--max-samples", "50"])
    formulation = result["formulation"]
    assert formulation["features"] == 5 and len(formulation["kept_features"]) == 5
    assert formulation["variables"]["b"] == 5
    argv = ["inspect", "--operator", "Or", "--max-features", "5", "--max-samples", "50", "--test-size", "0"]
    kept = [run_json(capsys, [*argv, "--seed", seed])["formulation"]["kept_features"] for seed in ("0", "9")]
    assert kept[0] == kept[1]  # chosen on all the training rows, whatever rows are drawn
    mutual = run_json(capsys, ["inspect", "--operator", "Or", "--max-features", "5", "--feature-score",
                               "mutual_info"])["formulation"]
    assert mutual["kept_features"] != formulation["kept_features"]
    solved = run_json(capsys, ["solve", "--operator", "Or", "--max-num-literals", "2", "--max-features", "4"])
    assert solved["max_features"] == 4 and solved["test_balanced_accuracy"] > 0.85
    assert not solved["rule"].startswith("f") and ("<" in solved["rule"] or ">=" in solved["rule"])  # named
    assert main(["inspect", "--shape", "DNF", "--max-features", "3"]) == 2
    assert "--max-features applies to depth-one problems" in capsys.readouterr().err


def test_progress_goes_to_stderr_only_when_asked(capsys, csv):
    argv = ["inspect", "--csv", csv, "--label", "churn", "--max-num-literals", "2"]
    run_json(capsys, argv)
    assert main([*argv, "--json", "--progress"]) == 0
    captured = capsys.readouterr()
    json.loads(captured.out)
    assert "compiling the QUBO" in captured.err
    assert main([*argv, "--json"]) == 0
    assert capsys.readouterr().err == ""


# export


def offered_export_formats() -> list[str]:
    """The `boolrules export --format` choices, as its help shows them."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["export", "--help"]) == 0
    return re.sub(r"\s", "", re.search(r"--format\s+\{([^}]*)\}", out.getvalue()).group(1)).split(",")


OFFERED = offered_export_formats()


def test_export_offers_every_format_the_library_writes():
    """The model's formats under their names, the QUBO's under theirs or, where the model's took it,
    with a "qubo-" prefix (what each name writes is checked by the round trip below)."""
    assert set(PROBLEM_FORMATS) <= set(OFFERED)
    assert sorted(name.removeprefix("qubo-") for name in OFFERED if name not in PROBLEM_FORMATS) == sorted(QUBO_FORMATS)


@pytest.mark.parametrize("name", OFFERED)
def test_export_round_trips(capsys, csv, tmp_path, name):
    content, fmt = ("model", name) if name in PROBLEM_FORMATS else ("qubo", name.removeprefix("qubo-"))
    content = "model" if fmt == "cqm" else content  # a CQM file holds the ILP, not its QUBO
    path = tmp_path / f"problem.{name}"
    argv = ["export", "--csv", csv, "--label", "churn", "--operator", "AtLeast", "--max-num-literals", "2",
            "--max-samples", "30", "--format", name, "--output", str(path)]
    result = run_json(capsys, argv)
    assert result["path"] == str(path) and result["content"] == content and result["format"] == name
    assert path.is_file() and path.stat().st_size == result["bytes"] > 0
    sidecar = json.loads(Path(result["sidecar"]).read_text())
    assert result["sidecar"] == str(sidecar_path(path)) and sorted(tmp_path.iterdir()) == [path, sidecar_path(path)]
    assert (sidecar["file"], sidecar["format"], sidecar["content"]) == (path.name, fmt, content)
    assert len(sidecar["variables"]) == result["num_variables"]
    assert len(sidecar["problem"]["feature_names"]) == sidecar["problem"]["data"]["num_features"]
    if content == "model" and fmt == "ommx":
        instance = Artifact.load_archive(str(path)).instance
        assert len(instance.decision_variables) == result["num_variables"]
        assert len(instance.constraints) >= result["num_constraints"]  # a row bounded on both sides is two
    elif content == "model" and fmt != "cqm":
        highs = highspy.Highs()
        highs.setOptionValue("output_flag", False)
        assert highs.readModel(str(path)) == highspy.HighsStatus.kOk
        assert (highs.getNumCol(), highs.getNumRow()) == (result["num_variables"], result["num_constraints"])
    elif fmt == "cqm":
        cqm = load_qubo_file(path, fmt)
        assert len(cqm.variables) == result["num_variables"]
        assert len(cqm.constraints) >= result["num_constraints"]
    elif fmt in LOAD_FORMATS:
        assert load_qubo_file(path, fmt).num_variables == result["num_variables"]
    else:  # qasm3: one qubit per QUBO variable
        assert path.read_text().startswith("OPENQASM 3")
        assert f"qubit[{result['num_variables']}]" in path.read_text()
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"wrote {path} ({name}, ") and f"and its sidecar {sidecar_path(path)}" in out


def test_export_max_qubits_bounds_a_qasm3_circuit(capsys, csv, tmp_path):
    """--max-qubits (default 156) refuses a larger qasm3 circuit naming the option (exit 2), none lifts it."""
    argv = ["export", "--csv", csv, "--label", "churn", "--operator", "Or", "--max-num-literals", "2",
            "--format", "qasm3", "-o", str(tmp_path / "q.qasm")]
    assert main([*argv, "--max-qubits", "2"]) == 2
    err = capsys.readouterr().err
    assert "qubits: more than max_qubits=2" in err and "--max-qubits" in err and not (tmp_path / "q.qasm").exists()
    written = run_json(capsys, [*argv, "--max-qubits", "none"])
    assert (tmp_path / "q.qasm").exists() and written["num_variables"] > 2
    assert main([*argv, "--max-qubits", "0"]) == 2 and "--max-qubits" in capsys.readouterr().err


def test_export_qubo_options(capsys, csv, tmp_path):
    """The default export of Or is exact and paired (with η, sufficient penalties), of AtLeast without
    η; each option changes the file, and the output says which compilation it holds and the sampler
    schedule it recommends (dwave-samplers' default, with the beta range it derives from the file)."""
    argv = ["export", "--csv", csv, "--label", "churn", "--operator", "Or", "--format", "bqm",
            "-o", str(tmp_path / "q.bqm")]
    runs = [run_json(capsys, [*argv, *flags]) for flags in ([], ["--no-eta", "--penalty", "calibrated"],
                                                            ["--slack", "minimal"], ["--operator", "AtLeast"],
                                                            ["--operator", "AtLeast", "--eta"])]
    default, without_eta, minimal, atleast, atleast_eta = runs
    assert (default["eta"], default["slack"], default["penalty"]) == (True, "paired", "sufficient")
    assert (without_eta["eta"], without_eta["penalty"], minimal["slack"]) == (False, "calibrated", "minimal")
    assert (atleast["eta"], atleast_eta["eta"]) == (False, True)
    assert default["ground_state"] == atleast_eta["ground_state"] == "the ILP optimum"
    assert atleast["ground_state"].startswith("a valid rule") and without_eta["ground_state"].startswith("no promise")
    assert without_eta["num_variables"] < default["num_variables"] < minimal["num_variables"]
    assert default["num_interactions"] < minimal["num_interactions"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "QUBO (with η, paired slack, sufficient penalties): " in out and "\nground state: the ILP optimum\n" in out
    bqm = dimod.BinaryQuadraticModel.from_file(open(tmp_path / "q.bqm", "rb"))
    hot, cold = default_beta_range(bqm)
    assert default["schedule"] == {"sampler": "dwave.samplers.SimulatedAnnealingSampler", "num_reads": 100,
                                   "num_sweeps": 1000, "beta_schedule_type": "geometric",
                                   "beta_range": [pytest.approx(hot), pytest.approx(cold)]}
    assert (f"recommended: dwave.samplers.SimulatedAnnealingSampler, 100 reads x 1000 sweeps, geometric beta "
            f"{hot:.4g} -> {cold:.4g}") in out


# the rows a problem takes

ROWS = ("test_size", "seed", "train_rows", "test_rows", "problem_rows")


def test_export_and_inspect_build_the_problem_solve_solves(capsys, tmp_path):
    """Issue 24 (4), its case: Or on 100 rows. With the same options export writes what solve
    solves (the training rows of the same split, binarized on them, the same rows drawn): solve's
    optimum 3.1746 is the exported model's optimum in HiGHS and its rule's objective in the model's
    and the QUBO's sidecar (export drew from all rows before: 2.93865). All three say which rows."""
    options = ["--operator", "Or", "--max-samples", "100"]
    solved = run_json(capsys, ["solve", *options, "--backend", "highs"])
    assert solved["status"] == "optimal" and solved["objective"] == pytest.approx(3.1746031746)
    rows = {key: solved[key] for key in ROWS}
    assert rows == {"test_size": 0.3, "seed": 0, "train_rows": 398, "test_rows": 171, "problem_rows": 100}
    rule = parse(solved["rule_indices"])
    for fmt in ("lp", "bqm"):
        path = tmp_path / f"problem.{fmt}"
        exported = run_json(capsys, ["export", *options, "--format", fmt, "-o", str(path)])
        assert {key: exported[key] for key in ROWS} == rows
        loaded = load_problem(exported["sidecar"])
        assert loaded.problem.objective(rule) == pytest.approx(solved["objective"])
        assert rule.to_str(loaded.feature_names) == solved["rule"]  # binarized on the same rows: the same names
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    assert highs.readModel(str(tmp_path / "problem.lp")) == highspy.HighsStatus.kOk
    highs.run()
    assert highs.getInfo().objective_function_value == pytest.approx(solved["objective"])
    assert {key: run_json(capsys, ["inspect", *options])[key] for key in ROWS} == rows
    said = ("100 of the 398 training rows, drawn stratified with seed 0 (split: 171 test rows held out, test size "
            "0.3, seed 0)")
    for command in (["solve", "--backend", "highs"], ["export", "--format", "lp", "-o", str(tmp_path / "p.lp")],
                    ["inspect"]):
        assert main([*command, *options]) == 0
        assert said in capsys.readouterr().out, command


def test_test_size_zero_trains_on_every_row(capsys, tmp_path):
    """--test-size 0: every row trains, for every command that splits; solve, fit and explain report
    no test score, and export writes the problem solve solves on every row."""
    base = ["--operator", "Or", "--max-num-literals", "2", "--max-samples", "60", "--test-size", "0"]
    solved = run_json(capsys, ["solve", *base])
    assert {key: solved[key] for key in ROWS} == {"test_size": 0, "seed": 0, "train_rows": 569, "test_rows": 0,
                                                   "problem_rows": 60}
    assert solved["test_balanced_accuracy"] is None and solved["train_balanced_accuracy"] > 0.85
    exported = run_json(capsys, ["export", *base, "--format", "lp", "-o", str(tmp_path / "p.lp")])
    assert {key: exported[key] for key in ROWS} == {key: solved[key] for key in ROWS}
    objective = load_problem(exported["sidecar"]).problem.objective(parse(solved["rule_indices"]))
    assert objective == pytest.approx(solved["objective"])
    assert main(["solve", *base]) == 0
    out = capsys.readouterr().out
    assert ("rows:       the problem takes 60 of all 569 rows, drawn stratified with seed 0 (test size 0: every row "
            "trains, none is held out)\n") in out
    assert "test none (--test-size 0 holds no rows out)\n" in out
    search = ["--num-starts", "1", "--num-iterations", "20", "--max-complexity", "4", "--test-size", "0"]
    fitted = run_json(capsys, ["fit", *search, "--metric", "accuracy"])
    assert (fitted["train_rows"], fitted["test_rows"]) == (569, 0)
    assert fitted["test_score"] is None and fitted["test_balanced_accuracy"] is None
    assert main(["fit", *search, "--metric", "accuracy"]) == 0
    assert "accuracy: train " in (out := capsys.readouterr().out) and out.count("test none (--test-size 0") == 2
    assert run_json(capsys, ["explain", *search, "--row", "7"])["split"] == "training"


def test_inspect_takes_the_training_rows_of_a_depth_two_problem_too(capsys, csv):
    """A depth-two problem is built on the training rows of the split too (41 of the CSV's 59)."""
    argv = ["inspect", "--csv", csv, "--label", "churn", "--shape", "DNF", "--max-literals-per-term", "2"]
    result = run_json(capsys, argv)
    assert (result["train_rows"], result["test_rows"], result["problem_rows"]) == (41, 18, 41)
    assert result["formulation"]["samples"] == 41
    every = run_json(capsys, [*argv, "--test-size", "0"])
    assert (every["train_rows"], every["problem_rows"], every["formulation"]["samples"]) == (59, 59, 59)


# datasets


def test_datasets_lists_names(capsys):
    assert main(["datasets"]) == 0
    assert "breast_cancer" in capsys.readouterr().out.split()


def test_datasets_json(capsys):
    rows = {row["name"]: row for row in run_json(capsys, ["datasets"])["datasets"]}
    assert list(rows) == list(DATASETS)
    assert rows["breast_cancer"]["rows"] == 569 and rows["breast_cancer"]["binary_features"] == 269  # none constant
    assert all("rows" in row or "not found" in row["error"] for row in rows.values())


# errors and exit codes


def test_a_reader_that_leaves_ends_the_command_quietly(monkeypatch, capsys):
    """`boolrules datasets | head -1`: the pipe's reader is gone; the command ends with 128 + SIGPIPE
    and no error message, as Unix tools do (not "error: [Errno 32] Broken pipe", exit 2)."""
    import os
    import signal

    for buffering in (1, -1):  # the reader gone at a line written, or at the buffer's flush
        read, write = os.pipe()
        os.close(read)
        with open(write, "w", buffering=buffering) as gone:
            monkeypatch.setattr(sys, "stdout", gone)
            assert main(["datasets"]) == 128 + signal.SIGPIPE
            monkeypatch.undo()
        assert capsys.readouterr().err == ""


def test_help_exits_0(capsys):
    assert main(["--help"]) == 0
    assert "solve" in capsys.readouterr().out


def test_console_script_help():
    script = Path(sys.executable).parent / "boolrules"
    completed = subprocess.run([str(script), "--help"], check=False, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    for command in ("fit", "solve", "inspect", "export", "datasets"):
        assert command in completed.stdout


@pytest.mark.parametrize("argv", [["--help"], ["solve", "--help"], ["datasets"]])
def test_help_and_the_dataset_names_load_no_library(argv):
    """`--help` and `boolrules datasets` are instant: they import none of numpy, pandas, scipy,
    scikit-learn, Pyomo or dimod (seconds to load), in a fresh interpreter."""
    heavy = ("numpy", "pandas", "scipy", "sklearn", "pyomo", "dimod")
    code = ("import sys\nfrom boolrules.cli.main import main\nstatus = main(sys.argv[1:])\n"
            f"print([m for m in {heavy!r} if m in sys.modules], status, file=sys.stderr)")
    completed = subprocess.run([sys.executable, "-c", code, *argv], check=False, capture_output=True, text=True,
                               timeout=120)
    assert completed.stderr.strip().splitlines()[-1] == "[] 0"


def test_the_parsers_copies_of_choices_and_defaults_are_the_librarys():
    """cli/choices.py copies what the parser offers from the library, so `--help` imports none of it:
    each copy equals the value it copies (and the parser's defaults are Python's: the tests below)."""
    from boolrules.backends.hardware import QPU_EMBEDDING_TIMEOUT, QPU_EMBEDDING_TIMEOUT_CAP, QPU_TOPOLOGIES
    from boolrules.cli import choices
    from boolrules.formulations.preselection import FEATURE_SCORES
    from boolrules.formulations.qubo import SLACK_MODES
    from boolrules.formulations.qubo_problem import PENALTY_MODES
    from boolrules.localsearch.oracle import POLICIES
    from boolrules.metrics import METRICS
    from boolrules.rules import OPERATORS, SHAPES
    from boolrules.seeding import MAX_SEED

    from boolrules.formats.files import QASM3_MAX_QUBITS

    assert choices.MAX_SEED == MAX_SEED and choices.QPU_EMBEDDING_TIMEOUT == QPU_EMBEDDING_TIMEOUT
    assert choices.QASM3_MAX_QUBITS == QASM3_MAX_QUBITS
    from boolrules.rules import KEEP

    assert choices.KEEP == KEEP.name
    from boolrules.datasets import DATASETS

    assert choices.DATASETS == DATASETS
    assert choices.QPU_EMBEDDING_TIMEOUT_CAP == QPU_EMBEDDING_TIMEOUT_CAP
    for copy, value in [(choices.OPERATORS, OPERATORS), (choices.SHAPES, SHAPES), (choices.METRICS, METRICS),
                        (choices.POLICIES, POLICIES), (choices.FEATURE_SCORES, FEATURE_SCORES),
                        (choices.PENALTY_MODES, PENALTY_MODES), (choices.SLACK_MODES, SLACK_MODES), (choices.QPU_TOPOLOGIES, QPU_TOPOLOGIES),
                        (choices.PROBLEM_FORMATS, PROBLEM_FORMATS), (choices.QUBO_FORMATS, QUBO_FORMATS)]:
        assert copy == tuple(value)  # the names, in the library's order
    python = choices.python_defaults()
    assert choices.PROBLEM_DEFAULTS == {name: python[name] for name in choices.PROBLEM_DEFAULTS}
    learner = choices.learner_defaults()
    assert choices.LEARNER_DEFAULTS == {name: learner[name] for name in choices.LEARNER_DEFAULTS}


def bad_toml(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[backend]\nname = "highs"\nnum_reads = 3\n')
    return str(path)


def broken_toml(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("[backend\n")
    return str(path)


USAGE_ERRORS = [
    ([], "the following arguments are required: COMMAND"),
    (["solve", "--dataset", "nonexistent"], "unknown dataset"),
    (["fit", "--max-complexity", "2"], "argument --max-complexity: must be an integer >= 3, got '2'"),
    (["fit", "--num-iterations", "none"], "num_iterations=None (no cap on iterations) needs a time_budget"),
    (["fit", "--time-budget", "0"], "argument --time-budget: must be a number > 0, got '0'"),
    (["fit", "--num-iterations", "0"], "--num-iterations: must be an integer >= 1"),
    (["solve", "--csv", "{tmp}/missing.csv", "--label", "y"], "does not exist"),
    (["solve", "--csv", "{csv}", "--label", "nope"], "column 'nope' is not in"),
    (["solve", "--csv", "{csv}", "--label", "grade"], "4 distinct values, not 2: pass --positive"),
    (["solve", "--csv", "{csv}", "--label", "churn", "--positive", "maybe"], "'maybe' is not a value of column"),
    (["solve", "--csv", "{csv}"], "--csv needs --label"),
    (["inspect", "--label", "churn"], "--label and --positive go with --csv"),
    (["solve", "--dataset", "breast_cancer", "--csv", "{csv}"], "not allowed with argument --dataset"),
    (["solve", "--backend", "nonexistent"], "unknown backend 'nonexistent'"),
    (["fit", "--nonlocal-backend", "nonexistent"], "unknown backend 'nonexistent'"),
    (["solve", "--backend", "exact", "--time-limit", "1"], "backend 'exact' takes no time limit"),
    (["solve", "--no-polish"], "--no-polish: backend 'highs' does not polish"),
    (["fit", "--no-polish"], "--no-polish applies to a QUBO sampler backend: give --nonlocal-backend or --config"),
    (["fit", "--nonlocal-backend", "highs", "--no-polish"], "--no-polish: backend 'highs' does not polish"),
    (["solve", "--config", "{bad_toml}"], "unknown option(s) ['num_reads']"),
    (["fit", "--config", "{broken_toml}"], "invalid TOML"),
    (["solve", "--config", "{tmp}/missing.toml"], "does not exist"),
    (["fit", "--nonlocal-backend", "highs", "--config", "{bad_toml}"], "not allowed with"),
    (["inspect", "--operator", "Xor"], "invalid choice: 'Xor'"),
    (["inspect", "--max-samples", "0"], "must be an integer >= 2 (a row of each class) or auto, got '0'"),
    (["fit", "--max-samples", "lots"], "argument --max-samples: must be an integer >= 1 or auto, got 'lots'"),
    (["inspect", "--min-num-literals", "5"], "--min-num-literals 5 is more than --max-num-literals 4"),
    (["solve", "--min-num-literals", "3", "--max-num-literals", "2"], "--min-num-literals 3 is more than --max-num-literals 2"),
    (["inspect", "--shape", "DNF", "--min-terms", "3"], "--min-terms 3 is more than --max-terms 2"),
    (["export", "--format", "bqm"], "the following arguments are required: --output"),
    (["export", "--format", "xls", "-o", "x"], "invalid choice: 'xls'"),
    (["export", "--format", "bqm", "-o", "{tmp}/no/such/folder/x.bqm"], "folder"),
    (["solve", "--csv", "{csv}", "--label", "churn", "--backend", "exact"], "more than the exact backend's"),
]


# numeric options whose values the library refused (or crashed on), each refused by the parser naming the option
OPTION_VALUES = [
    (["fit", "--n-jobs", "0"], "argument --n-jobs: must be an integer from 1 to 1024, or from -1 to -1024"),
    (["fit", "--n-jobs", "100000000000000000000000"], "argument --n-jobs: must be"),
    (["explain", "--row", "0", "--n-jobs", "-2000"], "argument --n-jobs: must be"),
    (["fit", "--n-jobs", "two"], "argument --n-jobs: must be"),
    (["fit", "--num-starts", "1000000000000"], "argument --num-starts: must be an integer >= 1 and <= 1000000"),
    (["explain", "--row", "0", "--num-starts", "100000000000000000000000"], "argument --num-starts: must be"),
    (["fit", "--nonlocal-backend", "native", "--nonlocal-time-limit", "inf"],
     "argument --nonlocal-time-limit: must be seconds >= 0 (finite), auto or none, got 'inf'"),
    (["fit", "--nonlocal-backend", "native", "--nonlocal-time-limit", "nan"], "argument --nonlocal-time-limit: must"),
    (["fit", "--num-starts", "1", "--num-iterations", "10", "--test-size", "0.001"], "--test-size 0.001 leaves 1 test"),
    (["solve", "--test-size", "0.999"], "--test-size 0.999 leaves 569 test and 0 training rows"),
    (["solve", "--test-size", "-0.1"], "argument --test-size: must be a number >= 0 and < 1, got '-0.1'"),
    (["export", "--format", "bqm", "-o", "x.bqm", "--test-size", "1"], "argument --test-size: must be a number >= 0 "
                                                                      "and < 1, got '1'"),
    (["inspect", "--test-size", "nan"], "argument --test-size: must be a number >= 0 and < 1, got 'nan'"),
    (["solve", "--max-samples", "1"], "argument --max-samples: must be an integer >= 2 (a row of each class) or auto"),
]


@pytest.mark.parametrize("argv, message", OPTION_VALUES)
def test_option_values_the_library_refuses_name_the_option(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "boolrules: error: " in err and message in err, err
    assert "Traceback" not in err and "n_jobs" not in err


@pytest.mark.parametrize("argv, message", USAGE_ERRORS)
def test_bad_usage_and_input_exit_2(capsys, tmp_path, csv, argv, message):
    values = {"tmp": tmp_path, "csv": csv, "bad_toml": bad_toml(tmp_path), "broken_toml": broken_toml(tmp_path)}
    assert main([arg.format(**values) for arg in argv]) == 2
    err = capsys.readouterr().err
    assert "boolrules: error: " in err and message in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("argv", [["solve", "--backend", "dwave-qpu"],
                                  ["solve", "--config", str(CONFIGS / "dwave-qpu.toml")],
                                  ["fit", "--nonlocal-backend", "leap-hybrid"]])
def test_missing_dwave_credentials_exit_1(capsys, no_dwave_credentials, argv):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("boolrules: error: no D-Wave API token") and "DWAVE_API_TOKEN" in err


def test_no_rule_from_the_solver_exits_1(capsys, monkeypatch, csv):
    def fail(self, problem, **options):
        return Result(None, None, "error", 0.0, self.name, message="solver crashed")

    monkeypatch.setattr(IlpBackend, "solve", fail)
    assert main(["solve", "--csv", csv, "--label", "churn", "--max-num-literals", "2"]) == 1
    err = capsys.readouterr().err
    assert "boolrules: error: backend 'highs' returned no rule (status error: solver crashed)" in err


def test_a_solver_that_raises_at_run_time_exits_1(capsys, monkeypatch, csv):
    class LicenseError(Exception):
        pass

    def fail(self, problem, **options):
        raise LicenseError("no licence for this machine")

    monkeypatch.setattr(IlpBackend, "solve", fail)
    assert main(["solve", "--csv", csv, "--label", "churn", "--max-num-literals", "2"]) == 1
    err = capsys.readouterr().err
    assert err == "boolrules: error: backend 'highs' failed: no licence for this machine\n"


def test_interrupt_exits_130(capsys, monkeypatch):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr("boolrules.cli.datasets.run", interrupted)
    assert main(["datasets"]) == 130
    assert capsys.readouterr().err == "boolrules: interrupted\n"


@pytest.mark.parametrize("command", [["fit", "--num-starts", "1", "--num-iterations", "10"],
                                     ["fit", "--nonlocal-backend", "sa"], ["solve", "--backend", "sa"]])
@pytest.mark.parametrize("seed", ["3000000000", "5000000000", "-1"])
def test_a_seed_outside_what_samplers_take_is_a_usage_error(capsys, command, seed):
    """--seed is checked against the range every sampler takes (0..2**31-1), whatever the backend;
    it used to fail deep inside train_test_split, or inside dwave after every move failed."""
    assert main([*command, "--seed", seed]) == 2
    assert f"--seed: must be an integer >= 0 and <= 2147483647, got '{seed}'" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["fit", "explain"])
def test_column_names_cannot_forge_output_lines(capsys, tmp_path, command):
    """Issue 29 item 7: a column name with a newline forged `complexity:` and `balanced accuracy:`
    lines; the text escapes names (one line each), --json keeps them exact."""
    rng = np.random.default_rng(0)
    n = 60
    forged = "a\ncomplexity: 1\nbalanced accuracy: train 1.0000, test 1.0000"
    frame = pd.DataFrame({forged: rng.normal(size=n), "b\x1b[2K\tc": rng.normal(size=n)})
    frame["churn\nlabel: x"] = np.where(frame[forged] > 0, "yes\nno", "no")
    path = tmp_path / "forged.csv"
    frame.to_csv(path, index=False)
    argv = [command, "--csv", str(path), "--label", "churn\nlabel: x", "--num-starts", "1", "--num-iterations", "60",
            "--max-complexity", "3", "--describe"]
    if command == "explain":
        argv = [*argv[:-1], "--row", "0"]
    assert main(argv) == 0, capsys.readouterr().err
    lines = capsys.readouterr().out.splitlines()
    assert all(line.isprintable() for line in lines), lines
    assert sum(line.startswith("complexity:") for line in lines) == (command == "fit")
    assert sum(line.startswith("balanced accuracy:") for line in lines) == (command == "fit")
    assert sum(line.startswith("label:") for line in lines) == 1
    result = run_json(capsys, argv)
    assert "a\\ncomplexity: 1" in result["rule"]  # rule text escapes names, and parse reads them back
    if command == "explain":  # the explanation's conditions keep the exact names
        assert any(node["text"].startswith(forged) for node in result["explanation"]["nodes"])
