"""A PEP 249 (DB-API 2.0) module over calcite-bridge environments.

::

    import calcite_bridge.dbapi as dbapi

    with dbapi.connect() as con:                  # cb.connect's arguments, or an Environment
        cur = con.cursor()
        cur.execute("CREATE TABLE t (a INT, s STRING) WITH ('connector' = 'memory')")
        cur.executemany("INSERT INTO t VALUES (?, ?)", [(1, "x"), (2, "y")])
        cur.execute("SELECT a, s FROM t WHERE a > ?", (1,))
        cur.fetchall()                            # [(2, 'y')]

Parameters are ``qmark`` (``?``), positional, bound as typed literals (``Environment.sql``).
There are no transactions: every statement takes effect as it runs, ``commit()`` does nothing
and ``rollback()`` raises ``NotSupportedError``. Each failure is one of this module's
exceptions that is also the ``calcite_bridge`` error it came from (a ``ProgrammingError`` that
is a ``cb.SqlValidationError``, with its ``line`` and ``column``). Cursors add the Arrow
methods DuckDB and ADBC offer: ``fetch_arrow_table()`` and ``fetch_record_batch()``.
"""

from __future__ import annotations

import datetime as _dt
import time as _time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NoReturn

import pyarrow as pa

from . import errors as _errors
from .environment import Environment
from .environment import connect as _connect

__all__ = [
    "BINARY",
    "DATETIME",
    "NUMBER",
    "ROWID",
    "STRING",
    "Binary",
    "Connection",
    "Cursor",
    "DataError",
    "DatabaseError",
    "Date",
    "DateFromTicks",
    "Error",
    "IntegrityError",
    "InterfaceError",
    "InternalError",
    "NotSupportedError",
    "OperationalError",
    "ProgrammingError",
    "Time",
    "TimeFromTicks",
    "Timestamp",
    "TimestampFromTicks",
    "Warning",
    "apilevel",
    "connect",
    "paramstyle",
    "threadsafety",
]

apilevel = "2.0"
#: Threads may share the module and connections (an environment runs statements from several
#: threads at once), not cursors.
threadsafety = 2
paramstyle = "qmark"


class Warning(Exception):
    """Important warnings (none are raised today)."""


class Error(Exception):
    """Base class of this module's errors."""


class InterfaceError(Error):
    """A misuse of the module itself: a closed cursor or connection, a cursor without rows."""


class DatabaseError(Error):
    """An error of the database."""


class DataError(DatabaseError):
    """A value that failed while the statement ran: a division by zero, a failing CAST."""


class OperationalError(DatabaseError):
    """The statement could not run to its end: a timeout, memory, cancellation, the gateway."""


class IntegrityError(DatabaseError):
    """Relational integrity (never raised: constraints are not enforced)."""


class InternalError(DatabaseError):
    """An internal error of calcite-bridge (``cb.Error`` itself)."""


class ProgrammingError(DatabaseError):
    """The SQL does not parse or validate, names a missing table, has the wrong number of
    parameters, or the cursor or connection is closed."""


class NotSupportedError(DatabaseError):
    """A construct or method calcite-bridge does not support (``rollback``, say)."""


_KINDS: list[tuple[type[_errors.Error], type[Error]]] = [
    (_errors.UnsupportedError, NotSupportedError),
    (_errors.SqlParseError, ProgrammingError),
    (_errors.SqlValidationError, ProgrammingError),
    (_errors.CatalogError, ProgrammingError),
    (_errors.ConfigError, ProgrammingError),
    (_errors.AccessDeniedError, ProgrammingError),
    (_errors.ResultConsumedError, InterfaceError),
    (_errors.ResourceError, OperationalError),
    (_errors.TimeoutError, OperationalError),
    (_errors.QueryCancelledError, OperationalError),
    (_errors.GatewayError, OperationalError),
    (_errors.JvmStartupError, OperationalError),
    (_errors.ExecutionError, DataError),
]
_COMBINED: dict[type[_errors.Error], type[Error]] = {}


def _kind_of(error: _errors.Error) -> type[Error]:
    for cb_kind, kind in _KINDS:
        if isinstance(error, cb_kind):
            return kind
    return InternalError


def _translated(error: _errors.Error) -> Error:
    """``error`` as an instance of this module's class for it that is also its own class."""
    cls = type(error)
    combined = _COMBINED.get(cls)
    if combined is None:
        combined = type(cls.__name__, (_kind_of(error), cls), {"__module__": __name__})
        _COMBINED[cls] = combined
    new = combined.__new__(combined)
    new.args = error.args
    new.__dict__.update(error.__dict__)
    return new


