"""The ``calcite-bridge`` command: explain, query, validate and describe from a shell, and
``gateway`` to serve the JVM to other processes."""

from __future__ import annotations

import decimal
import json
import os
import sys
import threading
import time
import traceback
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from .environment import Environment, connect
from .errors import Error, MissingColumnWarning
from .script import Statement, split_all

if TYPE_CHECKING:
    import pyarrow as pa

F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_MAX_ROWS = 40
# "serving": this process is the daemon (``_daemon.server``): commands neither exit the process
# nor choose short-process JIT options, and the environments they open are closed after them.
_options: dict[str, bool] = {"no_color": False, "serving": False}
_opened: list[Environment] = []
# --catalog and --set given before a command apply to it too: `calcite-bridge --catalog c.sql
# query ...` runs c.sql first, as `calcite-bridge query --catalog c.sql ...` does.
_group_catalogs: list[Path] = []
_group_config: dict[str, str] = {}


def _no_color() -> bool:
    """``--no-color`` or a non-empty ``NO_COLOR`` (https://no-color.org) turn styling off."""
    return _options["no_color"] or bool(os.environ.get("NO_COLOR"))


def _err_console() -> Console:
    if _no_color():
        return Console(stderr=True, color_system=None)
    return Console(stderr=True)


def _out_console() -> Console:
    """Rich output on stdout: the terminal's width there; never cut or wrapped when piped."""
    plain: dict[str, Any] = {"color_system": None} if _no_color() else {}
    console = Console(**plain)
    if console.is_terminal:
        return console
    return Console(width=100_000, soft_wrap=True, **plain)


def _common(fn: F) -> F:
    fn = click.option(
        "--catalog",
        "catalogs",
        multiple=True,
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help="SQL file whose statements run first (CREATE TABLE, INSERT, ...). Repeatable.",
    )(fn)
    fn = click.option(
        "--set",
        "settings",
        multiple=True,
        metavar="KEY=VALUE",
        help="A configuration setting, e.g. table.column-expansion-strategy=... Repeatable.",
    )(fn)
    fn = click.option(
        "-f",
        "--file",
        "sql_file",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help="Read the SQL from this file.",
    )(fn)
    return click.argument("sql", required=False)(fn)


_NO_SQL = "no SQL given: pass it as an argument, with -f FILE, or on stdin"


def _read_text(sql: str | None, sql_file: Path | None) -> str:
    """The SQL text from the argument, ``-f FILE`` or stdin."""
    if sql is not None and sql_file is not None:
        raise click.UsageError("give the SQL as an argument or with -f, not both")
    if sql_file is not None:
        text = sql_file.read_text()
    elif sql is not None:
        text = sql
    else:
        stdin = sys.stdin
        if stdin is None or stdin.closed or stdin.isatty():
            raise click.UsageError(_NO_SQL)
        text = stdin.read()
    if not split_all(text):
        raise click.UsageError(_NO_SQL)
    return text


def _parse_settings(settings: tuple[str, ...]) -> dict[str, str]:
    config: dict[str, str] = {}
    for item in settings:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.UsageError(f"--set expects KEY=VALUE, got {item!r}")
        config[key.strip()] = value.strip()
    return config


PROGRESS_DELAY = 1.0


