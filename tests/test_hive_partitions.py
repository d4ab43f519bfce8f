"""Partitioned ``filesystem`` tables (``PARTITIONED BY``, directories ``col=value``): the same rows
as DuckDB alone reading the same directories with ``hive_partitioning``, on every backend and
format, NULL partitions included; filters on partition columns read only the matching
directories; INSERT writes each row into its partition's directory
(tests/fixtures/hive_partitions.sql)."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from tests.helpers.fixtures import load_cases

import calcite_bridge as cb
from calcite_bridge import _duckdb

CASES = load_cases("hive_partitions.sql", keys={"reads"})
FORMATS = ("parquet", "csv", "json")
BACKENDS = ("enumerable", "duckdb", "auto")
COLUMNS = "id BIGINT, v DOUBLE, s STRING, y INT, r STRING"
KEYS = "PARTITIONED BY (y, r)"
# (y, r) directory values and the ids of the rows in each
PARTITIONS: dict[tuple[str, str], list[int]] = {
    ("2023", "eu"): [1, 2, 3],
    ("2023", "us"): [4],
    ("2024", "eu"): [5, 6],
    ("2024", "a%2Fb"): [7],
    ("2025", "__HIVE_DEFAULT_PARTITION__"): [8, 9],
    ("__DEFAULT_PARTITION__", "us"): [10],
    ("__DEFAULT_PARTITION__", "__DEFAULT_PARTITION__"): [11],
}


def _data(ids: list[int]) -> pa.Table:
    return pa.table(
        {
            "id": pa.array(ids, pa.int64()),
            "v": pa.array([None if i % 5 == 0 else i * 0.5 for i in ids], pa.float64()),
            "s": pa.array([None if i % 4 == 0 else f"s{i}" for i in ids], pa.string()),
        }
    )


def _write(path: Path, fmt: str, table: pa.Table) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "parquet":
        pq.write_table(table, path)
    elif fmt == "csv":
        lines = ["id,v,s"]
        for row in table.to_pylist():
            lines.append(",".join("" if row[k] is None else str(row[k]) for k in ("id", "v", "s")))
        path.write_text("\n".join(lines) + "\n")
    else:
        path.write_text("".join(json.dumps(row) + "\n" for row in table.to_pylist()))


def _ddl(name: str, path: Path, fmt: str) -> str:
    return (
        f"CREATE TABLE {name} ({COLUMNS}) {KEYS} WITH ('connector' = 'filesystem', "
        f"'path' = '{path}', 'format' = '{fmt}')"
    )


def _duckdb_alone(path: Path, fmt: str) -> str:
    """DuckDB's own reading of the directories at ``path``, Flink's NULL partition name read as
    NULL (DuckDB reads Hive's as NULL itself)."""
    hive = "hive_partitioning = true, hive_types = {'y': VARCHAR, 'r': VARCHAR}"
    files = f"'{path}/**/*.{fmt}'"
    if fmt == "parquet":
        read = f"read_parquet({files}, {hive})"
    elif fmt == "csv":
        read = (
            f"read_csv({files}, {hive}, header = true, "
            "columns = {'id': 'BIGINT', 'v': 'DOUBLE', 's': 'VARCHAR'})"
        )
    else:
        read = (
            f"read_json({files}, {hive}, format = 'newline_delimited', "
            "columns = {'id': 'BIGINT', 'v': 'DOUBLE', 's': 'VARCHAR'})"
        )
    return (
        "SELECT id, v, s, CAST(NULLIF(y, '__DEFAULT_PARTITION__') AS INTEGER) AS y, "
        f"NULLIF(r, '__DEFAULT_PARTITION__') AS r FROM {read}"
    )


@pytest.fixture(scope="module")
def dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("hive")
    out = {}
    for fmt in FORMATS:
        for (y, r), ids in PARTITIONS.items():
            _write(root / fmt / f"y={y}" / f"r={r}" / f"part-0.{fmt}", fmt, _data(ids))
        out[fmt] = root / fmt
    return out


@pytest.fixture(scope="module")
def env(dirs: dict[str, Path]) -> Iterator[cb.Environment]:
    e = cb.connect()
    for fmt, path in dirs.items():
        e.execute(_ddl(f"hp_{fmt}", path, fmt))
    yield e
    e.close()


@pytest.fixture(scope="module")
def alone(dirs: dict[str, Path]) -> Iterator[duckdb.DuckDBPyConnection]:
    connection = duckdb.connect()
    for fmt, path in dirs.items():
        connection.execute(f"CREATE VIEW hp_{fmt} AS {_duckdb_alone(path, fmt)}")
    yield connection
    connection.close()


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kind of every scan the duckdb backend runs over: ``duckdb`` or ``pyarrow``."""
    seen: list[str] = []
    run = _duckdb.run

    def spy(
        sql: str, scan_list: list[Any], schema: pa.Schema, statement: str | None, *rest: Any
    ) -> Any:
        seen.extend("duckdb" if isinstance(s, _duckdb.Query) else "pyarrow" for s in scan_list)
        return run(sql, scan_list, schema, statement, *rest)

    monkeypatch.setattr(_duckdb, "run", spy)
    return seen


def _key(value: Any) -> tuple[int, Any]:
    if value is None:
        return (0, 0)
    if isinstance(value, float) and math.isnan(value):
        return (1, 0)
    return (2, value)


def _same(ours: list[tuple[Any, ...]], theirs: list[tuple[Any, ...]], ordered: bool) -> None:
    if not ordered:
        ours = sorted(ours, key=lambda row: [_key(v) for v in row])
        theirs = sorted(theirs, key=lambda row: [_key(v) for v in row])
    assert [tuple(r) for r in ours] == [tuple(r) for r in theirs]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_same_rows_as_duckdb_alone(
    env: cb.Environment,
    alone: duckdb.DuckDBPyConnection,
    scans: list[str],
    case: Any,
    fmt: str,
    backend: str,
) -> None:
    sql = case.sql.replace("hp", f"hp_{fmt}")
    env.execute(f"SET 'execution.backend' = '{backend}'")
    ours = env.execute(sql).fetchall()
    theirs = alone.execute(sql).fetchall()
    _same(ours, theirs, "ORDER BY" in sql.upper())
    expected = case.get("reads")
    if backend == "duckdb" and fmt == "parquet" and expected is not None:
        assert scans, "the query did not run on duckdb"
        assert ("pyarrow" if "pyarrow" in scans else "duckdb") == expected, scans


def test_only_the_matching_partitions_are_read(tmp_path: Path) -> None:
    """A file of another partition that cannot be read fails a scan of it, and no scan whose
    filter leaves its partition out."""
    for (y, r), ids in PARTITIONS.items():
        _write(tmp_path / f"y={y}" / f"r={r}" / "part-0.parquet", "parquet", _data(ids))
    (tmp_path / "y=1999" / "r=eu").mkdir(parents=True)
    (tmp_path / "y=1999" / "r=eu" / "part-0.parquet").write_bytes(b"not parquet")
    with cb.connect() as e:
        e.execute(_ddl("t", tmp_path, "parquet"))
        for backend in BACKENDS:
            e.execute(f"SET 'execution.backend' = '{backend}'")
            assert e.execute("SELECT COUNT(*) FROM t WHERE y = 2024").fetchall() == [(3,)]
            assert e.execute("SELECT id FROM t WHERE y > 2024").fetchall() == [(8,), (9,)]
            with pytest.raises(cb.ExecutionError):
                e.execute("SELECT id FROM t WHERE y < 2024").fetchall()


def test_explain_shows_the_partition_filter_in_the_scan(env: cb.Environment) -> None:
    env.execute("SET 'execution.backend' = 'enumerable'")
    text = env.explain("SELECT id FROM hp_parquet WHERE y = 2024 AND v > 1")
    assert "BridgeTableScan(table=[[hp_parquet]], filter=[and(=(y, 2024), >(v, 1" in text
    # Flink's EXPLAIN statement shows the scan as Flink's filesystem source does: the partitions
    # the filter on partition columns keeps, the other filters listed in the scan and kept in a
    # Calc above it, which needs their columns from the scan.
    statement = env.execute("EXPLAIN SELECT id FROM hp_parquet WHERE y = 2024 AND v > 1")
    text = statement.fetchall()[0][0]
    scan = (
        "hp_parquet, partitions=[{r=a/b, y=2024}, {r=eu, y=2024}], filter=[>(v, 1.0E0:DOUBLE)], "
        "project=[id, v], metadata=[]]], fields=[id, v])"
    )
    assert "Calc(select=[id], where=[>(v, 1.0E0:DOUBLE)])" in text
    assert "Calc(select=[id], where=[(v > 1.0E0:DOUBLE)])" in text
    assert "+- TableSourceScan(table=[[default_catalog, default_database, " + scan in text
    # No partition passes: no scan at all, as in Flink.
    text = env.execute("EXPLAIN SELECT id FROM hp_parquet WHERE y = 1999").fetchall()[0][0]
    assert "Values(tuples=[[]], values=[id])" in text
    assert "TableSourceScan" not in text.split("== Optimized Physical Plan ==")[1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_value_that_does_not_fit_the_declared_type_is_an_error(
    tmp_path: Path, backend: str
) -> None:
    _write(tmp_path / "y=2024" / "r=eu" / "part-0.parquet", "parquet", _data([1]))
    _write(tmp_path / "y=later" / "r=eu" / "part-0.parquet", "parquet", _data([2]))
    with cb.connect() as e:
        e.execute(_ddl("t", tmp_path, "parquet"))
        e.execute(f"SET 'execution.backend' = '{backend}'")
        with pytest.raises(cb.ExecutionError, match=r"y=later.*'later'.*'y' is not a INT"):
            e.execute("SELECT id FROM t").fetchall()


def test_insert_writes_each_row_into_its_partition(tmp_path: Path) -> None:
    path = tmp_path / "out"
    with cb.connect() as e:
        e.execute(
            f"CREATE TABLE t ({COLUMNS}) {KEYS} WITH ('connector' = 'filesystem', "
            f"'path' = '{path}', 'format' = 'parquet', 'sink.create-path' = 'true')"
        )
        e.execute(
            "INSERT INTO t VALUES (1, 0.5, 'a', 2024, 'eu'), (2, 1.0, 'b', 2024, 'eu'), "
            "(3, 1.5, 'c', 2024, 'a/b:c'), (4, 2.0, 'd', CAST(NULL AS INT), 'us'), "
            "(5, 2.5, 'e', 2025, '')"
        )
        dirs = sorted(
            os.path.relpath(folder, path)
            for folder, _, files in os.walk(path)
            if any(f.endswith(".parquet") for f in files)
        )
        assert dirs == [
            "y=2024/r=a%2Fb%3Ac",
            "y=2024/r=eu",
            "y=2025/r=__DEFAULT_PARTITION__",
            "y=__DEFAULT_PARTITION__/r=us",
        ]
        written = pq.read_table(next((path / "y=2024" / "r=eu").iterdir()))
        assert written.column_names == ["id", "v", "s"]
        expected = [
            (1, 0.5, "a", 2024, "eu"),
            (2, 1.0, "b", 2024, "eu"),
            (3, 1.5, "c", 2024, "a/b:c"),
            (4, 2.0, "d", None, "us"),
            (5, 2.5, "e", 2025, None),
        ]
        for backend in BACKENDS:
            e.execute(f"SET 'execution.backend' = '{backend}'")
            assert e.execute("SELECT * FROM t ORDER BY id").fetchall() == expected
    theirs = duckdb.connect().execute(f"{_duckdb_alone(path, 'parquet')} ORDER BY id").fetchall()
    assert theirs == expected


def test_partition_default_name_is_the_tables_option(tmp_path: Path) -> None:
    _write(tmp_path / "y=none" / "r=eu" / "part-0.parquet", "parquet", _data([1]))
    with cb.connect() as e:
        e.execute(
            f"CREATE TABLE t ({COLUMNS}) {KEYS} WITH ('connector' = 'filesystem', "
            f"'path' = '{tmp_path}', 'format' = 'parquet', 'partition.default-name' = 'none')"
        )
        for backend in BACKENDS:
            e.execute(f"SET 'execution.backend' = '{backend}'")
            assert e.execute("SELECT id, y, r FROM t").fetchall() == [(1, None, "eu")]
        e.execute("INSERT INTO t VALUES (2, 1.0, 'x', CAST(NULL AS INT), 'us')")
        assert (tmp_path / "y=none" / "r=us").is_dir()


def test_a_partition_linked_from_outside_the_allowed_paths_is_refused(tmp_path: Path) -> None:
    allowed, outside = tmp_path / "allowed", tmp_path / "outside"
    _write(allowed / "t" / "y=2024" / "r=eu" / "part-0.parquet", "parquet", _data([1]))
    _write(outside / "r=us" / "part-0.parquet", "parquet", _data([2]))
    with cb.connect(config={"filesystem.allowed-paths": str(allowed)}) as e:
        e.execute(_ddl("t", allowed / "t", "parquet"))
        (allowed / "t" / "y=2025").mkdir()
        os.symlink(outside / "r=us", allowed / "t" / "y=2025" / "r=us")
        for backend in BACKENDS:
            e.execute(f"SET 'execution.backend' = '{backend}'")
            with pytest.raises(cb.AccessDeniedError, match="symbolic link"):
                e.execute("SELECT id FROM t WHERE y = 2024").fetchall()


def test_delete_and_update_rewrite_the_partitions(tmp_path: Path) -> None:
    for (y, r), ids in PARTITIONS.items():
        _write(tmp_path / f"y={y}" / f"r={r}" / "part-0.parquet", "parquet", _data(ids))
    with cb.connect() as e:
        e.execute(_ddl("t", tmp_path, "parquet"))
        e.execute("DELETE FROM t WHERE y = 2023 OR id = 10")
        e.execute("UPDATE t SET r = 'asia' WHERE id = 5")
        expected = [
            (5, 2024, "asia"),
            (6, 2024, "eu"),
            (7, 2024, "a/b"),
            (8, 2025, None),
            (9, 2025, None),
            (11, None, None),
        ]
        for backend in BACKENDS:
            e.execute(f"SET 'execution.backend' = '{backend}'")
            assert e.execute("SELECT id, y, r FROM t ORDER BY id").fetchall() == expected
    theirs = duckdb.connect().execute(
        f"SELECT id, y, r FROM ({_duckdb_alone(tmp_path, 'parquet')}) ORDER BY id"
    )
    assert theirs.fetchall() == expected


def test_spark_gets_the_partitions_the_connector_reads(dirs: dict[str, Path]) -> None:
    pytest.importorskip("pyspark", reason="the spark extra: pip install '.[spark]'")
    from calcite_bridge import _spark

    session = _spark.local_session()
    with cb.connect(spark=session) as e:
        for fmt, path in dirs.items():
            e.execute(_ddl(f"hp_{fmt}", path, fmt))
        for fmt in FORMATS:
            for sql in (
                "SELECT * FROM hp_{fmt}",
                "SELECT id, r FROM hp_{fmt} WHERE y = 2024",
                "SELECT id FROM hp_{fmt} WHERE y IS NULL OR r IS NULL",
                "SELECT r, COUNT(*) FROM hp_{fmt} WHERE y > 2022 GROUP BY r",
                "SELECT COUNT(*) FROM hp_{fmt} WHERE y = 1999",
            ):
                query = sql.format(fmt=fmt)
                ours = e.sql(query, backend="spark").fetchall()
                _same(ours, e.sql(query, backend="enumerable").fetchall(), ordered=False)
