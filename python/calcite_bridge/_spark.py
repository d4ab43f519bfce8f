"""The ``spark`` execution backend: runs a query's Spark SQL translation on Apache Spark.

The JVM plans the query, pushes what the sources take into the scans, and writes the rest as
Spark SQL (``io.calcitebridge.translate.SparkTranslator``) that reads each scan as a temporary
view ``scan_i``. Here each scan becomes that view in the user's SparkSession (or a ``local[1]``
session made on first use, or a Spark Connect client): Parquet, CSV and JSON files of the
``filesystem`` connector as Spark's own relation over the same files (CSV and JSON with the
declared schema and the reader options that read them as our reader does), with the pushed
filters written into its WHERE (Spark pushes them into its reader itself) and the file metadata
columns read from Spark's ``_metadata``; any other scan as a DataFrame made from its Arrow data,
only when that is small (:data:`UPLOAD_LIMIT`). The result comes back as Arrow
(``DataFrame.toArrow()``) and is cast to the schema the planner derived.

The session runs with ``spark.sql.caseSensitive=true``, ANSI mode on and the session time zone
of ``table.local-time-zone``: the translation counts on them. ``auto`` never chooses Spark; it
runs only when asked for by name (docs/spark.md).
"""

from __future__ import annotations

import collections
import concurrent.futures
import datetime as dt
import decimal
import os
import queue
import re
import sys
import threading
import time
import uuid
import warnings
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias, TypeVar

import pyarrow as pa

from .errors import (
    ConfigError,
    Error,
    ExecutionError,
    ResourceError,
    UnsupportedError,
    from_stream_failure,
)
from .errors import TimeoutError as StatementTimeoutError
from .expressions import COMPARISONS, Call, Expression, FieldReference, Literal
from .expressions import NestedFieldReference as _Nested

RELATIONS = 16
"""How many relations over files a runner keeps in its session (:meth:`Runner.relation`)."""

UPLOAD_LIMIT = 32 * 1024 * 1024
"""The largest Arrow data (bytes) a scan may upload to Spark; a larger one raises
``ResourceError``: its data must be where the cluster reads it (Parquet files)."""

INSTALL_HINT = "pip install 'calcite-bridge[spark]'"


def available() -> bool:
    """Whether pyspark is installed here (imported only when a query first runs on Spark)."""
    import importlib.util

    return importlib.util.find_spec("pyspark") is not None


def local_session(cores: int = 1, memory: str = "512m") -> Any:
    """A ``local[1]`` SparkSession for this process (``local[cores]``, with as many shuffle
    partitions): small memory, no UI, quiet logs."""
    if not available():
        raise ConfigError(f"The spark backend needs pyspark: {INSTALL_HINT}")
    from pyspark.sql import SparkSession

    # Python data sources run in Spark's Python workers: this interpreter, which has pyarrow
    # and calcite_bridge, unless the user chose one (read when the SparkContext starts).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName("calcite-bridge")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", memory)
        .config("spark.sql.shuffle.partitions", str(cores))
        .config("spark.default.parallelism", str(cores))
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.caseSensitive", "true")
        .config("spark.sql.ansi.enabled", "true")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    return session


def remote_session(url: str) -> Any:
    """A Spark Connect client of the server at ``url`` (``sc://host:port``)."""
    if not available():
        raise ConfigError(f"The spark backend needs pyspark: {INSTALL_HINT}")
    from pyspark.sql import SparkSession

    try:
        with warnings.catch_warnings():
            # pyspark warns of any pandas >= 3 when its Connect client loads; nothing here
            # goes through pandas.
            warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas")
            return SparkSession.builder.remote(url).getOrCreate()
    except ImportError as e:  # pyspark without the Connect client's dependencies (grpcio, ...)
        raise ConfigError(
            f"A Spark Connect client needs pyspark's connect extra: "
            f"pip install 'pyspark[connect]' ({e})"
        ) from None


_LOCK = threading.RLock()
_T = TypeVar("_T")


