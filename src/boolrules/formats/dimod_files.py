"""dimod's binary BQM and CQM files, checked before anything is built from them.

dimod's own readers trust the sizes and indices a file announces: a hostile header makes the BQM
reader allocate without bound and the CQM reader write out of bounds (a segmentation fault). The
BQM is therefore read here, and a CQM file is checked here section by section before dimod reads it.
Every problem raises ValueError saying what is wrong; the helpers check values parsed from JSON too.
"""

from __future__ import annotations

import io
import json
import lzma
import struct
import zipfile
import zlib

import dimod
import numpy as np

from ..exceptions import FormatError

__all__ = ["check_pairs", "finite", "labels_from_json", "read_bqm", "read_cqm", "read_zip"]

_FLOATS = ("float32", "float64")
_INTS = ("int16", "int32", "int64", "uint16", "uint32", "uint64")
_VARTYPES = 4  # dimod's C++ Vartype: BINARY, SPIN, INTEGER, REAL
_SENSES = ("<=", ">=", "==")
_PENALTIES = ("linear", "quadratic", "constant")
_DEFLATE_RATIO = 1100  # DEFLATE expands at most ~1032:1, so a zip announcing more is lying
# What reading a damaged zip entry raises: a bad DEFLATE/bzip2/LZMA stream, an unsupported method or
# flag, an encrypted entry, a wrong CRC or a stream cut short.
ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, lzma.LZMAError, OSError, EOFError, NotImplementedError, RuntimeError)


def read_zip(data: bytes, what: str) -> dict[str, bytes]:
    """Every entry of the zip archive `data`, decompressed and checked (stored or DEFLATE entries, not
    encrypted, CRCs right, at most `_DEFLATE_RATIO` times the archive's size in all); a damaged or
    hostile archive raises ValueError naming `what`."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
            if len({info.filename for info in infos}) != len(infos):
                raise FormatError(f"{what} holds an entry name twice")
            if sum(info.file_size for info in infos) > _DEFLATE_RATIO * len(data):
                raise FormatError(f"{what}'s entries announce more data than the file can hold")
            for info in infos:
                if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) or info.flag_bits & 0x61:
                    raise FormatError(f"{what}'s entry {info.filename!r} is encrypted or compressed by a method "
                                     f"other than DEFLATE (method {info.compress_type})")
            return {info.filename: zf.read(info) for info in infos}
    except ZIP_ERRORS as err:
        raise FormatError(f"{what} is a damaged zip archive: {err}") from None


def finite(values, what: str) -> np.ndarray:
    """`values` as finite floats; in parsed JSON (a list), only numbers count (not true, "1" or null)."""
    if isinstance(values, list):
        bad = [v for v in values if isinstance(v, bool) or not isinstance(v, (int, float))]
        if bad:
            raise FormatError(f"{what} must be finite numbers; could not convert {bad[0]!r}")
    try:
        array = np.asarray(values, dtype=float)
    except OverflowError:  # an integer beyond float range
        array = np.array([np.inf])
    if not np.isfinite(array).all():
        raise FormatError(f"{what} must be finite numbers")
    return array


def _label(value, what: str):
    """A variable label as read from JSON: a string, an integer or a list of labels (dimod's tuples)."""
    if isinstance(value, list):
        return tuple(_label(v, what) for v in value)
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise FormatError(f"{what} must be strings, integers or lists of them, got {value!r}")


def labels_from_json(values, count: int, what: str) -> list:
    """`count` distinct variable labels from parsed JSON."""
    if not isinstance(values, list) or len(values) != count:
        raise FormatError(f"{what} must be a list of {count} labels")
    labels = [_label(v, what) for v in values]
    if len(set(labels)) != len(labels):
        raise FormatError(f"{what} name a variable twice")
    return labels


def check_pairs(u: np.ndarray, v: np.ndarray, what: str) -> None:
    """Interactions (u[i], v[i]) join two different variables, each pair once."""
    if np.any(u == v):
        raise FormatError(f"{what} join a variable to itself")
    pairs = np.unique(np.column_stack([np.minimum(u, v), np.maximum(u, v)]), axis=0)
    if len(pairs) != len(u):
        raise FormatError(f"{what} give an interaction twice")


def _json(data: bytes, what: str):
    try:
        return json.loads(data.decode("ascii"))
    except RecursionError:
        raise FormatError(f"{what} is nested too deeply") from None
    except ValueError as err:  # not ASCII, not JSON
        raise FormatError(f"{what} is not JSON: {err}") from None


def _header(data: bytes, prefix: bytes, keys: dict, what: str) -> tuple[dict, int]:
    """The header of a dimod file (`prefix`, version 2.0, length, JSON) and where its data starts.
    `keys` maps each header key to its allowed values (None: checked by the caller)."""
    if not data.startswith(prefix):
        raise FormatError(f"{what} does not start with {prefix.decode()}")
    start = len(prefix) + 6
    if len(data) < start or data[len(prefix):len(prefix) + 2] != bytes([2, 0]):
        raise FormatError(f"{what}: only version 2.0 of dimod's format is read")
    end = start + struct.unpack("<I", data[start - 4:start])[0]
    if end > len(data):
        raise FormatError(f"{what}: its header is cut short")
    header = _json(data[start:end], f"{what}'s header")
    if not isinstance(header, dict) or set(header) != set(keys):
        raise FormatError(f"{what}: its header must have exactly the keys {', '.join(sorted(keys))}")
    for key, allowed in keys.items():
        if allowed is not None and header[key] not in allowed:
            raise FormatError(f"{what}: its header's {key} must be one of {', '.join(allowed)}, got {header[key]!r}")
    return header, end


def _counts(value, size: int, what: str) -> list[int]:
    if not (isinstance(value, list) and len(value) == size
            and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in value)):
        raise FormatError(f"{what} must be {size} counts >= 0, got {value!r}")
    return value


