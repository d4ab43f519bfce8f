"""A CSV or JSON file's TIME, TIMESTAMP or TIMESTAMP_LTZ with more digits of a second than the
column's type keeps (up to 9) reads as Flink 2.3's csv and json formats read it, on every
backend: the digits past the type's cut off, never rounded (``23:59:59.9999`` into a TIME(3) is
``23:59:59.999``). Our readers refused such a value ("invalid value"). Flink's own answers, over
the same values, are tests/flink/scripts/text_fractions.sql's golden, which
tests/test_flink_scripts.py checks on the default backend; here each backend reads the files."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import calcite_bridge as cb

BACKENDS = ("enumerable", "duckdb", "spark", "auto")

# Fraction digits 0, 1, 5, 9, 4 (cut below a carry: no rounding), 4 (cut where rounding would
# go up), and a NULL.
TIMES = ["01:02:03", "01:02:03.1", "01:02:03.12345", "01:02:03.123456789", "23:59:59.9999"]
TIMES += ["01:02:03.4567"]


def _t(h: int, m: int, s: int, micros: int = 0) -> dt.time:
    return dt.time(h, m, s, micros)


# TIME(3), TIME(2) (Flink's csv format cuts it to 2 digits) and TIME(0) values of TIMES.
TIME3 = [_t(1, 2, 3), _t(1, 2, 3, 100000), _t(1, 2, 3, 123000), _t(1, 2, 3, 123000)]
TIME3 += [_t(23, 59, 59, 999000), _t(1, 2, 3, 456000), None]
TIME2 = [_t(1, 2, 3), _t(1, 2, 3, 100000), _t(1, 2, 3, 120000), _t(1, 2, 3, 120000)]
TIME2 += [_t(23, 59, 59, 990000), _t(1, 2, 3, 450000), None]
TIME0 = [_t(1, 2, 3)] * 4 + [_t(23, 59, 59), _t(1, 2, 3), None]


def _ts(t: dt.time | None, tz: dt.tzinfo | None = None) -> dt.datetime | None:
    return None if t is None else dt.datetime.combine(dt.date(2024, 1, 2), t, tzinfo=tz)


def _micros(t: str) -> dt.time:
    whole, _, fraction = t.partition(".")
    h, m, s = (int(x) for x in whole.split(":"))
    return _t(h, m, s, int((fraction + "000000")[:6]))


STAMP0 = [_ts(t) for t in TIME0]
STAMP3 = [_ts(t) for t in TIME3]
STAMP6 = [_ts(_micros(t)) for t in TIMES] + [None]


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[cb.Environment]:
    """Tables over files as Flink's formats write them: a CSV file without a header, JSON
    lines; the same values in each column, cut to each column's type."""
    root = tmp_path_factory.mktemp("text_fractions")
    csv_lines = [f"{i},{v},{v},{v},{v}" for i, v in enumerate(TIMES)] + [f"{len(TIMES)},,,,"]
    files = {
        "ct/part-0.csv": csv_lines,
        "jt/part-0.json": [
            json.dumps({"i": i, "a": v, "b": v, "c": v, "d": v}) for i, v in enumerate(TIMES)
        ]
        + [json.dumps({"i": len(TIMES), "a": None})],
        "cts/part-0.csv": ["i,a,b,c,e"]  # a header: DuckDB's reader reads such a file
        + [
            f"{i},2024-01-02 {v},2024-01-02 {v},2024-01-02 {v},2024-01-02 {v}Z"
            for i, v in enumerate(TIMES)
        ]
        + [f"{len(TIMES)},,,,"],
        "jts/part-0.json": [
            json.dumps({"i": i, "a": f"2024-01-02 {v}", "b": f"2024-01-02 {v}",
                        "c": f"2024-01-02 {v}", "e": f"2024-01-02 {v}Z"})
            for i, v in enumerate(TIMES)
        ]
        + [json.dumps({"i": len(TIMES)})],
    }  # fmt: skip
    for name, lines in files.items():
        path = root / name
        path.parent.mkdir()
        path.write_text("\n".join(lines) + "\n")
    with cb.connect() as e:
        for name, fmt in (("ct", "csv"), ("jt", "json")):
            e.execute(
                f"CREATE TABLE {name} (i INT, a TIME(0), b TIME(3), c TIME(6), d TIME(2)) "
                f"WITH ('connector' = 'filesystem', 'path' = '{root / name}', 'format' = '{fmt}')"
            )
        for name, fmt in (("cts", "csv"), ("jts", "json")):
            e.execute(
                f"CREATE TABLE {name} (i INT, a TIMESTAMP(0), b TIMESTAMP(3), c TIMESTAMP(6), "
                f"e TIMESTAMP_LTZ(3)) "
                f"WITH ('connector' = 'filesystem', 'path' = '{root / name}', 'format' = '{fmt}')"
            )
        yield e


def _backend(backend: str) -> None:
    if backend == "spark":
        pytest.importorskip("pyspark", reason="the spark extra: pip install '.[spark]'")


