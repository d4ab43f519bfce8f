"""Parquet row-group pruning from column statistics, for top-level and nested fields.

``pyarrow.dataset`` prunes row groups only when a column has no NULLs: with NULLs its
guarantee becomes ``min <= x <= max OR x IS NULL``, which its simplifier cannot use. Here each
filter is checked against every row group's statistics under SQL's WHERE semantics (a row is
kept only when the filter is TRUE). A row group is skipped when no row in it can pass, and
read without evaluating the filters when every row in it certainly passes. Both checks are
conservative: anything they do not understand reads the row group and evaluates the filters.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from calcite_bridge.expressions import COMPARISONS, Call, Expression, FieldReference, Literal
from calcite_bridge.expressions import NestedFieldReference as Nested

if TYPE_CHECKING:
    import pyarrow.dataset as ds

__all__ = [
    "RowGroupClass",
    "RowGroupStats",
    "classify_row_groups",
    "excludes_every_row_group",
    "filter_paths",
    "prune_row_groups",
    "row_groups_to_read",
    "whole_file",
]

_FLIP = {"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
_INTEGER_PHYSICAL = ("INT32", "INT64")


class RowGroupClass(enum.Enum):
    """What the filters make of one row group."""

    SKIP = "skip"  # no row can pass
    ALL = "all"  # every row passes: read it without evaluating the filters
    SOME = "some"  # read it and evaluate the filters


class RowGroupStats:
    """min, max and counts of one leaf column in one row group (None when unknown).

    ``exact`` says the min and max are exact integers that compare as SQL compares the column
    (INT32/INT64 without a logical type other than integer), so they can prove that every row
    passes; floating columns may hold NaN, which statistics leave out.
    """

    __slots__ = ("exact", "floating", "high", "known", "low", "nulls", "rows")

    def __init__(self, column: Any, rows: int | None = None, repeated: bool = False) -> None:
        stats: Any = column.statistics if column.is_stats_set and not repeated else None
        self.rows: int = column.num_values if rows is None else rows
        self.nulls: int | None = None
        if stats is not None and getattr(stats, "has_null_count", True):
            self.nulls = stats.null_count
        self.known: bool = stats is not None and bool(stats.has_min_max)
        self.low: Any = stats.min if self.known else None
        self.high: Any = stats.max if self.known else None
        physical = getattr(column, "physical_type", None)
        self.floating: bool = physical in ("FLOAT", "DOUBLE") or (
            physical == "FIXED_LEN_BYTE_ARRAY" and "Float16" in str(stats and stats.logical_type)
        )
        logical = str(stats.logical_type) if stats is not None else "None"
        signed_int = logical.startswith("Int(") and "isSigned=false" not in logical
        self.exact: bool = (
            self.known
            and physical in _INTEGER_PHYSICAL
            and (logical == "None" or signed_int)
            and type(self.low) is int
            and type(self.high) is int
        )


# Kept for callers of the earlier name.
_Stats = RowGroupStats


def _path(expr: Expression) -> str | None:
    if isinstance(expr, FieldReference):
        return expr.name
    if isinstance(expr, Nested):
        return ".".join(expr.field_names)
    return None


def filter_paths(filters: Sequence[Expression]) -> set[str]:
    """The dotted paths of every field the filters reference."""
    return {p for f in filters for node in f.walk() if (p := _path(node)) is not None}


def _compare_may_pass(op: str, stats: RowGroupStats, value: Any) -> bool:
    if stats.nulls is not None and stats.nulls >= stats.rows:
        return False  # all NULL: every comparison is NULL
    if not stats.known or value is None:
        return value is not None  # x op NULL is never TRUE
    if op == "<>" and stats.floating:
        return True  # NaN <> value is TRUE, and NaN is in no min or max
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


def _compare_must_pass(op: str, stats: RowGroupStats, value: Any) -> bool:
    """Whether ``x op value`` is TRUE for every row (no NULL, every value in range)."""
    if not stats.exact or stats.nulls != 0 or type(value) is not int:
        return False
    low, high = stats.low, stats.high
    return bool(
        {
            "=": low == high == value,
            "<>": value < low or value > high,
            "<": high < value,
            "<=": high <= value,
            ">": low > value,
            ">=": low >= value,
        }[op]
    )


def _comparison(expr: Call) -> tuple[str, str | None, Any] | None:
    """``(op, path, literal)`` of ``field op literal`` (either way round), or None."""
    if expr.function.upper() not in COMPARISONS or len(expr.args) != 2:
        return None
    left, right, op = expr.args[0], expr.args[1], expr.function.upper()
    if isinstance(left, Literal):
        left, right, op = right, left, _FLIP[op]
    if not isinstance(right, Literal):
        return None
    return op, _path(left), right.value


def _may_pass(expr: Expression, columns: dict[str, RowGroupStats]) -> bool:  # noqa: PLR0911
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
    if fn in COMPARISONS:
        found = _comparison(expr)
        if found is None:
            return True
        op, path, value = found
        stats = columns.get(path) if path is not None else None
        return True if stats is None else _compare_may_pass(op, stats, value)
    path = _path(args[0]) if args else None
    stats = columns.get(path) if path is not None else None
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


def _must_pass(expr: Expression, columns: dict[str, RowGroupStats]) -> bool:  # noqa: PLR0911
    """True only when ``expr`` is certainly TRUE (not FALSE, not NULL) for every row."""
    if isinstance(expr, Literal):
        return expr.value is True
    if not isinstance(expr, Call):
        return False
    fn, args = expr.function.upper(), expr.args
    if fn == "AND":
        return all(_must_pass(a, columns) for a in args)
    if fn == "OR":
        return any(_must_pass(a, columns) for a in args)
    if fn in COMPARISONS:
        found = _comparison(expr)
        if found is None:
            return False
        op, path, value = found
        stats = columns.get(path) if path is not None else None
        return stats is not None and _compare_must_pass(op, stats, value)
    path = _path(args[0]) if len(args) == 1 else None
    stats = columns.get(path) if path is not None else None
    if stats is None or stats.nulls is None:
        return False
    if fn == "IS NULL":
        return stats.nulls >= stats.rows
    if fn == "IS NOT NULL":
        return stats.nulls == 0
    return False


def _leaf_columns(row_group: Any, paths: set[str]) -> dict[str, RowGroupStats]:
    found: dict[str, list[Any]] = {}
    for j in range(row_group.num_columns):
        column = row_group.column(j)
        if column.path_in_schema in paths:
            found.setdefault(column.path_in_schema, []).append(column)
    # A dotted path that names two leaves (a name with a dot in it) is ambiguous: skip it.
    return {p: RowGroupStats(cols[0]) for p, cols in found.items() if len(cols) == 1}


def row_groups_to_read(fragment: Any, filters: Sequence[Expression]) -> list[int]:
    """Indices of the row groups of a ``ParquetFileFragment`` where every filter may pass."""
    metadata = fragment.metadata
    paths = filter_paths(filters)
    keep: list[int] = []
    for i in range(metadata.num_row_groups):
        columns = _leaf_columns(metadata.row_group(i), paths)
        if all(_may_pass(f, columns) for f in filters):
            keep.append(i)
    return keep


def classify_row_groups(
    num_row_groups: int,
    filters: Sequence[Expression],
    stats: Callable[[str], Sequence[RowGroupStats | None] | None],
) -> list[RowGroupClass]:
    """One class per row group; ``stats(path)`` gives a leaf's statistics per row group."""
    if not filters:
        return [RowGroupClass.ALL] * num_row_groups
    by_path = {p: s for p in filter_paths(filters) if (s := stats(p)) is not None}
    out: list[RowGroupClass] = []
    for i in range(num_row_groups):
        columns: dict[str, RowGroupStats] = {}
        for p, per_group in by_path.items():
            found = per_group[i]
            if found is not None:
                columns[p] = found
        if not all(_may_pass(f, columns) for f in filters):
            out.append(RowGroupClass.SKIP)
        elif all(_must_pass(f, columns) for f in filters):
            out.append(RowGroupClass.ALL)
        else:
            out.append(RowGroupClass.SOME)
    return out


