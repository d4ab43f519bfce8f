"""MIN and MAX of DOUBLE and FLOAT values holding NaN and infinities give the same answer whatever
the order of the rows, on every backend: NaN above every number, as ``ORDER BY`` has it. DuckDB
itself (the ``duckdb`` module, not the backend) is the oracle. Flink's own ``MIN`` and ``MAX``
depend on the order of the rows (``tests/flink/cases/nan.sql``, listed as Flink defects)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

import duckdb
import pytest

import calcite_bridge as cb

SETS = [
    ("1", "'NaN'", "-1"),
    ("'NaN'", "'Infinity'", "1"),
    ("'NaN'", "'NaN'"),
    ("'NaN'", "NULL"),
    ("'Infinity'",),
    ("'-Infinity'",),
    ("'-Infinity'", "'NaN'"),
    ("NULL", "NULL"),
    ("0.0", "'NaN'", "2"),
]


@pytest.fixture(scope="module")
def env() -> Iterator[cb.Environment]:
    e = cb.connect()
    yield e
    e.close()


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def _orders() -> Iterator[object]:
    for values in SETS:
        for order in sorted(set(itertools.permutations(values))):
            for type_ in ("DOUBLE", "FLOAT"):
                yield pytest.param(order, type_, id=f"{type_}:{','.join(order)}")


@pytest.mark.parametrize(("order", "type_"), list(_orders()))
def test_min_and_max_do_not_depend_on_the_order_of_the_rows(
    env: cb.Environment, order: tuple[str, ...], type_: str
) -> None:
    rows = ", ".join(f"(CAST({v} AS {type_}))" for v in order)
    sql = f"SELECT MIN(x), MAX(x) FROM (VALUES {rows}) AS t(x)"
    oracle = duckdb.sql(sql.replace("FLOAT", "REAL")).fetchall()
    for backend in ("enumerable", "duckdb", "auto"):
        got = env.sql(sql, backend=backend).fetchall()
        assert len(got) == 1
        assert all(_same(a, b) for a, b in zip(got[0], oracle[0], strict=True)), (
            f"{backend}: {got} (DuckDB: {oracle}) for {sql}"
        )


def test_grouped_min_and_max_order_nan_above_every_number(env: cb.Environment) -> None:
    sql = (
        "SELECT k, MIN(x), MAX(x) FROM (VALUES (1, CAST('NaN' AS DOUBLE)), (1, CAST(2 AS DOUBLE)), "
        "(2, CAST(2 AS DOUBLE)), (2, CAST('NaN' AS DOUBLE)), (3, CAST('NaN' AS DOUBLE)), "
        "(4, CAST(NULL AS DOUBLE))) AS t(k, x) GROUP BY k ORDER BY k"
    )
    oracle = duckdb.sql(sql).fetchall()
    for backend in ("enumerable", "duckdb"):
        got = env.sql(sql, backend=backend).fetchall()
        assert len(got) == len(oracle) == 4
        for row, want in zip(got, oracle, strict=True):
            assert all(_same(a, b) for a, b in zip(row, want, strict=True)), (backend, got, oracle)
