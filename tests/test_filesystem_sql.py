"""The ``filesystem`` connector from SQL (DESIGN §8): Parquet, CSV and JSON lines, metadata
columns, and INSERT that adds one whole file or nothing."""

from __future__ import annotations

import datetime as dt
import json
import os
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import calcite_bridge as cb
from calcite_bridge.sources import FileSystemSource
from calcite_bridge.sources.filesystem import TMP_PREFIX

USER = pa.struct([("name", pa.string()), ("age", pa.int32())])
PEOPLE = [
    {"id": 1, "user": {"name": "ann", "age": 25}},
    {"id": 2, "user": {"name": "bob", "age": 40}},
    {"id": 3, "user": None},
    {"id": 4, "user": {"name": None, "age": None}},
    {"id": 5, "user": {"name": "dee", "age": 29}},
    {"id": 6, "user": {"name": "eve", "age": None}},
]
PEOPLE_TABLE = pa.Table.from_pylist(PEOPLE, schema=pa.schema([("id", pa.int64()), ("user", USER)]))
COLUMNS = "id BIGINT, `user` ROW<name STRING, age INT>"
METADATA = (
    "fname STRING METADATA FROM 'file.name' VIRTUAL, "
    "fpath STRING METADATA FROM 'file.path' VIRTUAL, "
    "fsize BIGINT METADATA FROM 'file.size' VIRTUAL, "
    "mtime TIMESTAMP_LTZ(3) METADATA FROM 'file.modification-time' VIRTUAL"
)


def ddl(name: str, path: Path, fmt: str, columns: str = COLUMNS) -> str:
    """The DDL of a table over ``path``; one that does not exist yet is made by the first INSERT."""
    create = "" if path.exists() else ", 'sink.create-path' = 'true'"
    return (
        f"CREATE TABLE {name} ({columns}) "
        f"WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = '{fmt}'{create})"
    )


# --- the path --------------------------------------------------------------------------------


def test_a_path_that_does_not_exist_fails_at_create(env: cb.Environment, tmp_path: Path) -> None:
    missing = tmp_path / "mistyped"
    sql = (
        "CREATE TABLE lost (a BIGINT) "
        f"WITH ('connector' = 'filesystem', 'path' = '{missing}', 'format' = 'csv')"
    )
    with pytest.raises(cb.ConfigError) as info:
        env.execute(sql)
    assert f"the path '{missing}' does not exist" in str(info.value)
    assert "'sink.create-path' = 'true'" in str(info.value)
    assert "lost" not in env.tables()  # the catalog is as it was
    assert not missing.exists()


def test_sink_create_path_lets_the_first_insert_create_it(
    env: cb.Environment, tmp_path: Path
) -> None:
    made = tmp_path / "new" / "deeper"
    env.execute(
        "CREATE TABLE fresh (a BIGINT, s STRING) WITH ('connector' = 'filesystem', "
        f"'path' = '{made}', 'format' = 'csv', 'sink.create-path' = 'true')"
    )
    assert env.execute("SELECT COUNT(*) FROM fresh").fetchall() == [(0,)]
    env.execute("INSERT INTO fresh VALUES (1, 'x'), (2, NULL)")
    assert made.is_dir()
    assert sorted(env.execute("SELECT a, s FROM fresh").fetchall()) == [(1, "x"), (2, None)]


@pytest.mark.parametrize("value", ["yes", "", "1"])
def test_sink_create_path_takes_true_or_false(
    env: cb.Environment, tmp_path: Path, value: str
) -> None:
    with pytest.raises(cb.ConfigError, match=r"'sink\.create-path' must be 'true' or 'false'"):
        env.execute(
            "CREATE TABLE odd (a BIGINT) WITH ('connector' = 'filesystem', "
            f"'path' = '{tmp_path}', 'sink.create-path' = '{value}')"
        )
    assert "odd" not in env.tables()


def snapshot(d: Path) -> dict[str, bytes]:
    """Every file of ``d`` (hidden ones included) with its bytes."""
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


def canon(rows: list[Any]) -> list[Any]:
    return sorted(rows, key=lambda r: json.dumps(r, sort_keys=True, default=str))


def to_duck(where: str) -> str:
    """A condition in DuckDB's spelling: ``"user"`` for the column."""
    return where.replace("`user`", '"user"').replace("user.", '"user".')


def duck(sql: str) -> list[tuple[Any, ...]]:
    con = duckdb.connect()
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


@pytest.fixture
def parquet_dir(tmp_path: Path) -> Path:
    d = tmp_path / "pq"
    d.mkdir()
    pq.write_table(PEOPLE_TABLE.slice(0, 3), d / "a.parquet")
    pq.write_table(PEOPLE_TABLE.slice(3), d / "b.parquet")
    return d


