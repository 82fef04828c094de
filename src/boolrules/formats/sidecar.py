"""The sidecar: a JSON file beside every export (`FILE` + `SIDECAR_SUFFIX`) that makes it
self-contained, so that a sample solved elsewhere decodes without the Python session that wrote it.

It names the file's variables in file order (`variables`) with what each one is (`labels`: the
QUBO label or the model column; `roles`: rule variables, η, slack, auxiliary), the vartype and
the offset (and whether the file itself holds it), the QUBO's compile options and penalties, and
the problem: its kind and parameters (operator, negated root, literal bounds, λ), feature names,
and the data its objective is evaluated on (X and y bit-packed, the sample weights as floats).
`rebuild` builds the same problem and QUBO from it and checks them against the sidecar.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import math
from pathlib import Path

import numpy as np

from ..exceptions import FormatError, InputTypeError, MissingFileError
from ..validation import check_path
from .dimod_files import finite

__all__ = ["SIDECAR_SUFFIX", "VERSION", "check_feature_names", "model_sidecar", "qubo_sidecar", "read_sidecar", "rebuild", "sidecar_path"]

SIDECAR_SUFFIX = ".boolrules.json"
VERSION = 1
BIT_ORDER = ("a bitstring lists variables[0] first; a Qiskit counts key is little-endian: variables[0] is its "
             "rightmost bit")
# Formats whose own readers see the offset; the others (qbsolv text, matrices, the circuit) leave it to the sidecar.
_OFFSET_IN_FILE = {"bqm", "json", "ising", "lp", "ommx", "cqm", "mps"}
_KEYS = {"boolrules_sidecar", "file", "format", "content", "vartype", "offset", "offset_in_file", "variables",
         "labels", "roles", "bit_order", "problem", "qubo", "fingerprint"}


def sidecar_path(path) -> Path:
    """The sidecar of the file `path`: the same name with `SIDECAR_SUFFIX` appended."""
    path = check_path(path, "path")
    return path.with_name(path.name + SIDECAR_SUFFIX)


def _pack(bits: np.ndarray) -> str:
    return base64.b64encode(np.packbits(np.asarray(bits, dtype=bool), axis=-1).tobytes()).decode("ascii")


def _unpack(text, shape: tuple[int, ...], what: str) -> np.ndarray:
    if not isinstance(text, str):
        raise FormatError(f"{what} must be base64 text")
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except ValueError as err:
        raise FormatError(f"{what} is not base64: {err}") from None
    width = (shape[-1] + 7) // 8
    if len(raw) != math.prod(shape[:-1]) * width:
        raise FormatError(f"{what} holds {len(raw)} bytes, not the {shape} bits the sidecar announces")
    packed = np.frombuffer(raw, dtype=np.uint8).reshape(*shape[:-1], width)
    return np.unpackbits(packed, axis=-1, count=shape[-1]).astype(np.uint8)


def _roles(blocks, value_blocks) -> dict[str, list[int]]:
    """Positions of the rule variables (the problem's value blocks), η, slack bits and the rest."""
    blocks = np.asarray(blocks, dtype=str)
    rule = np.isin(blocks, list(value_blocks))
    eta = blocks == "eta"
    slack = np.char.startswith(blocks, "slack")
    return {role: np.flatnonzero(mask).tolist()
            for role, mask in (("rule", rule), ("eta", eta), ("slack", slack), ("auxiliary", ~(rule | eta | slack)))}


def check_feature_names(feature_names, problem) -> list[str] | None:
    """`feature_names` as a list of strings, one per column of the data `problem` was built from
    (its own columns, or with a preselection at least up to its last kept one: rules name those);
    None stays None; otherwise an error naming it."""
    if feature_names is None:
        return None
    if isinstance(feature_names, str) or not hasattr(feature_names, "__len__"):
        raise InputTypeError(f"feature_names must be a list of names, got {type(feature_names).__name__}")
    kept = getattr(problem, "features", None)
    if kept is None and len(feature_names) != problem.num_features:
        raise FormatError(f"feature_names has {len(feature_names)} names, the problem has {problem.num_features} "
                         "features")
    if kept is not None and len(feature_names) <= int(kept.max()):
        raise FormatError(f"feature_names has {len(feature_names)} names, the problem keeps feature {int(kept.max())}")
    return [str(name) for name in feature_names]


def _problem_record(problem, feature_names) -> dict:
    """The problem's kind, parameters, feature names and data."""
    from ..formulations.depth_two_problem import DepthTwoProblem

    n, m = problem.X.shape
    if feature_names is None:  # the problem's own (`depth_one(..., feature_names=)`)
        feature_names = getattr(problem, "feature_names", None)
    feature_names = check_feature_names(feature_names, problem)
    if isinstance(problem, DepthTwoProblem):
        params = {"kind": "depth_two", "shape": problem.shape.name, "max_terms": problem.max_terms,
                  "max_literals_per_term": problem.max_literals_per_term, "max_complexity": problem.max_complexity,
                  "min_terms": problem.min_terms}
    else:
        params = {"kind": "depth_one", "operator": problem.operator, "parameterized": problem.parameterized,
                  "max_num_literals": problem.max_num_literals, "min_num_literals": problem.min_num_literals,
                  "exclusive_literals": problem.exclusive_literals}
    kept = getattr(problem, "features", None)
    return {**params, "negated": problem.negated, "lam": problem.lam, "label": problem.label,
            "feature_names": feature_names, "features": None if kept is None else kept.tolist(),
            "data": {"num_samples": n, "num_features": m, "X": _pack(problem.X), "y": _pack(problem.y),
                     "sample_weight": problem.weights.tolist()}}


def _qubo_fingerprint(qubo) -> list[float]:
    """Sums of the QUBO's biases, plain and weighted by position: what `rebuild` checks the rebuilt QUBO against
    (to a relative 1e-9, so that another machine's last bits do not matter)."""
    linear, (row, col, quadratic), offset = qubo.bqm.binary.to_numpy_vectors(qubo.labels)
    position = np.arange(1, len(linear) + 1)
    return [float(offset), float(linear.sum()), float(linear @ position), float(quadratic.sum()),
            float(quadratic @ (row + 2 * col + 1))]


def _model_fingerprint(form) -> list[float]:
    """The same for a model: its objective and its matrix."""
    A = form.A.tocoo()
    return [float(form.c0), float(form.c.sum()), float(form.c @ np.arange(1, form.num_vars + 1)), float(A.data.sum()),
            float(A.data @ (A.row + 2 * A.col + 1))]


def _header(file, format, content, names) -> dict:
    return {"boolrules_sidecar": VERSION, "file": check_path(file, "path").name, "format": format,
            "content": content, "variables": [str(name) for name in names], "bit_order": BIT_ORDER}


def qubo_sidecar(qubo, file, format: str, names, feature_names=None) -> dict:
    """The sidecar of a QUBO file: variable i of the file (`names[i]`) is `qubo.labels[i]`."""
    spin = format == "ising"
    offset = (qubo.bqm.spin if spin else qubo.bqm.binary).offset
    penalty = qubo.penalty if isinstance(qubo.penalty, str) else {"soft": qubo.penalties.soft,
                                                                   "hard": qubo.penalties.hard}
    return {**_header(file, format, "qubo", names), "vartype": "SPIN" if spin else "BINARY",
            "offset": float(offset), "offset_in_file": format in _OFFSET_IN_FILE,
            "labels": [str(label) for label in qubo.labels],
            "roles": _roles(qubo.form.label_block, qubo.problem.standard_form.value_blocks),
            "problem": _problem_record(qubo.problem, feature_names),
            "qubo": {"eta": qubo.eta, "slack": qubo.slack, "penalty": penalty,
                     "penalties": {"soft": qubo.penalties.soft, "hard": qubo.penalties.hard},
                     "num_interactions": qubo.bqm.num_interactions, "schedule": qubo.schedule},
            "fingerprint": _qubo_fingerprint(qubo)}


def model_sidecar(problem, file, format: str, names, feature_names=None) -> dict:
    """The sidecar of a model file (lp, mps, ommx, cqm): variable j (`names[j]`) is the standard form's column j."""
    form = problem.standard_form
    return {**_header(file, format, "model", names), "vartype": "BINARY" if np.all(form.var_upper <= 1) else "INTEGER",
            "offset": float(form.c0), "offset_in_file": True, "labels": list(form.var_names),
            "roles": _roles(form.col_block, form.value_blocks), "problem": _problem_record(problem, feature_names),
            "qubo": None, "fingerprint": _model_fingerprint(form)}


def read_sidecar(path) -> dict:
    """The sidecar at `path`, its structure checked (ValueError naming the file otherwise)."""
    path = check_path(path, "sidecar")
    if not path.is_file():
        raise MissingFileError(f"no such sidecar: {path}" + (" (it is a folder)" if path.is_dir() else ""))
    try:
        sidecar = json.loads(path.read_text())
    except (ValueError, RecursionError) as err:
        raise FormatError(f"{path} is not a boolrules sidecar: it is not JSON ({err})") from None
    if not isinstance(sidecar, dict) or sidecar.get("boolrules_sidecar") != VERSION:
        raise FormatError(f"{path} is not a boolrules sidecar (version {VERSION}): it lacks \"boolrules_sidecar\": 1")
    if set(sidecar) != _KEYS:
        raise FormatError(f"{path}: a sidecar has exactly the keys {', '.join(sorted(_KEYS))}")
    if sidecar["content"] not in ("qubo", "model"):
        raise FormatError(f"{path}: content must be 'qubo' or 'model', got {sidecar['content']!r}")
    variables, labels = sidecar["variables"], sidecar["labels"]
    if not (isinstance(variables, list) and isinstance(labels, list) and len(variables) == len(labels)
            and all(isinstance(v, str) for v in variables + labels)):
        raise FormatError(f"{path}: variables and labels must be lists of as many names")
    if len(set(variables)) != len(variables):
        raise FormatError(f"{path}: variables name a variable twice")
    return sidecar


def _kept_features(kept, m: int) -> np.ndarray:
    """The sidecar's `problem.features`: `m` increasing column indices (64-bit), or an error naming it."""
    if not (isinstance(kept, list) and len(kept) == m
            and all(isinstance(j, int) and not isinstance(j, bool) and 0 <= j < 2**63 for j in kept)
            and all(a < b for a, b in zip(kept, kept[1:]))):
        raise FormatError(f"problem.features must be {m} increasing column indices, got {kept!r:.80}")
    return np.array(kept, dtype=np.int64)


def _check_schedule(schedule) -> None:
    """A sidecar's recommended sampler schedule (`QuboProblem.schedule`), only reported: its keys and
    types, names on one printable line, or an error naming it."""
    from ..formulations.qubo_problem import SCHEDULE

    keys = {*SCHEDULE, "beta_range"}
    ok = (isinstance(schedule, dict) and set(schedule) == keys
          and all(isinstance(schedule[key], str) and schedule[key].isprintable() and len(schedule[key]) <= 200
                  for key in ("sampler", "beta_schedule_type"))
          and all(isinstance(schedule[key], int) and not isinstance(schedule[key], bool) and schedule[key] > 0
                  for key in ("num_reads", "num_sweeps"))
          and isinstance(schedule["beta_range"], list) and len(schedule["beta_range"]) == 2)
    if not ok:
        raise FormatError(f"qubo.schedule must be an object with the keys {', '.join(sorted(keys))} (names, counts "
                         f"> 0 and two betas), got {json.dumps(schedule)[:80]}")
    finite(schedule["beta_range"], "qubo.schedule.beta_range")


def _check_keys(record, keys, what: str) -> None:
    if not isinstance(record, dict) or not set(keys) <= set(record):
        raise FormatError(f"{what} must be an object with the keys {', '.join(keys)}")


def rebuild(sidecar: dict):
    """(problem, QUBO or None) that the sidecar describes, built anew from its data and parameters
    and checked against it: the same variables (labels, in order) and the same offset."""
    from ..formulations import depth_one, depth_two

    record = sidecar["problem"]
    _check_keys(record, ("kind", "negated", "lam", "data"), "problem")
    data = record["data"]
    _check_keys(data, ("num_samples", "num_features", "X", "y", "sample_weight"), "problem.data")
    n, m = data["num_samples"], data["num_features"]
    if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in (n, m)):
        raise FormatError(f"problem.data's num_samples and num_features must be integers > 0, got {n!r}, {m!r}")
    X = _unpack(data["X"], (n, m), "problem.data.X")
    y = _unpack(data["y"], (n,), "problem.data.y")
    weights = data["sample_weight"]
    common = {"lam": record["lam"], "negated": record["negated"], "sample_weight": weights}
    if record["kind"] == "depth_one":
        keys = ("operator", "max_num_literals", "min_num_literals", "exclusive_literals")
        _check_keys(record, keys, "problem")
        kept = record.get("features")
        problem = depth_one(X, y, record["operator"], max_num_literals=record["max_num_literals"],
                            min_num_literals=record["min_num_literals"],
                            exclusive_literals=record["exclusive_literals"], **common)
        if kept is not None:  # a preselection: X's columns are these original ones, which rules name
            # (only their indices: a matrix as wide as the largest would let one number allocate without bound)
            problem = dataclasses.replace(problem, features=_kept_features(kept, m))
    elif record["kind"] == "depth_two":
        keys = ("shape", "max_terms", "max_literals_per_term", "max_complexity", "min_terms")
        _check_keys(record, keys, "problem")
        problem = depth_two(X, y, record["shape"], **{key: record[key] for key in keys[1:]}, **common)
    else:
        raise FormatError(f"problem.kind must be 'depth_one' or 'depth_two', got {record['kind']!r}")
    check_feature_names(record.get("feature_names"), problem)  # names every column the rules may name
    if sidecar["content"] == "model":
        qubo, labels, fingerprint = None, problem.standard_form.var_names, _model_fingerprint(problem.standard_form)
    else:
        options = sidecar["qubo"]
        _check_keys(options, ("eta", "slack", "penalties"), "qubo")
        if "schedule" in options:  # written since the schedule was recommended
            _check_schedule(options["schedule"])
        qubo = problem.to_qubo(eta=options["eta"], penalty=options["penalties"], slack=options["slack"])
        labels, fingerprint = qubo.labels, _qubo_fingerprint(qubo)
    if [str(label) for label in labels] != sidecar["labels"]:
        raise FormatError(f"the {sidecar['content']} rebuilt from the sidecar's data has other variables than its "
                         "labels")
    expected = sidecar["fingerprint"]
    if not (isinstance(expected, list) and len(expected) == len(fingerprint)
            and np.allclose(fingerprint, finite(expected, "fingerprint"), rtol=1e-9, atol=1e-9)):
        raise FormatError(f"the {sidecar['content']} rebuilt from the sidecar's data has other biases than its "
                         "fingerprint (the sidecar was edited, or written by another version)")
    return problem, qubo
