"""A script's dry run: ``Environment.check_script`` and ``calcite-bridge validate/explain -f``.

Definitions run, so the statements after them see what they define; queries and data changes
are validated and planned but not run: nothing is read or written."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import calcite_bridge as cb
from calcite_bridge.cli import main

SCRIPT = Path(__file__).parent / "fixtures" / "scripts" / "dry_run.sql"

# (line, outcome, first words, columns) of each statement of dry_run.sql
EXPECTED = [
    (2, "ran", "SET", None),
    (3, "ran", "CREATE TABLE orders", None),
    (11, "ran", "CREATE TABLE totals", None),
    (12, "ran", "CREATE TABLE kept", None),
    (13, "validated", "INSERT INTO kept VALUES", None),
    (14, "ran", "CREATE VIEW big", None),
    (15, "validated", "SELECT product", [("product", "STRING"), ("total", "DECIMAL(38, 2)")]),
    (16, "validated", "INSERT INTO totals", None),
    (17, "validated", "EXECUTE STATEMENT SET", None),
    (21, "validated", "CREATE TABLE copied AS", None),
    (22, "validated", "SELECT * FROM copied", [("id", "BIGINT NOT NULL"), ("product", "STRING")]),
    (23, "validated", "DELETE FROM kept", None),
    (24, "ran", "EXPLAIN SELECT", None),
    (25, "ran", "SHOW TABLES", None),
]


def test_each_statement_says_what_the_dry_run_did(env: cb.Environment) -> None:
    steps = env.check_script(SCRIPT.read_text())
    got = [(s.line, s.outcome, s.text, s.columns) for s in steps]
    assert [(line, outcome, columns) for line, outcome, _, columns in got] == [
        (line, outcome, columns) for line, outcome, _, columns in EXPECTED
    ]
    for (_, _, text, _), (_, _, words, _) in zip(got, EXPECTED, strict=True):
        assert text.startswith(words), text
    # Without plans asked for, only an EXPLAIN statement carries text: its own result.
    assert [s.line for s in steps if s.plan is not None] == [24]
    assert steps[12].plan is not None and "== Optimized Physical Plan ==" in steps[12].plan


def test_nothing_is_written_and_definitions_stay(env: cb.Environment) -> None:
    env.check_script(SCRIPT.read_text())
    # The INSERT, the statement set and the DELETE did not run; CREATE TABLE ... AS defined an
    # empty table with the query's columns; SET and the definitions took effect.
    assert env.sql("SELECT * FROM kept").fetchall() == []
    assert env.sql("SELECT COUNT(*) FROM copied").fetchall() == [(0,)]
    assert [c.name for c in env.describe("copied")] == ["id", "product"]
    assert env.config.get("table.local-time-zone") == "UTC"
    assert {"orders", "totals", "kept", "big", "copied"} <= set(env.tables())


def test_rows_already_there_are_left_as_they_were(env: cb.Environment) -> None:
    env.execute("CREATE TABLE t (id INT, v STRING)")
    env.execute("INSERT INTO t VALUES (1, 'a'), (2, CAST(NULL AS STRING))")
    steps = env.check_script(
        "INSERT INTO t VALUES (3, 'c');\n"
        "DELETE FROM t WHERE id = 1;\n"
        "UPDATE t SET v = 'z' WHERE id = 2;\n"
        "TRUNCATE TABLE t;\n"
    )
    assert [s.outcome for s in steps] == ["validated"] * 4
    assert env.sql("SELECT * FROM t ORDER BY id").fetchall() == [(1, "a"), (2, None)]


def test_plans_come_with_queries_and_data_changes(env: cb.Environment) -> None:
    env.execute("CREATE TABLE t (id INT, v STRING)")
    env.execute("CREATE TABLE s (id INT, v STRING) WITH ('connector' = 'blackhole')")
    steps = env.check_script(
        "SELECT v, COUNT(*) AS n FROM t GROUP BY v;\n"
        "INSERT INTO s SELECT * FROM t WHERE id > 1;\n"
        "CREATE TABLE u (x INT);\n",
        plans=True,
    )
    assert [s.outcome for s in steps] == ["validated", "validated", "ran"]
    query, insert, ddl = (s.plan for s in steps)
    assert query == env.explain("SELECT v, COUNT(*) AS n FROM t GROUP BY v")
    assert insert is not None and insert.startswith("Insert(table=[s])")
    assert ddl is None


def test_the_first_error_stops_it_at_its_place_in_the_script(env: cb.Environment) -> None:
    script = (
        "CREATE TABLE t (id INT);\nSELECT id FROM t;\n\nSELECT nope\n  FROM t;\n"
        "CREATE TABLE z (a INT);"
    )
    with pytest.raises(cb.SqlValidationError) as e:
        env.check_script(script)
    assert (e.value.line, e.value.column) == (4, 8)
    assert "z" not in env.tables()  # nothing after the error ran


def test_a_plan_file_is_neither_written_nor_read(env: cb.Environment, tmp_path: Path) -> None:
    env.execute("CREATE TABLE src (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3')")
    env.execute("CREATE TABLE snk (a INT) WITH ('connector' = 'blackhole')")
    plan = tmp_path / "plan.json"
    steps = env.check_script(
        f"COMPILE PLAN '{plan}' FOR INSERT INTO snk SELECT a FROM src;\nEXECUTE PLAN '{plan}';"
    )
    assert [s.outcome for s in steps] == ["validated", "skipped"]
    assert not plan.exists()


# --- the CLI ---------------------------------------------------------------------------------


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["--no-daemon", *args])


def test_validate_of_a_script_lists_each_statement() -> None:
    result = run("validate", "-f", str(SCRIPT))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"{SCRIPT}:2\tran\tSET 'table.local-time-zone' = 'UTC'"
    insert = "INSERT INTO totals SELECT product, SUM(amount) FROM big GROUP BY product"
    assert f"{SCRIPT}:16\tvalidated\t{insert}" in lines
    i = lines.index(
        f"{SCRIPT}:15\tvalidated\tSELECT product, SUM(amount) AS total FROM big GROUP BY product"
    )
    assert lines[i + 1 : i + 3] == ["\tproduct\tSTRING", "\ttotal\tDECIMAL(38, 2)"]
    assert lines[-1] == "14 statements checked (7 ran, 7 validated); nothing was read or written."


def test_validate_of_an_insert_checks_it_against_the_catalog(tmp_path: Path) -> None:
    catalog = tmp_path / "catalog.sql"
    catalog.write_text("CREATE TABLE t (id INT, v STRING);\nCREATE TABLE s (id INT);\n")
    good = run("validate", "--catalog", str(catalog), "INSERT INTO s SELECT id FROM t")
    assert good.exit_code == 0, good.output
    assert good.stdout.splitlines()[0] == "<sql>:1\tvalidated\tINSERT INTO s SELECT id FROM t"
    bad = run("validate", "--catalog", str(catalog), "INSERT INTO s SELECT v, id FROM t")
    assert bad.exit_code == 1
    assert "<sql>, line 1:" in bad.stderr and "SqlValidationError" in bad.stderr


def test_validate_stops_at_the_first_error_with_its_line(tmp_path: Path) -> None:
    script = tmp_path / "broken.sql"
    script.write_text(
        "CREATE TABLE t (id INT);\nSELECT id FROM t;\nSELECT nope FROM t;\nSHOW TABLES;\n"
    )
    result = run("validate", "-f", str(script))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{script}:1\tran\tCREATE TABLE t (id INT)",
        f"{script}:2\tvalidated\tSELECT id FROM t",
        "\tid\tINT",
    ]
    assert f"{script}, line 3:" in result.stderr
    assert "Column 'nope' not found" in result.stderr


def test_explain_of_a_script_prints_each_plan() -> None:
    result = run("explain", "-f", str(SCRIPT))
    assert result.exit_code == 0, result.output
    out = result.stdout
    headers = [ln for ln in out.splitlines() if ln.startswith("-- ")]
    assert [h.split(":")[1] for h in headers] == ["13", "15", "16", "17", "21", "22", "23", "24"]
    assert "Insert(table=[totals])" in out and "Delete(table=[kept])" in out
    assert "== Abstract Syntax Tree ==" in out  # the EXPLAIN statement's own text
    assert "nothing was read or written" in result.stderr


def test_explain_of_a_script_takes_only_text() -> None:
    result = run("explain", "--format", "json", "-f", str(SCRIPT))
    assert result.exit_code == 2
    assert "a script's plans are printed as text" in result.output


def test_queries_the_validator_rewrites_are_planned_too(env: cb.Environment) -> None:
    env.execute("CREATE TABLE t (id INT, v STRING, r ROW<a INT>)")
    steps = env.check_script(
        "SELECT * FROM (SELECT id, r FROM t) AS q WHERE id IN (SELECT id FROM t WHERE v <> 'x');\n"
        "CREATE TABLE c AS SELECT *, r.a AS ra FROM t WHERE id > (SELECT MIN(id) FROM t);\n"
        "SELECT * FROM c;\n",
        plans=True,
    )
    assert [s.outcome for s in steps] == ["validated"] * 3
    assert steps[0].columns == [("id", "INT"), ("r", "ROW<`a` INT>")]
    assert all(s.plan for s in steps)
    assert steps[2].columns == [
        ("id", "INT"),
        ("v", "STRING"),
        ("r", "ROW<`a` INT>"),
        ("ra", "INT"),
    ]