def whole_file(per_group: Sequence[RowGroupStats | None]) -> RowGroupStats | None:
    """The statistics of one leaf over a whole file, from those of its row groups: the lowest
    min, the highest max, the counts summed; None when a row group has none. Each row group's
    range lies within the file's, so a comparison no value of the file's range passes is
    passed by no row group."""
    if not per_group:
        return None
    groups = [s for s in per_group if s is not None]
    if len(groups) != len(per_group):
        return None
    out = RowGroupStats.__new__(RowGroupStats)
    out.rows = sum(s.rows for s in groups)
    nulls = [s.nulls for s in groups]
    out.nulls = None if None in nulls else sum(n for n in nulls if n is not None)
    out.floating = any(s.floating for s in groups)
    out.exact = False
    ranged = [s for s in groups if not (s.nulls is not None and s.nulls >= s.rows)]
    out.known = bool(ranged) and all(s.known for s in ranged)
    out.low = out.high = None
    if out.known:
        try:
            out.low = min(s.low for s in ranged)
            out.high = max(s.high for s in ranged)
        except TypeError:
            out.known = False
    return out


def excludes_every_row_group(
    filters: Sequence[Expression], whole: Callable[[str], RowGroupStats | None]
) -> bool:
    """Whether a filter that compares a field with a literal is passed by no value of the
    field's range over the whole file (``whole(path)``, :func:`whole_file`): then every row
    group is skipped, without classifying each (a new parameter value's range, say, that lies
    in another file of a sorted set)."""
    for f in filters:
        found = _comparison(f) if isinstance(f, Call) else None
        if found is None or found[1] is None:
            continue
        stats = whole(found[1])
        if stats is not None and not _compare_may_pass(found[0], stats, found[2]):
            return True
    return False


def prune_row_groups(dataset: ds.Dataset, filters: Sequence[Expression]) -> ds.Dataset:
    """``dataset`` restricted to the row groups the filters may pass (Parquet only)."""
    import pyarrow.dataset as ds  # here: it imports pandas

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
