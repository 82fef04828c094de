"""The sidecar and `load_problem(...).decode`: every form of samples gives the same decoding, the
rebuilt problem is the exported one, and bad sidecars or samples are refused clearly."""

from __future__ import annotations

import io
import json

import dimod
import numpy as np
import pytest

from boolrules import load_problem as top_level_load_problem
from boolrules.backends import get_backend
from boolrules.cli import main
from boolrules.formats import export_problem, export_qubo, load_problem, sidecar_path
from boolrules.formulations import depth_one, depth_two
from boolrules.formulations.qubo_problem import Stage
from boolrules.formulations.repair import feasible_point

from ..errors import assert_raises_clearly


@pytest.fixture(scope="module")
def exported(tmp_path_factory, atleast_problem):
    """`atleast_problem`'s QUBO with η written as qbsolv text (numbered variables), and its sidecar."""
    qubo = atleast_problem.to_qubo(eta=True)
    path = export_qubo(qubo, tmp_path_factory.mktemp("decode") / "q.qubo", "qubo", [f"x{j}" for j in range(4)])
    return qubo, sidecar_path(path)


@pytest.fixture(scope="module")
def rows(exported):
    qubo, _ = exported
    return np.random.default_rng(5).integers(0, 2, (12, qubo.num_variables))


def file_energies(loaded, rows) -> np.ndarray:
    """The energies of `rows` in the exported file's own model (its offset only if it holds it)."""
    offset = 0.0 if loaded.sidecar["offset_in_file"] else loaded.sidecar["offset"]
    return np.atleast_1d(loaded.qubo.energy(rows)) - offset


def test_samples_carrying_another_problems_energies_are_refused(exported, rows, tmp_path):
    """A sample set solved on another export (here: λ changed) carries energies this problem does not
    give its samples: refused naming the mismatch, as is a sidecar whose offset was edited."""
    qubo, side = exported
    loaded = load_problem(side)
    problem = qubo.problem
    other = depth_one(problem.X, problem.y, problem.operator, max_num_literals=problem.max_num_literals,
                      lam=problem.lam + 0.5)
    theirs = np.atleast_1d(other.to_qubo(eta=True).energy(rows)) - (
        0.0 if loaded.sidecar["offset_in_file"] else loaded.sidecar["offset"])
    sampleset = dimod.SampleSet.from_samples((rows, loaded.variables), "BINARY", energy=theirs)
    assert_raises_clearly(ValueError, lambda: loaded.decode(sampleset), "energies", "another export")
    ours = dimod.SampleSet.from_samples((rows, loaded.variables), "BINARY", energy=file_energies(loaded, rows))
    assert loaded.decode(ours).num_samples == len(rows)
    edited = json.loads(side.read_text())
    edited["offset"] += 1.0
    (tmp_path / "edited.json").write_text(json.dumps(edited))
    assert_raises_clearly(ValueError, lambda: load_problem(tmp_path / "edited.json"), "offset")


def test_a_decoding_prints_on_one_short_line(exported, rows):
    """Its repr names the stage, rule, objective and counts, not the sample's thousands of values."""
    decoding = load_problem(exported[1]).decode(rows)
    text = repr(decoding)
    assert "\n" not in text and len(text) < 200 and str(decoding.rule) in text and decoding.stage in text


def test_samples_may_name_the_variables_by_their_qubo_labels(exported, rows):
    """An OMMX solver reports variables by name (b[0]), the file numbers them: both namings decode
    alike; a mix of the two is refused."""
    qubo, side = exported
    loaded = load_problem(side)
    by_label = [dict(zip(qubo.labels, row.tolist())) for row in rows]
    by_file = [dict(zip(loaded.variables, row.tolist())) for row in rows]
    assert loaded.decode(by_label) == loaded.decode(by_file)
    mixed = {**dict(zip(loaded.variables[:1], rows[0][:1].tolist())), **dict(zip(qubo.labels[1:], rows[0][1:].tolist()))}
    assert_raises_clearly(ValueError, lambda: loaded.decode(mixed), "variables")


