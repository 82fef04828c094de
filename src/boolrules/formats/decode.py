"""Decode what comes back from a solver elsewhere: `load_problem(sidecar)` rebuilds the exported
problem from its sidecar, and its `decode(samples)` decodes them stage by stage as a backend's
`solve` reports a sampler's answer (`decode_samples`: raw, repaired, polished; no second decoder).

Samples may be a dict {variable: value} (the file's names), a list of such dicts, a bitstring or
a list of bitstrings (file order, variables[0] first), rows of values in file order, a dimod
`SampleSet` or its `to_serializable()` dict, or Qiskit counts {"0101...": n} (little-endian, as
Qiskit prints them: variables[0] is the rightmost bit).
"""

from __future__ import annotations

from dataclasses import dataclass

import dimod
import numpy as np

from ..exceptions import FormatError
from ..formulations.qubo_problem import Stage, decode_samples, serialized_sampleset
from ..rules import Rule
from .sidecar import read_sidecar, rebuild

__all__ = ["DecodedSamples", "LoadedProblem", "load_problem"]

_BITS = frozenset("01")


@dataclass(frozen=True)
class DecodedSamples:
    """Samples decoded stage by stage, as `solve` reports a sampler's answer (`decode_samples`):
    `stages` maps "raw" (the lowest-energy sample as it stands: its rule and objective when it is
    feasible), "repaired" (the best of the samples repaired to the literal bounds, with the best k)
    and, when polishing, "polished" to a `Stage`; `rule` and `objective` are the last stage's.
    `num_samples` read and `num_feasible` of them as they stand count a repeated sample as often as
    it occurs (feasible: a QUBO sample's hard rows and bounds hold at its values, η and slack not
    judged, as `QuboProblem` judges its samplers' answers; a model sample's every row of the ILP);
    `num_distinct` counts it once. `energy` and `sample`: the lowest-energy sample's energy in the
    file's model (offset included) and its values by the file's names."""

    stages: dict[str, Stage]
    energy: float
    sample: dict
    num_samples: int
    num_distinct: int
    num_feasible: int

    def __repr__(self) -> str:
        """One short line, as the library's other results print (the sample's values stay in `sample`)."""
        return (f"DecodedSamples({self.stage}: {self.rule}, objective {self.objective:.6g}; {self.num_samples} "
                f"samples, {self.num_distinct} distinct, {self.num_feasible} feasible; lowest energy {self.energy:.6g})")

    @property
    def stage(self) -> str:
        """The last stage: the one whose rule `rule` is."""
        return list(self.stages)[-1]

    @property
    def rule(self) -> Rule:
        """The last stage's rule."""
        return self.stages[self.stage].rule

    @property
    def objective(self) -> float:
        """The last stage's objective."""
        return self.stages[self.stage].objective

    def to_dict(self, feature_names=None) -> dict:
        """JSON-ready, with the keys `boolrules solve --json` gives the rule and its stages: rules as
        text (named by `feature_names` when given), the last stage's also as indices."""
        return {"rule": self.rule.to_str(feature_names), "rule_indices": str(self.rule), "objective": self.objective,
                "stage": self.stage, "stages": {name: stage.to_dict(feature_names) for name, stage in self.stages.items()},
                "energy": self.energy, "samples": self.num_samples, "distinct_samples": self.num_distinct,
                "feasible_samples": self.num_feasible, "sample": self.sample}


