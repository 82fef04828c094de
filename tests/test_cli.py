import json

from boolrules.cli import main


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


def test_errors_exit_2_with_a_message(capsys):
    assert main(["fit", "--dataset", "nonexistent"]) == 2
    assert "boolrules: error: unknown dataset" in capsys.readouterr().err
    assert main(["fit", "--max-complexity", "2"]) == 2
    assert "max_complexity must be >= 3" in capsys.readouterr().err


def test_datasets_lists_names(capsys):
    assert main(["datasets"]) == 0
    assert "breast_cancer" in capsys.readouterr().out.split()
