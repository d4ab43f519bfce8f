"""The interactive SQL shell, as a user at a terminal sees it.

Unit-level cases type into prompt_toolkit's own pipe input (no terminal needed); one case
spawns ``python -m calcite_bridge`` on a pseudo-terminal with pexpect and types into it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

import calcite_bridge as cb
from calcite_bridge import cli
from calcite_bridge.script import Statement
from calcite_bridge.shell import SqlCompleter, history_path, run_shell

CATALOG = Path(__file__).parent / "fixtures" / "cli_catalog.sql"


@pytest.fixture
def shell_env() -> Iterator[cb.Environment]:
    env = cb.connect()
    env.execute_script(CATALOG.read_text())
    yield env
    env.close()


def type_into_shell(
    env: cb.Environment,
    keys: str,
    capsys: pytest.CaptureFixture[str],
    history: InMemoryHistory | None = None,
) -> tuple[str, str]:
    """Types ``keys`` into the shell (Ctrl-D at the end) and returns (stdout, stderr)."""

    def run_statement(env: cb.Environment, statement: Statement, mode: str, rows: int) -> None:
        cli._run_statement(env, statement, mode, rows, None)

    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text(keys + "\x04")
        run_shell(
            env,
            run_statement,
            cli._print_error,
            input=pipe,
            output=DummyOutput(),
            history=history if history is not None else InMemoryHistory(),
        )
    captured = capsys.readouterr()
    return captured.out, captured.err


def cells(out: str) -> list[list[str]]:
    return [[c.strip() for c in ln.split("│")[1:-1]] for ln in out.splitlines() if "│" in ln]


def test_a_statement_may_span_lines_and_runs_at_its_semicolon(
    shell_env: cb.Environment, capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = type_into_shell(shell_env, "SELECT id, name\nFROM emp\nORDER BY id;\n", capsys)
    assert cells(out) == [["1", "ann"], ["2", "bob"], ["3", "cy"]]
    assert err == ""


def test_history_keeps_a_statement_of_several_lines_as_one_entry(
    shell_env: cb.Environment, capsys: pytest.CaptureFixture[str]
) -> None:
    history = InMemoryHistory()
    keys = "SELECT name\nFROM emp\nWHERE id = 2;\n.mode csv\nSELECT 1 AS x; SELECT 2 AS y;\n"
    out, err = type_into_shell(shell_env, keys, capsys, history)
    assert cells(out) == [["bob"]] and "x\n1\n" in out and "y\n2\n" in out
    assert err == ""
    # Up recalls an entry: the whole statement, not its last line (the pseudo-terminal test
    # below presses Up)
    assert list(history.get_strings()) == [
        "SELECT name\nFROM emp\nWHERE id = 2;",
        ".mode csv",
        "SELECT 1 AS x; SELECT 2 AS y;",
    ]


def test_mode_and_maxrows_change_how_rows_are_shown(
    shell_env: cb.Environment, capsys: pytest.CaptureFixture[str]
) -> None:
    keys = (
        ".mode csv\nSELECT id, name FROM emp ORDER BY id;\n"
        ".mode json\nSELECT name FROM emp WHERE id = 2;\n"
        ".mode line\nSELECT id, name FROM emp WHERE id = 3;\n"
        ".mode table\n.maxrows 2\nSELECT id FROM emp ORDER BY id;\n"
    )
    out, err = type_into_shell(shell_env, keys, capsys)
    assert "id,name\n1,ann\n2,bob\n3,cy\n" in out
    assert '{"name": "bob"}\n' in out
    assert "  id = 3\nname = cy\n" in out
    assert "3 rows (1 hidden; --max-rows to show more)" in out
    assert err == ""


def test_an_error_prints_its_caret_and_the_shell_goes_on(
    shell_env: cb.Environment, capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = type_into_shell(
        shell_env, "SELECT nosuch FROM emp;\n.mode csv\nSELECT 42 AS answer;\n", capsys
    )
    assert "SqlValidationError" in err
    assert "1 | SELECT nosuch FROM emp" in err
    assert "  |        ^^^^^^" in err
    assert "answer\n42\n" in out


def test_ddl_and_insert_persist_across_statements(
    shell_env: cb.Environment, capsys: pytest.CaptureFixture[str]
) -> None:
    keys = (
        "CREATE TABLE t (x INT) WITH ('connector' = 'memory');\n"
        "INSERT INTO t VALUES (7), (8);\n.mode csv\nSELECT SUM(x) AS s FROM t;\n.tables\n"
    )
    out, _ = type_into_shell(shell_env, keys, capsys)
    assert "s\n15\n" in out
    assert out.splitlines()[-2:] == ["emp", "t"]


def test_schema_timer_explain_read_and_help(
    shell_env: cb.Environment, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = tmp_path / "more.sql"
    script.write_text("SELECT 'from file' AS src;\nSELECT 2 AS two;\n")
    keys = (
        ".schema emp\n.timer on\nSELECT 1 AS x;\n.timer off\n"
        ".explain on\nSELECT name FROM emp;\n.explain off\n"
        f".read {script}\n.help\n.nosuch\n"
    )
    out, err = type_into_shell(shell_env, keys, capsys)
    rows = {r[0]: r for r in cells(out) if r}
    assert rows["id"][1:3] == ["INT", "false"]  # as SQL DESCRIBE spells it
    assert "Run Time: " in out
    assert "BridgeTableScan(table=[[emp]], project=[[name]])" in out
    assert "from file" in out and "two" in out
    assert ".mode table|csv|json|line" in out
    assert "unknown command .nosuch" in err


def test_quit_ends_the_shell_before_later_input(
    shell_env: cb.Environment, capsys: pytest.CaptureFixture[str]
) -> None:
    out, _ = type_into_shell(shell_env, ".quit\nSELECT 'after' AS late;\n", capsys)
    assert "after" not in out


def test_completion_offers_keywords_tables_and_columns(shell_env: cb.Environment) -> None:
    completer = SqlCompleter(shell_env)

    def complete(text: str) -> list[str]:
        doc = Document(text, len(text))
        return [c.text for c in completer.get_completions(doc, CompleteEvent())]

    assert "SELECT" in complete("sel")
    assert "emp" in complete("SELECT * FROM em")
    assert "salary" in complete("SELECT sal")


def test_tables_and_completion_follow_the_current_database(
    shell_env: cb.Environment, capsys: pytest.CaptureFixture[str]
) -> None:
    keys = "CREATE DATABASE db1;\nUSE db1;\nCREATE TABLE orders (amount INT);\n.tables\n"
    out, _ = type_into_shell(shell_env, keys, capsys)
    assert out.splitlines()[-1:] == ["orders"]
    completer = SqlCompleter(shell_env)

    def complete(text: str) -> list[str]:
        doc = Document(text, len(text))
        return [c.text for c in completer.get_completions(doc, CompleteEvent())]

    assert "orders" in complete("SELECT * FROM or")
    assert "amount" in complete("SELECT am")
    assert "emp" not in complete("SELECT * FROM em")
    assert "DATABASES" in complete("SHOW DATA")
    shell_env.execute("USE default_database")
    assert "emp" in complete("SELECT * FROM em")


def test_history_lives_in_the_user_data_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/tmp/xdg-data")
    assert history_path() == Path("/tmp/xdg-data/calcite-bridge/history")


def test_shell_on_a_pseudo_terminal_end_to_end(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), NO_COLOR="1", TERM="dumb")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "calcite_bridge", "--catalog", str(CATALOG)],
        env=env,
        encoding="utf-8",
        timeout=120,
        dimensions=(40, 200),
    )
    try:
        child.expect_exact("sql> ")
        child.sendline("SELECT name")
        child.expect_exact("...> ")
        child.sendline("FROM emp WHERE id = 2;")
        child.expect("bob")
        child.expect_exact("sql> ")
        child.sendline(".mode csv")
        child.expect_exact("sql> ")
        child.sendline("SELECT nosuch FROM emp;")
        child.expect("SqlValidationError")
        child.expect_exact("sql> ")
        child.sendline("SELECT COUNT(*) AS n FROM emp;")
        child.expect(r"n\r\n3\r\n")
        child.expect_exact("sql> ")
        # Up four times passes COUNT, the error and .mode, and recalls the whole two-line
        # statement: it runs again, now in CSV
        for _ in range(4):
            child.send("\x1b[A")
        child.send("\r")
        child.expect(r"name\r\nbob\r\n")
        child.expect_exact("sql> ")
        # Ctrl-D ends the shell. The prompt shows a moment before the terminal is in raw
        # mode, where the line discipline would swallow a Ctrl-D: send it until it lands.
        for _ in range(30):
            child.sendcontrol("d")
            if child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=2) == 0:
                break
    finally:
        child.close()
    assert child.exitstatus == 0
    history = (tmp_path / "data" / "calcite-bridge" / "history").read_text()
    assert "SELECT COUNT(*) AS n FROM emp;" in history


SPLIT_CASES = [
    # (script, [(statement, line, column)])
    ("SELECT 1; SELECT 2", [("SELECT 1", 1, 1), ("SELECT 2", 1, 11)]),
    ("SELECT 'a;b';\nSELECT 'it''s;';", [("SELECT 'a;b'", 1, 1), ("SELECT 'it''s;'", 2, 1)]),
    ("SELECT `a;b` FROM t;", [("SELECT `a;b` FROM t", 1, 1)]),
    ('SELECT "a;b" FROM t;', [('SELECT "a;b" FROM t', 1, 1)]),
    ("-- c;\nSELECT 1 -- x;\n;", [("SELECT 1 -- x;", 2, 1)]),
    ("/* a;\n b; */ SELECT 1;\n\n  SELECT 2;", [("SELECT 1", 2, 8), ("SELECT 2", 4, 3)]),
    (";;  ;\n-- only a comment\n", []),
]


@pytest.mark.parametrize(("script", "expected"), SPLIT_CASES)
def test_scripts_split_at_semicolons_outside_literals_and_comments(
    script: str, expected: list[tuple[str, int, int]]
) -> None:
    from calcite_bridge.script import split_all

    assert [(s.text, s.line, s.column) for s in split_all(script)] == expected


def test_a_statement_is_complete_only_when_its_semicolon_is_outside_a_literal() -> None:
    from calcite_bridge.script import is_complete

    assert is_complete("SELECT 1;")
    assert is_complete("SELECT 1; -- done")
    assert not is_complete("SELECT ';")
    assert not is_complete("SELECT 1 /* ; */")
    assert not is_complete("")