# --- Parquet -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "where",
    [
        "user.age < 30",
        "user.age IS NULL",
        "`user` IS NULL",
        "user.name LIKE '%e%' OR id = 2",
        "user.age IN (25, 40) AND id > 1",
        "NOT (user.age >= 29)",
    ],
)
def test_parquet_matches_duckdb(env: cb.Environment, parquet_dir: Path, where: str) -> None:
    env.execute(ddl("people", parquet_dir, "parquet"))
    sql = f"SELECT id, user.name, user.age FROM people WHERE {where}"
    ours = env.execute(sql).fetchall()
    theirs = duck(
        f'SELECT id, "user".name, "user".age FROM read_parquet(\'{parquet_dir}/*.parquet\') '
        f"WHERE {to_duck(where)}"
    )
    assert canon(ours) == canon(theirs)
    assert "filter=[" in env.explain(sql).splitlines()[-1]


def test_parquet_row_groups_sorted_by_a_nested_field(env: cb.Environment, tmp_path: Path) -> None:
    """Several files, several row groups each, sorted by ``user.age``; range filters at the
    edges of row groups give DuckDB's rows."""
    d = tmp_path / "sorted"
    d.mkdir()
    for part in range(3):
        rows = [
            {"id": i, "user": None if i % 50 == 0 else {"name": f"n{i}", "age": i}}
            for i in range(part * 300, (part + 1) * 300)
        ]
        table = pa.Table.from_pylist(rows, schema=PEOPLE_TABLE.schema)
        pq.write_table(table, d / f"part{part}.parquet", row_group_size=64)
    assert pq.ParquetFile(d / "part1.parquet").num_row_groups == 5
    env.execute(ddl("people", d, "parquet"))
    for where in (
        "user.age < 64",
        "user.age >= 255 AND user.age < 385",
        "user.age BETWEEN 599 AND 600",
        "user.age > 10000",
        "user.age IS NULL",
    ):
        sql = f"SELECT id FROM people WHERE {where}"
        assert "filter=[" in env.explain(sql)
        ours = sorted(r[0] for r in env.execute(sql).fetchall())
        theirs = sorted(
            r[0]
            for r in duck(f"SELECT id FROM read_parquet('{d}/*.parquet') WHERE {to_duck(where)}")
        )
        assert ours == theirs, where


# --- CSV and JSON lines --------------------------------------------------------------------------


@pytest.fixture
def csv_dir(tmp_path: Path) -> Path:
    d = tmp_path / "csv"
    d.mkdir()
    (d / "a.csv").write_text("id,name,age\n1,ann,25\n2,bob,40\n3,,\n4,dee,29\n")
    (d / "b.csv").write_text("id,name,age\n5,eve,\n6,,31\n")
    return d


CSV_COLUMNS = "id BIGINT, name STRING, age INT"


def test_csv_null_is_an_empty_unquoted_field_only(env: cb.Environment, tmp_path: Path) -> None:
    """NA, NULL, nan and the like are strings: only an empty unquoted field is NULL, and
    ``""`` is the empty string (as Spark's CSV reader is set up to read them too)."""
    d = tmp_path / "nulls"
    d.mkdir()
    (d / "n.csv").write_text('id,s\n1,NA\n2,NULL\n3,nan\n4,N/A\n5,\n6,""\n7,"NA"\n8,null\n')
    env.execute(ddl("n", d, "csv", "id INT, s STRING"))
    rows = env.execute("SELECT id, s FROM n").to_pylist()
    assert [(r["id"], r["s"]) for r in rows] == [
        (1, "NA"),
        (2, "NULL"),
        (3, "nan"),
        (4, "N/A"),
        (5, None),
        (6, ""),
        (7, "NA"),
        (8, "null"),
    ]


@pytest.mark.parametrize(
    "where",
    ["age < 30", "name IS NULL", "age IS NULL OR name LIKE 'b%'", "id IN (1, 6) AND age > 20"],
)
def test_csv_filters_match_duckdb(env: cb.Environment, csv_dir: Path, where: str) -> None:
    env.execute(ddl("c", csv_dir, "csv", CSV_COLUMNS))
    sql = f"SELECT id, name, age FROM c WHERE {where}"
    plan = env.explain(sql)
    assert "filter=[" in plan
    ours = env.execute(sql).fetchall()
    theirs = duck(
        f"SELECT id, name, age FROM read_csv('{csv_dir}/*.csv', header = true, "
        "columns = {'id': 'BIGINT', 'name': 'VARCHAR', 'age': 'INTEGER'}) "
        f"WHERE {where}"
    )
    assert canon(ours) == canon(theirs)


