"""A Result behaves as DuckDB's does: a cursor for the fetch methods, pandas and polars frames,
and an Arrow stream that the usual readers can read more than once. On both transports."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import calcite_bridge as cb

ROWS = "SELECT * FROM (VALUES (1, 'a'), (2, CAST(NULL AS STRING)), (3, 'c')) AS v(i, s) ORDER BY i"
EXPECTED = [(1, "a"), (2, None), (3, "c")]


@pytest.fixture
def typed(env: cb.Environment) -> cb.Environment:
    env.execute(
        "CREATE TABLE typed (i INT, d DECIMAL(10, 2), s STRING, b BOOLEAN, t TIMESTAMP(3), "
        "dt DATE) WITH ('connector' = 'memory')"
    )
    env.execute(
        "INSERT INTO typed VALUES (1, 1.50, 'x', TRUE, TIMESTAMP '2024-01-02 03:04:05.678', "
        "DATE '2024-01-02'), (2, NULL, NULL, NULL, NULL, NULL)"
    )
    return env


def test_fetchone_advances_and_ends_with_none(env: cb.Environment) -> None:
    res = env.sql(ROWS)
    assert [res.fetchone(), res.fetchone(), res.fetchone()] == EXPECTED
    assert res.fetchone() is None
    assert res.fetchall() == []


def test_fetchmany_and_fetchall_take_the_rows_left(env: cb.Environment) -> None:
    res = env.sql(ROWS)
    assert res.fetchmany() == EXPECTED[:1]  # arraysize, 1 by default as in PEP 249
    assert res.fetchmany(1) == EXPECTED[1:2]
    assert res.fetchmany(5) == EXPECTED[2:]
    assert res.fetchmany(5) == []
    again = env.sql(ROWS)
    assert again.fetchone() == EXPECTED[0]
    assert again.fetchall() == EXPECTED[1:]
    assert env.sql(ROWS).fetchall() == EXPECTED


def test_fetch_streams_without_reading_the_whole_result(env: cb.Environment) -> None:
    env.register_arrow("big", pa.table({"x": pa.array(range(300_000), pa.int64())}))
    res = env.sql("SELECT x FROM big")
    assert res.fetchone() == (0,)
    assert res.fetchmany(2) == [(1,), (2,)]
    # The stream is being read a batch at a time: it cannot be read as a whole any more.
    with pytest.raises(cb.ResultConsumedError, match="a fetch call"):
        res.to_arrow_table()
    assert len(res.fetchall()) == 300_000 - 3


def test_fetch_after_the_table_was_read_walks_the_kept_table(env: cb.Environment) -> None:
    res = env.sql(ROWS)
    table = res.to_arrow_table()
    assert res.fetchone() == EXPECTED[0]
    assert res.fetchall() == EXPECTED[1:]
    assert res.to_arrow_table() is table
    assert len(res) == 3


def test_a_stream_handed_out_cannot_be_read_again(env: cb.Environment) -> None:
    res = env.sql(ROWS)
    assert res.to_arrow_reader().read_all().num_rows == 3
    with pytest.raises(cb.ResultConsumedError) as info:
        res.to_arrow_table()
    assert isinstance(info.value, cb.Error)
    assert "to_arrow_reader()" in str(info.value)
    with pytest.raises(cb.ResultConsumedError):
        res.fetchone()


def test_to_pandas_keeps_types_and_nulls(typed: cb.Environment) -> None:
    df = typed.sql("SELECT * FROM typed ORDER BY i").to_pandas()
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == ["i", "d", "s", "b", "t", "dt"]
    assert df["i"].tolist() == [1, 2]
    assert df["d"].tolist()[0] == Decimal("1.50")
    assert df.iloc[1].isna().sum() == 5  # every column but i is NULL in row 2
    assert df["t"].iloc[0] == pd.Timestamp("2024-01-02 03:04:05.678")


def test_to_polars_keeps_types_and_nulls(typed: cb.Environment) -> None:
    df = typed.sql("SELECT * FROM typed ORDER BY i").to_polars()
    assert isinstance(df, pl.DataFrame)
    assert df.schema["i"] == pl.Int32
    assert df.schema["d"] == pl.Decimal(10, 2)
    assert df.row(0) == (
        1,
        Decimal("1.50"),
        "x",
        True,
        dt.datetime(2024, 1, 2, 3, 4, 5, 678000),
        dt.date(2024, 1, 2),
    )
    assert df.row(1) == (2, None, None, None, None, None)


def test_readers_of_the_arrow_stream_can_read_a_result_again(env: cb.Environment) -> None:
    res = env.sql(ROWS)
    first, second = pa.table(res), pa.table(res)
    assert first.equals(second) and first.num_rows == 3
    assert pl.DataFrame(res).rows() == EXPECTED
    assert pd.DataFrame.from_arrow(res)["i"].tolist() == [1, 2, 3]
    assert duckdb.sql("SELECT i, s FROM res ORDER BY i").fetchall() == EXPECTED
    assert duckdb.sql("SELECT COUNT(*) FROM res").fetchall() == [(3,)]
    assert res.fetchall() == EXPECTED  # the rows are still there for the cursor


def test_pl_from_arrow_gives_a_frame(env: cb.Environment) -> None:
    res = env.sql(ROWS)
    frame = pl.from_arrow(res.to_arrow_table())
    assert isinstance(frame, pl.DataFrame) and frame.rows() == EXPECTED
