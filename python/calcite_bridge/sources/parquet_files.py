"""A ``filesystem`` Parquet scan as a query that a SQL engine reading Parquet itself can run.

The ``duckdb`` backend reads Parquet files with its own reader, in parallel, and applies the
filters while it reads (pruning row groups by their statistics as well). For it, a scan is
described by :class:`ParquetFiles`: the files, the columns and the pushed filters written as
DuckDB SQL. :func:`parquet_files` gives one only when the answer is sure to be the same as
reading the files through :mod:`calcite_bridge.sources.parquet`:

- every file has the same schema, no two of its column names differing only in case, and every
  column read has the table's type, one that DuckDB reads from Parquet as the same type it
  gives an Arrow column (integers, floating point, BOOLEAN, strings, DATE, DECIMAL and
  TIMESTAMP without a zone in microseconds, and ROWs and ARRAYs of them); a declared column
  that no file holds reads as NULL of its type;
- the request asks for at least one column: top-level columns, fields inside ROW columns
  (projection paths, named ``loc.zone`` as the connector names them) and metadata columns,
  whose values are the connector's own (``file.name`` the base name of the path, ...), given
  per file in the query and matched to DuckDB's ``filename`` column;
- no file name holds a character ``read_parquet`` takes for a wildcard (``*?[{``);
- every filter is a comparison, ``IN``, ``IS [NOT] NULL``, ``AND``, ``OR`` or ``NOT`` over such
  columns or fields inside ROW columns and non-NULL literals. A floating-point column is
  compared with a finite literal only, and NaN compares as in Java (and Flink): it is greater
  than no value, where DuckDB's NaN is greater than every value, so ``f > 1.0`` is written
  ``(f > 1.0 AND NOT isnan(f))``.

Anything else is None, and the scan is read here as before. The files are listed here, under
the table's own path, and named one by one: no pattern and no text of a statement reaches
``read_parquet``.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pyarrow as pa

from calcite_bridge.errors import UnsupportedError
from calcite_bridge.expressions import (
    COMPARISONS,
    Call,
    Expression,
    FieldReference,
    Literal,
    NestedFieldReference,
    arrow_type,
)
from calcite_bridge.sources.base import ScanRequest
from calcite_bridge.sources.parquet import list_files
from calcite_bridge.sources.parquet_footers import footer

__all__ = ["ParquetFiles", "parquet_files"]

_GLOB = ("*", "?", "[", "{")
# DuckDB's column of the file a row comes from: a name no file's column takes (checked).
FILE_COLUMN = "__calcite_bridge_file"

MetadataValues = Callable[[str], Sequence[pa.Scalar]]


@dataclass(frozen=True)
class ParquetFiles:
    """A scan as one query over Parquet files: :attr:`select` is DuckDB SQL giving the columns
    the request asks for (:attr:`columns`, named as the connector names them), in order, the
    filters applied. ``items`` select the data columns; ``metadata`` holds the metadata values
    of each file, as SQL literals, which the metadata columns that follow take by file."""

    files: tuple[str, ...]
    columns: tuple[str, ...]
    types: tuple[pa.DataType, ...]
    items: tuple[str, ...]
    where: str
    limit: int | None
    metadata: tuple[tuple[str, ...], ...] = ()
    # The reader and its options (before the file-name option); ``converted``, when given, is
    # the select list of a query between the reader and :attr:`items`, which converts the
    # columns read as text (:mod:`~calcite_bridge.sources.text_files`).
    function: str = "read_parquet"
    options: str = "hive_partitioning = false, union_by_name = false, file_row_number = false, "
    converted: tuple[str, ...] = ()
    # Partition columns read from the files' paths (``hive_partitioning``): each column's name
    # and its value, an expression over DuckDB's VARCHAR column of that name.
    hive: tuple[tuple[str, str], ...] = ()

    @property
    def select(self) -> str:
        items = list(self.items)
        count = len(self.metadata[0]) if self.metadata else 0
        for k, name in enumerate(self.columns[len(self.columns) - count :]):
            cases = " ".join(
                f"WHEN {_string(f)} THEN {values[k]}"
                for f, values in zip(self.files, self.metadata, strict=True)
            )
            items.append(f"CASE {_q(FILE_COLUMN)} {cases} END AS {_q(name)}")
        items += [f"{value} AS {_q(name)}" for name, value in self.hive]
        select = ", ".join(items)
        options = self.options
        if self.hive:
            types = ", ".join(f"{_string(name)}: 'VARCHAR'" for name, _ in self.hive)
            options = options.replace(
                "hive_partitioning = false, ",
                f"hive_partitioning = true, hive_types = {{{types}}}, "
                "hive_types_autocast = false, ",
            )
        options += f"filename = {_string(FILE_COLUMN)}" if self.metadata else "filename = false"
        source = f"{self.function}({_listed(self.files)}, {options})"
        if self.converted:
            inner = list(self.converted) + ([_q(FILE_COLUMN)] if self.metadata else [])
            inner += [_q(name) for name, _ in self.hive]
            source = f"(SELECT {', '.join(inner)} FROM {source})"
        sql = f"SELECT {select} FROM {source}"
        if self.where:
            sql += f" WHERE {self.where}"
        if self.limit is not None:
            sql += f" LIMIT {int(self.limit)}"
        return sql

    def resolved(self) -> ParquetFiles | None:
        """The same scan over the files' real paths (every symbolic link resolved), for a DuckDB
        confined to the real allowed directories; None when a real path holds a character
        ``read_parquet`` takes for a wildcard. Metadata values stay those of the table's
        paths."""
        real = tuple(os.path.realpath(f) for f in self.files)
        if any(c in f for f in real for c in _GLOB):
            return None
        if self.metadata and len(set(real)) != len(real):
            return None  # two paths of one file: DuckDB's file column cannot tell them apart
        return replace(self, files=real)


def _string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _listed(files: Sequence[str]) -> str:
    """``files`` as the list ``read_parquet`` takes."""
    return "[" + ", ".join(_string(f) for f in files) + "]"


def _q(name: str) -> str:
    """``name`` as a DuckDB identifier."""
    return '"' + name.replace('"', '""') + '"'


def _path_sql(names: Sequence[str]) -> str:
    """The DuckDB expression of a column or a field inside ROW columns."""
    sql = _q(names[0])
    for name in names[1:]:
        sql = f"struct_extract({sql}, {_string(name)})"
    return sql


_SIMPLE = {
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


def _duck_type(t: pa.DataType) -> str | None:
    """DuckDB's name for an Arrow type it reads from Parquet as it reads it from Arrow."""
    if t in _SIMPLE:
        return _SIMPLE[t]
    if pa.types.is_decimal128(t) and t.precision <= 38:
        return f"DECIMAL({t.precision}, {t.scale})"
    return None


