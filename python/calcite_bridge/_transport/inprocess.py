"""The in-process transport: the JVM runs inside this process, reached through JPype, and
results cross the Arrow C Data Interface without copies."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .. import _cdata as cdata
from .. import _interrupt, _params
from ..sources.sandbox import UNCONFINED, SandboxGetter
from . import jvm

if TYPE_CHECKING:
    import pyarrow as pa

    from .. import _duckdb, _spark


def _import_stream(handle: Any, address: int | None = None) -> pa.RecordBatchReader:
    """The rows of ``handle`` (at ``address``, when asked already); the handle is closed."""
    try:
        return cdata.reader(int(handle.address()) if address is None else address)
    finally:
        handle.close()


def _cancellable(reader: pa.RecordBatchReader, handle: Any) -> pa.RecordBatchReader:
    """``reader``, whose reads Ctrl-C stops at once: Calcite's engine runs the query inside
    them, in the JVM, where Python cannot raise KeyboardInterrupt."""
    import pyarrow as pa

    def cancel() -> None:
        handle.cancel()

    def batches() -> Iterator[pa.RecordBatch]:
        with reader, _interrupt.outside_releases() as ctrl_c:
            while True:
                ctrl_c.raise_if_hit()  # held back while the program freed a batch
                with _interrupt.cancelling_within(cancel) as reading:
                    ctrl_c.raised = False
                    try:
                        batch = reader.read_next_batch()
                    except StopIteration:
                        return
                    except BaseException:
                        # The statement stopped for Ctrl-C: cancelled by the watcher, or failed
                        # with the KeyboardInterrupt raised in a source's Python code that the
                        # JVM ran on this thread, which the watcher may not have seen yet.
                        if reading.interrupted or ctrl_c.raised:
                            raise KeyboardInterrupt from None
                        raise
                yield batch

    return pa.RecordBatchReader.from_batches(reader.schema, batches())


def _described(handle: Any) -> dict[str, Any]:
    """The handle's ``describe()``: its kind, backend, SQL, scans, ... in one crossing."""
    described: dict[str, Any] = json.loads(str(handle.describe()))
    return described


def _schema(message: Any) -> pa.Schema:
    """A schema the JVM sent as an Arrow IPC message (a Java ``byte[]``).

    The schemas read are kept by their message (a session's statements give the same few schemas
    again and again, and reading one is most of a warm validate's Python time): a schema is
    immutable, so one object serves every statement that gives it."""
    key = bytes(memoryview(message))
    schema = _schemas.get(key)
    if schema is None:
        import pyarrow as pa

        schema = pa.ipc.read_schema(pa.py_buffer(key))
        if len(key) <= _SCHEMA_KEPT_BYTES:
            if len(_schemas) >= _SCHEMAS_KEPT:
                _schemas.clear()
            _schemas[key] = schema
    return schema


_schemas: dict[bytes, pa.Schema] = {}
_SCHEMAS_KEPT = 256
"""How many schemas :func:`_schema` keeps; past them it starts again."""
_SCHEMA_KEPT_BYTES = 16_384
"""The longest message whose schema :func:`_schema` keeps (a schema of a few hundred columns)."""


