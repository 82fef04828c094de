"""`QuboProblem`: a depth-one problem compiled to a dimod BQM by the QUBO chain, with its decoding
and inspection."""

from __future__ import annotations

import html
import time
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import NamedTuple

import dimod
import numpy as np

from ..exceptions import FormatError, InputError, InputTypeError
from ..rules import Rule
from ..validation import check_number
from .chain import Chain
from .qubo import SLACK_MODES, Penalties, PenaltyForm, PenaltyQubo
from .reductions import BinaryExpansion, FixToZero
from .rule_problem import check_rule_problem
from .standard_form import ToStandardForm

__all__ = [
    "QuboProblem", "PENALTY_MODES", "CALIBRATED", "SCHEDULE", "calibrated_penalties", "check_compile_option",
    "check_penalty", "compile_qubo", "qubo_chain", "resolve_eta", "Stage", "Decoding", "STAGES", "Repaired",
    "repair_samples", "best_sample", "decode_samples", "serialized_sampleset",
]

PENALTY_MODES = ("sufficient", "calibrated", "tuned")

# penalty="tuned": the short sa run that checks feasibility, the share of its samples that must be
# feasible, and how many times the hard weight may double (`QuboProblem._tuned`).
TUNING_RUN = MappingProxyType({"num_reads": 10, "num_sweeps": 200, "seed": 0})
TUNING_FEASIBLE_SHARE = 0.8
TUNING_DOUBLINGS = 6

# The calibrated penalty multipliers by eta, per unit mean sample weight (`calibrated_penalties`):
# the best cells of the grid in benchmarks/bench_qubo.py section 2 (6 subproblems of 100 Breast
# Cancer rows, Or and AtLeast, m' = 4, sa 10 reads x 1000 sweeps, lowest mean excess of the decoded
# objective over the HiGHS optimum; benchmarks/results/qubo_compile_and_sampler_quality.md).
# Read-only: other weights are passed explicitly as `penalty={"soft": .., "hard": ..}`.
CALIBRATED = MappingProxyType({True: Penalties(soft=1.01, hard=1.0), False: Penalties(soft=1.0, hard=0.5)})
# The sampler schedule every exported QUBO's sidecar recommends: dwave-samplers' own default
# (geometric beta, 1000 sweeps) at 100 reads. No schedule of this budget did better in the study
# (benchmarks/studies/qubo-quality.md: linear, colder or hotter ends, an objective-scaled range).
SCHEDULE = MappingProxyType({"sampler": "dwave.samplers.SimulatedAnnealingSampler", "num_reads": 100,
                             "num_sweeps": 1000, "beta_schedule_type": "geometric"})


# The stages of decoding a sampler's answer, in order (`QuboProblem.decode_stages`).
STAGES = ("raw", "repaired", "polished")


@dataclass(frozen=True)
class Stage:
    """One stage of a solver's answer: its `rule` (None when the raw sample encodes no valid rule),
    the problem's objective of that rule, and whether the stage's values were `feasible` as they
    stood (a repaired or polished rule always is)."""

    rule: Rule | None
    objective: float | None
    feasible: bool

    def to_dict(self, feature_names=None) -> dict:
        """JSON-ready, as `boolrules solve --json` writes a stage: the rule as text (named by
        `feature_names` when given), its objective, feasible."""
        rule = None if self.rule is None else self.rule.to_str(feature_names)
        return {"rule": rule, "objective": self.objective, "feasible": self.feasible}


class Decoding(NamedTuple):
    """A decoding of samples (`decode_samples`): the `stages` by name (`STAGES` order; "polished"
    only when polishing), the `seconds` decoding and polishing took, and how many of the
    `num_samples` samples were `feasible` as they stood."""

    stages: dict[str, Stage]
    seconds: dict[str, float]
    feasible: int
    num_samples: int

    @property
    def stage(self) -> str:
        """The last stage: the one whose rule a backend returns."""
        return list(self.stages)[-1]

    @property
    def best(self) -> Stage:
        """The last stage itself."""
        return self.stages[self.stage]


class Repaired(NamedTuple):
    """Samples repaired into valid rules (`repair_samples`), per sample: the repaired `values`,
    their `rules` and the problem's `objectives` of those rules."""

    values: list[dict]
    rules: list[Rule]
    objectives: list[float]


