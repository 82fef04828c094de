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
from boolrules.formats import export_qubo
from boolrules.rules import AtLeast, Literal, One, Or
from boolrules.rules.serialize import from_dict, from_json, from_postfix, to_dict, to_json, to_postfix

from .errors import assert_raises_clearly
from .processes import default_sigint


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

    monkeypatch.setattr(depth_one_classifier, "build_depth_one", no_model)
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
    (["fit", "--nonlocal-time-share", "0"], "--nonlocal-time-share"), (["fit", "--nonlocal-time-share", "most"],
                                                                       "--nonlocal-time-share"),
    (["fit", "--num-starts", "0"], "--num-starts"),
    (["fit", "--max-depth", "0"], "--max-depth"), (["fit", "--max-complexity", "1"], "--max-complexity"),
    (["fit", "--lam", "-1"], "--lam"), (["inspect", "--min-terms", "-1"], "--min-terms"),
    (["inspect", "--embed-timeout", "inf"], "--embed-timeout"), (["inspect", "--embed-timeout", "1e12"], "--embed-timeout"),
])
def test_cli_bad_values_name_the_option(args, option, capsys):
    from boolrules.cli import main

    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"argument {option}:" in err and "train_test_split" not in err


def test_cli_nonlocal_time_share_takes_auto(monkeypatch):
    from boolrules.cli import fit, main

    shares = []
    real = fit.RuleClassifier
    monkeypatch.setattr(fit, "RuleClassifier", lambda **params: shares.append(params["nonlocal_time_share"])
                        or real(**params))
    assert main(["fit", "--nonlocal-time-share", "auto", "--nonlocal-backend", "native", "--time-budget", "0.5",
                 "--num-starts", "1", "--max-complexity", "3", "--json"]) == 0
    assert shares == ["auto"]


@pytest.fixture(scope="module")
def zip_exports(tmp_path_factory):
    """A CQM and an .npz export of a small problem, with their sidecars."""
    from boolrules.formulations import depth_one

    X = np.random.RandomState(0).randint(0, 2, (30, 5))
    qubo = depth_one(X, X[:, 0] | X[:, 1], "Or", max_num_literals=2).to_qubo()
    folder = tmp_path_factory.mktemp("zips")

    return {fmt: export_qubo(qubo, folder / f"good.{fmt}", fmt) for fmt in ("cqm", "npz")}


def _zip_methods(data: bytes, method: int, flags: int = 0) -> bytes:
    """`data` with every zip entry's compression method (local and central headers) set to `method`
    and `flags` or-ed into its general-purpose flags."""
    out = bytearray(data)
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        pos = out.find(signature)
        while pos >= 0:
            out[pos + offset] |= flags
            out[pos + offset + 2:pos + offset + 4] = method.to_bytes(2, "little")
            pos = out.find(signature, pos + 4)
    return bytes(out)