def _sections(data: bytes, pos: int, layout: dict, what: str) -> dict:
    """Consecutive dimod sections from `pos`: magic, length (4 bytes, 8 for QUAD), data; each must
    hold at least `layout[magic]` bytes. Returns {magic: bytes}."""
    found = {}
    for magic, needed in layout.items():
        width = 8 if magic == b"QUAD" else 4
        if data[pos:pos + 4] != magic or pos + 4 + width > len(data):
            raise FormatError(f"{what}: expected its {magic.decode()} section at byte {pos}")
        length = int.from_bytes(data[pos + 4:pos + 4 + width], "little")
        pos += 4 + width
        if length < needed or pos + length > len(data):
            raise FormatError(f"{what}: its {magic.decode()} section is cut short ({length} bytes, {needed} needed)")
        found[magic] = data[pos:pos + needed]
        pos += length
    if pos != len(data):
        raise FormatError(f"{what} has data after its last section")
    return found


_BQM_KEYS = {"dtype": _FLOATS, "itype": _INTS, "ntype": _INTS, "shape": None, "type": ("BinaryQuadraticModel",),
             "variables": None, "vartype": ("BINARY", "SPIN")}


def read_bqm(data: bytes) -> dimod.BinaryQuadraticModel:
    """dimod's BQM file (format 2.0): sizes, offsets, indices, the symmetric storage of each
    interaction and the labels are checked, then the model is built from the arrays."""
    what = "the BQM file"
    header, end = _header(data, b"DIMODBQM", _BQM_KEYS, what)
    num_variables, num_interactions = _counts(header["shape"], 2, "its header's shape")
    if not isinstance(header["variables"], bool):
        raise FormatError(f"its header's variables must be true or false, got {header['variables']!r}")
    dtype = np.dtype(header["dtype"])
    linear_dtype = np.dtype([("nidx", header["ntype"]), ("bias", dtype)])
    quadratic_dtype = np.dtype([("outvar", header["itype"]), ("bias", dtype)])
    sizes = [dtype.itemsize, num_variables * linear_dtype.itemsize, 2 * num_interactions * quadratic_dtype.itemsize]
    if (num_interactions and not num_variables) or end + sum(sizes) > len(data):
        raise FormatError(f"it is cut short: its header announces {num_variables} variables and {num_interactions} "
                         f"interactions")
    offset = np.frombuffer(data, dtype, 1, end)[0]
    linear = np.frombuffer(data, linear_dtype, num_variables, end + sizes[0])
    quadratic = np.frombuffer(data, quadratic_dtype, 2 * num_interactions, end + sizes[0] + sizes[1])
    end += sum(sizes)
    # each interaction is stored twice, in the neighbourhood of each of its variables
    starts = np.append(linear["nidx"].astype(np.int64), 2 * num_interactions)
    if num_variables and (starts[0] != 0 or np.any(np.diff(starts) < 0)):
        raise FormatError("its neighbourhood offsets do not rise from 0 to twice the interactions")
    owner = np.repeat(np.arange(num_variables), np.diff(starts))
    other = quadratic["outvar"].astype(np.int64)
    if np.any((other < 0) | (other >= num_variables)):
        raise FormatError(f"a neighbour is not a variable index 0..{num_variables - 1}")
    lower = other < owner
    check_pairs(owner[lower], other[lower], "its interactions")
    mirrored = np.lexsort((other[~lower], owner[~lower]))
    back = np.lexsort((owner[lower], other[lower]))
    if lower.sum() != num_interactions or not (
        np.array_equal(other[~lower][mirrored], owner[lower][back])
        and np.array_equal(owner[~lower][mirrored], other[lower][back])
        and np.array_equal(quadratic["bias"][~lower][mirrored], quadratic["bias"][lower][back], equal_nan=True)
    ):
        raise FormatError("its interactions are not stored symmetrically, once per variable")
    labels = range(num_variables)
    if header["variables"]:
        if data[end:end + 4] != b"VARS" or end + 8 > len(data):
            raise FormatError("it has no VARS section of variable labels")
        start, end = end + 8, end + 8 + struct.unpack("<I", data[end + 4:end + 8])[0]
        if end > len(data):
            raise FormatError("its VARS section is cut short")
        labels = labels_from_json(_json(data[start:end], "its VARS section"), num_variables, "its variable labels")
    if end != len(data):
        raise FormatError("it has data after the end of the model")
    finite(np.concatenate([linear["bias"], quadratic["bias"], [offset]]), "biases")
    return dimod.BinaryQuadraticModel.from_numpy_vectors(
        linear["bias"], (owner[lower], other[lower], quadratic["bias"][lower]), offset, header["vartype"],
        variable_order=list(labels))


