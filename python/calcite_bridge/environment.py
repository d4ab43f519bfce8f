"""Environment: one catalog and configuration, and the statements run against them."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._params import Values, encode_parameters
from ._sql import quote_identifier
from ._transport.session import Session
from .config import Config, ConfigValue
from .errors import CatalogError, ConfigError, SqlParseError, UnsupportedError
from .result import Result
from .sources.sandbox import Sandbox
from .table_api import Table

if TYPE_CHECKING:
    import pyarrow as pa

_FORMATS = ("text", "json", "dot")


@dataclass(frozen=True)
class ColumnInfo:
    """One column of a table, as ``DESCRIBE`` lists it."""

    name: str
    data_type: str
    nullable: bool
    kind: str  # PHYSICAL, COMPUTED or METADATA
    metadata_key: str | None = None
    virtual: bool | None = None
    expression: str | None = None


@dataclass(frozen=True)
class CheckedStatement:
    """One statement of a script's dry run (:meth:`Environment.check_script`)."""

    line: int  # where the statement starts in the script, 1-based
    column: int
    text: str  # the statement, as written
    outcome: str  # "ran" (a definition), "validated" (planned, not run) or "skipped"
    columns: list[tuple[str, str]] | None = None  # a query's (name, type) pairs
    plan: str | None = None  # a plan when asked for, or an EXPLAIN statement's text