def test_every_form_of_samples_decodes_alike(exported, rows):
    qubo, side = exported
    loaded = load_problem(side)
    names = loaded.variables
    bitstrings = ["".join(map(str, row)) for row in rows]
    energies = file_energies(loaded, rows)  # what a sampler reports on the file
    forms = {
        "array": rows,
        "bitstrings": bitstrings,
        "dicts": [dict(zip(names, row.tolist())) for row in rows],
        "rows": rows.tolist(),
        "counts": {s[::-1]: 2 for s in bitstrings},  # Qiskit's order: variable 0 is the last character
        "sampleset": dimod.SampleSet.from_samples((rows, [int(n) for n in names]), "BINARY", energy=energies),
        "serializable": dimod.SampleSet.from_samples((rows, names), "BINARY", energy=energies).to_serializable(),
    }
    decodings = {form: loaded.decode(samples) for form, samples in forms.items()}
    reference = min(qubo.objective(qubo.decode(row)) for row in rows)
    for form, decoding in decodings.items():
        assert decoding.objective == reference, form
        assert decoding.sample == decodings["array"].sample, form
    assert decodings["counts"].num_samples == 2 * len(rows) and decodings["array"].num_samples == len(rows)
    one = loaded.decode(bitstrings[0])
    assert one.rule == qubo.decode(rows[0]) and one.energy == pytest.approx(qubo.energy(rows[0]))


def test_raw_is_none_when_the_lowest_energy_sample_is_infeasible(exported):
    """A sample choosing three literals (above the bound of 2) is infeasible: the raw stage has no
    rule; the repaired one is its rule repaired to the bounds."""
    qubo, side = exported
    x = np.zeros(qubo.num_variables, dtype=int)
    x[[qubo.labels.index(v) for v in ("b[0]", "b[1]", "bt[2]")]] = 1
    decoding = load_problem(side).decode(x)
    assert decoding.stages["raw"] == Stage(None, None, False) and decoding.num_feasible == 0
    assert decoding.rule == qubo.decode(x) and len(decoding.rule.literals()) <= 2 and decoding.stage == "repaired"
    assert decoding.stages["repaired"] == Stage(decoding.rule, qubo.objective(decoding.rule), True)


def lowest_and_best(problem, qubo):
    """Two feasible samples: `low`, the sample of a poor rule (AtLeast1(f0), i.e. f0), has the lower energy;
    `high`, the greedy rule's sample with an η bit flipped, the better repaired rule."""
    low = qubo.sample_from_vector(feasible_point(problem, {"b": np.eye(4, dtype=int)[0], "bt": np.zeros(4, int),
                                                             "k": 1}))
    high = qubo.sample_from_vector(problem.greedy_point())
    high[qubo.labels.index("eta[0]")] ^= 1
    assert qubo.feasible(np.array([low, high])).all() and qubo.energy(low) < qubo.energy(high)
    assert qubo.objective(qubo.decode(high)) < qubo.objective(qubo.decode(low))
    return low, high


def test_raw_is_the_lowest_energy_sample_not_the_best_repaired(exported, atleast_problem):
    """As `solve` reports a sampler's answer: raw is the lowest-energy sample as it stands (its own
    k), repaired the best of the samples repaired, in any order of the samples."""
    qubo, side = exported
    low, high = lowest_and_best(atleast_problem, qubo)
    loaded = load_problem(side)
    raw = atleast_problem.decode(qubo.variable_values(low)[0])
    assert str(raw) == "f0"  # AtLeast1 of one literal
    for rows in ([low, high], [high, low]):
        decoding = loaded.decode(np.array(rows))
        assert decoding.stages["raw"] == Stage(raw, qubo.objective(raw), True)
        assert decoding.stages["repaired"].rule == qubo.decode(high) and decoding.stage == "repaired"
        assert decoding.energy == pytest.approx(qubo.energy(low))
        assert decoding.sample == dict(zip(loaded.variables, low.tolist()))
        assert decoding.stages == qubo.decode_stages(np.array(rows), polish=False).stages


def test_feasible_counts_count_repeated_samples(exported, atleast_problem):
    """Samples read and feasible count a repeated sample as often as it occurs, distinct once."""
    qubo, side = exported
    low, high = lowest_and_best(atleast_problem, qubo)
    infeasible = np.zeros(qubo.num_variables, dtype=int)
    infeasible[[qubo.labels.index(v) for v in ("b[0]", "b[1]", "bt[2]")]] = 1
    loaded = load_problem(side)
    bits = ["".join(map(str, row)) for row in (low, high, infeasible)]
    for samples in ([bits[0]] * 3 + [bits[2]] * 2 + [bits[1]], {bits[0][::-1]: 3, bits[2][::-1]: 2, bits[1][::-1]: 1}):
        decoding = loaded.decode(samples)
        assert (decoding.num_samples, decoding.num_distinct, decoding.num_feasible) == (6, 3, 4)


