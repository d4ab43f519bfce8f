"""Arrow data that starts at an offset into its buffers (slices) reads as the slice, not as the
start of the buffers: Arrow Java's C Data import ignores offsets, so such batches are copied
before they cross."""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import calcite_bridge as cb
from calcite_bridge.sources import ScanRequest

BASE = pa.table(
    {
        "x": pa.array(range(20), pa.int64()),
        "n": pa.array([None if i % 3 == 0 else i for i in range(20)], pa.int64()),
        "s": pa.array([None if i % 4 == 0 else f"s{i}" for i in range(20)]),
        "u": pa.array([None if i % 5 == 0 else {"a": i, "b": f"b{i}"} for i in range(20)]),
        "l": pa.array([None if i % 6 == 0 else list(range(i % 3)) for i in range(20)]),
    }
)


class Plain:
    """A source without any ability: the engine filters and projects its rows."""

    def __init__(self, table: pa.Table) -> None:
        self.table = table

    def schema(self) -> pa.Schema:
        return self.table.schema

    def scan(self, request: ScanRequest) -> Any:
        return self.table


SLICES = {
    "one_slice": BASE.slice(5, 9),
    "small_batches": pa.Table.from_batches(BASE.to_batches(max_chunksize=3)),
    "slice_of_batches": pa.Table.from_batches(BASE.to_batches(max_chunksize=7)).slice(4, 12),
}


def _register(env: cb.Environment, table: pa.Table, how: str) -> None:
    if how == "arrow":
        env.register_arrow("t", table)
    else:
        env.register_source("t", Plain(table))


@pytest.mark.parametrize("how", ["arrow", "plain"])
@pytest.mark.parametrize("name", list(SLICES))
def test_a_slice_reads_as_the_slice(env: cb.Environment, name: str, how: str) -> None:
    table = SLICES[name]
    _register(env, table, how)
    assert env.sql("SELECT x, n, s, u, l FROM t").to_arrow_table().to_pylist() == table.to_pylist()


@pytest.mark.parametrize("how", ["arrow", "plain"])
@pytest.mark.parametrize("name", list(SLICES))
def test_filters_and_aggregates_over_a_slice(env: cb.Environment, name: str, how: str) -> None:
    table = SLICES[name]
    _register(env, table, how)
    rows = table.to_pylist()

    # A nested filter (pushed into the arrow source, applied above the plain one), with NULLs.
    got = env.sql("SELECT x FROM t WHERE u.a > 8 ORDER BY x").fetchall()
    assert got == [(r["x"],) for r in rows if r["u"] is not None and r["u"]["a"] > 8]

    total = env.sql("SELECT COUNT(*) AS c, COUNT(n) AS cn, SUM(n) AS s FROM t").fetchall()
    assert total == [(len(rows), pc.count(table["n"]).as_py(), pc.sum(table["n"]).as_py())]

    groups = env.sql("SELECT x % 2 AS k, SUM(x) AS s FROM t GROUP BY x % 2").fetchall()
    expected: dict[int, int] = {}
    for r in rows:
        expected[r["x"] % 2] = expected.get(r["x"] % 2, 0) + r["x"]
    assert sorted(groups) == sorted(expected.items())


def test_a_struct_whose_child_is_a_slice(env: cb.Environment) -> None:
    child = pa.array([None if i == 4 else i for i in range(10)], pa.int64()).slice(3, 4)
    u = pa.StructArray.from_arrays([child], names=["a"])
    table = pa.table({"id": pa.array([1, 2, 3, 4], pa.int64()), "u": u})
    env.register_source("t", Plain(table))
    assert env.sql("SELECT id, u.a FROM t").fetchall() == [(1, 3), (2, None), (3, 5), (4, 6)]