@contextmanager
def _progress(message: str, rows: Callable[[], int] | None = None) -> Iterator[None]:
    """After a second, a status line with the time spent (and ``rows`` read so far) on a
    terminal; nothing when stderr is redirected or the step is quick."""
    console = _err_console()
    if not console.is_terminal:
        yield
        return
    start = time.monotonic()
    done = threading.Event()

    def text() -> str:
        line = f"{message} {time.monotonic() - start:.1f} s"
        # Rows count once they arrive: a backend that computes the whole answer first (DuckDB
        # sorting or aggregating) sends none until it is done, and "0 rows" would mislead.
        received = 0 if rows is None else rows()
        return f"{line}, {received:,} rows received" if received else line

    def show() -> None:
        if done.wait(PROGRESS_DELAY):
            return
        with console.status(text()) as status:
            while not done.wait(0.1):
                status.update(text())

    thread = threading.Thread(target=show, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


class _CatalogFailed(Exception):
    def __init__(self, path: Path, error: Error) -> None:
        super().__init__(str(error))
        self.path = path
        self.error = error


def _show_warnings() -> None:
    """Data warnings (a declared column no file holds) as ``Warning: message`` on stderr, for
    every statement that meets them, rather than Python's once-per-place with a source line."""
    default = getattr(warnings.showwarning, "__wrapped__", warnings.showwarning)

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: Any = None,
        line: str | None = None,
    ) -> None:
        if not issubclass(category, MissingColumnWarning):
            default(message, category, filename, lineno, file, line)
            return
        label = "Warning" if _no_color() else click.style("Warning", fg="yellow", bold=True)
        click.echo(f"{label}: {message}", err=True)

    show.__wrapped__ = default  # type: ignore[attr-defined]
    warnings.simplefilter("always", MissingColumnWarning)
    warnings.showwarning = show


def _environment(
    config: dict[str, str], catalogs: tuple[Path, ...], one_shot: str | None = None
) -> Environment:
    """An environment with ``config`` and ``catalogs`` run. ``one_shot`` (``"plans"`` or
    ``"statements"``): the command runs that and exits, and the JVM compiles for a short process
    (``jvm.short_process``)."""
    config = {**_group_config, **config}
    if one_shot is not None and not _options["serving"]:
        from ._transport import jvm

        jvm.short_process(one_shot)
    catalogs = (*_group_catalogs, *catalogs)
    with _progress("Starting the planner…"):
        env = connect(config=config)
    if _options["serving"]:
        _opened.append(env)
    for path in catalogs:
        with _progress(f"Running {path}…"):
            try:
                env.execute_script(path.read_text())
            except Error as e:
                raise _CatalogFailed(path, e) from e
    return env


def _print_error(e: BaseException, context: str | None = None) -> None:
    """``Kind: message`` on stderr, never wrapped, so the caret stays under its column."""
    name = type(e).__name__
    if context:
        click.echo(context, err=True)
    label = name if _no_color() else click.style(name, fg="red", bold=True)
    click.echo(label + ": " + str(e), err=True)


def _run(action: Callable[[], None]) -> None:
    try:
        action()
    except _CatalogFailed as e:
        _print_error(e.error, f"in catalog file {e.path}:")
        sys.exit(1)
    except _ScriptFailed as e:
        _print_error(e.error, e.where)
        sys.exit(1)
    except Error as e:
        _print_error(e)
        sys.exit(1)
    except OSError as e:
        _print_error(e)
        sys.exit(1)
    except Exception as e:
        # pyarrow's own errors; pyarrow is imported once a statement runs (not at start-up).
        arrow = sys.modules.get("pyarrow")
        if arrow is None or not isinstance(e, arrow.ArrowException):
            raise
        _print_error(e)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("Cancelled (KeyboardInterrupt).", err=True)
        sys.exit(130)


_FORMATS = ["table", "csv", "json", "line", "parquet"]


def _max_rows_option(fn: F) -> F:
    return click.option(
        "--max-rows",
        type=click.IntRange(min=0),
        default=DEFAULT_MAX_ROWS,
        show_default=True,
        help="Rows the table format shows; the others are counted in a footer.",
    )(fn)


