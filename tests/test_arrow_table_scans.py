"""``register_arrow`` tables on the duckdb backend: a scan without filters or a limit hands DuckDB
the table's own columns (``ArrowTableSource.table_scan``), any other scan a stream. Every query
must give the reference's answer, NULLs included, whatever the table's chunks, column order and
types (a type the planner maps to another is cast, as before)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pytest
from tests.differential.harness import SAME, compare
from tests.helpers.tables import Counting

import calcite_bridge as cb
from calcite_bridge import _duckdb
from calcite_bridge.sources import ArrowTableSource, ScanRequest

ROWS = 50


def _table() -> pa.Table:
    ids = list(range(ROWS))
    table = pa.table(
        {
            "id": pa.array(ids, pa.int64()),
            "k": pa.array([None if i % 7 == 0 else i % 4 for i in ids], pa.int32()),
            "s": pa.array([None if i % 5 == 0 else f"s{i % 3}" for i in ids], pa.large_string()),
            "u": pa.array([None if i % 6 == 0 else i for i in ids], pa.uint16()),
            "v": pa.array([None if i % 9 == 0 else i / 4 for i in ids], pa.float64()),
            "r": pa.array(
                [None if i % 8 == 0 else {"a": i, "b": None if i % 3 else "x"} for i in ids],
                pa.struct([("a", pa.int32()), ("b", pa.string())]),
            ),
        }
    )
    # Several chunks, the middle one a slice with an offset.
    return pa.concat_tables([table.slice(0, 17), table.slice(17, 20), table.slice(37)])


QUERIES = {
    "star": "SELECT * FROM t",
    "reordered": "SELECT v, id, k FROM t",
    "one_column_twice": "SELECT id, id AS again FROM t",
    "group_by": "SELECT k, COUNT(*) AS n, SUM(v) AS total, MAX(u) AS top FROM t GROUP BY k",
    "cast_types": "SELECT s, u FROM t WHERE id > 3",
    "filtered": "SELECT id, r.a FROM t WHERE k = 2",
    "nested": "SELECT r.b, COUNT(*) AS n FROM t GROUP BY r.b",
    "limit": "SELECT id FROM t ORDER BY v DESC NULLS LAST, id LIMIT 5",
    "join": "SELECT a.id, b.id AS other FROM t a JOIN t b ON a.k = b.k AND a.id < b.id "
    "WHERE a.id < 10",
}


TABLE = _table()


@pytest.fixture(scope="module")
def env() -> Iterator[cb.Environment]:
    e = cb.connect()
    e.register_arrow("t", TABLE)
    yield e
    e.close()


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_same_answers_as_the_reference(env: cb.Environment, name: str) -> None:
    outcome = compare(env, "arrow_table_scans", name, QUERIES[name])
    assert outcome.status == SAME, outcome.detail


def test_a_plain_scan_hands_over_the_table_itself(
    env: cb.Environment, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[Any] = []
    run = _duckdb.run

    def spy(
        sql: str, scans: list[Any], schema: pa.Schema, statement: str | None, *rest: Any
    ) -> Any:
        seen.extend(scans)
        return run(sql, scans, schema, statement, *rest)

    monkeypatch.setattr(_duckdb, "run", spy)
    env.sql("SELECT k, COUNT(*) AS n FROM t GROUP BY k", backend="duckdb").to_arrow_table()
    assert len(seen) == 1 and isinstance(seen[0], pa.Table)
    handed = [c.buffers()[1].address for c in seen[0].column(0).chunks]
    assert handed == [c.buffers()[1].address for c in TABLE.column("k").chunks], "not a copy"
    seen.clear()
    env.sql("SELECT k, COUNT(*) AS n FROM t WHERE id > 2 GROUP BY k", backend="duckdb").fetchall()
    assert len(seen) == 1 and isinstance(seen[0], pa.RecordBatchReader)


def test_table_scan_answers_only_plain_requests() -> None:
    source = ArrowTableSource(TABLE)
    assert source.table_scan(ScanRequest(columns=("v", "id"))).schema.names == ["v", "id"]
    assert source.table_scan(ScanRequest(projection=((1,), (0,)))).schema.names == ["k", "id"]
    assert source.table_scan(ScanRequest()).num_columns == 6
    assert source.table_scan(ScanRequest(columns=())).num_rows == ROWS
    assert source.table_scan(ScanRequest(columns=("id",), limit=3)) is None
    assert source.table_scan(ScanRequest(projection=((5, 0),))) is None
    assert source.table_scan(ScanRequest(columns=("id", "id"))) is None


@pytest.mark.parametrize("backend", ["enumerable", "duckdb", "auto"])
def test_a_column_selected_twice_keeps_its_values(env: cb.Environment, backend: str) -> None:
    # The scan absorbs the query, and its column goes to the result twice.
    out = env.sql("SELECT id, k, id AS again, k AS k2 FROM t", backend=backend).to_arrow_table()
    assert out.column("again").equals(TABLE.column("id"))
    assert out.column("k2").equals(TABLE.column("k"))
    assert out.column("k").null_count == TABLE.column("k").null_count > 0


def test_names_that_differ_only_in_case_stay_on_the_reference() -> None:
    # DuckDB would read `id` for `ID`: the translation refuses, and auto falls back.
    with cb.connect() as e:
        e.register_arrow("c", pa.table({"id": [1, 2, 3], "ID": [10, 20, 30]}))
        sql = "SELECT SUM(`ID`) AS n, SUM(id) AS m FROM c"
        with pytest.raises(cb.UnsupportedError, match="differ only in case"):
            e.sql(sql, backend="duckdb").fetchall()
        assert e.explain(sql).startswith("Enumerable")
        assert e.sql(sql).to_pylist() == [{"n": 60, "m": 6}]


@pytest.mark.parametrize("backend", ["enumerable", "duckdb"])
@pytest.mark.parametrize(
    ("where", "count"),
    [
        ("c IN (0.0E0, 1.5E0)", 3),
        ("c IN (-0.0E0, 1.5E0)", 3),
        ("c IN (CAST(0.0 AS DOUBLE), CAST(1 AS BIGINT), CAST(1.5 AS DOUBLE))", 3),
        ("c NOT IN (0.0E0, 2.5E0)", 1),
        ("c IN (0.0E0, CAST(NULL AS DOUBLE))", 2),
        ("c = 0.0E0", 2),
    ],
)
def test_a_pushed_in_list_holds_negative_and_positive_zero_equal(
    backend: str, where: str, count: int
) -> None:
    # pyarrow's is_in hashes -0.0 and 0.0 apart: the IN filter pushed into the scan dropped -0.0
    # (SQL's = holds them equal, as a memory table and DuckDB alone did).
    zeros = pa.table({"c": pa.array([-0.0, 0.0, 1.5, None], pa.float64())})
    with cb.connect(backend=backend) as env:
        env.register_arrow("z", zeros)
        assert env.sql(f"SELECT COUNT(*) FROM z WHERE {where}").fetchall() == [(count,)]
    import duckdb

    assert duckdb.sql(f"SELECT COUNT(*) FROM zeros WHERE {where.replace('E0', '')}").fetchall() == [
        (count,)
    ]


@pytest.mark.parametrize("join", ["JOIN", "LEFT JOIN"])
def test_a_nested_loop_join_scans_its_inner_source_once(join: str) -> None:
    # Calcite's engine enumerated a nested-loop join's inner input again for each outer row: the
    # inner Python source was scanned once per outer row (3,001 scans for two 3,000-row tables).
    import duckdb

    o = pa.table({"a": pa.array([0, 1, 2, 3, None], pa.int64())})
    i = pa.table({"b": pa.array([0, 1, None], pa.int64()), "c": pa.array([2, 2, 1], pa.int64())})
    outer, inner = Counting(o), Counting(i)
    sql = (
        f"SELECT a, b, c FROM o {join} i ON a >= c - 2 AND a <= COALESCE(b, 2) "
        "AND (b IS NULL OR a = b) ORDER BY a NULLS LAST, b NULLS LAST"
    )
    with cb.connect(backend="enumerable") as env:
        env.register_source("o", outer)
        env.register_source("i", inner)
        assert "NestedLoopJoin" in env.explain(sql)
        rows = env.sql(sql).fetchall()
    con = duckdb.connect()
    con.register("o", o)
    con.register("i", i)
    assert rows == con.execute(sql).fetchall()
    assert any(r[1] is None for r in rows)
    assert (outer.scans, inner.scans) == (1, 1)
