"""Rules as text, JSON, a standalone Python predicate and an SQL WHERE expression.

The Python and SQL forms read either the 0/1 features by name (a row maps each feature name to 0
or 1; a table has a column per feature) or, given the fitted `QuantileBinarizer` that made the
features, the raw columns themselves (`worst area >= 686.5` on the value, a missing value in no
feature but its `is missing` one, as the binarizer encodes it). `columns` gives the labels a row
holds its values under when they are not the names (a DataFrame's integer labels: `row[0]`, SQL
column "0").
"""

from __future__ import annotations

import ast
import contextlib
import functools
import json
import keyword
import re
import sqlite3
import warnings

import numpy as np

from . import encode
from ..exceptions import InputError, InputTypeError
from .names import feature_names_of
from .nodes import Rule, Trivial
from .operators import And, AtLeast, AtMost, Choose, Operator, Or

__all__ = ["FORMATS", "PYTHON_MAX_DEPTH", "PYTHON_RESERVED", "SQL_MAX_DEPTH", "export_rule", "to_json", "to_python",
           "to_sql", "to_text"]

FORMATS = ("text", "json", "python", "sql")
_COUNT = {AtLeast: ">=", AtMost: "<=", Choose: "=="}
# Deepest rules the Python and SQL forms take (text and JSON take any depth): each operator nests at
# least one more parenthesis, Python's parser refuses more than 200 nested ones, and SQL engines stop
# far below 1000 (SQLite's parser near 90 nested Or/And, 12 to 17 counting operators: `to_sql` warns
# when SQLite refuses the SQL).
PYTHON_MAX_DEPTH = 200
# The names the Python form calls (builtins and its helpers), which its function may not take.
PYTHON_RESERVED = frozenset({"bool", "sum", "map", "_missing", "_text", "isinstance", "float", "type", "str", "int",
                             "repr", "TypeError"})
SQL_MAX_DEPTH = 1000


def export_rule(rule: Rule, format: str, feature_names=None, binarizer=None, columns=None) -> str:
    """`rule` in `format` (one of `FORMATS`), naming features by `feature_names`; Python and SQL
    read the row's values under `columns` (see `to_python`)."""
    if format not in FORMATS:
        raise InputError(f"unknown format {format!r}; choose from {', '.join(FORMATS)}")
    if format in ("text", "json"):
        return (to_text if format == "text" else to_json)(rule, feature_names)
    if format == "python":
        return to_python(rule, feature_names, binarizer, columns=columns)
    return to_sql(rule, feature_names, binarizer, columns)


def to_text(rule: Rule, feature_names=None) -> str:
    """The readable text form, which `parse(text, feature_names)` reads back."""
    _check(rule, feature_names)
    return rule.to_str(feature_names)


def to_json(rule: Rule, feature_names=None) -> str:
    """JSON: the rule's dictionary (`to_dict`, read back by `from_dict`), its text, and the name
    of every feature it uses."""
    _check(rule, feature_names)
    used = sorted({lit.index for lit in rule.literals()})
    features = {str(i): (f"f{i}" if feature_names is None else str(feature_names[i])) for i in used}
    # the rule by `encode.to_json`, which writes any depth (json.dumps of to_dict stops near 500)
    return (f'{{"rule": {encode.to_json(rule)}, "text": {json.dumps(rule.to_str(feature_names))}, '
            f'"features": {json.dumps(features)}}}')


