"""The clock functions on each backend: ``NOW()``, ``CURRENT_TIMESTAMP``, ``LOCALTIMESTAMP``,
``CURRENT_DATE``, ``CURRENT_TIME``, ``LOCALTIME`` and ``UNIX_TIMESTAMP()`` are the statement's
start, once for every row, on the session zone's wall clock; ``CURRENT_ROW_TIMESTAMP()`` is the
clock when the row is computed (Flink's batch mode). The values differ from one run to the next:
each is checked against the clock read around the call, and against the others of its
statement. (The differential cases of fixtures/backend_cases.sql compare them across backends
within a statement.)"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator

import pyarrow as pa
import pytest

import calcite_bridge as cb

CLOCK = (
    "SELECT NOW() AS n, CURRENT_TIMESTAMP AS c, LOCALTIMESTAMP AS l, CURRENT_DATE AS d,"
    " CURRENT_TIME AS t, LOCALTIME AS lt, CURRENT_ROW_TIMESTAMP() AS r, UNIX_TIMESTAMP() AS u"
)
BACKENDS = ("enumerable", "duckdb")
UTC = dt.timezone.utc


@pytest.fixture(scope="module")
def env() -> Iterator[cb.Environment]:
    environment = cb.connect()
    environment.register_arrow("many", pa.table({"x": pa.array(range(1_000_000), pa.int64())}))
    yield environment
    environment.close()


@pytest.fixture(autouse=True)
def zone(env: cb.Environment) -> Iterator[None]:
    yield
    env.config.set("table.local-time-zone", "UTC")


def _millis(t: float) -> dt.datetime:
    """The instant ``t`` (seconds of ``time.time()``) cut to milliseconds, as the engines' clock."""
    return dt.datetime.fromtimestamp(int(t * 1000) / 1000, UTC)


def test_the_clock_runs_on_duckdb_with_the_types_of_calcites_engine(env: cb.Environment) -> None:
    env.config.set("table.local-time-zone", "Asia/Kolkata")
    assert env.explain(CLOCK).startswith("DuckDB("), env.explain(CLOCK)
    schemas = {b: env.sql(CLOCK, backend=b).schema for b in BACKENDS}
    assert schemas["duckdb"] == schemas["enumerable"]
    assert [str(f.type) for f in schemas["duckdb"]] == [
        "timestamp[ms, tz=Asia/Kolkata]",
        "timestamp[ms, tz=Asia/Kolkata]",
        "timestamp[ms]",
        "date32[day]",
        "time32[ms]",
        "time32[ms]",
        "timestamp[ms, tz=Asia/Kolkata]",
        "int64",
    ]
    assert all(not f.nullable for f in schemas["duckdb"])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("zone_id", "offset"),
    [("Asia/Kolkata", dt.timedelta(hours=5, minutes=30)), ("UTC", dt.timedelta(0))],
)
def test_the_statements_start_on_the_session_zones_wall_clock(
    env: cb.Environment, backend: str, zone_id: str, offset: dt.timedelta
) -> None:
    env.config.set("table.local-time-zone", zone_id)
    before = _millis(time.time())
    [row] = env.sql(CLOCK, backend=backend).to_pylist()
    after = _millis(time.time())
    now = row["n"]
    assert before <= now <= after
    assert row["c"] == now
    assert now.utcoffset() == offset
    # The wall-clock time of the instant in the session zone, to the millisecond.
    wall = now.astimezone(UTC).replace(tzinfo=None) + offset
    assert row["l"] == wall
    assert row["d"] == wall.date()
    # A TIME(0), as Flink's, that keeps the milliseconds.
    assert row["t"] == row["lt"] == wall.time()
    assert row["u"] == int(now.timestamp())
    assert now <= row["r"] <= after


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_zone_with_summer_time_reads_its_offset_of_the_day(
    env: cb.Environment, backend: str
) -> None:
    env.config.set("table.local-time-zone", "America/New_York")
    [row] = env.sql(CLOCK, backend=backend).to_pylist()
    offset = row["n"].utcoffset()
    assert offset in (dt.timedelta(hours=-5), dt.timedelta(hours=-4))
    assert row["l"] == row["n"].astimezone(UTC).replace(tzinfo=None) + offset


@pytest.mark.parametrize("backend", BACKENDS)
def test_statement_values_are_one_for_every_row_and_row_values_follow_the_clock(
    env: cb.Environment, backend: str
) -> None:
    sql = (
        "SELECT COUNT(DISTINCT NOW()) AS n, COUNT(DISTINCT LOCALTIME) AS t,"
        " MIN(CURRENT_ROW_TIMESTAMP()) AS first_row, MAX(CURRENT_ROW_TIMESTAMP()) AS last_row,"
        " MIN(NOW()) AS began, COUNT(*) AS n_rows FROM many"
    )
    assert env.explain(sql, backend=backend).startswith(
        "DuckDB(" if backend == "duckdb" else "Enumerable"
    )
    before = _millis(time.time())
    [row] = env.sql(sql, backend=backend).to_pylist()
    after = _millis(time.time())
    assert (row["n"], row["t"], row["n_rows"]) == (1, 1, 1_000_000)
    assert before <= row["began"] <= row["first_row"] <= row["last_row"] <= after
    # Computed as the rows are: the rows of a million are not all read in one millisecond.
    assert row["last_row"] > row["began"]


def test_a_precision_is_left_to_calcites_engine(env: cb.Environment) -> None:
    sql = "SELECT CURRENT_TIMESTAMP(0) AS a, LOCALTIME(0) AS b"
    assert env.explain(sql).startswith("Enumerable")
    with pytest.raises(cb.UnsupportedError, match="with a precision"):
        env.sql(sql, backend="duckdb")


def test_a_proctime_column_reads_the_statements_start_on_duckdb() -> None:
    env = cb.connect()
    try:
        env.execute("CREATE TABLE p (x INT, pt AS PROCTIME()) WITH ('connector' = 'memory')")
        env.execute("INSERT INTO p VALUES (1), (2), (CAST(NULL AS INT))")
        sql = "SELECT x, pt, pt = NOW() AS same FROM p"
        assert env.explain(sql).startswith("DuckDB(")
        for backend in BACKENDS:
            before = _millis(time.time())
            result = env.sql(sql, backend=backend)
            after = _millis(time.time())
            assert str(result.schema.field("pt").type) == "timestamp[ms, tz=UTC]"
            rows = result.to_pylist()
            assert [r["x"] for r in rows] == [1, 2, None]
            assert all(r["same"] for r in rows)
            assert len({r["pt"] for r in rows}) == 1
            assert before <= rows[0]["pt"] <= after
    finally:
        env.close()
