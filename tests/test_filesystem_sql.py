"""The ``filesystem`` connector from SQL (DESIGN §8): Parquet, CSV and JSON lines, metadata
columns, and INSERT that adds one whole file or nothing."""

from __future__ import annotations

import datetime as dt
import json
import os
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