@pytest.fixture
def json_dir(tmp_path: Path) -> Path:
    d = tmp_path / "json"
    d.mkdir()
    lines = [
        {"id": 1, "user": {"name": "ann", "age": 25}},
        {"id": 2, "user": {"name": "bob", "age": 40}},
        {"id": 3, "user": None},  # NULL struct
        {"id": 4, "user": {"name": None, "age": None}},  # NULL fields
        {"id": 5},  # missing struct
        {"id": 6, "user": {"name": "eve"}},  # missing leaf
    ]
    (d / "a.json").write_text("".join(json.dumps(r) + "\n" for r in lines))
    return d


@pytest.mark.parametrize(
    ("where", "ids"),
    [
        ("user.age < 30", [1]),
        ("user.age IS NULL", [3, 4, 5, 6]),
        ("`user` IS NULL", [3, 5]),
        ("user.name IS NOT NULL AND user.age IS NULL", [6]),
        ("user.name IN ('bob', 'eve')", [2, 6]),
    ],
)
def test_json_lines_nested_filters(
    env: cb.Environment, json_dir: Path, where: str, ids: list[int]
) -> None:
    env.execute(ddl("j", json_dir, "json"))
    sql = f"SELECT id FROM j WHERE {where}"
    assert "filter=[" in env.explain(sql)
    assert sorted(r[0] for r in env.execute(sql).fetchall()) == ids
    theirs = duck(
        f"SELECT id FROM read_json('{json_dir}/*.json', format = 'newline_delimited', "
        "columns = {'id': 'BIGINT', 'user': 'STRUCT(name VARCHAR, age INTEGER)'}) "
        f"WHERE {to_duck(where)}"
    )
    assert sorted(r[0] for r in theirs) == ids


# --- DATE, TIME and TIMESTAMP in JSON lines ------------------------------------------------------
# As Flink's json format writes and reads them ('json.timestamp-format.standard' = 'SQL'):
# "2024-01-02", "12:34:56", "2024-01-02 12:34:56.123". pyarrow's JSON reader parses a DATE or a
# TIME only from a number: they are read as text and converted.

DATES = [
    {"id": 1, "d": "2024-01-02", "t": "12:34:56"},
    {"id": 2, "d": None, "t": None},
    {"id": 3},  # missing fields
    {"id": 4, "d": "0001-01-01", "t": "00:00:00.5"},
    {"id": 5, "d": "9999-12-31", "t": "23:59:59.999"},
    {"id": 6, "d": "2024-02-29", "t": "12:00:00"},
]


@pytest.fixture
def dates_dir(tmp_path: Path) -> Path:
    d = tmp_path / "dates"
    d.mkdir()
    (d / "a.json").write_text("".join(json.dumps(r) + "\n" for r in DATES[:3]))
    (d / "b.json").write_text("".join(json.dumps(r) + "\n" for r in DATES[3:]))
    return d


@pytest.fixture
def backends(transport: str) -> tuple[str, ...]:
    """The backends a test reads with: DuckDB runs in the process of an in-process JVM only."""
    return ("enumerable", "duckdb") if transport == "jpype" else ("enumerable",)


def _date(text: str | None) -> dt.date | None:
    return None if text is None else dt.date.fromisoformat(text)


def _time(text: str | None) -> dt.time | None:
    return None if text is None else dt.time.fromisoformat(text)


def _inserted_json(
    env: cb.Environment, tmp_path: Path, name: str, columns: str, rows: str
) -> list[str]:
    """The lines of the file that ``INSERT INTO name VALUES rows`` writes into a new JSON
    table of ``columns``."""
    d = tmp_path / name
    env.execute(ddl(name, d, "json", columns))
    env.execute(f"INSERT INTO {name} VALUES {rows}")
    (written,) = snapshot(d).values()
    return [line.decode() if isinstance(line, bytes) else line for line in written.splitlines()]