class _Commands(click.Group):
    """The commands, of which ``gateway`` (and what serving needs) is imported only when it is
    run or listed: every other command starts without it."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), "gateway"})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name == "gateway":
            from ._transport.serve import gateway

            return gateway
        return super().get_command(ctx, cmd_name)


@click.group(
    cls=_Commands,
    context_settings={"help_option_names": ["-h", "--help"]},
    invoke_without_command=True,
)
@click.version_option(package_name="calcite-bridge")
@click.option("--no-color", is_flag=True, help="No colours or styles (as NO_COLOR=1 does).")
@click.option(
    "--no-daemon",
    is_flag=True,
    help="Run the command in this process; use and start no daemon (CALCITE_BRIDGE_DAEMON=0).",
)
@click.option(
    "-f",
    "--file",
    "sql_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Run the statements of this script and exit.",
)
@click.option(
    "--catalog",
    "catalogs",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="SQL file whose statements run first. Repeatable.",
)
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE", help="A setting.")
@click.option("--format", "fmt", type=click.Choice(_FORMATS[:-1]), default="table")
@_max_rows_option
@click.pass_context
def main(
    ctx: click.Context,
    no_color: bool,
    no_daemon: bool,
    sql_file: Path | None,
    catalogs: tuple[Path, ...],
    settings: tuple[str, ...],
    fmt: str,
    max_rows: int,
) -> None:
    """Explain, validate and run SQL with calcite-bridge.

    With no command: run the script of -f FILE or of stdin, or, on a terminal, open the SQL
    shell."""
    _options["no_color"] = no_color
    _show_warnings()
    if ctx.invoked_subcommand is not None:
        _group_catalogs[:] = catalogs
        _group_config.clear()
        _group_config.update(_parse_settings(settings))
        return
    config = _parse_settings(settings)
    stdin = sys.stdin
    if sql_file is None and stdin is not None and not stdin.closed and stdin.isatty():
        _run(lambda: _shell(_environment(config, catalogs), fmt, max_rows))
        return
    text = _read_text(None, sql_file)
    name = str(sql_file) if sql_file is not None else "<stdin>"
    _run(lambda: _run_script(_environment(config, catalogs), text, name, fmt, max_rows, None))


def _shell(env: Environment, fmt: str, max_rows: int) -> None:
    from .shell import run_shell

    def run_statement(env: Environment, statement: Statement, mode: str, rows: int) -> None:
        _run_statement(env, statement, mode, rows, None)

    run_shell(env, run_statement, _print_error, fmt=fmt, max_rows=max_rows)


class _ScriptFailed(Exception):
    def __init__(self, where: str, error: Error) -> None:
        super().__init__(str(error))
        self.where = where
        self.error = error


def _run_script(
    env: Environment,
    text: str,
    name: str,
    fmt: str,
    max_rows: int,
    output: Path | None,
) -> None:
    """Runs each statement of ``text`` in ``env``, printing the rows of each; stops at the
    first error, naming its line in the script."""
    printed = False
    for statement in split_all(text):
        try:
            printed |= _run_statement(env, statement, fmt, max_rows, output, first=not printed)
        except Error as e:
            line = e.line if e.line is not None else statement.line
            raise _ScriptFailed(f"{name}, line {line}:", e) from e


def _is_ok_only(table: pa.Table) -> bool:
    """The one ``result = 'OK'`` row of DDL and SET, which scripts do not print."""
    return bool(table.column_names == ["result"] and table.column(0).to_pylist() == ["OK"])


def _run_statement(
    env: Environment,
    statement: Statement,
    fmt: str,
    max_rows: int,
    output: Path | None,
    first: bool = True,
) -> bool:
    """Runs one statement and prints its rows; returns whether it printed any (DDL and SET
    print nothing)."""
    table = _fetch(env, statement.positioned())
    try:
        if _is_ok_only(table):
            return False
        if not first and fmt == "parquet":
            raise click.UsageError(
                "--format parquet writes one result to its --output file, and this script "
                "returns more than one; write each to its own file, or use csv or json"
            )
        if not first and fmt == "table" and output is None:
            _out_console().print()
        plan = _plan_text(statement, table) if fmt == "table" else None
        if plan is not None:
            # As `calcite-bridge explain` and Flink's SQL client print it: the plan's own lines,
            # not one table cell as wide as its longest line.
            _emit(
                ("\n" if not first and output is not None else "") + plan + "\n", output, not first
            )
            return True
        _write(
            table,
            fmt,
            output,
            max_rows=max_rows,
            zone=_zone(env),
            append=not first,
            max_width=_display_width(env),
        )
    finally:
        del table  # Arrow buffers live in the JVM: release them before it shuts down
    return True


def _plan_text(statement: Statement, table: pa.Table) -> str | None:
    """The plan of an ``EXPLAIN`` statement's one-row result, else None."""
    words = statement.text.lstrip("( \t\r\n").split(None, 1)
    if not words or words[0].upper() != "EXPLAIN" or table.shape != (1, 1):
        return None
    value = table.column(0)[0].as_py()
    return value.rstrip("\n") if isinstance(value, str) else None