_CQM_KEYS = dict.fromkeys(("num_biases", "num_constraints", "num_linear_biases_real", "num_quadratic_variables",
                           "num_quadratic_variables_real", "num_variables", "num_weighted_constraints"))
_EXPR_KEYS = {"dtype": _FLOATS, "itype": _INTS, "shape": None, "type": ("ObjectiveView", "ConstraintView")}


def read_cqm(data: bytes) -> dimod.ConstrainedQuadraticModel:
    """dimod's CQM file (format 2.0), every part checked against what dimod's reader assumes (and
    every number finite), then read by dimod."""
    header, start = _header(data, b"DIMODCQM", _CQM_KEYS, "the CQM file")
    num_variables, num_constraints = _counts([header["num_variables"], header["num_constraints"]], 2,
                                             "its header's num_variables and num_constraints")
    entries = read_zip(data, "the CQM file")
    if "varinfo" not in entries or "objective" not in entries:
        raise FormatError("it lacks its varinfo or objective entry")
    varinfo = np.dtype([("vartype", np.int8), ("lb", np.float64), ("ub", np.float64)])
    raw = _sections(entries["varinfo"], 0, {b"VTYP": num_variables * varinfo.itemsize}, "its varinfo")[b"VTYP"]
    info = np.frombuffer(raw, varinfo)
    if np.any((info["vartype"] < 0) | (info["vartype"] >= _VARTYPES)) or not np.all(info["lb"] <= info["ub"]):
        raise FormatError("its varinfo holds an unknown vartype or a lower bound above its upper bound")
    _check_expression(entries["objective"], num_variables, "its objective")
    constraints = {name.split("/")[1] for name in entries if name.startswith("constraints/")}
    if len(constraints) != num_constraints:
        raise FormatError(f"its header announces {num_constraints} constraints, it holds {len(constraints)}")
    for label in constraints:
        _check_constraint(entries, label, num_variables)
    if "variable_labels.json" in entries:
        labels_from_json(_json(entries["variable_labels.json"], "its variable_labels.json"), num_variables,
                         "its variable labels")
    return dimod.ConstrainedQuadraticModel.from_file(data)


