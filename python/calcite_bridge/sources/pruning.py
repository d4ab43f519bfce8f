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
    "RowGroupFilters",
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
    try:
        return bool(_MAY[op](stats.low, stats.high, value))
    except TypeError:
        return True


def _compare_must_pass(op: str, stats: RowGroupStats, value: Any) -> bool:
    """Whether ``x op value`` is TRUE for every row (no NULL, every value in range)."""
    if not stats.exact or stats.nulls != 0 or type(value) is not int:
        return False
    return bool(_MUST[op](stats.low, stats.high, value))


# Whether some value in [low, high] passes ``x op value`` / every value does.
_MAY: dict[str, Callable[[Any, Any, Any], Any]] = {
    "=": lambda low, high, v: low <= v <= high,
    "<>": lambda low, high, v: not (low == v == high),
    "<": lambda low, high, v: low < v,
    "<=": lambda low, high, v: low <= v,
    ">": lambda low, high, v: high > v,
    ">=": lambda low, high, v: high >= v,
}
_MUST: dict[str, Callable[[Any, Any, Any], Any]] = {
    "=": lambda low, high, v: low == high == v,
    "<>": lambda low, high, v: v < low or v > high,
    "<": lambda low, high, v: high < v,
    "<=": lambda low, high, v: high <= v,
    ">": lambda low, high, v: low > v,
    ">=": lambda low, high, v: low >= v,
}


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


Columns = dict[str, RowGroupStats]


class _Judge:
    """One filter taken apart once, to judge many row groups: :meth:`may` is False only when
    the filter is certainly not TRUE for any row of a row group with statistics ``columns``;
    :meth:`must` True only when it is certainly TRUE (not FALSE, not NULL) for every row.
    Anything not understood may pass and need not."""

    __slots__ = ()

    def may(self, columns: Columns) -> bool:
        return True

    def must(self, columns: Columns) -> bool:
        return False

    def key(self) -> tuple[Any, ...]:
        """What the judgement depends on, each value with its type (``1`` and ``True``, equal
        in Python, are judged apart); two filters of one key classify every row group alike."""
        return ("?",)


_UNKNOWN = _Judge()


class _Constant(_Judge):
    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def may(self, columns: Columns) -> bool:
        return self.value is not False and self.value is not None

    def must(self, columns: Columns) -> bool:
        return self.value is True

    def key(self) -> tuple[Any, ...]:
        return ("literal", type(self.value), self.value)


class _All(_Judge):
    __slots__ = ("parts",)

    def __init__(self, parts: list[_Judge]) -> None:
        self.parts = parts

    def may(self, columns: Columns) -> bool:
        return all(p.may(columns) for p in self.parts)

    def must(self, columns: Columns) -> bool:
        return all(p.must(columns) for p in self.parts)

    def key(self) -> tuple[Any, ...]:
        return (type(self).__name__, *(p.key() for p in self.parts))


class _Any(_All):
    __slots__ = ()

    def may(self, columns: Columns) -> bool:
        return any(p.may(columns) for p in self.parts)

    def must(self, columns: Columns) -> bool:
        return any(p.must(columns) for p in self.parts)


class _Compare(_Judge):
    """``field op literal``; a field without statistics may pass and need not."""

    __slots__ = ("op", "path", "value")

    def __init__(self, op: str, path: str | None, value: Any) -> None:
        self.op, self.path, self.value = op, path, value

    def may(self, columns: Columns) -> bool:
        stats = columns.get(self.path) if self.path is not None else None
        return True if stats is None else _compare_may_pass(self.op, stats, self.value)

    def must(self, columns: Columns) -> bool:
        stats = columns.get(self.path) if self.path is not None else None
        return stats is not None and _compare_must_pass(self.op, stats, self.value)

    def key(self) -> tuple[Any, ...]:
        return (self.op, self.path, type(self.value), self.value)


class _Test(_Judge):
    """``IS NULL``, ``IS NOT NULL`` or ``IN`` (of literals) of a field: ``fn`` and the
    literals of ``IN``, None for any other function (which only :meth:`must` reads: it is
    never certainly TRUE)."""

    __slots__ = ("fn", "path", "single", "values")

    def __init__(self, fn: str, path: str | None, single: bool, values: list[Any] | None) -> None:
        self.fn, self.path, self.single, self.values = fn, path, single, values

    def may(self, columns: Columns) -> bool:
        stats = columns.get(self.path) if self.path is not None else None
        if stats is None:
            return True
        if self.fn == "IS NULL" and self.single:
            return stats.nulls is None or stats.nulls > 0
        if self.fn == "IS NOT NULL" and self.single:
            return stats.nulls is None or stats.nulls < stats.rows
        if self.fn == "IN" and self.values is not None:
            return any(_compare_may_pass("=", stats, v) for v in self.values)
        return True

    def must(self, columns: Columns) -> bool:
        stats = columns.get(self.path) if self.path is not None and self.single else None
        if stats is None or stats.nulls is None:
            return False
        if self.fn == "IS NULL":
            return stats.nulls >= stats.rows
        if self.fn == "IS NOT NULL":
            return stats.nulls == 0
        return False

    def key(self) -> tuple[Any, ...]:
        values = None if self.values is None else tuple((type(v), v) for v in self.values)
        return (self.fn, self.path, self.single, values)


