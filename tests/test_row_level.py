"""UPDATE and DELETE (issue 13, part 3).

Each case of fixtures/row_level.sql runs on a fresh copy of its tables, over the ``memory`` and
``filesystem`` connectors and on every backend; DuckDB, running the same statement, is the
oracle of the affected row count and of the table's rows afterwards. A failing statement leaves
the table exactly as it was. Tables whose source lacks a row-level ability refuse with a typed
error naming the table and the ability, at the table's position.
"""

from __future__ import annotations

import decimal
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from tests.helpers.fixtures import SqlCase, load_cases

import calcite_bridge as cb
from calcite_bridge.sources import SupportsRowLevelDelete, SupportsRowLevelUpdate

CASES = load_cases("row_level.sql", keys={"count", "rows", "error", "match"})

T_COLUMNS = "k INT NOT NULL, a INT, b DOUBLE, s STRING"
T_ROWS = "(1, 10, 1.5, 'x'), (2, NULL, 2.5, 'y'), (3, 30, NULL, NULL), (4, 40, 4.5, 'x'), " + (
    "(5, NULL, NULL, 'z')"
)
U_ROWS = "(1, 100), (3, 300), (NULL, 999), (6, 600)"
INITIAL = [
    (1, 10, 1.5, "x"),
    (2, None, 2.5, "y"),
    (3, 30, None, None),
    (4, 40, 4.5, "x"),
    (5, None, None, "z"),
]

# (connector of t, execution.backend): the statement and the SELECT that reads t back run there.
SETUPS = [
    ("memory", "enumerable"),
    ("memory", "duckdb"),
    ("memory", "auto"),
    ("filesystem", "enumerable"),
    ("filesystem", "auto"),
]


def _norm(value: object) -> object:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float, decimal.Decimal)):
        return float(value)
    return value