class JPypeSession:
    """A ``BridgeSession`` in this process's JVM (started on first use)."""

    def __init__(self) -> None:
        # pyarrow, DuckDB and Spark are imported when a statement first needs them; pyarrow
        # (every statement's schema or rows) on a thread of its own while the JVM starts
        # (_prefetch). JPype first, without numpy (pyarrow's import brings it on that thread),
        # and the JVM's options: the JVM's start then waits for neither import, nor for the GIL
        # that thread's imports hold. DuckDB (the default engine of queries) on a thread of its
        # own too, once the first statement that may run a query starts: the JVM plans that
        # one meanwhile, and a session that only validates and explains never imports it.
        hosted = jvm.host_backends()
        jvm.prepare()
        _prefetch()
        self._duckdb_unloaded = "duckdb" in hosted
        self._java = jvm.new_session()
        # The proxies of the Python sources registered here: each is released
        # (SourceProxy.release) once no table reads it (replaced, dropped, its database or
        # catalog dropped), as the JVM lets go of a proxy only when it collects it.
        self._proxies: list[Any] = []
        self._proxies_lock = threading.Lock()
        self._functions: dict[str, Any] = {}  # the same for the Python functions
        self._loader: Any = None
        self._factory: Any = None
        self._sandbox: SandboxGetter = lambda: UNCONFINED
        self._spark: _spark.Runner | None = None  # made when a query first runs on Spark
        # The settings a backend of this process runs with, read once: a query cannot change
        # them, so they are read again only after a statement or a setting that may have.
        self._settings: tuple[int, int, str] | None = None
        if hosted:
            jvm.call(self._java.setHostBackends, ",".join(hosted))

    def set_spark(self, runner: _spark.Runner) -> None:
        """Runs this environment's ``spark`` queries on ``runner``'s session."""
        self._spark = runner
        jvm.call(self._java.setHostBackends, ",".join(("duckdb", "spark")))

    def _spark_runner(self) -> _spark.Runner:
        if self._spark is None:
            from .. import _spark

            self._spark = _spark.Runner()
        return self._spark

    def run(
        self,
        sql: str,
        query_only: bool,
        backend: str | None = None,
        timeout: str | None = None,
        params: _params.Values | None = None,
    ) -> tuple[pa.RecordBatchReader, str]:
        java = self._java
        self._start_duckdb_import()
        # A cached plan runs on this thread: handing it to a worker costs more than it does.
        if not query_only:
            self._settings = None  # a SET, a script, ...: read the settings again after it
            handle = None
        else:
            handle = self._cached(sql, backend, timeout, params)
            # A query whose rows are here: no description needed (a backend's gives 0).
            address = 0 if handle is None else int(handle.rowsAddress())
            if address:
                return _cancellable(_import_stream(handle, address), handle), "query"
        if handle is None:
            if params is not None:
                pending = (
                    java.queryWithParameters(sql, backend, timeout, params.json)
                    if query_only
                    else java.executeWithParameters(sql, timeout, params.json)
                )
            elif query_only:
                pending = java.query(sql, backend, timeout)
            else:
                pending = java.execute(sql, timeout)
            handle = jvm.wait(pending, sql)
            if not query_only:
                self._settings = None
        described = _described(handle)
        kind = described["kind"]
        if not described["backend"]:
            if kind != "query":
                self._forget(kind)
            return _cancellable(_import_stream(handle), handle), kind
        # A backend of this process runs the query over the scans the JVM opened.
        backend = described["backend"]
        order = described["parameterOrder"]
        values = params.for_backend(order) if order and params is not None else None
        scans, schema, backend_sql, deadline = self._scans(handle, described)
        limit, threads, zone = self._host_settings()
        if backend == "spark":
            from .. import _spark

            spark_scans: list[_spark.Scan] = scans
            runner = self._spark_runner()
            table = _spark.run(
                runner, backend_sql, spark_scans, schema, sql, zone, deadline, limit, values
            )
        else:
            from .. import _duckdb

            table = _duckdb.run(
                backend_sql,
                scans,
                schema,
                sql,
                self._sandbox(),
                deadline,
                limit,
                threads,
                values,
                zone,
            )
        return table.to_reader(), kind

    def _start_duckdb_import(self) -> None:
        """Starts importing DuckDB, the first time a statement that may run a query starts."""
        if self._duckdb_unloaded:
            self._duckdb_unloaded = False
            _prefetch_duckdb()

    def _cached(
        self, sql: str, backend: str | None, timeout: str | None, params: _params.Values | None
    ) -> Any:
        """The handle of a query whose plan the plan cache holds, run on this thread; with
        ``params``, the plan kept for the text and the values' types, the values bound into it
        (as Java scalars when they are all plain ones, without JSON). None when not cached."""
        java = self._java
        if params is None:
            return jvm.call(java.queryCached, sql, backend, timeout, sql=sql)
        scalars = params.scalars
        if scalars is not None:
            return jvm.call(java.queryCachedWithValues, sql, backend, timeout, scalars, sql=sql)
        return jvm.call(java.queryCachedWithParameters, sql, backend, timeout, params.json, sql=sql)

    def _host_settings(self) -> tuple[int, int, str]:
        """``execution.memory-limit`` in bytes, ``execution.threads`` and
        ``table.local-time-zone``: three crossings into the JVM when read for every query."""
        settings = self._settings
        if settings is None:
            from .. import _duckdb

            settings = self._settings = (
                _duckdb.memory_limit_bytes(self.get_config("execution.memory-limit")),
                int(self.get_config("execution.threads")),
                self.get_config("table.local-time-zone"),
            )
        return settings

    def plan_cache_hits(self) -> int:
        """How many queries ran a plan the plan cache held (with parameters: the plan kept for
        the text and the values' types, the values bound into it)."""
        return int(jvm.call(self._java.planCacheHits))

    def run_batch(self, sql: str, rows: str) -> pa.RecordBatchReader | None:
        """Runs an ``INSERT ... VALUES (?, ...)`` of one row with every row of ``rows`` as one
        statement; None for any other statement, which the caller runs once per row."""
        self._settings = None
        try:
            handle = jvm.wait(self._java.executeBatchWithParameters(sql, None, rows), sql)
        finally:
            self._settings = None
        if handle is None:
            return None
        return _import_stream(handle)

    def _scans(
        self, handle: Any, described: dict[str, Any]
    ) -> tuple[list[_duckdb.Scan], pa.Schema, str, tuple[float, str] | None]:
        """The scans of a query a backend of this process runs, its schema, its SQL and its
        deadline (``described``: the handle's ``describe()``); the handle is closed."""
        spark = described["backend"] == "spark"
        if spark:
            from .. import _spark
        else:
            from .. import _duckdb
        scans: list[Any] = []
        try:
            for i, scan in enumerate(described["scans"]):
                if not scan["source"]:
                    scans.append(cdata.reader(int(handle.scanAddress(i))))
                else:  # a source of this process: opened here, no row through the JVM
                    source = handle.scanSource(i)
                    columns = scan["columns"]
                    request = scan["request"]
                    schema = _schema(handle.scanSchema(i))
                    if spark:
                        confined = self._sandbox().confined or not self._sandbox().external_access
                        scans.append(_spark.source_scan(source, request, columns, schema, confined))
                    else:
                        scans.append(_duckdb.source_scan(source, request, columns, schema))
            schema = _schema(handle.schema())
            backend_sql = described["backendSql"]
            remaining = described["remainingMillis"]
            deadline = (remaining / 1000, described["timeoutMessage"]) if remaining >= 0 else None
        except BaseException:
            import pyarrow as pa

            for scan in scans:
                if isinstance(scan, pa.RecordBatchReader):
                    scan.close()
            raise
        finally:
            handle.close()
        return scans, schema, backend_sql, deadline

    def _spark_handle(
        self, sql: str, params: _params.Values | None = None
    ) -> tuple[list[_spark.Scan], str, list[Any] | None]:
        """The scans and the Spark SQL of the query ``sql`` planned for the spark backend, and
        the values of its parameter markers."""
        java = self._java
        pending = (
            java.query(sql, "spark", None)
            if params is None
            else java.queryWithParameters(sql, "spark", None, params.json)
        )
        handle = jvm.wait(pending, sql)
        described = _described(handle)
        if described["backend"] != "spark":  # nothing left to run: the scan is the result
            handle.close()
            raise _spark_unsupported(sql)
        order = described["parameterOrder"]
        values = params.for_backend(order) if order and params is not None else None
        scans, _, backend_sql, _ = self._scans(handle, described)
        return scans, backend_sql, values

    def spark_explain(self, sql: str, params: _params.Values | None = None) -> str:
        """Spark's physical plan of the query ``sql`` on the spark backend."""
        scans, backend_sql, values = self._spark_handle(sql, params)
        zone = self.get_config("table.local-time-zone")
        from .. import _spark

        return _spark.explain(self._spark_runner(), backend_sql, scans, zone, values)

    def to_spark(self, sql: str) -> Any:
        """A Spark DataFrame of the query ``sql``."""
        scans, backend_sql, _ = self._spark_handle(sql)
        zone = self.get_config("table.local-time-zone")
        from .. import _spark

        return _spark.to_spark(self._spark_runner(), backend_sql, scans, zone)

    def _forget(self, kind: str) -> None:
        """After a statement other than a query a table may be gone: lets go of what was kept
        for it (DuckDB's registrations, the proxy of a dropped source)."""
        self._settings = None  # a SET may have changed them
        _release_duckdb()
        if kind == "ddl":
            self._release_unread()

    def validate(self, sql: str) -> pa.Schema:
        # One crossing when the validation ends within the first slice of the wait: the schema
        # comes back from the call itself. A longer one comes back as its handle.
        outcome = jvm.run(self._java.validateSchemaWithin, sql, sql=sql)
        if isinstance(outcome, jvm.JAVA_BYTES):
            return _schema(outcome)
        try:
            return _schema(outcome.schema())
        finally:
            outcome.close()

    def explain(
        self,
        sql: str,
        format: str,
        backend: str | None = None,
        params: _params.Values | None = None,
    ) -> str:
        java = self._java
        if params is not None:
            return str(jvm.wait(java.explainWithParameters(sql, format, backend, params.json), sql))
        return str(jvm.run(java.explainWithin, sql, format, backend, sql=sql))

    def parameter_types(self, sql: str) -> str:
        return str(jvm.wait(self._java.parameterTypes(sql), sql))

    def execute_script(self, sql: str) -> int:
        self._settings = None
        try:
            return int(jvm.wait(self._java.executeScript(sql), sql))
        finally:
            self._settings = None

    def check_script(self, sql: str, plans: bool) -> str:
        self._settings = None
        try:
            return str(jvm.wait(self._java.checkScript(sql, plans), sql))
        finally:
            self._settings = None

    def set_config(self, key: str, value: str) -> None:
        self._settings = None
        jvm.call(self._java.setConfig, key, value)

    def get_config(self, key: str) -> str:
        return str(jvm.call(self._java.getConfig, key))

    def reset_config(self, key: str | None) -> None:
        self._settings = None
        jvm.call(self._java.resetConfig, key)

    def config_entries(self) -> list[str]:
        return [str(e) for e in jvm.call(self._java.configEntries)]

    def table_names(self) -> list[str]:
        return [str(n) for n in jvm.call(self._java.tableNames)]

    def register_source(self, name: str, source: Any, replace: bool) -> None:
        from ..sources._glue import SourceProxy

        proxy = SourceProxy(name, source)
        jvm.call(self._java.registerSource, name, proxy, replace)
        with self._proxies_lock:
            self._proxies.append(proxy)
        if replace:
            self._release_unread()
        _release_duckdb()

    def _release_unread(self) -> None:
        """Releases the proxies of the sources no table of this session reads any more. Under
        a lock: a source another thread registers meanwhile is asked about once it is a table."""
        with self._proxies_lock:
            if not self._proxies:
                return
            import jpype

            kind = jpype.JArray(jpype.JClass("io.calcitebridge.connector.PythonSource"))
            held = jvm.call(self._java.heldSources, kind(self._proxies))
            kept = []
            for proxy, read in zip(self._proxies, held, strict=True):
                if read:
                    kept.append(proxy)
                else:
                    proxy.release()
            self._proxies = kept

    def create_function(self, name: str, function: Any, target: str, replace: bool) -> None:
        """Adds a Python function (an ``_udf.PythonFunction``) as ``name``."""
        jvm.call(self._java.createPythonFunction, name, function, target, replace)
        self._functions[name.lower()] = function
        _release_duckdb()

    def drop_function(self, name: str) -> bool:
        """Drops the function ``name``; False when there is none."""
        dropped = bool(jvm.call(self._java.dropFunction, name))
        self._functions.pop(name.lower(), None)
        return dropped

    def set_function_loader(self, allowed: Any) -> None:
        """Lets ``CREATE FUNCTION ... LANGUAGE PYTHON`` load functions from the modules that
        ``allowed()`` gives."""
        from .. import _udf

        self._loader = _udf.FunctionLoader(allowed)
        jvm.call(self._java.setFunctionLoader, self._loader)

    def set_connector_factory(self, sandbox: SandboxGetter) -> None:
        from ..sources._factory import ConnectorFactory

        self._sandbox = sandbox
        self._factory = ConnectorFactory(sandbox)
        jvm.call(self._java.setConnectorFactory, self._factory)

    def close(self) -> None:
        _release_duckdb()
        if self._spark is not None:
            self._spark.close()
        try:
            jvm.call(self._java.close)
        finally:
            with self._proxies_lock:
                for proxy in self._proxies:
                    proxy.release()
                self._proxies.clear()
            self._functions.clear()