def _damaged(data: bytes):
    rng = np.random.RandomState(1)
    yield from (data[:n] for n in range(0, len(data), max(1, len(data) // 60)))
    for _ in range(200):
        flipped = bytearray(data)
        flipped[rng.randint(len(data))] ^= 1 << rng.randint(8)
        yield bytes(flipped)
    for method in (12, 14, 99):  # bzip2, LZMA, unknown
        yield _zip_methods(data, method)
    yield _zip_methods(data, 8, flags=0x01)  # encrypted
    yield _zip_methods(data, 8, flags=0x40)  # strong encryption


@pytest.mark.parametrize("fmt", ["cqm", "npz"])
def test_damaged_zip_files_are_value_errors_naming_the_file(zip_exports, tmp_path, fmt):
    import shutil

    from boolrules.formats import load_qubo_file, sidecar_path

    good = zip_exports[fmt]
    target = tmp_path / f"bad.{fmt}"
    shutil.copy(sidecar_path(good), sidecar_path(target))
    other = []
    for data in _damaged(good.read_bytes()):
        target.write_bytes(data)
        try:
            load_qubo_file(target, fmt)
        except ValueError as err:
            assert str(target) in str(err)
        except Exception as err:  # noqa: BLE001 - every other error is what this test counts
            other.append(f"{type(err).__name__}: {err}")
    assert other == []


def test_zip_entries_announcing_more_than_they_hold_are_refused(zip_exports, tmp_path):
    import io
    import shutil
    import zipfile

    from boolrules.formats import load_qubo_file, sidecar_path

    good = zip_exports["npz"]
    with zipfile.ZipFile(good) as zf:
        entries = {info.filename: zf.read(info) for info in zf.infolist()}
    entries["data.npy"] = entries["data.npy"].replace(b"'shape': (", b"'shape': (100000000000", 1)
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    target = tmp_path / "bomb.npz"
    target.write_bytes(packed.getvalue())
    shutil.copy(sidecar_path(good), sidecar_path(target))
    assert_raises_clearly(ValueError, lambda: load_qubo_file(target, "npz"), str(target), "data.npy", "shape")
    bomb = tmp_path / "bomb.cqm"
    data = bytearray(zip_exports["cqm"].read_bytes())
    central = data.find(b"PK\x01\x02")
    data[central + 24:central + 28] = (2**32 - 1).to_bytes(4, "little")  # the announced uncompressed size
    bomb.write_bytes(bytes(data))
    assert_raises_clearly(ValueError, lambda: load_qubo_file(bomb, "cqm"), str(bomb), "more data")


# Exports: the atomic write's file-system edge cases (issue 15, item 11)


def _exported(folder):
    return sorted(p.name for p in folder.iterdir())


def test_an_export_name_near_the_length_limit_is_written(tmp_path, atleast_qubo):
    from boolrules.formats import load_qubo_file, sidecar_path

    target = tmp_path / ("q" * (255 - len(".boolrules.json") - len(".bqm")) + ".bqm")
    export_qubo(atleast_qubo, target, "bqm")
    assert _exported(tmp_path) == sorted([target.name, sidecar_path(target).name])
    assert load_qubo_file(target, "bqm").num_variables == atleast_qubo.bqm.num_variables


def test_an_export_whose_sidecar_name_is_too_long_is_refused_before_any_work(tmp_path, atleast_qubo):
    target = tmp_path / ("q" * 250 + ".bqm")
    assert_raises_clearly(OSError, lambda: export_qubo(atleast_qubo, target, "bqm"), str(target), "sidecar")
    assert _exported(tmp_path) == []


def test_an_export_through_a_symbolic_link_replaces_the_file_it_points_to(tmp_path, atleast_qubo):
    from boolrules.formats import load_qubo_file, sidecar_path

    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "q.bqm"
    real.write_text("old")
    link = tmp_path / "link.bqm"
    link.symlink_to(real)
    export_qubo(atleast_qubo, link, "bqm")
    assert link.is_symlink() and real.read_bytes()[:8] == b"DIMODBQM"
    assert load_qubo_file(link, "bqm").num_variables == atleast_qubo.bqm.num_variables
    assert sidecar_path(link).is_file() and _exported(tmp_path / "real") == ["q.bqm"]
    dangling = tmp_path / "dangling.bqm"
    dangling.symlink_to(tmp_path / "missing" / "q.bqm")
    assert_raises_clearly(FileNotFoundError, lambda: export_qubo(atleast_qubo, dangling, "bqm"), str(dangling), "missing")


def test_a_replaced_export_keeps_its_permissions(tmp_path, atleast_qubo):
    import os
    import stat

    from boolrules.formats import sidecar_path

    target = tmp_path / "q.bqm"
    export_qubo(atleast_qubo, target, "bqm")
    os.chmod(target, 0o600)
    os.chmod(sidecar_path(target), 0o640)
    export_qubo(atleast_qubo, target, "bqm")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert stat.S_IMODE(sidecar_path(target).stat().st_mode) == 0o640


_SLOW_EXPORT = """
import sys, time
from pathlib import Path
import numpy as np
from boolrules.formats import export_qubo, writers
from boolrules.formulations import depth_one

def slow(qubo, path):
    Path(path).write_bytes(b"x" * 10_000_000)
    print("writing", flush=True)
    time.sleep(60)

writers.QUBO_WRITERS["bqm"] = slow
X = np.random.RandomState(0).randint(0, 2, (20, 4))
export_qubo(depth_one(X, X[:, 0], "Or", max_num_literals=2).to_qubo(), sys.argv[1], "bqm")
"""


def _kill_mid_export(target, signum) -> int:
    import os
    import signal
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-c", _SLOW_EXPORT, str(target)], stdout=subprocess.PIPE, env=env)
    assert proc.stdout.readline() == b"writing\n"
    proc.send_signal(signum)
    code = proc.wait(30)
    return code if code >= 0 else 128 - code if signum != signal.SIGKILL else code


@pytest.mark.slow
def test_sigterm_during_an_export_leaves_no_temporary_file(tmp_path):
    import signal

    target = tmp_path / "q.bqm"
    target.write_text("the previous export")
    assert _kill_mid_export(target, signal.SIGTERM) == 143
    assert _exported(tmp_path) == ["q.bqm"] and target.read_text() == "the previous export"


@pytest.mark.slow
def test_a_sigkilled_exports_temporary_file_is_removed_by_the_next_export(tmp_path, atleast_qubo):
    import os
    import signal

    target = tmp_path / "q.bqm"
    _kill_mid_export(target, signal.SIGKILL)
    leftovers = [name for name in _exported(tmp_path) if name.startswith(".")]
    assert len(leftovers) == 1 and (tmp_path / leftovers[0]).stat().st_size == 10_000_000
    live = tmp_path / leftovers[0].replace(leftovers[0].split(".")[2], str(os.getpid()), 1)
    live.write_text("a live writer's temporary file")  # of this process: kept
    export_qubo(atleast_qubo, target, "bqm")
    assert [name for name in _exported(tmp_path) if name.startswith(".")] == [live.name]


# Ctrl-C while the command line loads (issue 15, item 15)


def test_ctrl_c_while_the_command_line_loads_is_an_interrupt():
    import os
    import signal
    import subprocess
    import sys

    script = ("import sys, boolrules.command; print('loading', flush=True); "
              "sys.exit(boolrules.command.main(['fit']))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            preexec_fn=default_sigint)
    assert proc.stdout.readline() == b"loading\n"
    time.sleep(0.3)  # into the imports of the library the command runs (seconds long)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err.decode().strip() == "boolrules: interrupted"


def test_ctrl_c_inside_a_commands_imports_is_an_interrupt_after_them(monkeypatch, capsys):
    """A Ctrl-C that lands inside a library's import is held until the command's imports end, so a
    library's bare `except` (or an import error it turns into) cannot lose it."""
    import importlib
    import signal
    from types import SimpleNamespace

    cli_main = importlib.import_module("boolrules.cli.main")  # the module (boolrules.cli.main is its function)

    def importing(name, package):
        try:
            signal.raise_signal(signal.SIGINT)
        except BaseException:  # as a library's bare `except` around an optional import
            pass
        return SimpleNamespace(run=lambda args: 0)

    monkeypatch.setattr(cli_main, "import_module", importing)
    # Python's own handler, as in a program started from a terminal: a suite started in the background
    # by a shell without job control inherits SIGINT ignored, and an ignored Ctrl-C has nothing to hold
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        assert cli_main.main(["datasets"]) == 130
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)
    assert capsys.readouterr().err.strip() == "boolrules: interrupted"


def test_import_boolrules_loads_no_dependency_stack():
    """`import boolrules` in a fresh interpreter loads no dependency, and a subpackage is an attribute
    on first use; the public names resolve (here, where the stack is loaded: resolving loads it)."""
    import importlib
    import subprocess
    import sys

    import boolrules

    code = ("import sys, boolrules; heavy = [m for m in ('numpy', 'sklearn', 'pandas', 'pyomo', 'dimod') "
            "if m in sys.modules]; print(heavy); print(boolrules.command.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": ":".join(sys.path)}).stdout.split("\n")
    assert out[:2] == ["[]", "boolrules.command"]
    assert set(dir(boolrules)) >= set(boolrules.__all__) and boolrules.rules.Or.__name__ == "Or"
    for name in boolrules.__all__:  # through the module's __getattr__ even if an earlier use cached the name
        value = boolrules.__getattr__(name)
        assert value is getattr(boolrules, name) is getattr(importlib.import_module(f"boolrules.{boolrules._MODULES[name]}"), name)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        boolrules.nothing


def test_the_command_lines_help_and_usage_errors_load_no_dependency_stack():
    """`boolrules --help`, a command's --help and a usage error parse without the library's imports
    (seconds): the parser's choices and defaults are copies (checked in tests/test_cli.py)."""
    import subprocess
    import sys

    code = ("import contextlib, io, sys; from boolrules.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
            "    codes = [main(['--help']), main(['fit', '--help']), main(['solve', '--seed', '-1'])]\n"
            "print(codes, [m for m in ('numpy', 'sklearn', 'pandas', 'pyomo', 'dimod') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": ":".join(sys.path)}).stdout
    assert out.strip() == "[0, 0, 2] []"


def test_depth_one_classifier_checks_a_backend_instances_time_limit_capability():
    from .fakes import Recording

    class NoTimeLimit(Recording):
        capabilities = frozenset()

    X = np.random.RandomState(0).randint(0, 2, (40, 4))
    backend = NoTimeLimit()
    assert_raises_clearly(ValueError, lambda: DepthOneClassifier(backend=backend, time_limit=5).fit(X, X[:, 0]),
                          "time_limit", "capabilities")
    assert backend.calls == []
