"""Flink's statements on tables beyond CREATE TABLE, from tests/fixtures/flink_statements.sql: one
script of statements run in order in one environment, each with the columns, rows or refusal Flink
gives (CREATE TABLE ... LIKE, CREATE [OR REPLACE] TABLE ... AS SELECT, REPLACE TABLE ... AS)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from click.testing import CliRunner
from tests.helpers.fixtures import load_cases
from tests.helpers.statement_cases import KEYS, run_cases
from tests.test_shell import type_into_shell

import calcite_bridge as cb
from calcite_bridge.cli import main

CASES = load_cases("flink_statements.sql", keys=KEYS)
ALTER_CASES = load_cases("flink_alter.sql", keys=KEYS)
OVERWRITE_CASES = load_cases("flink_insert_overwrite.sql", keys=KEYS)


def test_flink_statement_script(env: cb.Environment) -> None:
    assert len(CASES) > 40
    run_cases(env, CASES)


def test_flink_alter_script(env: cb.Environment) -> None:
    assert len(ALTER_CASES) > 40
    run_cases(env, ALTER_CASES)


def test_flink_insert_overwrite_and_partition_script(env: cb.Environment) -> None:
    assert len(OVERWRITE_CASES) > 15
    run_cases(env, OVERWRITE_CASES)


def test_explain_of_insert_overwrite_and_static_partition(env: cb.Environment) -> None:
    """EXPLAIN shows the static partition's value as a column of the query it writes."""
    env.execute(
        "CREATE TABLE p (id INT, part STRING) PARTITIONED BY (part) WITH ('connector' = 'memory')"
    )
    result = env.execute("EXPLAIN INSERT OVERWRITE p PARTITION (part = 'c') SELECT 4")
    assert result.columns == ["result"]
    ((plan,),) = result.fetchall()
    assert "LogicalSink(table=[default_catalog.default_database.p], fields=[id, part])" in plan
    assert "Sink(table=[default_catalog.default_database.p], fields=[id, part])" in plan
    assert "'c'" in plan
    assert env.sql("SELECT COUNT(*) FROM p").fetchall() == [(0,)]  # explained, not run


def test_insert_overwrite_of_a_filesystem_partition(env: cb.Environment, tmp_path: Path) -> None:
    """The filesystem connector writes a static partition's rows into its folder, and OVERWRITE
    of a partition leaves the other partitions' rows and files as they were."""
    env.execute(
        "CREATE TABLE fp (id INT, part STRING) PARTITIONED BY (part) WITH ("
        f"'connector' = 'filesystem', 'path' = '{tmp_path}', 'format' = 'csv')"
    )
    env.execute("INSERT INTO fp VALUES (1, 'a'), (2, 'b')")
    env.execute("INSERT INTO fp PARTITION (part = 'c') SELECT 3")
    assert (tmp_path / "part=c").is_dir()
    env.execute("INSERT OVERWRITE fp PARTITION (part = 'a') VALUES (10), (11)")
    assert env.sql("SELECT id, part FROM fp ORDER BY id").fetchall() == [
        (2, "b"),
        (3, "c"),
        (10, "a"),
        (11, "a"),
    ]
    env.execute("INSERT OVERWRITE fp SELECT 5, 'e'")
    assert env.sql("SELECT id, part FROM fp").fetchall() == [(5, "e")]


def test_statements_of_a_script(env: cb.Environment) -> None:
    env.execute_script(
        """
        CREATE TABLE src (a INT, b STRING);
        INSERT INTO src VALUES (1, 'x'), (2, 'y');
        CREATE TABLE copy LIKE src;
        CREATE TABLE doubled AS SELECT a * 2 AS a2, b FROM src;
        REPLACE TABLE doubled AS SELECT a * 3 AS a3 FROM src WHERE b = 'y';
        """
    )
    assert env.tables() == ["copy", "doubled", "src"]
    assert env.sql("SELECT * FROM doubled").fetchall() == [(6,)]
    assert [c.name for c in env.describe("copy")] == ["a", "b"]


