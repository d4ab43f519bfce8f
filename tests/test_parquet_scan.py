"""The filesystem connector's Parquet reader: cached footers, row groups classified from their
statistics, only the needed leaf columns read, counts answered from row counts.

Every case is checked three ways: what EXPLAIN shows (filter and projection in the scan), the
result against DuckDB over the same file and against the same query with pushdown off (a source
that accepts no filter, so the engine filters every row), and NULLs at every nesting level (the
file holds NULL ROWs, NULL ROWs inside ROWs, NULL leaves, NULL ids and NaN scores).
"""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

import calcite_bridge as cb
from calcite_bridge.expressions import Call, Expression, FieldReference, Literal
from calcite_bridge.expressions import NestedFieldReference as Nested
from calcite_bridge.sources import (
    FileSystemSource,
    FilterPushDownResult,
    ScanRequest,
    parquet_footers,
)
from calcite_bridge.sources.arrow import scan_dataset
from calcite_bridge.sources.pruning import (
    RowGroupClass,
    RowGroupFilters,
    classify_row_groups,
    excludes_every_row_group,
)

ADDRESS = pa.struct([("city", pa.string())])
USER = pa.struct([("name", pa.string()), ("age", pa.int32()), ("address", ADDRESS)])
SCHEMA = pa.schema([("id", pa.int64()), ("user", USER), ("score", pa.float64())])
ROWS = 600
GROUP = 50
DDL = (
    "CREATE TABLE {name} (id BIGINT, `user` ROW<name STRING, age INT, address ROW<city STRING>>, "
    "score DOUBLE) WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = 'parquet')"
)
AGE = Nested(("user", "age"), (1, 1), "INT")
CITY = Nested(("user", "address", "city"), (1, 2, 0), "STRING")


def _user(i: int) -> Any:
    if i % 97 == 0 and i:
        return None  # a NULL ROW at the top level
    address = None if i % 13 == 0 else {"city": None if i % 7 == 0 else f"c{i % 5}"}
    age = None if i % 11 == 0 and i >= 300 else i // 10
    return {"name": None if i % 17 == 0 else f"n{i}", "age": age, "address": address}


def _score(i: int) -> float | None:
    if i % 41 == 0:
        return math.nan
    return None if i % 43 == 0 else i / 7


def _table() -> pa.Table:
    """Sorted by age, ten ages a row group: ages 0..29 fill the first six row groups. Row groups
    1, 3 and 5 hold a NULL ROW (so a NULL age); the last six hold NULL ages."""
    return pa.table(
        {
            "id": pa.array([None if i % 151 == 0 else i for i in range(ROWS)], pa.int64()),
            "user": pa.array([_user(i) for i in range(ROWS)], USER),
            "score": pa.array([_score(i) for i in range(ROWS)], pa.float64()),
        },
        schema=SCHEMA,
    )


@pytest.fixture
def users(tmp_path: Path) -> Path:
    directory = tmp_path / "users"
    directory.mkdir()
    pq.write_table(_table(), directory / "part-0.parquet", row_group_size=GROUP)
    return directory


def call(fn: str, *args: Expression) -> Call:
    return Call(fn, args, "BOOLEAN")


def lit(value: Any, sql_type: str = "INT") -> Literal:
    return Literal(value, sql_type)


