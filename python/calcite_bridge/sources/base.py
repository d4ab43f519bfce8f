"""The source contract (DESIGN §7, §9): requests, abilities and the checks around them."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import pyarrow as pa

from calcite_bridge.errors import SourceContractError, SourceError
from calcite_bridge.expressions import Expression, from_json, to_json

__all__ = [
    "FilterPushDownResult",
    "ScanRequest",
    "ScanResult",
    "SupportsAggregatePushDown",
    "SupportsDynamicColumns",
    "SupportsFilterPushDown",
    "SupportsLimitPushDown",
    "SupportsProjectionPushDown",
    "SupportsReadingMetadata",
    "SupportsRowLevelDelete",
    "SupportsRowLevelUpdate",
    "SupportsWriting",
    "SupportsWritingMetadata",
    "TableSource",
    "check_filter_result",
    "filters_from_json",
    "filters_to_json",
    "to_reader",
]

ScanResult: TypeAlias = "pa.RecordBatchReader | pa.Table | Iterable[pa.RecordBatch]"


def filters_from_json(obj: str | Sequence[Any]) -> list[Expression]:
    """A JSON list of expressions (text or decoded) to expressions."""
    items = json.loads(obj) if isinstance(obj, str) else obj
    return [from_json(item) for item in items]


def filters_to_json(filters: Iterable[Expression]) -> str:
    return json.dumps([to_json(f) for f in filters])


@dataclass(frozen=True)
class ScanRequest:
    """What the planner asks one scan for.

    The source produces, in order: one column per ``projection`` path when ``projection`` is
    set, else the ``columns`` (top-level names) when set, else every column of ``schema()``;
    then one column per ``metadata_keys`` entry, named by the key. Every row it returns must
    satisfy all ``filters``. ``limit`` is a hint: the engine cuts the result again.

    Empty ``columns`` and ``projection`` ask for no column at all: only the number of rows
    matters (``COUNT(*)``). Batches without columns do; so do batches with extra columns.
    """

    columns: tuple[str, ...] | None = None
    projection: tuple[tuple[int, ...], ...] | None = None
    filters: tuple[Expression, ...] = ()
    metadata_keys: tuple[str, ...] = ()
    limit: int | None = None

    def __post_init__(self) -> None:
        if self.columns is not None:
            object.__setattr__(self, "columns", tuple(self.columns))
        if self.projection is not None:
            paths = tuple(tuple(int(i) for i in path) for path in self.projection)
            object.__setattr__(self, "projection", paths)
        object.__setattr__(self, "filters", tuple(self.filters))
        object.__setattr__(self, "metadata_keys", tuple(self.metadata_keys))
        if self.limit is not None and self.limit < 0:
            raise ValueError(f"limit must not be negative: {self.limit}")

    @classmethod
    def from_json(cls, obj: dict[str, Any] | str) -> ScanRequest:
        data: dict[str, Any] = json.loads(obj) if isinstance(obj, str) else obj
        columns = data.get("columns")
        projection = data.get("projection")
        limit = data.get("limit")
        return cls(
            columns=None if columns is None else tuple(columns),
            projection=None if projection is None else tuple(tuple(p) for p in projection),
            filters=tuple(filters_from_json(data.get("filters") or [])),
            metadata_keys=tuple(data.get("metadata_keys") or ()),
            limit=None if limit is None else int(limit),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "columns": None if self.columns is None else list(self.columns),
            "projection": None if self.projection is None else [list(p) for p in self.projection],
            "filters": [to_json(f) for f in self.filters],
            "metadata_keys": list(self.metadata_keys),
            "limit": self.limit,
        }


@dataclass(frozen=True)
class FilterPushDownResult:
    """``accepted``: filters the source applies exactly; ``remaining``: the engine applies them.

    A filter may be in both (the source uses it as a hint, the engine checks it again).
    """

    accepted: Sequence[Expression]
    remaining: Sequence[Expression]

    def __post_init__(self) -> None:
        object.__setattr__(self, "accepted", tuple(self.accepted))
        object.__setattr__(self, "remaining", tuple(self.remaining))


class TableSource:
    """A table read by the engine. Subclass it, or just provide ``schema`` and ``scan``."""

    def schema(self) -> pa.Schema:
        raise NotImplementedError

    def scan(self, request: ScanRequest) -> ScanResult:
        raise NotImplementedError


class SupportsFilterPushDown:
    def apply_filters(self, filters: list[Expression]) -> FilterPushDownResult:
        """Called at most once per scan with the conjuncts; the default accepts none."""
        return FilterPushDownResult(accepted=(), remaining=tuple(filters))

    def supports_nested_filters(self) -> bool:
        """False: conjuncts with a ``NestedFieldReference`` are never offered."""
        return False


class SupportsProjectionPushDown:
    """The source honours ``request.columns`` (and ``request.projection``)."""

    def supports_nested_projection(self) -> bool:
        """False: ``request.projection`` only holds top-level paths."""
        return False


class SupportsAggregatePushDown:
    """The source answers aggregates over its scans, as Flink's ``SupportsAggregatePushDown``.

    An aggregate without GROUP BY (``COUNT(*)``, ``COUNT(x)``, ``SUM``, ``MIN``, ``MAX`` of
    integer and floating-point columns) directly over a scan of the source is computed straight
    from the scan's Arrow batches, and ``COUNT(*)`` asks for no column at all
    (``request.columns == ()``): the source may answer with batches of rows and no columns,
    counted from its own metadata (the ``filesystem`` connector reads Parquet footers). EXPLAIN
    shows it as ``ArrowAggregate``. Under ``execution.backend = auto`` only such a ``COUNT(*)``
    stays with the source; DuckDB runs aggregates that read columns. Without the ability, the
    engine runs every aggregate over the scan.
    """

    def supports_aggregate_pushdown(self) -> bool:
        """True: aggregates over this source's scans are answered from its batches."""
        return True


