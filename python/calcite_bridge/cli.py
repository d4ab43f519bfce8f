"""The ``calcite-bridge`` command: explain, query, validate and describe from a shell, and
``gateway`` to serve the JVM to other processes."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click
import pyarrow as pa
from rich.console import Console
from rich.table import Table as RichTable

from ._transport.serve import gateway as _gateway_command
from .environment import Environment, connect
from .errors import Error

F = TypeVar("F", bound=Callable[..., Any])

err_console = Console(stderr=True)


def _out_console() -> Console:
    """Rich output on stdout: the terminal's width there; never cut or wrapped when piped."""
    console = Console()
    if console.is_terminal:
        return console
    return Console(width=100_000, soft_wrap=True)


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


def _read_sql(sql: str | None, sql_file: Path | None) -> str:
    """The one statement to run; a trailing ``;`` is dropped, as a file usually ends in one."""
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
    stripped = text.rstrip()
    while stripped.endswith(";"):
        stripped = stripped[:-1].rstrip()
    if not stripped.strip():
        raise click.UsageError(_NO_SQL)
    return stripped


def _parse_settings(settings: tuple[str, ...]) -> dict[str, str]:
    config: dict[str, str] = {}
    for item in settings:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.UsageError(f"--set expects KEY=VALUE, got {item!r}")
        config[key.strip()] = value.strip()
    return config


@contextmanager
def _progress(message: str) -> Iterator[None]:
    """A spinner on a terminal; silent when stderr is redirected."""
    if err_console.is_terminal:
        with err_console.status(message):
            yield
    else:
        yield


class _CatalogFailed(Exception):
    def __init__(self, path: Path, error: Error) -> None:
        super().__init__(str(error))
        self.path = path
        self.error = error


def _environment(config: dict[str, str], catalogs: tuple[Path, ...]) -> Environment:
    with _progress("Starting the planner…"):
        env = connect(config=config)
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
    click.echo(click.style(name, fg="red", bold=True) + ": " + str(e), err=True)


def _run(action: Callable[[], None]) -> None:
    try:
        action()
    except _CatalogFailed as e:
        _print_error(e.error, f"in catalog file {e.path}:")
        sys.exit(1)
    except Error as e:
        _print_error(e)
        sys.exit(1)
    except (OSError, pa.ArrowException) as e:
        _print_error(e)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("Cancelled (KeyboardInterrupt).", err=True)
        sys.exit(130)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="calcite-bridge")
def main() -> None:
    """Explain, validate and run SQL with calcite-bridge."""


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
    """Print the optimized plan of a query or INSERT."""
    text = _read_sql(sql, sql_file)
    config = _parse_settings(settings)

    def act() -> None:
        env = _environment(config, catalogs)
        with _progress("Planning…"):
            plan = env.explain(text, format=fmt)
        click.echo(plan)

    _run(act)


@main.command()
@_common
def validate(
    sql: str | None, sql_file: Path | None, settings: tuple[str, ...], catalogs: tuple[Path, ...]
) -> None:
    """Validate a query and print the columns of its result."""
    text = _read_sql(sql, sql_file)
    config = _parse_settings(settings)

    def act() -> None:
        env = _environment(config, catalogs)
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
        env = _environment(config, catalogs)
        cols = env.describe(table)
        out = RichTable("name", "type", "null", "kind", "key", "virtual", "expression")
        for c in cols:
            out.add_row(
                c.name,
                c.data_type,
                "YES" if c.nullable else "NO",
                c.kind,
                c.metadata_key or "",
                "" if c.virtual is None else str(c.virtual).upper(),
                c.expression or "",
            )
        _out_console().print(out)

    _run(act)


@main.command()
@_common
@click.option(
    "--format", "fmt", type=click.Choice(["table", "csv", "json", "parquet"]), default="table"
)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path))
def query(
    sql: str | None,
    sql_file: Path | None,
    settings: tuple[str, ...],
    catalogs: tuple[Path, ...],
    fmt: str,
    output: Path | None,
) -> None:
    """Run a statement and print its rows."""
    text = _read_sql(sql, sql_file)
    config = _parse_settings(settings)
    if fmt == "parquet" and output is None:
        raise click.UsageError("--format parquet needs --output FILE")

    def act() -> None:
        env = _environment(config, catalogs)
        with _progress("Running…"):
            table = env.execute(text).to_arrow_table()
        try:
            _write(table, fmt, output)
        finally:
            del table  # Arrow buffers live in the JVM: release them before it shuts down

    _run(act)


@main.command()
def doctor() -> None:
    """Print the versions and paths calcite-bridge uses, and check that the JVM starts."""
    import importlib.metadata
    import platform

    import jpype

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
        except Error as e:
            problems.append(str(e))
    for problem in problems:
        click.echo(click.style("problem", fg="red", bold=True) + ": " + problem, err=True)
    if problems:
        sys.exit(1)
    click.echo("OK: the JVM starts and the jar matches the package.")


def _plain(value: Any, type_: pa.DataType) -> Any:
    """A value of ``to_pylist`` with maps as dicts, ready for JSON."""
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


def _json_default(value: Any) -> Any:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


def _to_json(value: Any) -> str:
    return json.dumps(value, default=_json_default, ensure_ascii=False)


def _is_nested(type_: pa.DataType) -> bool:
    return bool(pa.types.is_nested(type_))


def _rows(table: pa.Table) -> Iterator[dict[str, Any]]:
    fields = list(table.schema)
    for row in table.to_pylist():
        yield {f.name: _plain(row[f.name], f.type) for f in fields}


def _cell(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, (dict, list)):
        return _to_json(value)
    return str(value)


def _write(table: pa.Table, fmt: str, output: Path | None) -> None:
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    if fmt == "parquet":
        pq.write_table(table, str(output))
        return
    if fmt == "csv":
        # CSV has no nested values: ROW, ARRAY and MAP columns are written as JSON text.
        for i, field in enumerate(table.schema):
            if _is_nested(field.type):
                values = [
                    None if v is None else _to_json(_plain(v, field.type))
                    for v in table.column(i).to_pylist()
                ]
                table = table.set_column(i, field.name, pa.array(values, pa.string()))
        sink: Any = str(output) if output else sys.stdout.buffer
        if not output:
            sys.stdout.flush()
        pacsv.write_csv(table, sink)
        return
    if fmt == "json":
        text = "".join(_to_json(r) + "\n" for r in _rows(table))
        _emit(text, output)
        return
    out = RichTable(*table.column_names)
    for row in _rows(table):
        out.add_row(*(_cell(v) for v in row.values()), end_section=False)
    if output:
        with output.open("w") as fh:
            Console(file=fh, width=100_000, soft_wrap=True).print(out)
    else:
        _out_console().print(out)


def _emit(text: str, output: Path | None) -> None:
    if output:
        output.write_text(text)
    else:
        sys.stdout.write(text)


main.add_command(_gateway_command, name="gateway")

if __name__ == "__main__":
    main()
