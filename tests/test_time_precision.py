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


TIMES = Path(__file__).parent / "fixtures" / "time_text"


@pytest.mark.parametrize("backend", ["enumerable", "auto"])
def test_a_time_cast_to_a_string_keeps_its_fraction_as_flink_writes_it(
    env: cb.Environment, backend: str
) -> None:
    # PyFlink 2.3, the same file: the fraction without its trailing zeros, one digit at least,
    # for a TIME(p > 0); none for a TIME(0). Calcite's cast dropped the fraction.
    for p in (0, 3):
        env.execute(
            f"CREATE TEMPORARY TABLE IF NOT EXISTS times{p} (x TIME({p})) "
            f"WITH ('connector' = 'filesystem', 'path' = '{TIMES}', 'format' = 'csv')"
        )
    assert env.sql("SELECT CAST(x AS STRING) AS s FROM times3", backend=backend).fetchall() == [
        ("01:02:03.456",),
        ("01:02:03.45",),
        ("01:02:03.4",),
        ("01:02:03.0",),
        ("23:59:59.999",),
    ]
    assert env.sql("SELECT CAST(x AS STRING) AS s FROM times0", backend=backend).fetchall() == [
        ("01:02:03",),
        ("01:02:03",),
        ("01:02:03",),
        ("01:02:03",),
        ("23:59:59",),
    ]
    constants = (
        "SELECT CAST(TIME '01:02:03.456' AS STRING) AS a, CAST(TIME '01:02:03.45' AS STRING) "
        "AS b, CAST(TIME '01:02:03.4' AS STRING) AS c, CAST(TIME '01:02:03' AS STRING) AS d, "
        "CAST(CAST('01:02:03.450' AS TIME(3)) AS STRING) AS e, "
        "CAST(CAST(NULL AS TIME(3)) AS STRING) AS f"
    )
    assert env.sql(constants, backend=backend).fetchall() == [
        ("01:02:03.456", "01:02:03.45", "01:02:03.4", "01:02:03", "01:02:03.45", None)
    ]


@pytest.mark.parametrize("backend", ["enumerable", "auto"])
def test_a_time_in_a_row_or_an_array_cast_to_a_string_keeps_its_fraction(
    env: cb.Environment, backend: str
) -> None:
    # PyFlink 2.3's answers.
    cases = {
        "SELECT CAST(ROW(TIME '01:02:03.45', 1) AS STRING) AS s": "(01:02:03.45, 1)",
        "SELECT CAST(ARRAY[TIME '01:02:03.45', TIME '01:02:03.40'] AS STRING) AS s": (
            "[01:02:03.45, 01:02:03.4]"
        ),
        "SELECT CAST(ROW(TIME '01:02:03', CAST('04:05:06.000' AS TIME(3))) AS STRING) AS s": (
            "(01:02:03, 04:05:06.0)"
        ),
    }
    for sql, text in cases.items():
        assert env.sql(sql, backend=backend).fetchall() == [(text,)], sql
