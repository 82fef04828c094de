"""The notebooks in notebooks/ are stored without outputs, run top to bottom in a fresh kernel, and
say nothing their own results contradict: after its last cell, each notebook runs the checks of
the claims its text makes (CLAIMS), in the same kernel."""

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))
README = Path(__file__).parents[1] / "README.md"
CELL_TIMEOUT = 600  # seconds per cell; each notebook takes under a minute on an idle machine

# Notebook stem -> code run after its last cell: an assert per claim its markdown makes.
CLAIMS = {
    "01_formulation_inspection": """
# "The ILP counts and Or/And agree exactly" with the paper's Table 2
assert (ours["ILP"] == paper["ILP"]).all()
assert (ours.loc[["Or", "And"]] == paper.loc[["Or", "And"]]).all().all()
# "AtLeast/AtMost with η (+357 = one bit per negative sample)"
assert (ours.loc[["AtLeast", "AtMost"], "with η"] - paper.loc[["AtLeast", "AtMost"], "with η"]
        == (data.y == 0).sum()).all()
# Choose without η: "fewer variables than the paper"
assert ours.loc["Choose", "without η"] < paper.loc["Choose", "without η"]
# "the minimal bound gives the smallest largest coefficient for every operator but one", and
# "for AtMost without η 'below' comes out smaller"
largest = slack_table["max |bias|"]
not_smallest = largest[largest["minimal"] > largest[["below", "above"]].min(axis=1)].index.tolist()
assert not_smallest == [("AtMost", "without")], not_smallest
# "The slack bits are the same either way, so the variable counts are equal"
assert (slack_table["variables"].nunique(axis=1) == 1).all()
""",
    "02_backends_by_config": """
# "tiny ... Or with at most 2 literals: 12 QUBO variables without η"
assert tiny.to_qubo(eta=False, slack="minimal").num_variables == 12
# "HiGHS proves optimality; the samplers report feasible", and their rule's true objective can be
# "compared with the ILP's directly": none is below HiGHS's optimum
assert (table.status == table.backend.map(lambda b: "optimal" if b == "highs" else "feasible")).all(), table
for _, rows in table.groupby("problem"):
    optimum = rows.objective[rows.backend == "highs"].item()
    assert (rows.objective >= optimum - 1e-4).all(), rows
# "sa, tabu and the mock QPU compile the same QUBO, the compiler's default without η ..., so their QUBO
# variables agree, fewer than the 12 of the minimal-bound slack that qaoa.toml asks for"
sizes = table[table.problem == "tiny"].set_index("backend")["QUBO variables"]
assert sizes["tabu"] == sizes["sa"] == sizes["dwave-qpu"] == tiny.to_qubo(eta=False).num_variables < 12
""",
    "03_qubo_export": """
# "writes every format ... reads each file back ... nothing was lost"
assert sorted(report.format) == sorted(QUBO_FORMATS) and report.ok.all()
""",
    "04_pareto_frontier": """
# "Complexity is what the fitted model actually costs": L + 1 for L literals, at most the setting
for method, setting, complexity in results[["method", "setting", "complexity"]].itertuples(index=False):
    if method.startswith("native"):
        assert complexity <= setting
    elif method.startswith("depth-one"):
        assert complexity <= setting + 1
    elif method == "single feature":
        assert complexity == 1
# "Most solve to optimality; one that hits the limit returns HiGHS's best incumbent"
ilp = results[results.method.str.startswith("depth-one")]
assert ilp.status.isin(["optimal", "time_limit"]).all() and (ilp.status == "optimal").mean() > 0.5
assert results.groupby("method").seed.nunique().eq(len(SEEDS)).all()
""",
}


def execute(nb, path: Path):
    """Run `nb` with this interpreter's `python3` kernel, in the folder `path`."""
    client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(path)}})
    client.execute()
    return nb


def test_notebooks_are_found():
    assert NOTEBOOKS, "no notebook in notebooks/"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_stored_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.kernelspec.name == "python3"
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{path.name}: strip the outputs"


@pytest.mark.slow
def test_the_readmes_nbconvert_command_runs_a_notebook_on_this_interpreter(tmp_path):
    """The README runs a notebook with `jupyter nbconvert --execute` (the [notebooks] extra): its
    kernel is this interpreter."""
    path = tmp_path / "kernel.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import sys; print(sys.executable)")],
                                            metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                                     "language": "python"}}), path)
    jupyter = Path(sys.executable).parent / "jupyter"
    subprocess.run([str(jupyter), "nbconvert", "--to", "notebook", "--execute", "--inplace", str(path)], check=True,
                   capture_output=True, timeout=300)
    (output,) = nbformat.read(path, as_version=4).cells[0].outputs
    assert Path(output.text.strip()).resolve() == Path(sys.executable).resolve()
    assert "jupyter nbconvert --to notebook --execute --inplace notebooks/" in README.read_text()


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_and_its_claims_hold(path):
    """A cell that raises, or a claim that fails, fails the test."""
    assert path.stem in CLAIMS, f"{path.name}: add the checks of what its text claims to CLAIMS"
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(CLAIMS[path.stem]))
    execute(nb, path.parent)