def repair_samples(problem, values: list[dict]) -> Repaired:
    """Every sample's values (per-block, as a chain's inverse gives them) repaired into a valid
    selection (`problem.repair_values`: contradicting literals dropped, literals dropped or added
    to meet the bounds, the best k chosen; depth two: terms fixed likewise) and scored by the
    problem's objective of its rule; once per distinct selection, since repair chooses k itself."""
    seen, repaired = {}, []
    for sample in values:
        key = tuple(block.tobytes() for block in sample.values() if isinstance(block, np.ndarray))
        if key not in seen:
            fixed = problem.repair_values(sample)
            rule = problem.decode(fixed)
            seen[key] = (fixed, rule, problem.objective(rule))
        repaired.append(seen[key])
    return Repaired(*map(list, zip(*repaired))) if repaired else Repaired([], [], [])


def best_sample(objectives, *ties) -> int:
    """The best of several samples: the index of the lowest objective, ties broken by each of
    `ties` in turn (e.g. the samples' energies: the lowest), then by the first sample."""
    return int(np.lexsort((*reversed(ties), np.asarray(objectives, dtype=float)))[0])


def decode_samples(problem, values: list[dict], energies, feasible, *, polish: bool = False,
                   occurrences=None) -> Decoding:
    """Samples decoded stage by stage (`STAGES`), from each sample's `values` (per block, as a
    chain's inverse gives them), its `energies` and whether it is `feasible` as it stands.

    raw: the sample of lowest energy (ties: the first) as it stands, its rule and objective when
    it is feasible (None otherwise: it encodes no valid rule). repaired: every sample repaired and
    the best of them by the true objective (`repair_samples`, `best_sample`; ties: the first
    sample). polished (with `polish`): that rule improved by native literal swaps, additions and
    removals while they lower the objective (`problem.polish_values`). Each objective is the
    problem's own objective of that stage's rule. `occurrences`: how often each sample occurred
    (default once each), so that the counts count repeated samples as many times."""
    start = time.perf_counter()
    feasible = np.asarray(feasible, dtype=bool)
    occurrences = np.ones(len(values)) if occurrences is None else np.asarray(occurrences, dtype=float)
    lowest = int(np.argmin(energies))
    raw = Stage(None, None, False)
    if feasible[lowest]:
        rule = problem.decode(values[lowest])
        raw = Stage(rule, problem.objective(rule), True)
    repaired = repair_samples(problem, values)
    best = best_sample(repaired.objectives)
    objective = repaired.objectives[best]
    stages = {"raw": raw, "repaired": Stage(repaired.rules[best], objective, True)}
    seconds = {"decode": time.perf_counter() - start}
    if polish:
        start = time.perf_counter()
        polished = problem.decode(problem.polish_values(repaired.values[best]))
        # polish scores selections with λ per selected literal, but a one-literal operator that is
        # constant decodes to a literal-free rule where no literal is required: keep the polished
        # rule only if it is better.
        polished_objective = problem.objective(polished)
        stages["polished"] = (Stage(polished, polished_objective, True) if polished_objective < objective
                              else stages["repaired"])
        seconds["polish"] = time.perf_counter() - start
    return Decoding(stages, seconds, int(round(occurrences[feasible].sum())), int(round(occurrences.sum())))


def serialized_sampleset(samples) -> dimod.SampleSet | None:
    """The dimod `SampleSet` that `samples` serializes (`SampleSet.to_serializable()`'s dict), or
    None when `samples` is not such a dict."""
    if not (isinstance(samples, dict) and samples.get("type") == "SampleSet"):
        return None
    try:
        return dimod.SampleSet.from_serializable(samples)
    except (KeyError, TypeError, ValueError, IndexError) as err:
        raise FormatError(f"the samples are not a valid serialized dimod SampleSet: {err!r}") from None


def calibrated_penalties(weights, multipliers: Penalties) -> Penalties:
    """The penalties of `multipliers` (soft, hard per unit mean sample weight) for samples of these
    `weights`: the soft one as is (soft rows are already weighted by w_i), the hard one times the
    mean weight (unscaled when every weight is 0). `penalty="calibrated"` is this with `CALIBRATED[eta]`."""
    mean_w = float(np.mean(weights))
    return multipliers if mean_w == 0 else Penalties(multipliers.soft, multipliers.hard * mean_w)