def _fetch(env: Environment, sql: str) -> pa.Table:
    """Runs ``sql`` and reads its rows, with a progress line on a slow statement."""
    import pyarrow as pa

    read = [0]
    with _progress("Running…", rows=lambda: read[0]):
        reader = env.execute(sql).to_arrow_reader()
        batches = []
        for batch in reader:
            batches.append(batch)
            read[0] += batch.num_rows
        return pa.Table.from_batches(batches, schema=reader.schema)


def _display_width(env: Environment) -> int | None:
    """The width at which table output cuts a value: Flink's ``table.display.max-column-width``,
    or the SQL client's older ``sql-client.display.max-column-width``, when a script set one;
    None (no cut) otherwise."""
    try:
        settings = env.config.to_dict()
    except Error:
        return None
    for key in ("table.display.max-column-width", "sql-client.display.max-column-width"):
        if key in settings:
            return int(settings[key])
    return None


def _zone(env: Environment) -> str | None:
    try:
        zone = env.config.get("table.local-time-zone")
    except Error:
        return None
    return zone if isinstance(zone, str) and zone else None


@main.command()
@_common
@click.option("--format", "fmt", type=click.Choice(["text", "json", "dot"]), default="text")
def explain(
    sql: str | None,
    sql_file: Path | None,
    settings: tuple[str, ...],
    catalogs: tuple[Path, ...],
    fmt: str,
) -> None:
    """Print the optimized plan of a query or INSERT; of a script, the plan of each of its
    queries and data changes, running its definitions and nothing that reads or writes data."""
    config = _parse_settings(settings)
    script = _read_text(sql, sql_file)
    statements = split_all(script)
    if len(statements) > 1:
        if fmt != "text":
            raise click.UsageError(f"a script's plans are printed as text, not {fmt}")
        _run(lambda: _check_script(config, catalogs, script, sql_file, plans=True))
        return
    text = statements[0].positioned()

    def act() -> None:
        env = _environment(config, catalogs, one_shot="plans")
        with _progress("Planning…"):
            plan = env.explain(text, format=fmt)
        click.echo(plan)

    _run(act)


_QUERY_WORDS = ("SELECT", "WITH", "VALUES", "(")


def _check_script(
    config: dict[str, str],
    catalogs: tuple[Path, ...],
    text: str,
    sql_file: Path | None,
    plans: bool,
) -> None:
    """A script's dry run (``Environment.check_script``): each statement on a line of its own
    with what was done with it, then a query's columns (``validate``) or a statement's plan
    (``explain``). The first error stops it, at its line in the script, and exits 1."""
    name = str(sql_file) if sql_file is not None else "<sql>"
    env = _environment(config, catalogs, one_shot="plans")
    counts: dict[str, int] = {}
    checked = 0
    for statement in split_all(text):
        # A statement at a time, so that each prints as soon as it is checked.
        try:
            with _progress(f"Checking line {statement.line}…"):
                (step,) = env.check_script(statement.positioned(), plans=plans)
        except Error as e:
            line = e.line if e.line is not None else statement.line
            raise _ScriptFailed(f"{name}, line {line}:", e) from e
        checked += 1
        counts[step.outcome] = counts.get(step.outcome, 0) + 1
        first = step.text.strip().splitlines()[0] if step.text.strip() else ""
        if plans:
            if step.plan is not None:
                click.echo(f"-- {name}:{step.line}: {first}")
                click.echo(step.plan.rstrip("\n") + "\n")
            continue
        click.echo(f"{name}:{step.line}\t{step.outcome}\t{first}")
        for column, data_type in step.columns or []:
            click.echo(f"\t{column}\t{data_type}")
    done = ", ".join(f"{n} {outcome}" for outcome, n in counts.items())
    total = f"{checked} statement{'s' if checked != 1 else ''}"
    click.echo(f"{total} checked ({done}); nothing was read or written.", err=plans)


