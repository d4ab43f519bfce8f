"""Flink's catalogs and databases, from tests/fixtures/flink_catalogs.sql: one script of statements
run in order in one environment, each with the columns, rows or refusal Flink gives; then the
Python API, the plan cache and registered tables in the current catalog and database."""

from __future__ import annotations

import pyarrow as pa
import pytest
from tests.helpers.fixtures import SqlCase, load_cases
from tests.helpers.statement_cases import KEYS, check_case, run_cases

import calcite_bridge as cb

CASES = load_cases("flink_catalogs.sql", keys=KEYS)


def test_flink_catalog_script(env: cb.Environment) -> None:
    assert len(CASES) > 100
    run_cases(env, CASES)


def test_python_api_follows_the_current_database(env: cb.Environment) -> None:
    env.execute("CREATE TABLE t (a INT)")
    env.execute("CREATE DATABASE db1")
    env.execute("USE db1")
    assert env.tables() == []
    # A table registered from Python lands in the current database.
    env.register_arrow("r", pa.table({"x": [1, 2]}))
    env.execute("CREATE VIEW v AS SELECT x * 10 AS y FROM r")
    assert env.tables() == ["r", "v"]
    assert [c.name for c in env.describe("v")] == ["y"]
    assert env.execute("SELECT * FROM default_database.t").fetchall() == []
    assert env.execute("SELECT SUM(y) FROM v").fetchall() == [(30,)]
    env.execute("USE default_database")
    assert env.tables() == ["t"]
    assert [c.name for c in env.describe("t")] == ["a"]
    with pytest.raises(cb.CatalogError, match="'r' does not exist"):
        env.describe("r")
    assert env.execute("SELECT SUM(y) FROM db1.v").fetchall() == [(30,)]


def test_cached_plans_follow_the_current_database(env: cb.Environment) -> None:
    env.execute("CREATE TABLE t (a INT)")
    env.execute("INSERT INTO t VALUES (1)")
    env.execute("CREATE DATABASE db1")
    env.execute("CREATE TABLE db1.t (a INT)")
    env.execute("INSERT INTO db1.t VALUES (2), (3)")
    query = "SELECT SUM(a) FROM t"
    assert env.execute(query).fetchall() == [(1,)]
    env.execute("USE db1")
    assert env.execute(query).fetchall() == [(5,)]
    env.execute("USE default_catalog.default_database")
    assert env.execute(query).fetchall() == [(1,)]


@pytest.mark.parametrize("backend", ["enumerable", "auto"])
def test_qualified_tables_on_each_backend(env: cb.Environment, backend: str) -> None:
    env.execute("CREATE CATALOG c1 WITH ('type' = 'generic_in_memory')")
    env.execute("CREATE DATABASE c1.sales")
    env.execute("CREATE TABLE c1.sales.orders (id INT, amount DOUBLE)")
    env.execute("INSERT INTO c1.sales.orders VALUES (1, 2.5), (2, 4.0), (3, 1.5)")
    env.register_arrow("rates", pa.table({"id": [1, 2], "rate": [2.0, 3.0]}))
    env.config.set("execution.backend", backend)
    sql = (
        "SELECT o.id, o.amount * r.rate AS total FROM c1.sales.orders o"
        " JOIN default_catalog.default_database.rates r ON o.id = r.id ORDER BY o.id"
    )
    assert env.execute(sql).fetchall() == [(1, 5.0), (2, 12.0)]


EXPLAIN_KEYS = {"has", "lacks", "error", "match", "column"}


@pytest.mark.parametrize(
    "case", load_cases("flink_explain.sql", keys=EXPLAIN_KEYS), ids=lambda c: c.name
)
def test_flink_explain_details(env: cb.Environment, case: SqlCase) -> None:
    env.execute("CREATE TABLE t (a INT, b STRING)")
    env.execute("INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z')")
    if case.has("error"):
        check_case(env, case)
        return
    result = env.execute(case.sql)
    assert result.columns == (["plan"] if "AS JSON" in case.sql else ["result"])
    ((plan,),) = result.fetchall()
    for text in case.all("has"):
        assert text in plan, plan
    for text in case.all("lacks"):
        assert text not in plan, plan
