"""Hive-style partitions of a ``filesystem`` table (``PARTITIONED BY (col, ...)``).

A partitioned table's files lie in directories ``col=value``, one level per partition column in
the declared order: ``dt=2024-01-01/hr=10/part-0.parquet``. The partition columns are not in
the files; each row takes its values from its file's directories, as Flink's ``filesystem``
connector reads them:

- the text after ``=`` is unescaped (``%3A`` is ``:``, as Flink and Hive escape path names) and
  cast to the column's declared type; a value that does not fit the type is a
  :class:`~calcite_bridge.errors.SourceError` naming the directory;
- the table option ``partition.default-name`` (Flink's, default ``__DEFAULT_PARTITION__``) and
  Hive's ``__HIVE_DEFAULT_PARTITION__`` stand for NULL; an INSERT writes NULL (and the empty
  string, as Flink does) as the former;
- only directories at the right depth whose name is ``col=...`` for the column of that level
  are read; names starting with ``.`` or ``_`` are skipped, as everywhere else.

Filters on partition columns only are applied to the listing (:func:`prune`): the files of the
other partitions are never opened. Filters on data columns only go to the file readers as
before. A filter that mixes both is left to the engine.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from calcite_bridge.errors import SourceError
from calcite_bridge.expressions import Expression, references

__all__ = [
    "DEFAULT_NAME",
    "HIVE_DEFAULT_NAME",
    "Partition",
    "default_name",
    "escape",
    "partition_dirs",
    "prune",
    "split",
    "unescape",
]

DEFAULT_NAME = "__DEFAULT_PARTITION__"
HIVE_DEFAULT_NAME = "__HIVE_DEFAULT_PARTITION__"
DEFAULT_NAME_OPTION = "partition.default-name"

# The characters Flink's (and Hive's) PartitionPathUtils escape in a partition value.
_ESCAPED = frozenset(
    [chr(c) for c in range(0x01, 0x20)]
    + ['"', "#", "%", "'", "*", "/", ":", "=", "?", "\\", "\x7f", "{", "[", "]", "^"]
)
_HEX = re.compile(r"%([0-9A-Fa-f]{2})")


def escape(text: str) -> str:
    """``text`` as a directory name's value: Flink's escaping (``%`` and two hex digits)."""
    return "".join(f"%{ord(c):02X}" if c in _ESCAPED else c for c in text)


def unescape(text: str) -> str:
    """The value a directory name's text stands for (the reverse of :func:`escape`)."""
    return _HEX.sub(lambda m: chr(int(m.group(1), 16)), text)


def default_name(options: dict[str, str]) -> str:
    """The directory value of NULL: the table's ``partition.default-name``."""
    return options.get(DEFAULT_NAME_OPTION) or DEFAULT_NAME


@dataclass(frozen=True)
class Partition:
    """One leaf directory of partition values: ``values`` in the order of the keys."""

    path: str
    values: tuple[pa.Scalar, ...]


def _typed(text: str, field: pa.Field, path: str, null_names: Sequence[str]) -> pa.Scalar:
    if text in null_names:
        return pa.scalar(None, field.type)
    if pa.types.is_string(field.type) or pa.types.is_large_string(field.type):
        return pa.scalar(text, field.type)
    try:
        if pa.types.is_boolean(field.type):
            lowered = text.strip().lower()
            if lowered not in ("true", "false"):
                raise ValueError(text)
            return pa.scalar(lowered == "true", field.type)
        if pa.types.is_timestamp(field.type):
            # Flink writes 'yyyy-MM-dd HH:mm:ss[.f]'; an ISO 'T' reads too
            text = text.replace("T", " ", 1)
        return pa.array([text.strip()], pa.string()).cast(field.type)[0]
    except (pa.ArrowException, ValueError) as exc:
        raise SourceError(
            f"partition directory {path!r}: the value {text!r} of partition column "
            f"{field.name!r} is not a {_sql_name(field.type)}"
        ) from exc


def _sql_name(t: pa.DataType) -> str:
    from calcite_bridge._types import arrow_to_sql

    try:
        return arrow_to_sql(t)
    except Exception:  # only a message
        return str(t)


def partition_dirs(
    root: str,
    keys: Sequence[pa.Field],
    null_name: str,
    ignore_prefixes: Sequence[str],
) -> list[Partition]:
    """The leaf partition directories under ``root``, sorted by path, with their typed values."""
    nulls = (null_name, HIVE_DEFAULT_NAME)
    ignore = tuple(ignore_prefixes)
    level: list[tuple[str, tuple[pa.Scalar, ...]]] = [(root, ())]
    for key in keys:
        prefix = key.name + "="
        deeper: list[tuple[str, tuple[pa.Scalar, ...]]] = []
        for directory, values in level:
            try:
                entries = sorted(os.scandir(directory), key=lambda e: e.name)
            except (FileNotFoundError, NotADirectoryError):
                continue
            for entry in entries:
                if entry.name.startswith(ignore) or not entry.name.startswith(prefix):
                    continue
                if not entry.is_dir():
                    continue
                text = unescape(entry.name[len(prefix) :])
                deeper.append((entry.path, (*values, _typed(text, key, entry.path, nulls))))
        level = deeper
    return [Partition(path, values) for path, values in level]


def split(
    filters: Sequence[Expression], keys: Sequence[str]
) -> tuple[list[Expression], list[Expression], list[Expression]]:
    """``filters`` as those on partition columns only, those on data columns only (or on no
    column), and those on both."""
    on_keys: list[Expression] = []
    on_data: list[Expression] = []
    mixed: list[Expression] = []
    names = set(keys)
    for f in filters:
        used = {path[0] for path in references(f)}
        if used and used <= names:
            on_keys.append(f)
        elif used & names:
            mixed.append(f)
        else:
            on_data.append(f)
    return on_keys, on_data, mixed


def values_table(partitions: Sequence[Partition], keys: Sequence[pa.Field]) -> pa.Table:
    """The partition values as a table of one row per partition."""
    return pa.Table.from_arrays(
        [pa.array([p.values[i].as_py() for p in partitions], k.type) for i, k in enumerate(keys)],
        schema=pa.schema(keys),
    )


def prune(
    partitions: Sequence[Partition], keys: Sequence[pa.Field], filters: Sequence[Expression]
) -> list[Partition]:
    """The partitions whose values pass every filter (a NULL outcome drops one, as WHERE does)."""
    if not filters or not partitions:
        return list(partitions)
    table = values_table(partitions, keys).append_column(
        "__partition_index", pa.array(range(len(partitions)), pa.int64())
    )
    condition: pc.Expression | None = None
    for f in filters:
        e = f.to_pyarrow()
        condition = e if condition is None else condition & e
    kept = table.filter(condition).column("__partition_index").to_pylist()
    return [partitions[i] for i in kept]


def partition_path(values: Sequence[object], keys: Sequence[str], null_name: str) -> str:
    """The relative directory of a row of partition ``values`` (Python values)."""
    parts = []
    for key, value in zip(keys, values, strict=True):
        text = null_name if value is None or value == "" else _text(value)
        parts.append(f"{key}={escape(text)}")
    return os.path.join(*parts)


def _text(value: object) -> str:
    import datetime as dt
    import decimal

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    return str(value)
