"""ORDER BY: a top-N for ORDER BY ... LIMIT, one scan of the source, DuckDB's order.

ORDER BY over a DOUBLE once spent microseconds a comparison (Calcite's single-key comparator
converts numbers to exact BigDecimals) and sorted every row under a LIMIT; these tests pin the
plan shape, the number of scans and the order, not timings.
"""

from __future__ import annotations

import math
from typing import Any

import duckdb
import pyarrow as pa
import pytest
from tests.helpers.tables import Counting

import calcite_bridge as cb

# These tests check Calcite's engine itself: its plans and operators (see conftest.connect).
BACKEND = "enumerable"

N = 200
NAN = float("nan")


def _table() -> pa.Table:
    """Keys with NULLs, ties, infinities and a NaN; ``id`` ascending (input order)."""
    ids = list(range(N))
    amount = [None if i % 17 == 0 else float((i * 7919) % 23) / 4 for i in ids]
    amount[5] = NAN
    amount[6] = math.inf
    amount[7] = -math.inf
    k = [None if i % 11 == 0 else (i * 31) % 9 - 4 for i in ids]
    name = [None if i % 13 == 0 else f"n{(i * 37) % 15:02d}" for i in ids]
    return pa.table(
        {
            "id": pa.array(ids, pa.int64()),
            "amount": pa.array(amount, pa.float64()),
            "k": pa.array(k, pa.int32()),
            "name": pa.array(name, pa.string()),
        }
    )


TABLE = _table()


def _norm(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """NaN made comparable (NaN != NaN)."""
    return [
        tuple("NaN" if isinstance(v, float) and math.isnan(v) else v for v in row) for row in rows
    ]


def _duck(sql: str) -> list[tuple[Any, ...]]:
    con = duckdb.connect()
    con.register("t", TABLE)
    return _norm(con.execute(sql).fetchall())


KEYS = ["amount", "k", "name", "amount * 2"]
ORDERS = ["ASC NULLS FIRST", "ASC NULLS LAST", "DESC NULLS FIRST", "DESC NULLS LAST"]
LIMITS = ["", "LIMIT 7", "LIMIT 5 OFFSET 9", "LIMIT 0", f"LIMIT {N + 5}"]


@pytest.mark.parametrize("limit", LIMITS)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("key", KEYS)
@pytest.mark.jpype_only(reason="the order is the engine's, the same on both transports")
def test_order_matches_duckdb(env: cb.Environment, key: str, order: str, limit: str) -> None:
    # Rows with equal keys keep their input order, as Calcite's sorts do; DuckDB is told so by
    # ordering on id next.
    env.register_arrow("t", TABLE)
    ours = _norm(env.sql(f"SELECT id, {key} FROM t ORDER BY {key} {order} {limit}").fetchall())
    peer = _duck(f"SELECT id, {key} FROM t ORDER BY {key} {order}, id {limit}")
    assert ours == peer


@pytest.mark.parametrize("limit", ["", "LIMIT 4", "LIMIT 3 OFFSET 2"])
@pytest.mark.jpype_only(reason="the order is the engine's, the same on both transports")
def test_several_keys_match_duckdb(env: cb.Environment, limit: str) -> None:
    env.register_arrow("t", TABLE)
    order = "k DESC NULLS LAST, name ASC NULLS FIRST, id DESC"
    sql = f"SELECT id, k, name FROM t ORDER BY {order} {limit}"
    assert _norm(env.sql(sql).fetchall()) == _duck(sql)


def test_order_by_limit_is_a_top_n(env: cb.Environment) -> None:
    env.register_arrow("t", TABLE)
    plan = env.explain("SELECT id, amount FROM t ORDER BY amount DESC LIMIT 3")
    assert plan.splitlines()[0].startswith("EnumerableLimitSort("), plan
    assert "EnumerableSort(" not in plan, plan
    offset = env.explain("SELECT id FROM t ORDER BY amount LIMIT 3 OFFSET 4")
    assert "EnumerableLimitSort(" in offset and "EnumerableSort(" not in offset, offset


def test_order_by_without_limit_sorts(env: cb.Environment) -> None:
    env.register_arrow("t", TABLE)
    plan = env.explain("SELECT id, amount FROM t ORDER BY amount DESC")
    assert plan.splitlines()[0].startswith("EnumerableSort("), plan


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT id, amount FROM t ORDER BY amount DESC LIMIT 3",
        "SELECT id, amount FROM t ORDER BY amount DESC",
        "SELECT id FROM t ORDER BY amount * 2, name DESC LIMIT 5 OFFSET 1",
    ],
)
def test_one_scan_per_query(env: cb.Environment, sql: str) -> None:
    source = Counting(TABLE)
    env.register_source("t", source)
    env.sql(sql).fetchall()
    assert source.scans == 1


def test_memory_table_top_n(env: cb.Environment) -> None:
    env.execute("CREATE TABLE m (id BIGINT, amount DOUBLE) WITH ('connector' = 'memory')")
    values = ", ".join(
        f"({i}, {'NULL' if a is None else repr(a)})"
        for i, a in zip(
            TABLE.column("id").to_pylist(), TABLE.column("amount").to_pylist(), strict=True
        )
        if a is None or math.isfinite(a)
    )
    env.execute(f"INSERT INTO m VALUES {values}")
    sql = "SELECT id, amount FROM m ORDER BY amount DESC NULLS LAST LIMIT 6"
    assert env.explain(sql).splitlines()[0].startswith("EnumerableLimitSort("), env.explain(sql)
    peer = _duck(
        "SELECT id, amount FROM t WHERE isfinite(amount) OR amount IS NULL "
        "ORDER BY amount DESC NULLS LAST, id LIMIT 6"
    )
    assert _norm(env.sql(sql).fetchall()) == peer