class SupportsLimitPushDown:
    """The source may stop after ``request.limit`` rows."""

    def apply_limit(self, limit: int) -> None:
        """Told before each scan that has a limit; the limit also arrives in ``request.limit``."""


class SupportsReadingMetadata:
    def list_readable_metadata(self) -> dict[str, str]:
        """Metadata key -> SQL type string."""
        return {}

    def apply_readable_metadata(self, keys: list[str]) -> None:
        """Told before each scan that reads metadata which keys it reads (also in
        ``request.metadata_keys``)."""


class SupportsWritingMetadata:
    def list_writable_metadata(self) -> dict[str, str]:
        """Metadata key -> SQL type string; an INSERT that writes another key fails."""
        return {}

    def apply_writable_metadata(self, keys: list[str]) -> None:
        """Told which keys an INSERT writes; they arrive as extra columns named by the key."""


class SupportsDynamicColumns:
    def discover_column(self, name: str) -> str | None:
        """The SQL type of ``name`` when the source has such a column the DDL didn't list."""
        return None


class SupportsWriting:
    def write(self, table: pa.Table) -> None:
        """Appends ``table`` atomically: all rows become visible, or none."""
        raise NotImplementedError


class SupportsRowLevelUpdate:
    """``UPDATE`` rewrites the source's rows, as Flink's ``SupportsRowLevelUpdate`` in its
    ``ALL_ROWS`` mode: the engine reads every row, computes the new values and hands all the
    rows to ``overwrite``. A source without the ability refuses ``UPDATE`` with
    ``UnsupportedError``."""

    def supports_row_level_update(self) -> bool:
        """True: ``UPDATE`` may rewrite this source's rows."""
        return True

    def overwrite(self, table: pa.Table) -> None:
        """Replaces every row with ``table`` atomically: afterwards the source holds exactly
        these rows, or, when this raises, exactly what it held before. The columns are those
        ``write`` receives."""
        raise NotImplementedError


class SupportsRowLevelDelete:
    """``DELETE`` rewrites the source's rows, as Flink's ``SupportsRowLevelDelete`` in its
    ``REMAINING_ROWS`` mode: the engine hands the rows that remain to ``overwrite``. A source
    without the ability refuses ``DELETE`` with ``UnsupportedError``."""

    def supports_row_level_delete(self) -> bool:
        """True: ``DELETE`` may rewrite this source's rows."""
        return True

    def overwrite(self, table: pa.Table) -> None:
        """As :meth:`SupportsRowLevelUpdate.overwrite`."""
        raise NotImplementedError