def _key(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    if isinstance(value, dict):
        return tuple((k, _key(v)) for k, v in value.items())
    return value


def rows(table: pa.Table) -> list[tuple[Any, ...]]:
    """The rows, NaN made comparable, sorted."""
    out = [tuple(_key(v) for v in row.values()) for row in table.to_pylist()]
    return sorted(out, key=repr)


class NoPushdown(FileSystemSource):
    """The filesystem source with filter pushdown off: the engine evaluates every filter."""

    def apply_filters(self, filters: list[Expression]) -> FilterPushDownResult:
        return FilterPushDownResult([], filters)


# --- the source alone ----------------------------------------------------------------------


def test_row_groups_are_classified_under_where_semantics(users: Path) -> None:
    found = parquet_footers.footer(str(users / "part-0.parquet"))
    classes = classify_row_groups(found.num_row_groups, [call("<", AGE, lit(30))], found.stats)
    all_, some, skip = RowGroupClass.ALL, RowGroupClass.SOME, RowGroupClass.SKIP
    # A NULL ROW makes a NULL age: row groups 1, 3 and 5 must still be filtered.
    assert classes == [all_, some, all_, some, all_, some, *[skip] * 6]
    at_least_40 = classify_row_groups(found.num_row_groups, [call(">=", AGE, lit(40))], found.stats)
    # Ages 40 and up live in row groups 8..11, all with NULL ages.
    assert at_least_40 == [*[skip] * 8, *[some] * 4]
    # IS NOT NULL passes every row where the statistics count no NULL.
    not_null = classify_row_groups(found.num_row_groups, [call("IS NOT NULL", AGE)], found.stats)
    assert not_null == [all_, some, all_, some, all_, some, *[some] * 6]
    # Strings and floating-point columns never prove a row group passes (truncated or NaN).
    city = classify_row_groups(
        found.num_row_groups, [call(">=", CITY, lit("", "STRING"))], found.stats
    )
    assert RowGroupClass.ALL not in city


REQUESTS = [
    ScanRequest(projection=((0,), (1, 0), (1, 2, 0), (2,)), filters=(call("<", AGE, lit(30)),)),
    ScanRequest(columns=("id", "user"), filters=(call(">=", AGE, lit(40)),)),
    ScanRequest(projection=((1, 2),), filters=(call("IS NULL", CITY),)),
    ScanRequest(projection=((0,),), filters=(call("IS NULL", FieldReference("user", "ROW")),)),
    ScanRequest(
        projection=((2,), (1, 1)),
        filters=(call("<>", FieldReference("score", "DOUBLE"), lit(1.0, "DOUBLE")),),
    ),
    ScanRequest(projection=(), filters=(call("<", AGE, lit(30)),)),
    ScanRequest(projection=(), filters=(call("<", AGE, lit(5)),)),
    ScanRequest(
        projection=((1, 0), (0,)),
        filters=(
            call("OR", call("<", AGE, lit(3)), call("=", CITY, lit("c1", "STRING"))),
            call(">", FieldReference("id", "BIGINT"), lit(5, "BIGINT")),
        ),
    ),
    ScanRequest(),
]


@pytest.mark.parametrize("request_", REQUESTS, ids=range(len(REQUESTS)))
def test_scan_equals_the_dataset_scanner(users: Path, request_: ScanRequest) -> None:
    """Against the same request through pyarrow.dataset, which evaluates every filter."""
    source = FileSystemSource(users, "parquet", SCHEMA)
    got = source.scan(request_).read_all()
    expected = scan_dataset(ds.dataset(users, format="parquet", schema=SCHEMA), request_)
    want = expected.read_all()
    assert got.num_rows == want.num_rows
    assert got.schema.names == want.schema.names
    assert rows(got) == rows(want)


def test_nan_rows_pass_not_equal(tmp_path: Path) -> None:
    """min and max leave NaN out: a row group whose other values all equal 1.0 is kept."""
    pq.write_table(pa.table({"x": [1.0, math.nan, 1.0, 1.0]}), tmp_path / "f.parquet")
    source = FileSystemSource(tmp_path, "parquet", pa.schema([("x", pa.float64())]))
    request = ScanRequest(filters=(call("<>", FieldReference("x", "DOUBLE"), lit(1.0, "DOUBLE")),))
    out = source.scan(request).read_all()["x"].to_pylist()
    assert len(out) == 1 and math.isnan(out[0])


def test_a_range_outside_the_whole_file_skips_it_as_each_row_group_would(users: Path) -> None:
    # A comparison no value of the file's range passes skips every row group without
    # classifying each; any other filter is classified row group by row group, as before.
    found = parquet_footers.footer(str(users / "part-0.parquet"))
    ID = FieldReference("id", "BIGINT")
    SCORE = FieldReference("score", "DOUBLE")
    cases = [
        [call(">", AGE, lit(59))],  # ages 0..59 and NULLs: no row group passes
        [call(">=", AGE, lit(59))],
        [call("<", AGE, lit(0))],
        [call("=", AGE, lit(15)), call(">", ID, lit(0, "BIGINT"))],
        [call(">=", ID, lit(600, "BIGINT"))],
        [call("<", ID, lit(0, "BIGINT"))],
        [call("<=", ID, lit(599, "BIGINT"))],
        [call("<>", ID, lit(5, "BIGINT"))],
        [call(">", SCORE, lit(1e9, "DOUBLE"))],
        [call("<>", SCORE, lit(1e9, "DOUBLE"))],
        [call("=", ID, lit(None, "BIGINT"))],
        [call("OR", call("<", ID, lit(0, "BIGINT")), call(">", ID, lit(700, "BIGINT")))],
        [call("IN", ID, lit(700, "BIGINT"), lit(800, "BIGINT"))],
        [call("IN", ID, lit(5, "BIGINT"), lit(800, "BIGINT"))],
        [call("IS NULL", ID)],
        [call("OR", call("<", ID, lit(0, "BIGINT")), call("=", AGE, lit(15)))],
    ]
    skipped = []
    for filters in cases:
        each = classify_row_groups(found.num_row_groups, filters, found.stats)
        assert found.classes(RowGroupFilters(filters)) == each, filters
        if excludes_every_row_group(filters, found.whole):
            assert each == [RowGroupClass.SKIP] * found.num_row_groups, filters
            skipped.append(cases.index(filters))
    # The whole file is judged as a row group is (AND, OR, IN, IS NULL too): no id lies outside
    # 0..599, so case 11's OR and case 12's IN skip the file; 13 and 14 do not (ids of some
    # rows are NULL, and one branch names an age the file holds).
    assert skipped == [0, 2, 4, 5, 8, 10, 11, 12]


def test_comparisons_alone_are_classified_as_any_filter_is(users: Path) -> None:
    # Filters that only compare fields with literals (a range of parameters) are judged one
    # comparison at a time; the same comparisons under one AND take the general judgement.
    found = parquet_footers.footer(str(users / "part-0.parquet"))
    ID = FieldReference("id", "BIGINT")
    SCORE = FieldReference("score", "DOUBLE")
    NAME = Nested(("user", "name"), (1, 0), "STRING")
    fields = [
        (AGE, [lit(v) for v in (-1, 0, 15, 29, 30, 59, 60)] + [lit(None)]),
        (ID, [lit(v, "BIGINT") for v in (-1, 0, 151, 300, 599, 600)] + [lit(None, "BIGINT")]),
        (SCORE, [lit(v, "DOUBLE") for v in (0.0, 1.0, 85.5, 1e9, math.nan)]),
        (NAME, [lit(v, "STRING") for v in ("", "n1", "n5", "z")]),
    ]
    comparisons = [
        call(op, field, value) if i % 2 else call(op, value, field)
        for field, values in fields
        for i, value in enumerate(values)
        for op in ("=", "<>", "<", "<=", ">", ">=")
    ]
    ranges = [
        [call(">=", ID, lit(k, "BIGINT")), call("<=", ID, lit(k + 10, "BIGINT"))]
        for k in (-20, 0, 45, 95, 590, 600)
    ]
    cases = (
        [[c] for c in comparisons]
        + ranges
        + [[a, b] for a, b in zip(comparisons, comparisons[7::5], strict=False)]
    )
    kinds: set[RowGroupClass] = set()
    for filters in cases:
        judged, general = RowGroupFilters(filters), RowGroupFilters([call("AND", *filters)])
        assert judged.compares is not None and general.compares is None
        each = general.classes(found.num_row_groups, found.stats)
        assert judged.classes(found.num_row_groups, found.stats) == each, filters
        assert judged.classes(found.num_row_groups, found.stats, found.whole) == each, filters
        kinds.update(each)
    assert kinds == set(RowGroupClass)


def test_only_the_leaves_a_request_reads_are_decoded(
    users: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read: list[list[int]] = []
    real_open = parquet_footers.ParquetFooter.open

    def spy(self: parquet_footers.ParquetFooter) -> Any:
        file = real_open(self)
        real = file.reader.read_row_groups

        class Reader:
            def read_row_groups(self, groups: list[int], column_indices: list[int], **kw: Any):  # type: ignore[no-untyped-def]
                read.append(list(column_indices))
                return real(groups, column_indices=column_indices, **kw)

        class File:
            reader = Reader()

        return File()

    monkeypatch.setattr(parquet_footers.ParquetFooter, "open", spy)
    source = FileSystemSource(users, "parquet", SCHEMA)
    # Leaves: 0 id, 1 user.name, 2 user.age, 3 user.address.city, 4 score.
    request = ScanRequest(projection=((1, 0),), filters=(call("<", AGE, lit(30)),))
    out = source.scan(request).read_all()
    assert out.column_names == ["user.name"]
    # Row groups where every row passes read user.name alone; the others add user.age.
    assert sorted(map(tuple, read)) == [(1,), (1,), (1,), (1, 2), (1, 2), (1, 2)]
    read.clear()
    # COUNT(*) where every row group passes or is skipped reads no data at all.
    count = source.scan(ScanRequest(projection=(), filters=(call("<", AGE, lit(5)),))).read_all()
    assert count.num_rows == 50 and count.num_columns == 0
    assert read == []


def test_footers_are_cached_until_the_file_changes(
    users: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    real = parquet_footers.pq.ParquetFile

    def counting(path: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("metadata") is None:
            opened.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(parquet_footers.pq, "ParquetFile", counting)
    parquet_footers.clear_footer_cache()
    source = FileSystemSource(users, "parquet", SCHEMA)
    request = ScanRequest(columns=("id",), filters=(call("<", AGE, lit(30)),))
    first = source.scan(request).read_all().num_rows
    source.scan(request).read_all()
    assert len(opened) == 1  # the second scan used the cached footer
    # Rewritten in place (same inode): the new contents are read.
    file = users / "part-0.parquet"
    pq.write_table(_table().slice(0, 100), file, row_group_size=GROUP)
    assert source.scan(request).read_all().num_rows < first
    assert len(opened) == 2
    # Replaced by a rename: read again as well.
    other = users.parent / "other.parquet"
    pq.write_table(_table().slice(0, 10), other)
    os.replace(other, file)
    assert source.scan(request).read_all().num_rows == 10
    assert len(opened) == 3


def test_files_with_other_types_go_through_the_dataset_scanner(tmp_path: Path) -> None:
    """A file whose id is INT and one without score still read as the table declares."""
    directory = tmp_path / "mixed"
    directory.mkdir()
    table = _table()
    pq.write_table(table.slice(0, 300), directory / "a.parquet", row_group_size=GROUP)
    narrow = table.slice(300).set_column(0, "id", table.slice(300)["id"].cast(pa.int32()))
    pq.write_table(narrow.drop_columns(["score"]), directory / "b.parquet")
    source = FileSystemSource(directory, "parquet", SCHEMA)
    request = ScanRequest(columns=("id", "score"), filters=(call(">=", AGE, lit(25)),))
    out = source.scan(request).read_all()
    assert out.schema.field("id").type == pa.int64()
    sql = (
        f"SELECT id, NULL::DOUBLE AS score FROM read_parquet('{directory}/b.parquet') "
        'WHERE "user".age >= 25 UNION ALL '
        f"SELECT id, score FROM read_parquet('{directory}/a.parquet') WHERE \"user\".age >= 25"
    )
    assert rows(out) == rows(duckdb.sql(sql).arrow().read_all())


def test_several_files_keep_their_order_and_metadata(users: Path) -> None:
    pq.write_table(_table().slice(0, 120), users / "part-1.parquet", row_group_size=GROUP)
    pq.write_table(_table().slice(0, 5), users / "_ignored.parquet")
    source = FileSystemSource(users, "parquet", SCHEMA)
    keys = ("file.name",)
    request = ScanRequest(columns=("id",), filters=(call("<", AGE, lit(3)),), metadata_keys=keys)
    out = source.scan(request).read_all().to_pylist()
    names = [r["file.name"] for r in out]
    assert names == sorted(names) and set(names) == {"part-0.parquet", "part-1.parquet"}
    assert len(out) == 2 * 30
    counted = source.scan(
        ScanRequest(projection=(), filters=(call("<", AGE, lit(3)),), metadata_keys=keys)
    ).read_all()
    assert counted.num_rows == 60 and counted.column_names == ["file.name"]


def test_limit_stops_after_enough_rows(users: Path) -> None:
    source = FileSystemSource(users, "parquet", SCHEMA)
    request = ScanRequest(columns=("id",), filters=(call("<", AGE, lit(30)),), limit=7)
    out = source.scan(request).read_all()
    assert out["id"].to_pylist() == [None, 1, 2, 3, 4, 5, 6]


# --- through SQL ---------------------------------------------------------------------------


QUERIES = [
    "SELECT id, `user`.name, `user`.address.city, score FROM users WHERE `user`.age < 30",
    "SELECT id, `user` FROM users WHERE `user`.age >= 40 AND id > 100",
    "SELECT `user`.address.city FROM users WHERE `user`.address.city = 'c1'",
    "SELECT id, `user`.address FROM users "
    "WHERE `user`.address IS NULL OR `user`.address.city IS NULL",
    "SELECT * FROM users WHERE `user` IS NULL",
    "SELECT id FROM users WHERE `user`.age IS NULL",
    "SELECT id, score FROM users WHERE score <> 1.0 AND `user`.age BETWEEN 10 AND 20",
    "SELECT id, `user`.name FROM users WHERE `user`.age < 3 OR `user`.name LIKE 'n5_'",
]


def _duck_sql(sql: str, path: Path) -> str:
    return (
        sql.replace("`user`", '"user"')
        .replace("FROM users", f"FROM read_parquet('{path}/*.parquet')")
        .replace("`", '"')
    )


@pytest.fixture
def sql_env(env: cb.Environment, users: Path) -> cb.Environment:
    env.execute(DDL.format(name="users", path=users))
    env.register_source("users_off", NoPushdown(users, "parquet", SCHEMA))
    return env


@pytest.mark.parametrize("sql", QUERIES)
def test_queries_equal_duckdb_and_pushdown_off(
    sql_env: cb.Environment, users: Path, sql: str
) -> None:
    plan = sql_env.explain(sql)
    assert "filter=[" in plan.splitlines()[-1]
    assert "$condition" not in plan  # the source applies every filter itself
    got = rows(sql_env.sql(sql).to_arrow_table())
    assert got == rows(duckdb.sql(_duck_sql(sql, users)).arrow().read_all())
    off = sql.replace("FROM users", "FROM users_off")
    assert "filter=[" not in sql_env.explain(off)
    assert got == rows(sql_env.sql(off).to_arrow_table())


def test_nested_projection_reads_fields_not_rows(sql_env: cb.Environment, users: Path) -> None:
    sql = "SELECT id, `user`.name, score FROM users WHERE `user`.age < 30 OR `user` IS NULL"
    plan = sql_env.explain(sql)
    assert "project=[[id, user.name, score]]" in plan
    assert "filter=[OR(<(user.age, 30), IS NULL(user))]" in plan
    result = sql_env.sql(sql).to_arrow_table()
    # NULL ROWs give NULL names; NULL names stay NULL.
    names = dict(zip(result["id"].to_pylist(), result["name"].to_pylist(), strict=True))
    assert names[97] is None and names[17] is None and names[1] == "n1"


def test_a_replaced_file_is_read_afresh(sql_env: cb.Environment, users: Path) -> None:
    sql = "SELECT COUNT(*) FROM users WHERE `user`.age < 30"
    assert sql_env.sql(sql).fetchall() == [(300 - 3,)]
    tmp = users.parent / "new.parquet"
    pq.write_table(_table().slice(0, 40), tmp, row_group_size=GROUP)
    shutil.move(tmp, users / "part-0.parquet")
    assert sql_env.sql(sql).fetchall() == [(40,)]