def test_polish_adds_the_polished_stage(exported, atleast_problem):
    qubo, side = exported
    low, _ = lowest_and_best(atleast_problem, qubo)
    loaded = load_problem(side)
    without, polished = loaded.decode(low), loaded.decode(low, polish=True)
    assert list(without.stages) == ["raw", "repaired"] and without.stage == "repaired"
    assert list(polished.stages) == ["raw", "repaired", "polished"] and polished.stage == "polished"
    assert polished.stages == qubo.decode_stages(low).stages
    assert polished.objective < without.objective  # AtLeast1(f0) polishes into a better rule


def test_the_sidecar_rebuilds_the_problem(exported, atleast_problem):
    qubo, side = exported
    loaded = top_level_load_problem(side)
    problem = loaded.problem
    assert loaded.feature_names == ["x0", "x1", "x2", "x3"]
    np.testing.assert_array_equal(problem.X, atleast_problem.X)
    np.testing.assert_array_equal(problem.y, atleast_problem.y)
    np.testing.assert_array_equal(problem.weights, atleast_problem.weights)
    assert (problem.operator, problem.lam, problem.max_num_literals) == ("AtLeast", 0.05, 2)
    assert loaded.qubo.bqm == qubo.bqm
    sidecar = json.loads(side.read_text())
    roles = sidecar["roles"]
    assert [sidecar["labels"][i] for i in roles["eta"]] == [f"eta[{i}]" for i in range(12)]
    assert all(sidecar["labels"][i].startswith("s[") for i in roles["slack"])
    assert sidecar["offset"] == qubo.bqm.offset and not sidecar["offset_in_file"]


def test_a_depth_two_qubo_round_trips(tmp_path):
    X = np.random.default_rng(1).integers(0, 2, (6, 3))
    problem = depth_two(X, np.array([0, 1, 1, 0, 1, 0]), "DNF", max_terms=2, max_literals_per_term=2, lam=0.1)
    qubo = problem.to_qubo(eta=False)
    loaded = load_problem(sidecar_path(export_qubo(qubo, tmp_path / "dnf.json", "json")))
    assert loaded.qubo.bqm == qubo.bqm
    rows = np.random.default_rng(2).integers(0, 2, (5, qubo.num_variables))
    assert loaded.decode(rows).objective == min(qubo.objective(qubo.decode(row)) for row in rows)


def test_cli_decode_prints_each_stage_and_the_feasible_count(capsys, exported, rows, tmp_path):
    qubo, side = exported
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps(["".join(map(str, row)) for row in rows]))
    assert main(["decode", str(side), str(answer)]) == 0
    out = capsys.readouterr().out
    names = ["x0", "x1", "x2", "x3"]
    decoding = load_problem(side).decode(rows)
    raw, repaired = decoding.stages.values()
    shown = "infeasible" if raw.rule is None else f"{raw.rule.to_str(names)}  objective {raw.objective:.6g}"
    assert f"\nraw:        {shown}  (the lowest-energy sample as it stands)\n" in out
    assert (f"\nrepaired:   {repaired.rule.to_str(names)}  objective {repaired.objective:.6g}  (the best sample "
            "repaired to the literal bounds, best k)\n") in out and "polished:" not in out
    assert f"\nrule:       {decoding.rule.to_str(names)}  objective {decoding.objective:.6g}  (stage repaired)\n" in out
    assert (f"samples:    12 read, 12 distinct, {decoding.num_feasible} feasible as they stand (the literal bounds "
            f"and hard rows; η and slack not judged); the lowest energy {decoding.energy:.6g}") in out
    assert out.startswith("problem:    AtLeast QUBO (with η, paired slack) of q.qubo (qubo)")  # the compilation
    hot, cold = qubo.schedule["beta_range"]
    assert (f"schedule:   dwave.samplers.SimulatedAnnealingSampler, 100 reads x 1000 sweeps, geometric beta "
            f"{hot:.4g} -> {cold:.4g} (recommended at export)") in out


@pytest.mark.parametrize("samples, names", [
    ("0101", ["bitstring of", "characters 0 or 1"]),
    ({"0": 1}, ["lack", "of the file's variables"]),
    ([{"nope": 1}], ["name 1 variables the file does not have", "nope"]),
    ([[2] * 3], ["sample 0", "must be a dict, a bitstring or a list of"]),
    (42, ["samples must be a dict"]),
    ({"type": "SampleSet", "record": 1}, ["not a valid serialized dimod SampleSet"]),
    ([], ["samples must be a dict"]),
])
def test_bad_samples_are_refused_clearly(exported, samples, names):
    _, side = exported
    assert_raises_clearly(ValueError, lambda: load_problem(side).decode(samples), *names)


