"""The ``calcite-bridge`` command: explain, query, validate and describe from a shell."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.table import Table as RichTable

from .environment import Environment, connect
from .errors import Error

F = TypeVar("F", bound=Callable[..., Any])

err_console = Console(stderr=True)


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


def _read_sql(sql: str | None, sql_file: Path | None) -> str:
    if sql is not None and sql_file is not None:
        raise click.UsageError("give the SQL as an argument or with -f, not both")
    if sql_file is not None:
        return sql_file.read_text()
    if sql is not None:
        return sql
    if sys.stdin.isatty():
        raise click.UsageError("no SQL given: pass it as an argument, with -f FILE, or on stdin")
    return sys.stdin.read()


@contextmanager
def _progress(message: str) -> Iterator[None]:
    """A spinner on a terminal; silent when stderr is redirected."""
    if err_console.is_terminal:
        with err_console.status(message):
            yield
    else:
        yield


def _environment(settings: tuple[str, ...], catalogs: tuple[Path, ...]) -> Environment:
    config: dict[str, str] = {}
    for item in settings:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.UsageError(f"--set expects KEY=VALUE, got {item!r}")
        config[key.strip()] = value.strip()
    with _progress("Starting the planner…"):
        env = connect(config=config)
    for path in catalogs:
        with _progress(f"Running {path}…"):
            env.execute_script(path.read_text())
    return env


def _fail(e: Error) -> None:
    err_console.print(f"[bold red]{type(e).__name__}[/]: ", end="")
    err_console.print(str(e), markup=False, highlight=False)
    sys.exit(1)


def _run(action: Callable[[], None]) -> None:
    try:
        action()
    except Error as e:
        _fail(e)
    except KeyboardInterrupt:
        err_console.print("Cancelled.")
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

    def act() -> None:
        env = _environment(settings, catalogs)
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

    def act() -> None:
        env = _environment(settings, catalogs)
        schema = env.validate(text)
        for field in schema:
            null = "" if field.nullable else " NOT NULL"
            click.echo(f"{field.name}\t{field.type}{null}")

    _run(act)


@main.command()
@click.argument("table")
@click.option("--catalog", "catalogs", multiple=True, type=click.Path(exists=True, path_type=Path))
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE")
def describe(table: str, catalogs: tuple[Path, ...], settings: tuple[str, ...]) -> None:
    """List every column of TABLE with its kind."""

    def act() -> None:
        env = _environment(settings, catalogs)
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
        Console().print(out)

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
    if fmt == "parquet" and output is None:
        raise click.UsageError("--format parquet needs --output FILE")

    def act() -> None:
        env = _environment(settings, catalogs)
        with _progress("Running…"):
            table = env.execute(text).to_arrow_table()
        _write(table, fmt, output)

    _run(act)


def _write(table: Any, fmt: str, output: Path | None) -> None:
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    if fmt == "parquet":
        pq.write_table(table, str(output))
        return
    if fmt == "csv":
        sink = str(output) if output else sys.stdout.buffer
        pacsv.write_csv(table, sink)
        return
    if fmt == "json":
        text = "\n".join(json.dumps(r, default=str) for r in table.to_pylist())
        _emit(text + ("\n" if text else ""), output)
        return
    out = RichTable(*table.column_names)
    for row in table.to_pylist():
        out.add_row(*("NULL" if v is None else str(v) for v in row.values()))
    if output:
        with output.open("w") as fh:
            Console(file=fh, width=200).print(out)
    else:
        Console().print(out)


def _emit(text: str, output: Path | None) -> None:
    if output:
        output.write_text(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
