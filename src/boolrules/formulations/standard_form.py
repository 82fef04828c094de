"""The first reduction of every chain: a rule problem (Pyomo model) -> `StandardForm` matrices.

Rows and columns keep what they are as data taken from the model's own components (Pyomo's
`LinearStandardFormCompiler` returns each row's `ConstraintData` and each column's `VarData`):
the component's name and the index within it. What the QUBO compiler needs to know follows from
those blocks and the problem's `Layout`: a row of one of its sample blocks constrains the sample
that leads its index, and each `Group` of literal indicators is a cardinality group bounded by
its own rows (`docs/formulations.md`, slack recipe step 1): `b`, `bt` of a depth-one model, the
literals `z[k, ·]` of each term of a depth-two model. Names (`var_names`, `row_names`) are kept
for file formats, labels and messages only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyomo.environ as pyo
import scipy.sparse as sp

from ..exceptions import InputError
from .chain import Chain, Reduction

__all__ = ["ILP_CHAIN", "Group", "Layout", "StandardForm", "ToStandardForm", "compile_standard_form"]


@dataclass(frozen=True)
class Group:
    """A cardinality group: the columns of the variable blocks `columns` (only those whose index
    leads with `key`, when given) sum to at most `bound`, as the rows of the constraint blocks
    `rows` (only the one indexed by `key`, when given) state."""

    columns: tuple[str, ...]
    rows: tuple[str, ...]
    bound: int
    key: int | None = None


@dataclass(frozen=True)
class Layout:
    """What a problem's model components are beyond their names: the constraint blocks whose rows
    belong to a sample (the first element of the row's index), the cardinality groups, and the
    variable blocks a solution is decoded from."""

    sample_rows: tuple[str, ...]
    groups: tuple[Group, ...]
    value_blocks: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class StandardForm:
    """`lower <= A x <= upper` (rows; ±inf where open), variable bounds, objective `c x + c0`, and
    what every row and column is.

    `col_block[j]`/`col_index[j]`: the model variable (component name, index; -1 for a scalar)
    of column j, and `row_block[r]`/`row_index[r]` the constraint of row r. Derived from them:
    `row_sample[r]` is the sample row r constrains (-1 for the other, hard, rows) and
    `row_weight[r]` that sample's weight (0 for hard rows); `col_group[j]` is the cardinality
    group of column j (-1: none), whose members sum to at most `group_bound[g]`, and
    `row_group[r]` the group row r bounds (-1: none; a group does not bound its own rows).
    Reductions keep these arrays aligned with the rows and columns they produce. An index is the
    model's own when it is an integer, the position within the component for a tuple index
    (`z[k, j]`), -1 for a scalar. `value_blocks`: the blocks `ToStandardForm.invert` returns.
    """

    A: sp.csr_matrix
    lower: np.ndarray
    upper: np.ndarray
    c: np.ndarray
    c0: float
    var_lower: np.ndarray
    var_upper: np.ndarray
    var_names: list[str]
    row_names: list[str]
    col_block: np.ndarray
    col_index: np.ndarray
    row_block: np.ndarray
    row_index: np.ndarray
    row_sample: np.ndarray
    row_weight: np.ndarray
    col_group: np.ndarray
    row_group: np.ndarray
    group_bound: np.ndarray
    value_blocks: tuple[str, ...] = ("b", "bt", "k")

    @property
    def num_vars(self) -> int:
        return self.A.shape[1]

    def columns(self, block: str) -> np.ndarray:
        """The columns of the variable block `block`, in the order of their indices."""
        cols = np.flatnonzero(self.col_block == block)
        return cols[np.argsort(self.col_index[cols], kind="stable")]


def _indices(items) -> tuple[np.ndarray, np.ndarray]:
    """(index, lead) of each component data: the index as `StandardForm` keeps it (see there) and
    the first element of its index (the index itself when it is an integer; -1 for a scalar)."""
    index = np.empty(len(items), dtype=np.int64)
    lead = np.empty(len(items), dtype=np.int64)
    position: dict[int, dict] = {}
    for r, data in enumerate(items):
        key = data.index()
        if key is None:
            index[r] = lead[r] = -1
        elif isinstance(key, tuple):
            component = data.parent_component()
            order = position.get(id(component))
            if order is None:
                order = position[id(component)] = {k: p for p, k in enumerate(component.index_set())}
            index[r], lead[r] = order[key], int(key[0])
        else:
            index[r] = lead[r] = int(key)
    return index, lead


def compile_standard_form(problem) -> StandardForm:
    """The problem's model as matrices, from Pyomo's `LinearStandardFormCompiler` (every variable
    kept, block by block), with its row and column blocks read through `problem.layout`."""
    from pyomo.repn.plugins.standard_form import LinearStandardFormCompiler

    model, layout = problem.model, problem.layout
    columns = [v for var in model.component_objects(pyo.Var, descend_into=False) for v in var.values()]
    repn = LinearStandardFormCompiler().write(model, mixed_form=True, set_sense=None, column_order=columns)
    A = sp.csr_matrix(repn.A)
    lower = np.full(A.shape[0], -np.inf)
    upper = np.full(A.shape[0], np.inf)
    rhs = np.asarray(repn.rhs, dtype=float)
    senses = np.array([sense for _, sense in repn.rows], dtype=np.int64)  # mixed form: 1 <=, -1 >=, 0 ==
    upper[senses >= 0] = rhs[senses >= 0]
    lower[senses <= 0] = rhs[senses <= 0]
    cols = repn.columns
    c = np.asarray(repn.c.toarray()).ravel() if hasattr(repn.c, "toarray") else np.asarray(repn.c).ravel()
    row_block = np.array([con.parent_component().local_name for con, _ in repn.rows], dtype=str)
    row_index, row_lead = _indices([con for con, _ in repn.rows])
    col_block = np.array([v.parent_component().local_name for v in cols], dtype=str)
    col_index, col_lead = _indices(cols)
    sample_rows = np.isin(row_block, layout.sample_rows)
    row_sample = np.where(sample_rows, row_lead, -1)
    col_group = np.full(len(cols), -1)
    row_group = np.full(len(row_block), -1)
    for g, group in enumerate(layout.groups):
        col_group[np.isin(col_block, group.columns) & ((col_lead == group.key) if group.key is not None else True)] = g
        row_group[np.isin(row_block, group.rows) & ((row_index == group.key) if group.key is not None else True)] = g
    return StandardForm(
        A=A,
        lower=lower,
        upper=upper,
        c=c,
        c0=float(np.asarray(repn.c_offset).ravel()[0]),
        var_lower=np.array([v.lb for v in cols], dtype=float),
        var_upper=np.array([v.ub for v in cols], dtype=float),
        var_names=[v.name for v in cols],
        row_names=[con.name for con, _ in repn.rows],
        col_block=col_block,
        col_index=col_index,
        row_block=row_block,
        row_index=row_index,
        row_sample=row_sample,
        row_weight=np.where(sample_rows, problem.weights[np.maximum(row_sample, 0)], 0.0),
        col_group=col_group,
        row_group=row_group,
        group_bound=np.array([group.bound for group in layout.groups], dtype=np.int64),
        value_blocks=tuple(layout.value_blocks),
    )


@dataclass(frozen=True)
class ToStandardForm(Reduction):
    """A rule problem -> its `StandardForm` (computed once per problem: `problem.standard_form`).

    Solutions of the form are vectors over its columns; solutions of the problem are per-block
    values of its `value_blocks`: for a depth-one problem {"b", "bt"} 0/1 arrays and the integer
    "k" for the parameterized operators, for a depth-two problem the array "z". The inverse data
    is the form itself: its column blocks say where each block's values sit.
    """

    def apply(self, problem) -> tuple[StandardForm, StandardForm]:
        form = problem.standard_form
        return form, form

    def invert(self, x, form: StandardForm) -> dict:
        """The values of the form's `value_blocks` in `x` (..., columns), rounded: arrays (..., size)
        per indexed block, and for a scalar block such as k (...), an int for one point (1-D `x`)."""
        x = np.round(np.asarray(x, dtype=float)).astype(np.int64)
        if x.shape[-1:] != (form.num_vars,):
            raise InputError(f"x has shape {x.shape}, the standard form has {form.num_vars} columns")
        values = {}
        for block in form.value_blocks:
            cols = form.columns(block)
            if len(cols) == 1 and form.col_index[cols[0]] == -1:
                values[block] = int(x[cols[0]]) if x.ndim == 1 else x[..., cols[0]]
            elif len(cols):
                values[block] = x[..., cols]
        return values

    def encode(self, values: dict, form: StandardForm) -> np.ndarray:
        """One point over the form's columns from per-block values ({"b": ..., "eta": ..., "k": ...},
        each block's values in the order of its indices); blocks not given are 0."""
        x = np.zeros(form.num_vars)
        for block, array in values.items():
            cols = form.columns(block)
            array = np.asarray(array, dtype=float).ravel()
            if array.size != len(cols):
                raise InputError(
                    f"values[{block!r}] has {array.size} entries but the model has {len(cols)} variables in that "
                    f"block (its blocks are {', '.join(dict.fromkeys(form.col_block))})"
                )
            x[cols] = array
        return x


# The ILP path: problem -> standard form, whose matrices a MIP solver takes (backends/highs.py);
# its answer, a vector over the form's columns, inverts to the values of the form's value blocks.
ILP_CHAIN = Chain((ToStandardForm(),))