def test_json_dates_written_by_insert_read_back(
    env: cb.Environment, tmp_path: Path, backends: tuple[str, ...]
) -> None:
    written = _inserted_json(
        env,
        tmp_path,
        "s",
        "id BIGINT, d DATE, ts TIMESTAMP(3), l TIMESTAMP_LTZ(3)",
        "(1, DATE '2024-01-02', TIMESTAMP '2024-01-02 12:34:56.120', "
        "TO_TIMESTAMP_LTZ(1704198896500, 3)), "
        "(2, NULL, TIMESTAMP '2024-01-02 12:34:56', NULL), "
        "(3, DATE '0001-01-01', NULL, NULL)",
    )
    assert [json.loads(line) for line in written] == [
        {"id": 1, "d": "2024-01-02", "ts": "2024-01-02 12:34:56.12", "l": "2024-01-02 12:34:56.5Z"},
        {"id": 2, "d": None, "ts": "2024-01-02 12:34:56", "l": None},
        {"id": 3, "d": "0001-01-01", "ts": None, "l": None},
    ]
    expected = [
        (
            1,
            dt.date(2024, 1, 2),
            dt.datetime(2024, 1, 2, 12, 34, 56, 120000),
            dt.datetime(2024, 1, 2, 12, 34, 56, 500000, tzinfo=dt.timezone.utc),
        ),
        (2, None, dt.datetime(2024, 1, 2, 12, 34, 56), None),
        (3, dt.date(1, 1, 1), None, None),
    ]
    for backend in backends:
        rows = env.sql("SELECT id, d, ts, l FROM s ORDER BY id", backend=backend).fetchall()
        assert rows == expected, backend
        rows = env.sql("SELECT id FROM s WHERE d = DATE '2024-01-02'", backend=backend).fetchall()
        assert rows == [(1,)], backend


def test_json_times_written_by_insert_read_back(env: cb.Environment, tmp_path: Path) -> None:
    d = tmp_path / "s"
    env.execute(ddl("s", d, "json", "id BIGINT, t TIME, t3 TIME(3)"))
    env.execute(
        "INSERT INTO s VALUES (1, TIME '12:34:56', TIME '01:02:03.45'), (2, NULL, NULL), "
        "(3, TIME '00:00:00', TIME '23:59:59.999')"
    )
    (written,) = snapshot(d).values()
    assert [json.loads(line) for line in written.splitlines()] == [
        {"id": 1, "t": "12:34:56", "t3": "01:02:03.45"},
        {"id": 2, "t": None, "t3": None},
        {"id": 3, "t": "00:00:00", "t3": "23:59:59.999"},
    ]
    assert env.execute("SELECT id, t, t3 FROM s ORDER BY id").fetchall() == [
        (1, dt.time(12, 34, 56), dt.time(1, 2, 3, 450000)),
        (2, None, None),
        (3, dt.time(0, 0), dt.time(23, 59, 59, 999000)),
    ]
    rows = env.execute("SELECT id FROM s WHERE t3 > TIME '12:00:00'").fetchall()
    assert rows == [(3,)]


def test_json_dates_of_a_file_with_nulls(
    env: cb.Environment, dates_dir: Path, backends: tuple[str, ...]
) -> None:
    env.execute(ddl("j", dates_dir, "json", "id BIGINT, d DATE"))
    for backend in backends:
        rows = env.sql("SELECT id, d FROM j", backend=backend).fetchall()
        assert sorted(rows) == [(r["id"], _date(r.get("d"))) for r in DATES], backend
        assert env.sql("SELECT COUNT(*) FROM j", backend=backend).fetchall() == [(6,)], backend


def test_json_times_of_a_file_with_nulls(env: cb.Environment, dates_dir: Path) -> None:
    env.execute(ddl("j", dates_dir, "json", "id BIGINT, d DATE, t TIME(3)"))
    rows = env.execute("SELECT id, d, t FROM j").fetchall()
    assert sorted(rows) == [(r["id"], _date(r.get("d")), _time(r.get("t"))) for r in DATES]


@pytest.mark.parametrize(
    ("where", "ids"),
    [
        ("d = DATE '2024-01-02'", [1]),
        ("d < DATE '2024-01-02'", [4]),
        ("d >= DATE '2024-02-29'", [5, 6]),
        ("d IN (DATE '2024-01-02', DATE '9999-12-31')", [1, 5]),
        ("d BETWEEN DATE '2024-01-01' AND DATE '2024-12-31'", [1, 6]),
        ("d IS NULL", [2, 3]),
        ("d IS NOT NULL AND id > 4", [5, 6]),
        ("d <> DATE '2024-01-02' OR d IS NULL", [2, 3, 4, 5, 6]),
    ],
)
def test_json_date_filters(
    env: cb.Environment, dates_dir: Path, where: str, ids: list[int], backends: tuple[str, ...]
) -> None:
    env.execute(ddl("j", dates_dir, "json", "id BIGINT, d DATE"))
    sql = f"SELECT id, d FROM j WHERE {where}"
    assert "filter=[" in env.explain(sql)
    by_id = {r["id"]: _date(r.get("d")) for r in DATES}
    for backend in backends:
        rows = env.sql(sql, backend=backend).fetchall()
        assert sorted(rows) == [(i, by_id[i]) for i in ids], backend


