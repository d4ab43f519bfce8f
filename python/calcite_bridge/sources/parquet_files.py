"""A ``filesystem`` Parquet scan as a query that a SQL engine reading Parquet itself can run.

The ``duckdb`` backend reads Parquet files with its own reader, in parallel, and applies the
filters while it reads (pruning row groups by their statistics as well). For it, a scan is
described by :class:`ParquetFiles`: the files, the columns and the pushed filters written as
DuckDB SQL. :func:`parquet_files` gives one only when the answer is sure to be the same as
reading the files through :mod:`calcite_bridge.sources.parquet`:

- every file has the same schema, no two of its column names differing only in case, and every
  column read has the table's type, one that DuckDB reads from Parquet as the same type it
  gives an Arrow column (integers, floating point, BOOLEAN, strings, DATE, DECIMAL and
  TIMESTAMP without a zone in microseconds);
- the request asks for top-level columns, at least one, and no metadata column;
- no file name holds a character ``read_parquet`` takes for a wildcard (``*?[{``);
- every filter is a comparison, ``IN``, ``IS [NOT] NULL``, ``AND``, ``OR`` or ``NOT`` over such
  columns (floating-point ones excepted, whose NaN compares differently) and non-NULL literals.

Anything else is None, and the scan is read here as before.
"""

from __future__ import annotations

import datetime as dt
import decimal
import os
from collections.abc import Sequence
from dataclasses import dataclass

import pyarrow as pa

from calcite_bridge.errors import UnsupportedError
from calcite_bridge.expressions import (
    COMPARISONS,
    Call,
    Expression,
    FieldReference,
    Literal,
    arrow_type,
)
from calcite_bridge.sources.base import ScanRequest
from calcite_bridge.sources.parquet import list_files
from calcite_bridge.sources.parquet_footers import footer

__all__ = ["ParquetFiles", "parquet_files"]

_GLOB = ("*", "?", "[", "{")


@dataclass(frozen=True)
class ParquetFiles:
    """A scan as one query over Parquet files: ``select`` is DuckDB SQL giving the columns the
    request asks for, in order and named as in the table, the filters applied."""

    files: tuple[str, ...]
    columns: tuple[str, ...]
    types: tuple[pa.DataType, ...]
    select: str

    def resolved(self) -> ParquetFiles | None:
        """The same scan over the files' real paths (every symbolic link resolved), for a DuckDB
        confined to the real allowed directories; None when a real path holds a character
        ``read_parquet`` takes for a wildcard."""
        real = tuple(os.path.realpath(f) for f in self.files)
        if any(c in f for f in real for c in _GLOB):
            return None
        select = self.select.replace(_listed(self.files), _listed(real), 1)
        return ParquetFiles(real, self.columns, self.types, select)


def _listed(files: Sequence[str]) -> str:
    """``files`` as the list ``read_parquet`` takes."""
    return "[" + ", ".join("'" + f.replace("'", "''") + "'" for f in files) + "]"


def _q(name: str) -> str:
    """``name`` as a DuckDB identifier."""
    return '"' + name.replace('"', '""') + '"'


def _duck_type(t: pa.DataType) -> str | None:
    """DuckDB's name for an Arrow type it reads from Parquet as it reads it from Arrow."""
    simple = {
        pa.int8(): "TINYINT",
        pa.int16(): "SMALLINT",
        pa.int32(): "INTEGER",
        pa.int64(): "BIGINT",
        pa.float32(): "FLOAT",
        pa.float64(): "DOUBLE",
        pa.bool_(): "BOOLEAN",
        pa.string(): "VARCHAR",
        pa.date32(): "DATE",
        pa.timestamp("us"): "TIMESTAMP",
    }
    if t in simple:
        return simple[t]
    if pa.types.is_decimal128(t) and t.precision <= 38:
        return f"DECIMAL({t.precision}, {t.scale})"
    return None


def _family(t: pa.DataType) -> str:
    if pa.types.is_integer(t) or pa.types.is_decimal(t):
        return "exact"
    if pa.types.is_floating(t):
        return "float"
    return str(t)


def _literal(lit: Literal, column: pa.DataType) -> str | None:
    """``lit`` as a typed DuckDB literal comparable with a ``column`` value, or None."""
    if lit.value is None:
        return None
    try:
        t = arrow_type(lit.data_type)
    except UnsupportedError:
        return None
    duck = _duck_type(t)
    if duck is None or _family(t) != _family(column) or _family(t) == "float":
        return None
    return _value(lit.value, t, duck)


def _value(value: object, t: pa.DataType, duck: str) -> str | None:  # noqa: PLR0911
    if isinstance(value, bool):
        return ("TRUE" if value else "FALSE") if pa.types.is_boolean(t) else None
    if isinstance(value, int) and (pa.types.is_integer(t) or pa.types.is_decimal(t)):
        return f"CAST({value} AS {duck})"
    if isinstance(value, decimal.Decimal) and pa.types.is_decimal(t) and value.is_finite():
        return f"CAST('{format(value, 'f')}' AS {duck})"
    if isinstance(value, str) and pa.types.is_string(t):
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, dt.datetime):
        if not pa.types.is_timestamp(t) or value.tzinfo is not None:
            return None
        return f"TIMESTAMP '{value.isoformat(sep=' ')}'"
    if isinstance(value, dt.date) and pa.types.is_date32(t):
        return f"DATE '{value.isoformat()}'"
    return None