def _nested_duck_type(t: pa.DataType) -> str | None:
    """:func:`_duck_type`, with ROWs and ARRAYs of such types."""
    if pa.types.is_struct(t):
        fields = []
        for f in t:
            inner = _nested_duck_type(f.type)
            if inner is None:
                return None
            fields.append(f"{_q(f.name)} {inner}")
        names = [f.name.lower() for f in t]
        if not fields or len(set(names)) != len(names):
            return None
        return f"STRUCT({', '.join(fields)})"
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        inner = _nested_duck_type(t.value_type)
        return None if inner is None else f"{inner}[]"
    return _duck_type(t)


def _same_type(actual: pa.DataType, expected: pa.DataType) -> bool:
    """Equal types, ignoring whether nested fields are declared nullable and how a list's item
    is named."""
    if actual.equals(expected):
        return True
    if pa.types.is_struct(actual) and pa.types.is_struct(expected):
        return actual.num_fields == expected.num_fields and all(
            a.name == e.name and _same_type(a.type, e.type)
            for a, e in zip(actual, expected, strict=True)
        )
    if pa.types.is_list(actual) and pa.types.is_list(expected):
        return _same_type(actual.value_type, expected.value_type)
    return False


def _type_at(schema: pa.Schema, names: Sequence[str]) -> pa.DataType | None:
    if schema.get_field_index(names[0]) < 0:
        return None
    t: Any = schema.field(names[0]).type
    for name in names[1:]:
        if not pa.types.is_struct(t) or t.get_field_index(name) < 0:
            return None
        t = t.field(name).type
    return t


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
    if duck is None or _family(t) != _family(column):
        return None
    if _family(t) == "float":
        return _float(lit.value, duck)
    return _value(lit.value, t, duck)


def _float(value: object, duck: str) -> str | None:
    """A finite floating-point literal (NaN compares otherwise in DuckDB), or None; a number
    that is not exactly its float is not written either."""
    if isinstance(value, bool) or not isinstance(value, int | float | decimal.Decimal):
        return None
    number = float(value)
    if not math.isfinite(number) or (not isinstance(value, float) and number != value):
        return None
    return f"CAST('{number!r}' AS {duck})"