def test_json_dates_inside_a_row_and_an_array(
    env: cb.Environment, tmp_path: Path, backends: tuple[str, ...]
) -> None:
    d = tmp_path / "nested"
    d.mkdir()
    lines = [
        {"id": 1, "r": {"d": "2024-01-02", "n": 1}, "a": ["2024-01-02", None, "2024-03-04"]},
        {"id": 2, "r": {"d": None, "n": 2}, "a": None},
        {"id": 3, "r": None, "a": []},
        {"id": 4, "r": {"n": 4}},
    ]
    (d / "a.json").write_text("".join(json.dumps(r) + "\n" for r in lines))
    env.execute(ddl("n", d, "json", "id BIGINT, r ROW<d DATE, n INT>, a ARRAY<DATE>"))
    expected = [
        {
            "id": 1,
            "r": {"d": dt.date(2024, 1, 2), "n": 1},
            "a": [dt.date(2024, 1, 2), None, dt.date(2024, 3, 4)],
        },
        {"id": 2, "r": {"d": None, "n": 2}, "a": None},
        {"id": 3, "r": None, "a": []},
        {"id": 4, "r": {"d": None, "n": 4}, "a": None},
    ]
    sql = "SELECT id, r.d FROM n WHERE r.d = DATE '2024-01-02'"
    assert "filter=[" in env.explain(sql)
    for backend in backends:
        rows = env.sql("SELECT id, r, a FROM n", backend=backend).to_pylist()
        assert sorted(rows, key=lambda r: r["id"]) == expected, backend
        assert env.sql(sql, backend=backend).fetchall() == [(1, dt.date(2024, 1, 2))], backend
        found = env.sql("SELECT id FROM n WHERE r.d IS NULL", backend=backend).fetchall()
        assert sorted(found) == [(2,), (3,), (4,)], backend


def test_json_maps_written_by_insert_read_back(
    env: cb.Environment, tmp_path: Path, backends: tuple[str, ...]
) -> None:
    # Flink's json format writes a MAP as an object, its keys as text, and reads it so; pyarrow's
    # JSON reader has no map type, and INSERT wrote a list of [key, value] pairs.
    written = _inserted_json(
        env,
        tmp_path,
        "m",
        "id BIGINT, m MAP<STRING, INT>, k MAP<INT, DATE>",
        "(1, MAP['a', 1, 'b', CAST(NULL AS INT)], MAP[7, DATE '2024-01-02']), "
        "(2, CAST(NULL AS MAP<STRING, INT>), CAST(NULL AS MAP<INT, DATE>)), "
        "(3, MAP['c', 3], MAP[-1, CAST(NULL AS DATE)])",
    )
    assert [json.loads(line) for line in written] == [
        {"id": 1, "m": {"a": 1, "b": None}, "k": {"7": "2024-01-02"}},
        {"id": 2, "m": None, "k": None},
        {"id": 3, "m": {"c": 3}, "k": {"-1": None}},
    ]
    expected = [
        {"id": 1, "a": 1, "b": None, "seven": dt.date(2024, 1, 2), "n": 2},
        {"id": 2, "a": None, "b": None, "seven": None, "n": None},
        {"id": 3, "a": None, "b": None, "seven": None, "n": 1},
    ]
    sql = (
        "SELECT id, m['a'] AS a, m['b'] AS b, k[7] AS seven, CARDINALITY(m) AS n FROM m ORDER BY id"
    )
    for backend in backends:
        assert env.sql(sql, backend=backend).to_pylist() == expected, backend
        found = env.sql("SELECT id FROM m WHERE m['c'] = 3", backend=backend).fetchall()
        assert found == [(3,)], backend


def test_json_decimals_written_as_numbers_read_back(
    env: cb.Environment, tmp_path: Path, backends: tuple[str, ...]
) -> None:
    # Flink's json format writes a DECIMAL as a number with its scale's digits; it was text.
    written = _inserted_json(
        env,
        tmp_path,
        "decs",
        "id INT, v DECIMAL(10, 2), r ROW<w DECIMAL(5, 3)>, s STRING, "
        "a ARRAY<DECIMAL(4, 1)>, m MAP<STRING, DECIMAL(3, 0)>",
        "(1, 12.3, ROW(-0.5), '12.30', ARRAY[1.5, NULL], MAP['k', 7]), "
        "(2, -99999999.99, ROW(0), NULL, ARRAY[CAST(0 AS DECIMAL(4, 1))], "
        "MAP['z', CAST(NULL AS DECIMAL(3, 0))]), (3, NULL, NULL, 'x', NULL, NULL)",
    )
    assert written == [
        '{"id": 1, "v": 12.30, "r": {"w": -0.500}, "s": "12.30", "a": [1.5, null], "m": {"k": 7}}',
        '{"id": 2, "v": -99999999.99, "r": {"w": 0.000}, "s": null, "a": [0.0], "m": {"z": null}}',
        '{"id": 3, "v": null, "r": null, "s": "x", "a": null, "m": null}',
    ]
    expected = [
        (1, Decimal("12.30"), {"w": Decimal("-0.500")}, "12.30", [Decimal("1.5"), None]),
        (2, Decimal("-99999999.99"), {"w": Decimal("0.000")}, None, [Decimal("0.0")]),
        (3, None, None, "x", None),
    ]
    for backend in backends:
        rows = env.sql("SELECT id, v, r, s, a FROM decs ORDER BY id", backend=backend).fetchall()
        assert rows == expected, backend
        found = env.sql("SELECT id FROM decs WHERE v > 0", backend=backend).fetchall()
        assert found == [(1,)], backend


