"""Flink's windowing over a table: the window table-valued functions TUMBLE, HOP and CUMULATE
(with and without an offset) and the legacy GROUP BY TUMBLE give DuckDB's answer to the same
windows written as arithmetic on epoch milliseconds, on every backend, and the legacy GROUP BY
HOP the table function's; a NULL time is in no window, a row on a window's edge starts the next
one. SESSION windows, table-valued or grouped, are validation errors that point at the call, as
in Flink's batch mode.

The answers of Flink itself, types included, are in tests/flink/cases/windows.sql.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator
from typing import Any

import duckdb
import pyarrow as pa
import pytest

import calcite_bridge as cb

MINUTE = 60_000
EPOCH = datetime.datetime(1970, 1, 1)
BACKENDS = ("auto", "enumerable", "duckdb")


def _data() -> pa.Table:
    rng = random.Random(16)
    base = int((datetime.datetime(2024, 3, 1) - EPOCH).total_seconds() * 1000)
    times: list[int | None] = []
    for i in range(400):
        if i % 37 == 0:
            times.append(None)
        elif i % 11 == 0:
            times.append(base + rng.randrange(0, 48 * 60) * MINUTE)  # on a minute edge
        else:
            times.append(base + rng.randrange(0, 48 * 60 * MINUTE))
    xs = [None if i % 13 == 0 else rng.randrange(-50, 100) for i in range(400)]
    return pa.table(
        {
            "ts": pa.array(times, type=pa.timestamp("ms")),
            "x": pa.array(xs, type=pa.int32()),
        }
    )


DATA = _data()


@pytest.fixture(scope="module")
def env() -> Iterator[cb.Environment]:
    e = cb.connect()
    e.config.set("table.local-time-zone", "UTC")
    e.register_arrow("ev", DATA)
    yield e
    e.close()


@pytest.fixture(scope="module")
def duck() -> Iterator[duckdb.DuckDBPyConnection]:
    con = duckdb.connect()
    con.register("ev_arrow", DATA)
    con.execute(
        "CREATE TABLE ev AS SELECT ts, x, epoch_ms(CAST(ts AS TIMESTAMP)) AS t FROM ev_arrow"
    )
    yield con
    con.close()


def _ms(value: Any) -> Any:
    if isinstance(value, datetime.datetime):
        return int((value - EPOCH).total_seconds() * 1000)
    return value


def _rows(env: cb.Environment, sql: str, backend: str) -> list[tuple[Any, ...]]:
    table = env.sql(sql, backend=backend).to_arrow_table()
    return sorted(tuple(_ms(v) for v in row.values()) for row in table.to_pylist())


def _oracle(duck: duckdb.DuckDBPyConnection, sql: str) -> list[tuple[Any, ...]]:
    return sorted(tuple(r) for r in duck.execute(sql).fetchall())


# DuckDB's windows: `start(t, off, size)` is Flink's TimeWindow.getWindowStartWithOffset.
def _start(t: str, off: int, size: int) -> str:
    return f"({t} - ((({t} - {off}) % {size}) + {size}) % {size})"


# (window TVF, DuckDB query of (window_start, window_end, window_time, COUNT(*), SUM(x)) in ms)
CASES = [
    (
        "TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' MINUTE)",
        f"SELECT s, s + {10 * MINUTE} AS e FROM (SELECT {_start('t', 0, 10 * MINUTE)} AS s, x "
        "FROM ev WHERE t IS NOT NULL)",
    ),
    (
        "TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '7' MINUTE)",
        f"SELECT s, s + {60 * MINUTE} AS e FROM (SELECT {_start('t', 7 * MINUTE, 60 * MINUTE)} "
        "AS s, x FROM ev WHERE t IS NOT NULL)",
    ),
    (
        "HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '5' MINUTE, INTERVAL '15' MINUTE)",
        f"SELECT s, s + {15 * MINUTE} AS e FROM (SELECT {_start('t', 0, 5 * MINUTE)} - k * "
        f"{5 * MINUTE} AS s, t, x FROM ev, range(0, 3) r(k) WHERE t IS NOT NULL) "
        f"WHERE s > t - {15 * MINUTE}",
    ),
    (
        "HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '20' MINUTE, INTERVAL '1' HOUR, "
        "INTERVAL '3' MINUTE)",
        f"SELECT s, s + {60 * MINUTE} AS e FROM (SELECT {_start('t', 3 * MINUTE, 20 * MINUTE)}"
        f" - k * {20 * MINUTE} AS s, t, x FROM ev, range(0, 3) r(k) WHERE t IS NOT NULL) "
        f"WHERE s > t - {60 * MINUTE}",
    ),
    (
        "CUMULATE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' MINUTE, INTERVAL '1' HOUR)",
        f"SELECT s, e FROM (SELECT {_start('t', 0, 60 * MINUTE)} AS s, "
        f"{_start('t', 0, 10 * MINUTE)} + {10 * MINUTE} + k * {10 * MINUTE} AS e, x "
        "FROM ev, range(0, 6) r(k) WHERE t IS NOT NULL) "
        f"WHERE e <= s + {60 * MINUTE}",
    ),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("tvf", "windows"), CASES, ids=[c[0].split("(")[0] + str(i) for i, c in enumerate(CASES)]
)
def test_window_aggregation_equals_duckdb(
    env: cb.Environment,
    duck: duckdb.DuckDBPyConnection,
    tvf: str,
    windows: str,
    backend: str,
) -> None:
    sql = (
        "SELECT window_start, window_end, window_time, COUNT(*), COUNT(x), SUM(x) "
        f"FROM TABLE({tvf}) GROUP BY window_start, window_end, window_time"
    )
    oracle = (
        "SELECT s, e, e - 1, COUNT(*), COUNT(x), SUM(x) "
        f"FROM ({windows.replace('SELECT s, ', 'SELECT x, s, ', 1)}) GROUP BY s, e"
    )
    try:
        got = _rows(env, sql, backend)
    except cb.UnsupportedError:
        assert backend == "duckdb"  # refused: `auto` runs it on Calcite's engine
        return
    assert got == _oracle(duck, oracle)


def test_rows_of_a_window_table_keep_their_columns(env: cb.Environment) -> None:
    rows = _rows(
        env, "SELECT * FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' MINUTE))", "auto"
    )
    expected = sorted(
        (
            t,
            x,
            t - t % (10 * MINUTE),
            t - t % (10 * MINUTE) + 10 * MINUTE,
            t - t % (10 * MINUTE) + 10 * MINUTE - 1,
        )
        for t, x in zip(
            (_ms(v) for v in DATA.column("ts").to_pylist()),
            DATA.column("x").to_pylist(),
            strict=True,
        )
        if t is not None
    )
    assert rows == expected
    columns = (
        env.sql("SELECT * FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' MINUTE))")
        .to_arrow_table()
        .column_names
    )
    assert columns == ["ts", "x", "window_start", "window_end", "window_time"]


@pytest.mark.parametrize("backend", ("auto", "enumerable"))
def test_legacy_group_window_equals_the_table_function(env: cb.Environment, backend: str) -> None:
    legacy = _rows(
        env,
        "SELECT TUMBLE_START(ts, INTERVAL '10' MINUTE), TUMBLE_END(ts, INTERVAL '10' MINUTE), "
        "SUM(x) FROM ev GROUP BY TUMBLE(ts, INTERVAL '10' MINUTE)",
        backend,
    )
    tvf = _rows(
        env,
        "SELECT window_start, window_end, SUM(x) FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), "
        "INTERVAL '10' MINUTE)) GROUP BY window_start, window_end",
        backend,
    )
    assert legacy == tvf
    assert all(r[0] is not None for r in legacy)  # a NULL time is in no window


@pytest.mark.parametrize("backend", ("auto", "enumerable"))
def test_legacy_hop_window_equals_the_table_function(env: cb.Environment, backend: str) -> None:
    hop = "ts, INTERVAL '5' MINUTE, INTERVAL '10' MINUTE"
    legacy = _rows(
        env,
        f"SELECT HOP_START({hop}), HOP_END({hop}), HOP_ROWTIME({hop}), SUM(x) FROM ev "
        f"GROUP BY HOP({hop})",
        backend,
    )
    tvf = _rows(
        env,
        "SELECT window_start, window_end, window_time, SUM(x) FROM TABLE(HOP(TABLE ev, "
        "DESCRIPTOR(ts), INTERVAL '5' MINUTE, INTERVAL '10' MINUTE)) "
        "GROUP BY window_start, window_end, window_time",
        backend,
    )
    assert legacy == tvf
    assert all(r[0] is not None for r in legacy)  # a NULL time is in no window


def test_window_top_n(env: cb.Environment, duck: duckdb.DuckDBPyConnection) -> None:
    got = _rows(
        env,
        "SELECT window_start, x FROM (SELECT window_start, x, ROW_NUMBER() OVER (PARTITION BY "
        "window_start, window_end ORDER BY x DESC NULLS LAST, ts) AS rn FROM TABLE(TUMBLE(TABLE "
        "ev, DESCRIPTOR(ts), INTERVAL '1' HOUR))) WHERE rn <= 2",
        "auto",
    )
    s = _start("t", 0, 60 * MINUTE)
    expected = _oracle(
        duck,
        f"SELECT s, x FROM (SELECT {s} AS s, x, ROW_NUMBER() OVER (PARTITION BY {s} "
        "ORDER BY x DESC NULLS LAST, t) AS rn FROM ev WHERE t IS NOT NULL) WHERE rn <= 2",
    )
    assert got == expected


@pytest.mark.parametrize(
    ("sql", "match", "column"),
    [
        (
            "SELECT * FROM TABLE(SESSION(TABLE ev, DESCRIPTOR(ts), INTERVAL '5' MINUTE))",
            "Unaligned windows like session are not supported in batch mode",
            21,
        ),
        (
            "SELECT * FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(x), INTERVAL '5' MINUTE))",
            "requires the timecol to be TIMESTAMP or TIMESTAMP_LTZ, but is INT",
            49,
        ),
        (
            "SELECT * FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '1' MONTH))",
            "must be an interval of days, hours, minutes or seconds",
            54,
        ),
        (
            "SELECT * FROM TABLE(HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '5' MINUTE))",
            r"HOP takes HOP\(TABLE table_name, DESCRIPTOR\(timecol\), slide, size",
            21,
        ),
        (
            "SELECT SESSION_START(ts, INTERVAL '5' MINUTE) FROM ev "
            "GROUP BY SESSION(ts, INTERVAL '5' MINUTE)",
            "Unaligned windows like session are not supported in batch mode",
            64,
        ),
    ],
)
def test_refused_windows_are_validation_errors(
    env: cb.Environment, sql: str, match: str, column: int
) -> None:
    with pytest.raises(cb.SqlValidationError, match=match) as raised:
        env.sql(sql).to_arrow_table()
    assert raised.value.column == column