class _Worker:
    """The one thread of the process that calls into Spark for statements. One thread, not one
    per statement: pyspark pins each Python thread to a JVM thread of its own, and Spark keeps
    state there (``ADD JAR`` puts the jar in that thread's context class loader, which
    registering a Java UDF later needs). A daemon thread, so that work left running by a
    stopped statement never holds the process at its exit."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queue: queue.SimpleQueue[tuple[concurrent.futures.Future[Any], Callable[[], Any]]]
        self._queue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._pid = 0

    def submit(self, work: Callable[[], _T]) -> concurrent.futures.Future[_T]:
        future: concurrent.futures.Future[_T] = concurrent.futures.Future()
        with self._lock:
            if self._thread is None or self._pid != os.getpid():  # none yet, or a fork's copy
                self._queue = queue.SimpleQueue()
                self._thread = threading.Thread(
                    target=self._serve,
                    args=(self._queue,),
                    name="calcite-bridge-spark",
                    daemon=True,
                )
                self._pid = os.getpid()
                self._thread.start()
            self._queue.put((future, work))
        return future

    @staticmethod
    def _serve(
        work_queue: queue.SimpleQueue[tuple[concurrent.futures.Future[Any], Callable[[], Any]]],
    ) -> None:
        while True:
            future, work = work_queue.get()
            try:
                future.set_result(work())
            except BaseException as e:
                future.set_exception(e)

    def call(self, work: Callable[[], _T]) -> _T:
        """``work()`` on the thread, waited for."""
        return self.submit(work).result()


_WORKER = _Worker()

# --- the dynamic-columns UDFs -------------------------------------------------------------

UDF_JAR = os.path.join(os.path.dirname(__file__), "_jars", "calcite-bridge-spark-udf.jar")
"""The second jar: the ``COLUMN_*`` functions as Spark Java UDFs (``io.calcitebridge.sparkudf``),
added to a session the first time a query of it calls one."""

# The translation writes the names upper-case, and a session with spark.sql.caseSensitive finds a
# temporary function only by its exact name: each is registered as the SQL spells it.
_UDF_CALL = re.compile(
    r"\b(cb_dyncol_(get_(?:i8|f8|s|b|dt|ts|n(\d+)x(\d+))|json|list|check|exists|create|add|delete))\(",
    re.IGNORECASE,
)
_UDF_CLASSES = {
    "json": ("ColumnJson", "string"),
    "list": ("ColumnList", "string"),
    "check": ("ColumnCheck", "int"),
    "exists": ("ColumnExists", "int"),
    "create": ("ColumnCreate", "binary"),
    "add": ("ColumnAdd", "binary"),
    "delete": ("ColumnDelete", "binary"),
    "get_b": ("ColumnGet", "binary"),
    "get_i8": ("ColumnGet", "bigint"),
    "get_f8": ("ColumnGet", "double"),
    "get_s": ("ColumnGet", "string"),
    "get_dt": ("ColumnGet", "date"),
    "get_ts": ("ColumnGet", "timestamp_ntz"),
}
_REGISTERED: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()


def _register_udfs(spark: Any, sql: str) -> None:
    """Registers in ``spark`` the dynamic-columns UDFs ``sql`` calls (``cb_dyncol_*``, written by
    the translation), adding the UDF jar first: ``ADD JAR`` in a classic session,
    ``addArtifacts`` in a Spark Connect client."""
    _register_python(spark, sql)
    _register_java(spark, sql)
    calls = {m.group(1): m for m in _UDF_CALL.finditer(sql)}
    if not calls:
        return
    done = _REGISTERED.setdefault(spark, set())
    if not os.path.exists(UDF_JAR):
        raise ConfigError(
            f"The spark backend's dynamic-columns UDF jar is missing: {UDF_JAR} (make build)"
        )
    for name, m in calls.items():
        if name in done:
            continue
        if "" not in done:  # the UDF jar, added once
            _add_jar(spark, UDF_JAR)
            done.add("")
        if m.group(3) is not None:
            cls, ret = "ColumnGet", f"decimal({m.group(3)},{m.group(4)})"
        else:
            cls, ret = _UDF_CLASSES[m.group(2).lower()]
        spark.udf.registerJavaFunction(name, "io.calcitebridge.sparkudf." + cls, ret)
        done.add(name)


# A Java function's call (``cb_java_``; an aggregate function's over its group's rows,
# ``cb_javaagg_``): its name, then the string the translation passes first (function name; class;
# the parameter classes of eval, or of accumulate after the accumulator; jars), which holds no quote
# or backslash.
_JAVA_CALL = re.compile(r"\b(cb_java(?:agg)?_\d+(?:_[a-z0-9]+)+)\s*\(\s*'([^'\\]*)'", re.IGNORECASE)


def _add_jar(spark: Any, jar: str) -> None:
    """Adds ``jar`` to the session: ``addArtifacts`` in a Spark Connect client, else ``ADD JAR``
    (whose class loader is the worker thread's, where the statements run)."""
    if type(spark).__module__.startswith("pyspark.sql.connect"):
        spark.addArtifacts(jar)
    else:
        spark.sql("ADD JAR '" + jar.replace("\\", "\\\\").replace("'", "\\'") + "'")


def _register_java(spark: Any, sql: str) -> None:
    """Registers in ``spark`` each Java function ``sql`` calls (``cb_java_<id>_<types>``, written
    by the translation): the jars of its class and our UDF jar are added to the session, and the
    name is registered as our generic Java UDF of its number of arguments
    (``io.calcitebridge.sparkudf.JavaCall$A<n>``), which loads the class on the executors and
    calls the ``eval`` overload the first argument names; an aggregate function's
    (``cb_javaagg_<id>_<result>_rw``) as ``JavaCall$Agg``, which runs its accumulator over a
    group's rows."""
    calls = {m.group(1): m.group(2) for m in _JAVA_CALL.finditer(sql)}
    done = _REGISTERED.setdefault(spark, set())
    if not set(calls) - done:
        return
    from . import _udf

    if not os.path.exists(UDF_JAR):
        raise ConfigError(f"The spark backend's UDF jar is missing: {UDF_JAR} (make build)")
    for name, spec in sorted(calls.items()):
        if name in done:
            continue
        _, _, params, *jars = spec.split(";")
        for jar in [UDF_JAR, *jars]:
            key = "" if jar == UDF_JAR else "jar:" + jar  # "": the UDF jar, as for COLUMN_*
            if key not in done:
                _add_jar(spark, jar)
                done.add(key)
        arity = len(params.split(",")) if params else 0
        kind, code = name.lower().split("_")[1:4:2]
        result = _java_rows_type(name) if code == "tb" else _udf._spark_type(code)
        udf_class = "io.calcitebridge.sparkudf.JavaCall$" + (
            "Agg" if kind == "javaagg" else f"A{arity}"
        )
        if kind == "javaagg" or _java_deterministic(name):
            spark.udf.registerJavaFunction(name, udf_class, result)
        else:
            _register_nondeterministic_java(spark, name, spec.split(";")[0], udf_class, result)
        done.add(name)


def _java_rows_type(name: str) -> str:
    """Spark's type of the rows of the Java table function of ``name``: an array of structs."""
    import jpype

    found = jpype.JClass("io.calcitebridge.udf.JavaUdf").sparkRowsType(name)
    if found is None:
        raise UnsupportedError(f"The spark backend cannot find the table function of {name}")
    return str(found)


def _java_deterministic(name: str) -> bool:
    """Whether the Java function of ``name`` (``cb_java_<id>_...``) is deterministic, as its
    ``isDeterministic()`` says; True when this process's JVM does not know it."""
    try:
        import jpype

        if not jpype.isJVMStarted():
            return True
        found = jpype.JClass("io.calcitebridge.udf.JavaUdf").deterministic(name)
    except Exception:  # not this process's JVM: the function's own default
        return True
    return True if found is None else bool(found)


def _register_nondeterministic_java(
    spark: Any, name: str, label: str, udf_class: str, result: str
) -> None:
    """Registers our generic Java UDF under ``name`` marked non-deterministic (Spark's
    ``asNondeterministic``), so that Spark's optimizer neither folds nor reuses its calls: in a
    classic session through the session's own JVM objects (``registerJavaFunction`` has no such
    flag); a Spark Connect session registers Java UDFs as deterministic, so there it is refused."""
    if type(spark).__module__.startswith("pyspark.sql.connect"):
        raise UnsupportedError(
            f"The spark backend cannot run the function {label} over Spark Connect: it is not "
            "deterministic, and Spark Connect registers every Java UDF as deterministic"
        )
    from pyspark.sql.types import _parse_datatype_string

    jsession = spark._jsparkSession
    gateway = spark.sparkContext._gateway
    jvm = spark._jvm
    loader = jsession.artifactManager().classloader()
    constructor = loader.loadClass(udf_class).getDeclaredConstructor(
        gateway.new_array(jvm.java.lang.Class, 0)
    )
    instance = constructor.newInstance(gateway.new_array(jvm.java.lang.Object, 0))
    data_type = jsession.parseDataType(_parse_datatype_string(result).json())
    # functions.udf(UDFn, DataType), named by its parameter classes: py4j would pick the untyped
    # udf(Object, DataType), which Spark refuses.
    arity = int(udf_class.rsplit("$A", 1)[1]) + 1  # the spec, then the operands
    classes = gateway.new_array(jvm.java.lang.Class, 2)
    classes[0] = loader.loadClass(f"org.apache.spark.sql.api.java.UDF{arity}")
    classes[1] = loader.loadClass("org.apache.spark.sql.types.DataType")
    make = loader.loadClass("org.apache.spark.sql.functions").getMethod("udf", classes)
    arguments = gateway.new_array(jvm.java.lang.Object, 2)
    arguments[0] = instance
    arguments[1] = data_type
    udf = make.invoke(None, arguments).asNondeterministic()
    jsession.udf().register(name, udf)


_PYTHON_CALL = re.compile(r"\b(cb_py_\d+(?:_[a-z0-9]+)+)\s*\(", re.IGNORECASE)


def _register_python(spark: Any, sql: str) -> None:
    """Registers in ``spark`` each Python function ``sql`` calls (``cb_py_<id>_<types>``, written
    by the translation as for DuckDB): a scalar function as a Python UDF, a vectorized one as an
    Arrow UDF, both run in Spark's Python workers."""
    names = {m.group(1).lower() for m in _PYTHON_CALL.finditer(sql)}
    done = _REGISTERED.setdefault(spark, set())
    if not names - done:
        return
    from pyspark.sql import functions as F

    from . import _udf

    for name in sorted(names - done):
        found = _udf.spark_function(name)
        if found is None:
            continue  # a look-alike in a string literal, or a function dropped
        call, result, vectorized, deterministic = found
        if vectorized:
            arrow_udf = getattr(F, "arrow_udf", None)
            if arrow_udf is None:
                raise UnsupportedError(
                    "The spark backend runs a vectorized Python function as an Arrow UDF, which "
                    "needs pyspark 4.1 or later"
                )
            registered = arrow_udf(call, result)
        else:
            registered = F.udf(call, result)
        if not deterministic:
            registered = registered.asNondeterministic()
        spark.udf.register(name, registered)
        done.add(name)


class Runner:
    """The SparkSession an environment's spark queries run on: the user's, a Spark Connect
    client of ``remote``, or a ``local[1]`` session made on first use."""

    def __init__(
        self, session: Any = None, remote: str | None = None, upload_limit: int = UPLOAD_LIMIT
    ) -> None:
        self._session = session
        self._remote = remote
        self.upload_limit = upload_limit
        # The temporary views scan_i are a session's, and environments share the local session:
        # one query at a time in the process.
        self._lock = _LOCK
        self._zone: str | None = None
        # A Connect session's own spark.sql.adaptive.enabled while a statement under a time
        # limit runs with it off (None: not changed) (:meth:`_bound`)
        self._adaptive: str | None = None
        self._starting: concurrent.futures.Future[Any] | None = None
        # Spark's relations over files (temporary views), by Files.relation_key, newest last
        self._relations: collections.OrderedDict[tuple[Any, ...], str] = collections.OrderedDict()

    def _started(self, job: _Job | None) -> Any:
        """The session, started on a thread of its own. Starting a local session launches
        Spark's JVM, which takes seconds; interrupted there, pyspark left that JVM running after
        the process ended, holding the process's standard output and error open."""
        future = self._starting
        if future is None or (future.done() and future.exception() is not None):
            future = self._starting = concurrent.futures.Future()
            remote = self._remote

            def start() -> None:
                try:
                    future.set_result(remote_session(remote) if remote else local_session())
                except BaseException as e:
                    future.set_exception(e)

            threading.Thread(target=start, name="calcite-bridge-spark-start", daemon=True).start()
        while True:
            try:
                return future.result(timeout=0.1)
            except concurrent.futures.TimeoutError:
                if job is not None:
                    job.raise_if_stopped()

    def relation(self, spark: Any, scan: Files) -> str:
        """The name of a temporary view of Spark's relation over the files of ``scan``, made
        the first time and kept while the files are unchanged (their stamps are in the key), as
        a user of Spark alone reads a view of the files made once: making the relation lists
        the files and reads a footer for the schema, which cost a statement as much as a
        selective query over a million rows (docs/spark.md). Past :data:`RELATIONS`, the
        oldest are dropped once the statement has run (:meth:`trim`)."""
        key = scan.relation_key()
        name = self._relations.get(key)
        if name is not None:
            self._relations.move_to_end(key)
            return name
        name = f"cb_files_{uuid.uuid4().hex[:16]}"
        _files_frame(spark, scan).createOrReplaceTempView(name)
        self._relations[key] = name
        return name

    def trim(self, spark: Any) -> None:
        """Drops the oldest relations of files past :data:`RELATIONS`, after a statement (one
        statement may read more tables of files than that)."""
        while len(self._relations) > RELATIONS:
            _, old = self._relations.popitem(last=False)
            _drop(spark, [old])

    def forget_relations(self, spark: Any, error: str) -> bool:
        """Forgets the relations this runner keeps when ``error`` (Spark's) says the session
        no longer has one of them; whether it did."""
        if "TABLE_OR_VIEW_NOT_FOUND" not in error or not any(
            name in error for name in self._relations.values()
        ):
            return False
        _drop(spark, list(self._relations.values()))
        self._relations.clear()
        return True

    def close(self) -> None:
        """Ends the Spark Connect client this runner made (a ``local[1]`` session stays, for
        other environments of the process; a session of the user's is the user's) and drops
        the relations of files it kept in the session."""
        with self._lock:
            if self._relations and self._session is not None:
                _drop(self._session, list(self._relations.values()))
            self._relations.clear()
            if self._remote and self._session is not None:
                try:
                    self._session.stop()
                except Exception:
                    pass
                self._session = None
                self._zone = None
                self._adaptive = None

    def session(self, time_zone: str, job: _Job | None = None) -> Any:
        """The session, configured for the translation (case-sensitive names, ANSI mode, the
        session time zone ``time_zone``). The first call starts it (:meth:`_started`): past
        ``job``'s deadline that call raises its ``TimeoutError``, and Ctrl-C its
        KeyboardInterrupt, while the session goes on starting for the next statement."""
        with self._lock:
            if self._session is None:
                self._session = self._started(job)
            spark = self._session
            if self._zone != time_zone:
                spark.conf.set("spark.sql.caseSensitive", "true")
                spark.conf.set("spark.sql.ansi.enabled", "true")
                spark.conf.set("spark.sql.session.timeZone", time_zone)
                # Python sources' filters reach them through Spark's pushFilters
                spark.conf.set("spark.sql.python.filterPushdown.enabled", "true")
                self._zone = time_zone
            if job is not None and _is_connect(spark):
                self._bound(spark, job.deadline is not None)
            return spark

    def _bound(self, spark: Any, bounded: bool) -> None:
        """Turns a Spark Connect session's adaptive query execution off for a statement under
        a time limit, and back to what the session had for one without.

        Spark's AQE submits a shuffle stage's job from a thread of its own: it checks that the
        query is not cancelled, then builds the stage's input (code generation, hundreds of
        milliseconds on a loaded machine), then submits the job. A query interrupted in between
        leaves a job that runs to its end, and on Connect nothing a client can call reaches it
        (an interrupt reaches operations, and the operation is gone): a three-way cross join
        stopped at its deadline held a ``local[1]`` server's core for good. Without AQE the
        query's jobs are submitted by the operation's own thread, which the interrupt stops and
        whose jobs the server then cancels. A session of this process needs none of this: its
        statement's own tag is cancelled a while after the statement ends (:class:`_Job`)."""
        if bounded == (self._adaptive is not None):
            return
        key = "spark.sql.adaptive.enabled"
        if bounded:
            self._adaptive = spark.conf.get(key, "true")
            spark.conf.set(key, "false")
        else:
            spark.conf.set(key, self._adaptive)
            self._adaptive = None


# --- scans ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Files:
    """A scan Spark reads itself: the ``files`` in ``format`` (``parquet``, ``csv`` or ``json``)
    with Spark's reader ``options`` and, for CSV and JSON, the declared ``schema`` (Spark DDL,
    never inferred); and a SELECT over the view of them (named by ``{files}``) giving the
    scan's columns, with the pushed filters. ``metadata``: the view has Spark's ``_metadata``
    column, for the file metadata columns."""

    files: tuple[str, ...]
    select: str
    format: str = "parquet"
    options: tuple[tuple[str, str], ...] = ()
    schema: str | None = None
    metadata: bool = False
    stamps: tuple[tuple[int, int, int], ...] = ()

    def relation_key(self) -> tuple[Any, ...]:
        """What Spark's relation over the files depends on: the files as they are now (each
        one's modification time, size and inode), the format, the reader's schema and options,
        and whether the ``_metadata`` column is read."""
        return (self.format, self.files, self.stamps, self.options, self.schema, self.metadata)


Scan: TypeAlias = "pa.Table | pa.RecordBatchReader | Files | PythonSource"


def _q(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


_SIMPLE = (
    pa.types.is_integer,
    pa.types.is_boolean,
    pa.types.is_string,
    pa.types.is_date32,
    pa.types.is_decimal128,
)


def _readable(t: pa.DataType) -> bool:
    """Whether Spark reads a Parquet column of Arrow type ``t`` as that type (checked again
    when the result is cast); unsigned integers and timestamps are left to our reader. A
    BINARY column (dynamic-columns blobs) is read as the same bytes."""
    if pa.types.is_unsigned_integer(t):
        return False
    if pa.types.is_binary(t):
        return True
    if pa.types.is_struct(t):
        return all(_readable(t.field(i).type) for i in range(t.num_fields))
    if pa.types.is_list(t):
        return _readable(t.value_type)
    return any(test(t) for test in _SIMPLE) or pa.types.is_floating(t)


def _text_readable(t: pa.DataType, fmt: str) -> bool:  # noqa: PLR0911
    """Whether Spark's CSV or JSON reader parses every value our reader (pyarrow's) parses
    into a column of type ``t`` as the same value. Left out: floating point (``nan``, ``inf``
    and their spellings), BOOLEAN in CSV (pyarrow also reads ``1`` and ``0``), timestamps, and
    DATE and DECIMAL in JSON."""
    if pa.types.is_unsigned_integer(t):
        return False
    if pa.types.is_integer(t) or pa.types.is_string(t):
        return True
    if fmt == "csv":
        return bool(pa.types.is_date32(t) or pa.types.is_decimal128(t))
    if pa.types.is_boolean(t):
        return True
    if pa.types.is_struct(t):
        return all(_text_readable(t.field(i).type, fmt) for i in range(t.num_fields))
    if pa.types.is_list(t):
        return _text_readable(t.value_type, fmt)
    return False


def _spark_type(t: pa.DataType) -> str:  # noqa: PLR0911
    """Spark's DDL name of a type :func:`_text_readable` accepts; STRING for any other column
    (one the scan does not read: Spark then only splits it off, never parses it)."""
    if pa.types.is_int8(t):
        return "TINYINT"
    if pa.types.is_int16(t):
        return "SMALLINT"
    if pa.types.is_int32(t):
        return "INT"
    if pa.types.is_int64(t):
        return "BIGINT"
    if pa.types.is_boolean(t):
        return "BOOLEAN"
    if pa.types.is_date32(t):
        return "DATE"
    if pa.types.is_decimal128(t):
        return f"DECIMAL({t.precision}, {t.scale})"
    if pa.types.is_struct(t):
        fields = [f"{_q(f.name)}: {_spark_type(f.type)}" for f in t]
        return "STRUCT<" + ", ".join(fields) + ">"
    if pa.types.is_list(t):
        return f"ARRAY<{_spark_type(t.value_type)}>"
    return "STRING"


# Spark's CSV reader reads an empty unquoted field as its `nullValue` and `""` as its
# `emptyValue`, then NULLs every value equal to `nullValue`: with the default (empty) both are
# NULL. With this value no field written in a text file is NULL but the empty unquoted one,
# as in our reader.
_CSV_NULL = "\u0000calcite-bridge-null\u0000"
_CSV_REFUSED_DELIMITERS = {
    '"': "the quote",
    "\\": "a backslash",
    "\n": "a newline",
    "\r": "a newline",
}
# Spark's JSON parser (Jackson) refuses documents nested deeper than this by itself.
_SPARK_JSON_DEPTH = 1000


def _text_options(source: Any) -> tuple[tuple[str, str], ...]:
    """Spark's reader options that read ``source``'s CSV or JSON files as our reader does;
    ``UnsupportedError`` for a table option Spark cannot honour exactly."""
    from .sources.filesystem import JSON_MAX_DEPTH

    if source.format == "csv":
        delimiter = source.options.get("csv.field-delimiter", ",")
        refused = _CSV_REFUSED_DELIMITERS.get(delimiter)
        if len(delimiter) != 1 or refused is not None:
            what = refused or f"{len(delimiter)} characters"
            raise UnsupportedError(
                f"The spark backend cannot read CSV files with 'csv.field-delimiter' = "
                f"{delimiter!r} ({what}) as the filesystem connector does"
            )
        return (
            ("header", "true"),
            ("enforceSchema", "true"),  # the header is checked against the table's here
            ("sep", delimiter),
            ("quote", '"'),
            ("escape", '"'),  # a quote in a quoted field is doubled, not escaped by \
            ("nullValue", _CSV_NULL),
            ("emptyValue", ""),
            ("mode", "FAILFAST"),
            ("multiLine", "false"),
            ("ignoreLeadingWhiteSpace", "false"),
            ("ignoreTrailingWhiteSpace", "false"),
            ("dateFormat", "yyyy-MM-dd"),
            ("locale", "en-US"),
        )
    raw = source.options.get("json.max-depth", str(JSON_MAX_DEPTH))
    if raw.strip().isdigit() and int(raw) > _SPARK_JSON_DEPTH:
        raise UnsupportedError(
            f"The spark backend cannot read JSON nested deeper than {_SPARK_JSON_DEPTH} levels: "
            f"'json.max-depth' = '{raw}' is more than Spark's parser reads"
        )
    return (
        ("mode", "FAILFAST"),
        ("multiLine", "false"),
        ("allowSingleQuotes", "false"),
        ("allowNonNumericNumbers", "false"),
        ("allowComments", "false"),
        ("allowUnquotedFieldNames", "false"),
        ("allowNumericLeadingZeros", "false"),
        ("allowBackslashEscapingAnyCharacter", "false"),
        ("allowUnquotedControlChars", "false"),
        ("primitivesAsString", "false"),
        ("encoding", "UTF-8"),
    )


def _csv_header(path: str, delimiter: str) -> list[str] | None:
    """The column names in the first line of the CSV file at ``path`` (None when unreadable)."""
    import csv

    try:
        with open(path, encoding="utf-8", newline="") as fh:
            for row in csv.reader(fh, delimiter=delimiter, doublequote=True, strict=True):
                if row:  # pyarrow skips empty lines before the header, as Spark does
                    return row
    except (OSError, UnicodeDecodeError, csv.Error):
        return None
    return None


# Characters of a path Spark's reader reads as a glob (`*?[]{}` and its escape `\`) or cannot
# take in a file's name (`:`): files named so are read here.
_SPARK_PATH_CHARACTERS = ("*", "?", "[", "]", "{", "}", "\\", ":")

# The file metadata columns of the filesystem connector as Spark's `_metadata` fields: Spark
# writes a path as a URI (`file:/a%20b`, a `+` left as it is), and a name URI-encoded too.
_METADATA_SQL = {
    "file.path": "url_decode(replace(substr(`_metadata`.`file_path`, 6), '+', '%2B'))",
    "file.name": "url_decode(replace(`_metadata`.`file_name`, '+', '%2B'))",
    "file.size": "`_metadata`.`file_size`",
    "file.modification-time": "`_metadata`.`file_modification_time`",
}


def _literal(value: object) -> str | None:  # noqa: PLR0911
    if value is None:
        return None
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return f"{value}L" if abs(value) > 2**31 - 1 else str(value)
    if isinstance(value, decimal.Decimal) and value.is_finite():
        return f"{format(value, 'f')}BD"
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, dt.datetime):
        return None
    if isinstance(value, dt.date):
        return f"DATE '{value.isoformat()}'"
    return None


class _Filters:
    """Writes pushed filters as Spark SQL over the file's columns (nested fields included)."""

    def __init__(self, schema: pa.Schema) -> None:
        self.schema = schema

    def column(self, expr: Expression) -> tuple[str, pa.DataType] | None:
        if isinstance(expr, FieldReference):
            path: tuple[str, ...] = (expr.name,)
        elif isinstance(expr, _Nested):
            path = tuple(expr.field_names)
        else:
            return None
        if self.schema.get_field_index(path[0]) < 0:
            return None
        t = self.schema.field(path[0]).type
        for name in path[1:]:
            if not pa.types.is_struct(t) or t.get_field_index(name) < 0:
                return None
            t = t.field(name).type
        if pa.types.is_floating(t) or not any(test(t) for test in _SIMPLE):
            return None  # NaN compares differently; nested values are not compared here
        return ".".join(_q(n) for n in path), t

    def sql(self, expr: Expression) -> str | None:  # noqa: PLR0911
        if not isinstance(expr, Call) or not expr.args:
            return None
        fn, args = expr.function.upper(), expr.args
        if fn in ("AND", "OR"):
            parts = [self.sql(a) for a in args]
            if any(p is None for p in parts):
                return None
            return "(" + f" {fn} ".join(p for p in parts if p is not None) + ")"
        if fn == "NOT" and len(args) == 1:
            inner = self.sql(args[0])
            return None if inner is None else f"(NOT {inner})"
        if fn in ("IS NULL", "IS NOT NULL") and len(args) == 1:
            column = self.column(args[0])
            return None if column is None else f"({column[0]} {fn})"
        if fn in COMPARISONS and len(args) == 2:
            left, right = args
            if isinstance(right, Literal):
                column, value = self.column(left), self.value(right, left)
            elif isinstance(left, Literal):
                column, value = self.column(right), self.value(left, right)
            else:
                return None
            if column is None or value is None:
                return None
            a, b = (column[0], value) if isinstance(right, Literal) else (value, column[0])
            return f"({a} {'!=' if fn == '<>' else fn} {b})"
        if fn == "IN" and len(args) >= 2:
            column = self.column(args[0])
            items = [self.value(a, args[0]) if isinstance(a, Literal) else None for a in args[1:]]
            if column is None or any(i is None for i in items):
                return None
            return f"({column[0]} IN ({', '.join(i for i in items if i is not None)}))"
        return None

    def value(self, literal: Expression, column: Expression) -> str | None:
        found = self.column(column)
        if found is None or not isinstance(literal, Literal):
            return None
        t = found[1]
        v = literal.value
        # Only a literal of the column's own kind: no implicit cast decides the comparison.
        if pa.types.is_string(t) != isinstance(v, str) or pa.types.is_boolean(t) != isinstance(
            v, bool
        ):
            return None
        if pa.types.is_date32(t) != (isinstance(v, dt.date) and not isinstance(v, dt.datetime)):
            return None
        return _literal(v)


def _walk(table: pa.Schema, path: tuple[int, ...]) -> tuple[pa.Field, list[str]] | None:
    """The field at ``path`` (a top-level index, then struct field indexes) and the names on the
    way to it, or None where the path leaves the schema."""
    if not path or not 0 <= path[0] < len(table):
        return None
    f = table.field(path[0])
    names = [f.name]
    for i in path[1:]:
        if not pa.types.is_struct(f.type) or not 0 <= i < f.type.num_fields:
            return None
        f = f.type.field(i)
        names.append(f.name)
    return f, names


def files_scan(  # noqa: PLR0911, PLR0912, PLR0915 (one return per reason to read it ourselves)
    source: Any, request_json: str, columns: list[str], schema: pa.Schema
) -> Files | None:
    """The scan as Spark's own Parquet, CSV or JSON relation, when the source is the
    ``filesystem`` connector, the files are ones Spark reads as our reader does (Parquet files
    of one schema; CSV files whose header names the table's columns in order), and the columns
    and filters are ones Spark reads and compares as our reader does; else None. A file
    metadata column reads Spark's ``_metadata``. A table option Spark cannot honour raises
    ``UnsupportedError``."""
    from .sources.base import ScanRequest
    from .sources.filesystem import _IGNORE_PREFIXES, METADATA, FileSystemSource
    from .sources.parquet import list_files
    from .sources.parquet_footers import _stamp, footer

    if not isinstance(source, FileSystemSource) or type(source).scan is not FileSystemSource.scan:
        return None
    if source.partition_keys:
        return None  # the partitions are the connector's to choose, type and read
    fmt = source.format
    try:
        source._confine()
        request = ScanRequest.from_json(request_json)
        if any(k not in METADATA for k in request.metadata_keys):
            return None
        table = source._scan_schema()
        if "_metadata" in table.names and request.metadata_keys:
            return None  # a column of that name hides Spark's metadata column
        files = list_files(source.path, _IGNORE_PREFIXES)
        if not files or any(c in f for f in files for c in _SPARK_PATH_CHARACTERS):
            return None
        options: tuple[tuple[str, str], ...] = ()
        read_schema: str | None = None
        if fmt == "parquet":
            first = footer(files[0]).schema
            if not all(footer(f).schema.equals(first) for f in files[1:]):
                return None
        else:
            options = _text_options(source)
            if fmt == "csv":
                delimiter = dict(options)["sep"]
                if any(_csv_header(f, delimiter) != table.names for f in files):
                    return None
            else:
                source._check_json_depth()  # our reader's own refusal, before Spark reads
            read_schema = ", ".join(f"{_q(f.name)} {_spark_type(f.type)}" for f in table)
        if request.projection is not None:
            paths = [tuple(p) for p in request.projection]
        elif request.columns is not None:
            paths = [(table.get_field_index(c),) for c in request.columns]
        else:
            paths = [(i,) for i in range(len(table))]
        keys = list(request.metadata_keys)
        if len(paths) + len(keys) != len(columns) or not columns:
            return None
        # The stream columns the source would produce, by name (a field of a ROW column by its
        # dotted path, a metadata column by its key): `columns` reads them in the scan's order,
        # where a metadata column may come before discovered ones.
        produced: dict[str, tuple[str, pa.DataType | None]] = {}
        for path in paths:
            walked = _walk(table, path)
            if walked is None:
                return None
            f, names = walked
            if fmt == "parquet":
                top = first.get_all_field_indices(names[0])
                if len(top) != 1 or not first.field(top[0]).type.equals(table.field(path[0]).type):
                    return None
                if not _readable(f.type):
                    return None
            elif not _text_readable(table.field(path[0]).type, fmt):
                return None
            produced[".".join(names)] = (".".join(_q(n) for n in names), f.type)
        for key in keys:
            if key in produced:
                return None  # a column named as the key: which one the scan reads is unclear
            produced[key] = (_METADATA_SQL[key], None)
        items = []
        for name, field in zip(columns, schema, strict=True):
            if name not in produced:
                return None
            expr, type_ = produced[name]
            if type_ is not None and not type_.equals(field.type):
                return None
            items.append(f"{expr} AS {_q(field.name)}")
        filters = _Filters(table)
        conditions = [filters.sql(f) for f in request.filters]
        if any(c is None for c in conditions):
            return None
        if fmt != "parquet":
            for flt in request.filters:
                for ref in _references(flt):
                    if not _text_readable(table.field(ref).type, fmt):
                        return None
        sql = "SELECT " + ", ".join(items) + " FROM {files}"
        if conditions:
            sql += " WHERE " + " AND ".join(c for c in conditions if c is not None)
        if request.limit is not None:
            sql += f" LIMIT {int(request.limit)}"
        stamps = tuple(_stamp(f) for f in files)
        return Files(tuple(files), sql, fmt, options, read_schema, bool(keys), stamps)
    except Error:
        raise
    except Exception:
        return None


def _references(expr: Expression) -> set[str]:
    """The top-level columns ``expr`` reads."""
    if isinstance(expr, FieldReference):
        return {expr.name}
    if isinstance(expr, _Nested):
        return {expr.field_names[0]}
    if isinstance(expr, Call):
        return set().union(*(_references(a) for a in expr.args)) if expr.args else set()
    return set()


@dataclass(frozen=True)
class PythonSource:
    """A scan Spark reads through its Python Data Source API: ``source`` (pickled to Spark's
    Python workers) as a relation of the DDL ``schema``, and a SELECT over it (named by
    ``{files}``) with the pushed filters, which Spark hands to the reader's ``pushFilters``."""

    source: Any
    schema: pa.Schema
    select: str


def python_scan(  # noqa: PLR0911, PLR0912 (one return per reason to upload it instead)
    source: Any, request_json: str, schema: pa.Schema
) -> PythonSource | None:
    """The scan as a Python data source of Spark's, when ``source`` negotiates filters
    (``apply_filters``), is not a table of this process (``register_arrow``: uploaded), can be
    pickled, its columns are ones Spark holds as the same values, and every pushed filter is
    written in Spark SQL; else None."""
    from .sources.arrow import ArrowTableSource
    from .sources.base import ScanRequest
    from .sources.filesystem import FileSystemSource

    if (
        type(source) is ArrowTableSource
        or isinstance(source, FileSystemSource)
        or not callable(getattr(source, "apply_filters", None))
    ):
        return None
    try:
        import pyspark
        from pyspark import cloudpickle

        if tuple(int(x) for x in pyspark.__version__.split(".")[:2]) < (4, 1):
            return None
        request = ScanRequest.from_json(request_json)
        if request.metadata_keys or request.limit is not None:
            return None
        table = source.schema()
        if not all(_readable(f.type) for f in table):
            return None
        if request.projection is not None:
            paths = [tuple(p) for p in request.projection]
        elif request.columns is not None:
            paths = [(table.get_field_index(c),) for c in request.columns]
        else:
            paths = [(i,) for i in range(len(table))]
        if len(paths) != len(schema) or not paths:
            return None
        items = []
        for path, field in zip(paths, schema, strict=True):
            walked = _walk(table, path)
            if walked is None:
                return None
            f, names = walked
            if not f.type.equals(field.type):
                return None
            items.append(".".join(_q(n) for n in names) + " AS " + _q(field.name))
        filters = _Filters(table)
        conditions = [filters.sql(f) for f in request.filters]
        if any(c is None for c in conditions):
            return None
        cloudpickle.dumps(source)  # type: ignore[no-untyped-call]  # Spark's Python workers read it
    except Error:
        raise
    except Exception:
        return None
    sql = "SELECT " + ", ".join(items) + " FROM {files}"
    if conditions:
        sql += " WHERE " + " AND ".join(c for c in conditions if c is not None)
    return PythonSource(source, table, sql)


def _spark_filter(flt: Any, table: pa.Schema) -> Expression | None:
    """One of the filters Spark pushes into a Python data source (``EqualTo(('user', 'age'),
    30)``, ...) as our filter expression, or None when it has no exact counterpart."""
    from ._types import arrow_to_sql

    def reference(path: tuple[str, ...]) -> tuple[Expression, str] | None:
        if table.get_field_index(path[0]) < 0:
            return None
        indices = [table.get_field_index(path[0])]
        t = table.field(path[0]).type
        for name in path[1:]:
            if not pa.types.is_struct(t) or t.get_field_index(name) < 0:
                return None
            indices.append(t.get_field_index(name))
            t = t.field(name).type
        sql_type = arrow_to_sql(t)
        if len(path) == 1:
            return FieldReference(path[0], sql_type, 0, indices[0]), sql_type
        return _Nested(path, tuple(indices), sql_type), sql_type

    kind = type(flt).__name__
    operators = {
        "EqualTo": "=",
        "GreaterThan": ">",
        "GreaterThanOrEqual": ">=",
        "LessThan": "<",
        "LessThanOrEqual": "<=",
    }
    if kind == "Not":
        inner = _spark_filter(flt.child, table)
        return None if inner is None else Call("NOT", (inner,), "BOOLEAN")
    found = reference(tuple(flt.attribute)) if hasattr(flt, "attribute") else None
    if found is None:
        return None
    ref, sql_type = found
    if kind in ("IsNull", "IsNotNull"):
        return Call("IS NULL" if kind == "IsNull" else "IS NOT NULL", (ref,), "BOOLEAN")
    if kind in operators and flt.value is not None:
        return Call(operators[kind], (ref, Literal(flt.value, sql_type)), "BOOLEAN")
    if kind == "In" and all(v is not None for v in flt.value):
        values = tuple(Literal(v, sql_type) for v in flt.value)
        return Call("IN", (ref, *values), "BOOLEAN")
    return None


def _data_source(scan: PythonSource, name: str) -> Any:
    """A Python data source class of Spark's named ``name`` reading ``scan.source``: its
    reader's ``pushFilters`` offers Spark's filters to the source's ``apply_filters`` (nested
    column paths as nested field references, when the source takes them) and returns those it
    does not accept, for Spark to apply; ``read`` scans the source with the accepted ones."""
    from pyspark.sql.datasource import DataSource, DataSourceReader
    from pyspark.sql.pandas.types import from_arrow_schema

    source, table = scan.source, scan.schema
    ddl = from_arrow_schema(table, True)

    class Reader(DataSourceReader):
        def __init__(self) -> None:
            self.accepted: list[Expression] = []

        def pushFilters(self, filters: list[Any]) -> Any:
            nested = bool(getattr(source, "supports_nested_filters", lambda: False)())
            offered: list[tuple[Any, Expression]] = []
            for flt in filters:
                mine = _spark_filter(flt, table)
                if mine is None or (not nested and isinstance_nested(mine)):
                    yield flt
                else:
                    offered.append((flt, mine))
            if not offered:
                return
            result = source.apply_filters([mine for _, mine in offered])
            accepted = list(result.accepted)
            remaining = list(result.remaining)
            for flt, mine in offered:
                if mine in accepted:
                    self.accepted.append(mine)
                if mine in remaining or mine not in accepted:
                    yield flt

        def read(self, partition: Any) -> Any:
            from calcite_bridge.sources.base import ScanRequest

            opened = source.scan(ScanRequest(filters=tuple(self.accepted)))
            batches = opened.to_batches() if isinstance(opened, pa.Table) else opened
            for batch in batches:
                arrays = [batch.column(f.name) for f in table]
                yield pa.RecordBatch.from_arrays(
                    [
                        a if a.type == f.type else a.cast(f.type)
                        for a, f in zip(arrays, table, strict=True)
                    ],
                    schema=table,
                )

    def isinstance_nested(expr: Expression) -> bool:
        from calcite_bridge.expressions import is_nested

        return bool(is_nested(expr))

    class Source(DataSource):
        @classmethod
        def name(cls) -> str:
            return name

        def schema(self) -> Any:
            return ddl

        def reader(self, schema: Any) -> Any:
            return Reader()

    return Source


def source_scan(
    source: Any, request: str, columns: list[str], schema: pa.Schema, confined: bool
) -> Scan:
    """Opens a scan of a source of this process with the planner's request: Spark's own
    Parquet, CSV or JSON relation when possible (never in a confined environment: Spark has no
    sandbox), a Python data source of Spark's for a Python source that negotiates filters,
    else the source's rows as Arrow, ``columns`` renamed and cast to ``schema``."""
    if not confined:
        files = files_scan(source._calls.source, request, columns, schema)
        if files is not None:
            return files
        python = python_scan(source._calls.source, request, schema)
        if python is not None:
            return python
    from . import _duckdb

    # Spark reads Arrow: DuckDB's own file reading is not for it
    opened = _duckdb.source_scan(source, request, columns, schema, own_reader=False)
    assert not isinstance(opened, _duckdb.Query)
    return opened


# --- running ----------------------------------------------------------------------------------


_SCAN = re.compile(r"`scan_(\d+)`")


def _files_frame(spark: Any, scan: Files) -> Any:
    """Spark's own relation over the files of ``scan``, as a DataFrame."""
    reader = spark.read.format(scan.format)
    if scan.schema is not None:
        reader = reader.schema(scan.schema)
    for key, value in scan.options:
        reader = reader.option(key, value)
    files = reader.load(list(scan.files))
    return files.select("*", "_metadata") if scan.metadata else files


def _register(
    spark: Any, scans: list[Scan], prefix: str, limit: int, runner: Runner | None = None
) -> tuple[list[str], list[str]]:
    """Makes each scan the relation ``{prefix}{i}``: the temporary views made (to drop after
    the statement) and the common table expressions to put before the statement's SQL. With a
    ``runner``, a scan of files is a common table expression over the runner's relation of the
    files (:meth:`Runner.relation`, made once while they are unchanged), as Spark alone reads
    a view of files it made once; without, every scan is a view of its own."""
    names: list[str] = []
    ctes: list[str] = []
    for i, scan in enumerate(scans):
        name = f"{prefix}{i}"
        if isinstance(scan, Files) and runner is not None:
            relation = runner.relation(spark, scan)
            ctes.append(f"{_q(name)} AS ({scan.select.format(files=_q(relation))})")
            continue
        if isinstance(scan, Files):
            relation = f"{prefix}files_{i}"
            _files_frame(spark, scan).createOrReplaceTempView(relation)
            names.append(relation)
            frame = spark.sql(scan.select.format(files=_q(relation)))
        elif isinstance(scan, PythonSource):
            relation = f"{prefix}source_{i}"
            source_name = f"calcite_bridge_{uuid.uuid4().hex[:16]}"
            spark.dataSource.register(_data_source(scan, source_name))
            spark.read.format(source_name).load().createOrReplaceTempView(relation)
            names.append(relation)
            frame = spark.sql(scan.select.format(files=_q(relation)))
        else:
            table = scan.read_all() if isinstance(scan, pa.RecordBatchReader) else scan
            if table.nbytes > limit:
                raise ResourceError(
                    f"The spark backend uploads a table of at most {limit} bytes to Spark; "
                    f"scan {i} holds {table.nbytes}. Put the data where the cluster can read "
                    "it (a filesystem table of Parquet files) or run the query on another "
                    "backend"
                )
            frame = _upload(spark, table)
        frame.createOrReplaceTempView(name)
        names.append(name)
    return names, ctes


def _with(ctes: list[str], sql: str) -> str:
    """``sql`` after the common table expressions ``ctes`` (the statement's SQL never starts
    with a WITH of its own: the translation writes none)."""
    return "WITH " + ", ".join(ctes) + " " + sql if ctes else sql


def _upload(spark: Any, table: pa.Table) -> Any:
    """``table`` as a DataFrame with its own types: a timestamp without a zone stays one
    (``TIMESTAMP_NTZ``; Spark would read it as an instant in the session's zone)."""
    from pyspark.sql.pandas.types import from_arrow_schema

    return spark.createDataFrame(table, schema=from_arrow_schema(table.schema, True))


def _drop(spark: Any, names: list[str]) -> None:
    for name in names:
        try:
            spark.catalog.dropTempView(name)
        except Exception:
            pass


def _close(scans: list[Scan]) -> None:
    for scan in scans:
        if isinstance(scan, pa.RecordBatchReader):
            scan.close()


# How long a stopped statement's tag is still cancelled after the statement returned (its tag
# is its own, so no other statement is touched): Spark's adaptive execution may submit a
# stage's job after the query that needed it was cancelled.
GRACE_SECONDS = 30.0


def _is_connect(spark: Any) -> bool:
    return type(spark).__module__.startswith("pyspark.sql.connect")


class _Job:
    """The Spark jobs of one statement, tagged so that they, and only they, can be stopped: by
    its deadline (``TimeoutError``), by Ctrl-C, and, on a session of this process, by
    ``execution.memory-limit`` (``ResourceError``) when Spark's execution memory, or the Spark
    JVM's heap after a garbage collection, holds more than the limit over what it held as the
    statement began.

    A classic session's jobs are cancelled by their job tag (``SparkSession.interruptAll``
    finds no operation there); a Spark Connect client's operations are interrupted by their
    tag. A Connect server's memory is the server's: the limit is not watched there."""

    def __init__(
        self, deadline: tuple[float, str] | None, memory_limit: int, statement: str | None
    ) -> None:
        self.spark: Any = None
        self.connect = False
        self.statement = statement
        self.deadline = deadline
        # counted from now: a session started first (tens of seconds, once) counts towards it
        self.end = None if deadline is None else time.monotonic() + max(deadline[0], 0.0)
        self.memory_limit = memory_limit
        self.tag = f"calcite-bridge-{uuid.uuid4().hex}"
        self.reason: Error | None = None  # why the jobs were stopped, once they were
        self.finished = threading.Event()
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []

    def on(self, spark: Any) -> _Job:
        """The job on ``spark``'s session, to run in a ``with`` block."""
        self.spark = spark
        self.connect = _is_connect(spark)
        return self

    def __enter__(self) -> _Job:
        if self.connect:
            self.spark.addTag(self.tag)
        else:
            self.spark.sparkContext.addJobTag(self.tag)
        if self.deadline is not None:
            self._start(self._time_out)
        if self.memory_limit > 0 and not self.connect:
            self._settle()
            self._start(self._watch_memory)
        return self

    def _settle(self) -> None:
        """Lets an earlier statement's memory go before the memory watch takes its baseline.

        Statements run one at a time here, so a stage that runs now belongs to an earlier
        statement that was stopped: Spark ends a cancelled task only when the task next checks
        for it (seconds later). The wait for it costs this statement nothing (the session's one
        core is that task's until it ends) and ends at the deadline, on Ctrl-C and after 60 s.
        Then a full collection, so that the heap the watch starts from holds no garbage of the
        earlier statement that a later collection would otherwise count as this one's growth
        (about 0.1 s, and only under execution.memory-limit)."""
        try:
            context = self.spark.sparkContext
            tracker = context.statusTracker()
        except Exception:
            return
        give_up = time.monotonic() + 60.0
        while not self._stopping.is_set() and time.monotonic() < give_up:
            try:
                if not tracker.getActiveStageIds():
                    break
            except Exception:
                return
            if self.deadline is not None and self._past_deadline():
                return
            time.sleep(0.05)
        try:
            context._jvm.java.lang.System.gc()
        except Exception:
            pass

    def __exit__(self, *exc: object) -> None:
        self.finished.set()
        for thread in self._threads:
            thread.join()
        try:
            if self.connect:
                self.spark.removeTag(self.tag)
            else:
                self.spark.sparkContext.removeJobTag(self.tag)
        except Exception:
            pass

    def _start(self, target: Any) -> None:
        thread = threading.Thread(target=target, name="calcite-bridge-spark-job", daemon=True)
        self._threads.append(thread)
        thread.start()

    def stop(self, reason: Error | None = None) -> None:
        """Stops the statement's jobs, now and until it ends (a job may start after a cancel):
        ``reason`` is what the statement raises (None: Ctrl-C)."""
        if self._stopping.is_set():
            return
        self.reason = reason
        self._stopping.set()
        self._start(self._cancel_until_finished)

    def _cancel_until_finished(self) -> None:
        while True:
            self._cancel()
            if self.finished.wait(0.25):
                break
        # A Connect server may register the statement's operation after the client gave up on
        # it (a loaded server), and Spark's adaptive execution may submit a stage's job after
        # its query was cancelled (the job carries the statement's tag): go on stopping the
        # statement's own tag a while, on a thread the statement's end does not wait for.
        threading.Thread(target=self._cancel_for, args=(GRACE_SECONDS,), daemon=True).start()

    def _cancel_for(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self._cancel()
            time.sleep(0.5)

    def _cancel(self) -> None:
        try:
            if self.spark is None:
                pass  # no session yet: nothing of the statement's runs on Spark
            elif self.connect:
                self.spark.interruptTag(self.tag)
            else:
                self.spark.sparkContext.cancelJobsWithTag(self.tag)
        except Exception:
            pass

    def _time_out(self) -> None:
        assert self.deadline is not None and self.end is not None
        if not self.finished.wait(max(self.end - time.monotonic(), 0.0)):
            self.stop(StatementTimeoutError(self.deadline[1], sql=self.statement))

    def _watch_memory(self) -> None:
        try:
            jvm = self.spark.sparkContext._jvm
            collectors = list(
                jvm.java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()
            )
            baseline = _live_heap(collectors)
        except Exception:
            return  # no JVM of this process to look at
        execution = _execution_memory(self.spark)
        executing = 0 if execution is None else execution()
        while not self.finished.wait(0.1):
            try:
                live = _live_heap(collectors)
                # What Spark's sorts, joins and aggregates hold now: they take their memory in
                # pages and spill only once Spark's own share of the heap is full, so the heap
                # after a collection shows them late, if at all.
                held = 0 if execution is None else execution() - executing
            except Exception:
                return
            if max(live - baseline, held) > self.memory_limit:
                grew = (
                    f"Spark's execution memory (its sorts, joins and aggregates) grew by "
                    f"{held >> 20} MB"
                    if held > self.memory_limit
                    else f"Spark's heap grew by {(live - baseline) >> 20} MB"
                )
                self.stop(
                    ResourceError(
                        "Out of memory: the statement's rows reached execution.memory-limit "
                        f"({self.memory_limit >> 20} MB) on Spark: {grew} as it ran, so it was "
                        "stopped. Raise execution.memory-limit or make the statement gather "
                        "fewer rows",
                        sql=self.statement,
                    )
                )
                return

    def _past_deadline(self) -> bool:
        return self.end is not None and time.monotonic() >= self.end

    def raise_if_stopped(self) -> None:
        """Raises why the statement was stopped, once it was (Ctrl-C: ``_Stopped``), and the
        ``TimeoutError`` of a statement past its deadline."""
        if self.reason is not None:
            raise self.reason
        if self._stopping.is_set():
            raise _Stopped
        if self.deadline is not None and self._past_deadline():
            raise StatementTimeoutError(self.deadline[1], sql=self.statement)

    def bounded(self, work: Callable[[], _T]) -> _T:
        """``work()``, run on a thread of its own while this thread waits for it. Past the
        deadline, at the memory limit or on Ctrl-C the statement's jobs are cancelled and, if
        the work has not ended within :data:`_GRACE` seconds, the statement raises at once and
        leaves the work to end on its own: a call into Spark that is not a job (starting the
        session, registering a scan) cannot be cancelled and may take seconds in a cold or
        busy JVM, and a cancelled task ends only when it next checks for it."""

        def body() -> _T:
            try:
                return work()
            finally:
                self.finished.set()  # no more jobs of the statement: stop cancelling them

        future = _WORKER.submit(body)
        interrupted = False
        try:
            while not self._stopping.is_set():
                try:
                    return future.result(timeout=0.05)
                except concurrent.futures.TimeoutError:
                    if self.deadline is not None and self._past_deadline():
                        self.stop(StatementTimeoutError(self.deadline[1], sql=self.statement))
        except KeyboardInterrupt:
            interrupted = True
            self.stop(None)
        try:
            value = future.result(timeout=_GRACE)
        except (concurrent.futures.TimeoutError, Exception):
            pass  # stopped: what the work raised is a consequence
        else:
            if not interrupted and self.reason is None:
                return value
        if interrupted or self.reason is None:
            raise KeyboardInterrupt
        raise self.reason


class _Stopped(Exception):
    """The work of a statement stopped by Ctrl-C, which the waiting thread raises as
    KeyboardInterrupt."""


_GRACE = 0.5  # seconds a stopped statement's work is given to end before the statement raises


_MEMORY_MANAGERS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def _execution_memory(spark: Any) -> Callable[[], int] | None:
    """The bytes of execution memory Spark's memory manager has given out (to the sorts, joins
    and aggregates of every task of the session's JVM), read through py4j; None when the
    manager cannot be reached. The manager is read from the ``SparkEnv``'s field, by
    reflection: py4j cannot call ``SparkEnv``'s methods (listing them needs classes Spark does
    not ship)."""
    manager = _MEMORY_MANAGERS.get(spark)
    if manager is None:
        try:
            context = spark.sparkContext
            env = context._jsc.sc().env()
            cls = context._jvm.java.lang.Class.forName("org.apache.spark.SparkEnv")
            for name in ("_memoryManager", "memoryManager"):  # Spark 4, Spark 3
                try:
                    field = cls.getDeclaredField(name)
                    break
                except Exception:
                    continue
            else:
                return None
            field.setAccessible(True)
            manager = field.get(env)
            int(manager.executionMemoryUsed())
        except Exception:
            return None
        _MEMORY_MANAGERS[spark] = manager
    return lambda: int(manager.executionMemoryUsed())


def _live_heap(collectors: list[Any]) -> int:
    """Bytes of the Spark JVM's heap outside its allocation space (eden) after its latest
    garbage collection: what survived, which the rows a sort or a collect gathers soon are."""
    latest: Any = None
    for collector in collectors:
        info = collector.getLastGcInfo()
        if info is not None and (latest is None or info.getEndTime() > latest.getEndTime()):
            latest = info
    if latest is None:
        return 0
    used = 0
    for pool, usage in latest.getMemoryUsageAfterGc().items():
        if "eden" not in str(pool).lower():
            used += int(usage.getUsed())
    return used


def run(
    runner: Runner,
    sql: str,
    scans: list[Scan],
    schema: pa.Schema,
    statement: str | None,
    time_zone: str,
    deadline: tuple[float, str] | None = None,
    memory_limit: int = 0,
    params: list[Any] | None = None,
) -> pa.Table:
    """Runs ``sql`` over ``scans`` (``scan_0``, ...) on the runner's session; the rows, cast
    to ``schema``. ``deadline`` (seconds left, the message): past it the statement's jobs are
    cancelled and ``TimeoutError`` raised; past ``memory_limit`` bytes (0: none) of Spark's heap,
    ``ResourceError``; Ctrl-C cancels them too (:class:`_Job`). ``params`` are the values of
    the ``?`` of ``sql``, in order, bound by Spark's parameter markers (a plan kept for any
    values), never written into the text."""
    from . import _duckdb

    job = _Job(deadline, memory_limit, statement)
    params = _spark_params(params)
    table = job.bounded(lambda: _run(runner, job, sql, scans, time_zone, params))
    return _duckdb._as(table, schema)


def _spark_params(params: list[Any] | None) -> list[Any] | None:
    """The values of a statement's parameter markers as Spark binds them. A date or a timestamp
    goes as its ISO text, which the translation's ``CAST(? AS DATE)`` reads in the proleptic
    Gregorian calendar: as a Python value it became Spark's literal through a
    ``java.sql.Date``, which failed (IllegalArgumentException) before the year 1000 or so."""
    if not params:
        return params
    out: list[Any] = []
    for v in params:
        if isinstance(v, dt.datetime) and v.tzinfo is None:
            out.append(v.isoformat(sep=" "))
        elif isinstance(v, dt.date) and not isinstance(v, dt.datetime):
            out.append(v.isoformat())
        else:
            out.append(v)
    return out


def _run(
    runner: Runner,
    job: _Job,
    sql: str,
    scans: list[Scan],
    time_zone: str,
    params: list[Any] | None = None,
) -> pa.Table:
    """The work of :func:`run`, on a thread of its own: the scans registered, the query's rows
    as Arrow, the scans dropped; each step only while the statement is not stopped."""
    try:
        with runner._lock:
            job.raise_if_stopped()
            spark = runner.session(time_zone, job)
            names: list[str] = []
            try:
                with job.on(spark):
                    # A second try only when a relation of files the runner keeps was dropped
                    # from the session by its user (the scans are read again, none consumed).
                    again = not any(isinstance(s, pa.RecordBatchReader) for s in scans)
                    while True:
                        job.raise_if_stopped()
                        names, ctes = _register(spark, scans, "scan_", runner.upload_limit, runner)
                        job.raise_if_stopped()
                        _register_udfs(spark, sql)
                        job.raise_if_stopped()
                        text = _with(ctes, sql)
                        try:  # a Spark Connect session analyses the text as it runs it
                            frame = spark.sql(text, args=params) if params else spark.sql(text)
                            table = frame.toArrow()
                        except Exception as e:
                            if not (again and runner.forget_relations(spark, str(e))):
                                raise
                            again = False
                            _drop(spark, names)
                            names = []
                            continue
                        break
                job.raise_if_stopped()
                return table
            except (Error, _Stopped):
                raise
            except Exception as e:
                job.raise_if_stopped()
                raise _error(e, statement=job.statement) from None
            finally:
                _drop(spark, names)
                runner.trim(spark)
    finally:
        _close(scans)


def explain(
    runner: Runner,
    sql: str,
    scans: list[Scan],
    time_zone: str,
    params: list[Any] | None = None,
) -> str:
    """Spark's own plan of ``sql`` (``EXPLAIN FORMATTED``): its physical plan, with the
    filters its readers push (``PushedFilters``) and the columns they read (``ReadSchema``)."""
    params = _spark_params(params)
    return _WORKER.call(lambda: _explain(runner, sql, scans, time_zone, params))


def _explain(
    runner: Runner, sql: str, scans: list[Scan], time_zone: str, params: list[Any] | None
) -> str:
    try:
        with runner._lock:
            spark = runner.session(time_zone)
            names: list[str] = []
            try:
                names, ctes = _register(spark, scans, "scan_", runner.upload_limit, runner)
                _register_udfs(spark, sql)
                text = "EXPLAIN FORMATTED " + _with(ctes, sql)
                rows = (spark.sql(text, args=params) if params else spark.sql(text)).collect()
                return "\n".join(str(r[0]) for r in rows)
            except Error:
                raise
            except Exception as e:
                raise _error(e, sql) from None
            finally:
                _drop(spark, names)
                runner.trim(spark)
    finally:
        _close(scans)


def to_spark(runner: Runner, sql: str, scans: list[Scan], time_zone: str) -> Any:
    """A Spark DataFrame of ``sql`` over ``scans``; its views stay registered under names of
    their own (``cb_<id>_scan_i``) for the DataFrame's use."""
    return _WORKER.call(lambda: _to_spark(runner, sql, scans, time_zone))


def _to_spark(runner: Runner, sql: str, scans: list[Scan], time_zone: str) -> Any:
    prefix = f"cb_{uuid.uuid4().hex[:12]}_scan_"
    try:
        with runner._lock:
            spark = runner.session(time_zone)
            _register(spark, scans, prefix, runner.upload_limit)  # views only: they stay
            _register_udfs(spark, sql)
            return spark.sql(_SCAN.sub(lambda m: _q(prefix + m.group(1)), sql))
    finally:
        _close(scans)


_DYNCOL_FAILURE = re.compile(r"io\.calcitebridge\.dyncol\.DynColException: ([^\n]*)")


def _error(e: Exception, statement: str | None) -> Error:
    """A Spark failure as an ``ExecutionError`` (a scan's own failure as the JVM's error)."""
    text = str(e)
    if "calcite-bridge-error:" in text:
        return from_stream_failure(e, statement)
    from ._udf import SPARK_END, SPARK_MARKER

    at = text.find(SPARK_MARKER)
    if at >= 0:  # a Python function failed in a worker
        rest = text[at + len(SPARK_MARKER) :]
        message, _, tb = rest.partition(SPARK_END)
        return ExecutionError(
            f"The query failed while it ran on Spark: {message}",
            sql=statement,
            source_traceback=tb.strip() or text,
        )
    # A dynamic-columns UDF's failure (a blob not in the format, ...): the codec's own message,
    # as Calcite's engine gives it, rather than Spark's wrapping of it.
    dyncol = _DYNCOL_FAILURE.search(text)
    if dyncol:
        message = re.sub(r"\.? SQLSTATE: \w+.*$", "", dyncol.group(1)).strip()
        return ExecutionError(f"The query failed while it ran on Spark: {message}", sql=statement)
    if "java.lang.OutOfMemoryError" in text:
        return ResourceError(
            "Out of memory: Spark's heap ran out as the query ran (java.lang.OutOfMemoryError). "
            "Set execution.memory-limit to stop such a statement sooner, or make it gather "
            "fewer rows",
            sql=statement,
        )
    first = text.strip().splitlines()[0] if text.strip() else type(e).__name__
    return ExecutionError(f"The query failed while it ran on Spark: {first}", sql=statement)
