"""Result: the rows of one statement, as Arrow."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pyarrow as pa

from .errors import from_stream_failure


def _checked(reader: pa.RecordBatchReader, sql: str | None) -> pa.RecordBatchReader:
    """``reader`` with the failures of the JVM side raised as typed errors rather than OSError."""

    def batches() -> Iterator[pa.RecordBatch]:
        with reader:
            while True:
                try:
                    batch = reader.read_next_batch()
                except StopIteration:
                    return
                except (pa.ArrowException, OSError) as e:
                    raise from_stream_failure(e, sql) from None
                yield batch

    return pa.RecordBatchReader.from_batches(reader.schema, batches())


class Result:
    """The rows of one statement.

    The rows stream from the JVM once. ``to_arrow_reader()`` hands that stream out as it is;
    every other accessor reads it fully first and keeps the table, so it can be called again.
    """

    def __init__(
        self, reader: pa.RecordBatchReader, kind: str = "query", sql: str | None = None
    ) -> None:
        self._reader: pa.RecordBatchReader | None = _checked(reader, sql)
        self._schema = reader.schema
        self._table: pa.Table | None = None
        self.kind = kind

    @property
    def schema(self) -> pa.Schema:
        """The Arrow schema of the rows."""
        return self._schema

    @property
    def columns(self) -> list[str]:
        """The column names, in order."""
        return list(self._schema.names)

    def to_arrow_reader(self) -> pa.RecordBatchReader:
        """The rows as a stream of record batches (no copy)."""
        if self._table is not None:
            return pa.RecordBatchReader.from_batches(self._schema, self._table.to_batches())
        reader = self._reader
        if reader is None:
            raise RuntimeError("the rows of this result were already consumed")
        self._reader = None
        return reader

    def to_arrow_table(self) -> pa.Table:
        """The rows as one ``pyarrow.Table``."""
        if self._table is None:
            self._table = self.to_arrow_reader().read_all()
            self._reader = None
        return self._table

    def fetchall(self) -> list[tuple[Any, ...]]:
        """The rows as tuples."""
        table = self.to_arrow_table()
        cols = [c.to_pylist() for c in table.columns]
        return list(zip(*cols, strict=True)) if cols else []

    def fetchone(self) -> tuple[Any, ...] | None:
        """The first row, or None."""
        rows = self.fetchall()
        return rows[0] if rows else None

    def to_pylist(self) -> list[dict[str, Any]]:
        """The rows as dicts keyed by column name."""
        rows: list[dict[str, Any]] = self.to_arrow_table().to_pylist()
        return rows

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        return self.to_arrow_reader().__arrow_c_stream__(requested_schema)

    def __len__(self) -> int:
        return int(self.to_arrow_table().num_rows)

    def __repr__(self) -> str:
        if self._table is None:
            return f"<Result {self.kind} columns={self.columns}>"
        return f"<Result {self.kind} rows={self._table.num_rows} columns={self.columns}>"
