"""The first reduction of every chain: a `DepthOneProblem` (Pyomo model) -> `StandardForm` matrices.

Rows and columns keep what they are as data taken from the model's own components (Pyomo's
`LinearStandardFormCompiler` returns each row's `ConstraintData` and each column's `VarData`):
the component's name and the index within it. What the QUBO compiler needs to know follows from
those blocks: a row of one of the problem's sample blocks (`DepthOneProblem.row_blocks`)
constrains the sample of its index, and the literal indicators `b`, `bt` form the cardinality
group bounded by the rows `max_literals`/`min_literals` (`formulations.md`, slack recipe step 1).
Names (`var_names`, `row_names`) are kept for file formats, labels and messages only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyomo.environ as pyo
import scipy.sparse as sp

from .chain import Chain, Reduction

__all__ = [
    "ILP_CHAIN", "StandardForm", "ToStandardForm", "compile_standard_form", "LITERAL_BLOCKS", "LITERAL_COUNT_ROWS",
]

LITERAL_BLOCKS = ("b", "bt")  # the literal indicators of `depth_one`'s model: cardinality group 0
LITERAL_COUNT_ROWS = ("max_literals", "min_literals")  # the rows of `depth_one`'s model that bound that group
VALUE_BLOCKS = ("b", "bt", "k")  # the blocks a rule is decoded from


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
    Reductions keep these arrays aligned with the rows and columns they produce.
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

    @property
    def num_vars(self) -> int:
        return self.A.shape[1]

    def columns(self, block: str) -> np.ndarray:
        """The columns of the variable block `block`, in the order of their indices."""
        cols = np.flatnonzero(self.col_block == block)
        return cols[np.argsort(self.col_index[cols], kind="stable")]


def _index(component_data) -> int:
    index = component_data.index()
    return -1 if index is None else int(index)


def compile_standard_form(problem) -> StandardForm:
    """The problem's model as matrices, from Pyomo's `LinearStandardFormCompiler` (every variable
    kept, block by block), with its row and column blocks."""
    from pyomo.repn.plugins.standard_form import LinearStandardFormCompiler

    model = problem.model
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
    row_index = np.array([_index(con) for con, _ in repn.rows], dtype=np.int64)
    col_block = np.array([v.parent_component().local_name for v in cols], dtype=str)
    sample_rows = np.isin(row_block, [block.name for block in problem.row_blocks])
    row_sample = np.where(sample_rows, row_index, -1)
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
        col_index=np.array([_index(v) for v in cols], dtype=np.int64),
        row_block=row_block,
        row_index=row_index,
        row_sample=row_sample,
        row_weight=np.where(sample_rows, problem.weights[np.maximum(row_sample, 0)], 0.0),
        col_group=np.where(np.isin(col_block, LITERAL_BLOCKS), 0, -1),
        row_group=np.where(np.isin(row_block, LITERAL_COUNT_ROWS), 0, -1),
        group_bound=np.array([problem.max_num_literals]),
    )


@dataclass(frozen=True)
class ToStandardForm(Reduction):
    """`DepthOneProblem` -> its `StandardForm` (computed once per problem: `problem.standard_form`).

    Solutions of the form are vectors over its columns; solutions of the problem are per-block
    values, {"b", "bt"} 0/1 arrays and the integer "k" for the parameterized operators. The
    inverse data is the form itself: its column blocks say where each block's values sit.
    """

    def apply(self, problem) -> tuple[StandardForm, StandardForm]:
        form = problem.standard_form
        return form, form

    def invert(self, x, form: StandardForm) -> dict:
        """The b, bt (and k) values of `x` (..., columns), rounded: arrays (..., m) and k (...);
        for one point (1-D `x`) k is an int."""
        x = np.round(np.asarray(x, dtype=float)).astype(np.int64)
        if x.shape[-1:] != (form.num_vars,):
            raise ValueError(f"x has shape {x.shape}, the standard form has {form.num_vars} columns")
        values = {}
        for block in VALUE_BLOCKS:
            cols = form.columns(block)
            if block == "k" and len(cols):
                values["k"] = int(x[cols[0]]) if x.ndim == 1 else x[..., cols[0]]
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
                raise ValueError(
                    f"values[{block!r}] has {array.size} entries but the model has {len(cols)} variables in that "
                    f"block (its blocks are {', '.join(dict.fromkeys(form.col_block))})"
                )
            x[cols] = array
        return x


# The ILP path: problem -> standard form, whose matrices a MIP solver takes (backends/highs.py);
# its answer, a vector over the form's columns, inverts to the {"b", "bt", "k"} values.
ILP_CHAIN = Chain((ToStandardForm(),))
