"""Result: the rows of one statement, as Arrow."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from .errors import ResultConsumedError, from_stream_failure

if TYPE_CHECKING:
    import pyarrow as pa


def _zoned(schema: pa.Schema, zone: Callable[[], str] | None) -> pa.Schema | None:
    """The schema with its TIMESTAMP_LTZ columns (Arrow timestamps in UTC) shown in the session
    time zone ``zone()``, as Flink shows them; None when nothing changes."""
    import pyarrow as pa

    if zone is None or not any(
        pa.types.is_timestamp(f.type) and f.type.tz == "UTC" for f in schema
    ):
        return None
    tz = zone()
    if tz == "UTC":
        return None
    return pa.schema(
        [
            f.with_type(pa.timestamp(f.type.unit, tz))
            if pa.types.is_timestamp(f.type) and f.type.tz == "UTC"
            else f
            for f in schema
        ],
        metadata=schema.metadata,
    )


def _checked(
    reader: pa.RecordBatchReader, sql: str | None, zone: Callable[[], str] | None = None
) -> pa.RecordBatchReader:
    """``reader`` with the failures of the JVM side raised as typed errors rather than OSError,
    and its instants in the session time zone (:func:`_zoned`)."""
    import pyarrow as pa

    zoned = _zoned(reader.schema, zone)

    def batches() -> Iterator[pa.RecordBatch]:
        with reader:
            while True:
                try:
                    batch = reader.read_next_batch()
                except StopIteration:
                    return
                except (pa.ArrowException, OSError) as e:
                    raise from_stream_failure(e, sql) from None
                if zoned is not None:
                    # The same values, only the zone they are shown in changes.
                    batch = pa.RecordBatch.from_arrays(
                        [c.cast(f.type) for c, f in zip(batch.columns, zoned, strict=True)],
                        schema=zoned,
                    )
                yield batch

    return pa.RecordBatchReader.from_batches(zoned or reader.schema, batches())


# Statements whose result is one row holding how many rows they changed.
_COUNTED = frozenset({"insert", "update", "delete"})


class Result:
    """The rows of one statement.

    The rows stream from the JVM once. ``to_arrow_reader()`` hands that stream out as it is,
    and the ``fetch`` methods read it as a cursor does, a batch at a time; every other accessor
    (``to_arrow_table()``, ``to_pylist()``, ``to_pandas()``, ``to_polars()``, ``len()`` and the
    Arrow PyCapsule stream that ``pa.table(res)``, ``pl.DataFrame(res)`` and ``duckdb.sql("FROM
    res")`` read) reads it fully once and keeps the table, so each can be called again. Once the
    stream was handed out, or a ``fetch`` call began reading it, those raise
    :class:`ResultConsumedError`.
    """

    #: How many rows ``fetchmany()`` returns when no size is given (PEP 249).
    arraysize: int = 1

    def __init__(
        self,
        reader: pa.RecordBatchReader,
        kind: str = "query",
        sql: str | None = None,
        zone: Callable[[], str] | None = None,
    ) -> None:
        self._reader: pa.RecordBatchReader | None = _checked(reader, sql, zone)
        self._schema = self._reader.schema
        self._table: pa.Table | None = None
        self._consumed_by: str | None = None
        self._cursor: Iterator[tuple[Any, ...]] | None = None
        self.kind = kind

    @property
    def schema(self) -> pa.Schema:
        """The Arrow schema of the rows."""
        return self._schema

    @property
    def columns(self) -> list[str]:
        """The column names, in order."""
        return list(self._schema.names)

    def _take_reader(self, by: str) -> pa.RecordBatchReader:
        reader = self._reader
        if reader is None:
            raise ResultConsumedError(
                f"the rows of this result were already read by {self._consumed_by}; "
                "call to_arrow_table() first to read them more than once"
            )
        self._reader = None
        self._consumed_by = by
        return reader

    def to_arrow_reader(self) -> pa.RecordBatchReader:
        """The rows as a stream of record batches (no copy). The stream can be read once."""
        if self._table is not None:
            import pyarrow as pa

            return pa.RecordBatchReader.from_batches(self._schema, self._table.to_batches())
        return self._take_reader("to_arrow_reader()")

    def to_arrow_table(self) -> pa.Table:
        """The rows as one ``pyarrow.Table`` (no copy), kept for the next call."""
        if self._table is None:
            self._table = self._take_reader("to_arrow_table()").read_all()
        return self._table

    def to_pandas(self, **kwargs: Any) -> Any:
        """The rows as a ``pandas.DataFrame`` (``pyarrow.Table.to_pandas(**kwargs)``)."""
        return self.to_arrow_table().to_pandas(**kwargs)

    def to_polars(self) -> Any:
        """The rows as a ``polars.DataFrame``."""
        import polars as pl

        return pl.from_arrow(self.to_arrow_table())

    def _rows(self) -> Iterator[tuple[Any, ...]]:
        """The cursor: the rows not fetched yet, converted a batch at a time."""
        if self._cursor is None:
            if self._table is not None:
                batches: Any = self._table.to_batches()
            else:
                batches = self._take_reader("a fetch call")
            self._cursor = _tuples(batches)
        return self._cursor

    def fetchone(self) -> tuple[Any, ...] | None:
        """The next row as a tuple, or None when every row was fetched."""
        return next(self._rows(), None)

    def fetchmany(self, size: int | None = None) -> list[tuple[Any, ...]]:
        """The next ``size`` rows (``arraysize`` by default) as tuples; fewer at the end."""
        n = self.arraysize if size is None else size
        return list(itertools.islice(self._rows(), max(n, 0)))

    def fetchall(self) -> list[tuple[Any, ...]]:
        """The rows not fetched yet, as tuples (every row on a fresh result)."""
        return list(self._rows())

    def to_pylist(self) -> list[dict[str, Any]]:
        """The rows as dicts keyed by column name."""
        rows: list[dict[str, Any]] = self.to_arrow_table().to_pylist()
        return rows

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        return self.to_arrow_table().__arrow_c_stream__(requested_schema)

    def __len__(self) -> int:
        return int(self.to_arrow_table().num_rows)

    def __repr__(self) -> str:
        if self.kind in _COUNTED and self._consumed_by is None and len(self._schema) == 1:
            # An INSERT, UPDATE or DELETE has run: its one row, the count, is what it says.
            (count,) = self.to_arrow_table().to_pylist() or [{self.columns[0]: 0}]
            name, value = next(iter(count.items()))
            return f"<Result {self.kind} {name}={value}>"
        if self._table is None:
            return f"<Result {self.kind} columns={self.columns}>"
        return f"<Result {self.kind} rows={self._table.num_rows} columns={self.columns}>"


def _tuples(batches: Any) -> Iterator[tuple[Any, ...]]:
    for batch in batches:
        columns = [c.to_pylist() for c in batch.columns]
        if columns:
            yield from zip(*columns, strict=True)
        else:
            yield from itertools.repeat((), batch.num_rows)
