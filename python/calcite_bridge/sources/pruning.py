"""Parquet row-group pruning from column statistics, for top-level and nested fields.

``pyarrow.dataset`` prunes row groups only when a column has no NULLs: with NULLs its
guarantee becomes ``min <= x <= max OR x IS NULL``, which its simplifier cannot use. Here each
filter is checked against every row group's statistics under SQL's WHERE semantics (a row is
kept only when the filter is TRUE); a row group is skipped when no row in it can pass.
The check is conservative: anything it does not understand keeps the row group.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow.dataset as ds

from calcite_bridge.expressions import COMPARISONS, Call, Expression, FieldReference, Literal
from calcite_bridge.expressions import NestedFieldReference as Nested

__all__ = ["prune_row_groups", "row_groups_to_read"]

_FLIP = {"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


class _Stats:
    """min, max and counts of one leaf column in one row group (None when unknown)."""

    def __init__(self, column: Any) -> None:
        stats: Any = column.statistics if column.is_stats_set else None
        self.rows: int = column.num_values
        self.nulls: int | None = None if stats is None else stats.null_count
        self.known: bool = stats is not None and bool(stats.has_min_max)
        self.low: Any = stats.min if self.known else None
        self.high: Any = stats.max if self.known else None


def _path(expr: Expression) -> str | None:
    if isinstance(expr, FieldReference):
        return expr.name
    if isinstance(expr, Nested):
        return ".".join(expr.field_names)
    return None


def _compare_may_pass(op: str, stats: _Stats, value: Any) -> bool:
    if stats.nulls is not None and stats.nulls >= stats.rows:
        return False  # all NULL: every comparison is NULL
    if not stats.known or value is None:
        return value is not None  # x op NULL is never TRUE
    low, high = stats.low, stats.high
    try:
        return bool(
            {
                "=": low <= value <= high,
                "<>": not (low == value == high),
                "<": low < value,
                "<=": low <= value,
                ">": high > value,
                ">=": high >= value,
            }[op]
        )
    except TypeError:
        return True


def _may_pass(expr: Expression, columns: dict[str, _Stats]) -> bool:  # noqa: PLR0911
    """False only when ``expr`` is certainly not TRUE for any row of the row group."""
    if isinstance(expr, Literal):
        return expr.value is not False and expr.value is not None
    if not isinstance(expr, Call):
        return True
    fn, args = expr.function.upper(), expr.args
    if fn == "AND":
        return all(_may_pass(a, columns) for a in args)
    if fn == "OR":
        return any(_may_pass(a, columns) for a in args)
    path = _path(args[0]) if args else None
    stats = columns.get(path) if path is not None else None
    if fn in COMPARISONS and len(args) == 2:
        left, right, op = args[0], args[1], fn
        if isinstance(left, Literal):
            left, right, op = right, left, _FLIP[fn]
        path = _path(left)
        stats = columns.get(path) if path is not None else None
        if stats is None or not isinstance(right, Literal):
            return True
        return _compare_may_pass(op, stats, right.value)
    if stats is None:
        return True
    if fn == "IS NULL" and len(args) == 1:
        return stats.nulls is None or stats.nulls > 0
    if fn == "IS NOT NULL" and len(args) == 1:
        return stats.nulls is None or stats.nulls < stats.rows
    if fn == "IN" and all(isinstance(a, Literal) for a in args[1:]):
        return any(
            _compare_may_pass("=", stats, a.value) for a in args[1:] if isinstance(a, Literal)
        )
    return True


def _leaf_columns(row_group: Any, paths: set[str]) -> dict[str, _Stats]:
    found: dict[str, list[Any]] = {}
    for j in range(row_group.num_columns):
        column = row_group.column(j)
        if column.path_in_schema in paths:
            found.setdefault(column.path_in_schema, []).append(column)
    # A dotted path that names two leaves (a name with a dot in it) is ambiguous: skip it.
    return {p: _Stats(cols[0]) for p, cols in found.items() if len(cols) == 1}


def row_groups_to_read(fragment: Any, filters: Sequence[Expression]) -> list[int]:
    """Indices of the row groups of a ``ParquetFileFragment`` where every filter may pass."""
    metadata = fragment.metadata
    paths = {p for f in filters for node in f.walk() if (p := _path(node)) is not None}
    keep: list[int] = []
    for i in range(metadata.num_row_groups):
        columns = _leaf_columns(metadata.row_group(i), paths)
        if all(_may_pass(f, columns) for f in filters):
            keep.append(i)
    return keep


def prune_row_groups(dataset: ds.Dataset, filters: Sequence[Expression]) -> ds.Dataset:
    """``dataset`` restricted to the row groups the filters may pass (Parquet only)."""
    if not filters or not isinstance(dataset, ds.FileSystemDataset):
        return dataset
    if not isinstance(dataset.format, ds.ParquetFileFormat):
        return dataset
    fragments = []
    for fragment in dataset.get_fragments():
        keep = row_groups_to_read(fragment, filters)
        if len(keep) == fragment.metadata.num_row_groups:
            fragments.append(fragment)
        elif keep:
            fragments.append(fragment.subset(row_group_ids=keep))
    return ds.FileSystemDataset(fragments, dataset.schema, dataset.format, dataset.filesystem)
