"""TIMESTAMP_LTZ in the session time zone beyond the golden cases of tests/flink/: the zone of a
result's Arrow column, a cached plan run in another zone, filters, and instants read from Arrow
data. The expected instants are computed with Python's zoneinfo, the oracle here."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from zoneinfo import ZoneInfo

import pyarrow as pa
import pytest

import calcite_bridge as cb

UTC = datetime.UTC
NY = ZoneInfo("America/New_York")


@pytest.fixture
def env() -> Iterator[cb.Environment]:
    e = cb.connect()
    yield e
    e.close()


def _instant(wall: str, zone: ZoneInfo) -> datetime.datetime:
    return datetime.datetime.fromisoformat(wall).replace(tzinfo=zone)


def test_result_column_is_an_arrow_timestamp_in_the_session_zone(env: cb.Environment) -> None:
    env.config.set("table.local-time-zone", "America/New_York")
    table = env.sql("SELECT CAST('2023-11-14 22:13:20' AS TIMESTAMP_LTZ(3)) AS l").to_arrow_table()
    assert table.schema.field("l").type == pa.timestamp("ms", tz="America/New_York")
    value = table.column("l").to_pylist()[0]
    assert value == _instant("2023-11-14 22:13:20", NY)
    assert value.astimezone(UTC) == datetime.datetime(2023, 11, 15, 3, 13, 20, tzinfo=UTC)


def test_same_query_in_another_zone_reads_another_instant(env: cb.Environment) -> None:
    sql = (
        "SELECT CAST('2023-07-01 12:00:00' AS TIMESTAMP_LTZ(3)) AS l, "
        "EXTRACT(HOUR FROM TO_TIMESTAMP_LTZ(0, 0)) AS h"
    )
    got = {}
    for zone in ("UTC", "America/New_York", "Asia/Kolkata"):
        env.config.set("table.local-time-zone", zone)
        rows = env.sql(sql).to_arrow_table().to_pylist()  # a cached plan after the first
        got[zone] = (rows[0]["l"].astimezone(UTC), rows[0]["h"])
    for zone, (instant, hour) in got.items():
        z = ZoneInfo(zone)
        assert instant == _instant("2023-07-01 12:00:00", z).astimezone(UTC), zone
        assert hour == datetime.datetime.fromtimestamp(0, z).hour, zone


def test_time_zone_functions_in_a_filter(env: cb.Environment) -> None:
    env.config.set("table.local-time-zone", "America/New_York")
    rows = env.sql(
        "SELECT x FROM (VALUES (1), (2)) AS t(x) "
        "WHERE CAST('2023-11-14 22:13:20' AS TIMESTAMP_LTZ(3)) = TO_TIMESTAMP_LTZ(1700018000, 0) "
        "AND FROM_UNIXTIME(0) = '1969-12-31 19:00:00' AND x > 1"
    ).to_arrow_table()
    assert rows.column("x").to_pylist() == [2]


@pytest.mark.parametrize("backend", ["auto", "enumerable"])
def test_arrow_instants_are_read_in_the_session_zone(env: cb.Environment, backend: str) -> None:
    instants = [
        datetime.datetime(2023, 11, 15, 3, 13, 20, tzinfo=UTC),
        datetime.datetime(2023, 3, 12, 6, 59, 59, tzinfo=UTC),
        None,
    ]
    env.register_arrow("events", pa.table({"ts": pa.array(instants, pa.timestamp("ms", "UTC"))}))
    env.config.set("table.local-time-zone", "America/New_York")
    table = env.sql(
        "SELECT ts, EXTRACT(HOUR FROM ts) AS h, CAST(ts AS STRING) AS s, FLOOR(ts TO DAY) AS d "
        "FROM events",
        backend=backend,
    ).to_arrow_table()
    expected: list[dict[str, object]] = []
    for i in instants:
        if i is None:
            expected.append({"ts": None, "h": None, "s": None, "d": None})
            continue
        local = i.astimezone(NY)
        midnight = datetime.datetime(local.year, local.month, local.day, tzinfo=NY)
        expected.append(
            {
                "ts": local,
                "h": local.hour,
                "s": local.strftime("%Y-%m-%d %H:%M:%S.000"),
                "d": midnight,
            }
        )
    assert table.to_pylist() == expected