def _check_constraint(entries: dict[str, bytes], label: str, num_variables: int) -> None:
    what = f"its constraint {label}"
    _label(_json(label.encode(), f"{what}'s label"), f"{what}'s label")
    if any(f"constraints/{label}/{part}" not in entries for part in ("lhs", "rhs", "sense")):
        raise FormatError(f"{what} lacks its lhs, rhs or sense")
    _check_expression(entries[f"constraints/{label}/lhs"], num_variables, f"{what}'s lhs")
    rhs = entries[f"constraints/{label}/rhs"]
    if len(rhs) != 8:
        raise FormatError(f"{what}'s rhs is not one float64")
    finite(np.frombuffer(rhs, np.float64), f"{what}'s rhs")
    if entries[f"constraints/{label}/sense"] not in (s.encode() for s in _SENSES):
        raise FormatError(f"{what}'s sense must be one of {', '.join(_SENSES)}")
    weighted = [f"constraints/{label}/{part}" in entries for part in ("weight", "penalty")]
    if any(weighted):
        weight = entries[f"constraints/{label}/weight"] if all(weighted) else b""
        if len(weight) != 8 or entries[f"constraints/{label}/penalty"] not in (p.encode() for p in _PENALTIES):
            raise FormatError(f"{what}'s weight must be one float64 with a penalty in {', '.join(_PENALTIES)}")
        finite(np.frombuffer(weight, np.float64), f"{what}'s weight")


def _check_expression(data: bytes, num_variables: int, what: str) -> None:
    """An objective or constraint lhs: indices of distinct model variables, and its quadratic terms
    between its own variables, (u, v) with u > v in increasing order, as dimod writes them."""
    header, start = _header(data, b"DIMODEXPR", _EXPR_KEYS, what)
    size, num_interactions = _counts(header["shape"], 2, f"{what}'s shape")
    bias, index = np.dtype(header["dtype"]), np.dtype(header["itype"])
    term = np.dtype([("u", index), ("v", index), ("bias", bias)])
    found = _sections(data, start, {b"INDX": size * index.itemsize, b"OFFS": bias.itemsize,
                                    b"LINB": size * bias.itemsize, b"QUAD": num_interactions * term.itemsize}, what)
    variables = np.frombuffer(found[b"INDX"], index).astype(np.int64)
    if np.any((variables < 0) | (variables >= num_variables)) or len(np.unique(variables)) != size:
        raise FormatError(f"{what}'s variables must be distinct indices 0..{num_variables - 1}")
    terms = np.frombuffer(found[b"QUAD"], term)
    finite(np.concatenate([np.frombuffer(found[b"OFFS"], bias), np.frombuffer(found[b"LINB"], bias), terms["bias"]]),
           f"{what}'s biases")
    u, v = terms["u"].astype(np.int64), terms["v"].astype(np.int64)
    key = u * max(size, 1) + v
    if np.any((v < 0) | (u <= v) | (u >= size)) or np.any(np.diff(key) <= 0):
        raise FormatError(f"{what}'s quadratic terms must be (u, v), u > v, between its {size} variables, in order")