def _multiset(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return sorted((tuple(_norm(v) for v in r) for r in rows), key=repr)


def _rows(env: cb.Environment, sql: str = "SELECT k, a, b, s FROM t") -> list[tuple[Any, ...]]:
    return _multiset([tuple(r.values()) for r in env.sql(sql).to_pylist()])


def _duckdb(sql: str) -> tuple[int, list[tuple[Any, ...]]]:
    con = duckdb.connect()
    con.execute(f"CREATE TABLE t ({T_COLUMNS.replace('STRING', 'VARCHAR')})")
    con.execute(f"INSERT INTO t VALUES {T_ROWS}")
    con.execute("CREATE TABLE u (k INT, v INT)")
    con.execute(f"INSERT INTO u VALUES {U_ROWS}")
    count = con.execute(sql).fetchall()[0][0]
    return int(count), _multiset(con.execute("SELECT * FROM t").fetchall())


@pytest.fixture(scope="module")
def envs() -> Iterator[dict[str, cb.Environment]]:
    made = {backend: cb.connect() for backend in ("enumerable", "duckdb", "auto")}
    for backend, env in made.items():
        env.config.set("execution.backend", backend)
        env.execute("CREATE TABLE u (k INT, v INT) WITH ('connector' = 'memory')")
        env.execute(f"INSERT INTO u VALUES {U_ROWS}")
    yield made
    for env in made.values():
        env.close()


def _fresh_t(env: cb.Environment, connector: str, tmp_path: Path) -> None:
    env.execute("DROP TABLE IF EXISTS t")
    options = "'connector' = 'memory'"
    if connector == "filesystem":
        options = (
            f"'connector' = 'filesystem', 'path' = '{tmp_path / 't'}', 'format' = 'parquet', "
            "'sink.create-path' = 'true'"
        )
    env.execute(f"CREATE TABLE t ({T_COLUMNS}) WITH ({options})")
    env.execute(f"INSERT INTO t VALUES {T_ROWS}")


@pytest.mark.parametrize("case", [c for c in CASES if not c.has("error")], ids=lambda c: c.name)
def test_the_fixture_agrees_with_duckdb(case: SqlCase) -> None:
    count, rows = _duckdb(case.sql)
    assert count == int(case.get("count") or "-1")
    assert rows == _multiset(case.literal("rows"))


@pytest.mark.parametrize(("connector", "backend"), SETUPS, ids=str)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_case(
    case: SqlCase,
    connector: str,
    backend: str,
    envs: dict[str, cb.Environment],
    tmp_path: Path,
) -> None:
    env = envs[backend]
    _fresh_t(env, connector, tmp_path)
    error = case.get("error")
    if error is not None:
        with pytest.raises(getattr(cb, error)) as raised:
            env.execute(case.sql)
        if case.has("match"):
            assert re.search(case.get("match") or "", str(raised.value)), str(raised.value)
        assert _rows(env) == _multiset(INITIAL)
        return
    result = env.execute(case.sql)
    update = case.sql.lstrip().upper().startswith("UPDATE")
    column = "rows_updated" if update else "rows_deleted"
    assert result.kind == ("update" if update else "delete")
    assert result.to_pylist() == [{column: int(case.get("count") or "-1")}]
    assert _rows(env) == _multiset(case.literal("rows"))


@pytest.mark.golden
@pytest.mark.jpype_only(reason="plans are the same on both transports")
def test_golden_plans(
    envs: dict[str, cb.Environment],
    tmp_path: Path,
    golden: Callable[[str, dict[str, str]], None],
) -> None:
    """The plan that computes the new rows of each case that runs (tests/golden/row_level.plan)."""
    env = envs["enumerable"]
    _fresh_t(env, "memory", tmp_path)
    golden("row_level.sql", {c.name: env.explain(c.sql) for c in CASES if not c.has("error")})


def test_the_result_mirrors_insert(tmp_path: Path) -> None:
    env = cb.connect()
    env.execute("CREATE TABLE m (i INT) WITH ('connector' = 'memory')")
    inserted = env.execute("INSERT INTO m VALUES (1), (2), (3)")
    updated = env.execute("UPDATE m SET i = i * 2 WHERE i > 1")
    deleted = env.execute("DELETE FROM m WHERE i = 4")
    assert (inserted.kind, updated.kind, deleted.kind) == ("insert", "update", "delete")
    assert updated.to_arrow_table().schema.field("rows_updated").type == pa.int64()
    assert deleted.to_pylist() == [{"rows_deleted": 1}]
    assert env.sql("SELECT i FROM m ORDER BY i").to_pylist() == [{"i": 1}, {"i": 6}]


def test_the_rightmost_assignment_of_a_column_wins() -> None:
    env = cb.connect()
    env.execute("CREATE TABLE m (x INT, y INT) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO m VALUES (1, 1)")
    env.execute("UPDATE m SET x = 3, y = x + 10, x = 5")
    assert env.sql("SELECT x, y FROM m").to_pylist() == [{"x": 5, "y": 11}]
    # A target may be qualified by the table's name or alias.
    env.execute("UPDATE m SET m.x = 6")
    env.execute("UPDATE m AS q SET q.y = q.x + 1")
    assert env.sql("SELECT x, y FROM m").to_pylist() == [{"x": 6, "y": 7}]


# --- atomicity -------------------------------------------------------------------------------


def _files(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir())}


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE t SET a = 100 / (k - 5)",  # fails on the last row only
        "UPDATE t SET k = a",  # NULL into NOT NULL on two rows
        "UPDATE t SET a = CAST(s AS INT) WHERE k = 4",
        "DELETE FROM t WHERE 1 / (k - 1) > 0",
    ],
)
def test_a_failing_statement_leaves_the_files_as_they_were(tmp_path: Path, sql: str) -> None:
    env = cb.connect()
    _fresh_t(env, "filesystem", tmp_path)
    env.execute("INSERT INTO t VALUES (6, 60, 6.5, 'w')")
    before = _files(tmp_path / "t")
    assert len(before) == 2
    with pytest.raises(cb.Error):
        env.execute(sql)
    assert _files(tmp_path / "t") == before
    assert len(_rows(env)) == 6


def test_the_filesystem_rewrite_replaces_every_file_with_one(tmp_path: Path) -> None:
    env = cb.connect()
    _fresh_t(env, "filesystem", tmp_path)
    env.execute("INSERT INTO t VALUES (6, 60, 6.5, 'w')")
    env.execute("UPDATE t SET a = 0 WHERE k = 6")
    files = os.listdir(tmp_path / "t")
    assert len(files) == 1 and files[0].startswith("part-"), files
    assert _rows(env, "SELECT k, a FROM t WHERE k > 4") == [(5.0, None), (6.0, 0.0)]
    env.execute("DELETE FROM t")
    assert os.listdir(tmp_path / "t") == []
    assert env.sql("SELECT COUNT(*) AS n FROM t").to_pylist() == [{"n": 0}]


def test_a_table_that_is_one_file_is_replaced_in_place(tmp_path: Path) -> None:
    path = tmp_path / "one.csv"
    path.write_text("k,s\n1,a\n2,b\n")
    env = cb.connect()
    env.execute(
        "CREATE TABLE single (k INT, s STRING) "
        f"WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = 'csv')"
    )
    assert env.execute("DELETE FROM single WHERE k = 1").to_pylist() == [{"rows_deleted": 1}]
    assert env.execute("UPDATE single SET s = 'B'").to_pylist() == [{"rows_updated": 1}]
    assert env.sql("SELECT k, s FROM single").to_pylist() == [{"k": 2, "s": "B"}]
    assert sorted(os.listdir(tmp_path)) == ["one.csv"]