@main.command()
@_common
def validate(
    sql: str | None, sql_file: Path | None, settings: tuple[str, ...], catalogs: tuple[Path, ...]
) -> None:
    """Validate a query and print the columns of its result; check any other statement, or
    each of a script's, running its definitions and nothing that reads or writes data."""
    config = _parse_settings(settings)
    script = _read_text(sql, sql_file)
    statements = split_all(script)
    words = statements[0].text.lstrip().split(None, 1)
    if len(statements) > 1 or not words or not words[0].upper().startswith(_QUERY_WORDS):
        _run(lambda: _check_script(config, catalogs, script, sql_file, plans=False))
        return
    text = statements[0].positioned()

    def act() -> None:
        env = _environment(config, catalogs, one_shot="plans")
        schema = env.validate(text)
        for field in schema:
            null = "" if field.nullable else " NOT NULL"
            click.echo(f"{field.name}\t{field.type}{null}")

    _run(act)


@main.command()
@click.argument("table")
@click.option(
    "--catalog",
    "catalogs",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="SQL file whose statements run first (CREATE TABLE, INSERT, ...). Repeatable.",
)
@click.option(
    "--set", "settings", multiple=True, metavar="KEY=VALUE", help="A setting. Repeatable."
)
def describe(table: str, catalogs: tuple[Path, ...], settings: tuple[str, ...]) -> None:
    """List every column of TABLE with its kind."""
    config = _parse_settings(settings)

    def act() -> None:
        env = _environment(config, catalogs, one_shot="plans")
        # The rows of SQL DESCRIBE EXTENDED, shown as a query's are: one spelling for both.
        from ._sql import quote_identifier

        rows = _fetch(env, f"DESCRIBE EXTENDED {quote_identifier(table)}")
        try:
            _write(rows, "table", None)
        finally:
            del rows

    _run(act)


@main.command()
@_common
@click.option("--format", "fmt", type=click.Choice(_FORMATS), default="table")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path))
@_max_rows_option
def query(
    sql: str | None,
    sql_file: Path | None,
    settings: tuple[str, ...],
    catalogs: tuple[Path, ...],
    fmt: str,
    output: Path | None,
    max_rows: int,
) -> None:
    """Run a statement, or a script of statements separated by ;, and print the rows."""
    text = _read_text(sql, sql_file)
    config = _parse_settings(settings)
    if fmt == "parquet" and output is None:
        raise click.UsageError("--format parquet needs --output FILE")
    statements = split_all(text)

    def act() -> None:
        env = _environment(config, catalogs, one_shot="statements")
        if len(statements) > 1:
            name = str(sql_file) if sql_file is not None else "script"
            _run_script(env, text, name, fmt, max_rows, output)
            return
        table = _fetch(env, statements[0].positioned())
        try:
            _write(
                table,
                fmt,
                output,
                max_rows=max_rows,
                zone=_zone(env),
                max_width=_display_width(env),
            )
        finally:
            del table  # Arrow buffers live in the JVM: release them before it shuts down

    _run(act)