def _value(value: object, t: pa.DataType, duck: str) -> str | None:  # noqa: PLR0911
    if isinstance(value, bool):
        return ("TRUE" if value else "FALSE") if pa.types.is_boolean(t) else None
    if isinstance(value, int) and (pa.types.is_integer(t) or pa.types.is_decimal(t)):
        return f"CAST({value} AS {duck})"
    if isinstance(value, decimal.Decimal) and pa.types.is_decimal(t) and value.is_finite():
        return f"CAST('{format(value, 'f')}' AS {duck})"
    if isinstance(value, str) and pa.types.is_string(t):
        return _string(value)
    if isinstance(value, dt.datetime):
        if not pa.types.is_timestamp(t) or value.tzinfo is not None:
            return None
        return f"TIMESTAMP '{value.isoformat(sep=' ')}'"
    if isinstance(value, dt.date) and pa.types.is_date32(t):
        return f"DATE '{value.isoformat()}'"
    return None


def _metadata_literal(value: pa.Scalar, t: pa.DataType) -> str | None:
    """A metadata value of the connector (or a partition column's value) as a DuckDB literal of
    the type DuckDB gives an Arrow column of ``t``; None when there is none."""
    v = value.cast(t).as_py()
    if pa.types.is_timestamp(t) and t.tz is not None:
        if v is None:
            return None
        micros = value.cast(pa.timestamp("us", tz="UTC")).value
        return f"make_timestamptz(CAST({int(micros)} AS BIGINT))"
    duck = _duck_type(t)
    if duck is None:
        return None
    if v is None:
        return f"CAST(NULL AS {duck})"
    if isinstance(v, float):
        return f"CAST('{v!r}' AS {duck})"
    return _value(v, t, duck)


class _Filters:
    """Writes pushed filters as DuckDB SQL over the columns of ``schema``."""

    def __init__(self, schema: pa.Schema) -> None:
        self.schema = schema
        self.columns: set[str] = set()

    def column(self, expr: Expression) -> pa.DataType | None:
        if isinstance(expr, FieldReference):
            names: tuple[str, ...] = (expr.name,)
        elif isinstance(expr, NestedFieldReference):
            names = expr.field_names
        else:
            return None
        t = _type_at(self.schema, names)
        if t is None or _duck_type(t) is None:
            return None
        if _nested_duck_type(self.schema.field(names[0]).type) is None:
            return None  # a ROW of fields DuckDB cannot tell apart (`a`, `A`), of a MAP, ...
        self.columns.add(names[0])
        return t

    @staticmethod
    def reference(expr: Expression) -> str:
        if isinstance(expr, NestedFieldReference):
            return _path_sql(expr.field_names)
        assert isinstance(expr, FieldReference)
        return _q(expr.name)

    def operand(self, expr: Expression, other: pa.DataType) -> str | None:
        if isinstance(expr, Literal):
            return _literal(expr, other)
        t = self.column(expr)
        if t is None or _family(t) != _family(other):
            return None
        return self.reference(expr)

    def _compare(self, fn: str, left: Expression, right: Expression) -> str | None:
        column = self.column(left) or self.column(right)
        if column is None:
            return None
        a, b = self.operand(left, column), self.operand(right, column)
        if a is None or b is None:
            return None
        if _family(column) != "float":
            return f"({a} {fn} {b})"
        # A floating-point column against a finite literal: NaN is greater than no value in
        # Java, where DuckDB's NaN is greater than every value (and equal to itself).
        if isinstance(left, Literal) == isinstance(right, Literal):
            return None
        greater = fn in (">", ">=") if isinstance(right, Literal) else fn in ("<", "<=")
        if not greater:
            return f"({a} {fn} {b})"
        nan = self.reference(right if isinstance(left, Literal) else left)
        return f"({a} {fn} {b} AND NOT isnan({nan}))"

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
            return f"({self.reference(args[0])} {fn})"
        if fn in COMPARISONS and len(args) == 2:
            return self._compare(fn, args[0], args[1])
        if fn == "IN" and len(args) >= 2:
            column = self.column(args[0])
            if column is None:
                return None
            items = [self.operand(a, column) if isinstance(a, Literal) else None for a in args[1:]]
            if any(i is None for i in items):
                return None
            listed = ", ".join(i for i in items if i is not None)
            return f"({self.reference(args[0])} IN ({listed}))"
        return None


def _paths(schema: pa.Schema, request: ScanRequest) -> list[tuple[str, ...]] | None:
    """The column or field path of each column the request reads, when each is one DuckDB
    reads the same."""
    paths: list[tuple[str, ...]] = []
    if request.projection is not None:
        for index_path in request.projection:
            names: list[str] = []
            fields: Any = schema
            for index in index_path:
                if fields is None or not 0 <= index < len(fields):
                    return None
                f = fields.field(index)
                names.append(f.name)
                fields = f.type if pa.types.is_struct(f.type) else None
            if not names:
                return None
            paths.append(tuple(names))
    elif request.columns is not None:
        paths = [(n,) for n in request.columns]
    else:
        paths = [(n,) for n in schema.names]
    for path in paths:
        t = _type_at(schema, path)
        if t is None or _nested_duck_type(t) is None:
            return None
    return paths