def test_files_with_undeclared_columns_are_not_rewritten(tmp_path: Path) -> None:
    pq.write_table(pa.table({"id": [1, 2], "score": [1.5, 2.5]}), tmp_path / "a.parquet")
    before = _files(tmp_path)
    env = cb.connect()
    env.execute(
        "CREATE TABLE ev (id BIGINT, ...) "
        f"WITH ('connector' = 'filesystem', 'path' = '{tmp_path}', 'format' = 'parquet')"
    )
    with pytest.raises(cb.SourceError, match=r"declare \(score\)"):
        env.execute("DELETE FROM ev WHERE score > 2")
    with pytest.raises(cb.UnsupportedError, match="'score' is not declared") as raised:
        env.execute("UPDATE ev SET score = 0")
    assert (raised.value.line, raised.value.column) == (1, 15)
    assert _files(tmp_path) == before


def test_a_failing_python_source_keeps_its_rows() -> None:
    source = Rewritable(pa.table({"k": [1, 2, 3]}))
    env = cb.connect()
    env.register_source("r", source)
    with pytest.raises(cb.SourceError, match="no negative keys") as raised:
        env.execute("UPDATE r SET k = -k WHERE k = 2")
    assert "Traceback" in (raised.value.source_traceback or "")
    assert env.sql("SELECT k FROM r").to_pylist() == [{"k": 1}, {"k": 2}, {"k": 3}]
    assert env.execute("UPDATE r SET k = k * 10 WHERE k > 1").to_pylist() == [{"rows_updated": 2}]
    assert env.execute("DELETE FROM r WHERE k = 20").to_pylist() == [{"rows_deleted": 1}]
    assert source.table.to_pydict() == {"k": [1, 30]}


# --- abilities -------------------------------------------------------------------------------


class Rewritable(SupportsRowLevelUpdate, SupportsRowLevelDelete):
    """Rows in memory that UPDATE and DELETE rewrite; a negative key is refused."""

    def __init__(self, table: pa.Table) -> None:
        self.table = table

    def schema(self) -> pa.Schema:
        return self.table.schema

    def scan(self, request: Any) -> pa.Table:
        return self.table

    def overwrite(self, table: pa.Table) -> None:
        if any(k is not None and k < 0 for k in table.column("k").to_pylist()):
            raise ValueError("no negative keys")
        self.table = table


class UpdateOnly(Rewritable):
    def supports_row_level_delete(self) -> bool:
        return False


def test_sources_without_the_ability_refuse_naming_table_and_ability() -> None:
    env = cb.connect()
    env.register_arrow("arr", pa.table({"x": [1, 2]}))
    env.register_source("upd", UpdateOnly(pa.table({"k": [1]})))
    with pytest.raises(cb.UnsupportedError) as raised:
        env.execute("UPDATE arr SET x = 0")
    message = str(raised.value)
    assert "of the table default_catalog.default_database.arr because" in message, message
    assert "supports_row_level_update" in message, message
    assert (raised.value.line, raised.value.column) == (1, 8)
    with pytest.raises(cb.UnsupportedError, match="SupportsRowLevelDelete") as raised:
        env.execute("DELETE FROM upd WHERE k = 1")
    assert (raised.value.line, raised.value.column) == (1, 13)
    assert "the table default_catalog.default_database.upd because" in str(raised.value)
    assert env.execute("UPDATE upd SET k = 2").to_pylist() == [{"rows_updated": 1}]
    assert env.sql("SELECT x FROM arr").to_pylist() == [{"x": 1}, {"x": 2}]


def test_views_are_not_modified() -> None:
    env = cb.connect()
    env.execute("CREATE TABLE m (i INT) WITH ('connector' = 'memory')")
    env.execute("CREATE VIEW v AS SELECT i FROM m")
    with pytest.raises(cb.SqlValidationError, match="view 'v'"):
        env.execute("DELETE FROM v")


# --- metadata and dynamic columns ------------------------------------------------------------


def test_metadata_columns() -> None:
    env = cb.connect()
    env.execute(
        "CREATE TABLE m (i INT, c AS i * 2, origin STRING METADATA, "
        "ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL, "
        "pos BIGINT METADATA FROM 'offset' VIRTUAL) WITH ('connector' = 'memory')"
    )
    env.execute("INSERT INTO m (i, origin) VALUES (1, 'a'), (2, 'b'), (3, NULL)")
    inserted = env.sql("SELECT i, ts FROM m ORDER BY i").to_pylist()
    unwritable = (("ts", "virtual metadata"), ("pos", "virtual metadata"), ("c", "computed"))
    for column, kind in unwritable:
        with pytest.raises(cb.SqlValidationError, match=f"'{column}' of table 'm' is {kind}") as e:
            env.execute(f"UPDATE m SET i = 0, {column} = NULL")
        assert (e.value.line, e.value.column) == (1, 21)
    # A persisted metadata column is written like a physical one, and read in WHERE.
    env.execute("UPDATE m SET origin = 'z' WHERE origin IS NULL OR pos = 0")
    env.execute("DELETE FROM m WHERE pos = 1")
    assert env.sql("SELECT i, c, origin, pos FROM m ORDER BY i").to_pylist() == [
        {"i": 1, "c": 2, "origin": "z", "pos": 0},
        {"i": 3, "c": 6, "origin": "z", "pos": 1},
    ]
    # A row keeps its insert time.
    kept = env.sql("SELECT i, ts FROM m ORDER BY i").to_pylist()
    assert kept == [inserted[0], inserted[2]]