def _column(rows: list[tuple[object, ...]], i: int) -> list[object]:
    return [r[i] for r in rows]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_csv_time_is_cut_to_its_precision(env: cb.Environment, backend: str) -> None:
    # PyFlink 2.3: TIME(0) and TIME(2) cut to their digits, TIME(3) and TIME(6) (a TIME(3)) to
    # milliseconds. DuckDB reads a TIME column it only returns; Spark has no TIME of Flink's: it
    # refuses the column, and auto runs the query on Calcite's engine.
    _backend(backend)
    sql = "SELECT i, a, b, c, d FROM ct ORDER BY i"
    if backend == "spark":
        with pytest.raises(cb.UnsupportedError, match="a column of type TIME"):
            env.sql(sql, backend=backend).fetchall()
        # Its other columns read as they are.
        assert env.sql("SELECT i FROM ct ORDER BY i", backend=backend).fetchall() == [
            (i,) for i in range(len(TIMES) + 1)
        ]
        return
    rows = env.sql(sql, backend=backend).fetchall()
    assert _column(rows, 0) == list(range(len(TIMES) + 1))
    assert _column(rows, 1) == TIME0
    assert _column(rows, 2) == TIME3
    assert _column(rows, 3) == TIME3
    assert _column(rows, 4) == TIME2
    texts = env.sql("SELECT CAST(b AS STRING), CAST(a AS STRING) FROM ct ORDER BY i").fetchall()
    assert texts[4] == ("23:59:59.999", "23:59:59")
    assert texts[-1] == (None, None)


@pytest.mark.parametrize("backend", ["enumerable", "auto"])
def test_a_json_time_keeps_milliseconds_whatever_its_precision(
    env: cb.Environment, backend: str
) -> None:
    # PyFlink 2.3: its json format cuts every TIME to milliseconds, a TIME(0) and a TIME(2)
    # too: their CAST to STRING shows the type's digits, a comparison the milliseconds.
    rows = env.sql("SELECT a, b, c, d FROM jt ORDER BY i", backend=backend).fetchall()
    for i in range(4):
        assert _column(rows, i) == TIME3
    texts = env.sql(
        "SELECT CAST(a AS STRING), CAST(d AS STRING), a = TIME '01:02:03' FROM jt WHERE i = 1",
        backend=backend,
    ).fetchall()
    assert texts == [("01:02:03", "01:02:03.1", False)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("table", ["cts", "jts"])
def test_a_timestamp_is_cut_to_its_precision(env: cb.Environment, backend: str, table: str) -> None:
    # PyFlink 2.3 (as its CAST to STRING shows): TIMESTAMP(p) and TIMESTAMP_LTZ(p) cut to p
    # digits. DuckDB's own CSV reader reads the TIMESTAMP(3) and (6) columns.
    _backend(backend)
    rows = env.sql(f"SELECT i, a, b, c, e FROM {table} ORDER BY i", backend=backend).fetchall()
    assert _column(rows, 0) == list(range(len(TIMES) + 1))
    assert _column(rows, 1) == STAMP0
    assert _column(rows, 2) == STAMP3
    assert _column(rows, 3) == STAMP6
    assert _column(rows, 4) == [_ts(t, dt.timezone.utc) for t in TIME3]
    # The TIMESTAMP(3) and (6) columns alone: DuckDB's CSV reader reads them.
    rows = env.sql(f"SELECT b, c FROM {table} ORDER BY i", backend=backend).fetchall()
    assert rows == list(zip(STAMP3, STAMP6, strict=True))
    # A filter on the cut value, pushed into the readers.
    found = env.sql(
        f"SELECT i FROM {table} WHERE b = TIMESTAMP '2024-01-02 23:59:59.999'", backend=backend
    ).fetchall()
    assert found == [(4,)]


@pytest.mark.parametrize(
    ("fmt", "value", "message"),
    [
        ("csv", "01:02:03.1234567891", "'01:02:03.1234567891' in column t .* as a TIME"),
        ("csv", "1:02:03", "'1:02:03' in column t .* as a TIME"),
        ("csv", "24:00:00", "'24:00:00' in column t .* as a TIME"),
        ("json", '"01:02"', "'01:02' in column t .* as a TIME"),
        ("json", '"01:02:03.1234567891"', "'01:02:03.1234567891' in column t .* as a TIME"),
    ],
)
def test_a_time_that_is_none_is_refused(
    env: cb.Environment, tmp_path: Path, fmt: str, value: str, message: str
) -> None:
    # Flink's csv format reads a TIME by LocalTime.parse (HH:mm, HH:mm:ss, a fraction of 9
    # digits at most), its json format HH:mm:ss with a fraction.
    line = f"1,{value}" if fmt == "csv" else f'{{"i": 1, "t": {value}}}'
    (tmp_path / f"part-0.{fmt}").write_text(line + "\n")
    name = f"bad_{fmt}_{abs(hash(value))}"
    env.execute(
        f"CREATE TABLE {name} (i INT, t TIME(3)) "
        f"WITH ('connector' = 'filesystem', 'path' = '{tmp_path}', 'format' = '{fmt}')"
    )
    with pytest.raises(cb.SourceError, match=message):
        env.sql(f"SELECT i, t FROM {name}").fetchall()
