"""Nested projection pushdown: a query that reads fields inside ROW columns asks for them only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from tests.helpers.fixtures import SqlCase, load_cases
from tests.helpers.tables import NP_USERS
from tests.helpers.tables import ProjectionRecording as Recording

import calcite_bridge as cb

# These tests check Calcite's engine itself: its plans and operators (see conftest.connect).
BACKEND = "enumerable"

USERS = NP_USERS


FIXTURE = "nested_projection.sql"
CASES = load_cases(FIXTURE, keys={"plan_has", "projection"})


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_only_the_fields_a_query_reads_are_asked_for(env: cb.Environment, case: SqlCase) -> None:
    source = Recording(USERS)
    env.register_source("users", source)
    explained = env.explain(case.sql)
    for part in case.all("plan_has"):
        assert part in explained, explained
    got = env.sql(case.sql).fetchall()
    if case.has("projection"):
        assert source.requests[-1].projection == case.literal("projection")
    con = duckdb.connect()
    con.register("users", USERS)
    expected = con.execute(case.sql.replace("`", '"')).fetchall()
    assert got == expected


@pytest.mark.golden
@pytest.mark.jpype_only(reason="plans are the same on both transports")
def test_golden_plans(env: cb.Environment, golden: Callable[[str, dict[str, str]], None]) -> None:
    env.register_source("users", Recording(USERS))
    golden(FIXTURE, {case.name: env.explain(case.sql) for case in CASES})


def test_a_source_without_nested_projection_gets_whole_columns(env: cb.Environment) -> None:
    source = Recording(USERS, nested=False)
    env.register_source("users", source)
    rows = env.sql("SELECT id, `user`.name FROM users ORDER BY id").fetchall()
    assert rows == [(1, "ann"), (2, "bob"), (3, None), (4, None)]
    assert source.requests[-1].projection in (None, ((0,), (1,)))


def test_filesystem_reads_nested_fields(env: cb.Environment, tmp_path: Path) -> None:
    pq.write_table(USERS, tmp_path / "u.parquet")
    env.execute(
        "CREATE TABLE f (id BIGINT, `user` ROW<name STRING, age INT, addr ROW<city STRING>>) "
        f"WITH ('connector' = 'filesystem', 'path' = '{tmp_path}')"
    )
    sql = "SELECT id, `user`.addr.city FROM f WHERE id > 1 ORDER BY id"
    assert "project=[[id, user.addr.city]]" in env.explain(sql)
    assert env.sql(sql).fetchall() == [(2, None), (3, None), (4, None)]
