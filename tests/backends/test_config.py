import tomllib
from pathlib import Path

import pytest

from boolrules.backends import IlpBackend, get_backend
from boolrules.backends.config import backend_from_spec, check_backend_spec, load_backend, problem_caps, spec_kind

CONFIGS = sorted((Path(__file__).parents[2] / "examples" / "configs").glob("*.toml"))


QAOA = '[backend]\nname = "qaoa"\n'


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "backend.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_example_configs_load(path, monkeypatch):
    monkeypatch.setenv("DWAVE_API_TOKEN", "not-a-token")  # dwave-qpu checks that one is configured
    config = tomllib.loads(path.read_text())
    name = config["backend"].pop("name", None)
    if name is None:  # a sampler class, named by its class
        name = config["backend"].pop("sampler").rsplit(":", 1)[1]
    backend = load_backend(path)
    assert backend.name == name
    if config["backend"].pop("mock", None) is not None:  # the mock QPU, which takes a seed
        assert type(backend.sampler.child).__name__ == "MockQpu" and "seed" in backend.capabilities
    for key, value in {**config["backend"], **config.get("qubo", {})}.items():
        assert backend.options()[key] == value
    assert problem_caps(path) == config.get("problem", {})


def test_qubo_table_sets_the_compilation(tmp_path):
    path = write(tmp_path, QAOA + 'shots = 64\n[qubo]\neta = true\n'
                           '[qubo.penalty]\nsoft = 0.5\nhard = 3\n')
    backend = load_backend(path)
    options = backend.options()
    assert (options["shots"], options["eta"], options["slack"]) == (64, True, "paired")  # the preset's default
    assert options["penalty"] == {"soft": 0.5, "hard": 3}


@pytest.mark.parametrize(
    "text, match",
    [
        ('[backend]\nname = "annealer"', r"name = 'annealer' is not a backend; it needs name = one of .*highs.*qaoa"),
        ('[backend]\nnum_reads = 3', r"name = None is not a backend; it needs name = one of .*highs.*, or sampler = "),
        ('[solver]\nname = "highs"', r"unknown table\(s\) \['solver'\]; a backend file has \[backend\]"),
        ('[qubo]\neta = false', r"no \[backend\] table; it needs name = one of"),
        ('[backend]\nname = "highs"\ntimelimit = 3',
         r"\[backend\] 'highs': unknown option\(s\) \['timelimit'\] for backend 'highs'; options: time_limit, mip_gap"),
        (QAOA + 'shots = "many"', r"\[backend\] 'qaoa': shots must be an integer, got 'many'"),
        (QAOA + 'reps = 1.5', r"\[backend\] 'qaoa': reps must be an integer"),
        (QAOA + 'reps = 0', r"\[backend\] 'qaoa': reps must be >= 1"),
        ('[backend]\nname = "highs"\ntime_limit = "soon"', r"'highs': time_limit must be a number, got 'soon'"),
        ('[backend]\nname = "highs"\n[qubo]\neta = false',
         r"\[qubo\] applies to QUBO backends, and 'highs' compiles no QUBO"),
        (QAOA + '[qubo]\nlam = 1', r"unknown key\(s\) \['lam'\] in \[qubo\]; keys: eta, penalty, slack"),
        (QAOA + '[qubo]\neta = "no"', r"\[qubo\] eta = 'no': eta must be true, false or \"auto\", got 'no'"),
        (QAOA + 'eta = true\n[qubo]\neta = false', r"\['eta'\] set in both \[backend\] and \[qubo\]"),
        (QAOA + '[qubo]\npenalty = "huge"', r"\[qubo\] penalty = 'huge': penalty must be one of sufficient"),
        (QAOA + '[qubo.penalty]\nsoft = 1', r"\[qubo.penalty\] penalty weights need exactly the keys 'soft'"),
        (QAOA + '[qubo.penalty]\nsoft = 1\nhard = -2', r"\[qubo.penalty\] penalty weights must be finite and > 0"),
        (QAOA + '[qubo]\nslack = "tight"', r"\[qubo\] slack = 'tight': slack must be one of minimal, below, above"),
        ('qubo = 3\n[backend]\nname = "qaoa"', r"qubo must be a table"),
        ('[backend\nname = "highs"', r"invalid TOML"),
        (QAOA + '[problem]\nmax_rows = 3', r"unknown key\(s\) \['max_rows'\] in \[problem\]; keys: max_samples, "
                                         r"max_features"),
        (QAOA + '[problem]\nmax_features = 0', r"\[problem\] max_features must be >= 1, got 0"),
        (QAOA + '[problem]\nmax_samples = "few"', r"\[problem\] max_samples must be an integer, got 'few'"),
        ('problem = 3\n[backend]\nname = "qaoa"', r"problem must be a table"),
        ('[backend]\nname = "dwave-qpu"\nmock = "chimera"', r"mock must be one of pegasus, zephyr"),
        ('[backend]\nname = "dwave-qpu"\nmock = "pegasus"\nsolver = "Advantage_system4.1"',
         r"give mock or solver, not both"),
    ],
)
def test_mistakes_name_the_file_and_the_key(tmp_path, text, match):
    path = write(tmp_path, text)
    with pytest.raises(ValueError, match=match) as err:
        load_backend(path)
    assert str(err.value).startswith(f"{path}: ")
    with pytest.raises(ValueError, match=match):  # found without building the backend too
        check_backend_spec(path)


