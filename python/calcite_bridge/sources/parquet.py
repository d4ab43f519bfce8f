"""Parquet scans of the ``filesystem`` connector, reading as little as the statistics allow.

Each file's footer comes from :mod:`calcite_bridge.sources.parquet_footers`, read once and
cached while the file is unchanged. A scan then

- classifies every row group from the statistics (see :mod:`pruning`): skipped when no row can
  pass the filters, read without evaluating them when every row passes, otherwise read and
  filtered;
- reads only the Parquet leaf columns the result needs (``user.name`` alone, not the whole
  ``user`` column), plus, for row groups that must be filtered, the leaves the filters read;
- answers a request for no columns at all (``COUNT(*)``) from the row counts in the footer
  for the row groups where every row passes, without reading them.

The scan takes this path only when every file has the columns it needs with the table's own
types; otherwise :func:`scan_parquet` returns None and the caller reads through
``pyarrow.dataset``, which fills missing columns and casts.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from calcite_bridge.errors import SourceError
from calcite_bridge.expressions import Expression, FieldReference
from calcite_bridge.expressions import NestedFieldReference as Nested
from calcite_bridge.sources.arrow import combined_filter, limited, path_names
from calcite_bridge.sources.base import ScanRequest
from calcite_bridge.sources.parquet_footers import ParquetFooter, footer
from calcite_bridge.sources.pruning import RowGroupClass, RowGroupFilters

__all__ = ["list_files", "scan_parquet"]

# Row groups read together: up to this many uncompressed bytes of the columns read, and at
# least the smaller amount unless the scan is smaller.
_READ_BYTES = 64 << 20
_MIN_READ_BYTES = 4 << 20
_THREADED_READ_BYTES = 1 << 20
_READS_PER_WORKER = 2  # reads a scan is cut into, per worker, so none waits long at the end
_WORKERS = max(2, min(8, os.cpu_count() or 2))
_MAX_BATCH_ROWS = 1 << 30

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def list_files(root: str, ignore_prefixes: Sequence[str]) -> list[str] | None:
    """The files under ``root`` as ``pyarrow.dataset`` discovers them: recursively, sorted,
    skipping files and directories whose name starts with one of ``ignore_prefixes``.
    ``[root]`` for a file, None when nothing is there."""
    if os.path.isfile(root):
        return [root]
    if not os.path.isdir(root):
        return None
    out: list[str] = []
    pending = [root]
    while pending:
        directory = pending.pop()
        with os.scandir(directory) as entries:
            for entry in entries:
                if entry.name.startswith(tuple(ignore_prefixes)):
                    continue
                if entry.is_dir():
                    pending.append(entry.path)
                elif entry.is_file():
                    out.append(entry.path)
    return sorted(out)


def _same_type(actual: pa.DataType, expected: pa.DataType) -> bool:
    """Equal types, ignoring whether nested fields are declared nullable."""
    if actual.equals(expected):
        return True
    if pa.types.is_struct(actual) and pa.types.is_struct(expected):
        if actual.num_fields != expected.num_fields:
            return False
        return all(
            actual.field(i).name == expected.field(i).name
            and _same_type(actual.field(i).type, expected.field(i).type)
            for i in range(actual.num_fields)
        )
    return False


def _filter_names(filters: Sequence[Expression]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for f in filters:
        for node in f.walk():
            if isinstance(node, FieldReference):
                names: tuple[str, ...] = (node.name,)
            elif isinstance(node, Nested):
                names = tuple(node.field_names)
            else:
                continue
            if names not in out:
                out.append(names)
    return out


def _output(
    schema: pa.Schema, request: ScanRequest
) -> tuple[list[tuple[str, ...]], list[pa.Field]]:
    """The field path and the output field of each column the request asks for."""
    paths: list[tuple[str, ...]] = []
    fields: list[pa.Field] = []
    if request.projection is not None:
        labels: set[str] = set()
        for index_path in request.projection:
            names = tuple(path_names(schema, index_path))
            label = ".".join(names)
            while label in labels:
                label += "_"
            labels.add(label)
            paths.append(names)
            if len(names) == 1:
                fields.append(schema.field(names[0]))
            else:
                fields.append(pa.field(label, _type_at(schema, names)))
        return paths, fields
    names_list = list(request.columns) if request.columns is not None else schema.names
    for name in names_list:
        if schema.get_field_index(name) < 0:
            raise SourceError(f"no column {name!r} in {schema}")
        paths.append((name,))
        fields.append(schema.field(name))
    return paths, fields


def _type_at(schema: pa.Schema, names: Sequence[str]) -> pa.DataType:
    t: Any = schema.field(names[0]).type
    for name in names[1:]:
        t = t.field(name).type
    return t


def _fits(schema: pa.Schema, found: ParquetFooter, tops: set[str]) -> bool:
    """Whether the file has every column in ``tops`` once, with the table's type."""
    for name in tops:
        if schema.get_field_index(name) < 0:
            return False
        if found.schema.get_all_field_indices(name) != [found.schema.get_field_index(name)]:
            return False
        i = found.schema.get_field_index(name)
        if i < 0 or not _same_type(found.schema.field(i).type, schema.field(name).type):
            return False
    return True