class Environment:
    """An independent catalog and configuration, in the JVM of this process or, when made by
    ``connect(gateway=...)``, in a JVM reached through a gateway; the API is the same."""

    def __init__(
        self, config: Mapping[str, ConfigValue] | None = None, *, session: Session | None = None
    ) -> None:
        if session is None:
            from ._transport.inprocess import JPypeSession

            session = JPypeSession()
        self._session: Session = session
        self.config = Config(session, self._settings_changed)
        # The sandbox as the settings say, read once between two changes of them (a statement
        # can change them, a script between two of its statements: no caching while one runs).
        self._cached_sandbox: Sandbox | None = None
        self._scripts = 0
        session.set_connector_factory(self._sandbox)
        set_loader = getattr(session, "set_function_loader", None)
        if set_loader is not None:
            set_loader(self._function_modules)
        settings = dict(config or {})
        lock = settings.pop("lock-config", None)  # last: it freezes the settings before it
        for key, value in settings.items():
            self.config.set(key, value)
        if lock is not None:
            self.config.set("lock-config", lock)

    def _sandbox(self) -> Sandbox:
        """What this environment's SQL may reach, as its settings say now."""
        sandbox = self._cached_sandbox
        if sandbox is None:
            sandbox = Sandbox.from_config(self.config.to_dict())
            if not self._scripts:
                self._cached_sandbox = sandbox
        return sandbox

    def _function_modules(self) -> tuple[str, ...]:
        """The modules whose functions ``CREATE FUNCTION`` may import: the allowed ones."""
        return self._sandbox().allowed_modules

    def create_function(
        self,
        name: str,
        fn: Callable[..., Any],
        return_type: str | type | None = None,
        arg_types: Sequence[str | type] | None = None,
        deterministic: bool = True,
        vectorized: bool = False,
        *,
        replace: bool = False,
    ) -> None:
        """Adds the Python function ``fn`` to this environment's SQL as ``name`` (a temporary
        system function, in Flink's words; docs/functions.md).

        Types are SQL type strings (``"BIGINT"``, ``"DECIMAL(10, 2)"``) or Python types (``int``
        BIGINT, ``float`` DOUBLE, ``str`` STRING, ``bool``, ``bytes``, ``Decimal``, ``date``,
        ``datetime``, ``time``); without ``return_type`` or ``arg_types``, ``fn``'s annotations
        give them, and a function without argument types takes operands of any type, as many as
        its parameters. A scalar function is called once a row, with None for NULL, and None it
        returns is NULL; a ``vectorized`` one is called once a batch with ``pyarrow`` arrays and
        returns an array. ``deterministic=False`` keeps a call from being computed once at
        planning (folded) or shared. A function of the same name is an error unless
        ``replace``."""
        from . import _udf

        create = getattr(self._session, "create_function", None)
        if create is None:
            raise UnsupportedError(
                f"The function {name} cannot be added: Python functions run in an environment of "
                "this process, not a gateway's"
            )
        spec = _udf.signature(name, fn, return_type, arg_types, deterministic, vectorized)
        target = getattr(fn, "__module__", None) or ""
        target = f"{target}.{getattr(fn, '__qualname__', type(fn).__name__)}".lstrip(".")
        create(name, _udf.PythonFunction(name, fn, spec), target, replace)

    def create_table_function(
        self,
        name: str,
        fn: Callable[..., Any],
        columns: str,
        arg_types: Sequence[str | type] | None = None,
        deterministic: bool = True,
        *,
        replace: bool = False,
    ) -> None:
        """Adds the table function ``fn`` to this environment's SQL as ``name``: called once a
        row of its arguments (None for NULL), it returns or yields rows, each a tuple (or a
        list, or a dict by column name) of ``columns`` (``"word STRING, n INT"``). SQL calls it
        as Flink does: ``LATERAL TABLE(f(x)) AS t(a, b)``, ``LEFT JOIN LATERAL TABLE(f(x)) ON
        TRUE``, or ``TABLE(f('literal'))`` (docs/functions.md)."""
        from . import _udf
        from .functions import table_signature

        create = getattr(self._session, "create_function", None)
        if create is None:
            raise UnsupportedError(
                f"The function {name} cannot be added: Python functions run in an environment of "
                "this process, not a gateway's"
            )
        spec, rows = table_signature(name, fn, columns, arg_types, deterministic)
        target = getattr(fn, "__module__", None) or ""
        target = f"{target}.{getattr(fn, '__qualname__', type(fn).__name__)}".lstrip(".")
        create(name, _udf.PythonFunction(name, rows, spec), target, replace)

    def create_aggregate_function(
        self,
        name: str,
        obj: Any,
        return_type: str | type | None = None,
        arg_types: Sequence[str | type] | None = None,
        deterministic: bool = True,
        *,
        replace: bool = False,
    ) -> None:
        """Adds the aggregate function ``obj`` to this environment's SQL as ``name``, in
        PyFlink's shape: ``create_accumulator()`` returns a new accumulator,
        ``accumulate(acc, *args)`` adds a row's arguments to it (None for NULL), ``get_value(acc)``
        gives the result (None is NULL); a class is instantiated. ``return_type`` comes from
        ``get_value``'s annotation when not given; the arguments are as many as ``accumulate``
        takes after ``acc`` (or ``arg_types``). Each group's rows are gathered and handed to
        Python at once (docs/functions.md)."""
        from . import _udf
        from .functions import aggregate_signature

        create = getattr(self._session, "create_function", None)
        if create is None:
            raise UnsupportedError(
                f"The function {name} cannot be added: Python functions run in an environment of "
                "this process, not a gateway's"
            )
        spec, finish = aggregate_signature(name, obj, return_type, arg_types, deterministic)
        target = f"{type(obj).__module__}.{getattr(obj, '__qualname__', type(obj).__qualname__)}"
        create(name, _udf.PythonFunction(name, finish, spec), target, replace)

    def drop_function(self, name: str, *, if_exists: bool = False) -> None:
        """Drops the function ``name`` that ``create_function`` or ``CREATE FUNCTION`` added;
        ``CatalogError`` when there is none, unless ``if_exists``."""
        drop = getattr(self._session, "drop_function", None)
        if drop is None:
            raise UnsupportedError("Python functions run in an environment of this process")
        if not drop(name) and not if_exists:
            raise CatalogError(f"Function {name} does not exist")

    def _zone(self) -> str:
        """The session time zone, in which a result shows its TIMESTAMP_LTZ values."""
        return str(self.config.get("table.local-time-zone"))

    def _settings_changed(self) -> None:
        self._cached_sandbox = None

    def lock_config(self) -> None:
        """Freezes the security settings (``python.allowed-modules``,
        ``filesystem.allowed-paths``, ``external-access``, and the limits ``execution.timeout``,
        ``planner.timeout``, ``execution.memory-limit``) for this environment's life, as
        ``SET 'lock-config' = 'true'`` does: a later SET or RESET of them, from SQL or from
        ``config``, raises ``ConfigError`` (docs/security.md)."""
        self.config.set("lock-config", "true")

    def execute(
        self,
        sql: str,
        params: Sequence[Any] | None = None,
        timeout: float | str | None = None,
    ) -> Result:
        """Runs any statement (query, INSERT, DDL, SET, ...) and returns its rows. ``params``
        are the values of its ``?`` placeholders, in order (queries and INSERT; see ``sql``).
        ``timeout`` (seconds, or a duration such as ``'30 s'``) overrides ``execution.timeout``
        for it."""
        if isinstance(params, str | int | float) and timeout is None:  # execute(sql, timeout)
            params, timeout = None, params
        values = encode_parameters(params)
        try:
            reader, kind = self._session.run(
                _text(sql), False, None, _duration(timeout), *_with(values)
            )
        finally:
            self._settings_changed()  # a SET or RESET, perhaps
        return Result(reader, kind=kind, sql=sql, zone=self._zone)

    def sql(
        self,
        sql: str,
        params: Sequence[Any] | None = None,
        backend: str | None = None,
        timeout: float | str | None = None,
    ) -> Result:
        """Runs a statement that answers with rows and returns them: a query (SELECT, WITH,
        VALUES), SHOW, DESCRIBE or EXPLAIN; one that changes something (DDL, INSERT, SET, USE,
        ...) is a ``SqlValidationError`` and does not run: use :meth:`execute`. ``params`` are
        the values of its ``?`` placeholders, in order: each is bound as a typed literal (never
        as SQL text),
        typed as a literal of it would be (int INT or BIGINT, str STRING, datetime TIMESTAMP or,
        with a zone, TIMESTAMP_LTZ, list ARRAY, dict MAP, tuple ROW, ...); a wrong count or a
        value of no SQL type is a ``SqlValidationError`` at the placeholder. ``backend``
        (``auto``, the default, ``enumerable``, ``duckdb``, ``spark``) overrides
        ``execution.backend`` for this query; ``timeout`` (seconds, or a duration such as
        ``'30 s'``) overrides ``execution.timeout``: past it, planning, running or reading the
        rows raises ``TimeoutError`` and the work stops."""
        if isinstance(params, str):  # sql(sql, backend[, timeout]), as before
            params, backend, timeout = None, params, backend if timeout is None else timeout
        values = encode_parameters(params)
        reader, kind = self._session.run(
            _text(sql), True, backend, _duration(timeout), *_with(values)
        )
        return Result(reader, kind=kind, sql=sql, zone=self._zone)

    def _execute_batch(self, sql: str, rows: Sequence[Sequence[Any]]) -> int | None:
        """Runs an ``INSERT ... VALUES (?, ...)`` of one row once for all ``rows`` of values:
        one statement, planned once; returns the rows inserted. None for any other statement
        (or a gateway's environment): the caller runs it once per row."""
        run_batch = getattr(self._session, "run_batch", None)
        if run_batch is None:
            return None
        encoded = "[" + ",".join(_json(encode_parameters(r)) for r in rows) + "]"
        reader = run_batch(_text(sql), encoded)
        if reader is None:
            return None
        table = reader.read_all()
        return int(table.column(0)[0].as_py()) if table.num_rows else 0

    def execute_script(self, sql: str) -> int:
        """Runs every statement of ``sql`` (separated by ``;``); returns how many ran."""
        self._scripts += 1
        self._settings_changed()
        try:
            return self._session.execute_script(_text(sql))
        finally:
            self._scripts -= 1
            self._settings_changed()

    def check_script(self, sql: str, plans: bool = False) -> list[CheckedStatement]:
        """A dry run of a script: its definitions (``CREATE``, ``ALTER``, ``DROP``, ``SET``,
        ``USE``, ``SHOW``, ``EXPLAIN``, ...) run in this environment as :meth:`execute_script`
        runs them, so the statements after them see what they define; every statement that
        reads or writes data (a query, ``INSERT``, a statement set, ``UPDATE``, ``DELETE``,
        ``COMPILE PLAN``) is validated and planned but not run, and ``CREATE TABLE ... AS``
        defines its table from the query's columns and leaves it empty. ``EXECUTE PLAN`` is
        skipped. With ``plans``, each query and data change carries its plan.

        The first statement that fails raises its error, at its line and column in the script.
        Run it on a new environment to leave this one's tables as they are."""
        text = _text(sql)
        self._scripts += 1
        self._settings_changed()
        try:
            steps = json.loads(self._session.check_script(text, plans))
        finally:
            self._scripts -= 1
            self._settings_changed()
        return [
            CheckedStatement(
                line=s["line"],
                column=s["column"],
                text=_statement_text(text, s),
                outcome=s["outcome"],
                columns=None if s["columns"] is None else [(n, t) for n, t in s["columns"]],
                plan=s["plan"],
            )
            for s in steps
        ]

    def explain(
        self,
        sql: str,
        params: Sequence[Any] | None = None,
        format: str = "text",
        backend: str | None = None,
    ) -> str:
        """The optimized plan of a query or INSERT, as ``text``, ``json`` or ``dot``: for a
        query a backend runs, the backend, the SQL it runs and the scans it reads. With
        ``params``, the plan of the statement with those values bound to its ``?``
        placeholders (a value offered to a source as a filter shows there); without them, the
        plan shows the placeholders."""
        older = isinstance(params, str)
        if isinstance(params, str):  # explain(sql, format[, backend]), as before
            format, backend = params, backend if format == "text" else format
        if format not in _FORMATS:
            raise ConfigError(f"Unknown explain format {format!r}; expected one of {_FORMATS}")
        values = encode_parameters(None if older else params)
        text = self._session.explain(_text(sql), format, backend, *_with(values))
        # The backend setting is asked of the session only for a Spark plan (one crossing less
        # for every other explain).
        if (
            format == "text"
            and text.startswith("Spark(")
            and str(backend or self.config.get("execution.backend")).lower() == "spark"
        ):
            spark_explain = getattr(self._session, "spark_explain", None)
            if spark_explain is not None and values is None and self.parameter_types(sql):
                # Spark plans a statement only with its markers bound: the plan above shows
                # the placeholders, as on the other backends.
                text += "\n\nSpark's plan: given when values are bound to the placeholders"
            elif spark_explain is not None:
                text += "\n\nSpark's plan:\n" + spark_explain(sql, *_with(values))
        return text

    def to_spark(self, sql: str) -> Any:
        """The query ``sql`` as a Spark DataFrame, planned as for the ``spark`` backend, for
        work that goes on in Spark (docs/spark.md)."""
        to_spark = getattr(self._session, "to_spark", None)
        if to_spark is None:
            raise UnsupportedError("to_spark needs an environment of this process, not a gateway's")
        return to_spark(_text(sql))

    def validate(self, sql: str) -> pa.Schema:
        """Validates a query and returns the schema of its result, without running it. A query
        with ``?`` placeholders is validated with their types inferred from where they stand
        (``a < ?`` takes ``a``'s type), and the schema's metadata ``parameters`` lists them:
        a JSON list of ``{"index", "type", "nullable", "line", "column"}``."""
        text = _text(sql)
        schema = self._session.validate(text)
        if "?" in text:
            found = self._session.parameter_types(text)
            if found != "[]":
                schema = schema.with_metadata({**(schema.metadata or {}), b"parameters": found})
        return schema

    def parameter_types(self, sql: str) -> list[dict[str, Any]]:
        """The ``?`` placeholders of a query, in order, with the types inferred for them:
        ``{"index", "type", "nullable", "line", "column"}`` each (``validate`` puts the same
        list in its schema's metadata)."""
        return list(json.loads(self._session.parameter_types(_text(sql))))

    def describe(self, table: str) -> list[ColumnInfo]:
        """Every column of ``table`` with its kind, metadata key and expression."""
        rows = self.execute(f"DESCRIBE EXTENDED {quote_identifier(table)}").to_pylist()
        return [
            ColumnInfo(
                name=r["name"],
                data_type=r["type"],
                nullable=r["nullable"],
                kind=r["kind"],
                metadata_key=r["metadata_key"],
                virtual=r["virtual"],
                expression=r["expression"],
            )
            for r in rows
        ]

    def table(self, name: str) -> Table:
        """A Table API view of table ``name``; fails now if there is no such table."""
        table = Table(self, quote_identifier(name))
        self.validate(table.to_sql())
        return table

    def tables(self) -> list[str]:
        """Names of the tables and views, sorted."""
        return self._session.table_names()

    def register_arrow(
        self,
        name: str,
        data: pa.Table | pa.RecordBatchReader | pa.RecordBatch | Iterable[pa.RecordBatch],
        *,
        replace: bool = False,
    ) -> None:
        """Registers Arrow data as table ``name``, queried in place.

        The table is a source that takes filters (nested ones too) and projections, so a query
        that only selects and filters gets Arrow's own batches back, without copies.
        """
        from .sources import ArrowTableSource

        table = _to_reader(data).read_all()
        self.register_source(name, ArrowTableSource(table), replace=replace)

    def register_source(self, name: str, source: Any, *, replace: bool = False) -> None:
        """Registers a Python source object as table ``name`` (DESIGN §7, §9).

        The source needs ``schema() -> pyarrow.Schema`` and ``scan(request)``; its abilities
        (``apply_filters``, ``supports_nested_filters``, ``write``, ...) are optional.
        """
        self._session.register_source(name, source, replace)

    def close(self) -> None:
        """Drops every table of this Environment."""
        self._session.close()

    def __enter__(self) -> Environment:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _json(values: Values | None) -> str:
    return "null" if values is None else values.json