def test_problem_caps_only_from_toml_files(tmp_path):
    path = write(tmp_path, QAOA + '[problem]\nmax_samples = 4\n')
    assert problem_caps(path) == problem_caps(str(path)) == {"max_samples": 4}
    assert problem_caps("qaoa") == problem_caps(get_backend("highs")) == {}
    assert problem_caps(write(tmp_path, QAOA)) == {}


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.toml does not exist"):
        load_backend(tmp_path / "nope.toml")


def test_backend_from_spec(tmp_path):
    path = write(tmp_path, '[backend]\nname = "scip"\ntime_limit = 5')
    assert isinstance(backend_from_spec("highs"), IlpBackend)
    backend = get_backend("highs", threads=2)
    assert backend_from_spec(backend) is backend
    assert backend_from_spec(path).name == "scip" and backend_from_spec(str(path)).options()["time_limit"] == 5
    with pytest.raises(ValueError, match=r"backend must be a name \(.*highs.*\), a Backend, a dimod Sampler or a "
                                         r"path to a .toml"):
        backend_from_spec("simplex")
    with pytest.raises(FileNotFoundError):
        backend_from_spec(tmp_path / "missing.toml")


def test_a_spec_is_checked_without_building_the_backend(tmp_path, no_dwave_credentials):
    from boolrules.backends.dwave import MissingCredentialsError

    qpu = write(tmp_path, '[backend]\nname = "dwave-qpu"\nnum_reads = 10\n')
    check_backend_spec(qpu)  # no token needed to check the file
    check_backend_spec("dwave-qpu")
    with pytest.raises(MissingCredentialsError):
        load_backend(qpu)
    with pytest.raises(ValueError, match="nonlocal_backend: .*unknown option"):
        check_backend_spec(write(tmp_path, '[backend]\nname = "sa"\nnum_readz = 1\n'), "nonlocal_backend")
    with pytest.raises(ValueError, match="nonlocal_backend must be a name"):
        check_backend_spec("no-such-backend", "nonlocal_backend")


@pytest.mark.parametrize("name, capabilities", [
    ("highs", {"time_limit", "depth_two"}), ("sa", {"seed", "time_limit", "depth_two", "polish"}),
    ("tabu", {"seed", "time_limit", "depth_two", "polish"}), ("steepest", {"seed", "time_limit", "depth_two", "polish"}),
    ("exact", {"depth_two", "polish"}), ("qaoa", {"seed", "depth_two", "polish"}), ("native", {"time_limit", "depth_two"}),
])
def test_backends_declare_what_callers_may_pass(name, capabilities):
    assert get_backend(name).capabilities == capabilities


@pytest.mark.parametrize("spec, kind", [
    ("highs", "name"), ("sa", "name"), ("no-such-backend", None), ("sa.toml", "config"), (Path("x/sa.toml"), "config"),
    (Path("highs"), None), ("sa.TOML", None), (3, None), (None, None),
])
def test_a_spec_is_read_in_one_place(spec, kind):
    """Names, .toml paths (str or Path), and nothing else, as every reader of a spec sees them."""
    assert spec_kind(spec) == kind


def test_a_spec_that_is_an_object_is_a_backend_or_a_sampler():
    import dimod

    assert spec_kind(get_backend("highs")) == "backend"
    assert spec_kind(dimod.ExactSolver()) == "sampler"