def to_python(rule: Rule, feature_names=None, binarizer=None, name: str = "rule", columns=None) -> str:
    """Source of a standalone function `name(row) -> bool`; `row` maps names to values (a dict, a
    pandas row): the features' names to 0/1, or with `binarizer` its input columns to raw values.
    `columns`: the labels the row holds them under (one per feature, or per binarizer input
    column), of any type a Python literal writes (`0`, `'0'`); by default the names."""
    _check_function_name(name)
    _check(rule, feature_names, binarizer)
    _check_depth(rule, PYTHON_MAX_DEPTH, "Python source", "Python's parser refuses more than 200 nested parentheses")
    names = _names(feature_names, binarizer)
    keys = [_python_key(key) for key in _keys(rule, names, binarizer, columns)]
    conditions = None if binarizer is None else _conditions(binarizer, keys)
    lines = [f"def {name}(row):", f"    {json.dumps('True when ' + rule.to_str(names))}"]
    if conditions is not None:
        lines = [
            "def _missing(value):",
            "    try:",
            "        return value is None or bool(value != value)",
            "    except TypeError:  # pandas.NA",
            "        return True",
            "",
            "",
            "def _text(value):",
            "    \"\"\"A category's text as the binarizer writes it: 3 and 3.0 as '3'.\"\"\"",
            "    if isinstance(value, float) or type(value).__name__.startswith('float'):",
            "        return str(int(value)) if float(value).is_integer() else repr(float(value))",
            "    return str(value)",
            "",
            "",
            *lines,
        ]
    source = "\n".join([*lines, f"    return bool({_python(rule, keys, conditions)})", ""])
    try:
        compile(source, "<rule>", "exec")
    except (SyntaxError, RecursionError, MemoryError) as err:
        raise InputError(f"the rule, nested {rule.depth} operators deep, cannot be written as Python source: "
                         f"Python refuses it ({err})") from None
    return source


def _check_function_name(name) -> None:
    """The predicate's name must be an identifier Python lets a function have (not `class`) and
    none the generated code calls (defining `bool` would make it call the predicate instead)."""
    if not isinstance(name, str):
        raise InputTypeError(f"name must be a str (a Python identifier), got {type(name).__name__}: {name!r}")
    if not name.isidentifier() or keyword.iskeyword(name):
        why = "a keyword" if keyword.iskeyword(name) else "not an identifier"
        raise InputError(f"name must be a Python identifier that is not a keyword, got {name!r} ({why})")
    if name in PYTHON_RESERVED:
        raise InputError(f"name {name!r} is one the generated code uses itself ({', '.join(sorted(PYTHON_RESERVED))}); "
                         "choose another name")


def to_sql(rule: Rule, feature_names=None, binarizer=None, columns=None) -> str:
    """An SQL WHERE expression over a table with a column per feature (0/1), or with `binarizer`
    over its input columns (NULL is missing); standard SQL, double-quoted identifiers. `columns`:
    the table's column names when they are not the names (`str` of each label)."""
    _check(rule, feature_names, binarizer)
    _check_depth(rule, SQL_MAX_DEPTH, "SQL", "SQL engines refuse far less: SQLite's parser overflows near 90 nested "
                 "Or/And")
    names = _names(feature_names, binarizer)
    keys = [str(key) for key in _keys(rule, names, binarizer, columns)]
    conditions = None if binarizer is None else _conditions(binarizer, keys)
    sql = _sql(rule, keys, conditions)
    _warn_unless_sqlite_parses(sql, rule)
    return sql


def _warn_unless_sqlite_parses(sql: str, rule: Rule) -> None:
    """Warn when SQLite's parser refuses `sql` (its stack holds about 90 nested Or/And, 29 negated
    ones, 17 counting operators, 12 negated ones): asked of SQLite itself, as its limit depends on
    each operator's form; other engines may take deeper SQL."""
    with contextlib.closing(sqlite3.connect(":memory:")) as con:
        try:
            con.execute(f"SELECT 1 WHERE {sql}")  # parsed as in SELECT ... FROM t WHERE
            return
        except sqlite3.Error as err:
            if str(err).startswith("no such column"):  # parsed: a build without "..." as text lacks the table
                return
            error = err
    warnings.warn(f"the rule's SQL, nested {rule.depth} operators deep, is more than SQLite {sqlite3.sqlite_version} "
                  f"can run ({error}); engines with deeper parsers may run it, or export a shallower rule",
                  UserWarning, stacklevel=3)


