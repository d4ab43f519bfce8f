"""The JVM's view of Python sources in this process: JPype proxies of the Java interface
``PythonSource`` (``ConnectorFactory``'s is in ``_factory``). Arrow data crosses as C structs,
without copies; the calls themselves are in ``_calls``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pyarrow as pa
from jpype import JImplements, JOverride

from .. import _cdata as cdata
from ._calls import SourceCalls, load_source_class

__all__ = ["SourceProxy", "load_source_class", "zero_offsets"]


def _has_offset(array: pa.Array) -> bool:
    """Whether ``array``, or an array nested in it, starts at an offset into its buffers."""
    if array.offset:
        return True
    kind = array.type
    if pa.types.is_struct(kind):
        return any(_has_offset(array.field(i)) for i in range(kind.num_fields))
    if (
        pa.types.is_list(kind)
        or pa.types.is_large_list(kind)
        or pa.types.is_fixed_size_list(kind)
        or pa.types.is_map(kind)
    ):
        return _has_offset(array.values)
    if pa.types.is_dictionary(kind):
        return _has_offset(array.indices) or _has_offset(array.dictionary)
    return False


def zero_offsets(reader: pa.RecordBatchReader) -> pa.RecordBatchReader:
    """``reader``, with every batch that holds a sliced array copied into fresh arrays.

    Arrow Java's C Data import ignores an array's offset, so a slice (``table.slice``, or the
    batches of ``to_batches(max_chunksize=...)``) would read from the start of its buffers.
    Batches without offsets, the usual case, pass through untouched.
    """

    def batches() -> Iterator[pa.RecordBatch]:
        for batch in reader:
            if any(_has_offset(column) for column in batch.columns):
                # A copy of each sliced column only, buffer by buffer (concat of one array).
                columns = [pa.concat_arrays([c]) if _has_offset(c) else c for c in batch.columns]
                yield pa.RecordBatch.from_arrays(columns, schema=batch.schema)
            else:
                yield batch

    return pa.RecordBatchReader.from_batches(reader.schema, batches())


class _Dropped:
    """What a released :class:`SourceProxy` calls instead of its source."""

    def __init__(self, name: str) -> None:
        self.name = name

    def _gone(self, *_: Any) -> Any:
        from ..errors import CatalogError

        raise CatalogError(f"Table '{self.name}' was replaced or dropped")

    schema = scan = _gone


@JImplements("io.calcitebridge.connector.PythonSource", deferred=True)
class SourceProxy:
    """Adapts a Python source object (``schema()``, ``scan(request)``, abilities) to the JVM."""

    def __init__(self, name: str, source: Any, gate: Callable[[], None] | None = None) -> None:
        self._calls = SourceCalls(name, source, gate)
        self.source = source

    def release(self) -> None:
        """Lets go of the source once its table no longer names it (replaced, dropped, its
        environment closed). The JVM lets go of this proxy only when its collector next runs,
        which may be long after; the source's data is freed now. A call that still reaches the
        proxy fails as a call on a dropped table."""
        self.source = None
        self._calls = SourceCalls(self._calls.name, _Dropped(self._calls.name))

    @JOverride
    def name(self) -> str:
        return self._calls.name

    @JOverride
    def exportSchema(self, address: int) -> str | None:
        schema = self._calls.schema()
        if isinstance(schema, str):
            return schema
        schema._export_to_c(int(address))
        return None

    @JOverride
    def supportsFilterPushDown(self) -> bool:
        return self._calls.supports_filter_push_down()

    @JOverride
    def supportsNestedFilters(self) -> bool:
        return self._calls.supports_nested_filters()

    @JOverride
    def applyFilters(self, filters_json: Any) -> str:
        return self._calls.apply_filters(str(filters_json))

    @JOverride
    def scan(self, request_json: Any, out: Any) -> str | None:
        # The struct comes as a Java object, not its address: JPype 1.7.1 leaks the Python int
        # of every Java long it passes to Python (jpype-project/jpype#1379).
        def export(reader: pa.RecordBatchReader) -> None:
            zero_offsets(reader)._export_to_c(int(out.memoryAddress()))

        answer: str | None = self._calls.scan(str(request_json), export)
        return answer

    @JOverride
    def readsInPlace(self) -> bool:
        return self._calls.reads_in_place()

    @JOverride
    def answersByShape(self) -> bool:
        return self._calls.answers_by_shape()

    @JOverride
    def readableMetadata(self) -> str:
        return self._calls.readable_metadata()

    @JOverride
    def supportsNestedProjection(self) -> bool:
        return self._calls.supports_nested_projection()

    @JOverride
    def supportsAggregatePushDown(self) -> bool:
        return self._calls.supports_aggregate_pushdown()

    @JOverride
    def supportsDynamicColumns(self) -> bool:
        return self._calls.supports_dynamic_columns()

    @JOverride
    def discoverColumn(self, name: Any) -> str | None:
        return self._calls.discover_column(str(name))

    @JOverride
    def supportsWriting(self) -> bool:
        return self._calls.supports_writing()

    @JOverride
    def write(self, address: int, metadata_keys_json: Any) -> str | None:
        def rows() -> pa.Table:
            return cdata.reader(int(address)).read_all()

        return self._calls.write(rows, str(metadata_keys_json))

    @JOverride
    def supportsRowLevelUpdate(self) -> bool:
        return self._calls.supports_row_level_update()

    @JOverride
    def supportsRowLevelDelete(self) -> bool:
        return self._calls.supports_row_level_delete()

    @JOverride
    def supportsOverwrite(self) -> bool:
        return self._calls.supports_overwrite()

    @JOverride
    def overwrite(self, address: int, metadata_keys_json: Any) -> str | None:
        def rows() -> pa.Table:
            return cdata.reader(int(address)).read_all()

        return self._calls.overwrite(rows, str(metadata_keys_json))