def _with(values: Values | None) -> tuple[Values, ...]:
    """The parameters argument of a session call: none at all for a statement without them,
    so that a session of a gateway that predates parameters still answers it."""
    return () if values is None else (values,)


def _text(sql: str) -> str:
    """``sql``, or ``SqlParseError`` at its first character that is not Unicode text: a lone
    surrogate (U+D800 to U+DFFF), which no encoding can carry to the JVM."""
    found = _SURROGATE.search(sql)
    if found is None:
        return sql
    i = found.start()
    line = sql.count("\n", 0, i) + 1
    column = i - sql.rfind("\n", 0, i)
    raise SqlParseError(
        f"The SQL text is not valid Unicode: a lone surrogate U+{ord(sql[i]):04X}",
        sql=_SURROGATE.sub("\ufffd", sql),
        line=line,
        column=column,
        end_line=line,
        end_column=column,
    )


_SURROGATE = re.compile("[\ud800-\udfff]")


def _duration(timeout: float | str | None) -> str | None:
    """A ``timeout=`` argument as the JVM reads it: seconds become ``'<n> ms'``."""
    if timeout is None or isinstance(timeout, str):
        return timeout
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout < 0:
        raise ConfigError(f"timeout must be a number of seconds, 0 or more, got {timeout!r}")
    return f"{round(timeout * 1000)} ms" if timeout else "0"