def test_statements_through_the_cli(tmp_path: Path) -> None:
    script = tmp_path / "flink.sql"
    script.write_text(
        "CREATE TABLE src (a INT, b STRING);\n"
        "INSERT INTO src VALUES (1, 'x'), (2, 'y');\n"
        "CREATE TABLE copy (c INT) LIKE src;\n"
        "CREATE TABLE doubled AS SELECT a * 2 AS a2 FROM src;\n"
        "SHOW COLUMNS FROM copy;\n"
        "SELECT * FROM doubled ORDER BY a2;\n"
        "DESCRIBE DATABASE default_database;\n"
    )
    result = CliRunner().invoke(main, ["--format", "csv", "-f", str(script)])
    assert result.exit_code == 0, (result.output, result.exception)
    assert "c,INT,true,,," in result.output
    assert "a2\n2\n4\n" in result.output
    assert "info name,info value\nname,default_database\n" in result.output


def test_statements_through_the_shell(
    env: cb.Environment, capsys: pytest.CaptureFixture[str]
) -> None:
    keys = (
        "CREATE TABLE src (a INT);\nINSERT INTO src VALUES (7);\n"
        "CREATE TABLE c AS SELECT a + 1 AS b FROM src;\nREPLACE TABLE c AS SELECT a FROM src;\n"
        "CREATE TABLE l LIKE c;\n.tables\n"
    )
    out, err = type_into_shell(env, keys, capsys)
    assert err == ""
    assert out.splitlines()[-3:] == ["c", "l", "src"]
    assert env.sql("SELECT * FROM c").fetchall() == [(7,)]


def test_a_statement_set_in_a_script(env: cb.Environment) -> None:
    env.execute_script(
        """
        CREATE TABLE s (a INT);
        CREATE TABLE t1 (a INT);
        CREATE TABLE t2 (a INT);
        INSERT INTO s VALUES (1), (2);
        EXECUTE STATEMENT SET
        BEGIN
          INSERT INTO t1 SELECT a FROM s;
          INSERT INTO t2 SELECT a * 10 FROM s WHERE a > 1;
        END;
        """
    )
    assert env.sql("SELECT * FROM t1 ORDER BY a").fetchall() == [(1,), (2,)]
    assert env.sql("SELECT * FROM t2").fetchall() == [(20,)]


