"""The filesystem source without a JVM: pruning, results against DuckDB, metadata, writes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from calcite_bridge.errors import SourceError
from calcite_bridge.expressions import Call, Expression, FieldReference, Literal
from calcite_bridge.expressions import NestedFieldReference as Nested
from calcite_bridge.sources import FileSystemSource, ScanRequest
from calcite_bridge.sources.base import check_filter_result
from calcite_bridge.sources.filesystem import TMP_PREFIX
from calcite_bridge.sources.pruning import prune_row_groups, row_groups_to_read

USER = pa.struct(
    [("name", pa.string()), ("age", pa.int32()), ("address", pa.struct([("city", pa.string())]))]
)
SCHEMA = pa.schema([("id", pa.int64()), ("user", USER)])
AGE = Nested(("user", "age"), (1, 1), "INT")
CITY = Nested(("user", "address", "city"), (1, 2, 0), "STRING")
ROWS = 1000
GROUP = 100


def _user(i: int) -> Any:
    if i % 97 == 0:
        return None  # NULL at the top level
    city = None if i % 13 == 0 else {"city": None if i % 7 == 0 else f"c{i % 5}"}
    return {"name": f"n{i}", "age": None if i % 11 == 0 else i // 10, "address": city}


@pytest.fixture
def users(tmp_path: Path) -> Path:
    """Sorted by age: 10 row groups, each holding a narrow range of ages."""
    table = pa.table(
        {"id": pa.array(range(ROWS), pa.int64()), "user": pa.array(map(_user, range(ROWS)), USER)}
    )
    directory = tmp_path / "users"
    directory.mkdir()
    pq.write_table(table, directory / "users.parquet", row_group_size=GROUP)
    return directory


def call(fn: str, *args: Expression) -> Call:
    return Call(fn, args, "BOOLEAN")


def duck(path: Path, where: str) -> list[int]:
    sql = f"SELECT id FROM read_parquet('{path}/*.parquet') WHERE {where} ORDER BY id"
    return [r[0] for r in duckdb.sql(sql).fetchall()]


def ids(source: FileSystemSource, *filters: Expression) -> list[int]:
    out = source.scan(ScanRequest(columns=("id",), filters=filters)).read_all()
    return sorted(out["id"].to_pylist())


CASES = [
    (call("<", AGE, Literal(30, "INT")), '"user".age < 30'),
    (call(">=", AGE, Literal(95, "INT")), '"user".age >= 95'),
    (call("IS NULL", AGE), '"user".age IS NULL'),
    (call("IN", AGE, Literal(3, "INT"), Literal(None, "INT")), '"user".age IN (3, NULL)'),
    (
        call("NOT", call("IN", AGE, Literal(3, "INT"), Literal(4, "INT"))),
        'NOT ("user".age IN (3, 4))',
    ),
    (call("=", CITY, Literal("c1", "STRING")), "\"user\".address.city = 'c1'"),
    (call("IS NULL", CITY), '"user".address.city IS NULL'),
    (
        call(
            "OR",
            call("<", AGE, Literal(5, "INT")),
            call("=", FieldReference("id", "BIGINT"), Literal(500, "BIGINT")),
        ),
        '"user".age < 5 OR id = 500',
    ),
    (
        call("LIKE", Nested(("user", "name"), (1, 0), "STRING"), Literal("n1_", "STRING")),
        "\"user\".name LIKE 'n1_'",
    ),
]


@pytest.mark.parametrize(("expr", "where"), CASES, ids=[w for _, w in CASES])
def test_results_equal_duckdb(users: Path, expr: Call, where: str) -> None:
    source = FileSystemSource(users, "parquet", SCHEMA)
    result = source.apply_filters([expr])
    assert check_filter_result("users", [expr], result) == ([0], [])
    assert ids(source, expr) == duck(users, where)


def test_nested_filter_prunes_row_groups(users: Path) -> None:
    expr = call("<", AGE, Literal(30, "INT"))
    fragment = next(iter(ds.dataset(users / "users.parquet").get_fragments()))
    assert fragment.num_row_groups == ROWS // GROUP
    # Every row group holds a NULL age, and pyarrow alone cannot prune such a column ...
    assert len(list(fragment.split_by_row_group(expr.to_pyarrow()))) == ROWS // GROUP
    # ... the source can: ages 0..29 live in the first three row groups.
    assert row_groups_to_read(fragment, [expr]) == [0, 1, 2]
    pruned = prune_row_groups(ds.dataset(users, format="parquet"), [expr])
    assert sum(f.num_row_groups for f in pruned.get_fragments()) == 3
    assert row_groups_to_read(fragment, [call("=", CITY, Literal("zzz", "STRING"))]) == []
    assert row_groups_to_read(fragment, [call("IS NULL", AGE)]) == list(range(10))
    either = call("OR", call(">", AGE, Literal(95, "INT")), call("=", AGE, Literal(0, "INT")))
    assert row_groups_to_read(fragment, [either]) == [0, 9]
    source = FileSystemSource(users, "parquet", SCHEMA)
    assert ids(source, expr) == duck(users, '"user".age < 30')
    assert ids(source, either) == duck(users, '"user".age > 95 OR "user".age = 0')


def test_pyarrow_prunes_nested_columns_without_nulls(tmp_path: Path) -> None:
    table = pa.table({"u": pa.array([{"age": i // 10} for i in range(ROWS)])})
    pq.write_table(table, tmp_path / "t.parquet", row_group_size=GROUP)
    fragment = next(iter(ds.dataset(tmp_path / "t.parquet").get_fragments()))
    expr = call("<", Nested(("u", "age"), (0, 0), "BIGINT"), Literal(30, "BIGINT"))
    assert len(list(fragment.split_by_row_group(expr.to_pyarrow()))) == 3
    assert row_groups_to_read(fragment, [expr]) == [0, 1, 2]


def test_conjuncts_and_projection(users: Path) -> None:
    source = FileSystemSource(users, "parquet", SCHEMA)
    f1, f2 = call("<", AGE, Literal(20, "INT")), call("IS NOT NULL", CITY)
    request = ScanRequest(projection=((1, 2, 0), (0,)), filters=(f1, f2), limit=5)
    out = source.scan(request).read_all()
    assert out.column_names == ["user.address.city", "id"]
    expected = duck(users, '"user".age < 20 AND "user".address.city IS NOT NULL')[:5]
    assert out["id"].to_pylist() == expected


def test_metadata_columns(users: Path) -> None:
    source = FileSystemSource(users, "parquet", SCHEMA)
    assert source.list_readable_metadata() == {
        "file.path": "STRING",
        "file.name": "STRING",
        "file.size": "BIGINT",
        "file.modification-time": "TIMESTAMP_LTZ(3)",
    }
    keys = ("file.path", "file.name", "file.size", "file.modification-time")
    out = source.scan(ScanRequest(columns=("id",), metadata_keys=keys, limit=2)).read_all()
    path = users / "users.parquet"
    assert out.schema.names == ["id", *keys]
    assert out.schema.field("file.modification-time").type == pa.timestamp("ms", tz="UTC")
    row = out.to_pylist()[0]
    assert row["file.path"] == str(path) and row["file.name"] == "users.parquet"
    assert row["file.size"] == path.stat().st_size
    stamp = row["file.modification-time"].timestamp()
    assert abs(stamp - path.stat().st_mtime) < 0.002
    with pytest.raises(SourceError, match=r"file\.owner"):
        source.scan(ScanRequest(metadata_keys=("file.owner",)))


def test_write_is_atomic_and_readable(users: Path) -> None:
    source = FileSystemSource(users, "parquet", SCHEMA)
    new = pa.table({"id": pa.array([5000], pa.int64()), "user": pa.array([_user(1)], USER)})
    source.write(new)
    names = sorted(os.listdir(users))
    assert len(names) == 2 and any(n.startswith("part-") and n.endswith(".parquet") for n in names)
    assert 5000 in ids(source)
    assert ids(source, call("=", FieldReference("id", "BIGINT"), Literal(5000, "BIGINT"))) == [5000]


def test_failed_write_leaves_no_visible_file(users: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = FileSystemSource(users, "parquet", SCHEMA)
    before = sorted(os.listdir(users))

    def torn(table: pa.Table, fh: Any) -> None:
        fh.write(b"PAR1 half a file")
        raise OSError("disk full")

    monkeypatch.setattr(source, "_write_file", torn)
    new = pa.table({"id": pa.array([1], pa.int64()), "user": pa.array([None], USER)})
    with pytest.raises(SourceError, match="disk full"):
        source.write(new)
    assert sorted(os.listdir(users)) == before
    assert len(ids(source)) == ROWS


def test_failed_fsync_leaves_no_visible_file(users: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = FileSystemSource(users, "parquet", SCHEMA)
    before = sorted(os.listdir(users))

    def fail(fd: int) -> None:
        raise OSError("I/O error")

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(SourceError, match="I/O error"):
        source.write(pa.table({"id": pa.array([1], pa.int64()), "user": pa.array([None], USER)}))
    assert sorted(os.listdir(users)) == before


def test_stray_temporary_files_are_ignored_and_never_removed(users: Path) -> None:
    stray = users / f"{TMP_PREFIX}999999999-abc.parquet"
    stray.write_bytes(b"PAR1 torn")
    users_own = users / ".tmp-notes.parquet"  # the user's own file, named as ours once were
    users_own.write_bytes(b"mine")
    source = FileSystemSource(users, "parquet", SCHEMA)
    assert len(ids(source)) == ROWS  # readers skip both
    source.write(pa.table({"id": pa.array([1], pa.int64()), "user": pa.array([None], USER)}))
    assert stray.read_bytes() == b"PAR1 torn" and users_own.read_bytes() == b"mine"
    assert not hasattr(source, "sweep")


def test_discover_column_from_the_files(users: Path) -> None:
    declared = pa.schema([("id", pa.int64())])
    source = FileSystemSource(users, "parquet", declared)
    assert source.discover_column("nope") is None
    assert source.discover_column("id") is None
    assert source.discover_column("user") == ("ROW<name STRING, age INT, address ROW<city STRING>>")
    out = source.scan(
        ScanRequest(columns=("id", "user"), filters=(call("=", AGE, Literal(0, "INT")),))
    )
    assert out.read_all()["id"].to_pylist() == duck(users, '"user".age = 0')
    assert FileSystemSource(users).schema() == SCHEMA


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_text_formats(tmp_path: Path, fmt: str) -> None:
    schema = pa.schema([("i", pa.int32()), ("s", pa.string())])
    source = FileSystemSource(tmp_path / fmt, fmt, schema)
    assert source.scan(ScanRequest()).read_all().num_rows == 0
    source.write(pa.table({"i": [1, 2, None], "s": ["a", None, "c"]}, schema=schema))
    source.write(pa.table({"i": [4], "s": ["d"]}, schema=schema))
    flt = call(
        "OR",
        call(">", FieldReference("i", "INT"), Literal(1, "INT")),
        call("IS NULL", FieldReference("s", "STRING")),
    )
    out = source.scan(ScanRequest(filters=(flt,))).read_all()
    assert out.schema == schema
    assert sorted(out.to_pylist(), key=lambda r: r["i"]) == [
        {"i": 2, "s": None},
        {"i": 4, "s": "d"},
    ]


def test_insert_into_a_file_path_is_refused(users: Path) -> None:
    source = FileSystemSource(users / "users.parquet", "parquet", SCHEMA)
    assert len(ids(source)) == ROWS
    with pytest.raises(Exception, match=r"directory"):
        source.write(pa.table({"id": pa.array([1], pa.int64()), "user": pa.array([None], USER)}))