class _Filters:
    """Writes pushed filters as DuckDB SQL over the columns of ``schema``."""

    def __init__(self, schema: pa.Schema) -> None:
        self.schema = schema
        self.columns: set[str] = set()

    def column(self, expr: Expression) -> pa.DataType | None:
        if not isinstance(expr, FieldReference) or self.schema.get_field_index(expr.name) < 0:
            return None
        t = self.schema.field(expr.name).type
        if _duck_type(t) is None or pa.types.is_floating(t):
            return None
        self.columns.add(expr.name)
        return t

    def operand(self, expr: Expression, other: pa.DataType) -> str | None:
        if isinstance(expr, Literal):
            return _literal(expr, other)
        t = self.column(expr)
        if t is None or _family(t) != _family(other):
            return None
        assert isinstance(expr, FieldReference)
        return _q(expr.name)

    def sql(self, expr: Expression) -> str | None:  # noqa: PLR0911
        if not isinstance(expr, Call) or not expr.args:
            return None
        fn, args = expr.function.upper(), expr.args
        if fn in ("AND", "OR"):
            parts = [self.sql(a) for a in args]
            if any(p is None for p in parts):
                return None
            return "(" + f" {fn} ".join(p for p in parts if p is not None) + ")"
        if fn == "NOT" and len(args) == 1:
            inner = self.sql(args[0])
            return None if inner is None else f"(NOT {inner})"
        if fn in ("IS NULL", "IS NOT NULL") and len(args) == 1:
            if self.column(args[0]) is None:
                return None
            assert isinstance(args[0], FieldReference)
            return f"({_q(args[0].name)} {fn})"
        if fn in COMPARISONS and len(args) == 2:
            left, right = args
            column = self.column(left) or self.column(right)
            if column is None:
                return None
            a, b = self.operand(left, column), self.operand(right, column)
            if a is None or b is None:
                return None
            return f"({a} {fn} {b})"
        if fn == "IN" and len(args) >= 2:
            column = self.column(args[0])
            if column is None:
                return None
            items = [self.operand(a, column) if isinstance(a, Literal) else None for a in args[1:]]
            if any(i is None for i in items) or not isinstance(args[0], FieldReference):
                return None
            listed = ", ".join(i for i in items if i is not None)
            return f"({_q(args[0].name)} IN ({listed}))"
        return None


def _names(schema: pa.Schema, request: ScanRequest) -> list[str] | None:
    """The top-level columns the request reads, when each is one DuckDB reads the same."""
    if request.metadata_keys:
        return None
    if request.projection is not None:
        if any(len(path) != 1 or not 0 <= path[0] < len(schema) for path in request.projection):
            return None
        names = [schema.field(path[0]).name for path in request.projection]
    elif request.columns is not None:
        names = list(request.columns)
    else:
        names = list(schema.names)
    if not names or len(set(names)) != len(names):
        return None
    for n in names:
        if schema.get_field_index(n) < 0 or _duck_type(schema.field(n).type) is None:
            return None
    return names


def _files_fit(files: Sequence[str], schema: pa.Schema, names: set[str]) -> bool:
    """Whether every file has the same schema, holding each of ``names`` once with the table's
    type."""
    schemas = [footer(f).schema for f in files]
    first = schemas[0]
    if not all(s.equals(first) for s in schemas[1:]):
        return False
    if len({n.lower() for n in first.names}) != len(first.names):
        return False  # DuckDB matches names without regard to case, even quoted ones
    return all(
        first.get_all_field_indices(n) == [first.get_field_index(n)]
        and first.field(n).type.equals(schema.field(n).type)
        for n in names
    )


def parquet_files(
    root: str, schema: pa.Schema, request: ScanRequest, ignore_prefixes: Sequence[str]
) -> ParquetFiles | None:
    """The scan of the Parquet files at ``root`` as one DuckDB query, or None (see the module)."""
    names = _names(schema, request)
    if names is None:
        return None
    filters = _Filters(schema)
    conditions = [filters.sql(f) for f in request.filters]
    if any(c is None for c in conditions):
        return None
    files = list_files(root, ignore_prefixes)
    if not files or any(c in f for f in files for c in _GLOB):
        return None  # DuckDB would read a name with a wildcard as a pattern
    if not _files_fit(files, schema, {*names, *filters.columns}):
        return None
    select = ", ".join(_q(n) for n in names)
    where = " AND ".join(c for c in conditions if c is not None)
    sql = (
        f"SELECT {select} FROM read_parquet({_listed(files)}, hive_partitioning = false, "
        f"union_by_name = false, filename = false, file_row_number = false)"
    )
    if where:
        sql += f" WHERE {where}"
    if request.limit is not None:
        sql += f" LIMIT {int(request.limit)}"
    types = tuple(schema.field(n).type for n in names)
    return ParquetFiles(tuple(files), tuple(names), types, sql)
