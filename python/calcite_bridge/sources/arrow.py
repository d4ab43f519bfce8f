"""Scanning through ``pyarrow.dataset``, and an in-memory source over a ``pyarrow.Table``."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc

from calcite_bridge._values import decode_value
from calcite_bridge.errors import SourceError, UnsupportedError
from calcite_bridge.expressions import Call, Expression, Literal, is_nested
from calcite_bridge.sources.base import (
    FilterPushDownResult,
    ScanRequest,
    SupportsFilterPushDown,
    SupportsLimitPushDown,
    SupportsProjectionPushDown,
    TableSource,
)

if TYPE_CHECKING:
    import pyarrow.dataset as ds

__all__ = [
    "ArrowTableSource",
    "combined_filter",
    "limited",
    "path_names",
    "projected_columns",
    "scan_dataset",
    "split_filters",
    "translatable",
]

MetadataFn = Callable[[Any], Sequence[pa.Scalar]]


def translatable(expr: Expression, schema: pa.Schema) -> bool:
    """Whether ``expr.to_pyarrow()`` exists and binds to ``schema``.

    Whether it binds is remembered per shape of expression (its literals' values left out,
    their types kept) and schema: finding out runs a (small) Arrow execution plan, and a
    statement with parameters offers the same filter with new values at every run. Only the
    translation itself, which a value can make fail (one Arrow cannot hold), runs each time.
    """
    try:
        expr.to_pyarrow()
    except (UnsupportedError, pa.ArrowException, TypeError, ValueError, KeyError):
        return False
    key = (_shape(expr), schema)
    known = _BINDS.get(key)
    if known is None:
        if len(_BINDS) >= 4096:
            _BINDS.clear()
        known = _BINDS[key] = _binds(expr, schema)
    return known


_BINDS: dict[tuple[Any, pa.Schema], bool] = {}


def _shape(expr: Expression) -> Any:
    """``expr`` with each literal's value replaced by what a translation's types depend on."""
    if isinstance(expr, Literal):
        value = expr.value
        return ("literal", expr.data_type, type(value).__name__, value is None)
    if isinstance(expr, Call):
        return ("call", expr.function, expr.data_type, tuple(_shape(a) for a in expr.args))
    return expr


def _binds(expr: Expression, schema: pa.Schema) -> bool:
    try:
        _filter_empty(schema, expr.to_pyarrow())
    except (UnsupportedError, pa.ArrowException, TypeError, ValueError, KeyError):
        return False
    return True


def _filter_empty(schema: pa.Schema, condition: pc.Expression) -> None:
    """Filters an empty table of ``schema`` by ``condition``: raises when it does not bind.

    Through Acero's own module, as ``Table.filter`` does, without ``pyarrow.acero``: that
    imports ``pyarrow.dataset``, and pyarrow's dataset module imports pandas (about 0.3 s of a
    new process's first filtered query over files, which DuckDB reads without either).
    """
    try:
        from pyarrow._acero import Declaration, FilterNodeOptions, TableSourceNodeOptions
    except ImportError:  # a pyarrow whose Acero is laid out otherwise
        schema.empty_table().filter(condition)
        return
    Declaration.from_sequence(
        [
            Declaration("table_source", TableSourceNodeOptions(schema.empty_table())),
            Declaration("filter", FilterNodeOptions(condition)),
        ]
    ).to_table(use_threads=False)


def split_filters(
    filters: Sequence[Expression], schema: pa.Schema, nested: bool = True
) -> FilterPushDownResult:
    """Accepts each filter pyarrow can apply exactly; the rest remain."""
    accepted: list[Expression] = []
    remaining: list[Expression] = []
    for f in filters:
        ok = (nested or not is_nested(f)) and translatable(f, schema)
        (accepted if ok else remaining).append(f)
    return FilterPushDownResult(accepted, remaining)


class OfferAnswers:
    """The answers of an ``ArrowTableSource`` or a ``FileSystemSource`` (whose
    ``apply_filters`` is its own) to offers of filters, kept per shape of the offer: a statement
    with parameters offers the same filters with new values at every run (docs/performance.md,
    "Parameters").

    Kept only for offers of comparisons (``=``, ``<>``, ``<``, ``<=``, ``>``, ``>=``), ``AND``,
    ``OR`` and ``NOT`` of columns, fields of ROW columns (``user.age``) and literals: whether
    such a filter is accepted depends on its shape (``translatable`` binds it to the table's
    schema once per shape) and on whether each literal makes an Arrow scalar of its type, which
    is checked again for each offer. Any other offer, and one whose literal makes no scalar, is
    answered by ``apply_filters`` itself. The answer is the JSON text the JVM reads.
    """

    _LIMIT = 64

    def __init__(self) -> None:
        self._answers: dict[tuple[Any, ...], str] = {}

    def known(self, items: list[Any]) -> str | None:
        """The answer kept for the shape of ``items`` (the offer, decoded from JSON), when its
        literals all make scalars of their types; else None."""
        literals: list[dict[str, Any]] = []
        key = _offer_shape(items, literals)
        answer = None if key is None else self._answers.get(key)
        if answer is None or not all(_scalar_made(lit) for lit in literals):
            return None
        return answer

    def keep(self, items: list[Any], answer: str) -> None:
        """Keeps ``answer``, given by ``apply_filters`` to the offer ``items``, for its shape."""
        key = _offer_shape(items, [])
        if key is None:
            return
        if len(self._answers) >= self._LIMIT:
            self._answers.clear()
        self._answers[key] = answer


def _offer_shape(items: list[Any], literals: list[dict[str, Any]]) -> tuple[Any, ...] | None:
    """The shape of an offer (a JSON list of expressions): literals' values left out (and added
    to ``literals``), their types kept; None when an expression is not only comparisons, AND,
    OR, NOT, columns, fields of ROW columns and literals."""
    try:
        return tuple(_item_shape(item, literals) for item in items)
    except (_NoShape, AttributeError, KeyError, TypeError):
        return None


class _NoShape(Exception):
    pass


def _item_shape(item: dict[str, Any], literals: list[dict[str, Any]]) -> Any:
    kind = item["kind"]
    if kind == "literal":
        literals.append(item)
        value = item.get("value")
        return ("literal", item["type"], type(value).__name__, value is None)
    if kind == "field":
        return (
            "field",
            item["name"],
            item["type"],
            item.get("input_index"),
            item.get("field_index"),
        )
    if kind == "nested":
        return (
            "nested",
            tuple(item["names"]),
            tuple(item["indices"]),
            item["type"],
            item.get("input_index"),
        )
    if kind == "call" and str(item["function"]).upper() in _SHAPED_CALLS:
        args = tuple(_item_shape(a, literals) for a in item.get("args", []))
        return ("call", item["function"], item["type"], args)
    raise _NoShape


_SHAPED_CALLS = frozenset({"=", "<>", "<", "<=", ">", ">=", "AND", "OR", "NOT"})


def _scalar_made(item: dict[str, Any]) -> bool:
    """Whether the JSON literal ``item`` makes an Arrow scalar of its type."""
    try:
        Literal(decode_value(item.get("value"), item["type"]), item["type"]).to_arrow_scalar()
    except (UnsupportedError, ValueError, TypeError, KeyError, ArithmeticError):
        return False
    return True


def combined_filter(filters: Sequence[Expression]) -> pc.Expression | None:
    """The AND of every filter (Kleene logic: a NULL outcome drops the row, as WHERE does)."""
    out: pc.Expression | None = None
    for f in filters:
        e = f.to_pyarrow()
        out = e if out is None else out & e
    return out


def path_names(schema: pa.Schema, path: Sequence[int]) -> list[str]:
    """The field names along an index path into ``schema`` (only ROW columns have fields)."""
    names: list[str] = []
    fields: Any = schema
    for index in path:
        try:
            f = fields.field(index)
        except (IndexError, pa.ArrowException) as exc:
            raise SourceError(f"projection path {list(path)} does not fit {schema}") from exc
        names.append(f.name)
        fields = f.type if pa.types.is_struct(f.type) else None
        if fields is None and len(names) < len(path):
            raise SourceError(f"projection path {list(path)} goes into non-ROW {f.name!r}")
    return names


def projected_columns(
    schema: pa.Schema, request: ScanRequest
) -> dict[str, pc.Expression] | list[str] | None:
    """What to hand ``dataset.scanner(columns=...)`` for ``request`` (None: every column)."""
    if request.projection is not None:
        out: dict[str, pc.Expression] = {}
        for path in request.projection:
            names = path_names(schema, path)
            label = ".".join(names)
            while label in out:
                label += "_"
            out[label] = pc.field(*names)
        return out
    if request.columns is not None:
        return list(request.columns)
    return None


def limited(batches: Iterator[pa.RecordBatch], limit: int | None) -> Iterator[pa.RecordBatch]:
    """The batches, cut after ``limit`` rows (all of them when ``limit`` is None)."""
    left = limit
    for batch in batches:
        if left is None:
            yield batch
            continue
        if left <= 0:
            return
        part = batch.slice(0, left) if batch.num_rows > left else batch
        left -= part.num_rows
        yield part


def scan_dataset(
    dataset: ds.Dataset,
    request: ScanRequest,
    metadata: Sequence[pa.Field] = (),
    metadata_values: MetadataFn | None = None,
    batch_size: int | None = None,
) -> pa.RecordBatchReader:
    """Reads ``dataset`` as ``request`` asks: filters applied exactly (Parquet row groups and
    files pruned by statistics), columns projected, limit honoured. ``metadata`` fields are
    appended; ``metadata_values(fragment)`` gives their values per fragment. ``batch_size``
    bounds the rows of a batch (pyarrow's default when None)."""
    columns = projected_columns(dataset.schema, request)
    flt = combined_filter(request.filters)
    sizing = {} if batch_size is None else {"batch_size": batch_size}
    scanner = dataset.scanner(columns=columns, filter=flt, **sizing)
    if not metadata:
        return pa.RecordBatchReader.from_batches(
            scanner.projected_schema, limited(iter(scanner.to_batches()), request.limit)
        )
    if metadata_values is None:
        raise ValueError("metadata fields need metadata_values")
    out_schema = pa.schema([*scanner.projected_schema, *metadata])

    def batches() -> Iterator[pa.RecordBatch]:
        import pyarrow.dataset as ds  # here: it imports pandas

        for fragment in dataset.get_fragments(filter=flt):
            values = metadata_values(fragment)
            part = ds.Scanner.from_fragment(
                fragment, schema=dataset.schema, columns=columns, filter=flt
            )
            for batch in part.to_batches():
                extra = [
                    pa.repeat(v.cast(f.type), batch.num_rows)
                    for v, f in zip(values, metadata, strict=True)
                ]
                yield pa.RecordBatch.from_arrays([*batch.columns, *extra], schema=out_schema)

    return pa.RecordBatchReader.from_batches(out_schema, limited(batches(), request.limit))


class ArrowTableSource(
    TableSource, SupportsFilterPushDown, SupportsProjectionPushDown, SupportsLimitPushDown
):
    """An in-memory source over a ``pyarrow.Table``; accepts every filter pyarrow can apply."""

    def __init__(self, table: pa.Table) -> None:
        import pyarrow.dataset as ds  # here: it imports pandas

        self.table = table
        self._dataset = ds.dataset(table)
        # One batch a chunk: pyarrow would cut a chunk into slices of 128 Ki rows, and a slice
        # must be copied before it crosses into the JVM (Arrow Java ignores array offsets).
        self._batch_size = max([1, *(len(b) for b in table.to_batches())])
        self._selected: dict[tuple[str | int, ...], pa.Table] = {}

    def schema(self) -> pa.Schema:
        return self.table.schema

    def supports_nested_filters(self) -> bool:
        return True

    def supports_nested_projection(self) -> bool:
        return True

    def apply_filters(self, filters: list[Expression]) -> FilterPushDownResult:
        return split_filters(filters, self.table.schema)

    def scan(self, request: ScanRequest) -> pa.RecordBatchReader:
        return scan_dataset(self._dataset, request, batch_size=self._batch_size)

    def table_scan(self, request: ScanRequest) -> pa.Table | None:
        """The scan as the table's own columns, picked without a copy, when the request asks
        for top-level columns only, without filters or a limit; else None. A backend of this
        process reads such a table's batches itself, where a stream hands each batch over
        through Python."""
        if request.filters or request.limit is not None or request.metadata_keys:
            return None
        names = _top_level(self.table.schema, request)
        if names is None or len(set(names)) != len(names):
            return None
        # The same object for the same columns, so that a backend can keep it registered.
        key: tuple[str | int, ...] = tuple(names)
        selected = self._selected.get(key)
        if selected is None:
            if len(self._selected) >= 16:
                self._selected.clear()
            selected = self._selected[key] = self.table.select(names)
        return selected


def _top_level(schema: pa.Schema, request: ScanRequest) -> list[str] | list[int] | None:
    """The columns ``request`` asks of ``schema`` when they are all top-level ones (names or
    indices), every column when it asks for none in particular; None when a path goes deeper."""
    if request.projection is not None:
        if any(len(path) != 1 for path in request.projection):
            return None
        return [path[0] for path in request.projection]
    if request.columns is not None:
        return list(request.columns)
    return list(range(len(schema)))
