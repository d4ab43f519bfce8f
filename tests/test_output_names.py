"""A result's column names are unique as Flink makes them (``a, a0, a1``): the queries of
tests/flink/names/cases.sql against Flink's names in golden.tsv (tools/flink_names.py), on every
backend, in the result and in ``validate``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import calcite_bridge as cb

GOLDEN = Path(__file__).parent / "flink" / "names" / "golden.tsv"
CASES = [
    (parts[0], parts[1:])
    for line in GOLDEN.read_text().splitlines()
    if line and not line.startswith("#")
    for parts in [line.split("\t")]
]


@pytest.fixture(scope="module")
def env() -> Iterator[cb.Environment]:
    with cb.connect() as e:
        e.execute("CREATE TABLE l (a INT, b INT) WITH ('connector' = 'memory')")
        e.execute("CREATE TABLE r (a INT, c INT) WITH ('connector' = 'memory')")
        e.execute("INSERT INTO l VALUES (1, 10)")
        e.execute("INSERT INTO r VALUES (1, 100)")
        yield e


@pytest.mark.parametrize("backend", ["auto", "enumerable", "duckdb"])
@pytest.mark.parametrize(("sql", "names"), CASES, ids=[c[0] for c in CASES])
def test_column_names_are_flinks(
    env: cb.Environment, sql: str, names: list[str], backend: str
) -> None:
    if names == ["error"]:
        with pytest.raises(cb.SqlValidationError):
            env.sql(sql, backend=backend)
        return
    try:
        table = env.sql(sql, backend=backend).to_arrow_table()
    except cb.UnsupportedError:
        assert backend == "duckdb", sql  # names differing only in case; auto falls back
        return
    assert table.schema.names == names
    assert [c.name for c in env.validate(sql)] == names


def test_two_files_metadata_columns_get_distinct_names(tmp_path: Path) -> None:
    for side in ("x", "y"):
        (tmp_path / side).mkdir()
        pq.write_table(pa.table({"k": [1]}), tmp_path / side / f"{side}.parquet")
    with cb.connect() as env:
        for side in ("x", "y"):
            env.execute(
                f"CREATE TABLE {side} (k INT, `file.name` STRING METADATA VIRTUAL) "
                f"WITH ('connector' = 'filesystem', 'path' = '{tmp_path / side}', "
                "'format' = 'parquet')"
            )
        sql = "SELECT x.`file.name`, y.`file.name` FROM x JOIN y ON x.k = y.k"
        rows = env.sql(sql).to_arrow_table()
        assert rows.schema.names == ["file.name", "file.name0"]
        assert rows.to_pylist() == [{"file.name": "x.parquet", "file.name0": "y.parquet"}]
