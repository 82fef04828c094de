"""The notebooks in notebooks/ are stored without outputs and run top to bottom in a fresh kernel."""

import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))
CELL_TIMEOUT = 600  # seconds per cell; each notebook takes under a minute on an idle machine


def execute(nb, path: Path):
    """Run `nb` with this interpreter's `python3` kernel, in the folder `path`."""
    client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(path)}})
    client.execute()
    return nb


def test_every_notebook_is_collected():
    assert [p.name for p in NOTEBOOKS] == [
        "01_formulation_inspection.ipynb", "02_backends_by_config.ipynb", "03_qubo_export.ipynb",
        "04_pareto_frontier.ipynb",
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_stored_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.kernelspec.name == "python3"
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{path.name}: strip the outputs"


@pytest.mark.slow
def test_kernel_is_this_interpreter(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import sys; print(sys.executable)")])
    (output,) = execute(nb, tmp_path).cells[0].outputs
    assert Path(output.text.strip()).resolve() == Path(sys.executable).resolve()


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path):
    execute(nbformat.read(path, as_version=4), path.parent)  # a cell that raises fails the test