def _check(rule, feature_names, binarizer=None):
    if not isinstance(rule, Rule):
        raise InputTypeError(f"rule must be a Rule, got {type(rule).__name__}")
    if binarizer is not None and not hasattr(binarizer, "encodings_"):
        raise InputTypeError("binarizer must be a fitted QuantileBinarizer")
    names = _names(feature_names, binarizer)
    if names is not None and rule.max_feature_index() >= len(names):
        raise InputError(f"feature_names has {len(names)} names but the rule uses feature {rule.max_feature_index()}")


def _check_depth(rule: Rule, limit: int, form: str, why: str) -> None:
    if rule.depth > limit:
        raise InputError(f"the rule is nested {rule.depth} operators deep; as {form} it may be at most {limit} "
                         f"deep ({why}); export it as text or JSON, which take any depth")


def _render(rule: Rule, leaf, operator) -> str:
    """`rule` as text built bottom-up from an explicit stack (deep rules never recurse):
    `leaf(node)` for a literal or constant, `operator(node, texts of its sub-rules)`."""
    done: list[str] = []
    stack: list[tuple[Rule, bool]] = [(rule, False)]
    while stack:
        node, children_done = stack.pop()
        if not isinstance(node, Operator):
            done.append(leaf(node))
        elif not children_done:
            stack.append((node, True))
            stack.extend((sub, False) for sub in reversed(node.subrules))
        else:
            count = len(node.subrules)
            subs = done[-count:]
            del done[-count:]
            done.append(operator(node, subs))
    return done[0]


def _names(feature_names, binarizer):
    if feature_names is None and binarizer is not None:
        feature_names = binarizer.get_feature_names_out()
    return feature_names_of(feature_names)


def _keys(rule: Rule, names, binarizer, columns) -> list:
    """The labels a row holds its values under: `columns`, else the binarizer's input names or the
    feature names (`f0`, `f1`, ... without names)."""
    if binarizer is not None:
        expected, what = binarizer.n_features_in_, "binarizer's input columns"
        default = binarizer._input_names()
    else:
        expected, what = rule.max_feature_index() + 1, "features the rule uses"
        default = [f"f{i}" for i in range(expected)] if names is None else names.names
    if columns is None:
        return list(default)
    if isinstance(columns, (str, bytes)) or not hasattr(columns, "__len__"):
        raise InputTypeError(f"columns must be a sequence of column labels, got {type(columns).__name__}")
    if len(columns) < expected or (binarizer is not None and len(columns) != expected):
        raise InputError(f"columns has {len(columns)} labels but there are {expected} {what}")
    return [key.item() if isinstance(key, np.generic) else key for key in columns]


def _python_key(key):
    """`key` as a Python literal; labels no literal writes (objects) are refused, naming them."""
    text = repr(key)
    try:
        same = ast.literal_eval(text) == key
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        same = False
    if not same:
        raise InputError(f"column label {text} cannot be written in Python source; label the columns with "
                         "strings or numbers")
    return text


def _conditions(binarizer, keys) -> list[tuple[str, str, object]]:
    """Per output feature of a fitted QuantileBinarizer: (input column's key, ">=" / "==" / "text" /
    "missing", value)."""
    out = []
    for column, (op, values, _), indicator in zip(keys, binarizer.encodings_, binarizer.missing_indicators_):
        kind = "text" if values.dtype.kind == "U" else op
        out.extend((column, kind, value.item() if kind != "text" else str(value)) for value in values)
        if indicator:
            out.append((column, "missing", None))
    return out


def _python(rule: Rule, names, conditions) -> str:
    def leaf(node: Rule) -> str:
        if isinstance(node, Trivial):
            return repr(node.value)
        text = _python_literal(node.index, names, conditions)
        return f"(not {text})" if node.negated else text

    def operator(node: Operator, subs: list[str]) -> str:
        if isinstance(node, (Or, And)):
            text = "(" + (" or " if isinstance(node, Or) else " and ").join(subs) + ")"
        else:
            text = f"(sum(map(bool, ({', '.join(subs)},))) {_COUNT[type(node)]} {node.k})"
        return f"(not {text})" if node.negated else text

    return _render(rule, leaf, operator)


