"""ROW values as keys: Calcite's engine holds a ROW as an array and its hash tables compare arrays
by identity, so it refuses GROUP BY, DISTINCT, joins on ``=`` and set operations of ROWs (with
an error naming the construct) rather than give a wrong answer; ``auto`` runs them on DuckDB,
which compares ROWs by value."""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa
import pytest

import calcite_bridge as cb

QUERIES = {
    "SELECT COUNT(DISTINCT pt) FROM t": "an aggregate of DISTINCT a ROW value",
    "SELECT pt, COUNT(*) FROM t GROUP BY pt": "GROUP BY or DISTINCT of a ROW value",
    "SELECT DISTINCT pt FROM t": "GROUP BY or DISTINCT of a ROW value",
    "SELECT a.id, b.id FROM t a JOIN t b ON a.pt = b.pt": "a join on a ROW value",
    "SELECT pt FROM t UNION SELECT pt FROM t": "UNION of a ROW value",
    "SELECT pt FROM t INTERSECT SELECT pt FROM t": "INTERSECT of a ROW value",
    "SELECT DISTINCT ARRAY[pt] FROM t": "GROUP BY or DISTINCT of a ROW value",
}


@pytest.fixture(scope="module")
def rows() -> Iterator[cb.Environment]:
    """In this process: DuckDB reads the registered Arrow table where it is."""
    env = cb.connect()
    env.register_arrow(
        "t",
        pa.table(
            {
                "id": pa.array([1, 2, 3, 4, 5], pa.int32()),
                "pt": pa.array(
                    [
                        {"x": 1, "y": "a"},
                        {"x": 1, "y": "a"},
                        {"x": 2, "y": None},
                        None,
                        {"x": 2, "y": None},
                    ]
                ),
            }
        ),
    )
    yield env
    env.close()


def _sorted(table: pa.Table) -> list[str]:
    return sorted(str(r) for r in table.to_pylist())


@pytest.mark.parametrize("sql", list(QUERIES))
def test_calcites_engine_refuses_rows_as_keys(rows: cb.Environment, sql: str) -> None:
    with pytest.raises(cb.UnsupportedError, match=QUERIES[sql]):
        rows.sql(sql, backend="enumerable").to_arrow_table()


@pytest.mark.parametrize("sql", [q for q in QUERIES if "ARRAY" not in q])
def test_auto_answers_as_duckdb(rows: cb.Environment, sql: str) -> None:
    auto = rows.sql(sql, backend="auto").to_arrow_table()
    duck = rows.sql(sql, backend="duckdb").to_arrow_table()
    assert _sorted(auto) == _sorted(duck)


def test_duckdb_groups_rows_by_value(rows: cb.Environment) -> None:
    counts = rows.sql("SELECT COUNT(DISTINCT pt) AS n FROM t", backend="auto").to_arrow_table()
    assert counts.to_pylist() == [{"n": 2}]


def test_a_comparison_of_rows_in_a_filter_runs(rows: cb.Environment) -> None:
    got = rows.sql("SELECT id FROM t WHERE pt = ROW(1, 'a')", backend="enumerable").to_arrow_table()
    assert sorted(got.column("id").to_pylist()) == [1, 2]