class _Translating:
    """Raises this module's errors for calcite-bridge's."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, error: Any, tb: Any) -> None:
        if isinstance(error, _errors.Error) and not isinstance(error, Error):
            raise _translated(error).with_traceback(tb) from None


_translating = _Translating()


class Connection:
    """A connection: an ``Environment`` (its own catalog and settings) and its cursors."""

    Warning = Warning
    Error = Error
    InterfaceError = InterfaceError
    DatabaseError = DatabaseError
    DataError = DataError
    OperationalError = OperationalError
    IntegrityError = IntegrityError
    InternalError = InternalError
    ProgrammingError = ProgrammingError
    NotSupportedError = NotSupportedError

    def __init__(self, environment: Environment, *, owned: bool = True) -> None:
        self._env: Environment | None = environment
        self._owned = owned

    @property
    def environment(self) -> Environment:
        """The environment the statements run in."""
        return self._open()

    @property
    def closed(self) -> bool:
        return self._env is None

    def _open(self) -> Environment:
        if self._env is None:
            raise ProgrammingError("The connection is closed")
        return self._env

    def cursor(self) -> Cursor:
        """A new cursor on this connection."""
        return Cursor(self, self._open())

    def commit(self) -> None:
        """Does nothing: there are no transactions, every statement takes effect as it runs."""
        self._open()

    def rollback(self) -> NoReturn:
        """Raises ``NotSupportedError``: there are no transactions to roll back."""
        self._open()
        raise NotSupportedError(
            "calcite-bridge has no transactions: every statement takes effect as it runs,"
            " so there is nothing to roll back"
        )

    def close(self) -> None:
        """Closes the connection (and its environment, when ``connect`` made it); a second
        close raises ``ProgrammingError``."""
        env = self._open()
        self._env = None
        if self._owned:
            with _translating:
                env.close()

    def execute(self, operation: str, parameters: Sequence[Any] | None = None) -> Cursor:
        """A new cursor that ran ``operation`` (as sqlite3's and DuckDB's connections do)."""
        return self.cursor().execute(operation, parameters)

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._env is not None:
            self.close()


def connect(*args: Any, **kwargs: Any) -> Connection:
    """A connection to a new environment made by ``calcite_bridge.connect(*args, **kwargs)``
    (``config``, ``backend``, ``gateway``, ...), or, given an ``Environment`` (positionally or
    as ``environment=``), a connection over it, which ``close()`` leaves open."""
    env = kwargs.pop("environment", None)
    if env is None and args and isinstance(args[0], Environment):
        env, args = args[0], args[1:]
    if env is not None:
        if args or kwargs:
            raise InterfaceError("connect(environment) takes no other argument")
        return Connection(env, owned=False)
    with _translating:
        return Connection(_connect(*args, **kwargs))


class Cursor:
    """Runs statements and fetches their rows."""

    def __init__(self, connection: Connection, environment: Environment) -> None:
        self.connection = connection
        self._env: Environment | None = environment
        #: How many rows ``fetchmany()`` returns by default.
        self.arraysize = 1
        self.description: list[tuple[Any, ...]] | None = None
        self.rowcount = -1
        self.lastrowid: Any = None
        self._reader: pa.RecordBatchReader | None = None
        self._batch: pa.RecordBatch | None = None
        self._rows: list[tuple[Any, ...]] = []
        self._at = 0

    def _environment(self) -> Environment:
        if self._env is None:
            raise ProgrammingError("The cursor is closed")
        if self.connection.closed:
            raise ProgrammingError("The connection is closed")
        return self._env

    def _reset(self) -> None:
        if self._reader is not None:
            self._reader.close()
        self._reader = None
        self._batch = None
        self._rows = []
        self._at = 0
        self.description = None
        self.rowcount = -1

    def execute(self, operation: str, parameters: Sequence[Any] | None = None) -> Cursor:
        """Runs one statement, its ``?`` placeholders bound to ``parameters`` in order."""
        env = self._environment()
        self._reset()
        with _translating:
            result = env.execute(operation, _sequence(parameters))
            schema = result.schema
            reader = result.to_arrow_reader()
        if result.kind in _COUNTS:
            with _translating:
                table = reader.read_all()
            self.rowcount = _changed(table)
            return self
        if result.kind in _ROWLESS and schema.names == ["result"]:  # DDL, SET: "OK"
            reader.close()
            return self
        self._reader = reader
        self.description = [_describe(field) for field in schema]
        return self

    def executemany(self, operation: str, seq_of_parameters: Iterable[Sequence[Any]]) -> Cursor:
        """Runs ``operation`` once for each parameter sequence; ``rowcount`` is the sum of the
        rows each changed. An ``INSERT ... VALUES (?, ...)`` of one row becomes one statement of
        every row."""
        env = self._environment()
        self._reset()
        rows = [_sequence(p) for p in seq_of_parameters]
        if not rows:
            self.rowcount = 0
            return self
        total = 0
        with _translating:
            batched = getattr(env, "_execute_batch", None)
            done = batched(operation, rows) if batched is not None else None
            if done is not None:
                self.rowcount = done
                return self
            for params in rows:
                self.execute(operation, params)
                total += max(self.rowcount, 0)
        self._reset()
        self.rowcount = total
        return self

    def _next_batch(self) -> bool:
        reader = self._reader
        if reader is None:
            return False
        while True:
            with _translating:
                try:
                    batch = reader.read_next_batch()
                except StopIteration:
                    self._batch = None
                    self._rows = []
                    self._at = 0
                    return False
            if batch.num_rows:
                self._batch = batch
                columns = [c.to_pylist() for c in batch.columns]
                self._rows = list(zip(*columns, strict=True)) if columns else [()] * batch.num_rows
                self._at = 0
                return True

    def _require_rows(self) -> None:
        self._environment()
        if self.description is None:
            raise ProgrammingError("The last statement returned no rows to fetch")

    def fetchone(self) -> tuple[Any, ...] | None:
        """The next row, or None when every row was fetched."""
        self._require_rows()
        if self._at >= len(self._rows) and not self._next_batch():
            return None
        row = self._rows[self._at]
        self._at += 1
        return row

    def fetchmany(self, size: int | None = None) -> list[tuple[Any, ...]]:
        """The next ``size`` rows (``arraysize`` by default); fewer at the end."""
        self._require_rows()
        n = self.arraysize if size is None else size
        out: list[tuple[Any, ...]] = []
        while len(out) < n:
            if self._at >= len(self._rows) and not self._next_batch():
                break
            take = self._rows[self._at : self._at + n - len(out)]
            out.extend(take)
            self._at += len(take)
        return out

    def fetchall(self) -> list[tuple[Any, ...]]:
        """Every row not fetched yet."""
        self._require_rows()
        out = self._rows[self._at :]
        self._at = len(self._rows)
        while self._next_batch():
            out.extend(self._rows)
            self._at = len(self._rows)
        return out

    def _remaining(self) -> Iterator[pa.RecordBatch]:
        if self._batch is not None and self._at < len(self._rows):
            yield self._batch.slice(self._at)
        self._batch, self._rows, self._at = None, [], 0
        reader = self._reader
        if reader is None:
            return
        while True:
            with _translating:
                try:
                    batch = reader.read_next_batch()
                except StopIteration:
                    return
            yield batch

    def fetch_arrow_table(self) -> pa.Table:
        """The rows not fetched yet, as a ``pyarrow.Table``."""
        self._require_rows()
        assert self._reader is not None
        schema = self._reader.schema
        return pa.Table.from_batches(list(self._remaining()), schema=schema)

    def fetch_record_batch(self, rows_per_batch: int = 1_000_000) -> pa.RecordBatchReader:
        """The rows not fetched yet, as a ``pyarrow.RecordBatchReader`` (streamed; batches of
        at most ``rows_per_batch`` rows)."""
        self._require_rows()
        assert self._reader is not None
        schema = self._reader.schema

        def batches() -> Iterator[pa.RecordBatch]:
            for batch in self._remaining():
                for start in range(0, batch.num_rows, max(rows_per_batch, 1)):
                    yield batch.slice(start, rows_per_batch)

        return pa.RecordBatchReader.from_batches(schema, batches())

    def setinputsizes(self, sizes: Any) -> None:
        """Does nothing: parameters take their types from their values."""
        self._environment()

    def setoutputsize(self, size: int, column: int | None = None) -> None:
        """Does nothing: results come whole, as Arrow."""
        self._environment()

    def close(self) -> None:
        """Closes the cursor; its unread rows are dropped."""
        if self._env is not None:
            self._reset()
            self._env = None

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return self

    def __next__(self) -> tuple[Any, ...]:
        row = self.fetchone()
        if row is None:
            raise StopIteration
        return row

    def __enter__(self) -> Cursor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _sequence(parameters: Any) -> Sequence[Any] | None:
    if parameters is None:
        return None
    if isinstance(parameters, str | bytes) or not isinstance(parameters, Sequence):
        if isinstance(parameters, dict):
            raise ProgrammingError(
                "paramstyle is qmark: parameters are a sequence for the ? placeholders, not a dict"
            )
        raise ProgrammingError(
            f"parameters must be a sequence (a tuple or list), got {type(parameters).__name__}"
        )
    return parameters


# The kinds of statement whose one row counts the rows changed, a column a table (a statement
# set's has one for each of its INSERTs), and those answering only "OK". A query's rows are its
# rows whatever its columns are named; EXPLAIN's and SHOW's too.
_COUNTS = frozenset({"insert", "update", "delete"})
_ROWLESS = frozenset({"ddl", "config"})


def _changed(table: pa.Table) -> int:
    """The rows a statement changed: the sum of its counts (none for an empty statement set)."""
    if not table.num_rows:
        return 0
    counts = [c[0].as_py() for c in table.columns if pa.types.is_integer(c.type)]
    return int(sum(n for n in counts if n is not None))


class DBAPITypeObject:
    """A type object of PEP 249: equal to every ``type_code`` of its kind."""

    def __init__(self, name: str, *codes: str) -> None:
        self.name = name
        self.values = frozenset(codes)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DBAPITypeObject):
            return self is other
        return other in self.values

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"<DBAPITypeObject {self.name}>"


STRING = DBAPITypeObject("STRING", "STRING", "VARCHAR", "CHAR")
BINARY = DBAPITypeObject("BINARY", "BYTES", "BINARY", "VARBINARY")
NUMBER = DBAPITypeObject(
    "NUMBER", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL"
)
DATETIME = DBAPITypeObject("DATETIME", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ", "INTERVAL")
ROWID = DBAPITypeObject("ROWID")


def _type_code(arrow: pa.DataType) -> str:  # noqa: PLR0911, PLR0912
    """The SQL type name of a result column of Arrow type ``arrow``: ``description``'s
    ``type_code``, which compares equal to its type object (``STRING``, ``NUMBER``, ...)."""
    t = pa.types
    if t.is_string(arrow) or t.is_large_string(arrow) or t.is_string_view(arrow):
        return "STRING"
    if t.is_binary(arrow) or t.is_large_binary(arrow) or t.is_fixed_size_binary(arrow):
        return "BYTES"
    if t.is_boolean(arrow):
        return "BOOLEAN"
    named = {8: "TINYINT", 16: "SMALLINT", 32: "INT", 64: "BIGINT"}
    if t.is_integer(arrow):
        return named[arrow.bit_width]
    if t.is_float32(arrow):
        return "FLOAT"
    if t.is_floating(arrow):
        return "DOUBLE"
    if t.is_decimal(arrow):
        return "DECIMAL"
    if t.is_date(arrow):
        return "DATE"
    if t.is_time(arrow):
        return "TIME"
    if t.is_timestamp(arrow):
        return "TIMESTAMP_LTZ" if arrow.tz is not None else "TIMESTAMP"
    if t.is_duration(arrow) or t.is_interval(arrow):
        return "INTERVAL"
    if t.is_list(arrow) or t.is_large_list(arrow) or t.is_fixed_size_list(arrow):
        return "ARRAY"
    if t.is_map(arrow):
        return "MAP"
    if t.is_struct(arrow):
        return "ROW"
    if t.is_null(arrow):
        return "NULL"
    return str(arrow).upper()


def _describe(field: pa.Field) -> tuple[Any, ...]:
    """PEP 249's 7-tuple: name, type_code, display_size, internal_size, precision, scale,
    null_ok."""
    arrow = field.type
    precision = scale = None
    if pa.types.is_decimal(arrow):
        precision, scale = arrow.precision, arrow.scale
    return (field.name, _type_code(arrow), None, None, precision, scale, field.nullable)


def Date(year: int, month: int, day: int) -> _dt.date:
    return _dt.date(year, month, day)


def Time(hour: int, minute: int, second: int) -> _dt.time:
    return _dt.time(hour, minute, second)


def Timestamp(
    year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0
) -> _dt.datetime:
    return _dt.datetime(year, month, day, hour, minute, second)


def DateFromTicks(ticks: float) -> _dt.date:
    return Date(*_time.localtime(ticks)[:3])


def TimeFromTicks(ticks: float) -> _dt.time:
    return Time(*_time.localtime(ticks)[3:6])


def TimestampFromTicks(ticks: float) -> _dt.datetime:
    return Timestamp(*_time.localtime(ticks)[:6])


def Binary(data: bytes | bytearray | memoryview | str) -> bytes:
    return data.encode() if isinstance(data, str) else bytes(data)
