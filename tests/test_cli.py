"""The ``calcite-bridge`` command, as a user in a shell sees it.

Most cases run in-process with click's CliRunner (they share the one JVM of the test run);
one runs the installed console script end to end in a subprocess.
"""

from __future__ import annotations

import csv
import io
import json
import os
import pty
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner, Result

import calcite_bridge as cb
from calcite_bridge.cli import main

FIXTURES = Path(__file__).parent / "fixtures"
CATALOG = str(FIXTURES / "cli_catalog.sql")
SCRIPT = Path(sys.executable).parent / "calcite-bridge"
EXPANSION = "table.column-expansion-strategy"


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input)


def ok(*args: str, input: str | None = None) -> Result:
    result = run(*args, input=input)
    assert result.exit_code == 0, (result.output, result.stderr, result.exception)
    return result


def caret_column(stderr: str) -> int:
    """The 1-based column of the first caret under the echoed SQL line."""
    line = next(ln for ln in stderr.splitlines() if ln.strip().endswith("^"))
    marks = line.partition(" | ")[2]
    return len(marks) - len(marks.lstrip(" ")) + 1


def assert_no_traceback(result: Result) -> None:
    assert "Traceback" not in result.stderr
    assert "Traceback" not in result.output


# --- explain ---------------------------------------------------------------------------------

PLAN_SQL = "SELECT name, addr.city FROM emp WHERE salary > 50"


def test_explain_text_shows_the_optimized_plan() -> None:
    out = ok("explain", "--catalog", CATALOG, PLAN_SQL).output
    assert "BridgeTableScan" in out
    assert "emp" in out
    assert '"salary" > 5.00E1' in out  # DuckDB runs the filter the memory table can't take
    out = ok("explain", "--set", "execution.backend=enumerable", "--catalog", CATALOG, PLAN_SQL)
    assert "50.0E0:DOUBLE" in out.output  # Calcite's engine does


def test_explain_json_is_valid_json_naming_the_table() -> None:
    reference = ["--set", "execution.backend=enumerable"]
    out = ok("explain", *reference, "--catalog", CATALOG, "--format", "json", PLAN_SQL).output
    plan = json.loads(out)
    ops = [rel["relOp"] for rel in plan["rels"]]
    assert any(op.endswith("TableScan") for op in ops)
    assert any(rel.get("table") == ["emp"] for rel in plan["rels"])


def test_explain_dot_is_a_graphviz_digraph_with_edges() -> None:
    sql = "SELECT e.name FROM emp e JOIN emp f ON e.id = f.id WHERE e.salary > 50"
    out = ok("explain", "--catalog", CATALOG, "--format", "dot", sql).output.strip()
    assert out.startswith("digraph {")
    assert out.endswith("}")
    assert "->" in out
    assert "BridgeTableScan" in out


def test_explain_rejects_an_unknown_format_as_a_usage_error() -> None:
    result = run("explain", "--format", "yaml", "SELECT 1")
    assert result.exit_code == 2
    assert "yaml" in result.stderr
    assert "text" in result.stderr and "json" in result.stderr and "dot" in result.stderr


# --- query -----------------------------------------------------------------------------------

ROWS_SQL = "SELECT id, name, bonus, addr.city AS city FROM emp ORDER BY id"


def test_query_table_format_prints_every_row_with_nulls() -> None:
    out = ok("query", "--catalog", CATALOG, ROWS_SQL).output
    header = next(ln for ln in out.splitlines() if "name" in ln)
    for column in ("id", "name", "bonus", "city"):
        assert column in header
    lines = out.splitlines()
    ann = next(ln for ln in lines if "ann" in ln)
    assert "Paris" in ann and "10.0" in ann
    cy = next(ln for ln in lines if " cy " in ln)
    assert "NULL" in cy  # addr is NULL for cy


def test_query_table_format_does_not_truncate_wide_values_when_piped() -> None:
    sql = "SELECT '" + "x" * 150 + "' AS wide, addr FROM emp WHERE id = 1"
    out = ok("query", "--catalog", CATALOG, sql).output
    assert "x" * 150 in out
    assert '{"city": "Paris", "zip": 75}' in out
    assert "…" not in out


