"""The dynamic-columns functions on the ``spark`` backend, against Calcite's engine.

On Spark the ``COLUMN_*`` functions that return no blob run as Java UDFs of the second jar
(``calcite-bridge-spark-udf.jar``, the same codec), which the backend adds to the session and
registers the first time a query calls one. Every expression of ``fixtures/dyncol_spark_cases.sql``
runs over the same blobs on both: same values and types. The functions that return a blob stay
refused with ``UnsupportedError``.

One SparkSession serves the module (``local[1]``, shared with the other Spark test modules).
"""

from __future__ import annotations

import datetime as dt
import decimal
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pytest
from tests.helpers.fixtures import load_cases

import calcite_bridge as cb

pytest.importorskip("pyspark", reason="the spark extra: pip install '.[spark]'")

CASES = [case.sql for case in load_cases("dyncol_spark_cases.sql", one_per_line=True)]

# Rows of blobs, made by Calcite's engine: every stored type, numeric keys, text that reads as a
# number or a time, a NULL blob; k is a key read from a column.
BLOBS = (
    "SELECT * FROM (VALUES"
    " (1, 'x', COLUMN_CREATE('i', 42, 'x', '42x', 'd', 1.55, 'f', CAST(2.5 AS DOUBLE),"
    "  's', 'héllo', 'dt', DATE '2024-02-29', 'ts', TIMESTAMP '2024-03-10 01:30:00.123',"
    "  'tstext', '2024-07-04 23:59:59', 'neg', -7, 'big', 9223372036854775807)),"
    " (2, 's', COLUMN_CREATE(1, 'one', 2, 22, 'i', 'abc', 's', '', 'd', -0.005)),"
    " (3, 'i', CAST(NULL AS VARBINARY)),"
    " (4, CAST(NULL AS VARCHAR), COLUMN_CREATE('x', 'not a number', 'f', CAST(-1e300 AS DOUBLE),"
    "  'tstext', 'garbage', 1, CAST(NULL AS INT)))"
    ") AS v(id, k, b)"
)


@pytest.fixture(scope="module")
def spark() -> Any:
    from calcite_bridge import _spark

    return _spark.local_session()


@pytest.fixture(scope="module")
def env(spark: Any) -> Iterator[cb.Environment]:
    env = cb.connect(backend="spark", spark=spark)
    rows = env.sql(BLOBS, backend="enumerable").to_arrow_table()
    table = pa.table(
        {
            "id": rows.column(0).cast(pa.int32()),
            "k": rows.column(1).cast(pa.string()),
            "b": rows.column(2).cast(pa.binary()),
        }
    )
    env.register_arrow("t", table)
    yield env
    env.close()


def _rows(env: cb.Environment, sql: str, backend: str) -> pa.Table:
    return env.sql(sql, backend=backend).to_arrow_table()


@pytest.mark.parametrize("expr", CASES)
def test_same_as_calcites_engine(env: cb.Environment, expr: str) -> None:
    sql = f"SELECT id, {expr} AS v FROM t ORDER BY id"
    reference = _rows(env, sql, "enumerable")
    assert env.explain(sql, backend="spark").startswith("Spark("), expr
    got = _rows(env, sql, "spark")
    assert got.schema == reference.schema
    assert got.to_pylist() == reference.to_pylist()


def test_planted_values(env: cb.Environment) -> None:
    rows = env.sql(
        "SELECT COLUMN_GET(b, 'x' AS INT), COLUMN_GET(b, 'd' AS DECIMAL(5,2)),"
        " COLUMN_GET(b, 'missing' AS INT), COLUMN_GET(b, 'dt' AS DATE),"
        " COLUMN_GET(b, 'ts' AS DATETIME(3)), COLUMN_JSON(b) FROM t WHERE id = 1",
        backend="spark",
    ).fetchall()
    assert rows[0][:5] == (
        42,
        decimal.Decimal("1.55"),
        None,
        dt.date(2024, 2, 29),
        dt.datetime(2024, 3, 10, 1, 30, 0, 123000),
    )
    assert '"x":"42x"' in rows[0][5]
    rows = env.sql(
        "SELECT COLUMN_GET(b, 'i' AS INT), COLUMN_JSON(b) FROM t WHERE id = 3"
    ).fetchall()
    assert rows == [(None, None)]


def test_a_filter_and_an_aggregate_over_column_get(env: cb.Environment) -> None:
    sql = (
        "SELECT COLUMN_EXISTS(b, 'i') AS e, COUNT(*) AS c, SUM(COLUMN_GET(b, 'i' AS INT)) AS s"
        " FROM t WHERE COLUMN_GET(b, 'x' AS INT) >= 0 OR COLUMN_GET(b, 1 AS CHAR) = 'one'"
        " GROUP BY COLUMN_EXISTS(b, 'i') ORDER BY e"
    )
    assert env.explain(sql, backend="spark").startswith("Spark(")
    assert _rows(env, sql, "spark").equals(_rows(env, sql, "enumerable"))


def test_a_bad_blob_fails_as_on_calcites_engine(env: cb.Environment) -> None:
    env.register_arrow("bad", pa.table({"b": pa.array([b"xyz"], pa.binary())}))
    sql = "SELECT COLUMN_GET(b, 'a' AS INT) AS v FROM bad"
    with pytest.raises(cb.ExecutionError, match="illegal format of dynamic column string") as r:
        env.sql(sql, backend="enumerable").fetchall()
    with pytest.raises(cb.ExecutionError, match="illegal format of dynamic column string") as e:
        env.sql(sql, backend="spark").fetchall()
    # the codec's message, as Calcite's engine gives it, not Spark's wrapping of it
    assert str(e.value).split(": ", 1)[1] == str(r.value).split(": ", 1)[1]


@pytest.mark.parametrize(
    ("sql", "construct"),
    [
        ("SELECT COLUMN_CREATE('a', id) FROM t", "COLUMN_CREATE"),
        ("SELECT COLUMN_JSON(COLUMN_ADD(b, 'a', 1)) FROM t", "COLUMN_ADD"),
        ("SELECT COLUMN_GET(b, 'i' AS BINARY) FROM t", "COLUMN_GET returning a value of type"),
        ("SELECT COLUMN_GET(b, 'ts' AS TIME) FROM t", "COLUMN_GET returning a value of type"),
        ("SELECT b FROM t", "VARBINARY"),
        ("SELECT id FROM t WHERE b IS NOT NULL ORDER BY b", "VARBINARY"),
        ("SELECT COUNT(*) FROM t GROUP BY b", "VARBINARY"),
    ],
)
def test_what_spark_does_not_run_is_refused(env: cb.Environment, sql: str, construct: str) -> None:
    env.sql(sql, backend="enumerable").fetchall()  # the reference runs it
    with pytest.raises(cb.UnsupportedError, match="spark backend cannot run") as caught:
        env.sql(sql, backend="spark").fetchall()
    assert construct in str(caught.value)
