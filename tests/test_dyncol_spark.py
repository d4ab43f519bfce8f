"""The dynamic-columns functions on the ``spark`` backend, against Calcite's engine.

On Spark the ``COLUMN_*`` functions run as Java UDFs of the second jar
(``calcite-bridge-spark-udf.jar``, the same codec), which the backend adds to the session and
registers the first time a query calls one. Every expression of
``fixtures/dyncol_spark_cases.sql`` runs over the same blobs on both: same values and types, the
blobs that ``COLUMN_CREATE``, ``COLUMN_ADD`` and ``COLUMN_DELETE`` write byte for byte. Every case
of ``fixtures/dyncol_cases.sql`` (the ones checked against MariaDB) runs on both. Columns the DDL
does not declare are discovered from a Parquet file's schema, read by Spark's own Parquet reader.

One SparkSession serves the module (``local[1]``, shared with the other Spark test modules).
"""

from __future__ import annotations

import datetime as dt
import decimal
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
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
    # backend="spark" runs on Spark or raises UnsupportedError: it never falls back
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
        ("SELECT COLUMN_GET(b, 'ts' AS TIME) FROM t", "COLUMN_GET returning a value of type TIME"),
        ("SELECT id FROM t WHERE b IS NOT NULL ORDER BY b", "of type BYTES"),
        ("SELECT COUNT(*) FROM t GROUP BY b", "of type BYTES"),
        ("SELECT id FROM t WHERE b = COLUMN_CREATE('s', '')", "of type BYTES"),
        ("SELECT MAX(COLUMN_CREATE('id', id)) FROM t", "of type BYTES"),
    ],
)
def test_what_spark_does_not_run_is_refused(env: cb.Environment, sql: str, construct: str) -> None:
    env.sql(sql, backend="enumerable").fetchall()  # the reference runs it
    with pytest.raises(cb.UnsupportedError, match="spark backend cannot run") as caught:
        env.sql(sql, backend="spark").fetchall()
    assert construct in str(caught.value)


# --- the cases checked against MariaDB (fixtures/dyncol_cases.sql) ---------------------------

MARIADB_CASES = [case.sql for case in load_cases("dyncol_cases.sql", one_per_line=True)]

# Spark has no TIME: a COLUMN_GET ... AS TIME is refused, naming the type.
REFUSED = {e for e in MARIADB_CASES if e.startswith("COLUMN_GET(") and e.endswith("AS TIME)")}


def _run(env: cb.Environment, sql: str, backend: str) -> pa.Table | cb.Error:
    try:
        return env.sql(sql, backend=backend).to_arrow_table()
    except cb.Error as e:
        return e


@pytest.mark.parametrize("expr", MARIADB_CASES)
def test_the_mariadb_cases_as_on_calcites_engine(env: cb.Environment, expr: str) -> None:
    """Each case gives Calcite's engine's answer on Spark (blobs byte for byte, so still
    MariaDB's), or its error with the same message, or is refused naming the construct."""
    sql = f"SELECT {expr} AS v"
    reference = _run(env, sql, "enumerable")
    got = _run(env, sql, "spark")
    if expr in REFUSED:
        assert isinstance(got, cb.UnsupportedError), got
        assert "TIME" in str(got)
        return
    if isinstance(reference, cb.Error):
        assert isinstance(got, cb.Error), f"Spark returns {got}, Calcite's engine fails"
        assert type(got) is type(reference)
        # the codec's message, after "The query failed while it ran[ on Spark]: "
        assert str(got).split(": ", 1)[1] == str(reference).split(": ", 1)[1]
        return
    assert isinstance(got, pa.Table), f"Spark fails with {got!r}"
    assert got.schema == reference.schema
    assert got.to_pylist() == reference.to_pylist()
    if pa.types.is_binary(got.schema.field(0).type):
        hexes = [None if v is None else v.hex() for v in got.column(0).to_pylist()]
        assert hexes == [None if v is None else v.hex() for v in reference.column(0).to_pylist()]


def test_the_mariadb_cases_run_mostly_on_spark() -> None:
    assert len(MARIADB_CASES) >= 136
    assert len(REFUSED) == 2


def test_pairs_past_spark_udf_arity(env: cb.Environment) -> None:
    """Spark's Java UDFs take at most 22 arguments; the pairs travel in one STRUCT, so 30
    pairs (60 arguments) run, and so does a COLUMN_DELETE of 25 keys."""
    pairs = ", ".join(f"'c{i}', id + {i}" for i in range(30))
    keys = ", ".join(f"'c{i}'" for i in range(25))
    sql = (
        f"SELECT id, COLUMN_CREATE({pairs}) AS c,"
        f" COLUMN_LIST(COLUMN_DELETE(COLUMN_CREATE({pairs}), {keys})) AS l FROM t ORDER BY id"
    )
    got = env.sql(sql, backend="spark").fetchall()
    assert got == env.sql(sql, backend="enumerable").fetchall()
    assert got[0][2] == "`c25`,`c26`,`c27`,`c28`,`c29`"