def test_query_csv_format_is_parseable_and_writes_nested_values_as_json() -> None:
    sql = "SELECT id, name, addr, tags, props FROM emp ORDER BY id"
    out = ok("query", "--catalog", CATALOG, "--format", "csv", sql).output
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["name"] for r in rows] == ["ann", "bob", "cy"]
    assert json.loads(rows[0]["addr"]) == {"city": "Paris", "zip": 75}
    assert json.loads(rows[0]["tags"]) == ["a", "b"]
    assert json.loads(rows[0]["props"]) == {"level": "senior"}
    assert rows[2]["addr"] == ""  # NULL


def test_query_json_format_prints_one_object_per_line() -> None:
    sql = "SELECT id, name, addr, tags, props FROM emp ORDER BY id"
    out = ok("query", "--catalog", CATALOG, "--format", "json", sql).output
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows == [
        {
            "id": 1,
            "name": "ann",
            "addr": {"city": "Paris", "zip": 75},
            "tags": ["a", "b"],
            "props": {"level": "senior"},
        },
        {
            "id": 2,
            "name": "bob",
            "addr": {"city": "Lyon", "zip": 69},
            "tags": ["c"],
            "props": {"level": "junior"},
        },
        {"id": 3, "name": "cy", "addr": None, "tags": None, "props": None},
    ]


def test_query_parquet_writes_a_file_that_pyarrow_reads_back(tmp_path: Path) -> None:
    target = tmp_path / "emp.parquet"
    sql = "SELECT id, name, addr, bonus FROM emp ORDER BY id"
    ok("query", "--catalog", CATALOG, "--format", "parquet", "--output", str(target), sql)
    table = pq.read_table(target)
    assert table.column_names == ["id", "name", "addr", "bonus"]
    assert table.column("name").to_pylist() == ["ann", "bob", "cy"]
    assert table.column("addr").to_pylist()[0] == {"city": "Paris", "zip": 75}
    assert table.column("bonus").to_pylist() == pytest.approx([10.0, 4.0, 8.0])


def test_query_parquet_without_output_is_a_usage_error() -> None:
    result = run("query", "--format", "parquet", "SELECT 1")
    assert result.exit_code == 2
    assert "--output" in result.stderr


def test_query_rejects_an_unknown_format_as_a_usage_error() -> None:
    result = run("query", "--format", "xml", "SELECT 1")
    assert result.exit_code == 2
    assert "xml" in result.stderr