def test_json_maps_of_a_hand_written_file(
    env: cb.Environment, tmp_path: Path, backends: tuple[str, ...]
) -> None:
    # Maps nested in a ROW and an ARRAY, empty, NULL and missing, beside a DATE read as text, and
    # a field the table does not declare.
    d = tmp_path / "nested_maps"
    d.mkdir()
    lines = [
        {"id": 1, "r": {"tags": {"x": "1"}, "n": 1}, "a": [{"p": 1.5}, {}], "d": "2024-01-02"},
        {"id": 2, "r": {"tags": {}, "n": 2}, "a": None, "extra": {"z": 1}},
        {"id": 3, "r": None, "a": [None, {"q": None}]},
        {"id": 4},
    ]
    (d / "a.json").write_text("".join(json.dumps(r) + "\n" for r in lines) + "\n")
    columns = (
        "id BIGINT, r ROW<tags MAP<STRING, STRING>, n INT>, a ARRAY<MAP<STRING, DOUBLE>>, d DATE"
    )
    env.execute(ddl("nm", d, "json", columns))
    expected = [
        {
            "id": 1,
            "r": {"tags": [("x", "1")], "n": 1},
            "a": [[("p", 1.5)], []],
            "d": dt.date(2024, 1, 2),
        },
        {"id": 2, "r": {"tags": [], "n": 2}, "a": None, "d": None},
        {"id": 3, "r": None, "a": [None, [("q", None)]], "d": None},
        {"id": 4, "r": None, "a": None, "d": None},
    ]
    for backend in backends:
        rows = env.sql("SELECT id, r, a, d FROM nm ORDER BY id", backend=backend).to_pylist()
        assert rows == expected, backend
        found = env.sql("SELECT id FROM nm WHERE r.tags['x'] = '1'", backend=backend).fetchall()
        assert found == [(1,)], backend
    (d / "b.json").write_text('{"id": 5, "r": {"tags": [1, 2], "n": 5}}\n')
    refused = r"\[1, 2\] in column r of .*line 1.*not a JSON object"
    with pytest.raises(cb.SourceError, match=refused):
        env.sql("SELECT id, r FROM nm", backend="enumerable").fetchall()


def test_json_dates_of_a_partitioned_table(
    env: cb.Environment, tmp_path: Path, backends: tuple[str, ...]
) -> None:
    d = tmp_path / "parts"
    env.execute(
        ddl("p", d, "json", "id BIGINT, d DATE, k STRING").replace(
            ") WITH", ") PARTITIONED BY (k) WITH"
        )
    )
    env.execute(
        "INSERT INTO p VALUES (1, DATE '2024-01-02', 'a'), (2, NULL, 'b'), "
        "(3, DATE '2024-05-06', 'a'), (4, DATE '2024-01-02', 'b')"
    )
    assert (d / "k=a").is_dir() and (d / "k=b").is_dir()
    expected = [
        (1, dt.date(2024, 1, 2), "a"),
        (2, None, "b"),
        (3, dt.date(2024, 5, 6), "a"),
        (4, dt.date(2024, 1, 2), "b"),
    ]
    for backend in backends:
        rows = env.sql("SELECT id, d, k FROM p", backend=backend).fetchall()
        assert sorted(rows) == expected, backend
        sql = "SELECT id FROM p WHERE d = DATE '2024-01-02' AND k = 'b'"
        assert env.sql(sql, backend=backend).fetchall() == [(4,)], backend
        sql = "SELECT id FROM p WHERE d IS NULL OR d > DATE '2024-02-01'"
        assert sorted(env.sql(sql, backend=backend).fetchall()) == [(2,), (3,)], backend