def _labels(paths: Sequence[tuple[str, ...]]) -> list[str]:
    """The connector's name of each projected column: the path joined by dots, made unique."""
    labels: list[str] = []
    for path in paths:
        label = ".".join(path)
        while label in labels:
            label += "_"
        labels.append(label)
    return labels


def _file_schema(files: Sequence[str]) -> pa.Schema | None:
    """The one schema of every file, or None when they differ or two names differ only in
    case (DuckDB matches names without regard to case, even quoted ones)."""
    schemas = [footer(f).schema for f in files]
    first = schemas[0]
    if not all(s.equals(first) for s in schemas[1:]):
        return None
    lowered = [n.lower() for n in first.names]
    if len(set(lowered)) != len(lowered) or FILE_COLUMN in lowered:
        return None
    return first


def _items(
    schema: pa.Schema, found: pa.Schema, paths: Sequence[tuple[str, ...]], filtered: set[str]
) -> list[str] | None:
    """The select list of the data columns at ``paths`` over files of schema ``found``, or None
    when a column read or filtered (``filtered``) is not in the files with the table's type."""
    items: list[str] = []
    for path, label in zip(paths, _labels(paths), strict=True):
        declared = _type_at(schema, path)
        assert declared is not None
        index = found.get_all_field_indices(path[0])
        if not index and path[0] not in filtered:
            # a declared column no file holds: NULL, as the connector reads it
            items.append(f"CAST(NULL AS {_nested_duck_type(declared)}) AS {_q(label)}")
            continue
        actual = _type_at(found, path)
        if len(index) != 1 or actual is None or not _same_type(actual, declared):
            return None
        sql = _path_sql(path)
        items.append(sql if sql == _q(label) else f"{sql} AS {_q(label)}")
    for name in filtered:
        if found.get_all_field_indices(name) != [found.get_field_index(name)]:
            return None
        if not _same_type(found.field(name).type, schema.field(name).type):
            return None
    return items


def _metadata_rows(
    files: Sequence[str], metadata: Sequence[pa.Field], values: MetadataValues
) -> list[tuple[str, ...]] | None:
    """The metadata values of each file as DuckDB literals, or None when one has none."""
    rows: list[tuple[str, ...]] = []
    for file in files:
        literals = [
            _metadata_literal(v, f.type) for v, f in zip(values(file), metadata, strict=True)
        ]
        if any(v is None for v in literals):
            return None
        rows.append(tuple(v for v in literals if v is not None))
    return rows


def parquet_files(
    root: str,
    schema: pa.Schema,
    request: ScanRequest,
    ignore_prefixes: Sequence[str],
    metadata: Sequence[pa.Field] = (),
    metadata_values: MetadataValues | None = None,
    files: Sequence[str] | None = None,
) -> ParquetFiles | None:
    """The scan of the Parquet files at ``root`` as one DuckDB query, or None (see the module).
    ``metadata`` are the fields of the request's metadata keys, ``metadata_values`` the
    connector's values of them for a file."""
    paths = _paths(schema, request)
    if (
        paths is None
        or len(metadata) != len(request.metadata_keys)
        or not (paths or metadata)  # DuckDB has no relation of no column
        or (metadata and metadata_values is None)
    ):
        return None
    filters = _Filters(schema)
    conditions = [filters.sql(f) for f in request.filters]
    if any(c is None for c in conditions):
        return None
    files = list(files) if files is not None else list_files(root, ignore_prefixes)
    if not files or any(c in f for f in files for c in _GLOB):
        return None  # DuckDB would read a name with a wildcard as a pattern
    found = _file_schema(files)
    items = None if found is None else _items(schema, found, paths, filters.columns)
    rows: list[tuple[str, ...]] | None = []
    if metadata and metadata_values is not None:
        rows = _metadata_rows(files, metadata, metadata_values)
    if items is None or rows is None:
        return None
    where = " AND ".join(c for c in conditions if c is not None)
    types = tuple(
        t for t in (*(_type_at(schema, p) for p in paths), *(f.type for f in metadata)) if t
    )
    columns = (*_labels(paths), *(f.name for f in metadata))
    return ParquetFiles(
        tuple(files), tuple(columns), types, tuple(items), where, request.limit, tuple(rows)
    )