def test_planted_blobs(env: cb.Environment) -> None:
    sql = (
        "SELECT COLUMN_GET(COLUMN_ADD(b, 'x', id * 10 AS CHAR), 'x' AS CHAR),"
        " COLUMN_EXISTS(COLUMN_DELETE(b, 'x'), 'x'), COLUMN_JSON(COLUMN_CREATE('k', k, 'n', NULL))"
        " FROM t ORDER BY id"
    )
    rows = env.sql(sql, backend="spark").fetchall()
    # a NULL blob stays NULL; a NULL value is no column
    assert rows == [
        ("10", 0, '{"k":"x"}'),
        ("20", 0, '{"k":"s"}'),
        (None, None, '{"k":"i"}'),
        ("40", 0, "{}"),
    ]
    assert rows == env.sql(sql, backend="enumerable").fetchall()


# --- discovery: undeclared columns of a Parquet table ---------------------------------------


@pytest.fixture(scope="module")
def discovered(env: cb.Environment, tmp_path_factory: pytest.TempPathFactory) -> cb.Environment:
    """``events``, a Parquet table that declares only ``id``: ``tag``, ``attrs`` (blobs) and
    ``info`` (a struct) are discovered from the file."""
    folder = tmp_path_factory.mktemp("events")
    blobs = env.sql(
        "SELECT * FROM (VALUES (1, COLUMN_CREATE('n', 10, 'name', 'x')),"
        " (2, CAST(NULL AS VARBINARY)), (3, COLUMN_CREATE('n', '7z')), (4, COLUMN_CREATE('m', 1)))"
        " AS v(i, b)",
        backend="enumerable",
    ).to_arrow_table()
    pq.write_table(
        pa.table(
            {
                "id": pa.array([1, 2, 3, 4], pa.int64()),
                "tag": pa.array(["a", None, "a", "b"]),
                "attrs": blobs.column(1).cast(pa.binary()),
                "info": pa.array(
                    [{"k": 1}, None, {"k": 3}, {"k": None}], pa.struct([("k", pa.int32())])
                ),
            }
        ),
        folder / "part-0.parquet",
    )
    env.execute(
        f"CREATE TABLE events (id BIGINT, ...)"
        f" WITH ('connector' = 'filesystem', 'path' = '{folder}', 'format' = 'parquet')"
    )
    return env


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT id, tag FROM events ORDER BY id",
        "SELECT id, COLUMN_GET(attrs, 'n' AS INT) AS n, info.k AS k FROM events"
        " WHERE tag = 'a' AND info.k > 0 ORDER BY id",
        "SELECT tag, COUNT(*) AS c FROM events GROUP BY tag ORDER BY tag NULLS FIRST",
        "SELECT id, attrs, COLUMN_ADD(attrs, 'tag', tag) AS more FROM events WHERE info.k IS NULL"
        " ORDER BY id",
    ],
)
def test_discovered_columns_as_on_calcites_engine(discovered: cb.Environment, sql: str) -> None:
    reference = discovered.sql(sql, backend="enumerable").to_arrow_table()
    assert reference.num_rows > 0
    got = discovered.sql(sql, backend="spark").to_arrow_table()
    assert got.schema == reference.schema
    assert got.to_pylist() == reference.to_pylist()


def test_discovered_columns_are_read_by_sparks_parquet_reader(discovered: cb.Environment) -> None:
    sql = (
        "SELECT id, COLUMN_GET(attrs, 'n' AS INT) AS n FROM events"
        " WHERE tag = 'a' AND info.k > 0 ORDER BY id"
    )
    plan = discovered.explain(sql, backend="spark")
    assert "Scan parquet" in plan, plan
    assert "EqualTo(tag,a)" in plan and "GreaterThan(info.k,0)" in plan, plan
    assert "attrs:binary" in plan, plan
    assert discovered.sql(sql, backend="spark").fetchall() == [(1, 10), (3, 7)]


def test_metadata_column_declared_before_discovered_ones(
    env: cb.Environment, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A file metadata column comes before the discovered columns in the scan: Spark's own
    Parquet reader still reads each value into its column, the filters pushed."""
    folder = tmp_path_factory.mktemp("tagged")
    pq.write_table(
        pa.table(
            {
                "id": pa.array([1, 2, 3], pa.int64()),
                "score": pa.array([7, None, 2], pa.int32()),
                "tag": pa.array(["a", "b", None]),
            }
        ),
        folder / "part-0.parquet",
    )
    env.execute(
        "CREATE TABLE tagged (id BIGINT, file STRING METADATA FROM 'file.name' VIRTUAL, ...)"
        f" WITH ('connector' = 'filesystem', 'path' = '{folder}', 'format' = 'parquet')"
    )
    sql = "SELECT id, file, score, tag FROM tagged WHERE score > 1 ORDER BY id"
    plan = env.explain(sql, backend="spark")
    assert "Scan parquet" in plan and "GreaterThan(score,1)" in plan, plan
    got = env.sql(sql, backend="spark").to_arrow_table()
    reference = env.sql(sql, backend="enumerable").to_arrow_table()
    assert (
        got.to_pylist()
        == reference.to_pylist()
        == [
            {"id": 1, "file": "part-0.parquet", "score": 7, "tag": "a"},
            {"id": 3, "file": "part-0.parquet", "score": 2, "tag": None},
        ]
    )
    assert got.schema == reference.schema