def test_values_outside_the_vartype_are_refused(exported):
    qubo, side = exported
    loaded = load_problem(side)
    assert_raises_clearly(ValueError, lambda: loaded.decode([[2] * qubo.num_variables]), "must be 0 or 1")
    assert_raises_clearly(ValueError, lambda: loaded.decode([["x"] * qubo.num_variables]), "must be a finite number")


@pytest.mark.parametrize("edit, names", [
    (lambda s: {**s, "boolrules_sidecar": 2}, ["is not a boolrules sidecar"]),
    (lambda s: {k: v for k, v in s.items() if k != "roles"}, ["a sidecar has exactly the keys"]),
    (lambda s: {**s, "labels": s["labels"][1:]}, ["variables and labels must be lists of as many names"]),
    (lambda s: {**s, "problem": {**s["problem"], "data": {**s["problem"]["data"], "X": "AAAA"}}},
     ["problem.data.X holds 3 bytes"]),
    (lambda s: {**s, "problem": {**s["problem"], "lam": 0.5}}, ["other biases than its fingerprint"]),
    (lambda s: {**s, "qubo": {**s["qubo"], "slack": "minimal"}}, ["other variables than its labels"]),
    (lambda s: {**s, "problem": {**s["problem"], "operator": "Xor"}}, ["Xor"]),
    (lambda s: {**s, "qubo": {**s["qubo"], "schedule": {}}}, ["qubo.schedule must be an object with the keys"]),
    (lambda s: {**s, "qubo": {**s["qubo"], "schedule": {**s["qubo"]["schedule"], "sampler": "sa\nfeasible: yes"}}},
     ["qubo.schedule must be"]),
    (lambda s: {**s, "qubo": {**s["qubo"], "schedule": {**s["qubo"]["schedule"], "num_reads": True}}},
     ["qubo.schedule must be"]),
    (lambda s: {**s, "qubo": {**s["qubo"], "schedule": {**s["qubo"]["schedule"], "beta_range": [1, "hot"]}}},
     ["qubo.schedule.beta_range must be finite numbers"]),
])
def test_bad_sidecars_are_refused_clearly(tmp_path, exported, edit, names):
    _, side = exported
    bad = tmp_path / "bad.boolrules.json"
    bad.write_text(json.dumps(edit(json.loads(side.read_text()))))
    assert_raises_clearly(ValueError, lambda: load_problem(bad), "bad.boolrules.json", *names)


def test_cli_decode_prints_a_forged_file_name_on_one_line(capsys, exported, rows, tmp_path):
    """The sidecar's file name is printed escaped: a newline in it cannot add a forged rule line."""
    _, side = exported
    edited = json.loads(side.read_text())
    edited["file"] = "q.qubo\nrule:       FORGED"
    forged = tmp_path / "forged.qubo.boolrules.json"
    forged.write_text(json.dumps(edited))
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps(["".join(map(str, row)) for row in rows]))
    assert main(["decode", str(forged), str(answer)]) == 0
    out = capsys.readouterr().out
    assert "\nrule:       FORGED" not in out and "q.qubo\\nrule:" in out


def test_cli_decode_errors_exit_2(capsys, tmp_path, exported):
    _, side = exported
    answer = tmp_path / "answer.json"
    answer.write_text("{not json")
    assert main(["decode", str(side), str(answer)]) == 2
    assert "is not JSON" in capsys.readouterr().err
    assert main(["decode", str(tmp_path / "missing.json"), str(answer)]) == 2
    assert "no such sidecar" in capsys.readouterr().err


