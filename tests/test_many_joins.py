"""Queries joining many tables plan with a heuristic join order on Calcite's engine (from six
joins on) and still give DuckDB's answers; sqllogictest's select5 runs the bigger shapes."""

from __future__ import annotations

from collections.abc import Callable

import duckdb
import pyarrow as pa
import pytest

import calcite_bridge as cb

BACKEND = "enumerable"


def _chain(n: int, filter_: str) -> str:
    tables = ", ".join(f"j{i}" for i in range(n))
    joins = " AND ".join(f"j{i}.b = j{i + 1}.a" for i in range(n - 1))
    return f"SELECT j0.a, j{n - 1}.x FROM {tables} WHERE {joins} AND {filter_}"


@pytest.mark.jpype_only(reason="planning inside the JVM; the transport does not change it")
@pytest.mark.parametrize("n", [5, 6, 12, 20])
def test_chain_join_gives_duckdbs_rows(
    connect: Callable[..., cb.Environment], transport: str, n: int
) -> None:
    env = connect()
    con = duckdb.connect()
    data = pa.table(
        {
            "a": pa.array([*range(8), None], pa.int32()),
            "b": pa.array([(i * 3) % 8 for i in range(8)] + [1], pa.int32()),
            "x": [f"r{i}" for i in range(8)] + [None],
        }
    )
    for i in range(n):
        env.register_arrow(f"j{i}", data)
        con.register(f"j{i}", data)
    for filter_ in ("j0.a < 5", "j0.x IS NOT NULL"):
        sql = _chain(n, filter_)
        ours = sorted(env.sql(sql).fetchall(), key=repr)
        assert ours == sorted(con.sql(sql).fetchall(), key=repr), sql
        assert ours, sql
    plan = env.explain(_chain(n, "j0.a < 5"))
    assert plan.count("Join(") == n - 1, plan
    env.close()
