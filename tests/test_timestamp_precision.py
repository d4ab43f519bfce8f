"""TIMESTAMP(p) and TIMESTAMP_LTZ(p) with p > 3 on Calcite's engine: their microseconds (p 4 to
6) and nanoseconds (p 7 to 9) survive every operator, where the engine held milliseconds only.
Expected values are computed here in Python; the differential suite (fixtures/backend_cases.sql,
``fine_timestamp_*``) checks the same shapes against DuckDB."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest

import calcite_bridge as cb

US = [dt.datetime(2024, 1, 1, 0, 0, 0, 123999), dt.datetime(2024, 1, 1, 0, 0, 0, 123456), None]
NS = 1704067200123456789  # 2024-01-01 00:00:00.123456789


@pytest.fixture
def fine(env: cb.Environment) -> cb.Environment:
    env.register_arrow(
        "t",
        pa.table(
            {
                "k": pa.array([1, 2, 3], pa.int32()),
                "ts": pa.array(US, pa.timestamp("us")),
                "ns": pa.array([NS, NS + 1, None], pa.timestamp("ns")),
                # An instant, as pandas makes a zone-aware column: a TIMESTAMP_LTZ(6).
                "ltz": pa.array(US, pa.timestamp("us", tz="UTC")),
            }
        ),
    )
    return env


def _column(env: cb.Environment, sql: str) -> list[object]:
    table = env.sql(sql, backend="enumerable").to_arrow_table()
    return [str(v) if v is not None else None for v in table.column(0).to_pylist()]


CASES = [
    ("SELECT COUNT(DISTINCT ts) FROM t", ["2"]),
    ("SELECT COUNT(DISTINCT ns) FROM t", ["2"]),
    (
        "SELECT CAST(ts AS STRING) FROM t ORDER BY k",
        ["2024-01-01 00:00:00.123999", "2024-01-01 00:00:00.123456", None],
    ),
    (
        "SELECT CAST(ns AS STRING) FROM t ORDER BY k",
        ["2024-01-01 00:00:00.123456789", "2024-01-01 00:00:00.123456790", None],
    ),
    ("SELECT EXTRACT(MICROSECOND FROM ts) FROM t ORDER BY k", ["123999", "123456", None]),
    ("SELECT EXTRACT(NANOSECOND FROM ns) FROM t ORDER BY k", ["123456789", "123456790", None]),
    ("SELECT EXTRACT(MILLISECOND FROM ts) FROM t ORDER BY k", ["123", "123", None]),
    (
        "SELECT DATE_FORMAT(ts, 'HH:mm:ss.SSSSSS') FROM t ORDER BY k",
        ["00:00:00.123999", "00:00:00.123456", None],
    ),
    (
        "SELECT CAST(ts + INTERVAL '1' SECOND AS STRING) FROM t ORDER BY k",
        ["2024-01-01 00:00:01.123999", "2024-01-01 00:00:01.123456", None],
    ),
    (
        "SELECT CAST(ts + INTERVAL '1' MONTH AS STRING) FROM t ORDER BY k",
        ["2024-02-01 00:00:00.123999", "2024-02-01 00:00:00.123456", None],
    ),
    (
        "SELECT CAST(FLOOR(ts TO SECOND) AS STRING) FROM t ORDER BY k",
        ["2024-01-01 00:00:00.000000", "2024-01-01 00:00:00.000000", None],
    ),
    (
        "SELECT CAST(CEIL(ts TO SECOND) AS STRING) FROM t ORDER BY k",
        ["2024-01-01 00:00:01.000000", "2024-01-01 00:00:01.000000", None],
    ),
    (
        "SELECT CAST(CAST(ts AS TIMESTAMP(4)) AS STRING) FROM t ORDER BY k",
        ["2024-01-01 00:00:00.1239", "2024-01-01 00:00:00.1234", None],
    ),
    (
        "SELECT CAST(CAST(ts AS TIMESTAMP(3)) AS STRING) FROM t ORDER BY k",
        ["2024-01-01 00:00:00.123", "2024-01-01 00:00:00.123", None],
    ),
    (
        "SELECT CAST(CAST(ns AS TIMESTAMP(6)) AS STRING) FROM t ORDER BY k",
        ["2024-01-01 00:00:00.123456", "2024-01-01 00:00:00.123456", None],
    ),
    (
        "SELECT CAST(CAST(CAST(ts AS STRING) AS TIMESTAMP(6)) AS STRING) FROM t ORDER BY k",
        ["2024-01-01 00:00:00.123999", "2024-01-01 00:00:00.123456", None],
    ),
    (
        "SELECT CAST(ROW(ts) AS STRING) FROM t ORDER BY k",
        ["(2024-01-01 00:00:00.123999)", "(2024-01-01 00:00:00.123456)", "(NULL)"],
    ),
    (
        "SELECT CAST(LAG(ts, 1, TIMESTAMP '2000-01-01 00:00:00.000001') OVER (ORDER BY k)"
        " AS STRING) FROM t ORDER BY k",
        ["2000-01-01 00:00:00.000001", "2024-01-01 00:00:00.123999", "2024-01-01 00:00:00.123456"],
    ),
    ("SELECT k FROM t WHERE ts = CAST('2024-01-01 00:00:00.123456' AS TIMESTAMP(6))", ["2"]),
    (
        "SELECT CAST(GREATEST(ts, TIMESTAMP '2024-01-01 00:00:00.1235') AS STRING)"
        " FROM t ORDER BY k",
        ["2024-01-01 00:00:00.123999", "2024-01-01 00:00:00.123500", None],
    ),
    ("SELECT k FROM t WHERE ns > TIMESTAMP '2024-01-01 00:00:00.123456789'", ["2"]),
    ("SELECT COUNT(DISTINCT ltz) FROM t", ["2"]),
    ("SELECT COUNT(*) FROM t a JOIN t b ON a.ltz = b.ltz", ["2"]),
    ("SELECT k FROM t ORDER BY ltz NULLS LAST", ["2", "1", "3"]),
    # The session zone is America/New_York (the fixture below), five hours behind UTC in January.
    (
        "SELECT CAST(ltz AS STRING) FROM t ORDER BY k",
        ["2023-12-31 19:00:00.123999", "2023-12-31 19:00:00.123456", None],
    ),
    (
        "SELECT CAST(CAST(ltz AS TIMESTAMP(6)) AS STRING) FROM t ORDER BY k",
        ["2023-12-31 19:00:00.123999", "2023-12-31 19:00:00.123456", None],
    ),
    (
        "SELECT CAST(MAX(ltz) + INTERVAL '1' HOUR AS STRING) FROM t",
        ["2023-12-31 20:00:00.123999"],
    ),
    ("SELECT EXTRACT(MICROSECOND FROM ltz) FROM t ORDER BY k", ["123999", "123456", None]),
    (
        "SELECT DATE_FORMAT(ltz, 'HH:mm:ss.SSSSSS') FROM t ORDER BY k",
        ["19:00:00.123999", "19:00:00.123456", None],
    ),
    (
        "SELECT k FROM t WHERE ltz = CAST('2023-12-31 19:00:00.123456' AS TIMESTAMP_LTZ(6))",
        ["2"],
    ),
]


@pytest.mark.parametrize(("sql", "expected"), CASES, ids=[c[0] for c in CASES])
def test_calcites_engine_keeps_the_digits(
    fine: cb.Environment, sql: str, expected: list[object]
) -> None:
    fine.config.set("table.local-time-zone", "America/New_York")
    assert _column(fine, sql) == expected


def test_a_zoned_column_comes_back_with_its_microseconds(fine: cb.Environment) -> None:
    rows = fine.sql("SELECT ltz FROM t ORDER BY k", backend="enumerable").to_arrow_table()
    assert rows.schema.field("ltz").type == pa.timestamp("us", tz="UTC")
    assert rows.column("ltz").to_pylist()[:2] == [
        v.replace(tzinfo=dt.timezone.utc) for v in US[:2] if v is not None
    ]


def test_an_insert_keeps_the_microseconds(env: cb.Environment) -> None:
    env.execute("CREATE TABLE m (id INT, ts TIMESTAMP(6)) WITH ('connector' = 'memory')")
    env.execute(
        "INSERT INTO m VALUES (1, TIMESTAMP '2024-01-01 00:00:00.123456'), "
        "(2, CAST('2024-01-01 00:00:00.654321' AS TIMESTAMP(6))), (3, NULL)"
    )
    rows = env.sql("SELECT id, ts FROM m ORDER BY id", backend="enumerable").to_arrow_table()
    assert rows.column("ts").to_pylist() == [
        dt.datetime(2024, 1, 1, 0, 0, 0, 123456),
        dt.datetime(2024, 1, 1, 0, 0, 0, 654321),
        None,
    ]
    later = env.sql(
        "SELECT id FROM m WHERE ts > TIMESTAMP '2024-01-01 00:00:00.123457'", backend="enumerable"
    )
    assert later.to_arrow_table().column("id").to_pylist() == [2]


def test_an_insert_keeps_the_microseconds_of_an_instant(env: cb.Environment) -> None:
    env.execute("CREATE TABLE m (id INT, ts TIMESTAMP_LTZ(6)) WITH ('connector' = 'memory')")
    env.execute(
        "INSERT INTO m VALUES"
        " (1, CAST(TIMESTAMP '2024-01-01 00:00:00.123456' AS TIMESTAMP_LTZ(6))),"
        " (2, CAST('2024-01-01 00:00:00.654321' AS TIMESTAMP_LTZ(6))), (3, NULL)"
    )
    rows = env.sql("SELECT id, ts FROM m ORDER BY id", backend="enumerable").to_arrow_table()
    utc = dt.timezone.utc
    assert rows.column("ts").to_pylist() == [
        dt.datetime(2024, 1, 1, 0, 0, 0, 123456, tzinfo=utc),
        dt.datetime(2024, 1, 1, 0, 0, 0, 654321, tzinfo=utc),
        None,
    ]