def _release_duckdb() -> None:
    """Lets go of DuckDB's registrations of this process's tables, if DuckDB ran any query.

    The backend may still be being imported on the thread that :func:`_prefetch_duckdb` starts:
    importing it here waits for that import to end (Python's import lock) rather than using the
    module half made."""
    if "calcite_bridge._duckdb" in sys.modules:
        from .. import _duckdb

        _duckdb.release()


def _prefetch() -> None:
    """Imports pyarrow (with numpy, about a fifth of a second on an idle machine) on a thread of
    its own while the JVM starts and builds the first session: JPype lets go of the GIL while
    Java runs, so the import takes the second core. The first statement that needs it waits only
    for what is left of the import (Python's import lock).

    Not DuckDB (as much again): its import would hold the GIL against JPype's start, which wraps
    Java's core classes for Python on this thread (:func:`_prefetch_duckdb`)."""

    def load() -> None:
        try:
            import pyarrow  # noqa: F401
        except Exception:  # reported by the statement that needs it
            pass

    if "pyarrow" not in sys.modules:
        threading.Thread(target=load, name="calcite-bridge-import").start()


def _prefetch_duckdb() -> None:
    """Imports our DuckDB backend and DuckDB on a thread of their own, as a statement that may
    run a query starts: its planning in the JVM lets go of the GIL, so the import takes the
    second core, and the query waits only for what is left of it."""

    def load() -> None:
        try:
            import duckdb  # noqa: F401

            from .. import _duckdb  # noqa: F401
        except Exception:  # reported by the query that needs it
            pass

    if "duckdb" not in sys.modules:
        threading.Thread(target=load, name="calcite-bridge-import").start()


def _spark_unsupported(sql: str) -> Exception:
    from ..errors import UnsupportedError

    return UnsupportedError("The spark backend has nothing to run for this query", sql=sql)
