"""TIME keeps milliseconds at most, as in Flink 2.3: ``TIME(p)`` with ``p > 3`` in DDL, in a
``CAST`` and of a literal's digits is ``TIME(3)`` (Flink keeps Calcite's limit of 3; ours was
9, so ``CAST('01:02:03.456789' AS TIME(6))`` was typed ``TIME(6)`` while its value held
milliseconds)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pytest

import calcite_bridge as cb


@pytest.fixture(scope="module")
def env() -> Iterator[cb.Environment]:
    with cb.connect() as e:
        yield e


def test_a_cast_to_a_finer_time_is_time_3(env: cb.Environment) -> None:
    # PyFlink 2.3: TIME(3) NOT NULL for each, and TIME(2) kept.
    row = env.sql(
        "SELECT TYPEOF(CAST('01:02:03.456789' AS TIME(6))) AS a, "
        "TYPEOF(CAST('01:02:03' AS TIME(9))) AS b, TYPEOF(TIME '01:02:03.456789') AS c, "
        "TYPEOF(CAST('01:02:03' AS TIME(2))) AS d, TYPEOF(TIME '01:02:03') AS e"
    ).fetchall()
    assert row == [
        ("TIME(3) NOT NULL", "TIME(3) NOT NULL", "TIME(3) NOT NULL", "TIME(2) NOT NULL",
         "TIME(0) NOT NULL")
    ]  # fmt: skip
    result = env.sql("SELECT CAST('01:02:03.456789' AS TIME(6)) AS t", backend="enumerable")
    assert result.schema.field("t").type == pa.time32("ms")
    assert result.fetchall() == [(dt.time(1, 2, 3, 457000),)]


@pytest.mark.parametrize("p", [6, 9, 10])
def test_a_finer_time_column_is_time_3(env: cb.Environment, tmp_path: Path, p: int) -> None:
    # PyFlink 2.3: DESCRIBE gives TIME(3) for TIME(6), TIME(9) and TIME(10) alike.
    name = f"times{p}"
    env.execute(
        f"CREATE TABLE {name} (t TIME({p})) "
        f"WITH ('connector' = 'filesystem', 'path' = '{tmp_path}', 'format' = 'csv')"
    )
    assert env.execute(f"DESCRIBE {name}").fetchall()[0][:2] == ("t", "TIME(3)")
