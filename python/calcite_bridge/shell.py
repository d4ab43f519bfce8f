"""The interactive SQL shell that ``calcite-bridge`` opens on a terminal.

Statements may span lines and run when a line ends their ``;``. Dot commands (``.help``)
change how results are shown. History is kept in the user's data directory, a whole statement
per entry: Up recalls the statement, however many lines it has, as psql's and DuckDB's shells do.
"""

from __future__ import annotations

import os
import shlex
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import pyarrow as pa
from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.lexers import PygmentsLexer
from prompt_toolkit.output import Output
from prompt_toolkit.utils import is_dumb_terminal
from pygments.lexers.sql import SqlLexer

from .environment import Environment
from .errors import Error
from .script import Statement, is_complete, split_all

# How the command line runs one statement (statement, mode, max rows) and reports an error.
RunStatement = Callable[[Environment, Statement, str, int], None]
ReportError = Callable[[BaseException], None]

MODES = ("table", "csv", "json", "line")

HELP = """\
.mode table|csv|json|line  how results are shown
.maxrows N                 rows the table mode shows (now {max_rows})
.timer on|off              print the time each statement takes
.explain on|off            print the plan of a statement instead of running it
.read FILE                 run the statements of a SQL file
.tables                    list the tables and views
.schema TABLE              the columns of a table
.help                      this help
.quit, .exit, Ctrl-D       leave the shell
Statements end with ; and may span several lines."""

KEYWORDS = sorted(
    {
        *"SELECT FROM WHERE GROUP BY HAVING ORDER LIMIT OFFSET FETCH FIRST NEXT ROWS ONLY"
        " JOIN INNER LEFT RIGHT FULL OUTER CROSS ON USING AS DISTINCT ALL UNION INTERSECT"
        " EXCEPT WITH VALUES INSERT INTO UPDATE SET DELETE CREATE TABLE VIEW DROP ALTER"
        " IF EXISTS NOT NULL AND OR IS IN BETWEEN LIKE CASE WHEN THEN ELSE END CAST TRUE"
        " FALSE DESCRIBE EXPLAIN SHOW TABLES RESET ASC DESC OVER PARTITION WINDOW"
        " COLUMNS TEMPORARY PRIMARY KEY ENFORCED WATERMARK FOR PROCTIME COMMENT PARTITIONED"
        " CONSTRAINT CATALOG CATALOGS DATABASE DATABASES VIEWS USE CURRENT CASCADE RESTRICT"
        " COUNT SUM AVG MIN MAX COALESCE INTERVAL TIMESTAMP DATE TIME MATERIALIZED FRESHNESS"
        " REFRESH_MODE REFRESH SUSPEND RESUME CONTINUOUS EXECUTE COMPILE PLAN STATEMENT BEGIN"
        " HELP".split(),
    }
)


def history_path() -> Path:
    """Where the shell keeps its history: ``$XDG_DATA_HOME/calcite-bridge/history`` or the
    platform's user data directory."""
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        base = Path(xdg) / "calcite-bridge"
    else:
        import platformdirs

        base = Path(platformdirs.user_data_dir("calcite-bridge", appauthor=False))
    return base / "history"


class SqlCompleter(Completer):
    """Keywords, table names and the column names of the tables of the catalog."""

    def __init__(self, env: Environment) -> None:
        self._env = env

    def _names(self) -> list[str]:
        names: list[str] = []
        try:
            tables = self._env.tables()
        except Error:
            return names
        names.extend(tables)
        for table in tables:
            try:
                names.extend(c.name for c in self._env.describe(table))
            except Error:
                continue
        return names

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        word = document.get_word_before_cursor(WORD=False)
        if not word or not (word[0].isalpha() or word[0] == "_"):
            return
        seen: set[str] = set()
        lower = word.lower()
        for name in [*self._names(), *KEYWORDS]:
            if name.lower().startswith(lower) and name not in seen:
                seen.add(name)
                yield Completion(name, start_position=-len(word))


@dataclass
class ShellState:
    mode: str = "table"
    max_rows: int = 40
    timer: bool = False
    explain: bool = False
    done: bool = False