@pytest.mark.parametrize(
    ("columns", "line", "message"),
    [
        ("d DATE", '{"d": "2024-1-2"}', r"cannot read '2024-1-2' in column d of .* as a DATE"),
        ("d DATE", '{"d": "2024-02-30"}', r"cannot read '2024-02-30' in column d .* as a DATE"),
        ("d DATE", '{"d": "2024-01-02 00:00:00"}', r"'2024-01-02 00:00:00' in column d"),
        ("d DATE", '{"d": 19724}', r"changed from string to number"),
        ("r ROW<d DATE>", '{"r": {"d": "x"}}', r"cannot read 'x' in column r\.d .* as a DATE"),
        ("t TIME", '{"t": "12:34"}', r"cannot read '12:34' in column t .* as a TIME"),
        ("t TIME", '{"t": "24:00:00"}', r"'24:00:00' in column t .* as a TIME"),
        # More digits than a TIME keeps are cut (tests/test_text_fractions.py), but not ten.
        ("t TIME(3)", '{"t": "12:34:56.1234567891"}', r"'12:34:56.1234567891' in column t"),
    ],
)
def test_json_date_or_time_not_in_flinks_spelling_is_refused(
    env: cb.Environment, tmp_path: Path, columns: str, line: str, message: str
) -> None:
    d = tmp_path / "bad"
    d.mkdir()
    (d / "a.json").write_text(line + "\n")
    env.execute(ddl("b", d, "json", columns))
    with pytest.raises(cb.SourceError, match=message):
        env.execute("SELECT * FROM b").fetchall()


# --- metadata columns ----------------------------------------------------------------------------


def test_metadata_columns_with_select_star(env: cb.Environment, parquet_dir: Path) -> None:
    env.execute(ddl("people", parquet_dir, "parquet", f"{COLUMNS}, {METADATA}"))
    rows = env.execute("SELECT * FROM people WHERE user.age IS NULL").to_pylist()
    assert sorted(r["id"] for r in rows) == [3, 4, 6]
    for r in rows:
        path = parquet_dir / r["fname"]
        st = os.stat(path)
        assert r["fname"] == ("a.parquet" if r["id"] <= 3 else "b.parquet")
        assert r["fpath"] == str(path)
        assert r["fsize"] == st.st_size
        assert r["mtime"] == dt.datetime.fromtimestamp(
            st.st_mtime_ns // 1_000_000 / 1000, dt.timezone.utc
        )


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        (
            "SELECT id, fname FROM people WHERE id < 5",
            {(1, "a.parquet"), (2, "a.parquet"), (3, "a.parquet"), (4, "b.parquet")},
        ),
        ("SELECT DISTINCT fname, fsize FROM people", None),
        (
            "SELECT user.name, fname FROM people WHERE user.age < 30",
            {("ann", "a.parquet"), ("dee", "b.parquet")},
        ),
        ("SELECT id FROM people WHERE fname = 'b.parquet'", {(4,), (5,), (6,)}),
    ],
)
def test_metadata_columns_by_name(
    env: cb.Environment, parquet_dir: Path, sql: str, expected: set[tuple[Any, ...]] | None
) -> None:
    env.execute(ddl("people", parquet_dir, "parquet", f"{COLUMNS}, {METADATA}"))
    if expected is None:
        expected = {(n, os.path.getsize(parquet_dir / n)) for n in ("a.parquet", "b.parquet")}
    rows = env.execute(sql).fetchall()
    assert len(rows) == len(set(rows))
    assert set(rows) == expected


def test_metadata_columns_of_csv_and_json(
    env: cb.Environment, csv_dir: Path, json_dir: Path
) -> None:
    env.execute(ddl("c", csv_dir, "csv", f"{CSV_COLUMNS}, {METADATA}"))
    env.execute(ddl("j", json_dir, "json", f"{COLUMNS}, {METADATA}"))
    rows = env.execute("SELECT * FROM c WHERE age > 30").to_pylist()
    assert [(r["id"], r["fname"]) for r in sorted(rows, key=lambda r: r["id"])] == [
        (2, "a.csv"),
        (6, "b.csv"),
    ]
    rows = env.execute("SELECT * FROM j WHERE user.age < 30").to_pylist()
    assert [(r["id"], r["fname"], r["fsize"]) for r in rows] == [
        (1, "a.json", os.path.getsize(json_dir / "a.json"))
    ]