def test_a_statement_set_through_the_cli_and_the_shell(
    tmp_path: Path, env: cb.Environment, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "set.sql"
    script.write_text(
        "CREATE TABLE s (a INT);\nCREATE TABLE t1 (a INT);\nCREATE TABLE t2 (a INT);\n"
        "INSERT INTO s VALUES (1), (2);\n"
        "EXECUTE STATEMENT SET\nBEGIN\n  INSERT INTO t1 SELECT a FROM s;\n"
        "  INSERT INTO t2 SELECT a FROM s WHERE a > 1;\nEND;\n"
        "SELECT COUNT(*) AS n FROM t2;\n"
    )
    result = CliRunner().invoke(main, ["--format", "csv", "-f", str(script)])
    assert result.exit_code == 0, (result.output, result.exception)
    assert (
        "default_catalog.default_database.t1,default_catalog.default_database.t2\n2,1\n"
        in result.output
    )
    assert result.output.endswith("n\n1\n")
    keys = (
        "CREATE TABLE s (a INT);\nCREATE TABLE t (a INT);\nINSERT INTO s VALUES (5);\n"
        "EXECUTE STATEMENT SET BEGIN\nINSERT INTO t SELECT a FROM s;\n"
        "INSERT INTO t SELECT a + 1 FROM s;\nEND;\n"
    )
    _, err = type_into_shell(env, keys, capsys)
    assert err == ""
    assert env.sql("SELECT * FROM t ORDER BY a").fetchall() == [(5,), (6,)]


def test_the_clients_statement_set_in_a_script(env: cb.Environment) -> None:
    ran = env.execute_script(
        """
        CREATE TABLE s (a INT);
        CREATE TABLE t1 (a INT);
        CREATE TABLE t2 (a INT);
        INSERT INTO s VALUES (1), (2);
        BEGIN STATEMENT SET;
        INSERT INTO t1 SELECT a FROM s;
        INSERT INTO t2 SELECT a * 10 FROM s WHERE a > 1;
        END;
        """
    )
    assert ran == 5
    assert env.sql("SELECT * FROM t1 ORDER BY a").fetchall() == [(1,), (2,)]
    assert env.sql("SELECT * FROM t2").fetchall() == [(20,)]


def test_a_failing_insert_of_the_clients_statement_set_changes_no_sink(
    env: cb.Environment,
) -> None:
    env.execute_script(
        "CREATE TABLE s (a INT);\nCREATE TABLE t (a INT);\nINSERT INTO s VALUES (1);"
    )
    with pytest.raises(cb.SqlValidationError) as info:
        env.execute_script(
            "BEGIN STATEMENT SET;\nINSERT INTO t SELECT a FROM s;\n"
            "INSERT INTO t SELECT b FROM s;\nEND;"
        )
    assert "Column 'b' not found" in info.value.message
    assert env.sql("SELECT COUNT(*) FROM t").fetchall() == [(0,)]


def test_each_statement_of_a_script_has_its_own_place(env: cb.Environment) -> None:
    with pytest.raises(cb.SqlValidationError) as info:
        env.execute_script("CREATE TABLE x (a INT);\n\n  SELECT b FROM x;")
    assert (info.value.line, info.value.column) == (3, 10)


def test_explain_statement_set(env: cb.Environment) -> None:
    env.execute_script(
        "CREATE TABLE s (a INT);\nCREATE TABLE t1 (a INT);\nCREATE TABLE t2 (a INT);"
    )
    for head in ("EXPLAIN STATEMENT SET", "EXPLAIN EXECUTE STATEMENT SET"):
        plan = env.execute(
            f"{head} BEGIN INSERT INTO t1 SELECT a FROM s; INSERT INTO t2 SELECT a FROM s; END"
        ).fetchall()[0][0]
        physical = plan[plan.index("== Optimized Physical Plan ==") :]
        t1, t2 = (f"Sink(table=[default_catalog.default_database.{t}]" for t in ("t1", "t2"))
        assert physical.index(t1) < physical.index(t2)
        assert plan.index("LogicalSink(table=[default_catalog.default_database.t1]") < plan.index(
            "LogicalSink(table=[default_catalog.default_database.t2]"
        )
    assert env.sql("SELECT COUNT(*) FROM t1").fetchall() == [(0,)]


def test_the_clients_statement_set_through_the_cli_and_the_shell(
    tmp_path: Path, env: cb.Environment, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "set.sql"
    script.write_text(
        "CREATE TABLE s (a INT);\nCREATE TABLE t1 (a INT);\nCREATE TABLE t2 (a INT);\n"
        "INSERT INTO s VALUES (1), (2);\n"
        "BEGIN STATEMENT SET;\nINSERT INTO t1 SELECT a FROM s;\n"
        "INSERT INTO t2 SELECT a FROM s WHERE a > 1;\nEND;\n"
        "SELECT COUNT(*) AS n FROM t2;\n"
    )
    result = CliRunner().invoke(main, ["--format", "csv", "-f", str(script)])
    assert result.exit_code == 0, (result.output, result.exception)
    assert (
        "default_catalog.default_database.t1,default_catalog.default_database.t2\n2,1\n"
        in result.output
    )
    assert result.output.endswith("n\n1\n")
    keys = (
        "CREATE TABLE s (a INT);\nCREATE TABLE t (a INT);\nINSERT INTO s VALUES (5);\n"
        "BEGIN STATEMENT SET;\nINSERT INTO t SELECT a FROM s;\n"
        "INSERT INTO t SELECT a + 1 FROM s;\nEND;\n"
    )
    _, err = type_into_shell(env, keys, capsys)
    assert err == ""
    assert env.sql("SELECT * FROM t ORDER BY a").fetchall() == [(5,), (6,)]


def test_compile_plan_writes_our_plan_file_and_execute_plan_runs_it(
    env: cb.Environment, tmp_path: Path
) -> None:
    env.execute("CREATE TABLE src (a INT)")
    env.execute("CREATE TABLE dst (a INT)")
    env.execute("INSERT INTO src VALUES (1), (2)")
    plan = tmp_path / "plans" / "p.json"
    env.execute(f"COMPILE PLAN '{plan}' FOR INSERT INTO dst SELECT a * 10 FROM src")
    written = json.loads(plan.read_text())
    assert written["format"] == "calcite-bridge-plan" and written["version"] == 1
    assert written["statement"].startswith("INSERT INTO `dst`")
    assert "Insert(table=[dst])" in written["plan"]
    assert env.sql("SELECT COUNT(*) FROM dst").fetchall() == [(0,)]  # compiled, not run
    with pytest.raises(cb.SqlValidationError, match=r"^Cannot overwrite the plan file") as info:
        env.execute(f"COMPILE PLAN '{plan}' FOR INSERT INTO dst SELECT a FROM src")
    assert info.value.column == 14
    env.execute(f"COMPILE PLAN '{plan}' IF NOT EXISTS FOR INSERT INTO dst SELECT a FROM src")
    assert env.execute(f"EXECUTE PLAN 'file://{plan}'").fetchall() == [(2,)]
    assert env.sql("SELECT a FROM dst ORDER BY a").fetchall() == [(10,), (20,)]
    both = tmp_path / "both.json"
    env.execute(f"COMPILE AND EXECUTE PLAN '{both}' FOR INSERT INTO dst SELECT a FROM src")
    assert both.exists()
    assert env.sql("SELECT COUNT(*) FROM dst").fetchall() == [(4,)]
    # A statement set is compiled as one plan.
    sets = tmp_path / "set.json"
    env.execute(
        f"COMPILE PLAN '{sets}' FOR STATEMENT SET BEGIN INSERT INTO dst SELECT a FROM src; "
        "INSERT INTO dst SELECT a FROM src; END"
    )
    env.execute(f"EXECUTE PLAN '{sets}'")
    assert env.sql("SELECT COUNT(*) FROM dst").fetchall() == [(8,)]
    other = tmp_path / "flink.json"
    other.write_text('{"flinkVersion": "2.0", "nodes": []}')
    with pytest.raises(cb.UnsupportedError, match="is not a plan file of calcite-bridge") as info:
        env.execute(f"EXECUTE PLAN '{other}'")
    assert info.value.column == 14
    with pytest.raises(cb.SqlValidationError, match=r"^Cannot read the plan file") as info:
        env.execute(f"EXECUTE PLAN '{tmp_path / 'missing.json'}'")


def test_plan_files_keep_to_the_sandbox(env: cb.Environment, tmp_path: Path) -> None:
    env.execute("CREATE TABLE dst (a INT)")
    inside = tmp_path / "inside"
    inside.mkdir()
    env.config.set("filesystem.allowed-paths", str(inside))
    env.execute(f"COMPILE PLAN '{inside / 'p.json'}' FOR INSERT INTO dst VALUES (1)")
    outside = tmp_path / "outside.json"
    with pytest.raises(cb.AccessDeniedError, match=r"is outside 'filesystem\.allowed-paths'") as i:
        env.execute(f"COMPILE PLAN '{outside}' FOR INSERT INTO dst VALUES (1)")
    assert i.value.column == 14 and not outside.exists()
    escape = inside / ".." / "escape.json"
    with pytest.raises(cb.AccessDeniedError):
        env.execute(f"COMPILE PLAN '{escape}' FOR INSERT INTO dst VALUES (1)")
    env.config.set("external-access", "false")
    with pytest.raises(cb.AccessDeniedError, match="'external-access' = 'false'"):
        env.execute(f"EXECUTE PLAN '{inside / 'p.json'}'")


def test_temporary_objects_and_materialized_tables_through_the_cli_and_the_shell(
    tmp_path: Path, env: cb.Environment, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "flink.sql"
    script.write_text(
        "CREATE TABLE src (a INT);\nINSERT INTO src VALUES (1), (2);\n"
        "CREATE VIEW v COMMENT 'all' AS SELECT a FROM src;\n"
        "CREATE TEMPORARY VIEW v AS SELECT a * 100 AS a FROM src;\n"
        "SELECT MAX(a) AS top FROM v;\n"
        "DROP TEMPORARY VIEW v;\n"
        "SELECT MAX(a) AS top2 FROM v;\n"
        "EXECUTE INSERT INTO src VALUES (3);\n"
        "CREATE MATERIALIZED TABLE m AS SELECT COUNT(*) AS n FROM src;\n"
        "SELECT n FROM m;\n"
        "BEGIN STATEMENT SET;\nEND;\n"
        "DROP MATERIALIZED TABLE m;\n"
    )
    result = CliRunner().invoke(main, ["--format", "csv", "-f", str(script)])
    assert result.exit_code == 0, (result.output, result.exception)
    assert "top\n200\n" in result.output
    assert "top2\n2\n" in result.output
    assert "n\n3\n" in result.output
    keys = (
        "CREATE TABLE s (a INT);\nCREATE TEMPORARY TABLE s (a INT);\n"
        "INSERT INTO s VALUES (5);\nDROP TEMPORARY TABLE s;\n"
        "CREATE MATERIALIZED TABLE ms AS SELECT COUNT(*) AS n FROM s;\n"
        "ALTER MATERIALIZED TABLE ms REFRESH;\n"
    )
    _, err = type_into_shell(env, keys, capsys)
    assert err == ""
    assert env.sql("SELECT * FROM ms").fetchall() == [(0,)]  # the temporary s had the row


class _AppendOnly:
    """A Python source that appends (``write``) and has no ``overwrite``; counts its scans."""

    def __init__(self) -> None:
        self.table = pa.table({"id": pa.array([1, 2], pa.int32())})
        self.scans = 0

    def schema(self) -> pa.Schema:
        return self.table.schema

    def scan(self, request: Any) -> pa.Table:
        self.scans += 1
        return self.table.select(request.columns or self.table.column_names)

    def write(self, table: pa.Table) -> None:
        self.table = pa.concat_tables([self.table, table.cast(self.table.schema)])


@pytest.mark.parametrize(
    ("sql", "column"),
    [
        ("INSERT OVERWRITE appends SELECT 7", 18),
        ("INSERT OVERWRITE appends SELECT id + 10 FROM appends", 18),
        ("INSERT OVERWRITE appends (id) VALUES (7)", 18),
        (
            "EXECUTE STATEMENT SET BEGIN INSERT INTO mem VALUES (7); "
            "INSERT OVERWRITE appends VALUES (8); END",
            74,
        ),
    ],
    ids=["select", "reading_itself", "column_list", "statement_set"],
)
def test_insert_overwrite_into_a_source_without_overwrite_is_refused_up_front(
    env: cb.Environment, sql: str, column: int
) -> None:
    """A Python source that has write() but no overwrite(): INSERT OVERWRITE is refused before
    any row is read or written, naming the table at its place, and every table keeps its rows
    (the other INSERT of a statement set too)."""
    source = _AppendOnly()
    env.register_source("appends", source)
    env.execute("CREATE TABLE mem (id INT) WITH ('connector' = 'memory')")
    with pytest.raises(
        cb.UnsupportedError, match=r"INSERT OVERWRITE .*'appends'.*overwrite\(\)"
    ) as e:
        env.execute(sql)
    assert (e.value.line, e.value.column) == (1, column)
    assert source.scans == 0
    assert env.sql("SELECT id FROM appends ORDER BY id").fetchall() == [(1,), (2,)]
    assert env.sql("SELECT COUNT(*) FROM mem").fetchall() == [(0,)]
    env.execute("INSERT INTO appends VALUES (3)")  # appending still works
    assert env.sql("SELECT id FROM appends ORDER BY id").fetchall() == [(1,), (2,), (3,)]