def test_query_csv_with_output_writes_the_file(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    ok("query", "--format", "csv", "-o", str(target), "VALUES (1, 'a'), (2, 'b')")
    rows = list(csv.reader(io.StringIO(target.read_text())))
    assert rows[1:] == [["1", "a"], ["2", "b"]]


# --- validate and describe -------------------------------------------------------------------


def test_validate_prints_each_result_column_with_its_type() -> None:
    sql = "SELECT id, addr.city, bonus, props['level'] AS lvl, tags FROM emp"
    out = ok("validate", "--catalog", CATALOG, sql).output
    columns = dict(line.split("\t", 1) for line in out.splitlines())
    assert columns == {
        "id": "int32 NOT NULL",
        "city": "string",
        "bonus": "double",
        "lvl": "string",
        "tags": "list<element: string>",
    }


def test_validate_does_not_run_the_statement() -> None:
    # An INSERT's target stays unchanged after validating a query that reads it.
    ok("validate", "--catalog", CATALOG, "SELECT COUNT(*) AS n FROM emp")
    out = ok("query", "--catalog", CATALOG, "--format", "json", "SELECT COUNT(*) AS n FROM emp")
    assert json.loads(out.output) == {"n": 3}


def test_describe_lists_every_column_with_its_kind() -> None:
    out = ok("describe", "--catalog", CATALOG, "emp").output
    kinds = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if len(cells) == 7 and cells[0] not in ("", "name"):
            kinds[cells[0]] = cells
    assert kinds["id"][1:4] == ["INT", "false", "PHYSICAL"]
    assert kinds["addr"][3] == "PHYSICAL"
    assert kinds["addr"][1].startswith("ROW<")
    assert kinds["bonus"][3] == "COMPUTED"
    assert "salary" in kinds["bonus"][6]
    assert kinds["inserted"][3:6] == ["METADATA", "timestamp", "true"]
    assert kinds["part"][3:6] == ["METADATA", "partition", "false"]
    assert kinds["topic"][3:6] == ["METADATA", "topic", "true"]


def test_describe_prints_what_sql_describe_extended_prints() -> None:
    # One spelling of nullability (and of every other column) for both.
    cli = ok("describe", "--catalog", CATALOG, "emp").output
    sql = ok("query", "--catalog", CATALOG, "DESCRIBE EXTENDED emp").output
    assert cli == sql
    assert "nullable" in cli.splitlines()[1]


def test_describe_an_unknown_table_exits_1_naming_it() -> None:
    result = run("describe", "--catalog", CATALOG, "nosuch")
    assert result.exit_code == 1
    assert "CatalogError" in result.stderr
    assert "nosuch" in result.stderr
    assert_no_traceback(result)


# --- where the SQL comes from ----------------------------------------------------------------


def test_sql_from_an_argument() -> None:
    out = ok("query", "--format", "json", "SELECT 41 + 1 AS answer").output
    assert json.loads(out) == {"answer": 42}


def test_sql_from_a_file_with_a_trailing_semicolon(tmp_path: Path) -> None:
    f = tmp_path / "q.sql"
    f.write_text("-- the richest\nSELECT name\nFROM emp\nWHERE salary > 90;\n")
    out = ok("query", "--catalog", CATALOG, "--format", "json", "-f", str(f)).output
    assert json.loads(out) == {"name": "ann"}


def test_sql_from_stdin() -> None:
    out = ok(
        "query", "--catalog", CATALOG, "--format", "json", input="SELECT COUNT(*) AS n FROM emp\n"
    ).output
    assert json.loads(out) == {"n": 3}


def test_sql_from_stdin_for_explain_and_validate() -> None:
    assert (
        "EnumerableValues"
        in ok("explain", "--set", "execution.backend=enumerable", input="VALUES (1)").output
    )
    assert ok("validate", input="SELECT 'a' AS s").output.startswith("s\t")


def test_no_sql_on_an_empty_stdin_is_a_usage_error() -> None:
    result = run("query", input="  \n")
    assert result.exit_code == 2
    assert "no SQL given" in result.stderr


def test_no_sql_on_a_terminal_is_a_usage_error_rather_than_waiting() -> None:
    # stdin is a terminal: the command must not sit waiting for input.
    primary, secondary = pty.openpty()
    try:
        proc = subprocess.run(
            [str(SCRIPT), "query"],
            stdin=secondary,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(secondary)
        os.close(primary)
    assert proc.returncode == 2
    assert "no SQL given" in proc.stderr


def test_sql_as_argument_and_file_together_is_a_usage_error(tmp_path: Path) -> None:
    f = tmp_path / "q.sql"
    f.write_text("SELECT 1")
    result = run("query", "-f", str(f), "SELECT 2")
    assert result.exit_code == 2
    assert "not both" in result.stderr


def test_a_missing_sql_file_is_a_usage_error() -> None:
    result = run("query", "-f", "/nonexistent/q.sql")
    assert result.exit_code == 2
    assert "/nonexistent/q.sql" in result.stderr


# --- --set -----------------------------------------------------------------------------------


def test_set_reaches_the_configuration() -> None:
    strategy = "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS"
    out = ok("query", "--set", f"{EXPANSION}={strategy}", "--format", "json", "SET").output
    settings = {r["key"]: r["value"] for r in map(json.loads, out.splitlines())}
    assert settings[EXPANSION] == strategy


def test_set_is_repeatable() -> None:
    out = ok(
        "query",
        "--set",
        f"{EXPANSION}=EXCLUDE_COMPUTED_COLUMNS",
        "--set",
        "table.local-time-zone=Europe/Paris",
        "--format",
        "json",
        "SET",
    ).output
    settings = {r["key"]: r["value"] for r in map(json.loads, out.splitlines())}
    assert settings[EXPANSION] == "EXCLUDE_COMPUTED_COLUMNS"
    assert settings["table.local-time-zone"] == "Europe/Paris"


def test_set_changes_what_select_star_expands_to() -> None:
    def star_columns(*options: str) -> list[str]:
        out = ok("validate", "--catalog", CATALOG, *options, "SELECT * FROM emp").output
        return [line.split("\t")[0] for line in out.splitlines()]

    everything = star_columns()
    assert {"inserted", "topic", "part", "bonus"} <= set(everything)
    # `topic ... METADATA VIRTUAL` uses its own name as the key: a "default" one.
    excluded = star_columns("--set", f"{EXPANSION}=EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS")
    assert "topic" not in excluded
    assert "inserted" in excluded  # aliased (FROM 'timestamp'), so it stays
    assert "part" in excluded  # persisted, so it stays
    excluded = star_columns("--set", f"{EXPANSION}=EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS")
    assert "inserted" not in excluded
    assert "topic" in excluded
    assert "bonus" not in star_columns("--set", f"{EXPANSION}=EXCLUDE_COMPUTED_COLUMNS")


def test_set_with_a_bad_value_exits_1_naming_the_allowed_values() -> None:
    result = run("query", "--set", f"{EXPANSION}=BOGUS", "SELECT 1")
    assert result.exit_code == 1
    assert "ConfigError" in result.stderr
    assert "BOGUS" in result.stderr
    assert "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS" in result.stderr
    assert "EXCLUDE_COMPUTED_COLUMNS" in result.stderr
    assert_no_traceback(result)


def test_set_with_an_unknown_key_exits_1() -> None:
    result = run("query", "--set", "no.such.key=1", "SELECT 1")
    assert result.exit_code == 1
    assert "ConfigError" in result.stderr
    assert "no.such.key" in result.stderr


def test_set_without_equals_is_a_usage_error() -> None:
    result = run("query", "--set", EXPANSION, "SELECT 1")
    assert result.exit_code == 2
    assert "KEY=VALUE" in result.stderr


# --- SQL errors ------------------------------------------------------------------------------


def test_syntax_error_exits_1_with_a_caret_under_the_column() -> None:
    sql = "SELECT id FROM emp WHERE id = 'x' AND"
    result = run("query", "--catalog", CATALOG, sql)
    assert result.exit_code == 1
    assert "SqlParseError" in result.stderr
    assert "AND" in result.stderr
    assert f"1 | {sql}" in result.stderr
    assert caret_column(result.stderr) == sql.index("AND") + 1
    assert_no_traceback(result)


def test_unknown_column_exits_1_with_carets_under_the_name_on_its_line() -> None:
    sql = "SELECT id,\n       nme\nFROM emp"
    result = run("query", "--catalog", CATALOG, sql)
    assert result.exit_code == 1
    assert "SqlValidationError" in result.stderr
    assert "nme" in result.stderr
    assert "2 |        nme" in result.stderr
    assert caret_column(result.stderr) == 8
    assert "^^^" in result.stderr and "^^^^" not in result.stderr
    assert_no_traceback(result)


def test_caret_stays_aligned_on_a_long_line() -> None:
    # A line longer than any terminal: the error must not be re-wrapped.
    columns = ", ".join(f"salary + {i} AS c{i}" for i in range(12))
    sql = f"SELECT {columns}, nme FROM emp"
    result = run("validate", "--catalog", CATALOG, sql)
    assert result.exit_code == 1
    assert f"1 | {sql}\n" in result.stderr
    assert caret_column(result.stderr) == sql.index("nme") + 1


def test_validate_and_explain_report_sql_errors_the_same_way() -> None:
    for command in ("validate", "explain"):
        result = run(command, "--catalog", CATALOG, "SELECT nme FROM emp")
        assert result.exit_code == 1
        assert "SqlValidationError" in result.stderr
        assert caret_column(result.stderr) == 8


def test_an_error_in_a_catalog_file_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sql"
    bad.write_text("CREATE TABLE t (a INT);\nINSERT INTO t VALUES (1);\nSELECT nope FROM t;\n")
    result = run("query", "--catalog", str(bad), "SELECT 1")
    assert result.exit_code == 1
    assert str(bad) in result.stderr
    assert "3 | SELECT nope FROM t;" in result.stderr
    assert caret_column(result.stderr) == 8


def test_a_missing_catalog_file_is_a_usage_error() -> None:
    result = run("query", "--catalog", "/nonexistent/catalog.sql", "SELECT 1")
    assert result.exit_code == 2
    assert "/nonexistent/catalog.sql" in result.stderr


# --- the installed script, end to end --------------------------------------------------------


def test_installed_console_script_end_to_end(tmp_path: Path) -> None:
    query = tmp_path / "q.sql"
    query.write_text("SELECT name, props['level'] AS level FROM emp WHERE addr.city = 'Lyon';\n")
    proc = subprocess.run(
        [str(SCRIPT), "query", "--catalog", CATALOG, "--format", "csv", "-f", str(query)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["name,level", "bob,junior"]
    # Nothing is left behind in JVM memory at exit, and no warning is printed.
    assert proc.stderr == ""

    bad = subprocess.run(
        [str(SCRIPT), "query", "--catalog", CATALOG, "SELECT nme FROM emp"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert bad.returncode == 1
    assert "SqlValidationError" in bad.stderr
    assert "1 | SELECT nme FROM emp\n  |        ^^^" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_version_option_prints_the_package_version() -> None:
    from calcite_bridge import __version__

    assert __version__ in ok("--version").output


# --- scripts ---------------------------------------------------------------------------------

SCRIPTS = FIXTURES / "scripts"


def test_script_with_f_runs_ddl_set_insert_and_queries_in_one_environment() -> None:
    out = ok("--format", "csv", "-f", str(SCRIPTS / "mixed.sql")).output
    # DDL and SET print nothing; INSERT its count; each query its rows.
    assert out.splitlines() == [
        "rows_inserted",
        "3",
        "id,a;b",
        "1,ann;x",
        "2,it's",
        "3,",
        "n",
        "3",
    ]


def test_script_on_stdin_runs_like_f() -> None:
    text = (SCRIPTS / "mixed.sql").read_text()
    assert (
        ok("--format", "csv", input=text).output
        == ok("--format", "csv", "-f", str(SCRIPTS / "mixed.sql")).output
    )


def test_query_f_runs_a_script_of_several_statements() -> None:
    out = ok("query", "--format", "json", "-f", str(SCRIPTS / "mixed.sql")).output
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows[-1] == {"n": 3}
    assert {"id": 2, "a;b": "it's"} in rows


@pytest.mark.parametrize("fmt", ["csv", "json", "table", "line"])
def test_script_with_o_writes_every_result_to_the_file(fmt: str, tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("left from before\n")
    ok("query", "--format", fmt, "-o", str(out), "-f", str(SCRIPTS / "mixed.sql"))
    on_stdout = ok("query", "--format", fmt, "-f", str(SCRIPTS / "mixed.sql")).output
    written = out.read_text()
    assert "left from before" not in written
    if fmt == "table":  # stdout's table fits the terminal; the file's is never cut
        assert written.count("rows_inserted") == 1 and "it's" in written and "┃ n " in written
    else:
        assert written == on_stdout


def test_script_with_o_refuses_a_second_result_in_one_parquet_file(tmp_path: Path) -> None:
    out = tmp_path / "out.parquet"
    result = run("query", "--format", "parquet", "-o", str(out), "-f", str(SCRIPTS / "mixed.sql"))
    assert result.exit_code == 2, result.output
    assert "writes one result" in result.stderr
    assert pq.read_table(out).column_names == ["rows_inserted"]


def test_script_stops_at_the_first_error_naming_its_line_in_the_script() -> None:
    path = SCRIPTS / "fails_on_line_8.sql"
    result = run("--format", "csv", "-f", str(path))
    assert result.exit_code == 1
    assert_no_traceback(result)
    assert result.stdout.splitlines() == ["rows_inserted", "1", "id", "1"]
    assert f"{path}, line 8:" in result.stderr
    assert "8 |   nosuch" in result.stderr
    assert caret_column(result.stderr) == 3
    assert "never" not in result.stdout


def test_script_error_without_a_position_names_the_line_of_its_statement(
    tmp_path: Path,
) -> None:
    script = tmp_path / "s.sql"
    script.write_text("SELECT 1 AS x;\n\nSET 'no.such.key' = 'x';\nSELECT 2;\n")
    result = run("-f", str(script))
    assert result.exit_code == 1
    assert f"{script}, line 3:" in result.stderr
    assert "no.such.key" in result.stderr


# --- output ----------------------------------------------------------------------------------


def test_table_shows_at_most_max_rows_with_a_footer_of_hidden_rows() -> None:
    sql = "SELECT x FROM UNNEST(SEQUENCE(1, 100)) AS t(x)"
    sql = "SELECT * FROM (VALUES " + ", ".join(f"({i})" for i in range(1, 101)) + ") AS t(x)"
    out = ok("query", sql).output
    cells = [ln.split("│")[1].strip() for ln in out.splitlines() if ln.startswith("│")]
    assert cells == [str(i) for i in range(1, 41)]
    assert out.rstrip().splitlines()[-1] == "100 rows (60 hidden; --max-rows to show more)"
    out = ok("query", "--max-rows", "5", sql).output
    assert [ln for ln in out.splitlines() if ln.startswith("│")][-1].split("│")[1].strip() == "5"
    assert "100 rows (95 hidden" in out
    few = ok("query", "--max-rows", "5", "SELECT 1 AS x").output
    assert "hidden" not in few and "rows" not in few


def test_csv_and_json_stay_complete_beyond_max_rows() -> None:
    sql = "SELECT * FROM (VALUES " + ", ".join(f"({i})" for i in range(1, 101)) + ") AS t(x)"
    assert len(ok("query", "--format", "csv", "--max-rows", "3", sql).output.splitlines()) == 101
    assert len(ok("query", "--format", "json", "--max-rows", "3", sql).output.splitlines()) == 100


VALUES_SQL = (
    "SELECT * FROM (VALUES (1, TRUE, X'01AB41', CAST(1.50 AS DECIMAL(10, 2)), 'ann'),"
    " (2, FALSE, CAST(NULL AS BYTES), CAST(NULL AS DECIMAL(10, 2)), ''),"
    " (3, CAST(NULL AS BOOLEAN), X'', CAST(12345678901234567.89 AS DECIMAL(20, 2)),"
    " CAST(NULL AS STRING))) AS t(id, b, bin, d, s)"
)


def table_cells(out: str) -> list[list[str]]:
    return [[c.strip() for c in ln.split("│")[1:-1]] for ln in out.splitlines() if "│" in ln]


def test_table_shows_booleans_bytes_and_null_as_duckdb_does() -> None:
    import duckdb

    rows = table_cells(ok("query", VALUES_SQL).output)
    assert rows[0] == ["1", "true", r"\x01\xABA", "1.50", "ann"]
    assert rows[1] == ["2", "false", "NULL", "NULL", ""]  # NULL is not the empty string
    assert rows[2] == ["3", "NULL", "", "12345678901234567.89", "NULL"]
    # DuckDB spells a BLOB the same way.
    assert duckdb.sql(r"SELECT '\x01\xABA'::BLOB::VARCHAR").fetchall() == [(r"\x01\xABA",)]


def test_a_wide_nested_cell_stays_on_its_line_on_a_narrow_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rich.console import Console

    from calcite_bridge import cli

    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, color_system=None, width=60)
    monkeypatch.setattr(cli, "_out_console", lambda: terminal)
    table = pa.table(
        {
            "id": [1, 2],
            "tags": [[f"tag number {i}" for i in range(30)], None],
            "note": ["a long text that may wrap over more than one line of the table", "b"],
        }
    )
    cli._write(table, "table", None)
    lines = [ln for ln in screen.getvalue().splitlines() if ln.startswith("│")]
    tags = [ln.split("│")[2] for ln in lines]
    # The array is cut with "…" on the first row's first line; its later lines show no tag.
    assert tags[0].strip().startswith('["tag number 0"') and tags[0].strip().endswith("…")
    assert not any("tag number" in t for t in tags[1:])
    assert any(t.strip() == "NULL" for t in tags)
    assert max(len(ln) for ln in screen.getvalue().splitlines()) <= 60


def test_json_writes_decimal_as_a_number_with_all_its_digits() -> None:
    out = ok("query", "--format", "json", VALUES_SQL).output
    lines = out.splitlines()
    assert '"d": 1.50' in lines[0]
    assert '"d": 12345678901234567.89' in lines[2]
    import decimal

    rows = [json.loads(ln, parse_float=decimal.Decimal) for ln in lines]
    assert [r["d"] for r in rows] == [
        decimal.Decimal("1.50"),
        None,
        decimal.Decimal("12345678901234567.89"),
    ]
    assert [r["b"] for r in rows] == [True, False, None]
    assert [r["s"] for r in rows] == ["ann", "", None]


def test_csv_quotes_only_where_rfc_4180_needs_it_as_duckdb_does(tmp_path: Path) -> None:
    import duckdb

    values = "(1, 'ann'), (2, ''), (3, CAST(NULL AS STRING)), (4, 'a,b'), (5, 'say \"hi\"')"
    ours = ok("query", "--format", "csv", f"SELECT * FROM (VALUES {values}) AS t(id, name)")
    target = tmp_path / "duck.csv"
    duckdb.sql(
        f"COPY (SELECT * FROM (VALUES {values.replace('STRING', 'VARCHAR')}) t(id, name))"
        f" TO '{target}' (HEADER)"
    )
    assert ours.output == target.read_text()
    assert ours.output.splitlines()[1] == "1,ann"


def test_timestamp_ltz_is_shown_in_the_session_zone() -> None:
    sql = "SELECT CAST(TIMESTAMP '2024-01-01 10:00:00' AS TIMESTAMP_LTZ(3)) AS ts"
    paris = ok("query", "--set", "table.local-time-zone=Europe/Paris", "--format", "csv", sql)
    utc = ok("query", "--set", "table.local-time-zone=UTC", "--format", "csv", sql)
    # The same wall-clock literal, read in each session zone, shown in that zone.
    assert paris.output.splitlines()[1] == "2024-01-01 10:00:00+01:00"
    assert utc.output.splitlines()[1] == "2024-01-01 10:00:00+00:00"
    # An instant stored under one zone, shown under another.
    script = (
        "SET 'table.local-time-zone' = 'Europe/Paris';\n"
        "CREATE TABLE t (ts TIMESTAMP_LTZ(3)) WITH ('connector' = 'memory');\n"
        "INSERT INTO t VALUES (CAST(TIMESTAMP '2024-01-01 10:00:00' AS TIMESTAMP_LTZ(3)));\n"
        "SET 'table.local-time-zone' = 'Asia/Tokyo';\n"
        "SELECT ts FROM t;\n"
    )
    out = ok("--format", "csv", input=script).output
    assert out.splitlines()[-1] == "2024-01-01 18:00:00+09:00"


def test_no_color_flag_and_env_leave_no_escape_codes() -> None:
    bad = "SELECT nosuch FROM emp"
    plain = run("--no-color", "query", "--catalog", CATALOG, bad)
    assert plain.exit_code == 1 and "\x1b[" not in plain.stderr
    coloured = CliRunner().invoke(main, ["query", "--catalog", CATALOG, bad], color=True)
    assert "\x1b[" in coloured.stderr
    env_plain = CliRunner(env={"NO_COLOR": "1"}).invoke(
        main, ["query", "--catalog", CATALOG, bad], color=True
    )
    assert "\x1b[" not in env_plain.stderr
    assert "SqlValidationError" in env_plain.stderr


class _TrickleSource:
    """Five batches of 1,000 rows, a fifth of a second apart."""

    def schema(self) -> pa.Schema:
        return pa.schema([("x", pa.int64())])

    def scan(self, request: object) -> pa.RecordBatchReader:
        def batches() -> Iterator[pa.RecordBatch]:
            for i in range(5):
                time.sleep(0.2)
                yield pa.record_batch(
                    [pa.array(range(i * 1000, (i + 1) * 1000), pa.int64())], ["x"]
                )

        return pa.RecordBatchReader.from_batches(self.schema(), batches())


def test_a_slow_statement_shows_a_progress_line_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rich.console import Console

    from calcite_bridge import cli

    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, color_system=None, width=100)
    monkeypatch.setattr(cli, "_err_console", lambda: terminal)
    monkeypatch.setattr(cli, "PROGRESS_DELAY", 0.1)
    env = cb.connect()
    env.register_source("trickle", _TrickleSource())
    table = cli._fetch(env, "SELECT x FROM trickle")
    assert table.num_rows == 5000 and table.column("x").to_pylist() == list(range(5000))
    shown = screen.getvalue()
    assert "Running…" in shown and " s, " in shown and "rows received" in shown
    # before the first batch the line gives the time alone, never "0 rows"
    assert not re.search(r"(?<![\d,])0 rows", shown)
    # Not on a pipe: the same statement prints no status at all.
    monkeypatch.setattr(cli, "_err_console", lambda: Console(file=io.StringIO()))
    assert cli._fetch(env, "SELECT x FROM trickle").num_rows == 5000


def test_a_flink_script_with_its_ddl_settings_and_show_columns_runs() -> None:
    out = ok("-f", str(SCRIPTS / "flink_table.sql")).output
    first, second = out.split("\n\n")
    # SHOW COLUMNS with Flink's columns; the key of `user` is PRI(user).
    header = [c.strip() for c in first.splitlines()[1].strip("┃").split("┃")]
    assert header == ["name", "type", "null", "key", "extras", "watermark"]
    assert "PRI(user)" in first and "product" not in first
    # After SET 'table.display.max-column-width' = '10', longer values are cut as Flink cuts
    # them, to 10 characters ending in '...': 'TIMESTAMP(3)' shows as 'TIMESTA...'.
    assert "TIMESTA..." in second and "TIMESTAMP(3)" not in second
    assert "VARCHAR..." in second and "│ INT        │" in second


def test_a_flink_script_in_csv_is_not_cut() -> None:
    out = ok("--format", "csv", "-f", str(SCRIPTS / "flink_table.sql")).output
    # The script sets execution.runtime-mode = batch, where Flink marks no rowtime attribute
    # (its processing-time attribute it marks in both modes).
    assert "TIMESTAMP(3),true,,,`ts` - INTERVAL '1' SECOND" in out
    assert "*ROWTIME*" not in out and "TIMESTAMP_LTZ(3) *PROCTIME*,false" in out


def test_a_flink_script_of_catalogs_and_databases_runs() -> None:
    out = ok("--format", "csv", "-f", str(SCRIPTS / "flink_catalogs.sql")).output
    assert "current database name\ndb1\n" in out
    assert "total\n6.5\n" in out
    assert "table name\norders\n" in out


# --- options before the command, and data warnings ---------------------------------------------


def test_catalog_and_set_before_the_command_apply_to_it() -> None:
    out = ok("--catalog", CATALOG, "--set", "execution.backend=enumerable", "explain", PLAN_SQL)
    assert "Enumerable" in out.output, out.output
    assert "emp" in out.output


def test_a_declared_column_no_file_holds_is_a_warning_on_each_statement(tmp_path: Path) -> None:
    data = tmp_path / "t.csv"
    data.write_text("a\n1\n2\n")
    script = tmp_path / "s.sql"
    script.write_text(
        "CREATE TABLE t (a INT, zone STRING) WITH ('connector' = 'filesystem', "
        f"'path' = '{data}', 'format' = 'csv');\n"
        "SELECT a, zone FROM t;\nSELECT COUNT(zone) AS n FROM t;\n"
    )
    result = ok("--format", "csv", "-f", str(script))
    assert result.stdout.splitlines()[:3] == ["a,zone", "1,", "2,"]
    warned = [ln for ln in result.stderr.splitlines() if ln.startswith("Warning: ")]
    assert len(warned) == 2, result.stderr
    assert "'zone'" in warned[0] and "reads as NULL" in warned[0]
    assert_no_traceback(result)


def test_table_shows_brackets_in_values_and_names_as_they_are() -> None:
    # Square brackets are data: "[bold]" or "[inner]" is not styling to apply or drop.
    sql = (
        "SELECT '[inner] x' AS s, '[bold]y[/bold]' AS `[t]`, CAST(NULL AS STRING) AS n, "
        "'a\\[b]' AS e"
    )
    out = ok("query", sql).output
    header = next(ln for ln in out.splitlines() if "┃" in ln)
    assert [c.strip() for c in header.split("┃")[1:-1]] == ["s", "[t]", "n", "e"]
    assert table_cells(out) == [["[inner] x", "[bold]y[/bold]", "NULL", "a\\[b]"]]


def test_a_script_explain_keeps_the_plan_brackets(tmp_path: Path) -> None:
    script = tmp_path / "plan.sql"
    script.write_text(
        "CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'datagen');\n"
        "EXPLAIN SELECT b, COUNT(*) FROM t WHERE a > 1 GROUP BY b;\n"
    )
    out = ok("-f", str(script)).output
    assert "LogicalAggregate(group=[{0}], EXPR$1=[COUNT()])" in out
    assert "table=[[default_catalog, default_database, t" in out