def _as_result(source_name: str, result: Any) -> tuple[Sequence[Any], Sequence[Any]]:
    if hasattr(result, "accepted") and hasattr(result, "remaining"):
        accepted, remaining = result.accepted, result.remaining
    elif isinstance(result, tuple) and len(result) == 2:
        accepted, remaining = result
    else:
        raise SourceContractError(
            f"source {source_name!r}: apply_filters must return a FilterPushDownResult, "
            f"not {type(result).__name__}"
        )
    for label, items in (("accepted", accepted), ("remaining", remaining)):
        if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
            raise SourceContractError(
                f"source {source_name!r}: FilterPushDownResult.{label} must be a sequence of "
                f"filters, not {type(items).__name__}"
            )
    return list(accepted), list(remaining)


def check_filter_result(
    source_name: str, offered: Sequence[Expression], result: Any
) -> tuple[list[int], list[int]]:
    """Maps ``result`` to indices of ``offered``: ``(accepted, remaining)``, both sorted.

    Raises ``SourceContractError`` naming the source and the filter when an offered filter is
    in neither list, or a returned filter was never offered.
    """
    accepted, remaining = _as_result(source_name, result)

    def indices(items: Sequence[Any], label: str) -> list[int]:
        found: set[int] = set()
        for item in items:
            hits = [i for i, f in enumerate(offered) if f is item or _same(f, item)]
            if not hits:
                raise SourceContractError(
                    f"source {source_name!r} returned the filter {item} in {label}, "
                    "but it was never offered"
                )
            found.update(hits)
        return sorted(found)

    acc, rem = indices(accepted, "accepted"), indices(remaining, "remaining")
    lost = sorted(set(range(len(offered))) - set(acc) - set(rem))
    if lost:
        names = ", ".join(str(offered[i]) for i in lost)
        raise SourceContractError(
            f"source {source_name!r} lost the filter {names}: every offered filter must come "
            "back in accepted, remaining or both"
        )
    return acc, rem


def _same(a: Expression, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:
        return False


def _cast(reader: pa.RecordBatchReader, schema: pa.Schema, source_name: str) -> Any:
    if reader.schema.names != schema.names:
        raise SourceError(
            f"source {source_name!r} returned columns {reader.schema.names}, "
            f"expected {schema.names}"
        )
    try:
        return reader.cast(schema)
    except (pa.ArrowException, TypeError, ValueError) as exc:
        raise SourceError(
            f"source {source_name!r} returned {reader.schema}, which does not cast to {schema}: "
            f"{exc}"
        ) from exc


def to_reader(
    result: Any, schema: pa.Schema | None = None, source_name: str = "source"
) -> pa.RecordBatchReader:
    """Normalises what ``scan`` returns to a reader; casts to ``schema`` when it is given."""
    if isinstance(result, pa.RecordBatchReader):
        reader = result
    elif isinstance(result, pa.Table):
        reader = result.to_reader()
    elif isinstance(result, pa.RecordBatch):
        reader = pa.RecordBatchReader.from_batches(result.schema, [result])
    elif hasattr(result, "__arrow_c_stream__"):
        reader = pa.RecordBatchReader.from_stream(result)
    elif isinstance(result, Iterable):
        batches = iter(result)
        first = next(batches, None)
        if first is None:
            if schema is None:
                raise SourceError(f"source {source_name!r} returned no batches and no schema")
            return pa.RecordBatchReader.from_batches(schema, [])
        if not isinstance(first, pa.RecordBatch):
            raise SourceError(
                f"source {source_name!r} scan yielded {type(first).__name__}, not RecordBatch"
            )

        def chain() -> Iterable[pa.RecordBatch]:
            yield first
            yield from batches

        reader = pa.RecordBatchReader.from_batches(first.schema, chain())
    else:
        raise SourceError(
            f"source {source_name!r} scan returned {type(result).__name__}; expected a "
            "RecordBatchReader, a Table or an iterable of RecordBatch"
        )
    if schema is not None and not reader.schema.equals(schema):
        return _cast(reader, schema, source_name)
    return reader