class Shell:
    """Runs statements and dot commands against one environment."""

    def __init__(
        self,
        env: Environment,
        run_statement: RunStatement,
        report: ReportError,
        state: ShellState | None = None,
    ) -> None:
        self.env = env
        self.run_statement = run_statement
        self.report = report
        self.state = state or ShellState()

    def echo(self, text: str) -> None:
        click.echo(text)

    def run_text(self, text: str) -> bool:
        """Runs the statements of ``text``; stops at an error, printed with its caret snippet.
        Returns whether all ran."""
        for statement in split_all(text):
            start = time.monotonic()
            try:
                if self.state.explain:
                    self.echo(self.env.explain(statement.positioned()))
                else:
                    self.run_statement(self.env, statement, self.state.mode, self.state.max_rows)
            except (Error, OSError, pa.ArrowException) as e:
                self.report(e)
                return False
            except KeyboardInterrupt:
                click.echo("Cancelled.", err=True)
                return False
            if self.state.timer:
                self.echo(f"Run Time: {time.monotonic() - start:.3f} s")
        return True

    def dot(self, line: str) -> None:
        """Runs one dot command."""
        try:
            words = shlex.split(line)
        except ValueError as e:
            _fail(str(e))
            return
        command, args = words[0].lower(), words[1:]
        handler = {
            ".quit": self._quit,
            ".exit": self._quit,
            ".help": self._help,
            ".mode": self._mode,
            ".maxrows": self._maxrows,
            ".timer": self._switch,
            ".explain": self._switch,
            ".read": self._read,
            ".tables": self._tables,
            ".schema": self._schema,
        }.get(command)
        if handler is None:
            _fail(f"unknown command {command}; .help lists them")
            return
        handler(command, args)

    def _quit(self, command: str, args: list[str]) -> None:
        self.state.done = True

    def _help(self, command: str, args: list[str]) -> None:
        self.echo(HELP.format(max_rows=self.state.max_rows))

    def _mode(self, command: str, args: list[str]) -> None:
        if not args:
            self.echo(f"mode {self.state.mode}")
        elif len(args) == 1 and args[0] in MODES:
            self.state.mode = args[0]
        else:
            _fail(f".mode expects one of {'|'.join(MODES)}")

    def _maxrows(self, command: str, args: list[str]) -> None:
        if not args:
            self.echo(f"maxrows {self.state.max_rows}")
        elif len(args) == 1 and args[0].isdigit():
            self.state.max_rows = int(args[0])
        else:
            _fail(".maxrows expects a number of rows")

    def _switch(self, command: str, args: list[str]) -> None:
        if len(args) == 1 and args[0].lower() in ("on", "off"):
            setattr(self.state, command[1:], args[0].lower() == "on")
        else:
            _fail(f"{command} expects on or off")

    def _read(self, command: str, args: list[str]) -> None:
        if len(args) != 1:
            _fail(".read expects a file name")
            return
        try:
            text = Path(args[0]).expanduser().read_text()
        except OSError as e:
            _fail(f"cannot read {args[0]}: {e.strerror}")
            return
        self.run_text(text)

    def _tables(self, command: str, args: list[str]) -> None:
        for name in self.env.tables():
            self.echo(name)

    def _schema(self, command: str, args: list[str]) -> None:
        if len(args) != 1:
            _fail(".schema expects a table name")
            return
        self.run_text(f"DESCRIBE {_quote(args[0])}")


def _fail(message: str) -> None:
    click.echo(f"Error: {message}", err=True)


def _quote(name: str) -> str:
    from ._sql import quote_identifier

    return quote_identifier(name)


def run_shell(
    env: Environment,
    run_statement: RunStatement,
    report: ReportError,
    fmt: str = "table",
    max_rows: int = 40,
    input: Input | None = None,
    output: Output | None = None,
    history: History | None = None,
) -> None:
    """The read-eval-print loop; returns on ``.quit``, ``.exit`` or Ctrl-D."""
    mode = fmt if fmt in MODES else "table"
    shell = Shell(env, run_statement, report, ShellState(mode=mode, max_rows=max_rows))
    if history is None:
        path = history_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            history = FileHistory(str(path))
        except OSError:
            history = InMemoryHistory()
    options: dict[str, Any] = {}
    if input is not None:
        options["input"] = input
    if output is not None:
        options["output"] = output
    bindings = KeyBindings()
    session: PromptSession[str] = PromptSession(
        history=history,
        lexer=PygmentsLexer(SqlLexer),
        completer=SqlCompleter(env),
        complete_while_typing=False,
        color_depth=None,
        multiline=True,
        prompt_continuation="...> ",
        key_bindings=bindings,
        **options,
    )
    # Lines are gathered in one multi-line buffer so that history keeps whole statements.
    # Enter runs the buffer once it holds complete statements (or a dot command); before
    # that it starts a new line of the same statement.
    dumb = output is None and is_dumb_terminal()

    @bindings.add("enter")
    def _enter(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        if buffer.complete_state is not None and buffer.complete_state.current_completion:
            buffer.complete_state = None  # Enter takes the completion chosen in the menu
            return
        if _ready(buffer.text):
            buffer.validate_and_handle()
            return
        buffer.insert_text("\n")
        if dumb:  # a dumb terminal is not redrawn: show the continuation prompt here
            session.output.write("...> ")
            session.output.flush()

    if input is None:
        click.echo('calcite-bridge SQL shell. End statements with ";". ".help" for help.')
    while not shell.state.done:
        try:
            text = session.prompt("sql> ")
        except KeyboardInterrupt:
            continue
        except EOFError:
            break
        if text.strip().startswith("."):
            shell.dot(text.strip())
        elif text.strip():
            shell.run_text(text)


def _ready(text: str) -> bool:
    """Whether Enter should run what the buffer holds: nothing, a dot command, or statements
    whose last ``;`` lies outside literals and comments."""
    stripped = text.strip()
    return not stripped or (stripped.startswith(".") and "\n" not in stripped) or is_complete(text)