def test_dynamic_columns_are_set_in_the_row_blob() -> None:
    env = cb.connect()
    env.execute("CREATE TABLE d (id INT, ...) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO d (id, color) VALUES (1, 'red'), (2, 'blue')")
    env.execute("INSERT INTO d (id) VALUES (3)")
    assert env.execute("UPDATE d SET color = 'green' WHERE id >= 2").to_pylist() == [
        {"rows_updated": 2}
    ]
    env.execute("UPDATE d SET size = 42, id = id + 10 WHERE color = 'red'")
    env.execute("UPDATE d SET color = NULL WHERE id = 3")
    assert env.sql("SELECT id, color, size FROM d ORDER BY id").to_pylist() == [
        {"id": 2, "color": "green", "size": None},
        {"id": 3, "color": None, "size": None},
        {"id": 11, "color": "red", "size": "42"},
    ]
    assert env.execute("DELETE FROM d WHERE color IS NULL").to_pylist() == [{"rows_deleted": 1}]
    assert env.sql("SELECT id FROM d ORDER BY id").to_pylist() == [{"id": 2}, {"id": 11}]


# --- other entry points ----------------------------------------------------------------------


def test_the_cli_runs_update_and_delete(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from calcite_bridge.cli import main

    catalog = tmp_path / "c.sql"
    catalog.write_text(
        "CREATE TABLE t (i INT, s STRING) WITH ('connector' = 'memory');\n"
        "INSERT INTO t VALUES (1, 'a'), (2, 'b');\n"
        "DELETE FROM t WHERE i = 1;\n"
    )
    out = CliRunner().invoke(
        main, ["query", "--catalog", str(catalog), "--format", "csv", "UPDATE t SET s = 'q'"]
    )
    assert out.exit_code == 0, out.output
    assert out.output.splitlines() == ["rows_updated", "1"]
    bad = CliRunner().invoke(main, ["query", "--catalog", str(catalog), "UPDATE t SET x = 1"])
    assert bad.exit_code != 0
    assert "Column 'x' not found in table 't'" in bad.stderr


def test_over_a_gateway(gateway_address: str, tmp_path: Path) -> None:
    from conftest import GATEWAY_TOKEN

    env = cb.connect(gateway=gateway_address, token=GATEWAY_TOKEN)
    try:
        source = Rewritable(pa.table({"k": [1, 2, 3]}))
        env.register_source("gw_r", source)
        assert env.execute("DELETE FROM gw_r WHERE k < 3").to_pylist() == [{"rows_deleted": 2}]
        assert source.table.to_pydict() == {"k": [3]}
        with pytest.raises(cb.SourceError, match="no negative keys"):
            env.execute("UPDATE gw_r SET k = -1")
        _fresh_t(env, "filesystem", tmp_path)
        assert env.execute("UPDATE t SET a = -a WHERE a > 20").to_pylist() == [{"rows_updated": 2}]
        assert _rows(env, "SELECT k, a FROM t WHERE a < 0") == [(3.0, -30.0), (4.0, -40.0)]
    finally:
        env.close()


def test_explain_shows_the_query_that_computes_the_rows() -> None:
    env = cb.connect()
    env.execute("CREATE TABLE m (i INT, s STRING) WITH ('connector' = 'memory')")
    plan = env.explain("UPDATE m SET s = 'x' WHERE i = 2").splitlines()
    assert plan[0] == "Update(table=[m])"
    assert "CASE(" in plan[1] and plan[-1].strip() == "BridgeTableScan(table=[[m]])"
    rows = env.execute("EXPLAIN DELETE FROM m WHERE i > 1").to_pylist()
    assert rows[0]["result"].startswith("== Abstract Syntax Tree ==\n")
    assert (
        "== Optimized Physical Plan ==\nDelete(table=[m])\n  EnumerableCalc(" in rows[0]["result"]
    )
    with pytest.raises(
        cb.UnsupportedError, match=r"the table default_catalog\.default_database\.arr "
    ):
        env.register_arrow("arr", pa.table({"x": [1]}))
        env.explain("DELETE FROM arr")
