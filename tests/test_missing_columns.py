"""A declared column that no file holds reads as NULL, with one MissingColumnWarning a statement;
``'source.missing-columns'`` makes it an error (``'error'``) or silent (``'null'``)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
import pytest

import calcite_bridge as cb

BACKENDS = ["enumerable", "duckdb", "auto"]
FORMATS = ["parquet", "csv"]


def _write(path: Path, fmt: str, table: pa.Table) -> None:
    if fmt == "parquet":
        pq.write_table(table, path)
    else:
        pcsv.write_csv(table, path)


@pytest.fixture(params=FORMATS)
def files(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, Path]:
    fmt = request.param
    folder = tmp_path / "trips"
    folder.mkdir()
    _write(folder / f"a.{fmt}", fmt, pa.table({"id": [1, 2], "fare": [1.5, 2.5]}))
    # 'tip' is in one file only: that is not missing
    _write(folder / f"b.{fmt}", fmt, pa.table({"id": [3], "fare": [3.5], "tip": [0.5]}))
    return fmt, folder


def _env(backend: str, fmt: str, folder: Path, mode: str | None = None) -> cb.Environment:
    env = cb.connect(config={"execution.backend": backend})
    option = "" if mode is None else f", 'source.missing-columns' = '{mode}'"
    env.execute(
        "CREATE TABLE trips (id INT, fare DOUBLE, tip DOUBLE, zone STRING) WITH ("
        f"'connector' = 'filesystem', 'path' = '{folder}', 'format' = '{fmt}'{option})"
    )
    return env


def _run(env: cb.Environment, sql: str) -> tuple[list[dict[str, object]], list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows = env.sql(sql).to_pylist()
    found = [str(w.message) for w in caught if issubclass(w.category, cb.MissingColumnWarning)]
    return rows, found


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_column_no_file_holds_reads_as_null_with_one_warning(
    backend: str, files: tuple[str, Path]
) -> None:
    fmt, folder = files
    env = _env(backend, fmt, folder)
    rows, found = _run(env, "SELECT id, zone FROM trips ORDER BY id")
    assert rows == [{"id": 1, "zone": None}, {"id": 2, "zone": None}, {"id": 3, "zone": None}]
    assert len(found) == 1, found
    assert "'zone'" in found[0] and str(folder) in found[0] and "'tip'" not in found[0]
    assert "source.missing-columns" in found[0]
    # a filter on it is a read of it too
    rows, found = _run(env, "SELECT COUNT(*) AS n FROM trips WHERE zone IS NULL")
    assert rows == [{"n": 3}] and len(found) == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_columns_some_file_holds_give_no_warning(backend: str, files: tuple[str, Path]) -> None:
    fmt, folder = files
    env = _env(backend, fmt, folder)
    rows, found = _run(env, "SELECT id, tip FROM trips ORDER BY id")
    assert rows == [{"id": 1, "tip": None}, {"id": 2, "tip": None}, {"id": 3, "tip": 0.5}]
    assert found == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_error_setting_refuses_the_query_and_the_null_setting_is_silent(
    backend: str, files: tuple[str, Path]
) -> None:
    fmt, folder = files
    env = _env(backend, fmt, folder, "error")
    with pytest.raises(cb.SourceError, match=r"'zone'.*none of its 2"):
        env.sql("SELECT id, zone FROM trips").to_pylist()
    # a query that does not read the column runs
    assert _run(env, "SELECT SUM(fare) AS s FROM trips") == ([{"s": 7.5}], [])
    env = _env(backend, fmt, folder, "null")
    rows, found = _run(env, "SELECT zone FROM trips")
    assert rows == [{"zone": None}] * 3 and found == []


def test_a_bad_setting_is_a_config_error(tmp_path: Path) -> None:
    env = cb.connect()
    with pytest.raises(cb.ConfigError, match=r"source\.missing-columns"):
        env.execute(
            "CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'path' = "
            f"'{tmp_path}', 'format' = 'csv', 'source.missing-columns' = 'ignore')"
        )
        env.sql("SELECT a FROM t").to_pylist()


def test_partition_columns_are_not_missing(tmp_path: Path) -> None:
    part = tmp_path / "t" / "k=1"
    part.mkdir(parents=True)
    pq.write_table(pa.table({"a": [1]}), part / "f.parquet")
    env = cb.connect()
    env.execute(
        "CREATE TABLE t (a INT, k INT) PARTITIONED BY (k) WITH ('connector' = 'filesystem', "
        f"'path' = '{tmp_path / 't'}', 'format' = 'parquet')"
    )
    assert _run(env, "SELECT a, k FROM t") == ([{"a": 1, "k": 1}], [])