@main.command()
def doctor() -> None:
    """Print the versions and paths calcite-bridge uses, and check that the JVM starts."""
    import importlib.metadata
    import platform

    import jpype
    import pyarrow as pa

    from ._transport import jvm as _jvm
    from ._version import __version__

    def line(name: str, value: object) -> None:
        click.echo(f"{name + ':':<16}{value}")

    line("calcite-bridge", __version__)
    line("Python", f"{platform.python_version()} ({sys.executable})")
    line("JPype", jpype.__version__)
    line("py4j", importlib.metadata.version("py4j"))
    line("pyarrow", pa.__version__)
    problems: list[str] = []
    try:
        jvm = _jvm.find_jvm()
        home = _jvm._java_home_of(jvm)
        line("Java home", home or "unknown")
        bundled = _jvm.bundled_java_home()
        chosen = "bundled (the jdk extra)" if home is not None and home == bundled else "system"
        line("Java", f"{chosen}; CALCITE_BRIDGE_JAVA=bundled or system chooses")
        line("Java version", _jvm._java_version(home) or "unknown")
        line("JVM library", jvm)
    except Error as e:
        line("Java", "not found")
        problems.append(str(e))
    jar = _jvm.jar_path()
    line("jar", f"{jar}{'' if jar.is_file() else ' (missing)'}")
    if not problems:
        try:
            line("jar version", _jvm.call(_jvm.facade().version))
            line("start-up cache", _jvm.checked_cache_mode())
            line("idle warm-up", _idle_warm_up(str(_jvm.call(_jvm.facade().idleWarmUpStatus))))
        except Error as e:
            problems.append(str(e))
    for problem in problems:
        click.echo(click.style("problem", fg="red", bold=True) + ": " + problem, err=True)
    if problems:
        sys.exit(1)
    click.echo("OK: the JVM starts and the jar matches the package.")


def _idle_warm_up(status: str) -> str:
    """``doctor``'s line for the JIT's warm-up in idle time, from its state in this JVM (``off``
    or ``<state> <ran>/<budget>``)."""
    from ._transport.jvm import IDLE_WARM_UP_VAR as var

    if status == "off":
        return f"off ({var}=on or a number of statements turns it on)"
    budget = status.rpartition("/")[2]
    return f"{budget} statements while the process is idle; {var}=off turns it off"


def _plain(value: Any, type_: pa.DataType) -> Any:
    """A value of ``to_pylist`` with maps as dicts, ready for JSON."""
    import pyarrow as pa

    if value is None:
        return None
    if pa.types.is_map(type_):
        return {str(k): _plain(v, type_.item_type) for k, v in value}
    if pa.types.is_struct(type_):
        return {f.name: _plain(value.get(f.name), f.type) for f in type_}
    if (
        pa.types.is_list(type_)
        or pa.types.is_large_list(type_)
        or pa.types.is_fixed_size_list(type_)
    ):
        return [_plain(v, type_.value_type) for v in value]
    return value


def _json_scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, decimal.Decimal):
        return format(value, "f") if value.is_finite() else "null"
    if isinstance(value, bytes):
        return json.dumps(value.hex())
    if hasattr(value, "isoformat"):
        return json.dumps(value.isoformat())
    if isinstance(value, (int, float, str)):
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(str(value), ensure_ascii=False)


def _to_json(value: Any) -> str:
    """JSON text of a plain value: DECIMAL as a number with all its digits, BYTES as hex,
    dates and times as ISO 8601 strings."""
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_to_json(str(k))}: {_to_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_to_json(v) for v in value) + "]"
    return _json_scalar(value)


def _is_nested(type_: pa.DataType) -> bool:
    import pyarrow as pa

    return bool(pa.types.is_nested(type_))


def _in_zone(table: pa.Table, zone: str | None) -> pa.Table:
    """TIMESTAMP_LTZ columns (Arrow timestamps with a zone) shown in the session zone."""
    import pyarrow as pa

    if zone is None:
        return table
    for i, field in enumerate(table.schema):
        if pa.types.is_timestamp(field.type) and field.type.tz and field.type.tz != zone:
            try:
                column = table.column(i).cast(pa.timestamp(field.type.unit, tz=zone))
            except pa.ArrowException:
                continue
            table = table.set_column(i, field.name, column)
    return table