def _to_reader(data: Any) -> pa.RecordBatchReader:
    import pyarrow as pa

    if isinstance(data, pa.RecordBatchReader):
        return data
    if isinstance(data, pa.Table):
        return data.to_reader()
    if isinstance(data, pa.RecordBatch):
        return pa.RecordBatchReader.from_batches(data.schema, [data])
    if hasattr(data, "__arrow_c_stream__"):
        return pa.RecordBatchReader.from_stream(data)
    batches = list(data)
    if not batches:
        raise ValueError("register_arrow needs at least one batch or a schema")
    return pa.RecordBatchReader.from_batches(batches[0].schema, batches)


def connect(
    config: Mapping[str, ConfigValue] | None = None,
    *,
    gateway: str | None = None,
    token: str | None = None,
    allow_remote: bool = False,
    timeout: float = 10.0,
    backend: str | None = None,
    lock_config: bool = False,
    spark: Any = None,
    spark_remote: str | None = None,
) -> Environment:
    """A new Environment with its own catalog and configuration.

    ``backend`` sets ``execution.backend`` (``auto``, ``enumerable``, ``duckdb``, ``spark``):
    what runs the part of each query that the sources don't absorb.

    Without ``gateway`` the JVM runs in this process (started on first use), and results cross
    without copies. With ``gateway="HOST:PORT"`` the Environment lives in the JVM of a running
    gateway (``calcite-bridge gateway``, or ``BridgeGateway.start`` in Java), reached with
    ``token`` (or ``$CALCITE_BRIDGE_TOKEN``); an address other than loopback is refused unless
    ``allow_remote``. ``timeout`` bounds the time spent reaching the gateway, in seconds.

    ``lock_config=True`` freezes the security settings once ``config`` is set: the
    environment's SQL can then reach only the files and modules they allow, for its whole life
    (``filesystem.allowed-paths``, ``external-access``, ``python.allowed-modules``; see
    docs/security.md).

    ``spark`` (a SparkSession) or ``spark_remote`` (``"sc://host:15002"``, a Spark Connect
    server) is where queries of the ``spark`` backend run; without either, a ``local[1]``
    session is made when one first does. ``auto`` never chooses Spark (docs/spark.md).
    """
    if spark is not None or spark_remote is not None or str(backend).lower() == "spark":
        from . import _spark

        if not _spark.available():
            raise ConfigError(f"The spark backend needs pyspark: {_spark.INSTALL_HINT}")
        if gateway is not None:
            raise ConfigError("The spark backend runs in this process, not behind a gateway")
    if backend is not None:
        config = {**(config or {}), "execution.backend": backend}
    if lock_config:
        config = {**(config or {}), "lock-config": "true"}
    if gateway is None:
        env = Environment(config)
        if spark is not None or spark_remote is not None:
            from . import _spark

            env._session.set_spark(_spark.Runner(spark, spark_remote))  # type: ignore[attr-defined]
        return env
    from ._transport.gateway import open_session

    return Environment(
        config, session=open_session(gateway, token, allow_remote=allow_remote, timeout=timeout)
    )


def _statement_text(script: str, step: Mapping[str, Any]) -> str:
    """The text of one statement of ``script`` between its start and end positions."""
    lines = script.split("\n")
    first, last = int(step["line"]) - 1, int(step["endLine"]) - 1
    start, end = int(step["column"]) - 1, int(step["endColumn"])
    if not (0 <= first <= last < len(lines)):
        return ""
    if first == last:
        return lines[first][start:end]
    part = [lines[first][start:], *lines[first + 1 : last]]
    return "\n".join([*part, lines[last][:end]])
