"""Issue 15, second round: deep rules load back, option caps, early refusals, interrupts, files."""

from __future__ import annotations

import copy
import json
import pickle
import time

import numpy as np
import pytest

from boolrules import DepthOneClassifier
from boolrules.backends import get_backend
from boolrules.backends.sampler import COUNT_CAPS
from boolrules.rules import AtLeast, Literal, One, Or
from boolrules.rules.serialize import from_dict, from_json, from_postfix, to_dict, to_json, to_postfix

from .errors import assert_raises_clearly


def deep_rule(depth: int):
    """A chain of `depth` operators of every kind, negated ones among them."""
    rule = Literal(0)
    for i in range(depth):
        if i % 3 == 0:
            rule = AtLeast(1, rule, Literal(i + 1), One(), negated=i % 2 == 0)
        else:
            rule = Or(rule, ~Literal(i + 1))
    return rule


@pytest.mark.parametrize("depth", [201, 1000, 5000])
def test_deep_rules_load_back_by_pickle_and_json(depth):
    rule = deep_rule(depth)
    assert rule.depth == depth
    assert pickle.loads(pickle.dumps(rule)) == rule
    assert copy.deepcopy(rule) == rule
    assert from_json(to_json(rule)) == rule
    assert from_dict(to_dict(rule)) == rule
    assert from_postfix(to_postfix(rule)) == rule
    assert rule != deep_rule(depth - 1) and rule != ~rule


def test_to_json_is_json_dumps_of_to_dict():
    rule = deep_rule(50)
    assert to_json(rule) == json.dumps(to_dict(rule))
    assert json.loads(to_json(rule)) == to_dict(rule)


def test_deep_json_read_without_json_module_recursion_is_still_checked():
    text = to_json(deep_rule(1000))
    assert_raises_clearly(ValueError, lambda: from_json(text[:-1]), "JSON")
    assert_raises_clearly(ValueError, lambda: from_json(text + "x"), "JSON")
    assert_raises_clearly(ValueError, lambda: from_json(text.replace('"k": 1', '"k": 7', 1)), "k")
    assert_raises_clearly(ValueError, lambda: from_json(text.replace('{"literal": 0, "negated": false}', '[0]')), "dict")
    assert from_json(text.encode()) == deep_rule(1000)


@pytest.mark.parametrize("tokens", [(), (("f", 0, False), ("f", 1, False)), (("Or", False, None, 1),),
                                    (("Nope", False, None, 1),), (("f", 0, False), ("Or", False, None, 2)),
                                    (("f", -1, False),), (("c", 2),)])
def test_malformed_postfix_is_a_value_error(tokens):
    with pytest.raises((ValueError, TypeError)):
        from_postfix(tokens)


@pytest.mark.parametrize(("backend", "option", "value"), [
    ("sa", "num_reads", 10**23), ("sa", "num_sweeps", 10**12), ("tabu", "timeout", 10**12),
    ("steepest", "num_reads", 10**12), ("exact", "max_variables", 40), ("qaoa", "max_qubits", 60),
    ("qaoa", "shots", 10**12), ("qaoa", "reps", 10**9),
])
def test_sampler_options_are_capped_before_any_work(backend, option, value):
    assert_raises_clearly(ValueError, lambda: get_backend(backend, **{option: value}), option, "<=")


def test_sampler_option_caps_are_accepted_at_the_cap():
    get_backend("sa", num_reads=COUNT_CAPS["num_reads"], num_sweeps=COUNT_CAPS["num_sweeps"])
    get_backend("tabu", timeout=COUNT_CAPS["timeout"])


@pytest.mark.parametrize("backend", ["qaoa", "exact"])
def test_depth_one_classifier_refuses_a_time_limit_before_any_work(backend, monkeypatch):
    from boolrules import depth_one_classifier

    def no_model(*args, **kwargs):
        raise AssertionError("the model was built")

    monkeypatch.setattr(depth_one_classifier, "depth_one", no_model)
    X = np.random.RandomState(0).randint(0, 2, (40, 4))
    assert_raises_clearly(ValueError, lambda: DepthOneClassifier(backend=backend, time_limit=5).fit(X, X[:, 0]),
                          "time_limit")


def test_depth_one_classifier_refuses_a_toml_backends_time_limit_before_any_work(tmp_path):
    config = tmp_path / "exact.toml"
    config.write_text('[backend]\nname = "exact"\n')
    X = np.random.RandomState(0).randint(0, 2, (40, 4))
    assert_raises_clearly(ValueError, lambda: DepthOneClassifier(backend=str(config), time_limit=5).fit(X, X[:, 0]),
                          "time_limit", str(config))
    DepthOneClassifier(backend="sa", time_limit=1, max_num_literals=1).fit(X, X[:, 0])


@pytest.mark.parametrize("names", [["a", "b"], "abcdef", 5, {0: "a"}])
@pytest.mark.parametrize("show", ["to_str", "describe", "to_graph"])
def test_rule_printing_names_feature_names_when_they_do_not_fit(names, show):
    rule = Or(Literal(0), ~Literal(5))
    with pytest.raises((ValueError, TypeError)) as info:
        getattr(rule, show)(names)
    assert "feature_names" in str(info.value)


def test_rule_printing_with_enough_names():
    assert Or(Literal(0), ~Literal(2)).to_str(np.array(["a", "b", "c >= 1"])) == "Or(a, c < 1)"


@pytest.mark.parametrize(("args", "option"), [
    (["solve", "--seed", "-1"], "--seed"), (["solve", "--test-size", "nan"], "--test-size"),
    (["solve", "--test-size", "5"], "--test-size"), (["solve", "--lam", "nan"], "--lam"),
    (["solve", "--time-limit", "-1"], "--time-limit"), (["solve", "--min-num-literals", "-1"], "--min-num-literals"),
    (["fit", "--time-budget", "nan"], "--time-budget"), (["fit", "--scan-moves", "2"], "--scan-moves"),
    (["fit", "--nonlocal-time-share", "0"], "--nonlocal-time-share"), (["fit", "--num-starts", "0"], "--num-starts"),
    (["fit", "--max-depth", "0"], "--max-depth"), (["fit", "--max-complexity", "1"], "--max-complexity"),
    (["fit", "--lam", "-1"], "--lam"), (["inspect", "--min-terms", "-1"], "--min-terms"),
    (["inspect", "--embed-timeout", "inf"], "--embed-timeout"),
])
def test_cli_bad_values_name_the_option(args, option, capsys):
    from boolrules.cli import main

    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"argument {option}:" in err and "train_test_split" not in err