def test_cli_decode_reads_standard_input_and_prints_json(capsys, monkeypatch, exported, rows):
    qubo, side = exported
    counts = {"".join(map(str, row))[::-1]: 3 for row in rows}  # Qiskit counts, as a user pipes them in
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(counts)))
    assert main(["decode", str(side), "-", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["objective"] == min(qubo.objective(qubo.decode(row)) for row in rows)
    assert {"rule", "rule_indices", "objective", "stage", "stages", "energy", "sample", "feasible_samples",
            "distinct_samples"} <= set(result) and result["samples"] == 36
    assert list(result["stages"]) == ["raw", "repaired"] and result["stage"] == "repaired"
    assert result["stages"]["repaired"] == {"rule": result["rule"], "objective": result["objective"], "feasible": True}
    assert (result["eta"], result["slack"]) == (True, "paired")
    assert result["schedule"] == qubo.schedule  # as the sidecar recorded it


def test_feature_names_are_checked_before_anything_is_written(tmp_path, atleast_qubo):
    assert_raises_clearly(ValueError, lambda: export_qubo(atleast_qubo, tmp_path / "q.bqm", "bqm", ["a", "b"]),
                          "feature_names has 2 names", "4 features")
    assert_raises_clearly(TypeError, lambda: export_problem(atleast_qubo.problem, tmp_path / "m.lp", "lp", "abcd"),
                          "feature_names must be a list")
    assert list(tmp_path.iterdir()) == []


def test_a_preselected_problem_decodes_to_its_original_columns(tmp_path):
    """With max_features, the file holds the kept columns only; the sidecar keeps their original
    indices, so decoded rules name the original columns (and their names), as Python's do."""
    from dwave.samplers import SimulatedAnnealingSampler

    from boolrules.formulations import depth_one

    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, (30, 9), dtype=np.uint8)
    y = (X[:, 7] | X[:, 4]).astype(np.uint8)
    problem = depth_one(X, y, "Or", max_num_literals=2, max_features=3)
    assert problem.features is not None and 7 in problem.features and 4 in problem.features
    qubo = problem.to_qubo(eta=False)
    names = [f"col{j}" for j in range(9)]
    with pytest.raises(ValueError, match="feature_names"):
        export_qubo(qubo, tmp_path / "short.bqm", "bqm", names[:5])  # names stop before a kept column
    loaded = load_problem(sidecar_path(export_qubo(qubo, tmp_path / "q.bqm", "bqm", names)))
    samples = SimulatedAnnealingSampler().sample(qubo.bqm, num_reads=20, seed=0)
    decoding = loaded.decode(samples)
    assert decoding.rule == qubo.decode_best(samples, polish=False)[0]
    assert {lit.index for lit in decoding.rule.subrules} == {4, 7}
    assert decoding.objective == problem.objective(decoding.rule) == 0
    assert decoding.to_dict(loaded.feature_names)["rule"] in ("Or(col4, col7)", "Or(col7, col4)")


def test_a_sidecar_written_before_the_schedule_still_decodes(capsys, tmp_path, exported, rows):
    """The recommended schedule is new in the sidecar's "qubo" record: files without it load, and
    decode reports no schedule."""
    qubo, side = exported
    sidecar = json.loads(side.read_text())
    del sidecar["qubo"]["schedule"]
    (tmp_path / sidecar["file"]).write_bytes((side.parent / sidecar["file"]).read_bytes())
    old = tmp_path / side.name
    old.write_text(json.dumps(sidecar))
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps(["".join(map(str, row)) for row in rows]))
    assert main(["decode", str(old), str(answer), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["schedule"] is None and result["objective"] == load_problem(side).decode(rows).objective


def test_cli_decode_polish_reports_what_solve_reports_of_the_same_samples(capsys, tmp_path, atleast_problem):
    """The sa backend's samples, decoded by `boolrules decode --polish` from its export, give the
    stages its `solve` reported; without --polish, the same stages but the polished one."""
    result = get_backend("sa", num_reads=5, num_sweeps=10, seed=2).solve(atleast_problem)
    assert list(result.stages) == ["raw", "repaired", "polished"]
    side = sidecar_path(export_qubo(atleast_problem.to_qubo(), tmp_path / "q.json", "json"))  # sa's compilation
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps(result.raw.to_serializable()))
    assert main(["decode", str(side), str(answer), "--json", "--polish"]) == 0
    decoded = json.loads(capsys.readouterr().out)
    assert decoded["stages"] == {name: stage.to_dict() for name, stage in result.stages.items()}
    assert decoded["stage"] == result.stage and decoded["rule"] == str(result.rule)
    assert decoded["energy"] == pytest.approx(result.solver_objective) and decoded["samples"] == 5
    assert main(["decode", str(side), str(answer), "--json"]) == 0
    unpolished = json.loads(capsys.readouterr().out)
    assert unpolished["stages"] == {name: decoded["stages"][name] for name in ("raw", "repaired")}
    assert main(["decode", str(side), str(answer), "--polish"]) == 0
    assert "\npolished:   " in capsys.readouterr().out