def _rows(table: pa.Table) -> Iterator[dict[str, Any]]:
    fields = list(table.schema)
    for row in table.to_pylist():
        yield {f.name: _plain(row[f.name], f.type) for f in fields}


def blob_text(value: bytes) -> str:
    """BYTES as DuckDB prints a BLOB: printable ASCII as is, other bytes as ``\\xAB``."""
    out = []
    for byte in value:
        if 32 <= byte < 127 and chr(byte) not in "\\'\"":
            out.append(chr(byte))
        else:
            out.append(f"\\x{byte:02X}")
    return "".join(out)


def cell_text(value: Any) -> str | None:
    """How a table shows a value: ``true``/``false``, BYTES as DuckDB's BLOB text, nested
    values as JSON; ``None`` for NULL (shown as a styled NULL)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, bytes):
        return blob_text(value)
    if isinstance(value, (dict, list)):
        return _to_json(value)
    return str(value)


_NULL = Text("NULL", style="dim italic")


def _cell(value: Any, max_width: int | None = None) -> Text:
    """A value's cell, as plain text: a value such as ``[bold]`` or ``[inner]`` is data, not
    Rich markup to act on."""
    text = cell_text(value)
    if text is None:
        return _NULL
    if max_width is not None and max_width > 0 and len(text) > max_width:
        # As Flink's SQL client cuts a value: its first characters, then "...".
        return Text(text[: max(max_width - 3, 0)] + "...")
    return Text(text)


def _footer(total: int, shown: int) -> str:
    rows = "row" if total == 1 else "rows"
    if shown < total:
        return f"{total:,} {rows} ({total - shown:,} hidden; --max-rows to show more)"
    return f"{total:,} {rows}"


def _write(
    table: pa.Table,
    fmt: str,
    output: Path | None,
    max_rows: int | None = None,
    zone: str | None = None,
    append: bool = False,
    max_width: int | None = None,
) -> None:
    """Writes ``table`` to ``output`` (stdout when None); ``append`` adds it after the results a
    script wrote there before. In the table format, ``max_width`` cuts longer values."""
    import pyarrow.parquet as pq

    if fmt == "parquet":
        pq.write_table(table, str(output))
        return
    table = _in_zone(table, zone)
    if fmt == "csv":
        _write_csv(table, output, append)
        return
    if fmt == "json":
        text = "".join(
            "{" + ", ".join(f"{json.dumps(k)}: {_to_json(v)}" for k, v in r.items()) + "}\n"
            for r in _rows(table)
        )
        _emit(text, output, append)
        return
    total = table.num_rows
    shown = table if max_rows is None or total <= max_rows else table.slice(0, max_rows)
    if fmt == "line":
        width = max((len(n) for n in table.column_names), default=0)
        blocks = []
        for row in _rows(shown):
            blocks.append(
                "\n".join(f"{k:>{width}} = {cell_text(v) or 'NULL'}" for k, v in row.items())
            )
        text = "\n\n".join(blocks) + ("\n" if blocks else "")
        if shown.num_rows < total:
            text += ("\n" if blocks else "") + _footer(total, shown.num_rows) + "\n"
        _emit(("\n" if append else "") + text, output, append)
        return
    out = _rich_table(shown, max_width)
    footer = _footer(total, shown.num_rows) if shown.num_rows < total else None
    if output:
        with output.open("a" if append else "w") as fh:
            console = Console(file=fh, width=100_000, soft_wrap=True, color_system=None)
            if append:
                console.print()
            console.print(out)
            if footer:
                console.print(footer)
    else:
        console = _out_console()
        console.print(out)
        if footer:
            console.print(footer, style="dim")


def _rich_table(table: pa.Table, max_width: int | None) -> RichTable:
    out = RichTable()
    for field in table.schema:
        # A ROW, ARRAY or MAP value stays on its row's line, cut with "…" at the terminal's
        # width (as DuckDB's shell cuts it) rather than wrapped over many lines.
        out.add_column(Text(field.name), no_wrap=_is_nested(field.type))
    for row in _rows(table):
        out.add_row(*(_cell(v, max_width) for v in row.values()), end_section=False)
    return out


def csv_field(value: Any) -> str:
    """One CSV field as RFC 4180 wants it: quoted only when it holds a comma, a quote or a
    line break, or is the empty string (NULL is an empty field). ROW, ARRAY and MAP values
    are written as JSON text."""
    if value is None:
        return ""
    text = cell_text(value)
    assert text is not None
    if text == "" or any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def _write_csv(table: pa.Table, output: Path | None, append: bool = False) -> None:
    import pyarrow as pa

    lines = [",".join(csv_field(name) for name in table.column_names)]
    for batch in table.to_batches(max_chunksize=65_536):
        for row in _rows(pa.Table.from_batches([batch], schema=table.schema)):
            lines.append(",".join(csv_field(v) for v in row.values()))
    _emit("\n".join(lines) + "\n", output, append)


def _emit(text: str, output: Path | None, append: bool = False) -> None:
    if output:
        with output.open("a" if append else "w") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)


@main.command(hidden=True)
@click.option("--stop", is_flag=True, help="Stop the daemon of this place.")
@click.option("--status", is_flag=True, help="Say whether a daemon runs for this place.")
def daemon(stop: bool, status: bool) -> None:
    """Keep a warm JVM for the one-shot commands run in this directory (docs/cli.md)."""
    from ._daemon import server

    if stop or status:
        sys.exit(server.report(stop))
    serve_daemon()


def serve_daemon() -> None:
    """Makes this process the daemon of its place: it serves the one-shot commands until it is
    stopped or idle, then exits."""
    from ._daemon import server

    _options["serving"] = True
    server.serve(_serve_command)
    _quick_exit(0)


def _serve_command(args: list[str], prog: str) -> int:
    """Runs one command in the daemon as :func:`run` would, short of exiting: its exit code.
    The environments it opened are closed after it."""
    try:
        try:
            main.main(args=args, prog_name=prog)
            return 0
        except SystemExit as e:
            return exit_status(e)
        except Exception:
            traceback.print_exc()
            return 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # the client went away
                pass
        opened = list(_opened)
        _opened.clear()
        for env in opened:
            try:
                env.close()
            except Exception:  # a session the JVM lost: nothing left to close
                pass


def exit_status(e: SystemExit) -> int:
    """The exit code of a command that raised ``e``; a message as its code is printed, as the
    interpreter prints it."""
    if isinstance(e.code, int):
        return e.code
    if e.code is not None:
        print(e.code, file=sys.stderr)
        return 1
    return 0


def run(after: Callable[[], None] | None = None) -> None:
    """The ``calcite-bridge`` command run in this process: :func:`main`, then ``after`` (the
    entry point starts a daemon there), then a quick exit.

    A command is done once its output is written; the JVM's orderly shutdown after it (a
    garbage collection to free result buffers, the workers' quiescing, ``DestroyJavaVM``) only
    delays the prompt, by a quarter of the whole command on a loaded machine. So the process
    runs the other exit hooks (DuckDB's spill directories, a Spark session, gateways), flushes
    its output, and ends without it. A library process keeps the orderly shutdown."""
    code: int = 0
    try:
        main()
    except SystemExit as e:
        code = exit_status(e)
    if after is not None:
        after()
    _quick_exit(code)


def _quick_exit(code: int) -> None:
    import atexit

    from ._transport import jvm

    if not jvm.started():
        sys.exit(code)
    import jpype._core

    atexit.unregister(jvm._at_exit)
    atexit.unregister(jpype._core._JTerminate)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more to say
            pass
    os._exit(code)


if __name__ == "__main__":
    run()