def _column(table: pa.Table, names: Sequence[str]) -> pa.ChunkedArray:
    """The field at ``names`` of a table read from Parquet; a NULL ROW makes its fields NULL."""
    col = table.column(names[0])
    for name in names[1:]:
        col = pc.struct_field(col, [col.type.get_field_index(name)])
    return col


def _empty_batch(rows: int) -> pa.RecordBatch:
    """A batch of ``rows`` rows and no columns."""
    return pa.RecordBatch.from_arrays([pa.nulls(rows)], names=["_"]).select([])


def _runs(
    found: ParquetFooter, classes: Sequence[RowGroupClass], leaves: Sequence[int], budget: int
) -> Iterator[tuple[RowGroupClass, list[int]]]:
    """Consecutive row groups of one class, split so each run reads at most ``budget`` bytes."""
    run: list[int] = []
    kind = RowGroupClass.SKIP
    size = 0
    for i, c in enumerate(classes):
        if c is RowGroupClass.SKIP:
            continue
        rg_bytes = found.uncompressed_bytes(i, leaves) if leaves else 0
        if run and (c is not kind or size + rg_bytes > budget or run[-1] != i - 1):
            yield kind, run
            run, size = [], 0
        run.append(i)
        kind = c
        size += rg_bytes
    if run:
        yield kind, run