def check_penalty(penalty):
    """`penalty` checked: a name of `PENALTY_MODES` (returned as is) or {"soft": w, "hard": w} with
    finite weights > 0 (returned as `Penalties`); otherwise an error naming `penalty`."""
    if isinstance(penalty, dict):
        if set(penalty) != {"soft", "hard"}:
            raise InputError(f"penalty weights need exactly the keys 'soft' and 'hard', got {sorted(map(str, penalty))}")
        soft, hard = (check_number(penalty[key], f"penalty[{key!r}]") for key in ("soft", "hard"))
        if not (soft > 0 and hard > 0):
            raise InputError(f"penalty weights must be finite and > 0, got {penalty}")
        return Penalties(soft, hard)
    if not isinstance(penalty, str) or penalty not in PENALTY_MODES:
        raise InputError(
            f"penalty must be one of {', '.join(PENALTY_MODES)} or {{'soft': .., 'hard': ..}}, got {penalty!r}"
        )
    return penalty


def resolve_eta(eta, problem) -> bool:
    """`eta` as compiled for `problem`: "auto" is the problem's choice (`RuleProblem.keeps_eta`: η
    for Or, And and depth two, none for AtLeast, AtMost and Choose, which anneal far better without)."""
    if eta == "auto":
        return problem.keeps_eta
    return eta


def qubo_chain(eta: bool = True, slack: str = "paired") -> Chain:
    """The QUBO compile chain: standard form, [η fixed to 0 unless `eta`], binary expansion of the
    integers, penalty QUBO with `slack`'s side per row."""
    steps = [ToStandardForm()] + ([] if eta else [FixToZero(("eta",))])
    return Chain([*steps, BinaryExpansion(unary=slack == "unbalanced"), PenaltyQubo(slack)])


def check_compile_option(name: str, value):
    """One of `compile_qubo`'s options (`eta`, `penalty`, `slack`) checked, as given to
    `compile_qubo`, a sampler backend or a config file; an error names the option."""
    if name == "eta":
        if isinstance(value, str) and value == "auto":
            return value
        if not isinstance(value, (bool, np.bool_)):
            raise InputTypeError(f"eta must be true, false or \"auto\", got {value!r}")
        return bool(value)
    if name == "penalty":
        check_penalty(value)
        return value
    if name == "slack":
        if not isinstance(value, str) or value not in SLACK_MODES:
            raise InputError(f"slack must be one of {', '.join(SLACK_MODES)}, got {value!r}")
        return value
    raise InputError(f"unknown compile option {name!r}; options: eta, penalty, slack")


def compile_qubo(problem, *, eta="auto", penalty="sufficient", slack: str = "paired") -> QuboProblem:
    """Run the QUBO chain on `problem` (depth-one or depth-two; `qubo_chain`) and weight the
    penalties (`QuboProblem`). `eta`: True, False or "auto" (`resolve_eta`)."""
    check_rule_problem(problem)
    options = (("eta", eta), ("penalty", penalty), ("slack", slack))
    eta, penalty, slack = (check_compile_option(name, value) for name, value in options)
    eta = resolve_eta(eta, problem)
    chain = qubo_chain(eta, slack)
    form, inverses = chain.apply(problem)
    return QuboProblem(problem, chain, inverses, form, eta=eta, penalty=penalty, slack=slack)


