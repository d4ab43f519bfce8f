"""Flink's CREATE TABLE clauses, SHOW COLUMNS and settings, from tests/fixtures/flink_ddl.sql and
tests/fixtures/flink_settings.sql (the expected answers are Flink's)."""

from __future__ import annotations

import re

import pytest
from tests.helpers.fixtures import SqlCase, load_cases

import calcite_bridge as cb

DDL_KEYS = {"columns", "like", "like_names", "create_has", "error", "match", "column", "allow"}
SETTING_KEYS = {"value", "unlisted", "before", "error", "match"}

FLINK_COLUMNS = ["name", "type", "null", "key", "extras", "watermark"]


def _error(name: str) -> type[cb.Error]:
    error = getattr(cb, name)
    assert issubclass(error, cb.Error)
    return error  # type: ignore[no-any-return]


def _show_columns(env: cb.Environment, sql: str = "SHOW COLUMNS FROM t") -> list[tuple]:
    result = env.execute(sql)
    assert result.columns[:6] == FLINK_COLUMNS
    return [tuple(r) for r in result.fetchall()]


@pytest.mark.parametrize("case", load_cases("flink_ddl.sql", keys=DDL_KEYS), ids=lambda c: c.name)
def test_flink_create_table(env: cb.Environment, case: SqlCase) -> None:
    if case.has("allow"):
        env.config.set("python.allowed-modules", case.get("allow") or "")
    # The answers are the SQL client's, whose execution.runtime-mode is STREAMING by default.
    env.config.set("execution.runtime-mode", "streaming")
    if case.has("error"):
        with pytest.raises(_error(case.get("error") or "")) as info:
            env.execute(case.sql)
        assert re.search(case.get("match") or "", info.value.message), info.value.message
        if case.has("column"):
            assert (info.value.line, info.value.column) == (1, int(case.get("column") or 0))
        assert "t" not in env.tables()
        return
    env.execute(case.sql)
    columns = _show_columns(env)
    assert columns == case.literal("columns")
    if case.has("like"):
        pattern = case.get("like")
        kept = [r[0] for r in _show_columns(env, f"SHOW COLUMNS FROM t LIKE '{pattern}'")]
        assert kept == case.literal("like_names")
        others = [r[0] for r in _show_columns(env, f"SHOW COLUMNS IN t NOT LIKE '{pattern}'")]
        assert others == [r[0] for r in columns if r[0] not in kept]
    (ddl,) = env.execute("SHOW CREATE TABLE t").fetchall()[0]
    lines = [line.strip() for line in ddl.split("\n")]
    for line in case.all("create_has"):
        assert line in lines, ddl
    # What SHOW CREATE TABLE prints creates the same table again. A temporary table is dropped
    # by DROP TEMPORARY TABLE, as in Flink.
    temporary = ddl.startswith("CREATE TEMPORARY TABLE")
    env.execute("DROP TEMPORARY TABLE t" if temporary else "DROP TABLE t")
    env.execute(ddl)
    assert _show_columns(env) == columns
    # In batch mode Flink marks no rowtime attribute (a processing-time one it marks in both).
    env.config.set("execution.runtime-mode", "batch")
    unmarked = [(r[0], r[1].removesuffix(" *ROWTIME*"), *r[2:]) for r in columns]
    assert _show_columns(env) == unmarked


def test_rowtime_and_proctime_columns_are_read_as_timestamps(env: cb.Environment) -> None:
    env.execute(
        "CREATE TABLE t (id INT PRIMARY KEY NOT ENFORCED, ts TIMESTAMP(3), p AS PROCTIME(),"
        " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)"
    )
    env.execute("INSERT INTO t VALUES (1, TIMESTAMP '2024-01-01 10:00:00')")
    result = env.sql("SELECT * FROM t")
    schema = result.to_arrow_table().schema
    assert str(schema.field("ts").type) == "timestamp[ms]"
    assert str(schema.field("p").type) == "timestamp[ms, tz=UTC]"
    assert not schema.field("p").nullable and not schema.field("id").nullable
    assert env.sql("SELECT id, p IS NOT NULL AS has FROM t").fetchall() == [(1, True)]
    # A primary key column is NOT NULL, as in Flink.
    with pytest.raises(cb.SqlValidationError, match="Column 'id' is NOT NULL"):
        env.execute("INSERT INTO t VALUES (CAST(NULL AS INT), TIMESTAMP '2024-01-01 10:00:00')")


def test_show_columns_of_a_view_and_unknown_table(env: cb.Environment) -> None:
    env.execute("CREATE TEMPORARY VIEW v AS SELECT 1 AS x, CAST(NULL AS STRING) AS y")
    assert _show_columns(env, "SHOW COLUMNS FROM v") == [
        ("x", "INT", False, None, None, None),
        ("y", "STRING", True, None, None, None),
    ]
    with pytest.raises(cb.CatalogError):
        env.execute("SHOW COLUMNS FROM missing")


@pytest.mark.parametrize(
    "case", load_cases("flink_settings.sql", keys=SETTING_KEYS), ids=lambda c: c.name
)
def test_flink_settings(env: cb.Environment, case: SqlCase) -> None:
    for before in case.all("before"):
        env.execute(before)
    if case.has("error"):
        with pytest.raises(_error(case.get("error") or "")) as info:
            env.execute(case.sql)
        assert re.search(case.get("match") or "", str(info.value)), str(info.value)
        return
    env.execute(case.sql)
    key, _, value = (case.get("value") or "").partition("=")
    assert env.config.get(key) == value
    listed = dict(env.execute("SET").fetchall())
    if case.has("unlisted") and case.flag("unlisted"):
        assert key not in listed
    else:
        assert listed[key] == value


def test_flink_keys_are_listed_only_once_set(env: cb.Environment) -> None:
    listed = dict(env.execute("SET").fetchall())
    assert "table.dml-sync" not in listed
    assert env.config.get("table.dml-sync") == "false"
    env.config.set("table.exec.state.ttl", "1 h")
    assert dict(env.execute("SET").fetchall())["table.exec.state.ttl"] == "1 h"


def test_a_script_of_flink_statements_runs(env: cb.Environment) -> None:
    env.execute_script(
        """
        SET 'sql-client.execution.result-mode' = 'tableau';
        SET table.dml-sync = true;
        SET execution.runtime-mode=batch;
        CREATE TABLE orders (
          `user` BIGINT NOT NULL, product VARCHAR(32), amount INT, ts TIMESTAMP(3),
          ptime AS PROCTIME(),
          PRIMARY KEY(`user`) NOT ENFORCED,
          WATERMARK FOR ts AS ts - INTERVAL '1' SECONDS
        ) WITH ('connector' = 'memory');
        RESET table.dml-sync;
        INSERT INTO orders VALUES (1, 'a', 3, TIMESTAMP '2024-01-01 00:00:00');
        """
    )
    assert env.sql("SELECT `user`, amount FROM orders").fetchall() == [(1, 3)]
    assert env.config.get("execution.runtime-mode") == "batch"
    assert env.config.get("table.dml-sync") == "false"