class LoadedProblem:
    """An exported problem rebuilt from its sidecar: `problem`, `qubo` (None for a model file),
    the file's `variables` in file order, `feature_names`, and `decode`."""

    def __init__(self, sidecar: dict, path):
        self.path = path
        self.sidecar = sidecar
        self.problem, self.qubo = rebuild(sidecar)
        self.variables = list(sidecar["variables"])
        self.feature_names = sidecar["problem"].get("feature_names")
        if hasattr(self.problem, "feature_names"):  # so a Result of the rebuilt problem is named too
            self.problem.feature_names = self.feature_names
        self.format = sidecar["format"]
        # samples may name the variables as the file does or by their QUBO labels (OMMX solvers
        # report names: b[0], not the ids 0, 1, ... the file numbers them by)
        self._namings = (self.variables, [str(label) for label in sidecar["labels"]])
        self._check_offset()

    def _check_offset(self) -> None:
        """The sidecar's offset is the rebuilt problem's (an edited one would shift every energy)."""
        if self.qubo is not None:
            bqm = self.qubo.bqm.spin if self.sidecar["vartype"] == "SPIN" else self.qubo.bqm.binary
            offset = bqm.offset
        else:
            offset = self.problem.standard_form.c0
        if not np.isclose(self.sidecar["offset"], offset, rtol=1e-9, atol=1e-9):
            raise FormatError(f"the sidecar's offset {self.sidecar['offset']!r} is not the rebuilt problem's "
                              f"{float(offset)!r}")

    def __repr__(self) -> str:
        what = "QUBO" if self.qubo is not None else "model"
        return (f"LoadedProblem({self.problem.label} {what}, {len(self.variables)} variables, "
                f"{self.format} file {self.sidecar['file']!r})")

    def samples(self, samples) -> tuple[np.ndarray, np.ndarray]:
        """(rows of values in file order, occurrences of each row) from any accepted form of samples."""
        return self._read(samples)[:2]

    def _read(self, samples) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """`samples` as (rows, occurrences) and the energies the samples carry (a SampleSet's), if any."""
        rows, counts, spin, energies = _rows(samples, self._namings, self.qubo is not None)
        rows = np.asarray(rows, dtype=float)
        if self.qubo is None:
            return rows, counts, energies
        if spin is None:  # values given as numbers: spins for an Ising file
            spin = self.sidecar["vartype"] == "SPIN"
        allowed = (-1, 1) if spin else (0, 1)
        if not np.isin(rows, allowed).all():
            raise FormatError(f"sample values must be {' or '.join(map(str, allowed))} for this "
                             f"{'SPIN' if spin else 'BINARY'} {self.format} file")
        return ((rows + 1) // 2 if spin else rows).astype(np.int8), counts, energies

    def _check_energies(self, given: np.ndarray, energies: np.ndarray) -> None:
        """The energies a sample set carries are this problem's `energies` of its samples (less the
        offset where the file does not hold it): else they answer another export."""
        expected = energies if self.sidecar["offset_in_file"] else energies - self.sidecar["offset"]
        off = ~np.isclose(given, expected, rtol=1e-6, atol=1e-6)
        if off.any():
            i = int(np.argmax(off))
            raise FormatError(f"the samples' own energies are not this problem's: sample {i} has {given[i]:.6g} in "
                              f"the sample set and {expected[i]:.6g} here ({int(off.sum())} of {len(off)} differ); "
                              f"were they solved on another export (other rows, λ, penalties or offset)?")

    def decode(self, samples, polish: bool = False) -> DecodedSamples:
        """`samples` decoded stage by stage (`DecodedSamples`): raw, repaired and, with `polish`,
        polished; see the module for the forms samples take."""
        rows, counts, given = self._read(samples)
        # distinct rows in the order they first occur: the first sample wins ties, as in `decode_samples`
        unique, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
        order = np.argsort(first)
        occurrences = np.bincount(inverse.ravel(), weights=counts, minlength=len(unique))[order]
        unique = unique[order]
        problem = self.problem
        if self.qubo is not None:
            qubo = self.qubo
            energies = np.atleast_1d(qubo.energy(unique))  # the same in the SPIN form of an Ising file
            feasible = qubo.feasible(unique)
            values = qubo.variable_values(unique)
        else:
            form = problem.standard_form
            energies = unique @ form.c + form.c0
            feasible = problem.feasible(unique)
            values = [problem.values_from_vector(x) for x in unique]
        if given is not None:  # each sample's energy is its distinct row's
            rank = np.empty_like(order)
            rank[order] = np.arange(len(order))
            self._check_energies(given, energies[rank[inverse.ravel()]])
        decoding = decode_samples(problem, values, energies, feasible, polish=polish, occurrences=occurrences)
        lowest = int(np.argmin(energies))
        sample = dict(zip(self.variables, unique[lowest].tolist()))
        return DecodedSamples(
            stages=decoding.stages, energy=float(energies[lowest]),
            sample={k: int(v) if float(v).is_integer() else v for k, v in sample.items()},
            num_samples=decoding.num_samples, num_distinct=len(unique), num_feasible=decoding.feasible)


def load_problem(sidecar) -> LoadedProblem:
    """The problem an export describes, rebuilt from its sidecar (`FILE.boolrules.json`): an
    object with `decode(samples)`. The rebuilt QUBO is checked against the sidecar."""
    sidecar_dict = read_sidecar(sidecar)
    try:
        return LoadedProblem(sidecar_dict, sidecar)
    except (ValueError, TypeError) as err:
        raise FormatError(f"{sidecar}: {err}") from err


def _rows(samples, namings, binary_file) -> tuple[list, np.ndarray, bool | None, np.ndarray | None]:
    """(rows in file order, occurrences, spin?, energies) where spin is known from the samples
    themselves (a SampleSet's vartype, bitstrings: binary) or None, and energies are a SampleSet's
    own (None for other forms). `namings`: the variables' names in file order, by the file and by label."""
    n = len(namings[0])
    serialized = serialized_sampleset(samples)
    samples = samples if serialized is None else serialized
    if isinstance(samples, dimod.SampleSet):
        if len(samples) == 0:
            raise FormatError("the sample set is empty")
        names = [str(v) for v in samples.variables]
        position = {name: i for i, name in enumerate(names)}
        order = [position[v] for v in _naming(names, namings)]
        spin = samples.vartype is dimod.SPIN if binary_file else None
        record = samples.record
        return record.sample[:, order].tolist(), record.num_occurrences.astype(float), spin, record.energy.astype(float)
    if isinstance(samples, np.ndarray):
        samples = np.atleast_2d(samples).tolist()
    if isinstance(samples, str) or (isinstance(samples, list) and len(samples) == n and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in samples)):
        samples = [samples]  # one sample
    if isinstance(samples, dict):
        if samples and _is_counts(samples, n):
            if not binary_file:
                raise FormatError("Qiskit counts are bitstrings over binary variables; a model file's samples are "
                                 "{variable: value} dicts or a SampleSet")
            return [[int(c) for c in reversed(key)] for key in samples], np.array(list(samples.values()), float), False, None
        samples = [samples]
    if not isinstance(samples, list) or not samples:
        raise FormatError("samples must be a dict, a SampleSet, a bitstring or a non-empty list of samples; "
                         f"got {type(samples).__name__}")
    rows, spin = [], None
    for i, item in enumerate(samples):
        if isinstance(item, str):
            if not binary_file:
                raise FormatError("bitstrings are samples of binary variables; a model file's samples are "
                                 "{variable: value} dicts or a SampleSet")
            if len(item) != n or not set(item) <= _BITS:
                raise FormatError(f"sample {i}: a bitstring of {n} characters 0 or 1 is expected, got {item[:40]!r}")
            rows.append([int(c) for c in item])
            spin = False
        elif isinstance(item, dict):
            names = [str(k) for k in item]
            position = {name: i for i, name in enumerate(_naming(names, namings))}
            row = [None] * n
            for name, value in zip(names, item.values()):
                row[position[name]] = _number(value, f"sample {i}'s {name}")
            rows.append(row)
        elif isinstance(item, (list, tuple)) and len(item) == n:
            rows.append([_number(value, f"sample {i}") for value in item])
        else:
            raise FormatError(f"sample {i} must be a dict, a bitstring or a list of {n} values, got {str(item)[:40]!r}")
    return rows, np.ones(len(rows)), spin, None


def _is_counts(samples: dict, n: int) -> bool:
    """Qiskit counts: every key a bitstring of one bit per variable, every value a count >= 0."""
    return all(isinstance(k, str) and len(k) == n and set(k) <= _BITS for k in samples) and all(
        isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v >= 0 for v in samples.values())


def _naming(names, namings) -> list[str]:
    """Which of `namings` (the file's names, the QUBO labels) the samples' `names` use, checked:
    every variable named once, no other name."""
    by_file, by_label = namings
    known = by_label if not set(names) <= set(by_file) and set(names) <= set(by_label) else by_file
    _check_names(names, set(known))
    return known


def _check_names(names, position) -> None:
    unknown = [name for name in names if name not in position]
    if unknown:
        raise FormatError(f"the samples name {len(unknown)} variables the file does not have, e.g. {unknown[:3]}")
    missing = set(position).difference(names)
    if missing:
        raise FormatError(f"the samples lack {len(missing)} of the file's variables, e.g. {sorted(missing)[:3]}")
    if len(set(names)) != len(names):
        raise FormatError("the samples name a variable twice")


def _number(value, what: str) -> float:
    number = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    if not number or not np.isfinite(value):
        raise FormatError(f"{what} must be a finite number, got {value!r}")
    return float(value)