# --- INSERT --------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["parquet", "json"])
def test_insert_appends_one_new_file(env: cb.Environment, tmp_path: Path, fmt: str) -> None:
    d = tmp_path / fmt
    env.execute(ddl("t", d, fmt, f"{COLUMNS}, fname STRING METADATA FROM 'file.name' VIRTUAL"))
    env.execute("INSERT INTO t (id, `user`) VALUES (1, ROW('ann', 25))")
    first = snapshot(d)
    assert len(first) == 1
    env.execute(
        "INSERT INTO t (id, `user`) VALUES (2, ROW('bob', 40)), "
        "(3, CAST(NULL AS ROW<name STRING, age INT>)), (4, ROW(CAST(NULL AS STRING), 7))"
    )
    second = snapshot(d)
    (new,) = set(second) - set(first)
    assert new.startswith("part-") and new.endswith("." + fmt)
    assert {k: second[k] for k in first} == first  # the old file is untouched
    assert not any(name.startswith(TMP_PREFIX) for name in second)
    rows = env.execute("SELECT * FROM t").to_pylist()
    assert {r["id"]: r["fname"] for r in rows} == {1: next(iter(first)), 2: new, 3: new, 4: new}
    by_id = {r["id"]: r["user"] for r in rows}
    assert by_id[1] == {"name": "ann", "age": 25}
    assert by_id[4] == {"name": None, "age": 7}
    assert by_id[3] is None
    ids = env.execute("SELECT id FROM t WHERE user.age < 30").fetchall()
    assert sorted(r[0] for r in ids) == [1, 4]


def test_insert_into_csv(env: cb.Environment, csv_dir: Path) -> None:
    env.execute(ddl("c", csv_dir, "csv", CSV_COLUMNS))
    before = snapshot(csv_dir)
    env.execute("INSERT INTO c VALUES (7, 'gus', 50), (8, CAST(NULL AS STRING), NULL)")
    after = snapshot(csv_dir)
    assert len(after) == len(before) + 1 and {k: after[k] for k in before} == before
    rows = env.execute("SELECT id, name, age FROM c WHERE id >= 7").fetchall()
    assert sorted(rows) == [(7, "gus", 50), (8, None, None)]


def test_insert_of_a_row_into_csv_fails_and_changes_nothing(
    env: cb.Environment, csv_dir: Path
) -> None:
    env.execute(ddl("c", csv_dir, "csv", COLUMNS))
    before = snapshot(csv_dir)
    with pytest.raises(cb.SourceError, match="INSERT into"):
        env.execute("INSERT INTO c VALUES (9, ROW('zed', 1))")
    assert snapshot(csv_dir) == before


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO people SELECT 10 / (id - 4), `user` FROM people",
        "INSERT INTO people SELECT CAST(user.name AS BIGINT), `user` FROM people",
        "INSERT INTO people (id, `user`) VALUES (1, ROW('x', 1)), (2 / 0, ROW('y', 2))",
    ],
)
def test_failing_insert_leaves_the_directory_unchanged(
    env: cb.Environment, parquet_dir: Path, statement: str
) -> None:
    env.execute(ddl("people", parquet_dir, "parquet"))
    before = snapshot(parquet_dir)
    with pytest.raises(cb.ExecutionError):
        env.execute(statement)
    assert snapshot(parquet_dir) == before
    assert len(env.execute("SELECT * FROM people").fetchall()) == 6
    env.execute("INSERT INTO people (id, `user`) VALUES (7, ROW('gus', 50))")
    assert len(env.execute("SELECT * FROM people").fetchall()) == 7


def test_insert_failing_while_the_file_is_written_leaves_nothing(
    env: cb.Environment, parquet_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer dies after writing half a file: no temporary file stays, no torn file shows."""

    def torn(self: FileSystemSource, table: pa.Table, fh: Any) -> None:
        fh.write(b"PAR1 half a file")
        raise OSError("disk full")

    env.execute(ddl("people", parquet_dir, "parquet"))
    before = snapshot(parquet_dir)
    monkeypatch.setattr(FileSystemSource, "_write_file", torn)
    with pytest.raises(cb.SourceError, match="disk full"):
        env.execute("INSERT INTO people (id, `user`) VALUES (7, ROW('gus', 50))")
    assert snapshot(parquet_dir) == before
    monkeypatch.undo()
    assert len(env.execute("SELECT * FROM people").fetchall()) == 6


def test_stray_temporary_files_are_skipped_and_kept(env: cb.Environment, parquet_dir: Path) -> None:
    # A file left by a writer that died: readers skip it, and nothing removes what this
    # process did not create (the user may).
    stray = parquet_dir / f"{TMP_PREFIX}0123456789abcdef.parquet"
    stray.write_bytes(b"not parquet at all")
    env.execute(ddl("people", parquet_dir, "parquet"))
    assert len(env.execute("SELECT * FROM people WHERE user.age < 30").fetchall()) == 2
    env.execute("INSERT INTO people (id, `user`) VALUES (7, ROW('gus', 50))")
    assert stray.read_bytes() == b"not parquet at all"
