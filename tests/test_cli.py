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
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner, Result

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
    assert kinds["id"][1:4] == ["INT", "NO", "PHYSICAL"]
    assert kinds["addr"][3] == "PHYSICAL"
    assert kinds["addr"][1].startswith("ROW<")
    assert kinds["bonus"][3] == "COMPUTED"
    assert "salary" in kinds["bonus"][6]
    assert kinds["inserted"][3:6] == ["METADATA", "timestamp", "TRUE"]
    assert kinds["part"][3:6] == ["METADATA", "partition", "FALSE"]
    assert kinds["topic"][3:6] == ["METADATA", "topic", "TRUE"]


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
    assert proc.stdout.splitlines() == ['"name","level"', '"bob","junior"']
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