def _judge(expr: Expression) -> _Judge:
    """``expr`` taken apart for :class:`_Judge`."""
    if isinstance(expr, Literal):
        return _Constant(expr.value)
    if not isinstance(expr, Call):
        return _UNKNOWN
    fn, args = expr.function.upper(), expr.args
    if fn in ("AND", "OR"):
        parts = [_judge(a) for a in args]
        return _All(parts) if fn == "AND" else _Any(parts)
    if fn in COMPARISONS:
        found = _comparison(expr)
        return _UNKNOWN if found is None else _Compare(*found)
    path = _path(args[0]) if args else None
    values = None
    if fn == "IN" and all(isinstance(a, Literal) for a in args[1:]):
        values = [a.value for a in args[1:] if isinstance(a, Literal)]
    return _Test(fn, path, len(args) == 1, values)


class RowGroupFilters:
    """A scan's filters taken apart once, to classify the row groups of each of its files
    without taking them apart again: a new parameter value's range meets no classification kept
    from earlier scans, and a file's classes are then computed afresh for each file. ``key``
    is what the classes depend on (the comparisons, fields and literals with their types), to
    keep them by in a dict; None when a literal cannot be hashed."""

    __slots__ = ("compares", "filters", "judges", "key", "paths")

    def __init__(self, filters: Sequence[Expression]) -> None:
        self.filters = tuple(filters)
        self.judges = [_judge(f) for f in self.filters]
        self.paths = filter_paths(self.filters)
        # When every filter compares a field with a literal (a range of parameters, say), the
        # classes are judged from ``(path, op, literal)`` without taking ``columns`` apart.
        compares = [
            (j.path, j.op, j.value)
            for j in self.judges
            if isinstance(j, _Compare) and j.path is not None
        ]
        self.compares = compares if len(compares) == len(self.judges) else None
        self.key: tuple[Any, ...] | None = tuple(j.key() for j in self.judges)
        try:
            hash(self.key)
        except TypeError:  # a literal that cannot be hashed
            self.key = None

    def classes(
        self,
        num_row_groups: int,
        stats: Callable[[str], Sequence[RowGroupStats | None] | None],
        whole: Callable[[str], RowGroupStats | None] | None = None,
    ) -> list[RowGroupClass]:
        """One class per row group (``stats(path)``: a leaf's statistics per row group). With
        ``whole`` (a leaf's statistics over the whole file, :func:`whole_file`), every row
        group is skipped at once when no value of the file's ranges passes a filter."""
        if not self.judges:
            return [RowGroupClass.ALL] * num_row_groups
        if self.compares is not None:
            return _compared_classes(self.compares, num_row_groups, stats, whole)
        if whole is not None and not self.may(whole):
            return [RowGroupClass.SKIP] * num_row_groups
        by_path = {p: s for p in self.paths if (s := stats(p)) is not None}
        out: list[RowGroupClass] = []
        for i in range(num_row_groups):
            columns: Columns = {}
            for p, per_group in by_path.items():
                found = per_group[i]
                if found is not None:
                    columns[p] = found
            if not all(j.may(columns) for j in self.judges):
                out.append(RowGroupClass.SKIP)
            elif all(j.must(columns) for j in self.judges):
                out.append(RowGroupClass.ALL)
            else:
                out.append(RowGroupClass.SOME)
        return out

    def may(self, stats: Callable[[str], RowGroupStats | None]) -> bool:
        """Whether some row with a leaf's values within ``stats(path)`` may pass every filter."""
        columns = {p: s for p in self.paths if (s := stats(p)) is not None}
        return all(j.may(columns) for j in self.judges)


def _compares_exclude(
    compares: Sequence[tuple[str, str, Any]], whole: Callable[[str], RowGroupStats | None]
) -> bool:
    """Whether some comparison is passed by no value of its field's range ``whole(path)``."""
    for path, op, value in compares:
        found = whole(path)
        if found is not None and not _compare_may_pass(op, found, value):
            return True
    return False


def _compared_classes(
    compares: Sequence[tuple[str, str, Any]],
    num_row_groups: int,
    stats: Callable[[str], Sequence[RowGroupStats | None] | None],
    whole: Callable[[str], RowGroupStats | None] | None,
) -> list[RowGroupClass]:
    """:meth:`RowGroupFilters.classes` of comparisons of fields with literals only: the same
    judgement (a field without statistics may pass and need not), one comparison at a time."""
    if whole is not None and _compares_exclude(compares, whole):
        return [RowGroupClass.SKIP] * num_row_groups
    per_path = [(stats(path), op, value) for path, op, value in compares]
    out: list[RowGroupClass] = []
    for i in range(num_row_groups):
        kind = RowGroupClass.ALL
        for per_group, op, value in per_path:
            found = None if per_group is None else per_group[i]
            if found is None:
                kind = RowGroupClass.SOME
            elif not _compare_may_pass(op, found, value):
                kind = RowGroupClass.SKIP
                break
            elif kind is RowGroupClass.ALL and not _compare_must_pass(op, found, value):
                kind = RowGroupClass.SOME
        out.append(kind)
    return out


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
    judged = RowGroupFilters(filters)
    keep: list[int] = []
    for i in range(metadata.num_row_groups):
        columns = _leaf_columns(metadata.row_group(i), judged.paths)
        if all(j.may(columns) for j in judged.judges):
            keep.append(i)
    return keep


def classify_row_groups(
    num_row_groups: int,
    filters: Sequence[Expression],
    stats: Callable[[str], Sequence[RowGroupStats | None] | None],
) -> list[RowGroupClass]:
    """One class per row group; ``stats(path)`` gives a leaf's statistics per row group."""
    return RowGroupFilters(filters).classes(num_row_groups, stats)


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
    """Whether no row whose values lie within the fields' ranges over the whole file
    (``whole(path)``, :func:`whole_file`) passes every filter, judged as a row group is: then
    every row group is skipped, without classifying each (a new parameter value's range, say,
    that lies in another file of a sorted set)."""
    return not RowGroupFilters(filters).may(whole)


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
