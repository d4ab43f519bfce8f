"""The ``duckdb`` execution backend: runs a query's DuckDB translation over its scans.

The JVM plans the query, pushes what the sources take into the scans, and writes the rest as
DuckDB SQL (``io.calcitebridge.translate``) that reads each scan as a relation ``scan_i``. Here
the scans are registered in a DuckDB connection of the environment's own and the SQL runs: a
source's Arrow table as it is (DuckDB reads its batches itself), any other scan as an Arrow
stream, and Parquet files of the ``filesystem`` connector as a view over DuckDB's own
``read_parquet`` with the pushed filters in its WHERE
(:mod:`calcite_bridge.sources.parquet_files`). The result is cast to the schema the planner
derived, so it has the same types as on Calcite's engine. Every stream is released before the
statement ends: DuckDB never holds a buffer of the JVM after it (a source's own table, and a view
over files, stay registered between statements: see :class:`_Cursor`).

The dynamic-columns functions (``COLUMN_GET``, ...) run as DuckDB Arrow functions computed in the
JVM a batch at a time: the translation writes each call as ``cb_dyncol_<result>_<arg>...(spec,
args...)`` (``io.calcitebridge.translate.DuckDbDynCol``), and the functions a query names are
registered on the connection before it runs. Each batch crosses the Arrow C Data Interface both
ways in one JVM call (``io.calcitebridge.udf.DynColUdf``); the result is copied out of the JVM's
memory, and released there, before the function returns.

``execution.memory-limit`` bounds DuckDB too: a database of a limited environment has it as its
``memory_limit``, spills what does not fit to a private temporary directory (removed when the
database closes, at the latest as the process exits) of at most :data:`SPILL_FACTOR` times the
limit, and the Arrow result it hands back is counted batch by batch against the same limit. Past
either, the statement fails with ``ResourceError`` naming the setting, and the environment goes on.

DuckDB reaches no file the environment's sandbox forbids (docs/security.md). Each database this
module opens locks its configuration (a statement cannot change a setting) and loads no
extension. A query of a confined environment runs in a database whose ``enable_external_access``
is off and whose ``allowed_directories`` are the real allowed directories; the ``filesystem``
scans hand it the real paths of files they checked. Outside a sandbox, a query that reads no
Parquet file runs in a database with no file access at all, and only the others in one with it.
"""

from __future__ import annotations

import atexit
import ctypes
import inspect
import os
import re
import shutil
import tempfile
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any, TypeAlias

import pyarrow as pa

from . import _interrupt
from .errors import (
    SOURCE_ERROR,
    AccessDeniedError,
    Error,
    ExecutionError,
    ResourceError,
    SourceError,
    from_stream_failure,
)
from .errors import TimeoutError as StatementTimeoutError
from .sources.sandbox import UNCONFINED, Sandbox

_lock = threading.Lock()
_local = threading.local()  # each thread's cursors, and the tables registered on them
_udf_class: Any = None

_DYNCOL_NAME = re.compile(r"\bcb_dyncol(?:_[a-z0-9]+)+\b", re.IGNORECASE)
_DYNCOL_ERROR = "calcite-bridge-dyncol: "
_PYTHON_NAME = re.compile(r"\bcb_py_\d+(?:_[a-z0-9]+)+\b", re.IGNORECASE)
_JAVA_NAME = re.compile(r"\bcb_java_\d+(?:_[a-z0-9]+)+\b", re.IGNORECASE)
_java_class: Any = None
# DuckDB's words for a CSV or JSON file its reader refuses (a row of too many fields, ...).
_FILE_ERRORS = ("CSV Error on Line", "Malformed JSON", "JSON transform error", "Invalid unicode")
# Sizes of the C Data Interface's structs, and where their release callbacks sit.
_ARRAY_SIZE, _ARRAY_RELEASE = 80, 64
_SCHEMA_SIZE, _SCHEMA_RELEASE = 72, 56
_TYPES = {
    "b": ("BLOB", pa.binary()),
    "s": ("VARCHAR", pa.string()),
    "h": ("VARCHAR", pa.string()),
    "tm": ("INTEGER", pa.int32()),
    "bo": ("BOOLEAN", pa.bool_()),
    "i4": ("INTEGER", pa.int32()),
    "i8": ("BIGINT", pa.int64()),
    "f8": ("DOUBLE", pa.float64()),
    "dt": ("DATE", pa.date32()),
    "ts": ("TIMESTAMP", pa.timestamp("us")),
}
_DECIMAL = re.compile(r"n(\d+)x(\d+)")
# A limited database spills at most this many times its memory limit to disk. Spilling is what
# delays the error once DuckDB's memory is full (bench/memory_limit.py: a sort over a 64 MB limit
# raised 3 to 7 s after DuckDB's memory reached it with 128 MB of spill, about half that with 64).
SPILL_FACTOR = 1
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]*)")


