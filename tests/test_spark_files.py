"""The spark backend over a ``filesystem`` table's Parquet files, read by Spark's own reader.

The cases of ``fixtures/spark_files.sql`` (the queries of bench/spark_files.py) give the same
rows on Spark, on DuckDB (reading the files itself) and on Calcite's engine, NULLs included.
Spark's relation over the files is kept in the session while they are unchanged (as a user of
Spark alone reads a view made once): a rewritten, added or removed file is read as it is now,
a kept relation its user dropped is made again, and closing the environment drops them.

One ``local[1]`` session serves the module."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from tests.helpers.fixtures import load_cases

import calcite_bridge as cb

pyspark = pytest.importorskip("pyspark", reason="the spark extra: pip install '.[spark]'")

CASES = {case.name: case.sql for case in load_cases("spark_files.sql")}

LOC = pa.struct([("zone", pa.string()), ("borough", pa.string())])


def _trips(first: int, rows: int) -> pa.Table:
    """Trips ``first`` to ``first + rows - 1``: every 7th loc NULL, every 11th zone NULL inside
    its loc, every 5th fare NULL; zones z0 to z5 in six boroughs of two regions."""
    ids = list(range(first, first + rows))
    locs = [
        None
        if i % 7 == 0
        else {"zone": None if i % 11 == 0 else f"z{i % 6}", "borough": f"b{i % 3}"}
        for i in ids
    ]
    return pa.table(
        {
            "id": pa.array(ids, pa.int64()),
            "loc": pa.array(locs, LOC),
            "fare": pa.array([None if i % 5 == 0 else (i % 9) * 1.25 for i in ids], pa.float64()),
            "passengers": pa.array([i % 4 for i in ids], pa.int32()),
        }
    )


DDL = (
    "CREATE TABLE trips (id BIGINT, loc ROW<zone STRING, borough STRING>, fare DOUBLE, "
    "passengers INT) WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = 'parquet')"
)
ZONES = pa.table({"borough": ["b0", "b1", "b2", "b9"], "region": ["r0", "r1", "r0", "r1"]})


@pytest.fixture(scope="module")
def spark() -> Any:
    from calcite_bridge import _spark

    return _spark.local_session()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("spark_files")
    (root / "trips").mkdir()
    for i in range(3):
        pq.write_table(_trips(i * 40, 40), root / "trips" / f"part-{i}.parquet")
    pq.write_table(ZONES, root / "zones.parquet")
    return root


def _environment(backend: str, folder: Path, spark: Any = None) -> cb.Environment:
    env = (
        cb.connect(backend=backend, spark=spark)
        if spark is not None
        else cb.connect(backend=backend)
    )
    env.execute(DDL.format(path=folder / "trips"))
    env.execute(
        "CREATE TABLE zones (borough STRING, region STRING) WITH ('connector' = 'filesystem', "
        f"'path' = '{folder / 'zones.parquet'}', 'format' = 'parquet')"
    )
    return env


@pytest.fixture(scope="module")
def envs(spark: Any, folder: Path) -> Iterator[tuple[cb.Environment, ...]]:
    made = tuple(
        _environment(b, folder, spark if b == "spark" else None)
        for b in ("spark", "duckdb", "enumerable")
    )
    yield made
    for env in made:
        env.close()


def _rows(env: cb.Environment, sql: str) -> list[tuple[Any, ...]]:
    rows = [tuple(r.values()) for r in env.sql(sql).to_arrow_table().to_pylist()]
    return sorted(rows, key=lambda r: tuple((v is None, v) for v in r))


def _kept(spark: Any) -> list[str]:
    """The relations over files kept in the session (temporary views ``cb_files_*``)."""
    return [t.name for t in spark.catalog.listTables() if t.name.startswith("cb_files_")]


@pytest.mark.parametrize("name", list(CASES))
def test_same_rows_as_duckdb_and_the_reference(envs: tuple[cb.Environment, ...], name: str) -> None:
    on_spark, on_duckdb, reference = envs
    sql = CASES[name]
    assert on_spark.explain(sql).startswith("Spark(")
    expected = _rows(reference, sql)
    assert expected, name  # every case has rows
    assert _rows(on_spark, sql) == expected
    assert _rows(on_duckdb, sql) == expected


def test_the_nested_filter_is_sparks_readers(envs: tuple[cb.Environment, ...]) -> None:
    """Spark's plan of a scan of the kept relation: the nested filter in its Parquet reader,
    only the fields used read."""
    plan = envs[0].explain(CASES["selective_nested_filter"])
    pushed = next(line for line in plan.splitlines() if "PushedFilters" in line)
    assert "EqualTo(loc.zone,z1)" in pushed
    schema = next(line for line in plan.splitlines() if "ReadSchema" in line)
    assert schema.strip() == "ReadSchema: struct<loc:struct<zone:string>,fare:double>"


def test_one_relation_kept_per_table_and_dropped_on_close(
    spark: Any, folder: Path, tmp_path: Path
) -> None:
    env = _environment("spark", folder, spark)
    before = set(_kept(spark))
    for name in ("top_n_zones", "selective_nested_filter", "join_on_nested_field"):
        env.sql(CASES[name]).fetchall()
    kept = set(_kept(spark)) - before
    assert len(kept) == 2  # trips and zones, each made once
    env.close()
    assert set(_kept(spark)) == before - kept


def test_changed_added_and_removed_files_are_read_as_they_are_now(
    spark: Any, tmp_path: Path
) -> None:
    """Spark's relation over the files is kept only while they are unchanged."""
    (tmp_path / "trips").mkdir()
    for i in range(2):
        pq.write_table(_trips(i * 40, 40), tmp_path / "trips" / f"part-{i}.parquet")
    pq.write_table(ZONES, tmp_path / "zones.parquet")
    on_spark = _environment("spark", tmp_path, spark)
    reference = _environment("enumerable", tmp_path)
    sql = CASES["group_by_nested_field"]
    try:
        assert _rows(on_spark, sql) == _rows(reference, sql)
        # rewritten with other rows (another size)
        pq.write_table(_trips(1000, 75), tmp_path / "trips" / "part-1.parquet")
        assert _rows(on_spark, sql) == _rows(reference, sql)
        # rewritten with as many rows of other values: the same size, a later modification time
        path = tmp_path / "trips" / "part-0.parquet"
        stat = path.stat()
        pq.write_table(_trips(40, 40), path)
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        assert _rows(on_spark, sql) == _rows(reference, sql)
        pq.write_table(_trips(5000, 10), tmp_path / "trips" / "part-2.parquet")
        assert _rows(on_spark, sql) == _rows(reference, sql)
        (tmp_path / "trips" / "part-0.parquet").unlink()
        got = _rows(on_spark, sql)
        assert got == _rows(reference, sql)
        assert sum(r[1] for r in got) == 85
    finally:
        on_spark.close()
        reference.close()


def test_a_kept_relation_dropped_by_its_user_is_made_again(
    spark: Any, envs: tuple[cb.Environment, ...]
) -> None:
    on_spark, _, reference = envs
    sql = CASES["top_n_zones"]
    on_spark.sql(sql).fetchall()
    for name in _kept(spark):
        spark.catalog.dropTempView(name)
    assert _rows(on_spark, sql) == _rows(reference, sql)
    assert _kept(spark)


def test_a_statement_reads_more_tables_of_files_than_are_kept(
    spark: Any, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The relations a statement reads stay until it has run; the oldest past the limit are
    dropped after it."""
    from calcite_bridge import _spark

    monkeypatch.setattr(_spark, "RELATIONS", 1)
    on_spark = _environment("spark", folder, spark)
    reference = _environment("enumerable", folder)
    before = set(_kept(spark))
    try:
        sql = CASES["join_on_nested_field"]
        assert _rows(on_spark, sql) == _rows(reference, sql)
        assert len(set(_kept(spark)) - before) == 1
    finally:
        on_spark.close()
        reference.close()