def _workers() -> ThreadPoolExecutor:
    """The threads that decode row groups ahead of the reader; Arrow releases the GIL there."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(
                max_workers=_WORKERS, thread_name_prefix="calcite-bridge-parquet"
            )
        return _pool


class _Read:
    """One read: consecutive row groups of one file and one class, filtered when needed."""

    def __init__(
        self, found: ParquetFooter, kind: RowGroupClass, row_groups: list[int], leaves: list[int]
    ) -> None:
        self.found = found
        self.kind = kind
        self.row_groups = row_groups
        self.leaves = leaves

    def bytes(self) -> int:
        """Uncompressed bytes of the leaves this read decodes."""
        return sum(self.found.uncompressed_bytes(i, self.leaves) for i in self.row_groups)

    def decodes(self, has_columns: bool) -> bool:
        """Whether this read decodes data (not a count taken from the footer)."""
        return has_columns or self.kind is not RowGroupClass.ALL


def scan_parquet(
    root: str,
    schema: pa.Schema,
    request: ScanRequest,
    ignore_prefixes: Sequence[str],
    metadata: Sequence[pa.Field] = (),
    metadata_values: Callable[[str], Sequence[pa.Scalar]] | None = None,
    files: Sequence[str] | None = None,
) -> pa.RecordBatchReader | None:
    """Reads the Parquet files at ``root`` as ``request`` asks, or None when a file does not
    have the columns the request needs with the table's types (the caller then reads through
    ``pyarrow.dataset``).

    Row groups are read in order, up to ``_WORKERS`` reads ahead of the consumer on a small
    thread pool, so that decoding uses every core (one ROW column's strings would keep
    pyarrow's own column-parallel read on one core) and overlaps with the consumer. A scan
    with a LIMIT reads one row group at a time, none ahead. ``files``, when given, are the
    files to read (those of a partitioned table's partitions), else every file under ``root``.
    """
    files = list(files) if files is not None else list_files(root, ignore_prefixes)
    if not files:
        return None
    scan = _Scan(schema, request, metadata)
    footers = [footer(f) for f in files]
    if not all(_fits(schema, found, scan.tops) for found in footers):
        return None
    if metadata:
        if metadata_values is None:
            raise ValueError("metadata fields need metadata_values")
        for found in footers:
            given = metadata_values(found.path)
            scan.extras[found.path] = [v.cast(f.type) for v, f in zip(given, metadata, strict=True)]
    reads = [r for found in footers for r in scan.reads(found)]
    if request.limit is None:
        reads = _merged(reads, _read_budget(reads))
    return pa.RecordBatchReader.from_batches(
        scan.out_schema, limited(scan.batches(reads), request.limit)
    )


class _Scan:
    """One scan's columns, filter and metadata values, and how it reads a run of row groups."""

    def __init__(
        self, schema: pa.Schema, request: ScanRequest, metadata: Sequence[pa.Field]
    ) -> None:
        self.request = request
        self.out_paths, self.out_fields = _output(schema, request)
        self.filter_names = _filter_names(request.filters)
        self.tops = {p[0] for p in self.out_paths} | {p[0] for p in self.filter_names}
        self.out_schema = pa.schema([*self.out_fields, *metadata])
        self.data_schema = pa.schema(self.out_fields)
        self.expr = combined_filter(request.filters)
        self.judged = RowGroupFilters(request.filters)
        self.extras: dict[str, list[pa.Scalar]] = {}

    def reads(self, found: ParquetFooter) -> list[_Read]:
        """The reads of one file: a row group each, skipped ones left out."""
        out_leaves = sorted({i for p in self.out_paths for i in found.leaves(p)})
        filter_leaves = {i for p in self.filter_names for i in found.leaves(p)}
        both = sorted(set(out_leaves) | filter_leaves)
        classes = found.classes(self.judged)
        return [
            _Read(found, kind, run, out_leaves if kind is RowGroupClass.ALL else both)
            for kind, run in _runs(found, classes, both, 0)
        ]

    def run(self, read: _Read, alone: bool = True) -> list[pa.RecordBatch]:
        """The batches of one read; ``alone`` when no other read runs beside it."""
        found, extra = read.found, self.extras.get(read.found.path, [])
        if read.kind is RowGroupClass.ALL and not self.out_paths:
            rows = sum(found.row_counts[i] for i in read.row_groups)
            out = []
            while rows > 0:
                n = min(rows, _MAX_BATCH_ROWS)
                out.append(_assemble([], n, extra, self.out_schema))
                rows -= n
            return out
        # Arrow's column-parallel read helps a large read that runs alone; beside other reads
        # the cores are busy already and its hand-offs only cost.
        threads = alone and len(read.leaves) > 1 and read.bytes() >= _THREADED_READ_BYTES
        try:
            table = found.open().reader.read_row_groups(
                read.row_groups, column_indices=read.leaves, use_threads=threads
            )
            if read.kind is RowGroupClass.SOME and self.expr is not None:
                table = _filtered(table, self.expr)
        except (pa.ArrowException, OSError) as exc:
            raise SourceError(f"cannot read the Parquet file {found.path}: {exc}") from exc
        if table.num_rows == 0:
            return []
        if not self.out_paths:
            return [_assemble([], table.num_rows, extra, self.out_schema)]
        columns = [
            _conform(_column(table, p), f.type)
            for p, f in zip(self.out_paths, self.out_fields, strict=True)
        ]
        data = pa.Table.from_arrays(columns, schema=self.data_schema)
        return [_assemble(b.columns, b.num_rows, extra, self.out_schema) for b in data.to_batches()]

    def batches(self, reads: Sequence[_Read]) -> Iterator[pa.RecordBatch]:
        """Every read's batches in order. Without a LIMIT, and with more than one read that
        decodes data, later reads run ahead on the worker threads; counts from the footer and
        a lone read run here, sparing the hand-off."""
        decoding = [r for r in reads if r.decodes(bool(self.out_paths))]
        if self.request.limit is not None or len(decoding) <= 1:
            for read in reads:
                yield from self.run(read)
            return
        pool = _workers()
        ahead: deque[tuple[_Read, Future[list[pa.RecordBatch]] | None]] = deque()
        pending = iter(reads)
        running = 0
        try:
            while True:
                for read in pending:
                    decodes = read.decodes(bool(self.out_paths))
                    future = pool.submit(self.run, read, False) if decodes else None
                    ahead.append((read, future))
                    running += decodes
                    if running >= _WORKERS:
                        break
                if not ahead:
                    return
                read, future = ahead.popleft()
                if future is None:
                    yield from self.run(read)
                else:
                    running -= 1
                    yield from future.result()
        finally:
            for _, f in ahead:
                if f is not None:
                    f.cancel()


def _read_budget(reads: Sequence[_Read]) -> int:
    """Bytes a read may decode: enough reads to keep the workers busy, none too large."""
    total = sum(r.found.uncompressed_bytes(i, r.leaves) for r in reads for i in r.row_groups)
    return max(_MIN_READ_BYTES, min(_READ_BYTES, total // (_READS_PER_WORKER * _WORKERS)))


def _merged(reads: Sequence[_Read], budget: int) -> list[_Read]:
    """Single-row-group reads joined into reads of consecutive row groups, up to ``budget``."""
    out: list[_Read] = []
    size = 0
    for r in reads:
        rg_bytes = sum(r.found.uncompressed_bytes(i, r.leaves) for i in r.row_groups)
        last = out[-1] if out else None
        if (
            last is not None
            and last.found is r.found
            and last.kind is r.kind
            and last.row_groups[-1] + 1 == r.row_groups[0]
            and size + rg_bytes <= budget
        ):
            last.row_groups = last.row_groups + r.row_groups
            size += rg_bytes
            continue
        out.append(_Read(r.found, r.kind, list(r.row_groups), r.leaves))
        size = rg_bytes
    return out


def _filtered(table: pa.Table, expr: pc.Expression) -> pa.Table:
    """The rows of ``table`` where ``expr`` is TRUE, in order, on the calling thread (reads run
    in parallel already; Arrow's threads would only add hand-offs)."""
    from pyarrow import acero  # here: it imports pyarrow.dataset, and that pandas

    plan = acero.Declaration.from_sequence(
        [
            acero.Declaration("table_source", acero.TableSourceNodeOptions(table)),
            acero.Declaration("filter", acero.FilterNodeOptions(expr)),
        ]
    )
    return plan.to_table(use_threads=False)


def _conform(column: pa.ChunkedArray, expected: pa.DataType) -> pa.ChunkedArray:
    return column if column.type.equals(expected) else column.cast(expected)


def _assemble(
    columns: Sequence[pa.Array], rows: int, extra: Sequence[pa.Scalar], schema: pa.Schema
) -> pa.RecordBatch:
    if not schema:
        return _empty_batch(rows)
    values = [*columns, *(pa.repeat(v, rows) for v in extra)]
    return pa.RecordBatch.from_arrays(values, schema=schema)