def available() -> bool:
    """Whether DuckDB is installed here (found, not imported)."""
    import importlib.util

    return importlib.util.find_spec("duckdb") is not None


class _Database:
    """An in-memory DuckDB database that reaches the files under ``roots`` only (real paths;
    none when empty), or any file when ``roots`` is None. Its configuration is locked."""

    def __init__(
        self,
        roots: tuple[str, ...] | None,
        memory_limit: int = 0,
        threads: int = 0,
        zone: str = "UTC",
    ) -> None:
        import duckdb

        connection: Any = duckdb.connect(
            ":memory:",
            config={"autoload_known_extensions": False, "autoinstall_known_extensions": False},
        )
        self.spill: str | None = None
        if threads > 0:
            connection.execute(f"SET threads = {int(threads)}")
        if memory_limit > 0:
            self.spill = tempfile.mkdtemp(prefix="calcite-bridge-duckdb-")
            _spills.add(self.spill)
            spill = self.spill.replace("'", "''")
            connection.execute(f"SET memory_limit = '{memory_limit}B'")
            connection.execute(f"SET temp_directory = '{spill}'")
            connection.execute(f"SET max_temp_directory_size = '{memory_limit * SPILL_FACTOR}B'")
        if roots is not None:
            if roots:  # before access goes off: DuckDB refuses the list afterwards
                listed = ", ".join("'" + r.replace("'", "''") + "'" for r in roots)
                connection.execute(f"SET allowed_directories = [{listed}]")
            connection.execute("SET enable_external_access = false")
        # The session's table.local-time-zone: the translation's casts of a TIMESTAMP_LTZ to a
        # TIMESTAMP or a string read the wall-clock time in it.
        connection.execute(f"SET GLOBAL TimeZone = '{_duckdb_zone(zone)}'")
        connection.execute("SET lock_configuration = true")
        for name, method in (("cb_upper", str.upper), ("cb_lower", str.lower)):
            connection.create_function(
                name, _case_function(method), ["VARCHAR"], "VARCHAR", type="arrow"
            )
        # CURRENT_ROW_TIMESTAMP(): the clock's milliseconds when a batch of rows is computed
        # (io.calcitebridge.translate.DuckDbClock), never folded into a constant.
        connection.create_function(
            "cb_row_clock", _row_clock, ["INTEGER"], "BIGINT", type="arrow", side_effects=True
        )
        self.connection = connection
        self.registered: set[str] = set()  # its dynamic-columns functions

    def close(self) -> None:
        """Closes the database and removes its spill directory."""
        try:
            self.connection.close()
        finally:
            if self.spill is not None:
                _spills.discard(self.spill)
                shutil.rmtree(self.spill, ignore_errors=True)


_databases: dict[tuple[Any, ...], _Database] = {}
_spills: set[str] = set()  # the spill directories of open databases


@atexit.register
def _remove_spills() -> None:
    for spill in list(_spills):
        shutil.rmtree(spill, ignore_errors=True)


def memory_limit_bytes(setting: str) -> int:
    """Bytes of an ``execution.memory-limit`` in its canonical form (``'64 mb'``); 0 for none."""
    m = _SIZE.fullmatch(setting.strip().lower())
    if m is None:
        return 0
    factor = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}.get(m.group(2)[:1], 1)
    return int(float(m.group(1)) * factor)


def _case_function(method: Any) -> Any:
    """The Arrow function behind ``cb_upper`` / ``cb_lower``, the translation of UPPER and LOWER:
    Java's full case mapping, which Python's ``str.upper`` and ``str.lower`` share (``'ß'`` becomes
    ``'SS'``, a final ``'Σ'`` becomes ``'ς'``), where DuckDB maps one character to one. A batch of
    ASCII strings takes Arrow's ASCII kernel; any other is mapped a value at a time.

    pyarrow.compute is imported at the first call, not when the database is made: its import
    (hundreds of kernels wrapped, their documentation parsed) would otherwise be part of every
    process's first query, though few queries call UPPER or LOWER."""

    def function(values: Any) -> pa.Array:
        import pyarrow.compute as pc

        ascii_kernel = pc.ascii_upper if method is str.upper else pc.ascii_lower
        if isinstance(values, pa.ChunkedArray):
            values = values.combine_chunks()
        if not pa.types.is_string(values.type):
            values = values.cast(pa.string())
        if pc.all(pc.string_is_ascii(values)).as_py() is not False:
            return ascii_kernel(values)
        return pa.array([None if v is None else method(v) for v in values.to_pylist()], pa.string())

    return function


