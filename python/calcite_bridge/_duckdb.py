"""The ``duckdb`` execution backend: runs a query's DuckDB translation over its scans.

The JVM plans the query, pushes what the sources take into the scans, and writes the rest as
DuckDB SQL (``io.calcitebridge.translate``) that reads each scan as a relation ``scan_i``. Here
the scans, Arrow streams, are registered in a DuckDB connection of the environment's own and the
SQL runs. The result is cast to the schema the planner derived, so it has the same types as on
Calcite's engine. Every scan is released before the statement ends: DuckDB never holds a buffer
of the JVM after it.
"""

from __future__ import annotations

import threading
from typing import Any, TypeAlias

import pyarrow as pa

from .errors import Error, ExecutionError, from_stream_failure

_lock = threading.Lock()
_connection: Any = None


def available() -> bool:
    """Whether DuckDB can be imported here."""
    try:
        import duckdb  # noqa: F401
    except ImportError:
        return False
    return True


def _cursor() -> Any:
    """A cursor of the process's DuckDB connection (one in-memory database, no extensions)."""
    global _connection
    import duckdb

    with _lock:
        if _connection is None:
            _connection = duckdb.connect(
                ":memory:",
                config={"autoload_known_extensions": False, "autoinstall_known_extensions": False},
            )
        return _connection.cursor()


Scan: TypeAlias = "pa.Table | pa.RecordBatchReader"


def source_scan(source: Any, request: str, columns: list[str], schema: pa.Schema) -> Scan:
    """Opens a scan of a source of this process (its JVM proxy) with the planner's request: the
    stream columns ``columns`` become ``schema``'s columns, names and types."""
    opened = source._calls.open(request)

    def pick(data: pa.Table | pa.RecordBatch) -> list[Any]:
        out = []
        for name, field in zip(columns, schema, strict=True):
            column = data.column(name)
            out.append(column if column.type == field.type else column.cast(field.type))
        return out

    if isinstance(opened, pa.Table):
        table: pa.Table = pa.Table.from_arrays(pick(opened), schema=schema)
        return table

    def batches() -> Any:
        with opened:
            for batch in opened:
                yield pa.RecordBatch.from_arrays(pick(batch), schema=schema)

    reader: pa.RecordBatchReader = pa.RecordBatchReader.from_batches(schema, batches())
    return reader


def run(sql: str, scans: list[Scan], schema: pa.Schema, statement: str | None) -> pa.Table:
    """Runs ``sql`` over ``scans`` (``scan_0``, ``scan_1``, ...); the rows, cast to ``schema``."""
    import duckdb

    cursor = _cursor()
    try:
        for i, reader in enumerate(scans):
            cursor.register(f"scan_{i}", reader)
        try:
            relation = cursor.sql(sql)
            # DuckDB 2 names it to_arrow_table; 1.x, arrow.
            fetch = getattr(relation, "to_arrow_table", None) or relation.arrow
            table = fetch()
        except duckdb.Error as e:
            raise _error(e, statement) from None
        except RuntimeError as e:
            # DuckDB stops on SIGINT itself; Ctrl-C means the same here as on Calcite's engine.
            if "interrupted" in str(e).lower():
                raise KeyboardInterrupt from None
            raise
    finally:
        for i in range(len(scans)):
            try:
                cursor.unregister(f"scan_{i}")
            except duckdb.Error:
                pass
        for scan in scans:
            if isinstance(scan, pa.RecordBatchReader):
                scan.close()
        cursor.close()
    return _as(table, schema)


def _as(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """``table`` with ``schema``'s names and types (DuckDB's SUM is HUGEINT, say)."""
    if table.schema.equals(schema):
        return table
    columns = []
    for column, field in zip(table.columns, schema, strict=True):
        try:
            columns.append(column if column.type == field.type else column.cast(field.type))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
            # DuckDB computed a wider value than the column's type holds (a SUM past INT).
            raise ExecutionError(
                f"The query failed while it ran: the value of column {field.name!r} does not "
                f"fit its type {field.type}: {e}"
            ) from None
    return pa.Table.from_arrays(columns, schema=schema)


def _error(e: Exception, statement: str | None) -> Error:
    """A DuckDB failure as the error Calcite's engine raises for the same statement."""
    text = str(e)
    if "calcite-bridge-error:" in text:  # a scan failed: the JVM's own error
        return from_stream_failure(e, statement)
    message = text.split(": ", 1)[1] if ": " in text.split("\n", 1)[0] else text
    if "Division by zero" in message:
        message = "Division by zero"
    return ExecutionError(
        f"The query failed while it ran: {message.splitlines()[0]}", sql=statement
    )