class QuboProblem:
    """A depth-one problem as a QUBO: `.bqm` (dimod, BINARY), variable blocks, decoding to rules.

    Holds the `chain` that compiled it, the chain's `inverses` and the `form` it produced (a
    `PenaltyForm`). `penalty`: "sufficient" (the ground state is the ILP optimum when `eta`),
    "calibrated" (`CALIBRATED`: smaller weights for heuristic samplers, see `benchmarks/README.md`),
    or {"soft", "hard"}.
    """

    def __init__(self, problem, chain: Chain, inverses: tuple, form: PenaltyForm, *, eta: bool, penalty, slack: str):
        self.problem = problem
        self.eta = eta
        self.slack = slack
        self.chain = chain
        self.inverses = inverses
        self.form = form
        self.labels = form.labels  # before the penalties: penalty="tuned" judges samples over them
        self.penalties = self._resolve(penalty)
        self.penalty = penalty
        with np.errstate(over="ignore", invalid="ignore"):
            self.bqm = form.bqm(self.penalties)
        linear, (_, _, quadratic), offset = self.bqm.to_numpy_vectors()
        with np.errstate(over="ignore"):  # a sum of finite coefficients can overflow: energies would too
            total = np.abs(linear).sum() + np.abs(quadratic).sum() + abs(offset)
        if not np.isfinite(total):
            raise InputError(f"the QUBO's coefficients overflow to inf or NaN (or sum to inf, so energies would): "
                             f"lam {problem.lam:.3g}, the sample_weight values (largest {problem.weights.max():.3g}) "
                             f"or the penalty weights (soft {self.penalties.soft:.3g}, hard {self.penalties.hard:.3g}) "
                             f"are too large; scale them down")

    def _resolve(self, penalty) -> Penalties:
        problem = self.problem
        objective_range = problem.objective_range
        if isinstance(penalty, dict):
            return check_penalty(penalty)
        if penalty == "sufficient" and self.slack in ("paired", "window", "unbalanced"):
            return self._paired_sufficient()
        if penalty == "sufficient":
            if self.eta:
                # A violated sample row costs >= 2 w_i > w_i (the cost of eta_i = 1); a violated hard
                # row costs more than any objective gain (docs/formulations.md, "Penalty weights").
                return Penalties(2.0, objective_range + 1.0)
            soft = 1.0
            return Penalties(soft, soft * self.form.max_soft_penalty() + objective_range + 1.0)
        if penalty == "calibrated":
            return calibrated_penalties(problem.weights, CALIBRATED[self.eta])
        if penalty == "tuned":
            return self._tuned()
        raise InputError(f"penalty must be one of {', '.join(PENALTY_MODES)} or {{'soft': .., 'hard': ..}}, got {penalty!r}")

    def _paired_sufficient(self) -> Penalties:
        """Sufficient weights of slack="paired", where every row's smallest violation costs its
        weight: soft 2 with η (a broken sample row costs 2 w_i > w_i, the cost of η_i = 1), 1
        without; hard just above the energy of a valid rule (the greedy rule, its aux variables at
        their best), which no state breaking a hard row can reach: every term is >= 0 (>= its floor
        for rows that reward margins, slack="unbalanced") and a broken hard row alone costs `hard`."""
        soft = 2.0 if self.eta else 1.0
        probe = Penalties(soft, 1.0)
        bqm = self.form.bqm(probe)
        point = self.sample_from_vector(self.problem.greedy_point())
        energy = float(bqm.energies((np.atleast_2d(point), self.form.labels))[0])
        weights = np.asarray(self.problem.weights, dtype=float)
        margin = float(weights.mean()) if weights.size and weights.mean() > 0 else 1.0
        return Penalties(soft, max(energy - self.form.soft_floor(probe), 0.0) + margin)

    def _tuned(self) -> Penalties:
        """The sufficient weights, with the hard weight doubled (at most `TUNING_DOUBLINGS` times)
        until `TUNING_FEASIBLE_SHARE` of a short sa run (`TUNING_RUN`, dwave-samplers' default
        schedule otherwise) is feasible. Never below the sufficient weights: where those make the
        ground state the ILP optimum (with η), so do these; the tuning only serves samplers that
        stop in states breaking a hard row (e.g. more than m' literals)."""
        from dwave.samplers import SimulatedAnnealingSampler

        penalties = self._resolve("sufficient")
        sampler = SimulatedAnnealingSampler()
        for _ in range(TUNING_DOUBLINGS):
            if self.feasible(sampler.sample(self.form.bqm(penalties), **TUNING_RUN)).mean() >= TUNING_FEASIBLE_SHARE:
                break
            penalties = Penalties(penalties.soft, 2 * penalties.hard)
        return penalties

    def with_penalties(self, penalty) -> QuboProblem:
        """The same compiled QUBO with other penalty weights (nothing is rebuilt but the BQM)."""
        return QuboProblem(self.problem, self.chain, self.inverses, self.form, eta=self.eta, penalty=penalty,
                           slack=self.slack)

    @property
    def num_variables(self) -> int:
        return self.bqm.num_variables

    def blocks(self) -> dict[str, int]:
        """Number of variables per block: b, bt, eta, q, k bits, and the slack bits of each row block."""
        return dict(Counter(self.form.label_block.tolist()))

    def summary(self) -> dict:
        """Variables per block, interactions, bias magnitudes and dynamic range."""
        linear, (_, _, quad), offset = self.bqm.to_numpy_vectors(self.labels)
        biases = np.abs(np.concatenate([linear, quad]))
        nonzero = biases[biases > 1e-12]
        return {
            "operator": self.problem.label,
            "eta": self.eta,
            "slack": self.slack,
            "ground_state": self.guarantee,
            "penalties": {"soft": self.penalties.soft, "hard": self.penalties.hard},
            "num_variables": self.num_variables,
            "num_interactions": self.bqm.num_interactions,
            "blocks": self.blocks(),
            "max_abs_bias": float(nonzero.max()) if nonzero.size else 0.0,
            "min_abs_bias": float(nonzero.min()) if nonzero.size else 0.0,
            "dynamic_range": float(nonzero.max() / nonzero.min()) if nonzero.size else 0.0,
            "offset": float(offset),
        }

    def __repr__(self) -> str:
        blocks = ", ".join(f"{k} {v}" for k, v in self.blocks().items())
        return (f"QuboProblem({self.problem.label}, {self.num_variables} variables: {blocks}; "
                f"{'with' if self.eta else 'without'} η, penalties soft {self.penalties.soft:.4g} / "
                f"hard {self.penalties.hard:.4g})")

    def soft_bqm(self) -> dimod.BinaryQuadraticModel:
        """The objective and sample-row terms of `bqm` (its hard rows weighted 0): what a sampler
        must resolve to tell rules apart."""
        return self.form.bqm(Penalties(self.penalties.soft, 0.0))

    @cached_property
    def schedule(self) -> dict:
        """The recommended sampler schedule (`SCHEDULE`) with the beta range dwave-samplers derives
        from this QUBO, so that another annealer can follow the same one."""
        from dwave.samplers.sa.sampler import default_beta_range

        hot, cold = default_beta_range(self.bqm)
        return {**SCHEDULE, "beta_range": [float(hot), float(cold)]}

    @property
    def compilation(self) -> str:
        """How this QUBO was compiled, in words: e.g. "with η, paired slack"."""
        return f"{'with' if self.eta else 'without'} η, {self.slack} slack"

    @property
    def guarantee(self) -> str:
        """What its ground state is, in words, as the brute-force tests prove it: the ILP optimum (η and
        sufficient or tuned penalties), a valid rule whose energy is at least its objective (depth one
        without η; with rows that reward margins, slack="unbalanced", a valid rule best by that
        surrogate), or nothing promised (calibrated or explicit weights)."""
        if not isinstance(self.penalty, str) or self.penalty == "calibrated":
            return "no promise (heuristic weights)"
        if self.eta and self.slack != "window":
            return "the ILP optimum"
        rewards = self.form.reward_floor is not None and bool((self.form.reward_floor < 0).any())
        if not self.eta and rewards:
            return "a valid rule, the best by a surrogate that rewards margins (not always the optimum)"
        if not self.eta and self.problem.soft_rows_price_rules:
            return "a valid rule, its energy at least its objective (not always the optimum)"
        return "no promise"

    def _repr_html_(self) -> str:
        s = self.summary()
        rows = "".join(f"<tr><td>{html.escape(k)}</td><td>{v}</td></tr>" for k, v in s["blocks"].items())
        return (
            f"<b>QUBO of the {html.escape(s['operator'])} problem</b> "
            f"({self.compilation}): {s['num_variables']} variables, "
            f"{s['num_interactions']} interactions, max |bias| {s['max_abs_bias']:.4g}, dynamic range "
            f"{s['dynamic_range']:.4g}, penalties soft {s['penalties']['soft']:.4g} / hard {s['penalties']['hard']:.4g}"
            f"<table><tr><th>block</th><th>variables</th></tr>{rows}</table>"
        )

    # Samples

    def _as_array(self, sample) -> np.ndarray:
        """Samples (a dict, a SampleSet or its `to_serializable()` dict, or an array in `labels`
        order) as a 2-D 0/1 array."""
        serialized = serialized_sampleset(sample)
        sample = sample if serialized is None else serialized
        if isinstance(sample, dimod.SampleSet):
            if len(sample) == 0:
                raise InputError("the sample set is empty: the sampler returned no samples")
            if sample.vartype is dimod.SPIN:
                sample = sample.change_vartype(dimod.BINARY, inplace=False)
            self._check_variables(sample.variables)
            arr = sample.record.sample[:, [sample.variables.index(v) for v in self.labels]]
        elif isinstance(sample, dict):
            self._check_variables(sample)
            arr = np.array([[sample[v] for v in self.labels]])
        else:
            arr = np.atleast_2d(np.asarray(sample))
            if arr.ndim != 2 or arr.shape[1] != len(self.labels):
                raise InputError(f"sample has shape {np.shape(sample)}, the QUBO has {len(self.labels)} variables")
        if not np.isin(arr, (0, 1)).all():
            raise InputError("sample values must be 0 or 1 (a QUBO's binary variables)")
        return arr

    def _check_variables(self, variables) -> None:
        """A sample must be over exactly this QUBO's variables."""
        missing = set(self.labels).difference(variables)
        if missing:
            raise InputError(f"sample lacks {len(missing)} of the QUBO's variables, e.g. {sorted(map(str, missing))[:3]}")

    def energy(self, sample) -> np.ndarray | float:
        """QUBO energy of one sample (float) or of several (array)."""
        arr = self._as_array(sample)
        energies = self.bqm.energies((arr, self.labels))
        return float(energies[0]) if len(energies) == 1 else energies

    def sample_from_vector(self, x) -> np.ndarray:
        """The QUBO sample (0/1 in `labels` order) of a point `x` over the standard form's columns
        (e.g. `repair.feasible_point`): the chain's forward map after the standard form (η dropped
        without η, k in capped binary bits, every slack at its best value). With η, a feasible
        point's energy is its ILP objective. A 2-D `x` (one point per row) gives one sample per row."""
        samples = self.chain[1:].encode(np.asarray(x, dtype=float), self.inverses[1:]).astype(np.int8)
        return samples[0] if np.ndim(x) == 1 else samples

    def variable_values(self, sample) -> list[dict]:
        """The original model's value blocks of each sample (b, bt and k; z for a depth-two problem),
        slack and η stripped."""
        values = self.chain.invert(self._as_array(sample), self.inverses)
        count = len(next(iter(values.values())))
        return [{block: value[i] if value.ndim > 1 else int(value[i]) for block, value in values.items()}
                for i in range(count)]

    def decode(self, sample) -> Rule:
        """The rule of one sample, repaired to the problem's bounds, with the best k
        (`docs/formulations.md`, "Decoding a QUBO sample")."""
        values = self.variable_values(sample)
        if len(values) != 1:
            raise InputError("decode takes one sample; use decode_best for a SampleSet")
        return self.problem.decode(self.problem.repair_values(values[0]))

    def feasible(self, samples) -> np.ndarray:
        """Whether each sample satisfies the problem's hard constraints as it stands: every row of
        the standard form that is not a sample's row (literal bounds, exclusive literals, k <= L;
        for depth two also the term structure) holds at the sample's values. η and the slack bits
        are not judged (a wrong slack or η costs energy, not validity); a feasible sample's rule
        variables are a valid rule without repair. Variable bounds need no check: the integers are
        encoded in capped binary bits (`ModelProblem.feasible` without the sample rows)."""
        x = self.chain[1:].invert(self._as_array(samples), self.inverses[1:])
        return self.problem.feasible(x, sample_rows=False)

    def decode_stages(self, samples, polish: bool = True) -> Decoding:
        """The samples (any form `energy` takes) decoded stage by stage by their QUBO energies
        (`decode_samples`; README, "What the hardware did"): raw, repaired and, with `polish`,
        polished. Each sample counts once, however many times the sampler saw it."""
        start = time.perf_counter()
        arr = self._as_array(samples)
        values, energies, feasible = self.variable_values(arr), self.bqm.energies((arr, self.labels)), self.feasible(arr)
        prepared = time.perf_counter() - start
        decoding = decode_samples(self.problem, values, energies, feasible, polish=polish)
        decoding.seconds["decode"] += prepared
        return decoding

    def decode_best(self, samples, polish: bool = True) -> tuple[Rule, float]:
        """The rule of `decode_stages`' last stage and its true objective: the best repaired rule
        among the samples, polished unless `polish` is False."""
        stage = self.decode_stages(samples, polish).best
        return stage.rule, stage.objective

    def objective(self, rule: Rule) -> float:
        """True objective of a rule on the problem (weighted errors + λ L; λ C for depth two)."""
        return self.problem.objective(rule)

    # Checks that tests and notebooks use

    def slack_ranges(self) -> list[tuple[str, float, float]]:
        """(row, low, high) of every penalised row: the effective bounds the slack must cover."""
        layout = self.form.slack
        return list(zip(self.form.row_names, layout.low.tolist(), layout.high.tolist()))