def _row_clock(rows: Any) -> pa.Array:
    """The Arrow function behind ``cb_row_clock(0)``: the milliseconds since 1970 of the clock
    Java's ``System.currentTimeMillis`` reads, one reading for the batch's rows."""
    return pa.repeat(pa.scalar(time.time_ns() // 1_000_000, pa.int64()), len(rows))


def _database(
    sandbox: Sandbox,
    reads_files: bool,
    memory_limit: int = 0,
    threads: int = 0,
    zone: str = "UTC",
) -> _Database:
    """The database for a query of an environment in ``sandbox``; ``reads_files`` when the query
    hands DuckDB Parquet files to read; ``memory_limit`` the environment's, in bytes (0: none);
    ``threads`` its ``execution.threads`` (0: DuckDB's default, the cores); ``zone`` its
    ``table.local-time-zone``, DuckDB's ``TimeZone`` (the configuration is locked)."""
    global _generation
    roots: tuple[str, ...] | None
    if not sandbox.external_access:
        roots = ()
    elif sandbox.confined:
        roots = tuple(sorted({os.path.join(r, "") for r in sandbox.roots()}))
    else:
        roots = None if reads_files else ()
    if threads == os.cpu_count():
        threads = 0  # DuckDB's own default: one database for every environment left at it
    # (roots, limit), with the threads after them when not DuckDB's default
    key: tuple[Any, ...] = (roots, memory_limit, threads) if threads else (roots, memory_limit)
    if zone != "UTC":
        key += ("zone", zone)
    with _lock:
        database = _databases.get(key)
        if database is None:
            if len(_databases) >= 16:  # sandboxes and limits come and go: keep a few
                _generation += 1  # no thread's cursor of it is used again
                _databases.pop(next(k for k in _databases if any(k))).close()
            database = _databases[key] = _Database(roots, memory_limit, threads, zone)
        return database


class _Cursor:
    """A thread's cursor of one database, and the Arrow tables that stay registered on it
    between statements.

    Registering a table and dropping it again costs about a millisecond, as much as a top-N
    over a million rows takes DuckDB itself, so a source's table stays registered as
    ``scan_i`` until a statement of the thread names another relation so, a statement
    fails, or :func:`release` is called (a table registered or dropped, an environment
    closed). A registration holds the table's buffers alive, so it never outlives those
    events by more than one statement of the thread.

    A view over files (a :class:`Query`: ``read_parquet`` of a ``filesystem`` table's files)
    stays too, while the next statement's scan ``scan_i`` has the same text: creating and
    dropping it cost about 1.3 ms a statement, a third of DuckDB's own query over eight Parquet
    files. It holds no buffer; its text names the files, listed again at each statement, so a
    file added or removed makes a new text and a new view. DuckDB reads the files afresh at
    each query."""

    def __init__(self, database: _Database) -> None:
        self.cursor = database.connection.cursor()
        self.tables: dict[str, pa.Table] = {}
        self.views: dict[str, str] = {}

    def close(self) -> None:
        self.tables.clear()
        self.views.clear()
        try:
            self.cursor.close()
        except Exception:
            pass


_OFFSET = re.compile(r"(?:UTC|UT|GMT)?([+-]\d{2}:\d{2}(?::\d{2})?)")


def _duckdb_zone(zone: str) -> str:
    """A Java zone id as DuckDB (ICU) names it: an offset ``+08:00`` (or ``UTC+08:00``) as
    ``GMT+08:00``, ``Z`` as ``UTC``; a region id as itself."""
    if zone == "Z":
        return "UTC"
    offset = _OFFSET.fullmatch(zone)
    if offset is not None:
        return "GMT" + offset.group(1)
    return zone.replace("'", "''")


_generation = 0


def _cursors() -> dict[int, _Cursor]:
    """This thread's cursors, by database."""
    cursors: dict[int, _Cursor] | None = getattr(_local, "cursors", None)
    if cursors is None or getattr(_local, "generation", -1) != _generation:
        for cursor in (cursors or {}).values():
            cursor.close()
        cursors = _local.cursors = {}
        _local.generation = _generation
    return cursors


def _thread_cursor(database: _Database) -> _Cursor:
    cursors = _cursors()
    state = cursors.get(id(database))
    if state is None:
        state = cursors[id(database)] = _Cursor(database)
    return state


def _drop_cursor(database: _Database) -> None:
    state = _cursors().pop(id(database), None)
    if state is not None:
        state.close()


def release() -> None:
    """Lets go of the tables the threads' cursors keep registered: this thread's now, every
    other thread's at its next statement."""
    global _generation
    with _lock:
        _generation += 1
    _cursors()


class Query:
    """A scan DuckDB runs itself: ``sql`` reads Parquet, CSV or JSON files (``read_parquet``,
    ``read_csv``, ``read_json``)."""

    def __init__(self, sql: str) -> None:
        self.sql = sql


Scan: TypeAlias = "pa.Table | pa.RecordBatchReader | Query"


def source_scan(
    source: Any, request: str, columns: list[str], schema: pa.Schema, own_reader: bool = True
) -> Scan:
    """Opens a scan of a source of this process (its JVM proxy) with the planner's request: the
    stream columns ``columns`` become ``schema``'s columns, names and types.

    Files of the ``filesystem`` connector are handed to DuckDB's own reader, the pushed filters
    written into its query, when that gives the same rows and types (unless ``own_reader`` is
    false: the caller wants Arrow, not a DuckDB query); a source's table is registered as it is
    when no column needs a cast."""
    calls = source._calls
    files = calls.open_files(request) if own_reader else None
    typed = {} if files is None else dict(zip(files.columns, files.types, strict=True))
    if (
        files is not None
        and sorted(typed) == sorted(columns)
        and len(typed) == len(columns)
        and all(typed[c].equals(f.type) for c, f in zip(columns, schema, strict=True))
    ):
        # The view picks the stream's columns by name, in the stream's order (the JVM may put
        # metadata columns before fields inside ROW columns).
        named = ", ".join(
            f"{_name(c)} AS {_name(f.name)}" for c, f in zip(columns, schema, strict=True)
        )
        return Query(f"SELECT {named} FROM ({files.select})")
    opened = calls.open(request)

    def pick(data: pa.Table | pa.RecordBatch) -> list[Any]:
        out = []
        for name, field in zip(columns, schema, strict=True):
            column = data.column(name)
            out.append(column if column.type == field.type else column.cast(field.type))
        return out

    if isinstance(opened, pa.Table):
        if opened.schema.names == columns and all(
            c.type == f.type for c, f in zip(opened.schema, schema, strict=True)
        ):
            # The same table object on every run (a source's own table), so that it stays
            # registered between statements.
            return opened if columns == schema.names else opened.rename_columns(schema.names)
        table: pa.Table = pa.Table.from_arrays(pick(opened), schema=schema)
        return table

    def batches() -> Any:
        with opened:
            for batch in opened:
                yield pa.RecordBatch.from_arrays(pick(batch), schema=schema)

    reader: pa.RecordBatchReader = pa.RecordBatchReader.from_batches(schema, batches())
    return reader


def _name(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _type(code: str) -> tuple[str, pa.DataType]:
    """DuckDB's and Arrow's type of a dynamic-columns type code (``DuckDbDynCol``)."""
    if code in _TYPES:
        return _TYPES[code]
    m = _DECIMAL.fullmatch(code)
    if m is None:
        raise ValueError(f"not a dynamic-columns type code: {code}")
    precision, scale = int(m.group(1)), int(m.group(2))
    return f"DECIMAL({precision}, {scale})", pa.decimal128(precision, scale)


def _register_dyncol(database: _Database, sql: str) -> None:
    """Registers on the database each dynamic-columns function ``sql`` calls, once."""
    registered = database.registered
    names = {name.lower() for name in _DYNCOL_NAME.findall(sql)} - registered
    if not names:
        return
    with _lock:
        for name in sorted(names - registered):
            try:
                result, *arguments = (_type(c) for c in name[len("cb_dyncol_") :].split("_"))
            except ValueError:
                continue  # a look-alike in a string literal, say: not one of ours
            database.connection.create_function(
                name,
                _dyncol_function(result[1], 1 + len(arguments)),
                ["VARCHAR"] + [duck for duck, _ in arguments],
                result[0],
                type="arrow",
                null_handling="special",
                side_effects=False,
            )
            registered.add(name)


def _register_python(database: _Database, sql: str) -> None:
    """Registers on the database each Python function ``sql`` calls, once
    (``io.calcitebridge.translate.DuckDbPython``)."""
    names = {name.lower() for name in _PYTHON_NAME.findall(sql)} - database.registered
    if not names:
        return
    from . import _udf

    with _lock:
        for name in sorted(names - database.registered):
            found = _udf.duckdb_function(name)
            if found is None:
                continue  # a look-alike in a string literal, or a function dropped
            call, arguments, result, kind, side_effects = found
            database.connection.create_function(
                name,
                call,
                arguments,
                result,
                type=kind,
                null_handling="special",
                side_effects=side_effects,
            )
            database.registered.add(name)


def _register_java(database: _Database, sql: str) -> None:
    """Registers on the database each Java function ``sql`` calls, once: an Arrow function that
    hands each batch to the JVM (``io.calcitebridge.udf.JavaUdf``), written by the translation as
    ``cb_java_<id>_<result>_<arg>...(spec, operands...)``."""
    names = {name.lower() for name in _JAVA_NAME.findall(sql)} - database.registered
    if not names:
        return
    global _java_class
    if _java_class is None:
        import jpype

        _java_class = jpype.JClass("io.calcitebridge.udf.JavaUdf")
    with _lock:
        for name in sorted(names - database.registered):
            try:
                result, *arguments = (_type(c) for c in name[len("cb_java_") :].split("_")[1:])
            except ValueError:
                continue  # a look-alike in a string literal, say: not one of ours
            deterministic = _java_class.deterministic(name)
            if deterministic is None:
                continue  # a function dropped: DuckDB names the missing function
            database.connection.create_function(
                name,
                _java_function(name, result[1], [arrow for _, arrow in arguments]),
                ["VARCHAR"] + [duck for duck, _ in arguments],
                result[0],
                type="arrow",
                null_handling="special",
                side_effects=not bool(deterministic),
            )
            database.registered.add(name)


def _java_function(name: str, result: pa.DataType, arguments: list[pa.DataType]) -> Any:
    def function(spec: Any, *columns: Any) -> pa.Array:
        return java_batch(name, spec, columns, arguments, result)

    return _positional(function, 1 + len(arguments))


def _dyncol_function(result: pa.DataType, arity: int) -> Any:
    def function(spec: Any, *arguments: Any) -> pa.Array:
        return dyncol_batch(spec, arguments, result)

    return _positional(function, arity)


def _positional(function: Any, arity: int) -> Any:
    """``function`` with a signature of ``arity`` positional parameters: DuckDB counts the
    parameters of the signature, so give it the call's."""
    positional = inspect.Parameter.POSITIONAL_ONLY
    function.__signature__ = inspect.Signature(
        [inspect.Parameter(f"a{i}", positional) for i in range(arity)]
    )
    return function


def java_batch(
    name: str, spec: Any, columns: Any, types: list[pa.DataType], result: pa.DataType
) -> pa.Array:
    """One batch of the Java function ``name``: ``spec`` (the overload, the same on every row) and
    the operand columns in, the result column out, computed by one JVM call. A failure of the
    function is raised for DuckDB with a token of the ``ExecutionError`` naming it."""
    from . import _udf

    if len(spec) == 0:
        return pa.array([], type=result)
    arrays = [
        (c.combine_chunks() if isinstance(c, pa.ChunkedArray) else c).cast(t)
        for c, t in zip(columns, types, strict=True)
    ]
    try:
        return _jvm_batch(
            lambda *structs: _java_class.apply(name, spec[0].as_py(), *structs),
            arrays,
            len(spec),
            result,
        )
    except Exception as e:  # a Java exception: the function's failure names it
        message = str(getattr(e, "getMessage", lambda: None)() or type(e).__name__)
        trace = getattr(e, "sourceTraceback", None)
        tb = str(trace()) if callable(trace) else ""
        raise _udf._stash(message, tb) from None


def dyncol_batch(spec: Any, arguments: Any, result: pa.DataType) -> pa.Array:
    """One batch of a dynamic-columns function: ``spec`` (the call's description, the same on
    every row) and the argument columns in, the result column out, computed by one JVM call."""
    global _udf_class
    if len(spec) == 0:
        return pa.array([], type=result)
    if _udf_class is None:
        import jpype

        _udf_class = jpype.JClass("io.calcitebridge.udf.DynColUdf")
    columns = [a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a for a in arguments]
    try:
        return _jvm_batch(
            lambda *structs: _udf_class.apply(spec[0].as_py(), *structs),
            columns,
            len(spec),
            result,
        )
    except Exception as e:  # a Java exception: MariaDB's error, as Calcite's engine raises it
        message = getattr(e, "getMessage", lambda: None)()
        raise RuntimeError(_DYNCOL_ERROR + str(message or type(e).__name__)) from None


def _jvm_batch(
    method: Callable[..., Any], columns: list[pa.Array], rows: int, result: pa.DataType
) -> pa.Array:
    """Computes one batch in the JVM: ``columns`` (of ``rows`` rows) are exported as one record
    batch through the Arrow C Data Interface, ``method(in_array, in_schema, out_array,
    out_schema)`` (the addresses of the four C structs) computes the result into the out structs,
    and the result is imported as ``result``. Whatever the JVM did not take of the batch, or gave
    of a result before it failed, is released here; the JVM's exception is raised."""
    if columns:
        batch = pa.RecordBatch.from_arrays(columns, names=[f"a{i}" for i in range(len(columns))])
    else:
        batch = pa.RecordBatch.from_pydict({"a": pa.nulls(rows)}).select([])
    in_array = ctypes.create_string_buffer(_ARRAY_SIZE)
    in_schema = ctypes.create_string_buffer(_SCHEMA_SIZE)
    out_array = ctypes.create_string_buffer(_ARRAY_SIZE)
    out_schema = ctypes.create_string_buffer(_SCHEMA_SIZE)
    batch._export_to_c(ctypes.addressof(in_array), ctypes.addressof(in_schema))
    try:
        method(
            ctypes.addressof(in_array),
            ctypes.addressof(in_schema),
            ctypes.addressof(out_array),
            ctypes.addressof(out_schema),
        )
    except Exception:
        _release(out_array, _ARRAY_RELEASE)
        _release(out_schema, _SCHEMA_RELEASE)
        raise
    finally:
        _release(in_array, _ARRAY_RELEASE)
        _release(in_schema, _SCHEMA_RELEASE)
    return _imported(out_array, out_schema, result)


def _imported(out_array: Any, out_schema: Any, result: pa.DataType) -> pa.Array:
    """The array the JVM exported into ``out_array``/``out_schema``, as ``result``: a copy in
    this process's memory, so the JVM's buffers are released before DuckDB reads it."""
    exported = pa.Array._import_from_c(ctypes.addressof(out_array), ctypes.addressof(out_schema))
    try:
        return pa.concat_arrays([exported]).cast(result)
    finally:
        del exported


_RELEASE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def _release(struct: Any, offset: int) -> None:
    """Calls the release callback of a C Data Interface struct unless it was moved out."""
    callback = ctypes.c_void_p.from_buffer(struct, offset).value
    if callback:
        _RELEASE(callback)(ctypes.addressof(struct))


def run(
    sql: str,
    scans: list[Scan],
    schema: pa.Schema,
    statement: str | None,
    sandbox: Sandbox = UNCONFINED,
    deadline: tuple[float, str] | None = None,
    memory_limit: int = 0,
    threads: int = 0,
    params: list[Any] | None = None,
    time_zone: str = "UTC",
) -> pa.Table:
    """Runs ``sql`` over ``scans`` (``scan_0``, ``scan_1``, ...) in a database that reaches no
    file ``sandbox`` forbids; the rows, cast to ``schema``. ``deadline`` (seconds left, the
    message): past it DuckDB is interrupted and ``TimeoutError`` raised. ``memory_limit`` (bytes,
    0 for none) bounds DuckDB's memory and the result: past it ``ResourceError`` is raised.
    ``threads`` (``execution.threads``; 0 for DuckDB's default) are the threads DuckDB runs on;
    ``time_zone`` (``table.local-time-zone``) is DuckDB's ``TimeZone`` for the statement.
    ``params`` are the values of the ``?`` of ``sql``, in order, bound by DuckDB's prepared
    statement (a plan kept for any values), never written into the text."""
    import duckdb

    reads_files = any(isinstance(s, Query) for s in scans)
    database = _database(sandbox, reads_files, memory_limit, threads, time_zone)
    state = _thread_cursor(database)
    _register_dyncol(database, sql)
    _register_python(database, sql)
    _register_java(database, sql)
    failed = True
    timer: threading.Timer | None = None
    timed_out = threading.Event()
    if deadline is not None:

        def time_out() -> None:
            timed_out.set()
            state.cursor.interrupt()

        timer = threading.Timer(deadline[0], time_out)
        timer.daemon = True
        timer.start()
    try:
        # Ctrl-C interrupts DuckDB from the watcher thread; it means the same here as on
        # Calcite's engine.
        with _interrupt.cancelling(state.cursor.interrupt) as reading:
            try:
                _register(state, scans)
                table = _rows(state.cursor, sql, params, memory_limit, statement)
                failed = False
            except BaseException as e:
                if timed_out.is_set() and deadline is not None:
                    raise StatementTimeoutError(deadline[1], sql=statement) from None
                if reading.interrupted or "interrupted" in str(e).lower():
                    raise KeyboardInterrupt from None
                if isinstance(e, duckdb.PermissionException):
                    raise AccessDeniedError(
                        f"DuckDB was refused a file outside the sandbox: {e}", sql=statement
                    ) from None
                if isinstance(e, duckdb.Error):
                    raise _error(e, statement, memory_limit) from None
                raise
    finally:
        if timer is not None:
            timer.cancel()
        for scan in scans:
            if isinstance(scan, pa.RecordBatchReader):
                scan.close()
        if failed:  # a fresh cursor for the next statement, holding nothing
            _drop_cursor(database)
        else:
            _unregister(state, scans)
    return _as(table, schema)


def _rows(
    cursor: Any, sql: str, params: list[Any] | None, memory_limit: int, statement: str | None
) -> pa.Table:
    """The rows of ``sql`` run on ``cursor`` with ``params`` bound, within ``memory_limit``."""
    if params and memory_limit <= 0:
        return _fetch_prepared(cursor, sql, params)
    relation = cursor.sql(sql) if not params else cursor.sql(sql, params=params)
    return _fetch(relation, memory_limit, statement)


def _fetch(relation: Any, memory_limit: int, statement: str | None) -> pa.Table:
    """The rows of ``relation``, within ``memory_limit`` bytes (none when 0)."""
    if memory_limit > 0:
        return _bounded_fetch(relation, memory_limit, statement)
    # DuckDB 2 names it to_arrow_table; 1.x, arrow.
    fetch = getattr(relation, "to_arrow_table", None) or relation.arrow
    return fetch()


def _fetch_prepared(cursor: Any, sql: str, params: list[Any]) -> pa.Table:
    """The rows of ``sql`` with ``params`` bound, run as DuckDB's prepared statement by the
    cursor's ``execute``: a relation (``cursor.sql(sql, params=...)``) parses and binds the text
    once more before it runs, which cost a statement with parameters about 0.4 ms. The rows are
    copied once more from the cursor's result, which DuckDB warns of; for a result within
    ``execution.memory-limit`` the relation's path is kept, read a batch at a time."""
    cursor.execute(sql, params)
    fetch = getattr(cursor, "to_arrow_table", None) or cursor.arrow
    if warnings.filters[:1] != [_COPY_WARNING]:
        _quiet_copy_warning()
    return fetch()


_COPY_WARNING = (
    "ignore",
    re.compile("Arrow output on a DB-API result", re.I),
    UserWarning,
    re.compile(r"calcite_bridge\._duckdb\Z"),
    0,
)
"""The filter of DuckDB's warning that Arrow from a cursor's result is one copy more, for this
module's calls only: ``warnings.catch_warnings`` around each call would change the process's
filters for every thread while it lasts."""


def _quiet_copy_warning() -> None:
    """Puts :data:`_COPY_WARNING` first among the filters: at import, and again when a filter
    was put before it since (a test runner's ``error``, say) or the filters were restored without
    it. Adding it again moves it, so it is there once."""
    warnings.filterwarnings(
        "ignore",
        message="Arrow output on a DB-API result",
        category=UserWarning,
        module=r"calcite_bridge\._duckdb\Z",
    )


_quiet_copy_warning()


def _bounded_fetch(relation: Any, memory_limit: int, statement: str | None) -> pa.Table:
    """The rows of ``relation`` as a table, read a batch at a time: past ``memory_limit`` bytes
    the read stops with ``ResourceError`` (the result lives outside DuckDB's own limit)."""
    reader = relation.to_arrow_reader(64 * 1024)
    batches = []
    held = 0
    try:
        for batch in reader:
            held += batch.get_total_buffer_size()
            if held > memory_limit:
                raise _over_limit(
                    memory_limit, statement, f"its result held {held >> 20} MB and more"
                )
            batches.append(batch)
        return pa.Table.from_batches(batches, schema=reader.schema)
    finally:
        reader.close()


def _over_limit(memory_limit: int, statement: str | None, detail: str) -> ResourceError:
    first = detail.splitlines()[0] if detail else ""
    return ResourceError(
        "Out of memory: the statement's rows reached execution.memory-limit "
        f"({memory_limit >> 20} MB) on DuckDB ({first}). Raise execution.memory-limit or make "
        "the statement gather fewer rows",
        sql=statement,
    )


def _register(state: _Cursor, scans: list[Scan]) -> None:
    """Names the scans ``scan_0``, ``scan_1``, ... on the cursor; a table, or a view of the
    same text, registered there already stays."""
    cursor = state.cursor
    for i, scan in enumerate(scans):
        name = f"scan_{i}"
        if isinstance(scan, pa.Table) and state.tables.get(name) is scan:
            continue
        if isinstance(scan, Query) and state.views.get(name) == scan.sql:
            continue
        if name in state.tables:
            del state.tables[name]
            cursor.unregister(name)
        if state.views.pop(name, None) is not None:
            cursor.execute(f'DROP VIEW IF EXISTS "{name}"')
        if isinstance(scan, Query):
            cursor.execute(f'CREATE TEMPORARY VIEW "{name}" AS {scan.sql}')
            state.views[name] = scan.sql
        else:
            cursor.register(name, scan)
            if isinstance(scan, pa.Table):
                state.tables[name] = scan


def _unregister(state: _Cursor, scans: list[Scan]) -> None:
    """Drops the statement's streams from the cursor, and the tables and views of earlier
    statements that this one did not read; its own tables and views stay registered."""
    import duckdb

    cursor = state.cursor
    for i, scan in enumerate(scans):
        try:
            if not isinstance(scan, (pa.Table, Query)):
                cursor.unregister(f"scan_{i}")
        except duckdb.Error:
            pass
    for name in [n for n in state.tables if int(n[len("scan_") :]) >= len(scans)]:
        del state.tables[name]
        try:
            cursor.unregister(name)
        except duckdb.Error:
            pass
    for name in [n for n in state.views if int(n[len("scan_") :]) >= len(scans)]:
        del state.views[name]
        try:
            cursor.execute(f'DROP VIEW IF EXISTS "{name}"')
        except duckdb.Error:
            pass


def _as(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """``table`` with ``schema``'s names and types (DuckDB's SUM is HUGEINT, say)."""
    if table.schema.equals(schema):
        return table
    columns = []
    for computed, field in zip(table.columns, schema, strict=True):
        try:
            column = computed
            if pa.types.is_decimal(field.type) and pa.types.is_integer(column.type):
                # A DECIMAL(p, 0) literal is an integer in DuckDB: Arrow refuses an INTEGER to a
                # DECIMAL of fewer than 10 digits whatever the values, so through 38 digits, a
                # cast that checks each value.
                column = column.cast(pa.decimal128(38, field.type.scale))
            columns.append(column if column.type == field.type else column.cast(field.type))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
            # DuckDB computed a wider value than the column's type holds (a SUM past INT).
            raise ExecutionError(
                f"The query failed while it ran: the value of column {field.name!r} does not "
                f"fit its type {field.type}: {e}"
            ) from None
    return pa.Table.from_arrays(columns, schema=schema)


def _file_error(text: str, statement: str | None) -> SourceError | None:
    """A CSV or JSON file's failure as ``SourceError``: a value our reader refuses, or a file
    DuckDB's reader refuses; None for any other failure."""
    if SOURCE_ERROR in text:  # a value of a CSV or JSON file our reader refuses
        message = text.split(SOURCE_ERROR, 1)[1].splitlines()[0]
        return SourceError(f"A file failed while it was read: {message}", sql=statement)
    if any(m in text for m in _FILE_ERRORS):  # DuckDB's reader refused a CSV or JSON file
        message = text.split(": ", 1)[1] if ": " in text.split("\n", 1)[0] else text
        return SourceError(
            f"A file failed while it was read: {message.splitlines()[0]}", sql=statement
        )
    return None


def _error(e: Exception, statement: str | None, memory_limit: int = 0) -> Error:
    """A DuckDB failure as the error Calcite's engine raises for the same statement; running out
    of ``memory_limit`` (bytes), ``ResourceError``."""
    import duckdb

    text = str(e)
    if memory_limit > 0 and isinstance(e, duckdb.OutOfMemoryException):
        return _over_limit(memory_limit, statement, text)
    if "calcite-bridge-error:" in text:  # a scan failed: the JVM's own error
        return from_stream_failure(e, statement)
    if "calcite-bridge-udf: " in text:  # a Python function failed
        from . import _udf

        failed = _udf.failure(text, statement)
        if failed is not None:
            return failed
    file_error = _file_error(text, statement)
    if file_error is not None:
        return file_error
    if _DYNCOL_ERROR in text:  # a dynamic-columns function failed
        message = text.split(_DYNCOL_ERROR, 1)[1].splitlines()[0]
        return ExecutionError(f"The query failed while it ran: {message}", sql=statement)
    message = text.split(": ", 1)[1] if ": " in text.split("\n", 1)[0] else text
    if "Division by zero" in message:
        message = "Division by zero"
    return ExecutionError(
        f"The query failed while it ran: {message.splitlines()[0]}", sql=statement
    )