def _python_literal(index: int, keys, conditions) -> str:
    """`keys`: the Python literal of each feature's (or binarizer column's) label."""
    if conditions is None:
        return f"bool(row[{keys[index]}])"
    column, kind, value = conditions[index]
    if kind == "missing":
        return f"_missing(row[{column}])"
    operand = f"_text(row[{column}])" if kind == "text" else f"row[{column}]"
    op = ">=" if kind == ">=" else "=="
    return f"(not _missing(row[{column}]) and {operand} {op} {value!r})"


def _sql(rule: Rule, names, conditions) -> str:
    def leaf(node: Rule) -> str:
        if isinstance(node, Trivial):
            return "(1 = 1)" if node.value else "(1 = 0)"
        text = _sql_literal(node.index, names, conditions)
        return f"(NOT {text})" if node.negated else text

    def operator(node: Operator, subs: list[str]) -> str:
        if isinstance(node, (Or, And)):
            text = "(" + (" OR " if isinstance(node, Or) else " AND ").join(subs) + ")"
        else:
            count = " + ".join(f"CASE WHEN {sub} THEN 1 ELSE 0 END" for sub in subs)
            text = f"(({count}) {_COUNT[type(node)].replace('==', '=')} {node.k})"
        return f"(NOT {text})" if node.negated else text

    return _render(rule, leaf, operator)


def _identifier(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _sql_literal(index: int, keys, conditions) -> str:
    """`keys`: each feature's (or binarizer column's) column name. Numbers are compared as REAL, as
    the binarizer reads them as float64 (a TEXT column holding '1' too); a category as the texts an
    engine may store for it (`_sql_texts`)."""
    if conditions is None:
        return f"({_identifier(keys[index])} = 1)"
    column, kind, value = conditions[index]
    ident = _identifier(column)
    if kind == "missing":
        return f"({ident} IS NULL)"
    if kind == "text":
        texts = ", ".join("'" + text.replace("'", "''") + "'" for text in _sql_texts(value))
        return f"({ident} IS NOT NULL AND CAST({ident} AS TEXT) IN ({texts}))"
    return f"({ident} IS NOT NULL AND CAST({ident} AS REAL) {'>=' if kind == '>=' else '='} {_sql_number(value)})"


def _sql_number(value: float) -> str:
    """A float as an SQL literal: its shortest exact text, infinities as 9e999 (out of range: inf)."""
    if value in (float("inf"), float("-inf")):
        return "9e999" if value > 0 else "-9e999"
    return repr(float(value))


_INTEGER = re.compile(r"-?[0-9]+")


def _sql_texts(text: str) -> list[str]:
    """The texts a table may hold for a category the binarizer writes as `text`: the text itself,
    and for a number (`_format_value`: 1.0 as '1') SQLite's text of it as a REAL ('1.0', '1.0e+20'),
    for True/False their stored 1/0."""
    texts = [text]
    if text in ("True", "False"):
        texts.append(str(int(text == "True")))
    if _INTEGER.fullmatch(text) or _is_float_text(text):
        number = float(text)
        texts.extend(_sqlite_text(value) for value in ((number, -number) if number == 0 else (number,)))  # -0.0 too
    return list(dict.fromkeys(texts))


def _is_float_text(text: str) -> bool:
    """Is `text` how the binarizer writes a non-integral float (its repr)?"""
    try:
        return repr(float(text)) == text
    except ValueError:
        return False


@functools.lru_cache(maxsize=4096)
def _sqlite_text(number: float) -> str:
    """SQLite's text of the REAL `number` (what a TEXT column stores for it), from SQLite itself."""
    with contextlib.closing(sqlite3.connect(":memory:")) as con:
        return con.execute("SELECT CAST(? AS TEXT)", (number,)).fetchone()[0]
